/* sched/reserve_bound.h: public (issue 34): lower bounds on conservative reservations, and the
 * test that stops a conservative pass early (issue 14).
 *
 * Within one run of conservative reservations (sched/conservative.c,
 * reserve_from) the profile of free PEs only loses PEs: each reservation
 * takes some, none gives any back. So if job A (n threads, d seconds) fits
 * from time t in the profile as it is when job B is reserved later, then
 * any earlier job C with n' <= n threads and d' <= d seconds fitted from t
 * (or from the start of the step holding t) in the profile as it was at
 * C's turn: C's reservation is at most t. Hence B's earliest start is at
 * least the latest reservation of the jobs before it that are no wider and
 * no longer (2-D dominance). The search for B's start may skip every
 * profile step before that bound: the result is the same as a scan from
 * now, in fewer steps.
 *
 * The structure answers "the latest start among the jobs recorded with
 * threads <= n and duration <= d" with a Fenwick tree over the thread
 * count, each node holding a staircase over durations (durations
 * ascending, starts strictly ascending: a pair with a longer duration and
 * no later start is useless and dropped). Query O(log N log k), record
 * O(log N (log k + a staircase's length)) in the worst case, for N PEs and
 * k records; sched_bound_clear is O(1) (a generation stamp). Arrays are kept from
 * run to run: no allocation once they have grown to the largest pass. */
#ifndef PNRSIM_SCHED_RESERVE_BOUND_H
#define PNRSIM_SCHED_RESERVE_BOUND_H

#include "sched/reserve.h"

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sched_bound_pair {
    double d, s;        /* duration, start */
} sched_bound_pair;

typedef struct sched_bound_stair {
    sched_bound_pair *p;        /* durations ascending, starts strictly ascending */
    int n, cap;
    long gen;           /* n counts only when gen is the structure's */
} sched_bound_stair;

typedef struct sched_bound {
    sched_bound_stair *node;    /* Fenwick nodes 1..npes (index 0 unused) */
    int npes;
    long gen;
} sched_bound;

/* An empty structure for jobs of 1..npes threads (nothing allocated yet). */
void sched_bound_init(sched_bound *b, int npes);
void sched_bound_free(sched_bound *b);
/* Forget every record (O(1)). */
void sched_bound_clear(sched_bound *b);
/* Record a job of n threads and duration d reserved at s (a job wider
 * than npes, or narrower than 1, is not recorded: no bound from it). */
void sched_bound_record(sched_bound *b, int n, double d, double s);
/* The latest start recorded for a job of <= n threads and <= d seconds,
 * or -INFINITY if none (n above npes counts as npes). */
double sched_bound_bound(const sched_bound *b, int n, double d);

/* ---- the stop test by width classes ----------------------------------
 *
 * A conservative pass may stop once no remaining job can start now: later
 * reservations could only delay jobs that cannot start now either. A job
 * of n threads and estimate d starts now only if n PEs stay free from now
 * to now + d (or it holds its PEs for the instant only: now + d == now).
 * With class c = the jobs of 2^c to 2^(c+1) - 1 threads and blk[c] = the
 * first moment at which the profile has fewer than 2^c PEs free, such a
 * job needs now + d <= blk[c]; so if for every class the shortest
 * remaining estimate fails that, no remaining job can start now. The
 * profile only loses PEs during a pass, so blk only moves earlier. MPL 1
 * only (durations are the estimates). */

/* The test is made every SCHED_STOP_STRIDE jobs (rows of the table). */
#define SCHED_STOP_STRIDE 8

typedef struct sched_stop {
    int npes, ncls;     /* classes 0..ncls-1: 2^c <= npes */
    double *row;        /* row r: each class's shortest estimate among the
                         * jobs from r SCHED_STOP_STRIDE on (INFINITY: none) */
    size_t cap;
    double blk[32];
} sched_stop;

void sched_stop_init(sched_stop *s, int npes);
void sched_stop_free(sched_stop *s);
/* The table for the jobs q[0..n) (queued ones only; O(n + ncls n /
 * SCHED_STOP_STRIDE)). */
void sched_stop_jobs(sched_stop *s, sched_job *const *q, size_t n);
/* blk from a profile of n steps (t[i], f[i]) (a scan up to its first step
 * with no PE free). */
void sched_stop_profile(sched_stop *s, const double *t, const int *f, int n);
/* Steps from..to of the profile have lost PEs: lower blk. */
void sched_stop_lower(sched_stop *s, const double *t, const int *f, int from, int to);
/* False only when no job from r SCHED_STOP_STRIDE on (of sched_stop_jobs' q) can start
 * at now. */
bool sched_stop_may_start(const sched_stop *s, double now, size_t r);

#ifdef __cplusplus
}
#endif

#endif
