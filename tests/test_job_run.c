/* tests/test_job_run.c: parallel jobs (sched/job.c) in whole runs through
 * app/run.h, and the knobs of the job model checked against figures worked
 * out by hand: page size in the fault model and the reset draw, disk
 * rotation, exponential neighbour and synchronisation intervals on their
 * own streams, heterogeneous RAM, page messages that follow the page size.
 * Constants and the hand-built world: tests/fixture_job.h; the fault model
 * on its own: tests/test_job.c; stopping: tests/test_job_stop.c.
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

/* ---- a whole run through app/run.h ----------------------------------------------------------------- */

START_TEST(test_whole_run)
{
    /* 60 jobs of a trace written here (1-8 threads, 5-200 s whole seconds,
     * 16-48 MB per thread, Poisson arrivals every 20 s on average) on 8 PEs
     * of 64 MB, MPL 2, quantum 10 s, neighbour messages every 3 s and
     * synchronisation every 7 s of CPU, R = 1e-5, and a slow star
     * (0.01 MB/s: a 1024 B message spends 0.1 s on each link) so that
     * context switches kill messages. The run's metrics must show: every
     * job finished; CPU busy time = CPU demand done = sum of threads * cpu;
     * neighbour messages = sum of threads * floor(cpu / 3), as many replies;
     * synchronisation messages = sum of threads * floor(cpu / 7); every
     * killed message restarted; some paging. */
    char path[] = "/tmp/pnrsim-test-job-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    ck_assert_ptr_nonnull(f);
    rng_t *r = rng_stream(21, "trace", 0);
    double demand = 0, submit = 0;
    long nb = 0, sy = 0;
    for (int i = 1; i <= 60; i++) {
        int procs = 1 + (int)rng_index(r, 8);
        int cpu = 5 + (int)rng_index(r, 196);
        int mem_kb = (16 + (int)rng_index(r, 33)) * 1024;
        fprintf(f, "%d %.0f 0 %d %d %d %d %d -1 -1 1 1 1 1 1 1 -1 -1\n", i, submit, cpu, procs,
                cpu, mem_kb, procs);
        submit += floor(rng_exp(r, 20));
        demand += procs * cpu;
        nb += procs * (cpu / 3);
        sy += procs * (cpu / 7);
    }
    rng_free(r);
    fclose(f);
    /* Both route modes (issue 11): WHOLE keeps every count. */
    for (int mode = 0; mode < 2; mode++) {
        config c;
        char err[CFG_ERR_MAX], set[CFG_PATH_MAX + 32];
        config_defaults(&c);
        const char *sets[] = {"computer.number=8", "computer.ram=64", "scheduler.mpl=2",
                              "scheduler.quantum=10", "scheduler.pcs=0.01",
                              "scheduler.strict_order=no", "process.comm_rate=3",
                              "process.sync_rate=7", "process.mem_access_rate=0.00001",
                              "network.bandwidth=0.01", "simulation.seed=5",
                              mode ? "network.route=whole" : "network.route=hops", NULL};
        for (int i = 0; sets[i]; i++)
            ck_assert_msg(config_set(&c, sets[i], err) == 0, "%s", err);
        snprintf(set, sizeof set, "workload.trace=%s", path);
        ck_assert_msg(config_set(&c, set, err) == 0, "%s", err);
        ck_assert_msg(config_validate(&c, err) == 0, "%s", err);
        run_t *run = run_create(&c, NULL, NULL, err);
        ck_assert_msg(run != NULL, "%s", err);
        run_set_checking(run, true);
        ck_assert_msg(run_execute(run, err) == 0, "%s", err);
        ck_assert_ptr_null(run_check_failure(run));
        run_metrics m;
        run_metrics_get(run, &m);
        ck_assert_int_eq(net_route_mode_of(run_cluster(run)->net), mode);
        if (mode)
            ck_assert_uint_gt(net_whole_routes(run_cluster(run)->net), 0);
        ck_assert_int_eq(m.jobs_finished, 60);
        ck_assert_near(m.cpu_demand_done, demand, 1e-9 * demand);
        ck_assert_near(m.cpu_busy_total, demand, 1e-9 * demand);
        ck_assert_uint_eq(m.neighbour_msgs, (uint64_t)nb);
        ck_assert_uint_eq(m.neighbour_replies, (uint64_t)nb);
        ck_assert_uint_eq(m.sync_msgs, (uint64_t)sy);
        ck_assert_uint_eq(m.net_messages, (uint64_t)(2 * nb + sy));
        ck_assert_uint_gt(m.messages_killed, 0);
        ck_assert_uint_eq(m.net_restarts, m.messages_killed);
        ck_assert_uint_gt(m.page_faults_disk, 0);
        ck_assert_int_eq(m.mpl_max, 2);
        run_destroy(run);
    }
    unlink(path);
}
END_TEST

