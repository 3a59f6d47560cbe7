/* tests/test_plugin_wfp_age.c: the example queue order plugin
 * examples/plugins/wfp_age.c (issue 34), compiled into the test and
 * registered through its entry point as the loader would, after the
 * built-ins: its keys against hand arithmetic, its order against WFP3 at
 * exponent 3 and against a hand-worked order at exponent 1, and a
 * scenario through the scheduler where the exponent decides who starts. */
#include "core/registry_host.h"
#include "tests/fixture_components.h"
#include "tests/fixture_backfill.h"

#include "examples/plugins/wfp_age.c"

/* Register the plugin once (the built-ins first, as the loader does). */
static const sched_order_ops *plugin_order(void)
{
    components_init();
    pnrsim_registry_open(); /* as the loader does around an init */
    const pnrsim_component *c = pnrsim_find(PNRSIM_KIND_PRIORITY, "WFP_AGE");
    if (!c) {
        ck_assert_int_eq(pnrsim_plugin_init(pnrsim_registry_get(), PNRSIM_API_VERSION), 0);
        c = pnrsim_find(PNRSIM_KIND_PRIORITY, "WFP_AGE");
    }
    ck_assert_ptr_nonnull(c);
    return c->ops;
}

/* The context of a run whose [plugin.wfp_age] exponent is a. */
static double values[PNRSIM_MAX_KEYS];
static pnrsim_ctx ctx_with(double a)
{
    values[exponent_key] = a;
    return (pnrsim_ctx){.values = values, .seed = 1};
}

static job_t mkjob(long id, int threads, double submit, double estimate)
{
    job_t j;
    memset(&j, 0, sizeof j);
    j.id = j.order = id;
    j.threads = j.width = threads;
    j.submit = submit;
    j.estimate = estimate;
    j.requested = -1;
    return j;
}

START_TEST(test_registered)
{
    const sched_order_ops *o = plugin_order();
    ck_assert(o->flags & SCHED_ORDER_TIME_DEPENDENT);
    ck_assert_int_eq(o->bucket, SCHED_BUCKET_NONE);
    const pnrsim_key *k = pnrsim_key_at(exponent_key);
    ck_assert_str_eq(k->section, "plugin.wfp_age");
    ck_assert_str_eq(k->key, "exponent");
    ck_assert_double_eq(k->def, 3);
    ck_assert_double_eq(k->min, 0);
    ck_assert_double_eq(k->max, 10);
    /* Another API version is refused. */
    ck_assert_int_ne(pnrsim_plugin_init(pnrsim_registry_get(), PNRSIM_API_VERSION + 1), 0);
}
END_TEST

/* Keys by hand: key = -(w / max(e, 1))^a * n.
 *   n 4, submit 0, e 10, now 50: w/e = 5; a 3: -125 x 4 = -500; a 1: -5 x 4
 *   = -20; a 0: -1 x 4 = -4; a 2.5: -5^2.5 x 4 = -55.9017 x 4 = -223.607.
 *   n 1, submit 0, e 0.5 (counts as 1), now 2: w/e = 2; a 3: -8; a 2: -4. */
START_TEST(test_keys)
{
    const sched_order_ops *o = plugin_order();
    job_t j = mkjob(1, 4, 0, 10), k = mkjob(2, 1, 0, 0.5);
    const double a[] = {3, 1, 0, 2.5};
    const double want[] = {-500, -20, -4, -223.60679774997897};
    for (int i = 0; i < 4; i++) {
        pnrsim_ctx c = ctx_with(a[i]);
        void *s = o->create(&c);
        ck_assert_near(prio_key(o, s, &j, 50), want[i], 1e-9);
        o->destroy(s);
    }
    pnrsim_ctx c = ctx_with(3);
    void *s = o->create(&c);
    ck_assert_near(prio_key(o, s, &k, 2), -8, 1e-12);
    ck_assert_near(prio_key(o, s, &k, 2), prio_key(PRIO_WFP3, NULL, &k, 2), 1e-12);
    o->destroy(s);
    c = ctx_with(2);
    s = o->create(&c);
    ck_assert_near(prio_key(o, s, &k, 2), -4, 1e-12);
    o->destroy(s);
}
END_TEST

/* Exponent 3 orders a queue as the built-in WFP3 does, at every time:
 * the six waiting jobs of test_backfill.c's prio_case (submits 1..6,
 * threads 7, 5, 6, 6, 6, 8, estimates 30, 40, 20, 30, 50, 30) sorted at
 * 100, 120, 150, 180 and 1000. */
