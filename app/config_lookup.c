/* app/config_lookup.c: what the key table tells beyond a name's exact
 * match (see config_lookup.h).
 *
 * A key's dimension comes from its unit, the field the table already has
 * for reference.ini, the manual and study.json (app/config_keys.c), so
 * that the units a value may be written with and the unit printed beside
 * it cannot disagree: every key in s takes s, m, h, d; every key in MB
 * takes MB, GB, TB (issue 37 item 6).
 *
 * Suggestions for a misspelt section or key use the optimal-string-
 * alignment distance (Levenshtein's operations plus the transposition of
 * two adjacent characters, "sede" -> "seed" being 1), and are made only
 * when the nearest name is close for the word's length, so that a name
 * that is simply wrong gets the list of known names alone.
 *
 * In the configuration module's layers (app/config.h) this file is above
 * the key table and below the error wording (app/config_error.c) and the
 * values (app/config_value.c), which use it.
 */
#include "app/config_lookup.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

key_dim cfg_key_dim(const key_def *kd)
{
    if (kd->type == KT_TIME)
        return KEY_TIME;
    if (kd->type == KT_RAM)
        return KEY_MEMORY;
    if (kd->type != KT_DOUBLE || !kd->unit)
        return KEY_PLAIN;
    const char *u = kd->unit;
    if (!strcmp(u, "s") || !strncmp(u, "s ", 2))
        return KEY_TIME;
    if (!strcmp(u, "MB") || !strncmp(u, "MB ", 3))
        return KEY_MEMORY;
    return KEY_PLAIN;
}

#define WORD_MAX 64

size_t cfg_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la >= WORD_MAX || lb >= WORD_MAX)
        return (size_t)-1 / 2;
    /* d[i][j]: distance between a's first i and b's first j characters. */
    size_t d[WORD_MAX + 1][WORD_MAX + 1];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
            size_t best = d[i - 1][j - 1] + (ca != cb);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
                tolower((unsigned char)a[i - 2]) == cb && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[la][lb];
}

int cfg_is_close(size_t d, size_t len)
{
    size_t most = len <= 5 ? 1 : len <= 8 ? 2 : 3;
    return d >= 1 && d <= most;
}

const char *cfg_suggest_section(const char *section)
{
    const char *best = NULL;
    size_t bd = 0, len = strlen(section);
    for (size_t i = 0; i < cfg_nsections + 1 + cfg_nkeys - cfg_nbuiltin; i++) {
        const char *name = i < cfg_nsections         ? cfg_sections[i].name
                           : i == cfg_nsections      ? CFG_PLUGINS_SECTION
                                                     : cfg_keys[cfg_nbuiltin + i - cfg_nsections - 1].section;
        size_t d = cfg_edit_distance(section, name);
        if (cfg_is_close(d, len) && (!best || d < bd)) {
            best = name;
            bd = d;
        }
    }
    return best;
}

const key_def *cfg_suggest_key(const char *section, const char *key)
{
    const key_def *best = NULL, *elsewhere = NULL;
    size_t bd = 0, len = strlen(key);
    for (size_t i = 0; i < cfg_nkeys; i++) {
        const key_def *kd = &cfg_keys[i];
        if (strcasecmp(kd->section, section)) {
            if (!elsewhere && !strcasecmp(kd->key, key))
                elsewhere = kd;
            continue;
        }
        size_t d = cfg_edit_distance(key, kd->key);
        if (cfg_is_close(d, len) && (!best || d < bd)) {
            best = kd;
            bd = d;
        }
    }
    if (best && (bd == 1 || !elsewhere))
        return best;
    return elsewhere ? elsewhere : best;
}
