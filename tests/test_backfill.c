/* tests/test_backfill.c: estimates, the priority functions and EASY and
 * conservative backfilling (sched/priority.c, sched/backfill.c, issue 14).
 *
 * Hand cases build the cluster directly, as tests/test_gang.c does: no
 * messages, no paging, so a job with CPU demand c runs for exactly c seconds
 * from its start at MPL 1. A job's estimate is its CPU demand unless the
 * case sets another. Jobs are J<id>; `[s, e)` is a job's start and end. Each
 * expected schedule is derived in the comment above its case from the rules
 * of issue 14 (restated in sched/backfill.h), not from a run of the program.
 *
 * Property runs feed random, tie-heavy workloads (many equal submit times,
 * equal widths and lengths, zero-length jobs, over- and under-estimates)
 * and check after every scheduler action: the matrix invariants
 * (gang_check), no slot holding more threads than PEs (counted here
 * independently), and the placement rule (the first job in priority order
 * does not fit once a pass is done). With exact estimates, FCFS and MPL 1:
 * EASY starts every head no later than the shadow time computed when it
 * became the head, and conservative starts every job no later than its first
 * reservation (job->bf_first_res, recorded by the pass).
 */
#include "app/config.h"
#include "app/run.h"
#include "app/run_check.h"
#include "app/workload.h"
#include "core/res.h"
#include "hw/pe.h"
#include "net/net.h"
#include "sched/backfill.h"
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
    const char *bad;          /* first invariant failure */
    char msg[200];
} tc_t;

static tc_t *T;

/* No slot holds more threads than PEs: count each slot's distinct jobs'
 * threads from the matrix. */
static const char *slot_capacity(tc_t *t)
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

static void sched_acted(sim_t *sim, gang_t *g, void *ctx)
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

static void on_end(sim_t *sim, job_t *j, void *ctx)
{
    tc_t *t = ctx;
    ck_assert(j->id >= 1 && j->id <= MAXJ);
    t->start[j->id] = j->start;
    t->end[j->id] = j->end;
    t->first_res[j->id] = j->bf_first_res;
    t->head_res[j->id] = j->bf_head_res;
    t->submit[j->id] = j->submit;
    t->nended++;
    job_release(sim, j);
}

static void submit_cb(sim_t *sim, void *arg)
{
    gang_submit(sim, T->g, arg);
}

static gang_params params(sched_priority prio, sched_backfill bf, int mpl, bool strict)
{
    gang_params p = {.priority = prio, .packing = PACK_FIRSTFIT, .mpl = mpl, .pcs = 0,
                     .quantum = 50, .mem_aware = false, .strict_order = strict,
                     .backfill = bf};
    return p;
}

static void tc_init(tc_t *t, int npes, const gang_params *gp)
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
static void tc_job_est(tc_t *t, long id, double submit, int threads, double cpu, double est)
{
    ck_assert(id >= 1 && id <= MAXJ);
    job_t *j = job_create(&t->cl, id, id, submit, threads, cpu, 1);
    if (est >= 0)
        j->estimate = est;
    if (id > t->njobs)
        t->njobs = (int)id;
    ev_once(&t->sim, submit, submit_cb, j);
}

static void tc_job(tc_t *t, long id, double submit, int threads, double cpu)
{
    tc_job_est(t, id, submit, threads, cpu, -1);
}

static void tc_run(tc_t *t)
{
    ev_run(&t->sim, INFINITY);
    ck_assert_msg(t->bad == NULL, "invariant: %s", t->bad ? t->bad : "");
    ck_assert_int_eq(t->nended, t->njobs);
    ck_assert_int_eq(gang_queued(t->g), 0);
    ck_assert_int_eq(gang_placed(t->g), 0);
}

static void tc_free(tc_t *t)
{
    test_cluster_free(&t->sim, &t->cl);
    T = NULL;
}

#define EXPECT_JOB(t, id, s, e)                                                \
    ck_assert_msg(fabs((t)->start[id] - (s)) < 1e-9 && fabs((t)->end[id] - (e)) < 1e-9, \
                  "J%d ran [%.12g, %.12g), expected [%.12g, %.12g)", (int)(id),  \
                  (t)->start[id], (t)->end[id], (double)(s), (double)(e))

/* ---- EASY: the classic example --------------------------------------------- */

/* 10 PEs, MPL 1, FCFS, EASY, exact estimates.
 *   J1 at 0: 6 PEs, 10 s   -> starts at once: [0, 10); 4 PEs free.
 *   J2 at 1: 8 PEs, 5 s    -> does not fit (4 free): the head. Shadow time:
 *                             J1 ends at 10 freeing 6 -> 10 free >= 8, so
 *                             S = 10, extra = 10 - 8 = 2.
 *   J3 at 2: 2 PEs, 7 s    -> fits; 2 + 7 = 9 <= S: starts [2, 9), extra
 *                             unchanged (2). 2 PEs free.
 *   J4 at 3: 2 PEs, 100 s  -> fits; 3 + 100 > S but 2 <= extra: starts
 *                             [3, 103), extra = 0. 0 PEs free.
 *   J5 at 4: 1 PE, 1 s     -> does not fit (0 free).
 *   J6 at 5: 2 PEs, 3 s    -> does not fit.
 *   At 9 J3 ends (2 free). Head J2: ends J1 at 10 (+6 -> 8 >= 8): S = 10,
 *   extra = 0. J5: 9 + 1 = 10 <= S: starts [9, 10); 1 free. J6 (2 PEs) does
 *   not fit.
 *   At 10 J1 and J5 end: 8 free; J2 starts [10, 15); 0 free. J6 waits.
 *   At 15 J2 ends: J6 starts [15, 18). J4 ends at 103.
 * Without backfilling J4 would start at 15 (after J2 and J3 at 10). */
