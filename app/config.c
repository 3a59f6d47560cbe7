/* app/config.c: the scenario's parameters as app/config.h offers them:
 * defaults, loading a file (INI or PNRSim's format, told apart here),
 * --set, validation (each key's limits, then the cross-key rules), the
 * keys without effect, and the messages of cfg_error (writing the whole
 * configuration: app/config_write.c).
 *
 * Everything is driven by the key table (app/config_keys.c, which says
 * how); values by type are app/config_value.c's, INI files
 * app/config_ini.c's, PNRSim files app/config_pnrsim.c's, and the wording
 * of problems app/config_error.c's. This file is the top of the
 * configuration module's layers (app/config.h), below only
 * app/config_build.c.
 *
 * Every reader works on a copy of the configuration and stores it only when
 * the whole input was accepted: on error the caller's configuration is left
 * as it was. A key set twice in one file is an error (a typo or a stale copy
 * is more likely than an intended override; --set is the way to override).
 * Numbers are decimal only (no hex, nan or inf) and parsed with strtod, so
 * the program must keep the C locale for LC_NUMERIC.
 *
 * Not thread-safe (inih's settings are globals).
 */
#include "app/config.h"
#include "app/components.h"
#include "app/config_error.h"
#include "app/config_ini.h"
#include "app/config_keys.h"
#include "app/config_lookup.h"
#include "app/config_number.h"
#include "app/config_pnrsim.h"
#include "app/config_value.h"
#include "app/plugin.h"
#include "app/util.h"
#include "core/mem.h"
#include "hw/pe.h"
#include "pnr/strategy_api.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* "LOC: WHAT" into buf (n bytes). When it does not fit, loc is cut in its
 * middle ("head...tail") so the explanation is not cut (issue 32 item 8);
 * at least 16 characters of loc are kept, and only a WHAT longer than the
 * rest of buf is cut at its end. */
static void loc_what(char *buf, size_t n, const char *loc, const char *what)
{
    size_t ll = strlen(loc), lw = strlen(what);
    if (ll + 2 + lw < n) {
        snprintf(buf, n, "%s: %s", loc, what);
        return;
    }
    size_t room = n > lw + 3 + 16 ? n - lw - 3 : 16; /* characters for loc */
    if (room >= ll) {
        snprintf(buf, n, "%s: %s", loc, what);
        return;
    }
    int head = (int)(room - 3) / 2, tail = (int)(room - 3) - head;
    snprintf(buf, n, "%.*s...%s: %s", head, loc, loc + ll - (size_t)tail, what);
}

void config_error_message(const cfg_error *e, char *buf, size_t n)
{
    char loc[sizeof e->arg + 32];
    switch (e->source) {
    case CFG_SRC_FILE:
        if (e->line > 0)
            snprintf(loc, sizeof loc, "%s:%ld", e->file, e->line);
        else
            snprintf(loc, sizeof loc, "%s", e->file);
        loc_what(buf, n, loc, e->what);
        break;
    case CFG_SRC_VALIDATE:
        snprintf(buf, n, "configuration: %s", e->what);
        break;
    case CFG_SRC_SET:
    case CFG_SRC_TRACE:
    case CFG_SRC_SEED:
        snprintf(loc, sizeof loc, "--set %s", e->arg);
        loc_what(buf, n, loc, e->what);
        break;
    case CFG_SRC_OPTION:
        loc_what(buf, n, e->arg, e->what);
        break;
    }
}

/* The message of e into err (when err is not NULL); returns -1. */
static int cfg_to_text(const cfg_error *e, char err[CFG_ERR_MAX])
{
    if (err)
        config_error_message(e, err, CFG_ERR_MAX);
    return -1;
}

/* The last '.' in [s, end), or NULL: a section may hold one
 * ("plugin.NAME"), a key none. */
static const char *last_dot(const char *s, const char *end)
{
    while (end > s)
        if (*--end == '.')
            return end;
    return NULL;
}

/* The key named "section.key", or NULL. */
static const key_def *find_dotted(const char *key)
{
    const char *dot = last_dot(key, key + strlen(key));
    char sec[64];
    if (!dot || (size_t)(dot - key) >= sizeof sec)
        return NULL;
    memcpy(sec, key, (size_t)(dot - key));
    sec[dot - key] = '\0';
    return cfg_find_key(sec, dot + 1);
}