/* ---- knobs: page size, disk rotation, exponential intervals --------------------------------- */

START_TEST(test_page_size_fault_model)
{
    /* test_faults_until_first_reset with P = 16384 B (process.page_size):
     * RAM 64 MB, one 65 MB thread, L = 1 MB = 64 pages of 16 KB, so exactly
     * 64 faults before the first reset, D grows by 16384 per fault, every
     * reset O lies in [16384, C = 1 MB], and each fault costs the disk
     *     S16 = 0.009 + 30/7200 + 16384/50e6 = 0.0134943466... s
     * (one thread alone never queues). The first fault interval has U = 1,
     * mean R*P: with R = 1e-6 the 64 faults of a cycle after a reset take
     * R*P*64*H(O/P) CPU s; 30 CPU s give several resets. */
    const double P = 16384;
    const double S16 = 0.009 + 30.0 / 7200.0 + 16384.0 / 50e6;
    world w;
    world_init(&w, 1, 64, TOPO_KIND_STAR, BW, 2);
    w.cl.mem_access_rate = 1e-6;
    w.cl.page_bytes = P;
    pe_set_disk(&w.cl.pes[0], SEEK, RPM, XFER, P, 0.5);
    ck_assert_near(w.cl.pes[0].disk_service, 0.01349434666667, 1e-13);
    w.log_faults = true;
    job_t *j = make_job(&w, 1, 1, NULL, 30, 65);
    job_run(&w.sim, j, 0);
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(w.jobs_ended, 1);
    tally_t resets;
    tally_init(&resets);
    ck_assert_int_eq(check_resets_p(&w, 1, 0, MB, MB, P, &resets), 64);
    ck_assert_uint_ge(resets.n, 2);
    uint64_t n = j->th[0].faults;
    ck_assert_near(j->fault_time, (double)n * S16, TOL);
    ck_assert_near(j->end, 30 + (double)n * S16, TOL);
    world_free(&w);
}
END_TEST

START_TEST(test_page_size_fault_intervals)
{
    /* test_fault_intervals_exponential with P = 8192: x = (CPU between
     * faults) * U / (R*P) must be Exp(1) (mean 1, variance 1), which fails
     * by a factor 2 if any part of the fault clock still used 4096. */
    const double P = 8192, R = 1e-7;
    world w;
    world_init(&w, 1, 64, TOPO_KIND_STAR, BW, 4);
    w.cl.mem_access_rate = R;
    w.cl.page_bytes = P;
    w.log_faults = true;
    job_t *j = make_job(&w, 1, 1, NULL, 200, 65);
    job_run(&w.sim, j, 0);
    ev_run(&w.sim, INFINITY);
    tally_t x;
    tally_init(&x);
    double prev = 0;
    for (size_t i = 0; i < w.nfaults; i++) {
        const fault_rec *f = &w.faults[i];
        tally_add(&x, (f->cpu - prev) * ((f->L - f->D) / f->L) / (R * P));
        prev = f->cpu;
    }
    double n = (double)x.n;
    ck_assert_uint_ge(x.n, 3000);
    ck_assert_near(x.mean, 1, 4 / sqrt(n));
    ck_assert_near(tally_var(&x), 1, 4 * sqrt(8 / n));
    world_free(&w);
}
END_TEST

