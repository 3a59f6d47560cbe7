/* tests/test_job_cost.c: CPU costs on a fault's path (issue 33,
 * docs/MODEL.md "Costs on a fault's path"), on the hand-built world of
 * tests/fixture_job.h (its faults go to the swap device):
 *   - computer.fault_cpu: every fault of a thread alone on its PE costs
 *     fault_cpu + the device's access (disk, SSD), to the microsecond, the
 *     core is busy the thread's demand + faults x fault_cpu, and the faults
 *     are the same ones (drawn in CPU time, which fault_cpu does not
 *     advance);
 *   - sched/job_cost.c's work on a node (what a serving node's CPU does per
 *     page request): an idle core first; else it preempts the lowest
 *     busy core, whose computing thread ends exactly the work's seconds
 *     later (and so does an interrupt on a given core: a PAGE_IN's
 *     receive); nested works; a job stopped while its thread is
 *     preempted.
 * The page-message ends and the server's CPU seen through PNR are
 * tests/test_pnr_cost.c's. */
#include "sched/job_cost.h"
#include "tests/fixture_job.h"

#define FC 20e-6                               /* fault_cpu, s */
#define SSD_LAT 80e-6
#define SSD_BW 3000.0                          /* MB/s = 3e9 B/s */
#define S_SSD (80e-6 + 4096.0 / 3000e6)        /* 81.365333 us */

/* One PE of 32 MB (disk or an SSD of 2 servers); job 1: one thread of
 * 40 MB (8 MB overallocated: it faults), 30 s of CPU, R = 1e-5. */
static job_t *alone(world *w, bool ssd, double fault_cpu, uint64_t seed)
{
    cluster_params p = world_params(1, 32, TOPO_KIND_STAR, BW, seed);
    if (ssd) {
        p.swap = PE_SWAP_SSD;
        p.ssd_latency = SSD_LAT;
        p.ssd_bandwidth = SSD_BW;
        p.ssd_parallelism = 2;
    }
    p.fault_cpu = fault_cpu;
    world_init_p(w, &p);
    w->cl.mem_access_rate = 1e-5;
    return make_job(w, 1, 1, NULL, 30, 40);
}

START_TEST(test_fault_cpu_alone)
{
    /* Disk: S = 0.009 + 30/7200 + 4096/50e6 = 0.013248587 s; with
     * fault_cpu = 20 us a fault costs 0.013268587 s (13,268.587 us): the
     * thread holds its core 20 us, then the idle disk serves the page.
     * SSD: 80 us + 4096 B / 3e9 B/s = 81.365333 us, and 101.365333 us with
     * fault_cpu. The thread is alone, so every fault costs exactly that:
     *   fault time = n (fault_cpu + S), end = 30 + n (fault_cpu + S),
     *   core busy = 30 + n fault_cpu, device busy = n S,
     * and n is the run's without fault_cpu (same seed). */
    ck_assert_double_eq_tol(FC + S_DISK, 0.013268587e0, 1e-9);
    ck_assert_double_eq_tol(FC + S_SSD, 101.365333e-6, 1e-12);
    for (int ssd = 0; ssd < 2; ssd++) {
        uint64_t n0 = 0;
        for (int v = 0; v < 2; v++) {
            world w;
            job_t *j = alone(&w, ssd, v ? FC : 0, 7);
            job_run(&w.sim, j, 0);
            ev_run(&w.sim, INFINITY);
            ck_assert_int_eq(w.jobs_ended, 1);
            pe_t *pe = &w.cl.pes[0];
            double S = ssd ? S_SSD : S_DISK, f = v ? FC : 0, n = (double)j->faults;
            ck_assert_uint_gt(j->faults, 300);
            if (!v)
                n0 = j->faults;
            ck_assert_uint_eq(j->faults, n0);
            ck_assert_near(j->fault_time, n * (f + S), 1e-12 * n);
            ck_assert_near(pe->fault_time, n * (f + S), 1e-12 * n);
            ck_assert_near(j->end, 30 + n * (f + S), 1e-9 * j->end);
            ck_assert_near(res_busy_time(&w.sim, &pe->cpu), 30 + n * f, 1e-9);
            ck_assert_near(pe_swap_busy_time(&w.sim, pe), n * S, 1e-12 * n);
            world_free(&w);
        }
    }
}
END_TEST

/* ---- a work on a node: what a serving node's CPU does per request ---------- */

static double work_done_at[4];
static int works_done;

static void work_done(sim_t *sim, cost_work *wk)
{
    ck_assert_int_lt(wk->a, 4);
    work_done_at[wk->a] = sim->now;
    works_done++;
}

typedef struct work_at {
    world *w;
    int node, id;
    double secs;
    bool irq;              /* cost_interrupt on the node's core 0 instead */
} work_at;

static void work_cb(sim_t *sim, void *arg)
{
    work_at *a = arg;
    cluster_t *cl = &a->w->cl;
    cost_work *wk = a->irq ? cost_interrupt(sim, cl, pe_cpu(&cl->pes[a->node], 0), a->secs,
                                            COST_MESSAGE, work_done)
                           : cost_on_node(sim, cl, &cl->pes[a->node], a->secs, COST_SERVER,
                                          work_done);
    wk->a = a->id;
}

/* One node of `cores` cores (100 MB) and jobs of one thread, 10 s of CPU
 * and no memory (they never fault) on the given cores, started at 0. */
static void node_world(world *w, int cores, int njobs, job_t **j)
{
    cluster_params p = world_params(1, 100, TOPO_KIND_STAR, BW, 1);
    p.cores_per_node = cores;
    world_init_p(w, &p);
    for (int k = 0; k < njobs; k++) {
        j[k] = make_job(w, k + 1, 1, (int[]){k}, 10, 0);
        job_run(&w->sim, j[k], 0);
    }
    works_done = 0;
}

