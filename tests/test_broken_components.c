/* tests/test_broken_components.c: a component whose answers break its
 * kind's contract stops the run with exit status 2 and a message naming it
 * (issue 34; a plugin's code is not trusted to keep the rules). Each case
 * registers a broken component as a plugin would, after components_init,
 * and runs a tiny scenario in a forked test that must exit 2:
 *   NAN_ORDER      a queue order whose key is NaN (sched/order.h: a number)
 *   BAD_MANAGER    a strategy whose manager() answers node 99 of 4
 *   BAD_MANAGERS   a strategy broadcasting to its managers, with managers()
 *                  giving node -1
 *   PLACE_TWICE    a backfilling policy that places the first queued job and
 *                  then asks to place it again (sched/reserve.h: a waiting job)
 *   BAD_SLOT       a backfilling policy asking the free cores of slot 99
 *   EVEN_CORES     an allocation that, under node_sharing EXCLUSIVE with 2
 *                  cores per node, puts a 2-thread job on the first core of
 *                  two nodes (2 nodes where ceil(2 / 2) = 1 is the rule)
 * and, as the control, the same scenario with the built-ins exits 0 (run in
 * the test process: no exit at all). Beside them, a strategy that keeps the
 * rules and sends a message of its own (pnr_host_send, 100 bytes to node
 * 0) at each thread's start: 3 threads start (job 1's 2, job 2's 1), so the
 * run's pnr_strategy_msgs is 3 and pnr_strategy_bytes 300 (metrics.json
 * then has them).
 */
#include "app/components.h"
#include "app/config.h"
#include "core/registry_host.h"
#include "app/run.h"
#include "app/run_metrics.h"
#include "pnr/strategy_api.h"
#include "sched/allocation.h"
#include "sched/order.h"
#include "sched/reserve.h"
#include "tests/testutil.h"

#include <stdio.h>
#include <unistd.h>

static char trace_path[64];

/* ---- the broken components ---- */

static double nan_key(void *s, const sched_job_info *j, double now)
{
    (void)s, (void)j, (void)now;
    return NAN;
}
static const sched_order_ops nan_order = {.key = nan_key};

static int bad_manager(void *s, pnr_host *h, const pnr_job *j, int node)
{
    (void)s, (void)h, (void)j, (void)node;
    return 99;
}
static const pnr_strategy_ops bad_manager_ops = {
    .coordination = PNR_COORD_JOB, .broadcast = PNR_BROADCAST_NONE, .manager = bad_manager};

static int zero_manager(void *s, pnr_host *h, const pnr_job *j, int node)
{
    (void)s, (void)h, (void)j, (void)node;
    return 0;
}
static int minus_one(void *s, int *out)
{
    (void)s;
    out[0] = -1;
    return 1;
}
static const pnr_strategy_ops bad_managers_ops = {.coordination = PNR_COORD_JOB,
                                                  .broadcast = PNR_BROADCAST_MANAGERS,
                                                  .managers = minus_one,
                                                  .manager = zero_manager};

/* The first core of each of the first nodes: thread t on core 2 t. */
static int even_cores(void *s, const sched_alloc_job *j, const sched_alloc_view *v, int *pe)
{
    (void)s, (void)v;
    for (int t = 0; t < j->threads; t++)
        pe[t] = 2 * t;
    return 0;
}
static const sched_alloc_ops even_ops = {.choose = even_cores};

static void chatty_started(void *s, pnr_host *h, const pnr_job *j, int thread, int node,
                           double ask_mb)
{
    (void)s, (void)j, (void)thread, (void)ask_mb;
    pnr_host_send(h, node, 0, 100, NULL, NULL);
}
static const pnr_strategy_ops chatty_ops = {.coordination = PNR_COORD_JOB,
                                            .broadcast = PNR_BROADCAST_NONE,
                                            .manager = zero_manager,
                                            .thread_started = chatty_started};

static void twice_pass(void *s, sched_host *h, sched_job *const *q, size_t n, double now)
{
    (void)s, (void)now;
    if (n > 0 && sched_host_place(h, q[0], -1, -1, true))
        sched_host_place(h, q[0], -1, -1, true);
}
static const sched_reserve_ops twice_ops = {.on_pass = twice_pass};

static void bad_slot_pass(void *s, sched_host *h, sched_job *const *q, size_t n, double now)
{
    (void)s, (void)q, (void)n, (void)now;
    (void)sched_host_slot_free(h, 99);
}
static const sched_reserve_ops bad_slot_ops = {.on_pass = bad_slot_pass};

