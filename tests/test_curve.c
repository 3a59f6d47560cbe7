/* tests/test_curve.c: fault model CURVE (issue 33; docs/MODEL.md "Fault
 * model CURVE"): the strict reader of curve files (app/curve.c) and each
 * of its refusals with the file and line, the interpolated miss count and
 * rate (sched/job_curve.c), the draw's exact mean, a thread's faults under
 * a hand-made curve on a PE with disk swap, the set of a run's curves by
 * application number (SWF field 14) and the configuration's checks of the
 * new keys. The CLI side (exit 2, mapping in a whole run, notes, paths
 * relative to the config file) is tests/test_curve_cli.sh.
 *
 * The curves are tests/data/curves/ (written by hand, each file's comment
 * works its numbers): kink.curve (rows 0,1000 30,400 80,100 100,0;
 * cpu_seconds 7), linear.curve (a row per page, misses 10 (100 - p);
 * cpu_seconds 10), none.curve (no misses).
 */
#include "app/config.h"
#include "app/curve.h"
#include "sched/job.h"
#include "sched/job_curve.h"
#include "tests/testcluster.h"
#include "tests/testutil.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "tests/fixture_job.h"

#define KINK "tests/data/curves/kink.curve"
#define LINEAR "tests/data/curves/linear.curve"
#define NONE "tests/data/curves/none.curve"

/* ---- reading and interpolating ------------------------------------------------ */

START_TEST(test_read_and_interpolate)
{
    fault_curve c;
    char err[CFG_ERR_MAX];
    ck_assert_msg(curve_read(KINK, &c, err) == 0, "%s", err);
    ck_assert_int_eq(c.page_size, 4096);
    ck_assert_double_eq(c.footprint, 100);
    ck_assert_double_eq(c.accesses, 2000);
    ck_assert_double_eq(c.cpu_seconds, 7);
    ck_assert_int_eq(c.n, 4);
    /* At the rows: the rows' misses. */
    ck_assert_double_eq(job_curve_misses(&c, 0), 1000);
    ck_assert_double_eq(job_curve_misses(&c, 30), 400);
    ck_assert_double_eq(job_curve_misses(&c, 80), 100);
    ck_assert_double_eq(job_curve_misses(&c, 100), 0);
    /* Between rows, linear: 15 pages: 1000 + (400 - 1000) * 15/30 = 700;
     * 50 pages: 400 + (100 - 400) * 20/50 = 280; 90: 100 - 100 * 10/20 = 50. */
    ck_assert_double_eq_tol(job_curve_misses(&c, 15), 700, 1e-9);
    ck_assert_double_eq_tol(job_curve_misses(&c, 50), 280, 1e-9);
    ck_assert_double_eq_tol(job_curve_misses(&c, 90), 50, 1e-9);
    /* Clamped to [0, F]. */
    ck_assert_double_eq(job_curve_misses(&c, -5), 1000);
    ck_assert_double_eq(job_curve_misses(&c, 120), 0);
    /* Rate at f = 0.5: misses(50) / 7 = 40 per CPU second; f = 0: 1000/7;
     * f = 1: 0. */
    ck_assert_double_eq_tol(job_curve_rate(&c, 0.5), 40, 1e-9);
    ck_assert_double_eq_tol(job_curve_rate(&c, 0), 1000.0 / 7, 1e-9);
    ck_assert_double_eq(job_curve_rate(&c, 1), 0);
    curve_free(&c);
    /* A row per page: misses(p) = 10 (100 - p); at 37.25 pages, between
     * 37 (630) and 38 (620): 630 - 10 * 0.25 = 627.5. */
    ck_assert_msg(curve_read(LINEAR, &c, err) == 0, "%s", err);
    ck_assert_int_eq(c.n, 101);
    ck_assert_double_eq_tol(job_curve_misses(&c, 37.25), 627.5, 1e-9);
    ck_assert_double_eq_tol(job_curve_rate(&c, 0.5), 50, 1e-9);
    curve_free(&c);
}
END_TEST

/* The draw: cpu_done + Exp(mean cpu_seconds / misses(f F)), from the PE's
 * stream. A thread of 128 MB with L = 64 MB: f = 0.5, mean = 7 / 280 =
 * 0.025 s exactly; the same stream drawn with rng_exp(0.025) gives the
 * same numbers, bit for bit. L below a page, or a curve of no misses:
 * INFINITY, and nothing drawn (the next draw is the stream's first). */
