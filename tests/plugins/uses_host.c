/* tests/plugins/uses_host.c: calls a host function at init (rng_stream,
 * core/rng.h), which the program must export (-rdynamic); registers a
 * backfill USESHOST. */
#include "core/registry.h"
#include "sched/reserve.h"
#include "core/rng.h"

PNRSIM_PLUGIN_DECLARE;
static const sched_reserve_ops ops = {.flags = 0};

int pnrsim_plugin_init(pnrsim_registry *r, int api_version)
{
    if (api_version != PNRSIM_API_VERSION)
        return 1;
    pnrsim_ctx ctx = {0, 1, RNG_XOSHIRO256SS};
    rng_t *g = pnrsim_ctx_stream(&ctx, "USESHOST", 0);
    if (!g)
        return 2;
    rng_free(g);
    return pnrsim_register(r, PNRSIM_KIND_BACKFILL, "USESHOST", "test plugin: host symbols",
                           &ops);
}