const char *config_origin(const config *c, const char *key)
{
    const key_def *kd = find_dotted(key);
    return kd ? c->origin[kd - cfg_keys] : "";
}

void config_set_origin(config *c, const char *key, const char *text)
{
    const key_def *kd = find_dotted(key);
    if (kd)
        cfg_set_origin(c, kd, "%s", text);
}

const char *config_paje_name(const config *c)
{
    const char *p = c->output.paje;
    static const char *const off[] = {"no", "false", "off", "0"};
    static const char *const on[] = {"yes", "true", "on", "1"};
    for (size_t i = 0; i < 4; i++) {
        if (!strcasecmp(p, off[i]))
            return NULL;
        if (!strcasecmp(p, on[i]))
            return "schedule.paje";
    }
    return p;
}

const char *config_key_unit(const char *key)
{
    const key_def *kd = find_dotted(key);
    if (!kd)
        return NULL;
    return kd->type == KT_STRING ? "" : kd->unit;
}

int config_suggest_dotted(const char *key, char *buf, size_t n)
{
    int found = 0;
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < cfg_nkeys && used < n; i++) {
        if (strcasecmp(cfg_keys[i].key, key))
            continue;
        int w = snprintf(buf + used, n - used, "%s%s.%s", found ? " or " : "",
                         cfg_keys[i].section, cfg_keys[i].key);
        if (w < 0)
            break;
        used += (size_t)w;
        found++;
    }
    if (found)
        return found;
    const key_def *best = NULL;
    size_t bd = 0, len = strlen(key);
    for (size_t i = 0; i < cfg_nkeys; i++) {
        size_t d = cfg_edit_distance(key, cfg_keys[i].key);
        if (cfg_is_close(d, len) && (!best || d < bd)) {
            best = &cfg_keys[i];
            bd = d;
        }
    }
    if (!best)
        return 0;
    snprintf(buf, n, "%s.%s", best->section, best->key);
    return 1;
}

int config_unit_number(const char *key, const char *text, double *v)
{
    const key_def *kd = find_dotted(key);
    if (!kd)
        return -1;
    key_dim dim = cfg_key_dim(kd);
    int r = dim == KEY_TIME     ? cfg_parse_time(text, v)
          : dim == KEY_MEMORY ? cfg_parse_memory(text, v)
                              : -1;
    return r == 0 ? 0 : -1;
}

bool config_is_near(const char *word, const char *name)
{
    return cfg_is_close(cfg_edit_distance(word, name), strlen(word)) != 0;
}

bool config_is_section(const char *section)
{
    return cfg_find_section(section) != NULL;
}

/* ---------------------------------------------------------------------- */
/* Public: defaults, equality                                             */
/* ---------------------------------------------------------------------- */

/* Fill c with the defaults: the table's default texts, parsed. */
void config_defaults(config *c)
{
    components_init(); /* the registry's names, before the defaults name them */
    memset(c, 0, sizeof *c);
    for (size_t i = 0; i < cfg_nkeys; i++) {
        char why[256];
        if (cfg_parse_value(&cfg_keys[i], cfg_keys[i].def, c, why, sizeof why)) {
            fprintf(stderr, "config: bad default for [%s] %s: %s\n",
                    cfg_keys[i].section, cfg_keys[i].key, why);
            abort();
        }
    }
}

/* True when every key of the table has the same value in a and b. */
bool config_equal(const config *a, const config *b)
{
    for (size_t i = 0; i < cfg_nkeys; i++)
        if (!cfg_value_equal(&cfg_keys[i], a, b))
            return false;
    return true;
}

/* ---------------------------------------------------------------------- */
/* Reading a file whole                                                    */
/* ---------------------------------------------------------------------- */

/* Largest configuration file accepted: far more than every key with a full
 * path needs; it stops `-c /dev/zero` and the like from filling memory. */
#define CFG_FILE_MAX (1L << 20)

