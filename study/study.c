/* study/study.c: reading a study file.
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
 * 1..INT32_MAX (pnrsim takes seed 0 as "from the clock"), simulation.seed
 * in [set], [vary] or a [baseline] (the sweep owns the seed), a plot naming an
 * unknown key or leaving a varied key unpinned, more than a million runs.
 * The values themselves are checked against pnrsim's configuration rules
 * by study/check.c before a sweep runs or emits.
 *
 * This file reads the lines, sections and [study]/[set]/[slurm] keys and
 * checks the study as a whole (study_load); the parser's other parts share
 * study/parse.h: study/values.c expands [vary] lists and ranges,
 * study/resolve.c builds the [plot] and [baseline] sections once the whole
 * file is read. What a loaded study is used for lives apart: study/points.c
 * numbers its runs (points, windows, seeds), study/fingerprint.c names
 * their directories and records what they were made with.
 */
#include "study/parse.h"
#include "study/study.h"
#include "study/sweep.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STUDY_MAX_RUNS 1000000UL

/* Why simulation.seed may not be set or varied by a study. */
#define SEED_OWNED                                                             \
    "the sweep sets each run's seed (seed_base, seed_base + 1, ... for the "  \
    "replications): use [study] seed_base and replications instead"

/* A hint for a file that is not there: relative paths are resolved from
 * the study file's directory ("" for an absolute path). */
static const char *path_hint(const char *value)
{
    return value[0] == '/' ? ""
                           : " (relative paths are taken from the study "
                             "file's directory)";
}

