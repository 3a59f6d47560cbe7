/* study/sections.c: reading a study file's sections and keys.
 *
 * The first step of study_load (study/study.c; the format is described
 * there and in docs/STUDIES.md). The file is read by app/ini_reader.c,
 * through inih, as scenario files are (one comment rule, one set of
 * messages for text that is not INI), with the one extension the study
 * syntax needs: indented continuation lines joined to the key = value
 * line above, for long lists. Here the headers become sections ([study],
 * [vary], [set], [baseline NAME], [plot [NAME]], [slurm], [plugins]) and
 * their key = value lines are taken in: [study] keys checked and stored,
 * [plugins] load's items kept as given, [vary] values expanded by
 * study/values.c, [set] and [slurm] lines kept in file order, and [plot]
 * and [baseline] sections kept raw for study/resolve.c. In study/'s
 * layers it sits above study/values.c, study/parse.c and study/text.c,
 * below study/study.c.
 */
#include "study/sections.h"
#include "study/text.h"
#include "study/util.h"
#include "study/values.h"

#include "app/config.h"
#include "app/ini_reader.h"

#include <ctype.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

/* One [study] key = value line into c->s (base and trace into k, resolved
 * once the whole file is read). 0, or -1 (reported) for an unknown key, a
 * key given twice or a value out of its range. */
