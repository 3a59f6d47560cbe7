/* tests/test_backfill_random.c: the property runs of issue 14 on random,
 * tie-heavy workloads, split out of tests/test_backfill.c (whose top
 * comment states the properties) to keep each test program under 900
 * lines: EASY heads and conservative reservations never late with exact
 * estimates, the matrix invariants after every action, the gang-aware
 * guarantee at MPL 2 and 3, kept profiles equal to rebuilt ones, and
 * searches cut short by the dominance bound equal to plain ones. */
#include "tests/fixture_components.h"
#include "tests/fixture_backfill.h"

/* ---- property runs on random tie-heavy workloads ---------------------------------- */

static uint64_t rs;
static uint32_t rnd(void)
{
    rs ^= rs << 13;
    rs ^= rs >> 7;
    rs ^= rs << 17;
    return (uint32_t)(rs >> 11);
}

/* n jobs on npes PEs: submits on a 10 s grid with bursts of equal submits,
 * widths from a few values, run times from a few values including 0; the
 * estimate exact or (mixed) under/over by a factor. */
static void random_load(tc_t *t, int n, int npes, bool exact, uint64_t seed)
{
    static const int widths[] = {1, 1, 2, 2, 3, 4, 8, 16};
    static const double runs[] = {0, 5, 10, 10, 20, 50, 100, 300};
    static const double factor[] = {0.5, 1, 1, 2, 3, 10};
    rs = seed * 2654435761u + 1;
    double s = 0;
    for (int id = 1; id <= n; id++) {
        if (rnd() % 3 == 0)
            s += 10 * (rnd() % 4);
        int w = widths[rnd() % 8];
        if (w > npes)
            w = npes;
        double r = runs[rnd() % 8];
        double e = exact ? -1 : r * factor[rnd() % 6] + (rnd() % 2 ? 0 : 10);
        tc_job_est(t, id, s, w, r, e);
    }
}

static void check_all_ran(tc_t *t)
{
    for (int id = 1; id <= t->njobs; id++)
        ck_assert_msg(t->start[id] >= 0 && t->end[id] >= t->start[id], "J%d did not run", id);
}

START_TEST(test_random_easy_exact)
{
    /* FCFS, exact estimates, MPL 1: every job that was ever the head starts
     * by the shadow time computed when it became the head. */
    for (uint64_t seed = 1; seed <= 10; seed++) {
        tc_t t;
        gang_params gp = params(PRIO_FCFS, BF_EASY, 1, true);
        tc_init(&t, 16, &gp);
        random_load(&t, 400, 16, true, seed);
        tc_run(&t);
        check_all_ran(&t);
        int heads = 0;
        for (int id = 1; id <= t.njobs; id++) {
            if (t.first_res[id] < 0)
                continue;
            heads++;
            ck_assert_msg(t.start[id] <= t.first_res[id], "seed %d: head J%d started %.17g after its shadow time %.17g",
                          (int)seed, id, t.start[id], t.first_res[id]);
        }
        ck_assert_int_gt(heads, 20); /* the load does make heads */
        tc_free(&t);
    }
}
END_TEST

START_TEST(test_random_conservative_exact)
{
    /* FCFS, exact estimates, MPL 1: no job starts after its first
     * reservation. */
    for (uint64_t seed = 1; seed <= 10; seed++) {
        tc_t t;
        gang_params gp = params(PRIO_FCFS, BF_CONSERVATIVE, 1, true);
        tc_init(&t, 16, &gp);
        random_load(&t, 400, 16, true, seed);
        tc_run(&t);
        check_all_ran(&t);
        int waited = 0; /* jobs whose first reservation was in the future */
        for (int id = 1; id <= t.njobs; id++) {
            ck_assert_msg(t.first_res[id] >= 0, "J%d never had a reservation", id);
            ck_assert_msg(t.start[id] <= t.first_res[id], "seed %d: J%d started %.17g after its reservation %.17g",
                          (int)seed, id, t.start[id], t.first_res[id]);
            waited += t.first_res[id] > t.submit[id];
        }
        ck_assert_int_gt(waited, 20);
        tc_free(&t);
    }
}
END_TEST

