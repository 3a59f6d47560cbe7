/* tests/test_cluster.c: the cluster's constructor and destructor
 * (sched/cluster.c) and the hooks each layer installs itself:
 *   - cluster_init builds what the parameters say: PE names, per-PE RAM,
 *     the disk service time worked out by hand, the network's topology,
 *     the streams, the thread parameters;
 *   - the scheduler installs the hooks' scheduler half (gang_create) and
 *     removes it (gang_destroy, through cluster_destroy); without one the
 *     hooks stay empty;
 *   - a job's end goes job -> scheduler -> on_end: the job has left the
 *     matrix when on_end sees it, at the time worked out by hand;
 *   - cluster_observe installs the scheduler's, the PEs' and the network's
 *     observers together and removes them, and they are told what happens.
 */
#include "tests/fixture_components.h"
#include "sched/cluster.h"
#include "sched/gang.h"
#include "tests/testcluster.h"
#include "tests/testutil.h"

#include <string.h>

/* ---- construction ------------------------------------------------------- */

START_TEST(test_build)
{
    /* Three PEs named node0..node2 with 16, 32 and 64 MB, a disk of 10 ms
     * seek, 6000 rpm, 20 MB/s, 8192-byte pages, full revolution: one access
     * takes 0.01 + 60/6000 + 8192/20e6 = 0.0204096 s. */
    sim_t sim;
    ck_assert_int_eq(ev_init(&sim), 0);
    static const double ram[3] = {16, 32, 64};
    cluster_params p = test_cluster_params(3, 0, 7);
    p.pe_name = "node";
    p.pe_ram_mb = ram;
    p.seek = 0.01;
    p.rpm = 6000;
    p.transfer = 20;
    p.page_bytes = 8192;
    p.full_rotation = true;
    p.topology = TOPO_KIND_BUS;
    p.mem_access_rate = 1e-6;
    p.comm_rate = 2;
    p.sync_rate = 3;
    p.neighbour_bytes = 100;
    p.sync_bytes = 10;
    p.mem_release = MEM_RELEASE_THREAD;
    p.interval_exp = true;
    cluster_t cl;
    cluster_init(&sim, &cl, &p);
    ck_assert_int_eq(cl.npes, 3);
    for (int i = 0; i < 3; i++) {
        char name[16];
        snprintf(name, sizeof name, "node%d", i);
        ck_assert_str_eq(cl.pes[i].name, name);
        ck_assert_int_eq(cl.pes[i].id, i);
        ck_assert_double_eq(cl.pes[i].ram_mb, ram[i]);
        ck_assert_near(cl.pes[i].disk_service, 0.0204096, 1e-15);
    }
    ck_assert_ptr_nonnull(cl.net);
    ck_assert_int_eq(net_topology_kind(cl.net), TOPO_KIND_BUS);
    ck_assert_double_eq(cl.page_bytes, 8192);
    ck_assert_double_eq(job_page_bytes(&cl), 8192);
    ck_assert_double_eq(cl.mem_access_rate, 1e-6);
    ck_assert_double_eq(cl.comm_rate, 2);
    ck_assert_double_eq(cl.sync_rate, 3);
    ck_assert_double_eq(cl.neighbour_bytes, 100);
    ck_assert_double_eq(cl.sync_bytes, 10);
    ck_assert_int_eq(cl.mem_release, MEM_RELEASE_THREAD);
    ck_assert(cl.interval_exp);
    ck_assert_uint_eq(cl.fault_rng.n, 3);
    ck_assert_uint_eq(cl.interval_rng.n, 3);
    /* The streams are the named ones: stream 1 of "fault" under seed 7. */
    rng_t *r = rng_stream(7, "fault", 1);
    ck_assert_double_eq(rng_uniform01(rng_set_get(&cl.fault_rng, 1)), rng_uniform01(r));
    rng_free(r);
    /* No scheduler asked for: none, and no hooks. */
    ck_assert_ptr_null(cl.gang);
    ck_assert_ptr_null(cl.hooks.on_job_ended);
    ck_assert_ptr_null(cl.hooks.on_mem_freed);
    ck_assert_ptr_null(cl.hooks.thread_starting);
    test_cluster_free(&sim, &cl);
}
END_TEST

