/* tests/test_pnr_strategy_ops.c: what a strategy may decide and do beyond
 * choosing managers and servers (pnr/strategy_api.h, issue 34 item 3):
 * answer a server's grant (server_grant), place a remote fault
 * (fault_server), hear the protocol's control messages (message_arrived),
 * release a node's network RAM (pnr_host_release) and reclaim a donor's
 * (pnr_host_reclaim). Hand-worked cases on the small world of
 * tests/fixture_pnr.h (an idle star: a message of b bytes takes T(b) =
 * 2 (LAT + b / BW) + DELAY between two PEs, at once to the sender's own
 * PE); netram.server_threshold is 0.1 MB unless set.
 *
 * One test strategy, OPSTEST: node 0 manages every round (a job's threads
 * meet in one round), no broadcast; what its ops do is set per test in
 * `want` below; by default server_grant lends the host's default and
 * fault_server leaves the fault to the host's draw (-1). OPSNULL is the
 * same strategy without the three new ops.
 */
#include "app/components.h"
#include "core/registry_host.h"
#include "pnr/strategy_api.h"
#include "tests/fixture_pnr.h"

/* What the test strategy does (set before world_init). */
static struct want {
    int deny;            /* server_grant denies this node (-1: none) */
    double grant_extra;  /* MB added to the default (> 0: out of range) */
    int fault_to;        /* fault_server's answer (-1: the host's draw) */
    bool release_in_grant; /* calls pnr_host_release inside server_grant */
    int on_reply;        /* at the REPLY's arrival: 0 nothing, 1 release 20
                          * MB of node 1, 2 reclaim 20 then 1000 MB at node 2,
                          * 3 reclaim 20 MB at node 2 */
} want;

/* What it saw. */
#define NSEEN 16
static struct seen {
    int grants;
    int g_server[4], g_manager[4];
    double g_need[4], g_dflt[4];
    uint64_t fault_calls;
    double held01, held02;       /* at the first fault_server call */
    int msgs;
    pnr_ctrl_kind kind[NSEEN];
    int src[NSEEN], dst[NSEEN];
    double bytes[NSEEN], mb[NSEEN], at[NSEEN], lent2[NSEEN];
    double released[2], reclaimed[2];
    double lent2_after_act, held12_after_act; /* right after on_reply's act */
    uint64_t reclaim_events;
    double reclaim_mb, reclaim_pages;
    int ended;
    double freed, lent1_at_end, lent2_at_end;
} seen;

static int t_manager(void *state, pnr_host *h, const pnr_job *j, int node)
{
    (void)state, (void)h, (void)j, (void)node;
    return 0;
}

static double t_grant(void *state, pnr_host *h, int server, int manager, double need,
                      double dflt)
{
    (void)state;
    int k = seen.grants++;
    if (k < 4) {
        seen.g_server[k] = server;
        seen.g_manager[k] = manager;
        seen.g_need[k] = need;
        seen.g_dflt[k] = dflt;
    }
    if (want.release_in_grant)
        pnr_host_release(h, 1, 1);
    if (server == want.deny)
        return 0;
    return dflt + want.grant_extra;
}

static int t_fault(void *state, pnr_host *h, int node)
{
    (void)state;
    if (seen.fault_calls++ == 0) {
        seen.held01 = pnr_host_held_mb(h, node, 1);
        seen.held02 = pnr_host_held_mb(h, node, 2);
    }
    return want.fault_to;
}

