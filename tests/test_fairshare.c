/* tests/test_fairshare.c: the MULTIFACTOR order and the per-user limits
 * (issue 35 item 5; sched/multifactor.h, sched/limits.h,
 * docs/SCHEDULING.md "MULTIFACTOR" and "Per-user limits"), against
 * numbers worked out by hand in the comments:
 *   - the factors, the usage decay and the order of four jobs of two users
 *     at two instants (the order flips as usage decays and moves);
 *   - through the scheduler: fair share decides who starts first;
 *   - max_running_per_user and max_cores_per_user hold back a user's next
 *     job (its start by hand, its reason bits), without blocking another
 *     user's later job even under strict order;
 *   - under EASY and CONSERVATIVE a held job gets no reservation, so a
 *     later job of another user backfills where it could not otherwise.
 * Every scheduler action is checked by the fixture's invariants
 * (gang_check, gang_check_placement: a held job is not a candidate). */
#include "tests/fixture_backfill.h"

#include "sched/limits.h"
#include "sched/multifactor.h"

#include <math.h>

static sched_job_info info(long id, long user, int width, double submit, double est)
{
    return (sched_job_info){.id = id, .order = id, .threads = width, .width = width,
                            .submit = submit, .estimate = est, .requested = -1,
                            .user = user, .group = 100 + user};
}

/* Weights w_age 100, w_size 10, w_fairshare 1000, w_wait 50; max_age
 * 1000 s; half-life 100 s; 8 cores. Users A = 1 and B = 2.
 *   J1 (A, 4 cores) is submitted and starts at 0, ends at 100.
 *   J2 (A, 2 cores, estimate 100) and J3 (B, 2 cores, estimate 400) are
 *   submitted at 50; J4 (B, 8 cores, estimate 50) at 150.
 * Usage (c = h / ln 2 = 144.2695 core-s per core): A is charged 4 cores
 * from 0 to 100: U_A(100) = 4 c (1 - 2^-1) = 2c = 288.539; at 200 it has
 * halved: U_A(200) = c = 144.2695. B has none: the total is A's. N = 2
 * accounts, S = 1/2: F_A = 2^(-(U_A/U) / S) = 2^(-1 x 2) = 0.25, F_B = 1.
 * At now = 200:
 *   J2: wait 150: age 150/1000 = 0.15, size 2/8 = 0.25, F 0.25,
 *       wait factor 150 / (150 + 100) = 0.6:
 *       P = 15 + 2.5 + 250 + 30 = 297.5
 *   J3: age 0.15, size 0.25, F 1, wait 150/550 = 0.272727:
 *       P = 15 + 2.5 + 1000 + 13.636364 = 1031.136364
 *   J4: wait 50: age 0.05, size 1, F 1, wait 50/100 = 0.5:
 *       P = 5 + 10 + 1000 + 25 = 1040
 *   order J4, J3, J2.
 * J4 starts at 200 (B: 8 cores). At now = 300: U_A = c/2 (one more
 * half-life), U_B = 8 c (1 - 2^-1) = 4c, total 4.5 c: A's share 1/9, B's
 * 8/9. F_A = 2^(-2/9) = 0.857244, F_B = 2^(-16/9) = 0.291632.
 *   J2: wait 250: age 0.25, size 0.25, wait 250/350 = 0.714286:
 *       P = 25 + 2.5 + 857.244 + 35.714 = 920.458
 *   J3: age 0.25, size 0.25, wait 250/650 = 0.384615:
 *       P = 25 + 2.5 + 291.632 + 19.231 = 338.363
 *   order J2, J3: A's old usage has decayed below B's new usage. */
