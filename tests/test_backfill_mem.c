/* tests/test_backfill_mem.c: conservative backfilling with memory obeys the
 * scheduler's own checker (issue 32 item 3; docs/SCHEDULING.md
 * "mem_aware"): a job whose reservation is now but that memory refuses in
 * its reservation's slot is placed in another slot (or a new one) where it
 * fits now; it is left waiting only when it fits nowhere now. After every
 * pass the first queued job in priority order must not fit anywhere
 * (gang_check_placement, on through run_set_checking).
 *
 *   - the reproducer, worked out by hand below;
 *   - random runs: CONSERVATIVE x mem_aware {yes, GLOBAL (network RAM
 *     on or off)} x MPL {0, 2, 3, 4}, small machines where memory refuses many
 *     placements, the run's checks on, every job finished or impossible.
 */
#include "app/config.h"
#include "app/run.h"
#include "app/run_check.h"
#include "core/rng.h"
#include "tests/testrun.h"
#include "tests/testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Run the SWF text `trace` on `sets` with the run's checks on. Returns the
 * check failure (NULL: none; copied to a static buffer), the metrics in m
 * and jobs.csv's text in *csv (the caller frees it). */
static const char *run_text(const char *trace, const char *const *sets, run_metrics *m,
                            char **csv)
{
    static char fail[400];
    char path[] = "/tmp/pnrsim-test-backfill-mem-XXXXXX";
    tu_write_temp(path, trace);
    const char *base[] = {"process.comm_rate=0", "process.sync_rate=0",
                          "workload.cpu_demand=runtime", "scheduler.backfill=conservative",
                          NULL};
    config c;
    char err[CFG_ERR_MAX];
    tu_configure(&c, base, sets, path);
    size_t len = 0;
    FILE *jobs = open_memstream(csv, &len);
    run_t *r = run_create(&c, jobs, NULL, err);
    ck_assert_msg(r != NULL, "%s", err);
    run_set_checking(r, true);
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

/* Field `col` (0-based) of job id's row of jobs.csv text csv, into out. */
static void csv_field(const char *csv, long id, int col, char *out, size_t n)
{
    out[0] = '\0';
    for (const char *q = strchr(csv, '\n'); q && q[1]; q = strchr(q + 1, '\n')) {
        if (strtol(q + 1, NULL, 10) != id)
            continue;
        const char *p = q + 1;
        for (int i = 0; i < col && p; i++) {
            p = strchr(p, ',');
            if (p)
                p++;
        }
        ck_assert_ptr_nonnull(p);
        size_t k = strcspn(p, ",\n");
        ck_assert(k < n);
        memcpy(out, p, k);
        out[k] = '\0';
        return;
    }
    ck_abort_msg("job %ld has no row", id);
}

START_TEST(test_reproducer)
{
    /* 4 PEs of 32 MB, mem_aware yes, conservative, MPL 3, FCFS:
     *   J1 at 0: 3 PEs, 1000 s, no memory  -> slot 0, PEs 0-2
     *   J2 at 0: 1 PE, 30 s, 31 MB         -> slot 0, PE 3 (31 of 32 MB)
     *   J3 at 1: 2 PEs, 1000 s, no memory  -> slot 0 is full: new slot 1,
     *                                         PEs 0-1
     *   J4 at 2: 2 PEs, 10 s, 4 MB: slot 0 full; slot 1 has PEs 2 and 3
     *     free now (its profile reserves J4 now), but PE 3 has 1 MB left:
     *     memory refuses. A new slot (MPL 3 allows a third) has PEs 0-3
     *     free, and PEs 0 and 1 have 32 MB each: J4 fits there now, so it
     *     is placed at 2 in slot 2 on PEs 0-1 (the checker: a queued job
     *     that fits must be placed). Before the fix J4 stayed queued until
     *     J2's memory was freed at 30 and went to slot 1, PEs 2-3, and the
     *     checker failed at 2 ("queued job 4 ... fits but was not placed").
     * J4 ends at 131 (slots of 60 s quanta: 0 runs from 0, 1 from 60, 2
     * from 120), before any slot goes away (J1 and J3 run for 1000 s of
     * CPU), so jobs.csv's slot is still 2. */
    const char *trace = "1 0 -1 1000 3 1000 0 3 1000 -1 1 1 1 1 1 1 -1 -1\n"
                        "2 0 -1 30 1 30 31744 1 30 -1 1 1 1 1 1 1 -1 -1\n"
                        "3 1 -1 1000 2 1000 0 2 1000 -1 1 1 1 1 1 1 -1 -1\n"
                        "4 2 -1 10 2 10 4096 2 10 -1 1 1 1 1 1 1 -1 -1\n";
    const char *sets[] = {"computer.number=4", "computer.ram=32", "scheduler.mem_aware=yes",
                          "scheduler.mpl=3", "scheduler.priority=fcfs", NULL};
    run_metrics m;
    char *csv = NULL;
    const char *bad = run_text(trace, sets, &m, &csv);
    ck_assert_msg(bad == NULL, "%s", bad);
    ck_assert_int_eq(m.jobs_finished, 4);
    char slot[32], pes[32];
    /* job,submit,start,end,threads,wait,response,execution,slowdown,
     * bounded_slowdown,cpu_demand,memory_mb,page_faults,fault_time,
     * requested_time,state,reason,slot,pes */
    csv_field(csv, 4, 17, slot, sizeof slot);
    csv_field(csv, 4, 18, pes, sizeof pes);
    ck_assert_str_eq(slot, "2");
    ck_assert_str_eq(pes, "0-1");
    free(csv);
}
END_TEST

/* A random trace of n jobs on a small machine: 1-4 threads, 5-300 s, 0-30
 * MB per thread (a third without memory, a third above half a PE's RAM),
 * estimates 1x-3x, bursts of equal submits. */
static char *random_trace(uint64_t seed, int n)
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

START_TEST(test_random_conservative_memory)
{
    /* _i: mem_aware (yes, GLOBAL) x MPL (0, 2, 3, 4); 20 seeds of 40 jobs on
     * 4 PEs of 32 MB each (MPL 0: unlimited). GLOBAL: network RAM on for
     * odd seeds (it admits most jobs then), off for even ones (GLOBAL's
     * code, LOCAL's admissions: memory refuses placements). */
    static const int mpls[] = {0, 2, 3, 4};
    bool global = _i / 4;
    char mpl[32];
    snprintf(mpl, sizeof mpl, "scheduler.mpl=%d", mpls[_i % 4]);
    for (uint64_t seed = 1; seed <= 20; seed++) {
        const char *sets[] = {"computer.number=4",
                              "computer.ram=32",
                              "scheduler.quantum=20",
                              mpl,
                              global ? "scheduler.mem_aware=GLOBAL" : "scheduler.mem_aware=yes",
                              global && seed % 2 ? "netram.enabled=yes" : "netram.enabled=no",
                              "process.mem_access_rate=0.001",
                              "workload.estimate=requested",
                              NULL};
        char *trace = random_trace(seed + 100 * (uint64_t)_i, 40);
        run_metrics m;
        char *csv = NULL;
        const char *bad = run_text(trace, sets, &m, &csv);
        ck_assert_msg(bad == NULL, "%s %s seed %d: %s", sets[4], mpl, (int)seed, bad);
        ck_assert_int_eq(m.jobs_finished + m.jobs_impossible, 40);
        free(csv);
        free(trace);
    }
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("backfill_mem");
    TCase *tc = tcase_create("mem");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_reproducer);
    tcase_add_loop_test(tc, test_random_conservative_memory, 0, 8);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
