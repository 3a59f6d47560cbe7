/* tests/plugins/miss_pack.c: a packing without .better and without
 * SCHED_PACK_FIRST (refused at load, exit 2). */
#include "core/registry.h"
#include "sched/packing.h"

PNRSIM_PLUGIN_DECLARE;
static const sched_packing_ops ops = {.flags = 0};

int pnrsim_plugin_init(pnrsim_registry *r, int api_version)
{
    (void)api_version;
    return pnrsim_register(r, PNRSIM_KIND_PACKING, "NOBETTER", "no better", &ops) != 0;
}
