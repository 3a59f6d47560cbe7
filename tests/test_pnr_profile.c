/* tests/test_pnr_profile.c: network RAM following memory that changes over
 * time (issue 33 item 3; pnr_thread_resized in pnr/client.c, the REPLACE
 * path of pnr/reclaim.c): the node's network RAM equals its overallocation
 * after each growth and each shrink (CENTRAL, conservation checked at
 * every step: pnr_set_checking), a donor whose own thread grows takes its
 * memory back (reclaim REPLACE: the borrower asks again elsewhere), and
 * whole runs of a trace under RAMP and PHASES with the run's checks on.
 *
 * Messages on the star: a 64-byte control message between two PEs takes
 * T_MSG(64) = 2 (5e-8 + 64 / 12.5e6) + 8e-5 = 9.034e-5 s, so a request's
 * round (REQUEST, ASK, GRANT, REPLY; FREE, ACK for a notice) settles within
 * 1 ms; the probes below look 0.5 s after each change. No paging
 * (mem_access_rate 0): nothing but the profile moves memory.
 */
#include "tests/fixture_pnr.h"
#include "tests/testrun.h"

#include <math.h>

static const double RAM100[NPE_MAX] = {100, 100, 100, 100, 100, 100, 100, 100};
static const double RAM_R[3] = {100, 100, 90};

typedef struct probe {
    world *w;
    double over0, remote0, lent1, lent2, over1;
} probe;

static void probe_cb(sim_t *sim, void *arg)
{
    (void)sim;
    probe *q = arg;
    const pe_t *pes = q->w->cl.pes;
    q->over0 = pe_overalloc_mb(&pes[0]);
    q->remote0 = pes[0].remote_mb;
    q->lent1 = pes[1].lent_mb;
    q->over1 = pe_overalloc_mb(&pes[1]);
    q->lent2 = q->w->cl.npes > 2 ? pes[2].lent_mb : 0;
    ck_assert_msg(pnr_check_failure(q->w->pnr) == NULL, "%s", pnr_check_failure(q->w->pnr));
}

START_TEST(test_grant_follows_growth_and_shrink)
{
    /* Two PEs of 100 MB, CENTRAL (manager PE 0), server threshold 0. One
     * thread on PE 0 of 160 MB, 200 CPU s, PHASES low 0.5, peak_share
     * 0.25, period 100: 80 MB on [0, 75), 160 MB on [75, 100), 80 MB on
     * [100, 175), 160 MB on [175, 200) (wall = CPU: nothing pages, the
     * thread never waits). At 75 s PE 0 is overallocated by 160 - 100 = 60
     * MB and asks for 60, which PE 1 (100 MB free) grants: remote 60 =
     * lent 60 = the overallocation. At 100 s it is 0 again and the node
     * gives the 60 MB back (DEALLOC, FREE, ACK): remote 0, lent 0. The
     * same at 175 and 200. */
    world_profile = (mem_profile){.kind = MEM_PROFILE_PHASES, .low = 0.5, .peak_share = 0.25,
                                  .period = 100};
    world w;
    world_init(&w, 2, RAM100, 0, "CENTRAL", (const char *[]){"netram.server_threshold=0", NULL},
               11);
    world_profile = (mem_profile){0};
    job_t *j = make_job(&w, 1, 1, (const int[]){0}, 200, 160);
    start_at(&w, 0, j);
    const double when[] = {50, 75.5, 100.5, 175.5};
    const double over[] = {0, 60, 0, 60};
    probe q[4];
    for (int i = 0; i < 4; i++) {
        q[i] = (probe){.w = &w};
        ev_once(&w.sim, when[i], probe_cb, &q[i]);
    }
    ev_run(&w.sim, INFINITY);
    ck_assert(w.rec[1].ended);
    ck_assert_double_eq(w.rec[1].end, 200);
    for (int i = 0; i < 4; i++) {
        ck_assert_double_eq(q[i].over0, over[i]);
        ck_assert_double_eq(q[i].remote0, over[i]);
        ck_assert_double_eq(q[i].lent1, over[i]);
    }
    /* Two growths asked (the start asked nothing: 80 MB fit). */
    ck_assert_uint_eq(pnr_get_stats(w.pnr)->requests, 2);
    assert_settled(w.pnr);
    world_free(&w);
}
END_TEST

