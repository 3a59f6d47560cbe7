/* tests/test_net_report.c: what the interconnect (net/) accounts and tells:
 * busy time per element, the message pool (reuse, no allocation in steady
 * state), the report, and the observer (busy and idle told exactly when
 * they change). Message times, routes and kills are in tests/test_net.c;
 * helpers in tests/fixture_net.h.
 *
 * Unless a test says otherwise the parameters are those of the report's
 * appendix: 12.5e6 B/s links, 5e-8 s latency, 8e-5 s switch delay, and
 * 4096-byte messages (a page). One link crossing then takes
 *     L = 5e-8 + 4096 / 12.5e6 = 5e-8 + 3.2768e-4 = 3.2773e-4 s
 * and a switch pass D = 8e-5 s.
 */
#include "net/net.h"
#include "tests/testutil.h"

#include <stdint.h>
#include <string.h>
#include "tests/fixture_net.h"

/* ---- busy time -------------------------------------------------------------- */

START_TEST(test_busy_time_wheel)
{
    /* All 30 ordered pairs of a 6-PE wheel send at t = 0. Without kills
     * every message holds each element of its route for exactly its service
     * time, so the total busy time is the sum of the idle route times:
     * 6 rim pairs of L and 24 others of 2L + D, 54 L + 24 D = 1.961742e-2.
     * Each spoke carries 4 messages out and 4 in, each rim 2, the
     * switch 24. */
    reset_arrivals();
    sim_t sim;
    ev_init(&sim);
    net_t *net = net_create(&sim, TOPO_KIND_WHEEL, 6, BW, LAT, DELAY);
    double sum_idle = 0;
    int tag = 0;
    for (int s = 0; s < 6; s++)
        for (int d = 0; d < 6; d++)
            if (s != d) {
                sum_idle += net_idle_time(net, s, d, BYTES);
                send(&sim, net, s, d, tag++);
            }
    ev_run(&sim, INFINITY);
    ck_assert_int_eq(arrivals, 30);
    ck_assert_near(sum_idle, 1.961742e-2, 1e-15);
    ck_assert_near(net_busy_time(&sim, net), 1.961742e-2, 1e-15);
    ck_assert_near(net_busy_time(&sim, net), elem_busy_sum(&sim, net), 0);
    for (int i = 0; i < 6; i++)
        ck_assert_uint_eq(net_elem_at(net, i)->messages, 8);
    for (int k = 0; k < 3; k++)
        ck_assert_uint_eq(net_elem_at(net, 6 + k)->messages, 2);
    ck_assert_uint_eq(net_elem_at(net, 9)->messages, 24);
    ck_assert_near(res_busy_time(&sim, &net_elem_at(net, 9)->res), 24 * D_SW, 1e-15);
    ck_assert_double_eq(net_bytes_sent(net), 30 * BYTES);
    teardown(&sim, net);
}
END_TEST

/* ---- the pool ------------------------------------------------------------------ */

static void free_on_arrive(sim_t *sim, msg_t *m)
{
    (void)sim;
    arrivals++;
    net_msg_free(m->net, m);
}

