/* sched/gang_nodes.c: which cores of a slot a job gets when nodes have
 * several cores (issue 25, docs/MODEL.md "Nodes of several cores"), and
 * whether a job can ever get them: memory-aware placement per node
 * (SHARED: a job's threads on one node add up) and whole nodes (EXCLUSIVE).
 * The scheduler (sched/gang.c) and its checks (sched/gang_check.c) call
 * them; they read the matrix row and the reserved memory, and change
 * nothing but the ids they fill. They see the scheduler through a
 * nodes_view (gang_nodes.h), so they sit below sched/gang.c.
 */
#include "sched/gang_nodes.h"

#include <math.h>

/* Several cores per node, mem_aware: the lowest-numbered free cores (of
 * pe_job; NULL: all free) whose node has room for one more thread of j
 * besides those of j already chosen on it (threads of a job on one node
 * add up). Fills ids; false when fewer than j->threads. */
bool gang_choose_cores(const nodes_view *g, job_t *const *pe_job, const job_t *j, int *ids)
{
    int k = 0, node = -1;
    double room = 0;
    for (int pe = 0; pe < g->npes && k < j->threads; pe++) {
        if (pe / g->cpn != node) {
            node = pe / g->cpn;
            room = nodes_room(g, node);
        }
        if (pe_job && pe_job[pe])
            continue;
        if (room + 1e-9 < j->mem_mb)
            continue;
        room -= j->mem_mb;
        ids[k++] = pe;
    }
    return k == j->threads;
}

/* node_sharing EXCLUSIVE: the lowest-numbered nodes whose C cores are all
 * free (of pe_job; NULL: all free) and, under mem_aware, whose room holds
 * the threads the node gets: C each, the last node the rest (w - (k-1) C of
 * a job on k = ceil(w / C) nodes). Thread t runs on core t mod C of the
 * (t / C)-th node chosen. Fills ids; false when too few nodes. */
bool gang_choose_nodes(const nodes_view *g, job_t *const *pe_job, const job_t *j, int *ids)
{
    const int C = g->cpn;
    int k = 0;
    for (int node = 0; node < g->nnodes && k < j->threads; node++) {
        bool free = true;
        for (int c = 0; c < C && free; c++)
            free = !(pe_job && pe_job[node * C + c]);
        if (!free)
            continue;
        int n = j->threads - k < C ? j->threads - k : C;
        if (g->mem_aware && nodes_room(g, node) + 1e-9 < n * j->mem_mb)
            continue;
        for (int c = 0; c < n; c++)
            ids[k++] = node * C + c;
    }
    return k == j->threads;
}

/* Several cores per node, mem_aware: true when j's threads can never be
 * placed: even on empty nodes, node i holds at most min(C, RAM_i / m)
 * threads of m MB (its threads add up), and those do not add up to j's
 * width. O(nodes), once per submitted job. */
bool gang_never_fits(const nodes_view *g, const job_t *j)
{
    if (!(j->mem_mb > 0))
        return false;
    long k = 0;
    for (int i = 0; i < g->nnodes && k < j->threads; i++) {
        double n = floor((g->cl->pes[i].ram_mb + 1e-9) / j->mem_mb);
        k += n < g->cpn ? (long)n : g->cpn;
    }
    return k < j->threads;
}

/* node_sharing EXCLUSIVE, mem_aware: true when j can never be placed: the
 * rule of gang_choose_nodes on empty nodes (node i holds up to C threads
 * when C x m fits its RAM) finds too few. O(nodes), once per job. */
bool gang_never_fits_exclusive(const nodes_view *g, const job_t *j)
{
    const int C = g->cpn;
    int k = 0;
    for (int i = 0; i < g->nnodes && k < j->threads; i++) {
        int n = j->threads - k < C ? j->threads - k : C;
        if (g->cl->pes[i].ram_mb - g->cl->pes[i].lent_mb + 1e-9 >= n * j->mem_mb)
            k += n;
    }
    return k < j->threads;
}