static void register_all(void)
{
    components_init();
    pnrsim_registry *r = pnrsim_registry_get();
    if (pnrsim_find(PNRSIM_KIND_PRIORITY, "NAN_ORDER"))
        return;
    pnrsim_registry_open(); /* as the loader does around a plugin's init */
    ck_assert_int_eq(pnrsim_register(r, PNRSIM_KIND_PRIORITY, "NAN_ORDER", "t", &nan_order), 0);
    ck_assert_int_eq(
        pnrsim_register(r, PNRSIM_KIND_STRATEGY, "BAD_MANAGER", "t", &bad_manager_ops), 0);
    ck_assert_int_eq(
        pnrsim_register(r, PNRSIM_KIND_STRATEGY, "BAD_MANAGERS", "t", &bad_managers_ops), 0);
    ck_assert_int_eq(pnrsim_register(r, PNRSIM_KIND_ALLOCATION, "EVEN_CORES", "t", &even_ops),
                     0);
    ck_assert_int_eq(pnrsim_register(r, PNRSIM_KIND_STRATEGY, "CHATTY", "t", &chatty_ops), 0);
    ck_assert_int_eq(pnrsim_register(r, PNRSIM_KIND_BACKFILL, "PLACE_TWICE", "t", &twice_ops), 0);
    ck_assert_int_eq(pnrsim_register(r, PNRSIM_KIND_BACKFILL, "BAD_SLOT", "t", &bad_slot_ops), 0);
    pnrsim_registry_close();
}

static void set(config *c, const char *kv)
{
    char err[CFG_ERR_MAX];
    ck_assert_msg(config_set(c, kv, err) == 0, "%s: %s", kv, err);
}

/* 4 nodes of 2 cores and 100 MB; job 1 (2 threads, 10 s, 150 MB each: 50
 * MB overallocated per node under SHARED) at 0, job 2 (1 thread) at 1;
 * network RAM on; then the settings kv[0..n). Returns run_execute's
 * status (a broken component exits before). */
static run_metrics last;

static int run_with(const char *const *kv, int n)
{
    strcpy(trace_path, "/tmp/pnrsim-test-broken-XXXXXX");
    int fd = mkstemp(trace_path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "1 0 0 10 2 10 153600 2 -1 -1 1 1 1 1 1 1 -1 -1\n");
    fprintf(f, "2 1 0 10 1 10 -1 1 -1 -1 1 1 1 1 1 1 -1 -1\n");
    fclose(f);
    register_all();
    config c;
    config_defaults(&c);
    char err[CFG_ERR_MAX], kv0[CFG_PATH_MAX + 32];
    set(&c, "computer.number=8");
    set(&c, "computer.cores_per_node=2");
    set(&c, "computer.ram=100");
    set(&c, "netram.enabled=yes");
    snprintf(kv0, sizeof kv0, "workload.trace=%s", trace_path);
    set(&c, kv0);
    for (int i = 0; i < n; i++)
        set(&c, kv[i]);
    ck_assert_msg(config_validate(&c, err) == 0, "%s", err);
    run_t *r = run_create(&c, NULL, NULL, err);
    ck_assert_msg(r != NULL, "%s", err);
    int rc = run_execute(r, err);
    run_metrics_get(r, &last);
    run_destroy(r);
    unlink(trace_path);
    return rc;
}

START_TEST(test_control)
{
    static const char *const kv[] = {"scheduler.backfill=EASY"};
    ck_assert_int_eq(run_with(kv, 1), 0);
}
END_TEST

START_TEST(test_chatty_counted)
{
    static const char *const kv[] = {"netram.strategy=CHATTY"};
    ck_assert_int_eq(run_with(kv, 1), 0);
    ck_assert_uint_eq(last.pnr_strategy_msgs, 3);
    ck_assert_double_eq(last.pnr_strategy_bytes, 300);
}
END_TEST

START_TEST(test_nan_key)
{
    static const char *const kv[] = {"scheduler.priority=NAN_ORDER"};
    run_with(kv, 1);
}
END_TEST

START_TEST(test_bad_manager)
{
    static const char *const kv[] = {"netram.strategy=BAD_MANAGER"};
    run_with(kv, 1);
}
END_TEST

START_TEST(test_bad_managers)
{
    static const char *const kv[] = {"netram.strategy=BAD_MANAGERS"};
    run_with(kv, 1);
}
END_TEST

START_TEST(test_place_twice)
{
    static const char *const kv[] = {"scheduler.backfill=PLACE_TWICE"};
    run_with(kv, 1);
}
END_TEST

START_TEST(test_bad_slot)
{
    static const char *const kv[] = {"scheduler.backfill=BAD_SLOT"};
    run_with(kv, 1);
}
END_TEST

START_TEST(test_even_cores)
{
    static const char *const kv[] = {"scheduler.node_sharing=EXCLUSIVE",
                                     "scheduler.allocation=EVEN_CORES"};
    run_with(kv, 2);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("broken_components");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_control);
    tcase_add_test(tc, test_chatty_counted);
    tcase_add_exit_test(tc, test_nan_key, 2);
    tcase_add_exit_test(tc, test_bad_manager, 2);
    tcase_add_exit_test(tc, test_bad_managers, 2);
    tcase_add_exit_test(tc, test_place_twice, 2);
    tcase_add_exit_test(tc, test_bad_slot, 2);
    tcase_add_exit_test(tc, test_even_cores, 2);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