START_TEST(test_keys_by_hand)
{
    sched_mf_params p = {.w_age = 100, .w_size = 10, .w_fairshare = 1000, .w_wait = 50,
                         .max_age = 1000, .half_life = 100, .cores = 8};
    void *s = sched_mf_create(&p);
    const sched_order_ops *o = &sched_multifactor_ops;
    ck_assert(o->flags & SCHED_ORDER_HOOKS);
    ck_assert(o->flags & SCHED_ORDER_TIME_DEPENDENT);
    ck_assert_ptr_eq(t_order("MULTIFACTOR"), o);
    sched_job_info j1 = info(1, 1, 4, 0, 100), j2 = info(2, 1, 2, 50, 100),
                   j3 = info(3, 2, 2, 50, 400), j4 = info(4, 2, 8, 150, 50);
    o->on_submit(s, &j1, 0);
    o->on_start(s, &j1, 0);
    o->on_submit(s, &j2, 50);
    o->on_submit(s, &j3, 50);
    const double c = 100 / log(2);
    ck_assert_double_eq_tol(sched_mf_usage(s, 1, 50), 4 * c * (1 - pow(2, -0.5)), 1e-9);
    o->on_end(s, &j1, 100);
    o->on_submit(s, &j4, 150);
    ck_assert_double_eq_tol(sched_mf_usage(s, 1, 100), 288.539008, 1e-6);
    ck_assert_double_eq_tol(sched_mf_usage(s, 1, 200), 144.269504, 1e-6);
    ck_assert_double_eq(sched_mf_usage(s, 2, 200), 0);
    ck_assert_double_eq_tol(sched_mf_usage_total(s, 200), 144.269504, 1e-6);
    double a, z, f, w;
    sched_mf_factors(s, &j2, 200, &a, &z, &f, &w);
    ck_assert_double_eq_tol(a, 0.15, 1e-12);
    ck_assert_double_eq_tol(z, 0.25, 1e-12);
    ck_assert_double_eq_tol(f, 0.25, 1e-12);
    ck_assert_double_eq_tol(w, 0.6, 1e-12);
    ck_assert_double_eq_tol(o->key(s, &j2, 200), -297.5, 1e-9);
    ck_assert_double_eq_tol(o->key(s, &j3, 200), -1031.136364, 1e-6);
    ck_assert_double_eq_tol(o->key(s, &j4, 200), -1040, 1e-9);
    o->on_start(s, &j4, 200);
    sched_mf_factors(s, &j2, 300, NULL, NULL, &f, NULL);
    ck_assert_double_eq_tol(f, 0.857244, 1e-6);
    sched_mf_factors(s, &j3, 300, NULL, NULL, &f, NULL);
    ck_assert_double_eq_tol(f, 0.291632, 1e-6);
    ck_assert_double_eq_tol(o->key(s, &j2, 300), -920.458, 1e-3);
    ck_assert_double_eq_tol(o->key(s, &j3, 300), -338.363, 1e-3);
    /* The age factor stops at max_age: at 2000, J2 has waited 1950 s. */
    sched_mf_factors(s, &j2, 2000, &a, NULL, NULL, NULL);
    ck_assert_double_eq(a, 1);
    o->destroy(s);

    /* By group (J1's group 101, J3's 102), no decay (half-life 0): A's
     * group is charged 4 cores x 100 s = 400 core-s and keeps them. */
    p.by_group = true;
    p.half_life = 0;
    s = sched_mf_create(&p);
    o->on_submit(s, &j1, 0);
    o->on_start(s, &j1, 0);
    o->on_submit(s, &j3, 50);
    o->on_end(s, &j1, 100);
    ck_assert_double_eq_tol(sched_mf_usage(s, 101, 5000), 400, 1e-9);
    ck_assert_double_eq(sched_mf_usage(s, 1, 5000), 0); /* user 1 is no account */
    o->destroy(s);
}
END_TEST

/* J<id> of user u: as tc_job_est, estimate exact. */
static void job_of(tc_t *t, long id, long user, double submit, int threads, double cpu)
{
    job_t *j = job_create(&t->cl, id, id, submit, threads, cpu, 1);
    j->user = user;
    j->group = user;
    if (id > t->njobs)
        t->njobs = (int)id;
    ev_once(&t->sim, submit, submit_cb, j);
}

/* Fair share through the scheduler: 1 PE, MPL 1, strict order, fair share
 * only (w_fairshare 1, no decay). J1 (user 1, 100 s) runs [0, 100); J2
 * (user 1, 10 s, submitted 1) and J3 (user 2, 10 s, at 2) wait. At 100:
 * U_1 = 100 core-s, U_2 = 0, N = 2: F_1 = 2^(-1 x 2) = 0.25, F_2 = 1, so
 * J3 goes first: [100, 110); then J2 [110, 120). FCFS: J2 [100, 110), J3
 * [110, 120). */
static void fair_run(sched_priority prio, double s2, double s3)
{
    tc_t t;
    gang_params gp = params(prio, BF_NONE, 1, true);
    gp.mf = (sched_mf_params){.w_fairshare = 1, .max_age = 1, .half_life = 0};
    tc_init(&t, 1, &gp);
    job_of(&t, 1, 1, 0, 1, 100);
    job_of(&t, 2, 1, 1, 1, 10);
    job_of(&t, 3, 2, 2, 1, 10);
    tc_run(&t);
    EXPECT_JOB(&t, 1, 0, 100);
    EXPECT_JOB(&t, 2, s2, s2 + 10);
    EXPECT_JOB(&t, 3, s3, s3 + 10);
    tc_free(&t);
}

