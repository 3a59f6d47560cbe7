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
 *   [plugins]                             ; plugins (issue 34), loaded
 *   load = ../../build/examples/plugins/p2c.so ; before [set] and [vary]
 *                                         ; are checked; each run gets
 *                                         ; --plugin PATH for each
 *
 * The file is read as scenario files are (app/ini_reader.c, through
 * inih): comments start with ';' or '#' at the start of a line or after
 * white space (a '#' inside a value, a#b, is kept), and key: value is
 * key = value. An indented line without '=' continues the value of the
 * line above (joined with a space), for long lists. Section and key names are case-insensitive (stored in lower case);
 * values keep their case. Relative paths (base, trace, [plugins] load's
 * files, and workload.trace,
 * process.fault_curve and fault_curves' files in [set] or [vary]) are taken from the directory of the study file, so a
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
 * This file is the top of the reader: study_load opens the file, has
 * study/sections.c read its lines, sections and [study]/[set]/[slurm]
 * keys (with study/values.c expanding [vary] lists and ranges), then
 * checks the study as a whole, has study/resolve.c build the [plot] and
 * [baseline] sections, and counts points and runs; study_free releases a
 * study. The reader's parts share study/parse.h (the parsing context and
 * study_fail, study/parse.c) and study/text.h (small text helpers). What
 * a loaded study is used for lives below it, needing only its types
 * (study/types.h): study/points.c numbers its runs (points, windows,
 * seeds), study/fingerprint.c names their directories and records what
 * they were made with. In study/'s layers, from the bottom: util.c,
 * text.c, parse.c, points.c, values.c, resolve.c, sections.c, study.c.
 */
#include "study/study.h"
#include "app/config.h"
#include "app/plugin.h"
#include "study/parse.h"
#include "study/resolve.h"
#include "study/sections.h"
#include "study/text.h"
#include "study/util.h"
#include "study/values.h"

#include <errno.h>
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

/* The file name of path without its directory and its last extension
 * (the default study name). Newly allocated. */
static char *file_stem(const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    const char *dot = strrchr(b, '.');
    size_t n = dot && dot != b ? (size_t)(dot - b) : strlen(b);
    return xstrndup(b, n);
}

/* Load the study file's [plugins] load items (s->plugins, made absolute
 * from the study file's directory in place). 0, or -1 (reported against
 * the load line, with pnrsim's reason: a missing file, not a plugin, a
 * wrong API version, a refused registration). */
static int load_study_plugins(study_parse_ctx *c)
{
    study *s = c->s;
    char from[64 + CFG_PATH_MAX];
    snprintf(from, sizeof from, "%s:%ld", s->path, s->plugins_line);
    for (size_t i = 0; i < s->nplugins; i++) {
        char *abs = sweep_abspath(s->plugins[i], s->dir);
        cfg_error pe;
        int r = plugin_load(abs, from, NULL, 0, &pe);
        const char *hint = path_hint(s->plugins[i]);
        free(s->plugins[i]);
        s->plugins[i] = abs;
        if (r != 0)
            return study_fail(c, s->plugins_line, "load", "[plugins] %s%s", pe.what,
                              hint);
    }
    return 0;
}

int study_load(study *s, const char *path, char err[STUDY_ERR_MAX])
{
    memset(s, 0, sizeof *s);
    study_parse_ctx c = {path, err, s};
    err[0] = '\0';
    size_t len;
    char *text = util_read_file(path, 0, &len, NULL);
    if (!text) {
        snprintf(err, STUDY_ERR_MAX, "%s: %s", path, strerror(errno));
        return -1;
    }
    s->path = xstrdup(path);
    char *d = sweep_dirname(path);
    s->dir = sweep_abspath(d, NULL);
    free(d);
    s->replications = 1;
    s->seed_base = 1;
    study_keys k = {.base = {NULL, 0}, .trace = {NULL, 0}}; /* the rest 0 */
    study_raw *plots = NULL, *bases = NULL;
    size_t nplots = 0, nbases = 0;
    int rc = study_read_sections(&c, text, len, &k, &plots, &nplots, &bases, &nbases);
    free(text);

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
    /* The study file's plugins ([plugins] load), then the base's (its
     * [plugins] load), in the order pnrsim loads them in each run (--plugin
     * first, then the -c file's), so that their names and [plugin.NAME]
     * keys are known to [vary], [set] and the checks (issue 34). */
    if (!rc)
        rc = load_study_plugins(&c);
    cfg_error pe;
    if (!rc && plugin_load_ini_file(s->base, &pe) != 0) {
        char msg[CFG_MESSAGE_MAX];
        config_error_message(&pe, msg, sizeof msg);
        rc = study_fail(&c, k.base.line, "base", "%s", msg);
    }
    /* What the fingerprint records of them: file name and SHA-256. */
    for (size_t i = 0; !rc && i < plugin_count(); i++) {
        const plugin_info *pi = plugin_at(i);
        const char *b = strrchr(pi->path, '/');
        s->plugin_sums = xrealloc(s->plugin_sums,
                                  (s->nplugin_sums + 1) * sizeof *s->plugin_sums);
        s->plugin_sums[s->nplugin_sums++] =
            xasprintf("%s %s", b ? b + 1 : pi->path, pi->sha256);
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
    for (size_t i = 0; i < s->nplugins; i++)
        free(s->plugins[i]);
    free(s->plugins);
    for (size_t i = 0; i < s->nplugin_sums; i++)
        free(s->plugin_sums[i]);
    free(s->plugin_sums);
    memset(s, 0, sizeof *s);
}