START_TEST(test_random_invariants)
{
    /* Every order x mode x MPL 1-3 with inexact estimates: the invariants
     * after every action, every job runs, CPU time conserved. */
    const sched_priority prios[] = {PRIO_FCFS, PRIO_BESTFIT, PRIO_SJF, PRIO_LJF,
                                           PRIO_SAF, PRIO_LAF, PRIO_WFP3, PRIO_UNICEP,
                                           PRIO_F1};
    int i = _i;
    sched_priority prio = prios[i % 9];
    sched_backfill bf = t_ops_at(PNRSIM_KIND_BACKFILL, i % 3);
    int mpl = 1 + (i / 9) % 3;
    tc_t t;
    gang_params gp = params(prio, bf, mpl, i % 2);
    tc_init(&t, 16, &gp);
    random_load(&t, 300, 16, false, (uint64_t)(100 + i));
    tc_run(&t);
    check_all_ran(&t);
    double busy = 0;
    for (int p = 0; p < t.cl.npes; p++)
        busy += res_busy_time(&t.sim, &t.cl.pes[p].cpu);
    ck_assert_near(busy, t.cl.cpu_demand_done, 1e-6 * (1 + busy));
    tc_free(&t);
}
END_TEST

/* The gang-aware variant's guarantee (docs/SCHEDULING.md): MPL > 1, FCFS,
 * exact estimates, no alternative scheduling (scheduler.alternative = no:
 * no moves, no moves back, no unification), no memory: a job never starts
 * later than its first reservation (EASY: the head's shadow time;
 * conservative: its first reservation) if the number of slots stays the
 * same from that pass until it starts. Returns the jobs checked and counts
 * the late ones. */
static int gang_guarantee(sched_backfill bf, int mpl, double pcs, uint64_t seed, int *late)
{
    static tc_t t;
    gang_params gp = params(PRIO_FCFS, bf, mpl, true);
    gp.no_alternative = true;
    gp.pcs = pcs;
    tc_init(&t, 16, &gp);
    random_load(&t, 400, 16, true, seed);
    tc_run(&t);
    check_all_ran(&t);
    int checked = 0;
    for (int id = 1; id <= t.njobs; id++) {
        if (t.head_res[id] < 0 || t.slots_changed[id])
            continue;
        checked++;
        if (t.placed[id] > t.head_res[id]) {
            (*late)++;
            fprintf(stderr, "bf %d mpl %d pcs %g seed %d: head J%d placed at %.17g after its first reservation as the head %.17g\n",
                    t_ops_index(PNRSIM_KIND_BACKFILL, bf), mpl, pcs, (int)seed, id, t.placed[id], t.head_res[id]);
        }
        if (bf == BF_EASY)
            ck_assert_double_eq(t.head_res[id], t.first_res[id]);
    }
    tc_free(&t);
    return checked;
}

START_TEST(test_gang_guarantee)
{
    const sched_backfill bfs[] = {BF_EASY, BF_CONSERVATIVE};
    for (int b = 0; b < 2; b++) {
        for (int mpl = 2; mpl <= 3; mpl++) {
            int checked = 0, late = 0;
            for (uint64_t seed = 1; seed <= 10; seed++)
                checked += gang_guarantee(bfs[b], mpl, seed % 2 ? 0 : 1, seed, &late);
            fprintf(stderr, "bf %d mpl %d: %d checked %d late\n", t_ops_index(PNRSIM_KIND_BACKFILL, bfs[b]), mpl, checked, late);
            ck_assert_int_eq(late, 0);
            ck_assert_int_gt(checked, 50);
        }
    }
}
END_TEST

/* Conservative keeps its reservations from pass to pass when it can prove
 * a rebuild would give the same (sched/backfill.c, incremental): the kept
 * and the always-rebuilt passes must start every job at the same time, on
 * loads that exercise both paths: exact estimates (passes kept), over- and
 * under-estimates (early and late ends: rebuilds), zero-length jobs, and
 * static orders where arrivals come before reserved jobs (SJF, SAF). */
