/* tests/test_pnr_strategy.c: the strategy interface (pnr/strategy_api.h)
 * from a strategy's side: a test strategy registered after the built-ins
 * (as a plugin would be) is told of threads and nodes, and sends control
 * messages of its own through the network model, with hand-worked times
 * on the small world of tests/fixture_pnr.h (an idle star: a message of b
 * bytes takes T(b) = 2 (LAT + b / BW) + DELAY between two PEs).
 */
#include "core/registry_host.h"
#include "app/components.h"
#include "pnr/strategy_api.h"
#include "tests/fixture_pnr.h"

static const double RAM100[NPE_MAX] = {100, 100, 100, 100, 100, 100, 100, 100};

/* What the test strategy saw. */
static struct seen {
    int started, ended, over, under;
    double ask, freed, over_mb, under_mb;
    int arrivals;
    double at[4];        /* arrival times */
    int from[4], to[4];
    double heard_at;     /* node 0's table: when it heard of node 1 */
} seen;

static void arrived(void *arg, pnr_host *h, int src, int dst)
{
    (void)arg;
    int k = seen.arrivals++;
    ck_assert_int_lt(k, 4);
    seen.at[k] = pnr_host_now(h);
    seen.from[k] = src;
    seen.to[k] = dst;
    if (k == 0) { /* at node 0: heard node 1's load as of the send */
        seen.heard_at = pnr_host_heard_at(h, 0, src);
        pnr_host_send(h, dst, src, PAGE, arrived, NULL); /* and back, a page */
    }
}

static int t_manager(void *state, pnr_host *h, const pnr_job *j, int node)
{
    (void)state, (void)h, (void)j, (void)node;
    return 0;
}

static void t_started(void *state, pnr_host *h, const pnr_job *j, int thread, int node,
                      double ask)
{
    (void)state, (void)thread;
    ck_assert_int_eq(pnr_job_thread_node(j, thread), node);
    seen.started++;
    seen.ask += ask;
    if (pnr_job_id(j) == 7)
        pnr_host_send(h, node, 0, pnr_host_control_bytes(h), arrived, NULL);
}

static void t_ended(void *state, pnr_host *h, const pnr_job *j, int thread, int node,
                    double freed)
{
    (void)state, (void)h, (void)j, (void)thread, (void)node;
    seen.ended++;
    seen.freed += freed;
}

static void t_over(void *state, pnr_host *h, int node, double mb)
{
    (void)state, (void)h;
    ck_assert_int_eq(node, 1);
    seen.over++;
    seen.over_mb = mb;
}

static void t_under(void *state, pnr_host *h, int node, double mb)
{
    (void)state, (void)h;
    ck_assert_int_eq(node, 1);
    seen.under++;
    seen.under_mb = mb;
}

static const pnr_strategy_ops test_ops = {
    .coordination = PNR_COORD_JOB,
    .broadcast = PNR_BROADCAST_NONE,
    .manager = t_manager,
    .thread_started = t_started,
    .thread_ended = t_ended,
    .overallocated = t_over,
    .underallocated = t_under,
};

static void register_test_strategy(void)
{
    components_init();
    pnrsim_registry_open(); /* as the loader does around an init */
    if (!pnrsim_find(PNRSIM_KIND_STRATEGY, "TESTSTRAT"))
        ck_assert_int_eq(pnrsim_register(pnrsim_registry_get(), PNRSIM_KIND_STRATEGY,
                                         "TESTSTRAT", "test", &test_ops), PNRSIM_OK);
}

START_TEST(test_builtins_registered)
{
    /* The report's four, in the old enum's order (a configuration's index
     * of a built-in is what it was), on the public ops. */
    components_init();
    const char *names[] = {"CENTRAL", "CLIENT", "MANAGER", "BACKBONE"};
    for (int i = 0; i < 4; i++) {
        const pnrsim_component *c = pnrsim_at(PNRSIM_KIND_STRATEGY, i);
        ck_assert_ptr_nonnull(c);
        ck_assert_str_eq(c->name, names[i]);
        const pnr_strategy_ops *o = c->ops;
        ck_assert_ptr_nonnull(o->manager);
        ck_assert_ptr_null(o->select_server);
    }
    const pnr_strategy_ops *client = pnrsim_find(PNRSIM_KIND_STRATEGY, "CLIENT")->ops;
    const pnr_strategy_ops *backbone = pnrsim_find(PNRSIM_KIND_STRATEGY, "BACKBONE")->ops;
    const pnr_strategy_ops *manager = pnrsim_find(PNRSIM_KIND_STRATEGY, "MANAGER")->ops;
    ck_assert(client->coordination == PNR_COORD_THREAD);
    ck_assert(backbone->broadcast == PNR_BROADCAST_MANAGERS);
    ck_assert(backbone->flags & PNR_STRATEGY_USES_MANAGERS);
    ck_assert(manager->broadcast == PNR_BROADCAST_ALL);
}
END_TEST

START_TEST(test_callbacks_and_messages)
{
    /* 2 PEs of 100 MB, the test strategy (manager: PE 0). t = 0: job 7, a
     * 110 MB thread on PE 1: started (asks 10), node 1 overallocated by
     * 10; the strategy's notice sends 64 bytes PE 1 -> PE 0 (posted before
     * the thread's REQUEST, so first on the links), arriving at T(64),
     * where PE 0 has heard PE 1's load as of t = 0 from it; PE 0 sends a
     * page back, which has the links to itself (the REPLY to the REQUEST,
     * behind it, leaves later) and arrives at T(64) + T(4096). PE 0 lends
     * the 10 MB. At the end the node gives back 10: ended (freed 10) and
     * underallocated by 10. */
    register_test_strategy();
    memset(&seen, 0, sizeof seen);
    world w;
    world_init(&w, 2, RAM100, 1e-5, "TESTSTRAT", NULL, 3);
    start_at(&w, 0, make_job(&w, 7, 1, (int[]){1}, 50, 110));
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(w.jobs_ended, 1);
    ck_assert_int_eq(seen.started, 1);
    ck_assert_near(seen.ask, 10, 1e-12);
    ck_assert_int_eq(seen.over, 1);
    ck_assert_near(seen.over_mb, 10, 1e-12);
    ck_assert_int_eq(seen.ended, 1);
    ck_assert_near(seen.freed, 10, 1e-12);
    ck_assert_int_eq(seen.under, 1);
    ck_assert_near(seen.under_mb, 10, 1e-12);
    ck_assert_int_eq(seen.arrivals, 2);
    ck_assert_int_eq(seen.from[0], 1);
    ck_assert_int_eq(seen.to[0], 0);
    ck_assert_near(seen.at[0], T_MSG(CTRL), 1e-12);
    ck_assert_double_eq(seen.heard_at, 0);
    ck_assert_int_eq(seen.from[1], 0);
    ck_assert_int_eq(seen.to[1], 1);
    ck_assert_near(seen.at[1], T_MSG(CTRL) + T_MSG(PAGE), 1e-12);
    const pnr_stats *st = pnr_get_stats(w.pnr);
    ck_assert_uint_eq(st->strategy_msgs, 2);
    ck_assert_double_eq(st->strategy_bytes, CTRL + PAGE);
    ck_assert_near(st->granted_mb, 10, 1e-12);
    assert_settled(w.pnr);
    world_free(&w);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("pnr_strategy");
    TCase *tc = tcase_create("strategy");
    tcase_add_test(tc, test_builtins_registered);
    tcase_add_test(tc, test_callbacks_and_messages);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
