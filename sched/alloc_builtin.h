/* sched/alloc_builtin.h: the built-in allocation policies (issue 34),
 * FIRSTFREE (sched/alloc_firstfree.c; also named LOWEST, issue 35),
 * CONTIGUOUS, RACK and MC1X1 (issue 35: sched/alloc_contiguous.c,
 * alloc_rack.c, alloc_mc1x1.c), and their registration. Includes only
 * public headers, so the built-in's own file can include it. */
#ifndef PNRSIM_SCHED_ALLOC_BUILTIN_H
#define PNRSIM_SCHED_ALLOC_BUILTIN_H

#include "core/registry.h"
#include "sched/allocation.h"

/* FIRSTFREE's table: the scheduler's default when gang_params.allocation
 * is NULL. */
extern const sched_alloc_ops sched_alloc_firstfree;
/* The others (docs/SCHEDULING.md "Placement"). */
extern const sched_alloc_ops sched_alloc_contiguous;
extern const sched_alloc_ops sched_alloc_rack;
extern const sched_alloc_ops sched_alloc_mc1x1;
/* Register the built-in allocations in r: FIRSTFREE (index 0: the
 * configuration default), LOWEST (the same table: the same policy under
 * the name), CONTIGUOUS, RACK, MC1X1. Returns PNRSIM_OK or the
 * first registration's error. */
int sched_allocations_register(pnrsim_registry *r);

#endif
