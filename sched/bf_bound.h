/* sched/bf_bound.h: lower bounds on conservative reservations, and the
 * test that stops a conservative pass early (issue 14).
 *
 * Within one run of conservative reservations (sched/backfill.c,
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
 * k records; bfb_clear is O(1) (a generation stamp). Arrays are kept from
 * run to run: no allocation once they have grown to the largest pass. */
#ifndef PNRSIM_SCHED_BF_BOUND_H
#define PNRSIM_SCHED_BF_BOUND_H

#include "sched/job.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct bfb_pair {
    double d, s;        /* duration, start */
} bfb_pair;

typedef struct bfb_stair {
    bfb_pair *p;        /* durations ascending, starts strictly ascending */
    int n, cap;
    long gen;           /* n counts only when gen is the structure's */
} bfb_stair;

typedef struct bfb {
    bfb_stair *node;    /* Fenwick nodes 1..npes (index 0 unused) */
    int npes;
    long gen;
} bfb_t;

/* An empty structure for jobs of 1..npes threads (nothing allocated yet). */
void bfb_init(bfb_t *b, int npes);
void bfb_free(bfb_t *b);
/* Forget every record (O(1)). */
void bfb_clear(bfb_t *b);
/* Record a job of n threads and duration d reserved at s (a job wider
 * than npes, or narrower than 1, is not recorded: no bound from it). */
void bfb_record(bfb_t *b, int n, double d, double s);
/* The latest start recorded for a job of <= n threads and <= d seconds,
 * or -INFINITY if none (n above npes counts as npes). */
double bfb_bound(const bfb_t *b, int n, double d);

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

/* The test is made every BFS_STRIDE jobs (rows of the table). */
#define BFS_STRIDE 8

typedef struct bfs {
    int npes, ncls;     /* classes 0..ncls-1: 2^c <= npes */
    double *row;        /* row r: each class's shortest estimate among the
                         * jobs from r BFS_STRIDE on (INFINITY: none) */
    size_t cap;
    double blk[32];
} bfs_t;

void bfs_init(bfs_t *s, int npes);
void bfs_free(bfs_t *s);
/* The table for the jobs q[0..n) (queued ones only; O(n + ncls n /
 * BFS_STRIDE)). */
void bfs_jobs(bfs_t *s, job_t *const *q, size_t n);
/* blk from a profile of n steps (t[i], f[i]) (a scan up to its first step
 * with no PE free). */
void bfs_profile(bfs_t *s, const double *t, const int *f, int n);
/* Steps from..to of the profile have lost PEs: lower blk. */
void bfs_lower(bfs_t *s, const double *t, const int *f, int from, int to);
/* False only when no job from r BFS_STRIDE on (of bfs_jobs' q) can start
 * at now. */
bool bfs_may_start(const bfs_t *s, double now, size_t r);

#endif
