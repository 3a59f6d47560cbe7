/* sched/alloc_firstfree.c: the built-in allocation policy FIRSTFREE
 * (scheduler.allocation's default), on the public interface only
 * (sched/allocation.h; no internal header here): the scheduler's rule of
 * every release before the registry (docs/MODEL.md "Allocation"):
 *
 *   mem_aware NO, SHARED      the lowest-numbered free cores;
 *   LOCAL, one core a node    the lowest-numbered free cores whose node
 *                             has room (sched_alloc_free_mb) for a thread;
 *   LOCAL, several            the lowest-numbered free cores whose node has
 *                             room for one more thread of the job besides
 *                             those already chosen on it;
 *   EXCLUSIVE                 the lowest-numbered wholly free nodes, C
 *                             threads each, the last the rest (thread t on
 *                             core t mod C of the (t / C)-th node), under
 *                             LOCAL with room for the threads each gets;
 *                             when too few under LOCAL, the spread over the
 *                             nodes of most room (sched_alloc_spread_nodes);
 *   GLOBAL                    the memory-aware admission's own choice and
 *                             test (sched_alloc_admit_choose).
 *
 * The last two are view queries: they are the admission rules of
 * sched/admit.c and sched/gang_nodes.c, which the scheduler also uses
 * where no allocation is asked (a job that can never fit, the checks).
 */
#include "sched/alloc_builtin.h"
#include "sched/allocation.h"

#define EPS 1e-9

/* EXCLUSIVE: the lowest-numbered wholly free nodes (under LOCAL with room
 * for their threads). */
static int nodes_in_order(const sched_alloc_job *j, const sched_alloc_view *v, int *ids,
                          bool local)
{
    const int C = sched_alloc_cpn(v), nn = sched_alloc_nnodes(v);
    int k = 0;
    for (int node = 0; node < nn && k < j->threads; node++) {
        bool free = true;
        for (int c = 0; c < C && free; c++)
            free = sched_alloc_pe_free(v, node * C + c);
        if (!free)
            continue;
        int n = j->threads - k < C ? j->threads - k : C;
        if (local && sched_alloc_free_mb(v, node) + EPS < n * j->mem_mb)
            continue;
        for (int c = 0; c < n; c++)
            ids[k++] = node * C + c;
    }
    return k == j->threads ? 0 : -1;
}

static int firstfree(void *state, const sched_alloc_job *j, const sched_alloc_view *v,
                     int *ids)
{
    (void)state;
    const sched_alloc_mem rule = sched_alloc_mem_rule(v);
    if (rule == SCHED_ALLOC_MEM_GLOBAL)
        return sched_alloc_admit_choose(v, j, ids) ? 0 : -1;
    const bool local = rule == SCHED_ALLOC_MEM_LOCAL;
    if (sched_alloc_exclusive(v)) {
        if (nodes_in_order(j, v, ids, local) == 0)
            return 0;
        return local && sched_alloc_spread_nodes(v, j, ids) ? 0 : -1;
    }
    const int npes = sched_alloc_npes(v), C = sched_alloc_cpn(v);
    int k = 0;
    if (!local) {
        for (int pe = 0; pe < npes && k < j->threads; pe++)
            if (sched_alloc_pe_free(v, pe))
                ids[k++] = pe;
        return k == j->threads ? 0 : -1;
    }
    /* LOCAL: a node's room, less the threads of j already chosen on it
     * (one core per node: its own). */
    int node = -1;
    double room = 0;
    for (int pe = 0; pe < npes && k < j->threads; pe++) {
        if (C > 1 && pe / C != node) {
            node = pe / C;
            room = sched_alloc_free_mb(v, node);
        }
        if (!sched_alloc_pe_free(v, pe))
            continue;
        if (C == 1)
            room = sched_alloc_free_mb(v, pe);
        if (room + EPS < j->mem_mb)
            continue;
        room -= j->mem_mb;
        ids[k++] = pe;
    }
    return k == j->threads ? 0 : -1;
}

const sched_alloc_ops sched_alloc_firstfree = {NULL, NULL, firstfree};

int sched_allocations_register(pnrsim_registry *r)
{
    /* FIRSTFREE first: the default's name in every written config.ini.
     * LOWEST (issue 35's name for it) is the same table, so the scheduler
     * treats it as the built-in it is (gang_alloc_builtin) and a run with
     * it is FIRSTFREE's. */
    static const struct {
        const char *name, *desc;
        const sched_alloc_ops *ops;
    } builtins[] = {
        {"FIRSTFREE", "the lowest-numbered free cores (whole nodes under EXCLUSIVE) that the "
                      "memory rule of scheduler.mem_aware allows", &sched_alloc_firstfree},
        {"LOWEST", "FIRSTFREE under another name: the lowest-numbered free cores",
         &sched_alloc_firstfree},
        {"CONTIGUOUS", "the first run of consecutive free cores (whole nodes under EXCLUSIVE) "
                       "that holds the job", &sched_alloc_contiguous},
        {"RACK", "the fewest racks of a TREE network, then the tightest such racks",
         &sched_alloc_rack},
        {"MC1X1", "PReMAS's MC1x1: nearest cores by hops from the centre whose set has the "
                  "fewest pairwise hops", &sched_alloc_mc1x1},
    };
    int rc = PNRSIM_OK;
    for (size_t i = 0; rc == PNRSIM_OK && i < sizeof builtins / sizeof builtins[0]; i++)
        rc = pnrsim_register(r, PNRSIM_KIND_ALLOCATION, builtins[i].name, builtins[i].desc,
                             builtins[i].ops);
    return rc;
}
