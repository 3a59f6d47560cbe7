/* sched/bf_host.h: the state of the backfilling host (sched/backfill.c),
 * shared with sched/backfills.c, which gives a reservation policy its view
 * (sched/reserve.h) and holds the built-in EASY and CONSERVATIVE
 * components. Internal.
 *
 * Data structures (all reused from pass to pass: no allocation in steady
 * state once the arrays have grown to the largest queue and machine seen):
 * see backfill.c's opening comment.
 */
#ifndef PNRSIM_SCHED_BF_HOST_H
#define PNRSIM_SCHED_BF_HOST_H

#include "sched/backfill.h"
#include "sched/bf_bound.h"
#include "sched/bf_profile.h"

struct sched_host {
    gang_t *g;
    void *ostate, *rstate;  /* the order's and the backfilling's (create) */
    int npes;
    job_t **q;
    size_t qcap;
    job_t **run;            /* MPL 1: placed jobs by expected end */
    size_t nrun, runcap;
    job_t **tmp;            /* MPL > 1: one slot's placed jobs */
    size_t tmpcap;
    int *sufmin;            /* narrowest job in q[i..] */
    size_t sufcap;
    bfs_t stop;             /* MPL 1: the stop test by width classes */
    prof_t *pr;
    int npr, prcap;
    /* Conservative at MPL 1 with a static order: the reservations of the
     * last pass, kept for the next (see keep_valid and incremental). */
    bool kept;              /* pr[0] and resv are what a rebuild would give */
    bool dirty;             /* a job ended off its expected end since */
    bool rebuild_always;    /* test and bench hook */
    bool plain_search;      /* test and bench hook: no dominance bound, no
                             * stop by width classes */
    bool check_bound;       /* test hook: re-search every reservation from
                             * now and assert the same start (debug builds;
                             * O(s) per reservation, so off by default) */
    bfb_t bound;            /* lower bounds on reservations (bf_bound.h) */
    bool head_seen;         /* this pass has met its head (bf_head_res) */
    bool restart;           /* MPL > 1: a slot was opened, rebuild the profiles */
    bool stale;             /* MPL > 1: slots were opened without a rebuild
                             * (reserve_from, lazy_open): the profiles' free
                             * PEs now are exact, their later steps are not */
    int *mx;                /* while stale: a max tree of the profiles' free
                             * PEs now, leaves mx[mxn + k] = pr[k].f[0] */
    int mxn, mxcap;
    long epoch;             /* MPL > 1: slot epoch (slot_epoch), from 1 */
    int seen_slots;
    job_t **resv;           /* reserved queued jobs, in queue order */
    double *resv_t;         /* their reserved starts */
    size_t nresv, resvcap, resvtcap;
    bf_stats st;
};

/* The passes of the built-in EASY and CONSERVATIVE over b->q[0..n), sorted
 * (backfill.h for their rules). */
void bf_easy(bf_t *b, gang_t *g, size_t n, double now);
void bf_conservative(bf_t *b, gang_t *g, size_t n, double now);
/* Build the profiles at now (the open slots', one for slots not opened
 * yet when the MPL allows); returns how many (b->pr[0..)). */
int bf_profiles(bf_t *b, double now);

#endif