/* A donor's own thread grows: reclaim. */
static void reclaim_case(const char *how, probe *q_before, probe *q_after,
                         uint64_t *events, double *mb)
{
    /* Three PEs of 100, 100 and 90 MB, CENTRAL, threshold 0, netram.reclaim = how.
     * RAMP from 0.5 in 1 step over the first tenth of the CPU demand.
     * Job 1 on PE 0: 160 MB, 1000 CPU s: 80 MB, then 160 MB at 100 s:
     * asks 60 MB, granted by PE 1 (the most free: 100 MB against PE 2's
     * 90): PE 1 lends 60. Job 2 on PE 1 from 200 s: 60 MB, 1000 CPU
     * s: 30 MB (30 + 60 = 90 <= 100: nothing to take back at its start),
     * then 60 MB at CPU 100 s = 300 s: PE 1 holds 60 + 60 = 120 > 100 and
     * takes back min(20, 60) = 20 MB from PE 0: lent 40, PE 1 exactly full
     * (overallocation 0); PE 0's network RAM 40. Under REPLACE PE 0 asks
     * for 20 again, which PE 2 grants (PE 1 has nothing free): remote 60 =
     * its overallocation; under SWAP the 20 MB stay on PE 0's disk.
     * Probes at 250 s (before: lent 60, nothing taken) and 300.5 s. */
    char set[64];
    snprintf(set, sizeof set, "netram.reclaim=%s", how);
    world_profile = (mem_profile){.kind = MEM_PROFILE_RAMP, .start = 0.5, .steps = 1,
                                  .ramp_share = 0.1};
    world w;
    world_init(&w, 3, RAM_R, 0, "CENTRAL",
               (const char *[]){"netram.server_threshold=0", set, NULL}, 12);
    world_profile = (mem_profile){0};
    job_t *j1 = make_job(&w, 1, 1, (const int[]){0}, 1000, 160);
    start_at(&w, 0, j1);
    job_t *j2 = job_create(&w.cl, 2, 2, 200, 1, 1000, 60);
    job_bind(j2, 0, 1);
    start_at(&w, 200, j2);
    *q_before = (probe){.w = &w};
    *q_after = (probe){.w = &w};
    ev_once(&w.sim, 250, probe_cb, q_before);
    ev_once(&w.sim, 300.5, probe_cb, q_after);
    ev_run(&w.sim, INFINITY);
    ck_assert(w.rec[1].ended && w.rec[2].ended);
    *events = pnr_get_stats(w.pnr)->reclaim_events;
    *mb = pnr_get_stats(w.pnr)->reclaim_mb;
    assert_settled(w.pnr);
    world_free(&w);
}

START_TEST(test_donor_grows_takes_back)
{
    probe b, a;
    uint64_t events;
    double mb;
    reclaim_case("REPLACE", &b, &a, &events, &mb);
    ck_assert_double_eq(b.over0, 60);
    ck_assert_double_eq(b.remote0, 60);
    ck_assert_double_eq(b.lent1, 60);
    ck_assert_double_eq(b.lent2, 0);
    ck_assert_double_eq(a.lent1, 40);
    ck_assert_double_eq(a.over1, 0);
    ck_assert_double_eq(a.lent2, 20);
    ck_assert_double_eq(a.remote0, 60);
    ck_assert_uint_eq(events, 1);
    ck_assert_double_eq(mb, 20);
    /* SWAP: the 20 MB stay on PE 0's disk. */
    reclaim_case("SWAP", &b, &a, &events, &mb);
    ck_assert_double_eq(b.lent1, 60);
    ck_assert_double_eq(a.lent1, 40);
    ck_assert_double_eq(a.lent2, 0);
    ck_assert_double_eq(a.remote0, 40);
    ck_assert_uint_eq(events, 1);
}
END_TEST

