/* app/config_build.c: a run's configuration from its inputs, the one way
 * both pnrsim (app/main.c) and pnrsim-sweep (study/check.c, checking every
 * run before any starts) build it.
 *
 * The order of precedence is pnrsim's: defaults < configuration files in
 * order (-c A -c B: B's keys override A's, key by key; a key set twice in
 * ONE file stays an error) < -t < -s < --set in order. A relative
 * [workload] trace or [process] fault curve (issue 33) in a file is taken from that file's directory; one given relative to the working directory
 * (-t, --set) is made absolute at the end, so the config.ini a run writes
 * can be replayed from anywhere (refused when its absolute path would not
 * fit PATH_MAX). A -c name with a control character and a -t name with a
 * blank at either end are refused: config.ini could not replay them. Each
 * key remembers where it was set
 * (config_origin: FILE:LINE, --set ARG, -t TRACE, -s SEED), so that a
 * message about two keys can say where each came from. The problem, if any, comes back in parts
 * (cfg_error): which input, which key, the value and why; each program
 * words its own message from them.
 *
 * The top of the configuration module's layers (app/config.h): it uses
 * app/config.c's loading, --set and validation.
 */
#include "app/config.h"
#include "app/config_keys.h"
#include "app/config_value.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Resolve a trace path given in the configuration file cfg_path relative to
 * the file's directory (made absolute when it exists). 0, or -1 with e when
 * the resulting path is too long. */
static int resolve_trace(config *c, const char *cfg_path, cfg_error *e)
{
    char *t = c->workload.trace;
    if (!t[0] || t[0] == '/' || strcmp(t, "-") == 0)
        return 0;
    char joined[2 * CFG_PATH_MAX + 2];
    const char *slash = strrchr(cfg_path, '/');
    if (slash)
        snprintf(joined, sizeof joined, "%.*s/%s", (int)(slash - cfg_path), cfg_path, t);
    else
        snprintf(joined, sizeof joined, "%s", t);
    char abs[PATH_MAX];
    const char *use = realpath(joined, abs) ? abs : errno == ENAMETOOLONG ? NULL : joined;
    size_t n = use ? strlen(use) : CFG_PATH_MAX;
    if (n >= CFG_PATH_MAX) {
        memset(e, 0, sizeof *e);
        e->source = CFG_SRC_FILE;
        snprintf(e->file, sizeof e->file, "%s", cfg_path);
        snprintf(e->key, sizeof e->key, "workload.trace");
        snprintf(e->value, sizeof e->value, "%.80s", t);
        snprintf(e->why, sizeof e->why, "resolves to a path longer than %d characters",
                 CFG_PATH_MAX - 1);
        snprintf(e->what, sizeof e->what,
                 "[workload] trace resolves to a path longer than %d characters",
                 CFG_PATH_MAX - 1);
        return -1;
    }
    memcpy(c->workload.trace, use, n + 1);
    return 0;
}

/* Path p as named by configuration file cfg_path (relative to its
 * directory; cfg_path NULL: to the working directory), made absolute when
 * it exists, into out (CFG_PATH_MAX bytes). false when it does not fit. */
static bool resolve_path(const char *p, const char *cfg_path, char *out)
{
    char joined[2 * CFG_PATH_MAX + 2];
    const char *slash = cfg_path ? strrchr(cfg_path, '/') : NULL;
    if (p[0] != '/' && slash)
        snprintf(joined, sizeof joined, "%.*s/%s", (int)(slash - cfg_path), cfg_path, p);
    else
        snprintf(joined, sizeof joined, "%s", p);
    char abs[PATH_MAX];
    const char *use = p[0] == '/' ? p : realpath(joined, abs) ? abs : joined;
    if (strlen(use) >= CFG_PATH_MAX)
        return false;
    snprintf(out, CFG_PATH_MAX, "%s", use);
    return true;
}

/* The fault curves' files (issue 33: process.fault_curve, or every FILE of
 * fault_curves' APP:FILE items when list is true) resolved as
 * resolve_path does, the value rewritten in place. 0, or -1 with e when
 * the result does not fit. */
