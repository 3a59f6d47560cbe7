/* tests/test_combos.c: every combination of the simulator core's modes
 * (issue 23 part 4) runs to the end with the run's own checks on:
 *   process.paging {EXACT, BATCHED} x network.route {HOPS, WHOLE}
 *   x topology {STAR, BUS, WHEEL, CONNECTED, TREE, TREE + memory servers}
 *   x scheduler.mpl {1, 2, 3}
 *   x strategy {disk only, CENTRAL, CLIENT, MANAGER, BACKBONE}
 * = 360 runs. Every combination is accepted by config_validate (none is
 * refused today; a refused one would have to give a message, checked
 * here too), and each run must finish every job with the scheduler's
 * invariants and network RAM's conservation checked at every step
 * (run_set_checking), nothing left lent, held or in transit, and, with
 * network RAM, remote faults and messages on the network.
 *
 * The scenario is a small stress: 40 jobs of 1-6 threads with 8-96 MB
 * each on 12 PEs of 64 MB (PEs overcommitted at MPL >= 2, some RAM to
 * lend), quanta of 2 s, neighbour messages every 0.5 CPU s and
 * synchronisations every 2 CPU s, R = 3e-5 s, and a slow network (links
 * 1 MB/s, TREE racks of 4 with 0.2 MB/s uplinks), so that messages,
 * pages and reservations contend: the TREE + WHOLE + BATCHED + network
 * RAM runs are where a walker queued behind a reservation made during its
 * wait for virtual crossings (net/whole.c whole_wait_behind) aborted before.
 * A run takes a few tens of milliseconds.
 */
#include "app/config.h"
#include "app/run.h"
#include "app/run_check.h"
#include "core/rng.h"
#include "pnr/check.h" /* private: pnr_totals */
#include "pnr/pnr_check.h"
#include "pnr/pnr.h"
#include "tests/testutil.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

enum { NJOBS = 40 };

static char trace_path[] = "/tmp/pnrsim-test-combos-XXXXXX";

/* NJOBS jobs of 1-6 threads, 1-20 s of CPU (a quarter 1-20 ms), 8-96 MB
 * per thread, arrivals every 2 s on average (seeded: the same file every
 * time). */