/* ---- whole runs, checks on ------------------------------------------------------ */

/* The first 150 jobs of the HPC2N trace on 32 PEs of 64 MB (its memory is
 * unknown: 40 MB per thread, so at MPL 2 the nodes overallocate), network RAM with `strategy`,
 * reclaim REPLACE, MPL 2, the run's checks on (the scheduler's invariants
 * and network RAM's conservation at every allocation and deallocation
 * step, which now includes every growth and shrink). Returns the number
 * of requests for network RAM. */
static uint64_t whole_run(const char *strategy, const char *profile)
{
    char s1[64], s2[64];
    snprintf(s1, sizeof s1, "netram.strategy=%s", strategy);
    snprintf(s2, sizeof s2, "workload.memory_profile=%s", profile);
    const char *base[] = {"computer.number=32", "computer.ram=64", "netram.enabled=yes",
                          "netram.reclaim=REPLACE", "scheduler.mpl=2", "workload.max_jobs=150",
                          "workload.default_memory=40", "process.mem_access_rate=0.001",
                          "workload.memory_period=2000", NULL};
    const char *sets[] = {s1, s2, NULL};
    config c;
    char err[CFG_ERR_MAX];
    tu_configure(&c, base, sets, TRACE);
    run_t *r = run_create(&c, NULL, NULL, err);
    ck_assert_msg(r != NULL, "%s", err);
    run_set_checking(r, true);
    ck_assert_msg(run_execute(r, err) == 0, "%s", err);
    ck_assert_msg(run_check_failure(r) == NULL, "%s %s: %s", strategy, profile,
                  run_check_failure(r));
    run_metrics m;
    run_metrics_get(r, &m);
    ck_assert_int_eq(m.jobs_finished, 150);
    uint64_t req = m.pnr_requests;
    run_destroy(r);
    return req;
}

START_TEST(test_whole_runs_conserve)
{
    /* Under both profiles nothing is ever lost or made up. Under RAMP the
     * threads ask for network RAM more often than under CONSTANT (each of
     * a thread's 10 steps that overallocates its node asks again); PHASES
     * (1800 CPU s low first, so most of these jobs never reach their peak)
     * changes the run too. */
    const char *strategies[] = {"CENTRAL", "MANAGER"};
    for (int i = 0; i < 2; i++) {
        uint64_t constant = whole_run(strategies[i], "CONSTANT");
        uint64_t ramp = whole_run(strategies[i], "RAMP");
        uint64_t phases = whole_run(strategies[i], "PHASES");
        ck_assert_uint_gt(ramp, constant);
        ck_assert_uint_ne(phases, constant);
    }
}
END_TEST

START_TEST(test_release_all_refused)
{
    /* Release ALL (a thread holds the grant of its start) with a profile:
     * refused, naming both keys. */
    config c;
    char err[CFG_ERR_MAX];
    config_defaults(&c);
    ck_assert_int_eq(config_set(&c, "netram.enabled=yes", err), 0);
    ck_assert_int_eq(config_set(&c, "netram.release=ALL", err), 0);
    ck_assert_int_eq(config_set(&c, "workload.memory_profile=RAMP", err), 0);
    ck_assert_int_ne(config_validate(&c, err), 0);
    ck_assert_msg(strstr(err, "memory_profile") && strstr(err, "release"), "%s", err);
    ck_assert_int_eq(config_set(&c, "netram.release=EXCESS", err), 0);
    ck_assert_msg(config_validate(&c, err) == 0, "%s", err);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("pnr_profile");
    TCase *tc = tcase_create("pnr_profile");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_grant_follows_growth_and_shrink);
    tcase_add_test(tc, test_donor_grows_takes_back);
    tcase_add_test(tc, test_whole_runs_conserve);
    tcase_add_test(tc, test_release_all_refused);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