START_TEST(test_fairshare_run)
{
    fair_run(t_order("MULTIFACTOR"), 110, 100);
    fair_run(PRIO_FCFS, 100, 110);
}
END_TEST

/* max_running_per_user = 1 on 4 PEs, MPL 1, FCFS, strict order, no
 * backfilling:
 *   J1 (user 1, 1 PE, 100 s, at 0)  [0, 100)
 *   J2 (user 1, 1 PE, 50 s, at 0)   held (user 1 runs J1) until J1 ends:
 *                                   [100, 150), reason running
 *   J3 (user 2, 1 PE, 30 s, at 10)  [10, 40): the held J2 before it does
 *                                   not block it, strict order or not
 *   J4 (user 2, 1 PE, 10 s, at 20)  3 PEs free but user 2 runs J3: held
 *                                   until 40: [40, 50), reason running
 * Without the limit: J2 [0, 50), J3 [10, 40), J4 [20, 30) (one PE free at
 * 20), nobody held. */
static void running_run(int limit, const double want[5][2], unsigned held2)
{
    tc_t t;
    gang_params gp = params(PRIO_FCFS, BF_NONE, 1, true);
    gp.max_running_per_user = limit;
    tc_init(&t, 4, &gp);
    job_of(&t, 1, 1, 0, 1, 100);
    job_of(&t, 2, 1, 0, 1, 50);
    job_of(&t, 3, 2, 10, 1, 30);
    job_of(&t, 4, 2, 20, 1, 10);
    tc_run(&t);
    for (int id = 1; id <= 4; id++)
        EXPECT_JOB(&t, id, want[id][0], want[id][1]);
    ck_assert_uint_eq(t.limit_held[1], 0);
    ck_assert_uint_eq(t.limit_held[2], held2);
    ck_assert_uint_eq(t.limit_held[3], 0);
    ck_assert_uint_eq(t.limit_held[4], held2);
    ck_assert_int_eq(bf_limit_delayed(bf_of(t.g)), held2 ? 2 : 0);
    tc_free(&t);
}

START_TEST(test_running_limit)
{
    const double lim[5][2] = {{0}, {0, 100}, {100, 150}, {10, 40}, {40, 50}};
    const double free_[5][2] = {{0}, {0, 100}, {0, 50}, {10, 40}, {20, 30}};
    running_run(1, lim, SCHED_LIMIT_RUNNING);
    running_run(0, free_, 0);
    /* A limit of 2 running jobs holds nobody here (2 jobs per user). */
    running_run(2, free_, 0);
}
END_TEST

/* max_cores_per_user = 2 on 4 PEs, MPL 1, FCFS, strict order:
 *   J1 (user 3, 2 PEs, 100 s, at 0)  [0, 100)
 *   J2 (user 3, 1 PE, 10 s, at 0)    2 + 1 > 2 cores: held until J1 ends:
 *                                    [100, 110), reason cores
 *   J3 (user 4, 2 PEs, 10 s, at 5)   [5, 15) on the 2 PEs J2 leaves free
 * Without the limit: J2 [0, 10), J3 at 5 finds 1 PE free and waits for J2
 * (strict order, FCFS): [10, 20). */
START_TEST(test_cores_limit)
{
    for (int on = 0; on < 2; on++) {
        tc_t t;
        gang_params gp = params(PRIO_FCFS, BF_NONE, 1, true);
        gp.max_cores_per_user = on ? 2 : 0;
        tc_init(&t, 4, &gp);
        job_of(&t, 1, 3, 0, 2, 100);
        job_of(&t, 2, 3, 0, 1, 10);
        job_of(&t, 3, 4, 5, 2, 10);
        tc_run(&t);
        EXPECT_JOB(&t, 1, 0, 100);
        if (on) {
            EXPECT_JOB(&t, 2, 100, 110);
            EXPECT_JOB(&t, 3, 5, 15);
            ck_assert_uint_eq(t.limit_held[2], SCHED_LIMIT_CORES);
            ck_assert_str_eq(sched_limits_reason(t.limit_held[2]), "limit:cores_per_user");
        } else {
            EXPECT_JOB(&t, 2, 0, 10);
            EXPECT_JOB(&t, 3, 10, 20);
            ck_assert_uint_eq(t.limit_held[2], 0);
        }
        ck_assert_uint_eq(t.limit_held[3], 0);
        tc_free(&t);
    }
    ck_assert_str_eq(sched_limits_reason(SCHED_LIMIT_RUNNING), "limit:running_per_user");
    ck_assert_str_eq(sched_limits_reason(SCHED_LIMIT_RUNNING | SCHED_LIMIT_CORES),
                     "limit:running_per_user+cores_per_user");
    ck_assert_ptr_null(sched_limits_reason(0));
}
END_TEST