START_TEST(test_easy_classic)
{
    tc_t t;
    gang_params gp = params(PRIO_FCFS, BF_EASY, 1, true);
    tc_init(&t, 10, &gp);
    tc_job(&t, 1, 0, 6, 10);
    tc_job(&t, 2, 1, 8, 5);
    tc_job(&t, 3, 2, 2, 7);
    tc_job(&t, 4, 3, 2, 100);
    tc_job(&t, 5, 4, 1, 1);
    tc_job(&t, 6, 5, 2, 3);
    tc_run(&t);
    EXPECT_JOB(&t, 1, 0, 10);
    EXPECT_JOB(&t, 2, 10, 15);
    EXPECT_JOB(&t, 3, 2, 9);
    EXPECT_JOB(&t, 4, 3, 103);
    EXPECT_JOB(&t, 5, 9, 10);
    EXPECT_JOB(&t, 6, 15, 18);
    /* J2 became the head at 1 with shadow time 10 and started at 10. */
    ck_assert_double_eq(t.first_res[2], 10);
    tc_free(&t);
}
END_TEST

/* The same jobs without backfilling (FCFS, strict order):
 *   J1 [0, 10); J2 (8) waits and blocks everyone behind it.
 *   At 10: J2 [10, 15) (2 free), J3 (2 PEs) [10, 17), 0 free.
 *   At 15: J2 ends, 8 free: J4 [15, 115), J5 [15, 16), J6 (2) [15, 18).
 *   J5..J6: 2 + 1 + 2 = 5 of the 8 free. */
START_TEST(test_easy_classic_none)
{
    tc_t t;
    gang_params gp = params(PRIO_FCFS, BF_NONE, 1, true);
    tc_init(&t, 10, &gp);
    tc_job(&t, 1, 0, 6, 10);
    tc_job(&t, 2, 1, 8, 5);
    tc_job(&t, 3, 2, 2, 7);
    tc_job(&t, 4, 3, 2, 100);
    tc_job(&t, 5, 4, 1, 1);
    tc_job(&t, 6, 5, 2, 3);
    tc_run(&t);
    EXPECT_JOB(&t, 1, 0, 10);
    EXPECT_JOB(&t, 2, 10, 15);
    EXPECT_JOB(&t, 3, 10, 17);
    EXPECT_JOB(&t, 4, 15, 115);
    EXPECT_JOB(&t, 5, 15, 16);
    EXPECT_JOB(&t, 6, 15, 18);
    tc_free(&t);
}
END_TEST

/* ---- EASY starts a job that conservative refuses ------------------------------ */

/* 4 PEs, MPL 1, FCFS, exact estimates, all four jobs submitted at 0 (trace
 * order J1..J4): J1 3 PEs 10 s, J2 3 PEs 10 s, J3 4 PEs 10 s, J4 1 PE 25 s.
 *
 * EASY at 0: J1 starts [0, 10) (1 free). Head J2: J1's end at 10 frees 3 ->
 *   4 >= 3: S = 10, extra = 4 - 3 = 1. J3 (4 PEs) does not fit now. J4 fits
 *   (1 free); 0 + 25 > S, but 1 <= extra: starts [0, 25), extra = 0.
 *   At 10: J2 [10, 20) (3 free of 3). At 20: 3 free < 4 for J3 (J4 holds
 *   one until 25): J3 [25, 35).
 * Conservative at 0: profile (0: 1 free), (10: 4 free). J1 is placed first
 *   (reserved at 0, started): profile after J1 is what the running J1
 *   leaves. J2 (3 PEs, 10 s): earliest 10 -> reserve [10, 20): (0: 1),
 *   (10: 1), (20: 4). J3 (4 PEs, 10 s): earliest 20 -> reserve [20, 30):
 *   (0: 1), (10: 1), (20: 0), (30: 4). J4 (1 PE, 25 s): at 0 it would need
 *   [0, 25) but (20: 0) -> next candidate 30: reserved [30, 55), not now.
 *   At 10: J2 starts [10, 20); at 20: J3 [20, 30); at 30: J4 [30, 55). */
static void easy_vs_cons(tc_t *t, sched_backfill bf)
{
    gang_params gp = params(PRIO_FCFS, bf, 1, true);
    tc_init(t, 4, &gp);
    tc_job(t, 1, 0, 3, 10);
    tc_job(t, 2, 0, 3, 10);
    tc_job(t, 3, 0, 4, 10);
    tc_job(t, 4, 0, 1, 25);
    tc_run(t);
}

