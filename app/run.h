/* app/run.h: one simulation run: the cluster built from a configuration,
 * a workload streamed into the gang scheduler, statistics collected, and
 * the results (metrics, per-job rows, samples) produced.
 *
 * run_create builds everything and validates what depends on both the
 * configuration and the trace; run_execute runs the event loop; the run's
 * metrics (struct run_metrics, app/run_metrics.h) are then read with
 * run_metrics_get. Output files are written by app/output.c and
 * app/resultset.c; the run only streams jobs.csv and samples.csv rows to
 * the FILEs it is given.
 */
#ifndef PNRSIM_APP_RUN_H
#define PNRSIM_APP_RUN_H

#include "app/config.h"
#include "app/run_metrics.h"
#include "app/schedule.h"
#include "app/workload.h"
#include "core/ev.h"
#include "pnr/pnr.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct run run_t;

/* Build the run for configuration c. jobs_out and samples_out, when not
 * NULL, receive the CSV rows as the run goes. Returns NULL with a message
 * in err on bad input (trace cannot be opened, ...). */
run_t *run_create(const config *c, FILE *jobs_out, FILE *samples_out, char err[CFG_ERR_MAX]);
/* Also write the schedule files (--schedule, --paje): schedule.csv,
 * pes.csv, memory.csv, paging.csv and Paje rows go to the FILEs of f (any
 * may be NULL) as the run goes, within the window output.schedule_from/to.
 * Call before run_execute, at most once. */
void run_set_schedule(run_t *r, const schedule_files *f);
/* How far a run is, for progress lines (app/progress.c). The fraction
 * measures what `kind` names: the trace's submit span (simulated time over
 * the last submit time, from the trace file's end), max_time (the span
 * unknown: gzip or stdin), max_jobs (jobs submitted over max_jobs), or the
 * share of the trace's (compressed) bytes read (nothing better known). It
 * never decreases; once every job is submitted it is 1 and `left` counts
 * the jobs still to finish. */
typedef enum {
    RUN_PROGRESS_SPAN,
    RUN_PROGRESS_TIME,
    RUN_PROGRESS_JOBS,
    RUN_PROGRESS_BYTES,
    RUN_PROGRESS_NONE           /* nothing known (a pipe): no fraction, the
                                 * jobs submitted instead */
} run_progress_kind;
typedef struct run_progress {
    double now;                 /* simulated time, s */
    double wall;                /* wall seconds since run_execute began */
    uint64_t events;            /* events dispatched so far */
    double fraction;            /* 0..1, of what kind says */
    run_progress_kind kind;
    bool all_submitted;         /* the trace is exhausted: fraction is 1 */
    long submitted, left;       /* jobs submitted; of them not finished
                                 * (nor impossible) */
} run_progress;
/* Progress reporting: fn is called every RUN_PROGRESS_WINDOW events
 * dispatched (never per event: the clock is read then only), and inside a
 * long event every EV_POLL_WORK units of its work (core/ev.h's ev_poll:
 * a placement pass over many jobs, many arrivals at one instant); it decides
 * itself, from p->wall, whether to print. It never changes the run. */
typedef void (*run_progress_fn)(run_t *r, const run_progress *p, void *ctx);
void run_set_progress(run_t *r, run_progress_fn fn, void *ctx);
/* Events between two progress calls: 2^14, under 0.02 s of wall time at
 * the simulator's usual 1-10 M events/s. */
#define RUN_PROGRESS_WINDOW ((uint64_t)1 << 14)
/* Run to the end (or max_time, or a stop request). Returns 0, or -1 with
 * err set when the trace turned out malformed part way or the runaway guard
 * (simulation.max_event_rate) stopped the run (exit status 2). */
int run_execute(run_t *r, char err[CFG_ERR_MAX]);
/* The PNR layer's parameters from a configuration. */
void run_pnr_params(const config *c, pnr_params *p);
/* Compute the metrics as of now. */
void run_metrics_get(run_t *r, run_metrics *m);
/* SHA-256 of the trace as 64 hex digits (workload_sha256): 0; 1 when it
 * is of the bytes read from a pipe not read to its end; -1 on a read
 * error. */
int run_trace_sha256(const run_t *r, char hex[65]);
/* The kernel (for --kernel-report), the trace name, hardware report. */
sim_t *run_sim(run_t *r);
const char *run_trace_name(const run_t *r);
/* The run's configuration (as given to run_create). */
const config *run_config(const run_t *r);
/* PEs, links, switches and routes, for --hardware-report (app/run_report.c). */
void run_hardware_report(run_t *r, FILE *out);
/* The checking mode (a test hook) is in app/run_check.h. */
void run_destroy(run_t *r);

#endif
