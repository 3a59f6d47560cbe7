/* tests/test_job.c: parallel jobs and their threads (sched/job.c) on small
 * clusters built by hand: the page-fault model of techreport §4.1.5 (no
 * faults within RAM, L/P faults before the first reset, the reset draw's
 * bounds and shape, exponential fault intervals of mean R*P/U, overallocation
 * changes reaching threads that are not computing), the disk as an M/D/1
 * queue fed by faulting threads, neighbour and synchronisation message
 * counts and times, a paging thread slowing its whole job, CPU-time
 * conservation under stops, resumptions and gang time slicing, completion
 * times across descheduling worked out by hand, and killed messages sent
 * again.
 *
 * Unless a test says otherwise: the network is a star with the report's
 * appendix parameters (12.5e6 B/s links, 5e-8 s latency, 8e-5 s switch
 * delay); synchronisation messages are 64 B, neighbour messages 1024 B; the
 * disk is reference.ini's (seek 0.009 s, 7200 rpm, 50 MB/s), so one page
 * access takes
 *     S = 0.009 + 30/7200 + 4096/50e6 = 0.0132485866... s.
 * A 64-byte message crosses a link in Ls = 5e-8 + 64/12.5e6 = 5.17e-6 s and
 * a switch in D = 8e-5 s.
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

#define BW TEST_BW
#define LAT TEST_LAT
#define DELAY TEST_DELAY
#define SEEK TEST_SEEK
#define RPM TEST_RPM
#define XFER TEST_XFER
#define S_DISK (0.009 + 30.0 / 7200.0 + 4096.0 / 50e6)
#define PAGE 4096.0
#define MB 1048576.0
#define LS (LAT + 64.0 / BW) /* 64-byte sync message, one link */
#define NPE_MAX 8
#define TOL 1e-9

/* ---- a small world ------------------------------------------------------- */

typedef struct fault_rec {
    long job;
    int idx;
    double D, L, cpu, t;   /* at the fault, before D grows */
} fault_rec;

typedef struct tend_rec {
    long job;
    int idx;
    double t;
} tend_rec;

enum { ACT_RUN, ACT_STOP, ACT_SNAP };
typedef struct action {
    struct world *w;
    job_t *j;
    int kind;
    double delay;
} action;

typedef struct world {
    sim_t sim;
    cluster_t cl;
    gang_t *g;
    bool release_on_end;
    int jobs_ended;
    tend_rec tend[256];
    int ntend;
    bool log_faults;
    fault_rec *faults;
    size_t nfaults, capfaults;
    action acts[64];
    int nacts;
    /* ACT_SNAP: what the snapshot job looked like */
    double snap_cpu;
    uint64_t snap_faults;
    double snap_L;
} world;

static void on_thread_ended(sim_t *sim, thread_t *th, void *ctx)
{
    world *w = ctx;
    ck_assert_int_lt(w->ntend, 256);
    w->tend[w->ntend++] = (tend_rec){th->job->id, th->idx, sim->now};
}

/* A job ended: the world's job_ended hook when no scheduler is created,
 * else the scheduler's on_end (gang_create installs its own hook). */
static void on_job_ended(sim_t *sim, job_t *j, void *ctx)
{
    world *w = ctx;
    w->jobs_ended++;
    ck_assert(j->ended);
    ck_assert_int_eq(j->finished_threads, j->threads);
    ck_assert_double_eq(j->end, sim->now);
    if (w->release_on_end)
        job_release(sim, j);
}

static bool on_fault(sim_t *sim, thread_t *th, void *ctx)
{
    world *w = ctx;
    if (w->log_faults) {
        if (w->nfaults == w->capfaults) {
            w->capfaults = w->capfaults ? 2 * w->capfaults : 1024;
            w->faults = realloc(w->faults, w->capfaults * sizeof *w->faults);
            ck_assert_ptr_nonnull(w->faults);
        }
        w->faults[w->nfaults++] =
            (fault_rec){th->job->id, th->idx, th->D, th->L, th->cpu_done, sim->now};
    }
    return false; /* the disk serves it */
}

/* The world's cluster: tests/testcluster.h's machine with the topology
 * and link bandwidth given, 1024-byte neighbour and 64-byte sync
 * messages. */
static cluster_params world_params(int npes, double ram_mb, net_topology topo, double bandwidth,
                                   uint64_t seed)
{
    cluster_params p = test_cluster_params(npes, ram_mb, seed);
    p.topology = topo;
    p.bandwidth = bandwidth;
    p.neighbour_bytes = 1024;
    p.sync_bytes = 64;
    return p;
}