START_TEST(test_easy_starts_what_conservative_refuses)
{
    tc_t t;
    easy_vs_cons(&t, BF_EASY);
    EXPECT_JOB(&t, 1, 0, 10);
    EXPECT_JOB(&t, 2, 10, 20);
    EXPECT_JOB(&t, 3, 25, 35);
    EXPECT_JOB(&t, 4, 0, 25);
    /* J3 became the head at 10: J2 ends at 20 (3 free), J4 at 25 (4 free):
     * shadow 25, and it started then. */
    ck_assert_double_eq(t.first_res[3], 25);
    tc_free(&t);
    easy_vs_cons(&t, BF_CONSERVATIVE);
    EXPECT_JOB(&t, 1, 0, 10);
    EXPECT_JOB(&t, 2, 10, 20);
    EXPECT_JOB(&t, 3, 20, 30);
    EXPECT_JOB(&t, 4, 30, 55);
    ck_assert_double_eq(t.first_res[2], 10);
    ck_assert_double_eq(t.first_res[3], 20);
    ck_assert_double_eq(t.first_res[4], 30);
    tc_free(&t);
}
END_TEST

/* ---- estimates: outlived and over-estimated ------------------------------------- */

/* 4 PEs, FCFS, EASY. J1: 2 PEs, runs 20 s, estimate 10 s (under). J2 at 1:
 * 4 PEs, 5 s. J3 at 2: 2 PEs, 3 s, estimate 3. J4 at 12: 2 PEs, 1 s.
 *   At 1: J2 head; J1 expected end 10 frees 2 -> 4: S = 10, extra 0.
 *   At 2: J3: 2 + 3 = 5 <= 10: starts [2, 5).
 *   At 12: J1 has outlived its estimate: expected an instant after 12, so
 *   S = 12+ (an instant after now), extra = 0. J4: 12 + 1 > 12+, 2 > 0:
 *   waits. At 20 J1 ends: J2 [20, 25); J4 (2 PEs) does not fit; J4 [25, 26).
 * The estimate never shortens a run: J1 ends at 20. */
START_TEST(test_easy_outlived_estimate)
{
    tc_t t;
    gang_params gp = params(PRIO_FCFS, BF_EASY, 1, true);
    tc_init(&t, 4, &gp);
    tc_job_est(&t, 1, 0, 2, 20, 10);
    tc_job(&t, 2, 1, 4, 5);
    tc_job(&t, 3, 2, 2, 3);
    tc_job(&t, 4, 12, 2, 1);
    tc_run(&t);
    EXPECT_JOB(&t, 1, 0, 20);
    EXPECT_JOB(&t, 2, 20, 25);
    EXPECT_JOB(&t, 3, 2, 5);
    EXPECT_JOB(&t, 4, 25, 26);
    tc_free(&t);
}
END_TEST

/* 8 PEs, FCFS, EASY. A backfill candidate whose estimate is long but whose
 * run is short must be judged by its estimate ("ends before S" uses e, never
 * the run time the scheduler cannot know).
 *   J1 at 0: 6 PEs, 10 s (exact)  -> [0, 10); 2 PEs free.
 *   J2 at 1: 8 PEs, 5 s           -> the head: J1's end at 10 frees 6 -> 8
 *                                    >= 8: S = 10, extra = 8 - 8 = 0.
 *   J3 at 2: 2 PEs, runs 3 s, estimate 20: fits now (2 free); 2 + 20 = 22
 *                                    > S and 2 > extra = 0: waits. (Judged by
 *                                    its run time, 2 + 3 = 5 <= 10, it would
 *                                    start [2, 5).)
 *   At 10 J1 ends: J2 [10, 15) (0 free). At 15: J3 [15, 18). */
START_TEST(test_easy_judges_by_estimate)
{
    tc_t t;
    gang_params gp = params(PRIO_FCFS, BF_EASY, 1, true);
    tc_init(&t, 8, &gp);
    tc_job(&t, 1, 0, 6, 10);
    tc_job(&t, 2, 1, 8, 5);
    tc_job_est(&t, 3, 2, 2, 3, 20);
    tc_run(&t);
    EXPECT_JOB(&t, 1, 0, 10);
    EXPECT_JOB(&t, 2, 10, 15);
    EXPECT_JOB(&t, 3, 15, 18);
    tc_free(&t);
}
END_TEST

/* "A running job that has outlived its estimate is expected to end an
 * instant after now (later than now, never at now)." Where is the
 * difference observable at MPL 1?
 * - Conservative: the instant [now, now+) keeps the outlived job's PEs busy
 *   in the profile, so a zero-length job can take the PEs really free now
 *   even when a wide job is reserved from now+ on. Were the outlived job
 *   expected to end at now, the wide job would be reserved at now (on PEs
 *   that are not free, so it cannot be placed) and the zero-length job
 *   would find nothing free at now.
 *   4 PEs, FCFS, conservative. J1 at 0: 2 PEs, runs 20 s, estimate 10.
 *   J2 at 12: 4 PEs, 5 s. J3 at 12: 2 PEs, 0 s (estimate 0).
 *   At 12 (J1 outlived its estimate): profile (12: 2 free), (12+: 4 free).
 *   J2: earliest 12+ (moment 12): reserved [12+, 17): (12: 2), (12+: 0),
 *   (17: 4). J3 (2 PEs, zero length, holds the instant [12, 12+)): 2 free
 *   at 12: starts [12, 12). At 20 J1 ends: J2 [20, 25).
 *   With "at now": profile (12: 4); J2 reserved [12, 17) but not placed;
 *   J3 would find 0 free at 12 and be reserved at 17 and would start only
 *   when J2 is done, at 25.
 * - EASY: S = now+ instead of now changes "now + e <= S" only for an
 *   estimate e with now + e == nextafter(now), i.e. below one unit in the
 *   last place of now (a zero estimate passes both ways). At now = 12,
 *   e = 1e-15 (ulp(12) = 1.78e-15 and 12 + 1e-15 rounds up to 12+).
 *   4 PEs, FCFS, EASY. J1 at 0: 2 PEs, runs 20 s, estimate 10. J2 at 1:
 *   4 PEs, 5 s: the head (S = 10, extra 0). J3 at 12: 2 PEs, runs 1 s,
 *   estimate 1e-15. At 12: S = 12+ (J1 outlived), extra = 4 - 4 = 0;
 *   J3 fits (2 free) and 12 + 1e-15 = 12+ <= S: starts [12, 13). With
 *   S = 12 it would wait (2 > extra) and start after J2, at 25.
 *   At 20: J2 [20, 25). */
