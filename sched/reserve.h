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
 * EASY (sched/easy.c) and CONSERVATIVE (sched/conservative.c), written
 * against this header, sched/profile.h and sched/reserve_bound.h only;
 * sched/backfill.h states their rules. The host is sched/backfill.c.
 * The rule every policy must keep: a pass that leaves the first
 * job in queue order placeable now is wrong (gang_check_placement checks
 * it in the tests).
 */
#ifndef PNRSIM_SCHED_RESERVE_H
#define PNRSIM_SCHED_RESERVE_H

#include "core/registry.h"
#include "sched/order.h"
#include "sched/profile.h"

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

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
    void (*on_placed)(void *state, sched_host *h, const sched_job *j, double now);
    /* Optional. A placed job ended now (before it leaves its slot; its
     * sched_job_end is set). */
    void (*on_ended)(void *state, sched_host *h, const sched_job *j);
    unsigned flags;   /* none defined yet: 0 */
} sched_reserve_ops;

/* ---- what a policy may see and do (during on_pass; the job and host
 * queries also in on_placed and on_ended) ---- */

/* The public fields of j. */
void sched_job_get(const sched_job *j, sched_job_info *out);
/* Whether j is still waiting (not placed) and may be placed now: false
 * too while a per-user limit holds it (scheduler.max_running_per_user,
 * max_cores_per_user; issue 35, docs/SCHEDULING.md), which may change
 * within a pass as jobs of its user are placed. A policy skips such a job:
 * no placement (sched_host_place refuses it) and no reservation. */
bool sched_job_waiting(const sched_job *j);
/* Cores j holds (sched_job_info.width) and its estimate, s (.estimate). */
int sched_job_width(const sched_job *j);
double sched_job_estimate(const sched_job *j);
/* When j started (-1 before), ended (-1 before), and the end the host
 * expects of it (the release time in the profiles: MPL 1 start +
 * estimate; MPL > 1 a bound, backfill.h; -1 before it is placed). */
double sched_job_start(const sched_job *j);
double sched_job_end(const sched_job *j);
double sched_job_expected_end(const sched_job *j);

/* Cores in a slot (the machine), slots open now, the MPL (0 = unlimited),
 * and the free cores of open slot s (0 <= s < sched_host_slots). */
int sched_host_cores(const sched_host *h);
int sched_host_slots(const sched_host *h);
int sched_host_mpl(const sched_host *h);
int sched_host_slot_free(const sched_host *h, int s);   /* s out of range: exit 2 */
/* Slots that may still be opened now: MPL - open slots, or 1 (standing
 * for any number) when the MPL is unlimited. */
int sched_host_unopened(const sched_host *h);
/* Whether placement also counts memory (scheduler.mem_aware): a job that
 * fits by cores may still be refused. */
bool sched_host_mem_aware(const sched_host *h);
/* The run's queue order's flags (SCHED_ORDER_*, sched/order.h), with
 * SCHED_ORDER_TIME_DEPENDENT added when per-user limits are set (which
 * jobs may start then changes as jobs start and end). */
unsigned sched_host_order_flags(const sched_host *h);
/* The wall time the host expects `work` seconds of a job's work to take
 * with the slots open now: work itself at MPL 1 (0 if negative); at MPL >
 * 1 the bound of backfill.h (m q ceil(work / (q - pcs)) + q). */
double sched_host_wall(const sched_host *h, double work);
/* scheduler.reservations: how many queued jobs that cannot start a
 * conservative pass reserves for, the first in queue order (0 = all). */
int sched_host_reservations(const sched_host *h);
/* MPL 1: the earliest expected end of a running job (INFINITY: none). */
double sched_host_next_end(const sched_host *h);
/* True when the run was interrupted (a signal): a long pass should stop;
 * the run's results are partial. */
bool sched_host_interrupted(const sched_host *h);

/* Place waiting job j now if it fits: only in slot `only` (-1: any), never
 * in slot `exclude` (-1: none); index sched_host_slots(h) means a new slot,
 * opened only if allow_new and the MPL allows. True when placed. A job not
 * waiting, or a slot index outside -1 .. sched_host_slots(h), stops the
 * run (exit 2, the policy named). */
bool sched_host_place(sched_host *h, sched_job *j, int only, int exclude, bool allow_new);
/* Record for jobs.csv that waiting job j got a reservation at t (the
 * first one counts: first_reservation), or got one as the head, the first
 * job in queue order that a pass did not start (the first one counts). */
void sched_host_note_reserved(sched_host *h, sched_job *j, double t);
void sched_host_note_head(sched_host *h, sched_job *j, double t);

/* Fill ps with the profiles of free cores at now: ps->pr[0..s) those of
 * the s open slots (pr[k].real = k), then `unopened` empty ones for slots
 * not opened yet (real -1, every core free; at most
 * sched_host_unopened). The running jobs free their cores at their
 * expected ends; one that has outlived its estimate at an instant after
 * now (docs/SCHEDULING.md, "Moments"), after the `chain` steps that
 * reservations at now may add (the number of jobs the pass may reserve;
 * 0 when it reserves one). Sets and returns ps->n. O(running jobs) at
 * MPL 1 (kept sorted), O(r log r) per slot at MPL > 1. */
