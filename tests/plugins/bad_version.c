/* tests/plugins/bad_version.c: built "for another API version": its
 * pnrsim_plugin_api is not PNRSIM_API_VERSION (refused, exit 2). */
#include "core/registry.h"

extern const int pnrsim_plugin_api;
const int pnrsim_plugin_api = PNRSIM_API_VERSION + 1;
static const int ops;

int pnrsim_plugin_init(pnrsim_registry *r, int api_version);
int pnrsim_plugin_init(pnrsim_registry *r, int api_version)
{
    (void)api_version; /* does not check: the loader must */
    return pnrsim_register(r, PNRSIM_KIND_PRIORITY, "BADVERSION", "wrong version", &ops);
}
