/* tests/test_reserve_api.c: a reservation policy written against the
 * public sched/reserve.h only (issue 34), registered as a plugin's would
 * be: what it sees (the queue in order, the slots, the profile of future
 * free PEs) and what it does (sched_host_place), against hand-worked
 * numbers. */
#include "core/registry_host.h"
#include "tests/fixture_components.h"
#include "tests/fixture_backfill.h"

/* ---- the policy: jobs in queue order while they fit (strict), recording
 * what it saw ---- */

typedef struct seen {
    int passes, placed, ended;
    double t10[4];   /* the profile at now = 10 */
    int f10[4], n10, np10, slots10, free10, cores, mpl;
    long order10[4];  /* the queue's ids at 10 */
    double next10, wall10;   /* the next expected end, wall(20) at 10 */
    int unopened10;
    double waiting_exp10;    /* sched_job_expected_end of J2, waiting at 10 */
    double exp_end[4], end[4], start[4];   /* by job id, at on_placed / on_ended */
    size_t q10;
} seen;
static seen S;

static void *st_create(const pnrsim_ctx *ctx)
{
    (void)ctx;
    memset(&S, 0, sizeof S);
    return &S;
}

static void st_pass(void *state, sched_host *h, sched_job *const *q, size_t n, double now)
{
    seen *s = state;
    s->passes++;
    if (now == 10) {
        s->cores = sched_host_cores(h);
        s->mpl = sched_host_mpl(h);
        s->slots10 = sched_host_slots(h);
        s->free10 = sched_host_slot_free(h, 0);
        s->np10 = sched_host_profiles(h, now);
        s->next10 = sched_host_next_end(h);
        s->wall10 = sched_host_wall(h, 20);
        s->unopened10 = sched_host_unopened(h);
        s->waiting_exp10 = n > 1 ? sched_job_expected_end(q[1]) : 0;
        const double *t;
        const int *f;
        s->n10 = sched_host_profile(h, 0, &t, &f);
        for (int i = 0; i < s->n10 && i < 4; i++) {
            s->t10[i] = t[i];
            s->f10[i] = f[i];
        }
        s->q10 = n;
        for (size_t i = 0; i < n && i < 4; i++) {
            sched_job_info info;
            sched_job_get(q[i], &info);
            s->order10[i] = info.id;
        }
    }
    for (size_t i = 0; i < n; i++)
        if (sched_job_waiting(q[i]) && !sched_host_place(h, q[i], -1, -1, true))
            break;
}

static long id_of(const sched_job *j)
{
    sched_job_info info;
    sched_job_get(j, &info);
    return info.id;
}

static void st_placed(void *state, sched_host *h, const sched_job *j, double now)
{
    (void)h, (void)now;
    seen *s = state;
    s->placed++;
    s->exp_end[id_of(j)] = sched_job_expected_end(j);
}

static void st_ended(void *state, sched_host *h, const sched_job *j)
{
    (void)h;
    seen *s = state;
    s->ended++;
    s->start[id_of(j)] = sched_job_start(j);
    s->end[id_of(j)] = sched_job_end(j);
}

static void st_destroy(void *state) { (void)state; }

static const sched_reserve_ops strict_ops = {
    .create = st_create, .destroy = st_destroy, .on_pass = st_pass,
    .on_placed = st_placed, .on_ended = st_ended,
};

static const sched_reserve_ops *strict_policy(void)
{
    components_init();
    pnrsim_registry_open(); /* as the loader does around an init */
    if (!pnrsim_find(PNRSIM_KIND_BACKFILL, "TEST_STRICT"))
        ck_assert_int_eq(pnrsim_register(pnrsim_registry_get(), PNRSIM_KIND_BACKFILL,
                                         "TEST_STRICT", "test", &strict_ops), PNRSIM_OK);
    return pnrsim_find(PNRSIM_KIND_BACKFILL, "TEST_STRICT")->ops;
}

/* 8 PEs, MPL 1, SJF. J1 (4 threads, 100 s) at 0; J2 (6, 50 s) and J3
 * (2, 20 s) at 10.
 *   0: J1 placed [0, 100).
 *   10: SJF order J3 (20) before J2 (50): the queue seen is J3, J2. J3
 *     fits (4 free): [10, 30); J2 (6) does not: stop. The profile at 10,
 *     before J3: J1 holds 4 PEs to its expected end 100: (10, 4 free),
 *     (100, 8 free); one slot open, 4 free.
 *   30: J3 ends; J2 (6) still does not fit (4 free).
 *   100: J1 ends: J2 [100, 150).
 * Passes: at 0, 10, 30, 100 (one per instant with an arrival or an end)
 * and 150 (J2's end, empty queue): 5. Placed 3, ended 3.
 * At 10, before J3 is placed: the next expected end is J1's, 100; 20 s of
 * work take 20 s at MPL 1; no slot may still be opened (MPL 1, one open).
 * Expected ends when placed (start + estimate, estimates exact): J1 100,
 * J3 30, J2 150; the ends are those, the starts 0, 10, 100. */
START_TEST(test_policy_sees_and_places)
{
    tc_t t;
    gang_params gp = params(PRIO_SJF, strict_policy(), 1, true);
    tc_init(&t, 8, &gp);
    tc_job(&t, 1, 0, 4, 100);
    tc_job(&t, 2, 10, 6, 50);
    tc_job(&t, 3, 10, 2, 20);
    tc_run(&t);
    EXPECT_JOB(&t, 1, 0, 100);
    EXPECT_JOB(&t, 3, 10, 30);
    EXPECT_JOB(&t, 2, 100, 150);
    ck_assert_int_eq(S.cores, 8);
    ck_assert_int_eq(S.mpl, 1);
    ck_assert_int_eq(S.slots10, 1);
    ck_assert_int_eq(S.free10, 4);
    ck_assert_int_eq((int)S.q10, 2);
    ck_assert_int_eq(S.order10[0], 3);
    ck_assert_int_eq(S.order10[1], 2);
    ck_assert_int_eq(S.np10, 1);
    ck_assert_int_eq(S.n10, 2);
    ck_assert_double_eq(S.t10[0], 10);
    ck_assert_int_eq(S.f10[0], 4);
    ck_assert_double_eq(S.t10[1], 100);
    ck_assert_int_eq(S.f10[1], 8);
    ck_assert_int_eq(S.passes, 5);
    ck_assert_int_eq(S.placed, 3);
    ck_assert_int_eq(S.ended, 3);
    ck_assert_double_eq(S.next10, 100);
    ck_assert_double_eq(S.wall10, 20);
    ck_assert_int_eq(S.unopened10, 0);
    ck_assert_double_eq(S.waiting_exp10, -1); /* J2 waits: no expected end yet */
    static const double st[] = {0, 0, 100, 10}, en[] = {0, 100, 150, 30};
    for (int id = 1; id <= 3; id++) {
        ck_assert_double_eq(S.exp_end[id], en[id]);
        ck_assert_double_eq(S.end[id], en[id]);
        ck_assert_double_eq(S.start[id], st[id]);
    }
    tc_free(&t);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("reserve_api");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_policy_sees_and_places);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
