/* sched/order.h: public (issue 34): a queue order (scheduler.priority),
 * kind PNRSIM_KIND_PRIORITY of core/registry.h.
 *
 * A queue order gives every waiting job a key from its public fields
 * (sched_job_info: what the workload says of the job, never its actual run
 * time); the scheduler places jobs in increasing key order, ties by trace
 * order (sched_job_info.order, unique), so the order is total and does not
 * depend on the C library's sort. The built-ins (FCFS, BESTFIT, WORSTFIT,
 * SJF, LJF, SAF, LAF, WFP3, UNICEP, F1: sched/orders.c; MULTIFACTOR:
 * sched/multifactor.c, with the hooks below) are written against this
 * header only.
 *
 * When keys are computed: at every placement pass of the keyed path (the
 * backfilling passes of scheduler.backfill, and every order with bucket ==
 * SCHED_BUCKET_NONE), once per queued job per pass. A time-dependent order
 * (SCHED_ORDER_TIME_DEPENDENT) says its keys change with `now` alone; an
 * order without the flag promises that a job's key does not change while
 * it waits, which lets conservative backfilling keep the last pass's
 * reservations (sched/conservative.c). An order may keep its own state
 * (create), but a key must not depend on the order in which keys are
 * asked for.
 */
#ifndef PNRSIM_SCHED_ORDER_H
#define PNRSIM_SCHED_ORDER_H

#include "core/registry.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The public fields of a job (SWF: docs/MODEL.md "Workload"). */
typedef struct sched_job_info {
    long id;            /* SWF job number */
    long order;         /* position in the trace: the tie-break, unique */
    int threads;        /* threads (SWF processors) */
    int width;          /* cores it holds (threads; whole nodes under
                         * node_sharing EXCLUSIVE) */
    double submit;      /* submission, s from the trace start */
    double estimate;    /* the run-time estimate, s (scheduler.estimate) */
    double requested;   /* SWF field 9 (requested time), s; -1 unknown */
    double mem_mb;      /* memory per thread, MB */
    /* Added in issue 35, at the end (a plugin built before reads the
     * fields above only): */
    long user;          /* SWF field 12, user number; -1 unknown */
    long group;         /* SWF field 13, group number; -1 unknown */
} sched_job_info;

/* The width-bucket fast path (sched/queue.h): an order that is exactly
 * one of these - key 0 (arrival order), -width (widest first) or +width
 * (narrowest first), ties by trace order - says so, and the scheduler's
 * own pass (backfill NONE) finds its head among the width buckets without
 * computing keys or sorting. Its key must agree (it is used whenever the
 * keyed path runs it, e.g. under EASY). */
typedef enum sched_order_bucket {
    SCHED_BUCKET_NONE,       /* keyed: sorted by key at every pass */
    SCHED_BUCKET_ARRIVAL,    /* FCFS */
    SCHED_BUCKET_WIDEST,     /* BESTFIT: most cores first */
    SCHED_BUCKET_NARROWEST   /* WORSTFIT: fewest cores first */
} sched_order_bucket;

/* Flags of an order. */
#define SCHED_ORDER_TIME_DEPENDENT 1u   /* keys change with now (WFP3, UNICEP) */
/* The ops table has the members after `bucket` (on_submit, on_start,
 * on_end; issue 35): the host reads them only when this flag is set, so a
 * table built against the shorter struct of before (which cannot set the
 * flag) is never read past its end. Set it to be told of the jobs'
 * arrivals, starts and ends (a fair-share order, MULTIFACTOR). Such an
 * order's keys change as jobs start and end: set
 * SCHED_ORDER_TIME_DEPENDENT too when they do. */
#define SCHED_ORDER_HOOKS 2u

typedef struct sched_order_ops {
    /* Optional (NULL: state NULL). The order's state for one run, created
     * with the run's context (its [plugin.NAME] keys, its random streams)
     * before the first job arrives. */
    void *(*create)(const pnrsim_ctx *ctx);
    /* Optional. Free what create returned (called once, at the run's end). */
    void (*destroy)(void *state);
    /* Required. The key of waiting job j at time now (>= j->submit): lower
     * goes first, ties by j->order. Must be a number (not NaN); pure in
     * (state, j, now) for the pass (keys are taken once per job per pass). */
    double (*key)(void *state, const sched_job_info *j, double now);
    unsigned flags;              /* SCHED_ORDER_* */
    sched_order_bucket bucket;   /* SCHED_BUCKET_NONE for every new order */
    /* Read only with SCHED_ORDER_HOOKS in flags; each optional (NULL).
     * Called by the keyed path's host (sched/backfill.c) between passes or
     * within one (a start: when a pass places a job), never while keys
     * are being taken, in the simulation's order of events, ties by trace
     * order within a pass:
     *   on_submit  j is in the queue, at the first pass after its arrival
     *              (now = its submission instant), before that pass's keys;
     *   on_start   j was placed (took its cores in a gang slot) at now;
     *   on_end     j, placed before, ended at now (its cores are free). */
    void (*on_submit)(void *state, const sched_job_info *j, double now);
    void (*on_start)(void *state, const sched_job_info *j, double now);
    void (*on_end)(void *state, const sched_job_info *j, double now);
} sched_order_ops;

#ifdef __cplusplus
}
#endif

#endif