START_TEST(test_reset_draw_page_size)
{
    /* The reset draw's support follows P: Triangular(P, P, C) with P = 65536,
     * L = 4 MB, RAM 64 MB, size 65 MB: C = min(L, 1 MB) = 1 MB; mean
     * (2P + C)/3 = 393216, sd (C - P)/sqrt(18); 20000 draws, 4 standard
     * errors. A C below P is raised to P: L = 32 KB gives exactly P. */
    const double P = 65536;
    rng_t *r = rng_stream(12, "reset", 0);
    tally_t t;
    tally_init(&t);
    for (int i = 0; i < 20000; i++) {
        double x = job_fault_reset(r, 4 * MB, 64 * MB, 65 * MB, P);
        ck_assert(x >= P && x <= MB);
        tally_add(&t, x);
    }
    ck_assert_near(t.mean, (2 * P + MB) / 3, 4 * (MB - P) / sqrt(18) / sqrt(20000.0));
    ck_assert_double_eq(job_fault_reset(r, 32768, 64 * MB, 65 * MB, P), P);
    rng_free(r);
}
END_TEST

/* 8 one-thread jobs on 8 PEs, `cpu` CPU s each, neighbour messages at
 * `comm` (and synchronisation at `sync`), intervals fixed or exponential;
 * per-thread neighbour message counts go to counts[]. */
static void run_intervals(bool expo, double cpu, double comm, double sync, int threads,
                          uint64_t seed, long counts[8], uint64_t *sync_msgs, double *end)
{
    world w;
    cluster_params p = world_params(8, 64, TOPO_KIND_STAR, BW, seed);
    p.comm_rate = comm;
    p.sync_rate = sync;
    p.interval_exp = expo;
    world_init_p(&w, &p);
    job_t *jobs[8];
    int njobs = 8 / threads;
    for (int k = 0; k < njobs; k++) {
        int pes[8];
        for (int i = 0; i < threads; i++)
            pes[i] = k * threads + i;
        jobs[k] = make_job(&w, k + 1, threads, pes, cpu, 8);
        job_run(&w.sim, jobs[k], 0);
    }
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(w.jobs_ended, njobs);
    for (int k = 0; k < njobs; k++)
        for (int i = 0; i < threads; i++) {
            counts[k * threads + i] = jobs[k]->th[i].comm_k - 1;
            ck_assert_double_eq(jobs[k]->th[i].cpu_done, cpu);
        }
    *sync_msgs = w.cl.sync_msgs;
    *end = jobs[0]->end;
    ck_assert_uint_eq(w.cl.neighbour_replies, w.cl.neighbour_msgs);
    ck_assert_uint_eq(net_messages_delivered(w.cl.net), net_messages_sent(w.cl.net));
    world_free(&w);
}

START_TEST(test_interval_exponential_comm)
{
    /* Neighbour messages every `comm` CPU s on average: with exponential
     * intervals the count in cpu = 400 s at comm = 1 is Poisson(400) per
     * thread (a Poisson process's count; the last message at or before
     * the end counts, as with fixed intervals). Over 8 threads x 5 seeds
     * (n = 40): mean 400 within 4 sd/sqrt(n) = 12.6, and the sample
     * variance (400 for Poisson) within a factor of 2 either side, where
     * fixed intervals give exactly floor(400/1) = 400 with variance 0. */
    tally_t t;
    tally_init(&t);
    for (uint64_t seed = 1; seed <= 5; seed++) {
        long c[8];
        uint64_t sy;
        double end;
        run_intervals(true, 400, 1, 0, 1, seed, c, &sy, &end);
        for (int i = 0; i < 8; i++)
            tally_add(&t, (double)c[i]);
    }
    ck_assert_near(t.mean, 400, 4 * sqrt(400.0 / 40));
    ck_assert_msg(tally_var(&t) > 200 && tally_var(&t) < 800, "variance %g", tally_var(&t));
    long c[8];
    uint64_t sy;
    double end;
    run_intervals(false, 400, 1, 0, 1, 1, c, &sy, &end);
    for (int i = 0; i < 8; i++)
        ck_assert_int_eq(c[i], 400);
}
END_TEST

