/* study/collect.c: results.csv and summary.csv from the run directories.
 *
 * Everything is read back from the disk (runs.c says which runs are done),
 * so collecting gives the same files whether the runs were made by the
 * built-in runner, by GNU parallel from a job list, by Slurm, or by a mix
 * of these, and whatever order they finished in.
 *
 * results.csv: one row per run of the study, in run order (parameter point
 * in cross-product order, then trace window, then seed): the varied
 * parameters, window (only in a study with [study] windows), seed (of a
 * finished run, read back from its metrics.json; a finished run whose
 * metrics.json gives another seed than the study's counts as failed), status
 * (ok, failed, missing) and one column per metric: the study's metrics
 * list, or else every key that is a number in at least one finished run
 * (in order of first appearance, run order; "seed" excluded as it has its
 * own column). Values are copied as written in metrics.json; failed and
 * missing runs have empty metric cells. The last column, wall_seconds, is
 * the run's wall time as the built-in runner wrote it into seed-S/
 * wall-seconds (empty for a run made by a job list or Slurm, which write
 * none): the only column that differs between two identical sweeps.
 *
 * summary.csv: one row per parameter point: the varied parameters, n (the
 * finished runs at the point: every window and seed, so the intervals
 * cover the workload's variation as well as the random draws) and, for
 * each metric, M_mean, M_sd, M_ci95
 * (half-width of the 95% Student-t interval), M_ci95_lo and M_ci95_hi, over
 * the finished runs whose value is a finite number; undefined statistics
 * (sd and interval with one run, everything with none) are empty fields.
 * Numbers are written with %.10g.
 *
 * study.json (study/plot.c) describes the study for the plotter and for
 * readers of the two files; the plots come after it, index.html last.
 *
 * A metric of the metrics list, or of a [plot], that no finished run
 * reports is an error (counted in unknown_metrics, reported on err_out):
 * most likely a misspelt name. The files are written all the same (the
 * column empty, the plot skipped) and the sweep exits 1.
 */
#include "study/points.h"
#include "study/sweep.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One run as collected. */
typedef struct crun {
    sweep_run_state state;
    sweep_metrics ms;
    char *why;
    char *wall;   /* seed-S/wall-seconds as written, or NULL */
} crun;

/* The number in DIR/wall-seconds (written by the built-in runner), as
 * written, or NULL when the file is absent or holds no number >= 0. */
static char *read_wall(const char *dir)
{
    char *path = xasprintf("%s/wall-seconds", dir);
    char *text = util_read_file(path, 0, NULL, NULL);
    free(path);
    if (!text)
        return NULL;
    text[strcspn(text, "\r\n")] = '\0';
    char *end;
    double v = strtod(text, &end);
    if (end == text || *end || !isfinite(v) || v < 0 || strchr(text, ',')) {
        free(text);
        return NULL;
    }
    return text;
}

static void add_column(char ***cols, size_t *n, const char *key)
{
    for (size_t i = 0; i < *n; i++)
        if (!strcmp((*cols)[i], key))
            return;
    *cols = xrealloc(*cols, (*n + 1) * sizeof **cols);
    (*cols)[(*n)++] = xstrdup(key);
}

static void put_num(sweep_buf *b, double v)
{
    if (isfinite(v))
        sweep_buf_printf(b, "%.10g", v);
}

static int write_results(const sweep_layout *L, const crun *runs, char **cols,
                         size_t ncols)
{
    const study *s = L->s;
    sweep_buf b = {0};
    for (size_t i = 0; i < s->nvary; i++) {
        sweep_csv_field(&b, s->vary[i].key);
        sweep_buf_puts(&b, ",");
    }
    if (s->windows > 0)
        sweep_buf_puts(&b, "window,");
    sweep_buf_puts(&b, "seed,status");
    for (size_t c = 0; c < ncols; c++) {
        sweep_buf_puts(&b, ",");
        sweep_csv_field(&b, cols[c]);
    }
    sweep_buf_puts(&b, ",wall_seconds\n");
    for (size_t r = 0; r < s->nruns; r++) {
        for (size_t i = 0; i < s->nvary; i++) {
            sweep_csv_field(&b, study_value(s, study_run_point(s, r), i));
            sweep_buf_puts(&b, ",");
        }
        if (s->windows > 0)
            sweep_buf_printf(&b, "%ld,", study_run_window(s, r));
        /* The seed of a finished run as its metrics.json gives it (it was
         * checked against the study's when collected). */
        const sweep_metric *sm = runs[r].state == SWEEP_RUN_DONE
                                     ? sweep_metrics_get(&runs[r].ms, "seed")
                                     : NULL;
        if (sm)
            sweep_csv_field(&b, sm->raw);
        else
            sweep_buf_printf(&b, "%ld", study_run_seed(s, r));
        sweep_buf_printf(&b, ",%s",
                         runs[r].state == SWEEP_RUN_DONE     ? "ok"
                         : runs[r].state == SWEEP_RUN_FAILED ? "failed"
                                                             : "missing");
        for (size_t c = 0; c < ncols; c++) {
            sweep_buf_puts(&b, ",");
            const sweep_metric *m =
                runs[r].state == SWEEP_RUN_DONE
                    ? sweep_metrics_get(&runs[r].ms, cols[c])
                    : NULL;
            if (m && m->type != SWEEP_NULL)
                sweep_csv_field(&b, m->raw);
        }
        /* The one column that differs between identical runs. */
        sweep_buf_printf(&b, ",%s\n",
                         runs[r].state == SWEEP_RUN_DONE && runs[r].wall ? runs[r].wall : "");
    }
    return sweep_write_buf(L->out, "results.csv", &b);
}

