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

#include <assert.h>
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

/* node_sharing EXCLUSIVE, the first rule: the lowest-numbered nodes whose
 * C cores are all free (of pe_job; NULL: all free) and, under mem_aware,
 * whose room holds the threads the node gets: C each, the last node the
 * rest (w - (k-1) C of a job on k = ceil(w / C) nodes). Thread t runs on
 * core t mod C of the (t / C)-th node chosen. Fills ids; false when too
 * few nodes. */
static bool nodes_in_order(const nodes_view *g, job_t *const *pe_job, const job_t *j, int *ids)
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

/* The threads of j that node `node` can take: -1 when one of its cores is
 * taken in pe_job (NULL: none); else the largest n <= C with room + 1e-9
 * >= n x m (the first rule's test), room = RAM on an empty machine, else
 * nodes_room; C when j has no memory. */
static int node_capacity(const nodes_view *g, job_t *const *pe_job, const job_t *j, int node,
                         bool empty)
{
    const int C = g->cpn;
    for (int c = 0; c < C; c++)
        if (pe_job && pe_job[node * C + c])
            return -1;
    double m = j->mem_mb;
    if (!(m > 0))
        return C;
    double r = (empty ? g->cl->pes[node].ram_mb : nodes_room(g, node)) + 1e-9;
    double q = floor(r / m);
    int n = q < 0 ? 0 : q > C ? C : (int)q;
    /* The division may round across a whole number: settle on the
     * product test itself. */
    while (n < C && r >= (n + 1) * m)
        n++;
    while (n > 0 && r < n * m)
        n--;
    return n;
}

/* Free nodes (node_capacity >= 0) whose capacity is at least t; *sum
 * (when not NULL) gets the sum of their capacities. O(cores). */
static int nodes_with(const nodes_view *g, job_t *const *pe_job, const job_t *j, int t,
                      bool empty, long *sum)
{
    int count = 0;
    long s = 0;
    for (int node = 0; node < g->nnodes; node++) {
        int n = node_capacity(g, pe_job, j, node, empty);
        if (n >= 0 && n >= t) {
            count++;
            s += n;
        }
    }
    if (sum)
        *sum = s;
    return count;
}

bool gang_spread_nodes(const nodes_view *g, job_t *const *pe_job, const job_t *j, int *ids,
                       bool empty)
{
    const int C = g->cpn, w = j->threads;
    const int k = (w + C - 1) / C, rem = w - (k - 1) * C;
    /* Every node of a fitting set takes at least rem threads (the other
     * k - 1 take at most C each), so only nodes of capacity >= rem count. */
    if (nodes_with(g, pe_job, j, rem, empty, NULL) < k)
        return false;
    /* T: the largest capacity that k free nodes reach; the k nodes of most
     * capacity are those above T and enough of those at T. */
    int lo = rem, hi = C;
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (nodes_with(g, pe_job, j, mid, empty, NULL) >= k)
            lo = mid;
        else
            hi = mid - 1;
    }
    const int T = lo;
    long above_sum = 0;
    int above = T < C ? nodes_with(g, pe_job, j, T + 1, empty, &above_sum) : 0;
    if (above_sum + (long)(k - above) * T < w)
        return false;
    if (!ids)
        return true;
    int at_T = k - above, got = 0;
    for (int node = 0; node < g->nnodes && got < w; node++) {
        int n = node_capacity(g, pe_job, j, node, empty);
        if (n < T || (n == T && at_T-- <= 0))
            continue;
        if (n > w - got)
            n = w - got;
        for (int c = 0; c < n; c++)
            ids[got++] = node * C + c;
    }
    assert(got == w);
    return true;
}

bool gang_choose_nodes(const nodes_view *g, job_t *const *pe_job, const job_t *j, int *ids)
{
    if (nodes_in_order(g, pe_job, j, ids))
        return true;
    return g->mem_aware && gang_spread_nodes(g, pe_job, j, ids, false);
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

/* node_sharing EXCLUSIVE, mem_aware: true when j can never be placed:
 * gang_spread_nodes (exact: some ceil(w / C) nodes hold its threads) finds
 * no nodes on the empty machine (each node's room its RAM, nothing lent).
 * O(cores log C), once per job. */
bool gang_never_fits_exclusive(const nodes_view *g, const job_t *j)
{
    return !gang_spread_nodes(g, NULL, j, NULL, true);
}
