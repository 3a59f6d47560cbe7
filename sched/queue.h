/* sched/queue.h: the gang scheduler's queue of waiting jobs (techreport
 * §4.4.2: jobs wait in the order of the scheduler's priority).
 *
 * Every waiting job is on two core/list.h lists at once: the queue's FIFO
 * in arrival order (job_t.qlink; its head is the FCFS head) and the FIFO
 * of its width (job_t.blink; one per number of threads 1..npes). The
 * heads the policies need - FCFS, BESTFIT (widest first), WORSTFIT
 * (narrowest first), and "the first job in priority order that fits in k
 * PEs" - are found by looking at no more than npes bucket heads, never by
 * scanning the whole queue. Joining and leaving cost O(1); nothing is
 * allocated after jobq_init.
 */
#ifndef PNRSIM_SCHED_QUEUE_H
#define PNRSIM_SCHED_QUEUE_H

#include "core/list.h"
#include "sched/job.h"
#include "sched/order.h"

typedef struct jobq {
    int npes;           /* widths 1..npes */
    list_t fifo;        /* every waiting job, by arrival (job_t.qlink) */
    list_t *bucket;     /* npes + 1 heads: the jobs of width w (job_t.blink) */
    long *bcount;       /* npes + 1 counts */
    long n;             /* jobs waiting */
} jobq_t;

/* An empty queue for jobs of 1..npes threads. */
void jobq_init(jobq_t *q, int npes);
/* Free the queue's heads (not the jobs). */
void jobq_destroy(jobq_t *q);
/* j (1 <= threads <= npes, not queued) joins the tail; sets j->queued. */
void jobq_push(jobq_t *q, job_t *j);
/* Take the queued j off the queue; clears j->queued. */
void jobq_remove(jobq_t *q, job_t *j);
/* The first waiting job in arrival order, and the one after j; NULL at
 * the end. */
job_t *jobq_first(const jobq_t *q);
job_t *jobq_next(const jobq_t *q, const job_t *j);
/* The head in the order of bucket b (ARRIVAL, WIDEST, NARROWEST: the
 * orders of sched/order.h that say so; ties by arrival), ignoring fit;
 * NULL when empty or for SCHED_BUCKET_NONE (sched/backfill.c sorts those
 * by key). */
job_t *jobq_head(const jobq_t *q, sched_order_bucket b);
/* The first job in bucket b's order with at most maxw threads whose
 * tried_pass is not pass_no (not yet tried in this pass); NULL if none.
 * Costs at most maxw bucket heads plus the tried jobs skipped. */
job_t *jobq_first_fitting(const jobq_t *q, sched_order_bucket b, int maxw, long pass_no);
/* Test hook: NULL, or what is wrong (a job in the wrong bucket or not
 * marked queued, counts that disagree). */
const char *jobq_check(const jobq_t *q);

#endif
