/* study/study.c: reading a study file and enumerating its runs.
 *
 * A study file is INI text (docs/STUDIES.md has the full description):
 *
 *   ; memory pressure: bounded slowdown against RAM per PE, per strategy
 *   [study]
 *   name         = memory-pressure        ; [A-Za-z0-9._-]; default: file stem
 *   base         = ../default.ini         ; pnrsim -c (required)
 *   trace        = ../../traces/x.swf     ; pnrsim -t (optional)
 *   replications = 3                      ; seeds per point (default 1)
 *   seed_base    = 1                      ; seeds seed_base.. (default 1)
 *   windows      = 5                      ; also replicate over 5 trace
 *                                         ; windows of max_jobs jobs
 *   metrics      = response_time_mean, bounded_slowdown_mean
 *                                         ; default: every numeric metric
 *   [set]                                 ; fixed --set overrides
 *   workload.max_jobs = 300
 *   [vary]                                ; the cross product, in this order
 *   computer.ram    = 64, 128:512:*2      ; lists, ranges a:b[:step], a:b:*k
 *   netram.strategy = central, client, manager, backbone
 *   [baseline disk]                       ; any number: one more value of
 *   netram.enabled = no                   ; the plots' lines key, named disk
 *   [plot]                                ; or [plot NAME]; any number
 *   metric = bounded_slowdown_mean        ; required
 *   x      = computer.ram                 ; required, a [vary] key
 *   lines  = netram.strategy              ; optional, a [vary] key
 *   logx   = yes                          ; also logy, title, xlabel, ylabel
 *   scheduler.mpl = 2                     ; pins any other [vary] key
 *   [slurm]                               ; "#SBATCH --KEY=VALUE" lines
 *   time = 00:10:00                       ; array_max = K gives --array=1-N%K
 *
 * Comments start with ';' or '#' at the start of a line or after white
 * space. An indented line without '=' continues the value of the line
 * above (joined with a space), for long lists. Section and key names are case-insensitive (stored in lower case);
 * values keep their case. Relative paths (base, trace, and workload.trace
 * in [set] or [vary]) are taken from the directory of the study file, so a
 * study runs the same from any directory and under any runner. Other values
 * given to pnrsim through [set] and [vary] are passed verbatim.
 *
 * A range a:b:s holds a, a+s, ... up to b inclusive (a 1e-9 relative
 * tolerance absorbs rounding; s may be negative when b < a); a:b is a:b:1;
 * a:b:*k holds a, a*k, a*k*k, ... up to b (a > 0, k > 1). Range values are
 * written with %.10g, so 0:0.3:0.1 gives 0, 0.1, 0.2, 0.3.
 *
 * A [baseline NAME] (linked parameters, e.g. "no network RAM" next to the
 * four strategies, where netram.strategy means nothing) is a set of
 * overrides that becomes one more value, NAME, of a varied key: the key
 * given by `lines = KEY` in the section, or else the `lines` key of the
 * [plot]s. It is crossed with the other varied keys like any value; its
 * runs do not set that key and get the overrides instead, which win over
 * [set]. Its keys may not be varied; every baseline extends the same key;
 * NAME may not be one of the key's values.
 *
 * Every problem is reported as "FILE:LINE: KEY: what is wrong" and the study
 * is rejected as a whole: unknown sections and keys, a missing '=', empty
 * or duplicate values, a key both varied and set, a bad [baseline], a range
 * with a bound or step that is not a finite number (1:nan:1), seeds outside
 * 1..INT32_MAX (pnrsim takes seed 0 as "from the clock"), a plot naming an
 * unknown key or leaving a varied key unpinned, more than a million runs.
 * The values themselves are checked against pnrsim's configuration rules
 * by study/check.c before a sweep runs or emits.
 */
#include "study/study.h"
#include "study/sweep.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STUDY_MAX_RUNS 1000000UL
#define STUDY_MAX_RANGE 100000L
#define STUDY_MAX_DIRNAME 200

/* Parsing state: the file name for messages and the error buffer. */
typedef struct parse_ctx {
    const char *file;
    char *err;
    study *s;
} parse_ctx;

static int fail(parse_ctx *c, long line, const char *key, const char *fmt,
                ...) __attribute__((format(printf, 4, 5)));

/* A hint for a file that is not there: relative paths are resolved from
 * the study file's directory ("" for an absolute path). */
static const char *path_hint(const char *value)
{
    return value[0] == '/' ? ""
                           : " (relative paths are taken from the study "
                             "file's directory)";
}

/* Format "FILE:LINE: KEY: message" into c->err; returns -1. */
static int fail(parse_ctx *c, long line, const char *key, const char *fmt,
                ...)
{
    sweep_buf b = {0};
    sweep_buf_printf(&b, "%s:%ld: ", c->file, line);
    if (key)
        sweep_buf_printf(&b, "%s: ", key);
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *msg = sweep_xmalloc((size_t)(n > 0 ? n : 0) + 1);
    va_start(ap, fmt);
    vsnprintf(msg, (size_t)(n > 0 ? n : 0) + 1, fmt, ap);
    va_end(ap);
    sweep_buf_puts(&b, msg);
    free(msg);
    /* Truncate to the caller's buffer. */
    size_t len = b.n < STUDY_ERR_MAX - 1 ? b.n : STUDY_ERR_MAX - 1;
    memcpy(c->err, b.p, len);
    c->err[len] = '\0';
    sweep_buf_free(&b);
    return -1;
}

/* Append key = value (from line) to a list. With `twice` set, a key already
 * in the list is an error: "KEY: <twice> (first on line N)"; returns -1. */
static int kv_add(parse_ctx *c, study_kv **v, size_t *n, const char *key,
                  const char *value, long line, const char *twice)
{
    for (size_t i = 0; twice && i < *n; i++)
        if (!strcmp((*v)[i].key, key))
            return fail(c, line, key, "%s (first on line %ld)", twice, (*v)[i].line);
    *v = sweep_xrealloc(*v, (*n + 1) * sizeof **v);
    (*v)[(*n)++] = (study_kv){sweep_xstrdup(key), sweep_xstrdup(value), line};
    return 0;
}

