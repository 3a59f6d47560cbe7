/* sched/alloc_rack.c: the built-in allocation policy RACK
 * (scheduler.allocation, issue 35), on the public interface only
 * (sched/allocation.h): a job's cores in the fewest racks of a TREE
 * network, then in the tightest such racks (docs/SCHEDULING.md
 * "Placement"). For a job of w threads in the slot considered:
 *
 *   1. A rack's capacity: the usable cores of its nodes
 *      (alloc_node_usable: free cores; LOCAL, as many as the node's RAM
 *      holds threads of the job; EXCLUSIVE, C on a wholly free node whose
 *      RAM, under LOCAL, holds C threads).
 *   2. The fewest racks: k, the least number of racks whose capacities
 *      reach w (the k largest reach it, and no k - 1 do).
 *   3. Then the fewest uplinks: the job's threads are numbered rack by
 *      rack (rule 4), so its ring of messages crosses racks k times when
 *      k > 1 (2 uplinks a crossing) and never when k = 1: the uplinks of
 *      its own messages are fixed by k. What is left to choose is which
 *      racks: the tightest (best fit), so that the racks left whole keep
 *      later jobs in fewer racks and off the uplinks: k = 1, the rack of
 *      least capacity that holds the job; k > 1, the k - 1 largest racks
 *      and, to finish, the rack of least capacity among the others that
 *      reaches w. Ties: the lowest-numbered rack.
 *   4. The cores: the chosen racks' usable cores in increasing core order
 *      (EXCLUSIVE: C threads a node, the last the rest), thread t on the
 *      t-th; the highest-numbered chosen rack is the one left partly used.
 *   5. GLOBAL: the cores as under LOCAL when they are enough (they need
 *      no network RAM: the admission's own order, sched/admit.h), else as
 *      under NO; either with the admission's test (sched_alloc_admits);
 *      refused, the job does not fit in this slot.
 *      EXCLUSIVE under LOCAL with too few usable nodes: the built-in's
 *      spread (sched_alloc_spread_nodes).
 * Without racks (the other topologies) the machine is one rack: the
 * lowest-numbered usable cores, FIRSTFREE's rule under NO and LOCAL.
 * O(cores + racks x k) a call; its scratch grows once to the rack count.
 */
#include "sched/alloc_builtin.h"
#include "sched/alloc_common.h"

#include <stdlib.h>

typedef struct rack_state {
    int *cap;            /* per rack */
    unsigned char *take; /* per rack */
    int nr;
} rack_state;

static void *rack_create(const pnrsim_ctx *ctx)
{
    (void)ctx;
    rack_state *s = calloc(1, sizeof *s);
    if (!s)
        abort();
    return s;
}

static void rack_destroy(void *state)
{
    rack_state *s = state;
    if (s) {
        free(s->cap);
        free(s->take);
    }
    free(s);
}

static int rack_of_node(const sched_alloc_view *v, int node)
{
    return sched_alloc_nracks(v) > 0 ? sched_alloc_rack_of(v, node * sched_alloc_cpn(v)) : 0;
}

/* The largest rack not taken yet (ties: the lowest-numbered), -1 none. */
static int largest(const rack_state *s, int nr)
{
    int m = -1;
    for (int r = 0; r < nr; r++)
        if (!s->take[r] && s->cap[r] > 0 && (m < 0 || s->cap[r] > s->cap[m]))
            m = r;
    return m;
}

/* Rules 1-4 with the memory rule `local` (alloc_node_usable_as): 0, or -1
 * when the usable cores are too few. */
static int rack_shape(rack_state *s, const sched_alloc_job *j, const sched_alloc_view *v, int *ids,
                      bool local)
{
    const int nr = sched_alloc_nracks(v) > 0 ? sched_alloc_nracks(v) : 1;
    const int nn = sched_alloc_nnodes(v), w = j->threads;
    long total = 0;
    for (int r = 0; r < nr; r++) {
        s->cap[r] = 0;
        s->take[r] = 0;
    }
    for (int node = 0; node < nn; node++) {
        int u = alloc_node_usable_as(j, v, node, 0, NULL, local);
        s->cap[rack_of_node(v, node)] += u;
        total += u;
    }
    if (total < w)
        return -1;
    /* Rules 2 and 3: after the i largest racks, some other rack finishes
     * the job exactly when i >= k - 1 (the next largest is the best hope),
     * so take the largest until one can, then the least that can. */
    long got = 0;
    for (;;) {
        int best = -1; /* the least rack not taken that finishes */
        for (int r = 0; r < nr; r++)
            if (!s->take[r] && got + s->cap[r] >= w && (best < 0 || s->cap[r] < s->cap[best]))
                best = r;
        if (best >= 0) {
            s->take[best] = 1;
            break;
        }
        int m = largest(s, nr); /* exists: total >= w */
        s->take[m] = 1;
        got += s->cap[m];
    }
    /* Rule 4. */
    int k = 0;
    for (int node = 0; node < nn && k < w; node++)
        if (s->take[rack_of_node(v, node)]) {
            int n = alloc_node_usable_as(j, v, node, w - k, ids + k, local);
            k += n < w - k ? n : w - k;
        }
    return k < w ? -1 : 0;
}

static int rack_choose(void *state, const sched_alloc_job *j, const sched_alloc_view *v, int *ids)
{
    rack_state *s = state;
    const int nr = sched_alloc_nracks(v) > 0 ? sched_alloc_nracks(v) : 1;
    if (nr > s->nr) {
        free(s->cap);
        free(s->take);
        s->cap = malloc((size_t)nr * sizeof *s->cap);
        s->take = malloc((size_t)nr);
        if (!s->cap || !s->take)
            abort();
        s->nr = nr;
    }
    switch (sched_alloc_mem_rule(v)) {
    case SCHED_ALLOC_MEM_NO:
        return rack_shape(s, j, v, ids, false);
    case SCHED_ALLOC_MEM_LOCAL:
        return rack_shape(s, j, v, ids, true) == 0 ? 0 : alloc_fallback(j, v, ids);
    case SCHED_ALLOC_MEM_GLOBAL: /* rule 5 */
        if (rack_shape(s, j, v, ids, true) == 0 && sched_alloc_admits(v, j, ids))
            return 0;
        return rack_shape(s, j, v, ids, false) == 0 && sched_alloc_admits(v, j, ids) ? 0 : -1;
    }
    return -1;
}

const sched_alloc_ops sched_alloc_rack = {rack_create, rack_destroy, rack_choose};