/* Read path ("-" = standard input) whole (util_read_file: one pass, so
 * pipes and process substitutions can be parsed after the format is
 * detected) into *text (NUL-terminated, to free; *len bytes before the
 * NUL). 0, or -1 with e on the file as a whole: "cannot open: ...", "is a
 * directory, not a configuration file", "larger than 1 MiB: not a
 * configuration file" or "read error: ...". */
static int read_whole(const char *path, char **text, size_t *len, cfg_error *e)
{
    bool is_stdin = strcmp(path, "-") == 0;
    util_read_fail why;
    *text = util_read_file(is_stdin ? NULL : path, CFG_FILE_MAX, len, &why);
    if (*text)
        return 0;
    *len = 0;
    const char *name = is_stdin ? "stdin" : path;
    switch (why) {
    case UTIL_READ_OPEN:
        cfg_fail_file(e, name, "cannot open: %s", strerror(errno));
        break;
    case UTIL_READ_DIR:
        cfg_fail_file(e, name, "is a directory, not a configuration file");
        break;
    case UTIL_READ_BIG:
        cfg_fail_file(e, name, "larger than 1 MiB: not a configuration file");
        break;
    case UTIL_READ_IO:
        cfg_fail_file(e, name, "read error: %s", strerror(errno));
        break;
    }
    return -1;
}

/* ---------------------------------------------------------------------- */
/* Format detection, --set, validation                                     */
/* ---------------------------------------------------------------------- */

/* How load_file reads a file. */
typedef enum { AS_DETECTED, AS_INI, AS_PNRSIM } file_format;

/* Read path once onto *c, as fmt says; AS_DETECTED: INI when its first
 * significant line starts with '[', refused (at that line) when it reads
 * "key = value" (an INI file without its section header), PNRSim's
 * format otherwise (the file is
 * read once, so a pipe, -c - (standard input, named "stdin" in messages),
 * -c /dev/stdin or -c <(...), is detected and parsed from the same bytes).
 * A file whose lines end in CR alone is refused as a whole (it would be
 * one long line). On error *c is unchanged. 0 or -1 + e. */
static int load_file(config *c, const char *path, file_format fmt, cfg_error *err)
{
    char *text;
    size_t len;
    if (read_whole(path, &text, &len, err) != 0)
        return -1;
    if (!strcmp(path, "-"))
        path = "stdin";
    /* Lines ended by CR alone (classic Mac OS) would read as one line. */
    const char *cr = memchr(text, '\r', len);
    if (cr && !memchr(text, '\n', len) && cr + 1 < text + len) {
        cfg_fail_file(err, path, "lines end in CR alone (classic Mac OS line endings): "
                   "expected LF or CRLF; convert with tr '\\r' '\\n'");
        free(text);
        return -1;
    }
    bool ini = fmt == AS_INI;
    const char *p = text, *stop = text + len;
    long line = 1;
    if (fmt == AS_DETECTED && len >= 3 && !strncmp(p, "\xEF\xBB\xBF", 3))
        p += 3;
    while (fmt == AS_DETECTED && p < stop) {
        while (p < stop && isspace((unsigned char)*p))
            line += *p++ == '\n';
        if (p < stop && (*p == '#' || *p == ';')) {
            const char *nl = memchr(p, '\n', (size_t)(stop - p));
            p = nl ? nl + 1 : stop;
            line++;
            continue;
        }
        ini = p < stop && *p == '[';
        /* "key = value" before any [section]: an INI file without its
         * header, not PNRSim's "Name value" (whose names never hold '='):
         * refused as INI, at that line (issue 37 item 6). */
        const char *q = p;
        while (q < stop && !isspace((unsigned char)*q) && *q != '=')
            q++;
        while (q < stop && (*q == ' ' || *q == '\t'))
            q++;
        if (!ini && q > p && q < stop && *q == '=') {
            where w = {.file = path, .line = line};
            char key[64], shown[96];
            size_t klen = strcspn(p, " \t\r\n\v\f=");
            snprintf(key, sizeof key, "%.*s", (int)(klen > 60 ? 60 : klen), p);
            cfg_quote_value(shown, sizeof shown, key);
            cfg_fail(err, &w, "key \"%s\" before any [section] header: an INI scenario "
                     "gives each key under its section (e.g. [computer] above ram = 256); "
                     "PNRSim's own format writes \"Name value\", without '='", shown);
            free(text);
            return -1;
        }
        break;
    }
    int rc = 0;
    if (ini) {
        /* The file's [plugins] first (app/plugin.h), then the defaults of
         * the keys they declared, then the file. */
        size_t before = cfg_nkeys;
        rc = plugin_load_ini_text(path, text, len, err);
        for (size_t i = before; rc == 0 && i < cfg_nkeys; i++) {
            char why[256];
            if (cfg_parse_value(&cfg_keys[i], cfg_keys[i].def, c, why, sizeof why)) {
                cfg_fail_file(err, path, "bad default of [%s] %s: %s", cfg_keys[i].section,
                              cfg_keys[i].key, why);
                rc = -1;
            }
        }
    }
    if (rc == 0)
        rc = ini ? cfg_parse_ini_text(c, path, text, len, err)
                 : cfg_parse_pnrsim_text(c, path, text, len, err);
    free(text);
    return rc;
}