static char *trim(char *p)
{
    while (isspace((unsigned char)*p))
        p++;
    size_t n = strlen(p);
    while (n && isspace((unsigned char)p[n - 1]))
        p[--n] = '\0';
    return p;
}

static void lower(char *p)
{
    for (; *p; p++)
        *p = (char)tolower((unsigned char)*p);
}

/* Cut an inline comment: ';' or '#' preceded by white space. */
static void cut_comment(char *p)
{
    for (char *q = p; *q; q++) {
        if ((*q == ';' || *q == '#') && q > p &&
            isspace((unsigned char)q[-1])) {
            *q = '\0';
            return;
        }
    }
}

/* A pnrsim key: section.key with [a-z0-9_] on both sides. */
static bool is_param_key(const char *k)
{
    const char *dot = strchr(k, '.');
    if (!dot || dot == k || !dot[1] || strchr(dot + 1, '.'))
        return false;
    for (const char *p = k; *p; p++)
        if (p != dot && !(islower((unsigned char)*p) ||
                          isdigit((unsigned char)*p) || *p == '_'))
            return false;
    return true;
}

/* A name usable as a file name stem. */
static bool is_name(const char *v)
{
    if (!*v || *v == '.')
        return false;
    for (const char *p = v; *p; p++)
        if (!(isalnum((unsigned char)*p) || strchr("._-", *p)))
            return false;
    return true;
}

static bool has_ctrl(const char *v)
{
    for (const char *p = v; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            return true;
    return false;
}

/* Parse a whole string as a finite double. */
static bool parse_num(const char *t, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(t, &end);
    if (end == t || *end || errno == ERANGE || !isfinite(v))
        return false;
    *out = v;
    return true;
}

/* True when the whole string reads as a number, finite or not ("nan",
 * "inf", "1e999"): such a range bound is an error, not a plain value. */
static bool looks_numeric(const char *t)
{
    char *end;
    (void)strtod(t, &end);
    return end != t && !*end;
}

/* Parse a whole string as a long. */
static bool parse_long(const char *t, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(t, &end, 10);
    if (end == t || *end || errno == ERANGE)
        return false;
    *out = v;
    return true;
}

static bool parse_bool(const char *t, bool *out)
{
    char buf[8];
    snprintf(buf, sizeof buf, "%s", t);
    lower(buf);
    if (!strcmp(buf, "yes") || !strcmp(buf, "true") || !strcmp(buf, "1") ||
        !strcmp(buf, "on")) {
        *out = true;
        return true;
    }
    if (!strcmp(buf, "no") || !strcmp(buf, "false") || !strcmp(buf, "0") ||
        !strcmp(buf, "off")) {
        *out = false;
        return true;
    }
    return false;
}

/* The values of the [vary] key being read, for duplicate checks in
 * constant time (a range such as 1:2:1e-5 has 100,001 values): an
 * open-addressing hash table of indices into p->values (SIZE_MAX: empty
 * slot), at most half full, and the capacity of p->values, which doubles. */
typedef struct value_set {
    size_t *slot;
    size_t nslots;
    size_t cap;
} value_set;

static size_t value_hash(const char *v)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (; *v; v++)
        h = (h ^ (unsigned char)*v) * 1099511628211ULL;
    return (size_t)h;
}

/* Index of v among p's values, or -1. */
static long find_value(const value_set *vs, const study_param *p,
                       const char *v)
{
    if (!vs->nslots)
        return -1;
    for (size_t i = value_hash(v) & (vs->nslots - 1);;
         i = (i + 1) & (vs->nslots - 1)) {
        if (vs->slot[i] == SIZE_MAX)
            return -1;
        if (!strcmp(p->values[vs->slot[i]], v))
            return (long)vs->slot[i];
    }
}

/* Append v (not yet among p's values) to p. */
static void push_value(value_set *vs, study_param *p, const char *v)
{
    assert(find_value(vs, p, v) < 0);
    if (p->nvalues == vs->cap) {
        vs->cap = vs->cap ? 2 * vs->cap : 8;
        p->values = sweep_xrealloc(p->values, vs->cap * sizeof *p->values);
    }
    p->values[p->nvalues++] = sweep_xstrdup(v);
    if (2 * p->nvalues > vs->nslots) { /* rehash into twice the slots */
        free(vs->slot);
        vs->nslots = vs->nslots ? 2 * vs->nslots : 16;
        while (2 * p->nvalues > vs->nslots)
            vs->nslots *= 2;
        vs->slot = sweep_xmalloc(vs->nslots * sizeof *vs->slot);
        for (size_t i = 0; i < vs->nslots; i++)
            vs->slot[i] = SIZE_MAX;
        for (size_t k = 0; k < p->nvalues; k++) {
            size_t i = value_hash(p->values[k]) & (vs->nslots - 1);
            while (vs->slot[i] != SIZE_MAX)
                i = (i + 1) & (vs->nslots - 1);
            vs->slot[i] = k;
        }
        return;
    }
    size_t i = value_hash(v) & (vs->nslots - 1);
    while (vs->slot[i] != SIZE_MAX)
        i = (i + 1) & (vs->nslots - 1);
    vs->slot[i] = p->nvalues - 1;
}

/* Append a plain value to a parameter, rejecting duplicates. */
static int add_value(parse_ctx *c, study_param *p, value_set *vs,
                     const char *v)
{
    if (find_value(vs, p, v) >= 0)
        return fail(c, p->line, p->key, "value '%s' given twice", v);
    push_value(vs, p, v);
    return 0;
}

/* Append value v of range item (whose values start at index first) to p.
 * Two values of one range that print alike with %.10g mean a step below
 * the 10 significant digits values are written with. */
static int add_range_value(parse_ctx *c, study_param *p, value_set *vs,
                           const char *item, size_t first, const char *v)
{
    long dup = find_value(vs, p, v);
    if (dup >= (long)first)
        return fail(c, p->line, p->key,
                    "range '%s': its step is too fine for the 10 significant "
                    "digits values are written with (%%.10g): '%s' would "
                    "come twice", item, v);
    if (dup >= 0)
        return fail(c, p->line, p->key,
                    "value '%s' (of range '%s') given twice", v, item);
    push_value(vs, p, v);
    return 0;
}

/* Why a range bound or step t (which looks like a number) is refused:
 * NULL when it is a finite number that parse_num takes. */
