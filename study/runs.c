/* study/runs.c: where a study's runs live and what state each one is in.
 *
 * Run r (point r / nrep, seed seed_base + r % replications) lives in
 * OUT/runs/POINT/seed-S, or OUT/runs/POINT/window-W/seed-S in a study with
 * trace windows (run with --set workload.window=W after the point's
 * assignments), POINT being study_point_dirname: the name is
 * made of the parameter values, not of indices, so adding values or seeds
 * to a study later keeps the runs already made (a baseline's value is
 * written @NAME; its runs get the baseline's overrides instead of --set for
 * its key, and the [set] lines it overrides are left out). A run is written
 * into seed-S.part and renamed to seed-S only when pnrsim succeeded (by the
 * built-in runner and by the emitted job-list commands alike), so seed-S
 * always holds a whole run. The state of a run is read from the disk alone,
 * which is what makes a study resumable and lets `collect` work on runs made
 * anywhere:
 *
 *   done     seed-S/metrics.json is a complete JSON object without
 *            "partial": true
 *   failed   seed-S.part/ holds an exit-status file (written by the
 *            built-in runner and by the job-list commands) that is not an
 *            interruption, or seed-S/ holds an incomplete or partial
 *            metrics.json
 *   missing  anything else: never started, still running, or interrupted:
 *            a seed-S.part/ without exit-status (the built-in runner
 *            writes none for the runs it stops), or whose exit-status says
 *            pnrsim was interrupted (exit 129, 130 or 143: 128 + the number
 *            of SIGHUP, SIGINT or SIGTERM, or killed by one of these
 *            signals: a job-list run stopped by GNU parallel or Slurm)
 */
#include "study/fingerprint.h"
#include "study/points.h"
#include "study/sweep.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sweep_layout_init(sweep_layout *L, const study *s, const char *out)
{
    L->s = s;
    L->out = sweep_abspath(out, NULL);
    L->pointdir = xmalloc(s->npoints * sizeof *L->pointdir);
    for (size_t p = 0; p < s->npoints; p++) {
        char *name = study_point_dirname(s, p);
        L->pointdir[p] = xasprintf("%s/runs/%s", L->out, name);
        free(name);
    }
}

void sweep_layout_free(sweep_layout *L)
{
    if (L->pointdir)
        for (size_t p = 0; p < L->s->npoints; p++)
            free(L->pointdir[p]);
    free(L->pointdir);
    free(L->out);
    L->pointdir = NULL;
    L->out = NULL;
}

char *sweep_run_dir(const sweep_layout *L, size_t run, bool part)
{
    const study *s = L->s;
    long w = study_run_window(s, run);
    if (w >= 0)
        return xasprintf("%s/window-%ld/seed-%ld%s",
                               L->pointdir[study_run_point(s, run)], w,
                               study_run_seed(s, run), part ? ".part" : "");
    return xasprintf("%s/seed-%ld%s", L->pointdir[study_run_point(s, run)],
                           study_run_seed(s, run), part ? ".part" : "");
}

/* The last non-empty line of a file, trimmed, or NULL. */
static char *last_line(const char *path)
{
    char *text = util_read_file(path, 0, NULL, NULL);
    if (!text)
        return NULL;
    char *end = text + strlen(text);
    while (end > text && (end[-1] == '\n' || end[-1] == '\r' ||
                          end[-1] == ' ' || end[-1] == '\t'))
        end--;
    *end = '\0';
    char *start = strrchr(text, '\n');
    start = start ? start + 1 : text;
    char *line = *start ? xstrdup(start) : NULL;
    free(text);
    return line;
}

/* True when an exit-status line says the run was interrupted rather than
 * failed: "exit 130" / "exit 143" (pnrsim stopped by SIGINT / SIGTERM) or
 * "killed by signal N" for SIGHUP, SIGINT, SIGTERM. */
static bool interrupted(const char *status)
{
    static const char *const words[] = {
        "exit 129", "exit 130", "exit 143", "killed by signal 1", "killed by signal 2",
        "killed by signal 15"};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (!strcmp(status, words[i]))
            return true;
    return false;
}

