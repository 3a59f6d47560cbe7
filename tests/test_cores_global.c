/* tests/test_cores_global.c: admission that counts network RAM
 * (scheduler.mem_aware = GLOBAL, sched/admit.c) on nodes of several cores
 * (computer.cores_per_node = C > 1; docs/MODEL.md "Nodes of several cores"
 * and "Memory beyond the node").
 *
 * Every run: nodes of 100 MB, network RAM on (CENTRAL), server threshold
 * 0.1 MB (a node lends at most room - 0.1 MB), MPL 1, no messages, the
 * run's checks on (scheduler invariants, PNR conservation). Per node of
 * room r (RAM - reserved - lent) and remote (network RAM held), placing M
 * MB of a job's threads there costs need = max(0, M - max(r, 0)) and
 * uncovered max(0, M - r - remote) - max(0, -r - remote) + lost lendable
 * lendable(r) - lendable(r - M), lendable(x) = max(0, x - 0.1); a job is
 * admitted when it needs nothing or its cost <= available = sum of
 * lendable(room) - sum of uncovered overallocation.
 *
 * What is checked, each against figures worked out by hand below:
 *   - a job that overallocates two nodes is admitted while two other nodes
 *     can lend, its extra threads spread round robin over the nodes (one
 *     more per node, not all on node 0), and pages only to network RAM; a
 *     second job that would need network RAM then waits (what is left
 *     cannot cover it) and starts when the first job's memory is freed;
 *     mem_aware = NO starts it at once and pages to disk; LOCAL refuses the
 *     first job (never admittable);
 *   - the "never admittable" bound per node: on 2 nodes of 4 cores a job
 *     of 3 x 60 MB is admitted and runs, one of 4 x 60 MB is impossible;
 *   - EXCLUSIVE + GLOBAL: whole nodes, the overallocating node admitted,
 *     a second job waiting for network RAM, the idle cores counted;
 *   - validation: GLOBAL with C > 1 is accepted.
 */
#include "app/config.h"
#include "app/run.h"
#include "app/run_check.h"
#include "sched/job.h"
#include "tests/testrun.h"
#include "tests/testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NJ 3
#define NN 4

typedef struct result {
    run_metrics m;
    double start[NJ + 1], end[NJ + 1];
    uint64_t disk[NN], remote[NN];
} result;

/* Run the SWF lines `trace` (jobs 1..NJ) with the settings and the run's
 * checks on; fills r (per node faults of the first NN nodes). */
static void run_text(const char *trace, const char *const *sets, result *res)
{
    char path[] = "/tmp/pnrsim-test-cores-global-XXXXXX";
    tu_write_temp(path, trace);
    const char *base[] = {"computer.ram=100", "netram.enabled=yes", "scheduler.mpl=1",
                          "process.mem_access_rate=0.01", "process.comm_rate=0",
                          "process.sync_rate=0", NULL};
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
    run_metrics_get(r, &res->m);
    const cluster_t *cl = run_cluster(r);
    for (int i = 0; i < NN; i++) {
        res->disk[i] = i < cluster_compute_pes(cl) ? cl->pes[i].disk_faults : 0;
        res->remote[i] = i < cluster_compute_pes(cl) ? cl->pes[i].remote_faults : 0;
    }
    run_destroy(r);
    fclose(jobs);
    for (int i = 0; i <= NJ; i++)
        res->start[i] = res->end[i] = -1;
    /* jobs.csv: job,submit,start,end,... */
    for (const char *q = strchr(csv, '\n'); q && q[1]; q = strchr(q + 1, '\n')) {
        long id;
        double sub, st, en;
        /* A job that did not finish (issue 26: every job has a row) has
         * an empty end; such rows keep start/end at -1. */
        int got = sscanf(q + 1, "%ld,%lf,%lf,%lf", &id, &sub, &st, &en);
        if (got < 4) {
            ck_assert_msg(got >= 2 && !tu_row_finished(q + 1),
                          "a finished job's row without start and end");
            continue;
        }
        ck_assert(id >= 1 && id <= NJ);
        res->start[id] = st;
        res->end[id] = en;
    }
    free(csv);
    unlink(path);
}

/* J1 at 0: 6 threads of 60 MB, 100 s; J2 at 1: 2 threads of 30 MB, 50 s. */
static const char *const TRACE_SHARED = "1 0 -1 100 6 100 61440 6 -1 -1 1 1 1 1 1 1 -1 -1\n"
                                        "2 1 -1 50 2 50 30720 2 -1 -1 1 1 1 1 1 1 -1 -1\n";

