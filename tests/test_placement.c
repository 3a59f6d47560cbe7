/* tests/test_placement.c: the built-in allocation policies of issue 35
 * (FIRSTFREE = LOWEST, CONTIGUOUS, RACK, MC1X1; docs/SCHEDULING.md
 * "Placement") and the hop distance (docs/METRICS.md "Placement"), on
 * tiny machines whose free map is given by hand. Each case asks a policy's
 * choose() directly, through a view of a real run's scheduler (the run is
 * created, never executed), with the slot's cores marked busy as written;
 * the cores expected were worked out by hand from the rules, below.
 *
 * Machine T: TREE, 16 PEs of one core, racks of 4 (rack r = PEs 4r..4r+3).
 * Hops (net/elem.h's route lengths): 3 within a rack, 7 across.
 * Free map A: busy 0 1 2 4 7 12, free 3 | 5 6 | 8 9 10 11 | 13 14 15:
 * rack capacities r0 1, r1 2, r2 4, r3 3; runs of free PEs [3] [5 6]
 * [8-11] [13-15].
 *   w = 3:
 *     FIRSTFREE  3 5 6 (the lowest free).
 *     CONTIGUOUS the first run of 3: 8 9 10.
 *     RACK       k = 1 (r2 alone holds 3); racks holding 3: r2 (4), r3
 *                (3): the least, r3: 13 14 15.
 *     MC1X1      centre in r2: 8 9 10, pairwise 3 x 3 = 9, from centre
 *                3 + 3 = 6; centre in r3: 13 14 15, 9 and 6; centre 3 (r0):
 *                3, then d 7 in node order 5 6: pairs (5,6) 3 + 2 x 7 = 17;
 *                centre 5 or 6: 5 6 then 3: 17. Ties 9/6: the lowest
 *                centre, 8: 8 9 10.
 *   w = 6:
 *     FIRSTFREE  3 5 6 8 9 10.
 *     CONTIGUOUS no run of 6: does not fit (-1).
 *     RACK       k = 2: the largest, r2 (4), then the least rack that
 *                finishes (needs 2): r1 (2) before r3 (3): 5 6 8 9 10 11.
 *     MC1X1      centre in r2: 8 9 10 11, then d 7 in node order: 3 5:
 *                rack counts 4, 1, 1: same-rack pairs 6 x 3 = 18, other
 *                pairs (15 - 6) x 7 = 63: 81. Centre 3: 3, 5 6, 8 9 10:
 *                counts 1, 2, 3: (1 + 3) x 3 + 11 x 7 = 89; centre 5: 5 6,
 *                3, 8 9 10: 89; centre 13: 13 14 15, 3, 5 6: counts 3, 1, 2:
 *                89. Best 81 (centres 8-11, from-centre 3 x 3 + 2 x 7 = 23
 *                each): centre 8: 3 5 8 9 10 11 (ascending). The greedy
 *                from a centre is MC1x1's, not the optimum: RACK's set has
 *                (1 + 6) x 3 + 8 x 7 = 77.
 *   Mean pairwise hops (15 pairs): RACK 77 / 15, MC1X1 81 / 15,
 *   FIRSTFREE 89 / 15.
 *
 * Machine S: STAR, 8 cores, 2 per node (node n = cores 2n, 2n+1). Hops 0
 * on a node, 3 otherwise.
 *   SHARED, busy 0 3 4 (free 1 | 2 | 5 | 6 7), w = 2:
 *     FIRSTFREE, CONTIGUOUS (run [1 2]), RACK (one rack: the lowest):
 *     1 2, mean hops 3. MC1X1: centre node 3 takes 6 7 (pairwise 0; every
 *     other centre has its one core and another node's: 3): 6 7, hops 0.
 *   EXCLUSIVE, busy 0 5 (wholly free nodes 1, 3), w = 3 (2 nodes: C
 *     threads on the first, the rest on the second):
 *     FIRSTFREE, RACK, MC1X1: 2 3 6. CONTIGUOUS: node 0 busy, node 1 free
 *     (2 threads), node 2 busy ends the stretch, node 3 alone holds 2:
 *     no stretch of 2 free nodes: -1.
 *   mem_aware LOCAL, RAM 100 MB a node, 60 MB a thread (a node holds one
 *     thread of the job), busy 2, w = 3:
 *     FIRSTFREE: 0 (node 0 then has 40 MB: 1 passed over), 3, 4.
 *     CONTIGUOUS: stretch [0 1] gives 0 only (1 passed over for memory),
 *     busy 2 ends it; stretch [3 .. 7]: 3 (node 1), 4 (node 2), 5 passed
 *     over, 6 (node 3): 3 4 6.
 *     RACK: usable 1 a node (node 1: core 3): the lowest, 0 3 4.
 *     MC1X1: every centre takes its node's one and two others at 3: 9
 *     each, from-centre 6: centre node 0: then nodes 1, 2: 0 3 4.
 *
 *   mem_aware GLOBAL, the same machine and job, busy 2, 0 MB of network
 *     RAM available (the view's figure): LOCAL's choices where they exist
 *     (they need none), the same cores as under LOCAL; five threads need
 *     two on some node (120 MB on 100: 20 MB of network RAM): refused by
 *     all.
 *
 * Hop distance on the other topologies (gang_job_hops): WHEEL of 8 PEs
 * (rim pairs 0-1, 2-3, ...): job on 0 1 2: (0,1) rim 1, (0,2) 3, (1,2) 3:
 * 7 / 3. BUS: every pair 1. CONNECTED: every pair 1. STAR with 2 cores a
 * node, job on 0 1 2: 0 + 3 + 3 = 6 / 3 = 2. One thread: no pair (NAN).
 */
