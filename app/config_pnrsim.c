/* app/config_pnrsim.c: PNRSim's own configuration files (techreport
 * appendix A): one "Name value" per line, '#' or ';' starting a comment
 * anywhere. Each name is one of the PNRSim names of the key table
 * (key_def.pnrsim); the value is parsed as that key's, and messages name
 * both ("Bandwidth = "x" ([network] bandwidth): ..."). A name set twice is
 * an error, as in INI files.
 *
 * In the configuration module's layers (app/config.h) this file is above
 * the values (app/config_value.c: cfg_apply) and below app/config.c, which
 * calls it once it has told a PNRSim file from an INI one.
 */
#include "app/config_pnrsim.h"
#include "app/config_lookup.h"
#include "app/config_value.h"
#include "app/util.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* The key whose PNRSim names include name (case-insensitive), or NULL. */
static const key_def *find_pnrsim(const char *name)
{
    size_t len = strlen(name);
    for (size_t i = 0; i < cfg_nkeys; i++) {
        const char *p = cfg_keys[i].pnrsim;
        while (p && *p) {
            size_t l = strcspn(p, "|");
            if (l == len && !strncasecmp(p, name, len))
                return &cfg_keys[i];
            p += l + (p[l] == '|');
        }
    }
    return NULL;
}

/* "<where>: unknown name "x"; known names: ..." (PNRSim files) */
static void fail_unknown_pnrsim(cfg_error *e, const where *w,
                                const char *name)
{
    char q[96], list[CFG_ERR_MAX] = "", near[64] = "", hint[96] = "";
    cfg_quote_value(q, sizeof q, name);
    size_t bd = 0, len = strlen(name);
    for (size_t i = 0; i < cfg_nkeys; i++) {
        const char *p = cfg_keys[i].pnrsim;
        if (!p)
            continue;
        util_appendf(list, sizeof list, "%s%.*s", list[0] ? ", " : "", (int)strcspn(p, "|"), p);
        /* The nearest of all its names (aliases too), when close. */
        while (*p) {
            char alias[64];
            size_t l = strcspn(p, "|");
            snprintf(alias, sizeof alias, "%.*s", (int)l, p);
            size_t d = cfg_edit_distance(name, alias);
            if (cfg_is_close(d, len) && (!near[0] || d < bd)) {
                memcpy(near, alias, sizeof alias);
                bd = d;
            }
            p += l + (p[l] == '|');
        }
    }
    if (near[0])
        snprintf(hint, sizeof hint, " (did you mean %s?)", near);
    cfg_fail(e, w, "unknown name \"%s\"%s; known names: %s", q, hint, list);
}

/* Parse PNRSim "Name value" text (len bytes, NUL-terminated, modified in
 * place) read from path onto *c; on error *c is unchanged. 0 or -1 + e. */
int cfg_parse_pnrsim_text(config *c, const char *path, char *text, size_t len,
                          cfg_error *err)
{
    config scratch = *c;
    long set_on[CFG_MAX_KEYS] = {0};
    char *pos = text, *text_end = text + len;
    where w = {.file = path};
    int rc = 0;
    while (rc == 0 && pos < text_end) {
        char *line = pos, *nl = memchr(pos, '\n', (size_t)(text_end - pos));
        size_t n = nl ? (size_t)(nl - pos) : (size_t)(text_end - pos);
        pos += n + (nl != NULL);
        line[n] = '\0'; /* the newline, or the terminating NUL */
        w.line++;
        char *p = line;
        if (strlen(line) != n) {
            cfg_fail(err, &w, "NUL byte in line");
            rc = -1;
            break;
        }
        if (w.line == 1 && !strncmp(p, "\xEF\xBB\xBF", 3))
            p += 3;
        p[strcspn(p, "#;")] = '\0'; /* comments start anywhere */
        while (isspace((unsigned char)*p))
            p++;
        if (!*p)
            continue;
        char *name = p;
        while (*p && !isspace((unsigned char)*p))
            p++;
        char *value = p;
        if (*p)
            *value++ = '\0';
        while (isspace((unsigned char)*value))
            value++;
        char *end = value + strlen(value);
        while (end > value && isspace((unsigned char)end[-1]))
            *--end = '\0';
        const key_def *kd = find_pnrsim(name);
        if (!kd) {
            fail_unknown_pnrsim(err, &w, name);
            rc = -1;
            break;
        }
        w.alias = name;
        size_t i = (size_t)(kd - cfg_keys);
        if (!*value) {
            cfg_fail_value(err, &w, kd, value, "missing value");
            rc = -1;
        } else if (value[strcspn(value, " \t\r\n\v\f")]) {
            cfg_fail_value(err, &w, kd, value, "expected one value, without whitespace");
            rc = -1;
        } else if (set_on[i]) {
            cfg_fail(err, &w, "%s ([%s] %s) set twice (first on line %ld)", name,
                     kd->section, kd->key, set_on[i]);
            rc = -1;
        } else {
            rc = cfg_apply(&scratch, kd, value, &w, err);
            set_on[i] = w.line;
        }
        w.alias = NULL;
    }
    if (rc == 0)
        *c = scratch;
    return rc;
}