START_TEST(test_global_admits_when_others_lend)
{
    /* 4 nodes of C = 4 cores (16 cores), 100 MB each.
     * J1 (6 x 60 MB) at 0. Rooms first: cores 0, 4, 8, 12 (each node has
     * room for one 60 MB thread, 40 MB left: not two); then round robin:
     * core 1 (node 0), core 5 (node 1). Nodes 0 and 1 hold 120 MB (20 MB
     * over), nodes 2 and 3 60 MB. Cost: nodes 0, 1: uncovered 20 + lost
     * lendable 99.9 = 119.9 each; nodes 2, 3: lost lendable 99.9 - 39.9 =
     * 60 each; in all 359.8 <= available 4 x 99.9 = 399.6: admitted at 0.
     * Available after: 399.6 - 359.8 = 39.8 (= 2 x 39.9 lendable - 40
     * uncovered). Nodes 2, 3 lend the 40 MB (x and 40 - x): nodes 0 and 1
     * page only to network RAM, nodes 2 and 3 never page.
     * J2 (2 x 30 MB) at 1: whatever the split x, available stays
     * lendable(40 - x) + lendable(x) = 39.8 (uncovered 0 once granted;
     * 79.8 - 40 before), and any thread of 30 MB costs at least 30 - 0.1 =
     * 29.9 (the minimum of need + loss over r), so 2 threads cost >= 59.8 >
     * 39.8: J2 waits. J1's memory is freed at its end (mem_release = JOB):
     * node 0's room is 100 (it never lent), J2's threads fit there (cores
     * 0, 1; 60 <= 100): need 0, admitted at that instant: start2 = end1,
     * and it never pages (node 0 holds 60 MB). */
    const char *sets[] = {"computer.number=16", "computer.cores_per_node=4",
                          "scheduler.mem_aware=GLOBAL", NULL};
    result r;
    run_text(TRACE_SHARED, sets, &r);
    ck_assert_int_eq(r.m.jobs_finished, 2);
    ck_assert_int_eq(r.m.jobs_impossible, 0);
    ck_assert_double_eq(r.start[1], 0);
    ck_assert_double_gt(r.end[1], 100);
    ck_assert_double_eq_tol(r.start[2], r.end[1], 1e-9); /* waited for J1's end */
    for (int i = 0; i < NN; i++)
        ck_assert_uint_eq(r.disk[i], 0);                /* never paged to disk */
    ck_assert_uint_gt(r.remote[0], 0);                  /* nodes 0 and 1 overallocated: */
    ck_assert_uint_gt(r.remote[1], 0);                  /* the round robin (lowest-first */
    ck_assert_uint_eq(r.remote[2], 0);                  /* cores would put 3 threads on */
    ck_assert_uint_eq(r.remote[3], 0);                  /* node 0 and none on node 1) */
    ck_assert_double_eq_tol(r.end[2], r.end[1] + 50, 1e-9);
    /* Control, mem_aware = NO: lowest free cores. J1 on cores 0-5: node 0
     * 240 MB (140 over), node 1 120 MB (20 over), covered by nodes 2 and 3
     * (2 x 99.9 = 199.8 >= 160). J2 starts at 1 on cores 6, 7: node 1 180
     * MB, 60 MB more over with 39.8 MB lendable left: node 1 pages to
     * disk. */
    sets[2] = "scheduler.mem_aware=NO";
    run_text(TRACE_SHARED, sets, &r);
    ck_assert_int_eq(r.m.jobs_finished, 2);
    ck_assert_double_eq(r.start[2], 1);
    ck_assert_uint_gt(r.disk[1], 0);
    /* Control, LOCAL: a node of 100 MB holds min(4, floor(100 / 60)) = 1
     * thread of J1: 4 < 6, J1 is never admittable; J2 runs at 1. */
    sets[2] = "scheduler.mem_aware=LOCAL";
    run_text(TRACE_SHARED, sets, &r);
    ck_assert_int_eq(r.m.jobs_impossible, 1);
    ck_assert_int_eq(r.m.jobs_finished, 1);
    ck_assert_double_eq(r.start[2], 1);
}
END_TEST