#include "app/components.h"
#include "app/config.h"
#include "app/config_notes.h"
#include "app/run.h"
#include "app/run_check.h"
#include "app/run_metrics.h"
#include "app/run_internal.h"
#include "core/registry.h"
#include "sched/alloc_builtin.h"
#include "sched/gang_alloc.h"
#include "sched/job.h"
#include "tests/testutil.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void set(config *c, const char *kv)
{
    char err[CFG_ERR_MAX];
    ck_assert_msg(config_set(c, kv, err) == 0, "%s: %s", kv, err);
}

/* A run (created, not executed) with the settings kv[] (NULL-ended). */
static run_t *machine(const char *const *kv)
{
    config c;
    char err[CFG_ERR_MAX], t[CFG_PATH_MAX + 32];
    char trace_path[] = "/tmp/pnrsim-test-placement-XXXXXX";
    int fd = mkstemp(trace_path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "1 0 0 10 1 10 -1 1 -1 -1 1 1 1 1 1 1 -1 -1\n");
    fclose(f);
    components_init();
    config_defaults(&c);
    for (; *kv; kv++)
        set(&c, *kv);
    snprintf(t, sizeof t, "workload.trace=%s", trace_path);
    set(&c, t);
    ck_assert_msg(config_validate(&c, err) == 0, "%s", err);
    run_t *r = run_create(&c, NULL, NULL, err);
    unlink(trace_path);
    ck_assert_msg(r != NULL, "%s", err);
    return r;
}

static const char *const machine_t[] = {"computer.number=16", "network.topology=TREE",
                                        "network.rack_size=4", NULL};
static const char *const machine_s[] = {"computer.number=8", "computer.cores_per_node=2",
                                        "network.topology=STAR", NULL};
static const char *const machine_sx[] = {"computer.number=8", "computer.cores_per_node=2",
                                         "network.topology=STAR",
                                         "scheduler.node_sharing=EXCLUSIVE", NULL};
static const char *const machine_sl[] = {"computer.number=8", "computer.cores_per_node=2",
                                         "network.topology=STAR", "computer.ram=100",
                                         "scheduler.mem_aware=LOCAL", NULL};

