/* core/registry.h: the registry of named components (issue 34), public.
 *
 * Every policy point of pnrsim is a kind of component, and every component
 * is found by its kind and name in one registry: the built-in ones (the
 * report's CENTRAL ... BACKBONE, FCFS ... F1, EASY, FIRSTFIT ...) register
 * themselves at start-up exactly as a plugin's do (app/components.c), and
 * a configuration key such as scheduler.priority names one. A component is
 * a name, a one-line description and a table of functions (`ops`) whose
 * type depends on the kind; the tables are declared by the kind's public
 * header:
 *
 *   PNRSIM_KIND_STRATEGY    netram.strategy       pnr/strategy_api.h
 *   PNRSIM_KIND_PRIORITY    scheduler.priority    sched/order.h
 *   PNRSIM_KIND_BACKFILL    scheduler.backfill    sched/reserve.h
 *   PNRSIM_KIND_PACKING     scheduler.packing     sched/packing.h
 *   PNRSIM_KIND_ALLOCATION  scheduler.allocation  sched/allocation.h
 *
 * A plugin is a shared object exporting PNRSIM_PLUGIN_ENTRY (see
 * pnrsim_plugin_init_fn below); it registers its components, and the keys
 * of its own [plugin.NAME] section, through the functions of this header.
 * The registry is one per process, filled before any configuration is read
 * and never emptied; registration order is kept, so listing it and the
 * index of a component within its kind are deterministic.
 *
 * Every public header of pnrsim carries this header's API version: a
 * plugin built against another version is refused when loaded. The
 * version changes whenever a public header changes incompatibly.
 */
#ifndef PNRSIM_CORE_REGISTRY_H
#define PNRSIM_CORE_REGISTRY_H

#include "core/rng.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of the public interface (this header and the kinds'). */
#define PNRSIM_API_VERSION 1

/* The symbol every plugin exports, and its type: register the plugin's
 * components and keys in r, built against api_version == the
 * PNRSIM_API_VERSION of the headers it was compiled with (the loader
 * passes its own and the plugin compares). Return 0, or non-zero to refuse
 * (the loader reports the plugin's failure and stops before the run). */
#define PNRSIM_PLUGIN_ENTRY "pnrsim_plugin_init"
typedef struct pnrsim_registry pnrsim_registry;
typedef int (*pnrsim_plugin_init_fn)(pnrsim_registry *r, int api_version);
/* The entry point a plugin defines (declared here with C linkage, so that
 * a C++ plugin's definition has the name the loader looks for). */
int pnrsim_plugin_init(pnrsim_registry *r, int api_version);

/* Every plugin also says, once in one of its files at file scope, which
 * API version it was built against:
 *
 *     PNRSIM_PLUGIN_DECLARE;
 *
 * which defines the exported `const int pnrsim_plugin_api` (named by
 * PNRSIM_PLUGIN_API_SYMBOL). The loader reads it before calling the entry
 * point and refuses a plugin without it or with another version, so a
 * mismatch is caught even when init does not check api_version. */
#define PNRSIM_PLUGIN_API_SYMBOL "pnrsim_plugin_api"
#define PNRSIM_PLUGIN_DECLARE                                                            \
    extern const int pnrsim_plugin_api;                                                  \
    const int pnrsim_plugin_api = PNRSIM_API_VERSION

typedef enum pnrsim_kind {
    PNRSIM_KIND_STRATEGY,
    PNRSIM_KIND_PRIORITY,
    PNRSIM_KIND_BACKFILL,
    PNRSIM_KIND_PACKING,
    PNRSIM_KIND_ALLOCATION,
    PNRSIM_NKINDS
} pnrsim_kind;

/* Limits: names are 1 to PNRSIM_NAME_MAX - 1 characters of [A-Za-z0-9_-]. */
#define PNRSIM_NAME_MAX 32
#define PNRSIM_MAX_COMPONENTS 64   /* per kind */
#define PNRSIM_MAX_KEYS 64         /* plugin keys, all plugins together */

/* Return codes of the registering functions. */
#define PNRSIM_OK 0
#define PNRSIM_EDUP (-1)     /* the kind already has that name (or the key exists) */
#define PNRSIM_EINVAL (-2)   /* bad kind, name, ops, type, range or default */
#define PNRSIM_EFULL (-3)    /* a limit above reached */

/* One registered component; read-only for everyone but the registry. */
typedef struct pnrsim_component {
    pnrsim_kind kind;
    int index;                  /* registration order within its kind, from 0 */
    char name[PNRSIM_NAME_MAX];
    const char *description;    /* one line */
    const void *ops;            /* the kind's table (see the list above) */
    const char *origin;         /* "built in", or the plugin's path */
} pnrsim_component;

