/* sched/gang_alloc.c: the scheduler's allocation policy (see
 * sched/gang_alloc.h): the view accessors of sched/allocation.h, the calls
 * into the component, the check of a plugin's answer and the racks
 * spanned; and the memory-aware admission's test (gang_global_fit), which
 * the default reaches through the view.
 */
#include "sched/gang_alloc.h"

#include "core/mem.h"
#include "core/registry_host.h"
#include "sched/admit.h"
#include "sched/alloc_builtin.h"
#include "sched/gang_nodes.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- the view (sched/allocation.h) ---- */

int sched_alloc_npes(const sched_alloc_view *v) { return v->g->npes; }
int sched_alloc_nnodes(const sched_alloc_view *v) { return v->g->nnodes; }
int sched_alloc_cpn(const sched_alloc_view *v) { return v->g->cpn; }
int sched_alloc_node_of(const sched_alloc_view *v, int pe) { return pe / v->g->cpn; }
bool sched_alloc_new_slot(const sched_alloc_view *v) { return !v->pe_job; }

bool sched_alloc_pe_free(const sched_alloc_view *v, int pe)
{
    assert(pe >= 0 && pe < v->g->npes);
    return !(v->pe_job && v->pe_job[pe]);
}

int sched_alloc_nracks(const sched_alloc_view *v)
{
    const net_t *net = v->g->cl->net;
    return net && net_tree_shape(net) ? net_rack_count(net) : 0;
}

int sched_alloc_rack_of(const sched_alloc_view *v, int pe)
{
    const net_t *net = v->g->cl->net;
    return net && net_tree_shape(net) ? net_rack_of(net, pe / v->g->cpn) : -1;
}

double sched_alloc_free_mb(const sched_alloc_view *v, int node)
{
    assert(node >= 0 && node < v->g->nnodes);
    return nodes_room(GANG_NODES(v->g), node);
}

sched_alloc_mem sched_alloc_mem_rule(const sched_alloc_view *v)
{
    return v->g->p.mem_global  ? SCHED_ALLOC_MEM_GLOBAL
           : v->g->p.mem_aware ? SCHED_ALLOC_MEM_LOCAL
                               : SCHED_ALLOC_MEM_NO;
}

bool sched_alloc_exclusive(const sched_alloc_view *v) { return v->g->p.exclusive; }

bool sched_alloc_admits(const sched_alloc_view *v, const sched_alloc_job *j, const int *pe)
{
    assert(v->g->p.mem_global && j->threads == v->job->threads);
    (void)j;
    admit_view a = gang_admit_of(v->g);
    double need, cost = admit_cost(&a, v->job, pe, &need);
    return need <= 1e-9 || cost <= v->avail + 1e-9;
}

bool sched_alloc_admit_choose(const sched_alloc_view *v, const sched_alloc_job *j, int *pe_out)
{
    assert(v->g->p.mem_global && j->threads == v->job->threads);
    (void)j;
    double cost;
    return gang_global_fit(v->g, v->pe_job, v->job, pe_out, v->avail, &cost);
}

bool sched_alloc_spread_nodes(const sched_alloc_view *v, const sched_alloc_job *j, int *pe_out)
{
    assert(v->g->p.exclusive && j->threads == v->job->threads);
    (void)j;
    return gang_spread_nodes(GANG_NODES(v->g), v->pe_job, v->job, pe_out, false);
}

/* ---- the admission's test (gang_internal.h) ---- */

bool gang_global_fit(const gang_t *g, job_t *const *pe_job, const job_t *j, int *pe_ids,
                     double avail, double *cost)
{
    admit_view v = gang_admit_of(g);
    double need;
    if (!admit_choose(&v, pe_job, j, pe_ids))
        return false;
    *cost = admit_cost(&v, j, pe_ids, &need);
    return need <= 1e-9 || *cost <= avail + 1e-9;
}

/* mem_global: the network RAM available in this pass (computed at its
 * first use, then kept up to date by place). */
static double pass_avail(gang_t *g)
{
    if (g->avail_pass != g->pass_no) {
        admit_view v = gang_admit_of(g);
        g->avail = admit_available(&v);
        g->avail_pass = g->pass_no;
    }
    return g->avail;
}

/* ---- the calls ---- */

static sched_alloc_job job_info(const job_t *j)
{
    return (sched_alloc_job){j->id, j->threads, j->width, j->mem_mb};
}

void gang_alloc_init(gang_t *g)
{
    g->alloc = g->p.allocation ? g->p.allocation : &sched_alloc_firstfree;
    g->alloc_state = g->alloc->create ? g->alloc->create(&g->p.ctx) : NULL;
    g->alloc_test = g->p.mem_aware || g->alloc != &sched_alloc_firstfree;
    g->alloc_mark = xcalloc((size_t)g->npes, 1);
    const net_t *net = g->cl->net;
    if (net && net_tree_shape(net))
        g->rack_seen = xcalloc((size_t)net_rack_count(net), sizeof *g->rack_seen);
}