START_TEST(test_pool_reuse)
{
    /* 10,000 messages one after the other on a star: each is freed on
     * arrival before the next is taken, so the pool never grows past its
     * first chunk (16 messages) and the only event records alive are the
     * pool's, one per message: 16. The free message comes back. */
    sim_t sim;
    ev_init(&sim);
    arrivals = 0;
    net_t *net = net_create(&sim, TOPO_KIND_STAR, 4, BW, LAT, DELAY);
    msg_t *first = NULL;
    for (int i = 0; i < 10000; i++) {
        msg_t *m = talloc(&sim, net);
        if (!first)
            first = m;
        ck_assert_ptr_eq(m, first);
        /* The whole typed struct comes back zeroed. */
        ck_assert(tmsg_of(m)->tag == 0 && m->done == NULL && m->bytes == 0 && !m->killed);
        m->src = i % 4;
        m->dst = (i + 1) % 4;
        m->bytes = 1000;
        tmsg_of(m)->tag = i;
        m->done = free_on_arrive;
        net_send(&sim, net, m);
        ev_run(&sim, INFINITY);
        ck_assert_uint_eq(sim.live_records, 16);
    }
    ck_assert_int_eq(arrivals, 10000);
    ck_assert_uint_eq(net_msg_pool_size(net), 16);
    ck_assert_uint_eq(net_messages_delivered(net), 10000);

    /* 100 held at once: chunks of 16, 16, 32 and 64 make 128 messages. */
    msg_t *held[100];
    for (int i = 0; i < 100; i++)
        held[i] = talloc(&sim, net);
    ck_assert_uint_eq(net_msg_pool_size(net), 128);
    ck_assert_uint_eq(sim.live_records, 128);
    for (int i = 0; i < 100; i++)
        net_msg_free(net, held[i]);
    /* A NULL done gives the message back on arrival. */
    for (int i = 0; i < 200; i++) {
        msg_t *m = talloc(&sim, net);
        m->src = 0;
        m->dst = 3;
        m->bytes = 10;
        net_send(&sim, net, m);
    }
    ck_assert_uint_eq(net_msg_pool_size(net), 256);
    ev_run(&sim, INFINITY);
    for (int i = 0; i < 256; i++)
        talloc(&sim, net);
    ck_assert_uint_eq(net_msg_pool_size(net), 256);
    /* One pool per type: the same one for the same type, a second for
     * plain messages, whose first chunk adds 16; every message of both
     * owns one event record. */
    ck_assert_ptr_eq(NET_POOL_FOR(net, tmsg, m), NET_POOL_FOR(net, tmsg, m));
    ck_assert_ptr_ne(NET_POOL_FOR(net, tmsg, m), NET_POOL_FOR(net, msg_t, p));
    msg_t *plain = net_msg_alloc(&sim, net);
    ck_assert_ptr_eq(plain->pool, NET_POOL_FOR(net, msg_t, p));
    /* A pool's owner reaches its messages without their carrying it. */
    ck_assert_ptr_null(net_msg_owner(plain));
    net_pool_set_owner(NET_POOL_FOR(net, msg_t, p), &sim);
    ck_assert_ptr_eq(net_msg_owner(plain), &sim);
    ck_assert_uint_eq(net_msg_pool_size(net), 256 + 16);
    ck_assert_uint_eq(sim.live_records, 256 + 16);
    teardown(&sim, net);
}
END_TEST

static int pings;
static void ping_pong(sim_t *sim, msg_t *m)
{
    /* Re-send the message that just arrived, back where it came from. */
    if (++pings == 1000) {
        net_msg_free(m->net, m);
        return;
    }
    int s = m->src;
    m->src = m->dst;
    m->dst = s;
    net_send(sim, m->net, m);
}

START_TEST(test_resend_from_done)
{
    /* A message bounced 1000 times between two PEs on a connected network,
     * re-sent from its own done: 1000 crossings of L end at 1000 L. */
    sim_t sim;
    ev_init(&sim);
    net_t *net = net_create(&sim, TOPO_KIND_CONNECTED, 2, BW, LAT, DELAY);
    pings = 0;
    msg_t *m = net_msg_alloc(&sim, net);
    m->src = 0;
    m->dst = 1;
    m->bytes = BYTES;
    m->done = ping_pong;
    net_send(&sim, net, m);
    ev_run(&sim, INFINITY);
    ck_assert_int_eq(pings, 1000);
    ck_assert_near(sim.now, 1000 * L_HOP, 1e-12);
    ck_assert_uint_eq(net_route_elem(net, 0, 1, 0)->messages, 500);
    ck_assert_uint_eq(net_route_elem(net, 1, 0, 0)->messages, 500);
    teardown(&sim, net);
}
END_TEST

START_TEST(test_destroy_in_flight)
{
    /* Tearing down a network with messages queued and holding elements
     * frees everything (checked by AddressSanitizer's leak detector). */
    sim_t sim;
    ev_init(&sim);
    net_t *net = net_create(&sim, TOPO_KIND_STAR, 4, BW, LAT, DELAY);
    for (int i = 0; i < 40; i++) {
        msg_t *m = net_msg_alloc(&sim, net);
        m->src = i % 4;
        m->dst = (i + 2) % 4;
        m->bytes = BYTES;
        net_send(&sim, net, m);
    }
    ev_run(&sim, 3 * L_HOP);
    ck_assert_int_gt(net_in_flight(net), 0);
    teardown(&sim, net);
}
END_TEST

