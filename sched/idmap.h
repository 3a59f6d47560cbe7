/* sched/idmap.h: a map from SWF user or group numbers (long, -1 for
 * unknown) to dense indices 0, 1, 2 ... in the order they were first
 * added (issue 35: the fair-share accounts of sched/multifactor.c and the
 * per-user limits of sched/limits.c). Open addressing with linear probing
 * in a table of a power-of-two size kept at most half full: a look-up is
 * O(1) expected, and memory grows only when a new number appears (never
 * per event in steady state).
 */
#ifndef PNRSIM_SCHED_IDMAP_H
#define PNRSIM_SCHED_IDMAP_H

#include <stddef.h>

typedef struct sched_idmap {
    long *key;       /* cap slots; valid where idx >= 0 */
    int *idx;        /* -1: empty */
    size_t cap, n;   /* n: numbers added */
} sched_idmap;

/* An empty map (no allocation until the first add). */
void sched_idmap_init(sched_idmap *m);
void sched_idmap_free(sched_idmap *m);
/* The index of id, or -1 when it was never added. */
int sched_idmap_find(const sched_idmap *m, long id);
/* The index of id, adding it (index n, then n grows) when new. */
int sched_idmap_add(sched_idmap *m, long id);

#endif
