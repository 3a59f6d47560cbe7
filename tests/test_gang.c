/* tests/test_gang.c: the gang scheduler (sched/gang.c, techreport §2.1.2 and
 * §4.4): schedules worked out by hand on small machines for every priority
 * order and packing scheme, strict order, MPL 1 as space sharing, time
 * slicing with context-switch costs, alternative scheduling, slot
 * unification and moving back, memory awareness, the MPL metrics, and the
 * matrix invariants and CPU-time conservation through runs on a real trace.
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

static void note_check(tc_t *t)
{
    if (!t->bad)
        t->bad = gang_check(t->g);
}

/* After every scheduler action: the matrix invariants and the placement
 * rule (no queued job that may start fits, unless a pass is due). */
static void sched_acted(sim_t *sim, gang_t *g, void *ctx)
{
    tc_t *t = ctx;
    (void)sim;
    note_check(t);
    if (!t->bad)
        t->bad = gang_check_placement(g);
}

static void on_end(sim_t *sim, job_t *j, void *ctx)
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

static void submit_cb(sim_t *sim, void *arg)
{
    gang_submit(sim, T->g, arg);
    note_check(T);
}

static void layout(const gang_t *g, int npes, char *buf, size_t n)
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

static void probe_cb(sim_t *sim, void *arg)
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

static gang_params params(cfg_priority prio, cfg_packing pack, int mpl, double quantum,
                          double pcs, bool strict)
{
    gang_params p = {.priority = prio, .packing = pack, .mpl = mpl, .pcs = pcs,
                     .quantum = quantum, .mem_aware = false, .strict_order = strict};
    return p;
}

static void tc_init(tc_t *t, int npes, double ram_mb, const gang_params *gp)
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
static void tc_job_mem(tc_t *t, long id, double submit, int threads, double cpu, double mem)
{
    ck_assert(id >= 1 && id <= MAXJ);
    job_t *j = job_create(&t->cl, id, id, submit, threads, cpu, mem);
    t->job[id] = j;
    ev_once(&t->sim, submit, submit_cb, j);
}

static void tc_job(tc_t *t, long id, double submit, int threads, double cpu)
{
    tc_job_mem(t, id, submit, threads, cpu, 1);
}

static probe_t *tc_probe(tc_t *t, double at)
{
    ck_assert_int_lt(t->nprobe, MAXP);
    probe_t *p = &t->probe[t->nprobe++];
    p->at = at;
    ev_once(&t->sim, at, probe_cb, p);
    return p;
}

static ev_run_result tc_run(tc_t *t)
{
    ev_run_result rr = ev_run(&t->sim, INFINITY);
    ck_assert_msg(t->bad == NULL, "gang_check: %s", t->bad ? t->bad : "");
    for (int i = 0; i < t->nprobe; i++)
        ck_assert_msg(t->probe[i].taken, "probe at %g not taken", t->probe[i].at);
    return rr;
}

static double tc_cpu_busy(tc_t *t)
{
    double b = 0;
    for (int i = 0; i < t->cl.npes; i++)
        b += res_busy_time(&t->sim, &t->cl.pes[i].cpu);
    return b;
}

static void tc_free(tc_t *t)
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
static void expect_drained(tc_t *t, int njobs)
{
    ck_assert_int_eq(t->nended, njobs);
    ck_assert_int_eq(gang_slots(t->g), 0);
    ck_assert_int_eq(gang_queued(t->g), 0);
    ck_assert_int_eq(gang_placed(t->g), 0);
    ck_assert_int_eq(gang_running(t->g), 0);
    ck_assert_int_eq(t->cl.threads_running, 0);
    ck_assert_near(tc_cpu_busy(t), t->cl.cpu_demand_done, 1e-9);
}

/* ---- priority orders: space sharing (MPL 1), strict order ---------------- */

/* 4 PEs, MPL 1, strict order. J1 (4 PEs, 10 s) holds the machine from 0 to
 * 10; meanwhile J2 (1 PE, 5 s) arrives at 1, J3 (3 PEs, 4 s) at 2, J4 (2
 * PEs, 6 s) at 3 and J5 (2 PEs, 3 s) at 4. At 10 the queue is J2 J3 J4 J5;
 * the priority decides who goes first. */
static void priority_case(tc_t *t, cfg_priority prio)
{
    gang_params gp = params(prio, PACK_FIRSTFIT, 1, 5, 0.5, true);
    tc_init(t, 4, 1024, &gp);
    tc_job(t, 1, 0, 4, 10);
    tc_job(t, 2, 1, 1, 5);
    tc_job(t, 3, 2, 3, 4);
    tc_job(t, 4, 3, 2, 6);
    tc_job(t, 5, 4, 2, 3);
}

START_TEST(test_priority_fcfs)
{
    /* FCFS: at 10 J2 takes PE 0 [10,15) and J3 PEs 1-3 [10,14); J4 needs 2
     * PEs, none free: it blocks J5. At 14 J3 ends: J4 on PEs 1,2 [14,20);
     * J5 needs 2, only PE 3 is free. At 15 J2 ends: J5 on PEs 0,3
     * [15,18). */
    tc_t t;
    priority_case(&t, PRIO_FCFS);
    probe_t *p5 = tc_probe(&t, 5), *p12 = tc_probe(&t, 12), *p16 = tc_probe(&t, 16);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_LAYOUT(p5, ">1 1 1 1");
    ck_assert_int_eq(p5->queued, 4);
    EXPECT_LAYOUT(p12, ">2 3 3 3");
    ck_assert_int_eq(p12->running, 2);
    ck_assert_int_eq(p12->queued, 2);
    EXPECT_LAYOUT(p16, ">5 4 4 5");
    ck_assert_int_eq(p16->running, 2);
    EXPECT_JOB(&t, 1, 0, 10);
    EXPECT_JOB(&t, 2, 10, 15);
    EXPECT_JOB(&t, 3, 10, 14);
    EXPECT_JOB(&t, 4, 14, 20);
    EXPECT_JOB(&t, 5, 15, 18);
    ck_assert_uint_eq(gang_pcs_count(t.g), 0);
    ck_assert_int_eq(gang_mpl_max(t.g), 1);
    expect_drained(&t, 5);
    tc_free(&t);
}
END_TEST

START_TEST(test_priority_bestfit)
{
    /* BESTFIT (most PEs first): at 10 the order is J3 J4 J5 J2. J3 on PEs
     * 0-2 [10,14); J4 needs 2 and 1 is free: blocked. At 14 the machine is
     * empty: J4 on 0,1 [14,20), J5 on 2,3 [14,17); J2 waits. At 17 J5 ends:
     * J2 on PE 2 [17,22). */
    tc_t t;
    priority_case(&t, PRIO_BESTFIT);
    probe_t *p12 = tc_probe(&t, 12), *p16 = tc_probe(&t, 16), *p18 = tc_probe(&t, 18.5);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_LAYOUT(p12, ">3 3 3 .");
    EXPECT_LAYOUT(p16, ">4 4 5 5");
    EXPECT_LAYOUT(p18, ">4 4 2 .");
    EXPECT_JOB(&t, 1, 0, 10);
    EXPECT_JOB(&t, 2, 17, 22);
    EXPECT_JOB(&t, 3, 10, 14);
    EXPECT_JOB(&t, 4, 14, 20);
    EXPECT_JOB(&t, 5, 14, 17);
    ck_assert_uint_eq(gang_pcs_count(t.g), 0);
    ck_assert_int_eq(gang_mpl_max(t.g), 1);
    expect_drained(&t, 5);
    tc_free(&t);
}
END_TEST

START_TEST(test_priority_worstfit)
{
    /* WORSTFIT (fewest PEs first; J4 before J5 by trace order): at 10 J2 on
     * PE 0 [10,15), J4 on 1,2 [10,16); J5 needs 2, 1 free: blocked, and J3
     * behind it. At 15 J2 ends: J5 on 0,3 [15,18). At 16 J4 ends: J3 needs
     * 3, 2 free. At 18 J5 ends: J3 on 0-2 [18,22). */
    tc_t t;
    priority_case(&t, PRIO_WORSTFIT);
    probe_t *p12 = tc_probe(&t, 12), *p17 = tc_probe(&t, 17), *p20 = tc_probe(&t, 20);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_LAYOUT(p12, ">2 4 4 .");
    EXPECT_LAYOUT(p17, ">5 . . 5");
    ck_assert_int_eq(p17->queued, 1);
    EXPECT_LAYOUT(p20, ">3 3 3 .");
    EXPECT_JOB(&t, 1, 0, 10);
    EXPECT_JOB(&t, 2, 10, 15);
    EXPECT_JOB(&t, 3, 18, 22);
    EXPECT_JOB(&t, 4, 10, 16);
    EXPECT_JOB(&t, 5, 15, 18);
    ck_assert_uint_eq(gang_pcs_count(t.g), 0);
    expect_drained(&t, 5);
    tc_free(&t);
}
END_TEST

/* ---- packing schemes ------------------------------------------------------ */

