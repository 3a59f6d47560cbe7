/* tests/test_job.c: parallel jobs and their threads (sched/job.c) on small
 * clusters built by hand: the cluster's list of live jobs, the page-fault
 * model of techreport §4.1.5 (no faults within RAM, L/P faults before the
 * first reset, the reset draw's bounds and shape, exponential fault
 * intervals of mean R*P/U, overallocation changes reaching threads that are
 * not computing), the disk as an M/D/1 queue fed by faulting threads,
 * neighbour and synchronisation message counts and times, and a paging
 * thread slowing its whole job.
 *
 * The other parts: tests/test_job_stop.c (stopping, resuming, memory
 * release, CPU-time conservation, gang time slicing) and
 * tests/test_job_run.c (whole runs through app/run.h, the knobs). The
 * world and the constants (S, Ls, D) are in tests/fixture_job.h.
 */
#include "app/config.h"
#include "app/run.h"
#include "app/run_check.h"
#include "sched/gang.h"
#include "sched/gang_check.h"
#include "sched/job.h"
#include "tests/testcluster.h"
#include "tests/testutil.h"

#include <gsl/gsl_cdf.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "tests/fixture_job.h"

/* ---- no faults within RAM ---------------------------------------------------- */

/* The cluster's list of live jobs: newest first; a job leaves it when
 * destroyed, wherever it stands. */
START_TEST(test_jobs_alive_list)
{
    world w;
    world_init(&w, 2, 64, TOPO_KIND_STAR, BW, 1);
    ck_assert_ptr_null(job_first(&w.cl));
    job_t *a = job_create(&w.cl, 1, 0, 0, 1, 10, 1);
    job_t *b = job_create(&w.cl, 2, 1, 0, 1, 10, 1);
    job_t *c = job_create(&w.cl, 3, 2, 0, 1, 10, 1);
    ck_assert_ptr_eq(job_first(&w.cl), c);
    ck_assert_ptr_eq(job_next(&w.cl, c), b);
    ck_assert_ptr_eq(job_next(&w.cl, b), a);
    ck_assert_ptr_null(job_next(&w.cl, a));
    ck_assert_int_eq(w.cl.jobs_alive, 3);
    job_destroy(&w.sim, b);
    ck_assert_ptr_eq(job_next(&w.cl, c), a);
    ck_assert_int_eq(w.cl.jobs_alive, 2);
    world_free(&w); /* destroys c and a */
}
END_TEST

START_TEST(test_no_faults_within_ram)
{
    /* RAM 64 MB per PE; R = 1e-7 s, so an overallocated thread would fault
     * about every R*P = 4.1e-4 CPU seconds.
     *   job 1: two threads of exactly 64 MB on PEs 0, 1, 50 s: no faults,
     *          ends at 50.
     *   jobs 2, 3: one thread each on PE 2, 40 + 24 = 64 MB, 30 s each: no
     *          faults; the CPU serves them in turn: 2 ends at 30, 3 at 60.
     *   job 4: 64 MB + half a page on PE 3: less than a page is out of RAM,
     *          nothing to page (the model's reading: L < P means no faults). */
    world w;
    world_init(&w, 4, 64, TOPO_KIND_STAR, BW, 1);
    w.cl.mem_access_rate = 1e-7;
    job_t *j1 = make_job(&w, 1, 2, NULL, 50, 64);
    int pe2[] = {2}, pe3[] = {3};
    job_t *j2 = make_job(&w, 2, 1, pe2, 30, 40);
    job_t *j3 = make_job(&w, 3, 1, pe2, 30, 24);
    job_t *j4 = make_job(&w, 4, 1, pe3, 50, 64 + 2048 / MB);
    job_run(&w.sim, j1, 0);
    job_run(&w.sim, j2, 0);
    job_run(&w.sim, j3, 0);
    job_run(&w.sim, j4, 0);
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(w.jobs_ended, 4);
    for (int i = 0; i < 4; i++) {
        ck_assert_uint_eq(w.cl.pes[i].faults, 0);
        ck_assert_double_eq(w.cl.pes[i].fault_time, 0);
        ck_assert_double_eq(w.cl.pes[i].alloc_mb, 0);
        ck_assert_uint_eq(w.cl.pes[i].disk.requests, 0);
    }
    ck_assert_double_eq(j1->end, 50);
    ck_assert_double_eq(j2->end, 30);
    ck_assert_double_eq(j3->end, 60);
    ck_assert_double_eq(j3->start, 0);
    ck_assert_double_eq(j4->end, 50);
    ck_assert_double_eq(j1->th[0].L, 0);
    ck_assert_double_eq(j4->th[0].L, 2048);
    ck_assert_uint_eq(j4->th[0].faults, 0);
    ck_assert_near(w.cl.cpu_demand_done, 2 * 50 + 30 + 30 + 50, TOL);
    ck_assert_near(cpu_busy(&w), w.cl.cpu_demand_done, TOL);
    ck_assert_int_eq(w.cl.threads_running, 0);
    world_free(&w);
}
END_TEST