static void t_arrived(void *state, pnr_host *h, pnr_ctrl_kind kind, int src, int dst,
                      double bytes, double mb)
{
    (void)state;
    int k = seen.msgs++;
    if (k < NSEEN) {
        seen.kind[k] = kind;
        seen.src[k] = src;
        seen.dst[k] = dst;
        seen.bytes[k] = bytes;
        seen.mb[k] = mb;
        seen.at[k] = pnr_host_now(h);
        seen.lent2[k] = pnr_host_nodes(h) > 2 ? pnr_host_lent_mb(h, 2) : 0;
    }
    if (kind == PNR_CTRL_REPLY && want.on_reply) {
        if (want.on_reply == 1) {
            seen.released[0] = pnr_host_release(h, 1, 20);
        } else {
            seen.reclaimed[0] = pnr_host_reclaim(h, 2, 20);
            if (want.on_reply == 2)
                seen.reclaimed[1] = pnr_host_reclaim(h, 2, 1000);
        }
        seen.lent2_after_act = pnr_host_lent_mb(h, 2);
        seen.held12_after_act = pnr_host_held_mb(h, 1, 2);
        want.on_reply = 0; /* once (a REPLACE request's REPLY comes later) */
    }
    /* The first release's FREE is acknowledged: the node gives back the
     * rest (asking for far more than it holds). */
    if (kind == PNR_CTRL_ACK && seen.released[0] > 0 && seen.released[1] == 0)
        seen.released[1] = pnr_host_release(h, 1, 1000);
}

static void t_ended(void *state, pnr_host *h, const pnr_job *j, int thread, int node,
                    double freed)
{
    (void)state, (void)j, (void)thread, (void)node;
    seen.ended++;
    seen.freed = freed;
    seen.lent1_at_end = pnr_host_lent_mb(h, 1);
    seen.lent2_at_end = pnr_host_nodes(h) > 2 ? pnr_host_lent_mb(h, 2) : 0;
}

static const pnr_strategy_ops opstest_ops = {
    .coordination = PNR_COORD_JOB,
    .broadcast = PNR_BROADCAST_NONE,
    .manager = t_manager,
    .thread_ended = t_ended,
    .fault_server = t_fault,
    .message_arrived = t_arrived,
    .server_grant = t_grant,
};

static const pnr_strategy_ops opsnull_ops = {
    .coordination = PNR_COORD_JOB,
    .broadcast = PNR_BROADCAST_NONE,
    .manager = t_manager,
};

/* Register the two strategies, reset what they saw and the defaults. */
static void setup(void)
{
    components_init();
    if (!pnrsim_find(PNRSIM_KIND_STRATEGY, "OPSTEST")) {
        pnrsim_registry_open(); /* as the loader does around a plugin's init */
        ck_assert_int_eq(pnrsim_register(pnrsim_registry_get(), PNRSIM_KIND_STRATEGY,
                                         "OPSTEST", "test", &opstest_ops), PNRSIM_OK);
        ck_assert_int_eq(pnrsim_register(pnrsim_registry_get(), PNRSIM_KIND_STRATEGY,
                                         "OPSNULL", "test", &opsnull_ops), PNRSIM_OK);
        pnrsim_registry_close();
    }
    memset(&seen, 0, sizeof seen);
    want = (struct want){.deny = -1, .fault_to = -1};
}

static const double RAM_A[NPE_MAX] = {100, 100, 90};
static const double RAM_B[NPE_MAX] = {100, 100, 100};
static const double RAM_C[NPE_MAX] = {50, 100, 100};

/* A denial moves the round on. 3 PEs of 100, 100 and 90 MB; a thread of
 * 110 MB on PE 0 asks for 10 MB (its REQUEST to itself arrives at once).
 * Manager 0's table: itself 0 MB free (the truth), PE 1 100 and PE 2 90
 * (never heard: installed RAM), so worst fit asks PE 1 first, with no
 * tie: server_grant(1, 0, need 10, default min(10, 100 - 0.1) = 10).
 * Denied, the GRANT of 0 comes back after 2 T(64) and the manager asks
 * PE 2: server_grant(2, 0, 10, 10), lent; its GRANT after 2 T(64) more
 * and the REPLY to itself at once: the thread waited 4 T(64). PE 2 lends
 * the 10 MB (PE 1 nothing), and every remote fault goes to PE 2. Without
 * the denial (deny = -1): one ASK, PE 1 lends, the wait is 2 T(64). */
