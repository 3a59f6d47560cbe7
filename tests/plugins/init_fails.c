/* tests/plugins/init_fails.c: registers a name, then its init fails
 * (exit 2, and the name is rolled back). */
#include "core/registry.h"
#include "sched/packing.h"

PNRSIM_PLUGIN_DECLARE;
static const sched_packing_ops ops = {.flags = SCHED_PACK_FIRST};

int pnrsim_plugin_init(pnrsim_registry *r, int api_version)
{
    (void)api_version;
    pnrsim_register(r, PNRSIM_KIND_PACKING, "HALFDONE", "rolled back", &ops);
    return 7;
}
