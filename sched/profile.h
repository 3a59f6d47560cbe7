/* sched/profile.h: public (issue 34): the profile of free cores over
 * time that a reservation policy (sched/reserve.h) reserves in, and the
 * instants "just after" a time at which its steps may sit
 * (docs/SCHEDULING.md, "Moments"). The host fills a policy's profiles
 * from the running jobs' expected ends (sched_host_build_profiles); the
 * operations here know nothing of the scheduler: they are arithmetic on
 * the steps, which EASY and CONSERVATIVE (sched/easy.c,
 * sched/conservative.c) and a plugin's policy use alike
 * (sched/profile.c).
 */
#ifndef PNRSIM_SCHED_PROFILE_H
#define PNRSIM_SCHED_PROFILE_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A profile: steps (t[i], f[i]) meaning f[i] PEs are free from t[i] to
 * t[i+1] (the last step to infinity; it always has every PE free); t[0]
 * is now. */
typedef struct sched_prof {
    double *t;
    int *f;
    double *m;              /* the moment of step i: t[i], or for an instant just
                             * after a moment (see sched_just_after), that moment */
    unsigned char *late;    /* step i is an instant after now at which
                             * nothing is expected to happen (a running job
                             * outlived its estimate): see sched_prof_end_of */
    int n, cap;
    int real;               /* slot index, or -1 for a slot not opened yet */
} sched_prof;

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
 *   now + d (sched_prof_end_of). The late step comes after every step of the first
 *   kind at now, also those that reservations of the same pass add
 *   (release_placed). */
static inline double sched_just_after(double t) { return nextafter(t, INFINITY); }

/* Append step (t, f) with its moment and lateness to p (growing it). */
void sched_prof_push(sched_prof *p, double t, int f, double moment, bool late);

/* Release a placed job's PEs at its expected end (ends come in order;
 * moment and late: see sched_just_after). An end not after the last step (only
 * where ends one unit in the last place apart meet the steps just after
 * now) joins that step, which then keeps the later moment. */
void sched_prof_release(sched_prof *p, double end, int threads, double moment, bool late);

/* End of an interval of d seconds starting at step i: t + d (from the
 * step's moment); a zero-length job holds its PEs
 * for the instant only (just after its start), and so does an estimate too
 * small to move the time. From a late step (an instant after now, see
 * sched_just_after) d > 0 seconds end just after now + d (t[0] is now),
 * whichever late step they start at: they never fit before a step at
 * now + d. */
static inline double sched_prof_end_of(const sched_prof *p, int i, double d, bool *point)
{
    double t = p->t[i];
    double e = p->late[i] && d > 0 ? nextafter(p->t[0] + d, INFINITY) : p->m[i] + d;
    *point = !(e > t);
    return *point ? sched_just_after(t) : e;
}

/* The first step with t >= lb (p->n if none). */
static inline int sched_prof_at(const sched_prof *p, double lb)
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
 * reserve_bound.h). Adds the steps examined to *visited. */
int sched_prof_earliest(const sched_prof *p, int from, int n, double d, long long *visited);

/* Take n PEs from step i for d seconds; returns the last step taken from. */
int sched_prof_reserve(sched_prof *p, int i, int n, double d);

/* A policy's profiles (one per open slot, then those of slots not opened
 * yet): pr[0..n), grown as needed and kept from pass to pass (no
 * allocation in steady state). Zero-initialise; free with
 * sched_profiles_free. */
typedef struct sched_profiles {
    sched_prof *pr;
    int n, cap;
} sched_profiles;

/* Profile k of ps emptied (growing ps to hold it; n unchanged), with one
 * step (now, nfree) of moment now; real = its slot, or -1 for a slot not
 * opened yet. Returns it. */
sched_prof *sched_profiles_reset(sched_profiles *ps, int k, double now, int nfree, int real);
/* Free what ps holds (it may be used again, empty). */
void sched_profiles_free(sched_profiles *ps);

#ifdef __cplusplus
}
#endif

#endif
