/* sched/packing.h: public (issue 34): a slot packing (scheduler.packing),
 * kind PNRSIM_KIND_PACKING of core/registry.h.
 *
 * When a job is placed, the gang scheduler looks at the existing time
 * slots (the rows of the Ousterhout matrix, in creation order) that have
 * room for it (and, with mem_aware, memory), and the packing chooses one:
 * the first slot that fits is the best so far, and each later one replaces
 * it when better() says so, so the first slot wins a tie. A new slot is
 * opened only when no existing slot fits. The built-ins (FIRSTFIT,
 * BESTFIT, WORSTFIT: sched/packings.c) are written against this header.
 * better() is called once per candidate slot after the first, per
 * placement attempt.
 */
#ifndef PNRSIM_SCHED_PACKING_H
#define PNRSIM_SCHED_PACKING_H

#include "core/registry.h"
#include "sched/order.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A slot that fits the job. */
typedef struct sched_slot_info {
    int index;      /* 0-based, creation order */
    int nfree;      /* free cores in it, before the job */
    int ncores;     /* cores in a slot (the machine's) */
} sched_slot_info;

/* Flags of a packing. */
#define SCHED_PACK_FIRST 1u   /* the first slot that fits: better() is never
                               * called (may be NULL) */

typedef struct sched_packing_ops {
    /* Optional (NULL: state NULL). State for one run. */
    void *(*create)(const pnrsim_ctx *ctx);
    /* Optional. Free what create returned. */
    void (*destroy)(void *state);
    /* Required unless SCHED_PACK_FIRST. True when slot `cand` should
     * replace `best` (an earlier slot that fits) for job j; false keeps
     * the earlier one (ties: false). */
    bool (*better)(void *state, const sched_slot_info *cand, const sched_slot_info *best,
                   const sched_job_info *j);
    unsigned flags;   /* SCHED_PACK_* */
} sched_packing_ops;

#ifdef __cplusplus
}
#endif

#endif
