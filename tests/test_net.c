/* tests/test_net.c: the interconnect (net/): message times on idle and
 * busy networks worked out by hand, route lengths for every ordered pair of
 * every topology on small N, killing and restarting messages in each state
 * they can be in, busy-time accounting, the message pool, the report and
 * the observer (busy and idle told exactly when they change).
 *
 * Unless a test says otherwise the parameters are those of the report's
 * appendix: 12.5e6 B/s links, 5e-8 s latency, 8e-5 s switch delay, and
 * 4096-byte messages (a page). One link crossing then takes
 *     L = 5e-8 + 4096 / 12.5e6 = 5e-8 + 3.2768e-4 = 3.2773e-4 s
 * and a switch pass D = 8e-5 s.
 *
 * This file: message times, routes, one-way links, messages to self, kill
 * and restart, TREE. Busy time, the pool, the report and the observer are
 * in tests/test_net_report.c; helpers in tests/fixture_net.h.
 */
#include "net/net.h"
#include "tests/testutil.h"

#include <stdint.h>
#include <string.h>
#include "tests/fixture_net.h"

/* ---- idle star ----------------------------------------------------------- */

static net_t *later_net;
static void send_later(sim_t *sim, void *arg)
{
    send(sim, later_net, 3, 7, (long)(intptr_t)arg);
}

START_TEST(test_star_idle)
{
    /* 0 -> 5 on an idle 8-PE star: link 0, switch, link 5:
     * 2 * 3.2773e-4 + 8e-5 = 7.3546e-4 s. The network was busy exactly
     * that long in total: L on each link, D on the switch. */
    reset_arrivals();
    sim_t sim;
    ev_init(&sim);
    net_t *net = net_create(&sim, TOPO_KIND_STAR, 8, BW, LAT, DELAY);
    ck_assert_ptr_nonnull(net);
    ck_assert_int_eq(net_elem_count(net), 9);
    ck_assert_near(net_idle_time(net, 0, 5, BYTES), 7.3546e-4, TOL);
    send(&sim, net, 0, 5, 0);
    ck_assert_int_eq(net_in_flight(net), 1);
    ev_run(&sim, INFINITY);
    ck_assert_near(arrive[0], 7.3546e-4, TOL);
    ck_assert_near(sim.now, 7.3546e-4, TOL);
    ck_assert_int_eq(net_in_flight(net), 0);
    ck_assert_near(net_busy_time(&sim, net), 7.3546e-4, TOL);
    ck_assert_near(net_busy_time(&sim, net), elem_busy_sum(&sim, net), 0);
    ck_assert_near(res_busy_time(&sim, &net_elem_at(net, 0)->res), L_HOP, TOL);
    ck_assert_near(res_busy_time(&sim, &net_elem_at(net, 8)->res), D_SW, TOL);
    ck_assert_near(res_busy_time(&sim, &net_elem_at(net, 5)->res), L_HOP, TOL);
    for (int i = 0; i < 9; i++) {
        net_elem *e = net_elem_at(net, i);
        int used = i == 0 || i == 5 || i == 8;
        ck_assert_int_eq(e->is_switch, i == 8);
        ck_assert_uint_eq(e->messages, used);
        ck_assert_double_eq(e->bytes, used ? BYTES : 0);
        ck_assert_double_eq(e->res.queue.max, 0);
    }
    ck_assert_uint_eq(net_messages_sent(net), 1);
    ck_assert_uint_eq(net_messages_delivered(net), 1);
    ck_assert_double_eq(net_bytes_sent(net), BYTES);
    /* Alone on the network, each hop's end was the next event anyway: the
     * start was the one event dispatched, the three hops taken inline. */
    ck_assert_uint_eq(sim.dispatched, 1);
    ck_assert_uint_eq(sim.skipped, 3);

    /* 3 -> 7 sent at t = 1 arrives at 1 + 7.3546e-4. */
    later_net = net;
    ev_once(&sim, 1.0, send_later, (void *)(intptr_t)1);
    ev_run(&sim, INFINITY);
    ck_assert_near(arrive[1], 1.00073546, 1e-12);
    teardown(&sim, net);
}
END_TEST

/* ---- bus: simultaneous messages serialise ---------------------------------- */

START_TEST(test_bus_serialise)
{
    /* Five messages i -> i+1, all sent at t = 0 on a 6-PE bus: the i-th
     * (1-based) arrives at i * L. Queue length on the bus: 4 in [0, L),
     * 3 in [L, 2L), 2, 1, then 0 from 4L: area (4+3+2+1) L = 10 L over
     * 5 L, mean 2, max 4. The bus was busy all 5 L. */
    reset_arrivals();
    sim_t sim;
    ev_init(&sim);
    net_t *net = net_create(&sim, TOPO_KIND_BUS, 6, BW, LAT, DELAY);
    ck_assert_int_eq(net_elem_count(net), 1);
    for (int i = 0; i < 5; i++)
        send(&sim, net, i, i + 1, i);
    ev_run(&sim, INFINITY);
    for (int i = 0; i < 5; i++)
        ck_assert_near(arrive[i], (i + 1) * L_HOP, TOL);
    net_elem *bus = net_elem_at(net, 0);
    ck_assert_uint_eq(bus->messages, 5);
    ck_assert_double_eq(bus->bytes, 5 * BYTES);
    ck_assert_double_eq(bus->res.queue.max, 4);
    ck_assert_near(timeavg_mean(&bus->res.queue, sim.now), 2, 1e-12);
    ck_assert_near(net_busy_time(&sim, net), 5 * L_HOP, TOL);
    ck_assert_near(res_utilization(&sim, &bus->res), 1, 1e-12);
    teardown(&sim, net);
}
END_TEST