/* Build the world on cluster parameters p. The test plays PNR (its hooks
 * record thread ends; faults go to the disk) and, unless p->gang, the
 * scheduler (job ends are recorded by on_job_ended, the gang's on_end
 * otherwise). */
static void world_init_p(world *w, const cluster_params *p)
{
    memset(w, 0, sizeof *w);
    ck_assert_int_le(p->npes, NPE_MAX);
    ev_init(&w->sim);
    cluster_t *cl = &w->cl;
    cluster_init(&w->sim, cl, p);
    w->g = cl->gang;
    if (!w->g) {
        cl->hooks.job_ended = on_job_ended;
        cl->hooks.sched_ctx = w;
    }
    cl->hooks.thread_ended = on_thread_ended;
    cl->hooks.fault = on_fault;
    cl->hooks.pnr_ctx = w;
}

static void world_init(world *w, int npes, double ram_mb, net_topology topo, double bandwidth,
                       uint64_t seed)
{
    cluster_params p = world_params(npes, ram_mb, topo, bandwidth, seed);
    world_init_p(w, &p);
}

static void world_free(world *w)
{
    job_destroy_all(&w->sim, &w->cl);
    ck_assert_int_eq(w->cl.jobs_alive, 0);
    for (int i = 0; i < w->cl.npes; i++)
        ck_assert_int_eq(w->cl.pes[i].nusers, 0);
    free(w->faults);
    test_cluster_free(&w->sim, &w->cl);
}

/* A job of `threads` threads on PEs pes[0..] (or 0, 1, ... when NULL). */
static job_t *make_job(world *w, long id, int threads, const int *pes, double cpu, double mem_mb)
{
    job_t *j = job_create(&w->cl, id, id, w->sim.now, threads, cpu, mem_mb);
    for (int i = 0; i < threads; i++)
        job_bind(j, i, pes ? pes[i] : i);
    return j;
}

static void act_cb(sim_t *sim, void *arg)
{
    action *a = arg;
    switch (a->kind) {
    case ACT_RUN:
        job_run(sim, a->j, a->delay);
        break;
    case ACT_STOP:
        job_stop(sim, a->j);
        break;
    case ACT_SNAP:
        a->w->snap_cpu = a->j->th[0].cpu_done;
        a->w->snap_faults = a->j->th[0].faults;
        a->w->snap_L = a->j->th[0].L;
        break;
    }
}

/* At time t: run j (resumed bursts `delay` later), stop it, or snapshot it. */
static void at(world *w, double t, job_t *j, int kind, double delay)
{
    ck_assert_int_lt(w->nacts, 64);
    action *a = &w->acts[w->nacts++];
    *a = (action){w, j, kind, delay};
    ev_once(&w->sim, t, act_cb, a);
}

static double cpu_busy(world *w)
{
    double b = 0;
    for (int i = 0; i < w->cl.npes; i++)
        b += res_busy_time(&w->sim, &w->cl.pes[i].cpu);
    return b;
}

static double thread_end_time(const world *w, long job, int idx)
{
    for (int i = 0; i < w->ntend; i++)
        if (w->tend[i].job == job && w->tend[i].idx == idx)
            return w->tend[i].t;
    ck_abort_msg("thread %ld.%d did not end", job, idx);
    return -1;
}

/* Number of clock firings in `cpu` CPU seconds at `rate`: the k with
 * k * rate <= cpu, i.e. floor(cpu / rate) (0 when rate is 0). */
static long firings(double cpu, double rate)
{
    if (rate <= 0)
        return 0;
    long k = 0;
    while ((double)(k + 1) * rate <= cpu)
        k++;
    return k;
}

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

/* Walk the fault log of one thread: count the faults before D first falls
 * (the reset after U reached 0), check D grows by one page (P bytes) per
 * fault, and collect every reset amount O = L - D (which must lie in [P, C]). */
static long check_resets_p(const world *w, long job, int idx, double L, double C, double P,
                           tally_t *resets)
{
    long k = 0, first = -1;
    double prevD = -1;
    for (size_t i = 0; i < w->nfaults; i++) {
        const fault_rec *f = &w->faults[i];
        if (f->job != job || f->idx != idx)
            continue;
        ck_assert_double_eq(f->L, L);
        if (prevD >= 0 && f->D < prevD) {
            if (first < 0)
                first = k;
            double O = L - f->D;
            ck_assert_msg(O >= P && O <= C, "reset O = %.17g outside [%g, %g]", O, P, C);
            tally_add(resets, O);
        } else if (prevD >= 0) {
            ck_assert_double_eq(f->D, prevD + P);
        } else {
            ck_assert_double_eq(f->D, 0); /* D starts at 0 */
        }
        prevD = f->D;
        k++;
    }
    return first;
}

