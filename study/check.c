/* study/check.c: every run's configuration checked before anything runs.
 *
 * For each parameter point the configuration is built by the function
 * pnrsim builds it with (config_build, app/config_build.c), from the
 * command line the sweep gives it: -c BASE, -t TRACE, then the --set
 * assignments of the point in order (sweep_point_assigns). The seed is left
 * out: every seed_base..seed_base+replications-1 is a valid seed.
 * config_build says which input it refused (cfg_error), so no message text
 * is parsed back.
 *
 * A problem is reported against the study line it comes from:
 *   - config_load of the base fails: the [study] base line;
 *   - -t TRACE is refused: the [study] trace line;
 *   - a --set is refused (unknown key, bad value): the line of that [set],
 *     [vary] or [baseline] key;
 *   - config_validate fails (a cross-key constraint, e.g. server_threshold
 *     >= ram): the assignment after which the configuration stops being
 *     valid for good (the last one that turns a valid prefix of the
 *     assignments into an invalid one), or base when the base alone is
 *     invalid; the point is named in the message;
 *   - no trace at all, a trace file that does not exist, or "-" (standard
 *     input, which the runs cannot share): the line that gave the trace
 *     (workload.trace, [study] trace, or base);
 *   - [study] windows = K with max_jobs = 0, or with fewer than K x
 *     max_jobs jobs in the trace that pass the point's filters (the trace
 *     is read once per distinct trace and filter settings): the windows
 *     line.
 * Points are checked in run order and the first problem is reported.
 * Keys that have no effect at a point (config_ignored: rack_size without a
 * TREE topology, memory servers without network RAM) are not problems: a
 * sweep may vary the topology with rack_size fixed; each such key is warned
 * about once, at the first point where it has no effect.
 */
#include "study/sweep.h"

#include "app/config.h"
#include "app/config_notes.h"
#include "app/workload.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Build the configuration of a run with the first k assignments of a, as
 * pnrsim does. 0 or -1 (e). */
static int build(const study *s, const sweep_assign *a, size_t k, config *c,
                 cfg_error *e)
{
    const char **sets = xmalloc((k ? k : 1) * sizeof *sets);
    for (size_t i = 0; i < k; i++)
        sets[i] = a[i].arg;
    const char *files[] = {s->base};
    config_args args = {files, 1, s->trace, NULL, sets, k, NULL, NULL};
    int rc = config_build(c, &args, e);
    free(sets);
    return rc;
}

/* Jobs of a trace that pass the workload filters of a configuration
 * (max_jobs and window aside), remembered per trace and filters so that
 * points that differ only in other keys read the trace once. */
typedef struct jobs_cache {
    char **key;
    long *jobs;
    size_t n;
    char **warned;   /* keys already warned about (warn_ignored) */
    size_t nwarned;
} jobs_cache;

/* The filters that decide which jobs pass, as a text. */
static char *filter_key(const config *c)
{
    sweep_buf b = {0};
    sweep_buf_printf(&b, "%s|%d|%.17g|%.17g|%d|%d|%d", c->workload.trace,
                     (int)c->workload.cpu_demand, c->workload.submit_min,
                     c->workload.submit_max, c->computer.number,
                     (int)c->workload.lenient, c->workload.n_exclude_status);
    for (int i = 0; i < c->workload.n_exclude_status; i++)
        sweep_buf_printf(&b, "|%d", c->workload.exclude_status[i]);
    return b.p;
}

/* With [study] windows = K, every point needs max_jobs > 0 and a trace
 * with at least K x max_jobs jobs that pass its filters, so that each
 * window holds max_jobs jobs. 0 or -1 (err). */
