/* tests/plugins/miss_order.c: a queue order without its required .key
 * (refused at load, exit 2, naming the member). */
#include "core/registry.h"
#include "sched/order.h"

PNRSIM_PLUGIN_DECLARE;
static const sched_order_ops ops = {.flags = 0};

int pnrsim_plugin_init(pnrsim_registry *r, int api_version)
{
    (void)api_version;
    return pnrsim_register(r, PNRSIM_KIND_PRIORITY, "NOKEY", "no key", &ops) != PNRSIM_OK;
}
