/* tests/test_cores.c: nodes of several cores (issue 25 item 1,
 * computer.cores_per_node = C; docs/MODEL.md "Nodes of several cores").
 *
 * What is checked, each against figures worked out by hand:
 *   - the per-node fault rule: two single-thread jobs on the two cores of
 *     one node of R MB share its overallocation O in proportion to their
 *     sizes when they are in the same row (L_i = min(size_i, O size_i /
 *     S_i)), and each bears up to all of it when in different rows; the
 *     fault sequence that follows (D grows a page per fault, resets within
 *     [P, C]) is the report's with that L;
 *   - each core has its own CPU: C threads of one node compute at once;
 *   - the threads of a job on one node exchange neighbour messages without
 *     the network (no link or switch is ever busy);
 *   - mem_aware reserves per node (threads of a job on one node add up):
 *     a job whose threads fit no set of nodes is never admitted, one that
 *     fits on two nodes runs;
 *   - whole runs with C = 4 under the run's checks (the scheduler's
 *     invariants after every action, network RAM's conservation) keep the
 *     CPU time: the busy time of all cores is the CPU demand done, and the
 *     CPU utilisation is that over cores x time;
 *   - validation: number not a multiple of C, RAM groups that do not add
 *     up to the nodes (exit 2 naming the key). (mem_aware = GLOBAL with C > 1:
 *     tests/test_cores_global.c.)
 */
#include "tests/fixture_job.h"

#include "app/config.h"
#include "app/run.h"
#include "app/run_check.h"
#include "net/net.h"

#include <math.h>
#include <stdlib.h>

/* ---- the per-node fault rule ------------------------------------------------ */

/* One node of 100 MB and C = 2 cores; job 1 (60 MB) on core 0, job 2 (90
 * MB) on core 1, 20 CPU s each, R = 1e-4 s. rows: their rows (job->row). */
static void two_jobs_one_node(world *w, int row1, int row2)
{
    cluster_params p = world_params(1, 100, TOPO_KIND_STAR, BW, 11);
    p.cores_per_node = 2;
    world_init_p(w, &p);
    w->cl.mem_access_rate = 1e-4;
    w->log_faults = true;
    int c0 = 0, c1 = 1;
    job_t *a = make_job(w, 1, 1, &c0, 20, 60);
    job_t *b = make_job(w, 2, 1, &c1, 20, 90);
    a->row = row1;
    b->row = row2;
    at(w, 0, a, ACT_RUN, 0);
    at(w, 0, b, ACT_RUN, 0);
    ev_run(&w->sim, INFINITY);
    ck_assert_int_eq(w->jobs_ended, 2);
}

/* Every fault of (job, idx) saw L = want (bytes), within rounding; returns
 * how many there were. */
static long faults_with_L(const world *w, long job, double want)
{
    long k = 0;
    for (size_t i = 0; i < w->nfaults; i++) {
        const fault_rec *f = &w->faults[i];
        if (f->job != job)
            continue;
        ck_assert_msg(fabs(f->L - want) <= 1e-9 * want, "job %ld: L = %.17g, want %.17g", job,
                      f->L, want);
        k++;
    }
    return k;
}

START_TEST(test_same_row_shares_overallocation)
{
    /* O = 60 + 90 - 100 = 50 MB while both are allocated; S = 150 MB for
     * both (same row). L_1 = min(60, 50 x 60 / 150) = 20 MB, L_2 = min(90,
     * 50 x 90 / 150) = 30 MB. When one ends its memory is freed and O < 0:
     * no fault after that, so every fault sees these L. */
    world w;
    two_jobs_one_node(&w, 3, 3);
    long n1 = faults_with_L(&w, 1, 20 * MB), n2 = faults_with_L(&w, 2, 30 * MB);
    /* With U <= 1 a fault comes at least every R P = 0.41 CPU s on average
     * (mean R P / U): tens of faults in 20 CPU s each. */
    ck_assert_int_gt(n1, 20);
    ck_assert_int_gt(n2, 20);
    /* The report's sequence with that L: D grows a page per fault, resets
     * to L - O with O in [P, C], C = max(P, min(L, |RAM - size|)): job 1
     * min(20, 40) = 20 MB; job 2 min(30, 10) = 10 MB (node RAM 100). */
    tally_t r1, r2;
    tally_init(&r1);
    tally_init(&r2);
    check_resets_p(&w, 1, 0, 20 * MB, 20 * MB, PAGE, &r1);
    check_resets_p(&w, 2, 0, 30 * MB, 10 * MB, PAGE, &r2);
    world_free(&w);
}
END_TEST