void gang_alloc_fini(gang_t *g)
{
    if (g->alloc && g->alloc->destroy)
        g->alloc->destroy(g->alloc_state);
    free(g->alloc_mark);
    free(g->rack_seen);
}

bool gang_alloc_builtin(const gang_t *g) { return g->alloc == &sched_alloc_firstfree; }

bool gang_alloc_fits(const gang_t *g, job_t *const *pe_job, const job_t *j, int *ids,
                     double avail)
{
    sched_alloc_view v = {g, pe_job, j, avail};
    sched_alloc_job info = job_info(j);
    return g->alloc->choose(g->alloc_state, &info, &v, ids) == 0;
}

bool gang_alloc_choose(gang_t *g, job_t *const *pe_job, job_t *j)
{
    /* mem_global: the pass's figure is taken before the choice, as the
     * scheduler always has (its first use in a pass computes it). */
    double avail = g->p.mem_global ? pass_avail(g) : 0;
    return gang_alloc_fits(g, pe_job, j, j->pe_ids, avail);
}

/* A component's answer broke sched/allocation.h's rules: stop the run. */
static void broken(const gang_t *g, const job_t *j, const char *why)
{
    const pnrsim_component *c = pnrsim_component_of(PNRSIM_KIND_ALLOCATION, g->alloc);
    fprintf(stderr, "pnrsim: scheduler.allocation %s (%s): the answer for job %ld (%d "
                    "threads) %s (sched/allocation.h)\n",
            c ? c->name : "?", c ? c->origin : "?", j->id, j->threads, why);
    exit(2);
}

/* Check a plugin's answer: distinct free cores in range; EXCLUSIVE: whole
 * free nodes, each node's threads consecutive. alloc_mark: bit 1 on a
 * chosen core, bit 2 on the first core of a node whose run of threads has
 * begun; left zero. */
static void check_answer(gang_t *g, job_t *const *pe_job, const job_t *j)
{
    const char *why = NULL;
    const int C = g->cpn;
    int n = 0; /* threads looked at, all in range */
    for (; n < j->threads && !why; n++) {
        int pe = j->pe_ids[n];
        if (pe < 0 || pe >= g->npes) {
            why = "names a core out of range";
            break;
        }
        if (pe_job && pe_job[pe])
            why = "names a core that is not free";
        else if (g->alloc_mark[pe] & 1)
            why = "names a core twice";
        g->alloc_mark[pe] |= 1;
        int node = pe / C;
        if (!g->p.exclusive || why || (n > 0 && j->pe_ids[n - 1] / C == node))
            continue;
        /* EXCLUSIVE: a new run of threads on node `node`. */
        if (g->alloc_mark[node * C] & 2)
            why = "puts the threads of one node apart (node_sharing EXCLUSIVE)";
        g->alloc_mark[node * C] |= 2;
        for (int c = 0; c < C && !why; c++)
            if (pe_job && pe_job[node * C + c])
                why = "names a node that is not wholly free (node_sharing EXCLUSIVE)";
    }
    int nodes = 0; /* EXCLUSIVE: the nodes used, each counted at its first core */
    for (int k = 0; k < n; k++) {
        int pe = j->pe_ids[k];
        nodes += (g->alloc_mark[pe / C * C] & 2) != 0;
        g->alloc_mark[pe / C * C] &= ~2;
    }
    for (int k = 0; k < n; k++) {
        int pe = j->pe_ids[k];
        g->alloc_mark[pe] = 0;
        g->alloc_mark[pe / C * C] = 0;
    }
    if (!why && g->p.exclusive && nodes != (j->threads + C - 1) / C)
        why = "does not use ceil(threads / cores_per_node) whole nodes (node_sharing EXCLUSIVE)";
    if (why)
        broken(g, j, why);
}

int gang_job_racks(const gang_t *g, const job_t *j)
{
    if (!g->rack_seen)
        return 0;
    const net_t *net = g->cl->net;
    int n = 0;
    for (int i = 0; i < j->threads; i++) {
        int r = net_rack_of(net, j->pe_ids[i] / g->cpn);
        if (!g->rack_seen[r]++)
            n++;
    }
    for (int i = 0; i < j->threads; i++)
        g->rack_seen[net_rack_of(net, j->pe_ids[i] / g->cpn)] = 0;
    return n;
}

void gang_alloc_apply(gang_t *g, job_t *const *pe_job, job_t *j)
{
    bool ok = gang_alloc_choose(g, pe_job, j);
    if (!gang_alloc_builtin(g)) {
        if (!ok)
            broken(g, j, "changed from \"fits\" to \"does not fit\" in one placement");
        check_answer(g, pe_job, j);
    }
    assert(ok);
    (void)ok;
    if (g->rack_seen) {
        int n = gang_job_racks(g, j);
        g->racks_sum += n;
        g->racks_jobs++;
        if (n > g->racks_max)
            g->racks_max = n;
    }
}

void gang_racks_spanned(const gang_t *g, double *mean, int *max)
{
    *mean = g->racks_jobs ? (double)g->racks_sum / (double)g->racks_jobs : 0;
    *max = g->racks_max;
}
