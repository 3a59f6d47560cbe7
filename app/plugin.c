/* app/plugin.c: loading plugins (see app/plugin.h).
 *
 * A plugin is opened with dlopen(RTLD_NOW | RTLD_LOCAL): every symbol it
 * needs from pnrsim is resolved at once (pnrsim exports exactly the
 * functions and data of its public headers, -Wl,--dynamic-list of
 * BUILD/pnrsim.dynlist, tools/dynamic-list.sh; a missing one, or an
 * internal function, fails the load, not the run; a plugin's own function
 * named like one of pnrsim's internals stays its own), and its own symbols
 * stay out of the global namespace, so two plugins may both define
 * helpers of the same name. Before its entry
 * point is called, its PNRSIM_PLUGIN_API_SYMBOL is read and compared with
 * PNRSIM_API_VERSION (Redis modules do the same): a plugin built against
 * other headers is refused even when its init does not check. Its init
 * runs between a registry mark (taken before dlopen, so that a
 * registration from an ELF constructor, which the registry refuses as
 * outside any init, is seen) and the check of the registry's first
 * refusal, with the registry open and its origin set to its path; then
 * every component it registered is checked against its kind's contract
 * (components_missing: the required ops members); any failure rolls
 * the registry back to the mark and closes the object, so a refused plugin
 * leaves nothing behind (and pnrsim stops with exit 2 anyway).
 *
 * Loaded plugins are never closed: their ops tables and descriptions are
 * the registry's until the process exits.
 *
 * In app/'s configuration module this file is above the keys
 * (app/config_keys.c: cfg_keys_sync), the errors and the values, and
 * below app/config.c, which calls plugin_load_ini_text for each INI file
 * before reading it.
 */
#include "app/plugin.h"
#include "app/components.h"
#include "app/config_error.h"
#include "app/config_keys.h"
#include "app/config_value.h"
#include "app/sha256.h"
#include "app/util.h"
#include "core/registry.h"
#include "core/registry_host.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Most plugins one process loads. */
#define PLUGIN_MAX 32

static plugin_info plugins[PLUGIN_MAX];
static size_t nplugins;

size_t plugin_count(void)
{
    return nplugins;
}

const plugin_info *plugin_at(size_t i)
{
    return i < nplugins ? &plugins[i] : NULL;
}

/* Fill e with a refusal of the plugin named at from (or file:line): what,
 * described by fmt. Returns -1. */
static int fail(cfg_error *e, const char *from, const char *file, long line, const char *fmt,
                ...) __attribute__((format(printf, 5, 6)));
static int fail(cfg_error *e, const char *from, const char *file, long line, const char *fmt,
                ...)
{
    char what[CFG_ERR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (!e)
        return -1;
    if (file) {
        where w = {.file = file, .line = line};
        cfg_fail(e, &w, "%s", what);
    } else {
        memset(e, 0, sizeof *e);
        e->source = CFG_SRC_OPTION;
        snprintf(e->arg, sizeof e->arg, "%s", from);
        snprintf(e->what, sizeof e->what, "%s", what);
    }
    return -1;
}

/* The SHA-256 of the file at path as hex, or -1 (errno). */
static int file_sha256(const char *path, char hex[65])
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    sha256_ctx s;
    sha256_init(&s);
    unsigned char buf[65536], d[32];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        sha256_update(&s, buf, n);
    int bad = ferror(f);
    fclose(f);
    if (bad)
        return -1;
    sha256_final(&s, d);
    sha256_hex(d, hex);
    return 0;
}

/* Append ", " (unless *len is 0) and item to the growing string *s of
 * length *len. -1 when out of memory. */
static int append_name(char **s, size_t *len, const char *item)
{
    size_t add = (*len ? 2 : 0) + strlen(item);
    char *n = realloc(*s, *len + add + 1);
    if (!n)
        return -1;
    sprintf(n + *len, "%s%s", *len ? ", " : "", item);
    *s = n;
    *len += add;
    return 0;
}

/* What was registered since m, into p->names (allocated, never cut; an
 * item is at most a kind and a name, or a section and a key). */