/* A held job gets no reservation (EASY and CONSERVATIVE), 4 PEs, MPL 1,
 * FCFS, max_running_per_user = 1, exact estimates:
 *   J1 (user 1, 2 PEs, 100 s, at 0)  [0, 100)
 *   J2 (user 1, 4 PEs, 10 s, at 1)   held until 100; then it needs all 4
 *                                    PEs, J3 holds 2 until 202: reserved
 *                                    at 202 (its first reservation),
 *                                    [202, 212)
 *   J3 (user 2, 2 PEs, 200 s, at 2)  fits now and no reservation is in its
 *                                    way: [2, 202)
 * Without the limit J2 is reserved at 100 (when J1 ends), J3 (ending at
 * 202 > 100, no spare cores at 100) may not backfill: J2 [100, 110), J3
 * [110, 310). */
START_TEST(test_held_no_reservation)
{
    const char *bfs[] = {"EASY", "CONSERVATIVE"};
    for (int b = 0; b < 2; b++)
        for (int on = 0; on < 2; on++) {
            tc_t t;
            gang_params gp = params(PRIO_FCFS, t_backfill(bfs[b]), 1, true);
            gp.max_running_per_user = on;
            tc_init(&t, 4, &gp);
            job_of(&t, 1, 1, 0, 2, 100);
            job_of(&t, 2, 1, 1, 4, 10);
            job_of(&t, 3, 2, 2, 2, 200);
            tc_run(&t);
            EXPECT_JOB(&t, 1, 0, 100);
            if (on) {
                EXPECT_JOB(&t, 2, 202, 212);
                EXPECT_JOB(&t, 3, 2, 202);
                ck_assert_double_eq(t.first_res[2], 202);
                ck_assert_uint_eq(t.limit_held[2], SCHED_LIMIT_RUNNING);
            } else {
                EXPECT_JOB(&t, 2, 100, 110);
                EXPECT_JOB(&t, 3, 110, 310);
                ck_assert_double_eq(t.first_res[2], 100);
            }
            ck_assert_uint_eq(t.limit_held[3], 0);
            tc_free(&t);
        }
}
END_TEST

/* The order hooks (sched/order.h, SCHED_ORDER_HOOKS) through the
 * scheduler: 2 PEs, FCFS-like keys (0), no backfilling. J1 (2 PEs, 10 s,
 * at 0) [0, 10); J2 (1 PE, 5 s, at 3) waits for it: [10, 15); J3 (1 PE,
 * 5 s, at 3) [10, 15). Told: on_submit of J1 at 0, of J2 and J3 at 3 (in
 * trace order), on_start J1 at 0, J2 and J3 at 10, on_end J1 at 10, J2
 * and J3 at 15: 9 calls in that order. The same table without the flag
 * is never called (the host reads the members only with the flag). */
static char hook_log[256];
static void hk(char c, const sched_job_info *j, double now)
{
    size_t n = strlen(hook_log);
    snprintf(hook_log + n, sizeof hook_log - n, "%c%ld@%g ", c, j->id, now);
}
static double hk_key(void *s, const sched_job_info *j, double now)
{
    (void)s, (void)j, (void)now;
    return 0;
}
static void hk_submit(void *s, const sched_job_info *j, double now) { (void)s, hk('s', j, now); }
static void hk_start(void *s, const sched_job_info *j, double now) { (void)s, hk('b', j, now); }
static void hk_end(void *s, const sched_job_info *j, double now) { (void)s, hk('e', j, now); }

START_TEST(test_order_hooks)
{
    for (int flag = 1; flag >= 0; flag--) {
        sched_order_ops o = {.key = hk_key, .flags = flag ? SCHED_ORDER_HOOKS : 0u,
                             .bucket = SCHED_BUCKET_NONE, .on_submit = hk_submit,
                             .on_start = hk_start, .on_end = hk_end};
        hook_log[0] = '\0';
        tc_t t;
        gang_params gp = params(&o, BF_NONE, 1, true);
        tc_init(&t, 2, &gp);
        job_of(&t, 1, 1, 0, 2, 10);
        job_of(&t, 2, 1, 3, 1, 5);
        job_of(&t, 3, 2, 3, 1, 5);
        tc_run(&t);
        EXPECT_JOB(&t, 2, 10, 15);
        EXPECT_JOB(&t, 3, 10, 15);
        ck_assert_str_eq(hook_log, flag ? "s1@0 b1@0 s2@3 s3@3 e1@10 b2@10 b3@10 e2@15 e3@15 "
                                        : "");
        tc_free(&t);
    }
}
END_TEST