START_TEST(test_next_exact_mean)
{
    fault_curve c, z;
    char err[CFG_ERR_MAX];
    ck_assert_msg(curve_read(KINK, &c, err) == 0, "%s", err);
    ck_assert_msg(curve_read(NONE, &z, err) == 0, "%s", err);
    rng_set a, b;
    rng_set_init(&a, RNG_XOSHIRO256SS, 9, "fault", 2);
    rng_set_init(&b, RNG_XOSHIRO256SS, 9, "fault", 2);
    const double size = 128 * MB, L = 64 * MB;
    ck_assert(isinf(job_curve_next(NULL, &a, 1, 3, L, size, PAGE)));
    ck_assert(isinf(job_curve_next(&c, &a, 1, 3, PAGE - 1, size, PAGE)));
    ck_assert(isinf(job_curve_next(&z, &a, 1, 3, L, size, PAGE)));
    for (int i = 0; i < 1000; i++) {
        double got = job_curve_next(&c, &a, 1, 3, L, size, PAGE);
        double want = 3 + rng_exp(rng_set_get(&b, 1), 7.0 / 280.0);
        ck_assert_double_eq(got, want);
    }
    rng_set_free(&a);
    rng_set_free(&b);
    curve_free(&c);
    curve_free(&z);
}
END_TEST

/* ---- a thread under a curve ------------------------------------------------------ */

/* One 128 MB thread on a PE of 64 MB (disk swap), 200 CPU s, under
 * kink.curve: overallocation 64 MB, L = min(64 MB, 128 MB) = 64 MB, f =
 * 1 - 64/128 = 0.5, rate 40 faults per CPU s. Its memory never changes,
 * so its faults are a Poisson process of rate 40 over 200 CPU s: mean
 * 8000, sd sqrt(8000) = 89.4; the 99.9 % interval 8000 +- 3.29 x 89.4 =
 * [7706, 8294]. Each fault costs the disk S (one thread: no queue), so it
 * ends at exactly 200 + faults x S. The gaps in CPU time are Exp(0.025):
 * their mean is within 4 standard errors (0.025 / sqrt(n)) of 0.025.
 * mem_access_rate is 1e-6 (under REPORT it would give L/P = 16384 faults
 * at a mean of R P / U >= 4.1e-3 s, a few thousand in 200 s, and resets):
 * under CURVE it plays no part. */
START_TEST(test_thread_faults_poisson)
{
    fault_curve c;
    char err[CFG_ERR_MAX];
    ck_assert_msg(curve_read(KINK, &c, err) == 0, "%s", err);
    world w;
    world_init(&w, 1, 64, TOPO_KIND_STAR, BW, 7);
    w.cl.mem_access_rate = 1e-6;
    w.log_faults = true;
    job_t *j = make_job(&w, 1, 1, NULL, 200, 128);
    j->curve = &c;
    job_run(&w.sim, j, 0);
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(w.jobs_ended, 1);
    double n = (double)w.nfaults;
    ck_assert_msg(n >= 8000 - 3.2905 * sqrt(8000) && n <= 8000 + 3.2905 * sqrt(8000),
                  "%.0f faults", n);
    ck_assert_uint_eq(j->faults, w.nfaults);
    ck_assert_double_eq_tol(j->end, 200 + n * S_DISK, 1e-6);
    double prev = 0, sum = 0;
    for (size_t i = 0; i < w.nfaults; i++) {
        ck_assert_double_eq(w.faults[i].L, 64 * MB);
        sum += w.faults[i].cpu - prev;
        prev = w.faults[i].cpu;
    }
    ck_assert_double_eq_tol(sum / n, 0.025, 4 * 0.025 / sqrt(n));
    world_free(&w);
    curve_free(&c);
}
END_TEST

/* Under CURVE a thread less than a page out of RAM never faults (64 MB +
 * half a page on 64 MB: L = 2048 B < P), as under REPORT; and a curve
 * pages even with mem_access_rate = 0 (the REPORT model's "off"): 100 MB
 * on 64 MB, L = 36 MB, f = 1 - 36/100 = 0.64, misses(64) = 10 x 36 = 360
 * on linear.curve, rate 36 per CPU s: over 100 CPU s mean 3600, 99.9 %
 * interval 3600 +- 3.29 x 60 = [3403, 3797]. */
