/* tests/test_batch_nodes.c: batched paging (process.paging = BATCHED,
 * sched/batch.c, docs/BATCHING.md "SSD swap and nodes of several cores",
 * issue 33 item 5) on an SSD PE and on a node of several cores, against the
 * exact machinery.
 *
 * The references are those of tests/test_job_batch.c: a thread alone on its
 * PE draws its fault times from the PE's stream one after the other in
 * either mode, so both modes fault at the same CPU times and end at the same
 * instant; where a batch is cut, the state left is the exact one at that
 * instant. On an SSD of c servers a thread alone never queues (its faults
 * are sequential), so each fault costs S_SSD = latency + page / bandwidth
 * and the thread ends at cpu + faults * S_SSD, which both modes must give.
 */
#include "tests/fixture_job.h"

#include "sched/batch.h"
#include "sched/batch_link.h"

#define SSD_LAT 80e-6
#define SSD_BW 3000.0                   /* MB/s = 3e9 B/s */
#define S_SSD (80e-6 + 4096.0 / 3000e6) /* 80 us + 1.365333 us = 81.365333 us */

static int to_disk(thread_t *th, void *ctx, double *svc)
{
    (void)th;
    (void)ctx;
    (void)svc; /* the swap device's service, batch.c fills it in */
    return -1;
}

/* One node of 32 MB (C cores) with an SSD of c servers; R = 1e-5. */
static void node_ssd(world *w, int cores, int c, bool batched, uint64_t seed)
{
    cluster_params p = world_params(1, 32, TOPO_KIND_STAR, BW, seed);
    p.swap = PE_SWAP_SSD;
    p.ssd_latency = SSD_LAT;
    p.ssd_bandwidth = SSD_BW;
    p.ssd_parallelism = c;
    p.cores_per_node = cores;
    p.paging = batched ? PAGING_BATCHED : PAGING_EXACT;
    world_init_p(w, &p);
    w->cl.mem_access_rate = 1e-5;
    w->cl.hooks.fault_plan = to_disk;
}

START_TEST(test_ssd_alone_same_path)
{
    /* One thread of 40 MB on 32 MB (L = 8 MB) and 10 CPU s, SSD of 2
     * servers. Both modes: the same faults (> 100) and the same end,
     * 10 + faults * S_SSD; the SSD served every fault (completions =
     * faults) on one server at a time: busy time = server-seconds =
     * faults * S_SSD, no queue; batched: most faults in batches. Fails
     * while batch.c refuses SSD PEs (batch_faults 0). */
    for (uint64_t seed = 1; seed <= 3; seed++) {
        double end[2];
        uint64_t faults[2];
        for (int b = 0; b < 2; b++) {
            world w;
            node_ssd(&w, 1, 2, b, seed);
            job_t *j = make_job(&w, 1, 1, NULL, 10, 40);
            job_run(&w.sim, j, 0);
            ev_run(&w.sim, INFINITY);
            ck_assert_int_eq(w.jobs_ended, 1);
            pe_t *pe = &w.cl.pes[0];
            double n = (double)j->faults;
            end[b] = j->end;
            faults[b] = j->faults;
            ck_assert_uint_eq(pe->disk_faults, j->faults);
            ck_assert_uint_eq(pe->ssd.completions, j->faults);
            ck_assert_uint_eq(pe->ssd.requests, j->faults);
            ck_assert_uint_eq(pe->disk.requests, 0);
            ck_assert_int_eq(pe->ssd.nbusy, 0);
            ck_assert_near(j->fault_time, n * S_SSD, 1e-12 * n);
            ck_assert_near(mres_busy_time(&w.sim, &pe->ssd), n * S_SSD, 1e-12 * n);
            ck_assert_near(mres_server_time(&w.sim, &pe->ssd), n * S_SSD, 1e-12 * n);
            ck_assert_double_eq(pe->ssd.queue.max, 0);
            ck_assert_near(cpu_busy(&w), 10, 1e-9);
            ck_assert_near(j->end, 10 + n * S_SSD, 1e-9 * j->end);
            if (b)
                ck_assert_uint_gt(w.cl.batch_faults, j->faults / 2);
            else
                ck_assert_uint_eq(w.cl.batch_faults, 0);
            world_free(&w);
        }
        ck_assert_uint_gt(faults[0], 100);
        ck_assert_uint_eq(faults[1], faults[0]);
        ck_assert_near(end[1], end[0], 1e-9 * end[0]);
    }
}
END_TEST

