/* tests/test_bf_bound.c: the dominance bound of conservative reservations
 * (sched/reserve_bound.h): the latest start recorded for a job no wider and no
 * longer, checked on a hand-worked set of records and against a direct
 * scan of every record on random ones (many equal widths, durations and
 * starts; a staircase's pairs replaced, dropped and kept); and the stop
 * test by width classes on a hand-worked profile and queue. */
#include "sched/reserve_bound.h"
#include "sched/job.h"
#include "tests/testutil.h"

#include <math.h>

START_TEST(test_hand)
{
    sched_bound b;
    sched_bound_init(&b, 16);
    ck_assert(sched_bound_bound(&b, 16, 1e9) == -INFINITY); /* nothing recorded */
    sched_bound_record(&b, 4, 100, 50);  /* A */
    sched_bound_record(&b, 2, 300, 70);  /* B */
    sched_bound_record(&b, 8, 50, 90);   /* C */
    sched_bound_record(&b, 4, 100, 40);  /* D: dominated by A */
    sched_bound_record(&b, 17, 1, 999);  /* wider than the machine: not recorded */
    sched_bound_record(&b, 0, 1, 999);   /* no threads: not recorded */
    /* Query (n, d): the latest start among the records with n' <= n, d' <= d. */
    ck_assert(sched_bound_bound(&b, 1, 1e9) == -INFINITY);  /* none that narrow */
    ck_assert(sched_bound_bound(&b, 2, 299) == -INFINITY);  /* B is longer */
    ck_assert(sched_bound_bound(&b, 2, 300) == 70);         /* B */
    ck_assert(sched_bound_bound(&b, 4, 100) == 50);         /* A (D is earlier) */
    ck_assert(sched_bound_bound(&b, 4, 300) == 70);         /* A, B: B */
    ck_assert(sched_bound_bound(&b, 7, 99) == -INFINITY);   /* A too long, C too wide */
    ck_assert(sched_bound_bound(&b, 8, 50) == 90);          /* C */
    ck_assert(sched_bound_bound(&b, 16, 49) == -INFINITY);
    ck_assert(sched_bound_bound(&b, 99, 1e9) == 90);        /* counts as 16: all */
    sched_bound_record(&b, 1, 1000, 95); /* E: narrowest, longest, latest */
    ck_assert(sched_bound_bound(&b, 1, 1000) == 95);
    ck_assert(sched_bound_bound(&b, 16, 999) == 90);
    sched_bound_record(&b, 3, 100, 95); /* F: replaces A's pair in the nodes it shares */
    ck_assert(sched_bound_bound(&b, 4, 100) == 95);
    ck_assert(sched_bound_bound(&b, 2, 1e9) == 95);         /* E */
    ck_assert(sched_bound_bound(&b, 2, 999) == 70);         /* B */
    sched_bound_clear(&b);
    ck_assert(sched_bound_bound(&b, 16, 1e9) == -INFINITY);
    sched_bound_record(&b, 16, 10, 5);
    ck_assert(sched_bound_bound(&b, 16, 10) == 5);
    ck_assert(sched_bound_bound(&b, 15, 10) == -INFINITY);
    sched_bound_free(&b);
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
    sched_bound b;
    sched_bound_init(&b, NPES);
    rs = 12345;
    long nonempty = 0;
    for (int run = 0; run < 30; run++) {
        sched_bound_clear(&b);
        int n = 1 + (int)(rnd() % MAXR);
        for (int k = 0; k < n; k++) {
            w[k] = 1 + (int)(rnd() % NPES);
            d[k] = (double)(rnd() % 20) * (rnd() % 4 ? 1 : 0.5);
            /* starts mostly growing, as in a pass, with ties and setbacks */
            s[k] = (double)(k / 3 + (int)(rnd() % 40)) - (rnd() % 5 ? 0 : 30);
            sched_bound_record(&b, w[k], d[k], s[k]);
            for (int qi = 0; qi < 8; qi++) {
                int qn = 1 + (int)(rnd() % (NPES + 3));
                double qd = (double)(rnd() % 22) * 0.5;
                double want = -INFINITY;
                for (int z = 0; z <= k; z++)
                    if (w[z] <= qn && d[z] <= qd && s[z] > want)
                        want = s[z];
                double got = sched_bound_bound(&b, qn, qd);
                ck_assert_msg(got == want, "run %d after %d records: (%d, %g) gave %g, scan %g",
                              run, k + 1, qn, qd, got, want);
                nonempty += want > -INFINITY;
            }
        }
    }
    ck_assert_int_gt(nonempty, 1000);
    sched_bound_free(&b);
}
END_TEST