static int write_summary(const sweep_layout *L, const crun *runs,
                         const sweep_table *t)
{
    const study *s = L->s;
    size_t reps = s->nrep;
    sweep_buf b = {0};
    for (size_t i = 0; i < s->nvary; i++) {
        sweep_csv_field(&b, s->vary[i].key);
        sweep_buf_puts(&b, ",");
    }
    sweep_buf_puts(&b, "n");
    static const char *const suffix[] = {"mean", "sd", "ci95", "ci95_lo",
                                         "ci95_hi"};
    for (size_t c = 0; c < t->nmetric; c++)
        for (size_t k = 0; k < 5; k++) {
            char *h = xasprintf("%s_%s", t->metric[c], suffix[k]);
            sweep_buf_puts(&b, ",");
            sweep_csv_field(&b, h);
            free(h);
        }
    sweep_buf_puts(&b, "\n");
    for (size_t p = 0; p < s->npoints; p++) {
        for (size_t i = 0; i < s->nvary; i++) {
            sweep_csv_field(&b, study_value(s, p, i));
            sweep_buf_puts(&b, ",");
        }
        size_t done = 0;
        for (size_t k = 0; k < reps; k++)
            done += runs[p * reps + k].state == SWEEP_RUN_DONE;
        sweep_buf_printf(&b, "%zu", done);
        for (size_t c = 0; c < t->nmetric; c++) {
            const sweep_stats *st = &t->st[p * t->nmetric + c];
            const double v[5] = {st->mean, st->sd, st->ci, st->lo, st->hi};
            for (size_t k = 0; k < 5; k++) {
                sweep_buf_puts(&b, ",");
                put_num(&b, v[k]);
            }
        }
        sweep_buf_puts(&b, "\n");
    }
    return sweep_write_buf(L->out, "summary.csv", &b);
}