static const char *bad_number(const char *t)
{
    double v;
    if (parse_num(t, &v))
        return NULL;
    char *end;
    errno = 0;
    v = strtod(t, &end);
    if (isnan(v))
        return "not a number";
    if (isinf(v))
        return "infinite or too large for a double";
    if (errno == ERANGE)
        return "too close to zero (below 2.2e-308) to be written to 10 "
               "significant digits";
    return "not a finite number";
}

/* Expand a:b, a:b:s or a:b:*k into p. Returns 1 when item is a range and
 * was added, 0 when item is not a range, -1 on error. */
static int add_range(parse_ctx *c, study_param *p, value_set *vs,
                     const char *item)
{
    char *copy = sweep_xstrdup(item);
    char *f[4];
    int nf = 0;
    char *save = NULL;
    for (char *t = strtok_r(copy, ":", &save); t && nf < 4;
         t = strtok_r(NULL, ":", &save))
        f[nf++] = trim(t);
    size_t colons = 0;
    for (const char *q = item; *q; q++)
        colons += *q == ':';
    double a, b, step = 1;
    bool geometric = false;
    if (colons < 1 || colons > 2 || nf != (int)colons + 1) {
        free(copy);
        return 0; /* not a range: a plain value */
    }
    if (!looks_numeric(f[0]) || !looks_numeric(f[1])) {
        free(copy);
        return 0; /* not a range: a plain value (e.g. a time 00:10) */
    }
    for (int i = 0; i < 2; i++) {
        const char *why = bad_number(f[i]);
        if (why) {
            int rc = fail(c, p->line, p->key,
                          "range '%s': bound '%s' is %s", item, f[i], why);
            free(copy);
            return rc;
        }
    }
    parse_num(f[0], &a);
    parse_num(f[1], &b);
    if (nf == 3) {
        const char *st = f[2];
        if (*st == '*') {
            geometric = true;
            st = trim((char *)st + 1);
        }
        if (!parse_num(st, &step)) {
            const char *why = looks_numeric(st) ? bad_number(st)
                                                : "not a number";
            int rc = fail(c, p->line, p->key,
                          "range '%s': the step must be a finite number "
                          "('%s' is %s)", item, st, why);
            free(copy);
            return rc;
        }
    }
    free(copy);
    char buf[64];
    size_t first = p->nvalues;
    if (geometric) {
        if (!(a > 0) || !(step > 1) || b < a)
            return fail(c, p->line, p->key,
                        "range '%s': a:b:*k needs 0 < a <= b and k > 1", item);
        /* log_k(b/a) + 1 values: refuse a k so close to 1 that there
         * would be too many before generating any. */
        double count = floor(log(b / a) / log(step) + 1e-9) + 1;
        if (count > STUDY_MAX_RANGE)
            return fail(c, p->line, p->key,
                        "range '%s': too many values (%.4g; at most %ld): "
                        "k is too close to 1", item, count, STUDY_MAX_RANGE);
        double v = a;
        for (long i = 0; v <= b * (1 + 1e-9); i++, v *= step) {
            if (i >= STUDY_MAX_RANGE)
                return fail(c, p->line, p->key,
                            "range '%s': too many values (at most %ld)", item,
                            STUDY_MAX_RANGE);
            snprintf(buf, sizeof buf, "%.10g", v);
            if (add_range_value(c, p, vs, item, first, buf) != 0)
                return -1;
        }
        return 1;
    }
    if (step == 0 || (b > a && step < 0) || (b < a && step > 0))
        return fail(c, p->line, p->key,
                    "range '%s': the step must be non-zero and go from %g "
                    "towards %g", item, a, b);
    double span = (b - a) / step;
    if (span > STUDY_MAX_RANGE)
        return fail(c, p->line, p->key,
                    "range '%s': too many values (%.4g; at most %ld)", item,
                    floor(span) + 1, STUDY_MAX_RANGE);
    long n = (long)floor(span + 1e-9) + 1;
    for (long i = 0; i < n; i++) {
        double v = a + (double)i * step;
        if (fabs(v) < fabs(step) * 1e-12)
            v = 0; /* avoid "-0" and 1e-17 from rounding */
        snprintf(buf, sizeof buf, "%.10g", v);
        if (add_range_value(c, p, vs, item, first, buf) != 0)
            return -1;
    }
    return 1;
}

static int parse_vary(parse_ctx *c, const char *key, char *value, long line)
{
    study *s = c->s;
    if (!is_param_key(key))
        return fail(c, line, key, "not a pnrsim key (section.key)");
    for (size_t i = 0; i < s->nvary; i++)
        if (!strcmp(s->vary[i].key, key))
            return fail(c, line, key, "varied twice (first on line %ld)",
                        s->vary[i].line);
    s->vary = sweep_xrealloc(s->vary, (s->nvary + 1) * sizeof *s->vary);
    study_param *p = &s->vary[s->nvary++];
    memset(p, 0, sizeof *p);
    p->key = sweep_xstrdup(key);
    p->line = line;
    size_t items = 0;
    value_set vs = {NULL, 0, 0};
    int rc = 0;
    /* Walk by hand (strtok would merge ",,") to catch empty items. */
    char *q = value;
    for (;;) {
        char *comma = strchr(q, ',');
        if (comma)
            *comma = '\0';
        char *item = trim(q);
        if (!*item) {
            rc = fail(c, line, key, "empty value in the list");
            break;
        }
        items++;
        int r = add_range(c, p, &vs, item);
        if (r < 0 || (r == 0 && add_value(c, p, &vs, item) != 0)) {
            rc = -1;
            break;
        }
        if (!comma)
            break;
        q = comma + 1;
    }
    free(vs.slot);
    if (!rc && (!items || !p->nvalues))
        rc = fail(c, line, key, "no values");
    return rc;
}

static int parse_list(parse_ctx *c, const char *key, char *value, long line,
                      char ***out, size_t *nout)
{
    char *q = value;
    for (;;) {
        char *comma = strchr(q, ',');
        if (comma)
            *comma = '\0';
        char *item = trim(q);
        if (!*item)
            return fail(c, line, key, "empty item in the list");
        for (size_t i = 0; i < *nout; i++)
            if (!strcmp((*out)[i], item))
                return fail(c, line, key, "'%s' listed twice", item);
        *out = sweep_xrealloc(*out, (*nout + 1) * sizeof **out);
        (*out)[(*nout)++] = sweep_xstrdup(item);
        if (!comma)
            break;
        q = comma + 1;
    }
    return 0;
}

