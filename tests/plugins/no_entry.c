/* tests/plugins/no_entry.c: declares its version but exports no
 * pnrsim_plugin_init (exit 2). */
#include "core/registry.h"

PNRSIM_PLUGIN_DECLARE;
int pnrsim_plugin_other(void);
int pnrsim_plugin_other(void)
{
    return 0;
}