START_TEST(test_other_row_bears_all)
{
    /* Different rows: each is alone in its row, S_i = size_i, so L_i =
     * min(size_i, O): min(60, 50) = 50 MB and min(90, 50) = 50 MB, the
     * report's rule for a thread alone on its PE. */
    world w;
    two_jobs_one_node(&w, 3, 4);
    ck_assert_int_gt(faults_with_L(&w, 1, 50 * MB), 0);
    ck_assert_int_gt(faults_with_L(&w, 2, 50 * MB), 0);
    world_free(&w);
}
END_TEST

START_TEST(test_share_follows_new_thread)
{
    /* C = 3 on one node of 100 MB, one row: jobs of 60 MB (core 0) and 90
     * MB (core 1) from t = 0, 20 CPU s each, and a third of 30 MB (core 2)
     * from t = 5. Before 5: O = 50, S = 150, job 1's L = 50 x 60 / 150 =
     * 20 MB. From 5 until a job ends (no job can end before 20): O = 180 -
     * 100 = 80 MB, S = 180, L = 80 x 60 / 180 = 26.67 MB for job 1 (the
     * newcomer's allocation tells the node's threads, whose row totals
     * must now count it). */
    world w;
    cluster_params p = world_params(1, 100, TOPO_KIND_STAR, BW, 11);
    p.cores_per_node = 3;
    world_init_p(&w, &p);
    w.cl.mem_access_rate = 1e-4;
    w.log_faults = true;
    int c0 = 0, c1 = 1, c2 = 2;
    job_t *a = make_job(&w, 1, 1, &c0, 20, 60);
    job_t *b = make_job(&w, 2, 1, &c1, 20, 90);
    job_t *c = make_job(&w, 3, 1, &c2, 20, 30);
    at(&w, 0, a, ACT_RUN, 0);
    at(&w, 0, b, ACT_RUN, 0);
    at(&w, 5, c, ACT_RUN, 0);
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(w.jobs_ended, 3);
    long before = 0, after = 0;
    for (size_t i = 0; i < w.nfaults; i++) {
        const fault_rec *f = &w.faults[i];
        if (f->job != 1 || f->t >= 20)
            continue;
        double want = f->t < 5 ? 20 * MB : 80.0 * 60 / 180 * MB;
        ck_assert_msg(fabs(f->L - want) <= 1e-9 * want, "t %g: L = %.17g, want %.17g", f->t,
                      f->L, want);
        if (f->t < 5)
            before++;
        else
            after++;
    }
    ck_assert_int_gt(before, 0);
    ck_assert_int_gt(after, 0);
    world_free(&w);
}
END_TEST

/* ---- cores and messages ------------------------------------------------------ */