START_TEST(test_memory_servers_have_cores)
{
    /* Issue 33 review: a memory server is a node like the others (the
     * preset's memory_server_ram "as ram above"), so on nodes of C cores it
     * has C cores too: under MESSAGES its page requests' server_cpu then
     * runs on C cores at once (sched/job_cost.c), not queued on one. Three
     * compute nodes and two memory servers of 4 cores each. */
    sim_t sim;
    ck_assert_int_eq(ev_init(&sim), 0);
    cluster_params p = test_cluster_params(5, 64, 1);
    p.ncompute = 3;
    p.cores_per_node = 4;
    cluster_t cl;
    cluster_init(&sim, &cl, &p);
    for (int i = 0; i < 5; i++) {
        ck_assert_int_eq(cl.pes[i].ncores, 4);
        ck_assert_ptr_nonnull(cl.pes[i].cpus);
    }
    test_cluster_free(&sim, &cl);
}
END_TEST

START_TEST(test_default_page)
{
    /* page_bytes 0 and half a revolution: the disk of tests/testcluster.h,
     * 0.009 + 30/7200 + 4096/50e6 s per access, as pe_init computes it. */
    sim_t sim;
    ck_assert_int_eq(ev_init(&sim), 0);
    cluster_params p = test_cluster_params(2, 64, 1);
    cluster_t cl;
    cluster_init(&sim, &cl, &p);
    ck_assert_double_eq(cl.page_bytes, 0);
    ck_assert_double_eq(job_page_bytes(&cl), 4096);
    for (int i = 0; i < 2; i++) {
        ck_assert_str_eq(cl.pes[i].name, i ? "pe1" : "pe0");
        ck_assert_double_eq(cl.pes[i].ram_mb, 64);
        ck_assert_double_eq(cl.pes[i].disk_service, 0.009 + 30.0 / 7200 + 4096 / 50e6);
    }
    ck_assert_ptr_null(cl.interval_rng.v); /* fixed intervals: no streams */
    test_cluster_free(&sim, &cl);
}
END_TEST

/* ---- the scheduler wires itself ------------------------------------------- */

typedef struct ended {
    int n;
    double at;
    long placed, running; /* the scheduler's counts when on_end ran */
    gang_t *g;
    /* observer counts */
    int runs, stops, switches, mems, pagings, busy;
} ended;

static void on_end(sim_t *sim, job_t *j, void *ctx)
{
    ended *e = ctx;
    e->n++;
    e->at = sim->now;
    ck_assert(j->ended);
    ck_assert_double_eq(j->end, sim->now);
    e->placed = gang_placed(e->g);
    e->running = gang_running(e->g);
    job_release(sim, j);
}

static void submit_cb(sim_t *sim, void *arg)
{
    job_t *j = arg;
    gang_submit(sim, j->cl->gang, j);
}

/* A kernel and a cluster of two PEs of 64 MB under an FCFS gang scheduler
 * of MPL 1 whose on_end records into e. */
static void gang_world(sim_t *sim, cluster_t *cl, gang_params *gp, ended *e)
{
    *gp = (gang_params){.priority = PRIO_FCFS, .packing = PACK_FIRSTFIT, .backfill = BF_NONE, .mpl = 1,
                        .quantum = 10, .strict_order = true};
    cluster_params p = test_cluster_params(2, 64, 1);
    p.gang = gp;
    p.on_end = on_end;
    p.end_ctx = e;
    ck_assert_int_eq(ev_init(sim), 0);
    cluster_init(sim, cl, &p);
    e->g = cl->gang;
}

