/* sched/backfills.c: the registration of the scheduler's built-in
 * components (sched/components.h): the queue orders, the backfilling
 * policies NONE, EASY (sched/easy.c) and CONSERVATIVE
 * (sched/conservative.c), in that order, and the packings. */
#include "sched/components.h"
#include "sched/reserve.h"

int sched_backfills_register(pnrsim_registry *r)
{
    int rc = sched_easy_register(r);
    if (!rc)
        rc = sched_conservative_register(r);
    return rc;
}

int sched_components_register(pnrsim_registry *r)
{
    int rc = sched_orders_register(r);
    if (!rc)
        rc = sched_backfills_register(r);
    if (!rc)
        rc = sched_packings_register(r);
    return rc;
}