static void cons_run(tc_t *t, sched_priority prio, bool exact, uint64_t seed, bool rebuild,
                     long *kept)
{
    gang_params gp = params(prio, BF_CONSERVATIVE, 1, true);
    tc_init(t, 16, &gp);
    bf_t *b = bf_of(t->g);
    ck_assert_ptr_nonnull(b);
    bf_set_rebuild_always(b, rebuild);
    random_load(t, 400, 16, exact, seed);
    tc_run(t);
    check_all_ran(t);
    bf_stats st;
    bf_get_stats(b, &st);
    *kept = st.kept_passes;
}

START_TEST(test_conservative_kept_equals_rebuilt)
{
    const sched_priority prios[] = {PRIO_FCFS, PRIO_SJF, PRIO_SAF, PRIO_F1};
    long kept_total = 0;
    for (int exact = 0; exact <= 1; exact++) {
        for (int pi = 0; pi < 4; pi++) {
            for (uint64_t seed = 1; seed <= 4; seed++) {
                static tc_t a, r;
                long kept, kept_r;
                cons_run(&a, prios[pi], exact, seed * 7 + (uint64_t)pi, false, &kept);
                cons_run(&r, prios[pi], exact, seed * 7 + (uint64_t)pi, true, &kept_r);
                ck_assert_int_eq(kept_r, 0);
                for (int id = 1; id <= a.njobs; id++)
                    ck_assert_msg(a.start[id] == r.start[id] && a.end[id] == r.end[id],
                                  "order %d exact %d seed %d: J%d kept [%.17g, %.17g), "
                                  "rebuilt [%.17g, %.17g)", t_ops_index(PNRSIM_KIND_PRIORITY, prios[pi]), exact, (int)seed,
                                  id, a.start[id], a.end[id], r.start[id], r.end[id]);
                kept_total += kept;
                tc_free(&a);
                tc_free(&r);
            }
        }
        /* Exact estimates: most passes keep the reservations. */
        if (exact)
            ck_assert_int_gt(kept_total, 1000);
    }
}
END_TEST

/* The dominance bound (sched/reserve_bound.h) only lets a conservative search
 * skip steps that cannot hold the job's start: every job must start and
 * end exactly as under the plain rebuild algorithm (every pass rebuilt,
 * every search from now: the oracle), with inexact estimates (early and
 * late ends: rebuilt passes), orders that change with time (WFP3,
 * UNICEP), static ones (FCFS, SJF, LAF) with kept passes, MPL 1, 2 and 0
 * (several profiles searched per job; at MPL 0 slots opened without a
 * rebuild, lazy_open), with and without strict order. */
static void bound_run(tc_t *t, sched_priority prio, int mpl, bool oracle, uint64_t seed,
                      bf_stats *st)
{
    gang_params gp = params(prio, BF_CONSERVATIVE, mpl, seed % 2);
    tc_init(t, 16, &gp);
    bf_t *b = bf_of(t->g);
    ck_assert_ptr_nonnull(b);
    bf_set_rebuild_always(b, oracle);
    bf_set_plain_search(b, oracle);
    bf_set_check_bound(b, !oracle);
    random_load(t, 400, 16, false, seed);
    tc_run(t);
    check_all_ran(t);
    bf_get_stats(b, st);
}