START_TEST(test_outlived_instant_after_conservative)
{
    tc_t t;
    gang_params gp = params(PRIO_FCFS, BF_CONSERVATIVE, 1, true);
    tc_init(&t, 4, &gp);
    tc_job_est(&t, 1, 0, 2, 20, 10);
    tc_job(&t, 2, 12, 4, 5);
    tc_job(&t, 3, 12, 2, 0);
    tc_run(&t);
    EXPECT_JOB(&t, 1, 0, 20);
    EXPECT_JOB(&t, 2, 20, 25);
    EXPECT_JOB(&t, 3, 12, 12);
    tc_free(&t);
}
END_TEST

START_TEST(test_outlived_instant_after_easy)
{
    tc_t t;
    gang_params gp = params(PRIO_FCFS, BF_EASY, 1, true);
    tc_init(&t, 4, &gp);
    ck_assert(12.0 + 1e-15 == nextafter(12.0, INFINITY)); /* the premise */
    tc_job_est(&t, 1, 0, 2, 20, 10);
    tc_job(&t, 2, 1, 4, 5);
    tc_job_est(&t, 3, 12, 2, 1, 1e-15);
    tc_run(&t);
    EXPECT_JOB(&t, 1, 0, 20);
    EXPECT_JOB(&t, 2, 20, 25);
    EXPECT_JOB(&t, 3, 12, 13);
    tc_free(&t);
}
END_TEST

/* ---- priority functions --------------------------------------------------------- */

/* 8 PEs, MPL 1, strict order, no backfilling. J1 (8 PEs, 100 s) holds the
 * machine from 0 to 100. Meanwhile (submit s, threads n, estimate e = run
 * time): J2 (1, 7, 30), J3 (1, 5, 40), J4 (3, 6, 20), J5 (4, 6, 30),
 * J6 (5, 6, 50), J7 (6, 8, 30). Every one is wider than half the machine,
 * so they run one at a time and a pass happens at each end: the start
 * order is the priority order at 100, 100 + e of the first, ...
 * Keys (lowest first; w = now - s):
 *   SJF  e: J4 20 | J2 30, J5 30, J7 30 (trace order) | J3 40 | J6 50
 *   LJF -e: J6 | J3 | J2, J5, J7 | J4
 *   SAF  n e: J4 120, J5 180, J3 200, J2 210, J7 240, J6 300
 *   LAF: J6 300, J7 240, J2 210, J3 200, J5 180, J4 120
 *   F1  log10(e) n + 870 log10(s) (s = 1 -> 0): J3 5 log10 40 = 8.01,
 *        J2 7 log10 30 = 10.34, J4 6 log10 20 + 870 log10 3 = 422.9,
 *        J5 6 log10 30 + 870 log10 4 = 532.7, J6 618.3, J7 688.8
 *   WFP3 (w/e)^3 n, highest first, re-evaluated at every pass:
 *        t=100: J4 (97/20)^3 6 = 684.5, J2 (99/30)^3 7 = 251.6,
 *               J7 (94/30)^3 8 = 246.1, J5 196.6, J3 75.8, J6 41.2 -> J4
 *        t=120: J7 (114/30)^3 8 = 439.0 > J2 (119/30)^3 7 = 436.9 -> J7
 *               (the order of J2 and J7 flipped since 100)
 *        t=150: J2 857.6, J5 691.6, J3 258.4, J6 146.3 -> J2
 *        t=180: J5 1212 > J3 448.1 > J6 257.2 -> J5; then J3, J6
 *   UNICEP w / (log2(n) e), highest first:
 *        t=100: J4 97/(2.585*20) = 1.876, J5 1.238, J2 1.175, J3 1.066,
 *               J7 1.044, J6 0.735 -> J4
 *        t=120: J5 116/(2.585*30) = 1.496, J2 1.413, J3 1.281, J7 1.267 -> J5
 *        t=150: J2 149/(2.807*30) = 1.769, J3 1.604, J7 1.600 -> J2
 *        t=180: J7 174/(3*30) = 1.933 > J3 179/(2.322*40) = 1.927 -> J7
 *               (J3 was ahead of J7 at 150)
 *        then J3, J6.
 * Start times follow by adding the run times. */
