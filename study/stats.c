/* study/stats.c: the statistics of summary.csv.
 *
 * For the n replications of one parameter point and one metric: the mean,
 * the sample standard deviation (denominator n - 1, two-pass for accuracy)
 * and the 95% confidence interval of the mean from Student's t with n - 1
 * degrees of freedom: mean +/- t * sd / sqrt(n), t = gsl_cdf_tdist_Pinv(
 * 0.975, n - 1). One observation has no spread: sd and the interval are NAN
 * (empty fields in summary.csv); no observation leaves everything NAN.
 * Non-finite observations (NaN, inf in a metrics.json) are left out, so n
 * counts only the finite ones.
 *
 * sweep_stats_selftest checks the code against numbers worked out by hand,
 * with t from its closed forms for 1 and 2 degrees of freedom
 * (tan(pi (p - 1/2)) and (2p - 1) / sqrt(2 p (1 - p))) and from a printed
 * table for 3.
 */
#include "study/sweep.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdio.h>

void sweep_stats_compute(const double *x, size_t n, sweep_stats *st)
{
    st->n = 0;
    st->mean = st->sd = st->ci = st->lo = st->hi = NAN;
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(x[i])) {
            sum += x[i];
            st->n++;
        }
    if (st->n == 0)
        return;
    st->mean = sum / (double)st->n;
    if (st->n == 1)
        return;
    double ss = 0, comp = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(x[i])) {
            double d = x[i] - st->mean;
            ss += d * d;
            comp += d;
        }
    /* Corrected two-pass formula (Chan, Golub & LeVeque). */
    double var = (ss - comp * comp / (double)st->n) / (double)(st->n - 1);
    st->sd = sqrt(var > 0 ? var : 0);
    double t = gsl_cdf_tdist_Pinv(0.975, (double)(st->n - 1));
    st->ci = t * st->sd / sqrt((double)st->n);
    st->lo = st->mean - st->ci;
    st->hi = st->mean + st->ci;
}

/* Compare one computed value with the expected one; NAN expects NAN. */
static int check(FILE *out, const char *what, double got, double want,
                 double tol)
{
    bool ok = isnan(want) ? isnan(got) : fabs(got - want) <= tol;
    fprintf(out, "%-4s %-26s got %-22.15g want %.15g\n", ok ? "ok" : "FAIL",
            what, got, want);
    return ok ? 0 : 1;
}

int sweep_stats_selftest(FILE *out)
{
    const double t1 = tan(3.14159265358979323846 * 0.475);      /* 12.7062... */
    const double t2 = 0.95 / sqrt(2 * 0.975 * 0.025);          /* 4.30265... */
    const double t3 = 3.182446305284263;                       /* table */
    int bad = 0;
    sweep_stats st;

    /* {2, 4, 9}: mean 5, squares 9 + 1 + 16 = 26, var 13. */
    const double a[] = {2, 4, 9};
    sweep_stats_compute(a, 3, &st);
    bad += check(out, "{2,4,9} n", (double)st.n, 3, 0);
    bad += check(out, "{2,4,9} mean", st.mean, 5, 1e-12);
    bad += check(out, "{2,4,9} sd", st.sd, sqrt(13), 1e-12);
    bad += check(out, "{2,4,9} ci", st.ci, t2 * sqrt(13) / sqrt(3), 1e-9);
    bad += check(out, "{2,4,9} ci (8.956685895)", st.ci, 8.956685895, 1e-9);
    bad += check(out, "{2,4,9} lo", st.lo, 5 - 8.956685895029603, 1e-9);
    bad += check(out, "{2,4,9} hi", st.hi, 5 + 8.956685895029603, 1e-9);

    /* {1, 2, 3, 4}: mean 2.5, var (2.25 + .25 + .25 + 2.25) / 3 = 5/3. */
    const double b[] = {1, 2, 3, 4};
    sweep_stats_compute(b, 4, &st);
    bad += check(out, "{1,2,3,4} mean", st.mean, 2.5, 1e-12);
    bad += check(out, "{1,2,3,4} sd", st.sd, sqrt(5.0 / 3.0), 1e-12);
    bad += check(out, "{1,2,3,4} ci", st.ci, t3 * sqrt(5.0 / 3.0) / 2, 1e-8);

    /* {1, 3}: mean 2, sd sqrt(2), ci = t1 * sqrt(2) / sqrt(2) = t1. */
    const double c[] = {1, 3};
    sweep_stats_compute(c, 2, &st);
    bad += check(out, "{1,3} mean", st.mean, 2, 1e-12);
    bad += check(out, "{1,3} sd", st.sd, sqrt(2), 1e-12);
    bad += check(out, "{1,3} ci", st.ci, t1, 1e-9);

    /* {10, 10}: no spread. */
    const double d[] = {10, 10};
    sweep_stats_compute(d, 2, &st);
    bad += check(out, "{10,10} sd", st.sd, 0, 0);
    bad += check(out, "{10,10} ci", st.ci, 0, 0);

    /* {7}: a single run has a mean and nothing else. */
    const double e[] = {7};
    sweep_stats_compute(e, 1, &st);
    bad += check(out, "{7} mean", st.mean, 7, 0);
    bad += check(out, "{7} sd", st.sd, NAN, 0);
    bad += check(out, "{7} ci", st.ci, NAN, 0);

    /* {NaN, 5, 7}: the NaN is left out. */
    const double f[] = {NAN, 5, 7};
    sweep_stats_compute(f, 3, &st);
    bad += check(out, "{nan,5,7} n", (double)st.n, 2, 0);
    bad += check(out, "{nan,5,7} mean", st.mean, 6, 1e-12);

    /* Nothing at all. */
    sweep_stats_compute(NULL, 0, &st);
    bad += check(out, "{} mean", st.mean, NAN, 0);

    /* Large offset: the two-pass formula keeps the digits. */
    const double g[] = {1e9 + 1, 1e9 + 2, 1e9 + 3};
    sweep_stats_compute(g, 3, &st);
    bad += check(out, "{1e9+1,+2,+3} sd", st.sd, 1, 1e-9);

    fprintf(out, "selftest-summary: %d failed\n", bad);
    return bad ? 1 : 0;
}