/* ---- star: two sources, one destination ------------------------------------ */

START_TEST(test_star_contention)
{
    /* A: 0 -> 2 and B: 1 -> 2, both sent at t = 0 on a 4-PE star.
     *   A: link 0 [0, L], switch [L, L+D], link 2 [L+D, 2L+D]: arrives
     *      2L + D = 7.3546e-4.
     *   B: link 1 [0, L]; at L the switch is A's (A's hold ended first, it
     *      was sent first), so B waits [L, L+D] and crosses [L+D, L+2D];
     *      link 2 is A's until 2L+D (D < L), so B waits [L+2D, 2L+D] and
     *      crosses [2L+D, 3L+D]: arrives 3L + D = 1.06319e-3.
     * Switch: one waiter for D, max 1; link 2: one waiter for L - D, max 1.
     * Busy: links 0 and 1 L each, switch 2D, link 2 2L: 4L + 2D =
     * 1.47092e-3. */
    reset_arrivals();
    sim_t sim;
    ev_init(&sim);
    net_t *net = net_create(&sim, TOPO_KIND_STAR, 4, BW, LAT, DELAY);
    send(&sim, net, 0, 2, 0);
    send(&sim, net, 1, 2, 1);
    ev_run(&sim, INFINITY);
    ck_assert_near(arrive[0], 7.3546e-4, TOL);
    ck_assert_near(arrive[1], 1.06319e-3, TOL);
    net_elem *sw = net_elem_at(net, 4), *l2 = net_elem_at(net, 2);
    ck_assert(sw->is_switch);
    ck_assert_double_eq(sw->res.queue.max, 1);
    ck_assert_double_eq(l2->res.queue.max, 1);
    ck_assert_near(timeavg_area(&sw->res.queue, sim.now), D_SW, TOL);
    ck_assert_near(timeavg_area(&l2->res.queue, sim.now), L_HOP - D_SW, TOL);
    ck_assert_double_eq(net_elem_at(net, 0)->res.queue.max, 0);
    ck_assert_double_eq(net_elem_at(net, 1)->res.queue.max, 0);
    ck_assert_uint_eq(sw->messages, 2);
    ck_assert_uint_eq(l2->messages, 2);
    ck_assert_near(res_busy_time(&sim, &sw->res), 2 * D_SW, TOL);
    ck_assert_near(res_busy_time(&sim, &l2->res), 2 * L_HOP, TOL);
    ck_assert_near(net_busy_time(&sim, net), 1.47092e-3, TOL);
    ck_assert_near(net_busy_time(&sim, net), elem_busy_sum(&sim, net), 0);
    teardown(&sim, net);
}
END_TEST

/* ---- routes --------------------------------------------------------------- */

static const int route_ns[] = {1, 2, 5, 6};

START_TEST(test_routes)
{
    /* For every topology and N in {1, 2, 5, 6}, every ordered pair:
     *   star: 3 hops, link src, the switch, link dst;
     *   bus: 1 hop, the bus;
     *   connected: 1 hop, a one-way link of its own (N(N-1) links, each
     *     used by exactly one ordered pair);
     *   wheel: 1 hop on rim k for the pairs (2k, 2k+1) and (2k+1, 2k),
     *     k < N/2, else spoke src, switch, spoke dst (so with N = 5, PE 4
     *     has no rim and always uses the switch);
     *   self: 0 hops.
     * Element counts: star N+1, bus 1, wheel N + N/2 + 1, connected
     * N(N-1). Idle times: 1 hop L, 3 hops 2L + D. */
    sim_t sim;
    ev_init(&sim);
    for (size_t t = 0; t < sizeof route_ns / sizeof route_ns[0]; t++) {
        int n = route_ns[t];
        for (int topo = TOPO_KIND_STAR; topo <= TOPO_KIND_CONNECTED; topo++) {
            net_t *net = net_create(&sim, (net_topology)topo, n, BW, LAT, DELAY);
            ck_assert_ptr_nonnull(net);
            ck_assert_int_eq(net_pe_count(net), n);
            int expect_elems = topo == TOPO_KIND_STAR    ? n + 1
                               : topo == TOPO_KIND_BUS   ? 1
                               : topo == TOPO_KIND_WHEEL ? n + n / 2 + 1
                                                         : n * (n - 1);
            ck_assert_int_eq(net_elem_count(net), expect_elems);
            int used[64] = {0};
            for (int s = 0; s < n; s++)
                for (int d = 0; d < n; d++) {
                    int len = net_route_len(net, s, d);
                    if (s == d) {
                        ck_assert_int_eq(len, 0);
                        ck_assert_double_eq(net_idle_time(net, s, d, BYTES), 0);
                        continue;
                    }
                    int rim = topo == TOPO_KIND_WHEEL && s / 2 == d / 2;
                    int expect = topo == TOPO_KIND_STAR    ? 3
                                 : topo == TOPO_KIND_WHEEL ? (rim ? 1 : 3)
                                                           : 1;
                    ck_assert_msg(len == expect, "%s n=%d %d->%d: %d hops",
                                  net_topology_name((net_topology)topo), n, s, d, len);
                    if (len == 3) {
                        net_elem *a = net_route_elem(net, s, d, 0);
                        net_elem *b = net_route_elem(net, s, d, 1);
                        net_elem *c = net_route_elem(net, s, d, 2);
                        ck_assert(!a->is_switch && b->is_switch && !c->is_switch);
                        ck_assert_ptr_eq(a, net_elem_at(net, s));
                        ck_assert_ptr_eq(c, net_elem_at(net, d));
                        ck_assert_near(net_idle_time(net, s, d, BYTES), 2 * L_HOP + D_SW, TOL);
                    } else {
                        net_elem *a = net_route_elem(net, s, d, 0);
                        ck_assert(!a->is_switch);
                        ck_assert_near(net_idle_time(net, s, d, BYTES), L_HOP, TOL);
                        int idx = (int)a->index;
                        ck_assert_ptr_eq(a, net_elem_at(net, idx));
                        ck_assert(idx >= 0 && idx < 64);
                        used[idx]++;
                        if (rim) {
                            ck_assert_int_eq(idx, n + s / 2);
                            ck_assert_ptr_eq(a, net_route_elem(net, d, s, 0));
                            ck_assert(strncmp(a->name, "rim", 3) == 0);
                        }
                    }
                }
            if (topo == TOPO_KIND_CONNECTED)
                for (int i = 0; i < n * (n - 1); i++)
                    ck_assert_int_eq(used[i], 1);
            if (topo == TOPO_KIND_BUS)
                ck_assert_int_eq(used[0], n * (n - 1));
            if (topo == TOPO_KIND_WHEEL)
                for (int k = 0; k < n / 2; k++)
                    ck_assert_int_eq(used[n + k], 2);
            net_destroy(&sim, net);
        }
    }
    ck_assert_uint_eq(sim.live_records, 0);
    ev_destroy(&sim);
}
END_TEST