/* Lines of the [study] section that name files, resolved at the end. */
typedef struct pending_path {
    char *value;
    long line;
} pending_path;

typedef struct study_keys {
    pending_path base, trace;
    long reps_line, seed_line;
    long windows_line;
} study_keys;

static int parse_study_key(parse_ctx *c, study_keys *k, const char *key,
                           const char *value, long line)
{
    study *s = c->s;
    if (!strcmp(key, "name")) {
        if (!is_name(value))
            return fail(c, line, key,
                        "'%s': use letters, digits, '.', '_' and '-'", value);
        free(s->name);
        s->name = sweep_xstrdup(value);
    } else if (!strcmp(key, "base") || !strcmp(key, "trace")) {
        pending_path *pp = !strcmp(key, "base") ? &k->base : &k->trace;
        if (pp->value)
            return fail(c, line, key, "given twice (first on line %ld)",
                        pp->line);
        pp->value = sweep_xstrdup(value);
        pp->line = line;
    } else if (!strcmp(key, "replications")) {
        if (!parse_long(value, &s->replications) || s->replications < 1 ||
            s->replications > 100000)
            return fail(c, line, key, "'%s': need an integer from 1 to 100000",
                        value);
        k->reps_line = line;
    } else if (!strcmp(key, "seed_base")) {
        if (!parse_long(value, &s->seed_base) || s->seed_base < 1 ||
            s->seed_base > (long)INT32_MAX)
            return fail(c, line, key,
                        "'%s': need an integer from 1 to %ld minus "
                        "(replications - 1), so that the last seed is at most "
                        "%ld (pnrsim takes seed 0 as 'from the clock')",
                        value, (long)INT32_MAX, (long)INT32_MAX);
        k->seed_line = line;
    } else if (!strcmp(key, "windows")) {
        if (!parse_long(value, &s->windows) || s->windows < 1 ||
            s->windows > 100000)
            return fail(c, line, key,
                        "'%s': need an integer from 1 to 100000 (trace "
                        "windows of workload.max_jobs jobs per point)", value);
        k->windows_line = line;
        s->windows_line = line;
    } else if (!strcmp(key, "metrics")) {
        if (s->nmetrics)
            return fail(c, line, key, "given twice");
        char *v = sweep_xstrdup(value);
        int r = parse_list(c, key, v, line, &s->metrics, &s->nmetrics);
        free(v);
        if (r)
            return -1;
        for (size_t i = 0; i < s->nmetrics; i++)
            if (has_ctrl(s->metrics[i]) || strchr(s->metrics[i], ' '))
                return fail(c, line, key, "'%s' is not a metric name",
                            s->metrics[i]);
    } else {
        return fail(c, line, key,
                    "unknown key in [study] (name, base, trace, replications, "
                    "seed_base, windows, metrics)");
    }
    return 0;
}

/* Raw [plot] and [baseline] content until the whole file is read (the keys
 * they name may be varied further down). */
typedef struct raw_plot {
    char *name;
    study_kv *kv;
    size_t nkv;
    long line;
} raw_plot;

static int build_plot(parse_ctx *c, const raw_plot *rp, study_plot *pl)
{
    study *s = c->s;
    memset(pl, 0, sizeof *pl);
    pl->line = rp->line;
    pl->pin = sweep_xmalloc((s->nvary ? s->nvary : 1) * sizeof *pl->pin);
    long *pin_line = sweep_xmalloc((s->nvary ? s->nvary : 1) * sizeof(long));
    for (size_t i = 0; i < s->nvary; i++) {
        pl->pin[i] = -1;
        pin_line[i] = 0;
    }
    int rc = -1;
    for (size_t i = 0; i < rp->nkv; i++) {
        const study_kv *kv = &rp->kv[i];
        char **slot = NULL;
        bool *flag = NULL;
        if (!strcmp(kv->key, "x"))
            slot = &pl->x;
        else if (!strcmp(kv->key, "lines"))
            slot = &pl->lines;
        else if (!strcmp(kv->key, "metric"))
            slot = &pl->metric;
        else if (!strcmp(kv->key, "title"))
            slot = &pl->title;
        else if (!strcmp(kv->key, "xlabel"))
            slot = &pl->xlabel;
        else if (!strcmp(kv->key, "ylabel"))
            slot = &pl->ylabel;
        else if (!strcmp(kv->key, "logx"))
            flag = &pl->logx;
        else if (!strcmp(kv->key, "logy"))
            flag = &pl->logy;
        if (slot) {
            if (*slot) {
                fail(c, kv->line, kv->key, "given twice in this plot");
                goto out;
            }
            *slot = sweep_xstrdup(kv->value);
            if (slot == &pl->x || slot == &pl->lines) {
                lower(*slot);
                if (study_param_index(s, *slot) < 0) {
                    fail(c, kv->line, kv->key, "'%s' is not a [vary] key",
                         *slot);
                    goto out;
                }
            }
            continue;
        }
        if (flag) {
            if (!parse_bool(kv->value, flag)) {
                fail(c, kv->line, kv->key, "'%s': need yes or no", kv->value);
                goto out;
            }
            continue;
        }
        long pi = study_param_index(s, kv->key);
        if (pi < 0) {
            fail(c, kv->line, kv->key,
                 "unknown key in [plot] (metric, x, lines, title, xlabel, "
                 "ylabel, logx, logy, or a [vary] key to pin)");
            goto out;
        }
        if (pin_line[pi]) {
            fail(c, kv->line, kv->key, "pinned twice in this plot");
            goto out;
        }
        const study_param *p = &s->vary[pi];
        long vi = -1;
        for (size_t j = 0; j < p->nvalues; j++)
            if (!strcmp(p->values[j], kv->value))
                vi = (long)j;
        if (vi < 0) {
            fail(c, kv->line, kv->key, "'%s' is not one of its [vary] values",
                 kv->value);
            goto out;
        }
        pl->pin[pi] = vi;
        pin_line[pi] = kv->line;
    }
    if (!pl->metric) {
        fail(c, rp->line, "metric", "missing in this [plot]");
        goto out;
    }
    if (!pl->x) {
        fail(c, rp->line, "x", "missing in this [plot]");
        goto out;
    }
    if (pl->lines && !strcmp(pl->lines, pl->x)) {
        fail(c, rp->line, "lines", "same key as x");
        goto out;
    }
    if (s->nmetrics) {
        bool found = false;
        for (size_t i = 0; i < s->nmetrics; i++)
            found |= !strcmp(s->metrics[i], pl->metric);
        if (!found) {
            fail(c, rp->line, "metric",
                 "'%s' is not in the [study] metrics list", pl->metric);
            goto out;
        }
    }
    for (size_t i = 0; i < s->nvary; i++) {
        bool axis = !strcmp(s->vary[i].key, pl->x) ||
                    (pl->lines && !strcmp(s->vary[i].key, pl->lines));
        if (axis && pin_line[i]) {
            fail(c, pin_line[i], s->vary[i].key,
                 "pinned but also used as x or lines");
            goto out;
        }
        if (!axis && pl->pin[i] < 0) {
            if (s->vary[i].nvalues == 1) {
                pl->pin[i] = 0;
                continue;
            }
            fail(c, rp->line, s->vary[i].key,
                 "varied but neither x nor lines in this [plot]: pin it "
                 "with '%s = VALUE'", s->vary[i].key);
            goto out;
        }
    }
    pl->name = sweep_xstrdup(rp->name ? rp->name : pl->metric);
    if (!is_name(pl->name)) {
        fail(c, rp->line, "plot",
             "'%s' is not usable as a file name; name the plot: [plot NAME]",
             pl->name);
        goto out;
    }
    rc = 0;
out:
    free(pin_line);
    return rc;
}

