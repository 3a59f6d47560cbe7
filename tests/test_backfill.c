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
#include "tests/fixture_components.h"
#include "tests/fixture_backfill.h"

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
    /* A machine of one PE and no scheduler: the keys read only the job. */
    sim_t sim;
    cluster_t cl;
    ck_assert_int_eq(ev_init(&sim), 0);
    cluster_params cp = test_cluster_params(1, 1024, 0);
    cluster_init(&sim, &cl, &cp);
    job_t *j = job_create(&cl, 1, 1, 0, 1, 10, 1);
    ck_assert_double_eq(prio_key(PRIO_SJF, NULL, j, 50), 10);
    ck_assert_double_eq(prio_key(PRIO_LAF, NULL, j, 50), -10);
    /* UNICEP: w = 50, n = 1 -> 50 / (1 * 10) = 5. */
    ck_assert_near(prio_key(PRIO_UNICEP, NULL, j, 50), -5, 1e-12);
    /* F1: log10(10) * 1 + 870 log10(1) = 1. */
    ck_assert_near(prio_key(PRIO_F1, NULL, j, 50), 1, 1e-12);
    /* WFP3: (50/10)^3 * 1 = 125. */
    ck_assert_near(prio_key(PRIO_WFP3, NULL, j, 50), -125, 1e-9);
    j->estimate = 0;
    ck_assert_near(prio_key(PRIO_WFP3, NULL, j, 2), -8, 1e-12);   /* (2/1)^3 */
    ck_assert_near(prio_key(PRIO_F1, NULL, j, 2), 0, 1e-12);      /* log10(1) */
    job_destroy(&sim, j);
    test_cluster_free(&sim, &cl);
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
    ck_assert_int_eq(c.scheduler.backfill, t_index(PNRSIM_KIND_BACKFILL, "NONE"));
    ck_assert_int_eq(config_set(&c, "workload.estimate=runtime", err), 0);
    ck_assert_int_eq(c.workload.estimate, ESTIMATE_RUNTIME);
    ck_assert_int_eq(config_set(&c, "scheduler.backfill=conservative", err), 0);
    ck_assert_int_eq(c.scheduler.backfill, t_index(PNRSIM_KIND_BACKFILL, "CONSERVATIVE"));
    ck_assert_int_eq(config_set(&c, "scheduler.priority=unicep", err), 0);
    ck_assert_int_eq(c.scheduler.priority, t_index(PNRSIM_KIND_PRIORITY, "UNICEP"));
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

/* Issue 23 part 1: an interval that starts an instant after now (behind a
 * job that outlived its estimate) ends after now + d, never at it.
 * 4 PEs, FCFS, conservative, MPL 1; estimates exact except J1's.
 *   J1 at 0: 1 PE, runs 100 s, estimate 10.  J2 at 0: 2 PEs, 50 s.
 *   J3, J4, J5 at 20: 4 PEs 10 s; 2 PEs 30 s; 1 PE 30 s.
 *   0   J1 (PE 0) and J2 (PEs 1, 2) start; PE 3 free.
 *   20  J1 has outlived its estimate: expected an instant after 20 (20+;
 *       nothing is known to happen then). Profile: (20: 1 free),
 *       (20+: 2), (50: 4, J2's expected end).
 *       J3 (4 PEs, 10 s): first 4 free at 50: reserved [50, 60):
 *       (20: 1), (20+: 2), (50: 0), (60: 4).
 *       J4 (2 PEs, 30 s): not at 20 (1 free). From 20+ it would end after
 *       20 + 30 = 50 (in doubles 20+ + 30 rounds to exactly 50, so only the
 *       rule "strictly after now + d" keeps it off) and overlap J3's
 *       [50, 60) with 0 free: no. First fit at 60: reserved [60, 90).
 *       J5 (1 PE, 30 s): 1 free at 20 and 2 at 20+, until 50: starts
 *       [20, 50) on PE 3.
 *   50  J2 and J5 end. Free PEs 1-3; J1 expected at 50+. J3 reserved from
 *       50+ (4 PEs); J4 at 50 would overlap it: waits.
 *   100 J1 ends: J3 [100, 110). 110: J4 [110, 140).
 * The old rule (20+ keeps the moment 20) reserved J4 at [20+, 50) on the
 * PE J5 needs: J5 started at 110. So J4's first reservation is 60 and J5
 * starts at 20. */
START_TEST(test_outlived_reservation_ends_after)
{
    tc_t t;
    gang_params gp = params(PRIO_FCFS, BF_CONSERVATIVE, 1, true);
    tc_init(&t, 4, &gp);
    ck_assert(nextafter(20.0, INFINITY) + 30 == 50.0); /* the rounding premise */
    tc_job_est(&t, 1, 0, 1, 100, 10);
    tc_job(&t, 2, 0, 2, 50);
    tc_job(&t, 3, 20, 4, 10);
    tc_job(&t, 4, 20, 2, 30);
    tc_job(&t, 5, 20, 1, 30);
    tc_run(&t);
    EXPECT_JOB(&t, 1, 0, 100);
    EXPECT_JOB(&t, 2, 0, 50);
    EXPECT_JOB(&t, 3, 100, 110);
    EXPECT_JOB(&t, 4, 110, 140);
    EXPECT_JOB(&t, 5, 20, 50);
    ck_assert_double_eq(t.first_res[4], 60);
    ck_assert_double_eq(t.first_res[3], 50);
    tc_free(&t);
}
END_TEST