int config_load_e(config *c, const char *path, cfg_error *e)
{
    return load_file(c, path, AS_DETECTED, e);
}

int config_load(config *c, const char *path, char err[CFG_ERR_MAX])
{
    cfg_error e;
    return load_file(c, path, AS_DETECTED, &e) ? cfg_to_text(&e, err) : 0;
}

int config_load_ini(config *c, const char *path, char err[CFG_ERR_MAX])
{
    cfg_error e;
    return load_file(c, path, AS_INI, &e) ? cfg_to_text(&e, err) : 0;
}

int config_load_pnrsim(config *c, const char *path, char err[CFG_ERR_MAX])
{
    cfg_error e;
    return load_file(c, path, AS_PNRSIM, &e) ? cfg_to_text(&e, err) : 0;
}

/* Apply "section.key=value"; on error *c is unchanged. */
int config_set_e(config *c, const char *assignment, cfg_error *err)
{
    where w = {.arg = assignment};
    const char *eq = strchr(assignment, '=');
    const char *dot = eq ? last_dot(assignment, eq) : NULL;
    char sec[128], key[128], value[CFG_PATH_MAX + 1];
    if (!eq || !dot || !util_trim_copy(sec, sizeof sec, assignment, (size_t)(dot - assignment)) ||
        !util_trim_copy(key, sizeof key, dot + 1, (size_t)(eq - dot - 1)) || !sec[0] ||
        !key[0]) {
        /* A key without its section ("ram=256"): the sections that have
         * it, "(did you mean computer.ram=256?)". */
        char hint[256] = "";
        if (eq && !dot && util_trim_copy(key, sizeof key, assignment, (size_t)(eq - assignment)))
            for (size_t i = 0, k = 0; i < cfg_nkeys; i++)
                if (!strcasecmp(cfg_keys[i].key, key))
                    util_appendf(hint, sizeof hint, "%s%s.%s=%.60s", k++ ? " or " : " (did you mean ",
                                 cfg_keys[i].section, cfg_keys[i].key, eq + 1);
        if (hint[0])
            util_appendf(hint, sizeof hint, "?)");
        cfg_fail(err, &w, "expected SECTION.KEY=VALUE%s", hint);
        return -1;
    }
    const char *canon = cfg_find_section(sec);
    if (!canon) {
        cfg_fail_unknown_section(err, &w, sec);
        return -1;
    }
    if (!strcmp(canon, CFG_PLUGINS_SECTION)) {
        cfg_fail(err, &w, "--set cannot load a plugin: give --plugin FILE.so, or [plugins] "
                 "load = FILE.so in a configuration file");
        return -1;
    }
    const key_def *kd = cfg_find_key(canon, key);
    if (!kd) {
        cfg_fail_unknown_key(err, &w, canon, key);
        return -1;
    }
    /* A trace name is a file name: the blanks after '=' separate, but one
     * at its end would be trimmed and another file opened (as -t refuses;
     * issue 32 item 8). */
    size_t vlen = strlen(eq + 1);
    if (!strcmp(canon, "workload") && !strcmp(kd->key, "trace") && vlen &&
        isspace((unsigned char)eq[vlen])) {
        cfg_fail_value(err, &w, kd, eq + 1,
                       "the file name ends with a blank, which config.ini cannot keep (its "
                       "values are read without their surrounding blanks, so a replay would "
                       "open another file); rename the file, or give the name without the blank");
        return -1;
    }
    if (!util_trim_copy(value, sizeof value, eq + 1, vlen)) {
        char why[128];
        snprintf(why, sizeof why, "too long: at most %zu characters",
                 kd->type == KT_STRING ? kd->size - 1 : sizeof value - 1);
        cfg_fail_value(err, &w, kd, eq + 1, why);
        return -1;
    }
    config scratch = *c;
    if (cfg_apply(&scratch, kd, value, &w, err))
        return -1;
    *c = scratch;
    return 0;
}

