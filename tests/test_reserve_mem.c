/* tests/test_reserve_mem.c: reservations that hold memory (issue 35 item
 * 3; docs/SCHEDULING.md "Reservations that hold memory"). At MPL 1 under
 * mem_aware the head's reservation (EASY's shadow time, conservative's
 * first job not started) is the first time it fits by cores *and* memory
 * on the machine as expected then, and a later job that would still run
 * then starts only if the head still fits beside it.
 *
 *   - hand-worked: 4 PEs, two of 64 MB and two of 16 MB, four jobs; a
 *     backfill by cores alone takes the big PE the head needs and delays
 *     it from 100 to 250; now the head starts at 100 (EASY and
 *     CONSERVATIVE, LOCAL and GLOBAL without network RAM);
 *   - the guarantee on random traces with memory: FCFS, exact estimates,
 *     MPL 1, EASY and CONSERVATIVE x LOCAL and GLOBAL (network RAM off) x
 *     {one core per node with two RAM sizes, 2 cores per node SHARED,
 *     EXCLUSIVE}: every job that was ever the head starts no later than
 *     the reservation it got when it first became the head, and the
 *     scheduler's checker (gang_check_placement: the first queued job
 *     fits nowhere) never fires (on 4d8108f 1252 of 5272 heads start
 *     late; RESERVE_MEM_COUNTS=1 prints the counts, also of the other
 *     conservative reservations, which are not guaranteed: 44 of 4386
 *     start after their first here, 2696 of 4422 on 4d8108f);
 *   - the checker on the traces of the issue's "3 of 100 small random
 *     traces" (test_checker_sweep: they fail before 5d1228b).
 */
#include "app/config.h"
#include "app/run.h"
#include "app/run_check.h"
#include "core/rng.h"
#include "sched/gang.h"
#include "sched/job.h"
#include "tests/testrun.h"
#include "tests/testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXJ 64

/* What the observer saw: each job's first run (MPL 1: its start), its
 * end, and its reservations at that moment (first one, first as head). */
typedef struct seen {
    double start[MAXJ + 1], end[MAXJ + 1], head[MAXJ + 1], first[MAXJ + 1];
} seen;

static void on_run(sim_t *sim, const job_t *j, int slot, double from, void *ctx)
{
    (void)slot;
    (void)from;
    seen *s = ctx;
    ck_assert(j->id >= 1 && j->id <= MAXJ);
    if (s->start[j->id] < 0) {
        s->start[j->id] = sim->now;
        s->head[j->id] = j->bf_head_res;
        s->first[j->id] = j->bf_first_res;
    }
}

static void on_stop(sim_t *sim, const job_t *j, void *ctx)
{
    seen *s = ctx;
    if (j->ended)
        s->end[j->id] = sim->now;
}

/* Run the SWF text `trace` with `sets` (after the base: no messages, run
 * time as demand, exact estimates, FCFS, MPL 1) with the run's checks on.
 * Returns the check failure (NULL: none; copied), the metrics in m and
 * what the observer saw in s. */
static const char *run_seen(const char *trace, const char *const *sets, run_metrics *m, seen *s)
{
    static char fail[400];
    char path[] = "/tmp/pnrsim-test-reserve-mem-XXXXXX";
    tu_write_temp(path, trace);
    const char *base[] = {"process.comm_rate=0",         "process.sync_rate=0",
                          "workload.cpu_demand=runtime", "workload.estimate=runtime",
                          "scheduler.priority=fcfs",     "scheduler.mpl=1",
                          "netram.enabled=no",           NULL};
    config c;
    char err[CFG_ERR_MAX];
    tu_configure(&c, base, sets, path);
    FILE *jobs = fopen("/dev/null", "w");
    ck_assert_ptr_nonnull(jobs);
    run_t *r = run_create(&c, jobs, NULL, err);
    ck_assert_msg(r != NULL, "%s", err);
    run_set_checking(r, true);
    for (int i = 0; i <= MAXJ; i++)
        s->start[i] = s->end[i] = s->head[i] = s->first[i] = -1;
    gang_observer o = {.on_job_run = on_run, .on_job_stop = on_stop, .ctx = s};
    gang_set_observer(run_gang(r), &o);
    ck_assert_msg(run_execute(r, err) == 0, "%s", err);
    const char *bad = run_check_failure(r);
    if (bad)
        snprintf(fail, sizeof fail, "%s", bad);
    run_metrics_get(r, m);
    run_destroy(r);
    fclose(jobs);
    unlink(path);
    return bad ? fail : NULL;
}

/* ---- (a) by hand --------------------------------------------------------------- */

