/* study/fingerprint.c: the names a study's runs are kept under.
 *
 * Two names tie a run directory to what made it. A point's directory name
 * (study_point_dirname) spells out its parameter values, "key=value,...",
 * every byte outside [A-Za-z0-9._+-] escaped as %XX and a baseline value
 * written @NAME, so a point is found again by its values whatever the order
 * of the study's runs; a name longer than 200 bytes, or one starting with
 * '.', becomes "p-" and a 64-bit FNV-1a hash. The fingerprint
 * (study_fingerprint) records in OUT/fingerprint what every run of the
 * directory shares: the base configuration's content (hashed without its
 * comments and blank lines, so editing a comment keeps it), the trace's
 * name, each plugin's file name and SHA-256 (the study file's and the
 * base's: a rebuilt .so changes it), the [set] overrides, the names of the
 * varied keys and one line per baseline. A sweep into a directory whose fingerprint differs refuses to
 * mix its runs with the old ones; study_fingerprint_merge lets baselines
 * be added, as values can be, and remembers removed ones.
 */
#include "study/fingerprint.h"
#include "study/points.h"
#include "study/util.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define STUDY_MAX_DIRNAME 200

/* 64-bit FNV-1a. */
static uint64_t fnv1a(const char *p, size_t n, uint64_t h)
{
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)p[i];
        h *= 1099511628211ULL;
    }
    return h;
}

#define FNV_INIT 14695981039346656037ULL

char *study_point_dirname(const study *s, size_t point)
{
    if (!s->nvary)
        return xstrdup("base");
    sweep_buf b = {0};
    for (size_t i = 0; i < s->nvary; i++) {
        if (i)
            sweep_buf_puts(&b, ",");
        sweep_buf_puts(&b, s->vary[i].key);
        sweep_buf_puts(&b, "=");
        const study_baseline *bl = study_value_baseline(s, point, i);
        if (bl) { /* names are [A-Za-z0-9._-]: no escapes */
            sweep_buf_printf(&b, "@%s", bl->name);
            continue;
        }
        for (const char *p = study_value(s, point, i); *p; p++) {
            unsigned char ch = (unsigned char)*p;
            if (isalnum(ch) || strchr("._+-", ch))
                sweep_buf_add(&b, p, 1);
            else
                sweep_buf_printf(&b, "%%%02X", ch);
        }
    }
    if (b.n > STUDY_MAX_DIRNAME || b.p[0] == '.') {
        char *h = xasprintf("p-%016llx",
                                  (unsigned long long)fnv1a(b.p, b.n, FNV_INIT));
        sweep_buf_free(&b);
        return h;
    }
    return b.p;
}

/* The base configuration with comment lines, blank lines and surrounding
 * white space removed, so that editing comments keeps the fingerprint. */
static uint64_t normalized_hash(const char *text)
{
    uint64_t h = FNV_INIT;
    const char *p = text;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        const char *a = p, *z = p + n;
        while (a < z && isspace((unsigned char)*a))
            a++;
        while (z > a && isspace((unsigned char)z[-1]))
            z--;
        if (a < z && *a != ';' && *a != '#') {
            h = fnv1a(a, (size_t)(z - a), h);
            h = fnv1a("\n", 1, h);
        }
        p = e ? e + 1 : p + n;
    }
    return h;
}

char *study_fingerprint(const study *s)
{
    size_t len;
    char *base = util_read_file(s->base, 0, &len, NULL);
    if (!base)
        return NULL;
    sweep_buf b = {0};
    sweep_buf_puts(&b, "# pnrsim-sweep: the runs below this directory were "
                       "made with these settings\n");
    sweep_buf_printf(&b, "base_hash = %016llx\n",
                     (unsigned long long)normalized_hash(base));
    free(base);
    if (s->trace) {
        const char *t = strrchr(s->trace, '/');
        sweep_buf_printf(&b, "trace = %s\n", t ? t + 1 : s->trace);
    }
    /* Each plugin's contents: a rebuilt .so makes other runs. */
    for (size_t i = 0; i < s->nplugin_sums; i++)
        sweep_buf_printf(&b, "plugin %s\n", s->plugin_sums[i]);
    for (size_t i = 0; i < s->nset; i++)
        sweep_buf_printf(&b, "set %s = %s\n", s->set[i].key, s->set[i].value);
    for (size_t i = 0; i < s->nvary; i++)
        sweep_buf_printf(&b, "vary %s\n", s->vary[i].key);
    for (size_t i = 0; i < s->nbaselines; i++) {
        const study_baseline *bl = &s->baselines[i];
        sweep_buf_printf(&b, "baseline %s: %s", bl->name, bl->key);
        for (size_t j = 0; j < bl->nset; j++)
            sweep_buf_printf(&b, "; %s = %s", bl->set[j].key,
                             bl->set[j].value);
        sweep_buf_puts(&b, "\n");
    }
    return b.p;
}

/* The lines of a fingerprint: those that are not baselines into common (as
 * one text), the baseline lines into an array. */
typedef struct fp_lines {
    sweep_buf common;
    char **base;
    size_t nbase;
} fp_lines;

static void fp_split(const char *text, fp_lines *f)
{
    memset(f, 0, sizeof *f);
    sweep_buf_puts(&f->common, "");
    for (const char *p = text; *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (!strncmp(p, "baseline ", 9)) {
            f->base = xrealloc(f->base, (f->nbase + 1) * sizeof *f->base);
            f->base[f->nbase++] = xstrndup(p, n);
        } else {
            sweep_buf_add(&f->common, p, n);
            sweep_buf_puts(&f->common, "\n");
        }
        p = e ? e + 1 : p + n;
    }
}

static void fp_free(fp_lines *f)
{
    sweep_buf_free(&f->common);
    for (size_t i = 0; i < f->nbase; i++)
        free(f->base[i]);
    free(f->base);
}

/* Length of "baseline NAME" at the start of a baseline line. */
static size_t fp_name_len(const char *line)
{
    const char *colon = strchr(line, ':');
    return colon ? (size_t)(colon - line) : strlen(line);
}

bool study_fingerprint_merge(const char *old, const char *cur, char **merged,
                             char **why)
{
    *merged = NULL;
    *why = NULL;
    fp_lines o, c;
    fp_split(old, &o);
    fp_split(cur, &c);
    bool ok = strcmp(o.common.p, c.common.p) == 0;
    for (size_t i = 0; ok && i < c.nbase; i++) {
        size_t n = fp_name_len(c.base[i]);
        for (size_t j = 0; j < o.nbase; j++)
            if (fp_name_len(o.base[j]) == n &&
                !strncmp(o.base[j], c.base[i], n) &&
                strcmp(o.base[j], c.base[i]) != 0) {
                ok = false;
                *why = xstrndup(c.base[i] + 9, n - 9);
                break;
            }
    }
    if (ok) {
        sweep_buf m = {0};
        sweep_buf_puts(&m, cur);
        for (size_t j = 0; j < o.nbase; j++) {
            size_t n = fp_name_len(o.base[j]);
            bool kept = false;
            for (size_t i = 0; i < c.nbase && !kept; i++)
                kept = fp_name_len(c.base[i]) == n &&
                       !strncmp(o.base[j], c.base[i], n);
            if (!kept) {
                sweep_buf_puts(&m, o.base[j]);
                sweep_buf_puts(&m, "\n");
            }
        }
        *merged = m.p;
    }
    fp_free(&o);
    fp_free(&c);
    return ok;
}