int config_value_text(const char *assignment, char *buf, size_t n)
{
    assert(n > 0);
    buf[0] = '\0';
    const char *eq = strchr(assignment, '=');
    const char *dot = eq ? last_dot(assignment, eq) : NULL;
    char sec[128], key[128];
    if (!eq || !dot || !util_trim_copy(sec, sizeof sec, assignment, (size_t)(dot - assignment)) ||
        !util_trim_copy(key, sizeof key, dot + 1, (size_t)(eq - dot - 1)))
        return -1;
    const char *canon = cfg_find_section(sec);
    const key_def *kd = canon ? cfg_find_key(canon, key) : NULL;
    config *c = xmalloc(sizeof *c); /* large: not on the stack */
    cfg_error e;
    int rc = -1;
    if (kd) {
        config_defaults(c);
        if (config_set_e(c, assignment, &e) == 0) {
            cfg_format_value(kd, c, buf, n);
            rc = 0;
        }
    }
    free(c);
    return rc;
}

int config_assignment_key(const char *assignment, char *key, size_t n)
{
    const char *eq = strchr(assignment, '=');
    const char *dot = eq ? last_dot(assignment, eq) : NULL;
    char sec[128], name[128];
    if (!eq || !dot || !util_trim_copy(sec, sizeof sec, assignment, (size_t)(dot - assignment)) ||
        !util_trim_copy(name, sizeof name, dot + 1, (size_t)(eq - dot - 1)))
        return -1;
    const char *canon = cfg_find_section(sec);
    const key_def *kd = canon ? cfg_find_key(canon, name) : NULL;
    if (!kd)
        return -1;
    snprintf(key, n, "%s.%s", kd->section, kd->key);
    return 0;
}

int config_set(config *c, const char *assignment, char err[CFG_ERR_MAX])
{
    cfg_error e;
    return config_set_e(c, assignment, &e) ? cfg_to_text(&e, err) : 0;
}

/* Fill e: a problem of the whole configuration with key (section.key),
 * its value as shown and why, described by fmt. */
static void fail_config(cfg_error *e, const char *key, const char *value,
                        const char *why, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void fail_config(cfg_error *e, const char *key, const char *value,
                        const char *why, const char *fmt, ...)
{
    if (!e)
        return;
    memset(e, 0, sizeof *e);
    e->source = CFG_SRC_VALIDATE;
    snprintf(e->key, sizeof e->key, "%s", key);
    snprintf(e->value, sizeof e->value, "%s", value);
    snprintf(e->why, sizeof e->why, "%s", why);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->what, sizeof e->what, fmt, ap);
    va_end(ap);
}

/* Fill e: a cross-key rule of c broken, blaming [section] key = value
 * (unit appended in the message) against the key other ("section.key"),
 * why described by fmt, followed by where both keys were set:
 * "(netram.locality from run.ini:4; network.topology by default)".
 * Returns -1. */
static int fail_cross(cfg_error *e, const config *c, const char *section, const char *key,
                      const char *value, const char *unit, const char *other,
                      const char *fmt, ...)
    __attribute__((format(printf, 8, 9)));
static int fail_cross(cfg_error *e, const config *c, const char *section, const char *key,
                      const char *value, const char *unit, const char *other,
                      const char *fmt, ...)
{
    char why[CFG_ERR_MAX], k[80];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    snprintf(k, sizeof k, "%s.%s", section, key);
    const char *ko = config_origin(c, k), *oo = config_origin(c, other);
    util_appendf(why, sizeof why, " (%s %s%s; %s %s%s)", k, ko[0] ? "from " : "by default",
                ko, other, oo[0] ? "from " : "by default", oo);
    fail_config(e, k, value, why, "[%s] %s = %s%s %s", section, key, value, unit, why);
    return -1;
}

