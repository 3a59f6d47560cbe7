/* tests/plugins/bad_version.c: built "for another API version": its
 * pnrsim_plugin_api is not PNRSIM_API_VERSION (refused, exit 2). */
#include "core/registry.h"
#include "sched/order.h"

extern const int pnrsim_plugin_api;
const int pnrsim_plugin_api = PNRSIM_API_VERSION + 1;
static double key(void *state, const sched_job_info *j, double now)
{
    (void)state;
    (void)now;
    return (double)j->order;
}
static const sched_order_ops ops = {.key = key};

int pnrsim_plugin_init(pnrsim_registry *r, int api_version)
{
    (void)api_version; /* does not check: the loader must */
    return pnrsim_register(r, PNRSIM_KIND_PRIORITY, "BADVERSION", "wrong version", &ops);
}
