/* app/run.h: one simulation run: the cluster built from a configuration,
 * a workload streamed into the gang scheduler, statistics collected, and
 * the results (metrics, per-job rows, samples) produced.
 *
 * run_create builds everything and validates what depends on both the
 * configuration and the trace; run_execute runs the event loop; the run's
 * metrics are then read with run_metrics. Output files are written by
 * app/output.c and app/resultset.c; the run only streams jobs.csv and
 * samples.csv rows to the FILEs it is given. Means over no jobs (and rates
 * over no time) are NAN in run_metrics: undefined, written as n/a or null.
 */
#ifndef PNRSIM_APP_RUN_H
#define PNRSIM_APP_RUN_H

#include "app/config.h"
#include "app/workload.h"
#include "core/ev.h"
#include "pnr/pnr.h"

#include <stdio.h>

typedef struct run run_t;

/* The metrics of techreport §2.2.2 (in its order), then extras. */
typedef struct run_metrics {
    double total_time;            /* s */
    long jobs_finished;
    double throughput;            /* jobs/s */
    double cpu_utilization;       /* 0..1, mean over PEs */
    double page_faults_per_pe;
    double page_fault_time_per_pe;/* s */
    double comm_busy_time;        /* s, summed over links and switches */
    double mem_alloc_mean, mem_alloc_sd;   /* MB, over PEs of time averages */
    double disk_alloc_mean, disk_alloc_sd; /* MB */
    double response_time_mean, wait_time_mean, execution_time_mean; /* s */
    double slowdown_mean, bounded_slowdown_mean;
    int mpl_max;
    double mpl_mean;
    long pcs_count;
    /* extras */
    uint64_t seed;
    long jobs_submitted, jobs_unfinished, jobs_never_started, jobs_impossible;
    long slowdown_excluded;       /* jobs with execution time 0 */
    long dropped[WL_DROP_N];
    long trace_stopped_at;     /* workload_stopped_at: 0 = read to the end */
    long procs_rounded;        /* workload_rounded: jobs with a fractional field 5 */
    long procs_rounded_line;   /* ... the first one's line */
    uint64_t page_faults_disk, page_faults_remote;
    uint64_t neighbour_msgs, neighbour_replies, sync_msgs, messages_killed;
    uint64_t net_messages, net_restarts;
    double net_bytes;
    /* network.topology = tree only (issue 15): busy time (s) of the PE
     * links (PE or memory server to its ToR: rack links), the uplinks (ToR
     * to core) and the switches; they sum to comm_busy_time */
    bool tree;
    double net_busy_rack_links, net_busy_uplinks, net_busy_tor_switches, net_busy_core_switch;
    double cpu_busy_total, cpu_demand_done;
    uint64_t events;
    size_t peak_pending;
    double wall_seconds;
    /* network RAM (when enabled) */
    bool netram;
    double netram_lent_mean, netram_lent_sd;  /* MB per PE, time averages */
    uint64_t pnr_requests, pnr_denied, pnr_partial, pnr_satisfied;
    double pnr_asked_mb, pnr_granted_mb, pnr_alloc_wait;
    uint64_t pnr_alloc_rounds_changed, pnr_dealloc_rounds_changed;
    uint64_t pnr_msgs[PNR_NKINDS];
    double pnr_bytes[PNR_NKINDS];
    bool partial;
    bool time_limited;
    /* samples.csv: rows written, rows not written once simulation.max_samples
     * was reached, and the time of the first such row */
    long samples_written, samples_dropped;
    /* --schedule's pes.csv, counted in samples (rows per PE group each):
     * written, not written (max_samples reached), and when it was */
    long pes_samples_written, pes_samples_dropped;
    double pes_capped_at;
    long paje_net_dropped;      /* schedule.paje network states not written */
    double paje_net_capped_at;
    double samples_capped_at;
} run_metrics;

/* Build the run for configuration c. jobs_out and samples_out, when not
 * NULL, receive the CSV rows as the run goes. Returns NULL with a message
 * in err on bad input (trace cannot be opened, ...). */
run_t *run_create(const config *c, FILE *jobs_out, FILE *samples_out, char err[CFG_ERR_MAX]);
/* Also write the schedule files (--schedule): schedule.csv, pes.csv and
 * schedule.paje rows go to these FILEs (any may be NULL) as the run goes.
 * Call before run_execute, at most once. */
void run_set_schedule(run_t *r, FILE *csv, FILE *pes, FILE *paje);
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
/* The kernel (for --kernel-report), the trace name, hardware report. */
sim_t *run_sim(run_t *r);
const char *run_trace_name(const run_t *r);
void run_hardware_report(run_t *r, FILE *out);
/* The checking mode (a test hook) is in app/run_check.h. */
void run_destroy(run_t *r);

#endif
