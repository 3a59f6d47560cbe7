/* sched/reserve.h: public (issue 34): a backfilling / reservation policy
 * (scheduler.backfill), kind PNRSIM_KIND_BACKFILL of core/registry.h.
 *
 * The policy owns the placement pass of the gang scheduler. At every pass
 * (an instant at which room may have appeared: an arrival, a job end, a
 * slot switch, memory freed) it gets the waiting jobs sorted by the run's
 * queue order (scheduler.priority: key, then trace order) and places the
 * ones it chooses through sched_host_place, which applies the packing
 * (scheduler.packing) within the slots it allows. It may look at the
 * slots' free cores now and at the profile of future free cores (the
 * running jobs released at their expected ends, start + estimate; at
 * MPL > 1 a bound on their wall time, docs/SCHEDULING.md). It never sees
 * a job's actual run time.
 *
 * Built-ins: NONE (on_pass NULL: the scheduler's own pass, which places jobs
 * in order, stopping at the first that does not fit under strict_order),
 * EASY and CONSERVATIVE (sched/backfill.c, sched/backfill.h for their
 * rules). The rule every policy must keep: a pass that leaves the first
 * job in queue order placeable now is wrong (gang_check_placement checks
 * it in the tests).
 */
#ifndef PNRSIM_SCHED_RESERVE_H
#define PNRSIM_SCHED_RESERVE_H

#include "core/registry.h"
#include "sched/order.h"

#include <stdbool.h>
#include <stddef.h>

/* The placement pass's host (opaque) and a waiting or placed job (opaque). */
typedef struct sched_host sched_host;
typedef struct sched_job sched_job;

typedef struct sched_reserve_ops {
    /* Optional (NULL: state NULL). State for one run. */
    void *(*create)(const pnrsim_ctx *ctx);
    /* Optional. Free what create returned. */
    void (*destroy)(void *state);
    /* NULL for the scheduler's own pass (NONE). One placement pass at now
     * over the waiting jobs q[0..n) in queue order (the array is the
     * host's, valid during the call; a job placed leaves the queue but
     * stays in q). */
    void (*on_pass)(void *state, sched_host *h, sched_job *const *q, size_t n, double now);
    /* Optional. Job j was placed now (by this policy or by the host). */
    void (*on_placed)(void *state, const sched_job *j, double now);
    /* Optional. A placed job ended now (before it leaves its slot). */
    void (*on_ended)(void *state, const sched_job *j);
    unsigned flags;   /* none defined yet: 0 */
} sched_reserve_ops;

/* ---- what a policy may see and do (during on_pass) ---- */

/* The public fields of j. */
void sched_job_get(const sched_job *j, sched_job_info *out);
/* Whether j is still waiting (not placed). */
bool sched_job_waiting(const sched_job *j);
/* Cores in a slot (the machine), slots open now, the MPL (0 = unlimited),
 * and the free cores of open slot s (0 <= s < sched_host_slots). */
int sched_host_cores(const sched_host *h);
int sched_host_slots(const sched_host *h);
int sched_host_mpl(const sched_host *h);
int sched_host_slot_free(const sched_host *h, int s);
/* Place waiting job j now if it fits: only in slot `only` (-1: any), never
 * in slot `not` (-1: none); index sched_host_slots(h) means a new slot,
 * opened only if allow_new and the MPL allows. True when placed. */
bool sched_host_place(sched_host *h, sched_job *j, int only, int not, bool allow_new);
/* The profiles of free cores over time at now: one per open slot, then
 * one for the slots that may still be opened (all free). Returns how
 * many; profile k is read with sched_host_profile (valid until the next
 * placement or the next call of this). */
int sched_host_profiles(sched_host *h, double now);
/* Profile k: steps (t[i], f[i]), f[i] cores free from t[i] to t[i+1], the
 * last to infinity with every core free; t[0] = now. Returns the number of
 * steps. */
int sched_host_profile(const sched_host *h, int k, const double **t, const int **f);

#endif