/* ---- faults until the first reset ---------------------------------------------- */

static long check_resets(const world *w, long job, int idx, double L, double C, tally_t *resets)
{
    return check_resets_p(w, job, idx, L, C, PAGE, resets);
}

START_TEST(test_faults_until_first_reset)
{
    /* RAM 64 MB, one 65 MB thread: overallocation 1 MB, L = min(1 MB, 65 MB)
     * = 1048576 B = 256 pages, so exactly 256 faults bring U to 0 and the
     * 257th fault is the first after a reset. C = max(P, min(L, |64 - 65| MB))
     * = 1 MB. R = 1e-6: R*P = 4.096e-3 s; the 256 faults need on average
     * R*P * 256 * H(256) = 6.4 CPU s, so 30 s reach several resets.
     * One thread alone never queues for its disk: each fault costs exactly
     * S, and the thread ends at 30 + faults * S. */
    world w;
    world_init(&w, 1, 64, TOPO_KIND_STAR, BW, 2);
    w.cl.mem_access_rate = 1e-6;
    w.log_faults = true;
    job_t *j = make_job(&w, 1, 1, NULL, 30, 65);
    job_run(&w.sim, j, 0);
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(w.jobs_ended, 1);
    tally_t resets;
    tally_init(&resets);
    long first = check_resets(&w, 1, 0, MB, MB, &resets);
    ck_assert_int_eq(first, 256);
    ck_assert_uint_ge(resets.n, 2);
    uint64_t n = j->th[0].faults;
    ck_assert_uint_eq(n, w.nfaults);
    ck_assert_uint_eq(w.cl.pes[0].faults, n);
    ck_assert_uint_eq(w.cl.pes[0].disk_faults, n);
    ck_assert_uint_eq(w.cl.pes[0].remote_faults, 0);
    ck_assert_uint_eq(j->faults, n);
    ck_assert_uint_eq(w.cl.pes[0].disk.completions, n);
    ck_assert_near(j->fault_time, (double)n * S_DISK, TOL);
    ck_assert_near(w.cl.pes[0].fault_time, (double)n * S_DISK, TOL);
    ck_assert_near(j->end, 30 + (double)n * S_DISK, TOL);
    ck_assert_near(cpu_busy(&w), 30, TOL);
    world_free(&w);
}
END_TEST

