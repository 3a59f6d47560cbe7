/* tests/testutil.h: shared helpers for the Check test programs.
 *
 * Each tests/test_<module>.c defines `static Suite *make_suite(void)` and
 * ends with TEST_MAIN(); the program exits 0 only when every check passed.
 */
#ifndef PNRSIM_TESTS_TESTUTIL_H
#define PNRSIM_TESTS_TESTUTIL_H

#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>
#include <stdlib.h>

/* Assert |a - b| <= tol, printing both values on failure. */
#define ck_assert_near(a, b, tol)                                              \
    do {                                                                       \
        double ck_a_ = (a), ck_b_ = (b), ck_t_ = (tol);                        \
        ck_assert_msg(fabs(ck_a_ - ck_b_) <= ck_t_,                            \
                      "%s = %.12g, %s = %.12g, differ by more than %g", #a,    \
                      ck_a_, #b, ck_b_, ck_t_);                                \
    } while (0)

#define TEST_MAIN()                                                            \
    int main(void)                                                             \
    {                                                                          \
        SRunner *sr = srunner_create(make_suite());                            \
        srunner_run_all(sr, CK_NORMAL);                                        \
        int failed = srunner_ntests_failed(sr);                                \
        srunner_free(sr);                                                      \
        return failed ? EXIT_FAILURE : EXIT_SUCCESS;                           \
    }

/* Is the jobs.csv row starting at row (up to its newline) a finished
 * job's (state column "finished", issue 26)? */
static inline bool tu_row_finished(const char *row)
{
    const char *eol = strchr(row, '\n');
    const char *fin = strstr(row, ",finished,");
    return fin && (!eol || fin < eol);
}

#endif
