/* core/registry.c: the registry of named components (see registry.h).
 *
 * Fixed arrays, one per kind, filled in registration order and never
 * reordered: a component's index is its position, so the configuration
 * can store an index and print the name back, and --list-components is
 * the same on every run. Nothing is allocated; the registry lives as long
 * as the process. Lookup is a scan of at most PNRSIM_MAX_COMPONENTS names,
 * done only while reading configuration, never during a run.
 */
#include "core/registry.h"
#include "core/registry_host.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct pnrsim_registry {
    pnrsim_component comp[PNRSIM_NKINDS][PNRSIM_MAX_COMPONENTS];
    int n[PNRSIM_NKINDS];
    const char *names[PNRSIM_NKINDS][PNRSIM_MAX_COMPONENTS + 1];
    pnrsim_key keys[PNRSIM_MAX_KEYS];
    int nkeys;
    const char *origin;
    int open;           /* registrations accepted (pnrsim_registry_open) */
    int err;            /* the first refusal since the mark (PNRSIM_OK: none) */
    char err_what[160];
};

static pnrsim_registry reg;

static const char *const kind_key[PNRSIM_NKINDS] = {
    "netram.strategy", "scheduler.priority", "scheduler.backfill",
    "scheduler.packing", "scheduler.allocation",
};
static const char *const kind_name[PNRSIM_NKINDS] = {
    "strategy", "priority", "backfill", "packing", "allocation",
};

pnrsim_registry *pnrsim_registry_get(void)
{
    return &reg;
}

/* 1 when s is a valid name: 1 .. PNRSIM_NAME_MAX - 1 of [A-Za-z0-9_-]. */
static int name_ok(const char *s)
{
    if (!s)
        return 0;
    size_t n = strlen(s);
    if (n == 0 || n >= PNRSIM_NAME_MAX)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-'))
            return 0;
    }
    return 1;
}

/* 1 when s has no control character (a newline would break a listing's
 * line or a configuration file's comment). */
static int text_ok(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            return 0;
    return 1;
}

/* Record the first refusal since the mark: code rc, what described by fmt
 * (a component or key and why). Returns rc. */