/* 8 PEs, MPL 3, quantum 10, pcs 0, FCFS. All five jobs arrive at 0, in
 * order, and are placed in the pass at 0:
 *   J1 6 PEs 4 s    -> slot 0, PEs 0-5 (slot 0 has 2 free)
 *   J2 7 PEs 3 s    -> fits nowhere: slot 1, PEs 0-6 (1 free)
 *   J3 5 PEs 2 s    -> fits nowhere: slot 2, PEs 0-4 (3 free)
 *   J4 1 PE  5 s    -> the packing decides
 *   J5 2 PEs 1.5 s  -> the packing decides
 * Every job is shorter than the quantum, and the quantum restarts at each
 * switch, so no job is ever preempted; alternative scheduling moves jobs
 * into the current slot when their PEs fall idle there. */
static void packing_case(tc_t *t, cfg_packing pack)
{
    gang_params gp = params(PRIO_FCFS, pack, 3, 10, 0, true);
    tc_init(t, 8, 1024, &gp);
    tc_job(t, 1, 0, 6, 4);
    tc_job(t, 2, 0, 7, 3);
    tc_job(t, 3, 0, 5, 2);
    tc_job(t, 4, 0, 1, 5);
    tc_job(t, 5, 0, 2, 1.5);
}

START_TEST(test_packing_firstfit)
{
    /* FIRSTFIT: J4 -> slot 0 (first with a free PE), PE 6. Free PEs are now
     * [1, 1, 3]: J5 -> slot 2, PEs 5,6.
     *   0    slot 0 runs: J1 [0,4), J4 [0,5).
     *   4    J1 ends; slot 0's idle PEs 0-5,7: J2 (0-6) no (PE 6 busy);
     *        J3 (0-4) yes: moved in, starts [4,6); J5 (5,6) no.
     *   5    J4 ends; idle 5,6,7: J5 (5,6) moved in [5,6.5); slot 2 is
     *        now empty and removed (unification).
     *   6.5  J5 ends: slot 0 is empty and removed; slot 1 takes over: J2
     *        [6.5,9.5), first start, no PCS. */
    tc_t t;
    packing_case(&t, PACK_FIRSTFIT);
    probe_t *p0 = tc_probe(&t, 0.5), *p4 = tc_probe(&t, 4.5), *p5 = tc_probe(&t, 5.5);
    probe_t *p7 = tc_probe(&t, 7);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_LAYOUT(p0, ">1 1 1 1 1 1 4 . | 2 2 2 2 2 2 2 . | 3 3 3 3 3 5 5 .");
    EXPECT_LAYOUT(p4, ">3 3 3 3 3 . 4 . | 2 2 2 2 2 2 2 . | . . . . . 5 5 .");
    EXPECT_LAYOUT(p5, ">3 3 3 3 3 5 5 . | 2 2 2 2 2 2 2 .");
    EXPECT_LAYOUT(p7, ">2 2 2 2 2 2 2 .");
    EXPECT_JOB(&t, 1, 0, 4);
    EXPECT_JOB(&t, 2, 6.5, 9.5);
    EXPECT_JOB(&t, 3, 4, 6);
    EXPECT_JOB(&t, 4, 0, 5);
    EXPECT_JOB(&t, 5, 5, 6.5);
    ck_assert_int_eq(gang_mpl_max(t.g), 3);
    ck_assert_uint_eq(gang_pcs_count(t.g), 0); /* nothing was ever stopped */
    expect_drained(&t, 5);
    tc_free(&t);
}
END_TEST

START_TEST(test_packing_bestfit)
{
    /* BESTFIT: J4 -> the slot with the fewest adequate free PEs: slot 1 (1
     * free), PE 7. Free PEs [2, 0, 3]: J5 -> slot 0 (2), PEs 6,7.
     *   0    slot 0 runs: J1 [0,4), J5 [0,1.5).
     *   1.5  J5 ends; idle 6,7: J2 (0-6) no; J4 (7) moved in [1.5,6.5).
     *   4    J1 ends; idle 0-6: J2 (0-6) moved in [4,7); slot 1 empty:
     *        removed.
     *   7    J2 ends: slot 0 empty, removed; J3's slot: J3 [7,9). */
    tc_t t;
    packing_case(&t, PACK_BESTFIT);
    probe_t *p0 = tc_probe(&t, 0.5), *p2 = tc_probe(&t, 2), *p4 = tc_probe(&t, 4.5);
    probe_t *p8 = tc_probe(&t, 8);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_LAYOUT(p0, ">1 1 1 1 1 1 5 5 | 2 2 2 2 2 2 2 4 | 3 3 3 3 3 . . .");
    EXPECT_LAYOUT(p2, ">1 1 1 1 1 1 . 4 | 2 2 2 2 2 2 2 . | 3 3 3 3 3 . . .");
    EXPECT_LAYOUT(p4, ">2 2 2 2 2 2 2 4 | 3 3 3 3 3 . . .");
    EXPECT_LAYOUT(p8, ">3 3 3 3 3 . . .");
    EXPECT_JOB(&t, 1, 0, 4);
    EXPECT_JOB(&t, 2, 4, 7);
    EXPECT_JOB(&t, 3, 7, 9);
    EXPECT_JOB(&t, 4, 1.5, 6.5);
    EXPECT_JOB(&t, 5, 0, 1.5);
    ck_assert_int_eq(gang_mpl_max(t.g), 3);
    ck_assert_uint_eq(gang_pcs_count(t.g), 0);
    expect_drained(&t, 5);
    tc_free(&t);
}
END_TEST

START_TEST(test_packing_worstfit)
{
    /* WORSTFIT: J4 -> the slot with the most free PEs: slot 2 (3), PE 5.
     * Free PEs [2, 1, 2]: J5 -> slot 0 (tie with slot 2: the first), 6,7.
     *   0    slot 0 runs: J1 [0,4), J5 [0,1.5).
     *   1.5  J5 ends; idle 6,7: J2 (0-6) no, J3 (0-4) no, J4 (5) no.
     *   4    J1 ends: slot 0 empty, removed; slot 1 takes over: J2 [4,7).
     *        Its idle PE 7 suits no job of slot 2.
     *   7    J2 ends, slot removed: J3 [7,9), J4 [7,12). */
    tc_t t;
    packing_case(&t, PACK_WORSTFIT);
    probe_t *p0 = tc_probe(&t, 0.5), *p4 = tc_probe(&t, 4.5), *p8 = tc_probe(&t, 8);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_LAYOUT(p0, ">1 1 1 1 1 1 5 5 | 2 2 2 2 2 2 2 . | 3 3 3 3 3 4 . .");
    EXPECT_LAYOUT(p4, ">2 2 2 2 2 2 2 . | 3 3 3 3 3 4 . .");
    EXPECT_LAYOUT(p8, ">3 3 3 3 3 4 . .");
    EXPECT_JOB(&t, 1, 0, 4);
    EXPECT_JOB(&t, 2, 4, 7);
    EXPECT_JOB(&t, 3, 7, 9);
    EXPECT_JOB(&t, 4, 7, 12);
    EXPECT_JOB(&t, 5, 0, 1.5);
    ck_assert_int_eq(gang_mpl_max(t.g), 3);
    ck_assert_uint_eq(gang_pcs_count(t.g), 0);
    expect_drained(&t, 5);
    tc_free(&t);
}
END_TEST

/* ---- strict order ---------------------------------------------------------- */

/* 4 PEs, MPL 1, FCFS. J1 (2 PEs, 10 s) at 0 on PEs 0,1; J2 (4 PEs, 5 s) at
 * 1 cannot start before 10; J3 (2 PEs, 3 s) at 2; J4 (1 PE, 2 s) at 6. */
static void strict_case(tc_t *t, bool strict)
{
    gang_params gp = params(PRIO_FCFS, PACK_FIRSTFIT, 1, 5, 0.5, strict);
    tc_init(t, 4, 1024, &gp);
    tc_job(t, 1, 0, 2, 10);
    tc_job(t, 2, 1, 4, 5);
    tc_job(t, 3, 2, 2, 3);
    tc_job(t, 4, 6, 1, 2);
}

START_TEST(test_strict_order_yes)
{
    /* The blocked J2 blocks J3 and J4 although PEs 2,3 are free. At 10 J2
     * [10,15); at 15 J3 on 0,1 [15,18) and J4 on PE 2 [15,17). */
    tc_t t;
    strict_case(&t, true);
    probe_t *p7 = tc_probe(&t, 7);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_LAYOUT(p7, ">1 1 . .");
    ck_assert_int_eq(p7->queued, 3);
    EXPECT_JOB(&t, 1, 0, 10);
    EXPECT_JOB(&t, 2, 10, 15);
    EXPECT_JOB(&t, 3, 15, 18);
    EXPECT_JOB(&t, 4, 15, 17);
    expect_drained(&t, 4);
    tc_free(&t);
}
END_TEST

