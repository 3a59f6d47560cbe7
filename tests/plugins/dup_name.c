/* tests/plugins/dup_name.c: registers the built-in name FCFS again and
 * ignores the refusal (the loader must see it: exit 2). */
#include "core/registry.h"

PNRSIM_PLUGIN_DECLARE;
static const int ops;

int pnrsim_plugin_init(pnrsim_registry *r, int api_version);
int pnrsim_plugin_init(pnrsim_registry *r, int api_version)
{
    (void)api_version;
    pnrsim_register(r, PNRSIM_KIND_PRIORITY, "DUPFIRST", "registered, then rolled back", &ops);
    pnrsim_register(r, PNRSIM_KIND_PRIORITY, "fcfs", "a duplicate", &ops);
    return 0;
}