/* ---- connected: one-way links ---------------------------------------------- */

START_TEST(test_connected_both_ways)
{
    /* On a 3-PE fully connected network 0 -> 2 and 2 -> 0 sent together
     * use different links and both arrive at L; a second 0 -> 2 sent at
     * the same instant queues behind the first and arrives at 2L; 1 -> 2
     * has its own link too and arrives at L. */
    reset_arrivals();
    sim_t sim;
    ev_init(&sim);
    net_t *net = net_create(&sim, TOPO_KIND_CONNECTED, 3, BW, LAT, DELAY);
    ck_assert_int_eq(net_elem_count(net), 6);
    ck_assert_ptr_ne(net_route_elem(net, 0, 2, 0), net_route_elem(net, 2, 0, 0));
    send(&sim, net, 0, 2, 0);
    send(&sim, net, 2, 0, 1);
    send(&sim, net, 0, 2, 2);
    send(&sim, net, 1, 2, 3);
    ev_run(&sim, INFINITY);
    ck_assert_near(arrive[0], L_HOP, TOL);
    ck_assert_near(arrive[1], L_HOP, TOL);
    ck_assert_near(arrive[2], 2 * L_HOP, TOL);
    ck_assert_near(arrive[3], L_HOP, TOL);
    ck_assert_double_eq(net_route_elem(net, 2, 0, 0)->res.queue.max, 0);
    ck_assert_double_eq(net_route_elem(net, 0, 2, 0)->res.queue.max, 1);
    ck_assert_near(net_busy_time(&sim, net), 4 * L_HOP, TOL);
    teardown(&sim, net);
}
END_TEST

/* A message with tag 9 arriving sends two 2 -> 3 messages (tags 10, 11). */
static void on_arrive_then_send(sim_t *sim, msg_t *m)
{
    net_t *net = m->net;
    long tag = tmsg_of(m)->tag;
    on_arrive(sim, m);
    if (tag == 9) {
        send(sim, net, 2, 3, 10);
        send(sim, net, 2, 3, 11);
    }
}

START_TEST(test_connected_lazy_links)
{
    /* CONNECTED links exist once used, with the statistics they would have
     * had from the start. N = 5: 20 links, none there at first. Ten 0 -> 1
     * messages at t = 0 queue on one link: arrivals at L, 2L, ..., 10L;
     * 9 wait at first, one less after each L, so the queue's area is
     * (9 + 8 + ... + 1) L = 45 L. The 10th sends two 2 -> 3 at 10 L: that
     * link is created then, arrivals 11 L and 12 L, one waiting over
     * [10 L, 11 L]. Over [0, 12 L]: link 0->1 busy 10 L, utilisation 10/12,
     * mean queue 45/12, max 9; link 2->3 busy 2 L, utilisation 2/12 (not
     * 2/2: it counts from the network's creation like every element),
     * mean queue 1/12, max 1; total busy 12 L; 2 links exist. */
    reset_arrivals();
    sim_t sim;
    ev_init(&sim);
    net_t *net = net_create(&sim, TOPO_KIND_CONNECTED, 5, BW, LAT, DELAY);
    ck_assert_int_eq(net_elem_count(net), 20);
    ck_assert_int_eq(net_elem_live_count(net), 0);
    for (int i = 0; i < 10; i++)
        send(&sim, net, 0, 1, i)->done = on_arrive_then_send;
    ev_run(&sim, INFINITY);
    ck_assert_int_eq(arrivals, 12);
    ck_assert_near(arrive[9], 10 * L_HOP, 1e-14);
    ck_assert_near(arrive[10], 11 * L_HOP, 1e-14);
    ck_assert_near(arrive[11], 12 * L_HOP, 1e-14);
    ck_assert_int_eq(net_elem_live_count(net), 2);
    net_elem *a = net_elem_live_at(net, 0), *b = net_elem_live_at(net, 1);
    ck_assert_str_eq(a->name, "link 0->1");
    ck_assert_str_eq(b->name, "link 2->3");
    ck_assert_int_eq(a->index, 0);         /* 0 * 4 + 0 */
    ck_assert_int_eq(b->index, 2 * 4 + 2); /* dst 3 > src 2: j' = 2 */
    ck_assert_ptr_eq(b, net_route_elem(net, 2, 3, 0));
    ck_assert_near(res_utilization(&sim, &a->res), 10.0 / 12, 1e-12);
    ck_assert_near(res_utilization(&sim, &b->res), 2.0 / 12, 1e-12);
    ck_assert_near(timeavg_mean(&a->res.queue, sim.now), 45.0 / 12, 1e-12);
    ck_assert_near(timeavg_mean(&b->res.queue, sim.now), 1.0 / 12, 1e-12);
    ck_assert_double_eq(a->res.queue.max, 9);
    ck_assert_double_eq(b->res.queue.max, 1);
    ck_assert_near(net_busy_time(&sim, net), 12 * L_HOP, 1e-14);
    ck_assert_uint_eq(b->messages, 2);
    ck_assert_int_eq(net_elem_live_count(net), 2); /* statistics made none */
    teardown(&sim, net);
}
END_TEST