START_TEST(test_interval_exponential_sync)
{
    /* Synchronisation with exponential intervals: the job draws each point
     * once for all its threads, so every barrier gets one message from
     * each thread (sync messages a multiple of the job's threads) and the
     * job never deadlocks; the number of barriers in 2000 CPU s at mean 10
     * is Poisson(200). Two 4-thread jobs x 10 seeds (n = 20): mean within
     * 4 sd/sqrt(n) = 12.6 of 200. */
    tally_t t;
    tally_init(&t);
    for (uint64_t seed = 1; seed <= 10; seed++) {
        long c[8];
        uint64_t sy;
        double end;
        run_intervals(true, 2000, 0, 10, 4, seed, c, &sy, &end);
        ck_assert_uint_eq(sy % 4, 0);
        /* Two jobs; their barrier counts are separate draws. */
        tally_add(&t, (double)sy / 8);
    }
    ck_assert_near(t.mean, 200, 4 * sqrt(200.0 / 20 / 2));
}
END_TEST

START_TEST(test_interval_stream_separate)
{
    /* The interval draws have their own streams: a paging thread's fault
     * CPU times (drawn from the fault stream) are the same whether its
     * neighbour intervals are fixed or exponential. One 65 MB thread on
     * 64 MB, R = 1e-6, comm every 0.5 CPU s, 20 s. */
    double cpus[2][4096];
    size_t nf[2];
    for (int e = 0; e < 2; e++) {
        world w;
        cluster_params p = world_params(1, 64, TOPO_KIND_STAR, BW, 9);
        p.mem_access_rate = 1e-6;
        p.comm_rate = 0.5;
        p.interval_exp = e;
        world_init_p(&w, &p);
        w.log_faults = true;
        job_t *j = make_job(&w, 1, 1, NULL, 20, 65);
        job_run(&w.sim, j, 0);
        ev_run(&w.sim, INFINITY);
        ck_assert_uint_le(w.nfaults, 4096);
        ck_assert_uint_ge(w.nfaults, 100);
        nf[e] = w.nfaults;
        for (size_t i = 0; i < w.nfaults; i++)
            cpus[e][i] = w.faults[i].cpu;
        world_free(&w);
    }
    ck_assert_uint_eq(nf[0], nf[1]);
    for (size_t i = 0; i < nf[0]; i++)
        ck_assert_double_eq(cpus[0][i], cpus[1][i]);
}
END_TEST

/* Run the default configuration with the overrides in sets on a one-line
 * SWF trace; when faults is not NULL, per-PE page faults and RAM into
 * faults[0..n-1] and ram[0..n-1] (n = the machine's PEs, memory servers
 * included). */
static void run_one_line(const char *line, const char *const *sets, run_metrics *m,
                             uint64_t *faults, double *ram, int n)
{
    char path[] = "/tmp/pnrsim-test-job-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "%s\n", line);
    fclose(f);
    config c;
    char err[CFG_ERR_MAX], set[CFG_PATH_MAX + 32];
    config_defaults(&c);
    for (int i = 0; sets[i]; i++)
        ck_assert_msg(config_set(&c, sets[i], err) == 0, "%s", err);
    snprintf(set, sizeof set, "workload.trace=%s", path);
    ck_assert_msg(config_set(&c, set, err) == 0, "%s", err);
    ck_assert_msg(config_validate(&c, err) == 0, "%s", err);
    run_t *run = run_create(&c, NULL, NULL, err);
    ck_assert_msg(run != NULL, "%s", err);
    ck_assert_msg(run_execute(run, err) == 0, "%s", err);
    run_metrics_get(run, m);
    if (faults) {
        const cluster_t *cl = run_cluster(run);
        ck_assert_int_eq(cl->npes, n);
        for (int i = 0; i < n; i++) {
            faults[i] = cl->pes[i].faults;
            ram[i] = cl->pes[i].ram_mb;
        }
    }
    run_destroy(run);
    unlink(path);
}

