/* tests/plugins/ctor.c: registers from an ELF constructor, while the
 * loader opens it, not from its init (the registry must refuse it, and
 * the loader the plugin: exit 2). */
#include "core/registry.h"
#include "sched/order.h"

PNRSIM_PLUGIN_DECLARE;

static double key(void *state, const sched_job_info *j, double now)
{
    (void)state;
    (void)now;
    return (double)j->order;
}
static const sched_order_ops ops = {.key = key};
static int fake;

__attribute__((constructor)) static void early(void)
{
    pnrsim_register((pnrsim_registry *)(void *)&fake, PNRSIM_KIND_PRIORITY, "CTORORDER",
                    "registered from a constructor", &ops);
}

int pnrsim_plugin_init(pnrsim_registry *r, int api_version)
{
    (void)r;
    (void)api_version;
    return 0;
}
