/* tests/plugins/bad_desc.c: a description with a newline (it would break
 * --list-components' table): refused, exit 2. */
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

int pnrsim_plugin_init(pnrsim_registry *r, int api_version)
{
    (void)api_version;
    pnrsim_register(r, PNRSIM_KIND_PRIORITY, "TWOLINES", "line one\nline two", &ops);
    return 0;
}
