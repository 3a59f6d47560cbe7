/* sched/gang_home.h: a slot of the gang matrix and the "home" links of the
 * jobs alternative scheduling moved out of it (sched/gang_home.c).
 *
 * A job moved out of slot h by alternative scheduling remembers h as its
 * home (job_t.home_slot = h's id: an exile of h) and moves back when h is
 * current again, unless a job placed in h on its cores kept it out
 * (docs/MODEL.md). While j is an exile of h its cores in h are free, so the
 * exiles of one slot hold disjoint cores; h records, per core, the exile of
 * h whose thread is on it (exile_on), so that a placement in h finds the
 * exiles it keeps out by looking at its own cores only, in O(its width),
 * never at every slot's row (issue 32 item 5: that walk made a pass of n
 * jobs at one instant quadratic in n).
 */
#ifndef PNRSIM_SCHED_GANG_HOME_H
#define PNRSIM_SCHED_GANG_HOME_H

#include "sched/job.h"

typedef struct slot {
    int id;
    int nfree;
    int njobs;
    int nexiles;        /* placed jobs whose home is this slot */
    job_t **pe_job;     /* npes entries */
    job_t **exile_on;   /* npes entries, allocated at the first exile
                         * (NULL until then): per core, the exile of this
                         * slot with a thread on it, else NULL */
} slot_t;

/* A new empty slot of npes free cores with id `id`. Aborts when out of
 * memory. */
slot_t *gang_home_slot_new(int id, int npes);
/* Free slot s (its jobs are not touched). */
void gang_home_slot_free(slot_t *s);
/* Make h (a slot j is not in) the home of job j (j->home_slot = h->id);
 * npes is the number of columns. */
void gang_home_set(slot_t *h, job_t *j, int npes);
/* j, an exile of h, has h no more as its home (j->home_slot = -1). */
void gang_home_clear(slot_t *h, job_t *j);
/* A job was placed in slot s on core pe: the exile of s with a thread on
 * pe, if any, loses its home (it is kept out). Under EXCLUSIVE, call it for
 * every core of the placed job's nodes: exiles there hold whole nodes. */
static inline void gang_home_keep_out(slot_t *s, int pe)
{
    job_t *o = s->exile_on ? s->exile_on[pe] : NULL;
    if (o)
        gang_home_clear(s, o);
}
/* Slot s is being removed: its exiles lose their home. */
void gang_home_slot_gone(slot_t *s);

/* The free cores of the slots by index, as a max tree (leaves: nfree of
 * slot i, -1 past the last), so that a placement finds the slots with
 * room for w cores in index order without looking at the full ones (issue
 * 32 item 5: a look at every slot per job made a pass of many jobs
 * quadratic). */
typedef struct slot_fidx {
    int *t;             /* 2 cap entries: t[cap + i] leaf i, t[k] = max of
                         * t[2k], t[2k + 1] */
    int cap;            /* leaves, a power of two; 0 before the first build */
} slot_fidx;

/* Rebuild x from slots[0..n) (O(n)); after a removal. */
void gang_fidx_build(slot_fidx *x, slot_t *const *slots, int n);
/* slots[n - 1] was just appended (O(log n), O(n) when x grows). */
void gang_fidx_append(slot_fidx *x, slot_t *const *slots, int n);
/* Slot index i now has v free cores (O(log n)). */
void gang_fidx_set(slot_fidx *x, int i, int v);
/* The lowest slot index >= from with at least w free cores, -1 if none
 * (O(log n) per call). */
int gang_fidx_next(const slot_fidx *x, int from, int w);
/* Free x's storage. */
void gang_fidx_free(slot_fidx *x);

#endif
