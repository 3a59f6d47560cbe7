/* study/sections.c: reading a study file's lines into sections and keys.
 *
 * The first step of study_load (study/study.c; the format is described
 * there and in docs/STUDIES.md): the file becomes logical lines (comments
 * cut, blank lines dropped, indented continuation lines joined, a NUL byte
 * refused), then sections ([study], [vary], [set], [baseline NAME],
 * [plot [NAME]], [slurm], [plugins]) and their key = value lines. [study]
 * keys are checked and stored here, [plugins] load's items kept as given, [vary] values are expanded by study/values.c,
 * [set] and [slurm] lines are kept in file order, and [plot] and
 * [baseline] sections stay raw for study/resolve.c. In study/'s layers it
 * sits above study/values.c, study/parse.c and study/text.c, below
 * study/study.c.
 */
#include "study/sections.h"
#include "study/text.h"
#include "study/util.h"
#include "study/values.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

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

/* One [study] key = value line into c->s (base and trace into k, resolved
 * once the whole file is read). 0, or -1 (reported) for an unknown key, a
 * key given twice or a value out of its range. */
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
        study_path_line *pp = !strcmp(key, "base") ? &k->base : &k->trace;
        if (pp->value && !strcmp(key, "base"))
            return study_fail(c, line, key, "given twice (first on line %ld): a "
                        "study has one base configuration (pnrsim -c); to "
                        "layer a scenario on a machine preset, name the "
                        "preset as base and put the scenario's keys in [set]",
                        pp->line);
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

typedef enum {
    SEC_NONE, SEC_STUDY, SEC_VARY, SEC_SET, SEC_PLOT, SEC_BASELINE, SEC_SLURM,
    SEC_PLUGINS
} section;

/* Why [set], [vary] and [baseline] may not name a [plugins] key: pnrsim
 * refuses --set plugins.load, and the study has a section for it. */
#define PLUGINS_OWN_SECTION                                                    \
    "a study loads plugins in its own [plugins] section: load = FILE.so, "    \
    "FILE.so (paths relative to the study file), and every run gets them"

/* The [plugins] load = a.so, b.so line: the items into s->plugins, as
 * given (study_load resolves and loads them). 0, or -1 (reported). */
static int parse_plugins_key(study_parse_ctx *c, const char *key, const char *value,
                             long line)
{
    study *s = c->s;
    if (strcmp(key, "load") != 0)
        return study_fail(c, line, key, "unknown key in [plugins] (load = FILE.so, "
                          "FILE.so)");
    if (s->plugins_line)
        return study_fail(c, line, key, "given twice (first on line %ld)",
                          s->plugins_line);
    s->plugins_line = line;
    char *v = xstrdup(value);
    int r = study_parse_list(c, key, v, line, &s->plugins, &s->nplugins);
    free(v);
    return r;
}

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

/* Contract: study/sections.h. */
int study_read_sections(study_parse_ctx *c, FILE *f, study_keys *k,
                        study_raw **plots, size_t *nplots, study_raw **bases,
                        size_t *nbases)
{
    study *s = c->s;
    section sec = SEC_NONE;
    lline *lines;
    long nlines = read_lines(c, f, &lines);
    if (nlines < 0)
        return -1;
    int rc = 0;
    bool seen[SEC_PLUGINS + 1] = {false};
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
            else if (!strcmp(name, "plugins"))
                sec = SEC_PLUGINS;
            else {
                rc = study_fail(c, lineno, name,
                          "unknown section (study, vary, set, baseline, "
                          "plot, slurm, plugins)");
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
        if ((sec == SEC_SET || sec == SEC_VARY || sec == SEC_BASELINE) &&
            !strncmp(key, "plugins.", 8)) {
            rc = study_fail(c, lineno, key, PLUGINS_OWN_SECTION);
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
        case SEC_PLUGINS:
            rc = parse_plugins_key(c, key, value, lineno);
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