static void free_raw(raw_plot *r, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < r[i].nkv; j++) {
            free(r[i].kv[j].key);
            free(r[i].kv[j].value);
        }
        free(r[i].kv);
        free(r[i].name);
    }
    free(r);
}

static void free_plot(study_plot *pl)
{
    free(pl->name);
    free(pl->x);
    free(pl->lines);
    free(pl->metric);
    free(pl->title);
    free(pl->xlabel);
    free(pl->ylabel);
    free(pl->pin);
}

static char *file_stem(const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    const char *dot = strrchr(b, '.');
    size_t n = dot && dot != b ? (size_t)(dot - b) : strlen(b);
    return sweep_xstrndup(b, n);
}

typedef enum {
    SEC_NONE, SEC_STUDY, SEC_VARY, SEC_SET, SEC_PLOT, SEC_BASELINE, SEC_SLURM
} section;

/* A logical line: a physical line without its comment, with the indented
 * continuation lines that follow it appended; lineno is its first line. */
typedef struct lline {
    char *text;
    long lineno;
} lline;

/* Read the file into logical lines (blank and comment lines dropped). An
 * indented line without '=' that follows a key = value line continues it
 * (joined with a space), so long lists can be split over lines. Returns
 * the count, or -1 on a read error or a NUL byte (reported). */
static long read_lines(parse_ctx *c, FILE *f, lline **out)
{
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0, n = 0;
    *out = NULL;
    ssize_t len;
    bool nul = false;
    while ((len = getline(&line, &cap, f)) >= 0) {
        lineno++;
        /* A NUL byte would silently end the line's text here: refuse it. */
        const char *z = memchr(line, '\0', (size_t)len);
        if (z) {
            fail(c, lineno, NULL, "a NUL byte (column %ld): not a text file?",
                 (long)(z - line) + 1);
            nul = true;
            break;
        }
        if (lineno == 1 && !strncmp(line, "\xEF\xBB\xBF", 3))
            memmove(line, line + 3, strlen(line + 3) + 1);
        bool indented = line[0] == ' ' || line[0] == '\t';
        char *p = trim(line);
        if (!*p || *p == ';' || *p == '#')
            continue;
        cut_comment(p);
        p = trim(p);
        if (indented && n > 0 && *p != '[' && !strchr(p, '=') &&
            (*out)[n - 1].text[0] != '[' && strchr((*out)[n - 1].text, '=')) {
            char *joined = sweep_xasprintf("%s %s", (*out)[n - 1].text, p);
            free((*out)[n - 1].text);
            (*out)[n - 1].text = joined;
            continue;
        }
        *out = sweep_xrealloc(*out, (size_t)(n + 1) * sizeof **out);
        (*out)[n++] = (lline){sweep_xstrdup(p), lineno};
    }
    free(line);
    if (nul || ferror(f)) {
        if (!nul)
            fail(c, lineno, NULL, "read error");
        for (long i = 0; i < n; i++)
            free((*out)[i].text);
        free(*out);
        *out = NULL;
        return -1;
    }
    return n;
}