static const char *const machine_sg[] = {"computer.number=8", "computer.cores_per_node=2",
                                         "network.topology=STAR", "computer.ram=100",
                                         "netram.enabled=yes", "scheduler.mem_aware=GLOBAL",
                                         NULL};

static job_t busy_job; /* what a busy core holds in the row */

/* Policy `name`'s answer for a job of w threads of mem MB each, in a slot
 * whose busy cores are busy[] (-1 ended), into got (as text "a b c", or
 * "-1"). */
static void ask(run_t *r, const char *name, int w, double mem, const int *busy, char *got)
{
    const pnrsim_component *comp = pnrsim_find(PNRSIM_KIND_ALLOCATION, name);
    ck_assert_msg(comp != NULL, "%s is registered", name);
    const sched_alloc_ops *ops = comp->ops;
    gang_t *g = r->g;
    job_t *row[64] = {0};
    ck_assert_int_le(g->npes, 64);
    for (; *busy >= 0; busy++)
        row[*busy] = &busy_job;
    job_t j = {0};
    j.id = 99;
    j.threads = w;
    j.width = w;
    if (g->p.exclusive)
        j.width = (w + g->cpn - 1) / g->cpn * g->cpn;
    j.mem_mb = mem;
    sched_alloc_view v = {g, row, &j, 0};
    sched_alloc_job info = {j.id, j.threads, j.width, j.mem_mb};
    void *state = ops->create ? ops->create(NULL) : NULL;
    int ids[64];
    int rc = ops->choose(state, &info, &v, ids);
    if (ops->destroy)
        ops->destroy(state);
    if (rc != 0) {
        strcpy(got, "-1");
        return;
    }
    char *p = got;
    *p = '\0';
    for (int t = 0; t < w; t++)
        p += sprintf(p, t ? " %d" : "%d", ids[t]);
}

#define EXPECT(r, name, w, mem, busy, want)                                                  \
    do {                                                                                     \
        char got_[512];                                                                      \
        ask(r, name, w, mem, busy, got_);                                                    \
        ck_assert_msg(strcmp(got_, want) == 0, "%s, %d threads: got \"%s\", want \"%s\"",    \
                      name, w, got_, want);                                                  \
    } while (0)

START_TEST(test_tree_map_a)
{
    run_t *r = machine(machine_t);
    static const int busy[] = {0, 1, 2, 4, 7, 12, -1};
    EXPECT(r, "FIRSTFREE", 3, 0, busy, "3 5 6");
    EXPECT(r, "LOWEST", 3, 0, busy, "3 5 6");
    EXPECT(r, "CONTIGUOUS", 3, 0, busy, "8 9 10");
    EXPECT(r, "RACK", 3, 0, busy, "13 14 15");
    EXPECT(r, "MC1X1", 3, 0, busy, "8 9 10");
    EXPECT(r, "FIRSTFREE", 6, 0, busy, "3 5 6 8 9 10");
    EXPECT(r, "LOWEST", 6, 0, busy, "3 5 6 8 9 10");
    EXPECT(r, "CONTIGUOUS", 6, 0, busy, "-1");
    EXPECT(r, "RACK", 6, 0, busy, "5 6 8 9 10 11");
    EXPECT(r, "MC1X1", 6, 0, busy, "3 5 8 9 10 11");
    /* More than the 10 free cores: nobody. */
    EXPECT(r, "RACK", 11, 0, busy, "-1");
    EXPECT(r, "MC1X1", 11, 0, busy, "-1");
    run_destroy(r);
}
END_TEST