static int resolve_curve_key(config *c, bool list, const char *cfg_path, cfg_error *e)
{
    char *v = list ? c->process.fault_curves : c->process.fault_curve;
    char out[CFG_PATH_MAX], file[CFG_PATH_MAX], path[CFG_PATH_MAX], why[CFG_ERR_MAX];
    bool fits = true;
    out[0] = '\0';
    if (!list) {
        fits = !v[0] || resolve_path(v, cfg_path, out);
    } else {
        const char *p = v;
        long app;
        size_t len = 0;
        while (fits && cfg_curves_next(&p, &app, file, sizeof file, why, sizeof why) == 1) {
            fits = resolve_path(file, cfg_path, path);
            int k = snprintf(out + len, sizeof out - len, "%s%ld:%s", len ? ", " : "", app, path);
            fits = fits && k > 0 && (size_t)k < sizeof out - len;
            len += fits ? (size_t)k : 0;
        }
    }
    if (fits) {
        memcpy(v, out, strlen(out) + 1);
        return 0;
    }
    memset(e, 0, sizeof *e);
    e->source = cfg_path ? CFG_SRC_FILE : CFG_SRC_VALIDATE;
    snprintf(e->file, sizeof e->file, "%s", cfg_path ? cfg_path : "");
    snprintf(e->key, sizeof e->key, "process.%s", list ? "fault_curves" : "fault_curve");
    snprintf(e->value, sizeof e->value, "%.80s", v);
    snprintf(e->why, sizeof e->why, "its files made absolute make a value longer than %d "
             "characters: give shorter paths", CFG_PATH_MAX - 1);
    snprintf(e->what, sizeof e->what, "[process] %s: %.400s", list ? "fault_curves" : "fault_curve",
             e->why);
    return -1;
}

/* Set key (section, name) to value as option opt (-t, -s) gives it
 * (source src), recording "OPT VALUE" as where it was set. The value is
 * taken as given, never trimmed: a -t name starting or ending with a blank
 * is refused (config.ini's values are read without their surrounding
 * blanks, so its replay would open another file; issue 32 item 8). */
static int set_option(config *c, const char *section, const char *name, const char *value,
                      const char *opt, cfg_src src, cfg_error *e)
{
    size_t len = strlen(value);
    if (src == CFG_SRC_TRACE && len &&
        (isspace((unsigned char)value[0]) || isspace((unsigned char)value[len - 1]))) {
        memset(e, 0, sizeof *e);
        e->source = src;
        snprintf(e->key, sizeof e->key, "%s.%s", section, name);
        snprintf(e->why, sizeof e->why,
                 "the file name starts or ends with a blank, which config.ini cannot keep "
                 "(its values are read without their surrounding blanks, so a replay would "
                 "open another file); rename the file, or give the name without the blank");
        snprintf(e->what, sizeof e->what, "%s", e->why);
        return -1;
    }
    char buf[CFG_PATH_MAX + 32];
    snprintf(buf, sizeof buf, "%s.%s=%s", section, name, value);
    if (config_set_e(c, buf, e) != 0) {
        e->source = src;
        return -1;
    }
    cfg_set_origin(c, cfg_find_key(section, name), "%s %s", opt, value);
    return 0;
}

/* Set [output] key to value as option --KEY[=VALUE] gives it ("yes" from
 * --KEY alone), recording the option as where it was set; a refused value
 * is blamed on the option (CFG_SRC_OPTION). */
static int set_flag(config *c, const char *key, const char *value, cfg_error *e)
{
    char opt[CFG_NAME_MAX + 32], buf[CFG_NAME_MAX + 64];
    if (!strcmp(value, "yes"))
        snprintf(opt, sizeof opt, "--%s", key);
    else
        snprintf(opt, sizeof opt, "--%s=%.*s", key, CFG_NAME_MAX, value);
    snprintf(buf, sizeof buf, "output.%s=%s", key, value);
    if (config_set_e(c, buf, e) != 0) {
        e->source = CFG_SRC_OPTION;
        snprintf(e->arg, sizeof e->arg, "%s", opt);
        return -1;
    }
    cfg_set_origin(c, cfg_find_key("output", key), "%s", opt);
    return 0;
}

