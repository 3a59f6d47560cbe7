/* tests/test_cores_spread.c: whole nodes under memory-aware placement
 * (scheduler.node_sharing = EXCLUSIVE, mem_aware; issue 32 item 2;
 * docs/MODEL.md "Nodes of several cores", sched/gang_nodes.h).
 *
 * A job of w threads of m MB on nodes of C cores gets k = ceil(w / C)
 * whole free nodes. A node of room R can take cap = min(C, floor(R / m))
 * of its threads. The rule: first the lowest-numbered free nodes that hold
 * C threads each (the last one the rest, w - (k-1) C); when those are too
 * few, the k free nodes of most capacity (ties: lowest-numbered), filled
 * in node order up to their capacity. So a job fits iff some k free nodes
 * have capacities adding up to w, and it is never admittable iff that
 * fails on the empty machine (each node's room its RAM).
 *
 * What is checked, each worked out by hand in its comment:
 *   - the reproducer (2 nodes of 4 cores, RAM 150 and 1000, 5 x
 *     100 MB): 1 thread on node 0 (core 0), 4 on node 1 (cores 4-7); not
 *     never-admittable; with 90 MB on node 0 it is (0 + 4 < 5);
 *   - the first rule kept where it fits (capacities 3, 4, 3, 4 and 7
 *     threads: nodes 1 and 2, not the two of most capacity 1 and 3);
 *   - the spread where the first rule fails (capacities 2, 3, 3 and 6
 *     threads: nodes 1 and 2, 3 threads each), ties at the threshold to
 *     the lowest-numbered, taken cores and reserved memory counted;
 *   - random machines against a brute force over every set of k nodes
 *     (fits iff some k free nodes hold the job; the choice respects every
 *     node's room; never admittable iff none on the empty machine);
 *   - whole runs: LOCAL and GLOBAL without network RAM admit the same
 *     (both reproducers start at 0, nothing pages, no job impossible), with
 *     the run's checks on (scheduler invariants, reserved memory per node).
 */
#include "app/config.h"
#include "app/run.h"
#include "app/run_check.h"
#include "hw/pe.h"
#include "sched/gang_nodes.h"
#include "sched/job.h"
#include "tests/testrun.h"
#include "tests/testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXN 8

/* A machine of n nodes of C cores with the given RAM (MB), nothing lent,
 * reserved[] as given (NULL: 0), memory-aware. */
typedef struct machine {
    cluster_t cl;
    pe_t pes[MAXN];
    double reserved[MAXN];
    nodes_view v;
} machine;

static void machine_init(machine *m, int n, int C, const double *ram, const double *reserved)
{
    memset(m, 0, sizeof *m);
    ck_assert(n <= MAXN);
    for (int i = 0; i < n; i++) {
        m->pes[i].ram_mb = ram[i];
        m->reserved[i] = reserved ? reserved[i] : 0;
    }
    m->cl.pes = m->pes;
    m->v = (nodes_view){&m->cl, C, n, n * C, m->reserved, true};
}

static job_t job_of(int threads, double mem_mb)
{
    job_t j;
    memset(&j, 0, sizeof j);
    j.threads = threads;
    j.mem_mb = mem_mb;
    return j;
}

/* ids[0..n) as "a b c". */
static const char *ids_text(const int *ids, int n)
{
    static char buf[256];
    size_t k = 0;
    buf[0] = '\0';
    for (int i = 0; i < n; i++)
        k += (size_t)snprintf(buf + k, sizeof buf - k, i ? " %d" : "%d", ids[i]);
    return buf;
}