static int check_windows(const study *s, const config *pc, size_t point,
                         jobs_cache *cache, char *err, size_t errlen)
{
    char *label = sweep_run_label(s, point * s->nrep);
    char *at = strstr(label, "window=");
    if (at)
        *(at > label ? at - 1 : at) = '\0';
    const char *open = *label ? " (at " : "", *close = *label ? ")" : "";
    long m = pc->workload.max_jobs;
    int rc = 0;
    if (m <= 0) {
        snprintf(err, errlen,
                 "%s:%ld: windows: a window is workload.max_jobs jobs long: "
                 "set workload.max_jobs > 0%s%s%s", s->path, s->windows_line,
                 open, label, close);
        rc = -1;
    } else if (s->windows > LONG_MAX / m) {
        snprintf(err, errlen, "%s:%ld: windows: %ld windows of %ld jobs: "
                 "too many jobs", s->path, s->windows_line, s->windows, m);
        rc = -1;
    }
    if (rc || !strcmp(pc->workload.trace, "-")) {
        free(label);
        return rc;
    }
    char *key = filter_key(pc);
    long jobs = -1;
    for (size_t i = 0; i < cache->n && jobs < 0; i++)
        if (!strcmp(cache->key[i], key))
            jobs = cache->jobs[i];
    if (jobs < 0) {
        config c = *pc;
        c.workload.max_jobs = 0;
        c.workload.window = 0;
        char e[CFG_ERR_MAX];
        workload *w = workload_open(c.workload.trace, &c, c.computer.number, e);
        wl_job job;
        int r = 0;
        jobs = 0;
        while (w && (r = workload_next(w, &job, e)) == 1)
            jobs++;
        if (w)
            workload_close(w);
        if (!w || r < 0) {
            snprintf(err, errlen, "%s:%ld: windows: reading the trace: %s%s%s%s",
                     s->path, s->windows_line, e, open, label, close);
            free(key);
            free(label);
            return -1;
        }
        cache->key = xrealloc(cache->key, (cache->n + 1) * sizeof *cache->key);
        cache->jobs = xrealloc(cache->jobs, (cache->n + 1) * sizeof *cache->jobs);
        cache->key[cache->n] = key;
        cache->jobs[cache->n++] = jobs;
        key = NULL;
    }
    free(key);
    if (jobs < s->windows * m) {
        snprintf(err, errlen,
                 "%s:%ld: windows: %ld windows of max_jobs = %ld jobs need "
                 "%ld jobs, but only %ld of the trace pass the filters "
                 "(submit_min/max, statuses, width)%s%s%s", s->path,
                 s->windows_line, s->windows, m, s->windows * m, jobs, open,
                 label, close);
        rc = -1;
    }
    free(label);
    return rc;
}

/* Keys of a point's configuration that have no effect (config_ignored):
 * a warning on stderr, once per key for the whole study, naming the first
 * point where it happens (pnrsim repeats it in each run's stderr.txt). */
static void warn_ignored(const study *s, const config *c, size_t point, jobs_cache *cache)
{
    cfg_note notes[CFG_IGNORED_MAX];
    size_t n = config_ignored(c, notes, CFG_IGNORED_MAX);
    if (n > CFG_IGNORED_MAX)
        fprintf(stderr, "pnrsim-sweep: warning: %s: %zu keys without effect, %d named below\n",
                s->path, n, CFG_IGNORED_MAX);
    for (size_t i = 0; i < n && i < CFG_IGNORED_MAX; i++) {
        bool seen = false;
        for (size_t k = 0; k < cache->nwarned && !seen; k++)
            seen = !strcmp(cache->warned[k], notes[i].key);
        if (seen)
            continue;
        cache->warned = xrealloc(cache->warned, (cache->nwarned + 1) * sizeof *cache->warned);
        cache->warned[cache->nwarned++] = xstrdup(notes[i].key);
        char *label = sweep_run_label(s, point * s->nrep);
        char *at = strstr(label, s->windows > 0 ? "window=" : "seed=");
        if (at)
            *(at > label ? at - 1 : at) = '\0';
        fprintf(stderr, "pnrsim-sweep: warning: %s: %s%s%s%s\n", s->path, notes[i].what,
                *label ? " (first at " : "", label, *label ? ")" : "");
        free(label);
    }
}

