/* sched/components.h: the scheduler's built-in components (issue 34): the
 * queue orders (sched/orders.c), packings (sched/packings.c) and
 * backfilling policies (sched/easy.c, sched/conservative.c), registered in the registry as a
 * plugin's are. Includes only public headers, so the built-ins' files can
 * include it. */
#ifndef PNRSIM_SCHED_COMPONENTS_H
#define PNRSIM_SCHED_COMPONENTS_H

#include "core/registry.h"

/* Register every built-in of the three kinds in r, in the order of the
 * old enums (FCFS ... F1; NONE, EASY, CONSERVATIVE; FIRSTFIT, BESTFIT,
 * WORSTFIT). Returns PNRSIM_OK or the first registration's error. */
int sched_components_register(pnrsim_registry *r);
/* Each file's part. */
int sched_orders_register(pnrsim_registry *r);
int sched_packings_register(pnrsim_registry *r);
int sched_backfills_register(pnrsim_registry *r);

#endif
