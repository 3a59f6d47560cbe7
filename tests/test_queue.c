/* tests/test_queue.c: the gang scheduler's queue of waiting jobs
 * (sched/queue.h): arrival order, the priority heads and "the first that
 * fits" for FCFS, BESTFIT and WORSTFIT, worked out by hand on a small
 * queue; removal from the middle; jobs already tried in a pass skipped. */
#include "sched/queue.h"
#include "tests/testutil.h"

/* Jobs 0..5 arrive in this order with these widths (machine of 4 PEs):
 *   job   0 1 2 3 4 5
 *   width 2 4 1 2 3 1 */
static const int widths[6] = {2, 4, 1, 2, 3, 1};
static job_t jobs[6];

static void fill(jobq_t *q)
{
    jobq_init(q, 4);
    for (int i = 0; i < 6; i++) {
        jobs[i] = (job_t){.id = i, .order = i, .threads = widths[i], .width = widths[i], .slot = -1,
                          .tried_pass = -1};
        jobq_push(q, &jobs[i]);
        ck_assert(jobs[i].queued);
    }
    ck_assert_ptr_null(jobq_check(q));
}

static long id_of(const job_t *j) { return j ? j->id : -1; }

START_TEST(arrival_order_and_removal)
{
    jobq_t q;
    fill(&q);
    ck_assert_int_eq(q.n, 6);
    long want[6] = {0, 1, 2, 3, 4, 5}, k = 0;
    for (job_t *j = jobq_first(&q); j; j = jobq_next(&q, j))
        ck_assert_int_eq(j->id, want[k++]);
    ck_assert_int_eq(k, 6);
    /* Remove 3 (middle; width 2 bucket: 0, 3 -> 0) and 0 (head). */
    jobq_remove(&q, &jobs[3]);
    jobq_remove(&q, &jobs[0]);
    ck_assert(!jobs[3].queued && !jobs[0].queued);
    long want2[4] = {1, 2, 4, 5};
    k = 0;
    for (job_t *j = jobq_first(&q); j; j = jobq_next(&q, j))
        ck_assert_int_eq(j->id, want2[k++]);
    ck_assert_int_eq(k, 4);
    ck_assert_int_eq(q.n, 4);
    ck_assert_int_eq(q.bcount[2], 0);
    ck_assert_ptr_null(jobq_check(&q));
    /* A removed job can join again, at the tail. */
    jobq_push(&q, &jobs[0]);
    ck_assert_int_eq(id_of(jobq_first(&q)), 1);
    job_t *last = NULL;
    for (job_t *j = jobq_first(&q); j; j = jobq_next(&q, j))
        last = j;
    ck_assert_int_eq(id_of(last), 0);
    ck_assert_ptr_null(jobq_check(&q));
    jobq_destroy(&q);
}
END_TEST

START_TEST(heads_by_priority)
{
    jobq_t q;
    fill(&q);
    /* FCFS: job 0. BESTFIT: the widest, 1 (4 PEs). WORSTFIT: the first of
     * the narrowest, 2 (1 PE, before 5). */
    ck_assert_int_eq(id_of(jobq_head(&q, SCHED_BUCKET_ARRIVAL)), 0);
    ck_assert_int_eq(id_of(jobq_head(&q, SCHED_BUCKET_WIDEST)), 1);
    ck_assert_int_eq(id_of(jobq_head(&q, SCHED_BUCKET_NARROWEST)), 2);
    /* At most 3 PEs free. FCFS: the earliest of width <= 3, job 0.
     * BESTFIT: the widest that fits, 4 (3 PEs). WORSTFIT: 2. */
    ck_assert_int_eq(id_of(jobq_first_fitting(&q, SCHED_BUCKET_ARRIVAL, 3, 1)), 0);
    ck_assert_int_eq(id_of(jobq_first_fitting(&q, SCHED_BUCKET_WIDEST, 3, 1)), 4);
    ck_assert_int_eq(id_of(jobq_first_fitting(&q, SCHED_BUCKET_NARROWEST, 3, 1)), 2);
    /* At most 1 PE: only 2 and 5 fit; every order takes 2 first. */
    ck_assert_int_eq(id_of(jobq_first_fitting(&q, SCHED_BUCKET_ARRIVAL, 1, 1)), 2);
    ck_assert_int_eq(id_of(jobq_first_fitting(&q, SCHED_BUCKET_WIDEST, 1, 1)), 2);
    /* Jobs 0, 2 and 4 tried (and failed) in pass 1: FCFS with 3 PEs next
     * takes 3 (width 2, after 0), BESTFIT 3 too (no other 3-wide job),
     * WORSTFIT 5 (the other 1-wide). In pass 2 nothing is tried yet. */
    jobs[0].tried_pass = jobs[2].tried_pass = jobs[4].tried_pass = 1;
    ck_assert_int_eq(id_of(jobq_first_fitting(&q, SCHED_BUCKET_ARRIVAL, 3, 1)), 3);
    ck_assert_int_eq(id_of(jobq_first_fitting(&q, SCHED_BUCKET_WIDEST, 3, 1)), 3);
    ck_assert_int_eq(id_of(jobq_first_fitting(&q, SCHED_BUCKET_NARROWEST, 3, 1)), 5);
    ck_assert_int_eq(id_of(jobq_first_fitting(&q, SCHED_BUCKET_ARRIVAL, 3, 2)), 0);
    /* Everything of width <= 1 tried: nothing fits in 1 PE. */
    jobs[5].tried_pass = 1;
    ck_assert_ptr_null(jobq_first_fitting(&q, SCHED_BUCKET_ARRIVAL, 1, 1));
    ck_assert_ptr_null(jobq_first_fitting(&q, SCHED_BUCKET_NARROWEST, 1, 1));
    /* Keyed orders are sched/backfill.c's. */
    ck_assert_ptr_null(jobq_head(&q, SCHED_BUCKET_NONE));
    /* Emptied: no heads. */
    for (int i = 0; i < 6; i++)
        jobq_remove(&q, &jobs[i]);
    ck_assert_ptr_null(jobq_first(&q));
    ck_assert_ptr_null(jobq_head(&q, SCHED_BUCKET_WIDEST));
    ck_assert_ptr_null(jobq_check(&q));
    jobq_destroy(&q);
}
END_TEST

START_TEST(check_finds_damage)
{
    jobq_t q;
    fill(&q);
    jobs[4].width = 2; /* now in the wrong bucket */
    ck_assert_ptr_nonnull(jobq_check(&q));
    jobs[4].width = 3;
    q.n++;
    ck_assert_str_eq(jobq_check(&q), "queue length wrong");
    q.n--;
    ck_assert_ptr_null(jobq_check(&q));
    jobq_destroy(&q);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("queue");
    TCase *tc = tcase_create("queue");
    tcase_add_test(tc, arrival_order_and_removal);
    tcase_add_test(tc, heads_by_priority);
    tcase_add_test(tc, check_finds_damage);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