START_TEST(test_connected_50000)
{
    /* 50,000 PEs fully connected: 2,499,950,000 links (more than an int
     * counts), of which a run uses only those it sends over. 49999 -> 0
     * and 0 -> 49999 at once take one hop of L each on their own links;
     * the two links are the only ones created. */
    reset_arrivals();
    sim_t sim;
    ev_init(&sim);
    net_t *net = net_create(&sim, TOPO_KIND_CONNECTED, 50000, BW, LAT, DELAY);
    ck_assert_ptr_nonnull(net);
    ck_assert(net_elem_count(net) == 50000L * 49999L);
    send(&sim, net, 49999, 0, 0);
    send(&sim, net, 0, 49999, 1);
    ev_run(&sim, INFINITY);
    ck_assert_near(arrive[0], L_HOP, TOL);
    ck_assert_near(arrive[1], L_HOP, TOL);
    ck_assert_int_eq(net_elem_live_count(net), 2);
    net_elem *e = net_route_elem(net, 49999, 0, 0);
    ck_assert_str_eq(e->name, "link 49999->0");
    ck_assert(e->index == 49999L * 49999L); /* src (N-1) * (N-1) + j' 0 */
    ck_assert_str_eq(net_elem_live_at(net, 0)->name, "link 0->49999");
    ck_assert_near(net_busy_time(&sim, net), 2 * L_HOP, TOL);
    teardown(&sim, net);
}
END_TEST

/* ---- messages to self, N = 1 ------------------------------------------------ */

static net_t *self_net;
static void send_self(sim_t *sim, void *arg)
{
    (void)arg;
    msg_t *m = send(sim, self_net, 0, 0, 0);
    /* Delivered through an event, not from inside net_send. */
    ck_assert_int_eq(arrivals, 0);
    ck_assert(net_msg_in_flight(m));
}

static msg_t *self_victim;
static void send_self_and_kill(sim_t *sim, void *arg)
{
    (void)arg;
    self_victim = send(sim, self_net, 0, 0, 1);
    net_kill(sim, self_net, self_victim);
    ck_assert(self_victim->killed);
    ck_assert_int_eq(net_in_flight(self_net), 0);
}

START_TEST(test_self_and_single_pe)
{
    /* N = 1 for every topology: one message to self sent at t = 2.5
     * arrives at 2.5 exactly, uses no element, costs no busy time. A second
     * one sent and killed at once at t = 3 (its delivery event pending) is
     * not delivered; restarted at 4 it arrives at 4. */
    for (int topo = TOPO_KIND_STAR; topo <= TOPO_KIND_CONNECTED; topo++) {
        reset_arrivals();
        sim_t sim;
        ev_init(&sim);
        self_net = net_create(&sim, (net_topology)topo, 1, BW, LAT, DELAY);
        ck_assert_ptr_nonnull(self_net);
        ck_assert_int_eq(net_route_len(self_net, 0, 0), 0);
        ev_once(&sim, 2.5, send_self, NULL);
        ev_once(&sim, 3, send_self_and_kill, NULL);
        ev_run(&sim, 3.5);
        ck_assert_double_eq(arrive[0], 2.5);
        ck_assert_double_eq(arrive[1], -1);
        ck_assert_int_eq(arrivals, 1);
        ev_once(&sim, 4, restart_cb, self_victim);
        ev_run(&sim, INFINITY);
        ck_assert_double_eq(arrive[1], 4);
        ck_assert_double_eq(net_busy_time(&sim, self_net), 0);
        ck_assert_uint_eq(net_messages_sent(self_net), 2);
        ck_assert_uint_eq(net_messages_delivered(self_net), 2);
        ck_assert_uint_eq(net_restarts(self_net), 1);
        teardown(&sim, self_net);
    }
}
END_TEST

/* ---- kill and restart ------------------------------------------------------- */

