/* tests/fixture_job.h: the small world of tests/test_job*.c: a cluster built
 * by hand (tests/testcluster.h) with hooks that record every thread's and
 * job's end, jobs placed on given PEs, actions (run, stop) at given times,
 * and the constants the hand-worked figures use. Shared by test_job.c (the
 * page-fault model and messages), test_job_stop.c (stopping and resuming)
 * and test_job_run.c (whole runs and the knobs).
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
#ifndef PNRSIM_TESTS_FIXTURE_JOB_H
#define PNRSIM_TESTS_FIXTURE_JOB_H

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

static inline void on_thread_ended(sim_t *sim, thread_t *th, void *ctx)
{
    world *w = ctx;
    ck_assert_int_lt(w->ntend, 256);
    w->tend[w->ntend++] = (tend_rec){th->job->id, th->idx, sim->now};
}

/* A job ended: the world's job_ended hook when no scheduler is created,
 * else the scheduler's on_end (gang_create installs its own hook). */
static inline void on_job_ended(sim_t *sim, job_t *j, void *ctx)
{
    world *w = ctx;
    w->jobs_ended++;
    ck_assert(j->ended);
    ck_assert_int_eq(j->finished_threads, j->threads);
    ck_assert_double_eq(j->end, sim->now);
    if (w->release_on_end)
        job_release(sim, j);
}

static inline bool on_fault(sim_t *sim, thread_t *th, void *ctx)
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
static inline cluster_params world_params(int npes, double ram_mb, net_topology topo,
                                          double bandwidth,
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
static inline void world_init_p(world *w, const cluster_params *p)
{
    memset(w, 0, sizeof *w);
    ck_assert_int_le(p->npes, NPE_MAX);
    ev_init(&w->sim);
    cluster_t *cl = &w->cl;
    cluster_init(&w->sim, cl, p);
    w->g = cl->gang;
    if (!w->g) {
        cl->hooks.on_job_ended = on_job_ended;
        cl->hooks.sched_ctx = w;
    }
    cl->hooks.thread_ended = on_thread_ended;
    cl->hooks.fault = on_fault;
    cl->hooks.pnr_ctx = w;
}

static inline void world_init(world *w, int npes, double ram_mb, net_topology topo,
                              double bandwidth,
                              uint64_t seed)
{
    cluster_params p = world_params(npes, ram_mb, topo, bandwidth, seed);
    world_init_p(w, &p);
}

static inline void world_free(world *w)
{
    job_destroy_all(&w->sim, &w->cl);
    ck_assert_int_eq(w->cl.jobs_alive, 0);
    for (int i = 0; i < w->cl.npes; i++)
        ck_assert_int_eq(w->cl.pes[i].nusers, 0);
    free(w->faults);
    test_cluster_free(&w->sim, &w->cl);
}

/* A job of `threads` threads on PEs pes[0..] (or 0, 1, ... when NULL). */
static inline job_t *make_job(world *w, long id, int threads, const int *pes, double cpu,
                              double mem_mb)
{
    job_t *j = job_create(&w->cl, id, id, w->sim.now, threads, cpu, mem_mb);
    for (int i = 0; i < threads; i++)
        job_bind(j, i, pes ? pes[i] : i);
    return j;
}

static inline void act_cb(sim_t *sim, void *arg)
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
static inline void at(world *w, double t, job_t *j, int kind, double delay)
{
    ck_assert_int_lt(w->nacts, 64);
    action *a = &w->acts[w->nacts++];
    *a = (action){w, j, kind, delay};
    ev_once(&w->sim, t, act_cb, a);
}

static inline double cpu_busy(world *w)
{
    double b = 0;
    for (int i = 0; i < w->cl.npes; i++)
        b += res_busy_time(&w->sim, &w->cl.pes[i].cpu);
    return b;
}

static inline double thread_end_time(const world *w, long job, int idx)
{
    for (int i = 0; i < w->ntend; i++)
        if (w->tend[i].job == job && w->tend[i].idx == idx)
            return w->tend[i].t;
    ck_abort_msg("thread %ld.%d did not end", job, idx);
    return -1;
}

/* Number of clock firings in `cpu` CPU seconds at `rate`: the k with
 * k * rate <= cpu, i.e. floor(cpu / rate) (0 when rate is 0). */
static inline long firings(double cpu, double rate)
{
    if (rate <= 0)
        return 0;
    long k = 0;
    while ((double)(k + 1) * rate <= cpu)
        k++;
    return k;
}


/* Walk the fault log of one thread: count the faults before D first falls
 * (the reset after U reached 0), check D grows by one page (P bytes) per
 * fault, and collect every reset amount O = L - D (which must lie in [P, C]). */
static inline long check_resets_p(const world *w, long job, int idx, double L, double C, double P,
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

#endif