START_TEST(test_run_heterogeneous_ram)
{
    /* computer.ram groups reach the fault model (§4.1.5: L and the reset
     * use the PE's own RAM). Two PEs, 64 MB and 128 MB; a 2-thread job of
     * 65 MB per thread, 30 s of CPU, R = 1e-6, no messages. The thread on
     * PE 1 fits (no fault, ends at 30 s); the one on PE 0 is overallocated
     * by 1 MB and draws its faults from PE 0's stream exactly as the only
     * thread of a 1-PE, 64 MB machine does: the same number of faults.
     * The per-PE metrics are means over the two PEs. */
    const char *two = "1 0 -1 30 2 30 66560 2 -1 -1 1 1 1 1 1 1 -1 -1";
    const char *one = "1 0 -1 30 1 30 66560 1 -1 -1 1 1 1 1 1 1 -1 -1";
    const char *het[] = {"computer.number=2", "computer.ram=1x64, 1x128",
                         "process.mem_access_rate=0.000001", "process.comm_rate=0",
                         "process.sync_rate=0", NULL};
    const char *solo[] = {"computer.number=1", "computer.ram=64",
                          "process.mem_access_rate=0.000001", "process.comm_rate=0",
                          "process.sync_rate=0", NULL};
    const char *srv[] = {"computer.number=2", "computer.ram=1x64, 1x128",
                         "process.mem_access_rate=0.000001", "process.comm_rate=0",
                         "process.sync_rate=0", "computer.memory_servers=1",
                         "computer.memory_server_ram=512", NULL};
    run_metrics m2, m1, m3;
    uint64_t f2[2], f1[1], f3[3];
    double r2[2], r1[1], r3[3];
    run_one_line(two, het, &m2, f2, r2, 2);
    run_one_line(one, solo, &m1, f1, r1, 1);
    ck_assert_double_eq(r2[0], 64);
    ck_assert_double_eq(r2[1], 128);
    ck_assert_uint_gt(f1[0], 50);
    ck_assert_uint_eq(f2[0], f1[0]);
    ck_assert_uint_eq(f2[1], 0);
    ck_assert_double_eq(m2.page_faults_per_pe, (double)f1[0] / 2);
    ck_assert_double_eq(m2.total_time, m1.total_time);
    /* The thread on PE 1 computed 30 s; the CPU utilisation is the mean
     * over the 2 PEs of busy / total time. */
    ck_assert_near(m2.cpu_utilization, 60.0 / (2 * m2.total_time), 1e-12);
    /* A memory server (no network RAM in use here) changes nothing for the
     * threads, receives none, and the per-PE metrics stay over the 2
     * compute PEs. */
    run_one_line(two, srv, &m3, f3, r3, 3);
    ck_assert_double_eq(r3[2], 512);
    ck_assert_uint_eq(f3[0], f1[0]);
    ck_assert_uint_eq(f3[1] + f3[2], 0);
    ck_assert_double_eq(m3.page_faults_per_pe, m2.page_faults_per_pe);
    ck_assert_double_eq(m3.cpu_utilization, m2.cpu_utilization);
    ck_assert_double_eq(m3.total_time, m2.total_time);
}
END_TEST