START_TEST(test_thread_below_a_page_and_rate_off)
{
    fault_curve c;
    char err[CFG_ERR_MAX];
    ck_assert_msg(curve_read(LINEAR, &c, err) == 0, "%s", err);
    world w;
    world_init(&w, 2, 64, TOPO_KIND_STAR, BW, 3);
    w.cl.mem_access_rate = 0;
    int pe0[] = {0}, pe1[] = {1};
    job_t *a = make_job(&w, 1, 1, pe0, 50, 64 + 2048 / MB);
    job_t *b = make_job(&w, 2, 1, pe1, 100, 100);
    a->curve = b->curve = &c;
    job_run(&w.sim, a, 0);
    job_run(&w.sim, b, 0);
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(w.jobs_ended, 2);
    ck_assert_uint_eq(a->faults, 0);
    ck_assert_double_eq(a->end, 50);
    double n = (double)b->faults;
    ck_assert_msg(n >= 3600 - 3.2905 * 60 && n <= 3600 + 3.2905 * 60, "%.0f faults", n);
    world_free(&w);
    curve_free(&c);
}
END_TEST

/* A node of 2 cores and 64 MB, two 64 MB threads of one row (jobs 1 and
 * 2, 50 CPU s each) under linear.curve: O = 128 - 64 = 64 MB, S = 128
 * MB, so each bears L = min(64, 64 x 64 / 128) = 32 MB (the report's
 * per-node share, "Nodes of several cores"), f = 1 - 32/64 = 0.5,
 * misses(50) = 500, rate 50 per CPU s. Every fault sees L = 32 MB while
 * both live; the thread that ends first faulted at that rate over all its
 * 50 CPU s: a Poisson count of mean 2500, 99.9 % interval 2500 +- 3.29 x
 * 50 = [2335, 2665]. (Its memory is then freed, O = 0: the other's later
 * CPU time has no faults.) */
START_TEST(test_node_share)
{
    fault_curve c;
    char err[CFG_ERR_MAX];
    ck_assert_msg(curve_read(LINEAR, &c, err) == 0, "%s", err);
    cluster_params p = world_params(1, 64, TOPO_KIND_STAR, BW, 5);
    p.cores_per_node = 2;
    world w;
    world_init_p(&w, &p);
    w.cl.mem_access_rate = 1e-4;
    w.log_faults = true;
    int c0 = 0, c1 = 1;
    job_t *a = make_job(&w, 1, 1, &c0, 50, 64);
    job_t *b = make_job(&w, 2, 1, &c1, 50, 64);
    a->row = b->row = 0;
    a->curve = b->curve = &c;
    at(&w, 0, a, ACT_RUN, 0);
    at(&w, 0, b, ACT_RUN, 0);
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(w.jobs_ended, 2);
    job_t *first = a->end <= b->end ? a : b;
    for (size_t i = 0; i < w.nfaults; i++)
        ck_assert_double_eq_tol(w.faults[i].L, 32 * MB, 1e-9 * 32 * MB);
    double n = (double)first->faults;
    ck_assert_msg(n >= 2500 - 3.2905 * 50 && n <= 2500 + 3.2905 * 50, "%.0f faults", n);
    world_free(&w);
    curve_free(&c);
}
END_TEST

/* ---- refusals -------------------------------------------------------------------- */

/* The header of a good file, lines 1-7 (a comment first). */
#define HEAD                                                                   \
    "# pnrsim fault curve, format 1\n"                                         \
    "format = 1\n"                                                             \
    "page_size = 4096\n"                                                       \
    "footprint_pages = 4\n"                                                    \
    "accesses = 50\n"                                                          \
    "cpu_seconds = 2.5\n"                                                      \
    "columns = pages,misses\n"

/* Each malformed file, the line its message must name and a phrase of
 * what was expected there. */
