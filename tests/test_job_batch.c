/* tests/test_job_batch.c: batched paging (process.paging = BATCHED,
 * sched/batch.c, docs/BATCHING.md) against the exact machinery.
 *
 * The reference is independent of the batching code: a thread alone on its
 * PE draws its fault times from its PE's stream one after the other in
 * either mode, with the same arithmetic, so in both modes it must fault at
 * the same CPU times and end at the same instant; and wherever a batch is
 * cut (a stop, a memory change, a settle), the state left must be the one
 * the exact machinery has at that instant: CPU time done, faults counted,
 * D, the fault in service or the burst under way, and the resources' busy
 * times and counts. Whole-run conservation of CPU time, disk time and
 * memory in batched mode is tests/test_job_stop.c's (loop tests).
 */
#include "tests/fixture_job.h"

/* The world's faults go to the disk (on_fault), without drawing. */
static int to_disk(thread_t *th, void *ctx, double *svc)
{
    (void)th;
    (void)ctx;
    (void)svc; /* the disk's service, batch.c fills it in */
    return -1;
}

/* One PE of 32 MB; job 1: one thread of `mem` MB and `cpu` s; R = 1e-5
 * (a fault every 0.04 s of CPU at most), no messages. */
static job_t *alone(world *w, int batched, uint64_t seed, double cpu, double mem)
{
    world_init(w, 1, 32, TOPO_KIND_STAR, BW, seed);
    w->cl.mem_access_rate = 1e-5;
    w->cl.paging = batched ? PAGING_BATCHED : PAGING_EXACT;
    w->cl.hooks.fault_plan = to_disk;
    return make_job(w, 1, 1, NULL, cpu, mem);
}

START_TEST(test_alone_same_path)
{
    /* 40 MB on 32 MB: L = 8 MB = 2048 pages; 30 s of CPU: hundreds of
     * faults. Both modes: same faults, same end, CPU busy =
     * 30 s, disk busy = faults * S_DISK; batched: far fewer steps
     * (events and inline holds). */
    for (uint64_t seed = 1; seed <= 5; seed++) {
        double end[2];
        uint64_t faults[2], events[2];
        for (int b = 0; b < 2; b++) {
            world w;
            job_t *j = alone(&w, b, seed, 30, 40);
            job_run(&w.sim, j, 0);
            ev_run(&w.sim, INFINITY);
            ck_assert_int_eq(w.jobs_ended, 1);
            end[b] = j->end;
            faults[b] = j->faults;
            /* Events dispatched plus holds taken inline (a thread alone
             * has nothing between its holds: core/proc.h proc_hold_inline):
             * the steps either mode takes. */
            events[b] = w.sim.dispatched + w.sim.skipped;
            pe_t *pe = &w.cl.pes[0];
            ck_assert_uint_eq(pe->faults, j->faults);
            ck_assert_uint_eq(pe->disk.completions, j->faults);
            ck_assert_near(res_busy_time(&w.sim, &pe->disk), (double)j->faults * S_DISK,
                           1e-9 * (double)j->faults);
            ck_assert_near(j->fault_time, (double)j->faults * S_DISK, 1e-9 * (double)j->faults);
            ck_assert_near(cpu_busy(&w), 30, 1e-9);
            /* Alone: the CPU is free at every burst, so end = demand +
             * faults' service. */
            ck_assert_near(j->end, 30 + (double)j->faults * S_DISK, 1e-9 * j->end);
            if (b)
                ck_assert_uint_gt(w.cl.batch_faults, j->faults / 2);
            world_free(&w);
        }
        ck_assert_uint_gt(faults[0], 300);
        ck_assert_uint_eq(faults[1], faults[0]);
        ck_assert_near(end[1], end[0], 1e-9 * end[0]);
        ck_assert_uint_lt(events[1] * 10, events[0]);
    }
}
END_TEST

/* The state of job 1's thread and its PE at an instant. */
typedef struct snap {
    double cpu_done, target, D, fault_start, cpu_busy, disk_busy, fault_time;
    uint64_t faults, pe_faults, cpu_req, disk_req;
    bool computing, disk_held, cpu_held;
    int paging;
} snap;

typedef struct probe {
    world *w;
    job_t *j;
    int kind;               /* 0: stop, 1: settle, 2: memory change */
    job_t *other;           /* kind 2: the job started on the PE */
    snap s;
} probe;