/* Issue 23 (oracle case D3): the step where a job that outlived its
 * estimate frees its PEs comes after every step that keeps the moment now,
 * also the end of a zero-length job reserved now in the same pass.
 * 4 PEs, FCFS, conservative, MPL 1; estimates exact except J1's.
 *   J1 at 0: 2 PEs, runs 10 s, estimate 5.  J2 at 0: 2 PEs, 5 s.
 *   J3, J4, J5 at 5: 1 PE 0 s; 2 PEs 1 s; 1 PE 40 s.
 *   0   J1 (PEs 0, 1) and J2 (PEs 2, 3) start.
 *   5   J2 ends; J1 has outlived its estimate (expected an instant after
 *       5, late). Profile: (5: 2 free), (late: 4).
 *       J3 (1 PE, 0 s) starts at 5 and holds its PE until the pass that
 *       follows its end at 5: (5: 1), (5+: 2, moment 5), (late: 4).
 *       J4 (2 PEs, 1 s): not at 5 (1 free); at 5+ it ends at 5 + 1 = 6 on
 *       the free PE and J3's: reserved [5+, 6): (5: 1), (5+: 0),
 *       (late: 2), (6: 4).
 *       J5 (1 PE, 40 s): 1 free at 5 but 0 at 5+: not now; its first fit
 *       is at 6 (a later pass decides).
 *   5   (second pass, after J3's end) 2 free: J4 starts [5, 6). J5: 0
 *       free now.
 *   6   J4 ends: J5 starts [6, 46) (J1 still runs until 10).
 * Were J3's end at the late step (both just after 5), the profile would
 * free J3's PE together with J1's: J4 reserved late, J5 started at 5 on
 * the PE J4 needs, and J4 waited for J1's end: [10, 11). */
START_TEST(test_outlived_after_zero_length_end)
{
    tc_t t;
    gang_params gp = params(PRIO_FCFS, BF_CONSERVATIVE, 1, true);
    tc_init(&t, 4, &gp);
    tc_job_est(&t, 1, 0, 2, 10, 5);
    tc_job(&t, 2, 0, 2, 5);
    tc_job(&t, 3, 5, 1, 0);
    tc_job(&t, 4, 5, 2, 1);
    tc_job(&t, 5, 5, 1, 40);
    tc_run(&t);
    EXPECT_JOB(&t, 1, 0, 10);
    EXPECT_JOB(&t, 2, 0, 5);
    EXPECT_JOB(&t, 3, 5, 5);
    EXPECT_JOB(&t, 4, 5, 6);
    EXPECT_JOB(&t, 5, 6, 46);
    tc_free(&t);
}
END_TEST

/* The same with a chain: a zero-length job reserved at the end of another
 * one (both keep the moment now), then a job on the PEs the second frees.
 * 5 PEs, FCFS, conservative, MPL 1.
 *   J1 at 0: 2 PEs, runs 10 s, estimate 5.  J2 at 0: 3 PEs, 5 s.
 *   J3, J4 at 5: 2 PEs, 0 s each.  J5 at 5: 3 PEs, 1 s.  J6 at 5: 1 PE, 40 s.
 *   5   J2 ends, J1 late. Profile (5: 3), (late: 5).
 *       J3 starts at 5: (5: 1), (5+: 3, moment 5).
 *       J4 (2 PEs): not at 5; at 5+: reserved, ends just after 5+:
 *       (5: 1), (5+: 1), (5++: 3, moment 5), (late: 5).
 *       J5 (3 PEs, 1 s): first fit at 5++ ending at 5 + 1 = 6:
 *       (5: 1), (5+: 1), (5++: 0), (late: 2), (6: 5).
 *       J6 (1 PE, 40 s): 0 free at 5++: not now.
 *   5   (second pass) 3 free: J4 starts; J5 reserved at 5+; J6: not now.
 *   5   (third pass) 3 free: J5 starts [5, 6); J6: 0 free now.
 *   6   J5 ends: J6 starts [6, 46).
 * A late step one instant after the due-now steps only (5+, or 5++) would
 * meet J4's end (5++ ) or J3's (5+): J6 started at 5 and J5 waited until
 * J1's end: [10, 11). */
START_TEST(test_outlived_after_zero_length_chain)
{
    tc_t t;
    gang_params gp = params(PRIO_FCFS, BF_CONSERVATIVE, 1, true);
    tc_init(&t, 5, &gp);
    tc_job_est(&t, 1, 0, 2, 10, 5);
    tc_job(&t, 2, 0, 3, 5);
    tc_job(&t, 3, 5, 2, 0);
    tc_job(&t, 4, 5, 2, 0);
    tc_job(&t, 5, 5, 3, 1);
    tc_job(&t, 6, 5, 1, 40);
    tc_run(&t);
    EXPECT_JOB(&t, 1, 0, 10);
    EXPECT_JOB(&t, 2, 0, 5);
    EXPECT_JOB(&t, 3, 5, 5);
    EXPECT_JOB(&t, 4, 5, 5);
    EXPECT_JOB(&t, 5, 5, 6);
    EXPECT_JOB(&t, 6, 6, 46);
    tc_free(&t);
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
    tcase_add_test(tc, test_outlived_reservation_ends_after);
    tcase_add_test(tc, test_outlived_after_zero_length_end);
    tcase_add_test(tc, test_outlived_after_zero_length_chain);
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
    TCase *tr = tcase_create("trace");
    tcase_set_timeout(tr, 120);
    tcase_add_test(tr, test_trace_modes);
    suite_add_tcase(s, tr);
    return s;
}

TEST_MAIN()
