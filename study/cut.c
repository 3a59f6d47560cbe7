/* study/cut.c: a study cut down from the command line.
 *
 * Running a study with fewer seeds, fewer trace windows or a subset of a
 * [vary] key's values should not mean copying the study file (whose
 * relative base, trace and plugin paths then break). pnrsim-sweep takes
 *
 *   --set study.replications=N   --set study.windows=N
 *   --set study.seed_base=N      --only KEY=VALUE[,VALUE...]  (repeatable)
 *
 * and this file applies them to the study as loaded from its file, before
 * anything else sees it: nothing is copied, so every path keeps resolving
 * against the original file's directory (study->dir). The checks are the
 * study file's own (replications and windows 1 .. 100000, the seeds within
 * 1 .. INT32_MAX, at most a million runs), each key once; windows may be
 * changed only in a study that has [study] windows (turning the slicing on
 * or off would make other runs, not fewer). --only names a [vary] key and
 * values of its list (a baseline by its NAME, or @NAME; other values as
 * pnrsim reads them, 16MB for 16 of computer.ram, CENTRAL for central,
 * 0.10 for 0.1), each value once, no empty item;
 * the kept values stay in the study's order, so the runs are numbered as a
 * smaller study's would be.
 *
 * Run directories are named by values and seeds (study/fingerprint.c), and
 * neither the seeds, the number of replications or windows, nor the values
 * of a [vary] key enter the fingerprint: a cut-down study in the full
 * study's output directory reuses the runs already there, and the full
 * study later reuses the cut-down's.
 *
 * study_titles fills the placeholders of the [plot] titles and labels from
 * the study as cut, so that a title says what ran ("{windows} x {jobs}
 * jobs" reads "1 x 100 jobs" after --set study.windows=1).
 */
#include "study/cut.h"
#include "study/points.h"
#include "study/sweep.h"

#include "app/config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CUT_MAX_RUNS 1000000UL

bool study_cut_any(const study_cut *cut)
{
    return cut->nset > 0 || cut->nonly > 0;
}