static int parse_lines(parse_ctx *c, FILE *f, study_keys *k, raw_plot **plots,
                       size_t *nplots, raw_plot **bases, size_t *nbases)
{
    study *s = c->s;
    section sec = SEC_NONE;
    lline *lines;
    long nlines = read_lines(c, f, &lines);
    if (nlines < 0)
        return -1;
    int rc = 0;
    bool seen[SEC_SLURM + 1] = {false};
    for (long li = 0; li < nlines; li++) {
        char *p = lines[li].text;
        long lineno = lines[li].lineno;
        if (*p == '[') {
            char *close = strchr(p, ']');
            if (!close || trim(close + 1)[0]) {
                rc = fail(c, lineno, NULL, "bad section header '%s'", p);
                break;
            }
            *close = '\0';
            char *name = trim(p + 1);
            char *arg = name + strcspn(name, " \t");
            if (*arg) {
                *arg++ = '\0';
                arg = trim(arg);
            }
            lower(name);
            if (!strcmp(name, "study"))
                sec = SEC_STUDY;
            else if (!strcmp(name, "vary"))
                sec = SEC_VARY;
            else if (!strcmp(name, "set"))
                sec = SEC_SET;
            else if (!strcmp(name, "plot"))
                sec = SEC_PLOT;
            else if (!strcmp(name, "baseline"))
                sec = SEC_BASELINE;
            else if (!strcmp(name, "slurm"))
                sec = SEC_SLURM;
            else {
                rc = fail(c, lineno, name,
                          "unknown section (study, vary, set, baseline, "
                          "plot, slurm)");
                break;
            }
            if (*arg && sec != SEC_PLOT && sec != SEC_BASELINE) {
                rc = fail(c, lineno, name, "this section takes no name");
                break;
            }
            if (sec == SEC_BASELINE) {
                if (!*arg) {
                    rc = fail(c, lineno, name, "needs a name: [baseline NAME] "
                                               "(e.g. [baseline disk])");
                    break;
                }
                if (!is_name(arg)) {
                    rc = fail(c, lineno, name, "'%s': use letters, digits, "
                                               "'.', '_' and '-'", arg);
                    break;
                }
                for (size_t i = 0; i < *nbases; i++)
                    if (!strcmp((*bases)[i].name, arg)) {
                        rc = fail(c, lineno, name,
                                  "a second baseline named '%s' (first on "
                                  "line %ld)", arg, (*bases)[i].line);
                        break;
                    }
                if (rc)
                    break;
                *bases = sweep_xrealloc(*bases, (*nbases + 1) * sizeof **bases);
                raw_plot *rb = &(*bases)[(*nbases)++];
                memset(rb, 0, sizeof *rb);
                rb->name = sweep_xstrdup(arg);
                rb->line = lineno;
                continue;
            }
            if (sec == SEC_PLOT) {
                *plots = sweep_xrealloc(*plots, (*nplots + 1) * sizeof **plots);
                raw_plot *rp = &(*plots)[(*nplots)++];
                memset(rp, 0, sizeof *rp);
                rp->name = *arg ? sweep_xstrdup(arg) : NULL;
                rp->line = lineno;
            } else if (seen[sec]) {
                rc = fail(c, lineno, name, "section given twice");
                break;
            }
            seen[sec] = true;
            continue;
        }
        char *eq = strchr(p, '=');
        if (!eq) {
            rc = fail(c, lineno, NULL, "expected 'key = value', got '%s'", p);
            break;
        }
        *eq = '\0';
        char *key = trim(p);
        char *value = trim(eq + 1);
        lower(key);
        if (!*key) {
            rc = fail(c, lineno, NULL, "missing key before '='");
            break;
        }
        if (!*value) {
            rc = fail(c, lineno, key, "empty value");
            break;
        }
        if (has_ctrl(value)) {
            rc = fail(c, lineno, key, "control character in the value");
            break;
        }
        switch (sec) {
        case SEC_NONE:
            rc = fail(c, lineno, key, "outside any section (start with "
                                      "[study])");
            break;
        case SEC_STUDY:
            rc = parse_study_key(c, k, key, value, lineno);
            break;
        case SEC_VARY:
            rc = parse_vary(c, key, value, lineno);
            break;
        case SEC_SET:
            if (!is_param_key(key)) {
                rc = fail(c, lineno, key, "not a pnrsim key (section.key)");
                break;
            }
            rc = kv_add(c, &s->set, &s->nset, key, value, lineno, "set twice");
            break;
        case SEC_BASELINE: {
            raw_plot *rb = &(*bases)[*nbases - 1];
            if (strcmp(key, "lines") != 0 && !is_param_key(key)) {
                rc = fail(c, lineno, key, "not a pnrsim key (section.key) "
                                          "nor lines = KEY");
                break;
            }
            rc = kv_add(c, &rb->kv, &rb->nkv, key, value, lineno,
                        "given twice in this baseline");
            break;
        }
        case SEC_PLOT: {
            raw_plot *rp = &(*plots)[*nplots - 1];
            rc = kv_add(c, &rp->kv, &rp->nkv, key, value, lineno, NULL);
            break;
        }
        case SEC_SLURM: {
            bool ok = true;
            for (const char *q = key; *q; q++)
                ok &= islower((unsigned char)*q) || isdigit((unsigned char)*q) ||
                      *q == '-' || *q == '_';
            if (!ok) {
                rc = fail(c, lineno, key, "not an sbatch option name");
                break;
            }
            if (!strcmp(key, "array_max")) {
                long m;
                if (!parse_long(value, &m) || m < 1) {
                    rc = fail(c, lineno, key, "'%s': need an integer >= 1",
                              value);
                    break;
                }
            }
            s->slurm = sweep_xrealloc(s->slurm, (s->nslurm + 1) * sizeof *s->slurm);
            s->slurm[s->nslurm++] = (study_kv){sweep_xstrdup(key),
                                               sweep_xstrdup(value), lineno};
            break;
        }
        }
        if (rc)
            break;
    }
    for (long li = 0; li < nlines; li++)
        free(lines[li].text);
    free(lines);
    return rc;
}

/* The key a baseline without `lines = KEY` extends: the lines key of the
 * [plot]s, which must agree. NULL after a failure (reported). *line gets
 * the line of the plot's lines key. */
static char *plots_lines_key(parse_ctx *c, const raw_plot *rb,
                             const raw_plot *plots, size_t nplots, long *line)
{
    char *key = NULL;
    for (size_t i = 0; i < nplots; i++)
        for (size_t j = 0; j < plots[i].nkv; j++) {
            if (strcmp(plots[i].kv[j].key, "lines") != 0)
                continue;
            char *k = sweep_xstrdup(plots[i].kv[j].value);
            lower(k);
            if (!key) {
                key = k;
                *line = plots[i].kv[j].line;
            } else if (strcmp(key, k) != 0) {
                fail(c, rb->line, "lines",
                     "the [plot]s have different lines keys ('%s' on line "
                     "%ld, '%s' on line %ld): say which one this baseline "
                     "extends with lines = KEY", key, *line, k,
                     plots[i].kv[j].line);
                free(k);
                free(key);
                return NULL;
            } else {
                free(k);
            }
        }
    if (!key)
        fail(c, rb->line, "lines",
             "no [plot] has a lines key: say which [vary] key this baseline "
             "is a value of with lines = KEY");
    return key;
}

/* Turn the [baseline] sections into study_baselines and append their names
 * to the values of their key. 0 or -1 (reported). */