START_TEST(test_conservative_bound_equals_oracle)
{
    const sched_priority prios[] = {PRIO_FCFS, PRIO_SJF, PRIO_LAF, PRIO_WFP3,
                                           PRIO_UNICEP};
    int i = _i;
    sched_priority prio = prios[i % 5];
    int mpl = (1 + i / 5) % 3; /* 1, 2, 0 */
    long long visited = 0, visited_oracle = 0;
    for (uint64_t seed = 1; seed <= 4; seed++) {
        static tc_t a, r;
        bf_stats sa, sr;
        bound_run(&a, prio, mpl, false, seed * 11 + (uint64_t)i, &sa);
        bound_run(&r, prio, mpl, true, seed * 11 + (uint64_t)i, &sr);
        for (int id = 1; id <= a.njobs; id++)
            ck_assert_msg(a.start[id] == r.start[id] && a.end[id] == r.end[id],
                          "order %d mpl %d seed %d: J%d fast [%.17g, %.17g), oracle "
                          "[%.17g, %.17g)", t_ops_index(PNRSIM_KIND_PRIORITY, prio), mpl, (int)seed, id, a.start[id],
                          a.end[id], r.start[id], r.end[id]);
        ck_assert_int_eq(sr.kept_passes, 0);
        ck_assert_int_eq(sr.lazy_opens, 0);
        visited += sa.visited_sum;
        visited_oracle += sr.visited_sum;
        tc_free(&a);
        tc_free(&r);
    }
    /* The loads queue enough for the bound to skip steps (at MPL 0 the
     * slots opened without a rebuild change which searches are made). */
    ck_assert_msg(mpl == 0 || visited < visited_oracle, "steps examined: %lld with the bound, %lld without",
                  visited, visited_oracle);
}
END_TEST

/* Issue 32 item 5: n jobs of the machine's width submitted at one instant
 * at MPL 0. The pass opens one slot per job; before, each opening rebuilt
 * every profile and searched the queue again (n builds in the pass, each
 * of every slot: quadratic). Now the slots are opened without a rebuild
 * while every job reserved is placed now (lazy_open), so the first pass
 * builds the profiles at most 3 times (the first, once for the first slot
 * opened, once at the end). Every job is placed at 0 (one slot each: the
 * estimate of 10 s is below the quantum of 50 s, so J<k> runs from
 * 10 (k - 1) to 10 k); starts and ends checked against the oracle (every
 * opening rebuilt) job by job. */
START_TEST(test_conservative_one_instant_mpl0)
{
    enum { N = 200 };
    static tc_t a, r;
    bf_stats sa, sr;
    for (int oracle = 0; oracle <= 1; oracle++) {
        tc_t *t = oracle ? &r : &a;
        gang_params gp = params(PRIO_FCFS, BF_CONSERVATIVE, 0, false);
        tc_init(t, 16, &gp);
        bf_t *b = bf_of(t->g);
        ck_assert_ptr_nonnull(b);
        bf_set_plain_search(b, oracle);
        for (int id = 1; id <= N; id++)
            tc_job_est(t, id, 0, 16, 10, -1);
        tc_run(t);
        check_all_ran(t);
        bf_get_stats(b, oracle ? &sr : &sa);
    }
    for (int id = 1; id <= N; id++) {
        ck_assert_msg(a.placed[id] == 0, "J%d placed at %.17g", id, a.placed[id]);
        ck_assert_msg(a.start[id] == 10.0 * (id - 1) && a.end[id] == 10.0 * id,
                      "J%d ran [%.17g, %.17g)", id, a.start[id], a.end[id]);
        ck_assert_msg(a.start[id] == r.start[id] && a.end[id] == r.end[id],
                      "J%d fast [%.17g, %.17g), oracle [%.17g, %.17g)", id, a.start[id],
                      a.end[id], r.start[id], r.end[id]);
    }
    ck_assert_msg(sa.builds_max <= 3, "%ld profile builds in one pass", sa.builds_max);
    ck_assert_int_ge(sr.builds_max, N); /* the oracle rebuilds at every opening */
    ck_assert_int_ge(sa.lazy_opens, N - 2);
    tc_free(&a);
    tc_free(&r);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("backfill_random");
    TCase *tr = tcase_create("random");
    tcase_set_timeout(tr, 120);
    tcase_add_test(tr, test_random_easy_exact);
    tcase_add_test(tr, test_random_conservative_exact);
    tcase_add_test(tr, test_conservative_kept_equals_rebuilt);
    tcase_add_test(tr, test_gang_guarantee);
    tcase_add_loop_test(tr, test_random_invariants, 0, 54);
    tcase_add_loop_test(tr, test_conservative_bound_equals_oracle, 0, 15);
    tcase_add_test(tr, test_conservative_one_instant_mpl0);
    suite_add_tcase(s, tr);
    return s;
}

TEST_MAIN()
