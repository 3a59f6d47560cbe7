/* sched/bf_host.h: the state of the backfilling host (sched/backfill.c),
 * the keyed placement pass that runs a reservation policy
 * (sched/reserve.h) and answers its queries. Internal.
 *
 * Data structures (all reused from pass to pass: no allocation in steady
 * state once the arrays have grown to the largest queue and machine seen):
 * see backfill.c's opening comment.
 */
#ifndef PNRSIM_SCHED_BF_HOST_H
#define PNRSIM_SCHED_BF_HOST_H

#include "sched/backfill.h"
#include "sched/profile.h"
#include "sched/reserve.h"
#include "sched/limits.h"

struct sched_host {
    gang_t *g;
    void *ostate, *rstate;  /* the order's and the backfilling's (create) */
    int npes;
    job_t **q;
    size_t qcap, nq;        /* nq: the jobs of the last pass in q */
    job_t **run;            /* MPL 1: placed jobs by expected end */
    size_t nrun, runcap;
    job_t **tmp;            /* MPL > 1: one slot's placed jobs */
    size_t tmpcap;
    sched_profiles own;     /* sched_host_profiles' (a policy keeps its own) */
    long epoch;             /* MPL > 1: slot epoch (slot_epoch), from 1 */
    int seen_slots;
    double now;             /* this pass's instant (sched/bf_plan.c) */
    /* MPL 1 under mem_aware: the plan of this pass's reservations that
     * hold memory (sched/bf_plan.c): job, start, end; each job's planned
     * cores are in its pe_ids (scratch until it is placed) */
    job_t **plan_job;
    double *plan_t, *plan_end;
    size_t *plan_ord;       /* entries by (start, plan order) */
    int *saved;             /* the entries' cores while a question runs */
    size_t nplan, plancap, plantcap, planecap, planocap, savedcap;
    bool memres;            /* reservations may hold memory (gang_mem_matters) */
    bool mem_binds;         /* and memory could refuse a placement at some
                             * pass so far (gang_mem_can_bind; kept once
                             * true): only then do they (sched_host_mem_reserves) */
    unsigned hooks;         /* SCHED_HOOK_* (backfill_check.h) */
    sched_pass_stats st;
    unsigned oflags;        /* the order's flags (sched/order.h) */
    sched_limits lim;       /* per-user limits (sched/limits.h) */
    long lim_repasses;      /* passes run again for jobs held within one */
};

/* A reservation policy broke sched/reserve.h's rules: say so, naming the
 * component, and exit 2. */
void bf_policy_broken(const sched_host *h, const char *fmt, ...);

/* Grow the array p of *cap elements of `size` bytes to hold need
 * (doubling; *cap updated). */
void *bf_grow(void *p, size_t *cap, size_t need, size_t size);

#endif