START_TEST(test_reproducer_rule)
{
    /* C = 4, RAM 150 and 1000, 5 threads of 100 MB: k = 2 nodes (8 cores).
     * The first rule: node 0 should take 4 (400 > 150): skipped; node 1
     * takes 4; no node left for the 5th: too few. Capacities: node 0
     * floor(150/100) = 1, node 1 min(4, 10) = 4; the 2 nodes of most
     * capacity are both, 1 + 4 = 5 >= 5: node 0 takes 1 thread (core 0),
     * node 1 the other 4 (cores 4-7). */
    machine m;
    const double ram[] = {150, 1000};
    machine_init(&m, 2, 4, ram, NULL);
    job_t j = job_of(5, 100);
    int ids[5];
    ck_assert(gang_choose_nodes(&m.v, NULL, &j, ids));
    ck_assert_str_eq(ids_text(ids, 5), "0 4 5 6 7");
    ck_assert(!gang_never_fits_exclusive(&m.v, &j));
    /* Node 0 of 90 MB: capacity 0, 0 + 4 < 5: never admittable. */
    const double ram2[] = {90, 1000};
    machine_init(&m, 2, 4, ram2, NULL);
    ck_assert(!gang_choose_nodes(&m.v, NULL, &j, ids));
    ck_assert(gang_never_fits_exclusive(&m.v, &j));
    /* Node 0 of 150 MB with 60 MB reserved by another row: room 90,
     * capacity 0: it does not fit now, but it is not never admittable
     * (the empty machine has node 0's 150 MB). */
    const double res[] = {60, 0};
    machine_init(&m, 2, 4, ram, res);
    ck_assert(!gang_choose_nodes(&m.v, NULL, &j, ids));
    ck_assert(!gang_never_fits_exclusive(&m.v, &j));
}
END_TEST

START_TEST(test_first_rule_kept)
{
    /* C = 4, m = 100, RAM 399, 400, 300, 1000 (capacities 3, 4, 3, 4), 7
     * threads: k = 2, the last node 3 threads. First rule: node 0 (needs
     * 4, has room for 3) skipped, node 1 takes 4 (cores 4-7), node 2 the
     * last 3 (cores 8-10): fits, so the spread (which would take nodes 1
     * and 3) is not used. */
    machine m;
    const double ram[] = {399, 400, 300, 1000};
    machine_init(&m, 4, 4, ram, NULL);
    job_t j = job_of(7, 100);
    int ids[7];
    ck_assert(gang_choose_nodes(&m.v, NULL, &j, ids));
    ck_assert_str_eq(ids_text(ids, 7), "4 5 6 7 8 9 10");
}
END_TEST

START_TEST(test_spread_choice)
{
    /* C = 4, m = 100, RAM 250, 350, 350 (capacities 2, 3, 3), 6 threads:
     * k = 2, the last node 2. First rule: no node holds 4: too few. The 2
     * nodes of most capacity: nodes 1 and 2 (3 + 3 = 6): 3 threads each,
     * cores 4-6 and 8-10. Nodes 0 and 1 would give 2 + 3 = 5 < 6. */
    machine m;
    const double ram[] = {250, 350, 350};
    machine_init(&m, 3, 4, ram, NULL);
    job_t j = job_of(6, 100);
    int ids[6];
    ck_assert(gang_choose_nodes(&m.v, NULL, &j, ids));
    ck_assert_str_eq(ids_text(ids, 6), "4 5 6 8 9 10");
    ck_assert(!gang_never_fits_exclusive(&m.v, &j));

    /* Ties at the threshold: RAM 300, 300, 300, 1000 (capacities 3, 3, 3,
     * 4), 7 threads: first rule: node 3 takes 4 (cores 12-15) and no later
     * node is left for the last 3: too few (nodes 0-2 were skipped, each
     * short of 4). Most capacity: node 3 (4), then one node of 3, the
     * lowest-numbered, node 0; in node order node 0 takes 3 (cores 0-2),
     * node 3 the other 4. */
    const double ram2[] = {300, 300, 300, 1000};
    machine_init(&m, 4, 4, ram2, NULL);
    j = job_of(7, 100);
    int ids2[7];
    ck_assert(gang_choose_nodes(&m.v, NULL, &j, ids2));
    ck_assert_str_eq(ids_text(ids2, 7), "0 1 2 12 13 14 15");

    /* A node with a core taken in the slot is not free: the same machine
     * with core 1 (node 0) taken: nodes 1 (3 threads, cores 4-6) and 3. */
    job_t other = job_of(1, 0);
    job_t *slot[16] = {0};
    slot[1] = &other;
    ck_assert(gang_choose_nodes(&m.v, slot, &j, ids2));
    ck_assert_str_eq(ids_text(ids2, 7), "4 5 6 12 13 14 15");
    /* Nodes 0, 1 and 2 taken: only node 3 is free, 1 node < k = 2. */
    slot[4] = slot[8] = &other;
    ck_assert(!gang_choose_nodes(&m.v, slot, &j, ids2));

    /* Memory reserved by another row counts: node 3 with 700 MB reserved
     * has room 300, capacity 3: 3 + 3 = 6 < 7 on any two nodes: no fit
     * now; not never admittable (RAM 1000 when empty). */
    const double res[] = {0, 0, 0, 700};
    machine_init(&m, 4, 4, ram2, res);
    ck_assert(!gang_choose_nodes(&m.v, NULL, &j, ids2));
    ck_assert(!gang_never_fits_exclusive(&m.v, &j));
    /* Never admittable: RAM 300 x 4 (capacity 3 each), 7 threads. */
    const double ram3[] = {300, 300, 300, 300};
    machine_init(&m, 4, 4, ram3, NULL);
    ck_assert(gang_never_fits_exclusive(&m.v, &j));
}
END_TEST

