/* tests/test_rng.c: named streams are independent and reproducible; the
 * exponential and triangular samplers have the moments theory gives. */
#include "core/rng.h"
#include "core/stats.h"
#include "tests/testutil.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

/* Triangular(a, b=mode, c): mean (a+b+c)/3, variance
 * (a²+b²+c²-ab-ac-bc)/18. With n draws, the sample mean has standard error
 * sqrt(var/n); we allow 5 standard errors. The sample variance's standard
 * error is about sqrt((m4 - var²)/n) <= var*sqrt(2/n)*1.2 for these bounded
 * shapes; we allow 5 of those. */
static void check_tri(double a, double b, double c)
{
    const long n = 400000;
    rng_t *r = rng_stream(7, "tri", 0);
    tally_t t;
    tally_init(&t);
    for (long i = 0; i < n; i++) {
        double x = rng_triangular(r, a, b, c);
        ck_assert(x >= a && x <= c);
        tally_add(&t, x);
    }
    double mean = (a + b + c) / 3;
    double var = (a * a + b * b + c * c - a * b - a * c - b * c) / 18;
    ck_assert_near(t.mean, mean, 5 * sqrt(var / n));
    ck_assert_near(tally_var(&t), var, 5 * var * sqrt(2.0 / n) * 1.2);
    rng_free(r);
}

START_TEST(test_triangular_moments)
{
    check_tri(1, 2, 6);     /* skewed right */
    check_tri(0, 5, 5);     /* mode at the maximum */
    check_tri(4096, 4096, 1e6); /* mode at the minimum: the page-fault reset */
}
END_TEST

START_TEST(test_triangular_degenerate)
{
    /* a == b == c: a point mass. */
    rng_t *r = rng_stream(7, "tri", 1);
    for (int i = 0; i < 100; i++)
        ck_assert_double_eq(rng_triangular(r, 3, 3, 3), 3);
    rng_free(r);
    /* Inverse CDF by hand for (0, 0, 1): F(x) = 1-(1-x)², x = 1-sqrt(1-u). */
    ck_assert_near(rng_triangular_icdf(0.75, 0, 0, 1), 0.5, 1e-12);
    /* (0, 1, 1): F(x) = x², x = sqrt(u). */
    ck_assert_near(rng_triangular_icdf(0.25, 0, 1, 1), 0.5, 1e-12);
    /* (0, 1, 2) is symmetric: the median is the mode. */
    ck_assert_near(rng_triangular_icdf(0.5, 0, 1, 2), 1, 1e-12);
    ck_assert_double_eq(rng_triangular_icdf(0, 2, 3, 7), 2);
    ck_assert_double_eq(rng_triangular_icdf(1, 2, 3, 7), 7);
}
END_TEST

START_TEST(test_exponential_mean)
{
    const long n = 400000;
    rng_t *r = rng_stream(11, "exp", 0);
    tally_t t;
    tally_init(&t);
    for (long i = 0; i < n; i++)
        tally_add(&t, rng_exp(r, 2.5));
    /* mean 2.5, sd 2.5: 5 standard errors. */
    ck_assert_near(t.mean, 2.5, 5 * 2.5 / sqrt(n));
    ck_assert_near(tally_sd(&t), 2.5, 0.05);
    rng_free(r);
}
END_TEST

