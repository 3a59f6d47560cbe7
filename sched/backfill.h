/* sched/backfill.h: the placement pass for the priority functions and for
 * backfilling (scheduler.backfill = none|easy|conservative, issue 14).
 *
 * The gang scheduler (gang.c) hands its pass to this module when the queue
 * order is keyed (sched/order.h: not bucketed) or the backfilling
 * component has a pass (sched/reserve.h); the module is that interface's
 * host, and EASY and CONSERVATIVE below are its built-in components
 * (sched/backfills.c).
 * A pass sorts the queue by the order's key at this instant (ties by trace
 * order), then:
 *   NONE          places jobs in that order; under strict_order it stops at
 *                 the first that does not fit ("blocking SJF" with SJF),
 *                 otherwise it tries every job once.
 *   EASY          places jobs in order while they fit; the first that does
 *                 not (the head) gets a reservation at the shadow time S, the
 *                 earliest expected end at which enough PEs are free (running
 *                 jobs released in order of expected end, equal ends
 *                 together); extra = PEs free at S - the head's threads. Each
 *                 later job that fits now starts if now + e <= S (extra
 *                 unchanged) or else if its threads <= extra (extra -= them).
 *   CONSERVATIVE  builds a profile of free PEs over time from the running
 *                 jobs' expected ends and gives every queued job in order the
 *                 earliest start >= now at which it fits for its whole
 *                 estimate, reserving that space; jobs whose start is now
 *                 start. The pass stops early once no remaining job could
 *                 start now (free PEs now < the narrowest remaining job;
 *                 at MPL 1 also by width classes, reserve_bound.h): the
 *                 remaining reservations could only affect jobs that
 *                 cannot start now either.
 * strict_order is ignored when backfilling.
 *
 * Expected ends: at MPL 1 a running job is expected to end at start +
 * estimate; one that has outlived its estimate an instant after now
 * (nextafter(now, +inf)). A job with a zero estimate holds its PEs for that
 * instant.
 *
 * MPL > 1 (gang-aware variant, after Zhang, Franke, Moreira and
 * Sivasubramaniam 2003): every slot is a machine of N PEs of its own, and
 * the slots not yet opened (up to the MPL) are empty machines; "start"
 * means placed. With m = the number of slots (at least 1), r seconds of
 * work take at most W(r) = m q ceil(r / (q - pcs)) + q (r <= 0: (m - 1) q)
 * while m stays the same and no job moves. A placed job is expected to end
 * at now + W(estimate - CPU time done by its thread 0) (an instant after
 * now if that is not later), never later than the bound found before in
 * the same slot epoch (m unchanged since); a queued job takes W(estimate).
 * EASY: the greedy phase places jobs by the packing rule as usual; the
 * head's reservation is the slot with the earliest shadow time (ties: the
 * lowest slot, existing slots before new ones); a later job may be placed
 * in any existing slot other than the reserved one, or in the reserved slot
 * under the two conditions above (with W(e)); it never opens a new slot
 * unless that new slot is the reserved one. CONSERVATIVE: each job gets the
 * earliest start over all slots' profiles (ties: the lowest slot) and
 * starts when that is now, in that slot; a job that opens a slot makes the
 * pass build the profiles again (deferred while every job reserved since
 * the last build was placed now, when the rebuild cannot change a start:
 * conservative.c, lazy_open; a pass of n jobs at one instant at MPL 0 then
 * builds them a bounded number of times, not n). Guarantee (FCFS, exact estimates,
 * scheduler.alternative = no, m constant): the head is placed by its first
 * reservation as the head (job->bf_head_res); docs/SCHEDULING.md.
 *
 * mem_aware: "fits" means fits by PEs and by memory (the gang scheduler's
 * placement). At MPL 1, where memory can change which cores a job may take
 * (sched_host_mem_reserves), reservations hold memory: a reservation is the
 * allocation's placement at its start on the machine as expected then;
 * EASY's S is the first step where the head is so placed, and a later job
 * still running at S starts only if the head still is; CONSERVATIVE starts
 * or reserves a job only where every later reservation of the pass is
 * still placed at its start (sched/bf_plan.c; docs/SCHEDULING.md,
 * "Reservations that hold memory"). Elsewhere reservations are computed
 * from PEs alone: a head blocked only by memory has its shadow time now
 * (extra = free PEs - its threads), and a conservative reservation at now
 * that memory refuses stays in the profile.
 *
 * Cost per pass, with q queued jobs and r placed jobs: the sort O(q log q);
 * at MPL 1 the running jobs are kept sorted by expected end incrementally
 * (O(r) per start or end, no sort per pass); at MPL > 1 they are sorted per
 * pass (O(r log r), r <= MPL x N). EASY: O(q + r) after the sort.
 * CONSERVATIVE rebuilding: k reservations for the k jobs reserved before
 * the pass stops early, each a search and a split of a profile of at most
 * r + 2k steps. The search starts at the latest reservation of an earlier
 * job of the pass no wider and no longer (a lower bound, sched/reserve_bound.h:
 * O(log N log k) to find, O(log s) to locate) instead of at now, so it
 * examines only the steps from there to the job's start and window; the
 * split moves the steps after the window. Worst case still O(k (r + k)),
 * measured far less (docs/SCHEDULING.md, "Cost per pass"). CONSERVATIVE at MPL 1 with a static order (all but WFP3
 * and UNICEP) keeps the last pass's profile and reservations when it can
 * prove a rebuild would give the same (conservative.c, incremental): then
 * O(k + s + a s) for the k kept reservations, a profile of s steps and the
 * a jobs newly reserved (arrivals reached by the pass), not quadratic in
 * the queue. See docs/SCHEDULING.md for the figures.
 */
#ifndef PNRSIM_SCHED_BACKFILL_H
#define PNRSIM_SCHED_BACKFILL_H

#include "sched/gang.h"
#include "sched/reserve.h"

typedef struct sched_host bf_t; /* reserve.h's host */

/* When g's parameters call for it (a keyed order, or a backfilling
 * component with a pass), create the module and install it as
 * g's placement policy (gang_set_policy; gang_destroy frees it); returns
 * it, or NULL when g keeps its own pass. cluster_init calls it. */
bf_t *bf_attach(gang_t *g);
/* g's backfill module, or NULL when the pass is gang.c's own (PNRSim's
 * orders without backfilling). */
bf_t *bf_of(const gang_t *g);
/* Work done by the passes, for benchmarks (sched/reserve.h). */
typedef sched_pass_stats bf_stats;
void bf_get_stats(const bf_t *b, bf_stats *s);
/* Jobs held back at least once by a per-user limit (sched/limits.h); 0
 * for b NULL (the scheduler's own pass: no limits). */
long bf_limit_delayed(const bf_t *b);

#endif
