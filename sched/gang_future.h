/* sched/gang_future.h: the scheduler's machine as expected at a later
 * instant, for reservations that hold memory (issue 35 item 3;
 * sched/bf_plan.c, docs/SCHEDULING.md "Reservations that hold memory"):
 * the allocation run on a row of cores and MB per node that the caller
 * describes by the jobs it keeps (sched/gang_future.c). MPL 1.
 */
#ifndef PNRSIM_SCHED_GANG_FUTURE_H
#define PNRSIM_SCHED_GANG_FUTURE_H

#include "sched/gang.h"

#include <stdbool.h>
#include <stddef.h>

/* Whether queued job j would be placed, by the allocation's rule and
 * memory rule without network RAM (GLOBAL: the LOCAL rule), in a slot
 * holding exactly the jobs keep[0..n) (on their pe_ids: their cores, and
 * their threads' MB on their nodes) and, when `with` is not NULL and
 * with_counts, queued job `with` on the cores the allocation gives it in
 * slot 0 now (gang_cores_now). False when `with` (not NULL) does not fit
 * now. Room per node: RAM - lent now - the MB so counted. O(cores + the
 * jobs' threads). */
bool gang_fits_after(gang_t *g, job_t *const *keep, size_t n, job_t *with, bool with_counts,
                     const job_t *j);
/* Whether memory can change which cores a job may take: mem_aware, and
 * several cores per node (they share its RAM), compute nodes of different
 * RAM, GLOBAL with network RAM (nodes lend, their room changes), or an
 * allocation other than the built-in. Not so with one core per node of
 * one RAM size and no lending: a free core then has room for a job's
 * thread or no core ever has, and counting cores is exact. O(nodes). */
bool gang_mem_matters(const gang_t *g);
/* Whether memory can refuse a placement at MPL 1 now (for the pass over
 * the n queued jobs q): a PE lends memory, a job's memory changes over
 * time (a memory profile), an allocation plugin decides, or some queued
 * job's threads could not all fit a node of the least RAM (its MB per
 * thread x cores per node > that RAM). When it cannot, counting cores is
 * exact and reservations need not hold memory (the same schedule, without
 * the plan's cost: docs/SCHEDULING.md "Cost"). Running jobs were queued
 * at an earlier pass, so the caller keeps the answer once true. */
bool gang_mem_can_bind(const gang_t *g, job_t *const *q, size_t n);
/* The cores (j->threads, the allocation's order) of the last
 * gang_fits_after that returned true. */
const int *gang_fits_cores(const gang_t *g);
/* MPL 1: whether queued job j fits in slot 0 now (a new slot when none is
 * open) by the allocation's rule as placement applies it (GLOBAL: with the
 * network RAM available in this pass); its cores then in j->pe_ids
 * (scratch until it is placed). */
bool gang_cores_now(gang_t *g, job_t *j);
#endif
