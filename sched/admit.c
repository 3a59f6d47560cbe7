/* sched/admit.c: memory-aware admission that counts network RAM
 * (scheduler.mem_aware = GLOBAL); the rule and its bookkeeping are
 * described in admit.h. The scheduler (sched/gang.c) calls admit_available
 * once per placement pass and keeps the figure up to date itself as it
 * places jobs; the rest costs O(threads) per job tried with one core per
 * node, O(cores) at most with several (issue 25: a node's threads add up).
 * Every figure is per node (a pe_t of the cluster); with one core per node
 * a core is its node and the code takes the report-era path unchanged.
 */
#include "sched/admit.h"

#include "sched/gang_nodes.h"

#include <assert.h>
#include <math.h>

#define ADMIT_EPS 1e-9

/* Room of node `node`: RAM minus reserved (compute nodes) and lent memory;
 * on an empty machine (admit_impossible) its RAM. */
static double room_of(const admit_view *v, int node, bool empty)
{
    const pe_t *p = &v->cl->pes[node];
    if (empty)
        return p->ram_mb;
    return p->ram_mb - p->lent_mb - (node < v->nnodes ? v->reserved[node] : 0);
}

static double room(const admit_view *v, int pe) { return room_of(v, pe, false); }

static double lendable(const admit_view *v, double r)
{
    return v->netram && r > v->threshold ? r - v->threshold : 0;
}

double admit_available(const admit_view *v)
{
    if (!v->netram)
        return 0;
    double lend = 0, lack = 0;
    for (int pe = 0; pe < v->cl->npes; pe++) {
        double r = room(v, pe);
        lend += lendable(v, r);
        if (pe < v->nnodes) {
            double u = -r - v->cl->pes[pe].remote_mb;
            if (u > 0)
                lack += u;
        }
    }
    return lend - lack;
}

/* Several cores per node, SHARED: admit.h's rule (rooms first, then round
 * robin over the nodes). Uses v->mark (cores chosen by the first pass) and
 * v->next (each node's next core in the second), and leaves both zero. */
static bool choose_cores(const admit_view *v, job_t *const *taken, const job_t *j, int *ids,
                         bool empty)
{
    const int C = v->cpn;
    const double m = j->mem_mb;
    int k = 0;
    for (int node = 0; node < v->nnodes && k < j->threads; node++) {
        double r = room_of(v, node, empty);
        for (int c = 0; c < C && k < j->threads && r + ADMIT_EPS >= m; c++) {
            int core = node * C + c;
            if (taken && taken[core])
                continue;
            r -= m;
            v->mark[core] = 1;
            ids[k++] = core;
        }
    }
    if (k < j->threads) {
        /* Sweeps over the nodes, one more thread per node each, until the
         * job has its cores or no node has a free core left. */
        for (bool more = true; more && k < j->threads;) {
            more = false;
            for (int node = 0; node < v->nnodes && k < j->threads; node++) {
                int c = v->next[node];
                while (c < C && ((taken && taken[node * C + c]) || v->mark[node * C + c]))
                    c++;
                if (c < C) {
                    ids[k++] = node * C + c++;
                    more = true;
                }
                v->next[node] = c;
            }
        }
        for (int node = 0; node < v->nnodes; node++)
            v->next[node] = 0;
    }
    for (int i = 0; i < k; i++)
        v->mark[ids[i]] = 0;
    return k == j->threads;
}

/* Several cores per node, EXCLUSIVE: admit.h's rule (the LOCAL rule,
 * gang_choose_nodes: whole free nodes with room for their threads, or the
 * threads spread over whole free nodes by their capacity; when neither
 * fits, whole free nodes with room for their threads first, then the other
 * whole free nodes). Uses v->next as a mark of the nodes the first pass
 * took, left zero. */