START_TEST(test_work_preempts)
{
    /* One core, thread D computing [0, 10]. A work of 0.5 s at t = 1 finds
     * no idle core: it preempts D (credited 1 s), runs [1, 1.5], and D
     * goes on from 1.5 with 9 s to do: it ends at 10.5, exactly 0.5 later.
     * The core was busy 10 + 0.5 s. The same for a node's work
     * (cost_on_node) and an interrupt on the core (cost_interrupt: a
     * PAGE_IN's receive). */
    for (int irq = 0; irq < 2; irq++) {
        world w;
        job_t *j[2];
        node_world(&w, 1, 1, j);
        work_at a = {&w, 0, 0, 0.5, irq};
        ev_once(&w.sim, 1, work_cb, &a);
        ev_run(&w.sim, INFINITY);
        ck_assert_int_eq(works_done, 1);
        ck_assert_double_eq_tol(work_done_at[0], 1.5, 1e-12);
        ck_assert_double_eq_tol(j[0]->end, 10.5, 1e-12);
        ck_assert_double_eq_tol(res_busy_time(&w.sim, &w.cl.pes[0].cpu), 10.5, 1e-12);
        ck_assert_double_eq_tol(w.cl.cost_cpu[irq ? COST_MESSAGE : COST_SERVER], 0.5, 1e-15);
        ck_assert_uint_eq(w.cl.pes[0].cpu.preemptions, 1);
        world_free(&w);
    }
}
END_TEST

START_TEST(test_work_nested)
{
    /* As above, and a second work of 0.3 s at t = 1.1: it preempts the
     * first (an interrupt on an interrupt), runs [1.1, 1.4]; the first
     * resumes with 0.4 s left, [1.4, 1.8]; D resumes at 1.8 with 9 s
     * left: it ends at 10.8 = 10 + 0.5 + 0.3. */
    world w;
    job_t *j[2];
    node_world(&w, 1, 1, j);
    work_at a = {&w, 0, 0, 0.5, false}, b = {&w, 0, 1, 0.3, false};
    ev_once(&w.sim, 1, work_cb, &a);
    ev_once(&w.sim, 1.1, work_cb, &b);
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(works_done, 2);
    ck_assert_double_eq_tol(work_done_at[1], 1.4, 1e-12);
    ck_assert_double_eq_tol(work_done_at[0], 1.8, 1e-12);
    ck_assert_double_eq_tol(j[0]->end, 10.8, 1e-12);
    ck_assert_double_eq_tol(res_busy_time(&w.sim, &w.cl.pes[0].cpu), 10.8, 1e-12);
    world_free(&w);
}
END_TEST

START_TEST(test_work_then_stop)
{
    /* The work of 0.5 s at t = 1 preempts D; D's job is stopped at 1.2
     * (while D waits for its core) and run again at 2. D was credited 1 s
     * at the preemption and nothing more (snapshot at 1.3: 1 s done); the
     * work still ends at 1.5; D computes its last 9 s from 2: it ends at
     * 11. The core was busy 1 + 0.5 + 9 = 10.5 s. */
    world w;
    job_t *j[2];
    node_world(&w, 1, 1, j);
    work_at a = {&w, 0, 0, 0.5, false};
    ev_once(&w.sim, 1, work_cb, &a);
    at(&w, 1.2, j[0], ACT_STOP, 0);
    at(&w, 1.3, j[0], ACT_SNAP, 0);
    at(&w, 2, j[0], ACT_RUN, 0);
    ev_run(&w.sim, INFINITY);
    ck_assert_double_eq_tol(w.snap_cpu, 1, 1e-12);
    ck_assert_double_eq_tol(work_done_at[0], 1.5, 1e-12);
    ck_assert_double_eq_tol(j[0]->end, 11, 1e-12);
    ck_assert_double_eq_tol(res_busy_time(&w.sim, &w.cl.pes[0].cpu), 10.5, 1e-12);
    ck_assert_ptr_null(j[0]->th[0].preempted_by);
    world_free(&w);
}
END_TEST

START_TEST(test_work_cores)
{
    /* Two cores. D on core 0 alone: the work at t = 1 takes idle core 1
     * and slows nobody (D ends at 10). D0 on core 0 and D1 on core 1: no
     * core is idle, the work preempts the lowest busy one, core 0: D0 ends
     * at 10.5, D1 at 10. */
    for (int both = 0; both < 2; both++) {
        world w;
        job_t *j[2];
        node_world(&w, 2, both ? 2 : 1, j);
        work_at a = {&w, 0, 0, 0.5, false};
        ev_once(&w.sim, 1, work_cb, &a);
        ev_run(&w.sim, INFINITY);
        ck_assert_double_eq_tol(work_done_at[0], 1.5, 1e-12);
        ck_assert_double_eq_tol(j[0]->end, both ? 10.5 : 10, 1e-12);
        if (both)
            ck_assert_double_eq_tol(j[1]->end, 10, 1e-12);
        ck_assert_double_eq_tol(res_busy_time(&w.sim, pe_cpu(&w.cl.pes[0], 1)),
                                both ? 10 : 0.5, 1e-12);
        ck_assert_double_eq_tol(pe_cpu_busy(&w.sim, &w.cl.pes[0]), (both ? 20 : 10) + 0.5,
                                1e-12);
        world_free(&w);
    }
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("job_cost");
    TCase *tc = tcase_create("cost");
    tcase_add_test(tc, test_fault_cpu_alone);
    tcase_add_test(tc, test_work_preempts);
    tcase_add_test(tc, test_work_nested);
    tcase_add_test(tc, test_work_then_stop);
    tcase_add_test(tc, test_work_cores);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
