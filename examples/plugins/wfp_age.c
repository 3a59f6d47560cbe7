/* examples/plugins/wfp_age.c: a queue order (scheduler.priority = WFP_AGE)
 * with WFP-style ageing and a tunable exponent, as a pnrsim plugin
 * (issue 34; docs/PLUGINS.md "A queue order").
 *
 * WFP3 (Tang, Lan, Desai and Buettner, "Fault-aware, utility-based job
 * scheduling on Blue Gene/P systems", 2009) ranks waiting jobs by
 * (w/e)^3 * n, w the wait so far, e the estimate, n the threads: a job's
 * priority grows with its wait relative to its length, and wide jobs age
 * faster. The exponent sets how hard ageing pushes: 0 is "widest first"
 * (no ageing at all), 1 grows linearly with the wait, 3 is WFP3, larger
 * exponents approach "the most overdue job first". Here it is the key
 * [plugin.wfp_age] exponent (default 3, range [0, 10]), so a study can
 * sweep it ([vary] plugin.wfp_age.exponent = 1, 2, 3).
 *
 *   key = -(w / e)^a * n     (lower first; e below 1 s counts as 1 s, as
 *                             for the built-in WFP3: sched/orders.c)
 *
 * It depends on the time (re-evaluated at every pass). Build:
 *   cc -shared -fPIC $(pkg-config --cflags pnrsim) wfp_age.c -o wfp_age.so
 * Use: pnrsim --plugin wfp_age.so, with scheduler.priority = WFP_AGE.
 * With a = 3 it orders as WFP3 (pow(r, 3) and r*r*r may differ in the last
 * bit, so two jobs whose WFP3 keys are within an ulp could swap).
 */
#include "core/registry.h"
#include "sched/order.h"

#include <math.h>
#include <stdlib.h>

static int exponent_key = -1;   /* the key's handle (pnrsim_register_key) */

typedef struct wfp_age {
    double a;
} wfp_age;

static void *wfp_create(const pnrsim_ctx *ctx)
{
    wfp_age *s = malloc(sizeof *s);
    if (s)
        s->a = pnrsim_ctx_value(ctx, exponent_key);
    return s;
}

static void wfp_destroy(void *state) { free(state); }

static double wfp_key(void *state, const sched_job_info *j, double now)
{
    const wfp_age *s = state;
    double e = j->estimate < 1 ? 1 : j->estimate;
    double r = (now - j->submit) / e;
    return -pow(r, s->a) * (double)j->threads;
}

static const sched_order_ops wfp_age_ops = {
    .create = wfp_create,
    .destroy = wfp_destroy,
    .key = wfp_key,
    .flags = SCHED_ORDER_TIME_DEPENDENT,
    .bucket = SCHED_BUCKET_NONE,
};

/* The API version this plugin is built against, read by the loader. */
PNRSIM_PLUGIN_DECLARE;

int pnrsim_plugin_init(pnrsim_registry *r, int api_version);

int pnrsim_plugin_init(pnrsim_registry *r, int api_version)
{
    if (api_version != PNRSIM_API_VERSION)
        return 1;
    int h = pnrsim_register_key(r, "wfp_age", "exponent", PNRSIM_KEY_DOUBLE, 0, 10, 3, "",
                                "WFP_AGE's ageing exponent a: key -(wait/estimate)^a x threads");
    if (h < 0)
        return 1;
    exponent_key = h;
    return pnrsim_register(r, PNRSIM_KIND_PRIORITY, "WFP_AGE",
                           "WFP-style ageing, -(wait/estimate)^a x threads, a = "
                           "[plugin.wfp_age] exponent",
                           &wfp_age_ops) != PNRSIM_OK;
}