static int build_baselines(parse_ctx *c, const raw_plot *rb, size_t nrb,
                           const raw_plot *plots, size_t nplots)
{
    study *s = c->s;
    if (!nrb)
        return 0;
    s->baselines = sweep_xmalloc(nrb * sizeof *s->baselines);
    for (size_t b = 0; b < nrb; b++) {
        const raw_plot *r = &rb[b];
        study_baseline *bl = &s->baselines[s->nbaselines++];
        memset(bl, 0, sizeof *bl);
        bl->name = sweep_xstrdup(r->name);
        bl->line = r->line;
        long key_line = 0;
        bool from_plots = false;
        for (size_t i = 0; i < r->nkv; i++) {
            const study_kv *kv = &r->kv[i];
            if (!strcmp(kv->key, "lines")) {
                bl->key = sweep_xstrdup(kv->value);
                lower(bl->key);
                key_line = kv->line;
                continue;
            }
            long pi = study_param_index(s, kv->key);
            if (pi >= 0)
                return fail(c, kv->line, kv->key,
                            "also varied in [vary] (line %ld): a baseline "
                            "may only set keys that are not varied",
                            s->vary[pi].line);
            bl->set = sweep_xrealloc(bl->set, (bl->nset + 1) * sizeof *bl->set);
            bl->set[bl->nset++] = (study_kv){sweep_xstrdup(kv->key),
                                             sweep_xstrdup(kv->value),
                                             kv->line};
        }
        if (!bl->nset)
            return fail(c, r->line, "baseline",
                        "'%s': a baseline needs at least one KEY = VALUE override "
                        "(e.g. netram.enabled = no)", bl->name);
        if (!bl->key) {
            bl->key = plots_lines_key(c, r, plots, nplots, &key_line);
            if (!bl->key)
                return -1;
            from_plots = true;
        }
        long pi = study_param_index(s, bl->key);
        if (pi < 0 && from_plots)
            return fail(c, key_line, "lines",
                        "'%s' is not a [vary] key (the baseline on line %ld "
                        "extends the [plot]s' lines key)", bl->key, r->line);
        if (pi < 0)
            return fail(c, key_line, "lines",
                        "'%s' is not a [vary] key: a baseline is one more "
                        "value of a varied key", bl->key);
        if (b && strcmp(bl->key, s->baselines[0].key) != 0)
            return fail(c, key_line ? key_line : r->line, "lines",
                        "'%s': every baseline must extend the same [vary] key "
                        "(baseline '%s' on line %ld extends '%s')", bl->key,
                        s->baselines[0].name, s->baselines[0].line,
                        s->baselines[0].key);
        study_param *p = &s->vary[pi];
        for (size_t v = 0; v < p->nvalues; v++)
            if (!strcmp(p->values[v], bl->name))
                return fail(c, r->line, "baseline",
                            "'%s' is also a value of %s in [vary] (line %ld); "
                            "name the baseline otherwise", bl->name, p->key,
                            p->line);
        if (!p->baseline) {
            p->baseline = sweep_xmalloc((p->nvalues + nrb) * sizeof *p->baseline);
            for (size_t v = 0; v < p->nvalues; v++)
                p->baseline[v] = -1;
        }
        p->values = sweep_xrealloc(p->values,
                                   (p->nvalues + 1) * sizeof *p->values);
        p->values[p->nvalues] = sweep_xstrdup(bl->name);
        p->baseline[p->nvalues++] = (long)b;
    }
    return 0;
}

int study_load(study *s, const char *path, char err[STUDY_ERR_MAX])
{
    memset(s, 0, sizeof *s);
    parse_ctx c = {path, err, s};
    err[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, STUDY_ERR_MAX, "%s: %s", path, strerror(errno));
        return -1;
    }
    s->path = sweep_xstrdup(path);
    char *d = sweep_dirname(path);
    s->dir = sweep_abspath(d, NULL);
    free(d);
    s->replications = 1;
    s->seed_base = 1;
    study_keys k = {{NULL, 0}, {NULL, 0}, 0, 0, 0};
    raw_plot *plots = NULL, *bases = NULL;
    size_t nplots = 0, nbases = 0;
    int rc = parse_lines(&c, f, &k, &plots, &nplots, &bases, &nbases);
    fclose(f);

    if (!rc && !s->name)
        s->name = file_stem(path);
    if (!rc && !is_name(s->name))
        rc = fail(&c, 1, "name",
                  "the file name '%s' is not usable as a study name; set "
                  "[study] name", s->name);
    if (!rc && !k.base.value)
        rc = fail(&c, 1, "base",
                  "missing: [study] base = CONFIG.ini is required");
    if (!rc) {
        s->base = sweep_abspath(k.base.value, s->dir);
        s->base_line = k.base.line;
        const char *why = sweep_file_problem(s->base);
        if (why)
            rc = fail(&c, k.base.line, "base", "'%s' (%s): %s%s", k.base.value,
                      s->base, why, path_hint(k.base.value));
    }
    if (!rc && k.trace.value) {
        s->trace = sweep_abspath(k.trace.value, s->dir);
        s->trace_line = k.trace.line;
        const char *why = sweep_file_problem(s->trace);
        if (why)
            rc = fail(&c, k.trace.line, "trace", "'%s' (%s): %s%s", k.trace.value,
                      s->trace, why, path_hint(k.trace.value));
    }
    for (size_t i = 0; !rc && i < s->nset; i++)
        if (study_param_index(s, s->set[i].key) >= 0)
            rc = fail(&c, s->set[i].line, s->set[i].key,
                      "both in [set] and in [vary] (line %ld)",
                      s->vary[study_param_index(s, s->set[i].key)].line);
    /* [study] windows sets workload.window for every run. */
    for (size_t i = 0; !rc && s->windows > 0 && i < s->nset; i++)
        if (!strcmp(s->set[i].key, "workload.window"))
            rc = fail(&c, s->set[i].line, s->set[i].key,
                      "set by [study] windows (line %ld) for every run",
                      s->windows_line);
    for (size_t i = 0; !rc && s->windows > 0 && i < s->nvary; i++)
        if (!strcmp(s->vary[i].key, "workload.window"))
            rc = fail(&c, s->vary[i].line, s->vary[i].key,
                      "set by [study] windows (line %ld) for every run",
                      s->windows_line);
    if (!rc)
        rc = build_baselines(&c, bases, nbases, plots, nplots);
    for (size_t i = 0; !rc && s->windows > 0 && i < s->nbaselines; i++)
        for (size_t j = 0; !rc && j < s->baselines[i].nset; j++)
            if (!strcmp(s->baselines[i].set[j].key, "workload.window"))
                rc = fail(&c, s->baselines[i].set[j].line, "workload.window",
                          "set by [study] windows (line %ld) for every run",
                          s->windows_line);
    if (!rc) {
        s->npoints = 1;
        for (size_t i = 0; i < s->nvary && !rc; i++) {
            if (s->npoints > STUDY_MAX_RUNS / s->vary[i].nvalues)
                rc = fail(&c, s->vary[i].line, s->vary[i].key,
                          "more than %lu parameter points", STUDY_MAX_RUNS);
            else
                s->npoints *= s->vary[i].nvalues;
        }
        s->nrep = (size_t)(s->windows > 0 ? s->windows : 1) *
                  (size_t)s->replications;
        if (!rc && s->npoints > STUDY_MAX_RUNS / s->nrep)
            rc = fail(&c, k.reps_line ? k.reps_line
                          : k.windows_line ? k.windows_line : 1,
                      k.reps_line || !k.windows_line ? "replications"
                                                     : "windows",
                      "more than %lu runs",
                      STUDY_MAX_RUNS);
        s->nruns = s->npoints * s->nrep;
    }
    if (!rc && s->seed_base > (long)INT32_MAX - (s->replications - 1))
        rc = fail(&c, k.seed_line ? k.seed_line : 1, "seed_base",
                  "'%ld': with replications = %ld the seeds would go up to "
                  "%ld; need an integer from 1 to %ld (%ld minus "
                  "replications - 1)", s->seed_base, s->replications,
                  s->seed_base + (s->replications - 1),
                  (long)INT32_MAX - (s->replications - 1), (long)INT32_MAX);
    if (!rc) {
        s->plots = sweep_xmalloc((nplots ? nplots : 1) * sizeof *s->plots);
        for (size_t i = 0; i < nplots && !rc; i++) {
            rc = build_plot(&c, &plots[i], &s->plots[i]);
            if (rc) {
                free_plot(&s->plots[i]);
                break;
            }
            s->nplots++;
            for (size_t j = 0; j + 1 < s->nplots && !rc; j++)
                if (!strcmp(s->plots[j].name, s->plots[i].name))
                    rc = fail(&c, plots[i].line, "plot",
                              "a second plot named '%s'; name them: "
                              "[plot NAME]", s->plots[i].name);
        }
    }
    free_raw(plots, nplots);
    free_raw(bases, nbases);
    free(k.base.value);
    free(k.trace.value);
    if (rc) {
        study_free(s);
        return -1;
    }
    return 0;
}

