/* core/res.h: resources ("facilities" in Sim++): a single server with a
 * FIFO queue, on which the CPU, the disk, links and switches are built.
 *
 * A process asks for the server with PROC_REQUEST (res_request); it gets it
 * at once when it is free, otherwise it joins the tail of the queue and is
 * woken, owning the server, when its turn comes. The owner gives it back
 * with res_release. res_preempt hands the server to another process at
 * once: the owner, which must be holding (serving), is suspended, keeps
 * its remaining service time and goes to the head of the queue; when it gets
 * the server back its hold simply continues.
 *
 * Statistics: busy time (utilisation = busy / elapsed), completions
 * (releases), requests, and the queue length as a time average with its
 * maximum. The queue is a wait queue (core/sync.h) embedded in the
 * resource: no allocation, O(1) removal from the middle.
 */
#ifndef PNRSIM_CORE_RES_H
#define PNRSIM_CORE_RES_H

#include "core/proc.h"
#include "core/stats.h"
#include "core/sync.h"

#include <stdint.h>

typedef struct res {
    const char *name;
    proc_t *holder;           /* NULL when idle */
    waitq_t q;                /* waiting processes, FIFO (q.n of them) */
    double busy_since;        /* when holder != NULL */
    double busy;              /* accumulated busy time until busy_since */
    uint64_t requests, completions, preemptions;
    timeavg_t queue;          /* queue length over time */
} res_t;

/* Initialise an idle resource at the current time. */
void res_init(sim_t *sim, res_t *r, const char *name);
/* Ask for r on behalf of p. Returns true when p now holds r; false when p
 * was queued (it will be woken holding r). */
bool res_request(sim_t *sim, res_t *r, proc_t *p);
/* p, the holder, gives r back; the head of the queue (if any) gets it. */
void res_release(sim_t *sim, res_t *r, proc_t *p);
/* p takes r now. A holding holder is suspended (proc_suspend) and queued
 * at the head; an idle r is simply granted. p must not already be queued on r. */
void res_preempt(sim_t *sim, res_t *r, proc_t *p);
/* p gives r up: released (res_release) when p holds r; when r was taken
 * from p by res_preempt (p suspended at r's queue), p leaves the queue and
 * its hold resumes, now without r (the caller may then interrupt it). */
void res_give_up(sim_t *sim, res_t *r, proc_t *p);
/* Remove p from r's queue (e.g. its message was killed). p must be on r's
 * queue or on none; returns true when it was on r's. O(1). */
bool res_cancel(sim_t *sim, res_t *r, proc_t *p);
/* Uses of an idle r that began and ended unobserved (batched paging,
 * sched/batch.c): n requests and completions with `busy` seconds of service
 * in all, during which nobody else asked for r. r must be idle. */
void res_account(res_t *r, uint64_t n, double busy);
/* p takes idle r now as if it had been granted at `since` (<= now): the
 * rest of a use that began unobserved (batched paging). Counts the request. */
void res_take_since(sim_t *sim, res_t *r, proc_t *p, double since);
/* Busy time up to now. */
double res_busy_time(const sim_t *sim, const res_t *r);
/* Busy time / time since res_init (0 at time 0). */
double res_utilization(const sim_t *sim, const res_t *r);

#endif
