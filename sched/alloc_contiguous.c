/* sched/alloc_contiguous.c: the built-in allocation policy CONTIGUOUS
 * (scheduler.allocation, issue 35), on the public interface only
 * (sched/allocation.h): the first fit of a run of consecutive cores (whole
 * nodes under EXCLUSIVE), PReMAS's contiguous allocation (docs/SCHEDULING.md
 * "Placement"):
 *
 *   mem_aware NO, SHARED   the lowest-starting run of `threads` consecutive
 *                          free cores; none: the job does not fit (it
 *                          waits, though enough scattered cores may be
 *                          free: the price of contiguity);
 *   LOCAL, SHARED          the cores of a run are those of one stretch of
 *                          free cores, taken from its start; a free core
 *                          whose node has no room for one more thread of
 *                          the job is passed over (it does not end the
 *                          stretch: only a core another job holds does);
 *                          the first stretch that yields `threads` cores;
 *   EXCLUSIVE              the same over nodes: a stretch of wholly free
 *                          nodes, ceil(threads / C) of them, C threads
 *                          each, the last the rest; under LOCAL a node
 *                          without room for the threads it would get is
 *                          passed over; when none fits under LOCAL, the
 *                          built-in's spread (sched_alloc_spread_nodes);
 *   GLOBAL                 LOCAL's choice when there is one (it needs no
 *                          network RAM: the admission's own order,
 *                          sched/admit.h) and the admission admits it;
 *                          else the runs of NO (every window of
 *                          consecutive free cores, or wholly free nodes,
 *                          by increasing start), the first the admission
 *                          admits (sched_alloc_admits).
 * Thread t gets the run's t-th core (ascending). On an empty slot the
 * whole machine is one stretch, so under NO and LOCAL it places a job
 * whenever FIRSTFREE does (the same cores, in fact). O(cores) a call
 * (GLOBAL: O(cores x threads)).
 */
#include "sched/alloc_builtin.h"
#include "sched/alloc_common.h"

/* EXCLUSIVE, GLOBAL: node `node` wholly free. */
static bool node_free(const sched_alloc_view *v, int node)
{
    const int C = sched_alloc_cpn(v);
    for (int c = 0; c < C; c++)
        if (!sched_alloc_pe_free(v, node * C + c))
            return false;
    return true;
}

/* The first window of `w` consecutive free cores (EXCLUSIVE: of the nodes
 * whole) that the admission admits. */
static int global_runs(const sched_alloc_job *j, const sched_alloc_view *v, int *ids)
{
    const int C = sched_alloc_cpn(v);
    const bool excl = sched_alloc_exclusive(v);
    const int units = excl ? sched_alloc_nnodes(v) : sched_alloc_npes(v);
    const int w = excl ? (j->threads + C - 1) / C : j->threads;
    int run = 0;
    for (int u = 0; u < units; u++) {
        bool ok = excl ? node_free(v, u) : sched_alloc_pe_free(v, u);
        run = ok ? run + 1 : 0;
        if (run < w)
            continue;
        int first = u - w + 1;
        if (excl)
            for (int t = 0; t < j->threads; t++)
                ids[t] = (first + t / C) * C + t % C;
        else
            for (int t = 0; t < j->threads; t++)
                ids[t] = first + t;
        if (sched_alloc_admits(v, j, ids))
            return 0;
    }
    return -1;
}

/* NO (local false) and LOCAL: the first stretch that yields the job's
 * cores; 0, or -1. */
static int stretch(const sched_alloc_job *j, const sched_alloc_view *v, int *ids, bool local)
{
    const int C = sched_alloc_cpn(v);
    int k = 0;
    if (sched_alloc_exclusive(v)) {
        const int nn = sched_alloc_nnodes(v);
        for (int node = 0; node < nn && k < j->threads; node++) {
            if (!node_free(v, node)) {
                k = 0; /* another job's node ends the stretch */
                continue;
            }
            int n = j->threads - k < C ? j->threads - k : C;
            if (local && sched_alloc_free_mb(v, node) + ALLOC_EPS < n * j->mem_mb)
                continue; /* passed over */
            for (int c = 0; c < n; c++)
                ids[k++] = node * C + c;
        }
        return k == j->threads ? 0 : -1;
    }
    const int npes = sched_alloc_npes(v);
    int node = -1;
    double room = 0;
    for (int pe = 0; pe < npes && k < j->threads; pe++) {
        if (!sched_alloc_pe_free(v, pe)) {
            k = 0;
            node = -1; /* the next stretch counts its node's room afresh */
            continue;
        }
        if (local) {
            if (pe / C != node) {
                node = pe / C;
                room = sched_alloc_free_mb(v, node);
            }
            if (room + ALLOC_EPS < j->mem_mb)
                continue; /* passed over */
            room -= j->mem_mb;
        }
        ids[k++] = pe;
    }
    return k == j->threads ? 0 : -1;
}

static int contiguous(void *state, const sched_alloc_job *j, const sched_alloc_view *v, int *ids)
{
    (void)state;
    const sched_alloc_mem rule = sched_alloc_mem_rule(v);
    if (rule == SCHED_ALLOC_MEM_GLOBAL)
        return (stretch(j, v, ids, true) == 0 && sched_alloc_admits(v, j, ids)) ||
                       global_runs(j, v, ids) == 0
                   ? 0
                   : -1;
    if (stretch(j, v, ids, rule == SCHED_ALLOC_MEM_LOCAL) == 0)
        return 0;
    return rule == SCHED_ALLOC_MEM_LOCAL ? alloc_fallback(j, v, ids) : -1;
}

const sched_alloc_ops sched_alloc_contiguous = {NULL, NULL, contiguous};