void study_free(study *s)
{
    free(s->path);
    free(s->dir);
    free(s->name);
    free(s->base);
    free(s->trace);
    for (size_t i = 0; i < s->nmetrics; i++)
        free(s->metrics[i]);
    free(s->metrics);
    for (size_t i = 0; i < s->nvary; i++) {
        for (size_t j = 0; j < s->vary[i].nvalues; j++)
            free(s->vary[i].values[j]);
        free(s->vary[i].values);
        free(s->vary[i].baseline);
        free(s->vary[i].key);
    }
    free(s->vary);
    for (size_t i = 0; i < s->nbaselines; i++) {
        for (size_t j = 0; j < s->baselines[i].nset; j++) {
            free(s->baselines[i].set[j].key);
            free(s->baselines[i].set[j].value);
        }
        free(s->baselines[i].set);
        free(s->baselines[i].name);
        free(s->baselines[i].key);
    }
    free(s->baselines);
    for (size_t i = 0; i < s->nset; i++) {
        free(s->set[i].key);
        free(s->set[i].value);
    }
    free(s->set);
    for (size_t i = 0; i < s->nplots; i++)
        free_plot(&s->plots[i]);
    free(s->plots);
    for (size_t i = 0; i < s->nslurm; i++) {
        free(s->slurm[i].key);
        free(s->slurm[i].value);
    }
    free(s->slurm);
    memset(s, 0, sizeof *s);
}

size_t study_value_index(const study *s, size_t point, size_t param)
{
    /* The last parameter varies fastest. */
    for (size_t i = s->nvary; i-- > param + 1;)
        point /= s->vary[i].nvalues;
    return point % s->vary[param].nvalues;
}

const char *study_value(const study *s, size_t point, size_t param)
{
    return s->vary[param].values[study_value_index(s, point, param)];
}

const study_baseline *study_value_baseline(const study *s, size_t point,
                                           size_t param)
{
    const study_param *p = &s->vary[param];
    if (!p->baseline)
        return NULL;
    long b = p->baseline[study_value_index(s, point, param)];
    return b >= 0 ? &s->baselines[b] : NULL;
}

size_t study_point_of(const study *s, const size_t *idx)
{
    size_t point = 0;
    for (size_t i = 0; i < s->nvary; i++)
        point = point * s->vary[i].nvalues + idx[i];
    return point;
}

long study_seed(const study *s, size_t rep)
{
    return s->seed_base + (long)rep;
}

size_t study_run_point(const study *s, size_t run)
{
    return run / s->nrep;
}

long study_run_window(const study *s, size_t run)
{
    if (s->windows <= 0)
        return -1;
    return (long)((run % s->nrep) / (size_t)s->replications);
}

long study_run_seed(const study *s, size_t run)
{
    return study_seed(s, run % (size_t)s->replications);
}

long study_param_index(const study *s, const char *key)
{
    for (size_t i = 0; i < s->nvary; i++)
        if (!strcmp(s->vary[i].key, key))
            return (long)i;
    return -1;
}

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
        return sweep_xstrdup("base");
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
        char *h = sweep_xasprintf("p-%016llx",
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
    char *base = sweep_read_file(s->base, &len);
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
            f->base = sweep_xrealloc(f->base, (f->nbase + 1) * sizeof *f->base);
            f->base[f->nbase++] = sweep_xstrndup(p, n);
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
                *why = sweep_xstrndup(c.base[i] + 9, n - 9);
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