START_TEST(test_stop_classes)
{
    /* 16 PEs; profile from now = 100: 8 free until 110, 3 until 120, 0
     * until 130, then 16. The first moment with fewer than 2^c free:
     * c = 0 (< 1) and 1 (< 2): 120; c = 2 (< 4) and 3 (< 8): 110; c = 4
     * (< 16): 100. */
    static const double t[] = {100, 110, 120, 130};
    static const int f[] = {8, 3, 0, 16};
    sched_stop s;
    sched_stop_init(&s, 16);
    ck_assert_int_eq(s.ncls, 5);
    sched_stop_profile(&s, t, f, 4);
    ck_assert(s.blk[0] == 120 && s.blk[1] == 120 && s.blk[2] == 110 && s.blk[3] == 110 &&
              s.blk[4] == 100);
    /* 10 queued jobs (SCHED_STOP_STRIDE 8: rows for jobs 0.. and 8..). */
    static job_t jobs[10];
    sched_job *q[10]; /* a sched_job is a job_t (sched/priority.c) */
    static const int w[] = {16, 4, 5, 8, 1, 2, 3, 9, 4, 1};
    static const double e[] = {5, 30, 9, 5, 40, 25, 20.5, 1, 10, 21};
    for (int i = 0; i < 10; i++) {
        jobs[i].threads = jobs[i].width = w[i];
        jobs[i].estimate = e[i];
        jobs[i].queued = true;
        q[i] = (sched_job *)(void *)&jobs[i];
    }
    sched_stop_jobs(&s, q, 10);
    /* From job 8: J8 (4 threads, class 2) needs 100 + 10 <= 110: may start
     * (and does: 4 <= 8 free until 110, 3 < 4 after). */
    ck_assert(sched_stop_may_start(&s, 100, 1));
    jobs[8].queued = false; /* J8 gone: J9 (1 thread) needs 121 <= 120 */
    sched_stop_jobs(&s, q, 10);
    ck_assert(!sched_stop_may_start(&s, 100, 1));
    /* From job 0: J2 (5 threads, class 2, 9 s): 109 <= 110. */
    ck_assert(sched_stop_may_start(&s, 100, 0));
    /* A reservation of 5 PEs over [100, 110) leaves 3: classes 2 and 3
     * blocked from 100; J2 can no longer start, nor any other: J0, J3
     * (classes 4, 3), J7 (class 3: 101 > 100), J1 (class 2: 130 > 100),
     * J4, J5, J6 (3 threads: class 1; 140, 125, 120.5 > 120). With J6
     * 0.5 s shorter it would fit (3 PEs free until 120). */
    static const int f2[] = {3, 3, 0, 16};
    sched_stop_lower(&s, t, f2, 0, 0);
    ck_assert(s.blk[2] == 100 && s.blk[3] == 100 && s.blk[1] == 120);
    ck_assert(!sched_stop_may_start(&s, 100, 0));
    jobs[6].estimate = 20;
    sched_stop_jobs(&s, q, 10);
    ck_assert(sched_stop_may_start(&s, 100, 0));
    jobs[6].estimate = 20.5;
    /* A zero-length job holds its PEs for the instant only: it may start
     * whatever blk says. */
    jobs[4].estimate = 0;
    sched_stop_jobs(&s, q, 10);
    ck_assert(sched_stop_may_start(&s, 100, 0));
    sched_stop_free(&s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *su = suite_create("bf_bound");
    TCase *tc = tcase_create("bound");
    tcase_add_test(tc, test_hand);
    tcase_add_test(tc, test_random_vs_scan);
    tcase_add_test(tc, test_stop_classes);
    suite_add_tcase(su, tc);
    return su;
}

TEST_MAIN()