START_TEST(test_strict_order_no)
{
    /* Later jobs that fit go ahead of J2: J3 on PEs 2,3 [2,5); J4 at 6 on
     * PE 2 [6,8). J2 still starts when J1 ends: [10,15). */
    tc_t t;
    strict_case(&t, false);
    probe_t *p3 = tc_probe(&t, 3), *p7 = tc_probe(&t, 7);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_LAYOUT(p3, ">1 1 3 3");
    EXPECT_LAYOUT(p7, ">1 1 4 .");
    ck_assert_int_eq(p7->queued, 1);
    EXPECT_JOB(&t, 1, 0, 10);
    EXPECT_JOB(&t, 2, 10, 15);
    EXPECT_JOB(&t, 3, 2, 5);
    EXPECT_JOB(&t, 4, 6, 8);
    expect_drained(&t, 4);
    tc_free(&t);
}
END_TEST

/* ---- MPL 1 is space sharing without preemption ------------------------------ */

START_TEST(test_mpl1_space_sharing)
{
    /* 4 PEs, MPL 1, a quantum of 1 s and a PCS of 0.5 s that must never
     * apply. J1 (2 PEs, 100 s) at 0 on PEs 0,1; J2 (4 PEs, 5 s) at 1 waits
     * for the whole machine; J3 (2 PEs, 50 s) at 2 waits behind J2 (strict
     * FCFS); J4 (2 PEs, 7 s) at 3 likewise. Space sharing by hand: J1
     * [0,100), J2 [100,105), then J3 on 0,1 and J4 on 2,3: [105,155) and
     * [105,112). Each job runs in one piece: end - start = CPU demand. */
    tc_t t;
    gang_params gp = params(PRIO_FCFS, PACK_FIRSTFIT, 1, 1, 0.5, true);
    tc_init(&t, 4, 1024, &gp);
    tc_job(&t, 1, 0, 2, 100);
    tc_job(&t, 2, 1, 4, 5);
    tc_job(&t, 3, 2, 2, 50);
    tc_job(&t, 4, 3, 2, 7);
    probe_t *p50 = tc_probe(&t, 50), *p110 = tc_probe(&t, 110);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_LAYOUT(p50, ">1 1 . .");
    EXPECT_LAYOUT(p110, ">3 3 4 4");
    EXPECT_JOB(&t, 1, 0, 100);
    EXPECT_JOB(&t, 2, 100, 105);
    EXPECT_JOB(&t, 3, 105, 155);
    EXPECT_JOB(&t, 4, 105, 112);
    ck_assert_uint_eq(gang_pcs_count(t.g), 0);
    ck_assert_int_eq(gang_mpl_max(t.g), 1);
    ck_assert_double_eq(gang_mpl_mean(t.g, t.sim.now), 1.0);
    expect_drained(&t, 4);
    tc_free(&t);
}
END_TEST

/* ---- time slicing and the parallel context switch ---------------------------- */

START_TEST(test_two_full_jobs_pcs)
{
    /* 4 PEs, MPL 2, quantum Q = 10, PCS C = 1. J1 and J2 need all 4 PEs
     * and 25 s each (solo time 25); both arrive at 0: J1 in slot 0 (runs),
     * J2 in slot 1; the quantum starts at 0.
     *   [0,10)   J1 computes 10 (15 left)
     *   10       switch 1: J1 stopped; J2 starts (first start: no PCS)
     *   [10,20)  J2 computes 10 (15 left)
     *   20       switch 2: J2 stopped; J1 resumed: PCS [20,21)
     *   [21,30)  J1 computes 9 (6 left)
     *   30       switch 3: J1 stopped; J2 resumed, PCS [30,31)
     *   [31,40)  J2 computes 9 (6 left)
     *   40       switch 4: J2 stopped; J1 resumed, PCS [40,41)
     *   [41,47)  J1 computes 6: ends at 47; slot 0 is removed
     *   47       switch 5: J2's slot takes over at once, PCS [47,48)
     *   [48,54)  J2 computes 6: ends at 54.
     * J1 = 25 + 19 (J2's computing while J1 waits) + 3 PCS = 47; J2 = 2 x 25
     * + 4 PCS = 54 (twice the solo time plus every PCS delay). 5 switches,
     * 5 PCS counted. MPL: 2 slots over [0,47), 1 over [47,54): mean
     * (2*47 + 7) / 54 = 101/54. */
    tc_t t;
    gang_params gp = params(PRIO_FCFS, PACK_FIRSTFIT, 2, 10, 1, true);
    tc_init(&t, 4, 1024, &gp);
    tc_job(&t, 1, 0, 4, 25);
    tc_job(&t, 2, 0, 4, 25);
    probe_t *p5 = tc_probe(&t, 5), *p15 = tc_probe(&t, 15), *p20 = tc_probe(&t, 20.5);
    probe_t *p50 = tc_probe(&t, 50);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_LAYOUT(p5, ">1 1 1 1 | 2 2 2 2");
    ck_assert_uint_eq(p5->pcs, 0);
    EXPECT_LAYOUT(p15, "1 1 1 1 | >2 2 2 2");
    ck_assert_uint_eq(p15->pcs, 1);
    ck_assert_int_eq(p15->running, 1);
    EXPECT_LAYOUT(p20, ">1 1 1 1 | 2 2 2 2");
    ck_assert_uint_eq(p20->pcs, 2);
    EXPECT_LAYOUT(p50, ">2 2 2 2");
    ck_assert_uint_eq(p50->pcs, 5);
    EXPECT_JOB(&t, 1, 0, 47);
    EXPECT_JOB(&t, 2, 10, 54);
    ck_assert_uint_eq(gang_pcs_count(t.g), 5);
    ck_assert_int_eq(gang_mpl_max(t.g), 2);
    ck_assert_near(gang_mpl_mean(t.g, t.sim.now), 101.0 / 54.0, 1e-12);
    /* The PEs computed 2 jobs x 4 threads x 25 s and nothing during PCS. */
    ck_assert_near(tc_cpu_busy(&t), 200, 1e-9);
    expect_drained(&t, 2);
    tc_free(&t);
}
END_TEST

START_TEST(test_pcs_zero_cost)
{
    /* The same two jobs with C = 0: the PEs never idle. By turns: J1
     * computes [0,10) [20,30) [40,45) and ends at 45; J2 computes [10,20)
     * [30,40) and, taking over at 45, [45,50): ends at 50 = 2 x 25.
     * Switches at 10, 20, 30, 40, 45: 5 counted, each free. */
    tc_t t;
    gang_params gp = params(PRIO_FCFS, PACK_FIRSTFIT, 2, 10, 0, true);
    tc_init(&t, 4, 1024, &gp);
    tc_job(&t, 1, 0, 4, 25);
    tc_job(&t, 2, 0, 4, 25);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_JOB(&t, 1, 0, 45);
    EXPECT_JOB(&t, 2, 10, 50);
    ck_assert_uint_eq(gang_pcs_count(t.g), 5);
    ck_assert_near(tc_cpu_busy(&t), 200, 1e-9);
    expect_drained(&t, 2);
    tc_free(&t);
}
END_TEST

/* ---- alternative scheduling, moving back, slot unification ------------------- */

/* 4 PEs, MPL 2, quantum 10, PCS 1, FCFS, FIRSTFIT. At 0:
 *   J1 3 PEs 5 s   -> slot 0, PEs 0-2 (runs)
 *   J2 2 PEs 20 s  -> slot 0 has 1 free: slot 1, PEs 0,1
 *   J3 1 PE 12 s   -> slot 0, PE 3 (runs)
 *   J4 2 PEs 8 s   -> slot 1, PEs 2,3
 * The quantum starts at 0 (slot 1 appears then). */
static void alt_case(tc_t *t)
{
    gang_params gp = params(PRIO_FCFS, PACK_FIRSTFIT, 2, 10, 1, true);
    tc_init(t, 4, 1024, &gp);
    tc_job(t, 1, 0, 3, 5);
    tc_job(t, 2, 0, 2, 20);
    tc_job(t, 3, 0, 1, 12);
    tc_job(t, 4, 0, 2, 8);
}

START_TEST(test_alternative_and_unification)
{
    /*   5   J1 ends; slot 0's idle PEs 0-2: J2 (0,1) is moved in from slot 1
     *       and starts [5, ...) at once (alternative scheduling), 5 s before
     *       its own slot's turn; J4 (2,3) cannot (PE 3 busy).
     *   10  quantum: slot 1's turn. Its PEs 0,1 are still free, so J2 is
     *       moved back and keeps running (no stop, no PCS); J3 is stopped
     *       (10 of 12 s done); J4 starts [10,18). Switch 1.
     *   18  J4 ends; slot 1's idle PEs 2,3: J3 (PE 3) is moved in from slot
     *       0 and resumes after the PCS: computes [19,21), ends at 21.
     *       Slot 0 is now empty: removed (unification); J3 stays. PCS 2.
     *       One slot left: no more quantum.
     *   25  J2 ends: it computed [5,25) without a break. */
    tc_t t;
    alt_case(&t);
    probe_t *p0 = tc_probe(&t, 0.5), *p6 = tc_probe(&t, 6), *p12 = tc_probe(&t, 12);
    probe_t *p19 = tc_probe(&t, 19.5);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_LAYOUT(p0, ">1 1 1 3 | 2 2 4 4");
    ck_assert_int_eq(p0->running, 2);
    EXPECT_LAYOUT(p6, ">2 2 . 3 | . . 4 4");
    ck_assert_int_eq(p6->running, 2);
    ck_assert_uint_eq(p6->pcs, 0);
    EXPECT_LAYOUT(p12, ". . . 3 | >2 2 4 4");
    ck_assert_int_eq(p12->running, 2);
    ck_assert_uint_eq(p12->pcs, 1);
    EXPECT_LAYOUT(p19, ">2 2 . 3");
    ck_assert_int_eq(p19->slots, 1);
    ck_assert_uint_eq(p19->pcs, 2);
    EXPECT_JOB(&t, 1, 0, 5);
    EXPECT_JOB(&t, 2, 5, 25);
    EXPECT_JOB(&t, 3, 0, 21);
    EXPECT_JOB(&t, 4, 10, 18);
    ck_assert_uint_eq(gang_pcs_count(t.g), 2);
    ck_assert_int_eq(gang_mpl_max(t.g), 2);
    /* 3x5 + 2x20 + 12 + 2x8 CPU seconds. */
    ck_assert_near(tc_cpu_busy(&t), 83, 1e-9);
    expect_drained(&t, 4);
    tc_free(&t);
}
END_TEST

