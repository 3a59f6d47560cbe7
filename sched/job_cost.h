/* sched/job_cost.h: CPU work that is no thread's burst (issue 33): the two
 * ends of a page message and a server's work per page request, run on a
 * node's cores (sched/job_cost.c; docs/MODEL.md "Costs on a fault's
 * path"). */
#ifndef PNRSIM_SCHED_JOB_COST_H
#define PNRSIM_SCHED_JOB_COST_H

#include "sched/job.h"

/* The kinds of work, as cl->cost_cpu indexes them. A fault's own software
 * path (cl->fault_cpu) is held by the faulting thread itself (job.c), not
 * by a work: its CPU seconds are the exact faults times fault_cpu. */
enum { COST_MESSAGE = 1, COST_SERVER = 2 };

typedef struct cost_work cost_work;
/* Called when w's CPU time is done and its core given back; w's fields are
 * read there and w is reused afterwards. */
typedef void (*cost_done_fn)(sim_t *sim, cost_work *w);

struct cost_work {
    proc_t p;              /* first member: a work is a process */
    cluster_t *cl;
    res_t *core;           /* the CPU it runs on */
    double secs;           /* its CPU time */
    int kind;              /* COST_MESSAGE or COST_SERVER */
    bool holding;          /* it took the core at once (no wait) */
    thread_t *victim;      /* the computing thread it preempted, or NULL */
    list_t link;           /* on cl->cost_free or cl->cost_busy */
    cost_done_fn done;
    /* The caller's, for done (set them before the next event). */
    void *ctx, *arg;
    int a, b;
};

/* Run secs > 0 seconds of CPU work of kind on `core` (the faulting thread's
 * own core: the send of its PAGE_OUT), FIFO behind whoever holds or waits
 * for it, then call done. No allocation once as many works have
 * been in use at once before. */
cost_work *cost_on_core(sim_t *sim, cluster_t *cl, res_t *core, double secs, int kind,
                        cost_done_fn done);
/* Run secs > 0 seconds of CPU work of kind on `core` as an interrupt would
 * (the faulting core's receive of its PAGE_IN): at once when the core is
 * idle; else preempting its holder when that holds (a computing thread's
 * burst then ends exactly secs later, as below); else FIFO. Then calls
 * done. */
cost_work *cost_interrupt(sim_t *sim, cluster_t *cl, res_t *core, double secs, int kind,
                          cost_done_fn done);
/* Run secs > 0 seconds of CPU work of kind on a core of node pe, as an
 * interrupt would (a serving node's work per page request): the lowest
 * idle core; else the lowest core whose holder is holding (in a burst, in
 * its fault's software path, or another work), which it preempts: the
 * holder waits at the head of the core's queue and its hold goes on, that
 * much later, when the work is done (a computing thread's CPU time is
 * credited up to the preemption, so its burst ends exactly secs later);
 * else (every holder got its core at this very instant) FIFO on core 0.
 * Then calls done. */
cost_work *cost_on_node(sim_t *sim, cluster_t *cl, pe_t *pe, double secs, int kind,
                        cost_done_fn done);
/* Free every work record (cluster_destroy); no event may follow. */
void cost_free_all(sim_t *sim, cluster_t *cl);

#endif