START_TEST(test_reset_bound_by_ram_minus_size)
{
    /* RAM 4 MB, two one-thread jobs of 3.5 MB on the PE: overallocation
     * 3 MB, L = min(3, 3.5) MB = 768 pages each; C = max(P, min(L, |4 - 3.5|
     * MB)) = 0.5 MB = 128 pages < L. Each thread faults 768 times before
     * its first reset; resets then draw O ~ Triangular(P, P, C), mean
     * (P + P + C) / 3 = 130/3 pages = 43.33 pages, sd (C - P) / sqrt(18)
     * = 127/sqrt(18) pages = 29.9 pages. R = 2.5e-8 (R*P = 1.024e-4 s): the
     * first 768 faults take R*P * 768 * H(768) = 0.57 CPU s on average; a
     * cycle after a reset (O of about 43 pages, U = O/L small) about
     * R*P * 768 * H(43) = 0.34 s; 30 s per thread give ~150 resets in all.
     * The mean of the n resets seen must be within 4 sd/sqrt(n). */
    world w;
    world_init(&w, 1, 4, TOPO_KIND_STAR, BW, 3);
    w.cl.mem_access_rate = 2.5e-8;
    w.log_faults = true;
    job_t *a = make_job(&w, 1, 1, NULL, 30, 3.5);
    job_t *b = make_job(&w, 2, 1, NULL, 30, 3.5);
    job_run(&w.sim, a, 0);
    job_run(&w.sim, b, 0);
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(w.jobs_ended, 2);
    double L = 3 * MB, C = 0.5 * MB;
    tally_t resets;
    tally_init(&resets);
    ck_assert_int_eq(check_resets(&w, 1, 0, L, C, &resets), 768);
    ck_assert_int_eq(check_resets(&w, 2, 0, L, C, &resets), 768);
    ck_assert_uint_ge(resets.n, 50);
    double mean = (2 * PAGE + C) / 3, sd = (C - PAGE) / sqrt(18);
    ck_assert_msg(fabs(resets.mean - mean) <= 4 * sd / sqrt((double)resets.n),
                  "mean reset %.1f pages over %llu, expected %.2f", resets.mean / PAGE,
                  (unsigned long long)resets.n, mean / PAGE);
    ck_assert_near(cpu_busy(&w), 60, TOL);
    world_free(&w);
}
END_TEST

/* ---- the reset draw itself ------------------------------------------------------- */

static void check_reset_draw(double L, double ram, double size, double C)
{
    /* Triangular(P, P, C): support [P, C], mode P; mean (2P + C)/3, sd
     * (C - P)/sqrt(18); CDF 1 - ((C - x)/(C - P))^2, so 3/4 of the mass
     * lies below the midpoint, 19% in the lowest tenth, 1% in the top
     * tenth. n = 100000 draws; tolerances 4 standard errors. */
    const int n = 100000;
    rng_t *r = rng_stream(11, "reset", (uint64_t)(C / PAGE));
    tally_t t;
    tally_init(&t);
    long below_mid = 0, low_tenth = 0, top_tenth = 0;
    for (int i = 0; i < n; i++) {
        double x = job_fault_reset(r, L, ram, size, PAGE);
        ck_assert_msg(x >= PAGE && x <= C, "draw %.17g outside [%g, %g]", x, PAGE, C);
        tally_add(&t, x);
        if (C > PAGE) {
            double u = (x - PAGE) / (C - PAGE);
            below_mid += u < 0.5;
            low_tenth += u < 0.1;
            top_tenth += u >= 0.9;
        }
    }
    rng_free(r);
    if (C == PAGE) {
        ck_assert_double_eq(t.min, PAGE);
        ck_assert_double_eq(t.max, PAGE);
        return;
    }
    double sd = (C - PAGE) / sqrt(18);
    ck_assert_near(t.mean, (2 * PAGE + C) / 3, 4 * sd / sqrt(n));
    ck_assert_near((double)below_mid / n, 0.75, 4 * sqrt(0.75 * 0.25 / n));
    ck_assert_near((double)low_tenth / n, 0.19, 4 * sqrt(0.19 * 0.81 / n));
    ck_assert_near((double)top_tenth / n, 0.01, 4 * sqrt(0.01 * 0.99 / n));
}

START_TEST(test_reset_draw_bounds)
{
    /* C = max(P, min(L, |RAM - size|)):
     *   L 16 MB, RAM 64, size 40:   |24| -> C = 16 MB (L binds)
     *   L 56 MB, RAM 64, size 60:   |4|  -> C = 4 MB
     *   L 36 MB, RAM 64, size 100:  the report's C = -36 MB is invalid;
     *                               |-36| = 36 -> C = 36 MB
     *   L 1 MB, RAM 64, size 64:    |0|  -> C = P: always one page */
    check_reset_draw(16 * MB, 64 * MB, 40 * MB, 16 * MB);
    check_reset_draw(56 * MB, 64 * MB, 60 * MB, 4 * MB);
    check_reset_draw(36 * MB, 64 * MB, 100 * MB, 36 * MB);
    check_reset_draw(1 * MB, 64 * MB, 64 * MB, PAGE);
}
END_TEST

