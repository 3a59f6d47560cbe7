/* sched/bf_plan.c: reservations that hold memory (issue 35 item 3;
 * docs/SCHEDULING.md "Reservations that hold memory"), the host's side of
 * sched_host_mem_reserves, sched_host_fits_at and the plan
 * (sched/reserve.h). Only at MPL 1 under mem_aware where memory can
 * change which cores a job may take (gang_mem_matters); elsewhere the
 * questions answer false and the policies count cores as before.
 *
 * Cores are not interchangeable once memory counts (a node of more RAM,
 * the cores of one node sharing its RAM), so a reservation that holds
 * memory is a concrete placement: the cores the allocation (the run's
 * scheduler.allocation with its memory rule, without network RAM) would
 * give the job at its start on the machine as expected then. The machine
 * as expected at t: the placed jobs whose expected end is after t keep
 * their cores and their threads' memory (sched/gang_future.h,
 * gang_fits_after, runs the allocation on that row and those MB per
 * node), and so do the plan's reservations that have started by t and
 * not ended.
 *
 * A job fits the plan at t for d seconds when the allocation places it at
 * t on that machine and every reservation of the plan that starts after t
 * is still placed at its start beside it: the allocation is run again for
 * each, in the order the passes will place them (start, then plan order,
 * which is queue order), each on the machine with the ones before it at
 * the cores just found. Adding the job (plan_add) keeps those cores. So a
 * job that starts now never takes cores or memory a reservation of the
 * pass needs, and with exact estimates the placement at a reservation's
 * start, the same rule on the same machine or on one with fewer jobs,
 * places it. A job's planned cores live in its pe_ids (scratch of a
 * waiting job until it is placed, when the placement writes them again)
 * for the rest of the pass; h->saved keeps the reservations' cores while
 * a question tries others.
 *
 * Cost per question: O(cores + threads of the placed jobs and of the
 * plan), once more for each reservation that starts after t. No
 * allocation in steady state (the arrays grow to the largest plan).
 */
#include "sched/bf_host.h"
#include "sched/gang_future.h"
#include "sched/gang.h"
#include "sched/job.h"

#include <assert.h>
#include <math.h>
#include <string.h>

static job_t *JB(const sched_job *j) { return (job_t *)(void *)j; }

static bool memres(const sched_host *h)
{
    return h->memres && h->mem_binds;
}

bool sched_host_mem_reserves(const sched_host *h) { return memres(h); }

/* The end a placed or candidate job is expected at, as the questions count
 * it: e, or just after now when e is not after now. */
static double fut_end(double e, double now) { return e > now ? e : sched_just_after(now); }

/* The end of an interval of d seconds from t: t + d, or just after t (a
 * zero-length job holds its cores for the instant). */
static double int_end(double t, double d) { return t + d > t ? t + d : sched_just_after(t); }

/* h->tmp[0..) = the placed jobs expected to end after t; returns how
 * many (room for `extra` more). */
static size_t placed_after(sched_host *h, double t, size_t extra)
{
    h->tmp = bf_grow(h->tmp, &h->tmpcap, h->nrun + h->nplan + extra + 1, sizeof *h->tmp);
    size_t k = 0;
    for (size_t i = 0; i < h->nrun; i++)
        if (fut_end(h->run[i]->bf_end, h->now) > t)
            h->tmp[k++] = h->run[i];
    return k;
}

bool sched_host_fits_at(sched_host *h, const sched_job *j, double t, const sched_job *with)
{
    if (!memres(h))
        return false;
    job_t *w = with ? JB(with) : NULL;
    if (w && !w->queued)
        bf_policy_broken(h, "sched_host_fits_at with job %ld, which is not waiting", w->id);
    size_t k = placed_after(h, t, 0);
    /* with: placed now, counted at t until now + its estimate (it must fit
     * now either way). */
    bool counts = w && fut_end(h->now + w->estimate, h->now) > t;
    return gang_fits_after(h->g, h->tmp, k, w, counts, JB(j));
}

void sched_host_plan_clear(sched_host *h) { h->nplan = 0; }

/* Whether entry e comes before entry r at the same instant: by start,
 * then by plan order (queue order: a pass places jobs in queue order). */
static bool before(const sched_host *h, size_t e, size_t r)
{
    return h->plan_t[e] < h->plan_t[r] || (h->plan_t[e] == h->plan_t[r] && e < r);
}

/* j's cores at t into j->pe_ids (the allocation at t on the machine as
 * expected then, without j); false when it does not fit there. */
static bool cores_at(sched_host *h, job_t *j, double t)
{
    if (t <= h->now) /* now: the placement's own choice (GLOBAL: with network RAM) */
        return gang_cores_now(h->g, j);
    size_t k = placed_after(h, t, 0);
    for (size_t e = 0; e < h->nplan; e++)
        if (h->plan_t[e] <= t && h->plan_end[e] > t)
            h->tmp[k++] = h->plan_job[e];
    if (!gang_fits_after(h->g, h->tmp, k, NULL, false, j))
        return false;
    memcpy(j->pe_ids, gang_fits_cores(h->g), (size_t)j->threads * sizeof *j->pe_ids);
    return true;
}