/* check_resets_p with the default page of 4096 bytes. */
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

/* ---- descheduling by hand ------------------------------------------------------------------ */

START_TEST(test_switch_mid_burst)
{
    /* One thread, 10 s, no paging or messages.
     * (a) stopped at 3, run again at 5 with a 0.5 s context switch: it
     *     computes 3, waits 2 + 0.5, computes 7: ends at 12.5.
     * (b) as (a), but stopped again at 5.2, during the context switch, and
     *     run at 6 (0.5 again): computes from 6.5 for 7 s: ends at 13.5.
     * (c) stopped and run at the same instant 4 (no delay): ends at 10. */
    struct {
        double ev[4][3]; /* time, kind (0 stop, 1 run), context switch */
        int n;
        double end;
    } cases[] = {
        {{{3, 0, 0}, {5, 1, 0.5}}, 2, 12.5},
        {{{3, 0, 0}, {5, 1, 0.5}, {5.2, 0, 0}, {6, 1, 0.5}}, 4, 13.5},
        {{{4, 0, 0}, {4, 1, 0}}, 2, 10},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        world w;
        world_init(&w, 1, 64, TOPO_KIND_STAR, BW, 9);
        job_t *j = make_job(&w, 1, 1, NULL, 10, 8);
        job_run(&w.sim, j, 0);
        for (int k = 0; k < cases[c].n; k++)
            at(&w, cases[c].ev[k][0], j, cases[c].ev[k][1] ? ACT_RUN : ACT_STOP,
               cases[c].ev[k][2]);
        ev_run(&w.sim, INFINITY);
        ck_assert_int_eq(w.jobs_ended, 1);
        ck_assert_near(j->end, cases[c].end, TOL);
        ck_assert_double_eq(j->th[0].cpu_done, 10);
        ck_assert_near(cpu_busy(&w), 10, TOL);
        ck_assert_ptr_null(w.cl.pes[0].cpu.holder);
        world_free(&w);
    }
}
END_TEST

START_TEST(test_killed_sync_restarted)
{
    /* Two threads on PEs 0 and 1 of a star, 10 s, sync every 4 s. Thread 1's
     * synchronisation message crosses link 1, the switch and link 0:
     * 2 Ls + D = 9.034e-5 s; the master's own arrives at once.
     * Undisturbed: 10 + 2 (2 Ls + D).
     * Stopped at 4 + 1e-5 (thread 1's message is at the switch: killed) and
     * run at 5 with a 0.5 s context switch: the message is sent again at 5
     * and arrives at 5 + 2 Ls + D, which opens the barrier; the threads
     * compute again from 5.5 (the context switch), synchronise at 8 s of
     * CPU (2 Ls + D), and end at 5.5 + 6 + 2 Ls + D. */
    for (int stop = 0; stop < 2; stop++) {
        world w;
        world_init(&w, 2, 64, TOPO_KIND_STAR, BW, 10);
        w.cl.sync_rate = 4;
        job_t *j = make_job(&w, 1, 2, NULL, 10, 8);
        job_run(&w.sim, j, 0);
        if (stop) {
            at(&w, 4 + 1e-5, j, ACT_STOP, 0);
            at(&w, 5, j, ACT_RUN, 0.5);
        }
        ev_run(&w.sim, INFINITY);
        double hop = 2 * LS + DELAY;
        ck_assert_near(hop, 9.034e-5, 1e-15);
        if (stop) {
            ck_assert_near(j->end, 11.5 + hop, TOL);
            ck_assert_uint_eq(w.cl.messages_killed, 1);
            ck_assert_uint_eq(net_restarts(w.cl.net), 1);
        } else {
            ck_assert_near(j->end, 10 + 2 * hop, TOL);
            ck_assert_uint_eq(w.cl.messages_killed, 0);
        }
        ck_assert_uint_eq(w.cl.sync_msgs, 4);
        ck_assert_uint_eq(net_messages_delivered(w.cl.net), 4);
        world_free(&w);
    }
}
END_TEST

