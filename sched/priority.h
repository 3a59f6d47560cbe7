/* sched/priority.h: the queue orders (scheduler.priority) as sort keys.
 *
 * Every order is a key, lowest first, ties by trace order (job->order), so
 * one sort serves all of them. With w = wait so far (now - submit), e = the
 * job's estimate, n = its threads, s = its submit time (seconds from the
 * trace start):
 *   FCFS      0                       (trace order)
 *   BESTFIT   -n                      (most PEs first)
 *   WORSTFIT  n                       (fewest PEs first)
 *   SJF       e                       LJF  -e
 *   SAF       n*e                     LAF  -n*e
 *   WFP3      -(w/e)^3 * n            (highest (w/e)^3*n first)
 *   UNICEP    -w / (log2(n) * e)      (n = 1 counts as log2 n = 1)
 *   F1        log10(e)*n + 870*log10(s)   (s = 0 counts as 1)
 * Where e divides or is a logarithm's argument (WFP3, UNICEP, F1) an
 * estimate below 1 s counts as 1 s (a zero estimate would divide by zero).
 * WFP3 and UNICEP depend on the time: they are re-evaluated at every pass.
 */
#ifndef PNRSIM_SCHED_PRIORITY_H
#define PNRSIM_SCHED_PRIORITY_H

#include "sched/job.h"

#include <stddef.h>

/* The key of job j under order p at time now (lower goes first). */
double prio_key(sched_priority p, const job_t *j, double now);
/* Sort v[0..n) by prio_key at now, ties by trace order; sets j->prio_key. */
void prio_sort(job_t **v, size_t n, sched_priority p, double now);
/* True when p is one of PNRSim's orders, served by the gang scheduler's
 * width buckets without sorting (FCFS, BESTFIT, WORSTFIT). */
bool prio_is_bucketed(sched_priority p);

#endif
