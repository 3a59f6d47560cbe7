/* sched/alloc_common.h: what the built-in allocation policies CONTIGUOUS,
 * RACK and MC1X1 (issue 35; sched/alloc_contiguous.c, alloc_rack.c,
 * alloc_mc1x1.c) share: a node's usable cores under the memory and node
 * sharing rules of sched/allocation.h, and the memory fallback of the
 * built-in FIRSTFREE. Public headers only below it, as in those files. */
#ifndef PNRSIM_SCHED_ALLOC_COMMON_H
#define PNRSIM_SCHED_ALLOC_COMMON_H

#include "sched/allocation.h"

#define ALLOC_EPS 1e-9

/* How many threads of j node `node` can take in the slot of v (its usable
 * cores), and with ids (not NULL) the first min(want, usable) of them, its
 * lowest such cores, into ids:
 *   SHARED, mem_aware NO or GLOBAL: its free cores;
 *   SHARED, LOCAL: its free cores, as many as its free RAM
 *     (sched_alloc_free_mb) holds threads of j (threads of j on a node add
 *     up);
 *   EXCLUSIVE: C when the node is wholly free (under LOCAL: and its free
 *     RAM holds C threads of j), else 0.
 * (GLOBAL: as NO; memory is tested afterwards on the whole answer,
 * sched_alloc_admits.) O(C). */
int alloc_node_usable(const sched_alloc_job *j, const sched_alloc_view *v, int node, int want,
                      int *ids);
/* The same with the memory rule given: local true counts the node's free
 * RAM as LOCAL does, false ignores memory (NO), whatever the view's rule.
 * (GLOBAL tries the LOCAL shape first, as the admission does: a job that
 * fits without network RAM goes where LOCAL would put it.) */
int alloc_node_usable_as(const sched_alloc_job *j, const sched_alloc_view *v, int node, int want,
                         int *ids, bool local);

/* The built-in's memory fallback, where FIRSTFREE has one, after a
 * policy's own choice failed: node_sharing EXCLUSIVE under LOCAL, the
 * spread over the nodes of most room (sched_alloc_spread_nodes). Returns
 * 0 (ids written) or -1. */
int alloc_fallback(const sched_alloc_job *j, const sched_alloc_view *v, int *ids);

#endif