/* Every stored value within its key's limits, then the cross-key rules. */
int config_validate_e(const config *c, cfg_error *err)
{
    for (size_t i = 0; i < cfg_nkeys; i++) {
        char why[256], shown[128];
        if (cfg_check_stored(&cfg_keys[i], c, why, sizeof why)) {
            if (cfg_keys[i].type == KT_STRING)
                snprintf(shown, sizeof shown, "%.80s",
                         (const char *)cfg_cfield(c, &cfg_keys[i]));
            else
                cfg_format_value(&cfg_keys[i], c, shown, sizeof shown);
            char q[96], key[80];
            cfg_quote_value(q, sizeof q, shown);
            snprintf(key, sizeof key, "%s.%s", cfg_keys[i].section, cfg_keys[i].key);
            fail_config(err, key, q, why, "[%s] %s = \"%s\": %s", cfg_keys[i].section,
                        cfg_keys[i].key, q, why);
            return -1;
        }
    }
    /* The cross-key rules: each blames its first key, whose value it
     * shows (with the unit, where the message gives one). */
    char v[64];
    const int C = c->computer.cores_per_node;
    if (c->computer.number % C != 0) {
        snprintf(v, sizeof v, "%d", C);
        return fail_cross(err, c, "computer", "cores_per_node", v, " cores", "computer.number",
                          "does not divide [computer] number = %d: expected number (cores) to "
                          "be a multiple of cores_per_node (whole nodes)", c->computer.number);
    }
    const int nodes = c->computer.number / C;
    /* A strategy that reads netram.managers (BACKBONE) needs 1 <= managers
     * <= nodes (its flag, pnr/strategy_api.h). */
    const pnrsim_component *strat = pnrsim_at(PNRSIM_KIND_STRATEGY, c->netram.strategy);
    const pnr_strategy_ops *sops = strat ? strat->ops : NULL;
    const bool uses_managers = sops && (sops->flags & PNR_STRATEGY_USES_MANAGERS);
    if (C > 1 && uses_managers && c->netram.managers > nodes) {
        snprintf(v, sizeof v, "%d", c->netram.managers);
        return fail_cross(err, c, "netram", "managers", v, "", "computer.cores_per_node",
                          "exceeds the %d nodes ([computer] number / cores_per_node): the "
                          "%s strategy needs 1 <= managers <= nodes", nodes, strat->name);
    }
    if (uses_managers && c->netram.managers > c->computer.number) {
        snprintf(v, sizeof v, "%d", c->netram.managers);
        return fail_cross(err, c, "netram", "managers", v, "", "computer.number",
                          "exceeds [computer] number = %d: the %s strategy "
                          "needs 1 <= managers <= number", c->computer.number, strat->name);
    }
    if (c->workload.submit_max > 0 && c->workload.submit_max < c->workload.submit_min) {
        snprintf(v, sizeof v, "%g", c->workload.submit_max);
        return fail_cross(err, c, "workload", "submit_max", v, "", "workload.submit_min",
                          "is below submit_min = %g: expected submit_max >= "
                          "submit_min (or 0 = no bound)", c->workload.submit_min);
    }
    if (c->workload.window > 0 && c->workload.max_jobs <= 0) {
        snprintf(v, sizeof v, "%ld", c->workload.window);
        return fail_cross(err, c, "workload", "window", v, "", "workload.max_jobs",
                          "%s", "needs max_jobs > 0 (a window is max_jobs jobs "
                          "long): set max_jobs or window = 0");
    }
    if (c->workload.memory_profile != MEM_PROFILE_CONSTANT && c->netram.enabled &&
        c->netram.release == PNR_RELEASE_ALL)
        return fail_cross(err, c, "workload", "memory_profile",
                          cfg_mem_profile_names[c->workload.memory_profile], "",
                          "netram.release", "%s",
                          "needs [netram] release = EXCESS with network RAM on: under ALL a "
                          "thread holds its own grant of its start, which a profile's "
                          "growth and shrink do not follow (docs/MODEL.md)");
    if (c->output.schedule_to > 0 && c->output.schedule_from >= c->output.schedule_to) {
        snprintf(v, sizeof v, "%.15g", c->output.schedule_from);
        return fail_cross(err, c, "output", "schedule_from", v, " s", "output.schedule_to",
                          "is not before schedule_to = %.15g s: expected schedule_from < "
                          "schedule_to (or schedule_to = 0, the end of the run)",
                          c->output.schedule_to);
    }
    if (c->scheduler.pcs >= c->scheduler.quantum) {
        snprintf(v, sizeof v, "%g", c->scheduler.pcs);
        return fail_cross(err, c, "scheduler", "pcs", v, "", "scheduler.quantum",
                          "is not below quantum = %g: a time slice would be all "
                          "context switch", c->scheduler.quantum);
    }
    if (c->process.fault_model == FAULT_MODEL_CURVE && !c->process.fault_curve[0] &&
        !c->process.fault_curves[0])
        return fail_cross(err, c, "process", "fault_model", "CURVE", "", "process.fault_curve",
                          "%s", "needs curves: set [process] fault_curve (the curve of every "
                          "job not mapped) or fault_curves (APP:FILE by SWF field 14)");
    if (c->netram.locality == PNR_LOCALITY_RACK && c->network.topology != TOPO_KIND_TREE)
        return fail_cross(err, c, "netram", "locality", "RACK", "", "network.topology",
                          "needs racks: set [network] topology = TREE (it is %s)",
                          config_topology_name(c->network.topology));
    /* Groups of computer.ram and computer.speed (issue 35): their counts
     * are nodes, adding up to the nodes. */
    for (int k = 0; k < 2; k++) {
        int ng = k ? c->computer.n_speed_groups : c->computer.n_ram_groups;
        const char *key = k ? "speed" : "ram", *form = k ? "COUNTxSPEED" : "COUNTxMB";
        if (ng == 0)
            continue;
        long sum = 0;
        for (int i = 0; i < ng; i++)
            sum += k ? c->computer.speed_groups[i].count : c->computer.ram_groups[i].count;
        if (C > 1 && sum != nodes) {
            char rv[1024];
            cfg_format_value(cfg_find_key("computer", key), c, rv, sizeof rv);
            return fail_cross(err, c, "computer", key, rv, "", "computer.cores_per_node",
                              "has group counts that add up to %ld nodes, but there are %d "
                              "nodes ([computer] number = %d cores / cores_per_node = %d): "
                              "expected groups %s whose counts (nodes) add up to "
                              "number / cores_per_node",
                              sum, nodes, c->computer.number, C, form);
        }
        if (C == 1 && sum != c->computer.number) {
            char rv[1024];
            cfg_format_value(cfg_find_key("computer", key), c, rv, sizeof rv);
            return fail_cross(err, c, "computer", key, rv, "", "computer.number",
                              "has group counts that add up to %ld PEs, but [computer] number "
                              "= %d: expected groups %s whose counts add up to number",
                              sum, c->computer.number, form);
        }
    }
    /* The smallest RAM of any server, named by the key that sets it. */
    double ram_min = config_ram_min(c);
    const char *ram_key = "ram";
    if (c->computer.memory_servers > 0 && c->computer.memory_server_ram < ram_min) {
        ram_min = c->computer.memory_server_ram;
        ram_key = "memory_server_ram";
    }
    if (c->netram.enabled && c->netram.server_threshold >= ram_min) {
        snprintf(v, sizeof v, "%g", c->netram.server_threshold);
        return fail_cross(err, c, "netram", "server_threshold", v, " MB",
                          !strcmp(ram_key, "ram") ? "computer.ram" : "computer.memory_server_ram",
                          "is not below [computer] %s = %g MB: no server could "
                          "ever lend RAM", ram_key, ram_min);
    }
    return 0;
}

int config_validate(const config *c, char err[CFG_ERR_MAX])
{
    cfg_error e;
    return config_validate_e(c, &e) ? cfg_to_text(&e, err) : 0;
}