START_TEST(test_no_move_back_when_taken)
{
    /* As above, plus J5 (2 PEs, 4 s) arriving at 7.
     *   5   J2 moved into slot 0 as above: [5, ...).
     *   7   J5: slot 0 has 1 free PE, slot 1 has PEs 0,1 free (J2's place
     *       at home): J5 -> slot 1, PEs 0,1; it waits for slot 1's turn.
     *   10  slot 1's turn: J2's PEs there are taken by J5, so J2 stays in
     *       slot 0 for good and is stopped (5 of 20 s done), as is J3 (10 of
     *       12 done); J5 [10,14) and J4 [10,18) start. Switch 1.
     *   14  J5 ends; slot 1's idle PEs 0,1: J2 is moved in (its home is now
     *       slot 0) and resumes after the PCS: computes from 15, 15 s left.
     *       PCS 2.
     *   18  J4 ends; idle 2,3: J3 moved in, resumes at 19, ends at 21;
     *       slot 0 empty: removed. PCS 3.
     *   30  J2 ends (15 + 15). */
    tc_t t;
    alt_case(&t);
    tc_job(&t, 5, 7, 2, 4);
    probe_t *p8 = tc_probe(&t, 8), *p12 = tc_probe(&t, 12), *p14 = tc_probe(&t, 14.5);
    probe_t *p19 = tc_probe(&t, 19.5);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_LAYOUT(p8, ">2 2 . 3 | 5 5 4 4");
    EXPECT_LAYOUT(p12, "2 2 . 3 | >5 5 4 4");
    ck_assert_int_eq(p12->running, 2);
    ck_assert_uint_eq(p12->pcs, 1);
    EXPECT_LAYOUT(p14, ". . . 3 | >2 2 4 4");
    ck_assert_uint_eq(p14->pcs, 2);
    EXPECT_LAYOUT(p19, ">2 2 . 3");
    ck_assert_uint_eq(p19->pcs, 3);
    EXPECT_JOB(&t, 1, 0, 5);
    EXPECT_JOB(&t, 2, 5, 30);
    EXPECT_JOB(&t, 3, 0, 21);
    EXPECT_JOB(&t, 4, 10, 18);
    EXPECT_JOB(&t, 5, 10, 14);
    ck_assert_uint_eq(gang_pcs_count(t.g), 3);
    expect_drained(&t, 5);
    tc_free(&t);
}
END_TEST

START_TEST(test_move_back_first)
{
    /* Moving back comes before alternative scheduling: in a 2-slot case
     * alternative scheduling at the switch would move the job anyway, so
     * this case has a third slot whose job competes for the same PEs.
     * 4 PEs, MPL 3, Q = 10, C = 1, FCFS, FIRSTFIT; all 2-PE jobs at 0:
     *   J1 3 s -> A (slot 0) PEs 0,1    J2 30 s -> A, PEs 2,3
     *   J3 30 s -> B (slot 1) PEs 0,1   J4 30 s -> B, PEs 2,3
     *   J5 30 s -> C (slot 2) PEs 0,1
     *   3   J1 ends; A's idle PEs 0,1: ring from A visits B first: J3 moved
     *       in (home B) and starts [3, ...).
     *   10  B's turn: J3 moves back to B first (still running); B is full.
     *       Without the move back, alternative scheduling (ring from B: C
     *       before A) would have moved J5 into B and stopped J3. J2 stopped
     *       (10 done); J4 starts. PCS 1.
     *   20  C's turn: C's idle PEs 2,3; ring from C: A: J2 moved in and
     *       resumes at 21; A is empty: removed (J2 stays in C). J3 (17
     *       done) and J4 (10 done) stopped; J5 starts. PCS 2. Slots: B, C.
     *   30  B: J5 (10 done), J2 (19 done) stopped; J3, J4 resume at 31. 3.
     *   40  C: J3 (26), J4 (19) stopped; J5, J2 resume at 41. PCS 4.
     *   50  B: J5 (19), J2 (28) stopped; J3, J4 resume at 51. PCS 5.
     *   55  J3 ends (4 left at 51); B's idle 0,1: J5 moved in from C
     *       (home C), resumes at 56 with 11 left. PCS 6.
     *   60  C's turn: J5 moves back (running on); J4 (28) stopped; J2
     *       resumes at 61. PCS 7.
     *   63  J2 ends; C's idle 2,3: J4 moved in, resumes at 64; B is empty:
     *       removed. PCS 8. One slot: no more quantum.
     *   66  J4 ends; 67 J5 ends (56 + 11). */
    tc_t t;
    gang_params gp = params(PRIO_FCFS, PACK_FIRSTFIT, 3, 10, 1, true);
    tc_init(&t, 4, 1024, &gp);
    tc_job(&t, 1, 0, 2, 3);
    for (long id = 2; id <= 5; id++)
        tc_job(&t, id, 0, 2, 30);
    probe_t *p5 = tc_probe(&t, 5), *p11 = tc_probe(&t, 11), *p21 = tc_probe(&t, 21);
    probe_t *p56 = tc_probe(&t, 56), *p61 = tc_probe(&t, 61), *p64 = tc_probe(&t, 64.5);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_LAYOUT(p5, ">3 3 2 2 | . . 4 4 | 5 5 . .");
    EXPECT_LAYOUT(p11, ". . 2 2 | >3 3 4 4 | 5 5 . .");
    ck_assert_uint_eq(p11->pcs, 1);
    EXPECT_LAYOUT(p21, "3 3 4 4 | >5 5 2 2");
    ck_assert_uint_eq(p21->pcs, 2);
    EXPECT_LAYOUT(p56, ">5 5 4 4 | . . 2 2");
    ck_assert_uint_eq(p56->pcs, 6);
    EXPECT_LAYOUT(p61, ". . 4 4 | >5 5 2 2");
    ck_assert_uint_eq(p61->pcs, 7);
    EXPECT_LAYOUT(p64, ">5 5 4 4");
    EXPECT_JOB(&t, 1, 0, 3);
    EXPECT_JOB(&t, 2, 0, 63);
    EXPECT_JOB(&t, 3, 3, 55);
    EXPECT_JOB(&t, 4, 10, 66);
    EXPECT_JOB(&t, 5, 20, 67);
    ck_assert_uint_eq(gang_pcs_count(t.g), 8);
    ck_assert_int_eq(gang_mpl_max(t.g), 3);
    ck_assert_near(tc_cpu_busy(&t), 2 * (3 + 4 * 30), 1e-9);
    expect_drained(&t, 5);
    tc_free(&t);
}
END_TEST

/* ---- memory awareness --------------------------------------------------------- */

/* 4 PEs of 100 MB, MPL 2, quantum 4, PCS 0. J1 (2 PEs, 60 MB per thread,
 * 10 s) at 0 on PEs 0,1; J2 (4 PEs, 50 MB, 5 s) at 1. */
static void mem_case(tc_t *t, bool aware)
{
    gang_params gp = params(PRIO_FCFS, PACK_FIRSTFIT, 2, 4, 0, true);
    gp.mem_aware = aware;
    tc_init(t, 4, 100, &gp);
    tc_job_mem(t, 1, 0, 2, 10, 60);
    tc_job_mem(t, 2, 1, 4, 5, 50);
}

START_TEST(test_mem_aware_waits)
{
    /* mem_aware: J2 would put 110 MB on PEs 0 and 1, so it waits although
     * slot 0 has PEs 2,3 free and MPL allows a second slot with all four.
     * At 10 J1 ends and frees its memory: J2 [10,15). */
    tc_t t;
    mem_case(&t, true);
    probe_t *p2 = tc_probe(&t, 2), *p11 = tc_probe(&t, 11);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_LAYOUT(p2, ">1 1 . .");
    ck_assert_int_eq(p2->queued, 1);
    ck_assert_int_eq(p2->slots, 1);
    EXPECT_LAYOUT(p11, ">2 2 2 2");
    ck_assert_double_eq(p11->alloc[0], 50);
    ck_assert(t.max_alloc <= 100);
    EXPECT_JOB(&t, 1, 0, 10);
    EXPECT_JOB(&t, 2, 10, 15);
    ck_assert_int_eq(gang_impossible(t.g), 0);
    expect_drained(&t, 2);
    tc_free(&t);
}
END_TEST