START_TEST(test_stream_independence)
{
    /* Stream B's sequence is the same whether or not stream A was drawn
     * from in between. */
    rng_t *a1 = rng_stream(5, "fault", 0), *b1 = rng_stream(5, "net", 0);
    rng_t *a2 = rng_stream(5, "fault", 0), *b2 = rng_stream(5, "net", 0);
    double seq1[50], seq2[50];
    for (int i = 0; i < 50; i++) {
        seq1[i] = rng_uniform01(b1);
        for (int k = 0; k < 13; k++)
            (void)rng_uniform01(a1); /* extra draws on the other stream */
    }
    for (int i = 0; i < 50; i++)
        seq2[i] = rng_uniform01(b2);
    for (int i = 0; i < 50; i++)
        ck_assert_double_eq(seq1[i], seq2[i]);
    /* Same seed, same name: identical; names, indices, seeds differ. */
    rng_t *a3 = rng_stream(5, "fault", 0);
    ck_assert_double_eq(rng_uniform01(a2), rng_uniform01(a3));
    rng_free(a3);
    ck_assert_uint_ne(rng_stream_seed(5, "fault", 0), rng_stream_seed(5, "fault", 1));
    ck_assert_uint_ne(rng_stream_seed(5, "fault", 0), rng_stream_seed(6, "fault", 0));
    ck_assert_uint_ne(rng_stream_seed(5, "fault", 0), rng_stream_seed(5, "net", 0));
    rng_t *c5 = rng_stream(5, "x", 0), *c6 = rng_stream(6, "x", 0);
    int same = 0;
    for (int i = 0; i < 100; i++)
        same += rng_uniform01(c5) == rng_uniform01(c6);
    ck_assert_int_lt(same, 2);
    rng_free(a1);
    rng_free(b1);
    rng_free(a2);
    rng_free(b2);
    rng_free(c5);
    rng_free(c6);
    /* Seed 0 means "from the clock": resolved to something non-zero. */
    ck_assert_uint_ne(rng_resolve_seed(0), 0);
    ck_assert_uint_eq(rng_resolve_seed(42), 42);
}
END_TEST

START_TEST(test_lazy_set_same_draws)
{
    /* Streams of an rng_set are created on first use, in any order; each
     * must draw exactly what an eagerly created stream of the same (master,
     * name, index) draws, and streams never used are never created. */
    enum { N = 1000 };
    rng_set s;
    rng_set_init(&s, 77, "fault", N);
    static const size_t order[] = {999, 3, 500, 0, 3, 999, 42};
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
        size_t i = order[k];
        bool seen = s.v[i] != NULL;
        rng_t *a = rng_set_get(&s, i);
        ck_assert_ptr_eq(rng_set_get(&s, i), a);
        if (!seen) {
            rng_t *b = rng_stream(77, "fault", (uint64_t)i);
            for (int d = 0; d < 100; d++)
                ck_assert(rng_uniform01(a) == rng_uniform01(b));
            rng_free(b);
        }
    }
    size_t created = 0;
    for (size_t i = 0; i < N; i++)
        created += s.v[i] != NULL;
    ck_assert_uint_eq(created, 5);
    rng_set_free(&s);
    ck_assert_ptr_null(s.v);
}
END_TEST

START_TEST(test_same_sequence_as_gsl_mt19937)
{
    /* The in-house MT19937 and its distributions must reproduce GSL's
     * gsl_rng_mt19937 (seeded with rng_stream_seed) bit for bit: uniform,
     * uniform_int (several n, including ones with rejection), exponential
     * and triangular, across several state regenerations (624 words). */
    for (uint64_t idx = 0; idx < 4; idx++) {
        rng_t *a = rng_stream(2024, "gsl-check", idx);
        gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
        gsl_rng_set(g, rng_stream_seed(2024, "gsl-check", idx));
        static const unsigned long ns[] = {1, 2, 3, 7, 1000, 3000000000ul};
        for (int d = 0; d < 5000; d++) {
            switch (d % 4) {
            case 0:
                ck_assert(rng_uniform01(a) == gsl_rng_uniform(g));
                break;
            case 1: {
                unsigned long n = ns[(d / 4) % 6];
                ck_assert_uint_eq(rng_index(a, n), gsl_rng_uniform_int(g, n));
                break;
            }
            case 2:
                ck_assert(rng_exp(a, 2.5) == gsl_ran_exponential(g, 2.5));
                break;
            default:
                ck_assert(rng_triangular(a, 1, 2, 5) ==
                          rng_triangular_icdf(gsl_rng_uniform(g), 1, 2, 5));
            }
        }
        gsl_rng_free(g);
        rng_free(a);
    }
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("rng");
    TCase *tc = tcase_create("rng");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_triangular_moments);
    tcase_add_test(tc, test_triangular_degenerate);
    tcase_add_test(tc, test_exponential_mean);
    tcase_add_test(tc, test_stream_independence);
    tcase_add_test(tc, test_lazy_set_same_draws);
    tcase_add_test(tc, test_same_sequence_as_gsl_mt19937);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