static void write_trace(void)
{
    int fd = mkstemp(trace_path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    ck_assert_ptr_nonnull(f);
    rng_t *r = rng_stream(23, "trace", 0);
    double submit = 0;
    for (int i = 1; i <= NJOBS; i++) {
        int procs = 1 + (int)rng_index(r, 6);
        double cpu = (1 + (int)rng_index(r, 20)) * (rng_index(r, 4) == 0 ? 0.001 : 1);
        int mem_kb = (8 + (int)rng_index(r, 89)) * 1024;
        fprintf(f, "%d %.0f 0 %g %d %g %d %d -1 -1 1 1 1 1 1 1 -1 -1\n", i, submit, cpu, procs,
                cpu, mem_kb, procs);
        submit += floor(rng_exp(r, 2));
    }
    rng_free(r);
    fclose(f);
}

static pnr_t *created;
static void on_created(pnr_t *p, void *ctx)
{
    (void)ctx;
    created = p;
}

static const char *const pagings[] = {"EXACT", "BATCHED"};
static const char *const routes[] = {"HOPS", "WHOLE"};
static const char *const topos[] = {"STAR", "BUS", "WHEEL", "CONNECTED", "TREE", "TREE"};
static const char *const strategies[] = {NULL, "CENTRAL", "CLIENT", "MANAGER", "BACKBONE"};
#define NTOPO 6

static void set(config *c, const char *kv, const char *what)
{
    char err[CFG_ERR_MAX];
    ck_assert_msg(config_set(c, kv, err) == 0, "%s: %s: %s", what, kv, err);
}

/* One combination: topology index t (5 = TREE with two memory servers),
 * paging p, route w, MPL mpl, strategy s (0 = network RAM off). */
static void combo_run(int t, int p, int w, int mpl, int s)
{
    char what[160], kv[CFG_PATH_MAX + 32], err[CFG_ERR_MAX];
    snprintf(what, sizeof what, "%s%s %s %s MPL %d %s", topos[t], t == 5 ? "+servers" : "",
             pagings[p], routes[w], mpl, strategies[s] ? strategies[s] : "disk");
    config c;
    config_defaults(&c);
    static const char *const base[] = {
        "computer.number=12", "computer.ram=64", "scheduler.quantum=2", "scheduler.pcs=0.01",
        "process.comm_rate=0.5", "process.sync_rate=2", "process.mem_access_rate=0.00003",
        "network.bandwidth=1", "network.rack_size=4", "network.uplink_bandwidth=0.2",
        "simulation.seed=5", NULL};
    for (int i = 0; base[i]; i++)
        set(&c, base[i], what);
    snprintf(kv, sizeof kv, "workload.trace=%s", trace_path);
    set(&c, kv, what);
    snprintf(kv, sizeof kv, "network.topology=%s", topos[t]);
    set(&c, kv, what);
    snprintf(kv, sizeof kv, "process.paging=%s", pagings[p]);
    set(&c, kv, what);
    snprintf(kv, sizeof kv, "network.route=%s", routes[w]);
    set(&c, kv, what);
    snprintf(kv, sizeof kv, "scheduler.mpl=%d", mpl);
    set(&c, kv, what);
    if (t == 5) {
        set(&c, "computer.memory_servers=2", what);
        set(&c, "computer.memory_server_ram=128", what);
    }
    if (strategies[s]) {
        set(&c, "netram.enabled=yes", what);
        snprintf(kv, sizeof kv, "netram.strategy=%s", strategies[s]);
        set(&c, kv, what);
        if (s == 4)
            set(&c, "netram.managers=3", what);
    }
    if (config_validate(&c, err) != 0) {
        /* Refused: then with a message (none is refused today). */
        ck_assert_msg(err[0] != '\0', "%s: refused without a message", what);
        ck_abort_msg("%s: refused: %s", what, err);
    }
    created = NULL;
    pnr_set_create_hook(on_created, NULL);
    run_t *r = run_create(&c, NULL, NULL, err);
    ck_assert_msg(r != NULL, "%s: %s", what, err);
    run_set_checking(r, true);
    ck_assert_msg(run_execute(r, err) == 0, "%s: %s", what, err);
    ck_assert_msg(run_check_failure(r) == NULL, "%s: %s", what, run_check_failure(r));
    run_metrics m;
    run_metrics_get(r, &m);
    ck_assert_msg(m.jobs_finished == NJOBS && m.jobs_unfinished == 0, "%s: %ld finished", what,
                  m.jobs_finished);
    if (getenv("COMBOS_VERBOSE"))
        printf("%-40s t %10.2f disk %8llu remote %8llu msgs %8llu killed %6llu ev %9llu\n", what,
               m.total_time, (unsigned long long)m.page_faults_disk,
               (unsigned long long)m.page_faults_remote, (unsigned long long)m.net_messages,
               (unsigned long long)m.messages_killed, (unsigned long long)m.events);
    if (strategies[s]) { /* (with memory servers, maybe no disk faults) */
        ck_assert_ptr_nonnull(created);
        ck_assert_msg(pnr_check_failure(created) == NULL, "%s: %s", what,
                      pnr_check_failure(created));
        double lent, held, transit;
        pnr_totals(created, &lent, &held, &transit);
        ck_assert_msg(fabs(lent) < 1e-6 && fabs(held) < 1e-6 && fabs(transit) < 1e-6,
                      "%s: lent %g held %g transit %g at the end", what, lent, held, transit);
        ck_assert_msg(m.page_faults_remote > 0, "%s: no remote faults", what);
    } else {
        ck_assert_msg(m.page_faults_disk > 0, "%s: no disk faults", what);
        ck_assert_uint_eq(m.page_faults_remote, 0);
    }
    ck_assert_msg(m.net_messages > 0 && m.neighbour_msgs > 0 && m.sync_msgs > 0,
                  "%s: no messages", what);
    run_destroy(r);
    pnr_set_create_hook(NULL, NULL);
    created = NULL;
}

/* One test per topology: 2 x 2 x 3 x 5 = 60 runs. */
START_TEST(test_combos)
{
    write_trace();
    for (int p = 0; p < 2; p++)
        for (int w = 0; w < 2; w++)
            for (int mpl = 1; mpl <= 3; mpl++)
                for (int s = 0; s < 5; s++)
                    combo_run(_i, p, w, mpl, s);
    unlink(trace_path);
    memcpy(trace_path + strlen(trace_path) - 6, "XXXXXX", 6);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("combos");
    TCase *tc = tcase_create("combos");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_combos, 0, NTOPO);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