/* Check one point. 0 or -1 (err). */
static int check_point(const study *s, size_t point, jobs_cache *cache,
                       char *err, size_t errlen)
{
    sweep_assign *a;
    size_t n = sweep_point_assigns(s, point, &a);
    config c;
    cfg_error e;
    int rc = 0;
    if (build(s, a, n, &c, &e) != 0) {
        char msg[CFG_ERR_MAX];
        rc = -1;
        if (e.source == CFG_SRC_FILE) {
            config_error_message(&e, msg, sizeof msg);
            snprintf(err, errlen, "%s:%ld: base: %s", s->path, s->base_line, msg);
        } else if (e.source == CFG_SRC_TRACE) {
            snprintf(err, errlen, "%s:%ld: trace: %s", s->path, s->trace_line, e.what);
        } else if (e.source == CFG_SRC_SET) {
            snprintf(err, errlen, "%s:%ld: %s: %s", s->path, a[e.index].line,
                     a[e.index].key, e.what);
        } else {
            /* Invalid as a whole: blame the assignment after the last
             * valid prefix (the base when none is valid). */
            size_t k = n;
            config p;
            cfg_error pe;
            while (k > 0 && build(s, a, k - 1, &p, &pe) != 0)
                k--;
            config_error_message(&e, msg, sizeof msg);
            char *label = sweep_run_label(s, point * s->nrep);
            char *at = strstr(label, s->windows > 0 ? "window=" : "seed=");
            if (at)
                *(at > label ? at - 1 : at) = '\0';
            if (k == 0)
                snprintf(err, errlen, "%s:%ld: base: %s%s%s%s", s->path,
                         s->base_line, msg, *label ? " (at " : "", label,
                         *label ? ")" : "");
            else
                snprintf(err, errlen, "%s:%ld: %s: '%s': %s%s%s%s", s->path,
                         a[k - 1].line, a[k - 1].key, a[k - 1].value, msg,
                         *label ? " (at " : "", label, *label ? ")" : "");
            free(label);
        }
    }
    const char *why = NULL;
    bool stdin_trace = !rc && !strcmp(c.workload.trace, "-");
    if (stdin_trace)
        why = "standard input cannot be shared by the runs (each run reads "
              "its trace from a file; pnrsim-sweep gives runs /dev/null as "
              "input): give a trace file";
    if (!rc && (why || !c.workload.trace[0] ||
                (why = sweep_file_problem(c.workload.trace)) != NULL)) {
        /* Who gave the trace: the last workload.trace assignment, else
         * [study] trace, else the base file. */
        long line = s->trace ? s->trace_line : s->base_line;
        const char *key = s->trace ? "trace" : "base";
        const char *value = NULL;
        for (size_t i = 0; i < n; i++)
            if (!strcmp(a[i].key, "workload.trace")) {
                line = a[i].line;
                key = a[i].key;
                value = a[i].value;
            }
        if (!c.workload.trace[0])
            snprintf(err, errlen,
                     "%s:%ld: trace: no trace: give [study] trace = FILE, "
                     "workload.trace in [set], or [workload] trace in the "
                     "base configuration", s->path, s->base_line);
        else if (stdin_trace)
            snprintf(err, errlen, "%s:%ld: %s: trace '-': %s", s->path, line,
                     key, why);
        else if (value)
            snprintf(err, errlen,
                     "%s:%ld: %s: '%s' (%s): %s%s", s->path, line, key,
                     value, c.workload.trace, why,
                     value[0] == '/' ? ""
                                     : " (relative paths are taken from the "
                                       "study file's directory)");
        else
            snprintf(err, errlen, "%s:%ld: %s: trace %s: %s",
                     s->path, line, key, c.workload.trace, why);
        rc = -1;
    }
    if (!rc && s->windows > 0)
        rc = check_windows(s, &c, point, cache, err, errlen);
    if (!rc)
        warn_ignored(s, &c, point, cache);
    sweep_assign_free(a, n);
    return rc;
}

int sweep_check_configs(const study *s, char *err, size_t errlen)
{
    jobs_cache cache = {NULL, NULL, 0, NULL, 0};
    int rc = 0;
    for (size_t p = 0; p < s->npoints && !rc; p++)
        rc = check_point(s, p, &cache, err, errlen);
    for (size_t i = 0; i < cache.n; i++)
        free(cache.key[i]);
    free(cache.key);
    free(cache.jobs);
    for (size_t i = 0; i < cache.nwarned; i++)
        free(cache.warned[i]);
    free(cache.warned);
    return rc;
}
