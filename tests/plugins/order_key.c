/* tests/plugins/order_key.c: a well-behaved test plugin (tests/test_plugins.sh):
 * a queue order TESTORDER (a placeholder ops table until sched/order.h
 * exists) and two keys, [plugin.testorder] weight (a number in [0, 10],
 * default 1.5) and depth (an integer in [1, 8], default 2). Includes only
 * the installed public headers. */
#include "core/registry.h"

PNRSIM_PLUGIN_DECLARE;

static const struct { int placeholder; } ops = {0};

int pnrsim_plugin_init(pnrsim_registry *r, int api_version);
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