/* An integer from lo to hi in t (all of it), or false. */
static bool int_in(const char *t, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(t, &end, 10);
    if (end == t || *end || errno || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

/* One --set study.KEY=VALUE into s; *seen has bit 0, 1, 2 for the
 * replications, windows and seed_base already set (a second --set of one
 * is refused: which would win is not obvious). 0 or -1 (err). */
static int apply_set(study *s, const char *arg, bool *seed_given, unsigned *seen,
                     char *err, size_t errlen)
{
    const char *eq = strchr(arg, '=');
    static const char allowed[] =
        "the command line sets study.replications, study.windows and "
        "study.seed_base; change other keys in the study file";
    if (!eq || strncmp(arg, "study.", 6) != 0) {
        snprintf(err, errlen, "--set %s: %s%s", arg,
                 eq ? "" : "need study.KEY=VALUE: ", allowed);
        return -1;
    }
    size_t klen = (size_t)(eq - arg) - 6;
    const char *key = arg + 6, *value = eq + 1;
    long v;
    unsigned bit = klen == 12 && !strncmp(key, "replications", klen) ? 1u
                 : klen == 7 && !strncmp(key, "windows", klen)       ? 2u
                 : klen == 9 && !strncmp(key, "seed_base", klen)     ? 4u
                                                                     : 0u;
    if (bit & *seen) {
        snprintf(err, errlen, "--set %s: study.%.*s is set twice on the command "
                 "line: give it once", arg, (int)klen, key);
        return -1;
    }
    *seen |= bit;
    if (klen == 12 && !strncmp(key, "replications", klen)) {
        if (!int_in(value, 1, 100000, &v)) {
            snprintf(err, errlen, "--set %s: need an integer from 1 to 100000", arg);
            return -1;
        }
        s->replications = v;
    } else if (klen == 7 && !strncmp(key, "windows", klen)) {
        if (s->windows <= 0) {
            snprintf(err, errlen, "--set %s: %s has no [study] windows (its trace is "
                     "not sliced); windows can be changed only in a study that "
                     "has them", arg, s->path);
            return -1;
        }
        if (!int_in(value, 1, 100000, &v)) {
            snprintf(err, errlen, "--set %s: need an integer from 1 to 100000 (trace "
                     "windows of workload.max_jobs jobs per point)", arg);
            return -1;
        }
        s->windows = v;
    } else if (klen == 9 && !strncmp(key, "seed_base", klen)) {
        if (!int_in(value, 1, INT32_MAX, &v)) {
            snprintf(err, errlen, "--set %s: need an integer from 1 to %ld", arg,
                     (long)INT32_MAX);
            return -1;
        }
        s->seed_base = v;
        *seed_given = true;
    } else {
        snprintf(err, errlen, "--set %s: %s", arg, allowed);
        return -1;
    }
    return 0;
}

/* The values of p, for a message: "a, b, disk (a baseline)". Newly
 * allocated. */
static char *value_list(const study_param *p)
{
    sweep_buf b = {0};
    sweep_buf_puts(&b, "");
    for (size_t j = 0; j < p->nvalues; j++)
        sweep_buf_printf(&b, "%s%s%s", j ? ", " : "", p->values[j],
                         p->baseline && p->baseline[j] >= 0 ? " (a baseline)" : "");
    return b.p;
}

/* A finite number making up all of t. */
static bool as_number(const char *t, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(t, &end);
    if (end == t || *end || errno || !isfinite(v))
        return false;
    *out = v;
    return true;
}

/* The index of value w among p's values, or -1. */
static long find_value(const study_param *p, const char *w)
{
    bool at = w[0] == '@';
    for (size_t j = 0; j < p->nvalues; j++) {
        bool bl = p->baseline && p->baseline[j] >= 0;
        if (!strcmp(p->values[j], w) || (at && bl && !strcmp(p->values[j], w + 1)))
            return (long)j;
    }
    /* As pnrsim reads them (config_value_text): 512MB or 0.5GB for 512 of
     * computer.ram, CENTRAL for central, 0.10 for 0.1. A text that fills
     * the buffer may have been cut, so it is not compared this way (a long
     * path is matched as written, above). */
    char a[1024], b[1024];
    char *asg = xasprintf("%s=%s", p->key, w);
    bool ok = config_value_text(asg, a, sizeof a) == 0 && strlen(a) < sizeof a - 1;
    free(asg);
    for (size_t j = 0; ok && j < p->nvalues; j++) {
        if (p->baseline && p->baseline[j] >= 0)
            continue;
        asg = xasprintf("%s=%s", p->key, p->values[j]);
        bool same = config_value_text(asg, b, sizeof b) == 0 && strlen(b) < sizeof b - 1 &&
                    !strcmp(a, b);
        free(asg);
        if (same)
            return (long)j;
    }
    /* Keys pnrsim does not parse alone (a plugin's): numbers by value. */
    double x, y;
    if (!as_number(w, &x))
        return -1;
    for (size_t j = 0; j < p->nvalues; j++)
        if (!(p->baseline && p->baseline[j] >= 0) && as_number(p->values[j], &y) &&
            x == y)
            return (long)j;
    return -1;
}

/* Mark in keep[] the values an --only names. 0, or -1 (err). */
static int mark_only(const study *s, const char *arg, bool **keep, char *err,
                     size_t errlen)
{
    const char *eq = strchr(arg, '=');
    char *key = eq ? xstrndup(arg, (size_t)(eq - arg)) : xstrdup(arg);
    long pi = study_param_index(s, key);
    int rc = 0;
    if (!eq || pi < 0) {
        sweep_buf b = {0};
        sweep_buf_puts(&b, "");
        for (size_t i = 0; i < s->nvary; i++)
            sweep_buf_printf(&b, "%s%s", i ? ", " : "", s->vary[i].key);
        if (!eq)
            snprintf(err, errlen, "--only %s: need KEY=VALUE[,VALUE...] with a [vary] "
                     "key of %s (%s)", arg, s->path, s->nvary ? b.p : "it has none");
        else
            snprintf(err, errlen, "--only %s: '%s' is not a [vary] key of %s (%s%s)",
                     arg, key, s->path, s->nvary ? "its keys: " : "it has none",
                     b.p);
        sweep_buf_free(&b);
        free(key);
        return -1;
    }
    const study_param *p = &s->vary[pi];
    char *list = xstrdup(eq + 1);
    size_t named = 0;
    /* Items between commas, blanks trimmed. An all-blank list is "no
     * value"; an empty item inside one (a,,b or a trailing comma) is
     * refused, as a [vary] list's is, rather than skipped. */
    bool blank = strspn(list, " \t") == strlen(list);
    for (char *w = list, *next; w && !rc && !blank; w = next) {
        next = strchr(w, ',');
        if (next)
            *next++ = '\0';
        while (*w == ' ' || *w == '\t')
            w++;
        char *z = w + strlen(w);
        while (z > w && (z[-1] == ' ' || z[-1] == '\t'))
            *--z = '\0';
        if (!*w) {
            snprintf(err, errlen, "--only %s: an empty item in the list (give "
                     "KEY=VALUE[,VALUE...] without an empty one between commas)", arg);
            rc = -1;
            break;
        }
        long vi = find_value(p, w);
        if (vi < 0) {
            char *vals = value_list(p);
            snprintf(err, errlen, "--only %s: '%s' is not a value of %s in %s:%ld "
                     "(its values: %s)", arg, w, key, s->path, p->line, vals);
            free(vals);
            rc = -1;
            break;
        }
        if (keep[pi][vi]) {
            snprintf(err, errlen, "--only %s: '%s' names %s's value '%s', which an "
                     "--only already named: give each value once", arg, w, key,
                     p->values[vi]);
            rc = -1;
            break;
        }
        keep[pi][vi] = true;
        named++;
    }
    if (!rc && !named) {
        char *vals = value_list(p);
        snprintf(err, errlen, "--only %s: no value given (the values of %s: %s)", arg,
                 key, vals);
        free(vals);
        rc = -1;
    }
    free(list);
    free(key);
    return rc;
}

/* Free what pl holds (a plot --only leaves out). */
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

/* Keep the values of parameter i marked in keep (at least one is), and
 * move the [plot] pins along; a plot pinned to a value dropped goes. */
static void keep_values(study *s, size_t i, const bool *keep, FILE *warn)
{
    study_param *p = &s->vary[i];
    long *newidx = xmalloc(p->nvalues * sizeof *newidx);
    size_t n = 0;
    /* In place: slot n <= j is written only after values[j] was read. */
    for (size_t j = 0; j < p->nvalues; j++) {
        if (keep[j]) {
            newidx[j] = (long)n;
            p->values[n] = p->values[j];
            if (p->baseline)
                p->baseline[n] = p->baseline[j];
            n++;
        } else {
            newidx[j] = -1;
            free(p->values[j]);
        }
    }
    size_t np = 0;
    for (size_t k = 0; k < s->nplots; k++) {
        study_plot *pl = &s->plots[k];
        long old = pl->pin[i];
        if (old >= 0 && newidx[old] < 0) {
            if (warn)
                fprintf(warn, "pnrsim-sweep: warning: %s:%ld: plot %s is not drawn: it pins %s "
                        "to a value --only leaves out\n", s->path, pl->line,
                        pl->name, p->key);
            free_plot(pl);
            continue;
        }
        if (old >= 0)
            pl->pin[i] = newidx[old];
        s->plots[np++] = *pl;
    }
    s->nplots = np;
    p->nvalues = n;
    free(newidx);
}

int study_cut_apply(study *s, const study_cut *cut, FILE *warn, char *err,
                    size_t errlen)
{
    bool seed_given = false;
    unsigned seen = 0;
    for (size_t i = 0; i < cut->nset; i++)
        if (apply_set(s, cut->set[i], &seed_given, &seen, err, errlen) != 0)
            return -1;
    if (s->seed_base > (long)INT32_MAX - (s->replications - 1)) {
        snprintf(err, errlen, "--set: with replications = %ld and seed_base = %ld the "
                 "seeds would go up to %ld; the last seed may be at most %ld",
                 s->replications, s->seed_base, s->seed_base + (s->replications - 1),
                 (long)INT32_MAX);
        return -1;
    }
    bool **keep = xmalloc((s->nvary ? s->nvary : 1) * sizeof *keep);
    bool *cut_key = xmalloc((s->nvary ? s->nvary : 1) * sizeof *cut_key);
    for (size_t i = 0; i < s->nvary; i++) {
        keep[i] = xmalloc(s->vary[i].nvalues * sizeof **keep);
        memset(keep[i], 0, s->vary[i].nvalues * sizeof **keep);
        cut_key[i] = false;
    }
    int rc = 0;
    for (size_t k = 0; k < cut->nonly && !rc; k++) {
        rc = mark_only(s, cut->only[k], keep, err, errlen);
        const char *eq = strchr(cut->only[k], '=');
        if (!rc) {
            char *key = xstrndup(cut->only[k], (size_t)(eq - cut->only[k]));
            cut_key[study_param_index(s, key)] = true;
            free(key);
        }
    }
    for (size_t i = 0; i < s->nvary && !rc; i++)
        if (cut_key[i])
            keep_values(s, i, keep[i], warn);
    for (size_t i = 0; i < s->nvary; i++)
        free(keep[i]);
    free(keep);
    free(cut_key);
    if (rc)
        return -1;
    s->npoints = 1;
    for (size_t i = 0; i < s->nvary; i++)
        s->npoints *= s->vary[i].nvalues;
    s->nrep = (size_t)(s->windows > 0 ? s->windows : 1) * (size_t)s->replications;
    if (s->npoints > CUT_MAX_RUNS / s->nrep) {
        snprintf(err, errlen, "--set: more than %lu runs", CUT_MAX_RUNS);
        return -1;
    }
    s->nruns = s->npoints * s->nrep;
    return 0;
}

/* workload.max_jobs over the points' configurations: "all" (0), "N" or
 * "A-B"; NULL when a configuration cannot be built. Newly allocated. */
static char *jobs_text(const study *s)
{
    long lo = -1, hi = -1;
    bool all = false;
    for (size_t p = 0; p < s->npoints; p++) {
        sweep_assign *a;
        size_t n = sweep_point_assigns(s, p, &a);
        const char **sets = xmalloc((n ? n : 1) * sizeof *sets);
        for (size_t i = 0; i < n; i++)
            sets[i] = a[i].arg;
        const char *files[] = {s->base};
        config_args args = {files, 1, s->trace, NULL, sets, n, NULL, NULL};
        config c;
        cfg_error e;
        int r = config_build(&c, &args, &e);
        free(sets);
        sweep_assign_free(a, n);
        if (r != 0)
            return NULL;
        long m = c.workload.max_jobs;
        if (m <= 0) {
            all = true;
            continue;
        }
        if (lo < 0 || m < lo)
            lo = m;
        if (m > hi)
            hi = m;
    }
    if (lo < 0)
        return xstrdup("all");
    if (all)
        return xasprintf("%ld-all", lo);
    return lo == hi ? xasprintf("%ld", lo) : xasprintf("%ld-%ld", lo, hi);
}

/* Placeholders, in the order the man page lists them. */
static const char *const names[] = {"runs", "replications", "windows", "jobs"};
#define NNAMES (sizeof names / sizeof *names)

/* t with the placeholders replaced by val[] (a NULL val: left as written);
 * an unknown {NAME} is warned about. Newly allocated. */
static char *expand(const study *s, const study_plot *pl, const char *what,
                    const char *t, char *const val[NNAMES], FILE *warn)
{
    sweep_buf b = {0};
    sweep_buf_puts(&b, "");
    for (const char *p = t; *p;) {
        const char *open = strchr(p, '{');
        const char *close = open ? strchr(open, '}') : NULL;
        if (!close) {
            sweep_buf_puts(&b, p);
            break;
        }
        sweep_buf_add(&b, p, (size_t)(open - p));
        size_t n = (size_t)(close - open - 1);
        size_t k = 0;
        while (k < NNAMES && !(strlen(names[k]) == n && !strncmp(open + 1, names[k], n)))
            k++;
        if (k < NNAMES && val[k]) {
            sweep_buf_puts(&b, val[k]);
        } else {
            if (k == NNAMES && warn)
                fprintf(warn, "pnrsim-sweep: warning: %s:%ld: %s: '%.*s' is not a "
                        "placeholder ({runs}, {replications}, {windows}, {jobs}); "
                        "left as written\n", s->path, pl->line, what,
                        (int)(n + 2), open);
            sweep_buf_add(&b, open, n + 2);
        }
        p = close + 1;
    }
    return b.p;
}

void study_titles(study *s, FILE *warn)
{
    bool need = false, jobs = false;
    for (size_t k = 0; k < s->nplots; k++) {
        const char *t[3] = {s->plots[k].title, s->plots[k].xlabel, s->plots[k].ylabel};
        for (int i = 0; i < 3; i++) {
            need |= t[i] && strchr(t[i], '{');
            jobs |= t[i] && strstr(t[i], "{jobs}");
        }
    }
    if (!need)
        return;
    char *val[NNAMES] = {
        xasprintf("%zu", s->nrep), xasprintf("%ld", s->replications),
        xasprintf("%ld", s->windows > 0 ? s->windows : 1), jobs ? jobs_text(s) : NULL};
    for (size_t k = 0; k < s->nplots; k++) {
        study_plot *pl = &s->plots[k];
        char **slot[3] = {&pl->title, &pl->xlabel, &pl->ylabel};
        static const char *const what[3] = {"title", "xlabel", "ylabel"};
        for (int i = 0; i < 3; i++)
            if (*slot[i] && strchr(*slot[i], '{')) {
                char *e = expand(s, pl, what[i], *slot[i], val, warn);
                free(*slot[i]);
                *slot[i] = e;
            }
    }
    for (size_t i = 0; i < NNAMES; i++)
        free(val[i]);
}
