/* tests/test_bf_bound.c: the dominance bound of conservative reservations
 * (sched/bf_bound.h): the latest start recorded for a job no wider and no
 * longer, checked on a hand-worked set of records and against a direct
 * scan of every record on random ones (many equal widths, durations and
 * starts; a staircase's pairs replaced, dropped and kept). */
#include "sched/bf_bound.h"
#include "tests/testutil.h"

#include <math.h>

START_TEST(test_hand)
{
    bfb_t b;
    bfb_init(&b, 16);
    ck_assert(bfb_bound(&b, 16, 1e9) == -INFINITY); /* nothing recorded */
    bfb_record(&b, 4, 100, 50);  /* A */
    bfb_record(&b, 2, 300, 70);  /* B */
    bfb_record(&b, 8, 50, 90);   /* C */
    bfb_record(&b, 4, 100, 40);  /* D: dominated by A */
    bfb_record(&b, 17, 1, 999);  /* wider than the machine: not recorded */
    bfb_record(&b, 0, 1, 999);   /* no threads: not recorded */
    /* Query (n, d): the latest start among the records with n' <= n, d' <= d. */
    ck_assert(bfb_bound(&b, 1, 1e9) == -INFINITY);  /* none that narrow */
    ck_assert(bfb_bound(&b, 2, 299) == -INFINITY);  /* B is longer */
    ck_assert(bfb_bound(&b, 2, 300) == 70);         /* B */
    ck_assert(bfb_bound(&b, 4, 100) == 50);         /* A (D is earlier) */
    ck_assert(bfb_bound(&b, 4, 300) == 70);         /* A, B: B */
    ck_assert(bfb_bound(&b, 7, 99) == -INFINITY);   /* A too long, C too wide */
    ck_assert(bfb_bound(&b, 8, 50) == 90);          /* C */
    ck_assert(bfb_bound(&b, 16, 49) == -INFINITY);
    ck_assert(bfb_bound(&b, 99, 1e9) == 90);        /* counts as 16: all */
    bfb_record(&b, 1, 1000, 95); /* E: narrowest, longest, latest */
    ck_assert(bfb_bound(&b, 1, 1000) == 95);
    ck_assert(bfb_bound(&b, 16, 999) == 90);
    bfb_record(&b, 3, 100, 95); /* F: replaces A's pair in the nodes it shares */
    ck_assert(bfb_bound(&b, 4, 100) == 95);
    ck_assert(bfb_bound(&b, 2, 1e9) == 95);         /* E */
    ck_assert(bfb_bound(&b, 2, 999) == 70);         /* B */
    bfb_clear(&b);
    ck_assert(bfb_bound(&b, 16, 1e9) == -INFINITY);
    bfb_record(&b, 16, 10, 5);
    ck_assert(bfb_bound(&b, 16, 10) == 5);
    ck_assert(bfb_bound(&b, 15, 10) == -INFINITY);
    bfb_free(&b);
}
END_TEST

static uint64_t rs;
static uint32_t rnd(void)
{
    rs ^= rs << 13;
    rs ^= rs >> 7;
    rs ^= rs << 17;
    return (uint32_t)(rs >> 11);
}

START_TEST(test_random_vs_scan)
{
    enum { NPES = 37, MAXR = 400 };
    static int w[MAXR];
    static double d[MAXR], s[MAXR];
    bfb_t b;
    bfb_init(&b, NPES);
    rs = 12345;
    long nonempty = 0;
    for (int run = 0; run < 30; run++) {
        bfb_clear(&b);
        int n = 1 + (int)(rnd() % MAXR);
        for (int k = 0; k < n; k++) {
            w[k] = 1 + (int)(rnd() % NPES);
            d[k] = (double)(rnd() % 20) * (rnd() % 4 ? 1 : 0.5);
            /* starts mostly growing, as in a pass, with ties and setbacks */
            s[k] = (double)(k / 3 + (int)(rnd() % 40)) - (rnd() % 5 ? 0 : 30);
            bfb_record(&b, w[k], d[k], s[k]);
            for (int qi = 0; qi < 8; qi++) {
                int qn = 1 + (int)(rnd() % (NPES + 3));
                double qd = (double)(rnd() % 22) * 0.5;
                double want = -INFINITY;
                for (int z = 0; z <= k; z++)
                    if (w[z] <= qn && d[z] <= qd && s[z] > want)
                        want = s[z];
                double got = bfb_bound(&b, qn, qd);
                ck_assert_msg(got == want, "run %d after %d records: (%d, %g) gave %g, scan %g",
                              run, k + 1, qn, qd, got, want);
                nonempty += want > -INFINITY;
            }
        }
    }
    ck_assert_int_gt(nonempty, 1000);
    bfb_free(&b);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *su = suite_create("bf_bound");
    TCase *tc = tcase_create("bound");
    tcase_add_test(tc, test_hand);
    tcase_add_test(tc, test_random_vs_scan);
    suite_add_tcase(su, tc);
    return su;
}

TEST_MAIN()
