/* tests/test_gang_home.c: hand-worked gang cases of issue 23: a moved job
 * comes home by the rule of docs/MODEL.md whatever the slot numbering, and
 * a zero-length job under pcs_first_start. Harness: tests/fixture_gang.h
 * (every scheduler action checked, gang_check included: a moved job's PEs
 * are free in its home slot). No messages, no paging: a job computes its
 * CPU demand while scheduled. */
#include "tests/fixture_components.h"
#include "tests/fixture_gang.h"

/* 4 PEs, MPL 3, quantum 10, PCS 1, FCFS, FIRSTFIT, alternative on.
 * Jobs (submit, CPU s, PEs): J1 (0,100,2) J2 (0,100,2) J3 (0,100,2)
 * J4 (12,50,2) J5 (12,100,2). Slots A, B, C in creation order.
 *   0   J1 -> A PEs 0,1; J2 -> A PEs 2,3 (both start); J3 -> B PEs 0,1.
 *   10  B: J2's PEs 2,3 are idle in B: J2 moves in (home A), keeps
 *       running. J1 stopped (10 done); J3 starts. A: J1 . .
 *   12  J4 -> A PEs 2,3 (first fit), J2's PEs there: by the rule J2 no
 *       longer returns (it stays in B for good). J5 -> new slot C, 0,1.
 *   20  C: ring from C: A: J1 (0,1) taken; J4 (2,3) idle: J4 moves in
 *       (home A). J3 (10), J2 (20) stopped; J4, J5 start. Layout
 *       "1 1 . . | 3 3 2 2 | >5 5 4 4".
 *   30  A: J4 moves back home (PEs 2,3 free there: nothing was placed on
 *       them), keeps running; J2 stays. J5 stopped (10); J1 resumes at 31.
 *       (The old rule, checking at this instant in slot order, brought J2
 *       back from B first and left J4 in C for good.)
 *   40  B: J1 (19), J4 (20) stopped; J3, J2 resume at 41.
 *   50  C: J4 moves in from A (home A) and resumes at 51 with J5; J3 (19),
 *       J2 (29) stopped.  60 A: J4 back (29 at 60, running on); J5 (19)
 *       stopped; J1 at 61.  70 B: J1 (28), J4 (39) stopped; J3, J2 at 71.
 *   80  C: J4 in again, J4 and J5 at 81; J3 (28), J2 (38) stopped.
 *   90  A: J4 back, running on; J5 (28); J1 at 91. J4 ends at 92 (39 + 9
 *       in C + 2). A's idle 2,3: J2 moves in from B (home B), resumes at
 *       93. 100 B: J2 back home (45), running on; J1 (37); J3 at 101.
 *   110, 120, ...: J2 moves into each current slot on PEs 2,3 and runs on
 *       without a stop: 55 at 110, ..., 95 at 150: ends at 155.
 *   J1, J3, J5 then take 9 s per turn of 30 s: J1 reaches 100 at 310 (turn
 *       301-310) and ends; A goes, B takes over at once: J3 resumes at 311
 *       (91 done), ends at 320; B goes, C: J5 resumes at 321 (91), ends at
 *       330. */
static void home_case(tc_t *t, bool mirror)
{
    gang_params gp = params(PRIO_FCFS, PACK_FIRSTFIT, 3, 10, 1, true);
    tc_init(t, 4, 1024, &gp);
    gang_set_mirror_back(t->g, mirror);
    tc_job(t, 1, 0, 2, 100);
    tc_job(t, 2, 0, 2, 100);
    tc_job(t, 3, 0, 2, 100);
    tc_job(t, 4, 12, 2, 50);
    tc_job(t, 5, 12, 2, 100);
}

static void home_expect(tc_t *t)
{
    EXPECT_JOB(t, 1, 0, 310);
    EXPECT_JOB(t, 2, 0, 155);
    EXPECT_JOB(t, 3, 10, 320);
    EXPECT_JOB(t, 4, 20, 92);
    EXPECT_JOB(t, 5, 20, 330);
    ck_assert_near(tc_cpu_busy(t), 2 * (4 * 100 + 50), 1e-9);
    expect_drained(t, 5);
}

START_TEST(test_placed_job_keeps_moved_job_out)
{
    tc_t t;
    home_case(&t, false);
    probe_t *p15 = tc_probe(&t, 15), *p25 = tc_probe(&t, 25), *p35 = tc_probe(&t, 35);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_LAYOUT(p15, "1 1 4 4 | >3 3 2 2 | 5 5 . .");
    EXPECT_LAYOUT(p25, "1 1 . . | 3 3 2 2 | >5 5 4 4");
    EXPECT_LAYOUT(p35, ">1 1 4 4 | 3 3 2 2 | 5 5 . .");
    home_expect(&t);
    tc_free(&t);
}
END_TEST

/* The same case with the slots visited from the last to the first when
 * jobs move back (gang_set_mirror_back): the same job times. Before the
 * rule, this order brought J4 back at 30 and the plain order J2. */
START_TEST(test_placed_job_keeps_moved_job_out_mirrored)
{
    tc_t t;
    home_case(&t, true);
    probe_t *p35 = tc_probe(&t, 35);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_LAYOUT(p35, ">1 1 4 4 | 3 3 2 2 | 5 5 . .");
    home_expect(&t);
    tc_free(&t);
}
END_TEST

/* pcs_first_start = yes: a first start costs the PCS too, and the job
 * computes pcs seconds later (MODEL.md); a zero-length job likewise ends
 * pcs seconds after its start. 1 PE, PCS 1, quantum 10, FCFS.
 * J1 (0, 0 s, 1 PE), J2 (0, 5 s, 1 PE).
 *   MPL 1: 0 J1 starts (PCS charged: pcs_count 1) and ends at 1. J2 waits
 *          (no free PE). 1: J2 starts, charged: computes [2, 7). pcs 2.
 *   MPL 2: 0 J1 -> slot A, starts (pcs 1); J2 -> new slot B, waits for
 *          its turn. 1: J1 ends; A goes, B takes over at once: J2's first
 *          start, charged (pcs 2), computes [2, 7).
 * Before: J1 ended at 0 (PCS counted but not paid) and J2 ran [0, 6) at
 * MPL 1 ([0, 6) at MPL 2 too). */
static void first_start_zero(int mpl)
{
    tc_t t;
    gang_params gp = params(PRIO_FCFS, PACK_FIRSTFIT, mpl, 10, 1, true);
    gp.pcs_first_start = true;
    tc_init(&t, 1, 1024, &gp);
    tc_job(&t, 1, 0, 1, 0);
    tc_job(&t, 2, 0, 1, 5);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_JOB(&t, 1, 0, 1);
    EXPECT_JOB(&t, 2, 1, 7);
    ck_assert_uint_eq(gang_pcs_count(t.g), 2);
    ck_assert_near(tc_cpu_busy(&t), 5, 1e-9);
    expect_drained(&t, 2);
    tc_free(&t);
}

START_TEST(test_pcs_first_start_zero_length)
{
    first_start_zero(1);
    first_start_zero(2);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("gang_home");
    TCase *tc = tcase_create("hand");
    tcase_add_test(tc, test_placed_job_keeps_moved_job_out);
    tcase_add_test(tc, test_placed_job_keeps_moved_job_out_mirrored);
    tcase_add_test(tc, test_pcs_first_start_zero_length);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