static int refuse(int rc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int refuse(int rc, const char *fmt, ...)
{
    if (reg.err == PNRSIM_OK) {
        reg.err = rc;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(reg.err_what, sizeof reg.err_what, fmt, ap);
        va_end(ap);
    }
    return rc;
}

int pnrsim_register(pnrsim_registry *r, pnrsim_kind kind, const char *name,
                    const char *description, const void *ops)
{
    const char *kn = pnrsim_kind_name(kind);
    if (!reg.open)
        return refuse(PNRSIM_EINVAL, "%s %.40s: registered outside the plugin's init (while "
                      "it was being opened, e.g. from a constructor, or later)", kn,
                      name ? name : "(null)");
    if (!r || (int)kind < 0 || kind >= PNRSIM_NKINDS)
        return refuse(PNRSIM_EINVAL, "a component of kind %d: no such kind", (int)kind);
    if (!name_ok(name))
        return refuse(PNRSIM_EINVAL, "%s \"%.40s\": a name is 1 to %d characters of "
                      "A-Z a-z 0-9 _ -", kn, name ? name : "(null)", PNRSIM_NAME_MAX - 1);
    if (!ops || !description)
        return refuse(PNRSIM_EINVAL, "%s %s: no %s", kn, name, ops ? "description" : "ops table");
    if (!text_ok(description))
        return refuse(PNRSIM_EINVAL, "%s %s: its description has a control character (a "
                      "newline, a tab, ...): expected one line", kn, name);
    const pnrsim_component *old = pnrsim_find(kind, name);
    if (old)
        return refuse(PNRSIM_EDUP, "%s %s: already registered (%s)", kn, name, old->origin);
    if (r->n[kind] >= PNRSIM_MAX_COMPONENTS)
        return refuse(PNRSIM_EFULL, "%s %s: the kind has %d components already, the most",
                      kn, name, PNRSIM_MAX_COMPONENTS);
    int i = r->n[kind]++;
    pnrsim_component *c = &r->comp[kind][i];
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->index = i;
    strcpy(c->name, name);
    c->description = description;
    c->ops = ops;
    c->origin = r->origin ? r->origin : "built in";
    r->names[kind][i] = c->name;
    r->names[kind][i + 1] = NULL;
    return PNRSIM_OK;
}

int pnrsim_register_key(pnrsim_registry *r, const char *section, const char *key,
                        pnrsim_key_type type, double min, double max, double def,
                        const char *unit, const char *comment)
{
    const char *sn = section ? section : "(null)", *kn = key ? key : "(null)";
    if (!reg.open)
        return refuse(PNRSIM_EINVAL, "key [plugin.%.40s] %.40s: declared outside the plugin's "
                      "init (while it was being opened, e.g. from a constructor, or later)",
                      sn, kn);
    if (!r || !name_ok(section) || !name_ok(key))
        return refuse(PNRSIM_EINVAL, "key [plugin.%.40s] %.40s: a section or key name is 1 to "
                      "%d characters of A-Z a-z 0-9 _ -", sn, kn, PNRSIM_NAME_MAX - 1);
    if (!comment || (type != PNRSIM_KEY_DOUBLE && type != PNRSIM_KEY_INT))
        return refuse(PNRSIM_EINVAL, "key [plugin.%s] %s: %s", sn, kn,
                      comment ? "a type other than PNRSIM_KEY_DOUBLE or PNRSIM_KEY_INT"
                              : "no comment");
    if (!text_ok(comment) || (unit && !text_ok(unit)))
        return refuse(PNRSIM_EINVAL, "key [plugin.%s] %s: its %s has a control character (a "
                      "newline, a tab, ...): expected one line", sn, kn,
                      text_ok(comment) ? "unit" : "comment");
    if (!isfinite(min) || !isfinite(max) || !isfinite(def) || min > max || def < min || def > max)
        return refuse(PNRSIM_EINVAL, "key [plugin.%s] %s: min %g, max %g, default %g: expected "
                      "finite bounds, min <= max and the default between them", sn, kn, min,
                      max, def);
    if (type == PNRSIM_KEY_INT &&
        (min != floor(min) || max != floor(max) || def != floor(def) || fabs(min) > 1e9 ||
         fabs(max) > 1e9))
        return refuse(PNRSIM_EINVAL, "key [plugin.%s] %s: an integer key needs whole bounds "
                      "and default, bounds within +-1e9", sn, kn);
    char full[sizeof r->keys[0].section];
    snprintf(full, sizeof full, "plugin.%s", section);
    for (int i = 0; i < r->nkeys; i++)
        if (!strcasecmp(r->keys[i].section, full) && !strcasecmp(r->keys[i].key, key))
            return refuse(PNRSIM_EDUP, "key [%s] %s: already declared (%s)", full, kn,
                          r->keys[i].origin);
    if (r->nkeys >= PNRSIM_MAX_KEYS)
        return refuse(PNRSIM_EFULL, "key [%s] %s: %d plugin keys declared already, the most",
                      full, kn, PNRSIM_MAX_KEYS);
    pnrsim_key *k = &r->keys[r->nkeys];
    memset(k, 0, sizeof *k);
    strcpy(k->section, full);
    strcpy(k->key, key);
    k->type = type;
    k->min = min;
    k->max = max;
    k->def = def;
    k->unit = unit ? unit : "";
    k->comment = comment;
    k->origin = r->origin ? r->origin : "built in";
    return r->nkeys++;
}

double pnrsim_ctx_value(const pnrsim_ctx *c, int handle)
{
    if (!c || !c->values || handle < 0 || handle >= reg.nkeys)
        return NAN;
    return c->values[handle];
}

rng_t *pnrsim_ctx_stream(const pnrsim_ctx *c, const char *name, uint64_t index)
{
    /* A prefix of its own, so that no component's stream is one of the
     * simulator's ("fault", "pnr-choice", ...); the whole name after it,
     * so that two long names never share a stream. */
    static const char prefix[] = "component:";
    const char *n = name ? name : "";
    size_t len = sizeof prefix + strlen(n);
    char small[64], *full = len <= sizeof small ? small : malloc(len);
    if (!full) {
        fprintf(stderr, "pnrsim_ctx_stream: out of memory\n");
        abort();
    }
    snprintf(full, len, "%s%s", prefix, n);
    rng_t *g = rng_stream_gen(c->generator, c->seed, full, index);
    if (full != small)
        free(full);
    return g;
}

const pnrsim_component *pnrsim_find(pnrsim_kind kind, const char *name)
{
    if ((int)kind < 0 || kind >= PNRSIM_NKINDS || !name)
        return NULL;
    for (int i = 0; i < reg.n[kind]; i++)
        if (!strcasecmp(reg.comp[kind][i].name, name))
            return &reg.comp[kind][i];
    return NULL;
}

const pnrsim_component *pnrsim_at(pnrsim_kind kind, int index)
{
    if ((int)kind < 0 || kind >= PNRSIM_NKINDS || index < 0 || index >= reg.n[kind])
        return NULL;
    return &reg.comp[kind][index];
}

const pnrsim_component *pnrsim_component_of(pnrsim_kind kind, const void *ops)
{
    for (int i = 0; i < pnrsim_count(kind); i++)
        if (reg.comp[kind][i].ops == ops)
            return &reg.comp[kind][i];
    return NULL;
}

int pnrsim_count(pnrsim_kind kind)
{
    return ((int)kind < 0 || kind >= PNRSIM_NKINDS) ? 0 : reg.n[kind];
}

const char *const *pnrsim_names(pnrsim_kind kind)
{
    static const char *const none[] = {NULL};
    if ((int)kind < 0 || kind >= PNRSIM_NKINDS || reg.n[kind] == 0)
        return none;
    return reg.names[kind];
}

const char *pnrsim_kind_key(pnrsim_kind kind)
{
    return ((int)kind < 0 || kind >= PNRSIM_NKINDS) ? "?" : kind_key[kind];
}

const char *pnrsim_kind_name(pnrsim_kind kind)
{
    return ((int)kind < 0 || kind >= PNRSIM_NKINDS) ? "?" : kind_name[kind];
}

int pnrsim_nkeys(void)
{
    return reg.nkeys;
}

const pnrsim_key *pnrsim_key_at(int handle)
{
    return handle < 0 || handle >= reg.nkeys ? NULL : &reg.keys[handle];
}

void pnrsim_registry_open(void)
{
    reg.open = 1;
}

void pnrsim_registry_close(void)
{
    reg.open = 0;
}

void pnrsim_set_origin(const char *origin)
{
    reg.origin = origin;
}

pnrsim_mark pnrsim_mark_get(void)
{
    pnrsim_mark m;
    for (int k = 0; k < PNRSIM_NKINDS; k++)
        m.n[k] = reg.n[k];
    m.nkeys = reg.nkeys;
    reg.err = PNRSIM_OK;
    reg.err_what[0] = '\0';
    return m;
}

int pnrsim_first_error(const char **what)
{
    if (what)
        *what = reg.err_what;
    return reg.err;
}

void pnrsim_rollback(pnrsim_mark m)
{
    for (int k = 0; k < PNRSIM_NKINDS; k++) {
        if (m.n[k] < reg.n[k]) {
            reg.n[k] = m.n[k];
            reg.names[k][m.n[k]] = NULL;
        }
    }
    if (m.nkeys < reg.nkeys)
        reg.nkeys = m.nkeys;
}
