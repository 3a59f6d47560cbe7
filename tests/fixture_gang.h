/* tests/fixture_gang.h: the harness of tests/test_gang.c and
 * tests/test_gang_pass.c (the gang scheduler, sched/gang.c): a cluster with
 * a gang scheduler whose every action is checked (gang_check,
 * gang_check_placement), jobs submitted at given times, probes of the
 * layout at given instants, the CPU time spent.
 *
 * Every hand case builds its cluster with cluster_init from
 * tests/testcluster.h's machine: a star network, no messages (comm_rate =
 * sync_rate = 0) and no paging (mem_access_rate = 0), so a thread of a job with CPU demand c computes
 * for exactly c seconds of the time its job is scheduled. Jobs are named
 * J<id>; `[s, e)` below is a job's first start and its end.
 *
 * Layouts (probe strings) list the slots in creation order separated by
 * " | "; each slot lists the job on PE 0, 1, ... ('.' = free); '>' marks the
 * current slot.
 *
 * Rules of gang.c the expectations rely on (see sched/gang.h):
 *   - PEs inside a slot: the lowest-numbered free ones.
 *   - The placement pass runs once per instant at which room may have
 *     appeared (arrival, job end, slot switch, memory freed under
 *     mem_aware), after that instant's other events; every hand case also
 *     checks, after each scheduler action, that no queued job that may
 *     start fits anywhere unless a pass is due (gang_check_placement).
 *   - The quantum timer starts when a second slot appears and restarts at
 *     every switch; the PCS delay is part of the quantum.
 *   - A job's first start costs no PCS; a resumed job computes `pcs`
 *     seconds after it is scheduled again. A switch is counted in pcs_count
 *     when it stops a running job or resumes one that ran before.
 *   - When the current slot empties, the next slot takes over at once.
 *   - Alternative scheduling happens at job ends and at switches; the other
 *     slots are visited in ring order from the current one.
 */
#ifndef PNRSIM_TESTS_FIXTURE_GANG_H
#define PNRSIM_TESTS_FIXTURE_GANG_H

#include "tests/fixture_components.h"
#include "app/config.h"
#include "app/run.h"
#include "app/run_check.h"
#include "core/res.h"
#include "hw/pe.h"
#include "net/net.h"
#include "sched/backfill.h"
#include "sched/gang.h"
#include "sched/gang_check.h"
#include "sched/job.h"
#include "tests/testcluster.h"
#include "tests/testutil.h"

#include <stdio.h>
#include <string.h>


/* ---- harness ------------------------------------------------------------- */

#define MAXJ 12
#define MAXP 16
#define LAYOUT_MAX 200

typedef struct probe {
    double at;
    bool taken;
    char layout[LAYOUT_MAX];
    int slots;
    long queued, placed, running;
    uint64_t pcs;
    double mpl_mean;
    double alloc[8];          /* MB allocated on PEs 0..7 */
} probe_t;

typedef struct tc {
    sim_t sim;
    cluster_t cl;
    gang_t *g;                /* cl.gang */
    job_t *job[MAXJ + 1];     /* by id; NULL once released */
    double start[MAXJ + 1], end[MAXJ + 1];
    int nended;
    probe_t probe[MAXP];
    int nprobe;
    const char *bad;          /* first gang_check failure */
    double max_alloc;         /* most MB allocated on one PE, at any probe */
} tc_t;

static tc_t *T; /* the case being run, for the event callbacks */

static inline void note_check(tc_t *t)
{
    if (!t->bad)
        t->bad = gang_check(t->g);
}

/* After every scheduler action: the matrix invariants and the placement
 * rule (no queued job that may start fits, unless a pass is due). */
static inline void sched_acted(sim_t *sim, gang_t *g, void *ctx)
{
    tc_t *t = ctx;
    (void)sim;
    note_check(t);
    if (!t->bad)
        t->bad = gang_check_placement(g);
}

static inline void on_end(sim_t *sim, job_t *j, void *ctx)
{
    tc_t *t = ctx;
    ck_assert(j->id >= 1 && j->id <= MAXJ);
    t->start[j->id] = j->start;
    t->end[j->id] = j->end;
    t->nended++;
    t->job[j->id] = NULL;
    job_release(sim, j);
    note_check(t);
}

static inline void submit_cb(sim_t *sim, void *arg)
{
    gang_submit(sim, T->g, arg);
    note_check(T);
}

static inline void layout(const gang_t *g, int npes, char *buf, size_t n)
{
    size_t k = 0;
    buf[0] = '\0';
    for (int s = 0; s < gang_slots(g) && k < n; s++) {
        k += (size_t)snprintf(buf + k, n - k, "%s%s", s ? " | " : "",
                              s == gang_current_slot(g) ? ">" : "");
        for (int pe = 0; pe < npes && k < n; pe++) {
            job_t *j = gang_slot_job(g, s, pe);
            if (j)
                k += (size_t)snprintf(buf + k, n - k, pe ? " %ld" : "%ld", j->id);
            else
                k += (size_t)snprintf(buf + k, n - k, pe ? " ." : ".");
        }
    }
}