static int parse_study_key(study_parse_ctx *c, study_keys *k, const char *key,
                           const char *value, long line)
{
    study *s = c->s;
    /* Each [study] key once, as pnrsim's own configuration files: which
     * of two would count is not obvious. */
    long *first = !strcmp(key, "name")           ? &k->name_line
                : !strcmp(key, "replications")   ? &k->reps_line
                : !strcmp(key, "seed_base")      ? &k->seed_line
                : !strcmp(key, "windows")        ? &k->windows_line
                : !strcmp(key, "metrics")        ? &k->metrics_line
                                                 : NULL;
    if (first && *first)
        return study_fail(c, line, key, "given twice (first on line %ld)", *first);
    if (first)
        *first = line;
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
    } else if (!strcmp(key, "seed_base")) {
        if (!study_parse_long(value, &s->seed_base) || s->seed_base < 1 ||
            s->seed_base > (long)INT32_MAX)
            return study_fail(c, line, key,
                        "'%s': need an integer from 1 to %ld minus "
                        "(replications - 1), so that the last seed is at most "
                        "%ld (pnrsim takes seed 0 as 'from the clock')",
                        value, (long)INT32_MAX, (long)INT32_MAX);
    } else if (!strcmp(key, "windows")) {
        if (!study_parse_long(value, &s->windows) || s->windows < 1 ||
            s->windows > 100000)
            return study_fail(c, line, key,
                        "'%s': need an integer from 1 to 100000 (trace "
                        "windows of workload.max_jobs jobs per point)", value);
        s->windows_line = line;
    } else if (!strcmp(key, "metrics")) {
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

/* The reader's state between the callbacks of app/ini_reader.c. */
typedef struct reading {
    study_parse_ctx *c;
    study_keys *k;
    study_raw **plots, **bases;
    size_t *nplots, *nbases;
    section sec;
    bool seen[SEC_PLUGINS + 1];
} reading;

/* The section names, by section. */
static const char *const section_name[] = {
    [SEC_STUDY] = "study", [SEC_VARY] = "vary", [SEC_SET] = "set",
    [SEC_PLOT] = "plot", [SEC_BASELINE] = "baseline", [SEC_SLURM] = "slurm",
    [SEC_PLUGINS] = "plugins",
};

/* A header: "[NAME]", "[plot NAME]" or "[baseline NAME]" (name is the
 * text between the brackets, trimmed). 0, or -1 (reported). */
static int read_header(void *user, char *name, long line)
{
    reading *r = user;
    study_parse_ctx *c = r->c;
    char *arg = name + strcspn(name, " \t");
    if (*arg) {
        *arg++ = '\0';
        arg = study_trim(arg);
    }
    study_lower(name);
    r->sec = SEC_NONE;
    for (int i = SEC_STUDY; i <= SEC_PLUGINS; i++)
        if (!strcmp(name, section_name[i]))
            r->sec = (section)i;
    if (r->sec == SEC_NONE) {
        /* Say what was probably meant: a near section of the study file
         * ([vray] -> [vary]), or for a section of pnrsim's configuration
         * ([computer]) where its keys go. */
        const char *near = NULL;
        for (int i = SEC_STUDY; i <= SEC_PLUGINS && !near; i++)
            if (config_is_near(name, section_name[i]))
                near = section_name[i];
        if (near)
            return study_fail(c, line, name, "unknown section (study, vary, set, baseline, "
                                             "plot, slurm, plugins); did you mean [%s]?",
                              near);
        if (config_is_section(name))
            return study_fail(c, line, name, "a section of pnrsim's configuration, not of "
                                             "a study file: write its keys as %s.KEY = "
                                             "VALUE in [set] (or [vary]), or in the base",
                              name);
        return study_fail(c, line, name, "unknown section (study, vary, set, baseline, "
                                         "plot, slurm, plugins)");
    }
    if (*arg && r->sec != SEC_PLOT && r->sec != SEC_BASELINE)
        return study_fail(c, line, name, "this section takes no name");
    if (r->sec == SEC_BASELINE) {
        if (!*arg)
            return study_fail(c, line, name, "needs a name: [baseline NAME] "
                                             "(e.g. [baseline disk])");
        if (!study_is_name(arg))
            return study_fail(c, line, name, "'%s': use letters, digits, "
                                             "'.', '_' and '-'", arg);
        for (size_t i = 0; i < *r->nbases; i++)
            if (!strcmp((*r->bases)[i].name, arg))
                return study_fail(c, line, name, "a second baseline named '%s' (first "
                                  "on line %ld)", arg, (*r->bases)[i].line);
    } else if (r->sec != SEC_PLOT && r->seen[r->sec]) {
        return study_fail(c, line, name, "section given twice");
    }
    r->seen[r->sec] = true;
    if (r->sec == SEC_PLOT || r->sec == SEC_BASELINE) {
        study_raw **v = r->sec == SEC_PLOT ? r->plots : r->bases;
        size_t *n = r->sec == SEC_PLOT ? r->nplots : r->nbases;
        *v = xrealloc(*v, (*n + 1) * sizeof **v);
        (*v)[(*n)++] = (study_raw){*arg ? xstrdup(arg) : NULL, NULL, 0, line};
    }
    return 0;
}

/* A [slurm] key = value line into c->s. 0, or -1 (reported). */
static int slurm_key(study_parse_ctx *c, const char *key, const char *value, long line)
{
    for (const char *q = key; *q; q++)
        if (!(islower((unsigned char)*q) || isdigit((unsigned char)*q) || *q == '-' ||
              *q == '_'))
            return study_fail(c, line, key, "not an sbatch option name");
    if (slurm_key_problem(c, key, line))
        return -1;
    long m;
    if (!strcmp(key, "array_max") && (!study_parse_long(value, &m) || m < 1))
        return study_fail(c, line, key, "'%s': need an integer >= 1", value);
    return kv_add(c, &c->s->slurm, &c->s->nslurm, key, value, line, "given twice");
}

/* One key = value line of the current section. 0, or -1 (reported). */
static int take_key(reading *r, const char *key, char *value, long line)
{
    study_parse_ctx *c = r->c;
    study *s = c->s;
    if (!*key)
        return study_fail(c, line, NULL, "missing key before '='");
    if (!*value)
        return study_fail(c, line, key, "empty value");
    if (study_has_ctrl(value))
        return study_fail(c, line, key, "control character in the value");
    if ((r->sec == SEC_SET || r->sec == SEC_VARY || r->sec == SEC_BASELINE) &&
        !strncmp(key, "plugins.", 8))
        return study_fail(c, line, key, PLUGINS_OWN_SECTION);
    switch (r->sec) {
    case SEC_NONE:
        return study_fail(c, line, key, "outside any section (start with [study])");
    case SEC_STUDY:
        return parse_study_key(c, r->k, key, value, line);
    case SEC_PLUGINS:
        return parse_plugins_key(c, key, value, line);
    case SEC_VARY:
        return study_parse_vary(c, key, value, line);
    case SEC_SET:
        if (!study_is_param_key(key))
            return study_not_param_key(c, line, key, "");
        return kv_add(c, &s->set, &s->nset, key, value, line, "set twice");
    case SEC_BASELINE: {
        study_raw *rb = &(*r->bases)[*r->nbases - 1];
        if (strcmp(key, "lines") != 0 && !study_is_param_key(key))
            return study_not_param_key(c, line, key, " nor lines = KEY");
        return kv_add(c, &rb->kv, &rb->nkv, key, value, line,
                      "given twice in this baseline");
    }
    case SEC_PLOT: {
        study_raw *rp = &(*r->plots)[*r->nplots - 1];
        return kv_add(c, &rp->kv, &rp->nkv, key, value, line, NULL);
    }
    case SEC_SLURM:
        return slurm_key(c, key, value, line);
    }
    return 0;
}

/* app/ini_reader.c's key = value callback: the key in lower case. */
static int read_pair(void *user, const char *inih_section, const char *key, const char *value,
                   long line)
{
    (void)inih_section; /* on_section keeps the section, in full */
    char *k = xstrdup(key), *v = xstrdup(value);
    study_lower(k);
    int rc = take_key(user, k, v, line);
    free(k);
    free(v);
    return rc == 0;
}

static void read_bad_text(void *user, long line, const char *msg)
{
    study_fail(((reading *)user)->c, line, NULL, "%s", msg);
}

/* Contract: study/sections.h. */
int study_read_sections(study_parse_ctx *c, const char *text, size_t len, study_keys *k,
                        study_raw **plots, size_t *nplots, study_raw **bases,
                        size_t *nbases)
{
    if (len > INT_MAX - 16)
        return study_fail(c, 1, NULL, "too large for a study file");
    reading r = {c, k, plots, bases, nplots, nbases, SEC_NONE, {false}};
    ini_reader_spec spec = {text, len, (int)len + 16, true, read_header, read_pair,
                            read_bad_text, &r};
    return ini_reader_parse(&spec);
}
