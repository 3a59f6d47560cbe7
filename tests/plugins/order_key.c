/* tests/plugins/order_key.c: a well-behaved test plugin (tests/test_plugins.sh):
 * a queue order TESTORDER (first come, first served by submit time, on the
 * public sched/order.h) and two keys, [plugin.testorder] weight (a number
 * in [0, 10], default 1.5) and depth (an integer in [1, 8], default 2).
 * Includes only the installed public headers. */
#include "core/registry.h"
#include "sched/order.h"

PNRSIM_PLUGIN_DECLARE;

static double key(void *state, const sched_job_info *j, double now)
{
    (void)state;
    (void)now;
    return j->submit;
}

static const sched_order_ops ops = {.key = key, .bucket = SCHED_BUCKET_NONE};

int pnrsim_plugin_init(pnrsim_registry *r, int api_version)
{
    if (api_version != PNRSIM_API_VERSION)
        return 1;
    if (pnrsim_register(r, PNRSIM_KIND_PRIORITY, "TESTORDER", "test plugin: a queue order",
                        &ops) != PNRSIM_OK)
        return 1;
    if (pnrsim_register_key(r, "testorder", "weight", PNRSIM_KEY_DOUBLE, 0, 10, 1.5, "",
                            "weight of the test order") < 0)
        return 1;
    if (pnrsim_register_key(r, "testorder", "depth", PNRSIM_KEY_INT, 1, 8, 2, "jobs",
                            "depth of the test order") < 0)
        return 1;
    return 0;
}