/* The hop metric of the sets above (15 pairs each). */
START_TEST(test_tree_hops)
{
    run_t *r = machine(machine_t);
    job_t j = {0};
    int ids[6];
    j.threads = 6;
    j.pe_ids = ids;
    const int rack[] = {5, 6, 8, 9, 10, 11}, mc[] = {3, 5, 8, 9, 10, 11},
              ff[] = {3, 5, 6, 8, 9, 10};
    memcpy(ids, rack, sizeof ids);
    ck_assert_near(gang_job_hops(r->g, &j), 77.0 / 15, 1e-12);
    ck_assert_int_eq(gang_job_racks(r->g, &j), 2);
    memcpy(ids, mc, sizeof ids);
    ck_assert_near(gang_job_hops(r->g, &j), 81.0 / 15, 1e-12);
    ck_assert_int_eq(gang_job_racks(r->g, &j), 3);
    memcpy(ids, ff, sizeof ids);
    ck_assert_near(gang_job_hops(r->g, &j), 89.0 / 15, 1e-12);
    ck_assert_int_eq(gang_job_racks(r->g, &j), 3);
    j.threads = 1;
    ck_assert(isnan(gang_job_hops(r->g, &j)));
    run_destroy(r);
}
END_TEST

START_TEST(test_star_cores)
{
    run_t *r = machine(machine_s);
    static const int busy[] = {0, 3, 4, -1};
    EXPECT(r, "FIRSTFREE", 2, 0, busy, "1 2");
    EXPECT(r, "CONTIGUOUS", 2, 0, busy, "1 2");
    EXPECT(r, "RACK", 2, 0, busy, "1 2");
    EXPECT(r, "MC1X1", 2, 0, busy, "6 7");
    job_t j = {0};
    int ids[3] = {1, 2, 0};
    j.threads = 2;
    j.pe_ids = ids;
    ck_assert_near(gang_job_hops(r->g, &j), 3, 1e-12);
    ids[0] = 6, ids[1] = 7;
    ck_assert_near(gang_job_hops(r->g, &j), 0, 1e-12);
    ids[0] = 0, ids[1] = 1, ids[2] = 2;
    j.threads = 3;
    ck_assert_near(gang_job_hops(r->g, &j), 2, 1e-12);
    run_destroy(r);
}
END_TEST

START_TEST(test_star_exclusive)
{
    run_t *r = machine(machine_sx);
    static const int busy[] = {0, 5, -1};
    EXPECT(r, "FIRSTFREE", 3, 0, busy, "2 3 6");
    EXPECT(r, "CONTIGUOUS", 3, 0, busy, "-1");
    EXPECT(r, "RACK", 3, 0, busy, "2 3 6");
    EXPECT(r, "MC1X1", 3, 0, busy, "2 3 6");
    static const int none[] = {-1};
    EXPECT(r, "CONTIGUOUS", 3, 0, none, "0 1 2");
    run_destroy(r);
}
END_TEST

START_TEST(test_star_global)
{
    run_t *r = machine(machine_sg);
    static const int busy[] = {2, -1};
    /* Where LOCAL finds room the choice is LOCAL's (no network RAM needed:
     * admitted with none available), as in test_star_local. */
    EXPECT(r, "FIRSTFREE", 3, 60, busy, "0 3 4");
    EXPECT(r, "CONTIGUOUS", 3, 60, busy, "3 4 6");
    EXPECT(r, "RACK", 3, 60, busy, "0 3 4");
    EXPECT(r, "MC1X1", 3, 60, busy, "0 3 4");
    /* Five threads on four nodes: some node gets two, 120 MB on 100: a
     * need of 20 MB at least, and the view says 0 MB of network RAM is
     * available: refused by every policy. */
    static const int none[] = {-1};
    EXPECT(r, "FIRSTFREE", 5, 60, none, "-1");
    EXPECT(r, "CONTIGUOUS", 5, 60, none, "-1");
    EXPECT(r, "RACK", 5, 60, none, "-1");
    EXPECT(r, "MC1X1", 5, 60, none, "-1");
    run_destroy(r);
}
END_TEST