static void prio_case(sched_priority prio, const int order[6])
{
    tc_t t;
    gang_params gp = params(prio, BF_NONE, 1, true);
    tc_init(&t, 8, &gp);
    tc_job(&t, 1, 0, 8, 100);
    tc_job(&t, 2, 1, 7, 30);
    tc_job(&t, 3, 1, 5, 40);
    tc_job(&t, 4, 3, 6, 20);
    tc_job(&t, 5, 4, 6, 30);
    tc_job(&t, 6, 5, 6, 50);
    tc_job(&t, 7, 6, 8, 30);
    tc_run(&t);
    static const double run[8] = {0, 100, 30, 40, 20, 30, 50, 30};
    double now = 100;
    EXPECT_JOB(&t, 1, 0, 100);
    for (int k = 0; k < 6; k++) {
        EXPECT_JOB(&t, order[k], now, now + run[order[k]]);
        now += run[order[k]];
    }
    tc_free(&t);
}

START_TEST(test_prio_sjf)
{
    prio_case(PRIO_SJF, (const int[]){4, 2, 5, 7, 3, 6});
}
END_TEST

START_TEST(test_prio_ljf)
{
    prio_case(PRIO_LJF, (const int[]){6, 3, 2, 5, 7, 4});
}
END_TEST

START_TEST(test_prio_saf)
{
    prio_case(PRIO_SAF, (const int[]){4, 5, 3, 2, 7, 6});
}
END_TEST

START_TEST(test_prio_laf)
{
    prio_case(PRIO_LAF, (const int[]){6, 7, 2, 3, 5, 4});
}
END_TEST

START_TEST(test_prio_wfp3)
{
    prio_case(PRIO_WFP3, (const int[]){4, 7, 2, 5, 3, 6});
}
END_TEST

START_TEST(test_prio_unicep)
{
    prio_case(PRIO_UNICEP, (const int[]){4, 5, 2, 7, 3, 6});
}
END_TEST

START_TEST(test_prio_f1)
{
    prio_case(PRIO_F1, (const int[]){3, 2, 4, 5, 6, 7});
}
END_TEST

/* The keys themselves, at hand-computed points: n = 1 counts as log2 = 1
 * in UNICEP, s = 0 as 1 in F1, e < 1 s as 1 s where it divides. */
START_TEST(test_prio_keys)
{
    cluster_t cl;
    memset(&cl, 0, sizeof cl);
    list_init(&cl.jobs); /* all job_create needs of a cluster */
    job_t *j = job_create(&cl, 1, 1, 0, 1, 10, 1);
    ck_assert_double_eq(prio_key(PRIO_SJF, j, 50), 10);
    ck_assert_double_eq(prio_key(PRIO_LAF, j, 50), -10);
    /* UNICEP: w = 50, n = 1 -> 50 / (1 * 10) = 5. */
    ck_assert_near(prio_key(PRIO_UNICEP, j, 50), -5, 1e-12);
    /* F1: log10(10) * 1 + 870 log10(1) = 1. */
    ck_assert_near(prio_key(PRIO_F1, j, 50), 1, 1e-12);
    /* WFP3: (50/10)^3 * 1 = 125. */
    ck_assert_near(prio_key(PRIO_WFP3, j, 50), -125, 1e-9);
    j->estimate = 0;
    ck_assert_near(prio_key(PRIO_WFP3, j, 2), -8, 1e-12);   /* (2/1)^3 */
    ck_assert_near(prio_key(PRIO_F1, j, 2), 0, 1e-12);      /* log10(1) */
    job_destroy(NULL, j);
}
END_TEST

START_TEST(test_blocking_sjf)
{
    /* 4 PEs: J1 (3 PEs, 10 s) at 0; at 1 J2 (4 PEs, 5 s), J3 (1 PE, 8 s).
     * SJF order: J2 (5 s) then J3 (8 s). strict ("blocking SJF"): J2 does
     * not fit in the 1 free PE, so J3 waits: J2 [10, 15), J3 [15, 23).
     * Not strict: J3 fits the free PE at 1: J3 [1, 9), J2 [10, 15). */
    for (int strict = 0; strict <= 1; strict++) {
        tc_t t;
        gang_params gp = params(PRIO_SJF, BF_NONE, 1, strict);
        tc_init(&t, 4, &gp);
        tc_job(&t, 1, 0, 3, 10);
        tc_job(&t, 2, 1, 4, 5);
        tc_job(&t, 3, 1, 1, 8);
        tc_run(&t);
        EXPECT_JOB(&t, 2, 10, 15);
        if (strict)
            EXPECT_JOB(&t, 3, 15, 23);
        else
            EXPECT_JOB(&t, 3, 1, 9);
        tc_free(&t);
    }
}
END_TEST

/* ---- property runs on random tie-heavy workloads ---------------------------------- */

static uint64_t rs;
static uint32_t rnd(void)
{
    rs ^= rs << 13;
    rs ^= rs >> 7;
    rs ^= rs << 17;
    return (uint32_t)(rs >> 11);
}

/* n jobs on npes PEs: submits on a 10 s grid with bursts of equal submits,
 * widths from a few values, run times from a few values including 0; the
 * estimate exact or (mixed) under/over by a factor. */
static void random_load(tc_t *t, int n, int npes, bool exact, uint64_t seed)
{
    static const int widths[] = {1, 1, 2, 2, 3, 4, 8, 16};
    static const double runs[] = {0, 5, 10, 10, 20, 50, 100, 300};
    static const double factor[] = {0.5, 1, 1, 2, 3, 10};
    rs = seed * 2654435761u + 1;
    double s = 0;
    for (int id = 1; id <= n; id++) {
        if (rnd() % 3 == 0)
            s += 10 * (rnd() % 4);
        int w = widths[rnd() % 8];
        if (w > npes)
            w = npes;
        double r = runs[rnd() % 8];
        double e = exact ? -1 : r * factor[rnd() % 6] + (rnd() % 2 ? 0 : 10);
        tc_job_est(t, id, s, w, r, e);
    }
}

