/* tests/plugins/calls_internal.c: calls one of pnrsim's internal
 * functions (components_init, app/components.h), which pnrsim does not
 * export: the load fails (undefined symbol), exit 2. */
#include "core/registry.h"

PNRSIM_PLUGIN_DECLARE;

void components_init(void);

int pnrsim_plugin_init(pnrsim_registry *r, int api_version)
{
    (void)r;
    (void)api_version;
    components_init();
    return 0;
}