/* ---- report ----------------------------------------------------------------- */

START_TEST(test_report)
{
    reset_arrivals();
    sim_t sim;
    ev_init(&sim);
    net_t *net = net_create(&sim, TOPO_KIND_WHEEL, 6, BW, LAT, DELAY);
    send(&sim, net, 0, 2, 0);
    send(&sim, net, 1, 2, 1);
    ev_run(&sim, INFINITY);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    net_report(&sim, net, out);
    fclose(out);
    ck_assert_ptr_nonnull(strstr(buf, "network: wheel, 6 PEs, 9 links, 1 switch"));
    ck_assert_ptr_nonnull(strstr(buf, "spoke 2"));
    ck_assert_ptr_nonnull(strstr(buf, "rim 4-5"));
    /* 6 rim pairs of 1 hop, 24 others of 3. */
    ck_assert_ptr_nonnull(strstr(buf, "30 ordered pairs; 6 of 1 hop, 24 of 3 hops"));
    ck_assert_ptr_nonnull(strstr(buf, "route 0->1 (1 hop): rim 0-1"));
    ck_assert_ptr_nonnull(strstr(buf, "route 0->5 (3 hops): spoke 0, switch, spoke 5"));
    free(buf);
    teardown(&sim, net);

    /* Many links: idle ones are summarised (20 PEs: 380 links, 1 used). */
    ev_init(&sim);
    net = net_create(&sim, TOPO_KIND_CONNECTED, 20, BW, LAT, DELAY);
    send(&sim, net, 3, 4, 2);
    ev_run(&sim, INFINITY);
    out = open_memstream(&buf, &len);
    net_report(&sim, net, out);
    fclose(out);
    ck_assert_ptr_nonnull(strstr(buf, "link 3->4"));
    ck_assert_ptr_nonnull(strstr(buf, "(379 idle elements not listed)"));
    ck_assert_ptr_nonnull(strstr(buf, "380 ordered pairs; 380 of 1 hop"));
    free(buf);
    teardown(&sim, net);
}
END_TEST

/* ---- observer ---------------------------------------------------------------- */

enum { MAXOBS = 32 };
typedef struct obs_rec {
    double t;
    long index;
    int what; /* 1 busy, 0 idle, 2 created */
} obs_rec;
static obs_rec obs_log[MAXOBS];
static int nobs;

static void obs_busy(sim_t *sim, const net_elem *e, bool busy, double t, void *ctx)
{
    ck_assert_ptr_eq(ctx, &nobs);
    ck_assert_int_lt(nobs, MAXOBS);
    ck_assert(t == sim->now); /* HOPS: told at the instant */
    obs_log[nobs++] = (obs_rec){t, e->index, busy};
}

static void obs_created(sim_t *sim, const net_elem *e, void *ctx)
{
    ck_assert_ptr_eq(ctx, &nobs);
    ck_assert_int_lt(nobs, MAXOBS);
    obs_log[nobs++] = (obs_rec){sim->now, e->index, 2};
}

/* Send from PE arg / 10 to PE arg % 10, tagged arg. */
static void send_cb(sim_t *sim, void *arg)
{
    long a = (long)(intptr_t)arg;
    send(sim, kill_net, (int)(a / 10), (int)(a % 10), a);
}

static msg_t *m3;
static void send_m3(sim_t *sim, void *arg)
{
    (void)arg;
    m3 = send(sim, kill_net, 0, 1, 3);
}