START_TEST(test_mem_unaware_overcommits)
{
    /* Control: without mem_aware J2 gets slot 1 at 1 (quantum from 1).
     *   5   switch: J1 stopped (5 done), J2 starts [5, ...)
     *   9   switch: J2 stopped (4 done), J1 resumes (5 -> 9 at 13)
     *   13  switch: J1 stopped (9 done), J2 resumes: ends at 14
     *   14  J2's slot is gone: J1 resumes, ends at 15.
     * While both are placed, PEs 0,1 hold 60 + 50 = 110 MB > 100. */
    tc_t t;
    mem_case(&t, false);
    probe_t *p2 = tc_probe(&t, 2), *p6 = tc_probe(&t, 6);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_LAYOUT(p2, ">1 1 . . | 2 2 2 2");
    ck_assert_double_eq(p6->alloc[0], 110);
    EXPECT_JOB(&t, 1, 0, 15);
    EXPECT_JOB(&t, 2, 5, 14);
    ck_assert_uint_eq(gang_pcs_count(t.g), 4);
    expect_drained(&t, 2);
    tc_free(&t);
}
END_TEST

START_TEST(test_mem_aware_pe_choice)
{
    /* 4 PEs of 100 MB, MPL 3, quantum 100, PCS 0, mem_aware, FCFS, strict
     * order off. With mem_aware a job takes the lowest-numbered free PEs
     * that have room for a thread.
     *   0   J1 (1 PE, 10 MB, 5 s) -> slot 0, PE 0 [0,5); J2 (1 PE, 10 MB,
     *       20 s) -> slot 0, PE 1 [0,20); J3 (3 PEs, 80 MB, 10 s): slot 0
     *       has 2 free PEs -> slot 1, PEs 0-2 (room 90, 90, 100 >= 80).
     *       Reserved MB per PE: 90 90 80 0.
     *   5   J1 ends: reserved 80 90 80 0.
     *   6   J4 (1 PE, 25 MB, 4 s): slot 0's free PEs 0, 2, 3 have room
     *       20, 20, 100: PE 3 [6,10). Reserved 80 90 80 25.
     *   7   J5 (1 PE, 95 MB, 3 s): slot 0 (PEs 0, 2: room 20) no; slot 1
     *       (PE 3: room 75) no; a third slot would need a PE with 95 MB
     *       free: none. It waits.
     *   10  J4 ends, PE 3 has 100 MB free: J5 -> slot 0, PE 3 [10,13).
     *   20  J2 ends, slot 0 is removed: slot 1's turn, J3 [20,30). */
    tc_t t;
    gang_params gp = params(PRIO_FCFS, PACK_FIRSTFIT, 3, 100, 0, false);
    gp.mem_aware = true;
    tc_init(&t, 4, 100, &gp);
    tc_job_mem(&t, 1, 0, 1, 5, 10);
    tc_job_mem(&t, 2, 0, 1, 20, 10);
    tc_job_mem(&t, 3, 0, 3, 10, 80);
    tc_job_mem(&t, 4, 6, 1, 4, 25);
    tc_job_mem(&t, 5, 7, 1, 3, 95);
    probe_t *p8 = tc_probe(&t, 8), *p11 = tc_probe(&t, 11);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_LAYOUT(p8, ">. 2 . 4 | 3 3 3 .");
    ck_assert_int_eq(p8->queued, 1);
    EXPECT_LAYOUT(p11, ">. 2 . 5 | 3 3 3 .");
    ck_assert_int_eq(p11->queued, 0);
    EXPECT_JOB(&t, 1, 0, 5);
    EXPECT_JOB(&t, 2, 0, 20);
    EXPECT_JOB(&t, 3, 20, 30);
    EXPECT_JOB(&t, 4, 6, 10);
    EXPECT_JOB(&t, 5, 10, 13);
    ck_assert_int_eq(gang_mpl_max(t.g), 2);
    expect_drained(&t, 5);
    tc_free(&t);
}
END_TEST

START_TEST(test_mem_impossible)
{
    /* 4 PEs of 100 MB, mem_aware, strict order. J1 (1 PE, 150 MB) can never
     * be placed: counted as impossible, it does not block J2 (2 PEs, 10 MB,
     * 3 s, at 1: [1,4)) and the run ends when no other event remains. */
    tc_t t;
    gang_params gp = params(PRIO_FCFS, PACK_FIRSTFIT, 2, 4, 0, true);
    gp.mem_aware = true;
    tc_init(&t, 4, 100, &gp);
    tc_job_mem(&t, 1, 0, 1, 5, 150);
    tc_job_mem(&t, 2, 1, 2, 3, 10);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    ck_assert_int_eq(gang_impossible(t.g), 1);
    ck_assert_int_eq(gang_queued(t.g), 0);
    ck_assert(!t.job[1]->started);
    EXPECT_JOB(&t, 2, 1, 4);
    ck_assert_int_eq(t.nended, 1);
    ck_assert_double_eq(t.sim.now, 4);
    /* Time weighting ignores the impossible job: 1 slot over [1,4). */
    ck_assert_double_eq(gang_mpl_mean(t.g, t.sim.now), 1.0);
    tc_free(&t);
}
END_TEST

START_TEST(test_mem_aware_heterogeneous_and_servers)
{
    /* Compute PEs of 100, 100, 300, 300 MB and one memory server (PE 4,
     * 1000 MB: cl->ncompute = 4), mem_aware, MPL 1, FCFS, strict order off.
     *   0  J1 (2 PEs, 200 MB, 5 s): PEs 0 and 1 lack room, PEs 2,3 have
     *      it: [0,5) on PEs 2,3.
     *   0  J2 (3 PEs, 200 MB): only 2 PEs have 200 MB: impossible.
     *   0  J3 (5 PEs, 1 MB): wider than the 4 compute PEs (the server
     *      does not count): impossible.
     *   1  J4 (4 PEs, 10 MB, 2 s): slot 0 has PEs 0,1 free only: waits
     *      until J1 ends, [5,7) on PEs 0-3.
     *   2  J5 (1 PE, 150 MB, 1 s), tried at 2 (strict order off): the
     *      free PEs 0,1 lack room, PEs 2,3 are taken: it waits; at 5 J4
     *      (first in FCFS order) takes every PE; at 7 J5 gets PE 2, [7,8).
     * The memory server never gets a thread: its CPU stays idle. */
    tc_t t;
    gang_params gp = params(PRIO_FCFS, PACK_FIRSTFIT, 1, 100, 0, false);
    gp.mem_aware = true;
    memset(&t, 0, sizeof t);
    T = &t;
    ck_assert_int_eq(ev_init(&t.sim), 0);
    static const double ram[] = {100, 100, 300, 300, 1000};
    cluster_params cp = test_cluster_params(5, 0, 0);
    cp.ncompute = 4;
    cp.pe_ram_mb = ram;
    cp.gang = &gp;
    cp.on_end = on_end;
    cp.end_ctx = &t;
    cluster_init(&t.sim, &t.cl, &cp);
    cluster_t *cl = &t.cl;
    t.g = cl->gang;
    gang_set_hook(t.g, sched_acted, &t);
    for (int i = 0; i <= MAXJ; i++)
        t.start[i] = t.end[i] = -1;
    ck_assert_int_eq(gang_npes(t.g), 4);
    tc_job_mem(&t, 1, 0, 2, 5, 200);
    tc_job_mem(&t, 2, 0, 3, 5, 200);
    tc_job_mem(&t, 3, 0, 5, 5, 1);
    tc_job_mem(&t, 4, 1, 4, 2, 10);
    tc_job_mem(&t, 5, 2, 1, 1, 150);
    probe_t *p3 = tc_probe(&t, 3), *p6 = tc_probe(&t, 6), *p75 = tc_probe(&t, 7.5);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    /* Layouts show PE 4 too: never used. */
    EXPECT_LAYOUT(p3, ">. . 1 1 .");
    ck_assert_int_eq(p3->queued, 2);
    EXPECT_LAYOUT(p6, ">4 4 4 4 .");
    EXPECT_LAYOUT(p75, ">. . 5 . .");
    EXPECT_JOB(&t, 1, 0, 5);
    EXPECT_JOB(&t, 4, 5, 7);
    EXPECT_JOB(&t, 5, 7, 8);
    ck_assert_int_eq(gang_impossible(t.g), 2);
    ck_assert_double_eq(res_busy_time(&t.sim, &cl->pes[4].cpu), 0);
    ck_assert_double_eq(cl->pes[4].alloc_mb, 0);
    ck_assert_near(tc_cpu_busy(&t), t.cl.cpu_demand_done, 1e-9);
    tc_free(&t);
}
END_TEST

/* ---- MPL metrics ----------------------------------------------------------------- */

