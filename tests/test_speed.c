/* tests/test_speed.c: nodes of different CPU speeds (computer.speed, issue
 * 35 item 6; docs/MODEL.md "Nodes of different speeds") on small clusters
 * built by hand (tests/fixture_job.h). A thread's clocks count work (CPU
 * seconds at the trace's speed 1); on a node of speed s a burst of w of
 * them takes w / s seconds; fault, disk, network and message times do not
 * scale; at a synchronisation every thread waits for the slowest.
 *
 * Every figure below is worked out by hand in its comment: the speeds are
 * powers of two, so w / s and d * s are exact and the expected ends are
 * compared exactly where the arithmetic is exact. The whole-run side (the
 * key, its groups, the one-process-per-job path, the errors) is
 * tests/test_speed.sh.
 */
#include "tests/fixture_job.h"

/* The world of fixture_job.h with PE i at speed sp[i] (npes entries). */
static void world_speeds(world *w, int npes, double ram_mb, uint64_t seed, const double *sp)
{
    cluster_params p = world_params(npes, ram_mb, TOPO_KIND_STAR, BW, seed);
    p.pe_speed = sp;
    world_init_p(w, &p);
}

/* ---- compute only --------------------------------------------------------------- */

START_TEST(test_compute_only_halves)
{
    /* PEs 0, 1 at speed 2, PEs 2, 3 at 1; no memory pressure, no
     * messages. Job 1 (2 threads x 100 s of demand) on PEs 0, 1: each
     * thread needs 100 / 2 = 50 s of CPU, so it ends at 50 (half the 100
     * it takes on the reference nodes). Job 2, the same on PEs 2, 3: 100.
     * CPU busy time counts seconds held: 2 x 50 + 2 x 100 = 300 s; the
     * demand done counts work (reference seconds): 4 x 100 = 400 s. */
    const double sp[4] = {2, 2, 1, 1};
    world w;
    world_speeds(&w, 4, 64, 1, sp);
    ck_assert(w.cl.speeds_differ);
    int fast[] = {0, 1}, slow[] = {2, 3};
    job_t *a = make_job(&w, 1, 2, fast, 100, 8);
    job_t *b = make_job(&w, 2, 2, slow, 100, 8);
    job_run(&w.sim, a, 0);
    job_run(&w.sim, b, 0);
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(w.jobs_ended, 2);
    ck_assert_double_eq(a->end, 50);
    ck_assert_double_eq(b->end, 100);
    for (int i = 0; i < 2; i++) {
        ck_assert_double_eq(thread_end_time(&w, 1, i), 50);
        ck_assert_double_eq(a->th[i].cpu_done, 100);
    }
    ck_assert_double_eq(cpu_busy(&w), 300);
    ck_assert_double_eq(w.cl.cpu_demand_done, 400);
    world_free(&w);
}
END_TEST

START_TEST(test_uniform_speed_one_is_default)
{
    /* Speeds given and all 1: nothing differs from no speeds at all (the
     * job ends at its demand, 100), and the cluster does not count as one
     * of different speeds. */
    const double sp[2] = {1, 1};
    world w;
    world_speeds(&w, 2, 64, 1, sp);
    ck_assert(!w.cl.speeds_differ);
    job_t *a = make_job(&w, 1, 2, NULL, 100, 8);
    job_run(&w.sim, a, 0);
    ev_run(&w.sim, INFINITY);
    ck_assert_double_eq(a->end, 100);
    world_free(&w);
}
END_TEST

/* ---- a job over nodes of different speeds -------------------------------------------- */

START_TEST(test_mixed_no_sync)
{
    /* One job of 2 threads x 100 s over PE 0 (speed 2) and PE 1 (speed
     * 1), no synchronisation: thread 0 ends at 100 / 2 = 50, thread 1 at
     * 100; the job ends with its last thread, at 100: the slowest node's
     * pace. */
    const double sp[2] = {2, 1};
    world w;
    world_speeds(&w, 2, 64, 1, sp);
    job_t *j = make_job(&w, 1, 2, NULL, 100, 8);
    job_run(&w.sim, j, 0);
    ev_run(&w.sim, INFINITY);
    ck_assert_double_eq(thread_end_time(&w, 1, 0), 50);
    ck_assert_double_eq(thread_end_time(&w, 1, 1), 100);
    ck_assert_double_eq(j->end, 100);
    world_free(&w);
}
END_TEST

/* 4 threads x 100 s on 4 PEs of a star at speeds sp, synchronising every
 * 10 s of work (tests/test_job.c test_sync_time's job): the job's end and
 * every thread's end in tends. */