/* 4 PEs: PEs 0 and 1 have 64 MB, PEs 2 and 3 16 MB; mem_aware, MPL 1,
 * FCFS, exact estimates (SWF field 7 is KB per process):
 *   J1 at 0: 1 PE, 100 s, 32 MB  -> PE 0 (the lowest with room), [0, 100)
 *   J2 at 0: 3 PEs, 50 s, 8 MB   -> PEs 1-3, [0, 50)
 *   J3 at 1: 2 PEs, 100 s, 32 MB -> needs PEs 0 and 1 (32 > 16): the head
 *   J4 at 2: 1 PE, 200 s, 8 MB
 * At 50 J2 ends: PEs 1-3 free, only PE 1 has room for a 32 MB thread, so J3
 * does not fit. By cores alone its reservation is at 50 (3 PEs free, 1
 * spare), and J4 (1 PE, to 250) backfills onto the spare PE: the lowest
 * free PE with room, PE 1. At 100 J1 ends: PE 0 is the only big PE free,
 * J3 waits for J4 until 250 and runs [250, 350) (the schedule of 4d8108f,
 * EASY and CONSERVATIVE alike).
 * Holding memory: on the machine as expected at 50 (J1 on PE 0 until 100)
 * J3 does not fit; at 100 (nothing running) it does: its reservation is
 * 100. J4 would still run at 100 (50 + 200 = 250 > 100) on PE 1, leaving
 * one big PE free then: it waits. At 100 J3 gets PEs 0-1 [100, 200) and J4
 * PE 2 (8 <= 16 MB) [100, 300). */
static const char *HAND = "1 0 -1 100 1 100 32768 1 100 -1 1 1 1 1 1 1 -1 -1\n"
                          "2 0 -1 50 3 50 8192 3 50 -1 1 1 1 1 1 1 -1 -1\n"
                          "3 1 -1 100 2 100 32768 2 100 -1 1 1 1 1 1 1 -1 -1\n"
                          "4 2 -1 200 1 200 8192 1 200 -1 1 1 1 1 1 1 -1 -1\n";

START_TEST(test_hand_backfill_keeps_memory)
{
    /* _i: backfill (EASY, CONSERVATIVE) x mem_aware (LOCAL, GLOBAL). */
    const char *sets[] = {"computer.number=4", "computer.ram=2x64,2x16",
                          _i % 2 ? "scheduler.backfill=conservative" : "scheduler.backfill=easy",
                          _i / 2 ? "scheduler.mem_aware=GLOBAL" : "scheduler.mem_aware=LOCAL",
                          NULL};
    run_metrics m;
    seen s;
    const char *bad = run_seen(HAND, sets, &m, &s);
    ck_assert_msg(bad == NULL, "%s", bad);
    ck_assert_int_eq(m.jobs_finished, 4);
    static const double start[] = {0, 0, 0, 100, 100}, end[] = {0, 100, 50, 200, 300};
    for (int id = 1; id <= 4; id++)
        ck_assert_msg(s.start[id] == start[id] && s.end[id] == end[id],
                      "%s %s: J%d ran [%g, %g), expected [%g, %g)", sets[2], sets[3], id,
                      s.start[id], s.end[id], start[id], end[id]);
    /* J3 became the head at 1 with its reservation at 100 (by cores alone
     * it was 50). */
    ck_assert_double_eq(s.head[3], 100);
}
END_TEST

/* ---- (b) the guarantee on random traces ---------------------------------------- */

/* n jobs: 1-4 threads, 5-200 s, memory per thread: none, small (1-15 MB)
 * or large (17-40 MB: only where a node has room, the big nodes), bursts
 * of equal submits. */
static char *random_trace(uint64_t seed, int n)
{
    size_t cap = (size_t)n * 80 + 1, len = 0;
    char *t = malloc(cap);
    ck_assert_ptr_nonnull(t);
    rng_t *r = rng_stream(seed, "trace", 0);
    double submit = 0;
    for (int i = 1; i <= n; i++) {
        int procs = 1 + (int)rng_index(r, 4);
        int run = 5 + (int)rng_index(r, 196);
        int kind = (int)rng_index(r, 3);
        int mem_kb = kind == 0 ? 0 : kind == 1 ? (1 + (int)rng_index(r, 15)) * 1024
                                               : (17 + (int)rng_index(r, 24)) * 1024;
        len += (size_t)snprintf(t + len, cap - len,
                                "%d %.0f -1 %d %d %d %d %d %d -1 1 1 1 1 1 1 -1 -1\n", i, submit,
                                run, procs, run, mem_kb, procs, run);
        ck_assert(len < cap);
        if (rng_index(r, 3) != 0)
            submit += (double)rng_index(r, 30);
    }
    rng_free(r);
    return t;
}