START_TEST(test_kill_holding_bus)
{
    /* 4-PE bus: M1 0 -> 1 and M2 2 -> 3 sent at t = 0. M1 holds the bus,
     * M2 waits. M1 is killed at L/2: the bus goes to M2 at that instant, M2
     * arrives at L/2 + L = 1.5 L. M1 is restarted at 5 L on an idle bus and
     * arrives at 5 L + L = 6 L. Bus busy: L/2 (M1's cut crossing) + L (M2)
     * + L (M1 again) = 2.5 L; it counts 2 completed crossings. */
    reset_arrivals();
    sim_t sim;
    ev_init(&sim);
    net_t *net = net_create(&sim, TOPO_KIND_BUS, 4, BW, LAT, DELAY);
    msg_t *m1 = send(&sim, net, 0, 1, 1);
    send(&sim, net, 2, 3, 2);
    ev_once(&sim, 0.5 * L_HOP, kill_cb, m1);
    ev_run(&sim, 0.5 * L_HOP);
    net_elem *bus = net_elem_at(net, 0);
    ck_assert(m1->killed);
    ck_assert(!net_msg_in_flight(m1));
    ck_assert_int_eq(m1->hop, 0);
    ck_assert_int_eq(net_in_flight(net), 1);
    ck_assert_uint_eq(bus->res.q.n, 0);
    /* The bus is M2's from the kill instant (it was granted at L/2). */
    ck_assert_ptr_nonnull(bus->res.holder);
    ck_assert_ptr_ne(bus->res.holder, &m1->p);
    ck_assert_near(res_busy_time(&sim, &bus->res), 0.5 * L_HOP, TOL);
    ev_once(&sim, 5 * L_HOP, restart_cb, m1);
    ev_run(&sim, INFINITY);
    ck_assert_near(arrive[2], 1.5 * L_HOP, TOL);
    ck_assert_near(arrive[1], 6 * L_HOP, TOL);
    ck_assert_near(arrive[1], 5 * L_HOP + net_idle_time(net, 0, 1, BYTES), TOL);
    ck_assert_near(net_busy_time(&sim, net), 2.5 * L_HOP, TOL);
    ck_assert_uint_eq(bus->messages, 2);
    ck_assert_uint_eq(bus->res.completions, 3); /* the kill released it too */
    ck_assert_int_eq(net_in_flight(net), 0);
    ck_assert_uint_eq(net_restarts(net), 1);
    teardown(&sim, net);
}
END_TEST

START_TEST(test_kill_at_switch)
{
    /* The star of test_star_contention: A 0 -> 2, B 1 -> 2 at t = 0. A is
     * killed at L + D/2, half-way through the switch, with B waiting for
     * the switch since L. B gets the switch at L + D/2, leaves it at
     * L + 1.5 D, finds link 2 idle and arrives at 2L + 1.5 D = 7.7546e-4.
     * A restarted at 0.01 on an idle star arrives at 0.01 + 2L + D =
     * 0.01073546. Busy: link 0 2L (A twice), link 1 L, switch D/2 + D + D,
     * link 2 2L: 5L + 2.5 D = 1.83865e-3; the switch counts 2 crossings. */
    reset_arrivals();
    sim_t sim;
    ev_init(&sim);
    net_t *net = net_create(&sim, TOPO_KIND_STAR, 4, BW, LAT, DELAY);
    msg_t *a = send(&sim, net, 0, 2, 0);
    send(&sim, net, 1, 2, 1);
    ev_once(&sim, L_HOP + 0.5 * D_SW, kill_cb, a);
    ev_run(&sim, L_HOP + 0.5 * D_SW);
    ck_assert(a->killed);
    ck_assert_int_eq(a->hop, 1);
    net_elem *sw = net_elem_at(net, 4);
    ck_assert_ptr_nonnull(sw->res.holder);
    ck_assert_ptr_ne(sw->res.holder, &a->p);
    ck_assert_uint_eq(sw->res.q.n, 0);
    ev_once(&sim, 0.01, restart_cb, a);
    ev_run(&sim, INFINITY);
    ck_assert_near(arrive[1], 7.7546e-4, TOL);
    ck_assert_near(arrive[0], 0.01073546, 1e-12);
    ck_assert_near(arrive[0], 0.01 + net_idle_time(net, 0, 2, BYTES), 1e-12);
    ck_assert_uint_eq(sw->messages, 2);
    ck_assert_near(res_busy_time(&sim, &sw->res), 2.5 * D_SW, TOL);
    ck_assert_near(net_busy_time(&sim, net), 1.83865e-3, TOL);
    ck_assert_near(net_busy_time(&sim, net), elem_busy_sum(&sim, net), 0);
    teardown(&sim, net);
}
END_TEST

static msg_t *grant_victim;
static void arrive_and_kill(sim_t *sim, msg_t *m)
{
    /* Runs inside M1's last step: it has just released the bus, which
     * went to the next waiter, whose wake-up is pending. Kill that one. */
    net_t *net = m->net;
    on_arrive(sim, m);
    net_elem *bus = net_elem_at(net, 0);
    ck_assert_ptr_eq(bus->res.holder, &grant_victim->p);
    ck_assert_int_eq(grant_victim->p.state, PROC_READY);
    net_kill(sim, net, grant_victim);
    ck_assert_ptr_null(bus->res.holder);
    ck_assert_int_eq(net_in_flight(net), 0);
}

static msg_t *m4;
static void send_and_kill_m4(sim_t *sim, void *arg)
{
    (void)arg;
    m4 = send(sim, kill_net, 3, 0, 4);
    net_kill(sim, kill_net, m4);
    net_kill(sim, kill_net, m4); /* a second kill does nothing */
    ck_assert(m4->killed);
}

