/* sched/gang_future.c: the scheduler's machine as expected at a later
 * instant (sched/gang_future.h): a row of cores and the MB reserved per
 * node built from the jobs the caller keeps, and the run's allocation
 * (scheduler.allocation, with its memory rule and no network RAM) asked on
 * it, reading those MB in place of the scheduler's own for that one call.
 * Above sched/gang_alloc.c; used by sched/backfill.c and sched/bf_plan.c.
 * Its scratch (a row, MB per node, cores) is allocated at its first use
 * and freed by gang_destroy.
 */
#include "sched/gang_future.h"

#include "core/mem.h"
#include "sched/gang_alloc.h"

#include <assert.h>
#include <math.h>
#include <string.h>

/* Mark job k's cores in fut_row and its threads' MB in fut_res. */
static void fut_add(gang_t *g, job_t *k)
{
    core_iter it;
    for (int pe = gang_core_first(g, k, &it); pe >= 0; pe = gang_core_next(g, k, &it))
        g->fut_row[pe] = k;
    for (int i = 0; i < k->threads; i++)
        g->fut_res[k->pe_ids[i] / g->cpn] += k->mem_mb;
}

bool gang_cores_now(gang_t *g, job_t *j)
{
    job_t *const *row = g->nslots > 0 ? g->slots[0]->pe_job : NULL;
    if (row && j->width > g->slots[0]->nfree)
        return false;
    if (!row && (j->width > g->npes || (g->p.mpl != 0 && g->p.mpl <= g->nslots)))
        return false;
    return gang_alloc_choose(g, row, j);
}

bool gang_fits_after(gang_t *g, job_t *const *keep, size_t n, job_t *with, bool with_counts,
                     const job_t *j)
{
    assert(g->p.mem_aware);
    if (!g->fut_row) {
        g->fut_row = xcalloc((size_t)g->npes, sizeof *g->fut_row);
        g->fut_res = xcalloc((size_t)g->nnodes, sizeof *g->fut_res);
        g->fut_ids = xcalloc((size_t)g->npes, sizeof *g->fut_ids);
    }
    if (with && !gang_cores_now(g, with))
        return false;
    memset(g->fut_row, 0, (size_t)g->npes * sizeof *g->fut_row);
    memset(g->fut_res, 0, (size_t)g->nnodes * sizeof *g->fut_res);
    for (size_t i = 0; i < n; i++)
        fut_add(g, keep[i]);
    if (with && with_counts)
        fut_add(g, with);
    int nfree = 0;
    for (int pe = 0; pe < g->npes; pe++)
        nfree += !g->fut_row[pe];
    if (nfree < j->width)
        return false;
    /* The allocation reads g->reserved (sched_alloc_free_mb, the admission
     * rules): it reads the expected figures for this one call. */
    double *now_res = g->reserved;
    g->reserved = g->fut_res;
    bool fits = gang_alloc_fits(g, g->fut_row, j, g->fut_ids, 0);
    g->reserved = now_res;
    return fits;
}

const int *gang_fits_cores(const gang_t *g) { return g->fut_ids; }

bool gang_mem_can_bind(const gang_t *g, job_t *const *q, size_t n)
{
    if (g->cl->resize || !gang_alloc_builtin(g))
        return true;
    double least = INFINITY;
    for (int k = 0; k < g->nnodes; k++) {
        const pe_t *pe = &g->cl->pes[k];
        if (pe->lent_mb > 0)
            return true;
        if (pe->ram_mb < least)
            least = pe->ram_mb;
    }
    for (size_t i = 0; i < n; i++)
        if (q[i]->mem_mb * g->cpn > least)
            return true;
    return false;
}

bool gang_mem_matters(const gang_t *g)
{
    if (!g->p.mem_aware || g->cpn > 1 || (g->p.mem_global && g->p.netram) ||
        !gang_alloc_builtin(g))
        return g->p.mem_aware;
    for (int n = 1; n < g->nnodes; n++)
        if (g->cl->pes[n].ram_mb != g->cl->pes[0].ram_mb)
            return true;
    return false;
}