START_TEST(test_killed_neighbour_restarted)
{
    /* A bus of 2000 B/s: a 1024 B neighbour message holds it for
     * 5e-8 + 0.512 s. Two threads on PEs 0 and 1, 3 s, a neighbour message
     * every 1 s. At 1 both send; one holds the bus, the other queues. Both
     * are killed by a stop at 1.25 and sent again when the job runs at 2
     * (no delay). The threads, 1.25 s done at the stop, end at
     * 2 + 1.75 = 3.75 (messages never hold a thread up). Counts: 2 x 3 = 6
     * neighbour messages and 6 replies (the last ones arrive after the job
     * ended: a reply is still sent), 2 killed, 2 restarted, 12 deliveries. */
    world w;
    world_init(&w, 2, 64, TOPO_KIND_BUS, 2000, 11);
    w.cl.comm_rate = 1;
    w.release_on_end = true;
    job_t *j = make_job(&w, 1, 2, NULL, 3, 8);
    job_run(&w.sim, j, 0);
    at(&w, 1.25, j, ACT_STOP, 0);
    at(&w, 2, j, ACT_RUN, 0);
    ev_run(&w.sim, 3.75);
    ck_assert_int_eq(w.jobs_ended, 1);
    ck_assert_near(j->end, 3.75, TOL);
    ck_assert_uint_eq(w.cl.messages_killed, 2);
    ev_run(&w.sim, INFINITY);
    /* j was released at its end and freed once its messages were done. */
    ck_assert_int_eq(w.cl.jobs_alive, 0);
    ck_assert_uint_eq(w.cl.neighbour_msgs, 6);
    ck_assert_uint_eq(w.cl.neighbour_replies, 6);
    ck_assert_uint_eq(net_restarts(w.cl.net), 2);
    ck_assert_uint_eq(net_messages_sent(w.cl.net), 12);
    ck_assert_uint_eq(net_messages_delivered(w.cl.net), 12);
    ck_assert_int_eq(net_in_flight(w.cl.net), 0);
    world_free(&w);
}
END_TEST

/* A stop at the very instant the last synchronisation message arrives,
 * after the barrier opened but before the released threads run: the
 * threads were done, so they end although the job is stopped, and the
 * neighbour replies the stop killed can never be restarted by a job_run.
 * The probe finds the synchronisation message on its last hop and puts the
 * stop at its arrival time (scheduled after the arrival, before the
 * threads' wake-ups). */
typedef struct probe {
    world *w;
    job_t *j;
    ev_id ev;
    double stop_at;
} probe;

static void probe_cb(sim_t *sim, void *arg)
{
    probe *pr = arg;
    net_t *net = pr->w->cl.net;
    list_for_each(it, &pr->j->msgs) {
        const job_msg *jm = container_of(it, job_msg, m.link);
        const msg_t *m = &jm->m;
        if (jm->kind == MSG_SYNC && m->src != m->dst && m->p.state == PROC_HOLDING &&
            m->hop == net_route_len(net, m->src, m->dst) - 1) {
            pr->stop_at = m->p.wake_at;
            at(pr->w, pr->stop_at, pr->j, ACT_STOP, 0);
            return;
        }
    }
    ev_at(sim, pr->ev, sim->now + 1e-6);
}

START_TEST(test_end_while_stopped)
{
    /* Two threads on PEs 0 and 1, 4 s, a neighbour message and a
     * synchronisation at 4 s (the last one). The 1024 B neighbour messages
     * and their replies take longer than the 64 B synchronisation message,
     * so replies are in flight when the stop comes. */
    world w;
    world_init(&w, 2, 64, TOPO_KIND_STAR, BW, 13);
    w.cl.comm_rate = 4;
    w.cl.sync_rate = 4;
    w.release_on_end = true;
    job_t *j = make_job(&w, 1, 2, NULL, 4, 8);
    job_run(&w.sim, j, 0);
    probe pr = {.w = &w, .j = j, .stop_at = -1};
    pr.ev = ev_new(&w.sim, probe_cb, &pr);
    ev_at(&w.sim, pr.ev, 4);
    ev_run(&w.sim, INFINITY);
    ck_assert(pr.stop_at > 4);
    ck_assert_int_eq(w.jobs_ended, 1);
    ck_assert_double_eq(thread_end_time(&w, 1, 0), pr.stop_at);
    ck_assert_double_eq(thread_end_time(&w, 1, 1), pr.stop_at);
    ck_assert_uint_gt(w.cl.messages_killed, 0);
    ck_assert_uint_eq(net_restarts(w.cl.net), w.cl.messages_killed);
    ck_assert_uint_eq(w.cl.neighbour_replies, 2);
    ck_assert_uint_eq(net_messages_sent(w.cl.net), 6);
    ck_assert_uint_eq(net_messages_delivered(w.cl.net), 6);
    ck_assert_int_eq(net_in_flight(w.cl.net), 0);
    ck_assert_int_eq(w.cl.jobs_alive, 0);
    ev_free(&w.sim, pr.ev);
    world_free(&w);
}
END_TEST