sweep_run_state sweep_run_state_of(const sweep_layout *L, size_t run,
                                   char **why)
{
    if (why)
        *why = NULL;
    char *dir = sweep_run_dir(L, run, false);
    char *mpath = xasprintf("%s/metrics.json", dir);
    sweep_run_state st = SWEEP_RUN_MISSING;
    if (sweep_is_dir(dir)) {
        sweep_metrics ms;
        char err[512];
        if (sweep_metrics_read(mpath, &ms, err, sizeof err) == 0) {
            st = ms.partial ? SWEEP_RUN_FAILED : SWEEP_RUN_DONE;
            if (ms.partial && why)
                *why = xasprintf("%s: a partial result", mpath);
            sweep_metrics_free(&ms);
        } else {
            st = SWEEP_RUN_FAILED;
            if (why)
                *why = xstrdup(err);
        }
    }
    free(mpath);
    free(dir);
    if (st == SWEEP_RUN_DONE)
        return st;
    char *part = sweep_run_dir(L, run, true);
    char *epath = xasprintf("%s/exit-status", part);
    char *spath = xasprintf("%s/stderr.txt", part);
    char *status = last_line(epath);
    char *msg = last_line(spath);
    if (st == SWEEP_RUN_MISSING && status && !interrupted(status)) {
        st = SWEEP_RUN_FAILED;
        if (why)
            *why = xasprintf("%s%s%s (%s)", status, msg ? ": " : "",
                                   msg ? msg : "", spath);
    } else if (st == SWEEP_RUN_MISSING && (status || msg) && why) {
        *why = xasprintf("interrupted%s%s%s%s (%s)",
                               status ? ", " : "", status ? status : "",
                               msg ? ": " : "", msg ? msg : "", spath);
    }
    free(status);
    free(msg);
    free(epath);
    free(spath);
    free(part);
    return st;
}

char *sweep_run_label(const study *s, size_t run)
{
    size_t point = study_run_point(s, run);
    sweep_buf b = {0};
    for (size_t i = 0; i < s->nvary; i++)
        sweep_buf_printf(&b, "%s=%s%s ", s->vary[i].key,
                         study_value_baseline(s, point, i) ? "@" : "",
                         study_value(s, point, i));
    if (study_run_window(s, run) >= 0)
        sweep_buf_printf(&b, "window=%ld ", study_run_window(s, run));
    sweep_buf_printf(&b, "seed=%ld", study_run_seed(s, run));
    return b.p;
}

/* process.fault_curves' value (APP:FILE items separated by commas, issue
 * 33) with each relative FILE taken from the study file's directory; an
 * item without ':' is passed as it is (pnrsim's check refuses it). */
static char *curves_arg(const study *s, const char *value)
{
    sweep_buf b = {0};
    sweep_buf_puts(&b, "process.fault_curves=");
    for (const char *p = value; *p;) {
        size_t n = strcspn(p, ",");
        const char *colon = memchr(p, ':', n);
        size_t skip = colon ? strspn(colon + 1, " \t") : 0;
        if (colon && colon[1 + skip] != '/' && (size_t)(colon + 1 + skip - p) < n) {
            char *file = xstrndup(colon + 1 + skip, n - (size_t)(colon + 1 + skip - p));
            char *abs = sweep_abspath(file, s->dir);
            sweep_buf_add(&b, p, (size_t)(colon + 1 - p));
            sweep_buf_puts(&b, abs);
            free(abs);
            free(file);
        } else {
            sweep_buf_add(&b, p, n);
        }
        p += n;
        if (*p == ',')
            sweep_buf_add(&b, p++, 1);
    }
    return b.p;
}

/* "key=value" for --set; a relative workload.trace or process.fault_curve
 * (and each FILE of process.fault_curves) is taken from the study file's
 * directory, like [study] trace, so that it means the same to every
 * runner whatever directory pnrsim starts in. */
static char *set_arg(const study *s, const char *key, const char *value)
{
    if (!strcmp(key, "process.fault_curves"))
        return curves_arg(s, value);
    if ((!strcmp(key, "workload.trace") || !strcmp(key, "process.fault_curve")) &&
        value[0] && value[0] != '/' && strcmp(value, "-") != 0) {
        char *abs = sweep_abspath(value, s->dir);
        char *a = xasprintf("%s=%s", key, abs);
        free(abs);
        return a;
    }
    return xasprintf("%s=%s", key, value);
}

/* True when a baseline of the point sets key (so [set] does not). */
static bool baseline_sets(const study *s, size_t point, const char *key)
{
    for (size_t i = 0; i < s->nvary; i++) {
        const study_baseline *bl = study_value_baseline(s, point, i);
        for (size_t j = 0; bl && j < bl->nset; j++)
            if (!strcmp(bl->set[j].key, key))
                return true;
    }
    return false;
}

size_t sweep_point_assigns(const study *s, size_t point, sweep_assign **out)
{
    size_t cap = s->nset + s->nvary + 1, n = 0;
    for (size_t i = 0; i < s->nbaselines; i++)
        cap += s->baselines[i].nset;
    sweep_assign *a = xmalloc(cap * sizeof *a);
    for (size_t i = 0; i < s->nset; i++) {
        if (baseline_sets(s, point, s->set[i].key))
            continue;
        a[n++] = (sweep_assign){set_arg(s, s->set[i].key, s->set[i].value),
                                s->set[i].key, s->set[i].value,
                                s->set[i].line};
    }
    /* A baseline value: its key is not set, its overrides are. */
    for (size_t i = 0; i < s->nvary; i++) {
        const study_baseline *bl = study_value_baseline(s, point, i);
        for (size_t j = 0; bl && j < bl->nset; j++)
            a[n++] = (sweep_assign){set_arg(s, bl->set[j].key,
                                            bl->set[j].value),
                                    bl->set[j].key, bl->set[j].value,
                                    bl->set[j].line};
        if (bl)
            continue;
        const char *v = study_value(s, point, i);
        a[n++] = (sweep_assign){set_arg(s, s->vary[i].key, v),
                                s->vary[i].key, v, s->vary[i].line};
    }
    *out = a;
    return n;
}

