/* core/sync.h: wait queues and barriers, for processes that wait for each
 * other: a job's threads meeting at a global synchronisation, an agent
 * waiting for a reply, and the queue of every resource (core/res.h).
 *
 * waitq_t is a FIFO of waiting processes, a core/list.h list through
 * proc_t.qlink: a process is on at most one queue, and joining, leaving
 * and removal from the middle cost O(1) and allocate nothing.
 * PROC_WAIT(sim, p, q) parks p on q; waitq_signal wakes the longest waiter,
 * waitq_broadcast wakes all of them in the order they arrived. A woken
 * process runs at the current instant, after events already scheduled for
 * it.
 *
 * barrier_t counts arrivals towards a fixed number of parties: the last to
 * arrive is told so and the others wait on the barrier's queue until
 * barrier_release.
 */
#ifndef PNRSIM_CORE_SYNC_H
#define PNRSIM_CORE_SYNC_H

#include "core/list.h"
#include "core/proc.h"

#include <stdint.h>

typedef struct waitq {
    list_t head;        /* processes through proc_t.qlink, FIFO */
    uint32_t n;         /* how many */
} waitq_t;

void waitq_init(waitq_t *q);
/* Append p to q and mark it waiting (used by PROC_WAIT). p must be on no
 * queue. */
void waitq_wait(sim_t *sim, waitq_t *q, proc_t *p);
/* Put p at the head of q without changing its state (a preempted holder
 * goes first). p must be on no queue. */
void waitq_push_head(waitq_t *q, proc_t *p);
/* The first waiter, or NULL when q is empty. */
proc_t *waitq_first(const waitq_t *q);
/* Take the first waiter off q without waking it; NULL when q is empty. */
proc_t *waitq_pop(waitq_t *q);
/* Wake the first waiter; returns it, or NULL when q is empty. */
proc_t *waitq_signal(sim_t *sim, waitq_t *q);
/* Wake every waiter in FIFO order; returns how many. */
uint32_t waitq_broadcast(sim_t *sim, waitq_t *q);
/* Remove p from q without waking it. p must be on q or on no queue;
 * returns true when it was on q. O(1). */
bool waitq_remove(waitq_t *q, proc_t *p);

typedef struct barrier {
    uint32_t parties;   /* arrivals needed */
    uint32_t arrived;
    waitq_t q;
} barrier_t;

void barrier_init(barrier_t *b, uint32_t parties);
/* Count p's arrival. Returns true when p is the last party (nobody is
 * woken yet: the caller decides when to barrier_release); false otherwise,
 * and the caller must then PROC_WAIT on &b->q. */
bool barrier_arrive(barrier_t *b);
/* Wake every waiting party and reset the count for the next round. */
uint32_t barrier_release(sim_t *sim, barrier_t *b);

#endif