START_TEST(test_mpl_metrics)
{
    /* 4 PEs, MPL 0 (unlimited), quantum 10, PCS 0. J1, J2, J3 (4 PEs, 5 s)
     * at 0 get slots 0, 1, 2. Each ends inside its first turn and the next
     * slot takes over at once: J1 [0,5), J2 [5,10), J3 [10,15). Slots: 3
     * over [0,5), 2 over [5,10), 1 over [10,15): area 30 over 15 s.
     * Nothing in the system over [15,100): not counted.
     * J4 (2 PEs, 6 s) and J5 (4 PEs, 10 s) at 100: J4 in slot 0 on 0,1
     * [100,106), J5 in slot 1; at 106 J4 ends and J5 takes over [106,116).
     * Slots: 2 over [100,106), 1 over [106,116): area 22 over 16 s.
     * Highest MPL 3; mean (30 + 22) / (15 + 16) = 52/31; at 50 (idle) it is
     * 30/15 = 2; at 103, (30 + 2x3) / (15 + 3) = 2. No job was ever stopped
     * or resumed: 0 PCS. */
    tc_t t;
    gang_params gp = params(PRIO_FCFS, PACK_FIRSTFIT, 0, 10, 0, true);
    tc_init(&t, 4, 1024, &gp);
    tc_job(&t, 1, 0, 4, 5);
    tc_job(&t, 2, 0, 4, 5);
    tc_job(&t, 3, 0, 4, 5);
    tc_job(&t, 4, 100, 2, 6);
    tc_job(&t, 5, 100, 4, 10);
    probe_t *p1 = tc_probe(&t, 1), *p50 = tc_probe(&t, 50), *p103 = tc_probe(&t, 103);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_LAYOUT(p1, ">1 1 1 1 | 2 2 2 2 | 3 3 3 3");
    ck_assert_near(p1->mpl_mean, 3, 1e-12);
    ck_assert_int_eq(p50->slots, 0);
    ck_assert_near(p50->mpl_mean, 2, 1e-12);
    EXPECT_LAYOUT(p103, ">4 4 . . | 5 5 5 5");
    ck_assert_near(p103->mpl_mean, 2, 1e-12);
    EXPECT_JOB(&t, 1, 0, 5);
    EXPECT_JOB(&t, 2, 5, 10);
    EXPECT_JOB(&t, 3, 10, 15);
    EXPECT_JOB(&t, 4, 100, 106);
    EXPECT_JOB(&t, 5, 106, 116);
    ck_assert_int_eq(gang_mpl_max(t.g), 3);
    ck_assert_near(gang_mpl_mean(t.g, t.sim.now), 52.0 / 31.0, 1e-12);
    ck_assert_uint_eq(gang_pcs_count(t.g), 0);
    expect_drained(&t, 5);
    tc_free(&t);
}
END_TEST

/* ---- edge cases ------------------------------------------------------------------ */

START_TEST(test_wider_than_machine)
{
    /* A job wider than the machine (the workload drops these, but the
     * scheduler's API takes any job) can never be placed: it is counted as
     * impossible, does not block J2 under strict order, and the run ends.
     * 4 PEs: J1 (5 PEs) at 0; J2 (2 PEs, 3 s) at 1: [1,4). */
    tc_t t;
    gang_params gp = params(PRIO_BESTFIT, PACK_FIRSTFIT, 2, 4, 0, true);
    tc_init(&t, 4, 1024, &gp);
    tc_job(&t, 1, 0, 5, 5);
    tc_job(&t, 2, 1, 2, 3);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    ck_assert_int_eq(gang_impossible(t.g), 1);
    ck_assert(!t.job[1]->started);
    EXPECT_JOB(&t, 2, 1, 4);
    ck_assert_int_eq(gang_queued(t.g), 0);
    tc_free(&t);
}
END_TEST

START_TEST(test_quantum_at_job_end)
{
    /* 4 PEs, MPL 2, Q = 10, C = 0; J1 and J2 (4 PEs, 20 s) at 0.
     *   J1 [0,10), J2 [10,20), J1 resumes at 20 with 10 s left.
     *   30  the quantum ends at the very instant J1's work is done. A
     *       quantum end is a scheduler event, and at one instant model
     *       events (J1's threads finishing) come before the scheduler: J1
     *       ends at 30, its slot (the current one) is removed and J2 is
     *       switched in at once.
     *   J2 computes [30,40): ends at 40. Switches at 10, 20, 30: 3 PCS. */
    tc_t t;
    gang_params gp = params(PRIO_FCFS, PACK_FIRSTFIT, 2, 10, 0, true);
    tc_init(&t, 4, 1024, &gp);
    tc_job(&t, 1, 0, 4, 20);
    tc_job(&t, 2, 0, 4, 20);
    probe_t *p35 = tc_probe(&t, 35);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_LAYOUT(p35, ">2 2 2 2");
    ck_assert_int_eq(p35->running, 1);
    EXPECT_JOB(&t, 1, 0, 30);
    EXPECT_JOB(&t, 2, 10, 40);
    ck_assert_uint_eq(gang_pcs_count(t.g), 3);
    expect_drained(&t, 2);
    tc_free(&t);
}
END_TEST

START_TEST(test_priority_bestfit_not_strict)
{
    /* The priority case with BESTFIT and strict order off: at 10 J3 (the
     * widest) on PEs 0-2 [10,14), then the widest that fits the one free
     * PE: J2 on PE 3 [10,15). At 14 PEs 0-2: J4 on 0,1 [14,20) (J5 also
     * needs 2: one PE left). At 15 PEs 2,3: J5 [15,18). */
    tc_t t;
    gang_params gp = params(PRIO_BESTFIT, PACK_FIRSTFIT, 1, 5, 0.5, false);
    tc_init(&t, 4, 1024, &gp);
    tc_job(&t, 1, 0, 4, 10);
    tc_job(&t, 2, 1, 1, 5);
    tc_job(&t, 3, 2, 3, 4);
    tc_job(&t, 4, 3, 2, 6);
    tc_job(&t, 5, 4, 2, 3);
    probe_t *p12 = tc_probe(&t, 12), *p16 = tc_probe(&t, 16);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_LAYOUT(p12, ">3 3 3 2");
    EXPECT_LAYOUT(p16, ">4 4 5 5");
    EXPECT_JOB(&t, 1, 0, 10);
    EXPECT_JOB(&t, 2, 10, 15);
    EXPECT_JOB(&t, 3, 10, 14);
    EXPECT_JOB(&t, 4, 14, 20);
    EXPECT_JOB(&t, 5, 15, 18);
    expect_drained(&t, 5);
    tc_free(&t);
}
END_TEST

/* ---- the placement pass at every instant room may appear (issue 10) --------- */

