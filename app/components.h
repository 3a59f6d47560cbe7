/* app/components.h: the built-in components (app/components.c), and the
 * check of every component's ops table against its kind's contract. */
#ifndef PNRSIM_APP_COMPONENTS_H
#define PNRSIM_APP_COMPONENTS_H

#include "core/registry.h"

/* Register every built-in component in the process's registry, once
 * (later calls do nothing), with the registry open to them, and check
 * each one (components_missing; a built-in breaking its contract aborts).
 * config_defaults calls it, so every reader of configuration finds the
 * built-ins. */
void components_init(void);

/* What c's ops table lacks of its kind's contract (the kind headers'
 * "Required" members): a phrase such as "no .key (required)" or
 * "broadcast PNR_BROADCAST_MANAGERS without .managers", or NULL when it
 * has everything. The loader refuses a plugin with such a component. */
const char *components_missing(const pnrsim_component *c);

#endif
