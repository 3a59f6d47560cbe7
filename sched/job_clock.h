/* sched/job_clock.h: a thread's clocks (internal to sched/job*.c): the
 * page-fault clock of the report's model (§4.1.5), the neighbour and
 * synchronisation points (§4.3.2, §4.3.3), and the earliest of them,
 * where a burst ends. All count CPU work done (thread_t.cpu_done, at the
 * trace's speed); thread_burst_wall turns work into the seconds the
 * thread's node takes (computer.speed). Below sched/job.c: these read and
 * set a thread's clock fields and draw from the cluster's streams, and
 * call nothing of the thread process.
 */
#ifndef PNRSIM_SCHED_JOB_CLOCK_H
#define PNRSIM_SCHED_JOB_CLOCK_H

#include "sched/job_types.h"

#include <math.h>

/* Seconds th's node takes for w CPU seconds of work (its speed; w / 1 is
 * w exactly). */
static inline double thread_burst_wall(const thread_t *th, double w) { return w / th->speed; }

/* Set th's overallocation L from its PE's and draw its next fault time
 * (th->fault_at, in CPU seconds done; INFINITY when it cannot fault). */
void thread_fault_redraw(thread_t *th);
/* The earliest of th's clocks: end of work, next fault, neighbour
 * message, synchronisation point, memory-profile step. */
static inline double thread_next_target(const thread_t *th)
{
    double t = th->job->loop ? INFINITY : th->job->cpu; /* loop: its chunks' end */
    if (th->fault_at < t)
        t = th->fault_at;
    if (th->comm_at < t)
        t = th->comm_at;
    if (th->sync_at < t)
        t = th->sync_at;
    if (th->mem_at < t)
        t = th->mem_at;
    return t;
}
/* pe_add_user's callback: th's PE's memory changed (thread_mem_changed). */
void thread_mem_changed_cb(sim_t *sim, pe_user *u);
/* CPU time of th's next neighbour message: the comm_k-th with fixed
 * intervals, prev_at plus a draw with exponential ones; INFINITY without
 * messages. */
double thread_next_comm_at(thread_t *th, double prev_at);
/* CPU time of th's next synchronisation point (its sync_k-th; with
 * exponential intervals drawn once per point for the job); INFINITY
 * without synchronisation. */
double thread_next_sync_at(thread_t *th);

/* Recompute the fault clock after the PE's overallocation changed. */
void thread_mem_changed(sim_t *sim, thread_t *th);
/* Credit the CPU time of th's burst under way up to now (never beyond its
 * end; nothing while it is preempted); the burst continues from now. */
void thread_burst_credit(sim_t *sim, thread_t *th);

#endif