START_TEST(test_place_at_switch_issue10)
{
    /* The issue's trace on 6 PEs, MPL 2; every other setting is the default
     * of configs/reference.ini: quantum Q = 60, PCS C = 0.004, FCFS,
     * FIRSTFIT, strict order. Threads of 1 MB on 32 MB PEs: nothing pages.
     *   J1 at 0, 2 PEs, 1000 s    J2 at 1, 4 PEs, 1000 s
     *   J3 at 2, 4 PEs, 30 s      J4 at 3, 2 PEs, 1000 s
     *   J5 at 4, 3 PEs, 100 s
     * Slots A (first) and B. By hand:
     *   0     J1 -> A, PEs 0,1, runs.
     *   1     J2 -> A, PEs 2-5, runs.               A: 1 1 2 2 2 2
     *   2     J3: A full -> new slot B, PEs 0-3; the quantum starts (-> 62).
     *   3     J4 -> B, PEs 4,5.                     B: 3 3 3 3 4 4
     *   4     J5 (3 PEs): no slot has 3 free, MPL reached: queued.
     *   62    switch to B: J1 (62 done), J2 (61) stopped; J3, J4 start
     *         (first starts, no PCS). PCS 1.
     *   92    J3 ends (30). B's idle PEs 0-3: alternative scheduling moves
     *         J1 (PEs 0,1) in from A; it resumes at 92.004. PCS 2. The pass
     *         comes after: J5 needs 3, A has 2 free (0,1), B 2 (2,3): queued.
     *   122   switch to A: J1 moves back home (still running: no PCS); J4
     *         stopped (60), J2 resumes at 122.004. PCS 3. The move back freed
     *         PEs 0,1 of B: B has 0-3 free. THE PASS at this switch places J5
     *         in B, PEs 0-2 (it waits for B's turn). Before the fix it stayed
     *         queued until J1 ended (at 1030).
     *   182   switch to B: J1 (151.996 done), J2 (120.996) stopped; J4
     *         resumes at 182.004; J5 starts (first start). PCS 4.
     *   242   A: J1, J2 resume at 242.004. PCS 5.     J4 119.996, J5 60.
     *   302   B: J4, J5 resume at 302.004. PCS 6.     J1 211.992, J2 180.992.
     *   342.004  J5 ends (40 more). B's idle PEs 0-3: J1 moved in, resumes
     *         at 342.008. PCS 7. The queue is empty from here on.
     *   362   A: J1 moves back, running on; J4 (179.992) stopped; J2 resumes.
     *   From now on J1 computes without a break: at every B turn it moves
     *   into B (still running), at every A turn it moves back. It ends at
     *   342.008 + (1000 - 211.992) = 1130.016, in the A turn that began at
     *   1082. Each turn gives J2 (A) or J4 (B) Q - C = 59.996 s: A turns at
     *   362, 482, ..., 962 (6) take J2 to 540.968, B turns at 422, ..., 1022
     *   (6) take J4 to 539.968; switches 362..1082 every 60 s are 13 PCS
     *   (20 in all). J1's end moves nothing (J4's PEs 4,5 are J2's in A).
     *   1082  A turn: J2 600.964 at 1142. Then A turns 1202 ... 1802 (6)
     *         give J2 960.94 and the 1922 turn ends it at 1922.004 + 39.06 =
     *         1961.064. B turns 1142 ... 1862 (7) give J4 959.94. Switches
     *         1142 ... 1922 every 60 s: 14 PCS (34).
     *   1961.064  J2 ends: A is empty and removed, B switched in at once: J4
     *         resumes at 1961.068 with 40.06 left: ends at 2001.128. PCS 35.
     */
    config c;
    config_defaults(&c);
    ck_assert_double_eq(c.scheduler.quantum, 60);
    ck_assert_double_eq(c.scheduler.pcs, 0.004);
    tc_t t;
    gang_params gp = params(c.scheduler.priority, c.scheduler.packing, 2, c.scheduler.quantum,
                            c.scheduler.pcs, c.scheduler.strict_order);
    gp.mem_aware = c.scheduler.mem_aware;
    gp.pcs_first_start = c.scheduler.pcs_first_start;
    tc_init(&t, 6, c.computer.ram, &gp);
    tc_job_mem(&t, 1, 0, 2, 1000, 1024 / 1024.0);
    tc_job_mem(&t, 2, 1, 4, 1000, 1);
    tc_job_mem(&t, 3, 2, 4, 30, 1);
    tc_job_mem(&t, 4, 3, 2, 1000, 1);
    tc_job_mem(&t, 5, 4, 3, 100, 1);
    probe_t *p50 = tc_probe(&t, 50), *p100 = tc_probe(&t, 100), *p150 = tc_probe(&t, 150);
    probe_t *p200 = tc_probe(&t, 200), *p350 = tc_probe(&t, 350);
    probe_t *p1135 = tc_probe(&t, 1135), *p1980 = tc_probe(&t, 1980);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_LAYOUT(p50, ">1 1 2 2 2 2 | 3 3 3 3 4 4");
    ck_assert_int_eq(p50->queued, 1);
    EXPECT_LAYOUT(p100, ". . 2 2 2 2 | >1 1 . . 4 4");
    ck_assert_int_eq(p100->queued, 1);
    EXPECT_LAYOUT(p150, ">1 1 2 2 2 2 | 5 5 5 . 4 4");
    ck_assert_int_eq(p150->queued, 0);
    EXPECT_LAYOUT(p200, "1 1 2 2 2 2 | >5 5 5 . 4 4");
    ck_assert_int_eq(p200->running, 2);
    EXPECT_LAYOUT(p350, ". . 2 2 2 2 | >1 1 . . 4 4");
    ck_assert_uint_eq(p350->pcs, 7);
    EXPECT_LAYOUT(p1135, ">. . 2 2 2 2 | . . . . 4 4");
    ck_assert_uint_eq(p1135->pcs, 20);
    EXPECT_LAYOUT(p1980, ">. . . . 4 4");
    ck_assert_uint_eq(p1980->pcs, 35);
    EXPECT_JOB(&t, 1, 0, 1130.016);
    EXPECT_JOB(&t, 2, 1, 1961.064);
    EXPECT_JOB(&t, 3, 62, 92);
    EXPECT_JOB(&t, 4, 62, 2001.128);
    EXPECT_JOB(&t, 5, 182, 342.004);
    ck_assert_uint_eq(gang_pcs_count(t.g), 35);
    ck_assert_int_eq(gang_mpl_max(t.g), 2);
    /* The PEs computed the demand and nothing during the 35 PCS. */
    ck_assert_near(tc_cpu_busy(&t), 2 * 1000 + 4 * 1000 + 4 * 30 + 2 * 1000 + 3 * 100, 1e-6);
    expect_drained(&t, 5);
    tc_free(&t);
}
END_TEST

START_TEST(test_place_at_switch_trace)
{
    /* The same five jobs read from the issue's SWF lines
     * (tests/data/issue10-placement.swf) by a whole run with every key at
     * its default but 6 PEs and MPL 2 (so also R = 2.4e-7 s, which pages
     * nothing: at most two 1 MB threads share a 32 MB PE): each job's
     * start and end as derived by hand in test_place_at_switch_issue10. */
    static const double want[6][2] = {{0, 0},         {0, 1130.016},  {1, 1961.064},
                                      {62, 92},       {62, 2001.128}, {182, 342.004}};
    config c;
    char err[CFG_ERR_MAX];
    config_defaults(&c);
    const char *sets[] = {"workload.trace=tests/data/issue10-placement.swf",
                          "computer.number=6", "scheduler.mpl=2", NULL};
    for (int i = 0; sets[i]; i++)
        ck_assert_msg(config_set(&c, sets[i], err) == 0, "%s", err);
    ck_assert_msg(config_validate(&c, err) == 0, "%s", err);
    FILE *jobs = tmpfile();
    ck_assert_ptr_nonnull(jobs);
    run_t *r = run_create(&c, jobs, NULL, err);
    ck_assert_msg(r != NULL, "%s", err);
    run_set_checking(r, true);
    ck_assert_msg(run_execute(r, err) == 0, "%s", err);
    ck_assert_ptr_null(run_check_failure(r));
    run_metrics m;
    run_metrics_get(r, &m);
    ck_assert_int_eq(m.jobs_finished, 5);
    ck_assert_int_eq(m.pcs_count, 35);
    ck_assert_double_eq(m.page_faults_per_pe, 0);
    run_destroy(r);
    rewind(jobs);
    char line[512];
    ck_assert_ptr_nonnull(fgets(line, sizeof line, jobs)); /* header */
    int seen = 0;
    while (fgets(line, sizeof line, jobs)) {
        long id;
        double submit, start, end;
        ck_assert_int_eq(sscanf(line, "%ld,%lf,%lf,%lf", &id, &submit, &start, &end), 4);
        ck_assert(id >= 1 && id <= 5);
        ck_assert_msg(fabs(start - want[id][0]) < 1e-9 && fabs(end - want[id][1]) < 1e-9,
                      "J%ld ran [%.12g, %.12g), expected [%.12g, %.12g)", id, start, end,
                      want[id][0], want[id][1]);
        seen++;
    }
    ck_assert_int_eq(seen, 5);
    fclose(jobs);
}
END_TEST

static void lend_cb(sim_t *sim, void *arg)
{
    pe_lend(sim, &T->cl.pes[0], *(double *)arg);
}

START_TEST(test_place_when_lent_memory_returns)
{
    /* mem_aware: memory given back by a PNR server (lent RAM) is room too.
     * 2 PEs of 100 MB, MPL 2, FCFS, strict. PE 0 lends 60 MB at 0 and gets
     * it back at 4. J1 (2 PEs, 50 MB, 5 s) at 1: PE 0 has 40 MB of room,
     * J1 waits. At 4 the pass placed at the return starts it: [4,9). No
     * other event happens at 4: without that pass J1 would never start. */
    static double lend = 60, unlend = -60;
    tc_t t;
    gang_params gp = params(PRIO_FCFS, PACK_FIRSTFIT, 2, 10, 0, true);
    gp.mem_aware = true;
    tc_init(&t, 2, 100, &gp);
    ev_once(&t.sim, 0, lend_cb, &lend);
    ev_once(&t.sim, 4, lend_cb, &unlend);
    tc_job_mem(&t, 1, 1, 2, 5, 50);
    probe_t *p3 = tc_probe(&t, 3);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    ck_assert_int_eq(p3->queued, 1);
    ck_assert_int_eq(p3->slots, 0);
    EXPECT_JOB(&t, 1, 4, 9);
    expect_drained(&t, 1);
    tc_free(&t);
}
END_TEST

/* ---- a parallel context switch on a job's first start (pcs_first_start) ----- */

START_TEST(test_pcs_first_start)
{
    /* test_two_full_jobs_pcs with pcs_first_start: 4 PEs, MPL 2, Q = 10,
     * C = 1; J1 and J2 (4 PEs, 25 s) at 0. Now every start costs C too.
     *   0    J1 starts in slot 0: PCS [0,1), computes [1,10): 9 (16 left).
     *        The pass charged a PCS: 1.
     *   10   J2's first start: PCS, computes [11,20): 9 (16 left). 2.
     *   20   J1 [21,30): 18 done. 3.    30  J2 [31,40): 18 done. 4.
     *   40   J1 [41,48): 7 more, ends at 48. 5.
     *   48   J2's slot at once: PCS, [49,56): ends at 56. 6.
     * Against the default (no charge on a first start: J1 ends at 47, J2 at
     * 54, 5 PCS), each job pays one more C; busy CPU time is still 200. */
    tc_t t;
    gang_params gp = params(PRIO_FCFS, PACK_FIRSTFIT, 2, 10, 1, true);
    gp.pcs_first_start = true;
    tc_init(&t, 4, 1024, &gp);
    tc_job(&t, 1, 0, 4, 25);
    tc_job(&t, 2, 0, 4, 25);
    probe_t *p5 = tc_probe(&t, 0.5), *p15 = tc_probe(&t, 15);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    ck_assert_uint_eq(p5->pcs, 1);
    ck_assert_uint_eq(p15->pcs, 2);
    EXPECT_JOB(&t, 1, 0, 48);
    EXPECT_JOB(&t, 2, 10, 56);
    ck_assert_uint_eq(gang_pcs_count(t.g), 6);
    ck_assert_near(tc_cpu_busy(&t), 200, 1e-9);
    ck_assert_near(gang_mpl_mean(t.g, t.sim.now), (2.0 * 48 + 8) / 56, 1e-12);
    expect_drained(&t, 2);
    tc_free(&t);
}
END_TEST