START_TEST(test_kill_queued_and_granted)
{
    /* 4-PE bus, sent at t = 0: M1 0 -> 1, M2 1 -> 2, M3 2 -> 3.
     *   At L/2 M2, waiting in the bus queue, is killed: the queue holds
     *     M3 only.
     *   At L M1 arrives; the bus has just been granted to M3, and M1's done
     *     kills M3 before it ran: the bus is idle again, nothing in flight.
     *   Both restarted at 2 L, M2 first: M2 arrives 3 L, M3 4 L.
     *   A fourth message sent and killed at 5 L before it started, restarted
     *     at 6 L, arrives at 7 L.
     * Bus busy L (M1) + L (M2) + L (M3) + L (M4) = 4 L; M3 held it for no
     * time. Queue: M2 and M3 waiting in [0, L/2), M3 in [L/2, L), M3 in
     * [2L, 3L): area L + L/2 + L = 2.5 L, max 2. */
    reset_arrivals();
    sim_t sim;
    ev_init(&sim);
    net_t *net = net_create(&sim, TOPO_KIND_BUS, 4, BW, LAT, DELAY);
    msg_t *m1 = send(&sim, net, 0, 1, 1);
    msg_t *m2 = send(&sim, net, 1, 2, 2);
    msg_t *m3 = send(&sim, net, 2, 3, 3);
    m1->done = arrive_and_kill;
    grant_victim = m3;
    ev_once(&sim, 0.5 * L_HOP, kill_cb, m2);
    ev_run(&sim, 0.5 * L_HOP);
    net_elem *bus = net_elem_at(net, 0);
    ck_assert(m2->killed);
    ck_assert_uint_eq(bus->res.q.n, 1);
    ck_assert_ptr_eq(waitq_first(&bus->res.q), &m3->p);
    ck_assert_int_eq(net_in_flight(net), 2);
    ev_run(&sim, 1.5 * L_HOP);
    ck_assert_near(arrive[1], L_HOP, TOL);
    ck_assert(m3->killed);
    ev_once(&sim, 2 * L_HOP, restart_cb, m2);
    ev_once(&sim, 2 * L_HOP, restart_cb, m3);
    ev_run(&sim, 4.5 * L_HOP);
    ck_assert_near(arrive[2], 3 * L_HOP, TOL);
    ck_assert_near(arrive[3], 4 * L_HOP, TOL);
    kill_net = net;
    ev_once(&sim, 5 * L_HOP, send_and_kill_m4, NULL);
    ev_run(&sim, 5 * L_HOP);
    ck_assert_int_eq(net_in_flight(net), 0);
    ev_once(&sim, 6 * L_HOP, restart_cb, m4);
    ev_run(&sim, INFINITY);
    ck_assert_near(arrive[4], 7 * L_HOP, 1e-12 * L_HOP);
    ck_assert_near(res_busy_time(&sim, &bus->res), 4 * L_HOP, TOL);
    ck_assert_near(timeavg_area(&bus->res.queue, sim.now), 2.5 * L_HOP, TOL);
    ck_assert_double_eq(bus->res.queue.max, 2);
    ck_assert_uint_eq(bus->messages, 4);
    ck_assert_uint_eq(net_restarts(net), 3);
    ck_assert_uint_eq(net_messages_sent(net), 4);
    ck_assert_uint_eq(net_messages_delivered(net), 4);
    teardown(&sim, net);
}
END_TEST

/* ---- TREE (racks, issue 15) ------------------------------------------------ */

/* The route src -> dst as element indexes, -1 terminated after len. */
static void expect_route(const net_t *net, int src, int dst, const long *want, int len)
{
    ck_assert_int_eq(net_route_len(net, src, dst), len);
    for (int k = 0; k < len; k++)
        ck_assert_msg(net_route_elem(net, src, dst, k)->index == want[k],
                      "route %d->%d hop %d: element %ld, expected %ld", src, dst, k,
                      net_route_elem(net, src, dst, k)->index, want[k]);
}