static double sync_job(const double *sp, double tends[4])
{
    world w;
    world_speeds(&w, 4, 64, 7, sp);
    w.cl.sync_rate = 10;
    job_t *j = make_job(&w, 1, 4, NULL, 100, 8);
    job_run(&w.sim, j, 0);
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(w.jobs_ended, 1);
    ck_assert_uint_eq(w.cl.sync_msgs, 40);
    double end = j->end;
    for (int i = 0; i < 4; i++) {
        tends[i] = thread_end_time(&w, 1, i);
        ck_assert_double_eq(j->th[i].cpu_done, 100);
    }
    world_free(&w);
    return end;
}

START_TEST(test_mixed_sync_slowest_pace)
{
    /* test_sync_time (tests/test_job.c): at speed 1 everywhere the job
     * ends at 100 + 10 (2 Ls + 3 D) = 100.0025034 s: ten periods of 10 s
     * of CPU, each followed by the synchronisation messages' 2 Ls + 3 D.
     * All at speed 2: a period's CPU takes 10 / 2 = 5 s, so
     *     50 + 10 (2 Ls + 3 D) = 50.0025034 s.
     * PEs 0, 1 at 2 and PEs 2, 3 at 1: in every period the fast threads
     * reach the synchronisation point after 5 s and wait for the slow ones
     * (10 s); the messages leave when the last arrives, as in the uniform
     * case, so the job ends at the slow nodes' 100.0025034 s, every thread
     * at that instant (the last synchronisation is at 100 s of work, the
     * end of the demand). */
    const double s1[4] = {1, 1, 1, 1}, s2[4] = {2, 2, 2, 2}, mixed[4] = {2, 2, 1, 1};
    const double msg = 10 * (2 * LS + 3 * DELAY);
    double tends[4];
    ck_assert_near(sync_job(s1, tends), 100 + msg, TOL);
    ck_assert_near(sync_job(s2, tends), 50 + msg, TOL);
    double end = sync_job(mixed, tends);
    ck_assert_near(end, 100 + msg, TOL);
    ck_assert_near(end, 100.0025034, TOL);
    for (int i = 0; i < 4; i++)
        ck_assert_double_eq(tends[i], end);
}
END_TEST

/* ---- paging on a fast node ------------------------------------------------------------ */

/* One 65 MB thread of 30 s on one PE of 64 MB at speed s, R = 1e-6, seed
 * 2, exact or batched paging (test_job.c test_faults_until_first_reset's
 * thread). */
static job_t *pager(world *w, double s, int batched)
{
    const double sp[1] = {s};
    world_speeds(w, 1, 64, 2, sp);
    w->cl.mem_access_rate = 1e-6;
    w->cl.paging = batched ? PAGING_BATCHED : PAGING_EXACT;
    w->log_faults = !batched;
    return make_job(w, 1, 1, NULL, 30, 65);
}

static int to_disk(thread_t *th, void *ctx, double *svc)
{
    (void)th;
    (void)ctx;
    (void)svc;
    return -1;
}

START_TEST(test_paging_cpu_halves_faults_do_not)
{
    /* The fault clock counts work (§4.1.5's T is CPU time of the thread):
     * with the same seed the thread draws the same fault points in its
     * demand at speed 1 and 2, so it faults n times in both, at the same
     * CPU times done. Alone on its PE it never queues, so each fault costs
     * exactly S (the disk does not scale with speed) and
     *     end(s) = 30 / s + n S:   end(1) = 30 + n S, end(2) = 15 + n S;
     * the CPU part halves, the paging time does not. The CPU is busy
     * 30 / s s (seconds held), the demand done is 30 (work). The k-th
     * fault comes at wall time cpu_k / s + (k - 1) S. */
    world w1, w2;
    job_t *j1 = pager(&w1, 1, 0), *j2 = pager(&w2, 2, 0);
    job_run(&w1.sim, j1, 0);
    job_run(&w2.sim, j2, 0);
    ev_run(&w1.sim, INFINITY);
    ev_run(&w2.sim, INFINITY);
    uint64_t n = j1->faults;
    ck_assert_uint_gt(n, 256); /* L = 256 pages: past the first reset */
    ck_assert_uint_eq(j2->faults, n);
    ck_assert_uint_eq(w2.nfaults, w1.nfaults);
    for (size_t k = 0; k < w1.nfaults; k++) {
        ck_assert_double_eq(w2.faults[k].cpu, w1.faults[k].cpu);
        ck_assert_near(w2.faults[k].t, w1.faults[k].cpu / 2 + (double)k * S_DISK, 1e-9);
    }
    ck_assert_near(j1->fault_time, (double)n * S_DISK, 1e-9);
    ck_assert_near(j2->fault_time, (double)n * S_DISK, 1e-9);
    ck_assert_near(j1->end, 30 + (double)n * S_DISK, 1e-9);
    ck_assert_near(j2->end, 15 + (double)n * S_DISK, 1e-9);
    ck_assert_near(cpu_busy(&w1), 30, 1e-9);
    ck_assert_near(cpu_busy(&w2), 15, 1e-9);
    ck_assert_double_eq(w2.cl.cpu_demand_done, 30);
    world_free(&w1);
    world_free(&w2);
}
END_TEST