/* 0 when the name of configuration file path has no control character;
 * else -1 with e (the name shown with '?' for them): config.ini records
 * where each key came from as "; from FILE:LINE" comment lines, which a
 * newline in FILE would break (issue 32 item 8), as -t names are refused
 * for the same reason. */
static int check_file_name(const char *path, cfg_error *e)
{
    const unsigned char *p = (const unsigned char *)path;
    while (*p && !iscntrl(*p))
        p++;
    if (!*p)
        return 0;
    memset(e, 0, sizeof *e);
    e->source = CFG_SRC_FILE;
    size_t i = 0;
    for (; path[i] && i < sizeof e->file - 1; i++)
        e->file[i] = iscntrl((unsigned char)path[i]) ? '?' : path[i];
    e->file[i] = '\0';
    snprintf(e->why, sizeof e->why,
             "the configuration file's name holds a control character (a newline, a tab: "
             "shown as '?'); config.ini names the file in comment lines, which it would "
             "break: rename the file or give it through a link with a plain name");
    snprintf(e->what, sizeof e->what, "%s", e->why);
    return -1;
}

/* The keys that name files: the trace, and the fault curves (issue 33). */
static const char *const path_keys[][2] = {
    {"workload", "trace"}, {"process", "fault_curve"}, {"process", "fault_curves"}};

/* Load layer file path onto c: its keys override those set before, and a
 * relative [workload] trace or fault curve IT sets is taken from its
 * directory (one set by an earlier layer is left as that layer resolved
 * it). */
static int load_layer(config *c, const char *path, cfg_error *e)
{
    if (check_file_name(path, e) != 0)
        return -1;
    size_t ki[3];
    char before[3][CFG_ORIGIN_MAX];
    for (int k = 0; k < 3; k++) {
        ki[k] = (size_t)(cfg_find_key(path_keys[k][0], path_keys[k][1]) - cfg_keys);
        memcpy(before[k], c->origin[ki[k]], CFG_ORIGIN_MAX);
        c->origin[ki[k]][0] = '\0'; /* set again only if this file sets the key */
    }
    if (config_load_e(c, path, e) != 0)
        return -1;
    for (int k = 0; k < 3; k++) {
        if (!c->origin[ki[k]][0]) {
            memcpy(c->origin[ki[k]], before[k], CFG_ORIGIN_MAX);
            continue;
        }
        int rc = k == 0 ? resolve_trace(c, path, e) : resolve_curve_key(c, k == 2, path, e);
        if (rc != 0)
            return -1;
    }
    return 0;
}

/* Standard input as a file of a: a second "-" is refused (it can be read
 * once). 0, or -1 with e on the second one. */
static int check_stdin_files(const config_args *a, cfg_error *e)
{
    bool seen = false;
    for (size_t i = 0; i < a->nfiles; i++) {
        if (strcmp(a->files[i], "-"))
            continue;
        if (seen) {
            memset(e, 0, sizeof *e);
            e->source = CFG_SRC_FILE;
            snprintf(e->file, sizeof e->file, "stdin");
            snprintf(e->why, sizeof e->why, "standard input given twice as a "
                     "configuration (-c -): it can be read only once");
            snprintf(e->what, sizeof e->what, "%s", e->why);
            return -1;
        }
        seen = true;
    }
    return 0;
}

/* Whether a component of path is longer than NAME_MAX (no such file can
 * exist; realpath says ENAMETOOLONG for it as for a path over PATH_MAX). */
static bool long_component(const char *path)
{
    size_t run = 0;
    for (const char *p = path; *p; p++) {
        run = *p == '/' ? 0 : run + 1;
        if (run > NAME_MAX)
            return true;
    }
    return false;
}

