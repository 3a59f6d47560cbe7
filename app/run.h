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
/* Progress reporting: called every metrics_period simulated seconds. */
typedef void (*run_progress_fn)(run_t *r, double now, double done_fraction, void *ctx);
void run_set_progress(run_t *r, run_progress_fn fn, void *ctx);
/* Run to the end (or max_time, or a stop request). Returns 0, or -1 with
 * err set when the trace turned out malformed part way or the runaway guard
 * (simulation.max_event_rate) stopped the run (exit status 2). */
int run_execute(run_t *r, char err[CFG_ERR_MAX]);
/* The PNR layer's parameters from a configuration. */
void run_pnr_params(const config *c, pnr_params *p);
/* Compute the metrics as of now. */
void run_metrics_get(run_t *r, run_metrics *m);
/* SHA-256 of the trace as 64 hex digits (workload_sha256): 0, or -1 on a
 * read error. */
int run_trace_sha256(const run_t *r, char hex[65]);
/* The kernel (for --kernel-report), the trace name, hardware report. */
sim_t *run_sim(run_t *r);
const char *run_trace_name(const run_t *r);
void run_hardware_report(run_t *r, FILE *out);
/* The checking mode (a test hook) is in app/run_check.h. */
void run_destroy(run_t *r);

#endif