static const struct bad {
    const char *text;
    long line;
    const char *phrase;
} bads[] = {
    {HEAD "0,10\n1,8\n2,9\n4,0\n", 10, "misses non-increasing"},
    {HEAD "0,10\n2,8\n2,6\n4,0\n", 10, "pages strictly increasing"},
    {HEAD "0,10\n3,8\n1,6\n4,0\n", 10, "pages strictly increasing"},
    {"format = 1\npage_size = 4096\nfootprint_pages = 4\ncpu_seconds = 1\n"
     "columns = pages,misses\n0,1\n4,0\n", 5, "missing header key accesses"},
    {"# c\n\nformat = 2\n", 3, "format 1 only"},
    {HEAD "0,10\n1,8 x\n4,0\n", 9, "expected a row PAGES,MISSES"},
    {HEAD "0,10\n1,8,\n4,0\n", 9, "expected a row PAGES,MISSES"},
    {HEAD "0,10\n4,0\n5,0\n", 10, "a line after the last row"},
    {HEAD "0,10\n4,0\ngarbage\n", 10, "a line after the last row"},
    {HEAD "0,10\n2,3\n4,1\n", 10, "expected 0"},
    {HEAD "0,10\n2,3\n", 9, "the file ends after the row of pages 2"},
    {HEAD "1,10\n4,0\n", 8, "the first row's pages is 1: expected 0"},
    {HEAD "0,10\n6,0\n", 9, "beyond footprint_pages = 4"},
    {HEAD "0,51\n4,0\n", 8, "exceed accesses = 50"},
    /* 40 misses in 1e-320 CPU s: a rate far above 1e10 per CPU s, whose gaps
     * would vanish against a thread's CPU time (review of issue 33). */
    {"format = 1\npage_size = 4096\nfootprint_pages = 4\naccesses = 50\n"
     "cpu_seconds = 1e-320\ncolumns = pages,misses\n0,40\n4,0\n", 7, "at most 1e+10"},
    /* 11 misses in 1e-9 s = 1.1e10 per s: just above the bound (10 would be
     * exactly 1e10, accepted). */
    {"format = 1\npage_size = 4096\nfootprint_pages = 4\naccesses = 50\n"
     "cpu_seconds = 1e-9\ncolumns = pages,misses\n0,11\n4,0\n", 7, "mean gap of at least"},
    {HEAD "0, 10\n4,0\n", 8, "no blanks"},
    {HEAD "0,-1\n4,0\n", 8, "expected a row PAGES,MISSES"},
    {HEAD "0,10\r\n4,0\n", 8, "carriage return"},
    {"page_size = 4096\n", 1, "expected \"format = 1\" first"},
    {"format = 1\npage_size = 4096\npage_size = 4096\n", 3, "given twice (first at line 2)"},
    {"format = 1\nfootprint = 4\n", 2, "unknown header key \"footprint\""},
    {"format = 1\ncpu_seconds = 0\n", 2, "a decimal number above 0"},
    {"format = 1\ncpu_seconds = inf\n", 2, "a decimal number above 0"},
    {"format = 1\nfootprint_pages = 0\n", 2, "a whole number of at least 1"},
    {"format = 1\naccesses = 1.5\n", 2, "a whole number"},
    {"format = 1\npage_size = 4096\nfootprint_pages = 4\naccesses = 5\ncpu_seconds = 1\n"
     "columns = misses,pages\n", 6, "expected columns = pages,misses"},
    {"format = 1\npage_size = 4096\n", 2, "the file ends in its header"},
    {"# only a comment\n", 1, "no \"format = 1\" line"},
};

START_TEST(test_refusals_name_file_and_line)
{
    const struct bad *b = &bads[_i];
    char path[] = "/tmp/pnrsim-curve-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    fputs(b->text, f);
    fclose(f);
    fault_curve c;
    char err[CFG_ERR_MAX], where[64];
    ck_assert_int_eq(curve_read(path, &c, err), -1);
    snprintf(where, sizeof where, "%s:%ld: ", path, b->line);
    ck_assert_msg(!strncmp(err, where, strlen(where)), "case %d: \"%s\" does not start with %s",
                  _i, err, where);
    ck_assert_msg(strstr(err, b->phrase), "case %d: \"%s\" lacks \"%s\"", _i, err, b->phrase);
    ck_assert_ptr_null(c.pages); /* nothing left allocated */
    unlink(path);
}
END_TEST

START_TEST(test_refusal_missing_file)
{
    fault_curve c;
    char err[CFG_ERR_MAX];
    ck_assert_int_eq(curve_read("tests/data/curves/no-such.curve", &c, err), -1);
    ck_assert_msg(strstr(err, "tests/data/curves/no-such.curve: cannot read"), "%s", err);
}
END_TEST

/* ---- the run's curves and the keys ------------------------------------------------ */

static void configure(config *c, const char *const *sets)
{
    char err[CFG_ERR_MAX];
    config_defaults(c);
    for (int i = 0; sets[i]; i++)
        ck_assert_msg(config_set(c, sets[i], err) == 0, "%s: %s", sets[i], err);
    ck_assert_msg(config_validate(c, err) == 0, "%s", err);
}