START_TEST(test_cores_compute_at_once_and_talk_locally)
{
    /* One node of C = 4 cores, one job of 4 threads, 10 CPU s each, no
     * memory, a neighbour message every CPU second. Each core has its own
     * CPU, so every thread ends at t = 10 exactly (one CPU per node would
     * end the last at 40). Each thread sends floor(10 / 1) = 10 neighbour
     * messages (the one at CPU 10 too: clocks fire before the end test),
     * 40 in all, each answered: 40 replies. All four threads are on node
     * 0, so every message is delivered at once without the network: no
     * link or switch is ever busy. */
    world w;
    cluster_params p = world_params(1, 100, TOPO_KIND_STAR, BW, 3);
    p.cores_per_node = 4;
    world_init_p(&w, &p);
    w.cl.comm_rate = 1;
    job_t *j = make_job(&w, 1, 4, NULL, 10, 0);
    at(&w, 0, j, ACT_RUN, 0);
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(w.jobs_ended, 1);
    for (int i = 0; i < 4; i++)
        ck_assert_double_eq_tol(thread_end_time(&w, 1, i), 10, TOL);
    ck_assert_uint_eq(w.cl.neighbour_msgs, 40);
    ck_assert_uint_eq(w.cl.neighbour_replies, 40);
    ck_assert_double_eq(net_busy_time(&w.sim, w.cl.net), 0);
    /* CPU busy: 4 x 10 s over the node's four cores. */
    ck_assert_double_eq_tol(pe_cpu_busy(&w.sim, &w.cl.pes[0]), 40, TOL);
    world_free(&w);
}
END_TEST

/* ---- whole runs ----------------------------------------------------------------- */

static char trace_path[] = "/tmp/pnrsim-test-cores-XXXXXX";

