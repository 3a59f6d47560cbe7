/* sched/gang_types.h: the gang scheduler's types (gang_t, its parameters,
 * observer and placement-policy tables), without its functions (those are
 * sched/gang.h's). A header of types only: the scheduler's own files below
 * sched/gang.c (sched/gang_alloc.c) see struct gang through
 * sched/gang_internal.h without depending on sched/gang.c. */
#ifndef PNRSIM_SCHED_GANG_TYPES_H
#define PNRSIM_SCHED_GANG_TYPES_H

#include "sched/policy.h"
#include "core/registry.h"
#include "sched/order.h"
#include "sched/multifactor.h"
#include "sched/packing.h"
#include "sched/reserve.h"
#include "core/stats.h"
#include "sched/job.h"
#include "sched/allocation.h"

typedef struct gang gang_t;

typedef struct gang_params {
    const sched_order_ops *priority;     /* the queue order (sched/order.h) */
    const sched_packing_ops *packing;    /* the slot packing (sched/packing.h) */
    int mpl;
    double pcs;
    double quantum;
    bool mem_aware;          /* LOCAL: a thread must fit its PE's free RAM */
    bool mem_global;         /* GLOBAL (sets mem_aware too): or the job's
                              * overallocation fits the network RAM still
                              * available (sched/admit.h) */
    bool netram;             /* GLOBAL: network RAM exists */
    double netram_threshold; /* GLOBAL: MB of free RAM a server keeps */
    bool strict_order;
    int reservations;         /* CONSERVATIVE's depth, 0 = all (scheduler.reservations) */
    bool pcs_first_start;   /* a job's first start costs pcs too */
    bool no_alternative;    /* no alternative scheduling, hence no moves back and
                             * no slot unification (scheduler.alternative = no) */
    const sched_reserve_ops *backfill; /* NONE, EASY, CONSERVATIVE, ... (sched/reserve.h) */
    bool exclusive;         /* whole nodes per job and slot (node_sharing
                             * EXCLUSIVE; issue 25) */
    pnrsim_ctx ctx;         /* what the scheduler's components are created
                             * with (core/registry.h) */
    const sched_alloc_ops *allocation; /* the cores a job gets in a slot
                             * (sched/allocation.h); NULL: FIRSTFREE */
    sched_mf_params mf;     /* priority MULTIFACTOR's weights (issue 35;
                             * .cores is set by the host) */
    int max_running_per_user; /* per-user limits, 0 = none (sched/limits.h) */
    int max_cores_per_user;
    bool alloc_metrics;     /* count the placed jobs' mean pairwise hops
                             * (scheduler.allocation set, issue 35) */
} gang_params;

/* Called when a job has ended (its end time is set); the callee owns it. */
typedef void (*gang_end_fn)(sim_t *sim, job_t *j, void *ctx);

/* Observer (schedule output, tracing): told when a job starts or stops
 * running and when a slot becomes current, at the simulated instant it
 * happens. The observer must not call back into the scheduler. Any member
 * may be NULL. */
typedef struct gang_observer {
    /* j runs from now in slot index `slot` (0-based, creation order); its
     * threads compute from `from` (now, or now + pcs when a parallel
     * context switch was charged). */
    void (*on_job_run)(sim_t *sim, const job_t *j, int slot, double from, void *ctx);
    /* j stops running now: descheduled, or ended (j->ended set). */
    void (*on_job_stop)(sim_t *sim, const job_t *j, void *ctx);
    /* Slot index `slot` of `nslots` became current now (a switch). */
    void (*slot_switch)(sim_t *sim, int slot, int nslots, void *ctx);
    void *ctx;
} gang_observer;

/* A policy that takes over the placement pass, with its own state `ctx`
 * (sched/backfill.c: the priority functions and backfilling). The
 * scheduler calls it at these points and never names it. */
typedef struct gang_policy {
    /* One placement pass at now (instead of the scheduler's own). */
    void (*on_pass)(void *ctx, gang_t *g, double now);
    /* Job j was placed now. */
    void (*on_placed)(void *ctx, job_t *j, double now);
    /* A placed job ended (before it leaves its slot). */
    void (*on_ended)(void *ctx, job_t *j);
    /* The scheduler is destroyed (gang_destroy): free ctx. */
    void (*on_destroy)(void *ctx);
} gang_policy;

#endif