/* ---- fault intervals -------------------------------------------------------------- */

START_TEST(test_fault_intervals_exponential)
{
    /* Between two faults the thread computes T ~ Exp(mean R*P/U), U = O/L
     * with O = L - D as it stood after the previous fault (and reset). So
     * x = (CPU between faults) * U / (R*P) is Exp(1): mean 1, variance 1,
     * P(x > 1) = e^-1. One 65 MB thread on 64 MB (L = 256 pages), R = 1e-7
     * (R*P = 4.1e-4 s), 200 CPU seconds: a cycle after a reset (O of about
     * 86 pages) takes about R*P * 256 * H(86) = 0.53 s for 86 faults, so
     * ~3e4 faults; tolerances are 4 standard errors (sd of the sample
     * variance of Exp(1): sqrt(8/n)). */
    world w;
    world_init(&w, 1, 64, TOPO_KIND_STAR, BW, 4);
    const double R = 1e-7;
    w.cl.mem_access_rate = R;
    w.log_faults = true;
    job_t *j = make_job(&w, 1, 1, NULL, 200, 65);
    job_run(&w.sim, j, 0);
    ev_run(&w.sim, INFINITY);
    tally_t x;
    tally_init(&x);
    long above = 0;
    double prev = 0;
    for (size_t i = 0; i < w.nfaults; i++) {
        const fault_rec *f = &w.faults[i];
        double U = (f->L - f->D) / f->L;
        double xi = (f->cpu - prev) * U / (R * PAGE);
        tally_add(&x, xi);
        above += xi > 1;
        prev = f->cpu;
    }
    double n = (double)x.n;
    ck_assert_uint_ge(x.n, 5000);
    ck_assert_near(x.mean, 1, 4 / sqrt(n));
    ck_assert_near(tally_var(&x), 1, 4 * sqrt(8 / n));
    ck_assert_near(above / n, exp(-1), 4 * sqrt(exp(-1) * (1 - exp(-1)) / n));
    world_free(&w);
}
END_TEST

/* ---- overallocation changes reach every thread -------------------------------------- */

START_TEST(test_mem_change_reaches_waiting_thread)
{
    /* RAM 64 MB. A (48 MB, 100 s) runs alone from 0: not overallocated.
     * At 10 A is stopped and B (32 MB, 20 s) starts: 80 MB allocated, 16 MB
     * overallocated, L = 16 MB for both, though A is not computing. At 20 B
     * is stopped (its memory stays) and A resumes: A must now fault (R = 1e-5:
     * R*P = 0.041 s, so about 1900 faults in its 90 remaining seconds). A is
     * alone on CPU and disk (apart from the rest of a fault B may have had in
     * progress at 20, which A's fault time then includes), so it ends at
     * 100 + 10 (stopped) + its fault time. When A ends, B's node is no
     * longer overallocated: B (resumed at 1000) faults no more and ends at
     * 1000 + the CPU time it still needed. */
    world w;
    world_init(&w, 1, 64, TOPO_KIND_STAR, BW, 5);
    w.cl.mem_access_rate = 1e-5;
    w.log_faults = true;
    job_t *a = make_job(&w, 1, 1, NULL, 100, 48);
    job_t *b = make_job(&w, 2, 1, NULL, 20, 32);
    job_run(&w.sim, a, 0);
    at(&w, 10, a, ACT_STOP, 0);
    at(&w, 10, b, ACT_RUN, 0);
    at(&w, 20, b, ACT_STOP, 0);
    at(&w, 20, a, ACT_RUN, 0);
    at(&w, 999, b, ACT_SNAP, 0);
    at(&w, 1000, b, ACT_RUN, 0);
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(w.jobs_ended, 2);
    thread_t *ta = &a->th[0], *tb = &b->th[0];
    ck_assert_uint_gt(tb->faults, 0); /* B paged during 10..20 */
    ck_assert_uint_gt(ta->faults, 1000);
    for (size_t i = 0; i < w.nfaults; i++) {
        ck_assert_double_eq(w.faults[i].L, 16 * MB);
        if (w.faults[i].job == 1)
            ck_assert(w.faults[i].t > 20);
    }
    ck_assert_near(a->end, 110 + ta->fault_time, TOL);
    ck_assert(a->end < 999);
    ck_assert_double_eq(w.snap_L, 0);
    ck_assert_uint_eq(tb->faults, w.snap_faults);
    ck_assert_near(b->end, 1000 + (20 - w.snap_cpu), TOL);
    ck_assert_near(cpu_busy(&w), 120, TOL);
    world_free(&w);
}
END_TEST

