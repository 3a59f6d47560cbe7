/* study/sweep.h: the parts of pnrsim-sweep besides the study model.
 *
 *   util.c     a text buffer, paths, rm -r, file tests, shell and CSV
 *              quoting (declared in study/util.h; memory is core/mem.h's,
 *              whole-file reads and writes and mkdir -p app/util.h's)
 *   metrics.c  reading a run's metrics.json (flat values and one or more
 *              levels of nesting, flattened as outer.inner)
 *   stats.c    mean, SD and the Student-t 95% confidence interval
 *   runs.c     the layout of a study's output directory and the state of
 *              each run (done, failed, missing), the pnrsim argument list
 *   collect.c  results.csv and summary.csv from the run directories
 *   plot.c     study.json, and the plots drawn by pnrsim-plot (Python)
 *   html.c     index.html: summary, plots, summary table, study file
 *   runner.c   the built-in runner: N local pnrsim processes
 *   emit.c     job lists for GNU parallel and Slurm job-array scripts
 *   cut.c      --set study.KEY=N and --only: a study cut down in memory,
 *              and the [plot] title placeholders (declared in study/cut.h)
 *   main.c     the command line
 *
 * A header without a .c of its own: it includes only the study's types
 * (study/types.h) and study/util.h, so that metrics.c and stats.c, which
 * know nothing of a study, sit low in study/'s layers. A part that reads
 * a study's points, names its directories or loads it includes
 * study/points.h, study/fingerprint.h or study/study.h itself. From the
 * bottom: util.c; metrics.c, stats.c; plot.c, html.c (beside the study
 * model: points.c, fingerprint.c and the reader); runs.c; check.c,
 * emit.c, runner.c, collect.c, cut.c; main.c.
 *
 * Output directory layout (OUT, default out/studies/NAME):
 *   OUT/study.ini          copy of the study file of the last run/emit
 *   OUT/fingerprint        what the runs were made with (study_fingerprint)
 *   OUT/runs/POINT/seed-S/ a finished run: pnrsim's files + stderr.txt
 *                          (+ wall-seconds from the built-in runner)
 *   OUT/runs/POINT/seed-S.part/  a run in progress, interrupted or failed
 *   OUT/results.csv, OUT/summary.csv, OUT/study.json,
 *   OUT/plots/NAME.{png,svg,csv}
 *   OUT/joblist.txt, OUT/slurm.sh  when emitted there
 */
#ifndef PNRSIM_STUDY_SWEEP_H
#define PNRSIM_STUDY_SWEEP_H

#include "study/types.h"
#include "study/util.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* ---- metrics.c ------------------------------------------------------- */

typedef enum { SWEEP_NUM, SWEEP_STR, SWEEP_BOOL, SWEEP_NULL } sweep_type;

/* One flattened metric: "key" or "outer.inner". raw is a number's text as
 * pnrsim writes it (the shortest %.15g..%.17g that reads back) or the
 * decoded string / true / false / "" for null. */
typedef struct sweep_metric {
    char *key;
    char *raw;
    double num;        /* the number, for SWEEP_NUM */
    sweep_type type;
} sweep_metric;

typedef struct sweep_metrics {
    sweep_metric *m;
    size_t n;
    bool partial;      /* "partial": true in the file */
    bool has_partial;  /* the file has a "partial" member */
} sweep_metrics;

/* Parse the JSON object in text (len bytes; through jansson) into out.
 * Arrays are skipped; nested objects are flattened. 0, or -1 with a
 * message in err (out is then empty). */
int sweep_metrics_parse(const char *text, size_t len, sweep_metrics *out,
                        char *err, size_t errlen);
/* Read and parse the file at path. Same contract. */
int sweep_metrics_read(const char *path, sweep_metrics *out, char *err,
                       size_t errlen);
/* The metric named key, or NULL. */
const sweep_metric *sweep_metrics_get(const sweep_metrics *ms, const char *key);
void sweep_metrics_free(sweep_metrics *ms);

/* ---- stats.c --------------------------------------------------------- */

