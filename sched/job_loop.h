/* sched/job_loop.h: load imbalance inside a job and the application's own
 * loop scheduling (issue 36 item 2; internal to sched/job*.c; docs/MODEL.md
 * "Load imbalance inside jobs").
 *
 * With process.loop_schedule other than NONE, the work a job's threads do
 * between two synchronisation points (an interval: sync_rate CPU s per
 * thread, the rest of the demand for the last, the whole demand without
 * synchronisation) is n x threads iterations (process.loop_iterations = n)
 * whose demands are drawn, when process.imbalance = c > 0, from a gamma
 * distribution of mean 1 and coefficient of variation c sqrt(n), so that
 * a thread's n of them (its STATIC share) have the CV c (normalised so
 * that the interval's total stays threads x its nominal length: the
 * trace's demand is conserved); with c = 0 all are equal. The schedule
 * hands them out in chunks: STATIC, n consecutive ones to each thread;
 * SS, GSS, FAC (FAC2), WF and AWF, from a queue shared by the job's
 * threads, each taking its next chunk at the moment (simulated time) it
 * finishes the last, paying process.chunk_overhead CPU s per chunk. A
 * thread that pages, waits for its core or is switched out therefore
 * takes fewer; the barrier at the interval's end (or the job's end) waits
 * for the last.
 *
 * The thread's synchronisation clock (thread_t.sync_at) becomes the end of
 * its chunk: nominal_end + lag + (taken - nominal), with lag = its CPU
 * done at the interval's start minus the interval's nominal start and
 * taken the demand it has taken since (overheads included). With STATIC,
 * c = 0 and no overhead, lag and taken - nominal are 0 exactly, so every
 * clock is today's value bit for bit (the test of tests/test_job_loop.c
 * and tests/test_job_loop.sh). Below job.c: called by the thread loop.
 */
#ifndef PNRSIM_SCHED_JOB_LOOP_H
#define PNRSIM_SCHED_JOB_LOOP_H

#include "sched/job_types.h"

/* A job's loop state (job_t.loop; NULL under NONE): the interval set up
 * last and its shared queue of iterations. */
typedef struct job_loop {
    long k;            /* interval set up (1, 2, ...; 0: none yet) */
    long n;            /* iterations per thread in an interval */
    long N;            /* iterations in an interval: n x threads */
    long next;         /* first iteration not yet taken (dynamic schedules) */
    long batch_left;   /* FAC, WF, AWF: iterations left in the batch */
    long batch_R;      /* FAC, WF, AWF: the batch's chunk, ceil(R_b / (2 p)) */
    double nom_start;  /* the interval's nominal bounds, CPU s per thread */
    double nom_end;
    bool barrier;      /* it ends at a synchronisation (else: the work ends) */
    bool over;         /* the interval is past the demand: no work */
    double *P;         /* N + 1 prefix sums of the iterations' demands, mean 1 */
    double *w;         /* WF, AWF: a weight per thread, their sum the threads */
    double *rate;      /* AWF: iterations per s in the last interval, 0 unknown */
} job_loop;

enum { LOOP_MORE = 0, LOOP_BARRIER = 1, LOOP_END = 2 };

/* Give j (about to start, cl->loop_sched != LOOP_NONE, j->cpu > 0) its loop
 * state. Aborts when out of memory. */
void loop_attach(job_t *j);
/* Free j's loop state (NULL: nothing). */
void loop_free(job_t *j);
/* th begins the interval th->sync_k (its first at its start, the next
 * after a barrier), setting it up when it is the first of its job there;
 * takes its first chunk: LOOP_MORE with th->sync_at at the chunk's end,
 * LOOP_BARRIER (nothing left for it: straight to the barrier) or LOOP_END
 * (its work is done). */
int loop_begin(sim_t *sim, thread_t *th);
/* th reached its chunk's end (cpu_done >= sync_at): its next chunk, as
 * loop_begin. */
int loop_take(sim_t *sim, thread_t *th);
/* A gamma draw of the given mean (> 0) and coefficient of variation cv
 * (> 0) from r (Marsaglia and Tsang 2000; shape 1 / cv^2). */
double loop_gamma(rng_t *r, double mean, double cv);

#endif
