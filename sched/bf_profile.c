/* sched/bf_profile.c: the profiles of free PEs over time of the
 * backfilling passes (see bf_profile.h): growing one, releasing placed
 * jobs' PEs at their expected ends, finding the earliest step where a job
 * fits for its estimate, and reserving it there. Below sched/backfill.c,
 * split out of it along its dependencies (it uses only job.h's fields).
 */
#include "sched/bf_profile.h"

#include "core/mem.h"

#include <assert.h>
#include <string.h>

/* Append step (t, f) with its moment and lateness to p (growing it). */
void prof_push(prof_t *p, double t, int f, double moment, bool late)
{
    if (p->n == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 16;
        p->t = xrealloc(p->t, (size_t)p->cap * sizeof *p->t);
        p->f = xrealloc(p->f, (size_t)p->cap * sizeof *p->f);
        p->m = xrealloc(p->m, (size_t)p->cap * sizeof *p->m);
        p->late = xrealloc(p->late, (size_t)p->cap * sizeof *p->late);
    }
    p->t[p->n] = t;
    p->f[p->n] = f;
    p->m[p->n] = moment;
    p->late[p->n] = late;
    p->n++;
}

/* Release a placed job's PEs at its expected end (ends come in order;
 * moment and late: see just_after). An end not after the last step (only
 * where ends one unit in the last place apart meet the steps just after
 * now) joins that step, which then keeps the later moment. */
void prof_release(prof_t *p, double end, int threads, double moment, bool late)
{
    assert(end > p->t[0]);
    int l = p->n - 1;
    if (l > 0 && end <= p->t[l]) {
        p->f[l] += threads;
        if (moment > p->m[l])
            p->m[l] = moment;
        p->late[l] |= late;
    } else {
        prof_push(p, end, p->f[l] + threads, moment, late);
    }
}

/* Release the placed jobs js[0..k) of profile p, sorted by expected end;
 * those with an expected end <= lim (>= now) are not expected later than
 * now. Jobs due now free their PEs just after now with the moment now;
 * jobs that outlived their estimate free theirs at a late step after
 * every step that may keep the moment now (docs/SCHEDULING.md, "Moments"):
 * after the due-now step (now+) and after the chain of at most `chain`
 * steps that the reservations of this pass may add just after those
 * (a zero-length job reserved at a step that keeps the moment now ends
 * just after it, keeping the moment: one step per reservation). */
void release_placed(prof_t *p, job_t *const *js, size_t k, double now, double lim,
                           size_t chain)
{
    double after = just_after(now), late_t = after;
    size_t r = 0;
    while (r < k && !(js[r]->bf_end > lim))
        r++;
    bool due = false, late = false;
    for (size_t i = 0; i < r; i++) {
        if (due_now(js[i], now)) {
            prof_release(p, after, js[i]->width, now, false);
            due = true;
        } else {
            late = true;
        }
    }
    if (late) {
        /* The steps that keep the moment now lie in (now, now + c ulps],
         * c = chain (+ 1 with a due-now step): the late step comes after. */
        for (size_t c = chain + due; c-- > 0;)
            late_t = just_after(late_t);
        for (size_t i = 0; i < r; i++)
            if (!due_now(js[i], now))
                prof_release(p, late_t, js[i]->width, late_t, true);
    }
    for (size_t i = r; i < k; i++)
        prof_release(p, js[i]->bf_end, js[i]->width, js[i]->bf_end, false);
}

/* The first step at or after step `from` at which n PEs are free for d
 * seconds (the earliest in the profile when no earlier step can be: see
 * bf_bound.h). Adds the steps examined to *visited. */
int prof_earliest(const prof_t *p, int from, int n, double d, long long *visited)
{
    int i = from;
    while (i < p->n) {
        if (p->f[i] < n) {
            i++;
            continue;
        }
        bool point;
        double end = end_of(p, i, d, &point);
        int k = i;
        bool ok = true;
        while (k + 1 < p->n && p->t[k + 1] < end) {
            k++;
            if (p->f[k] < n) {
                ok = false;
                break;
            }
        }
        if (ok) {
            *visited += k + 1 - from;
            return i;
        }
        i = k + 1;
    }
    assert(!"the last step has every PE free");
    return p->n - 1;
}

/* Take n PEs from step i for d seconds; returns the last step taken from. */
int prof_reserve(prof_t *p, int i, int n, double d)
{
    bool point;
    double end = end_of(p, i, d, &point);
    int k = i;
    while (k + 1 < p->n && p->t[k + 1] < end)
        k++;
    if (k + 1 == p->n || p->t[k + 1] > end) {
        prof_push(p, 0, 0, 0, false); /* room for one more step */
        size_t m = (size_t)(p->n - k - 2);
        memmove(p->t + k + 2, p->t + k + 1, m * sizeof *p->t);
        memmove(p->f + k + 2, p->f + k + 1, m * sizeof *p->f);
        memmove(p->m + k + 2, p->m + k + 1, m * sizeof *p->m);
        memmove(p->late + k + 2, p->late + k + 1, m * sizeof *p->late);
        p->t[k + 1] = end;
        p->f[k + 1] = p->f[k];
        p->m[k + 1] = point ? p->m[i] : end;
        p->late[k + 1] = point && p->late[i];
    }
    for (int s = i; s <= k; s++) {
        p->f[s] -= n;
        assert(p->f[s] >= 0);
    }
    return k;
}