START_TEST(test_tree_routes)
{
    /* 6 compute PEs, rack_size 4, 3 memory servers (PEs 6, 7, 8): compute
     * racks 0 (PEs 0-3) and 1 (PEs 4, 5).
     * SPREAD: server k in rack k mod 2: PE 6 -> rack 0, 7 -> 1, 8 -> 0.
     *   2 racks: links 0..8, uplinks 9, 10, ToR 11, 12, core 13.
     * RACKS: servers in rack 2 + k / 4: all three in rack 2.
     *   3 racks: links 0..8, uplinks 9..11, ToR 12..14, core 15. */
    sim_t sim;
    ev_init(&sim);
    net_tree tr = {.ncompute = 6, .rack_size = 4, .servers = NET_SERVERS_SPREAD,
                   .uplink_bandwidth = BW / 10, .uplink_latency = 2 * LAT};
    net_t *net = net_create_tree(&sim, &tr, 9, BW, LAT, DELAY);
    ck_assert_int_eq(net_rack_count(net), 2);
    ck_assert_int_eq(net_elem_count(net), 14);
    static const int rack_spread[] = {0, 0, 0, 0, 1, 1, 0, 1, 0};
    for (int p = 0; p < 9; p++)
        ck_assert_int_eq(net_rack_of(net, p), rack_spread[p]);
    expect_route(net, 0, 3, (const long[]){0, 11, 3}, 3);      /* same rack */
    expect_route(net, 6, 0, (const long[]){6, 11, 0}, 3);      /* server, same rack */
    expect_route(net, 7, 4, (const long[]){7, 12, 4}, 3);
    expect_route(net, 8, 7, (const long[]){8, 11, 9, 13, 10, 12, 7}, 7); /* cross */
    expect_route(net, 5, 1, (const long[]){5, 12, 10, 13, 9, 11, 1}, 7);
    ck_assert_int_eq(net_route_len(net, 4, 4), 0);
    ck_assert(net_elem_at(net, 11)->is_switch && net_elem_at(net, 13)->is_switch);
    ck_assert(!net_elem_at(net, 9)->is_switch);
    ck_assert_double_eq(net_elem_at(net, 9)->bandwidth, BW / 10);
    ck_assert_double_eq(net_elem_at(net, 9)->latency, 2 * LAT);
    ck_assert_double_eq(net_elem_at(net, 8)->bandwidth, BW);
    /* Idle cross-rack time: 2 links, 3 switches, 2 uplinks. */
    double U = 2 * LAT + BYTES / (BW / 10);
    ck_assert_near(net_idle_time(net, 8, 7, BYTES), 2 * L_HOP + 3 * D_SW + 2 * U, TOL);
    ck_assert_near(net_idle_time(net, 6, 0, BYTES), 2 * L_HOP + D_SW, TOL);
    teardown(&sim, net);

    ev_init(&sim);
    tr.servers = NET_SERVERS_RACKS;
    net = net_create_tree(&sim, &tr, 9, BW, LAT, DELAY);
    ck_assert_int_eq(net_rack_count(net), 3);
    ck_assert_int_eq(net_elem_count(net), 16);
    static const int rack_own[] = {0, 0, 0, 0, 1, 1, 2, 2, 2};
    for (int p = 0; p < 9; p++)
        ck_assert_int_eq(net_rack_of(net, p), rack_own[p]);
    expect_route(net, 6, 8, (const long[]){6, 14, 8}, 3);
    expect_route(net, 0, 6, (const long[]){0, 12, 9, 15, 11, 14, 6}, 7);
    expect_route(net, 5, 4, (const long[]){5, 13, 4}, 3);
    /* Hop counts over all 72 ordered pairs: racks of 4, 2 and 3 PEs give
     * 12 + 2 + 6 = 20 same-rack pairs (3 hops), the other 52 take 7. */
    int h3 = 0, h7 = 0;
    for (int a = 0; a < 9; a++)
        for (int b = 0; b < 9; b++)
            if (a != b) {
                int len = net_route_len(net, a, b);
                h3 += len == 3;
                h7 += len == 7;
            }
    ck_assert_int_eq(h3, 20);
    ck_assert_int_eq(h7, 52);
    teardown(&sim, net);
}
END_TEST

START_TEST(test_tree_one_rack)
{
    /* rack_size above the PE count is accepted (configs/reference.ini):
     * 3 compute PEs, rack_size 8: one rack, a star behind one ToR switch.
     * Elements: links 0..2, uplink 3, ToR 4, core 5; every route is
     * link, ToR, link (3 hops) and never uses the uplink. */
    sim_t sim;
    ev_init(&sim);
    net_tree tr = {.ncompute = 3, .rack_size = 8, .servers = NET_SERVERS_SPREAD,
                   .uplink_bandwidth = BW, .uplink_latency = LAT};
    net_t *net = net_create_tree(&sim, &tr, 3, BW, LAT, DELAY);
    ck_assert_int_eq(net_rack_count(net), 1);
    ck_assert_int_eq(net_elem_count(net), 6);
    for (int p = 0; p < 3; p++)
        ck_assert_int_eq(net_rack_of(net, p), 0);
    expect_route(net, 0, 2, (const long[]){0, 4, 2}, 3);
    expect_route(net, 2, 1, (const long[]){2, 4, 1}, 3);
    teardown(&sim, net);
}
END_TEST

START_TEST(test_tree_uplink_contention)
{
    /* 12 compute PEs in racks of 4 (racks 0, 1, 2), uplinks 10 times
     * slower than links: U = 5e-8 + 4096 / 1.25e6 = 3.27685e-3 s.
     * A: 0 -> 4 (rack 0 -> 1) and B: 1 -> 9 (rack 0 -> 2), both at 0.
     *   A: link 0 [0,L], ToR 0 [L,L+D], uplink 0 [L+D,L+D+U], core
     *      [.., L+2D+U], uplink 1 [.., L+2D+2U], ToR 1 [.., L+3D+2U],
     *      link 4: arrives 2L+3D+2U = 7.44916e-3.
     *   B: link 1 [0,L]; ToR 0 is A's: waits D, holds [L+D,L+2D]; uplink
     *      0 is A's until L+D+U: waits U-D, holds [L+D+U,L+D+2U]; core
     *      (A left it at L+2D+U), uplink 2, ToR 2, link 9 free: arrives
     *      2L+3D+3U = 1.072601e-2, U later than alone.
     * Uplink 0: one waiter for U - D, max 1; uplinks 1 and 2 never queue.
     * Control, same rack: C: 0 -> 2 and E: 1 -> 3 at 0 share only ToR 0:
     *   C arrives 2L+D = 7.3546e-4, E waits D at the ToR: 2L+2D =
     *   8.1546e-4; no uplink is ever used. */
    reset_arrivals();
    sim_t sim;
    ev_init(&sim);
    net_tree tr = {.ncompute = 12, .rack_size = 4, .servers = NET_SERVERS_SPREAD,
                   .uplink_bandwidth = BW / 10, .uplink_latency = LAT};
    net_t *net = net_create_tree(&sim, &tr, 12, BW, LAT, DELAY);
    double U = LAT + BYTES / (BW / 10);
    ck_assert_near(U, 3.27685e-3, TOL);
    send(&sim, net, 0, 4, 0);
    send(&sim, net, 1, 9, 1);
    ev_run(&sim, INFINITY);
    ck_assert_near(arrive[0], 7.44916e-3, TOL);
    ck_assert_near(arrive[1], 1.072601e-2, TOL);
    net_elem *up0 = net_elem_at(net, net_uplink_index(net, 0));
    net_elem *up1 = net_elem_at(net, net_uplink_index(net, 1));
    net_elem *up2 = net_elem_at(net, net_uplink_index(net, 2));
    net_elem *tor0 = net_elem_at(net, net_tor_index(net, 0));
    ck_assert_double_eq(up0->res.queue.max, 1);
    ck_assert_near(timeavg_area(&up0->res.queue, sim.now), U - D_SW, TOL);
    ck_assert_double_eq(up1->res.queue.max, 0);
    ck_assert_double_eq(up2->res.queue.max, 0);
    ck_assert_near(timeavg_area(&tor0->res.queue, sim.now), D_SW, TOL);
    ck_assert_uint_eq(up0->messages, 2);
    ck_assert_near(res_busy_time(&sim, &up0->res), 2 * U, TOL);
    ck_assert_uint_eq(net_elem_at(net, net_core_index(net))->messages, 2);
    teardown(&sim, net);

    reset_arrivals();
    ev_init(&sim);
    net = net_create_tree(&sim, &tr, 12, BW, LAT, DELAY);
    send(&sim, net, 0, 2, 0);
    send(&sim, net, 1, 3, 1);
    ev_run(&sim, INFINITY);
    ck_assert_near(arrive[0], 7.3546e-4, TOL);
    ck_assert_near(arrive[1], 8.1546e-4, TOL);
    for (int r = 0; r < 3; r++)
        ck_assert_double_eq(res_busy_time(&sim, &net_elem_at(net, net_uplink_index(net, r))->res), 0);
    ck_assert_uint_eq(net_elem_at(net, net_core_index(net))->messages, 0);
    teardown(&sim, net);
}
END_TEST