/* Register component `name` of `kind` with its ops table (not copied: it
 * must outlive the process, as a plugin's static table does) and a
 * one-line description (not copied either). Returns PNRSIM_OK,
 * PNRSIM_EDUP, PNRSIM_EINVAL (kind out of range, name empty, too long or
 * not [A-Za-z0-9_-], ops or description NULL, a control character such as
 * a newline in the description, or called outside a plugin's init) or
 * PNRSIM_EFULL. Registrations are accepted only during the plugin's init
 * call (not from an ELF constructor, not later); the ops table's required
 * members (the kind header's "Required" comments) are checked when init
 * returns, and a plugin missing one is refused. */
int pnrsim_register(pnrsim_registry *r, pnrsim_kind kind, const char *name,
                    const char *description, const void *ops);

/* A plugin's key, in section [plugin.SECTION]: a number in [min, max]
 * (PNRSIM_KEY_INT: a whole number) with a default, a unit ("" for none)
 * and a one-line comment; validated, printed and recorded like every
 * built-in key, and usable in a sweep's [vary]. */
typedef enum pnrsim_key_type { PNRSIM_KEY_DOUBLE, PNRSIM_KEY_INT } pnrsim_key_type;
/* Declare a key (during the plugin's init only, as pnrsim_register).
 * Returns its handle (>= 0), which the plugin keeps to read the value
 * (pnrsim_ctx_value), or PNRSIM_EDUP (section.key exists), PNRSIM_EINVAL
 * (bad name, min > max, a non-finite bound, the default out of range, not
 * whole for an int, a control character in the unit or comment, or
 * outside init) or PNRSIM_EFULL. */
int pnrsim_register_key(pnrsim_registry *r, const char *section, const char *key,
                        pnrsim_key_type type, double min, double max, double def,
                        const char *unit, const char *comment);

/* What a component gets when a run creates it: its keys' values and its
 * own random stream. */
typedef struct pnrsim_ctx {
    const double *values;   /* every plugin key's value, by handle */
    uint64_t seed;          /* the run's master seed (resolved) */
    rng_gen generator;      /* the run's generator */
} pnrsim_ctx;
/* The value of key `handle` in this run. */
double pnrsim_ctx_value(const pnrsim_ctx *c, int handle);
/* A new random stream of the component's own, named `name` (say the
 * component's name; the whole name counts, however long): independent of
 * every other stream of the run and reproducible from the seed. The
 * caller frees it with rng_free. */
rng_t *pnrsim_ctx_stream(const pnrsim_ctx *c, const char *name, uint64_t index);

/* ---- lookup and listing (read-only; for plugins too) ----
 * The host-only functions (the registry pointer, the registration
 * windows, marks and rollback, the first error) are in
 * core/registry_host.h, which is not public. */

/* The component of kind with that name (exact, case-insensitive as
 * configuration names are), or NULL. */
const pnrsim_component *pnrsim_find(pnrsim_kind kind, const char *name);
/* The component of kind with that index, or NULL when out of range. */
const pnrsim_component *pnrsim_at(pnrsim_kind kind, int index);
/* The number of components of kind. */
int pnrsim_count(pnrsim_kind kind);
/* The names of kind's components in order, NULL-terminated (valid until
 * the next registration). */
const char *const *pnrsim_names(pnrsim_kind kind);
/* The configuration key that chooses a component of kind
 * ("netram.strategy", ...), and the kind's short name ("strategy"). */
const char *pnrsim_kind_key(pnrsim_kind kind);
const char *pnrsim_kind_name(pnrsim_kind kind);

/* A plugin key as registered. */
typedef struct pnrsim_key {
    char section[PNRSIM_NAME_MAX + 7];   /* "plugin.NAME" */
    char key[PNRSIM_NAME_MAX];
    pnrsim_key_type type;
    double min, max, def;
    const char *unit, *comment;
    const char *origin;
} pnrsim_key;
/* The number of plugin keys declared so far, every plugin's together; the
 * handles are 0 .. pnrsim_nkeys() - 1, in declaration order. */
int pnrsim_nkeys(void);
/* The key of that handle (as pnrsim_register_key returned it), or NULL
 * when out of range; valid for the process (keys are never removed once
 * their plugin is loaded). */
const pnrsim_key *pnrsim_key_at(int handle);

#ifdef __cplusplus
}
#endif

#endif
