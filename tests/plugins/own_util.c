/* tests/plugins/own_util.c: defines a global function of its own named
 * like one of pnrsim's internals (util_now, app/util.h); its calls must
 * reach its own (pnrsim exports its public API only), so init succeeds
 * and registers OWNUTIL only when util_now() is 4242. */
#include "core/registry.h"
#include "sched/order.h"

PNRSIM_PLUGIN_DECLARE;

double util_now(void);
double util_now(void)
{
    return 4242.0;
}

static double key(void *state, const sched_job_info *j, double now)
{
    (void)state;
    (void)now;
    return (double)j->order;
}
static const sched_order_ops ops = {.key = key};

int pnrsim_plugin_init(pnrsim_registry *r, int api_version)
{
    (void)api_version;
    if (util_now() != 4242.0)
        return 42;
    return pnrsim_register(r, PNRSIM_KIND_PRIORITY, "OWNUTIL", "has its own util_now", &ops) != 0;
}