START_TEST(test_star_local)
{
    run_t *r = machine(machine_sl);
    static const int busy[] = {2, -1};
    EXPECT(r, "FIRSTFREE", 3, 60, busy, "0 3 4");
    EXPECT(r, "CONTIGUOUS", 3, 60, busy, "3 4 6");
    EXPECT(r, "RACK", 3, 60, busy, "0 3 4");
    EXPECT(r, "MC1X1", 3, 60, busy, "0 3 4");
    /* Five threads: one a node, four nodes: nobody. */
    EXPECT(r, "FIRSTFREE", 5, 60, busy, "-1");
    EXPECT(r, "CONTIGUOUS", 5, 60, busy, "-1");
    EXPECT(r, "RACK", 5, 60, busy, "-1");
    EXPECT(r, "MC1X1", 5, 60, busy, "-1");
    run_destroy(r);
}
END_TEST

static double hops_of(const char *topo, int n, const int *pe, int w)
{
    char num[32], tp[48];
    snprintf(num, sizeof num, "computer.number=%d", n);
    snprintf(tp, sizeof tp, "network.topology=%s", topo);
    const char *const kv[] = {num, tp, NULL};
    run_t *r = machine(kv);
    job_t j = {0};
    int ids[8];
    memcpy(ids, pe, (size_t)w * sizeof *ids);
    j.threads = w;
    j.pe_ids = ids;
    double h = gang_job_hops(r->g, &j);
    run_destroy(r);
    return h;
}

START_TEST(test_hops_topologies)
{
    const int three[] = {0, 1, 2};
    ck_assert_near(hops_of("WHEEL", 8, three, 3), 7.0 / 3, 1e-12);
    ck_assert_near(hops_of("BUS", 8, three, 3), 1, 1e-12);
    ck_assert_near(hops_of("CONNECTED", 8, three, 3), 1, 1e-12);
    ck_assert_near(hops_of("STAR", 8, three, 3), 3, 1e-12);
}
END_TEST

/* Whole runs under the checking mode (app/run_check.h: the scheduler's
 * invariants at every step, and the answer of every policy but the
 * built-in FIRSTFREE checked against sched/allocation.h's rules), every
 * policy under mem_aware NO, LOCAL, GLOBAL and node_sharing SHARED,
 * EXCLUSIVE, on a TREE of 4 racks x 2 nodes x 2 cores, MPL 2, paging and
 * messages: 30 jobs of 1-8 threads and 10-50 MB (a linear congruential
 * draw, fixed): every job ends (none is wider than the machine), except
 * those the admission sets aside as never placeable, the same ones under
 * every policy. */