START_TEST(test_grant_denied_goes_to_next)
{
    for (int deny = 1; deny >= -1; deny -= 2) {
        setup();
        want.deny = deny;
        world w;
        world_init(&w, 3, RAM_A, 1e-5, "OPSTEST", NULL, 3);
        start_at(&w, 0, make_job(&w, 1, 1, (int[]){0}, 50, 110));
        ev_run(&w.sim, INFINITY);
        ck_assert_int_eq(w.jobs_ended, 1);
        const pnr_stats *st = pnr_get_stats(w.pnr);
        int lender = deny == 1 ? 2 : 1;
        ck_assert_int_eq(seen.grants, deny == 1 ? 2 : 1);
        ck_assert_int_eq(seen.g_server[0], 1);
        ck_assert_int_eq(seen.g_manager[0], 0);
        ck_assert_double_eq(seen.g_need[0], 10);
        ck_assert_double_eq(seen.g_dflt[0], 10);
        if (deny == 1) {
            ck_assert_int_eq(seen.g_server[1], 2);
            ck_assert_int_eq(seen.g_manager[1], 0);
            ck_assert_double_eq(seen.g_need[1], 10);
            ck_assert_double_eq(seen.g_dflt[1], 10);
        }
        ck_assert_uint_eq(sent(&w, PNR_MSG_ASK), deny == 1 ? 2 : 1);
        ck_assert_uint_eq(sent(&w, PNR_MSG_GRANT), deny == 1 ? 2 : 1);
        ck_assert_near(w.rec[1].waited_alloc, (deny == 1 ? 4 : 2) * T_MSG(CTRL), 1e-12);
        /* At the thread's end, before the FREE: the lender holds 10. */
        ck_assert_int_eq(seen.ended, 1);
        ck_assert_double_eq(seen.lent1_at_end, lender == 1 ? 10 : 0);
        ck_assert_double_eq(seen.lent2_at_end, lender == 2 ? 10 : 0);
        ck_assert_double_eq(st->granted_mb, 10);
        ck_assert_uint_eq(st->satisfied, 1);
        ck_assert_uint_gt(st->remote_faults, 0);
        ck_assert_uint_eq(received(&w, lender, PNR_MSG_PAGE_OUT), st->remote_faults);
        ck_assert_uint_eq(received(&w, 3 - lender, PNR_MSG_PAGE_OUT), 0);
        assert_settled(w.pnr);
        world_free(&w);
    }
}
END_TEST

/* 3 PEs of 100 MB, netram.server_threshold = 75 (a server lends at most
 * 25), worst fit with ties to the lowest PE. A thread of 150 MB on PE 0
 * asks for 50: PE 1 lends 25, then PE 2 the other 25; the node holds 25
 * at each, all its overallocation (share 50/50 = 1: every fault is
 * remote, none on the disk). Run with the seed and the strategy given,
 * and return the world (ended) for the test to read. */
static void run_two_servers(world *w, const char *strategy)
{
    world_init(w, 3, RAM_B, 2e-5, strategy,
               (const char *[]){"netram.server_threshold=75", "netram.server_selection=WORSTFIT",
                                NULL}, 5);
    start_at(w, 0, make_job(w, 1, 1, (int[]){0}, 50, 150));
    ev_run(&w->sim, INFINITY);
    ck_assert_int_eq(w->jobs_ended, 1);
    ck_assert_uint_gt(w->cl.pes[0].faults, 300);
    ck_assert_uint_eq(w->cl.pes[0].disk_faults, 0);
    ck_assert_uint_eq(w->cl.pes[0].remote_faults, w->cl.pes[0].faults);
}

/* fault_server = 2: every remote fault goes to PE 2, none to PE 1 (which
 * holds as much); fault_server is called once per remote fault (after the
 * draw that sent it to the network) and sees 25 MB held at each. */
START_TEST(test_fault_server_fixed)
{
    setup();
    want.fault_to = 2;
    world w;
    run_two_servers(&w, "OPSTEST");
    uint64_t n = w.cl.pes[0].remote_faults;
    ck_assert_uint_eq(seen.fault_calls, n);
    ck_assert_double_eq(seen.held01, 25);
    ck_assert_double_eq(seen.held02, 25);
    ck_assert_uint_eq(received(&w, 2, PNR_MSG_PAGE_OUT), n);
    ck_assert_uint_eq(received(&w, 1, PNR_MSG_PAGE_OUT), 0);
    ck_assert_uint_eq(received(&w, 0, PNR_MSG_PAGE_IN), n);
    assert_settled(w.pnr);
    world_free(&w);
}
END_TEST

