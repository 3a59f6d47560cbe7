/* tests/plugins/miss_alloc.c: an allocation without its required .choose
 * (refused at load, exit 2). */
#include "core/registry.h"
#include "sched/allocation.h"

PNRSIM_PLUGIN_DECLARE;
static const sched_alloc_ops ops = {.create = 0};

int pnrsim_plugin_init(pnrsim_registry *r, int api_version)
{
    (void)api_version;
    return pnrsim_register(r, PNRSIM_KIND_ALLOCATION, "NOCHOOSE", "no choose", &ops) != 0;
}