START_TEST(test_observer)
{
    /* 4-PE bus, as in test_kill_holding_bus: M1 and M2 at 0 (M1 holds, M2
     * waits), M1 killed at L/2 (the bus goes to M2 at once: no change, not
     * told), M2 done at 1.5 L (idle), M1 restarted at 5 L (busy) and done
     * at 6 L (idle); M3 sent at 8 L on an idle bus and killed at 8.25 L
     * with nobody waiting (idle). Told: busy 0, idle 1.5 L, busy 5 L,
     * idle 6 L, busy 8 L, idle 8.25 L: busy 1.5 L + L + 0.25 L = 2.75 L,
     * the bus's busy time. */
    reset_arrivals();
    nobs = 0;
    sim_t sim;
    ev_init(&sim);
    net_t *net = net_create(&sim, TOPO_KIND_BUS, 4, BW, LAT, DELAY);
    kill_net = net;
    net_observer o = {.busy = obs_busy, .created = obs_created, .ctx = &nobs};
    net_set_observer(net, &o);
    msg_t *m1 = send(&sim, net, 0, 1, 1);
    send(&sim, net, 2, 3, 2);
    ev_once(&sim, 0.5 * L_HOP, kill_cb, m1);
    ev_once(&sim, 5 * L_HOP, restart_cb, m1);
    ev_once(&sim, 8 * L_HOP, send_m3, NULL);
    ev_run(&sim, 8.1 * L_HOP);
    ev_once(&sim, 8.25 * L_HOP, kill_cb, m3);
    ev_run(&sim, INFINITY);
    static const double t[] = {0, 1.5, 5, 6, 8, 8.25};
    ck_assert_int_eq(nobs, 6);
    double busy = 0;
    for (int i = 0; i < 6; i++) {
        ck_assert_near(obs_log[i].t, t[i] * L_HOP, TOL);
        ck_assert_int_eq(obs_log[i].index, 0);
        ck_assert_int_eq(obs_log[i].what, i % 2 == 0);
        busy += i % 2 ? obs_log[i].t : -obs_log[i].t;
    }
    ck_assert_near(busy, 2.75 * L_HOP, TOL);
    ck_assert_near(busy, net_busy_time(&sim, net), TOL);
    net_msg_free(net, m3);
    teardown(&sim, net);

    /* 3-PE CONNECTED, links made on first use: 0 -> 2 at 0 (link index
     * 0 * 2 + 1 = 1), 0 -> 1 at 10 L (index 0), 1 -> 0 at 20 L (index
     * 1 * 2 + 0 = 2): each link is told created, then busy, then idle L
     * later. Removing the observer stops the telling. */
    reset_arrivals();
    nobs = 0;
    ev_init(&sim);
    net = net_create(&sim, TOPO_KIND_CONNECTED, 3, BW, LAT, DELAY);
    kill_net = net;
    net_set_observer(net, &o);
    send(&sim, net, 0, 2, 2);
    ev_once(&sim, 10 * L_HOP, send_cb, (void *)(intptr_t)1);  /* 0 -> 1 */
    ev_once(&sim, 20 * L_HOP, send_cb, (void *)(intptr_t)10); /* 1 -> 0 */
    ev_run(&sim, INFINITY);
    static const obs_rec want[] = {{0, 1, 2},  {0, 1, 1},  {1, 1, 0},  {10, 0, 2}, {10, 0, 1},
                                   {11, 0, 0}, {20, 2, 2}, {20, 2, 1}, {21, 2, 0}};
    ck_assert_int_eq(nobs, 9);
    for (int i = 0; i < 9; i++) {
        ck_assert_near(obs_log[i].t, want[i].t * L_HOP, TOL);
        ck_assert_int_eq(obs_log[i].index, want[i].index);
        ck_assert_int_eq(obs_log[i].what, want[i].what);
    }
    net_set_observer(net, NULL);
    send(&sim, net, 2, 1, 21);
    ev_run(&sim, INFINITY);
    ck_assert_int_eq(nobs, 9);
    ck_assert_int_eq(arrivals, 4);
    teardown(&sim, net);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("net_report");
    TCase *tc = tcase_create("net");
    tcase_add_test(tc, test_busy_time_wheel);
    tcase_add_test(tc, test_pool_reuse);
    tcase_add_test(tc, test_resend_from_done);
    tcase_add_test(tc, test_destroy_in_flight);
    tcase_add_test(tc, test_report);
    tcase_add_test(tc, test_observer);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