static int list_new(const pnrsim_mark *m, plugin_info *p)
{
    size_t len = 0;
    char item[3 * PNRSIM_NAME_MAX + 32];
    p->names = calloc(1, 1);
    if (!p->names)
        return -1;
    for (int k = 0; k < PNRSIM_NKINDS; k++)
        for (int i = m->n[k]; i < pnrsim_count((pnrsim_kind)k); i++) {
            snprintf(item, sizeof item, "%s %s", pnrsim_kind_name((pnrsim_kind)k),
                     pnrsim_at((pnrsim_kind)k, i)->name);
            if (append_name(&p->names, &len, item))
                return -1;
        }
    for (int h = m->nkeys; h < pnrsim_nkeys(); h++) {
        snprintf(item, sizeof item, "key %s.%s", pnrsim_key_at(h)->section,
                 pnrsim_key_at(h)->key);
        if (append_name(&p->names, &len, item))
            return -1;
    }
    return 0;
}

/* The first character of path that config.ini's "[plugins] load = a, b"
 * could not carry back (the reader splits at ',', cuts an inline comment
 * at ';' and trims blanks), or NULL: a ',' or ';', a control character, or
 * a blank at either end. */
static const char *path_unwritable(const char *path)
{
    size_t n = strlen(path);
    if (n && (path[0] == ' ' || path[0] == '\t'))
        return "a blank at its start";
    if (n && (path[n - 1] == ' ' || path[n - 1] == '\t'))
        return "a blank at its end";
    for (const unsigned char *c = (const unsigned char *)path; *c; c++) {
        if (*c == ',')
            return "a ','";
        if (*c == ';')
            return "a ';'";
        if (*c < 0x20 || *c == 0x7f)
            return "a control character";
    }
    return NULL;
}

/* Every component registered since m against its kind's contract: 0, or
 * -1 with e naming the file, the kind, the component and what is missing. */
static int check_new(const pnrsim_mark *m, const char *real, const char *from,
                     const char *file, long line, cfg_error *e)
{
    for (int k = 0; k < PNRSIM_NKINDS; k++)
        for (int i = m->n[k]; i < pnrsim_count((pnrsim_kind)k); i++) {
            const pnrsim_component *c = pnrsim_at((pnrsim_kind)k, i);
            const char *why = components_missing(c);
            if (why)
                return fail(e, from, file, line, "plugin %s: %s %s: %s", real,
                            pnrsim_kind_name((pnrsim_kind)k), c->name, why);
        }
    return 0;
}

int plugin_load(const char *path, const char *from, const char *file, long line, cfg_error *e)
{
    components_init(); /* the built-ins first: a plugin cannot take their names */
    char real[PATH_MAX];
    if (!realpath(path, real))
        return fail(e, from, file, line, "plugin %s: cannot open: %s", path, strerror(errno));
    for (size_t i = 0; i < nplugins; i++)
        if (!strcmp(plugins[i].path, real))
            return 0;
    if (nplugins >= PLUGIN_MAX)
        return fail(e, from, file, line, "plugin %s: more than %d plugins", real, PLUGIN_MAX);
    const char *bad = path_unwritable(real);
    if (bad)
        return fail(e, from, file, line, "plugin %s: its path has %s, which config.ini's "
                    "[plugins] load = a.so, b.so cannot record for a replay: rename or move "
                    "the file", real, bad);
    plugin_info *p = &plugins[nplugins];
    memset(p, 0, sizeof *p);
    snprintf(p->path, sizeof p->path, "%s", real);
    snprintf(p->from, sizeof p->from, "%s", from);
    if (file_sha256(real, p->sha256))
        return fail(e, from, file, line, "plugin %s: cannot read: %s", real, strerror(errno));
    pnrsim_mark m = pnrsim_mark_get(); /* before dlopen: a constructor's registration */
    dlerror();
    void *h = dlopen(real, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *why = dlerror();
        pnrsim_rollback(m);
        return fail(e, from, file, line, "plugin %s: cannot load: %s", real,
                    why ? why : "dlopen failed");
    }
    int rc = -1;
    const char *what;
    const int *api = dlsym(h, PNRSIM_PLUGIN_API_SYMBOL);
    void *entry = dlsym(h, PNRSIM_PLUGIN_ENTRY);
    if (pnrsim_first_error(&what) != PNRSIM_OK) {
        fail(e, from, file, line, "plugin %s: registration refused while it was opened: %s",
             real, what);
    } else if (!api) {
        fail(e, from, file, line, "plugin %s: no symbol %s: not a pnrsim plugin, or built "
             "without PNRSIM_PLUGIN_DECLARE (see core/registry.h)", real, PNRSIM_PLUGIN_API_SYMBOL);
    } else if (*api != PNRSIM_API_VERSION) {
        fail(e, from, file, line, "plugin %s: built for pnrsim API version %d, but this pnrsim "
             "has API version %d: rebuild it against this pnrsim's headers", real, *api,
             PNRSIM_API_VERSION);
    } else if (!entry) {
        fail(e, from, file, line, "plugin %s: no entry point %s: a plugin exports "
             "int %s(pnrsim_registry *, int)", real, PNRSIM_PLUGIN_ENTRY, PNRSIM_PLUGIN_ENTRY);
    } else {
        pnrsim_plugin_init_fn init;
        memcpy(&init, &entry, sizeof init); /* POSIX: a function's address */
        pnrsim_set_origin(p->path);
        pnrsim_registry_open();
        int r = init(pnrsim_registry_get(), PNRSIM_API_VERSION);
        pnrsim_registry_close();
        pnrsim_set_origin(NULL);
        int refused = pnrsim_first_error(&what);
        if (r != 0)
            fail(e, from, file, line, "plugin %s: its %s returned %d (refused)%s%s", real,
                 PNRSIM_PLUGIN_ENTRY, r, refused ? "; first refused registration: " : "",
                 refused ? what : "");
        else if (refused)
            fail(e, from, file, line, "plugin %s: registration refused: %s", real, what);
        else
            rc = check_new(&m, real, from, file, line, e);
    }
    if (rc != 0) {
        pnrsim_rollback(m);
        cfg_keys_sync();
        dlclose(h);
        return -1;
    }
    if (list_new(&m, p)) {
        free(p->names);
        p->names = NULL;
        pnrsim_rollback(m);
        cfg_keys_sync();
        return fail(e, from, file, line, "plugin %s: out of memory", real);
    }
    nplugins++;
    cfg_keys_sync();
    return 0;
}