/* The state of job 1's thread and its node's SSD at an instant. */
typedef struct snap {
    double cpu_done, D, fault_time, ssd_busy, ssd_server, cpu_busy;
    uint64_t faults, ssd_req, ssd_done;
    int nbusy, paging;
    bool computing, batch;
} snap;

typedef struct probe {
    job_t *j;
    bool other_fault; /* play another thread's fault on the node's SSD */
    snap s;
} probe;

static void probe_cb(sim_t *sim, void *arg)
{
    probe *p = arg;
    thread_t *th = &p->j->th[0];
    pe_t *pe = th->pe;
    bool had = pe->batch != NULL;
    if (p->other_fault) {
        /* What job.c does at another thread's SSD fault on this node: the
         * batch ends first, then the request (here taken back at once, so
         * that the thread's own run goes on undisturbed). */
        pe_batch_end(sim, pe);
        ck_assert_ptr_null(pe->batch);
        snap *s = &p->s;
        double cpu = th->cpu_done + (th->computing ? sim->now - th->burst_start : 0);
        *s = (snap){.cpu_done = cpu,
                    .D = th->D,
                    .fault_time = pe->fault_time,
                    .ssd_busy = mres_busy_time(sim, &pe->ssd),
                    .ssd_server = mres_server_time(sim, &pe->ssd),
                    .cpu_busy = res_busy_time(sim, &pe->cpu),
                    .faults = th->faults,
                    .ssd_req = pe->ssd.requests,
                    .ssd_done = pe->ssd.completions,
                    .nbusy = pe->ssd.nbusy,
                    .paging = pe->paging,
                    .computing = th->computing,
                    .batch = had};
    }
}

START_TEST(test_ssd_cut_by_other_fault)
{
    /* Job 1 alone (2 CPU s) on a node of 2 cores with an SSD of 2
     * servers, R = 3e-8 (bursts of R P / U = 0.12 ms / U against services
     * of 81 us: instants fall in both). At instant t another thread's fault
     * on the node's SSD (the call job.c makes) cuts the batch under way:
     * right after it the thread and the SSD are as in the exact run at t
     * (CPU time done, faults, D, the SSD's servers busy, requests,
     * completions, busy time and server-seconds, the fault time). Fails
     * without the cut (pe->batch stays set) or with an SSD cut that holds
     * no server (nbusy 0 where the exact run has 1). */
    int in_fault = 0, in_cpu = 0, cut = 0;
    for (int k = 0; k < 400; k++) {
        double t = 0.1 + 0.00461 * k;
        snap s[2];
        for (int b = 0; b < 2; b++) {
            world w;
            node_ssd(&w, 2, 2, b, 91);
            w.cl.mem_access_rate = 3e-8;
            job_t *j = make_job(&w, 1, 1, NULL, 2, 40);
            job_run(&w.sim, j, 0);
            probe p = {.j = j, .other_fault = true};
            ev_once(&w.sim, t, probe_cb, &p);
            ev_run(&w.sim, INFINITY);
            ck_assert_int_eq(w.jobs_ended, 1);
            pe_t *pe = &w.cl.pes[0];
            ck_assert_uint_eq(pe->ssd.completions, pe->faults);
            ck_assert_near(mres_server_time(&w.sim, &pe->ssd), (double)pe->faults * S_SSD,
                           1e-12 * (double)pe->faults);
            ck_assert_near(j->end, 2 + (double)j->faults * S_SSD, 1e-9 * j->end);
            s[b] = p.s;
            world_free(&w);
        }
        ck_assert(!s[0].batch);
        cut += s[1].batch;
        ck_assert_near(s[1].cpu_done, s[0].cpu_done, 1e-9);
        ck_assert_double_eq(s[1].D, s[0].D);
        ck_assert_uint_eq(s[1].faults, s[0].faults);
        ck_assert_int_eq(s[1].nbusy, s[0].nbusy);
        ck_assert_int_eq(s[1].paging, s[0].paging);
        ck_assert_int_eq(s[1].computing, s[0].computing);
        ck_assert_uint_eq(s[1].ssd_req, s[0].ssd_req);
        ck_assert_uint_eq(s[1].ssd_done, s[0].ssd_done);
        ck_assert_near(s[1].ssd_busy, s[0].ssd_busy, 1e-9);
        ck_assert_near(s[1].ssd_server, s[0].ssd_server, 1e-9);
        ck_assert_near(s[1].fault_time, s[0].fault_time, 1e-9);
        ck_assert_near(s[1].cpu_busy, s[0].cpu_busy, 1e-9);
        if (s[0].nbusy)
            in_fault++;
        else
            in_cpu++;
    }
    ck_assert_int_gt(in_fault, 3);
    ck_assert_int_gt(in_cpu, 100);
    ck_assert_int_gt(cut, 200); /* most instants found a batch under way */
}
END_TEST

