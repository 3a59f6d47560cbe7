/* app/run_check.h: a run's test hooks, fenced off from app/run.h: its
 * gang scheduler and machine (run_gang, run_cluster) and its checking
 * mode: the scheduler's invariants (sched/gang_check.h) and network RAM's
 * conservation (pnr/pnr_check.h) checked as the run goes. For tests/ and
 * bench/ only; pnrsim never turns the checks on. */
#ifndef PNRSIM_APP_RUN_CHECK_H
#define PNRSIM_APP_RUN_CHECK_H

#include "app/run.h"

/* Turn the checks on (before run_execute) or off: the scheduler's at every
 * arrival, job end and scheduler action (gang_check, and
 * gang_check_placement unless a pass is due), network RAM's at every
 * allocation and deallocation step. The first violation stops the run. */
void run_set_checking(run_t *r, bool on);
/* Before run_execute: every thread its own process even where a job could
 * run as one (sched/job.h), the reference the one-process jobs are
 * compared with (tests: same outputs). */
void run_set_thread_processes(run_t *r);
/* NULL, or the first violation found. */
const char *run_check_failure(const run_t *r);

/* The run's gang scheduler (benchmarks and tests look inside it). */
struct gang;
struct gang *run_gang(run_t *r);
/* The run's machine: PEs (compute PEs, then memory servers) and network
 * (tests read per-PE counters from it). */
const cluster_t *run_cluster(const run_t *r);

#endif