static void check_all_ran(tc_t *t)
{
    for (int id = 1; id <= t->njobs; id++)
        ck_assert_msg(t->start[id] >= 0 && t->end[id] >= t->start[id], "J%d did not run", id);
}

START_TEST(test_random_easy_exact)
{
    /* FCFS, exact estimates, MPL 1: every job that was ever the head starts
     * by the shadow time computed when it became the head. */
    for (uint64_t seed = 1; seed <= 10; seed++) {
        tc_t t;
        gang_params gp = params(PRIO_FCFS, BF_EASY, 1, true);
        tc_init(&t, 16, &gp);
        random_load(&t, 400, 16, true, seed);
        tc_run(&t);
        check_all_ran(&t);
        int heads = 0;
        for (int id = 1; id <= t.njobs; id++) {
            if (t.first_res[id] < 0)
                continue;
            heads++;
            ck_assert_msg(t.start[id] <= t.first_res[id], "seed %d: head J%d started %.17g after its shadow time %.17g",
                          (int)seed, id, t.start[id], t.first_res[id]);
        }
        ck_assert_int_gt(heads, 20); /* the load does make heads */
        tc_free(&t);
    }
}
END_TEST

START_TEST(test_random_conservative_exact)
{
    /* FCFS, exact estimates, MPL 1: no job starts after its first
     * reservation. */
    for (uint64_t seed = 1; seed <= 10; seed++) {
        tc_t t;
        gang_params gp = params(PRIO_FCFS, BF_CONSERVATIVE, 1, true);
        tc_init(&t, 16, &gp);
        random_load(&t, 400, 16, true, seed);
        tc_run(&t);
        check_all_ran(&t);
        int waited = 0; /* jobs whose first reservation was in the future */
        for (int id = 1; id <= t.njobs; id++) {
            ck_assert_msg(t.first_res[id] >= 0, "J%d never had a reservation", id);
            ck_assert_msg(t.start[id] <= t.first_res[id], "seed %d: J%d started %.17g after its reservation %.17g",
                          (int)seed, id, t.start[id], t.first_res[id]);
            waited += t.first_res[id] > t.submit[id];
        }
        ck_assert_int_gt(waited, 20);
        tc_free(&t);
    }
}
END_TEST

START_TEST(test_random_invariants)
{
    /* Every order x mode x MPL 1-3 with inexact estimates: the invariants
     * after every action, every job runs, CPU time conserved. */
    static const sched_priority prios[] = {PRIO_FCFS, PRIO_BESTFIT, PRIO_SJF, PRIO_LJF,
                                           PRIO_SAF, PRIO_LAF, PRIO_WFP3, PRIO_UNICEP,
                                           PRIO_F1};
    int i = _i;
    sched_priority prio = prios[i % 9];
    sched_backfill bf = (sched_backfill)(i % 3);
    int mpl = 1 + (i / 9) % 3;
    tc_t t;
    gang_params gp = params(prio, bf, mpl, i % 2);
    tc_init(&t, 16, &gp);
    random_load(&t, 300, 16, false, (uint64_t)(100 + i));
    tc_run(&t);
    check_all_ran(&t);
    double busy = 0;
    for (int p = 0; p < t.cl.npes; p++)
        busy += res_busy_time(&t.sim, &t.cl.pes[p].cpu);
    ck_assert_near(busy, t.cl.cpu_demand_done, 1e-6 * (1 + busy));
    tc_free(&t);
}
END_TEST

/* The gang-aware variant's guarantee (docs/SCHEDULING.md): MPL > 1, FCFS,
 * exact estimates, no alternative scheduling (scheduler.alternative = no:
 * no moves, no moves back, no unification), no memory: a job never starts
 * later than its first reservation (EASY: the head's shadow time;
 * conservative: its first reservation) if the number of slots stays the
 * same from that pass until it starts. Returns the jobs checked and counts
 * the late ones. */
static int gang_guarantee(sched_backfill bf, int mpl, double pcs, uint64_t seed, int *late)
{
    static tc_t t;
    gang_params gp = params(PRIO_FCFS, bf, mpl, true);
    gp.no_alternative = true;
    gp.pcs = pcs;
    tc_init(&t, 16, &gp);
    random_load(&t, 400, 16, true, seed);
    tc_run(&t);
    check_all_ran(&t);
    int checked = 0;
    for (int id = 1; id <= t.njobs; id++) {
        if (t.head_res[id] < 0 || t.slots_changed[id])
            continue;
        checked++;
        if (t.placed[id] > t.head_res[id]) {
            (*late)++;
            fprintf(stderr, "bf %d mpl %d pcs %g seed %d: head J%d placed at %.17g after its first reservation as the head %.17g\n",
                    (int)bf, mpl, pcs, (int)seed, id, t.placed[id], t.head_res[id]);
        }
        if (bf == BF_EASY)
            ck_assert_double_eq(t.head_res[id], t.first_res[id]);
    }
    tc_free(&t);
    return checked;
}