START_TEST(test_tree_busy_split)
{
    /* 8 compute PEs in racks of 4 and one memory server (PE 8, SPREAD:
     * server 0 in rack 0 mod 2 = 0). Uplinks 10 times
     * slower than links: U = 5e-8 + 4096 / 1.25e6 = 3.27685e-3 s.
     * A: 0 -> 5 across racks holds link 0 (L), ToR 0 (D), uplink 0 (U),
     *    core (D), uplink 1 (U), ToR 1 (D), link 5 (L).
     * B: 8 -> 1 in rack 0 (server to compute PE) holds link 8 (L), ToR 0
     *    (D), link 1 (L); waiting for ToR 0 is not busy time.
     * By kind: rack links 4L = 1.31092e-3 s, uplinks 2U = 6.5537e-3 s,
     * ToR switches 3D = 2.4e-4 s, core D = 8e-5 s; they sum to the
     * network's busy time, 8.18462e-3 s. */
    reset_arrivals();
    sim_t sim;
    ev_init(&sim);
    net_tree tr = {.ncompute = 8, .rack_size = 4, .servers = NET_SERVERS_SPREAD,
                   .uplink_bandwidth = BW / 10, .uplink_latency = LAT};
    net_t *net = net_create_tree(&sim, &tr, 9, BW, LAT, DELAY);
    ck_assert_int_eq(net_rack_of(net, 8), 0);
    send(&sim, net, 0, 5, 0);
    send(&sim, net, 8, 1, 1);
    ev_run(&sim, INFINITY);
    ck_assert_int_eq(arrivals, 2);
    net_tree_busy tb;
    ck_assert_int_eq(net_tree_busy_time(&sim, net, &tb), 0);
    ck_assert_near(tb.rack_links, 1.31092e-3, TOL);
    ck_assert_near(tb.uplinks, 6.5537e-3, TOL);
    ck_assert_near(tb.tor_switches, 2.4e-4, TOL);
    ck_assert_near(tb.core_switch, 8e-5, TOL);
    ck_assert_near(net_busy_time(&sim, net), 8.18462e-3, TOL);
    teardown(&sim, net);

    /* A star has no racks: -1, every part 0. */
    ev_init(&sim);
    net = net_create(&sim, TOPO_KIND_STAR, 4, BW, LAT, DELAY);
    send(&sim, net, 0, 1, 2);
    ev_run(&sim, INFINITY);
    tb.uplinks = 1;
    ck_assert_int_eq(net_tree_busy_time(&sim, net, &tb), -1);
    ck_assert(tb.rack_links == 0 && tb.uplinks == 0 && tb.tor_switches == 0 &&
              tb.core_switch == 0);
    teardown(&sim, net);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("net");
    TCase *tc = tcase_create("net");
    tcase_add_test(tc, test_star_idle);
    tcase_add_test(tc, test_bus_serialise);
    tcase_add_test(tc, test_star_contention);
    tcase_add_test(tc, test_routes);
    tcase_add_test(tc, test_connected_both_ways);
    tcase_add_test(tc, test_connected_lazy_links);
    tcase_add_test(tc, test_connected_50000);
    tcase_add_test(tc, test_self_and_single_pe);
    tcase_add_test(tc, test_kill_holding_bus);
    tcase_add_test(tc, test_kill_at_switch);
    tcase_add_test(tc, test_kill_queued_and_granted);
    tcase_add_test(tc, test_tree_routes);
    tcase_add_test(tc, test_tree_one_rack);
    tcase_add_test(tc, test_tree_uplink_contention);
    tcase_add_test(tc, test_tree_busy_split);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
