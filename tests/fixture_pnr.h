/* tests/fixture_pnr.h: the small world of tests/test_pnr*.c: a cluster built
 * by hand with PNR attached, jobs on given PEs started at given times, the
 * check that nothing is left lent, held or in transit at the end, and the
 * constants below. Shared by test_pnr.c (fair share, hand-built cases) and
 * test_pnr_trace.c (whole runs).
 *
 * Hand-built cases use the report's appendix network (star, 12.5e6 B/s
 * links, 5e-8 s latency, 8e-5 s switch delay) and 64-byte control messages.
 * On an idle star a message of b bytes between two PEs crosses two links
 * and the switch: T(b) = 2 (LAT + b / BW) + DELAY, so
 *     T(64)   = 2 (5e-8 + 5.12e-6) + 8e-5 = 9.034e-5 s,
 *     T(4096) = 2 (5e-8 + 3.2768e-4) + 8e-5 = 7.3546e-4 s,
 * and a message to the sender's own PE arrives at once.
 */
#ifndef PNRSIM_TESTS_FIXTURE_PNR_H
#define PNRSIM_TESTS_FIXTURE_PNR_H

#include "app/config.h"
#include "app/run.h"
#include "app/run_check.h"
#include "core/rng.h"
#include "pnr/check.h" /* private: the checker, totals */
#include "pnr/pnr.h"
#include "pnr/pnr_check.h"
#include "sched/job.h"
#include "tests/testcluster.h"
#include "tests/testutil.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>


#define BW TEST_BW
#define LAT TEST_LAT
#define DELAY TEST_DELAY
#define CTRL 64.0
#define PAGE 4096.0
#define T_MSG(b) (2 * (LAT + (b) / BW) + DELAY)
#define NPE_MAX 8
#define TRACE "traces/hpc2n-seth-first3171.swf"
#define NJOBS 200 /* trace jobs in whole runs */


/* ---- a small world built by hand --------------------------------------------- */

typedef struct world {
    sim_t sim;
    cluster_t cl;
    config c;
    pnr_t *pnr;
    int jobs_ended;
    struct jrec {           /* by job id (< 16), when the job ended */
        bool ended;
        double start, end, waited_alloc, fault_time;
        uint64_t faults;
        uint64_t remote[NPE_MAX], disk[NPE_MAX]; /* every PE's faults then */
    } rec[16];
} world;

static inline void on_job_ended(sim_t *sim, job_t *j, void *ctx)
{
    world *w = ctx;
    w->jobs_ended++;
    ck_assert(j->id >= 0 && j->id < 16);
    w->rec[j->id] = (struct jrec){true, j->start, j->end, j->waited_alloc, j->fault_time,
                                  j->faults, {0}, {0}};
    for (int i = 0; i < w->cl.npes; i++) {
        w->rec[j->id].remote[i] = w->cl.pes[i].remote_faults;
        w->rec[j->id].disk[i] = w->cl.pes[i].disk_faults;
    }
    job_release(sim, j);
}

/* The shape world_init_topo gives a TREE network (tests set it). */
static net_tree world_tree;
/* The paging mode world_init_topo gives the cluster (tests set it): as
 * process.paging would, BATCHED with its "net-virtual" stream. Tests that
 * set cl.paging after world_init have batches without that stream (no
 * switch waits drawn, messages' load not measured: net.h). */
static sched_paging world_paging = PAGING_EXACT;
/* The memory profile world_init_topo gives the cluster (tests set it;
 * zero: CONSTANT). */
static mem_profile world_profile;

/* npes PEs of ram[i] MB on the topology (world_init: a star), PNR with
 * `strategy` (CENTRAL, ...) and the extra settings, checks on. */