START_TEST(test_gang_guarantee)
{
    static const sched_backfill bfs[] = {BF_EASY, BF_CONSERVATIVE};
    for (int b = 0; b < 2; b++) {
        for (int mpl = 2; mpl <= 3; mpl++) {
            int checked = 0, late = 0;
            for (uint64_t seed = 1; seed <= 10; seed++)
                checked += gang_guarantee(bfs[b], mpl, seed % 2 ? 0 : 1, seed, &late);
            fprintf(stderr, "bf %d mpl %d: %d checked %d late\n", (int)bfs[b], mpl, checked, late);
            ck_assert_int_eq(late, 0);
            ck_assert_int_gt(checked, 50);
        }
    }
}
END_TEST

/* Conservative keeps its reservations from pass to pass when it can prove
 * a rebuild would give the same (sched/backfill.c, incremental): the kept
 * and the always-rebuilt passes must start every job at the same time, on
 * loads that exercise both paths: exact estimates (passes kept), over- and
 * under-estimates (early and late ends: rebuilds), zero-length jobs, and
 * static orders where arrivals come before reserved jobs (SJF, SAF). */
static void cons_run(tc_t *t, sched_priority prio, bool exact, uint64_t seed, bool rebuild,
                     long *kept)
{
    gang_params gp = params(prio, BF_CONSERVATIVE, 1, true);
    tc_init(t, 16, &gp);
    bf_t *b = (bf_t *)gang_bf(t->g);
    ck_assert_ptr_nonnull(b);
    bf_set_rebuild_always(b, rebuild);
    random_load(t, 400, 16, exact, seed);
    tc_run(t);
    check_all_ran(t);
    bf_stats st;
    bf_get_stats(b, &st);
    *kept = st.kept_passes;
}

START_TEST(test_conservative_kept_equals_rebuilt)
{
    static const sched_priority prios[] = {PRIO_FCFS, PRIO_SJF, PRIO_SAF, PRIO_F1};
    long kept_total = 0;
    for (int exact = 0; exact <= 1; exact++) {
        for (int pi = 0; pi < 4; pi++) {
            for (uint64_t seed = 1; seed <= 4; seed++) {
                static tc_t a, r;
                long kept, kept_r;
                cons_run(&a, prios[pi], exact, seed * 7 + (uint64_t)pi, false, &kept);
                cons_run(&r, prios[pi], exact, seed * 7 + (uint64_t)pi, true, &kept_r);
                ck_assert_int_eq(kept_r, 0);
                for (int id = 1; id <= a.njobs; id++)
                    ck_assert_msg(a.start[id] == r.start[id] && a.end[id] == r.end[id],
                                  "order %d exact %d seed %d: J%d kept [%.17g, %.17g), "
                                  "rebuilt [%.17g, %.17g)", (int)prios[pi], exact, (int)seed,
                                  id, a.start[id], a.end[id], r.start[id], r.end[id]);
                kept_total += kept;
                tc_free(&a);
                tc_free(&r);
            }
        }
        /* Exact estimates: most passes keep the reservations. */
        if (exact)
            ck_assert_int_gt(kept_total, 1000);
    }
}
END_TEST

/* ---- whole runs through the configuration -------------------------------------------- */

static void trace_run(const char *const extra[], run_metrics *m)
{
    config c;
    char err[CFG_ERR_MAX];
    config_defaults(&c);
    const char *sets[] = {"workload.trace=traces/hpc2n-seth-first3171.swf",
                          "workload.max_jobs=600", "computer.number=240",
                          "computer.ram=100000", NULL};
    for (int i = 0; sets[i]; i++)
        ck_assert_msg(config_set(&c, sets[i], err) == 0, "%s", err);
    for (int i = 0; extra[i]; i++)
        ck_assert_msg(config_set(&c, extra[i], err) == 0, "%s", err);
    ck_assert_msg(config_validate(&c, err) == 0, "%s", err);
    run_t *r = run_create(&c, NULL, NULL, err);
    ck_assert_msg(r != NULL, "%s", err);
    run_set_checking(r, true);
    ck_assert_msg(run_execute(r, err) == 0, "%s", err);
    const char *bad = run_check_failure(r);
    ck_assert_msg(bad == NULL, "%s", bad ? bad : "");
    run_metrics_get(r, m);
    ck_assert_int_eq(m->jobs_finished, m->jobs_submitted);
    run_destroy(r);
}

START_TEST(test_trace_modes)
{
    /* HPC2N's first 600 jobs with requested times as estimates: every mode
     * finishes every job with the invariants checked after every action;
     * backfilling does not raise the mean wait of FCFS here (a measured
     * property of this trace, not a theorem: EASY and conservative can
     * delay jobs, but this load has long FCFS queues behind wide jobs). */
    run_metrics none, easy, cons, gang2;
    trace_run((const char *const[]){"scheduler.backfill=none", NULL}, &none);
    trace_run((const char *const[]){"scheduler.backfill=easy", NULL}, &easy);
    trace_run((const char *const[]){"scheduler.backfill=conservative", NULL}, &cons);
    trace_run((const char *const[]){"scheduler.backfill=easy", "scheduler.mpl=2",
                                    "scheduler.priority=wfp3", NULL}, &gang2);
    ck_assert(easy.wait_time_mean < none.wait_time_mean);
    ck_assert(cons.wait_time_mean < none.wait_time_mean);
}
END_TEST

