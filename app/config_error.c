/* app/config_error.c: where a configuration problem is and how it is
 * worded. Every reader of the configuration module reports through these:
 * a problem at a place (a file line, a --set argument: `where`), with the
 * key, the value as quoted and why filled in the parts of a cfg_error, so
 * that each program words its own message (config_error_message) and
 * nobody parses message text back. The wording is tested word for word
 * (tests/test_config*.c, tests/test_cli.sh, tests/test_hostile.sh).
 *
 * In the configuration module's layers (app/config.h) this file is above
 * the key table (app/config_keys.c), whose sections and keys the "unknown"
 * messages list, and below everything that reads values.
 */
#include "app/config_error.h"
#include "app/config_lookup.h"
#include "app/util.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* A value as quoted in a message: control characters become '?' and a value
 * longer than 80 characters is cut, with "..." appended. */
void cfg_quote_value(char *out, size_t n, const char *s)
{
    size_t i = 0, limit = n - 4 < 80 ? n - 4 : 80;
    for (; s[i] && i < limit; i++)
        out[i] = iscntrl((unsigned char)s[i]) ? '?' : s[i];
    out[i] = '\0';
    if (s[i])
        strcat(out, "...");
}

/* Start a structured error at w: where it happened, no key yet. */
static void error_at(cfg_error *e, const where *w)
{
    memset(e, 0, sizeof *e);
    if (w->file) {
        e->source = CFG_SRC_FILE;
        snprintf(e->file, sizeof e->file, "%s", w->file);
        e->line = w->line;
    } else {
        e->source = CFG_SRC_SET;
        snprintf(e->arg, sizeof e->arg, "%s", w->arg);
    }
}

/* Fill e: the problem at w, described by fmt (no key, value or why). */
void cfg_fail(cfg_error *e, const where *w, const char *fmt, ...)
{
    if (!e)
        return;
    error_at(e, w);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->what, sizeof e->what, fmt, ap);
    va_end(ap);
}

/* Fill e: a problem with the file at path as a whole (line 0). */
void cfg_fail_file(cfg_error *e, const char *path, const char *fmt, ...)
{
    if (!e)
        return;
    where w = {.file = path};
    error_at(e, &w);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->what, sizeof e->what, fmt, ap);
    va_end(ap);
}

/* Name the key, the value (as quoted) and why in e. */
static void set_key(cfg_error *e, const key_def *kd, const char *quoted, const char *why)
{
    snprintf(e->key, sizeof e->key, "%s.%s", kd->section, kd->key);
    snprintf(e->value, sizeof e->value, "%s", quoted);
    snprintf(e->why, sizeof e->why, "%s", why);
}

/* Fill e with "[section] key = "value": <why>" (or, for a PNRSim name,
 * "<where>: Name = "value" ([section] key): <why>"). */
void cfg_fail_value(cfg_error *e, const where *w, const key_def *kd,
                    const char *value, const char *why)
{
    if (!e)
        return;
    char q[96];
    cfg_quote_value(q, sizeof q, value);
    if (w->alias)
        cfg_fail(e, w, "%s = \"%s\" ([%s] %s): %s", w->alias, q, kd->section,
                 kd->key, why);
    else
        cfg_fail(e, w, "[%s] %s = \"%s\": %s", kd->section, kd->key, q, why);
    set_key(e, kd, q, why);
}

/* "<where>: unknown section [x]; known sections: ..." */
void cfg_fail_unknown_section(cfg_error *e, const where *w, const char *section)
{
    char q[96], list[256] = "";
    cfg_quote_value(q, sizeof q, section);
    for (size_t i = 0; i < cfg_nsections; i++)
        util_appendf(list, sizeof list, "%s%s", i ? ", " : "", cfg_sections[i].name);
    util_appendf(list, sizeof list, ", %s", CFG_PLUGINS_SECTION);
    for (size_t i = cfg_nbuiltin; i < cfg_nkeys; i++)
        if (i == cfg_nbuiltin || strcmp(cfg_keys[i].section, cfg_keys[i - 1].section))
            util_appendf(list, sizeof list, ", %s", cfg_keys[i].section);
    /* The nearest known section, when close: " (did you mean [computer]?)". */
    const char *near = cfg_suggest_section(section);
    char hint[96] = "";
    if (near)
        snprintf(hint, sizeof hint, " (did you mean [%s]?)", near);
    if (!strncasecmp(section, "plugin.", 7))
        cfg_fail(e, w, "unknown section [%s]%s: no plugin loaded declares keys in it (load "
                 "it first: --plugin FILE.so, or [plugins] load = FILE.so); known sections: %s",
                 q, hint, list);
    else
        cfg_fail(e, w, "unknown section [%s]%s; known sections: %s", q, hint, list);
}

/* "<where>: unknown key "x" in [s]; known keys: ..." */
void cfg_fail_unknown_key(cfg_error *e, const where *w,
                          const char *section, const char *key)
{
    char q[96], list[256] = "";
    cfg_quote_value(q, sizeof q, key);
    for (size_t i = 0; i < cfg_nkeys; i++)
        if (!strcmp(cfg_keys[i].section, section))
            util_appendf(list, sizeof list, "%s%s", list[0] ? ", " : "", cfg_keys[i].key);
    /* The nearest key, when close: " (did you mean ram?)", or the same key
     * in its own section: " (did you mean [scheduler] quantum?)", written
     * scheduler.quantum for --set. */
    const key_def *near = cfg_suggest_key(section, key);
    char hint[160] = "";
    if (near && !strcmp(near->section, section))
        snprintf(hint, sizeof hint, " (did you mean %s?)", near->key);
    else if (near)
        snprintf(hint, sizeof hint, w->file ? " (did you mean [%s] %s?)" : " (did you mean %s.%s?)",
                 near->section, near->key);
    cfg_fail(e, w, "unknown key \"%s\" in [%s]%s; known keys: %s", q, section, hint, list);
}
