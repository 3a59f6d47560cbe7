/* app/config_keys.h: the table of every configuration key (key_def) and
 * lookup in it (app/config_keys.c). Private to the configuration module
 * (app/config.h lists its files in their layers). */
#ifndef PNRSIM_APP_CONFIG_KEYS_H
#define PNRSIM_APP_CONFIG_KEYS_H

#include "app/config_names.h"
#include "app/config_types.h"
#include "core/registry.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

#define NOMAX HUGE_VAL

typedef enum {
    KT_STRING,  /* char[size]; min = minimum length (0 or 1) */
    KT_DOUBLE,  /* finite double in [min, max] (or (min, max] if min_open) */
    KT_INT,     /* int in [min, max] */
    KT_LONG,    /* long in [min, max] */
    KT_U64,     /* uint64_t, any value */
    KT_BOOL,    /* bool */
    KT_ENUM,    /* int-sized enum, index into names */
    KT_STATUS,  /* int[size] + int count at count_offset; items in [min, max] */
    KT_RAM,     /* computer.ram: one MB value in [min, max], or COUNTxMB groups */
    KT_TIME,    /* double in [min, max], seconds, written with an optional
                 * unit s, m, h or d (100h, 2d); stored in seconds */
    KT_SPEED,   /* computer.speed: one factor in (min, max], or COUNTxSPEED groups */
} key_type;

typedef struct key_def {
    const char *section;
    const char *key;
    key_type type;
    size_t offset;            /* of the value in struct config */
    size_t size;              /* KT_STRING: buffer size; KT_STATUS: capacity */
    size_t count_offset;      /* KT_STATUS: offset of the count */
    double min, max;          /* allowed range; max HUGE_VAL = none */
    bool min_open;            /* the value must be > min, not >= min */
    const char *const *names; /* KT_ENUM: names by value, NULL-terminated */
    const char *def;          /* default, as written in reference.ini */
    const char *unit;         /* also the key's dimension: "s" (or "s ...")
                               * a time, "MB" (or "MB ...") a memory size,
                               * which then take units (config_lookup.h) */
    const char *comment;
    const char *pnrsim;       /* PNRSim names, '|'-separated, or NULL */
    bool zero_off;            /* KT_DOUBLE: 0 (= off) is allowed too */
    /* KT_STRING: a check of the text beyond the generic ones (0, or -1
     * with the problem in why), and what it allows, for messages and
     * comments; NULL = none. */
    int (*validate)(const char *text, char *why, size_t n);
    const char *allowed;
    /* 1 + the registry's kind (core/registry.h) when the key names a
     * component (KT_ENUM with names NULL: the registry's names), else 0. */
    int component;
    /* KT_DOUBLE: the value must be a whole number (a plugin's
     * PNRSIM_KEY_INT key, stored as a double). */
    bool whole;
} key_def;

/* The names a KT_ENUM key accepts: its list, or the registry's. */
const char *const *key_names(const key_def *kd);

typedef struct cfg_section {
    const char *name;
    const char *comment;
} cfg_section;

/* The table (config_keys.c): every key, and the sections in file order.
 * The first cfg_nbuiltin keys are pnrsim's own; after them come the keys
 * the loaded plugins declared (core/registry.h pnrsim_register_key), in
 * sections "plugin.NAME", stored in struct config's plugin_values by
 * handle (cfg_keys_sync adds them; a key's index never changes). */
extern const key_def *cfg_keys;
extern size_t cfg_nkeys;
extern size_t cfg_nbuiltin;
/* Rebuild the table from the registry's plugin keys: after a plugin is
 * loaded or rolled back (app/plugin.c). Pointers into the table taken
 * before may be stale; indices stay valid. */
void cfg_keys_sync(void);
/* The section listing the plugins to load ([plugins] load = a.so, b.so):
 * known to cfg_find_section, read by app/plugin.c before the rest of the
 * file (its only key, load, is skipped by the readers). */
#define CFG_PLUGINS_SECTION "plugins"
extern const cfg_section cfg_sections[];
extern const size_t cfg_nsections;

/* output.paje's check: no, yes (booleans too) or a plain file name
 * ending in .paje or .paje.gz. */
int cfg_check_paje(const char *text, char *why, size_t n);

/* process.fault_curves (issue 33): the next item APP:FILE of the list at
 * *p (items separated by commas, blanks around them ignored): 1 with *app
 * and file (n bytes, trimmed) set and *p moved past it; 0 at the end; -1
 * with the problem in why (wn bytes). */
int cfg_curves_next(const char **p, long *app, char *file, size_t n, char *why, size_t wn);
/* process.fault_curves' check: every item APP:FILE, no application twice,
 * at most CFG_CURVES_MAX items; empty is allowed. */
int cfg_check_curves(const char *text, char *why, size_t n);
/* process.dirty_fractions (issue 33): the next item APP:F of the list at
 * *p (as cfg_curves_next): 1 with *app and *f (in [0, 1]) set and *p
 * moved past it; 0 at the end; -1 with the problem in why (wn bytes). */
int cfg_dirty_next(const char **p, long *app, double *f, char *why, size_t wn);
/* process.dirty_fractions' check: every item APP:F, no application twice,
 * at most CFG_DIRTY_MAX items; empty is allowed. */
int cfg_check_dirty(const char *text, char *why, size_t n);
/* scheduler.reservations: "all" -> 0, "N" -> N (1 .. 1e6), else -1. */
int cfg_reservations(const char *text);
int cfg_check_reservations(const char *text, char *why, size_t n);
/* The largest fraction of the list text (valid) and dflt. */
double cfg_dirty_max(const char *text, double dflt);

/* The key named key in section (case-insensitive), or NULL. */
const key_def *cfg_find_key(const char *section, const char *key);
/* The canonical (lower-case) spelling of a section name, or NULL: a
 * built-in section, "plugins", or the "plugin.NAME" of a loaded plugin's
 * keys. */
const char *cfg_find_section(const char *section);

#endif
