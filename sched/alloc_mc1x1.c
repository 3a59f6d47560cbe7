/* sched/alloc_mc1x1.c: the built-in allocation policy MC1X1
 * (scheduler.allocation, issue 35), on the public interface only
 * (sched/allocation.h): PReMAS's distance-based allocation from a centre
 * (MC1x1 of Mache, Lo and Windisch, with the pairwise-distance measure of
 * Bender et al.'s Gen-Alg; docs/SCHEDULING.md "Placement"), on pnrsim's
 * hop distance (sched_alloc_hops: 0 on a node, 3 within a rack and 7
 * across racks on TREE, 1 or 3 on WHEEL, ...) instead of a mesh's shells:
 *
 *   1. A node's usable cores as for RACK (alloc_node_usable).
 *   2. Every node with a usable core is a candidate centre, in node order.
 *      From centre c the job takes nodes by increasing hop distance from c
 *      (ties: the lowest-numbered), each as many threads as it has usable
 *      cores (EXCLUSIVE: C, the last the rest), until it has w.
 *   3. The centre whose set has the fewest total pairwise hops (the sum
 *      over pairs of threads of the hops between their cores) wins; ties:
 *      the fewer total hops from the centre (MC1x1's own measure), then
 *      the lowest-numbered centre.
 *   4. The cores: the winner's, in increasing core order (thread t on the
 *      t-th; each node's threads consecutive).
 *   5. GLOBAL: as under LOCAL when its usable cores are enough, else as
 *      under NO, either with sched_alloc_admits (as RACK); EXCLUSIVE under
 *      LOCAL with too few usable nodes: the built-in's spread, as RACK.
 * On STAR, BUS and CONNECTED every two nodes are equally far apart: the
 * centre is the node with the most usable cores (ties lowest), then the
 * lowest-numbered others, so a job is packed on as few nodes as it can.
 * O(nodes x (nodes x distinct hop values + k^2)) a call, k the nodes of a
 * candidate set; scratch grown once to the node count.
 */
#include "sched/alloc_builtin.h"
#include "sched/alloc_common.h"

#include <stdlib.h>

typedef struct mc_state {
    int *usable; /* per node */
    int *dist;   /* per node, from the centre considered */
    int *take;   /* per node: threads taken from it */
    int *list;   /* the nodes taken, in the order taken */
    int nn;
} mc_state;

static void *mc_create(const pnrsim_ctx *ctx)
{
    (void)ctx;
    mc_state *s = calloc(1, sizeof *s);
    if (!s)
        abort();
    return s;
}

static void mc_destroy(void *state)
{
    mc_state *s = state;
    if (s) {
        free(s->usable);
        free(s->dist);
        free(s->take);
        free(s->list);
    }
    free(s);
}

/* Rule 2 from centre c: fills take[] and list[] (k nodes, returned);
 * *from: the threads' total hops from c. */
static int gather(mc_state *s, const sched_alloc_view *v, int w, int c, long *from)
{
    const int nn = sched_alloc_nnodes(v), C = sched_alloc_cpn(v);
    for (int n = 0; n < nn; n++) {
        s->take[n] = 0;
        s->dist[n] = s->usable[n] > 0 ? sched_alloc_hops(v, c * C, n * C) : -1;
    }
    int k = 0, got = 0, level = -1;
    *from = 0;
    while (got < w) {
        int next = -1; /* the least distance above level */
        for (int n = 0; n < nn; n++)
            if (s->dist[n] > level && (next < 0 || s->dist[n] < next))
                next = s->dist[n];
        if (next < 0)
            return -1; /* cannot happen: the caller checked the total */
        for (int n = 0; n < nn && got < w; n++)
            if (s->dist[n] == next) {
                int t = s->usable[n] < w - got ? s->usable[n] : w - got;
                s->take[n] = t;
                s->list[k++] = n;
                got += t;
                *from += (long)t * next;
            }
        level = next;
    }
    return k;
}

/* Rule 3's measure: the pairwise hops of the set gathered. */
static double pairwise(const mc_state *s, const sched_alloc_view *v, int k)
{
    const int C = sched_alloc_cpn(v);
    double sum = 0;
    for (int x = 0; x < k; x++)
        for (int y = x + 1; y < k; y++) {
            int a = s->list[x], b = s->list[y];
            sum += (double)s->take[a] * s->take[b] * sched_alloc_hops(v, a * C, b * C);
        }
    return sum;
}

/* Rules 1-4 with the memory rule `local` (alloc_node_usable_as): 0, or -1
 * when the usable cores are too few. */
static int mc_shape(mc_state *s, const sched_alloc_job *j, const sched_alloc_view *v, int *ids,
                    bool local)
{
    const int nn = sched_alloc_nnodes(v), w = j->threads;
    long total = 0;
    for (int n = 0; n < nn; n++) {
        s->usable[n] = alloc_node_usable_as(j, v, n, 0, NULL, local);
        total += s->usable[n];
    }
    if (total < w)
        return -1;
    int best = -1;
    double best_pair = 0;
    long best_from = 0;
    for (int c = 0; c < nn; c++) {
        if (s->usable[c] == 0)
            continue;
        long from;
        int k = gather(s, v, w, c, &from);
        double p = pairwise(s, v, k);
        if (best < 0 || p < best_pair || (p == best_pair && from < best_from)) {
            best = c;
            best_pair = p;
            best_from = from;
        }
    }
    long from;
    gather(s, v, w, best, &from);
    int k = 0;
    for (int n = 0; n < nn && k < w; n++)
        if (s->take[n] > 0) {
            alloc_node_usable_as(j, v, n, s->take[n], ids + k, local); /* take <= usable */
            k += s->take[n];
        }
    return k == w ? 0 : -1;
}

static int mc_choose(void *state, const sched_alloc_job *j, const sched_alloc_view *v, int *ids)
{
    mc_state *s = state;
    const int nn = sched_alloc_nnodes(v);
    if (nn > s->nn) {
        free(s->usable);
        free(s->dist);
        free(s->take);
        free(s->list);
        s->usable = malloc((size_t)nn * sizeof *s->usable);
        s->dist = malloc((size_t)nn * sizeof *s->dist);
        s->take = malloc((size_t)nn * sizeof *s->take);
        s->list = malloc((size_t)nn * sizeof *s->list);
        if (!s->usable || !s->dist || !s->take || !s->list)
            abort();
        s->nn = nn;
    }
    switch (sched_alloc_mem_rule(v)) {
    case SCHED_ALLOC_MEM_NO:
        return mc_shape(s, j, v, ids, false);
    case SCHED_ALLOC_MEM_LOCAL:
        return mc_shape(s, j, v, ids, true) == 0 ? 0 : alloc_fallback(j, v, ids);
    case SCHED_ALLOC_MEM_GLOBAL: /* rule 5 */
        if (mc_shape(s, j, v, ids, true) == 0 && sched_alloc_admits(v, j, ids))
            return 0;
        return mc_shape(s, j, v, ids, false) == 0 && sched_alloc_admits(v, j, ids) ? 0 : -1;
    }
    return -1;
}

const sched_alloc_ops sched_alloc_mc1x1 = {mc_create, mc_destroy, mc_choose};
