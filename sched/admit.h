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
 * (a PE here is a node: with several cores per node, issue 25, every term
 * is the node's, and the threads of one job on a node add up)
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

/* What admission looks at: the cluster (nodes: compute nodes
 * 0..nnodes-1 of cpn cores each, cores 0..nnodes*cpn-1, core k on node
 * k / cpn; then memory servers up to cl->npes), the scheduler's reserved
 * MB per compute node, the servers' threshold, and whether network RAM
 * exists at all (when not, nothing is available and GLOBAL admits exactly
 * what LOCAL does). With cpn > 1 the rules also need scratch room the
 * caller owns, zero between calls and left zero: used (MB per compute
 * node), next (an int per compute node) and mark (a byte per core).
 * exclusive: node_sharing EXCLUSIVE (whole nodes; only with cpn > 1). */
typedef struct admit_view {
    const cluster_t *cl;
    int cpn, nnodes;
    const double *reserved;
    double threshold;
    bool netram;
    bool exclusive;
    double *used;
    int *next;
    unsigned char *mark;
} admit_view;

/* MB of network RAM available to new jobs (see above). O(cl->npes). */
double admit_available(const admit_view *v);
/* Choose cores for j among the free cores (taken[core] == NULL; taken
 * NULL = an empty slot). One core per node (cpn = 1): first the
 * lowest-numbered free PEs with room for a thread, then the
 * lowest-numbered other free PEs. Several (SHARED): first the
 * lowest-numbered free cores whose node has room for one more thread of j
 * besides those already chosen on it, then the other free cores round
 * robin over the nodes (node order, one more thread per node per sweep,
 * its lowest free core not yet chosen), so the overallocation is spread.
 * EXCLUSIVE: the LOCAL rule (gang_choose_nodes, sched/gang_nodes.h) when
 * it fits; else first the lowest-numbered whole free nodes with room for
 * the threads each gets (C each, the last node the rest), then the other
 * whole free nodes in order; thread t on core t mod C of the (t/C)-th.
 * (So GLOBAL places a job that fits without network RAM where LOCAL does,
 * and, without network RAM, admits exactly what LOCAL admits.)
 * Writes pe_ids[0..threads-1]; false when too few cores or nodes are
 * free. O(cores) at most. */
bool admit_choose(const admit_view *v, job_t *const *taken, const job_t *j, int *pe_ids);
/* need + loss (above) of j's threads on the cores pe_ids (threads of j on
 * one node add up); *need alone in need. */
double admit_cost(const admit_view *v, const job_t *j, const int *pe_ids, double *need);
/* MB every node could lend on an empty machine (once, at creation). */
double admit_total_lendable(const admit_view *v);
/* True when j can never be admitted: wider than the compute cores, or, on
 * an empty machine, its threads need network RAM and need + loss exceeds
 * `total` (admit_total_lendable). One core per node: the threads on the
 * PEs of most RAM (ram_desc: compute PEs' RAM, largest first),
 * O(threads). Several: the placement admit_choose makes on an empty
 * machine (each node's room its RAM), O(cores); the machine is empty
 * again once every job has ended, so a job not refused here is admitted
 * at the latest then. */
bool admit_impossible(const admit_view *v, const job_t *j, const double *ram_desc,
                      double total);

#endif