/* ---- when memory is freed: per thread or per job (process.mem_release) ---------------------------- */

static double mem_probe[2];

static void mem_probe_cb(sim_t *sim, void *arg)
{
    (void)sim;
    world *w = arg;
    mem_probe[0] = w->cl.pes[0].alloc_mb;
    mem_probe[1] = w->cl.pes[1].alloc_mb;
}

/* Job A (1 thread, 60 MB, PE 0) starts at 0 and is stopped at 0.5: its
 * memory stays on PE 0. Job B (2 threads, 60 MB, 10 s, PEs 0 and 1) runs
 * from 1: PE 0 holds 120 MB of 100 (20 MB out, R = 1e-5: B's thread 0
 * pages); PE 1 holds 60 MB (no paging), so B's thread 1 ends at exactly 11
 * and thread 0 later, by the time its faults took. Probe at 11.001. */
static void mem_release_case(sched_mem_release mode, double *b_end, double *t1_hook,
                             double *t0_hook)
{
    world w;
    world_init(&w, 2, 100, TOPO_KIND_STAR, BW, 41);
    w.cl.mem_access_rate = 1e-5;
    w.cl.mem_release = mode;
    job_t *a = make_job(&w, 1, 1, NULL, 1000, 60);
    int pes_b[] = {0, 1};
    job_t *b = make_job(&w, 2, 2, pes_b, 10, 60);
    at(&w, 0, a, ACT_RUN, 0);
    at(&w, 0.5, a, ACT_STOP, 0);
    at(&w, 1, b, ACT_RUN, 0);
    ev_once(&w.sim, 11.001, mem_probe_cb, &w);
    ck_assert_int_eq(ev_run(&w.sim, INFINITY), EV_RUN_EMPTY);
    ck_assert(b->ended);
    ck_assert_uint_eq(b->th[1].faults, 0);
    ck_assert_uint_gt(b->th[0].faults, 0);
    /* Thread 0's faults took at least one disk access: it ends after the
     * probe, so the probe sees B with one thread done, one running. */
    ck_assert(b->end >= 11 + S_DISK - TOL);
    *b_end = b->end;
    *t1_hook = thread_end_time(&w, 2, 1);
    *t0_hook = thread_end_time(&w, 2, 0);
    /* After B's end PE 0 holds A's 60 MB again, PE 1 nothing: nothing
     * leaked and nothing freed twice, whatever the mode. */
    ck_assert_double_eq(w.cl.pes[0].alloc_mb, 60);
    ck_assert_double_eq(w.cl.pes[1].alloc_mb, 0);
    ck_assert(b->th[0].mem_freed && b->th[1].mem_freed);
    ck_assert(!a->th[0].mem_freed);
    world_free(&w);
}

START_TEST(test_mem_release_thread_or_job)
{
    double end_t, t1_t, t0_t, end_j, t1_j, t0_j;
    /* THREAD (the default): thread 1's 60 MB leave PE 1 at 11, when it
     * ends; the PNR hook (thread_ended) runs then. */
    mem_release_case(MEM_RELEASE_THREAD, &end_t, &t1_t, &t0_t);
    ck_assert_double_eq(mem_probe[0], 120);
    ck_assert_double_eq(mem_probe[1], 0);
    ck_assert_near(t1_t, 11, TOL);
    ck_assert_double_eq(t0_t, end_t);
    /* JOB: PE 1 keeps thread 1's 60 MB until B's last thread ends; both
     * hooks run at B's end. */
    mem_release_case(MEM_RELEASE_JOB, &end_j, &t1_j, &t0_j);
    ck_assert_double_eq(mem_probe[0], 120);
    ck_assert_double_eq(mem_probe[1], 60);
    ck_assert_double_eq(t1_j, end_j);
    ck_assert_double_eq(t0_j, end_j);
    /* PE 1's memory never changes PE 0's paging: the same fault draws give
     * the same end in both modes. */
    ck_assert_double_eq(end_t, end_j);
}
END_TEST

