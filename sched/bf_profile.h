/* sched/bf_profile.h: the profiles of free PEs over time that the
 * backfilling passes build and reserve in (sched/backfill.c, which sits
 * above; sched/bf_profile.c), and the instants "just after" a time at
 * which their steps may sit (docs/SCHEDULING.md, "Moments"). A profile
 * knows placed jobs only by their expected end (job_t.bf_end), start and
 * width; it knows nothing of the scheduler.
 */
#ifndef PNRSIM_SCHED_BF_PROFILE_H
#define PNRSIM_SCHED_BF_PROFILE_H

#include "sched/job.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

/* A profile: steps (t[i], f[i]) meaning f[i] PEs are free from t[i] to
 * t[i+1] (the last step to infinity; it always has every PE free); t[0]
 * is now. */
typedef struct prof {
    double *t;
    int *f;
    double *m;              /* the moment of step i: t[i], or for an instant just
                             * after a moment (see just_after), that moment */
    unsigned char *late;    /* step i is an instant after now at which
                             * nothing is expected to happen (a running job
                             * outlived its estimate): see end_of */
    int n, cap;
    int real;               /* slot index, or -1 for a slot not opened yet */
} prof_t;

/* An instant "just after" t: later than t, earlier than any later time.
 * Two kinds of steps sit there (docs/SCHEDULING.md, "Moments"):
 * - After the jobs that hold PEs only at the instant t and are expected to
 *   end at t itself, so that a second pass really happens at t: a
 *   zero-length job reserved at t (released just after t), and a running
 *   job started at this instant whose estimate says it is done (expected
 *   end == now, start == now). Such a step keeps t as its moment (m): an
 *   interval that starts there ends at t + d, as it will when it starts
 *   at t in that second pass (instants after instants keep the same
 *   moment). Without this, the second pass at the same instant would see
 *   every end moved by one unit in the last place and could reorder
 *   reservations.
 * - After now, where a running job that outlived its estimate is expected
 *   to end (an instant after now; nothing is known to happen then): such a
 *   step is `late`: an interval starting there really starts after now,
 *   so it ends strictly after now + d, also where now+ + d rounds to
 *   now + d (end_of). The late step comes after every step of the first
 *   kind at now, also those that reservations of the same pass add
 *   (release_placed). */
static inline double just_after(double t) { return nextafter(t, INFINITY); }

/* Append step (t, f) with its moment and lateness to p (growing it). */
void prof_push(prof_t *p, double t, int f, double moment, bool late);

/* Release a placed job's PEs at its expected end (ends come in order;
 * moment and late: see just_after). An end not after the last step (only
 * where ends one unit in the last place apart meet the steps just after
 * now) joins that step, which then keeps the later moment. */
void prof_release(prof_t *p, double end, int threads, double moment, bool late);

/* Whether the placed job j, whose expected end is not after now, is due at
 * this very instant: it started now and its estimate says it is done (a
 * zero-length job, or an estimate too small to move the time), so its end
 * is expected now and a second pass follows it at now. Otherwise it
 * outlived its estimate and is expected an instant after now, when
 * nothing is known to happen. */
static inline bool due_now(const job_t *j, double now) { return j->started && j->start == now; }

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
                           size_t chain);

/* End of an interval of d seconds starting at step i: t + d (from the
 * step's moment); a zero-length job holds its PEs
 * for the instant only (just after its start), and so does an estimate too
 * small to move the time. From a late step (an instant after now, see
 * just_after) d > 0 seconds end just after now + d (t[0] is now),
 * whichever late step they start at: they never fit before a step at
 * now + d. */
static inline double end_of(const prof_t *p, int i, double d, bool *point)
{
    double t = p->t[i];
    double e = p->late[i] && d > 0 ? nextafter(p->t[0] + d, INFINITY) : p->m[i] + d;
    *point = !(e > t);
    return *point ? just_after(t) : e;
}

/* The first step with t >= lb (p->n if none). */
static inline int prof_at(const prof_t *p, double lb)
{
    int lo = 0, hi = p->n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (p->t[mid] < lb)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The first step at or after step `from` at which n PEs are free for d
 * seconds (the earliest in the profile when no earlier step can be: see
 * bf_bound.h). Adds the steps examined to *visited. */
int prof_earliest(const prof_t *p, int from, int n, double d, long long *visited);

/* Take n PEs from step i for d seconds; returns the last step taken from. */
int prof_reserve(prof_t *p, int i, int n, double d);

#endif