/* ---- the disk as an M/D/1 queue fed by threads --------------------------------------- */
/* K = 20 one-thread jobs on one PE, each thread 10^6 MB on a 1 MB RAM, so
 * L = thread size = 2.56e8 pages and U stays above 1 - 2e-5 over the run:
 * each burst lasts Exp(R*P) CPU seconds. The CPU is never idle (with 20
 * threads, all of them at the disk at once has probability ~ 0.4^20), so
 * bursts follow each other and faults reach the disk as a Poisson process
 * of rate lambda = 1/(R*P). Service is S exactly. Choosing R*P = S/rho
 * makes the disk an M/D/1 queue with load rho, and Pollaczek-Khinchine
 * gives Wq = rho*S / (2(1 - rho)) = S/2 at rho 0.5. A fault's time is its
 * wait plus S, so Wq = fault time / faults - S over a window after a
 * warm-up. 10 replications of ~100000 faults: theory inside the Student-t
 * 99.9% interval, interval narrower than 5% of Wq. */
START_TEST(test_disk_md1_threads)
{
    const int K = 20, reps = 10;
    const double rho = 0.5, S = S_DISK, RP = S / rho;
    const double wq = rho * S / (2 * (1 - rho));
    const double t_warm = 5000 * RP, t_end = t_warm + 100000 * RP;
    tally_t means, util, cpu_util;
    tally_init(&means);
    tally_init(&util);
    tally_init(&cpu_util);
    for (int r = 0; r < reps; r++) {
        world w;
        world_init(&w, 1, 1, TOPO_KIND_STAR, BW, 100 + (uint64_t)r);
        w.cl.mem_access_rate = RP / PAGE;
        job_t *jobs[20];
        for (int k = 0; k < K; k++) {
            jobs[k] = make_job(&w, k + 1, 1, NULL, 1e9, 1e6);
            job_run(&w.sim, jobs[k], 0);
        }
        ev_run(&w.sim, t_warm);
        double ft0 = 0, busy0 = res_busy_time(&w.sim, &w.cl.pes[0].disk);
        double cbusy0 = res_busy_time(&w.sim, &w.cl.pes[0].cpu);
        uint64_t n0 = 0;
        for (int k = 0; k < K; k++) {
            ft0 += jobs[k]->fault_time;
            n0 += jobs[k]->faults;
        }
        ev_run(&w.sim, t_end);
        double ft1 = 0;
        uint64_t n1 = 0;
        for (int k = 0; k < K; k++) {
            ft1 += jobs[k]->fault_time;
            n1 += jobs[k]->faults;
            ck_assert(jobs[k]->th[0].L == 1e6 * MB);
        }
        ck_assert_uint_gt(n1 - n0, 90000);
        tally_add(&means, (ft1 - ft0) / (double)(n1 - n0) - S);
        tally_add(&util, (res_busy_time(&w.sim, &w.cl.pes[0].disk) - busy0) / (t_end - t_warm));
        tally_add(&cpu_util, (res_busy_time(&w.sim, &w.cl.pes[0].cpu) - cbusy0) / (t_end - t_warm));
        world_free(&w);
    }
    double t = gsl_cdf_tdist_Pinv(0.9995, reps - 1);
    double half = t * tally_sd(&means) / sqrt(reps);
    ck_assert_msg(fabs(means.mean - wq) <= half, "Wq %.6g +- %.3g, M/D/1 theory %.6g", means.mean,
                  half, wq);
    ck_assert_msg(half < 0.05 * wq, "interval %.3g too wide for Wq %.3g", half, wq);
    double uhalf = t * tally_sd(&util) / sqrt(reps);
    ck_assert_msg(fabs(util.mean - rho) <= uhalf + 1e-3, "disk utilisation %.4f +- %.4f",
                  util.mean, uhalf);
    ck_assert_msg(cpu_util.min > 0.999, "the CPU idled: utilisation %.6f", cpu_util.min);
}
END_TEST