START_TEST(test_run_disk_rotation_and_page)
{
    /* Through the configuration: one PE of 64 MB, one 1-thread job of 65 MB
     * (66560 KB), 30 s of CPU, R = 1e-6. A thread alone never queues for
     * its disk, so each fault costs exactly one service time, by hand:
     *   default (half, 4096 B):  0.009 + 30/7200 + 4096/50e6  = 0.01324858667
     *   rotation = FULL:         0.009 + 60/7200 + 4096/50e6  = 0.01741525333
     *   FULL, page_size = 16384: 0.009 + 60/7200 + 16384/50e6 = 0.01766101333 */
    const char *line = "1 0 -1 30 1 30 66560 1 -1 -1 1 1 1 1 1 1 -1 -1";
    const char *base[] = {"computer.number=1", "computer.ram=64",
                          "process.mem_access_rate=0.000001", NULL};
    const char *full[] = {"computer.number=1", "computer.ram=64",
                          "process.mem_access_rate=0.000001", "computer.rotation=full", NULL};
    const char *fullp[] = {"computer.number=1", "computer.ram=64",
                           "process.mem_access_rate=0.000001", "computer.rotation=FULL",
                           "process.page_size=16384", NULL};
    const char *const *sets[] = {base, full, fullp};
    const double S[] = {0.009 + 30.0 / 7200 + 4096 / 50e6, 0.009 + 60.0 / 7200 + 4096 / 50e6,
                        0.009 + 60.0 / 7200 + 16384 / 50e6};
    ck_assert_near(S[1], 0.01741525333333, 1e-13);
    ck_assert_near(S[2], 0.01766101333333, 1e-13);
    for (int k = 0; k < 3; k++) {
        run_metrics m;
        run_one_line(line, sets[k], &m, NULL, NULL, 0);
        ck_assert_int_eq(m.jobs_finished, 1);
        ck_assert_double_gt(m.page_faults_per_pe, 50);
        ck_assert_near(m.page_fault_time_per_pe / m.page_faults_per_pe, S[k], 1e-12);
        ck_assert_near(m.total_time, 30 + m.page_fault_time_per_pe, 1e-9);
    }
}
END_TEST

START_TEST(test_run_page_messages_follow_page_size)
{
    /* Network RAM pages are page_size bytes: with page_size = 8192 every
     * page-out and page-in message carries 8192 B. Two PEs of 64 MB, a
     * 1-thread 65 MB job on one, CENTRAL: the other PE lends, faults go
     * remote. */
    const char *line = "1 0 -1 30 1 30 66560 1 -1 -1 1 1 1 1 1 1 -1 -1";
    const char *sets[] = {"computer.number=2", "computer.ram=64",
                          "process.mem_access_rate=0.000001", "process.page_size=8192",
                          "netram.enabled=yes", NULL};
    const int out = PNR_MSG_PAGE_OUT - PNR_MSG_REQUEST, in = PNR_MSG_PAGE_IN - PNR_MSG_REQUEST;
    run_metrics m;
    run_one_line(line, sets, &m, NULL, NULL, 0);
    ck_assert_int_eq(m.jobs_finished, 1);
    ck_assert_uint_gt(m.pnr_msgs[out], 50);
    ck_assert_uint_eq(m.pnr_msgs[in], m.pnr_msgs[out]);
    ck_assert_double_eq(m.pnr_bytes[out], 8192.0 * (double)m.pnr_msgs[out]);
    ck_assert_double_eq(m.pnr_bytes[in], 8192.0 * (double)m.pnr_msgs[in]);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("job_run");
    TCase *tc = tcase_create("job");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_whole_run);
    tcase_add_test(tc, test_page_size_fault_model);
    tcase_add_test(tc, test_page_size_fault_intervals);
    tcase_add_test(tc, test_reset_draw_page_size);
    tcase_add_test(tc, test_interval_exponential_comm);
    tcase_add_test(tc, test_interval_exponential_sync);
    tcase_add_test(tc, test_interval_stream_separate);
    tcase_add_test(tc, test_run_disk_rotation_and_page);
    tcase_add_test(tc, test_run_heterogeneous_ram);
    tcase_add_test(tc, test_run_page_messages_follow_page_size);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
