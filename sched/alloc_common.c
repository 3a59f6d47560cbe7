/* sched/alloc_common.c: the shared parts of the built-in allocation
 * policies CONTIGUOUS, RACK and MC1X1 (sched/alloc_common.h), on the public
 * interface only (sched/allocation.h). */
#include "sched/alloc_common.h"

int alloc_node_usable(const sched_alloc_job *j, const sched_alloc_view *v, int node, int want,
                      int *ids)
{
    return alloc_node_usable_as(j, v, node, want, ids,
                                sched_alloc_mem_rule(v) == SCHED_ALLOC_MEM_LOCAL);
}

int alloc_node_usable_as(const sched_alloc_job *j, const sched_alloc_view *v, int node, int want,
                         int *ids, bool local)
{
    const int C = sched_alloc_cpn(v);
    if (sched_alloc_exclusive(v)) {
        for (int c = 0; c < C; c++)
            if (!sched_alloc_pe_free(v, node * C + c))
                return 0;
        if (local && sched_alloc_free_mb(v, node) + ALLOC_EPS < C * j->mem_mb)
            return 0;
        for (int c = 0; ids && c < want && c < C; c++)
            ids[c] = node * C + c;
        return C;
    }
    double room = local ? sched_alloc_free_mb(v, node) : 0;
    int n = 0;
    for (int c = 0; c < C; c++) {
        int pe = node * C + c;
        if (!sched_alloc_pe_free(v, pe))
            continue;
        if (local) {
            if (room + ALLOC_EPS < j->mem_mb)
                break;
            room -= j->mem_mb;
        }
        if (ids && n < want)
            ids[n] = pe;
        n++;
    }
    return n;
}

int alloc_fallback(const sched_alloc_job *j, const sched_alloc_view *v, int *ids)
{
    if (sched_alloc_exclusive(v) && sched_alloc_mem_rule(v) == SCHED_ALLOC_MEM_LOCAL &&
        sched_alloc_spread_nodes(v, j, ids))
        return 0;
    return -1;
}
