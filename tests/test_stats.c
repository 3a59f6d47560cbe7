/* tests/test_stats.c: tallies, time averages and the sampler against
 * values worked out by hand. */
#include "core/stats.h"
#include "tests/testutil.h"

START_TEST(test_tally)
{
    /* 2, 4, 4, 4, 5, 5, 7, 9: mean 5, squared deviations sum 32,
     * sample variance 32/7. */
    double x[] = {2, 4, 4, 4, 5, 5, 7, 9};
    tally_t t;
    tally_init(&t);
    for (int i = 0; i < 8; i++)
        tally_add(&t, x[i]);
    ck_assert_uint_eq(t.n, 8);
    ck_assert_near(t.mean, 5, 1e-12);
    ck_assert_near(tally_var(&t), 32.0 / 7, 1e-12);
    ck_assert_double_eq(t.min, 2);
    ck_assert_double_eq(t.max, 9);
    /* Large offset: Welford keeps the variance exact where the naive sum of
     * squares would lose it (1e9 + {1,2,3}: variance 1). */
    tally_init(&t);
    for (int i = 1; i <= 3; i++)
        tally_add(&t, 1e9 + i);
    ck_assert_near(tally_var(&t), 1, 1e-6);
}
END_TEST

START_TEST(test_timeavg)
{
    /* Value 0 on [0,2), 3 on [2,5), 1 on [5,10]: area 9 + 5 = 14 over 10. */
    timeavg_t a;
    timeavg_init(&a, 0, 0);
    timeavg_set(&a, 2, 3);
    timeavg_add(&a, 5, -2);
    ck_assert_near(timeavg_area(&a, 10), 14, 1e-12);
    ck_assert_near(timeavg_mean(&a, 10), 1.4, 1e-12);
    ck_assert_double_eq(a.max, 3);
}
END_TEST

static double sample_times[16];
static int nsamples;
static void on_sample(sim_t *sim, void *arg)
{
    (void)arg;
    sample_times[nsamples++] = sim->now;
}
static void noop(sim_t *sim, void *arg)
{
    (void)sim;
    (void)arg;
}

START_TEST(test_sampler)
{
    /* Period 2.5 with the last model event at 9: samples at 2.5, 5, 7.5 and
     * none after (nothing else pending at 10 would keep it alive). */
    sim_t sim;
    ev_init(&sim);
    sampler_t s;
    nsamples = 0;
    ev_once(&sim, 9, noop, NULL);
    sampler_start(&sim, &s, 2.5, on_sample, NULL);
    ev_run(&sim, INFINITY);
    ck_assert_int_eq(nsamples, 3);
    ck_assert_double_eq(sample_times[0], 2.5);
    ck_assert_double_eq(sample_times[1], 5);
    ck_assert_double_eq(sample_times[2], 7.5);
    sampler_stop(&sim, &s);
    ck_assert_uint_eq(sim.live_records, 0);
    ev_destroy(&sim);
}
END_TEST

static sampler_t skip_s;
static void on_sample_skip(sim_t *sim, void *arg)
{
    (void)arg;
    sample_times[nsamples++] = sim->now;
    if (nsamples == 1)
        sampler_skip_before(&skip_s, ev_next_time(sim));
}

START_TEST(test_sampler_skip)
{
    /* Period 2.5, model events at 1 and 100. At the first sample (2.5) the
     * function skips to the last multiple before the next event at 100:
     * 97.5, and none at 100 (after the last model event nothing keeps the
     * sampler alive). A skip target before the normal next call (an event
     * at 3) changes nothing: 2.5, 5, and none at 7.5 (last event at 6). */
    sim_t sim;
    ev_init(&sim);
    nsamples = 0;
    ev_once(&sim, 1, noop, NULL);
    ev_once(&sim, 100, noop, NULL);
    sampler_start(&sim, &skip_s, 2.5, on_sample_skip, NULL);
    ev_run(&sim, INFINITY);
    ck_assert_int_eq(nsamples, 2);
    ck_assert_double_eq(sample_times[0], 2.5);
    ck_assert_double_eq(sample_times[1], 97.5);
    sampler_stop(&sim, &skip_s);
    ev_destroy(&sim);

    ev_init(&sim);
    nsamples = 0;
    ev_once(&sim, 1, noop, NULL);
    ev_once(&sim, 3, noop, NULL);
    ev_once(&sim, 6, noop, NULL);
    sampler_start(&sim, &skip_s, 2.5, on_sample_skip, NULL);
    ev_run(&sim, INFINITY);
    ck_assert_int_eq(nsamples, 2);
    ck_assert_double_eq(sample_times[0], 2.5);
    ck_assert_double_eq(sample_times[1], 5);
    sampler_stop(&sim, &skip_s);
    ev_destroy(&sim);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("stats");
    TCase *tc = tcase_create("stats");
    tcase_add_test(tc, test_tally);
    tcase_add_test(tc, test_timeavg);
    tcase_add_test(tc, test_sampler);
    tcase_add_test(tc, test_sampler_skip);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