/* fault_server = -1 is the host's draw, exactly: with the same seed, the
 * faults go to the same servers as under a strategy without fault_server
 * (both servers get some, in proportion 25 : 25), fault by fault. */
START_TEST(test_fault_server_default_draw)
{
    setup();
    world w;
    run_two_servers(&w, "OPSTEST");
    uint64_t n = w.cl.pes[0].remote_faults, to1 = received(&w, 1, PNR_MSG_PAGE_OUT),
             to2 = received(&w, 2, PNR_MSG_PAGE_OUT);
    double end = w.rec[1].end;
    ck_assert_uint_eq(seen.fault_calls, n);
    ck_assert_uint_eq(to1 + to2, n);
    ck_assert_uint_gt(to1, 0);
    ck_assert_uint_gt(to2, 0);
    world_free(&w);
    setup();
    run_two_servers(&w, "OPSNULL");
    ck_assert_uint_eq(seen.fault_calls, 0);
    ck_assert_uint_eq(w.cl.pes[0].remote_faults, n);
    ck_assert_uint_eq(received(&w, 1, PNR_MSG_PAGE_OUT), to1);
    ck_assert_uint_eq(received(&w, 2, PNR_MSG_PAGE_OUT), to2);
    ck_assert_double_eq(w.rec[1].end, end);
    world_free(&w);
}
END_TEST

/* One allocation and one deallocation round, heard message by message.
 * 3 PEs of 50, 100 and 100 MB; a thread of 110 MB on PE 1 (job 7) asks
 * for 10. Manager 0's table at the ASK: itself 50 (the truth), PE 1 0
 * (heard with the REQUEST), PE 2 100 (installed): PE 2, no tie.
 *   1 REQUEST 1 -> 0   64 B  10 MB  at T(64)
 *   2 ASK     0 -> 2   64 B  10 MB  at 2 T(64) (heard after PE 2 lent 10)
 *   3 GRANT   2 -> 0   64 B  10 MB  at 3 T(64)
 *   4 REPLY   0 -> 1   76 B  10 MB  at 3 T(64) + T(76) (one piece: 64 + 12)
 * then at the thread's end (time t):
 *   5 DEALLOC 1 -> 0   76 B  10 MB  at t + T(76)
 *   6 FREE    0 -> 2   64 B  10 MB  at t + T(76) + T(64) (after: PE 2 lends 0)
 *   7 ACK     2 -> 0   64 B  10 MB  at t + T(76) + 2 T(64)
 * 7 messages, 472 bytes: none of the page messages of the thread's remote
 * faults is reported. */
START_TEST(test_message_arrived_one_round)
{
    setup();
    world w;
    world_init(&w, 3, RAM_C, 1e-5, "OPSTEST", NULL, 3);
    start_at(&w, 0, make_job(&w, 7, 1, (int[]){1}, 50, 110));
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(w.jobs_ended, 1);
    static const pnr_ctrl_kind kind[7] = {PNR_CTRL_REQUEST, PNR_CTRL_ASK,     PNR_CTRL_GRANT,
                                          PNR_CTRL_REPLY,   PNR_CTRL_DEALLOC, PNR_CTRL_FREE,
                                          PNR_CTRL_ACK};
    static const int src[7] = {1, 0, 2, 0, 1, 0, 2}, dst[7] = {0, 2, 0, 1, 0, 2, 0};
    static const double bytes[7] = {64, 64, 64, 76, 76, 64, 64};
    static const double lent2[7] = {0, 10, 10, 10, 10, 0, 0};
    ck_assert_int_eq(seen.msgs, 7);
    double total = 0;
    for (int k = 0; k < 7; k++) {
        ck_assert_msg(seen.kind[k] == kind[k], "message %d: kind %d", k, (int)seen.kind[k]);
        ck_assert_int_eq(seen.src[k], src[k]);
        ck_assert_int_eq(seen.dst[k], dst[k]);
        ck_assert_double_eq(seen.bytes[k], bytes[k]);
        ck_assert_near(seen.mb[k], 10, 1e-12);
        ck_assert_near(seen.lent2[k], lent2[k], 1e-12);
        total += seen.bytes[k];
    }
    ck_assert_double_eq(total, 472);
    double t = T_MSG(CTRL);
    ck_assert_near(seen.at[0], t, 1e-12);
    ck_assert_near(seen.at[1], 2 * t, 1e-12);
    ck_assert_near(seen.at[2], 3 * t, 1e-12);
    ck_assert_near(seen.at[3], 3 * t + T_MSG(CTRL + 12), 1e-12);
    ck_assert_near(seen.at[5] - seen.at[4], t, 1e-12);
    ck_assert_near(seen.at[6] - seen.at[5], t, 1e-12);
    ck_assert_uint_gt(pnr_get_stats(w.pnr)->remote_faults, 0);
    assert_settled(w.pnr);
    world_free(&w);
}
END_TEST