/* ---- message counts ----------------------------------------------------------------- */

static void check_counts(int threads, double cpu, double comm, double sync, long nb_expect,
                         long sync_expect)
{
    world w;
    world_init(&w, 4, 64, TOPO_KIND_STAR, BW, 6);
    w.cl.comm_rate = comm;
    w.cl.sync_rate = sync;
    job_t *j = make_job(&w, 1, threads, NULL, cpu, 8);
    job_run(&w.sim, j, 0);
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(w.jobs_ended, 1);
    ck_assert_int_eq(nb_expect, threads * firings(cpu, comm));
    ck_assert_int_eq(sync_expect, threads * firings(cpu, sync));
    ck_assert_uint_eq(w.cl.neighbour_msgs, (uint64_t)nb_expect);
    ck_assert_uint_eq(w.cl.neighbour_replies, (uint64_t)nb_expect);
    ck_assert_uint_eq(w.cl.sync_msgs, (uint64_t)sync_expect);
    /* Every message went through the network and arrived. */
    uint64_t total = (uint64_t)(2 * nb_expect + sync_expect);
    ck_assert_uint_eq(net_messages_sent(w.cl.net), total);
    ck_assert_uint_eq(net_messages_delivered(w.cl.net), total);
    ck_assert_int_eq(net_in_flight(w.cl.net), 0);
    ck_assert(list_empty(&j->msgs));
    for (int i = 0; i < threads; i++)
        ck_assert_double_eq(j->th[i].cpu_done, cpu);
    world_free(&w);
}

START_TEST(test_message_counts)
{
    /* 4 threads, 100 s, comm 7, sync 30: floor(100/7) = 14 neighbour
     * messages per thread (56, and 56 replies), floor(100/30) = 3
     * synchronisations (12 messages to the master). */
    check_counts(4, 100, 7, 30, 56, 12);
    /* Exact multiples fire at the very end too: comm 10 -> 10 each (40),
     * sync 25 -> 4 each (16). */
    check_counts(4, 100, 10, 25, 40, 16);
    /* One thread is its own successor and master: 10 s, comm 1 -> 10,
     * sync 2 -> 5 (all to itself). */
    check_counts(1, 10, 1, 2, 10, 5);
    /* Rates longer than the demand: nothing. */
    check_counts(3, 10, 11, 12, 0, 0);
    /* 0 disables. */
    check_counts(3, 10, 0, 0, 0, 0);
}
END_TEST

/* ---- synchronisation times -------------------------------------------------------------- */

START_TEST(test_sync_time)
{
    /* 4 threads on 4 PEs of a star, 100 s, sync every 10 s, no paging, no
     * neighbour messages. At each synchronisation all four arrive at once;
     * the master's own message arrives at once and the three others cross
     * their own links in parallel (Ls), then queue for the switch (D each)
     * and the master's link (Ls each). D > Ls, so the switch is the
     * bottleneck: the last arrives 2 Ls + 3 D after the start. Ten
     * synchronisations (the last at 100 s): the job ends at
     *     100 + 10 (2 Ls + 3 D) = 100 + 10 * 2.5034e-4 = 100.0025034 s,
     * every thread at that same instant. */
    world w;
    world_init(&w, 4, 64, TOPO_KIND_STAR, BW, 7);
    w.cl.sync_rate = 10;
    job_t *j = make_job(&w, 1, 4, NULL, 100, 8);
    job_run(&w.sim, j, 0);
    ev_run(&w.sim, INFINITY);
    ck_assert_near(2 * LS + 3 * DELAY, 2.5034e-4, 1e-15);
    ck_assert_near(j->end, 100.0025034, TOL);
    for (int i = 0; i < 4; i++)
        ck_assert_double_eq(thread_end_time(&w, 1, i), j->end);
    ck_assert_uint_eq(w.cl.sync_msgs, 40);
    world_free(&w);
}
END_TEST