void sweep_assign_free(sweep_assign *a, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(a[i].arg);
    free(a);
}

char **sweep_run_argv(const study *s, size_t run, const char *pnrsim,
                      const char *outdir)
{
    size_t point = study_run_point(s, run);
    sweep_assign *as;
    size_t nas = sweep_point_assigns(s, point, &as);
    size_t cap = 14 + 2 * nas + 2 * s->nplugins, n = 0;
    char **argv = xmalloc(cap * sizeof *argv);
    argv[n++] = xstrdup(pnrsim);
    /* The study file's [plugins] (the base's are loaded by the base). */
    for (size_t i = 0; i < s->nplugins; i++) {
        argv[n++] = xstrdup("--plugin");
        argv[n++] = xstrdup(s->plugins[i]);
    }
    argv[n++] = xstrdup("-c");
    argv[n++] = xstrdup(s->base);
    if (s->trace) {
        argv[n++] = xstrdup("-t");
        argv[n++] = xstrdup(s->trace);
    }
    argv[n++] = xstrdup("-s");
    argv[n++] = xasprintf("%ld", study_run_seed(s, run));
    for (size_t i = 0; i < nas; i++) {
        argv[n++] = xstrdup("--set");
        argv[n++] = as[i].arg;
        as[i].arg = NULL;
    }
    sweep_assign_free(as, nas);
    if (study_run_window(s, run) >= 0) {
        argv[n++] = xstrdup("--set");
        argv[n++] = xasprintf("workload.window=%ld",
                                    study_run_window(s, run));
    }
    argv[n++] = xstrdup("-q");
    argv[n++] = xstrdup("-o");
    argv[n++] = xstrdup(outdir);
    argv[n] = NULL;
    return argv;
}

void sweep_argv_free(char **argv)
{
    if (!argv)
        return;
    for (char **a = argv; *a; a++)
        free(*a);
    free(argv);
}

int sweep_prepare_out(const sweep_layout *L, bool force, bool record,
                      char *err, size_t errlen)
{
    const study *s = L->s;
    char *runs = xasprintf("%s/runs", L->out);
    if (record && util_mkdirs(runs, NULL) != 0) {
        snprintf(err, errlen, "%s: %s", runs, strerror(errno));
        free(runs);
        return -1;
    }
    free(runs);
    char *fp = study_fingerprint(s);
    if (!fp) {
        snprintf(err, errlen, "%s: %s", s->base, strerror(errno));
        return -1;
    }
    char *fpath = xasprintf("%s/fingerprint", L->out);
    char *old = util_read_file(fpath, 0, NULL, NULL);
    int rc = 0;
    /* What to record: the study's fingerprint plus the baselines recorded
     * before that the study no longer has. */
    char *merged = NULL, *why = NULL;
    if (old && !study_fingerprint_merge(old, fp, &merged, &why) && !force) {
        if (why)
            snprintf(err, errlen,
                     "%s holds runs of baseline '%s' made with other settings "
                     "(see %s): use another output directory (-o DIR), "
                     "rename the baseline, delete its runs (runs/*@%s*) and "
                     "its line in the fingerprint file, or accept the old "
                     "runs with --force", L->out, why, fpath, why);
        else
            snprintf(err, errlen,
                     "%s holds runs made with other settings (base "
                     "configuration, trace, plugins (a rebuilt .so has "
                     "another SHA-256), [set] or [vary] keys differ; see "
                     "%s): use another output directory (-o DIR), delete it, "
                     "or accept the old runs with --force", L->out, fpath);
        rc = -1;
    }
    free(why);
    const char *rec = merged ? merged : fp;
    if (!rc && record && (!old || strcmp(old, rec) != 0))
        rc = util_write_file(fpath, rec, strlen(rec), err, errlen);
    free(merged);
    if (!rc && record) {
        size_t len;
        char *text = util_read_file(s->path, 0, &len, NULL);
        if (text) {
            char *copy = xasprintf("%s/study.ini", L->out);
            rc = util_write_file(copy, text, len, err, errlen);
            free(copy);
            free(text);
        }
    }
    free(old);
    free(fpath);
    free(fp);
    return rc;
}