/* Format "FILE:LINE: KEY: message" into c->err; returns -1. */
int study_fail(study_parse_ctx *c, long line, const char *key, const char *fmt, ...)
{
    sweep_buf b = {0};
    sweep_buf_printf(&b, "%s:%ld: ", c->file, line);
    if (key)
        sweep_buf_printf(&b, "%s: ", key);
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *msg = xmalloc((size_t)(n > 0 ? n : 0) + 1);
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
static int kv_add(study_parse_ctx *c, study_kv **v, size_t *n, const char *key,
                  const char *value, long line, const char *twice)
{
    for (size_t i = 0; twice && i < *n; i++)
        if (!strcmp((*v)[i].key, key))
            return study_fail(c, line, key, "%s (first on line %ld)", twice, (*v)[i].line);
    *v = xrealloc(*v, (*n + 1) * sizeof **v);
    (*v)[(*n)++] = (study_kv){xstrdup(key), xstrdup(value), line};
    return 0;
}

char *study_trim(char *p)
{
    while (isspace((unsigned char)*p))
        p++;
    size_t n = strlen(p);
    while (n && isspace((unsigned char)p[n - 1]))
        p[--n] = '\0';
    return p;
}

void study_lower(char *p)
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
bool study_is_param_key(const char *k)
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
bool study_is_name(const char *v)
{
    if (!*v || *v == '.')
        return false;
    for (const char *p = v; *p; p++)
        if (!(isalnum((unsigned char)*p) || strchr("._-", *p)))
            return false;
    return true;
}

bool study_has_ctrl(const char *v)
{
    for (const char *p = v; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            return true;
    return false;
}

/* Parse a whole string as a finite double. */
bool study_parse_num(const char *t, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(t, &end);
    if (end == t || *end || errno == ERANGE || !isfinite(v))
        return false;
    *out = v;
    return true;
}

/* Parse a whole string as a long. */
bool study_parse_long(const char *t, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(t, &end, 10);
    if (end == t || *end || errno == ERANGE)
        return false;
    *out = v;
    return true;
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

static int parse_study_key(study_parse_ctx *c, study_keys *k, const char *key,
                           const char *value, long line)
{
    study *s = c->s;
    if (!strcmp(key, "name")) {
        if (!study_is_name(value))
            return study_fail(c, line, key,
                        "'%s': use letters, digits, '.', '_' and '-'", value);
        free(s->name);
        s->name = xstrdup(value);
    } else if (!strcmp(key, "base") || !strcmp(key, "trace")) {
        pending_path *pp = !strcmp(key, "base") ? &k->base : &k->trace;
        if (pp->value)
            return study_fail(c, line, key, "given twice (first on line %ld)",
                        pp->line);
        pp->value = xstrdup(value);
        pp->line = line;
    } else if (!strcmp(key, "replications")) {
        if (!study_parse_long(value, &s->replications) || s->replications < 1 ||
            s->replications > 100000)
            return study_fail(c, line, key, "'%s': need an integer from 1 to 100000",
                        value);
        k->reps_line = line;
    } else if (!strcmp(key, "seed_base")) {
        if (!study_parse_long(value, &s->seed_base) || s->seed_base < 1 ||
            s->seed_base > (long)INT32_MAX)
            return study_fail(c, line, key,
                        "'%s': need an integer from 1 to %ld minus "
                        "(replications - 1), so that the last seed is at most "
                        "%ld (pnrsim takes seed 0 as 'from the clock')",
                        value, (long)INT32_MAX, (long)INT32_MAX);
        k->seed_line = line;
    } else if (!strcmp(key, "windows")) {
        if (!study_parse_long(value, &s->windows) || s->windows < 1 ||
            s->windows > 100000)
            return study_fail(c, line, key,
                        "'%s': need an integer from 1 to 100000 (trace "
                        "windows of workload.max_jobs jobs per point)", value);
        k->windows_line = line;
        s->windows_line = line;
    } else if (!strcmp(key, "metrics")) {
        if (s->nmetrics)
            return study_fail(c, line, key, "given twice");
        char *v = xstrdup(value);
        int r = study_parse_list(c, key, v, line, &s->metrics, &s->nmetrics);
        free(v);
        if (r)
            return -1;
        for (size_t i = 0; i < s->nmetrics; i++)
            if (study_has_ctrl(s->metrics[i]) || strchr(s->metrics[i], ' '))
                return study_fail(c, line, key, "'%s' is not a metric name",
                            s->metrics[i]);
    } else {
        return study_fail(c, line, key,
                    "unknown key in [study] (name, base, trace, replications, "
                    "seed_base, windows, metrics)");
    }
    return 0;
}

/* A [slurm] key the sweep cannot pass on: one it writes itself (array:
 * the array is one task per run, array_max limits it), one that replaces
 * the script (wrap), or a single letter. Keys are read in lower case, and
 * sbatch's short options differ by case (-N nodes, -n ntasks), so a
 * single letter is refused with the long names it may stand for.
 * 0, or -1 (reported). */
static int slurm_key_problem(study_parse_ctx *c, const char *key, long line)
{
    static const char *const longname[26] = {
        ['a' - 'a'] = "array (-a; use array_max) or account (-A)",
        ['b' - 'a'] = "begin (-b)",
        ['c' - 'a'] = "cpus-per-task (-c) or constraint (-C)",
        ['d' - 'a'] = "dependency (-d) or chdir (-D)",
        ['e' - 'a'] = "error (-e)",
        ['g' - 'a'] = "gpus (-G)",
        ['h' - 'a'] = "hold (-H)",
        ['i' - 'a'] = "input (-i)",
        ['j' - 'a'] = "job-name (-J)",
        ['k' - 'a'] = "no-kill (-k)",
        ['l' - 'a'] = "licenses (-L)",
        ['m' - 'a'] = "distribution (-m) or clusters (-M)",
        ['n' - 'a'] = "ntasks (-n) or nodes (-N)",
        ['o' - 'a'] = "output (-o) or overcommit (-O)",
        ['p' - 'a'] = "partition (-p)",
        ['q' - 'a'] = "qos (-q) or quiet (-Q)",
        ['s' - 'a'] = "oversubscribe (-s) or core-spec (-S)",
        ['t' - 'a'] = "time (-t)",
        ['w' - 'a'] = "nodelist (-w) or wait (-W)",
        ['x' - 'a'] = "exclude (-x)",
    };
    if (key[0] && !key[1]) {
        const char *l = key[0] >= 'a' && key[0] <= 'z' ? longname[key[0] - 'a'] : NULL;
        return study_fail(c, line, key,
                          "a single-letter sbatch option: give its long name%s%s "
                          "(keys are read in lower case, and sbatch's short "
                          "options differ by case)", l ? ", " : "", l ? l : "");
    }
    if (!strcmp(key, "array"))
        return study_fail(c, line, key,
                          "written by pnrsim-sweep (one array task per run); "
                          "use array_max = K to run at most K at once");
    if (!strcmp(key, "wrap"))
        return study_fail(c, line, key,
                          "would replace the script pnrsim-sweep writes");
    return 0;
}

static char *file_stem(const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    const char *dot = strrchr(b, '.');
    size_t n = dot && dot != b ? (size_t)(dot - b) : strlen(b);
    return xstrndup(b, n);
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
static long read_lines(study_parse_ctx *c, FILE *f, lline **out)
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
            study_fail(c, lineno, NULL, "a NUL byte (column %ld): not a text file?",
                 (long)(z - line) + 1);
            nul = true;
            break;
        }
        if (lineno == 1 && !strncmp(line, "\xEF\xBB\xBF", 3))
            memmove(line, line + 3, strlen(line + 3) + 1);
        bool indented = line[0] == ' ' || line[0] == '\t';
        char *p = study_trim(line);
        if (!*p || *p == ';' || *p == '#')
            continue;
        cut_comment(p);
        p = study_trim(p);
        if (indented && n > 0 && *p != '[' && !strchr(p, '=') &&
            (*out)[n - 1].text[0] != '[' && strchr((*out)[n - 1].text, '=')) {
            char *joined = xasprintf("%s %s", (*out)[n - 1].text, p);
            free((*out)[n - 1].text);
            (*out)[n - 1].text = joined;
            continue;
        }
        *out = xrealloc(*out, (size_t)(n + 1) * sizeof **out);
        (*out)[n++] = (lline){xstrdup(p), lineno};
    }
    free(line);
    if (nul || ferror(f)) {
        if (!nul)
            study_fail(c, lineno, NULL, "read error");
        for (long i = 0; i < n; i++)
            free((*out)[i].text);
        free(*out);
        *out = NULL;
        return -1;
    }
    return n;
}

static int parse_lines(study_parse_ctx *c, FILE *f, study_keys *k, study_raw **plots,
                       size_t *nplots, study_raw **bases, size_t *nbases)
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
            if (!close || study_trim(close + 1)[0]) {
                rc = study_fail(c, lineno, NULL, "bad section header '%s'", p);
                break;
            }
            *close = '\0';
            char *name = study_trim(p + 1);
            char *arg = name + strcspn(name, " \t");
            if (*arg) {
                *arg++ = '\0';
                arg = study_trim(arg);
            }
            study_lower(name);
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
                rc = study_fail(c, lineno, name,
                          "unknown section (study, vary, set, baseline, "
                          "plot, slurm)");
                break;
            }
            if (*arg && sec != SEC_PLOT && sec != SEC_BASELINE) {
                rc = study_fail(c, lineno, name, "this section takes no name");
                break;
            }
            if (sec == SEC_BASELINE) {
                if (!*arg) {
                    rc = study_fail(c, lineno, name, "needs a name: [baseline NAME] "
                                               "(e.g. [baseline disk])");
                    break;
                }
                if (!study_is_name(arg)) {
                    rc = study_fail(c, lineno, name, "'%s': use letters, digits, "
                                               "'.', '_' and '-'", arg);
                    break;
                }
                for (size_t i = 0; i < *nbases; i++)
                    if (!strcmp((*bases)[i].name, arg)) {
                        rc = study_fail(c, lineno, name,
                                  "a second baseline named '%s' (first on "
                                  "line %ld)", arg, (*bases)[i].line);
                        break;
                    }
                if (rc)
                    break;
                *bases = xrealloc(*bases, (*nbases + 1) * sizeof **bases);
                study_raw *rb = &(*bases)[(*nbases)++];
                memset(rb, 0, sizeof *rb);
                rb->name = xstrdup(arg);
                rb->line = lineno;
                continue;
            }
            if (sec == SEC_PLOT) {
                *plots = xrealloc(*plots, (*nplots + 1) * sizeof **plots);
                study_raw *rp = &(*plots)[(*nplots)++];
                memset(rp, 0, sizeof *rp);
                rp->name = *arg ? xstrdup(arg) : NULL;
                rp->line = lineno;
            } else if (seen[sec]) {
                rc = study_fail(c, lineno, name, "section given twice");
                break;
            }
            seen[sec] = true;
            continue;
        }
        char *eq = strchr(p, '=');
        if (!eq) {
            rc = study_fail(c, lineno, NULL, "expected 'key = value', got '%s'", p);
            break;
        }
        *eq = '\0';
        char *key = study_trim(p);
        char *value = study_trim(eq + 1);
        study_lower(key);
        if (!*key) {
            rc = study_fail(c, lineno, NULL, "missing key before '='");
            break;
        }
        if (!*value) {
            rc = study_fail(c, lineno, key, "empty value");
            break;
        }
        if (study_has_ctrl(value)) {
            rc = study_fail(c, lineno, key, "control character in the value");
            break;
        }
        switch (sec) {
        case SEC_NONE:
            rc = study_fail(c, lineno, key, "outside any section (start with "
                                      "[study])");
            break;
        case SEC_STUDY:
            rc = parse_study_key(c, k, key, value, lineno);
            break;
        case SEC_VARY:
            rc = study_parse_vary(c, key, value, lineno);
            break;
        case SEC_SET:
            if (!study_is_param_key(key)) {
                rc = study_fail(c, lineno, key, "not a pnrsim key (section.key)");
                break;
            }
            rc = kv_add(c, &s->set, &s->nset, key, value, lineno, "set twice");
            break;
        case SEC_BASELINE: {
            study_raw *rb = &(*bases)[*nbases - 1];
            if (strcmp(key, "lines") != 0 && !study_is_param_key(key)) {
                rc = study_fail(c, lineno, key, "not a pnrsim key (section.key) "
                                          "nor lines = KEY");
                break;
            }
            rc = kv_add(c, &rb->kv, &rb->nkv, key, value, lineno,
                        "given twice in this baseline");
            break;
        }
        case SEC_PLOT: {
            study_raw *rp = &(*plots)[*nplots - 1];
            rc = kv_add(c, &rp->kv, &rp->nkv, key, value, lineno, NULL);
            break;
        }
        case SEC_SLURM: {
            bool ok = true;
            for (const char *q = key; *q; q++)
                ok &= islower((unsigned char)*q) || isdigit((unsigned char)*q) ||
                      *q == '-' || *q == '_';
            if (!ok) {
                rc = study_fail(c, lineno, key, "not an sbatch option name");
                break;
            }
            rc = slurm_key_problem(c, key, lineno);
            if (rc)
                break;
            if (!strcmp(key, "array_max")) {
                long m;
                if (!study_parse_long(value, &m) || m < 1) {
                    rc = study_fail(c, lineno, key, "'%s': need an integer >= 1",
                              value);
                    break;
                }
            }
            rc = kv_add(c, &s->slurm, &s->nslurm, key, value, lineno,
                        "given twice");
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

int study_load(study *s, const char *path, char err[STUDY_ERR_MAX])
{
    memset(s, 0, sizeof *s);
    study_parse_ctx c = {path, err, s};
    err[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, STUDY_ERR_MAX, "%s: %s", path, strerror(errno));
        return -1;
    }
    s->path = xstrdup(path);
    char *d = sweep_dirname(path);
    s->dir = sweep_abspath(d, NULL);
    free(d);
    s->replications = 1;
    s->seed_base = 1;
    study_keys k = {{NULL, 0}, {NULL, 0}, 0, 0, 0};
    study_raw *plots = NULL, *bases = NULL;
    size_t nplots = 0, nbases = 0;
    int rc = parse_lines(&c, f, &k, &plots, &nplots, &bases, &nbases);
    fclose(f);

    if (!rc && !s->name)
        s->name = file_stem(path);
    if (!rc && !study_is_name(s->name))
        rc = study_fail(&c, 1, "name",
                  "the file name '%s' is not usable as a study name; set "
                  "[study] name", s->name);
    if (!rc && !k.base.value)
        rc = study_fail(&c, 1, "base",
                  "missing: [study] base = CONFIG.ini is required");
    if (!rc) {
        s->base = sweep_abspath(k.base.value, s->dir);
        s->base_line = k.base.line;
        const char *why = sweep_file_problem(s->base);
        if (why)
            rc = study_fail(&c, k.base.line, "base", "'%s' (%s): %s%s", k.base.value,
                      s->base, why, path_hint(k.base.value));
    }
    if (!rc && k.trace.value) {
        s->trace = sweep_abspath(k.trace.value, s->dir);
        s->trace_line = k.trace.line;
        const char *why = sweep_file_problem(s->trace);
        if (why)
            rc = study_fail(&c, k.trace.line, "trace", "'%s' (%s): %s%s", k.trace.value,
                      s->trace, why, path_hint(k.trace.value));
    }
    for (size_t i = 0; !rc && i < s->nset; i++)
        if (study_param_index(s, s->set[i].key) >= 0)
            rc = study_fail(&c, s->set[i].line, s->set[i].key,
                      "both in [set] and in [vary] (line %ld)",
                      s->vary[study_param_index(s, s->set[i].key)].line);
    /* [study] windows sets workload.window for every run. */
    for (size_t i = 0; !rc && s->windows > 0 && i < s->nset; i++)
        if (!strcmp(s->set[i].key, "workload.window"))
            rc = study_fail(&c, s->set[i].line, s->set[i].key,
                      "set by [study] windows (line %ld) for every run",
                      s->windows_line);
    for (size_t i = 0; !rc && s->windows > 0 && i < s->nvary; i++)
        if (!strcmp(s->vary[i].key, "workload.window"))
            rc = study_fail(&c, s->vary[i].line, s->vary[i].key,
                      "set by [study] windows (line %ld) for every run",
                      s->windows_line);
    if (!rc)
        rc = study_vary_distinct(&c);
    if (!rc)
        rc = study_build_baselines(&c, bases, nbases, plots, nplots);
    /* The sweep owns the seed: run r gets seed_base + its replication, and
     * results.csv and the run directories are named by it. A seed set for
     * every run would make the replications one run repeated (sd 0). */
    for (size_t i = 0; !rc && i < s->nset; i++)
        if (!strcmp(s->set[i].key, "simulation.seed"))
            rc = study_fail(&c, s->set[i].line, s->set[i].key, SEED_OWNED);
    for (size_t i = 0; !rc && i < s->nvary; i++)
        if (!strcmp(s->vary[i].key, "simulation.seed"))
            rc = study_fail(&c, s->vary[i].line, s->vary[i].key, SEED_OWNED);
    for (size_t i = 0; !rc && i < s->nbaselines; i++)
        for (size_t j = 0; !rc && j < s->baselines[i].nset; j++)
            if (!strcmp(s->baselines[i].set[j].key, "simulation.seed"))
                rc = study_fail(&c, s->baselines[i].set[j].line, "simulation.seed",
                                SEED_OWNED);
    for (size_t i = 0; !rc && s->windows > 0 && i < s->nbaselines; i++)
        for (size_t j = 0; !rc && j < s->baselines[i].nset; j++)
            if (!strcmp(s->baselines[i].set[j].key, "workload.window"))
                rc = study_fail(&c, s->baselines[i].set[j].line, "workload.window",
                          "set by [study] windows (line %ld) for every run",
                          s->windows_line);
    if (!rc) {
        s->npoints = 1;
        for (size_t i = 0; i < s->nvary && !rc; i++) {
            if (s->npoints > STUDY_MAX_RUNS / s->vary[i].nvalues)
                rc = study_fail(&c, s->vary[i].line, s->vary[i].key,
                          "more than %lu parameter points", STUDY_MAX_RUNS);
            else
                s->npoints *= s->vary[i].nvalues;
        }
        s->nrep = (size_t)(s->windows > 0 ? s->windows : 1) *
                  (size_t)s->replications;
        if (!rc && s->npoints > STUDY_MAX_RUNS / s->nrep)
            rc = study_fail(&c, k.reps_line ? k.reps_line
                          : k.windows_line ? k.windows_line : 1,
                      k.reps_line || !k.windows_line ? "replications"
                                                     : "windows",
                      "more than %lu runs",
                      STUDY_MAX_RUNS);
        s->nruns = s->npoints * s->nrep;
    }
    if (!rc && s->seed_base > (long)INT32_MAX - (s->replications - 1))
        rc = study_fail(&c, k.seed_line ? k.seed_line : 1, "seed_base",
                  "'%ld': with replications = %ld the seeds would go up to "
                  "%ld; need an integer from 1 to %ld (%ld minus "
                  "replications - 1)", s->seed_base, s->replications,
                  s->seed_base + (s->replications - 1),
                  (long)INT32_MAX - (s->replications - 1), (long)INT32_MAX);
    if (!rc) {
        s->plots = xmalloc((nplots ? nplots : 1) * sizeof *s->plots);
        for (size_t i = 0; i < nplots && !rc; i++) {
            rc = study_build_plot(&c, &plots[i], &s->plots[i]);
            if (rc) {
                study_free_plot(&s->plots[i]);
                break;
            }
            s->nplots++;
            for (size_t j = 0; j + 1 < s->nplots && !rc; j++)
                if (!strcmp(s->plots[j].name, s->plots[i].name))
                    rc = study_fail(&c, plots[i].line, "plot",
                              "a second plot named '%s'; name them: "
                              "[plot NAME]", s->plots[i].name);
        }
    }
    study_free_raw(plots, nplots);
    study_free_raw(bases, nbases);
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
        study_free_plot(&s->plots[i]);
    free(s->plots);
    for (size_t i = 0; i < s->nslurm; i++) {
        free(s->slurm[i].key);
        free(s->slurm[i].value);
    }
    free(s->slurm);
    memset(s, 0, sizeof *s);
}