/* The machines: one core per node, 6 nodes (2 x 64 MB, 4 x 16 MB); 2
 * cores per node, 4 nodes (2 x 64, 2 x 32), SHARED and EXCLUSIVE. */
static const char *const MACHINES[][3] = {
    {"computer.number=6", "computer.ram=2x64,4x16", "computer.cores_per_node=1"},
    {"computer.number=8", "computer.ram=2x64,2x32", "computer.cores_per_node=2"},
    {"computer.number=8", "computer.ram=2x64,2x32", "computer.cores_per_node=2"},
};

START_TEST(test_random_head_guarantee)
{
    /* _i: machine (3) x backfill (EASY, CONSERVATIVE) x mem_aware (LOCAL,
     * GLOBAL without network RAM); 25 traces of 40 jobs each. */
    /* The guarantee (docs/SCHEDULING.md): FCFS, exact estimates, MPL 1,
     * LOCAL or GLOBAL without network RAM. */
    int mach = _i / 4;
    const char *sets[] = {MACHINES[mach][0],
                          MACHINES[mach][1],
                          MACHINES[mach][2],
                          mach == 2 ? "scheduler.node_sharing=exclusive"
                                    : "scheduler.node_sharing=shared",
                          _i % 2 ? "scheduler.backfill=conservative" : "scheduler.backfill=easy",
                          _i / 2 % 2 ? "scheduler.mem_aware=GLOBAL" : "scheduler.mem_aware=LOCAL",
                          NULL};
    int heads = 0, waited = 0, reserved = 0, late = 0, hlate = 0;
    char first_late[200] = "";
    for (uint64_t seed = 1; seed <= 25; seed++) {
        char *trace = random_trace(seed + 1000 * (uint64_t)mach, 40);
        run_metrics m;
        seen s;
        const char *bad = run_seen(trace, sets, &m, &s);
        ck_assert_msg(bad == NULL, "%s %s %s seed %d: %s", sets[1], sets[4], sets[5], (int)seed,
                      bad);
        ck_assert_int_eq(m.jobs_finished + m.jobs_impossible, 40);
        for (int id = 1; id <= 40; id++) {
            /* CONSERVATIVE, the other reservations (not guaranteed, see
             * docs/SCHEDULING.md): counted. */
            if (_i % 2 && s.first[id] >= 0) {
                reserved++;
                late += s.start[id] > s.first[id];
            }
            if (s.head[id] < 0)
                continue;
            heads++;
            waited += s.start[id] > s.head[id] - 1e-9 && s.head[id] > 0;
            if (s.start[id] > s.head[id] && !hlate++)
                snprintf(first_late, sizeof first_late,
                         "seed %d: head J%d started %.17g after its reservation %.17g", (int)seed,
                         id, s.start[id], s.head[id]);
        }
        free(trace);
    }
    ck_assert_int_gt(heads, 100); /* the loads do make heads */
    ck_assert_int_gt(waited, 50); /* ... that wait for their reservation */
    ck_assert(_i % 2 == 0 || reserved > 500);
    if (getenv("RESERVE_MEM_COUNTS"))
        fprintf(stderr, "%s %s %s %s: heads %d late %d; reservations %d, started after the first %d\n",
                sets[1], sets[3], sets[4], sets[5], heads, hlate, reserved, late);
    ck_assert_msg(hlate == 0, "%s %s %s %s: %d heads late, first %s", sets[1], sets[3], sets[4],
                  sets[5], hlate, first_late);
}
END_TEST

START_TEST(test_random_global_netram)
{
    /* GLOBAL with network RAM (no guarantee: nodes lend, their room
     * changes), where the plan's placements now go through GLOBAL's own
     * admission: the checker never fires and every job finishes or is
     * impossible. _i: machine (3) x backfill (EASY, CONSERVATIVE); 25
     * traces of 40 jobs, requested times = run times. */
    int mach = _i / 2;
    const char *sets[] = {MACHINES[mach][0],
                          MACHINES[mach][1],
                          MACHINES[mach][2],
                          mach == 2 ? "scheduler.node_sharing=exclusive"
                                    : "scheduler.node_sharing=shared",
                          _i % 2 ? "scheduler.backfill=conservative" : "scheduler.backfill=easy",
                          "scheduler.mem_aware=GLOBAL",
                          "netram.enabled=yes",
                          "process.mem_access_rate=0.001",
                          NULL};
    for (uint64_t seed = 1; seed <= 25; seed++) {
        char *trace = random_trace(seed + 5000 + 1000 * (uint64_t)mach, 40);
        run_metrics m;
        seen s;
        const char *bad = run_seen(trace, sets, &m, &s);
        ck_assert_msg(bad == NULL, "%s %s %s seed %d: %s", sets[1], sets[3], sets[4], (int)seed,
                      bad);
        ck_assert_int_eq(m.jobs_finished + m.jobs_impossible, 40);
        free(trace);
    }
}
END_TEST

