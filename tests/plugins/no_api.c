/* tests/plugins/no_api.c: an init but no PNRSIM_PLUGIN_DECLARE (exit 2). */
#include "core/registry.h"

int pnrsim_plugin_init(pnrsim_registry *r, int api_version)
{
    (void)r;
    (void)api_version;
    return 0;
}
