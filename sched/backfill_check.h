/* sched/backfill_check.h: the backfill scheduler's test and bench hook,
 * fenced off from sched/backfill.h. */
#ifndef PNRSIM_SCHED_BACKFILL_CHECK_H
#define PNRSIM_SCHED_BACKFILL_CHECK_H

#include "sched/backfill.h"

#include <stdbool.h>

/* Always rebuild the conservative profile (never keep the last pass's
 * reservations; the results must not change). */
void bf_set_rebuild_always(bf_t *b, bool on);
/* Search every conservative reservation from now (no dominance bound,
 * reserve_bound.h) and stop a pass only when the PEs free now are fewer than
 * the narrowest remaining job's (no stop by width classes); the results
 * must not change. With bf_set_rebuild_always: the plain rebuild
 * algorithm, the oracle of the tests. */
void bf_set_plain_search(bf_t *b, bool on);
/* Debug builds only: check every conservative search that starts at the
 * dominance bound against a search from now (an assert; O(s) per
 * reservation, which is why it is a test hook and not always on). */
void bf_set_check_bound(bf_t *b, bool on);

#endif