START_TEST(test_runs_checked)
{
    char trace_path[] = "/tmp/pnrsim-test-placement-runs-XXXXXX";
    int fd = mkstemp(trace_path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    unsigned x = 12345;
    for (int i = 1; i <= 30; i++) {
        x = x * 1103515245u + 12345u;
        int w = 1 + (int)((x >> 16) % 8);
        x = x * 1103515245u + 12345u;
        int rt = 5 + (int)((x >> 16) % 40);
        x = x * 1103515245u + 12345u;
        int mem = 10 + (int)((x >> 16) % 41);
        fprintf(f, "%d %d 0 %d %d %d %d %d %d -1 1 1 1 1 1 1 -1 -1\n", i, i * 3, rt, w, rt,
                mem * 1024, w, rt * 2);
    }
    fclose(f);
    components_init();
    static const char *const allocs[] = {"LOWEST", "CONTIGUOUS", "RACK", "MC1X1"};
    static const char *const mems[] = {"NO", "LOCAL", "GLOBAL"};
    static const char *const shares[] = {"SHARED", "EXCLUSIVE"};
    long impossible[3][2] = {{0}};
    for (int a = 0; a < 4; a++)
        for (int mi = 0; mi < 3; mi++)
            for (int sh = 0; sh < 2; sh++) {
                config c;
                char err[CFG_ERR_MAX], kv[CFG_PATH_MAX + 32], what[96];
                snprintf(what, sizeof what, "%s %s %s", allocs[a], mems[mi], shares[sh]);
                config_defaults(&c);
                static const char *const base[] = {
                    "computer.number=16", "computer.cores_per_node=2", "computer.ram=64",
                    "network.topology=TREE", "network.rack_size=2", "scheduler.mpl=2",
                    "scheduler.quantum=2", "process.comm_rate=0.5", "process.sync_rate=2",
                    "process.mem_access_rate=0.00003", "netram.enabled=yes",
                    NULL};
                for (int i = 0; base[i]; i++)
                    set(&c, base[i]);
                snprintf(kv, sizeof kv, "workload.trace=%s", trace_path);
                set(&c, kv);
                snprintf(kv, sizeof kv, "scheduler.allocation=%s", allocs[a]);
                set(&c, kv);
                snprintf(kv, sizeof kv, "scheduler.mem_aware=%s", mems[mi]);
                set(&c, kv);
                snprintf(kv, sizeof kv, "scheduler.node_sharing=%s", shares[sh]);
                set(&c, kv);
                ck_assert_msg(config_validate(&c, err) == 0, "%s: %s", what, err);
                run_t *r = run_create(&c, NULL, NULL, err);
                ck_assert_msg(r != NULL, "%s: %s", what, err);
                run_set_checking(r, true);
                ck_assert_msg(run_execute(r, err) == 0, "%s: %s", what, err);
                ck_assert_msg(run_check_failure(r) == NULL, "%s: %s", what,
                              run_check_failure(r));
                run_metrics m;
                run_metrics_get(r, &m);
                /* Every job ends but those the built-in admission sets
                 * aside as never placeable (sched/admit.h: under EXCLUSIVE
                 * two threads of 40 MB or more do not fit a 64 MB node),
                 * which are the same for every policy (the admission's). */
                ck_assert_msg(m.jobs_unfinished == 0 && m.jobs_finished + m.jobs_impossible == 30,
                              "%s: %ld of 30 finished, %ld impossible", what, m.jobs_finished,
                              m.jobs_impossible);
                if (a == 0)
                    impossible[mi][sh] = m.jobs_impossible;
                ck_assert_msg(m.jobs_impossible == impossible[mi][sh], "%s: %ld impossible, %s %ld",
                              what, m.jobs_impossible, allocs[0], impossible[mi][sh]);
                ck_assert(m.alloc_set && m.alloc_racks);
                ck_assert(m.alloc_hops_mean >= 0 && m.alloc_hops_mean <= 7);
                run_destroy(r);
            }
    unlink(trace_path);
}
END_TEST

/* RACK without racks: a "has no effect" note (app/config.c); on a TREE
 * none, nor for MC1X1 on a STAR (its hops differ there too). */
START_TEST(test_rack_note)
{
    components_init();
    config c;
    cfg_note notes[8];
    char err[CFG_ERR_MAX];
    config_defaults(&c);
    set(&c, "scheduler.allocation=RACK");
    ck_assert_msg(config_validate(&c, err) == 0, "%s", err);
    size_t n = config_ignored(&c, notes, 8);
    ck_assert_uint_eq(n, 1);
    ck_assert_str_eq(notes[0].key, "scheduler.allocation");
    ck_assert_ptr_nonnull(strstr(notes[0].what, "has no effect: only a TREE topology has racks"));
    set(&c, "network.topology=TREE");
    ck_assert_uint_eq(config_ignored(&c, notes, 8), 0);
    set(&c, "network.topology=STAR");
    set(&c, "scheduler.allocation=MC1X1");
    ck_assert_uint_eq(config_ignored(&c, notes, 8), 0);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("placement");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_tree_map_a);
    tcase_add_test(tc, test_tree_hops);
    tcase_add_test(tc, test_star_cores);
    tcase_add_test(tc, test_star_exclusive);
    tcase_add_test(tc, test_star_local);
    tcase_add_test(tc, test_star_global);
    tcase_add_test(tc, test_runs_checked);
    tcase_add_test(tc, test_rack_note);
    tcase_add_test(tc, test_hops_topologies);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