/* pnr_host_release. 3 PEs of 50, 100 and 100 MB, no faults (access rate
 * 0). A thread of 150 MB on PE 1 asks for 50: PE 2 lends 50 (worst fit,
 * as above; default grant min(50, 100 - 0.1)). At the REPLY the strategy
 * has node 1 release 20: 20 given back at once (the node holds 30 at PE
 * 2), PE 2 still lends 50 until the FREE of 20 arrives (then 30). At that
 * FREE's ACK it releases 1000: 30 (all it holds); after the second FREE
 * PE 2 lends 0. The thread's end frees nothing more (freed 0). Three
 * deallocation rounds: the two releases' and the job's (an empty notice);
 * two FREEs. The same under release ALL (the thread's own grant). */
START_TEST(test_release)
{
    const char *rel[2] = {"netram.release=EXCESS", "netram.release=ALL"};
    for (int i = 0; i < 2; i++) {
        setup();
        want.on_reply = 1;
        world w;
        world_init(&w, 3, RAM_C, 0, "OPSTEST", (const char *[]){rel[i], NULL}, 3);
        start_at(&w, 0, make_job(&w, 1, 1, (int[]){1}, 50, 150));
        ev_run(&w.sim, INFINITY);
        ck_assert_int_eq(w.jobs_ended, 1);
        const pnr_stats *st = pnr_get_stats(w.pnr);
        ck_assert_double_eq(st->granted_mb, 50);
        ck_assert_double_eq(seen.released[0], 20);
        ck_assert_double_eq(seen.lent2_after_act, 50);
        ck_assert_double_eq(seen.held12_after_act, 30);
        ck_assert_double_eq(seen.released[1], 30);
        /* The FREEs' arrivals (messages 6 and 9: REQUEST ASK GRANT REPLY,
         * DEALLOC FREE ACK, DEALLOC FREE ACK, then the job's DEALLOC). */
        ck_assert_int_eq(seen.msgs, 11);
        ck_assert(seen.kind[5] == PNR_CTRL_FREE && seen.kind[8] == PNR_CTRL_FREE);
        ck_assert_double_eq(seen.mb[4], 20);
        ck_assert_double_eq(seen.lent2[5], 30);
        ck_assert_double_eq(seen.mb[7], 30);
        ck_assert_double_eq(seen.lent2[8], 0);
        ck_assert(seen.kind[10] == PNR_CTRL_DEALLOC);
        ck_assert_double_eq(seen.mb[10], 0);
        ck_assert_int_eq(seen.ended, 1);
        ck_assert_double_eq(seen.freed, 0);
        ck_assert_uint_eq(st->dealloc_rounds, 3);
        ck_assert_uint_eq(sent(&w, PNR_MSG_FREE), 2);
        assert_settled(w.pnr);
        world_free(&w);
    }
}
END_TEST

/* pnr_host_reclaim, as above (PE 2 lends node 1 50 MB). At the REPLY the
 * strategy has PE 2 take back 20, then 1000: 20 (PE 2 lends 30, node 1
 * holds 30 there) and the remaining 30 (lends 0); two reclaim events of
 * 50 MB in all, 50 x 2^20 / 4096 = 12800 pages sent back. Under
 * netram.reclaim = NONE they follow SWAP's rule: no new request (one in
 * all), and at the end node 1 has nothing to free. */