/* ---- CPU time conservation under random stops and runs ------------------------------------------ */

typedef struct toggler {
    world *w;
    job_t *jobs[2];
    rng_t *r;
    ev_id ev;
    long toggles;
} toggler;

static void toggle(sim_t *sim, void *arg)
{
    toggler *t = arg;
    if (t->jobs[0]->ended && t->jobs[1]->ended)
        return;
    job_t *j = t->jobs[rng_index(t->r, 2)];
    if (!j->ended) {
        if (j->running)
            job_stop(sim, j);
        else
            job_run(sim, j, 0.01);
        t->toggles++;
    }
    /* One time in five the next toggle is at the same instant. */
    double dt = rng_uniform01(t->r) < 0.2 ? 0 : rng_exp(t->r, 1.5);
    ev_at(sim, t->ev, sim->now + dt);
}

START_TEST(test_cpu_conserved_stop_run)
{
    /* Job X: 3 threads on PEs 0-2, 30 s; job Y: 2 threads on PEs 1-2, 20 s;
     * 20 MB threads on 32 MB PEs, so PEs 1 and 2 are 8 MB overallocated
     * once both jobs started (R = 1e-5); neighbour messages every 1.5 s,
     * synchronisation every 4 s, on a slow star (1e4 B/s: a neighbour
     * message spends 0.2 s on links) so that stops often catch messages in
     * flight. A random scheduler stops and runs the two
     * jobs (0.01 s context switch), sometimes twice at one instant. Whatever
     * the interleaving: CPU busy time summed over PEs = CPU demand done =
     * 3*30 + 2*20 = 130 s; every thread did exactly its demand; messages:
     * 3*floor(30/1.5) + 2*floor(20/1.5) = 60 + 26 = 86 neighbour messages
     * and as many replies, 3*floor(30/4) + 2*floor(20/4) = 21 + 10 = 31
     * synchronisation messages; every killed message was sent again. */
    long killed = 0;
    for (int rep = 0; rep < 20; rep++) {
        world w;
        world_init(&w, 3, 32, TOPO_KIND_STAR, 1e4, 200 + (uint64_t)rep);
        w.cl.mem_access_rate = 1e-5;
        w.cl.comm_rate = 1.5;
        w.cl.sync_rate = 4;
        int px[] = {0, 1, 2}, py[] = {1, 2};
        toggler t = {.w = &w};
        t.jobs[0] = make_job(&w, 1, 3, px, 30, 20);
        t.jobs[1] = make_job(&w, 2, 2, py, 20, 20);
        t.r = rng_stream(300 + (uint64_t)rep, "toggle", 0);
        t.ev = ev_new(&w.sim, toggle, &t);
        ev_at(&w.sim, t.ev, 0);
        ev_run(&w.sim, INFINITY);
        ck_assert_int_eq(w.jobs_ended, 2);
        ck_assert_near(w.cl.cpu_demand_done, 130, TOL);
        ck_assert_near(cpu_busy(&w), 130, TOL);
        for (int k = 0; k < 2; k++)
            for (int i = 0; i < t.jobs[k]->threads; i++)
                ck_assert_double_eq(t.jobs[k]->th[i].cpu_done, t.jobs[k]->cpu);
        ck_assert_uint_eq(w.cl.neighbour_msgs, 86);
        ck_assert_uint_eq(w.cl.neighbour_replies, 86);
        ck_assert_uint_eq(w.cl.sync_msgs, 31);
        ck_assert_uint_eq(net_restarts(w.cl.net), w.cl.messages_killed);
        ck_assert_uint_eq(net_messages_delivered(w.cl.net), net_messages_sent(w.cl.net));
        ck_assert_int_eq(net_in_flight(w.cl.net), 0);
        ck_assert_int_eq(w.cl.threads_running, 0);
        ck_assert_uint_gt(w.cl.pes[1].faults, 0);
        ck_assert_uint_gt(t.toggles, 4);
        killed += (long)w.cl.messages_killed;
        ev_free(&w.sim, t.ev);
        rng_free(t.r);
        world_free(&w);
    }
    ck_assert_int_gt(killed, 0); /* the kill path was exercised */
}
END_TEST

/* ---- gang time slicing ------------------------------------------------------------------------------ */

/* A world (star, BW) with a gang scheduler of FCFS, first fit, the MPL,
 * quantum and PCS given; job ends reach on_job_ended through it. */