/* Brute force for test_spread_exact: some k of the free nodes (free[i])
 * have capacities cap[i] adding up to w. */
static bool some_k_fit(const int *cap, const bool *free, int n, int k, int w)
{
    for (unsigned set = 0; set < 1u << n; set++) {
        int count = 0, sum = 0;
        bool ok = true;
        for (int i = 0; i < n; i++)
            if (set >> i & 1) {
                ok &= free[i];
                count++;
                sum += cap[i];
            }
        if (ok && count == k && sum >= w)
            return true;
    }
    return false;
}

START_TEST(test_spread_exact)
{
    /* Random machines (2-6 nodes of 2-4 cores, RAM and reserved memory in
     * multiples of 10 MB, threads of 10-100 MB, some cores taken): the
     * rule fits iff some k = ceil(w / C) free nodes hold the job (every
     * k-subset tried), and what it chooses is w ascending cores on exactly
     * k free nodes, none holding more threads than its room does; the
     * never-admittable test is the same question on the empty machine. */
    uint64_t x = 12345;
    int fits = 0, spread = 0;
    for (int trial = 0; trial < 4000; trial++) {
#define RND(n) ((int)((x = x * 6364136223846793005ull + 1442695040888963407ull) >> 33) % (n))
        int n = 2 + RND(5), C = 2 + RND(3);
        double ram[MAXN], res[MAXN];
        for (int i = 0; i < n; i++) {
            ram[i] = 10.0 * (1 + RND(40));
            res[i] = RND(3) ? 0 : 10.0 * RND((int)(ram[i] / 10) + 1);
        }
        machine m;
        machine_init(&m, n, C, ram, res);
        int w = 1 + RND(n * C), k = (w + C - 1) / C;
        job_t j = job_of(w, 10.0 * (1 + RND(10)));
        job_t other = job_of(1, 0);
        job_t *slot[MAXN * 4] = {0};
        for (int c = 0; c < n * C; c++)
            if (RND(8) == 0)
                slot[c] = &other;
        int cap[MAXN], ecap[MAXN];
        bool free[MAXN], all[MAXN];
        for (int i = 0; i < n; i++) {
            free[i] = all[i] = true;
            for (int c = 0; c < C; c++)
                free[i] &= !slot[i * C + c];
            int a = (int)((ram[i] - res[i]) / j.mem_mb), e = (int)(ram[i] / j.mem_mb);
            cap[i] = a < C ? a : C;
            ecap[i] = e < C ? e : C;
        }
        int ids[MAXN * 4];
        bool want = some_k_fit(cap, free, n, k, w);
        bool got = gang_choose_nodes(&m.v, slot, &j, ids);
        ck_assert_msg(got == want, "trial %d: fits %d, brute force %d", trial, got, want);
        ck_assert_msg(gang_never_fits_exclusive(&m.v, &j) == !some_k_fit(ecap, all, n, k, w),
                      "trial %d: never fits", trial);
        if (!got)
            continue;
        fits++;
        int per[MAXN] = {0}, nodes = 0;
        for (int t = 0; t < w; t++) {
            ck_assert(t == 0 || ids[t] > ids[t - 1]);
            int node = ids[t] / C;
            ck_assert(node >= 0 && node < n && free[node]);
            nodes += per[node]++ == 0;
        }
        ck_assert_int_eq(nodes, k);
        bool full = true;
        for (int i = 0; i < n; i++) {
            ck_assert_msg(per[i] <= cap[i], "trial %d: node %d gets %d > %d", trial, i, per[i],
                          cap[i]);
            full &= per[i] == 0 || per[i] == C || ids[w - 1] / C == i;
        }
        spread += !full;
#undef RND
    }
    /* The draws do exercise both rules. */
    ck_assert_int_gt(fits, 200);
    ck_assert_int_gt(spread, 20);
}
END_TEST