START_TEST(test_core_cpu_cut)
{
    /* A node of 2 cores: job 1's thread (core 0) batches. Another thread
     * asking for core 1's CPU leaves the batch alone (job_batch_cpu_end: a
     * core of its own); one asking for core 0's CPU ends it, and the
     * node's next batch plans twice the steps this one completed. The two
     * threads here are jobs 2 (core 1) and 3 (core 0), created but not
     * run (their core_cpu set by job_bind and job_run's thread set-up is
     * not needed: only th->pe and th->core_cpu are read). */
    world w;
    node_ssd(&w, 2, 2, true, 5);
    w.cl.mem_access_rate = 3e-6;
    job_t *j = make_job(&w, 1, 1, NULL, 12, 40);
    job_run(&w.sim, j, 0);
    ev_run(&w.sim, 2.0); /* into the run: a batch under way (most instants) */
    pe_t *pe = &w.cl.pes[0];
    for (int tries = 0; !pe->batch && tries < 100; tries++)
        ev_run(&w.sim, w.sim.now + 0.05);
    ck_assert_ptr_nonnull(pe->batch);
    thread_t other[2] = {0};
    other[0].pe = other[1].pe = pe;
    other[0].core_cpu = pe_cpu(pe, 1);
    other[1].core_cpu = pe_cpu(pe, 0);
    ck_assert_ptr_eq(((thread_t *)pe->batch)->core_cpu, pe_cpu(pe, 0));
    job_batch_cpu_end(&w.sim, &other[0]);
    ck_assert_ptr_nonnull(pe->batch); /* core 1: not the batch's core */
    /* The step under way now, i: the cut completes i + 1 steps, so the
     * node's next batch plans at most 2 (i + 1) (2..64), and backs off 16
     * faults when i + 1 <= 2 (batch.c batch_learn). */
    int i = batch_step_at(((thread_t *)pe->batch)->batch, w.sim.now);
    ck_assert_int_ge(i, 0);
    int want = 2 * (i + 1) > BATCH_MAX ? BATCH_MAX : 2 * (i + 1);
    job_batch_cpu_end(&w.sim, &other[1]);
    ck_assert_ptr_null(pe->batch); /* core 0: cut */
    ck_assert_int_eq(pe->batch_steps, want);
    ck_assert_int_eq(pe->batch_skip, i + 1 <= 2 ? 16 : 0);
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(w.jobs_ended, 1);
    ck_assert_near(j->end, 12 + (double)j->faults * S_SSD, 1e-9 * j->end);
    world_free(&w);
}
END_TEST

/* Every 0.5 ms: a batch runs only while nobody else uses the node's SSD
 * (every other request cuts it first), so no server is busy then. */
typedef struct watch {
    pe_t *pe;
    long seen, bad;
} watch;

static void watch_cb(sim_t *sim, void *arg)
{
    watch *x = arg;
    if (x->pe->batch) {
        x->seen++;
        if (x->pe->ssd.nbusy)
            x->bad++;
    }
    if (x->pe->nusers)
        ev_once(sim, sim->now + 0.0005, watch_cb, x);
}