static gang_t *world_init_gang(world *w, int npes, double ram_mb, uint64_t seed, int mpl,
                               double quantum, double pcs)
{
    gang_params gp = {.priority = PRIO_FCFS,
                      .packing = PACK_FIRSTFIT,
                      .mpl = mpl,
                      .pcs = pcs,
                      .quantum = quantum,
                      .mem_aware = false,
                      .strict_order = false};
    cluster_params p = world_params(npes, ram_mb, TOPO_KIND_STAR, BW, seed);
    p.gang = &gp;
    p.on_end = on_job_ended;
    p.end_ctx = w;
    world_init_p(w, &p);
    return w->g;
}

START_TEST(test_gang_switch_by_hand)
{
    /* One PE, MPL 2, quantum 1 s, context switch 0.01 s. A and B (one
     * thread, 2.5 s each) arrive at 0: A in slot 0 runs at once, B opens
     * slot 1.
     *   [0, 1]       A computes 1
     *   [1, 2]       B starts (a first start costs no switch), computes 1
     *   [2, 3]       A resumes at 2.01, computes 0.99 (1.99 done)
     *   [3, 4]       B resumes at 3.01, computes 0.99 (1.99 done)
     *   [4, ...]     A resumes at 4.01, needs 0.51: ends at 4.52
     *                = 2.5 demand + 2 descheduled + 2 switches of 0.01.
     *   slot 0 goes; B resumes at 4.53, needs 0.51: ends at 5.04
     *                = 1 (start) + 2.5 + 1.52 descheduled + 0.02. */
    world w;
    gang_t *g = world_init_gang(&w, 1, 64, 12, 2, 1, 0.01);
    job_t *a = job_create(&w.cl, 1, 1, 0, 1, 2.5, 8);
    job_t *b = job_create(&w.cl, 2, 2, 0, 1, 2.5, 8);
    gang_submit(&w.sim, g, a);
    gang_submit(&w.sim, g, b);
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(w.jobs_ended, 2);
    ck_assert_near(a->end, 4.52, TOL);
    ck_assert_near(b->start, 1, TOL);
    ck_assert_near(b->end, 5.04, TOL);
    ck_assert_near(cpu_busy(&w), 5, TOL);
    ck_assert_ptr_null(gang_check(g));
    ck_assert_int_eq(gang_placed(g), 0);
    ck_assert_int_eq(gang_running(g), 0);
    world_free(&w);
}
END_TEST

typedef struct arrivals {
    world *w;
    rng_t *r;
    int left;
    long next_id;
    double demand;          /* summed CPU demand submitted */
    long nb, sy;            /* expected message counts */
    ev_id ev;
} arrivals;

static void arrive(sim_t *sim, void *arg)
{
    arrivals *a = arg;
    world *w = a->w;
    int threads = 1 + (int)rng_index(a->r, (unsigned long)w->cl.npes);
    double cpu = rng_uniform(a->r, 0.5, 15);
    double mem = rng_uniform(a->r, 2, 24);
    job_t *j = job_create(&w->cl, a->next_id, a->next_id, sim->now, threads, cpu, mem);
    a->next_id++;
    a->demand += threads * cpu;
    a->nb += threads * firings(cpu, w->cl.comm_rate);
    a->sy += threads * firings(cpu, w->cl.sync_rate);
    gang_submit(sim, w->g, j);
    if (--a->left > 0)
        ev_at(sim, a->ev, sim->now + rng_exp(a->r, 2));
}