START_TEST(test_reclaim_swap_rule)
{
    setup();
    want.on_reply = 2;
    world w;
    world_init(&w, 3, RAM_C, 0, "OPSTEST", NULL, 3);
    start_at(&w, 0, make_job(&w, 1, 1, (int[]){1}, 50, 150));
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(w.jobs_ended, 1);
    const pnr_stats *st = pnr_get_stats(w.pnr);
    ck_assert_double_eq(seen.reclaimed[0], 20);
    ck_assert_double_eq(seen.reclaimed[1], 30);
    ck_assert_double_eq(seen.lent2_after_act, 0);
    ck_assert_double_eq(seen.held12_after_act, 0);
    ck_assert_uint_eq(st->reclaim_events, 2);
    ck_assert_double_eq(st->reclaim_mb, 50);
    ck_assert_double_eq(st->reclaim_pages, 12800);
    ck_assert_uint_eq(st->requests, 1);
    ck_assert_double_eq(seen.freed, 0);
    assert_settled(w.pnr);
    world_free(&w);
}
END_TEST

/* Under netram.reclaim = REPLACE a reclaim of 20 MB (PE 2 then lends 30)
 * has node 1 ask for the 20 again: a second request, granted in full
 * (PE 0 has 50 free, PE 2 70: either covers it), 20 MB replaced; at the
 * end node 1 frees 50 again. */
START_TEST(test_reclaim_replace)
{
    setup();
    want.on_reply = 3;
    world w;
    world_init(&w, 3, RAM_C, 0, "OPSTEST", (const char *[]){"netram.reclaim=REPLACE", NULL},
               3);
    start_at(&w, 0, make_job(&w, 1, 1, (int[]){1}, 50, 150));
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(w.jobs_ended, 1);
    const pnr_stats *st = pnr_get_stats(w.pnr);
    ck_assert_double_eq(seen.reclaimed[0], 20);
    ck_assert_double_eq(seen.lent2_after_act, 30);
    ck_assert_double_eq(seen.held12_after_act, 30);
    ck_assert_uint_eq(st->reclaim_events, 1);
    ck_assert_double_eq(st->reclaim_mb, 20);
    ck_assert_uint_eq(st->requests, 2);
    ck_assert_double_eq(st->reclaim_replaced_mb, 20);
    ck_assert_double_eq(st->granted_mb, 70);
    ck_assert_near(seen.freed, 50, 1e-12);
    assert_settled(w.pnr);
    world_free(&w);
}
END_TEST

/* Contract breaks stop the run with exit status 2 (each test forks). */
static void run_broken(void)
{
    world w;
    world_init(&w, 3, RAM_C, 1e-5, "OPSTEST", NULL, 3);
    start_at(&w, 0, make_job(&w, 1, 1, (int[]){1}, 50, 150));
    ev_run(&w.sim, INFINITY);
    world_free(&w); /* not reached */
}

START_TEST(test_grant_out_of_range_exits)
{
    setup();
    want.grant_extra = 1e-6; /* default + 1e-6 MB */
    run_broken();
}
END_TEST

START_TEST(test_fault_server_not_holding_exits)
{
    setup();
    want.fault_to = 0; /* PE 0 lends node 1 nothing (PE 2 does) */
    run_broken();
}
END_TEST

START_TEST(test_release_inside_grant_exits)
{
    setup();
    want.release_in_grant = true;
    run_broken();
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("pnr_strategy_ops");
    TCase *tc = tcase_create("ops");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_grant_denied_goes_to_next);
    tcase_add_test(tc, test_fault_server_fixed);
    tcase_add_test(tc, test_fault_server_default_draw);
    tcase_add_test(tc, test_message_arrived_one_round);
    tcase_add_test(tc, test_release);
    tcase_add_test(tc, test_reclaim_swap_rule);
    tcase_add_test(tc, test_reclaim_replace);
    tcase_add_exit_test(tc, test_grant_out_of_range_exits, 2);
    tcase_add_exit_test(tc, test_fault_server_not_holding_exits, 2);
    tcase_add_exit_test(tc, test_release_inside_grant_exits, 2);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