static void take(sim_t *sim, probe *p)
{
    thread_t *th = &p->j->th[0];
    pe_t *pe = th->pe;
    double cpu = th->cpu_done;
    if (th->computing) /* the burst under way, credited up to now */
        cpu += sim->now - th->burst_start;
    p->s = (snap){.cpu_done = cpu,
                  .target = th->target,
                  .D = th->D,
                  .fault_start = th->fault_start,
                  .cpu_busy = res_busy_time(sim, &pe->cpu),
                  .disk_busy = res_busy_time(sim, &pe->disk),
                  .fault_time = pe->fault_time,
                  .faults = th->faults,
                  .pe_faults = pe->faults,
                  .cpu_req = pe->cpu.requests,
                  .disk_req = pe->disk.requests,
                  .computing = th->computing,
                  .disk_held = pe->disk.holder == &th->p,
                  .cpu_held = pe->cpu.holder == &th->p,
                  .paging = pe->paging};
}

static void probe_late_cb(sim_t *sim, void *arg);

static void probe_cb(sim_t *sim, void *arg)
{
    probe *p = arg;
    if (p->kind == 0)
        job_stop(sim, p->j);
    else if (p->kind == 1)
        batch_settle(sim, &p->w->cl);
    else
        job_run(sim, p->other, 0);
    if (p->kind == 2) {
        /* The other thread allocates its memory at its start, an event
         * of its own at this instant: look after it. */
        ev_once(sim, sim->now, probe_late_cb, p);
        return;
    }
    take(sim, p);
}

static void probe_late_cb(sim_t *sim, void *arg)
{
    take(sim, arg);
}

START_TEST(test_cut_state)
{
    /* Job 1 alone as above (R = 3e-6); at instant t (60, falling in disk services
     * and in bursts), _i = 0: job_stop; 1: batch_settle; 2: a second job's
     * thread (4 MB, started at t) changes the PE's overallocation. Right
     * after, the thread and PE are as the exact run has them: CPU time
     * done, faults (thread and PE), D, the fault in service and its
     * start, the CPU or disk held, busy times, request counts. Then the
     * run goes on (job 1 resumed 1 s after a stop) and CPU and disk time
     * are conserved. */
    int in_disk = 0, in_cpu = 0;
    for (int k = 0; k < 60; k++) {
        double t = 0.7 + 0.29 * k;
        snap s[2];
        for (int b = 0; b < 2; b++) {
            world w;
            job_t *j = alone(&w, b, 77, 20, 40);
            w.cl.mem_access_rate = 3e-6; /* bursts of 12 ms / U, services of 13 ms */
            job_t *o = NULL;
            job_run(&w.sim, j, 0);
            probe p = {.w = &w, .j = j, .kind = _i};
            if (_i == 2) {
                o = make_job(&w, 2, 1, NULL, 1, 4);
                p.other = o;
            }
            ev_once(&w.sim, t, probe_cb, &p);
            if (_i == 0)
                at(&w, t + 1, j, ACT_RUN, 0);
            ev_run(&w.sim, INFINITY);
            ck_assert_int_eq(w.jobs_ended, _i == 2 ? 2 : 1);
            s[b] = p.s;
            double demand = 20 + (o ? 1 : 0);
            ck_assert_near(cpu_busy(&w), demand, 1e-9);
            pe_t *pe = &w.cl.pes[0];
            ck_assert_uint_eq(pe->disk.completions, pe->faults);
            ck_assert_near(res_busy_time(&w.sim, &pe->disk), (double)pe->faults * S_DISK,
                           1e-9 * (double)pe->faults);
            ck_assert_ptr_null(pe->batch);
            world_free(&w);
        }
        ck_assert_near(s[1].cpu_done, s[0].cpu_done, 1e-9);
        if (_i != 2) /* a memory change redraws the fault clock */
            ck_assert_near(s[1].target, s[0].target, 1e-9);
        ck_assert_double_eq(s[1].D, s[0].D);
        ck_assert_uint_eq(s[1].faults, s[0].faults);
        ck_assert_uint_eq(s[1].pe_faults, s[0].pe_faults);
        ck_assert_int_eq(s[1].computing, s[0].computing);
        ck_assert_int_eq(s[1].disk_held, s[0].disk_held);
        ck_assert_int_eq(s[1].cpu_held, s[0].cpu_held);
        ck_assert_int_eq(s[1].paging, s[0].paging);
        ck_assert_near(s[1].cpu_busy, s[0].cpu_busy, 1e-9);
        ck_assert_near(s[1].disk_busy, s[0].disk_busy, 1e-9);
        ck_assert_near(s[1].fault_time, s[0].fault_time, 1e-9);
        ck_assert_uint_eq(s[1].cpu_req, s[0].cpu_req);
        ck_assert_uint_eq(s[1].disk_req, s[0].disk_req);
        if (s[0].paging) {
            ck_assert_near(s[1].fault_start, s[0].fault_start, 1e-9);
            in_disk++;
        } else {
            in_cpu++;
        }
    }
    /* Both kinds of instant were probed. */
    ck_assert_int_gt(in_disk, 5);
    ck_assert_int_gt(in_cpu, 5);
}
END_TEST

