/* tests/test_gang_stop.c: a SIGINT/SIGTERM (ev_stop_flag) inside the
 * placement pass (issue 32 item 5). The pass polls the kernel (ev_poll,
 * core/ev.h) before each job it tries, counting nslots + the job's width
 * work units, and stops at that job boundary once the flag is set; the pass
 * is then due again, so the matrix is consistent and resuming the run
 * places the rest. Harness: tests/fixture_gang.h (every scheduler action
 * checked: gang_check, and gang_check_placement, which holds because a
 * pass is due).
 *
 * 4 PEs, MPL 0, FCFS, FIRSTFIT, quantum 10, PCS 0: J1..J10 of 4 threads,
 * 20 s each, all at t = 0; each job fills the machine, so the pass opens
 * one slot per job. The poll counter starts 10 units below EV_POLL_WORK
 * and on_poll sets the stop flag: J1 counts 0 + 4 (6 left), J2 1 + 4
 * (1 left), J3 2 + 4 reaches the threshold: on_poll runs, ev_poll returns
 * true, J3 is not placed. So after the stop: 2 slots (J1, J2), 8 queued,
 * J1 running, and the clock still at 0. With the flag cleared the run goes
 * on: the pending pass places J3..J10 at t = 0 (10 slots at t = 0.5), and the ten
 * jobs share the machine in turn: J10's 20 s end at 10 x 20 = 200 s, the
 * last of them (round robin of quanta, no PCS). */
#include "tests/fixture_components.h"
#include "tests/fixture_gang.h"

static int polls;

static void stop_at_poll(sim_t *sim, void *ctx)
{
    (void)sim;
    (void)ctx;
    polls++;
    ev_stop_flag = 1;
}

START_TEST(test_pass_stops_at_a_job_boundary)
{
    tc_t t;
    gang_params gp = params(PRIO_FCFS, PACK_FIRSTFIT, 0, 10, 0, true);
    tc_init(&t, 4, 1024, &gp);
    for (long id = 1; id <= 10; id++)
        tc_job(&t, id, 0, 4, 20);
    t.sim.on_poll = stop_at_poll;
    t.sim.poll_work = EV_POLL_WORK - 10;
    polls = 0;
    ev_run_result rr = ev_run(&t.sim, INFINITY);
    ev_stop_flag = 0;
    t.sim.on_poll = NULL;
    ck_assert_int_eq(rr, EV_RUN_STOPPED);
    ck_assert_msg(t.bad == NULL, "gang_check: %s", t.bad ? t.bad : "");
    ck_assert_int_eq(polls, 1);
    ck_assert_double_eq(t.sim.now, 0);
    ck_assert_int_eq(gang_slots(t.g), 2);
    ck_assert_int_eq(gang_placed(t.g), 2);
    ck_assert_int_eq(gang_queued(t.g), 8);
    ck_assert_int_eq(gang_running(t.g), 1);
    ck_assert_ptr_eq(gang_slot_job(t.g, 0, 0), t.job[1]);
    ck_assert_ptr_eq(gang_slot_job(t.g, 1, 0), t.job[2]);
    ck_assert_ptr_null(gang_check(t.g));
    ck_assert_ptr_null(gang_check_placement(t.g)); /* a pass is due */
    probe_t *p0 = tc_probe(&t, 0.5); /* after the pass of t = 0 */
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    ck_assert_int_eq(p0->slots, 10);
    ck_assert_int_eq(p0->queued, 0);
    ck_assert_int_eq(p0->placed, 10);
    for (long id = 1; id <= 10; id++)
        ck_assert_double_eq(t.start[id], 10 * (double)(id - 1));
    EXPECT_JOB(&t, 10, 90, 200);
    expect_drained(&t, 10);
    tc_free(&t);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("gang_stop");
    TCase *tc = tcase_create("hand");
    tcase_add_test(tc, test_pass_stops_at_a_job_boundary);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
