/* sched/gang.h: the gang scheduler (techreport §2.1.2, §4.4), PNRSim's only
 * scheduler; space sharing is the gang scheduler with MPL 1.
 *
 * The Ousterhout matrix: rows are time slots, columns are PEs. A job takes
 * as many PEs as it has threads, all in one slot, and keeps them for life;
 * PEs inside a slot are chosen lowest-numbered first (with mem_aware, the
 * lowest-numbered free PEs that have room for a thread: RAM - lent - memory
 * of every placed, unfinished job on the PE, in any slot). At most `mpl`
 * slots exist (0 = unlimited). A job wider than the machine, or (mem_aware)
 * whose thread is larger than a PE's RAM, is set aside at arrival as
 * impossible (gang_impossible) and blocks no one.
 *
 * Waiting jobs are ordered by `priority` (a queue order component,
 * sched/order.h); the scheduler's own pass serves the bucketed ones: FCFS
 * (arrival order), BESTFIT (most PEs first), WORSTFIT (fewest first);
 * ties by trace order. With
 * strict_order a job that cannot be placed blocks the ones behind it;
 * otherwise later jobs that fit are placed. `packing` (sched/packing.h)
 * picks among slots with enough free PEs: FIRSTFIT the first (slots in creation order),
 * BESTFIT the one with the fewest free PEs, WORSTFIT the most (ties: the
 * first). When no slot fits and fewer than mpl slots exist, a new slot is
 * opened at the end.
 *
 * Time slicing: with two or more slots, slots take turns for `quantum`
 * seconds. The quantum timer starts when a second slot appears and restarts
 * at every switch; the PCS delay is part of the quantum. A switch
 * deschedules the running jobs that are not in the next slot and runs the
 * next slot's jobs; a job that has run before resumes `pcs` seconds later
 * (the parallel context switch); a job's first start costs no PCS unless
 * pcs_first_start is set (then it computes `pcs` seconds after it starts).
 * When the current slot empties, the next slot is switched in at once (with
 * a fresh quantum). With one slot there are no switches. pcs_count counts
 * the switches that stopped or charged a PCS to at least one job, the job
 * ends at which alternative scheduling charged one, and (pcs_first_start)
 * the passes that started a job in the current slot.
 *
 * Alternative scheduling and slot unification (§4.4.2): whenever a job ends
 * or the scheduler moves to the next slot, jobs of other slots whose PEs are
 * all idle in the current slot are moved into it and run (other slots in
 * ring order from the current one, jobs by lowest PE; at a job end this
 * happens before queued jobs are placed). A job that is still running when
 * it moves keeps running (no PCS). When the slot a job came from comes
 * round, it moves back first (before alternative scheduling fills that
 * slot) if its PEs there are still free, otherwise - another job has been
 * placed there - it stays for good. A slot emptied by such moves is removed
 * and the moved job stays where it is.
 *
 * Placement pass: queued jobs are placed at every instant where room in the
 * matrix may have appeared: a job arrival, a job end, a slot switch (which
 * also covers moves back and unification), and, with mem_aware, a thread's
 * memory freed (per thread or per job, by the cluster's mem_release) or a
 * PE getting lent memory back. One pass per instant, after every other
 * event of that instant (EV_PRIO_SCHED; a quantum end at the same instant
 * comes before it). After a pass no queued job that the priority order and
 * strict_order allow fits anywhere (gang_check_placement, in the test
 * hooks of sched/gang_check.h).
 *
 * Priority functions and backfilling (issue 14): with a keyed order
 * (bucket SCHED_BUCKET_NONE: SJF ... F1, a plugin's) or a backfilling
 * component with a pass (EASY, CONSERVATIVE, a plugin's: sched/reserve.h),
 * the placement pass is sched/backfill.c's (see
 * backfill.h), a placement policy above the scheduler (gang_policy below,
 * installed by bf_attach from cluster_init); it places jobs through
 * gang_place_where, which applies the packing rule above within the slots
 * it is allowed.
 *
 * Memory accounting (mem_aware): a thread's memory counts against its PE
 * from the job's placement until the job layer frees it (hooks.on_mem_freed,
 * installed by gang_create).
 */
#ifndef PNRSIM_SCHED_GANG_H
#define PNRSIM_SCHED_GANG_H

#include "sched/gang_types.h"

/* Create the scheduler of cluster cl and install its hooks in cl (job
 * ended, memory freed: cl->hooks' scheduler half), as pnr_create installs
 * PNR's. When a job has ended and left the matrix, on_end(sim, j, ctx)
 * is called; it owns the job from then on (job_release). */
gang_t *gang_create(sim_t *sim, cluster_t *cl, const gang_params *p, gang_end_fn on_end,
                    void *ctx);
/* Free the scheduler and remove its hooks (not the jobs: they live on the
 * cluster's list). */
void gang_destroy(sim_t *sim, gang_t *g);
/* A job arrives now. */
void gang_submit(sim_t *sim, gang_t *g, job_t *j);

/* State for metrics and samples. */
int gang_slots(const gang_t *g);
int gang_mpl_max(const gang_t *g);
/* Time-weighted mean number of slots over the time at least one job was in
 * the system (queued or placed), up to now. */
double gang_mpl_mean(const gang_t *g, double now);
uint64_t gang_pcs_count(const gang_t *g);
long gang_queued(const gang_t *g);
long gang_placed(const gang_t *g);
long gang_running(const gang_t *g);
/* node_sharing EXCLUSIVE: core-seconds, up to now, of the cores that
 * running jobs hold in their nodes without a thread on them (0 otherwise). */
double gang_idle_core_seconds(const gang_t *g, double now);
/* Jobs that can never be placed: wider than the machine, or (mem_aware) a
 * thread larger than a PE's RAM. They are kept out of the queue (they
 * block no one and never reach on_end) and stay on the cluster's list. */
long gang_impossible(const gang_t *g);
/* The 0-based index (creation order) of the slot j is placed in now, or
 * for an ended job of the slot it ended in; -1 when it was never placed. */
int gang_job_slot(const gang_t *g, const job_t *j);
/* The job on PE pe in slot s (creation order), or NULL. */
job_t *gang_slot_job(const gang_t *g, int s, int pe);

/* Install o (copied; NULL removes the observer; gang_observer is in
 * sched/gang_types.h). */
void gang_set_observer(gang_t *g, const gang_observer *o);

/* ---- a placement policy (sched/backfill.c) ---- */

/* Install ops with ctx as g's placement policy (once, before the first
 * job arrives). */
void gang_set_policy(gang_t *g, const gang_policy *ops, void *ctx);
/* The state of g's policy when it is ops, else NULL. */
void *gang_policy_ctx(const gang_t *g, const gang_policy *ops);
/* Place queued job j now if it fits: only in slot index `only` (-1: any),
 * never in slot `not` (-1: none); index gang_slots(g) means a new slot,
 * which is opened only if allow_new and the MPL allows. True when placed.
 * Once the run is being interrupted (ev_stop_flag) it places nothing. */
bool gang_place_where(gang_t *g, job_t *j, int only, int not, bool allow_new);
/* The first queued job in arrival order, and the one after j (NULL at the
 * end). */
job_t *gang_queue_first(const gang_t *g);
job_t *gang_queue_next(const gang_t *g, const job_t *j);
int gang_npes(const gang_t *g);
const gang_params *gang_get_params(const gang_t *g);
/* Free PEs of slot index s (0 <= s < gang_slots(g)). */
int gang_slot_nfree(const gang_t *g, int s);

#endif