START_TEST(test_global_never_admittable_per_node)
{
    /* 2 nodes of C = 4 cores, 100 MB each; all the cluster could lend:
     * 2 x 99.9 = 199.8 MB. On an empty machine:
     *   3 x 60 MB: cores 0, 4 (rooms), then core 1 (round robin): node 0
     *     120 MB (uncovered 20 + lost 99.9), node 1 60 MB (lost 60): 179.9
     *     <= 199.8: admitted; node 1 lends node 0 its 20 MB: it runs to
     *     100 s + fault time, node 0 pages to network RAM only.
     *   4 x 60 MB: cores 0, 4, then 1, 5: both nodes 120 MB: 2 x 119.9 =
     *     239.8 > 199.8: never admittable (set aside at submission). */
    const char *one = "1 0 -1 100 3 100 61440 3 -1 -1 1 1 1 1 1 1 -1 -1\n";
    const char *two = "1 0 -1 100 4 100 61440 4 -1 -1 1 1 1 1 1 1 -1 -1\n";
    const char *sets[] = {"computer.number=8", "computer.cores_per_node=4",
                          "scheduler.mem_aware=GLOBAL", NULL};
    result r;
    run_text(one, sets, &r);
    ck_assert_int_eq(r.m.jobs_finished, 1);
    ck_assert_int_eq(r.m.jobs_impossible, 0);
    ck_assert_double_eq(r.start[1], 0);
    ck_assert_uint_gt(r.remote[0], 0);
    ck_assert_uint_eq(r.disk[0] + r.disk[1] + r.remote[1], 0);
    run_text(two, sets, &r);
    ck_assert_int_eq(r.m.jobs_finished, 0);
    ck_assert_int_eq(r.m.jobs_impossible, 1);
}
END_TEST

START_TEST(test_global_exclusive)
{
    /* EXCLUSIVE + GLOBAL: 3 nodes of C = 2 cores, 100 MB each.
     * J1 at 0: 3 threads of 60 MB, 100 s: ceil(3 / 2) = 2 whole nodes
     * (4 cores, 1 idle). No node has room for 2 threads (120 > 100), so
     * the second pass takes nodes 0 (2 threads) and 1 (the last one).
     * Cost: node 0: uncovered 20 + lost 99.9 = 119.9; node 1: lost 60;
     * 179.9 <= 299.7: admitted at 0. Available after: 299.7 - 179.9 =
     * 119.8 (node 1: 39.9, node 2: 99.9, less 20 uncovered).
     * J2 at 1: 2 threads of 70 MB, 50 s: the one whole free node is node
     * 2 (it lends y <= 20 MB of J1's 20): need 40 + y, cost 40 + y +
     * lost 99.9 - y = 139.9 > 119.8 (lendable 39.9 - (20 - y) + 99.9 - y,
     * less 0 uncovered): J2 waits. At J1's end its memory is freed:
     * available = 3 x 99.9 - 20 (still lent until the FREEs arrive) =
     * 279.7; J2 on an empty slot: no node has room for 140 MB, so node 0
     * (cost 40 + 99.9 = 139.9 <= 279.7): start2 = end1. Nothing pages to
     * disk (nodes 1 and 2 cover node 0's 20, then 40 MB).
     * Idle cores: J1 holds 4 cores for 3 threads from 0 to end1, J2 2 for
     * 2: idle_core_seconds = end1. */
    const char *trace = "1 0 -1 100 3 100 61440 3 -1 -1 1 1 1 1 1 1 -1 -1\n"
                        "2 1 -1 50 2 50 71680 2 -1 -1 1 1 1 1 1 1 -1 -1\n";
    const char *sets[] = {"computer.number=6", "computer.cores_per_node=2",
                          "scheduler.node_sharing=EXCLUSIVE", "scheduler.mem_aware=GLOBAL",
                          NULL};
    result r;
    run_text(trace, sets, &r);
    ck_assert_int_eq(r.m.jobs_finished, 2);
    ck_assert_double_eq(r.start[1], 0);
    ck_assert_double_eq_tol(r.start[2], r.end[1], 1e-9);
    ck_assert_double_gt(r.end[2], r.end[1] + 50);        /* J2 pages (140 MB on node 0) */
    for (int i = 0; i < 3; i++)
        ck_assert_uint_eq(r.disk[i], 0);
    ck_assert_uint_gt(r.remote[0], 0);
    ck_assert_uint_eq(r.remote[1] + r.remote[2], 0);
    ck_assert_double_eq_tol(r.m.idle_core_seconds, r.end[1], 1e-9);
}
END_TEST

START_TEST(test_global_accepted)
{
    /* GLOBAL with several cores per node validates (it was refused before
     * it was built), with either node sharing. */
    config c;
    char err[CFG_ERR_MAX];
    for (int v = 0; v < 2; v++) {
        config_defaults(&c);
        ck_assert_int_eq(config_set(&c, "computer.cores_per_node=4", err), 0);
        ck_assert_int_eq(config_set(&c, "scheduler.mem_aware=GLOBAL", err), 0);
        if (v)
            ck_assert_int_eq(config_set(&c, "scheduler.node_sharing=EXCLUSIVE", err), 0);
        ck_assert_msg(config_validate(&c, err) == 0, "%s", err);
    }
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("cores_global");
    TCase *tc = tcase_create("global");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_global_admits_when_others_lend);
    tcase_add_test(tc, test_global_never_admittable_per_node);
    tcase_add_test(tc, test_global_exclusive);
    tcase_add_test(tc, test_global_accepted);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