/* Summary of n observations. sd is the sample standard deviation (n - 1 in
 * the denominator); ci is the half-width of the 95% confidence interval of
 * the mean, t(0.975, n-1) * sd / sqrt(n), and lo/hi are mean -/+ ci. With
 * n = 1, sd, ci, lo and hi are NAN (written as empty fields); with n = 0
 * everything but n is NAN. */
typedef struct sweep_stats {
    size_t n;
    double mean, sd, ci, lo, hi;
} sweep_stats;

void sweep_stats_compute(const double *x, size_t n, sweep_stats *st);

/* The --selftest-summary mode: prints the statistics of fixed samples next
 * to values computed by hand and returns 0 when they agree. */
int sweep_stats_selftest(FILE *out);

/* ---- runs.c ---------------------------------------------------------- */

typedef enum {
    SWEEP_RUN_MISSING,  /* never run, or interrupted */
    SWEEP_RUN_FAILED,   /* a .part directory with an error and no result */
    SWEEP_RUN_DONE      /* seed-S/metrics.json complete and not partial */
} sweep_run_state;

/* Where a study's runs live. */
typedef struct sweep_layout {
    const study *s;
    char *out;          /* absolute output directory */
    char **pointdir;    /* per point: OUT/runs/POINTNAME */
} sweep_layout;

void sweep_layout_init(sweep_layout *L, const study *s, const char *out);
void sweep_layout_free(sweep_layout *L);
/* OUT/runs/POINT/seed-S (part = false) or seed-S.part. Newly allocated. */
char *sweep_run_dir(const sweep_layout *L, size_t run, bool part);
/* The state of run, from its directories. When failed, *why (if not NULL)
 * receives a newly allocated one-line reason (the last non-empty line of its
 * stderr.txt, or a description). */
sweep_run_state sweep_run_state_of(const sweep_layout *L, size_t run,
                                   char **why);
/* A one-line description of a run: "computer.ram=16 netram.strategy=central
 * seed=1". Newly allocated. */
char *sweep_run_label(const study *s, size_t run);
/* The pnrsim argument vector for run (argv[0] = pnrsim, NULL-terminated,
 * output to outdir). Free with sweep_argv_free. */
char **sweep_run_argv(const study *s, size_t run, const char *pnrsim,
                      const char *outdir);
void sweep_argv_free(char **argv);

/* One --set assignment of the runs at a point, with the study line it
 * comes from. */
typedef struct sweep_assign {
    char *arg;          /* "key=value" as given to pnrsim (a relative
                           workload.trace made absolute) */
    const char *key;    /* the key and value as in the study (not owned) */
    const char *value;
    long line;
} sweep_assign;

/* The --set assignments of the runs at point, in the order pnrsim gets
 * them ([set] lines not overridden by a baseline, then per varied key its
 * value or its baseline's overrides). Returns the count; *out is newly
 * allocated, to free with sweep_assign_free. */
size_t sweep_point_assigns(const study *s, size_t point, sweep_assign **out);
void sweep_assign_free(sweep_assign *a, size_t n);

/* ---- check.c --------------------------------------------------------- */

/* Build the configuration of every parameter point as pnrsim would
 * (defaults, the base file, the trace, the --set assignments) and check
 * it with config_validate, and that the trace is given and exists. 0, or
 * -1 with "FILE:LINE: KEY: problem" in err (the first problem, in point
 * order). Nothing is written. */
int sweep_check_configs(const study *s, char *err, size_t errlen);

/* Check that OUT/fingerprint, when present, is the study's; when it
 * differs, refuse (unless force) with a message in err. With record, also
 * make OUT/runs and write OUT/fingerprint and OUT/study.ini. 0 or -1. */
int sweep_prepare_out(const sweep_layout *L, bool force, bool record,
                      char *err, size_t errlen);

/* ---- collect.c ------------------------------------------------------- */

typedef struct sweep_collect_counts {
    size_t done, failed, missing;
    size_t unknown_metrics; /* metrics (list or plots) in no finished run */
} sweep_collect_counts;