/* fault_curves maps applications 7 and 2 (listed out of order) and
 * fault_curve takes the rest: 7 -> kink (4 rows), 2 -> none (2 rows),
 * 3, 0 and -1 (unknown) -> linear (101 rows). Under REPORT nothing is
 * read and every job has none. */
START_TEST(test_set_by_application)
{
    config c;
    char err[CFG_ERR_MAX];
    const char *const sets[] = {"process.fault_model=CURVE", "process.fault_curve=" LINEAR,
                                "process.fault_curves=7:" KINK ", 2 : " NONE, NULL};
    configure(&c, sets);
    curve_set s;
    ck_assert_msg(curve_set_load(&s, &c, err) == 0, "%s", err);
    ck_assert_int_eq(s.ncurves, 3);
    ck_assert_int_eq(curve_set_find(&s, 7)->n, 4);
    ck_assert_int_eq(curve_set_find(&s, 2)->n, 2);
    ck_assert_int_eq(curve_set_find(&s, 3)->n, 101);
    ck_assert_int_eq(curve_set_find(&s, 0)->n, 101);
    ck_assert_int_eq(curve_set_find(&s, -1)->n, 101);
    curve_set_free(&s);
    /* Without fault_curve an unmapped job has none (run.c stops there). */
    const char *const only[] = {"process.fault_model=CURVE", "process.fault_curves=7:" KINK,
                                NULL};
    configure(&c, only);
    ck_assert_msg(curve_set_load(&s, &c, err) == 0, "%s", err);
    ck_assert_ptr_null(curve_set_find(&s, 3));
    ck_assert_ptr_nonnull(curve_set_find(&s, 7));
    curve_set_free(&s);
    const char *const report[] = {"process.fault_curve=" LINEAR, NULL};
    configure(&c, report);
    ck_assert_msg(curve_set_load(&s, &c, err) == 0, "%s", err);
    ck_assert_int_eq(s.ncurves, 0);
    ck_assert_ptr_null(curve_set_find(&s, 7));
    curve_set_free(&s);
}
END_TEST

/* A curve measured at another page size is refused when the run's curves
 * are read (page_size 8192 against the curve's 4096). */
START_TEST(test_set_page_size_mismatch)
{
    config c;
    char err[CFG_ERR_MAX];
    const char *const sets[] = {"process.fault_model=CURVE", "process.fault_curve=" KINK,
                                "process.page_size=8192", NULL};
    configure(&c, sets);
    curve_set s;
    ck_assert_int_eq(curve_set_load(&s, &c, err), -1);
    ck_assert_msg(strstr(err, KINK ": page_size = 4096, but [process] page_size = 8192"), "%s",
                  err);
    ck_assert_int_eq(s.ncurves, 0);
}
END_TEST

/* The keys' own checks: fault_curves' items, and CURVE without a curve. */
START_TEST(test_keys_refused)
{
    config c;
    char err[CFG_ERR_MAX];
    config_defaults(&c);
    static const char *const bad[][2] = {
        {"process.fault_curves=1:a.curve, 1:b.curve", "application 1 mapped twice"},
        {"process.fault_curves=a.curve", "expected APP:FILE"},
        {"process.fault_curves=1:a.curve,", "a comma with no item after it"},
        {"process.fault_curves=1:", "no file after ':'"},
        {"process.fault_curves=-1:a.curve", "expected APP:FILE"},
        {"process.fault_model=MEASURED", "REPORT"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_int_eq(config_set(&c, bad[i][0], err), -1);
        ck_assert_msg(strstr(err, bad[i][1]), "%s: \"%s\"", bad[i][0], err);
    }
    ck_assert_int_eq(config_set(&c, "process.fault_model=CURVE", err), 0);
    ck_assert_int_eq(config_validate(&c, err), -1);
    ck_assert_msg(strstr(err, "fault_model = CURVE") && strstr(err, "needs curves"), "%s", err);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("curve");
    TCase *tc = tcase_create("curve");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_read_and_interpolate);
    tcase_add_test(tc, test_next_exact_mean);
    tcase_add_test(tc, test_thread_faults_poisson);
    tcase_add_test(tc, test_thread_below_a_page_and_rate_off);
    tcase_add_test(tc, test_node_share);
    tcase_add_loop_test(tc, test_refusals_name_file_and_line, 0,
                        (int)(sizeof bads / sizeof bads[0]));
    tcase_add_test(tc, test_refusal_missing_file);
    tcase_add_test(tc, test_set_by_application);
    tcase_add_test(tc, test_set_page_size_mismatch);
    tcase_add_test(tc, test_keys_refused);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
