/* tests/fixture_backfill.h: the harness tests/test_backfill.c and
 * tests/test_backfill_random.c share: a cluster built with cluster_init, jobs
 * submitted at given times, every start, end and reservation recorded, and
 * the invariants checked after every scheduler action (see test_backfill.c). */
#ifndef PNRSIM_TESTS_FIXTURE_BACKFILL_H
#define PNRSIM_TESTS_FIXTURE_BACKFILL_H

#include "tests/fixture_components.h"
#include "app/config.h"
#include "app/run.h"
#include "app/run_check.h"
#include "app/workload.h"
#include "core/res.h"
#include "hw/pe.h"
#include "net/net.h"
#include "sched/backfill.h"
#include "sched/backfill_check.h"
#include "sched/gang.h"
#include "sched/gang_check.h"
#include "sched/job.h"
#include "sched/priority.h"
#include "tests/testcluster.h"
#include "tests/testutil.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* ---- harness ---------------------------------------------------------------- */

#define MAXJ 2000

typedef struct tc {
    sim_t sim;
    cluster_t cl;
    gang_t *g;                /* cl.gang */
    int njobs;
    double start[MAXJ + 1], end[MAXJ + 1], first_res[MAXJ + 1], submit[MAXJ + 1];
    double head_res[MAXJ + 1];
    double placed[MAXJ + 1];  /* when it got its PEs in a slot */
    /* Slots after the pass that gave a job its first reservation (0: not
     * reserved yet), and whether that number changed before it started. */
    int res_slots[MAXJ + 1];
    bool slots_changed[MAXJ + 1];
    int nended;
    unsigned limit_held[MAXJ + 1]; /* job_t.limit_held at its end (sched/limits.h) */
    const char *bad;          /* first invariant failure */
    char msg[200];
} tc_t;

static tc_t *T;

/* No slot holds more threads than PEs: count each slot's distinct jobs'
 * threads from the matrix. */
static inline const char *slot_capacity(tc_t *t)
{
    for (int s = 0; s < gang_slots(t->g); s++) {
        int threads = 0;
        for (int pe = 0; pe < t->cl.npes; pe++) {
            job_t *j = gang_slot_job(t->g, s, pe);
            if (j && j->pe_ids[0] == pe)
                threads += j->threads;
        }
        if (threads > t->cl.npes) {
            snprintf(t->msg, sizeof t->msg, "slot %d holds %d threads on %d PEs", s, threads,
                     t->cl.npes);
            return t->msg;
        }
    }
    return NULL;
}

static inline void sched_acted(sim_t *sim, gang_t *g, void *ctx)
{
    tc_t *t = ctx;
    if (!t->bad)
        t->bad = gang_check(g);
    if (!t->bad)
        t->bad = slot_capacity(t);
    if (!t->bad)
        t->bad = gang_check_placement(g);
    for (int s = 0; s < gang_slots(g); s++) {
        for (int pe = 0; pe < t->cl.npes; pe++) {
            job_t *j = gang_slot_job(g, s, pe);
            if (j && t->placed[j->id] < 0)
                t->placed[j->id] = sim->now;
        }
    }
    for (job_t *j = gang_queue_first(g); j; j = gang_queue_next(g, j)) {
        if (j->bf_head_res < 0)
            continue;
        if (t->res_slots[j->id] == 0)
            t->res_slots[j->id] = gang_slots(g);
        else if (t->res_slots[j->id] != gang_slots(g))
            t->slots_changed[j->id] = true;
    }
}

static inline void on_end(sim_t *sim, job_t *j, void *ctx)
{
    tc_t *t = ctx;
    ck_assert(j->id >= 1 && j->id <= MAXJ);
    t->start[j->id] = j->start;
    t->end[j->id] = j->end;
    t->first_res[j->id] = j->bf_first_res;
    t->head_res[j->id] = j->bf_head_res;
    t->submit[j->id] = j->submit;
    t->limit_held[j->id] = j->limit_held;
    t->nended++;
    job_release(sim, j);
}

static inline void submit_cb(sim_t *sim, void *arg)
{
    gang_submit(sim, T->g, arg);
}

static inline gang_params params(sched_priority prio, sched_backfill bf, int mpl, bool strict)
{
    gang_params p = {.priority = prio, .packing = PACK_FIRSTFIT, .mpl = mpl, .pcs = 0,
                     .quantum = 50, .mem_aware = false, .strict_order = strict,
                     .backfill = bf};
    return p;
}

static inline void tc_init(tc_t *t, int npes, const gang_params *gp)
{
    memset(t, 0, sizeof *t);
    T = t;
    ck_assert_int_eq(ev_init(&t->sim), 0);
    cluster_params cp = test_cluster_params(npes, 1024, 0);
    cp.gang = gp;
    cp.on_end = on_end;
    cp.end_ctx = t;
    cluster_init(&t->sim, &t->cl, &cp);
    t->g = t->cl.gang;
    gang_set_hook(t->g, sched_acted, t);
    for (int i = 0; i <= MAXJ; i++)
        t->start[i] = t->end[i] = t->first_res[i] = t->head_res[i] = t->placed[i] = -1;
}

/* J<id>: submitted at `submit`, `threads` PEs, runs `cpu` s, estimate est
 * (< 0: exact). Trace order = id. */
static inline void tc_job_est(tc_t *t, long id, double submit, int threads, double cpu, double est)
{
    ck_assert(id >= 1 && id <= MAXJ);
    job_t *j = job_create(&t->cl, id, id, submit, threads, cpu, 1);
    if (est >= 0)
        j->estimate = est;
    if (id > t->njobs)
        t->njobs = (int)id;
    ev_once(&t->sim, submit, submit_cb, j);
}

static inline void tc_job(tc_t *t, long id, double submit, int threads, double cpu)
{
    tc_job_est(t, id, submit, threads, cpu, -1);
}

static inline void tc_run(tc_t *t)
{
    ev_run(&t->sim, INFINITY);
    ck_assert_msg(t->bad == NULL, "invariant: %s", t->bad ? t->bad : "");
    ck_assert_int_eq(t->nended, t->njobs);
    ck_assert_int_eq(gang_queued(t->g), 0);
    ck_assert_int_eq(gang_placed(t->g), 0);
}

static inline void tc_free(tc_t *t)
{
    test_cluster_free(&t->sim, &t->cl);
    T = NULL;
}

#define EXPECT_JOB(t, id, s, e)                                                \
    ck_assert_msg(fabs((t)->start[id] - (s)) < 1e-9 && fabs((t)->end[id] - (e)) < 1e-9, \
                  "J%d ran [%.12g, %.12g), expected [%.12g, %.12g)", (int)(id),  \
                  (t)->start[id], (t)->end[id], (double)(s), (double)(e))

#endif
