/* app/config_lookup.h: what the key table tells beyond a name's exact
 * match (app/config_lookup.c): a key's dimension (a time, a memory size or
 * neither) read from its unit, and the known name nearest to a misspelt
 * one ("did you mean ram?"). Private to the configuration module
 * (app/config.h lists its files in their layers). */
#ifndef PNRSIM_APP_CONFIG_LOOKUP_H
#define PNRSIM_APP_CONFIG_LOOKUP_H

#include "app/config_keys.h"

#include <stddef.h>

/* What a numeric key's values measure, and so which units they may be
 * written with (app/config_number.c). */
typedef enum {
    KEY_PLAIN,  /* a count, factor, rate...: a bare number */
    KEY_TIME,   /* seconds: a bare number, or with a unit s, m, h or d */
    KEY_MEMORY, /* MB (2^20 bytes): a bare number, or with MB, GB or TB */
} key_dim;

/* kd's dimension, from the table's unit (key_def.unit), the one mark of
 * it: KEY_TIME for a KT_TIME key and for a KT_DOUBLE key whose unit is "s"
 * or starts with "s " ("s CPU"); KEY_MEMORY for computer.ram (KT_RAM) and
 * a KT_DOUBLE key whose unit is "MB" or starts with "MB " ("MB per
 * thread"; not "MB/s"); KEY_PLAIN otherwise (integers, strings, enums, and
 * every other unit). A plugin's key follows the same rule from the unit it
 * declared. */
key_dim cfg_key_dim(const key_def *kd);

/* The optimal-string-alignment (Damerau-Levenshtein) distance between a
 * and b, case-insensitive: insertions, deletions, substitutions and
 * transpositions of adjacent characters, each 1. Words longer than 63
 * characters count as far from everything (a large value). */
size_t cfg_edit_distance(const char *a, const char *b);

/* Whether a name at distance d from a word of len characters is close
 * enough to suggest: d >= 1 and d <= 1 up to 5 characters, 2 up to 8,
 * 3 beyond. */
int cfg_is_close(size_t d, size_t len);

/* The known section nearest to section (cfg_find_section's names: the
 * built-in sections, "plugins", loaded plugins' "plugin.NAME"), when
 * close (cfg_is_close); NULL when none is. Ties: the first in table
 * order. */
const char *cfg_suggest_section(const char *section);

/* The key to suggest for an unknown key in section (a known section's
 * canonical name): a key of that section close to key (cfg_is_close),
 * else one spelt exactly key (case-insensitive) in another section
 * (quantum in [computer] -> [scheduler] quantum: the result's section then
 * differs from section); NULL when there is neither. A key of the same
 * section at distance 1 is preferred to the same spelling elsewhere.
 * Ties: the first in table order. */
const key_def *cfg_suggest_key(const char *section, const char *key);

#endif