/* Build OUT/results.csv and OUT/summary.csv from the run directories and,
 * unless no_plots, the plots. Failed runs are listed on err_out with their
 * reason when report_failures. 0, or -1 when a file could not be written
 * (message on stderr). */
int sweep_collect(const sweep_layout *L, bool no_plots, bool report_failures,
                  FILE *err_out, sweep_collect_counts *counts);

/* ---- plot.c ---------------------------------------------------------- */

/* Summary table: per point, per metric (in the order of metric names), the
 * statistics. */
typedef struct sweep_table {
    char **metric;
    size_t nmetric;
    sweep_stats *st;  /* npoints * nmetric, st[point * nmetric + m] */
} sweep_table;

/* Write OUT/study.json: the study's parameters (values, units, baselines),
 * the metric columns of t with their units, and the [plot]s, for the
 * plotter and for readers of the CSV files. 0 or -1 (message on stderr). */
int sweep_study_json(const sweep_layout *L, const sweep_table *t);

/* The pnrsim-plot program: beside this executable, else on PATH (newly
 * allocated), or NULL when there is none. */
char *sweep_plot_find(void);

/* Run `pnrsim-plot study OUT`, which draws OUT/plots/NAME.{png,svg,csv}
 * for each [plot] from summary.csv and study.json. When pnrsim-plot is
 * missing or fails, say so on err_out (the other results are complete).
 * 0 when every plot was drawn, else -1. */
int sweep_plots(const sweep_layout *L, FILE *err_out);

/* ---- html.c ---------------------------------------------------------- */

/* Write OUT/index.html: the study file, the summary table (every point,
 * done_per_point[p] finished runs each) and the plots that exist. 0 or -1
 * (message on stderr). */
int sweep_html(const sweep_layout *L, const sweep_table *t, const size_t *done_per_point,
               const sweep_collect_counts *counts);

/* ---- runner.c -------------------------------------------------------- */

typedef struct sweep_run_opts {
    const char *pnrsim;   /* the pnrsim binary */
    int jobs;             /* worker processes, >= 1 */
    bool quiet;           /* no progress bar, no report of skips */
    double progress_interval; /* not a terminal: s between progress lines; 0 = none */
} sweep_run_opts;

typedef struct sweep_run_counts {
    size_t ran, skipped, failed;
    bool interrupted;
} sweep_run_counts;

/* Run every run of the study that is not done, at most o->jobs at a time.
 * Each run goes into its seed-S.part directory, renamed to seed-S when
 * pnrsim exits 0 with a complete metrics.json. Failures are reported on
 * stderr as they happen. SIGINT/SIGTERM stop launching, terminate the
 * running pnrsim processes and return with counts->interrupted. 0, or -1
 * when the runner itself failed (message on stderr). */
int sweep_run(const sweep_layout *L, const sweep_run_opts *o,
              sweep_run_counts *counts);

/* ---- emit.c ---------------------------------------------------------- */

/* Write a job list to path: one shell command per pending run (every run
 * when all), each running pnrsim into seed-S.part and renaming it to seed-S
 * on success. Returns the number of lines, or -1 (message in err). */
long sweep_emit_joblist(const sweep_layout *L, const char *pnrsim, bool all,
                        const char *path, char *err, size_t errlen);

/* Write a Slurm job-array script to path that runs line
 * $SLURM_ARRAY_TASK_ID of the job list joblist (written beside it as
 * path.jobs). Returns the number of array tasks, or -1 (message in err). */
long sweep_emit_slurm(const sweep_layout *L, const char *pnrsim, bool all,
                      const char *path, char *err, size_t errlen);

/* Before emitting: 0 when no name an emitted file holds (the output
 * directory, pnrsim, the file written, the study, base and trace files;
 * absolute paths) has a line break or another control character, else -1
 * with the name in err (a job list has one command per line). */
int sweep_emit_check(const sweep_layout *L, const char *pnrsim,
                     const char *file, char *err, size_t errlen);

#endif