START_TEST(test_gang_hooks)
{
    /* Two PEs, MPL 1. J1 (2 threads, 3 CPU s) at 0, J2 (1 thread, 2 s) at
     * 1: J1 runs [0, 3), J2 waits and runs [3, 5). Each end reaches on_end
     * with the job already out of the matrix (placed counts the others). */
    sim_t sim;
    cluster_t cl;
    gang_params gp;
    ended e = {0};
    gang_world(&sim, &cl, &gp, &e);
    ck_assert_ptr_nonnull(cl.gang);
    ck_assert_ptr_nonnull(cl.hooks.on_job_ended);
    ck_assert_ptr_nonnull(cl.hooks.on_mem_freed);
    ck_assert_ptr_eq(cl.hooks.sched_ctx, cl.gang);
    ck_assert_ptr_null(cl.hooks.thread_starting); /* PNR's half: not ours */
    job_t *j1 = job_create(&cl, 1, 1, 0, 2, 3, 8);
    job_t *j2 = job_create(&cl, 2, 2, 1, 1, 2, 8);
    ev_once(&sim, 0, submit_cb, j1);
    ev_once(&sim, 1, submit_cb, j2);
    ev_run(&sim, 3.5);
    ck_assert_int_eq(e.n, 1);
    ck_assert_double_eq(e.at, 3);
    ck_assert_int_eq(e.placed, 0); /* J1 gone; J2 is placed by the pass after */
    ck_assert_int_eq(e.running, 0);
    ck_assert_int_eq(gang_placed(cl.gang), 1);
    ev_run(&sim, INFINITY);
    ck_assert_int_eq(e.n, 2);
    ck_assert_double_eq(e.at, 5);
    ck_assert_int_eq(e.placed, 0);
    ck_assert_int_eq(cl.jobs_alive, 0);
    /* cluster_destroy removes the scheduler and its hooks. */
    cluster_destroy(&sim, &cl);
    ck_assert_ptr_null(cl.gang);
    ck_assert_ptr_null(cl.hooks.on_job_ended);
    ck_assert_ptr_null(cl.hooks.on_mem_freed);
    ck_assert_ptr_null(cl.hooks.sched_ctx);
    ck_assert_uint_eq(sim.live_records, 0);
    ev_destroy(&sim);
}
END_TEST

/* ---- observers through the cluster ------------------------------------------ */

static void obs_run(sim_t *sim, const job_t *j, int slot, double from, void *ctx)
{
    (void)sim, (void)j, (void)slot, (void)from;
    ((ended *)ctx)->runs++;
}
static void obs_stop(sim_t *sim, const job_t *j, void *ctx)
{
    (void)sim, (void)j;
    ((ended *)ctx)->stops++;
}
static void obs_mem(sim_t *sim, const pe_t *pe, void *ctx)
{
    (void)sim, (void)pe;
    ((ended *)ctx)->mems++;
}
static void obs_busy(sim_t *sim, const net_elem *el, bool busy, double t, void *ctx)
{
    (void)sim, (void)el, (void)busy, (void)t;
    ((ended *)ctx)->busy++;
}

START_TEST(test_observe)
{
    /* One job of 2 threads, 8 MB each, 3 CPU s, no messages: the scheduler
     * tells one run and one stop; each PE's memory changes twice (the
     * thread's allocation at its start, its release at the end): 4; the
     * network carries nothing: 0. After cluster_observe(cl, NULL) nothing
     * is told. */
    sim_t sim;
    cluster_t cl;
    gang_params gp;
    ended e = {0};
    gang_world(&sim, &cl, &gp, &e);
    gang_observer go = {.on_job_run = obs_run, .on_job_stop = obs_stop, .ctx = &e};
    pe_observer po = {.mem = obs_mem, .ctx = &e};
    net_observer no = {.busy = obs_busy, .ctx = &e};
    cluster_observe(&cl, &(cluster_observer){.gang = &go, .pe = &po, .net = &no});
    for (int i = 0; i < cl.npes; i++)
        ck_assert_ptr_eq(cl.pes[i].obs, &po);
    job_t *j1 = job_create(&cl, 1, 1, 0, 2, 3, 8);
    ev_once(&sim, 0, submit_cb, j1);
    ev_run(&sim, INFINITY);
    ck_assert_int_eq(e.n, 1);
    ck_assert_int_eq(e.runs, 1);
    ck_assert_int_eq(e.stops, 1);
    ck_assert_int_eq(e.mems, 4);
    ck_assert_int_eq(e.busy, 0);
    cluster_observe(&cl, NULL);
    for (int i = 0; i < cl.npes; i++)
        ck_assert_ptr_null(cl.pes[i].obs);
    job_t *j2 = job_create(&cl, 2, 2, sim.now, 1, 1, 8);
    ev_once(&sim, sim.now, submit_cb, j2);
    ev_run(&sim, INFINITY);
    ck_assert_int_eq(e.n, 2);
    ck_assert_int_eq(e.runs, 1);
    ck_assert_int_eq(e.stops, 1);
    ck_assert_int_eq(e.mems, 4);
    test_cluster_free(&sim, &cl);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("cluster");
    TCase *tc = tcase_create("cluster");
    tcase_add_test(tc, test_build);
    tcase_add_test(tc, test_memory_servers_have_cores);
    tcase_add_test(tc, test_default_page);
    tcase_add_test(tc, test_gang_hooks);
    tcase_add_test(tc, test_observe);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
