/* sched/gang_alloc.h: the scheduler's side of its allocation policy
 * (scheduler.allocation, the public sched/allocation.h; sched/gang_alloc.c):
 * the view of one slot a policy reads, the calls the scheduler makes (one
 * per slot considered, one to apply), the check of a plugin's answer, and
 * the racks a job's cores span. Private to the scheduler (sched/gang.c,
 * sched/gang_check.c).
 */
#ifndef PNRSIM_SCHED_GANG_ALLOC_H
#define PNRSIM_SCHED_GANG_ALLOC_H

#include "sched/allocation.h"
#include "sched/gang_internal.h"

/* The view of sched/allocation.h: scheduler g, the row of the slot
 * considered (NULL: a new slot), the job, and (mem_global) the network RAM
 * available in this pass. */
struct sched_alloc_view {
    const gang_t *g;
    job_t *const *pe_job;
    const job_t *job;
    double avail;
};

/* Create the policy's state and the scratch (gang_create, once p and the
 * cluster's net are set); free them (gang_destroy). */
void gang_alloc_init(gang_t *g);
void gang_alloc_fini(gang_t *g);
/* The policy's choice for j in the slot of row pe_job (NULL: a new slot)
 * into j->pe_ids (scratch until applied): true when it fits. One indirect
 * call. */
bool gang_alloc_choose(gang_t *g, job_t *const *pe_job, job_t *j);
/* The same, to apply: the answer must be "fits" (the scheduler tested the
 * slot just before); a component other than the built-in has its answer
 * checked (sched/allocation.h's rules; a broken rule stops the run with a
 * message), and under TREE the racks j spans are counted. */
void gang_alloc_apply(gang_t *g, job_t *const *pe_job, job_t *j);
/* The checking mode's question (sched/gang_check.c): would the policy put
 * j in the slot of row pe_job (NULL: new) with the network RAM `avail`
 * (mem_global)? ids: scratch of j->threads ints. */
bool gang_alloc_fits(const gang_t *g, job_t *const *pe_job, const job_t *j, int *ids,
                     double avail);
/* True when g's policy is the built-in FIRSTFREE. */
bool gang_alloc_builtin(const gang_t *g);
/* TREE: the racks j's cores span (0 without racks). O(threads). */
int gang_job_racks(const gang_t *g, const job_t *j);

/* The mean pairwise hop distance between j's threads' cores
 * (sched_alloc_hops over the threads' pairs; docs/METRICS.md): NAN for a
 * job of one thread (no pair). O(threads + nodes used^2); uses g's
 * scratch (not thread-safe, leaves it zero). */
double gang_job_hops(const gang_t *g, const job_t *j);
/* p.alloc_metrics: the mean of gang_job_hops over the placements of jobs
 * of two threads or more (each placement counted once); NAN before any. */
void gang_hops_mean(const gang_t *g, double *mean);

/* network.topology = TREE: the racks spanned by the cores of the jobs
 * placed so far (each placement counted once), mean and largest; 0 and 0
 * before any placement or without racks (sched/gang_alloc.c). */
void gang_racks_spanned(const gang_t *g, double *mean, int *max);

#endif