static inline void world_init_topo(world *w, net_topology topo, int npes, const double *ram,
                                   double mem_access_rate, const char *strategy,
                                   const char *const *sets, uint64_t seed)
{
    memset(w, 0, sizeof *w);
    ck_assert_int_le(npes, NPE_MAX);
    ev_init(&w->sim);
    cluster_params cp = test_cluster_params(npes, 0, seed);
    cp.pe_ram_mb = ram;
    cp.topology = topo;
    cp.tree = &world_tree;
    cp.mem_access_rate = mem_access_rate;
    cp.paging = world_paging;
    cp.profile = world_profile;
    cluster_t *cl = &w->cl;
    cluster_init(&w->sim, cl, &cp);
    /* The test plays the scheduler. */
    cl->hooks.on_job_ended = on_job_ended;
    cl->hooks.sched_ctx = w;
    char err[CFG_ERR_MAX], buf[128];
    config_defaults(&w->c);
    snprintf(buf, sizeof buf, "computer.number=%d", npes);
    ck_assert_msg(config_set(&w->c, buf, err) == 0, "%s", err);
    ck_assert_msg(config_set(&w->c, "netram.enabled=yes", err) == 0, "%s", err);
    snprintf(buf, sizeof buf, "netram.strategy=%s", strategy);
    ck_assert_msg(config_set(&w->c, buf, err) == 0, "%s", err);
    for (int i = 0; sets && sets[i]; i++)
        ck_assert_msg(config_set(&w->c, sets[i], err) == 0, "%s", err);
    pnr_params pp;
    run_pnr_params(&w->c, &pp);
    w->pnr = pnr_create(&w->sim, cl, &pp, seed);
    ck_assert_ptr_nonnull(w->pnr);
    pnr_set_checking(w->pnr, true);
}

static inline void world_init(world *w, int npes, const double *ram, double mem_access_rate,
                              const char *strategy, const char *const *sets, uint64_t seed)
{
    world_init_topo(w, TOPO_KIND_STAR, npes, ram, mem_access_rate, strategy, sets, seed);
}

/* Nothing lent, held or in transit; no check failed. */
static inline void assert_settled(const pnr_t *p)
{
    ck_assert_msg(pnr_check_failure(p) == NULL, "%s", pnr_check_failure(p));
    double lent, held, transit;
    pnr_totals(p, &lent, &held, &transit);
    ck_assert_near(lent, 0, 1e-6);
    ck_assert_near(held, 0, 1e-6);
    ck_assert_near(transit, 0, 1e-6);
}

static inline void world_free(world *w)
{
    job_destroy_all(&w->sim, &w->cl);
    pnr_destroy(&w->sim, w->pnr);
    /* PNR removed the hooks it installed. */
    ck_assert_ptr_null(w->cl.hooks.thread_starting);
    ck_assert_ptr_null(w->cl.hooks.thread_ended);
    ck_assert_ptr_null(w->cl.hooks.fault);
    ck_assert_ptr_null(w->cl.hooks.pnr_ctx);
    for (int i = 0; i < w->cl.npes; i++)
        ck_assert_int_eq(w->cl.pes[i].nusers, 0);
    test_cluster_free(&w->sim, &w->cl);
}

/* A job of `threads` threads on PEs pes[0..]. */
static inline job_t *make_job(world *w, long id, int threads, const int *pes, double cpu,
                              double mem_mb)
{
    job_t *j = job_create(&w->cl, id, id, w->sim.now, threads, cpu, mem_mb);
    for (int i = 0; i < threads; i++)
        job_bind(j, i, pes[i]);
    return j;
}

static inline void run_cb(sim_t *sim, void *arg)
{
    job_run(sim, arg, 0);
}

/* Start job j at time t. */
static inline void start_at(world *w, double t, job_t *j)
{
    ev_once(&w->sim, t, run_cb, j);
}

/* pe's faults: over 2,000, each to the disk or network RAM, and the
 * network's share Binomial(n, q) within 5 standard deviations. */
static inline void assert_remote_share(const pe_t *pe, double q)
{
    double n = (double)pe->faults;
    ck_assert_msg(n > 2000, "%.0f faults", n);
    ck_assert_uint_eq(pe->faults, pe->remote_faults + pe->disk_faults);
    ck_assert_msg(fabs((double)pe->remote_faults - n * q) < 5 * sqrt(n * q * (1 - q)),
                  "%llu of %.0f faults remote", (unsigned long long)pe->remote_faults, n);
}

static inline uint64_t received(const world *w, int pe, int kind)
{
    return pnr_received(w->pnr, pe, kind);
}

static inline uint64_t sent(const world *w, int kind)
{
    return pnr_get_stats(w->pnr)->msgs[kind - PNR_MSG_REQUEST];
}



#endif
