/* sched/packings.c: the built-in slot packings (scheduler.packing) on the
 * public interface (sched/packing.h; only public headers here): FIRSTFIT
 * the first slot that fits (slots in creation order), BESTFIT the one with
 * the fewest free PEs, WORSTFIT the most; ties: the first. */
#include "sched/components.h"
#include "sched/packing.h"

static bool fewer_free(void *s, const sched_slot_info *cand, const sched_slot_info *best,
                       const sched_job_info *j)
{
    (void)s, (void)j;
    return cand->nfree < best->nfree;
}

static bool more_free(void *s, const sched_slot_info *cand, const sched_slot_info *best,
                      const sched_job_info *j)
{
    (void)s, (void)j;
    return cand->nfree > best->nfree;
}

static const sched_packing_ops firstfit = {.flags = SCHED_PACK_FIRST};
static const sched_packing_ops bestfit = {.better = fewer_free};
static const sched_packing_ops worstfit = {.better = more_free};

int sched_packings_register(pnrsim_registry *r)
{
    int rc = pnrsim_register(r, PNRSIM_KIND_PACKING, "FIRSTFIT",
                             "the first slot that fits", &firstfit);
    if (!rc)
        rc = pnrsim_register(r, PNRSIM_KIND_PACKING, "BESTFIT",
                             "the slot that fits with the fewest free PEs", &bestfit);
    if (!rc)
        rc = pnrsim_register(r, PNRSIM_KIND_PACKING, "WORSTFIT",
                             "the slot that fits with the most free PEs", &worstfit);
    return rc;
}