/* Run `trace` on `sets` with the run's checks on; the job starts (-1:
 * none) into start[1..3], and the metrics. */
static void run_text(const char *trace, const char *const *sets, double *start, run_metrics *m)
{
    char path[] = "/tmp/pnrsim-test-cores-spread-XXXXXX";
    tu_write_temp(path, trace);
    const char *base[] = {"scheduler.mpl=1", "process.mem_access_rate=0.01",
                          "process.comm_rate=0", "process.sync_rate=0",
                          "scheduler.node_sharing=EXCLUSIVE", "netram.enabled=no", NULL};
    config c;
    char err[CFG_ERR_MAX];
    tu_configure(&c, base, sets, path);
    char *csv = NULL;
    size_t len = 0;
    FILE *jobs = open_memstream(&csv, &len);
    run_t *r = run_create(&c, jobs, NULL, err);
    ck_assert_msg(r != NULL, "%s", err);
    run_set_checking(r, true);
    ck_assert_msg(run_execute(r, err) == 0, "%s", err);
    ck_assert_msg(run_check_failure(r) == NULL, "%s", run_check_failure(r));
    run_metrics_get(r, m);
    run_destroy(r);
    fclose(jobs);
    for (int i = 0; i < 4; i++)
        start[i] = -1;
    for (const char *q = strchr(csv, '\n'); q && q[1]; q = strchr(q + 1, '\n')) {
        long id;
        double sub, st;
        if (sscanf(q + 1, "%ld,%lf,%lf", &id, &sub, &st) == 3 && id >= 1 && id <= 3)
            start[id] = st;
    }
    free(csv);
    unlink(path);
}

START_TEST(test_local_equals_global_without_netram)
{
    /* The reproducer (one job, 5 x 100 MB, 10 s, nodes of 150 and 1000
     * MB) and the spread case (6 x 100 MB on 250, 350, 350), each under
     * LOCAL and GLOBAL with network RAM off: admitted at 0 (before the fix
     * LOCAL refused both as never admittable), run without a page fault
     * (every node holds its threads: 100 <= 150 and 400 <= 1000; 300 <=
     * 350 twice), nothing impossible. _i: 0 LOCAL, 1 GLOBAL. */
    static const char *const modes[] = {"scheduler.mem_aware=yes", "scheduler.mem_aware=GLOBAL"};
    static const char *const cases[][3] = {
        {"1 0 -1 10 5 10 102400 5 10 -1 1 1 1 1 1 1 -1 -1\n", "computer.number=8",
         "computer.ram=1x150,1x1000"},
        {"1 0 -1 10 6 10 102400 6 10 -1 1 1 1 1 1 1 -1 -1\n", "computer.number=12",
         "computer.ram=1x250,2x350"},
    };
    for (int k = 0; k < 2; k++) {
        const char *sets[] = {modes[_i], "computer.cores_per_node=4", cases[k][1], cases[k][2],
                              NULL};
        double start[4];
        run_metrics m;
        run_text(cases[k][0], sets, start, &m);
        ck_assert_msg(m.jobs_impossible == 0, "%s case %d: impossible", modes[_i], k);
        ck_assert_int_eq(m.jobs_finished, 1);
        ck_assert_double_eq(start[1], 0);
        ck_assert_uint_eq(m.page_faults_disk + m.page_faults_remote, 0);
    }
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("cores_spread");
    TCase *tc = tcase_create("spread");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_reproducer_rule);
    tcase_add_test(tc, test_first_rule_kept);
    tcase_add_test(tc, test_spread_choice);
    tcase_add_test(tc, test_spread_exact);
    tcase_add_loop_test(tc, test_local_equals_global_without_netram, 0, 2);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