int sched_host_build_profiles(sched_host *h, double now, int unopened, size_t chain,
                              sched_profiles *ps);
/* The same into the host's own profiles with one profile for the slots
 * not opened (if any), read with sched_host_profile: a read-only view for
 * a policy that keeps no profiles. Returns how many; valid until the next
 * placement or the next call of this. */
int sched_host_profiles(sched_host *h, double now);
/* Profile k: steps (t[i], f[i]), f[i] cores free from t[i] to t[i+1], the
 * last to infinity with every core free; t[0] = now. Returns the number of
 * steps. */
int sched_host_profile(const sched_host *h, int k, const double **t, const int **f);

/* Counters a policy adds to (benchmarks, --kernel-report): the host counts
 * passes and queued jobs; CONSERVATIVE the rest. */
typedef struct sched_pass_stats {
    long passes, kept_passes; /* kept: conservative passes that kept the
                               * last pass's reservations */
    long long queued_sum, reserved_sum, steps_sum;
    long long visited_sum;    /* profile steps examined by the searches */
    long queued_max, reserved_max;
    long builds_max;          /* conservative: profile builds in one pass,
                               * most (MPL > 1: a slot opened may ask for
                               * one more) */
    long lazy_opens;          /* slots opened without a rebuild */
} sched_pass_stats;
sched_pass_stats *sched_host_stats(sched_host *h);

/* Test and benchmark hooks the built-ins obey (sched/backfill_check.h
 * sets them; each must leave the results unchanged): */
#define SCHED_HOOK_REBUILD_ALWAYS 1u /* never keep the last pass's reservations */
#define SCHED_HOOK_PLAIN_SEARCH 2u   /* no dominance bound, no stop by classes */
#define SCHED_HOOK_CHECK_BOUND 4u    /* debug builds: assert bound == plain search */
unsigned sched_host_hooks(const sched_host *h);

/* Whether reservations hold memory (issue 35; docs/SCHEDULING.md
 * "Reservations that hold memory"): at MPL 1 under mem_aware where memory
 * can change which cores a job may take (several cores per node, nodes of
 * different RAM, GLOBAL with network RAM, an allocation plugin); with one
 * core per node of one RAM size, counting cores is exact and this is
 * false. The questions below answer false (or do nothing) when it is. */
bool sched_host_mem_reserves(const sched_host *h); /* added in interface version 1 */
/* Where reservations hold memory (else false),
 * whether waiting job j would be placed at t >= now, by cores and memory
 * (the allocation's rule, without network RAM: GLOBAL as LOCAL), on the
 * machine as expected then: the placed jobs expected to end after t keep
 * their cores and their threads' memory (one whose expected end is not
 * after now: until just after now), and, when `with` is not NULL (another
 * waiting job), `with` as if placed now where the allocation puts it now,
 * until now + its estimate. False when `with` does not fit now. Added in
 * interface version 1 (a new function: no existing one changed).
 * O(placed jobs' threads + cores). */
bool sched_host_fits_at(sched_host *h, const sched_job *j, double t, const sched_job *with);
/* The plan of reservations that hold memory (where they do; else
 * plan_fits is false and the others do nothing): concrete placements, for
 * a policy with several reservations (CONSERVATIVE). Empty it at the start
 * of a pass. sched_host_plan_fits: whether waiting job j, started at t
 * (>= now) for d seconds, fits by cores and memory on the machine as
 * expected at t (the placed jobs and the plan's reservations running then;
 * at t = now by the placement's own choice, GLOBAL with the network RAM
 * available now), and every reservation of the plan that starts after t
 * still fits at its start beside it (the allocation run again for each,
 * in the order the passes will place them: start, then plan order), so
 * that j takes no core or memory a reservation needs. sched_host_plan_add:
 * j fits the plan at t (else exit 2) and the reservations after t take the
 * cores they get beside it; at t > now j's reservation joins the plan; at
 * t = now call it just before placing j. All three added in interface
 * version 1. plan_fits costs O(cores + threads of the placed and planned
 * jobs) per reservation after t, plus one. */
void sched_host_plan_clear(sched_host *h);
bool sched_host_plan_fits(sched_host *h, sched_job *j, double t, double d);
void sched_host_plan_add(sched_host *h, sched_job *j, double t, double d);


/* ---- for the host (sched/backfills.c) ---- */
/* Register EASY (sched/easy.c) and CONSERVATIVE (sched/conservative.c).
 * Return PNRSIM_OK or pnrsim_register's error. */
int sched_easy_register(pnrsim_registry *r);
int sched_conservative_register(pnrsim_registry *r);

#ifdef __cplusplus
}
#endif

#endif