static inline void probe_cb(sim_t *sim, void *arg)
{
    probe_t *p = arg;
    tc_t *t = T;
    p->taken = true;
    layout(t->g, t->cl.npes, p->layout, sizeof p->layout);
    p->slots = gang_slots(t->g);
    p->queued = gang_queued(t->g);
    p->placed = gang_placed(t->g);
    p->running = gang_running(t->g);
    p->pcs = gang_pcs_count(t->g);
    p->mpl_mean = gang_mpl_mean(t->g, sim->now);
    for (int i = 0; i < t->cl.npes && i < 8; i++) {
        p->alloc[i] = t->cl.pes[i].alloc_mb;
        if (p->alloc[i] > t->max_alloc)
            t->max_alloc = p->alloc[i];
    }
    note_check(t);
}

static inline gang_params params(sched_priority prio, sched_packing pack, int mpl, double quantum,
                                 double pcs, bool strict)
{
    gang_params p = {.priority = prio, .packing = pack, .backfill = BF_NONE, .mpl = mpl, .pcs = pcs,
                     .quantum = quantum, .mem_aware = false, .strict_order = strict};
    return p;
}

static inline void tc_init(tc_t *t, int npes, double ram_mb, const gang_params *gp)
{
    memset(t, 0, sizeof *t);
    T = t;
    ck_assert_int_eq(ev_init(&t->sim), 0);
    cluster_params cp = test_cluster_params(npes, ram_mb, 0);
    cp.gang = gp;
    cp.on_end = on_end;
    cp.end_ctx = t;
    cluster_init(&t->sim, &t->cl, &cp);
    t->g = t->cl.gang;
    gang_set_hook(t->g, sched_acted, t);
    for (int i = 0; i <= MAXJ; i++)
        t->start[i] = t->end[i] = -1;
}

/* Job J<id>: submitted at `submit`, `threads` PEs, `cpu` s per thread. */
static inline void tc_job_mem(tc_t *t, long id, double submit, int threads, double cpu, double mem)
{
    ck_assert(id >= 1 && id <= MAXJ);
    job_t *j = job_create(&t->cl, id, id, submit, threads, cpu, mem);
    t->job[id] = j;
    ev_once(&t->sim, submit, submit_cb, j);
}

static inline void tc_job(tc_t *t, long id, double submit, int threads, double cpu)
{
    tc_job_mem(t, id, submit, threads, cpu, 1);
}

static inline probe_t *tc_probe(tc_t *t, double at)
{
    ck_assert_int_lt(t->nprobe, MAXP);
    probe_t *p = &t->probe[t->nprobe++];
    p->at = at;
    ev_once(&t->sim, at, probe_cb, p);
    return p;
}

static inline ev_run_result tc_run(tc_t *t)
{
    ev_run_result rr = ev_run(&t->sim, INFINITY);
    ck_assert_msg(t->bad == NULL, "gang_check: %s", t->bad ? t->bad : "");
    for (int i = 0; i < t->nprobe; i++)
        ck_assert_msg(t->probe[i].taken, "probe at %g not taken", t->probe[i].at);
    return rr;
}

static inline double tc_cpu_busy(tc_t *t)
{
    double b = 0;
    for (int i = 0; i < t->cl.npes; i++)
        b += res_busy_time(&t->sim, &t->cl.pes[i].cpu);
    return b;
}

static inline void tc_free(tc_t *t)
{
    test_cluster_free(&t->sim, &t->cl);
    T = NULL;
}

/* J<id> ran [s, e). */
#define EXPECT_JOB(t, id, s, e)                                                \
    ck_assert_msg(fabs((t)->start[id] - (s)) < 1e-9 && fabs((t)->end[id] - (e)) < 1e-9, \
                  "J%d ran [%.12g, %.12g), expected [%.12g, %.12g)", (int)(id),  \
                  (t)->start[id], (t)->end[id], (double)(s), (double)(e))

#define EXPECT_LAYOUT(p, s)                                                    \
    ck_assert_msg(strcmp((p)->layout, (s)) == 0, "at t=%g layout \"%s\", expected \"%s\"", \
                  (p)->at, (p)->layout, (s))

/* After a run where every job ended: nothing is left in the scheduler, and
 * the CPU time the PEs were busy is the CPU demand done. */
static inline void expect_drained(tc_t *t, int njobs)
{
    ck_assert_int_eq(t->nended, njobs);
    ck_assert_int_eq(gang_slots(t->g), 0);
    ck_assert_int_eq(gang_queued(t->g), 0);
    ck_assert_int_eq(gang_placed(t->g), 0);
    ck_assert_int_eq(gang_running(t->g), 0);
    ck_assert_int_eq(t->cl.threads_running, 0);
    ck_assert_near(tc_cpu_busy(t), t->cl.cpu_demand_done, 1e-9);
}


#endif