START_TEST(test_two_cores_never_queue)
{
    /* A node of 2 cores, 64 MB, SSD of 2 servers; jobs 1 and 2 (one thread
     * of 48 MB and 8 CPU s each) on cores 0 and 1, both started at 0: 96
     * MB on 64 MB, each thread's share of the overallocation 16 MB, both
     * fault. Two threads on two servers never queue, so in either mode
     * each thread ends at 8 + its faults * S_SSD, the SSD completes every
     * fault with server-seconds = all faults * S_SSD and no queue, and the
     * batches (batched mode) are cut by the other thread's faults, not
     * broken: every count adds up, and whenever a batch is under way no
     * SSD server is busy (watch_cb; fails without the cut at an SSD
     * request in job.c). */
    for (int b = 0; b < 2; b++) {
        world w;
        cluster_params p = world_params(1, 64, TOPO_KIND_STAR, BW, 13);
        p.swap = PE_SWAP_SSD;
        p.ssd_latency = SSD_LAT;
        p.ssd_bandwidth = SSD_BW;
        p.ssd_parallelism = 2;
        p.cores_per_node = 2;
        p.paging = b ? PAGING_BATCHED : PAGING_EXACT;
        world_init_p(&w, &p);
        w.cl.mem_access_rate = 1e-5;
        w.cl.hooks.fault_plan = to_disk;
        int c0 = 0, c1 = 1;
        job_t *a = make_job(&w, 1, 1, &c0, 8, 48);
        job_t *o = make_job(&w, 2, 1, &c1, 8, 48);
        a->row = o->row = 0;
        at(&w, 0, a, ACT_RUN, 0);
        at(&w, 0, o, ACT_RUN, 0);
        pe_t *pe = &w.cl.pes[0];
        watch x = {.pe = pe};
        ev_once(&w.sim, 0.01, watch_cb, &x);
        ev_run(&w.sim, INFINITY);
        ck_assert_int_eq(w.jobs_ended, 2);
        ck_assert_int_eq(x.bad, 0);
        if (b)
            ck_assert_int_gt(x.seen, 50);
        double n = (double)(a->faults + o->faults);
        ck_assert_uint_gt(a->faults, 50);
        ck_assert_uint_gt(o->faults, 50);
        ck_assert_near(a->end, 8 + (double)a->faults * S_SSD, 1e-9 * a->end);
        ck_assert_near(o->end, 8 + (double)o->faults * S_SSD, 1e-9 * o->end);
        ck_assert_uint_eq(pe->ssd.completions, a->faults + o->faults);
        ck_assert_near(mres_server_time(&w.sim, &pe->ssd), n * S_SSD, 1e-12 * n);
        ck_assert_double_eq(pe->ssd.queue.max, 0);
        ck_assert_near(pe_cpu_busy(&w.sim, pe), 16, 1e-9);
        if (b) {
            ck_assert_uint_gt(w.cl.batch_faults, 0);
            ck_assert_uint_lt(w.cl.batch_faults, a->faults + o->faults);
        }
        world_free(&w);
    }
}
END_TEST

START_TEST(test_disk_node_not_batched)
{
    /* Nodes of several cores with a disk: no batch (batch.c; every fault
     * exact, docs/BATCHING.md), so the two cores' threads of
     * test_two_cores_never_queue on a disk run as in the exact mode: the
     * same faults, fault time and ends, batch_faults 0. Fails if batch.c
     * batches there. */
    double end[2][2], ft[2];
    uint64_t nf[2];
    for (int b = 0; b < 2; b++) {
        world w;
        cluster_params p = world_params(1, 64, TOPO_KIND_STAR, BW, 13);
        p.cores_per_node = 2;
        p.paging = b ? PAGING_BATCHED : PAGING_EXACT;
        world_init_p(&w, &p);
        w.cl.mem_access_rate = 1e-5;
        w.cl.hooks.fault_plan = to_disk;
        int c0 = 0, c1 = 1;
        job_t *a = make_job(&w, 1, 1, &c0, 8, 48);
        job_t *o = make_job(&w, 2, 1, &c1, 8, 48);
        a->row = o->row = 0;
        at(&w, 0, a, ACT_RUN, 0);
        at(&w, 0, o, ACT_RUN, 0);
        ev_run(&w.sim, INFINITY);
        ck_assert_int_eq(w.jobs_ended, 2);
        ck_assert_uint_eq(w.cl.batch_faults, 0);
        end[b][0] = a->end;
        end[b][1] = o->end;
        nf[b] = a->faults + o->faults;
        ft[b] = a->fault_time + o->fault_time;
        world_free(&w);
    }
    ck_assert_uint_gt(nf[0], 50);
    ck_assert_uint_eq(nf[1], nf[0]);
    ck_assert_double_eq(ft[1], ft[0]);
    ck_assert_double_eq(end[1][0], end[0][0]);
    ck_assert_double_eq(end[1][1], end[0][1]);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("batch_nodes");
    TCase *tc = tcase_create("batch_nodes");
    tcase_add_test(tc, test_ssd_alone_same_path);
    tcase_add_test(tc, test_ssd_cut_by_other_fault);
    tcase_add_test(tc, test_core_cpu_cut);
    tcase_add_test(tc, test_two_cores_never_queue);
    tcase_add_test(tc, test_disk_node_not_batched);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
