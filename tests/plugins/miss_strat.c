/* tests/plugins/miss_strat.c: two strategies breaking pnr/strategy_api.h's
 * contract: NOMANAGER has no .manager (built with -DMISS_MANAGERS: NOSET
 * broadcasts to PNR_BROADCAST_MANAGERS without .managers). Refused at
 * load, exit 2. */
#include "core/registry.h"
#include "pnr/strategy_api.h"

PNRSIM_PLUGIN_DECLARE;

static int manager(void *state, pnr_host *h, const pnr_job *j, int node)
{
    (void)state;
    (void)h;
    (void)j;
    return node;
}

#ifdef MISS_MANAGERS
static const pnr_strategy_ops ops = {.broadcast = PNR_BROADCAST_MANAGERS, .manager = manager};
#define NAME "NOSET"
#else
static const pnr_strategy_ops ops = {.broadcast = PNR_BROADCAST_NONE, .select_server = 0};
#define NAME "NOMANAGER"
#endif

int pnrsim_plugin_init(pnrsim_registry *r, int api_version)
{
    (void)api_version;
    (void)manager;
    return pnrsim_register(r, PNRSIM_KIND_STRATEGY, NAME, "breaks the contract", &ops) != 0;
}
