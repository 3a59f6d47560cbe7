/* sched/priority.h: the queue order of a run (scheduler.priority: a
 * component of sched/order.h) applied to the scheduler's jobs: a job's
 * public fields, its key, and the sort of a pass (lowest key first, ties
 * by trace order, job->order). The built-in orders are sched/orders.c.
 */
#ifndef PNRSIM_SCHED_PRIORITY_H
#define PNRSIM_SCHED_PRIORITY_H

#include "sched/job.h"
#include "sched/order.h"

#include <stddef.h>

/* The public fields of j (sched/order.h). */
void job_public(const job_t *j, sched_job_info *out);
/* The key of job j under order o (with its state) at time now. */
double prio_key(const sched_order_ops *o, void *state, const job_t *j, double now);
/* Sort v[0..n) by the key at now, ties by trace order; sets j->prio_key. */
void prio_sort(job_t **v, size_t n, const sched_order_ops *o, void *state, double now);

#endif