/* The blanks at both ends of [*s, *end) dropped. */
static void trim(const char **s, const char **end)
{
    while (*s < *end && (**s == ' ' || **s == '\t'))
        (*s)++;
    while (*end > *s && ((*end)[-1] == ' ' || (*end)[-1] == '\t' || (*end)[-1] == '\r' ||
                         (*end)[-1] == '\n'))
        (*end)--;
}

/* Load the items of one "load = ..." value [v, end) of file's line. */
static int load_list(const char *file, long line, const char *v, const char *end, cfg_error *e)
{
    char dir[CFG_PATH_MAX] = ".";
    const char *slash = strrchr(file, '/');
    if (strcmp(file, "stdin") && slash)
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - file) + (slash == file), file);
    char from[CFG_ORIGIN_MAX];
    snprintf(from, sizeof from, "%s:%ld", file, line);
    for (const char *p = v; p <= end;) {
        const char *comma = memchr(p, ',', (size_t)(end - p));
        const char *ie = comma ? comma : end, *is = p;
        trim(&is, &ie);
        if (is == ie) {
            where w = {.file = file, .line = line};
            cfg_fail(e, &w, "[plugins] load: an empty item: expected FILE.so, FILE.so, ...");
            return -1;
        }
        char path[CFG_PATH_MAX];
        if (*is == '/')
            snprintf(path, sizeof path, "%.*s", (int)(ie - is), is);
        else
            snprintf(path, sizeof path, "%s/%.*s", dir, (int)(ie - is), is);
        if (plugin_load(path, from, file, line, e))
            return -1;
        if (!comma)
            break;
        p = comma + 1;
    }
    return 0;
}

