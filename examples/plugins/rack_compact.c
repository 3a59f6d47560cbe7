/* examples/plugins/rack_compact.c: an allocation policy (scheduler.allocation
 * = RACK_COMPACT, issue 34) that keeps a job's cores inside as few racks of
 * a TREE network as it can, so that its threads' messages (each thread
 * talks to the next, the last to the first) cross as few uplinks as
 * possible. Built against the public headers only:
 *
 *   cc -shared -fPIC $(pkg-config --cflags pnrsim) rack_compact.c -o rack_compact.so
 *   pnrsim --plugin rack_compact.so --set scheduler.allocation=RACK_COMPACT ...
 *
 * The rule, for a job of w threads in the slot considered:
 *   1. A node's usable cores: its free cores (SHARED), at most as many
 *      threads as its free RAM holds under mem_aware LOCAL (threads of one
 *      job on a node add up); under node_sharing EXCLUSIVE a wholly free
 *      node whose RAM holds C threads (LOCAL) gives C, any other 0 (so the
 *      job takes ceil(w / C) whole nodes, C threads each, the last the
 *      rest). A rack's capacity: the sum over its nodes.
 *   2. If one rack holds the job, the one of least capacity that does
 *      (best fit, keeping big racks for big jobs; ties: the
 *      lowest-numbered). Otherwise racks in decreasing capacity (ties: the
 *      lowest-numbered) until their capacities reach w: the fewest racks
 *      any choice could span (taking the largest first is optimal for
 *      covering a count).
 *   3. The cores: the usable cores of the chosen racks' nodes in
 *      increasing core order, so thread t's core is below thread t+1's;
 *      the highest-numbered chosen rack is the one left partly unused.
 *   4. mem_aware GLOBAL: the cores as for NO (every free core usable), then
 *      the admission's test (sched_alloc_admits): refused, it does not fit.
 * Without racks (another topology) the machine is one rack, and the rule
 * gives FIRSTFREE's lowest-numbered free cores (mem_aware NO).
 */
#include "core/registry.h"
#include "sched/allocation.h"

#include <stdlib.h>

#define EPS 1e-9

/* Scratch grown to the machine once (no allocation per placement after). */
typedef struct rc_state {
    int *cap;            /* per rack */
    unsigned char *take; /* per rack */
    int nr;
} rc_state;

static void *rc_create(const pnrsim_ctx *ctx)
{
    (void)ctx;
    return calloc(1, sizeof(rc_state));
}

static void rc_destroy(void *state)
{
    rc_state *s = state;
    if (s) {
        free(s->cap);
        free(s->take);
    }
    free(s);
}

/* The usable cores of node `node` (rule 1); with ids, the first `want` of
 * them are written there (the node's lowest such cores). */
static int node_usable(const sched_alloc_job *j, const sched_alloc_view *v, int node, int want,
                       int *ids)
{
    const int C = sched_alloc_cpn(v);
    const sched_alloc_mem rule = sched_alloc_mem_rule(v);
    const bool local = rule == SCHED_ALLOC_MEM_LOCAL;
    if (sched_alloc_exclusive(v)) {
        for (int c = 0; c < C; c++)
            if (!sched_alloc_pe_free(v, node * C + c))
                return 0;
        if (local && sched_alloc_free_mb(v, node) + EPS < C * j->mem_mb)
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
            if (room + EPS < j->mem_mb)
                break;
            room -= j->mem_mb;
        }
        if (ids && n < want)
            ids[n] = pe;
        n++;
    }
    return n;
}

static int rack_of_node(const sched_alloc_view *v, int node)
{
    return sched_alloc_nracks(v) > 0 ? sched_alloc_rack_of(v, node * sched_alloc_cpn(v)) : 0;
}

static int rc_choose(void *state, const sched_alloc_job *j, const sched_alloc_view *v, int *ids)
{
    rc_state *s = state;
    const int nr = sched_alloc_nracks(v) > 0 ? sched_alloc_nracks(v) : 1;
    const int nn = sched_alloc_nnodes(v);
    if (nr > s->nr) {
        free(s->cap);
        free(s->take);
        s->cap = malloc((size_t)nr * sizeof *s->cap);
        s->take = malloc((size_t)nr);
        if (!s->cap || !s->take)
            abort();
        s->nr = nr;
    }
    for (int r = 0; r < nr; r++) {
        s->cap[r] = 0;
        s->take[r] = 0;
    }
    for (int node = 0; node < nn; node++)
        s->cap[rack_of_node(v, node)] += node_usable(j, v, node, 0, NULL);
    /* Rule 2. */
    int best = -1;
    for (int r = 0; r < nr; r++)
        if (s->cap[r] >= j->threads && (best < 0 || s->cap[r] < s->cap[best]))
            best = r;
    if (best >= 0) {
        s->take[best] = 1;
    } else {
        long got = 0;
        while (got < j->threads) {
            int m = -1;
            for (int r = 0; r < nr; r++)
                if (!s->take[r] && s->cap[r] > 0 && (m < 0 || s->cap[r] > s->cap[m]))
                    m = r;
            if (m < 0)
                return -1; /* the machine's free cores are too few */
            s->take[m] = 1;
            got += s->cap[m];
        }
    }
    /* Rule 3. */
    int k = 0;
    for (int node = 0; node < nn && k < j->threads; node++)
        if (s->take[rack_of_node(v, node)]) {
            int n = node_usable(j, v, node, j->threads - k, ids + k);
            k += n < j->threads - k ? n : j->threads - k;
        }
    if (k < j->threads)
        return -1;
    /* Rule 4. */
    if (sched_alloc_mem_rule(v) == SCHED_ALLOC_MEM_GLOBAL && !sched_alloc_admits(v, j, ids))
        return -1;
    return 0;
}

static const sched_alloc_ops rack_compact = {rc_create, rc_destroy, rc_choose};

/* The API version this plugin is built against, read by the loader. */
PNRSIM_PLUGIN_DECLARE;

int pnrsim_plugin_init(pnrsim_registry *r, int api_version);

int pnrsim_plugin_init(pnrsim_registry *r, int api_version)
{
    if (api_version != PNRSIM_API_VERSION)
        return 1;
    return pnrsim_register(r, PNRSIM_KIND_ALLOCATION, "RACK_COMPACT",
                           "a job's cores in as few racks of a TREE network as possible "
                           "(best-fit rack, else the largest racks first)",
                           &rack_compact);
}