int sweep_collect(const sweep_layout *L, bool no_plots, bool report_failures,
                  FILE *err_out, sweep_collect_counts *counts)
{
    const study *s = L->s;
    size_t reps = s->nrep; /* runs per point: windows x seeds */
    crun *runs = xmalloc(s->nruns * sizeof *runs);
    memset(counts, 0, sizeof *counts);
    for (size_t r = 0; r < s->nruns; r++) {
        crun *cr = &runs[r];
        memset(cr, 0, sizeof *cr);
        cr->state = sweep_run_state_of(L, r, &cr->why);
        if (cr->state == SWEEP_RUN_DONE) {
            char *dir = sweep_run_dir(L, r, false);
            char *mpath = xasprintf("%s/metrics.json", dir);
            char err[512];
            if (sweep_metrics_read(mpath, &cr->ms, err, sizeof err) != 0) {
                /* Changed under our feet: count it as failed. */
                cr->state = SWEEP_RUN_FAILED;
                cr->why = xstrdup(err);
            } else {
                /* The seed the run used, read back: a run made with
                 * another seed is not this run. */
                const sweep_metric *m = sweep_metrics_get(&cr->ms, "seed");
                long want = study_run_seed(s, r);
                if (m && m->type != SWEEP_NUM) {
                    cr->state = SWEEP_RUN_FAILED;
                    cr->why = xasprintf("%s: seed is %s%s%s, not a number (this run's "
                                        "seed is %ld; delete the directory to run it "
                                        "again)", mpath,
                                        m->type == SWEEP_STR ? "the string \"" : "",
                                        m->type == SWEEP_NULL ? "null" : m->raw,
                                        m->type == SWEEP_STR ? "\"" : "", want);
                } else if (!m || m->num != (double)want) {
                    cr->state = SWEEP_RUN_FAILED;
                    cr->why = xasprintf("%s: seed %s, but this run's seed is "
                                        "%ld (delete the directory to run it "
                                        "again)", mpath, m ? m->raw : "missing",
                                        want);
                }
            }
            if (cr->state == SWEEP_RUN_DONE)
                cr->wall = read_wall(dir);
            free(mpath);
            free(dir);
        }
        if (cr->state == SWEEP_RUN_DONE)
            counts->done++;
        else if (cr->state == SWEEP_RUN_FAILED)
            counts->failed++;
        else
            counts->missing++;
        if (cr->state == SWEEP_RUN_FAILED && report_failures) {
            char *label = sweep_run_label(s, r);
            fprintf(err_out, "pnrsim-sweep: failed: %s: %s\n", label,
                    cr->why ? cr->why : "unknown reason");
            free(label);
        }
    }

    char **cols = NULL;
    size_t ncols = 0;
    if (s->nmetrics) {
        for (size_t i = 0; i < s->nmetrics; i++)
            add_column(&cols, &ncols, s->metrics[i]);
    } else {
        for (size_t r = 0; r < s->nruns; r++)
            for (size_t i = 0; i < runs[r].ms.n; i++) {
                const sweep_metric *m = &runs[r].ms.m[i];
                if (m->type == SWEEP_NUM && strcmp(m->key, "seed") != 0)
                    add_column(&cols, &ncols, m->key);
            }
    }
    if (s->nmetrics && counts->done)
        for (size_t c = 0; c < ncols; c++) {
            bool seen = false;
            for (size_t r = 0; r < s->nruns && !seen; r++)
                seen = sweep_metrics_get(&runs[r].ms, cols[c]) != NULL;
            if (!seen) {
                fprintf(err_out,
                        "pnrsim-sweep: error: metric '%s' (in the [study] "
                        "metrics list) is in no finished run's metrics.json; "
                        "its columns are empty\n", cols[c]);
                counts->unknown_metrics++;
            }
        }
    /* A plot's metric that no finished run reports as a number (with a
     * metrics list, plot metrics are in it and were checked above). */
    if (!s->nmetrics && counts->done)
        for (size_t i = 0; i < s->nplots; i++) {
            bool found = false;
            for (size_t c = 0; c < ncols && !found; c++)
                found = !strcmp(cols[c], s->plots[i].metric);
            if (found)
                continue;
            counts->unknown_metrics++;
            fprintf(err_out,
                    "pnrsim-sweep: error: plot %s: no finished run "
                    "reports metric '%s'\n", s->plots[i].name,
                    s->plots[i].metric);
        }

    sweep_table t = {cols, ncols,
                     xmalloc((s->npoints * ncols + 1) * sizeof *t.st)};
    double *x = xmalloc((reps + 1) * sizeof *x);
    for (size_t p = 0; p < s->npoints; p++)
        for (size_t c = 0; c < ncols; c++) {
            size_t n = 0;
            for (size_t k = 0; k < reps; k++) {
                const crun *cr = &runs[p * reps + k];
                if (cr->state != SWEEP_RUN_DONE)
                    continue;
                const sweep_metric *m = sweep_metrics_get(&cr->ms, cols[c]);
                if (m && m->type == SWEEP_NUM)
                    x[n++] = m->num;
            }
            sweep_stats_compute(x, n, &t.st[p * ncols + c]);
        }
    free(x);

    int rc = write_results(L, runs, cols, ncols);
    if (!rc)
        rc = write_summary(L, runs, &t);
    if (!rc)
        rc = sweep_study_json(L, &t);
    if (!rc && !no_plots && s->nplots)
        sweep_plots(L, err_out);
    if (!rc) {
        size_t *done = xmalloc((s->npoints + 1) * sizeof *done);
        for (size_t p = 0; p < s->npoints; p++) {
            done[p] = 0;
            for (size_t k = 0; k < reps; k++)
                done[p] += runs[p * reps + k].state == SWEEP_RUN_DONE;
        }
        rc = sweep_html(L, &t, done, counts);
        free(done);
    }

    free(t.st);
    for (size_t c = 0; c < ncols; c++)
        free(cols[c]);
    free(cols);
    for (size_t r = 0; r < s->nruns; r++) {
        sweep_metrics_free(&runs[r].ms);
        free(runs[r].why);
        free(runs[r].wall);
    }
    free(runs);
    return rc;
}