/* With j at t (its cores in pe_ids) until end: run the allocation again
 * for every entry that starts after t, in the order the passes will place
 * them (start, then plan order), each on the machine as expected at its
 * start with the entries before it at the cores just found; their cores
 * go to their pe_ids. False when one no longer fits. The entries' cores
 * before the call are saved in h->saved (restore_entries). */
static bool resimulate(sched_host *h, const job_t *j, double t, double end)
{
    size_t n = 0;
    for (size_t r = 0; r < h->nplan; r++)
        if (h->plan_t[r] > t)
            n += (size_t)h->plan_job[r]->threads;
    h->saved = bf_grow(h->saved, &h->savedcap, n + 1, sizeof *h->saved);
    n = 0;
    for (size_t r = 0; r < h->nplan; r++)
        if (h->plan_t[r] > t) {
            const job_t *rj = h->plan_job[r];
            memcpy(h->saved + n, rj->pe_ids, (size_t)rj->threads * sizeof *h->saved);
            n += (size_t)rj->threads;
        }
    /* The entries after t by (start, plan order): plan_ord is kept so. */
    for (size_t i = 0; i < h->nplan; i++) {
        size_t r = h->plan_ord[i];
        double tr = h->plan_t[r];
        if (!(tr > t))
            continue;
        size_t k = placed_after(h, tr, 1);
        for (size_t e = 0; e < h->nplan; e++)
            if (e != r && before(h, e, r) && h->plan_end[e] > tr)
                h->tmp[k++] = h->plan_job[e];
        if (t < tr && end > tr)
            h->tmp[k++] = (job_t *)j;
        job_t *rj = h->plan_job[r];
        if (!gang_fits_after(h->g, h->tmp, k, NULL, false, rj))
            return false;
        memcpy(rj->pe_ids, gang_fits_cores(h->g), (size_t)rj->threads * sizeof *rj->pe_ids);
    }
    return true;
}

/* Put back the entries' cores that resimulate saved (j at t). */
static void restore_entries(sched_host *h, double t)
{
    size_t n = 0;
    for (size_t r = 0; r < h->nplan; r++)
        if (h->plan_t[r] > t) {
            job_t *rj = h->plan_job[r];
            memcpy(rj->pe_ids, h->saved + n, (size_t)rj->threads * sizeof *h->saved);
            n += (size_t)rj->threads;
        }
}

/* plan_fits, and when `commit` and it fits, the entries keep the cores
 * they get with j. */
static bool fits_plan(sched_host *h, job_t *j, double t, double d, bool commit)
{
    double end = int_end(t, d);
    if (!cores_at(h, j, t))
        return false;
    bool ok = resimulate(h, j, t, end);
    if (!ok || !commit)
        restore_entries(h, t);
    return ok;
}

bool sched_host_plan_fits(sched_host *h, sched_job *sj, double t, double d)
{
    if (!memres(h))
        return false;
    job_t *j = JB(sj);
    if (!j->queued)
        bf_policy_broken(h, "sched_host_plan_fits of job %ld, which is not waiting", j->id);
    return fits_plan(h, j, t, d, false);
}

void sched_host_plan_add(sched_host *h, sched_job *sj, double t, double d)
{
    if (!memres(h))
        return;
    job_t *j = JB(sj);
    if (!j->queued || !fits_plan(h, j, t, d, true))
        bf_policy_broken(h, "sched_host_plan_add of job %ld at %.17g (now %.17g), which does "
                            "not fit the plan there",
                         j->id, t, h->now);
    if (!(t > h->now))
        return; /* it starts now: the entries took their cores beside it */
    size_t n = h->nplan + 1;
    h->plan_job = bf_grow(h->plan_job, &h->plancap, n, sizeof *h->plan_job);
    h->plan_t = bf_grow(h->plan_t, &h->plantcap, n, sizeof *h->plan_t);
    h->plan_end = bf_grow(h->plan_end, &h->planecap, n, sizeof *h->plan_end);
    h->plan_ord = bf_grow(h->plan_ord, &h->planocap, n, sizeof *h->plan_ord);
    size_t x = h->nplan++;
    h->plan_job[x] = j;
    h->plan_t[x] = t;
    h->plan_end[x] = int_end(t, d);
    /* plan_ord: by (start, plan order); the new entry is last at its start. */
    size_t i = x;
    while (i > 0 && h->plan_t[h->plan_ord[i - 1]] > t) {
        h->plan_ord[i] = h->plan_ord[i - 1];
        i--;
    }
    h->plan_ord[i] = x;
}