/* Random traces (a fixed LCG): 150 jobs of 5 users, 1 to 8 threads, run
 * times 1 .. 400 s, estimates 1 to 3 times the run time, on 16 PEs; every
 * backfilling (NONE strict and not, EASY, CONSERVATIVE) x MPL 1, 2 x
 * FCFS, MULTIFACTOR, with max_running_per_user = 2 and max_cores_per_user
 * = 8. The fixture checks the scheduler's invariants after every action
 * (a held job is no candidate for gang_check_placement); here, from when
 * each job got its cores (placed) to its end: at every placement no user
 * has more than 2 placed jobs or 8 cores, every job ends, and the limits
 * did hold jobs back. Each pass that placed a job of a user whose later
 * job had been reserved runs again (sched/backfill.c, bf_pass): without
 * that, gang_check_placement finds a job that fits held back by the
 * reservation of a job held since. Knobs for a longer soak: FS_SEED=N
 * shifts the seeds, FS_PRIO=NAME replaces MULTIFACTOR (e.g. WFP3),
 * FAIRSHARE_VERBOSE=1 names each run. */
static unsigned long lcg(unsigned long *x)
{
    *x = *x * 6364136223846793005ul + 1442695040888963407ul;
    return *x >> 33;
}

START_TEST(test_random_limits_hold)
{
    const char *bfs[] = {"NONE", "NONE", "EASY", "CONSERVATIVE"};
    for (int b = 0; b < 4; b++)
        for (int mpl = 1; mpl <= 2; mpl++)
            for (int mf = 0; mf < 2; mf++) {
                tc_t t;
                gang_params gp = params(mf ? t_order("MULTIFACTOR") : PRIO_FCFS,
                                        t_backfill(bfs[b]), mpl, b == 0);
                gp.mf = (sched_mf_params){.w_age = 10, .w_size = 1, .w_fairshare = 100,
                                          .w_wait = 5, .max_age = 3600, .half_life = 600};
                gp.max_running_per_user = 2;
                gp.max_cores_per_user = 8;
                if (getenv("FS_PRIO") && mf)
                    gp.priority = t_order(getenv("FS_PRIO"));
                tc_init(&t, 16, &gp);
                unsigned long x = 12345u + (unsigned long)(b * 4 + mpl * 2 + mf) +
                                  (getenv("FS_SEED") ? strtoul(getenv("FS_SEED"), NULL, 10) : 0);
                long user[151];
                int width[151];
                double sub = 0;
                for (int id = 1; id <= 150; id++) {
                    sub += (double)(lcg(&x) % 40);
                    width[id] = 1 + (int)(lcg(&x) % 8);
                    user[id] = (long)(lcg(&x) % 5);
                    double run = 1 + (double)(lcg(&x) % 400);
                    job_t *j = job_create(&t.cl, id, id, sub, width[id], run, 1);
                    j->estimate = run * (double)(1 + lcg(&x) % 3);
                    j->user = user[id];
                    t.njobs = id;
                    ev_once(&t.sim, sub, submit_cb, j);
                }
                if (getenv("FAIRSHARE_VERBOSE"))
                    fprintf(stderr, "%s%s MPL %d %s\n", bfs[b], b == 0 ? " strict" : "", mpl,
                            mf ? "MULTIFACTOR" : "FCFS");
                tc_run(&t);
                for (int i = 1; i <= 150; i++) {
                    int running = 0, cores = 0;
                    for (int k = 1; k <= 150; k++)
                        if (user[k] == user[i] && t.placed[k] <= t.placed[i] &&
                            t.end[k] > t.placed[i]) {
                            running++;
                            cores += width[k];
                        }
                    ck_assert_msg(running <= 2 && cores <= 8,
                                  "%s MPL %d %s: at %g user %ld has %d jobs, %d cores",
                                  bfs[b], mpl, mf ? "MULTIFACTOR" : "FCFS", t.placed[i],
                                  user[i], running, cores);
                }
                ck_assert_int_gt(bf_limit_delayed(bf_of(t.g)), 0);
                tc_free(&t);
            }
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("fairshare");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_keys_by_hand);
    tcase_add_test(tc, test_fairshare_run);
    tcase_add_test(tc, test_running_limit);
    tcase_add_test(tc, test_cores_limit);
    tcase_add_test(tc, test_held_no_reservation);
    tcase_add_test(tc, test_random_limits_hold);
    tcase_add_test(tc, test_order_hooks);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
