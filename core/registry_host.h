/* core/registry_host.h: the registry's host-only functions (issue 34):
 * what the loader (app/plugin.c), the built-ins' registration
 * (app/components.c) and the tests use to fill the registry; not
 * installed, not exported to plugins (a plugin gets the registry as its
 * init's argument and reads it through core/registry.h).
 *
 * Registration windows: the registry accepts pnrsim_register and
 * pnrsim_register_key only while the host has it open, which it does for
 * the built-ins' registration and around each plugin's init call. A
 * registration at any other time (from an ELF constructor while the
 * plugin is opened, from a component's create during a run, ...) is
 * refused with PNRSIM_EINVAL and recorded as the first error, so the
 * loader refuses the plugin that made it, naming the file.
 */
#ifndef PNRSIM_CORE_REGISTRY_HOST_H
#define PNRSIM_CORE_REGISTRY_HOST_H

#include "core/registry.h"

/* The process's registry (what the host passes to the registering
 * functions). */
pnrsim_registry *pnrsim_registry_get(void);

/* The component of kind whose ops table is ops, or NULL: how the host
 * names a component whose answer broke its interface's rules (it holds
 * the table, not the name). O(components of the kind). */
const pnrsim_component *pnrsim_component_of(pnrsim_kind kind, const void *ops);

/* Open the registry to registrations (until pnrsim_registry_close).
 * Nesting is not counted: close closes. */
void pnrsim_registry_open(void);
void pnrsim_registry_close(void);

/* What the loader sets around a plugin's init: the origin recorded with
 * every component and key registered until the next call (the registry
 * keeps the pointer: pass a string that outlives the process). NULL means
 * "built in". */
void pnrsim_set_origin(const char *origin);

/* A mark of the registry's contents, and a rollback to it (everything
 * registered since is forgotten): the loader undoes a plugin whose init
 * failed. pnrsim_mark_get also clears the first error (below). */
typedef struct pnrsim_mark {
    int n[PNRSIM_NKINDS];
    int nkeys;
} pnrsim_mark;
pnrsim_mark pnrsim_mark_get(void);
void pnrsim_rollback(pnrsim_mark m);

/* The first registration refused since the last pnrsim_mark_get (or the
 * start): its code (PNRSIM_EDUP, PNRSIM_EINVAL, PNRSIM_EFULL; PNRSIM_OK
 * for none) and, when what is not NULL, *what = what was refused
 * ("priority FCFS: already registered (built in)"), valid until the next
 * refusal. The loader refuses a plugin whose init refused nothing to it
 * but had a registration refused. */
int pnrsim_first_error(const char **what);

#endif