/* ---- one paging thread slows the whole job ------------------------------------------------ */

/* 4 threads of 32 MB on 4 PEs with 64 MB, sync every 10 s. With `lend`,
 * PE 2 lends 40 MB of its RAM (a network-RAM server would), leaving it
 * 8 MB overallocated: only thread 2 pages (L = 8 MB, R = 1e-5). */
static void paging_job(double cpu, bool lend, double *end, double *fault_time2, double tends[4])
{
    world w;
    world_init(&w, 4, 64, TOPO_KIND_STAR, BW, 8);
    w.cl.sync_rate = 10;
    w.cl.mem_access_rate = 1e-5;
    if (lend)
        pe_lend(&w.sim, &w.cl.pes[2], 40);
    job_t *j = make_job(&w, 1, 4, NULL, cpu, 32);
    job_run(&w.sim, j, 0);
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(w.jobs_ended, 1);
    for (int i = 0; i < 4; i++) {
        tends[i] = thread_end_time(&w, 1, i);
        if (i != 2)
            ck_assert_uint_eq(j->th[i].faults, 0);
    }
    if (lend) {
        ck_assert_uint_gt(j->th[2].faults, 100);
        ck_assert_double_eq(j->th[2].L, 8 * MB);
    }
    *end = j->end;
    *fault_time2 = j->th[2].fault_time;
    world_free(&w);
}

START_TEST(test_paging_slows_job)
{
    /* Without paging: 100 + 10 (2 Ls + 3 D) as in test_sync_time. With
     * thread 2 paging, in every period the other three wait at the barrier
     * for it: the period lasts 10 + its fault time in the period + 2 Ls + 3 D,
     * so the job ends exactly thread 2's fault time later. All four threads
     * leave the last synchronisation (at 100 s) together. */
    double end0, end1, ft, tends[4];
    paging_job(100, false, &end0, &ft, tends);
    ck_assert_near(end0, 100 + 10 * (2 * LS + 3 * DELAY), TOL);
    ck_assert_double_eq(ft, 0);
    paging_job(100, true, &end1, &ft, tends);
    ck_assert(ft > 1);
    ck_assert(end1 > end0);
    ck_assert_near(end1, end0 + ft, TOL);
    for (int i = 0; i < 4; i++)
        ck_assert_double_eq(tends[i], end1);

    /* 105 s: after the last synchronisation (100 s) every thread computes
     * 5 s more; the three that do not page end together, thread 2 later by
     * its fault time in those 5 s, within one synchronisation period. */
    paging_job(105, true, &end1, &ft, tends);
    ck_assert_near(end1, 105 + 10 * (2 * LS + 3 * DELAY) + ft, TOL);
    ck_assert_double_eq(tends[0], tends[1]);
    ck_assert_double_eq(tends[0], tends[3]);
    ck_assert(tends[2] >= tends[0]);
    ck_assert(tends[2] - tends[0] < 10);
    ck_assert_double_eq(tends[2], end1);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("job");
    TCase *tc = tcase_create("job");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_jobs_alive_list);
    tcase_add_test(tc, test_no_faults_within_ram);
    tcase_add_test(tc, test_faults_until_first_reset);
    tcase_add_test(tc, test_reset_bound_by_ram_minus_size);
    tcase_add_test(tc, test_reset_draw_bounds);
    tcase_add_test(tc, test_fault_intervals_exponential);
    tcase_add_test(tc, test_mem_change_reaches_waiting_thread);
    tcase_add_test(tc, test_disk_md1_threads);
    tcase_add_test(tc, test_message_counts);
    tcase_add_test(tc, test_sync_time);
    tcase_add_test(tc, test_paging_slows_job);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