/* ---- (c) the checker's failure of the issue --------------------------------------- */

/* tests/test_backfill_mem.c's generator (4 PEs of 32 MB): 1-4 threads,
 * 5-300 s, 0-30 MB per thread (a third without memory, a third above half
 * a PE's RAM), estimates 1x-3x, bursts of equal submits. */
static char *issue_trace(uint64_t seed, int n)
{
    size_t cap = (size_t)n * 80 + 1, len = 0;
    char *t = malloc(cap);
    ck_assert_ptr_nonnull(t);
    rng_t *r = rng_stream(seed, "trace", 0);
    double submit = 0;
    for (int i = 1; i <= n; i++) {
        int procs = 1 + (int)rng_index(r, 4);
        int run = 5 + (int)rng_index(r, 296);
        int est = run * (1 + (int)rng_index(r, 3));
        int kind = (int)rng_index(r, 3);
        int mem_kb = kind == 0 ? 0 : kind == 1 ? (1 + (int)rng_index(r, 15)) * 1024
                                               : (17 + (int)rng_index(r, 14)) * 1024;
        len += (size_t)snprintf(t + len, cap - len,
                                "%d %.0f -1 %d %d %d %d %d %d -1 1 1 1 1 1 1 -1 -1\n", i, submit,
                                run, procs, run, mem_kb, procs, est);
        ck_assert(len < cap);
        if (rng_index(r, 3) != 0)
            submit += (double)rng_index(r, 40);
    }
    rng_free(r);
    return t;
}

START_TEST(test_checker_sweep)
{
    /* The issue's "3 of 100 small random traces": CONSERVATIVE with
     * mem_aware yes or GLOBAL failed the scheduler's own checker ("queued
     * job N fits but was not placed"). With these 100 traces (seeds 7778
     * .. 7877 of issue_trace, 4 PEs of 32 MB, requested times as estimates,
     * quantum 20 s) the tree before 5d1228b (issue 32 item 3) fails exactly
     * 3 of 100 at MPL 3 (seeds 10, 34 and 88 of the loop; at 1348.124
     * "queued job 19 (2 PEs, 17 MB) fits but was not placed"), 1 at MPL 2
     * (seed 59), 11 at MPL 0, 2 under GLOBAL with network RAM at MPL 0 (seeds
     * 32 and 87); the cause: a job whose reservation was now but that memory
     * refused in its reservation's slot was never tried in another slot
     * or a new one where it fitted (the fix: conservative.c, place_now;
     * docs/SCHEDULING.md "mem_aware"). 4d8108f and this tree pass all,
     * EASY too, and MPL 1 (where the head's reservation now holds memory).
     * _i: backfill (EASY, CONSERVATIVE) x mem_aware (yes, GLOBAL without
     * and with network RAM) x MPL (1, 2, 3, 0). */
    static const int mpls[] = {1, 2, 3, 0};
    static const char *const mem[] = {"scheduler.mem_aware=yes", "scheduler.mem_aware=GLOBAL",
                                      "scheduler.mem_aware=GLOBAL"};
    static const char *const net[] = {"netram.enabled=no", "netram.enabled=no",
                                      "netram.enabled=yes"};
    int bf = _i / 12, mm = _i / 4 % 3;
    char mpl[32];
    snprintf(mpl, sizeof mpl, "scheduler.mpl=%d", mpls[_i % 4]);
    for (uint64_t seed = 1; seed <= 100; seed++) {
        const char *sets[] = {"computer.number=4",
                              "computer.ram=32",
                              "scheduler.quantum=20",
                              mpl,
                              bf ? "scheduler.backfill=conservative" : "scheduler.backfill=easy",
                              mem[mm],
                              net[mm],
                              "process.mem_access_rate=0.001",
                              "workload.estimate=requested",
                              NULL};
        char *trace = issue_trace(seed + 7777, 40);
        run_metrics m;
        seen s;
        const char *bad = run_seen(trace, sets, &m, &s);
        ck_assert_msg(bad == NULL, "%s %s %s %s seed %d: %s", sets[4], mem[mm], net[mm], mpl,
                      (int)seed, bad);
        ck_assert_int_eq(m.jobs_finished + m.jobs_impossible, 40);
        free(trace);
    }
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("reserve_mem");
    TCase *tc = tcase_create("mem");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_hand_backfill_keeps_memory, 0, 4);
    tcase_add_loop_test(tc, test_random_head_guarantee, 0, 12);
    tcase_add_loop_test(tc, test_random_global_netram, 0, 6);
    tcase_add_loop_test(tc, test_checker_sweep, 0, 24);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