START_TEST(test_estimate_config)
{
    config c;
    char err[CFG_ERR_MAX];
    config_defaults(&c);
    ck_assert_int_eq(c.workload.estimate, ESTIMATE_REQUESTED);
    ck_assert_double_eq(c.workload.estimate_scale, 1);
    ck_assert_int_eq(c.scheduler.backfill, BF_NONE);
    ck_assert_int_eq(config_set(&c, "workload.estimate=runtime", err), 0);
    ck_assert_int_eq(c.workload.estimate, ESTIMATE_RUNTIME);
    ck_assert_int_eq(config_set(&c, "scheduler.backfill=conservative", err), 0);
    ck_assert_int_eq(c.scheduler.backfill, BF_CONSERVATIVE);
    ck_assert_int_eq(config_set(&c, "scheduler.priority=unicep", err), 0);
    ck_assert_int_eq(c.scheduler.priority, PRIO_UNICEP);
    ck_assert_int_eq(config_set(&c, "scheduler.backfill=aggressive", err), -1);
    ck_assert_ptr_nonnull(strstr(err, "backfill"));
    ck_assert_int_eq(config_set(&c, "workload.estimate_scale=0", err), -1);
    ck_assert_ptr_nonnull(strstr(err, "estimate_scale"));
}
END_TEST

/* Estimates are bounded (WL_ESTIMATE_MAX = 1e12 s): field 9 of 1e12 times
 * estimate_scale 1e6 would give 1e18 s, where 2 + 1e18 <= 1e18 holds in
 * doubles and a job would backfill before a shadow time it overruns. Such a
 * record is an error naming the line, field 9 and estimate_scale; the
 * largest accepted product, 1e6 x 1e6 = 1e12, is read as is; with
 * estimate = runtime the CPU demand is named instead. */
START_TEST(test_estimate_bound)
{
    static const char *const swf =
        "1 0 0 100 4 -1 -1 4 1000000 -1 1 -1 -1 -1 -1 -1 -1 -1\n"
        "2 1 0 100 4 -1 -1 4 1000000000000 -1 1 -1 -1 -1 -1 -1 -1 -1\n";
    char path[] = "/tmp/test_backfill_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, swf, strlen(swf)), (ssize_t)strlen(swf));
    close(fd);
    config c;
    char err[CFG_ERR_MAX] = "";
    config_defaults(&c);
    ck_assert_int_eq(config_set(&c, "workload.estimate_scale=1e6", err), 0);
    workload *w = workload_open(path, &c, 8, err);
    ck_assert_msg(w != NULL, "%s", err);
    wl_job j;
    ck_assert_int_eq(workload_next(w, &j, err), 1);
    ck_assert_double_eq(j.estimate, 1e12);
    ck_assert_int_eq(workload_next(w, &j, err), -1);
    ck_assert_msg(strstr(err, ":2:") && strstr(err, "field 9") &&
                  strstr(err, "estimate_scale") && strstr(err, "at most 1e+12"), "%s", err);
    workload_close(w);
    /* estimate = runtime: 100 s x 1e10 = 1e12 is accepted, x 2e10 is not. */
    ck_assert_int_eq(config_set(&c, "workload.estimate=runtime", err), 0);
    c.workload.estimate_scale = 2e10; /* beyond the key's range; the bound holds anyway */
    w = workload_open(path, &c, 8, err);
    ck_assert_msg(w != NULL, "%s", err);
    ck_assert_int_eq(workload_next(w, &j, err), -1);
    ck_assert_msg(strstr(err, ":1:") && strstr(err, "CPU demand"), "%s", err);
    workload_close(w);
    unlink(path);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("backfill");
    TCase *tc = tcase_create("hand");
    tcase_add_test(tc, test_easy_classic);
    tcase_add_test(tc, test_easy_classic_none);
    tcase_add_test(tc, test_easy_starts_what_conservative_refuses);
    tcase_add_test(tc, test_easy_outlived_estimate);
    tcase_add_test(tc, test_easy_judges_by_estimate);
    tcase_add_test(tc, test_outlived_instant_after_conservative);
    tcase_add_test(tc, test_outlived_instant_after_easy);
    tcase_add_test(tc, test_prio_sjf);
    tcase_add_test(tc, test_prio_ljf);
    tcase_add_test(tc, test_prio_saf);
    tcase_add_test(tc, test_prio_laf);
    tcase_add_test(tc, test_prio_wfp3);
    tcase_add_test(tc, test_prio_unicep);
    tcase_add_test(tc, test_prio_f1);
    tcase_add_test(tc, test_prio_keys);
    tcase_add_test(tc, test_blocking_sjf);
    tcase_add_test(tc, test_estimate_config);
    tcase_add_test(tc, test_estimate_bound);
    suite_add_tcase(s, tc);
    TCase *tr = tcase_create("random");
    tcase_set_timeout(tr, 120);
    tcase_add_test(tr, test_random_easy_exact);
    tcase_add_test(tr, test_random_conservative_exact);
    tcase_add_test(tr, test_conservative_kept_equals_rebuilt);
    tcase_add_test(tr, test_gang_guarantee);
    tcase_add_loop_test(tr, test_random_invariants, 0, 54);
    tcase_add_test(tr, test_trace_modes);
    suite_add_tcase(s, tr);
    return s;
}

TEST_MAIN()