START_TEST(test_paging_batched_same)
{
    /* Batched paging plans the same bursts (w / s) and the same draws:
     * at speed 2 it gives the exact run's faults and end (15 + n S), with
     * the CPU busy 15 s. */
    double end[2];
    uint64_t faults[2];
    for (int b = 0; b < 2; b++) {
        world w;
        job_t *j = pager(&w, 2, b);
        w.cl.hooks.fault_plan = to_disk;
        job_run(&w.sim, j, 0);
        ev_run(&w.sim, INFINITY);
        end[b] = j->end;
        faults[b] = j->faults;
        ck_assert_near(j->end, 15 + (double)j->faults * S_DISK, 1e-9 * j->end);
        ck_assert_near(cpu_busy(&w), 15, 1e-9);
        if (b)
            ck_assert_uint_gt(w.cl.batch_faults, j->faults / 2);
        world_free(&w);
    }
    ck_assert_uint_eq(faults[1], faults[0]);
    ck_assert_near(end[1], end[0], 1e-9 * end[0]);
}
END_TEST

/* ---- a burst cut short ----------------------------------------------------------------- */

START_TEST(test_stop_credits_work)
{
    /* One thread of 100 s on a PE at speed 2, stopped at 10 (it has done
     * 10 x 2 = 20 s of work), resumed at 100: the 80 s left take 40 s, so
     * it ends at 140. At speed 1 it would end at 100 + 90 = 190. */
    const double sp[1] = {2};
    world w;
    world_speeds(&w, 1, 64, 1, sp);
    job_t *j = make_job(&w, 1, 1, NULL, 100, 8);
    job_run(&w.sim, j, 0);
    at(&w, 10, j, ACT_STOP, 0);
    at(&w, 50, j, ACT_SNAP, 0);
    at(&w, 100, j, ACT_RUN, 0);
    ev_run(&w.sim, INFINITY);
    ck_assert_double_eq(w.snap_cpu, 20);
    ck_assert_double_eq(j->end, 140);
    ck_assert_double_eq(cpu_busy(&w), 50);
    world_free(&w);
}
END_TEST

static void lend_cb(sim_t *sim, void *arg)
{
    pe_lend(sim, arg, 10);
}

START_TEST(test_mem_change_rehold)
{
    /* One 60 MB thread of 100 s on a 64 MB PE at speed 2, no fault rate
     * (R = 0: it never pages). At 10 the PE lends 10 MB: overallocated,
     * the thread is told (thread_mem_changed) in its burst, which is
     * credited (10 x 2 = 20 s of work) and held again for the 80 s left:
     * 80 / 2 = 40 s, so it ends at 50, as without the change. */
    const double sp[1] = {2};
    world w;
    world_speeds(&w, 1, 64, 1, sp);
    job_t *j = make_job(&w, 1, 1, NULL, 100, 60);
    job_run(&w.sim, j, 0);
    ev_once(&w.sim, 10, lend_cb, &w.cl.pes[0]);
    ev_run(&w.sim, INFINITY);
    ck_assert_double_eq(j->th[0].L, 6 * MB);
    ck_assert_uint_eq(j->faults, 0);
    ck_assert_double_eq(j->end, 50);
    world_free(&w);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("speed");
    TCase *tc = tcase_create("speed");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_compute_only_halves);
    tcase_add_test(tc, test_uniform_speed_one_is_default);
    tcase_add_test(tc, test_mixed_no_sync);
    tcase_add_test(tc, test_mixed_sync_slowest_pace);
    tcase_add_test(tc, test_paging_cpu_halves_faults_do_not);
    tcase_add_test(tc, test_paging_batched_same);
    tcase_add_test(tc, test_stop_credits_work);
    tcase_add_test(tc, test_mem_change_rehold);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
