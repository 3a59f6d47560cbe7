/* tests/plugins/bad_key.c: declares a key whose default is outside its
 * range, and ignores the refusal (exit 2). */
#include "core/registry.h"

PNRSIM_PLUGIN_DECLARE;

int pnrsim_plugin_init(pnrsim_registry *r, int api_version)
{
    (void)api_version;
    pnrsim_register_key(r, "badkey", "alpha", PNRSIM_KEY_DOUBLE, 0, 1, 5, "", "out of range");
    return 0;
}
