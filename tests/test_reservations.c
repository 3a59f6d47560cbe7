/* tests/test_reservations.c: conservative backfilling's reservation depth
 * (scheduler.reservations, issue 35 item 2), on hand-worked schedules.
 *
 * 4 PEs, MPL 1, FCFS, exact estimates. J1: 3 threads, 100 s, at 0 (1 core
 * stays free). At 1: J2 (3 threads, 50 s), J3 (4 threads, 50 s), J4 (1
 * thread, 160 s), in that order.
 *   all (and 2): J2 cannot start (1 free): reserved [100, 150), leaving 1
 *     core; J3 reserved [150, 200); J4 would need 1 core over [1, 161),
 *     which J3's reservation takes from 150: reserved at 200. Runs: J1 0-100,
 *     J2 100-150, J3 150-200, J4 200-360.
 *   1: only J2 holds a reservation; J3 gets none (it cannot start now); J4
 *     fits now beside J2's for its whole 160 s (1 core over [1, 161), J2
 *     leaves 1): J4 1-161. At 150 J2 ends, J3 needs 4 with J4 until 161:
 *     J3 161-211. This is EASY's schedule: shadow time 100, extra = 4 - 3
 *     = 1 core, which J4 takes (EASY run alongside as the check).
 * Then depth 2 with a fifth job that only the third reservation would
 * stop: J5 (1 thread, 300 s, at 1) after J4.
 *   all: J5 needs 1 core over 300 s; J3's [150, 200) takes every core,
 *     and J4's reservation [200, 360) leaves 3: reserved at 200, J5
 *     200-500.
 *   2: J2 and J3 reserved; J4 and J5 get none, and neither fits now beside
 *     J3's [150, 200) for its whole estimate: both wait. At 200 (J3 ends)
 *     J4 and J5 start: J4 200-360, J5 200-500, the same as all here; the
 *     difference shows in the reservation count, not the schedule.
 */
#include "tests/fixture_components.h"
#include "tests/fixture_backfill.h"

static void run4(tc_t *t, sched_backfill bf, int depth, bool j5)
{
    gang_params gp = params(PRIO_FCFS, bf, 1, true);
    gp.reservations = depth;
    tc_init(t, 4, &gp);
    tc_job(t, 1, 0, 3, 100);
    tc_job(t, 2, 1, 3, 50);
    tc_job(t, 3, 1, 4, 50);
    tc_job(t, 4, 1, 1, 160);
    if (j5)
        tc_job(t, 5, 1, 1, 300);
    tc_run(t);
}

START_TEST(test_depth_all)
{
    tc_t t;
    run4(&t, BF_CONSERVATIVE, 0, false);
    EXPECT_JOB(&t, 1, 0, 100);
    EXPECT_JOB(&t, 2, 100, 150);
    EXPECT_JOB(&t, 3, 150, 200);
    EXPECT_JOB(&t, 4, 200, 360);
    tc_free(&t);
}
END_TEST

START_TEST(test_depth_two_is_all_here)
{
    tc_t t;
    run4(&t, BF_CONSERVATIVE, 2, false);
    EXPECT_JOB(&t, 3, 150, 200);
    EXPECT_JOB(&t, 4, 200, 360);
    tc_free(&t);
}
END_TEST

START_TEST(test_depth_one_is_easy)
{
    tc_t t;
    run4(&t, BF_CONSERVATIVE, 1, false);
    EXPECT_JOB(&t, 1, 0, 100);
    EXPECT_JOB(&t, 2, 100, 150);
    EXPECT_JOB(&t, 4, 1, 161);
    EXPECT_JOB(&t, 3, 161, 211);
    tc_free(&t);
    run4(&t, BF_EASY, 0, false);
    EXPECT_JOB(&t, 2, 100, 150);
    EXPECT_JOB(&t, 4, 1, 161);
    EXPECT_JOB(&t, 3, 161, 211);
    tc_free(&t);
}
END_TEST

START_TEST(test_depth_two_five_jobs)
{
    tc_t t;
    run4(&t, BF_CONSERVATIVE, 2, true);
    EXPECT_JOB(&t, 3, 150, 200);
    EXPECT_JOB(&t, 4, 200, 360);
    EXPECT_JOB(&t, 5, 200, 500);
    tc_free(&t);
    run4(&t, BF_CONSERVATIVE, 0, true);
    EXPECT_JOB(&t, 4, 200, 360);
    EXPECT_JOB(&t, 5, 200, 500);
    tc_free(&t);
    /* depth 1: J4 takes the free core at 1 (as above); J5 does not fit
     * now (no core free) and gets no reservation. At 100 J2 starts (3
     * free), J3 becomes the one reservation: 4 cores once J2 (150) and J4
     * (161) are done, [161, 211). At 150 J5 would need 1 core over
     * [150, 450), which J3's reservation takes from 161: it waits for J3,
     * J5 211-511. (EASY: head J3 at 150, shadow 161, extra 0: the same.) */
    run4(&t, BF_CONSERVATIVE, 1, true);
    EXPECT_JOB(&t, 4, 1, 161);
    EXPECT_JOB(&t, 3, 161, 211);
    EXPECT_JOB(&t, 5, 211, 511);
    tc_free(&t);
    run4(&t, BF_EASY, 0, true);
    EXPECT_JOB(&t, 4, 1, 161);
    EXPECT_JOB(&t, 3, 161, 211);
    EXPECT_JOB(&t, 5, 211, 511);
    tc_free(&t);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("reservations");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_depth_all);
    tcase_add_test(tc, test_depth_two_is_all_here);
    tcase_add_test(tc, test_depth_one_is_easy);
    tcase_add_test(tc, test_depth_two_five_jobs);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
