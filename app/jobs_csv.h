/* app/jobs_csv.h: jobs.csv, one row for every job the trace offered
 * (docs/METRICS.md).
 *
 * Columns: job, submit, start, end, threads, wait, response, execution,
 * slowdown, bounded_slowdown, cpu_demand, memory_mb, page_faults,
 * fault_time, (cores, only with whole nodes per job), requested_time,
 * state, reason, slot, pes, (lost_core_seconds, only with time limits
 * KILL), bounded_slowdown_dedicated. state is finished, running, queued,
 * unsubmitted or dropped (reason: the drop reason's name); a value that
 * does not apply to a job in its state is an empty field. Rows are written
 * as the run goes: a finished job's at its end, a dropped record's when it
 * is dropped, and the others (jobs_csv_alive, jobs_csv_unsubmitted) at the
 * end of the run; readers sort.
 */
#ifndef PNRSIM_APP_JOBS_CSV_H
#define PNRSIM_APP_JOBS_CSV_H

#include "app/workload.h"
#include "sched/gang.h"
#include "sched/job.h"

#include <stdbool.h>
#include <stdio.h>

typedef struct jobs_csv jobs_csv;

/* A writer of jobs.csv rows to f for the jobs of scheduler g on cluster
 * cl; writes the header. exclusive: the column `cores` (whole nodes per
 * job, node_sharing EXCLUSIVE on nodes of several cores), and pes lists
 * every core of a job's nodes (its gang matrix columns). */
jobs_csv *jobs_csv_open(FILE *f, const cluster_t *cl, const gang_t *g, bool exclusive);
/* The same, with the placement columns after fault_time (and cores)
 * when `placed`
 * (scheduler.allocation set, issue 35; docs/METRICS.md): racks (TREE
 * only: the racks the job's cores span) and hops_mean (the mean pairwise
 * hop distance of its cores, empty for one thread); both of the job's
 * last placement, empty for a job never placed. */
jobs_csv *jobs_csv_open_placed(FILE *f, const cluster_t *cl, const gang_t *g, bool exclusive,
                               bool placed);
/* The row of a job killed at its time limit (sched/job_limit.h), at its end. */
void jobs_csv_killed(jobs_csv *w, const job_t *j);
/* The row of finished job j, with its wait, response, execution, slowdown,
 * bounded slowdown and bounded slowdown over its dedicated run time (as
 * on_job_end computed them). */
void jobs_csv_finished(jobs_csv *w, const job_t *j, double wait, double response, double exec,
                       double sld, double bsld, double bsld_ded);
/* The row of a record dropped for reason why (a wl_drop_fn). */
void jobs_csv_dropped(const wl_job *job, wl_drop_reason why, void *w);
/* The rows of the jobs alive on cl that have not ended (running: started;
 * queued: never started, placed or not), in job number order. */
void jobs_csv_alive(jobs_csv *w);
/* The row of a job the run never submitted (its submit time is after the
 * end of the run). */
void jobs_csv_unsubmitted(jobs_csv *w, const wl_job *job);
/* Free w (the FILE stays open). NULL is fine. */
void jobs_csv_close(jobs_csv *w);

#endif
