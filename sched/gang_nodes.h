/* sched/gang_nodes.h: the cores a job gets in a slot when nodes have several
 * cores (issue 25; sched/gang_nodes.c). The scheduler passes what these
 * rules read as a nodes_view (gang_internal.h: gang_nodes_of).
 */
#ifndef PNRSIM_SCHED_GANG_NODES_H
#define PNRSIM_SCHED_GANG_NODES_H

#include "sched/job.h"

#include <stdbool.h>

/* What the rules read: the cluster (its nodes' RAM and lent memory), cpn
 * cores per node, nnodes compute nodes (npes = nnodes x cpn columns), the
 * MB reserved per compute node, and whether placement is memory-aware. */
typedef struct nodes_view {
    const cluster_t *cl;
    int cpn, nnodes, npes;
    const double *reserved;
    bool mem_aware;
} nodes_view;

/* MB of node `node` that placements may still reserve: RAM - reserved -
 * lent. */
static inline double nodes_room(const nodes_view *v, int node)
{
    return v->cl->pes[node].ram_mb - v->reserved[node] - v->cl->pes[node].lent_mb;
}

/* SHARED with mem_aware: the lowest-numbered free cores (of pe_job; NULL:
 * all free) whose node has room for one more thread of j besides those
 * chosen on it. EXCLUSIVE: k = ceil(threads / C) whole free nodes: first
 * the lowest-numbered ones, under mem_aware with room for the threads each
 * gets (C each, the last node the rest); when those are too few and under
 * mem_aware, gang_spread_nodes. Both fill ids (j->threads of them, in
 * ascending core order) and return false when too few. */
bool gang_choose_cores(const nodes_view *v, job_t *const *pe_job, const job_t *j, int *ids);
bool gang_choose_nodes(const nodes_view *v, job_t *const *pe_job, const job_t *j, int *ids);
/* EXCLUSIVE, mem_aware, the rule for the threads' spread: a node can take
 * cap = min(C, floor(room / m)) threads of m MB (room: its RAM when empty,
 * else nodes_room; -1 for a node with a core taken in pe_job), and j fits
 * iff the k free nodes of most capacity (ties: the lowest-numbered) reach
 * j->threads; those are chosen, and their cores filled in node order, each
 * node up to its capacity, thread t on the t-th core so chosen. Exact: j
 * fits on some k free nodes iff it fits on these. ids may be NULL (only
 * the answer). O(cores log C). */
bool gang_spread_nodes(const nodes_view *v, job_t *const *pe_job, const job_t *j, int *ids,
                       bool empty);
/* mem_aware: j can never be placed, by the same rules on empty nodes
 * (SHARED; EXCLUSIVE: gang_spread_nodes on the empty machine). */
bool gang_never_fits(const nodes_view *v, const job_t *j);
bool gang_never_fits_exclusive(const nodes_view *v, const job_t *j);

#endif