START_TEST(test_cpu_conserved_gang)
{
    /* 40 random jobs (1-4 threads, 0.5-15 s, 2-24 MB per thread) arriving
     * every 2 s on average at 4 PEs of 32 MB, gang scheduled with MPL 2,
     * a 1 s quantum and 0.01 s context switches: jobs sharing a PE across
     * the two slots overallocate it and page (R = 1e-5); neighbour messages
     * every 2 s, synchronisation every 5 s. At the end: every job ended and
     * was freed, CPU busy time = CPU demand done = demand submitted, message
     * counts as the formulas say, every killed message sent again, and the
     * scheduler's counters back at zero. */
    for (int rep = 0; rep < 5; rep++) {
        world w;
        gang_t *g = world_init_gang(&w, 4, 32, 400 + (uint64_t)rep, 2, 1, 0.01);
        w.cl.mem_access_rate = 1e-5;
        w.cl.comm_rate = 2;
        w.cl.sync_rate = 5;
        w.release_on_end = true;
        arrivals a = {.w = &w, .left = 40, .next_id = 1};
        a.r = rng_stream(500 + (uint64_t)rep, "arrivals", 0);
        a.ev = ev_new(&w.sim, arrive, &a);
        ev_at(&w.sim, a.ev, 0);
        ev_run(&w.sim, INFINITY);
        ck_assert_int_eq(w.jobs_ended, 40);
        ck_assert_int_eq(w.cl.jobs_alive, 0);
        ck_assert_near(w.cl.cpu_demand_done, a.demand, 1e-9 * a.demand);
        ck_assert_near(cpu_busy(&w), a.demand, 1e-9 * a.demand);
        ck_assert_uint_eq(w.cl.neighbour_msgs, (uint64_t)a.nb);
        ck_assert_uint_eq(w.cl.neighbour_replies, (uint64_t)a.nb);
        ck_assert_uint_eq(w.cl.sync_msgs, (uint64_t)a.sy);
        ck_assert_uint_eq(net_restarts(w.cl.net), w.cl.messages_killed);
        ck_assert_uint_eq(net_messages_delivered(w.cl.net), net_messages_sent(w.cl.net));
        ck_assert_ptr_null(gang_check(g));
        ck_assert_int_eq(gang_placed(g), 0);
        ck_assert_int_eq(gang_queued(g), 0);
        ck_assert_int_eq(gang_running(g), 0);
        ck_assert_int_ge(gang_mpl_max(g), 2);
        ck_assert_uint_gt(gang_pcs_count(g), 0);
        uint64_t faults = 0;
        for (int i = 0; i < 4; i++) {
            faults += w.cl.pes[i].faults;
            ck_assert_double_eq(w.cl.pes[i].alloc_mb, 0);
        }
        ck_assert_uint_gt(faults, 0);
        ev_free(&w.sim, a.ev);
        rng_free(a.r);
        world_free(&w);
    }
}
END_TEST

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
    config c;
    char err[CFG_ERR_MAX], set[CFG_PATH_MAX + 32];
    config_defaults(&c);
    const char *sets[] = {"computer.number=8", "computer.ram=64", "scheduler.mpl=2",
                          "scheduler.quantum=10", "scheduler.pcs=0.01",
                          "scheduler.strict_order=no", "process.comm_rate=3",
                          "process.sync_rate=7", "process.mem_access_rate=0.00001",
                          "network.bandwidth=0.01", "simulation.seed=5", NULL};
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
    unlink(path);
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

/* Run config c (with the overrides in sets) on a one-line SWF trace. */
static void run_one_line(const char *line, const char *const *sets, run_metrics *m)
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
    run_destroy(run);
    unlink(path);
}

/* Run a one-line trace with sets; per-PE page faults into faults[0..n-1]
 * (n = the machine's PEs, memory servers included). */
static void run_one_line_pes(const char *line, const char *const *sets, run_metrics *m,
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
    const cluster_t *cl = run_cluster(run);
    ck_assert_int_eq(cl->npes, n);
    for (int i = 0; i < n; i++) {
        faults[i] = cl->pes[i].faults;
        ram[i] = cl->pes[i].ram_mb;
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
    run_one_line_pes(two, het, &m2, f2, r2, 2);
    run_one_line_pes(one, solo, &m1, f1, r1, 1);
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
    run_one_line_pes(two, srv, &m3, f3, r3, 3);
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
        run_one_line(line, sets[k], &m);
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
    run_one_line(line, sets, &m);
    ck_assert_int_eq(m.jobs_finished, 1);
    ck_assert_uint_gt(m.pnr_msgs[out], 50);
    ck_assert_uint_eq(m.pnr_msgs[in], m.pnr_msgs[out]);
    ck_assert_double_eq(m.pnr_bytes[out], 8192.0 * (double)m.pnr_msgs[out]);
    ck_assert_double_eq(m.pnr_bytes[in], 8192.0 * (double)m.pnr_msgs[in]);
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
    tcase_add_test(tc, test_switch_mid_burst);
    tcase_add_test(tc, test_killed_sync_restarted);
    tcase_add_test(tc, test_killed_neighbour_restarted);
    tcase_add_test(tc, test_end_while_stopped);
    tcase_add_test(tc, test_mem_release_thread_or_job);
    tcase_add_test(tc, test_cpu_conserved_stop_run);
    tcase_add_test(tc, test_gang_switch_by_hand);
    tcase_add_test(tc, test_cpu_conserved_gang);
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