static bool choose_nodes(const admit_view *v, job_t *const *taken, const job_t *j, int *ids,
                         bool empty)
{
    const int C = v->cpn;
    const nodes_view nv = {v->cl, C, v->nnodes, v->nnodes * C, v->reserved, true};
    if (empty ? gang_spread_nodes(&nv, NULL, j, ids, true) : gang_choose_nodes(&nv, taken, j, ids))
        return true;
    int k = 0;
    for (int pass = 0; pass < 2 && k < j->threads; pass++)
        for (int node = 0; node < v->nnodes && k < j->threads; node++) {
            bool free = !(pass == 1 && v->next[node]);
            for (int c = 0; c < C && free; c++)
                free = !(taken && taken[node * C + c]);
            if (!free)
                continue;
            int n = j->threads - k < C ? j->threads - k : C;
            if (pass == 0 && room_of(v, node, empty) + ADMIT_EPS < n * j->mem_mb)
                continue;
            v->next[node] = 1;
            for (int c = 0; c < n; c++)
                ids[k++] = node * C + c;
        }
    for (int i = 0; i < k; i += C)
        v->next[ids[i] / C] = 0;
    return k == j->threads;
}

static bool choose_rule(const admit_view *v, job_t *const *taken, const job_t *j, int *pe_ids,
                   bool empty)
{
    if (v->cpn > 1)
        return v->exclusive ? choose_nodes(v, taken, j, pe_ids, empty)
                            : choose_cores(v, taken, j, pe_ids, empty);
    int k = 0;
    for (int pass = 0; pass < 2 && k < j->threads; pass++)
        for (int pe = 0; pe < v->nnodes && k < j->threads; pe++) {
            if (taken && taken[pe])
                continue;
            bool fits = room_of(v, pe, empty) + ADMIT_EPS >= j->mem_mb;
            if (fits == (pass == 0))
                pe_ids[k++] = pe;
        }
    return k == j->threads;
}

bool admit_choose(const admit_view *v, job_t *const *taken, const job_t *j, int *pe_ids)
{
    return choose_rule(v, taken, j, pe_ids, false);
}

/* admit_cost's figure, on the machine as it is or empty. Thread by thread:
 * a thread on a node where earlier threads of j were counted sees the
 * node's room less theirs (v->used, cpn > 1, left zero), so the sums over
 * a node's threads telescope to the node's: need max(0, M - max(r, 0)),
 * uncovered max(0, M - r - remote) - max(0, -r - remote), loss
 * lendable(r) - lendable(r - M), M the MB of j's threads there. */
static double cost_of(const admit_view *v, const job_t *j, const int *pe_ids, double *need,
                      bool empty)
{
    double cost = 0, m = j->mem_mb;
    *need = 0;
    for (int i = 0; i < j->threads; i++) {
        int node = pe_ids[i] / v->cpn;
        assert(node >= 0 && node < v->nnodes);
        double r = room_of(v, node, empty);
        if (v->cpn > 1) {
            r -= v->used[node];
            v->used[node] += m;
        }
        double rem = empty ? 0 : v->cl->pes[node].remote_mb;
        double n = m - (r > 0 ? r : 0);
        if (n > ADMIT_EPS)
            *need += n;
        double before = fmax(0, -r - rem), after = fmax(0, m - r - rem);
        cost += (after - before) + (lendable(v, r) - lendable(v, r - m));
    }
    if (v->cpn > 1)
        for (int i = 0; i < j->threads; i++)
            v->used[pe_ids[i] / v->cpn] = 0;
    return cost;
}

double admit_cost(const admit_view *v, const job_t *j, const int *pe_ids, double *need)
{
    return cost_of(v, j, pe_ids, need, false);
}

double admit_total_lendable(const admit_view *v)
{
    double total = 0;
    for (int pe = 0; pe < v->cl->npes; pe++)
        total += lendable(v, v->cl->pes[pe].ram_mb);
    return total;
}

bool admit_impossible(const admit_view *v, const job_t *j, const double *ram_desc,
                      double total)
{
    if (j->threads > v->nnodes * v->cpn)
        return true;
    double need = 0, cost = 0, m = j->mem_mb;
    if (v->cpn > 1) {
        /* The rule's own placement on an empty machine (pe_ids is the
         * job's, set again at its placement). */
        if (!choose_rule(v, NULL, j, j->pe_ids, true))
            return true;
        cost = cost_of(v, j, j->pe_ids, &need, true);
        return need > ADMIT_EPS && cost > total + ADMIT_EPS;
    }
    for (int k = 0; k < j->threads; k++) {
        double r = ram_desc[k];
        need += fmax(0, m - r);
        cost += fmax(0, m - r) + (lendable(v, r) - lendable(v, r - m));
    }
    return need > ADMIT_EPS && cost > total + ADMIT_EPS;
}