START_TEST(test_whole_run_batched)
{
    /* A whole run (app/run.h) in batched mode, with samples every 100 s
     * (each cuts the batches under way): 40 jobs (1-8 threads, 5-200 s,
     * 24-56 MB per thread, arrivals every 20 s on average) on 8 PEs of 64
     * MB, MPL 2, quantum 10 s, neighbour messages every 3 s, R = 1e-5. As
     * in the exact mode: every job finished, CPU busy = CPU demand done =
     * submitted demand, message counts by the formula, the run's checking
     * mode finds nothing; every fault went to the disk and most ran in
     * batches; disk busy time summed over PEs = faults * S_DISK. */
    char path[] = "/tmp/pnrsim-test-batch-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    ck_assert_ptr_nonnull(f);
    rng_t *r = rng_stream(33, "trace", 0);
    double demand = 0, submit = 0;
    long nb = 0;
    for (int i = 1; i <= 40; i++) {
        int procs = 1 + (int)rng_index(r, 8);
        int cpu = 5 + (int)rng_index(r, 196);
        int mem_kb = (24 + (int)rng_index(r, 33)) * 1024;
        fprintf(f, "%d %.0f 0 %d %d %d %d %d -1 -1 1 1 1 1 1 1 -1 -1\n", i, submit, cpu, procs,
                cpu, mem_kb, procs);
        submit += floor(rng_exp(r, 20));
        demand += procs * cpu;
        nb += procs * (cpu / 3);
    }
    rng_free(r);
    fclose(f);
    config c;
    char err[CFG_ERR_MAX], set[CFG_PATH_MAX + 32];
    config_defaults(&c);
    const char *sets[] = {"computer.number=8", "computer.ram=64", "scheduler.mpl=2",
                          "scheduler.quantum=10", "scheduler.pcs=0.01",
                          "scheduler.strict_order=no", "process.comm_rate=3",
                          "process.mem_access_rate=0.00001", "simulation.metrics_period=100",
                          "simulation.seed=5", "process.paging=batched", NULL};
    for (int i = 0; sets[i]; i++)
        ck_assert_msg(config_set(&c, sets[i], err) == 0, "%s", err);
    snprintf(set, sizeof set, "workload.trace=%s", path);
    ck_assert_msg(config_set(&c, set, err) == 0, "%s", err);
    ck_assert_msg(config_validate(&c, err) == 0, "%s", err);
    FILE *samples = tmpfile();
    ck_assert_ptr_nonnull(samples);
    run_t *run = run_create(&c, NULL, samples, err);
    ck_assert_msg(run != NULL, "%s", err);
    run_set_checking(run, true);
    ck_assert_msg(run_execute(run, err) == 0, "%s", err);
    ck_assert_ptr_null(run_check_failure(run));
    run_metrics m;
    run_metrics_get(run, &m);
    unlink(path);
    ck_assert_int_eq(m.jobs_finished, 40);
    ck_assert_near(m.cpu_demand_done, demand, 1e-9 * demand);
    ck_assert_near(m.cpu_busy_total, demand, 1e-9 * demand);
    ck_assert_uint_eq(m.neighbour_msgs, (uint64_t)nb);
    ck_assert_uint_eq(m.neighbour_replies, (uint64_t)nb);
    ck_assert_uint_gt(m.page_faults_disk, 1000);
    ck_assert_uint_eq(m.page_faults_remote, 0);
    const cluster_t *cl = run_cluster(run);
    ck_assert_uint_gt(cl->batch_faults, m.page_faults_disk / 2);
    double disk = 0;
    uint64_t faults = 0;
    for (int i = 0; i < cl->npes; i++) {
        disk += res_busy_time(run_sim(run), &cl->pes[i].disk);
        faults += cl->pes[i].faults;
        ck_assert_ptr_null(cl->pes[i].batch);
        ck_assert_double_eq(cl->pes[i].alloc_mb, 0);
    }
    ck_assert_uint_eq(faults, m.page_faults_disk);
    ck_assert_near(disk, (double)faults * S_DISK, 1e-9 * disk);
    ck_assert_int_gt(ftell(samples), 0);
    fclose(samples);
    run_destroy(run);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("job_batch");
    TCase *tc = tcase_create("batch");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_alone_same_path);
    tcase_add_loop_test(tc, test_cut_state, 0, 3);
    tcase_add_test(tc, test_whole_run_batched);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
