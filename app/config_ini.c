/* app/config_ini.c: INI configuration files.
 *
 * INI files are read by app/ini_reader.c (through inih, as study files
 * are): comments (';' or '#' at the start of a line or after white space),
 * NUL bytes, long lines and malformed lines are its business. This file
 * gives it what a scenario file means: a [section] header must name a
 * known section (checked as the header is read, so an unknown section is
 * reported even when it holds no key), and each key = value line is
 * looked up and stored. Indented lines are ordinary lines (no
 * continuations in scenario files).
 *
 * In the configuration module's layers (app/config.h) this file is above
 * the values (app/config_value.c: cfg_apply) and below app/config.c, which
 * calls it once it has told an INI file from a PNRSim one.
 *
 * Not thread-safe (inih's settings are globals).
 */
#include "app/config_ini.h"
#include "app/config_value.h"
#include "app/ini_reader.h"
#include "app/util.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Longest line accepted in an INI file: room for a full trace path
 * ("trace = " and CFG_PATH_MAX - 1 characters). Comments do not count
 * (config.ini's "; command:" or "; trace:" line may be of any length):
 * the reader cuts them first. */
#define INI_LINE_MAX (CFG_PATH_MAX + 256)

typedef struct ini_state {
    config *c;               /* the scratch copy being filled */
    where w;                 /* file and current line */
    long set_on[CFG_MAX_KEYS];     /* line where each key was set, 0 = not yet */
    bool failed;
    cfg_error *err;
} ini_state;

/* A [section] header (name trimmed): it must name a known section.
 * Returns 0, or -1 with err filled. */
static int cfg_ini_section(void *user, char *name, long line)
{
    ini_state *st = user;
    st->w.line = line;
    if (strlen(name) < 128 && cfg_find_section(name))
        return 0;
    char shown[128];
    snprintf(shown, sizeof shown, "%.*s", strlen(name) < 128 ? 127 : 100, name);
    cfg_fail_unknown_section(st->err, &st->w, shown);
    st->failed = true;
    return -1;
}

/* A line that is not INI (app/ini_reader.c says why). */
static void cfg_ini_bad_text(void *user, long line, const char *msg)
{
    ini_state *st = user;
    st->w.line = line;
    cfg_fail(st->err, &st->w, "%s", msg);
    st->failed = true;
}

/* One key = value of the current section, on line `line`. */
static int cfg_ini_handler(void *user, const char *section, const char *name,
                           const char *value, long line)
{
    ini_state *st = user;
    char sec[128], key[128];
    st->w.line = line;
    if (st->failed)
        return 0;
    st->failed = true; /* until accepted */
    if (!util_trim_copy(key, sizeof key, name, strlen(name)))
        snprintf(key, sizeof key, "%.100s", name);
    if (!util_trim_copy(sec, sizeof sec, section, strlen(section)))
        snprintf(sec, sizeof sec, "%.100s", section);
    if (!sec[0]) {
        char q[96];
        cfg_quote_value(q, sizeof q, key);
        cfg_fail(st->err, &st->w, "key \"%s\" before any [section] header", q);
        return 0;
    }
    const char *canon = cfg_find_section(sec);
    if (!canon) {
        cfg_fail_unknown_section(st->err, &st->w, sec);
        return 0;
    }
    if (!strcmp(canon, CFG_PLUGINS_SECTION)) {
        /* Loaded before the file was read (app/plugin.c). */
        if (strcasecmp(key, "load")) {
            char q[96];
            cfg_quote_value(q, sizeof q, key);
            cfg_fail(st->err, &st->w, "unknown key \"%s\" in [%s]; known keys: load", q,
                     CFG_PLUGINS_SECTION);
            return 0;
        }
        st->failed = false;
        return 1;
    }
    const key_def *kd = cfg_find_key(canon, key);
    if (!kd) {
        cfg_fail_unknown_key(st->err, &st->w, canon, key);
        return 0;
    }
    if (!value) {
        cfg_fail_value(st->err, &st->w, kd, "", "missing '=' and value");
        return 0;
    }
    size_t i = (size_t)(kd - cfg_keys);
    if (st->set_on[i]) {
        cfg_fail(st->err, &st->w, "[%s] %s set twice (first on line %ld)", kd->section,
             kd->key, st->set_on[i]);
        return 0;
    }
    if (cfg_apply(st->c, kd, value, &st->w, st->err))
        return 0;
    st->set_on[i] = st->w.line;
    st->failed = false;
    return 1;
}

/* Parse INI text (len bytes, NUL-terminated) read from path onto *c; on
 * error *c is unchanged. 0 or -1 + e. */
int cfg_parse_ini_text(config *c, const char *path, const char *text, size_t len,
                       cfg_error *err)
{
    config scratch = *c;
    ini_state st = {.c = &scratch, .w = {.file = path}, .err = err};
    ini_reader_spec spec = {text, len, INI_LINE_MAX, false, cfg_ini_section,
                            cfg_ini_handler, cfg_ini_bad_text, &st};
    if (ini_reader_parse(&spec) != 0 || st.failed)
        return -1;
    *c = scratch;
    return 0;
}
