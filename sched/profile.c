/* sched/bf_profile.c: the profiles of free PEs over time of the
 * backfilling passes (see profile.h): growing one, releasing placed
 * jobs' PEs at their expected ends, finding the earliest step where a job
 * fits for its estimate, and reserving it there. Below sched/backfill.c,
 * split out of it along its dependencies (it uses only job.h's fields).
 */
#include "sched/profile.h"

#include "core/mem.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* Append step (t, f) with its moment and lateness to p (growing it). */
void sched_prof_push(sched_prof *p, double t, int f, double moment, bool late)
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
 * moment and late: see sched_just_after). An end not after the last step (only
 * where ends one unit in the last place apart meet the steps just after
 * now) joins that step, which then keeps the later moment. */
void sched_prof_release(sched_prof *p, double end, int threads, double moment, bool late)
{
    assert(end > p->t[0]);
    int l = p->n - 1;
    if (l > 0 && end <= p->t[l]) {
        p->f[l] += threads;
        if (moment > p->m[l])
            p->m[l] = moment;
        p->late[l] |= late;
    } else {
        sched_prof_push(p, end, p->f[l] + threads, moment, late);
    }
}

/* The first step at or after step `from` at which n PEs are free for d
 * seconds (the earliest in the profile when no earlier step can be: see
 * reserve_bound.h). Adds the steps examined to *visited. */
int sched_prof_earliest(const sched_prof *p, int from, int n, double d, long long *visited)
{
    int i = from;
    while (i < p->n) {
        if (p->f[i] < n) {
            i++;
            continue;
        }
        bool point;
        double end = sched_prof_end_of(p, i, d, &point);
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
int sched_prof_reserve(sched_prof *p, int i, int n, double d)
{
    bool point;
    double end = sched_prof_end_of(p, i, d, &point);
    int k = i;
    while (k + 1 < p->n && p->t[k + 1] < end)
        k++;
    if (k + 1 == p->n || p->t[k + 1] > end) {
        sched_prof_push(p, 0, 0, 0, false); /* room for one more step */
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

sched_prof *sched_profiles_reset(sched_profiles *ps, int k, double now, int nfree, int real)
{
    if (k >= ps->cap) {
        int c = ps->cap ? 2 * ps->cap : 4;
        while (c <= k)
            c *= 2;
        ps->pr = xrealloc(ps->pr, (size_t)c * sizeof *ps->pr);
        memset(ps->pr + ps->cap, 0, (size_t)(c - ps->cap) * sizeof *ps->pr);
        ps->cap = c;
    }
    sched_prof *p = &ps->pr[k];
    p->n = 0;
    p->real = real;
    sched_prof_push(p, now, nfree, now, false);
    return p;
}

void sched_profiles_free(sched_profiles *ps)
{
    for (int i = 0; i < ps->cap; i++) {
        free(ps->pr[i].t);
        free(ps->pr[i].f);
        free(ps->pr[i].m);
        free(ps->pr[i].late);
    }
    free(ps->pr);
    ps->pr = NULL;
    ps->n = ps->cap = 0;
}