/* ---- invariants on a real trace ------------------------------------------------------ */

static void trace_run(const char *prio, const char *pack, const char *extra[], uint64_t seed)
{
    config c;
    char err[CFG_ERR_MAX], set[128];
    config_defaults(&c);
    const char *sets[] = {"workload.trace=traces/hpc2n-seth-first3171.swf",
                          "workload.max_jobs=400",
                          "computer.number=240",
                          "scheduler.mpl=3",
                          "scheduler.strict_order=no",
                          "scheduler.quantum=600",
                          NULL};
    for (int i = 0; sets[i]; i++)
        ck_assert_msg(config_set(&c, sets[i], err) == 0, "%s", err);
    snprintf(set, sizeof set, "scheduler.priority=%s", prio);
    ck_assert_msg(config_set(&c, set, err) == 0, "%s", err);
    snprintf(set, sizeof set, "scheduler.packing=%s", pack);
    ck_assert_msg(config_set(&c, set, err) == 0, "%s", err);
    snprintf(set, sizeof set, "simulation.seed=%llu", (unsigned long long)seed);
    ck_assert_msg(config_set(&c, set, err) == 0, "%s", err);
    for (int i = 0; extra && extra[i]; i++)
        ck_assert_msg(config_set(&c, extra[i], err) == 0, "%s", err);
    ck_assert_msg(config_validate(&c, err) == 0, "%s", err);
    run_t *r = run_create(&c, NULL, NULL, err);
    ck_assert_msg(r != NULL, "%s", err);
    run_set_checking(r, true);
    ck_assert_msg(run_execute(r, err) == 0, "%s", err);
    const char *bad = run_check_failure(r);
    ck_assert_msg(bad == NULL, "%s/%s: gang_check: %s", prio, pack, bad ? bad : "");
    run_metrics m;
    run_metrics_get(r, &m);
    ck_assert_int_eq(m.jobs_submitted, 400);
    ck_assert_msg(m.jobs_finished == m.jobs_submitted, "%s/%s: %ld of %ld jobs finished",
                  prio, pack, m.jobs_finished, m.jobs_submitted);
    ck_assert_int_eq(m.jobs_unfinished, 0);
    ck_assert_int_eq(m.jobs_never_started, 0);
    ck_assert(m.cpu_demand_done > 0);
    ck_assert_msg(fabs(m.cpu_busy_total - m.cpu_demand_done) <= 1e-6 * m.cpu_demand_done,
                  "%s/%s: CPU busy %.17g s, demand done %.17g s", prio, pack, m.cpu_busy_total,
                  m.cpu_demand_done);
    ck_assert_int_le(m.mpl_max, c.scheduler.mpl ? c.scheduler.mpl : 400);
    ck_assert_int_ge(m.mpl_max, 1);
    ck_assert(m.mpl_mean >= 1 && m.mpl_mean <= m.mpl_max);
    if (c.scheduler.mem_aware)
        /* Placement never overcommits RAM, so nothing pages. */
        ck_assert_double_eq(m.page_faults_per_pe, 0);
    run_destroy(r);
}

static const char *const prio_names[] = {"FCFS", "BESTFIT", "WORSTFIT"};
static const char *const pack_names[] = {"FIRSTFIT", "BESTFIT", "WORSTFIT"};

START_TEST(test_trace_invariants)
{
    /* Every priority x packing, no messages; every other one memory aware,
     * with 12 MB given to each thread of the trace's jobs (most have none)
     * and 32 MB PEs, so that memory, not MPL, often limits placement. */
    int i = _i;
    const char *aware[] = {"scheduler.mem_aware=yes", "workload.default_memory=12",
                           "computer.ram=32", NULL};
    trace_run(prio_names[i / 3], pack_names[i % 3], (i % 2) ? aware : NULL, 7);
}
END_TEST

START_TEST(test_trace_invariants_stress)
{
    /* Three of the combinations again, with a different seed each, with
     * PEs that page (24 MB threads, up to 3 slots, 32 MB of RAM), neighbour
     * messages and synchronisations, and a PCS cost, so that context
     * switches cut bursts and land during faults, barriers and messages. */
    int i = _i;
    const char *extra[] = {"workload.default_memory=24", "computer.ram=32",
                           "process.mem_access_rate=0.01", "process.comm_rate=2000",
                           "process.sync_rate=5000", "scheduler.pcs=0.5", NULL};
    trace_run(prio_names[i], pack_names[(i + 1) % 3], extra, (uint64_t)(11 + i));
}
END_TEST

START_TEST(test_trace_placement)
{
    /* The placement rule on the real trace, checked after every scheduler
     * action (run_set_checking: gang_check_placement unless a pass is
     * due), with the default quantum of 60 s so that slots switch often,
     * over priority orders, packings, MPL 2 to 4, strict order on and off,
     * memory awareness with memory freed per thread or per job, and a PCS
     * on first starts. Without the pass at slot switches the third setting
     * broke the rule (at 706157 s, a 30-PE job left queued). */
    static const char *const sets[][8] = {
        {"scheduler.mpl=2", "scheduler.strict_order=yes", NULL},
        {"scheduler.mpl=3", "scheduler.strict_order=yes", NULL},
        {"scheduler.mpl=2", NULL},
        {"scheduler.mpl=4", "scheduler.strict_order=yes", "scheduler.pcs_first_start=yes", NULL},
        {"scheduler.mpl=2", "scheduler.strict_order=yes", "scheduler.mem_aware=yes",
         "workload.default_memory=12", "computer.ram=32", "process.mem_release=job", NULL},
        {"scheduler.mpl=3", "scheduler.mem_aware=yes", "workload.default_memory=12",
         "computer.ram=32", "process.mem_release=thread", NULL},
    };
    static const int prio[] = {0, 1, 2, 0, 0, 1}, pack[] = {1, 0, 2, 0, 1, 2};
    const char *extra[10];
    int i = _i, k = 0;
    extra[k++] = "scheduler.quantum=60";
    for (int e = 0; sets[i][e]; e++)
        extra[k++] = sets[i][e];
    extra[k] = NULL;
    trace_run(prio_names[prio[i]], pack_names[pack[i]], extra, (uint64_t)(21 + i));
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("gang");
    TCase *tc = tcase_create("hand");
    tcase_add_test(tc, test_priority_fcfs);
    tcase_add_test(tc, test_priority_bestfit);
    tcase_add_test(tc, test_priority_worstfit);
    tcase_add_test(tc, test_packing_firstfit);
    tcase_add_test(tc, test_packing_bestfit);
    tcase_add_test(tc, test_packing_worstfit);
    tcase_add_test(tc, test_strict_order_yes);
    tcase_add_test(tc, test_strict_order_no);
    tcase_add_test(tc, test_mpl1_space_sharing);
    tcase_add_test(tc, test_two_full_jobs_pcs);
    tcase_add_test(tc, test_pcs_zero_cost);
    tcase_add_test(tc, test_alternative_and_unification);
    tcase_add_test(tc, test_no_move_back_when_taken);
    tcase_add_test(tc, test_move_back_first);
    tcase_add_test(tc, test_mem_aware_waits);
    tcase_add_test(tc, test_mem_unaware_overcommits);
    tcase_add_test(tc, test_mem_aware_pe_choice);
    tcase_add_test(tc, test_mem_impossible);
    tcase_add_test(tc, test_mem_aware_heterogeneous_and_servers);
    tcase_add_test(tc, test_mpl_metrics);
    tcase_add_test(tc, test_wider_than_machine);
    tcase_add_test(tc, test_quantum_at_job_end);
    tcase_add_test(tc, test_priority_bestfit_not_strict);
    tcase_add_test(tc, test_place_at_switch_issue10);
    tcase_add_test(tc, test_place_at_switch_trace);
    tcase_add_test(tc, test_place_when_lent_memory_returns);
    tcase_add_test(tc, test_pcs_first_start);
    suite_add_tcase(s, tc);
    TCase *tr = tcase_create("trace");
    tcase_set_timeout(tr, 120);
    tcase_add_loop_test(tr, test_trace_invariants, 0, 9);
    tcase_add_loop_test(tr, test_trace_invariants_stress, 0, 3);
    tcase_add_loop_test(tr, test_trace_placement, 0, 6);
    suite_add_tcase(s, tr);
    return s;
}

TEST_MAIN()
