/* sched/admit.h: memory-aware admission that counts network RAM
 * (scheduler.mem_aware = GLOBAL, issue 15; extends techreport §2.1.2
 * MemAware).
 *
 * The report's memory-aware scheduler queues a job unless every thread fits
 * in its PE's free RAM (LOCAL). GLOBAL admits a job whose threads would
 * overallocate their PEs when the overallocation can be covered by network
 * RAM still available in the cluster, so a job that would page to disk
 * waits instead. Everything is counted in the scheduler's own terms, the
 * memory it has reserved per PE (placed jobs, from placement until their
 * memory is freed) and the PEs' lent and remote memory:
 *
 *   room(pe)       = RAM - reserved - lent             (compute PEs)
 *                  = RAM - lent                        (memory servers)
 *   lendable(pe)   = max(0, room - threshold)           what it could still lend
 *   uncovered(pe)  = max(0, -room - remote)             overallocation its
 *                                                       threads still lack
 *   available      = sum lendable - sum uncovered       (O(N), once per pass)
 *
 * Placing a thread of m MB on a PE of room r adds need = max(0, m -
 * max(r, 0)) to the uncovered memory and takes loss = lendable(r) -
 * lendable(r - m) from the lendable memory. A job is admitted when its
 * threads need nothing (they fit: the LOCAL rule) or when its total
 * need + loss is at most `available`; placing it subtracts that from the
 * pass's `available`, which is exact (each term is per PE). A grant moves
 * memory from a server's lendable to a node's remote memory and leaves
 * `available` unchanged, so between passes it changes only when memory is
 * freed or lent memory comes back, and both ask for a pass.
 */
#ifndef PNRSIM_SCHED_ADMIT_H
#define PNRSIM_SCHED_ADMIT_H

#include "sched/job.h"

#include <stdbool.h>

/* What admission looks at: the cluster (compute PEs 0..ncompute-1, then
 * memory servers up to cl->npes), the scheduler's reserved MB per compute
 * PE, the servers' threshold, and whether network RAM exists at all (when
 * not, nothing is available and GLOBAL admits exactly what LOCAL does). */
typedef struct admit_view {
    const cluster_t *cl;
    int ncompute;
    const double *reserved;
    double threshold;
    bool netram;
} admit_view;

/* MB of network RAM available to new jobs (see above). O(cl->npes). */
double admit_available(const admit_view *v);
/* Choose PEs for j among the free PEs (taken[pe] == NULL; taken NULL = an
 * empty slot): first the lowest-numbered free PEs with room for a thread,
 * then the lowest-numbered other free PEs. Writes pe_ids[0..threads-1];
 * false when fewer than j->threads PEs are free. */
bool admit_choose(const admit_view *v, job_t *const *taken, const job_t *j, int *pe_ids);
/* need + loss (above) of j's threads on pe_ids; *need alone in need. */
double admit_cost(const admit_view *v, const job_t *j, const int *pe_ids, double *need);
/* MB every PE could lend on an empty machine (once, at creation). */
double admit_total_lendable(const admit_view *v);
/* True when j can never be admitted: wider than the compute PEs, or, on
 * an empty machine with its threads on the PEs of most RAM (ram_desc:
 * compute PEs' RAM, largest first), its threads need network RAM and need
 * + loss exceeds `total` (admit_total_lendable). O(threads). */
bool admit_impossible(const admit_view *v, const job_t *j, const double *ram_desc,
                      double total);

#endif
