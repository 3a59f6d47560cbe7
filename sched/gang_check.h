/* sched/gang_check.h: the gang scheduler's test hooks: its invariant
 * checks, the hook that runs them after every scheduler action, and the
 * current slot. For tests/ and for app/run.c's checking mode (itself a
 * test hook, app/run_check.h) only: the program never calls them, and
 * keeping them out of gang.h makes every caller name this header.
 */
#ifndef PNRSIM_SCHED_GANG_CHECK_H
#define PNRSIM_SCHED_GANG_CHECK_H

#include "sched/gang.h"

/* Check the matrix invariants (one job per PE per slot, slots <= mpl, no
 * empty slot, each job queued xor placed and in one slot only, entries
 * match jobs, only jobs of the current slot run, home slots exist and a
 * moved job's PEs are free in its home slot, memory
 * reserved per PE matches the placed jobs and, with mem_aware, fits in
 * RAM, queue and bucket counts agree). Returns NULL or a message
 * describing the first violation. */
const char *gang_check(const gang_t *g);
/* The placement rule. Unless a pass is pending at this instant, no queued
 * job that the priority order and strict_order allow to start (under
 * strict_order only the head in priority order) fits anywhere: on enough
 * free PEs of a slot (with mem_aware: free PEs with room for a thread), or
 * in a new slot when fewer than mpl exist. Checks the queue by brute
 * force. Returns NULL or a message naming the job. */
const char *gang_check_placement(const gang_t *g);
/* Call fn after every scheduler action (arrival, job end, slot switch,
 * memory freed, placement pass); NULL for none. */
typedef void (*gang_hook_fn)(sim_t *sim, gang_t *g, void *ctx);
void gang_set_hook(gang_t *g, gang_hook_fn fn, void *ctx);
/* The current slot (creation order), -1 when there is none. */
int gang_current_slot(const gang_t *g);
/* Test hook: at a switch, visit the other slots from the last to the first
 * when moving jobs back home (the outcome must not depend on the order). */
void gang_set_mirror_back(gang_t *g, bool on);

#endif
