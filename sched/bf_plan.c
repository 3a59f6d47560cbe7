/* sched/bf_plan.c: reservations that hold memory (issue 35 item 3;
 * docs/SCHEDULING.md "Reservations that hold memory"), the host's side of
 * sched_host_fits_at and of the plan (sched/reserve.h). MPL 1 under
 * mem_aware only.
 *
 * Cores are not interchangeable once memory counts (a node of more RAM,
 * the cores of one node sharing its RAM), so a reservation that holds
 * memory is a concrete placement: the cores the allocation (the run's
 * scheduler.allocation with its memory rule, without network RAM) would
 * give the job at its start on the machine as expected then. The machine
 * as expected at t: the placed jobs whose expected end is after t keep
 * their cores and their threads' memory (sched/gang.h, gang_fits_after,
 * runs the allocation on that row and those MB per node), and so do the
 * plan's reservations that have started by t and not ended.
 *
 * A job fits the plan at t for d seconds when the allocation places it at
 * t on that machine and, for every reservation r of the plan that starts
 * within (t, t + d), the allocation run again for r at its start with the
 * job added still gives r exactly its planned cores. So a job that starts
 * now never takes cores or memory a reservation needs, and at r's start
 * (estimates exact) the placement, the same rule on the same machine,
 * gives r those cores. A job's planned cores live in its pe_ids (scratch
 * of a waiting job until it is placed, when the placement writes them
 * again) for the rest of the pass.
 *
 * Cost per question: O(cores + threads of the placed jobs and of the
 * plan), times one more for each reservation within the interval.
 */
#include "sched/bf_host.h"
#include "sched/gang.h"
#include "sched/job.h"

#include <assert.h>
#include <math.h>
#include <string.h>

static job_t *JB(const sched_job *j) { return (job_t *)(void *)j; }

static bool memres(const sched_host *h)
{
    return h->memres;
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

/* Whether plan entry r's cores are what the allocation gives it at its
 * start on the machine then with job j (planned at t, to end) added. */
static bool keeps(sched_host *h, size_t r, const job_t *j, double t, double end)
{
    double tr = h->plan_t[r];
    size_t k = placed_after(h, tr, 1);
    for (size_t e = 0; e < h->nplan; e++)
        if (e != r && (h->plan_t[e] < tr || (h->plan_t[e] == tr && e < r)) &&
            h->plan_end[e] > tr)
            h->tmp[k++] = h->plan_job[e];
    if (t < tr && end > tr)
        h->tmp[k++] = (job_t *)j;
    job_t *rj = h->plan_job[r];
    if (!gang_fits_after(h->g, h->tmp, k, NULL, false, rj))
        return false;
    return memcmp(gang_fits_cores(h->g), rj->pe_ids, (size_t)rj->threads * sizeof *rj->pe_ids) ==
           0;
}

bool sched_host_plan_fits(sched_host *h, sched_job *sj, double t, double d)
{
    if (!memres(h))
        return false;
    job_t *j = JB(sj);
    if (!j->queued)
        bf_policy_broken(h, "sched_host_plan_fits of job %ld, which is not waiting", j->id);
    double end = int_end(t, d);
    if (t <= h->now) {
        /* Now: the placement's own choice (GLOBAL: with network RAM). */
        if (!gang_cores_now(h->g, j))
            return false;
    } else {
        size_t k = placed_after(h, t, 0);
        for (size_t e = 0; e < h->nplan; e++)
            if (h->plan_t[e] <= t && h->plan_end[e] > t)
                h->tmp[k++] = h->plan_job[e];
        if (!gang_fits_after(h->g, h->tmp, k, NULL, false, j))
            return false;
        memcpy(j->pe_ids, gang_fits_cores(h->g), (size_t)j->threads * sizeof *j->pe_ids);
    }
    for (size_t r = 0; r < h->nplan; r++)
        if (h->plan_t[r] > t && h->plan_t[r] < end && !keeps(h, r, j, t, end))
            return false;
    return true;
}

void sched_host_plan_add(sched_host *h, sched_job *sj, double t, double d)
{
    if (!memres(h))
        return;
    job_t *j = JB(sj);
    if (!(t > h->now) || !j->queued)
        bf_policy_broken(h, "sched_host_plan_add of job %ld at %.17g (now %.17g)", j->id, t,
                         h->now);
    size_t n = h->nplan + 1;
    h->plan_job = bf_grow(h->plan_job, &h->plancap, n, sizeof *h->plan_job);
    h->plan_t = bf_grow(h->plan_t, &h->plantcap, n, sizeof *h->plan_t);
    h->plan_end = bf_grow(h->plan_end, &h->planecap, n, sizeof *h->plan_end);
    j->bf_plan_t = t;
    j->bf_plan_epoch = h->plan_epoch;
    h->plan_job[h->nplan] = j;
    h->plan_t[h->nplan] = t;
    h->plan_end[h->nplan++] = int_end(t, d);
}

double sched_host_plan_floor(const sched_host *h, const sched_job *sj)
{
    const job_t *j = JB(sj);
    return memres(h) && j->bf_plan_epoch == h->plan_epoch ? j->bf_plan_t : -INFINITY;
}