START_TEST(test_exponent3_is_wfp3)
{
    const sched_order_ops *o = plugin_order();
    job_t js[6] = {mkjob(2, 7, 1, 30), mkjob(3, 5, 1, 40), mkjob(4, 6, 3, 20),
                   mkjob(5, 6, 4, 30), mkjob(6, 6, 5, 50), mkjob(7, 8, 6, 30)};
    pnrsim_ctx c = ctx_with(3);
    void *s = o->create(&c);
    const double now[] = {100, 120, 150, 180, 1000};
    for (int t = 0; t < 5; t++) {
        job_t *a[6], *b[6];
        for (int i = 0; i < 6; i++)
            a[i] = b[i] = &js[i];
        prio_sort(a, 6, o, s, now[t]);
        prio_sort(b, 6, PRIO_WFP3, NULL, now[t]);
        for (int i = 0; i < 6; i++)
            ck_assert_int_eq(a[i]->id, b[i]->id);
    }
    /* At 100 (test_backfill.c's hand-worked WFP3): J4 first. */
    job_t *a[6];
    for (int i = 0; i < 6; i++)
        a[i] = &js[i];
    prio_sort(a, 6, o, s, 100);
    ck_assert_int_eq(a[0]->id, 4);
    o->destroy(s);
}
END_TEST

/* Exponent 1 against 3 on three jobs at now = 100:
 *   A: n 1, submit 0, e 10:  w/e = 100/10 = 10
 *   B: n 8, submit 80, e 10: w/e = 20/10 = 2
 *   C: n 2, submit 40, e 20: w/e = 60/20 = 3
 *   a = 3: A -1000 x 1 = -1000, B -8 x 8 = -64, C -27 x 2 = -54 -> A, B, C
 *   a = 1: A -10 x 1 = -10,     B -2 x 8 = -16, C -3 x 2 = -6  -> B, A, C */
START_TEST(test_exponent1_order)
{
    const sched_order_ops *o = plugin_order();
    job_t A = mkjob(1, 1, 0, 10), B = mkjob(2, 8, 80, 10), C = mkjob(3, 2, 40, 20);
    const double a[] = {3, 1};
    const double keys[2][3] = {{-1000, -64, -54}, {-10, -16, -6}};
    const long order[2][3] = {{1, 2, 3}, {2, 1, 3}};
    for (int x = 0; x < 2; x++) {
        pnrsim_ctx c = ctx_with(a[x]);
        void *s = o->create(&c);
        job_t *v[3] = {&A, &B, &C};
        prio_sort(v, 3, o, s, 100);
        ck_assert_near(A.prio_key, keys[x][0], 1e-9);
        ck_assert_near(B.prio_key, keys[x][1], 1e-9);
        ck_assert_near(C.prio_key, keys[x][2], 1e-9);
        for (int i = 0; i < 3; i++)
            ck_assert_int_eq(v[i]->id, order[x][i]);
        o->destroy(s);
    }
}
END_TEST

/* Through the scheduler: 8 PEs, MPL 1, no backfilling, strict order. J1
 * (8 threads, 100 s) runs from 0 to 100; then A = J2 (1 thread, 10 s,
 * submitted 0), B = J3 (8, 10 s, at 80) and C = J4 (2, 20 s, at 40) wait,
 * the three jobs above (estimates exact).
 *   a = 1: at 100 the order is B, A, C: B starts [100, 110); A does not
 *     fit and blocks C (strict). At 110: A 110/10 x 1 = 11, C 70/20 x 2
 *     = 7: A [110, 120), then C fits too: [110, 130).
 *   a = 3: at 100 the order is A, B, C: A starts [100, 110); B does not
 *     fit and blocks C. At 110: B (30/10)^3 x 8 = 216, C (70/20)^3 x 2 =
 *     85.75: B [110, 120); then C [120, 140).
 * The built-in WFP3 gives the a = 3 schedule. */
static void scenario(const sched_order_ops *o, double a, const double want[5][2])
{
    tc_t t;
    gang_params gp = params(o, BF_NONE, 1, true);
    gp.ctx = ctx_with(a);
    tc_init(&t, 8, &gp);
    tc_job(&t, 1, 0, 8, 100);
    tc_job(&t, 2, 0, 1, 10);
    tc_job(&t, 3, 80, 8, 10);
    tc_job(&t, 4, 40, 2, 20);
    tc_run(&t);
    for (int id = 1; id <= 4; id++)
        EXPECT_JOB(&t, id, want[id][0], want[id][1]);
    tc_free(&t);
}

START_TEST(test_scenario)
{
    const double a1[5][2] = {{0}, {0, 100}, {110, 120}, {100, 110}, {110, 130}};
    const double a3[5][2] = {{0}, {0, 100}, {100, 110}, {110, 120}, {120, 140}};
    scenario(plugin_order(), 1, a1);
    scenario(plugin_order(), 3, a3);
    scenario(PRIO_WFP3, 0, a3);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("plugin_wfp_age");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_registered);
    tcase_add_test(tc, test_keys);
    tcase_add_test(tc, test_exponent3_is_wfp3);
    tcase_add_test(tc, test_exponent1_order);
    tcase_add_test(tc, test_scenario);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