int plugin_load_ini_text(const char *file, const char *text, size_t len, cfg_error *e)
{
    bool in_plugins = false;
    long line = 0, load_line = 0;
    for (const char *p = text, *stop = text + len; p < stop;) {
        const char *nl = memchr(p, '\n', (size_t)(stop - p));
        const char *s = p, *end = nl ? nl : stop;
        p = nl ? nl + 1 : stop;
        line++;
        if (line == 1 && end - s >= 3 && !strncmp(s, "\xEF\xBB\xBF", 3))
            s += 3;
        trim(&s, &end);
        if (s == end || *s == ';' || *s == '#')
            continue;
        if (*s == '[') {
            const char *close = memchr(s, ']', (size_t)(end - s));
            const char *ns = s + 1, *ne = close ? close : s + 1;
            trim(&ns, &ne);
            in_plugins = close && (size_t)(ne - ns) == strlen(CFG_PLUGINS_SECTION) &&
                         !strncasecmp(ns, CFG_PLUGINS_SECTION, (size_t)(ne - ns));
            continue;
        }
        const char *eq = memchr(s, '=', (size_t)(end - s));
        if (!in_plugins || !eq)
            continue; /* the reader proper says what is wrong */
        const char *ks = s, *ke = eq;
        trim(&ks, &ke);
        if ((size_t)(ke - ks) != 4 || strncasecmp(ks, "load", 4))
            continue;
        if (load_line) {
            where w = {.file = file, .line = line};
            cfg_fail(e, &w, "[plugins] load set twice (first on line %ld)", load_line);
            return -1;
        }
        load_line = line;
        /* An inline comment: ';' after a blank (as the INI reader). */
        const char *v = eq + 1, *ve = end;
        for (const char *q = v; q < end; q++)
            if (*q == ';' && q > v && (q[-1] == ' ' || q[-1] == '\t')) {
                ve = q;
                break;
            }
        trim(&v, &ve);
        if (v == ve)
            continue; /* load = (nothing) */
        if (load_list(file, line, v, ve, e))
            return -1;
    }
    return 0;
}

int plugin_load_ini_file(const char *path, cfg_error *e)
{
    size_t len;
    util_read_fail why;
    char *text = util_read_file(path, 1L << 20, &len, &why);
    if (!text) {
        cfg_fail_file(e, path, "cannot read: %s", strerror(errno));
        return -1;
    }
    int rc = plugin_load_ini_text(path, text, len, e);
    free(text);
    return rc;
}

/* The widest of w and strlen(s). */
static int wider(int w, const char *s)
{
    int n = (int)strlen(s);
    return n > w ? n : w;
}

void plugin_list_components(FILE *f)
{
    /* The columns' widths: at least the built-ins' listing's (10, 16, 9),
     * else the widest kind, name (or plugin.S.K) and origin, so that long
     * ones keep the table aligned. */
    int wk = 10, wn = 16, wo = 9;
    char name[PNRSIM_NAME_MAX * 2 + 8];
    for (int k = 0; k < PNRSIM_NKINDS; k++)
        for (int i = 0; i < pnrsim_count((pnrsim_kind)k); i++) {
            const pnrsim_component *c = pnrsim_at((pnrsim_kind)k, i);
            wk = wider(wk, pnrsim_kind_name((pnrsim_kind)k));
            wn = wider(wn, c->name);
            wo = wider(wo, c->origin);
        }
    for (int h = 0; h < pnrsim_nkeys(); h++) {
        const pnrsim_key *k = pnrsim_key_at(h);
        snprintf(name, sizeof name, "%s.%s", k->section, k->key);
        wk = wider(wk, "key");
        wn = wider(wn, name);
        wo = wider(wo, k->origin);
    }
    fprintf(f, "%-*s  %-*s  %-*s  %s\n", wk, "KIND", wn, "NAME", wo, "ORIGIN", "DESCRIPTION");
    for (int k = 0; k < PNRSIM_NKINDS; k++)
        for (int i = 0; i < pnrsim_count((pnrsim_kind)k); i++) {
            const pnrsim_component *c = pnrsim_at((pnrsim_kind)k, i);
            fprintf(f, "%-*s  %-*s  %-*s  %s\n", wk, pnrsim_kind_name((pnrsim_kind)k), wn,
                    c->name, wo, c->origin, c->description);
        }
    for (int h = 0; h < pnrsim_nkeys(); h++) {
        const pnrsim_key *k = pnrsim_key_at(h);
        const key_def *kd = cfg_find_key(k->section, k->key);
        char allowed[160] = "";
        if (kd)
            cfg_describe_terse(kd, allowed, sizeof allowed);
        snprintf(name, sizeof name, "%s.%s", k->section, k->key);
        fprintf(f, "%-*s  %-*s  %-*s  %s [%s%s%s; default %g]\n", wk, "key", wn, name, wo,
                k->origin, k->comment, k->unit, k->unit[0] ? "; " : "", allowed, k->def);
    }
}