/* An SWF trace of the given lines (id submit procs cpu mem_kb each). */
static void write_trace(const int (*rows)[5], int n)
{
    memcpy(trace_path + strlen(trace_path) - 6, "XXXXXX", 6);
    int fd = mkstemp(trace_path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    ck_assert_ptr_nonnull(f);
    for (int i = 0; i < n; i++)
        fprintf(f, "%d %d 0 %d %d %d %d %d -1 -1 1 1 1 1 1 1 -1 -1\n", rows[i][0], rows[i][1],
                rows[i][3], rows[i][2], rows[i][3], rows[i][4], rows[i][2]);
    fclose(f);
}

static void set(config *c, const char *kv)
{
    char err[CFG_ERR_MAX];
    ck_assert_msg(config_set(c, kv, err) == 0, "%s: %s", kv, err);
}

/* Run c with the run's checks on; fills m. */
static void run_checked(config *c, run_metrics *m)
{
    char err[CFG_ERR_MAX], kv[CFG_PATH_MAX + 32];
    snprintf(kv, sizeof kv, "workload.trace=%s", trace_path);
    set(c, kv);
    ck_assert_msg(config_validate(c, err) == 0, "%s", err);
    run_t *r = run_create(c, NULL, NULL, err);
    ck_assert_msg(r != NULL, "%s", err);
    run_set_checking(r, true);
    ck_assert_msg(run_execute(r, err) == 0, "%s", err);
    ck_assert_msg(run_check_failure(r) == NULL, "%s", run_check_failure(r));
    run_metrics_get(r, m);
    run_destroy(r);
}

START_TEST(test_mem_aware_per_node)
{
    /* One job of 2 threads of 60 MB, 5 CPU s, nodes of 100 MB and C = 2.
     * On one node its threads would need 120 MB > 100: with a single node
     * (number = 2 cores) it can never be placed; with two nodes (number =
     * 4) it runs on cores 0 and 2 (node 0 keeps 40 MB of room after the
     * first thread, too little for the second) and ends at t = 5. */
    static const int rows[][5] = {{1, 0, 2, 5, 60 * 1024}};
    write_trace(rows, 1);
    run_metrics m;
    for (int nodes = 1; nodes <= 2; nodes++) {
        config c;
        config_defaults(&c);
        set(&c, "computer.cores_per_node=2");
        set(&c, nodes == 1 ? "computer.number=2" : "computer.number=4");
        set(&c, "computer.ram=100");
        set(&c, "scheduler.mem_aware=yes");
        run_checked(&c, &m);
        if (nodes == 1) {
            ck_assert_int_eq(m.jobs_impossible, 1);
            ck_assert_int_eq(m.jobs_finished, 0);
        } else {
            ck_assert_int_eq(m.jobs_impossible, 0);
            ck_assert_int_eq(m.jobs_finished, 1);
            ck_assert_double_eq_tol(m.total_time, 5, 1e-9);
            /* The threads are alone on their nodes: L = min(60, 60 - 100
             * < 0) = 0, no fault. */
            ck_assert_uint_eq(m.page_faults_disk, 0);
        }
    }
    unlink(trace_path);
}
END_TEST

START_TEST(test_cpu_time_kept)
{
    /* 12 jobs of 1-6 threads on 16 cores (4 nodes of C = 4, 128 MB each),
     * MPL 3, neighbour and sync messages; loop index 0: mem_aware (no
     * node is ever overallocated), 1-4: network RAM (the strategy of the
     * loop index, with a memory server; nodes page; 5-6: the same with
     * mem_aware = GLOBAL, 6 with node_sharing = EXCLUSIVE): every job ends,
     * the checks hold after every action, and the CPU time is kept: the
     * cores' busy time is the CPU demand done (sum of threads x CPU), and
     * the utilisation is that over 16 cores x the run's length. */
    static const int rows[][5] = {
        {1, 0, 4, 6, 40 * 1024},  {2, 0, 6, 4, 50 * 1024}, {3, 1, 2, 8, 70 * 1024},
        {4, 1, 5, 3, 30 * 1024},  {5, 2, 3, 5, 90 * 1024}, {6, 2, 1, 7, 20 * 1024},
        {7, 3, 6, 2, 60 * 1024},  {8, 3, 4, 6, 45 * 1024}, {9, 4, 2, 4, 80 * 1024},
        {10, 4, 3, 9, 25 * 1024}, {11, 5, 1, 3, 100 * 1024}, {12, 5, 5, 5, 35 * 1024}};
    write_trace(rows, 12);
    static const char *const strat[] = {NULL,       "CENTRAL", "CLIENT",   "MANAGER",
                                        "BACKBONE", "CENTRAL", "MANAGER"};
    config c;
    config_defaults(&c);
    static const char *const base[] = {
        "computer.number=16", "computer.cores_per_node=4", "computer.ram=128",
        "scheduler.mpl=3", "scheduler.quantum=2", "scheduler.pcs=0.01",
        "process.comm_rate=0.5", "process.sync_rate=2", "process.mem_access_rate=0.00003",
        "network.bandwidth=1", "simulation.seed=5", NULL};
    for (int i = 0; base[i]; i++)
        set(&c, base[i]);
    if (!strat[_i])
        set(&c, "scheduler.mem_aware=yes");
    if (strat[_i]) {
        set(&c, "netram.enabled=yes");
        char kv[64];
        snprintf(kv, sizeof kv, "netram.strategy=%s", strat[_i]);
        set(&c, kv);
        set(&c, "computer.memory_servers=1");
        set(&c, "network.topology=TREE");
        set(&c, "network.rack_size=2");
        if (_i == 4)
            set(&c, "netram.managers=2");
        if (_i >= 5) /* GLOBAL admission per node; 6: with whole nodes */
            set(&c, "scheduler.mem_aware=GLOBAL");
        if (_i == 6)
            set(&c, "scheduler.node_sharing=EXCLUSIVE");
    }
    run_metrics m;
    run_checked(&c, &m);
    ck_assert_int_eq(m.jobs_finished, 12);
    double demand = 0;
    for (int i = 0; i < 12; i++)
        demand += rows[i][2] * rows[i][3];
    /* 4x6 + 6x4 + 2x8 + 5x3 + 3x5 + 1x7 + 6x2 + 4x6 + 2x4 + 3x9 + 1x3 + 5x5 = 200 */
    ck_assert_double_eq(demand, 200);
    ck_assert_double_eq_tol(m.cpu_demand_done, 200, 1e-9);
    ck_assert_double_eq_tol(m.cpu_busy_total, 200, 1e-6);
    ck_assert_double_eq_tol(m.cpu_utilization, 200 / (16 * m.total_time), 1e-12);
    if (strat[_i])
        ck_assert_uint_gt(m.page_faults_remote, 0);
    else
        ck_assert_uint_eq(m.page_faults_disk + m.page_faults_remote, 0);
    unlink(trace_path);
}
END_TEST

/* ---- validation ------------------------------------------------------------------ */

/* c with the assignments kvs (NULL-terminated) is refused, with a message
 * that contains every string of want (NULL-terminated). */
static void refused(const char *const *kvs, const char *const *want)
{
    config c;
    config_defaults(&c);
    for (int i = 0; kvs[i]; i++)
        set(&c, kvs[i]);
    char err[CFG_ERR_MAX];
    ck_assert_int_eq(config_validate(&c, err), -1);
    for (int i = 0; want[i]; i++)
        ck_assert_msg(strstr(err, want[i]), "\"%s\" not in: %s", want[i], err);
}

START_TEST(test_validation)
{
    /* 63 cores in nodes of 4: not whole nodes. */
    refused((const char *const[]){"computer.number=63", "computer.cores_per_node=4", NULL},
            (const char *const[]){"[computer] cores_per_node = 4", "number = 63",
                                  "multiple of cores_per_node", NULL});
    /* 64 cores / 4 = 16 nodes, but the groups count 10 + 5 = 15 nodes. */
    refused((const char *const[]){"computer.cores_per_node=4", "computer.ram=10x64,5x128", NULL},
            (const char *const[]){"[computer] ram", "add up to 15 nodes", "16 nodes", NULL});
    /* ... and 64 groups of one node each would be per core: refused too. */
    refused((const char *const[]){"computer.cores_per_node=4", "computer.ram=60x64,4x128", NULL},
            (const char *const[]){"add up to 64 nodes", "16 nodes", NULL});
    /* Out of range. */
    config c;
    config_defaults(&c);
    char err[CFG_ERR_MAX];
    ck_assert_int_eq(config_set(&c, "computer.cores_per_node=0", err), -1);
    ck_assert_ptr_nonnull(strstr(err, "cores_per_node"));
    ck_assert_int_eq(config_set(&c, "computer.cores_per_node=4097", err), -1);
    /* Accepted: 16 nodes of 4 in groups of 12 + 4 nodes. */
    config_defaults(&c);
    set(&c, "computer.cores_per_node=4");
    set(&c, "computer.ram=12x64,4x128");
    ck_assert_int_eq(config_validate(&c, err), 0);
    ck_assert_double_eq(config_pe_ram(&c, 11), 64);
    ck_assert_double_eq(config_pe_ram(&c, 12), 128);
}
END_TEST

/* ---- whole nodes (scheduler.node_sharing = EXCLUSIVE) ------------------------------ */

/* Run c with the trace rows, the run's checks on, jobs.csv to a temporary
 * file; fills m and each job's start and cores column (jobs 1..n). */
static void run_jobs(config *c, run_metrics *m, double *start, int *cores, int n)
{
    char err[CFG_ERR_MAX], kv[CFG_PATH_MAX + 32];
    snprintf(kv, sizeof kv, "workload.trace=%s", trace_path);
    set(c, kv);
    ck_assert_msg(config_validate(c, err) == 0, "%s", err);
    FILE *jobs = tmpfile();
    ck_assert_ptr_nonnull(jobs);
    run_t *r = run_create(c, jobs, NULL, err);
    ck_assert_msg(r != NULL, "%s", err);
    run_set_checking(r, true);
    ck_assert_msg(run_execute(r, err) == 0, "%s", err);
    ck_assert_msg(run_check_failure(r) == NULL, "%s", run_check_failure(r));
    run_metrics_get(r, m);
    run_destroy(r);
    rewind(jobs);
    char line[1024];
    ck_assert_ptr_nonnull(fgets(line, sizeof line, jobs));
    /* The column `cores` (node_sharing EXCLUSIVE only): its index, counted
     * by the commas before it in the header; -1 when absent. */
    const char *at = strstr(line, ",cores,");
    int cores_col = -1;
    if (at) {
        cores_col = 1;
        for (const char *q = line; q < at; q++)
            cores_col += *q == ',';
    }
    bool excl = cores_col >= 0;
    for (int i = 0; i < n; i++)
        cores[i] = start[i] = -1;
    while (fgets(line, sizeof line, jobs)) {
        long id;
        double sub, st;
        ck_assert_int_eq(sscanf(line, "%ld,%lf,%lf", &id, &sub, &st), 3);
        ck_assert(id >= 1 && id <= n);
        start[id - 1] = st;
        const char *f = line;
        for (int k = 0; excl && k < cores_col; k++)
            f = strchr(f, ',') + 1;
        cores[id - 1] = excl ? atoi(f) : 0;
    }
    fclose(jobs);
}

START_TEST(test_exclusive_rounding)
{
    /* 2 nodes of C = 4 cores (8 cores), MPL 1, no memory. Job 1: 5 threads
     * of 10 s at t = 0; job 2: 1 thread of 10 s at t = 0.
     * EXCLUSIVE: job 1 gets ceil(5 / 4) = 2 nodes = 8 cores, 3 of them
     * idle; job 2 finds no free node and starts at 10 on a whole node (3
     * idle cores), ends at 20. Idle core-seconds: 3 x 10 + 3 x 10 = 60.
     * SHARED: job 2 takes core 5, one of the 3 left: both run at once,
     * the run ends at 10, no idle-core metric. */
    static const int rows[][5] = {{1, 0, 5, 10, 0}, {2, 0, 1, 10, 0}};
    write_trace(rows, 2);
    double start[2];
    int cores[2];
    run_metrics m;
    config c;
    config_defaults(&c);
    set(&c, "computer.number=8");
    set(&c, "computer.cores_per_node=4");
    set(&c, "scheduler.node_sharing=EXCLUSIVE");
    run_jobs(&c, &m, start, cores, 2);
    ck_assert_int_eq(m.jobs_finished, 2);
    ck_assert(m.exclusive);
    ck_assert_double_eq_tol(start[0], 0, 1e-9);
    ck_assert_double_eq_tol(start[1], 10, 1e-9);
    ck_assert_double_eq_tol(m.total_time, 20, 1e-9);
    ck_assert_int_eq(cores[0], 8);
    ck_assert_int_eq(cores[1], 4);
    ck_assert_double_eq_tol(m.idle_core_seconds, 60, 1e-9);
    /* Utilisation over cores: 6 threads x 10 s / (8 cores x 20 s). */
    ck_assert_double_eq_tol(m.cpu_utilization, 60.0 / 160, 1e-12);
    config_defaults(&c);
    set(&c, "computer.number=8");
    set(&c, "computer.cores_per_node=4");
    run_jobs(&c, &m, start, cores, 2);
    ck_assert(!m.exclusive);
    ck_assert_double_eq_tol(start[1], 0, 1e-9);
    ck_assert_double_eq_tol(m.total_time, 10, 1e-9);
    ck_assert_int_eq(cores[0], 0); /* no cores column */
    unlink(trace_path);
}
END_TEST

START_TEST(test_exclusive_backfill)
{
    /* 3 nodes of C = 2 (6 cores), MPL 1, EXCLUSIVE, exact estimates:
     *   job 1: 3 threads, 10 s, t = 0 -> nodes 0, 1 (4 cores), [0, 10]
     *   job 2: 3 threads, 10 s, t = 1 -> needs 2 nodes, one is free: the
     *          head waits, its reservation (shadow time) is t = 10
     *   job 3: 1 thread, 5 s, t = 2 -> node 2 now, ends at 7 <= 10:
     *          backfilled, [2, 7]
     *   job 4: 2 threads, 20 s, t = 3 -> node 2 is busy until 7; at 7 it
     *          ends at 27 > 10, but at the shadow time 6 - 4 = 2 cores
     *          (node 2) are left over from job 2: backfilled at 7, [7, 27]
     *   job 2 starts at 10 on nodes 0, 1, ends at 20.
     * (SHARED would start job 2 at 1 on cores 3, 4, 5.) Idle core-seconds:
     * jobs 1 and 2 one core for 10 s each, job 3 one core for 5 s: 25.
     * The same under EASY and CONSERVATIVE, FCFS and SJF (at t = 2 SJF
     * puts job 3 first, which starts at once; the rest as above). */
    static const int rows[][5] = {
        {1, 0, 3, 10, 0}, {2, 1, 3, 10, 0}, {3, 2, 1, 5, 0}, {4, 3, 2, 20, 0}};
    write_trace(rows, 4);
    static const char *const bf[] = {"scheduler.backfill=EASY", "scheduler.backfill=CONSERVATIVE"};
    static const char *const pr[] = {"scheduler.priority=FCFS", "scheduler.priority=SJF"};
    double start[4];
    int cores[4];
    run_metrics m;
    config c;
    config_defaults(&c);
    set(&c, "computer.number=6");
    set(&c, "computer.cores_per_node=2");
    set(&c, "scheduler.node_sharing=EXCLUSIVE");
    set(&c, bf[_i / 2]);
    set(&c, pr[_i % 2]);
    run_jobs(&c, &m, start, cores, 4);
    ck_assert_int_eq(m.jobs_finished, 4);
    static const double want[] = {0, 10, 2, 7};
    static const int want_cores[] = {4, 4, 2, 2};
    for (int i = 0; i < 4; i++) {
        ck_assert_msg(fabs(start[i] - want[i]) < 1e-9, "%s %s: job %d starts at %g, want %g",
                      bf[_i / 2], pr[_i % 2], i + 1, start[i], want[i]);
        ck_assert_int_eq(cores[i], want_cores[i]);
    }
    ck_assert_double_eq_tol(m.total_time, 27, 1e-9);
    ck_assert_double_eq_tol(m.idle_core_seconds, 25, 1e-9);
    unlink(trace_path);
}
END_TEST

START_TEST(test_exclusive_gang)
{
    /* Exclusivity is per slot: 1 node of C = 2, MPL 2, quantum 10 s, no
     * PCS. Job 1: 1 thread of 20 s; job 2: 1 thread of 20 s, both at 0.
     * EXCLUSIVE: each holds the whole node in its own slot (2 slots),
     * alternating every 10 s: job 1 runs [0, 10] and [20, 30], job 2
     * [10, 20] and [30, 40]; each holds one idle core while it runs: 40
     * idle core-seconds. (SHARED: both in one slot on cores 0 and 1,
     * done at 20.) */
    static const int rows[][5] = {{1, 0, 1, 20, 0}, {2, 0, 1, 20, 0}};
    write_trace(rows, 2);
    double start[2];
    int cores[2];
    run_metrics m;
    config c;
    config_defaults(&c);
    set(&c, "computer.number=2");
    set(&c, "computer.cores_per_node=2");
    set(&c, "scheduler.mpl=2");
    set(&c, "scheduler.quantum=10");
    set(&c, "scheduler.pcs=0");
    set(&c, "scheduler.node_sharing=EXCLUSIVE");
    run_jobs(&c, &m, start, cores, 2);
    ck_assert_int_eq(m.jobs_finished, 2);
    ck_assert_int_eq(m.mpl_max, 2);
    ck_assert_double_eq_tol(m.total_time, 40, 1e-9);
    ck_assert_double_eq_tol(m.idle_core_seconds, 40, 1e-9);
    unlink(trace_path);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("cores");
    TCase *tc = tcase_create("cores");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_same_row_shares_overallocation);
    tcase_add_test(tc, test_other_row_bears_all);
    tcase_add_test(tc, test_share_follows_new_thread);
    tcase_add_test(tc, test_cores_compute_at_once_and_talk_locally);
    tcase_add_test(tc, test_mem_aware_per_node);
    tcase_add_loop_test(tc, test_cpu_time_kept, 0, 7);
    tcase_add_test(tc, test_validation);
    tcase_add_test(tc, test_exclusive_rounding);
    tcase_add_loop_test(tc, test_exclusive_backfill, 0, 4);
    tcase_add_test(tc, test_exclusive_gang);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
