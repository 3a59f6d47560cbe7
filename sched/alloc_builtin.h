/* sched/alloc_builtin.h: the built-in allocation policy (issue 34),
 * FIRSTFREE (sched/alloc_firstfree.c), and its registration. Includes only
 * public headers, so the built-in's own file can include it. */
#ifndef PNRSIM_SCHED_ALLOC_BUILTIN_H
#define PNRSIM_SCHED_ALLOC_BUILTIN_H

#include "core/registry.h"
#include "sched/allocation.h"

/* FIRSTFREE's table: the scheduler's default when gang_params.allocation
 * is NULL. */
extern const sched_alloc_ops sched_alloc_firstfree;
/* Register the built-in allocations in r (FIRSTFREE, index 0: the
 * configuration default). Returns PNRSIM_OK or the registration's error. */
int sched_allocations_register(pnrsim_registry *r);

#endif