/* Make a relative trace (from -t or --set) absolute, so that config.ini
 * replays from anywhere. A trace that does not exist is left as given (the
 * run's open names it); one whose absolute path would not fit PATH_MAX
 * (CFG_PATH_MAX) is refused: stored relative, its replay would open another
 * file (issue 32 item 8). 0, or -1 with e. */
static int absolute_trace(config *c, cfg_error *e)
{
    char *t = c->workload.trace;
    if (!t[0] || t[0] == '/' || strcmp(t, "-") == 0)
        return 0;
    char abs[PATH_MAX];
    if (realpath(t, abs)) {
        if (strlen(abs) < CFG_PATH_MAX) {
            memcpy(c->workload.trace, abs, strlen(abs) + 1);
            return 0;
        }
    } else if (errno != ENAMETOOLONG || long_component(t)) {
        return 0; /* the run's open says why (a name over NAME_MAX: too long) */
    }
    const char *o = config_origin(c, "workload.trace");
    memset(e, 0, sizeof *e);
    e->source = strncmp(o, "-t ", 3) ? CFG_SRC_VALIDATE : CFG_SRC_TRACE;
    snprintf(e->key, sizeof e->key, "workload.trace");
    snprintf(e->value, sizeof e->value, "%.80s", t);
#define TOO_LONG_TRACE                                                                     \
    "the trace's absolute path (from the working directory) is longer than %d characters, "  \
    "the most a path can have (PATH_MAX): config.ini could not name it for a replay; give a " \
    "shorter path or run from nearer the trace"
    snprintf(e->why, sizeof e->why, TOO_LONG_TRACE, CFG_PATH_MAX - 1);
    if (e->source == CFG_SRC_TRACE)
        snprintf(e->what, sizeof e->what, TOO_LONG_TRACE, CFG_PATH_MAX - 1);
    else
        snprintf(e->what, sizeof e->what, "[workload] trace (from %.100s): " TOO_LONG_TRACE, o,
                 CFG_PATH_MAX - 1);
#undef TOO_LONG_TRACE
    return -1;
}

int config_build(config *c, const config_args *a, cfg_error *e)
{
    config_defaults(c);
    if (check_stdin_files(a, e) != 0)
        return -1;
    bool stdin_cfg = false;
    for (size_t i = 0; i < a->nfiles; i++) {
        if (load_layer(c, a->files[i], e) != 0)
            return -1;
        stdin_cfg |= !strcmp(a->files[i], "-");
    }
    if (a->trace && set_option(c, "workload", "trace", a->trace, "-t", CFG_SRC_TRACE, e) != 0)
        return -1;
    if (a->seed && set_option(c, "simulation", "seed", a->seed, "-s", CFG_SRC_SEED, e) != 0)
        return -1;
    for (size_t i = 0; i < a->nsets; i++)
        if (config_set_e(c, a->sets[i], e) != 0) {
            e->index = i;
            return -1;
        }
    if (a->schedule && set_flag(c, "schedule", a->schedule, e) != 0)
        return -1;
    if (a->paje && set_flag(c, "paje", a->paje, e) != 0)
        return -1;
    char *t = c->workload.trace;
    if (stdin_cfg && !strcmp(t, "-")) {
        const char *o = config_origin(c, "workload.trace");
        memset(e, 0, sizeof *e);
        e->source = CFG_SRC_FILE;
        snprintf(e->file, sizeof e->file, "stdin");
        snprintf(e->key, sizeof e->key, "workload.trace");
        snprintf(e->value, sizeof e->value, "-");
        snprintf(e->why, sizeof e->why, "the configuration (-c -) and the trace "
                 "([workload] trace = -, from %s) cannot both be read from standard input",
                 o[0] ? o : "the configuration");
        snprintf(e->what, sizeof e->what, "%s", e->why);
        return -1;
    }
    if (absolute_trace(c, e) != 0)
        return -1;
    /* Curves set by --set: from the working directory, as -t's trace. */
    if (resolve_curve_key(c, false, NULL, e) != 0 || resolve_curve_key(c, true, NULL, e) != 0)
        return -1;
    return config_validate_e(c, e);
}
