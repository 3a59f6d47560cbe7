/* tests/test_net_whole.c: route mode WHOLE (net.h, issue 11): an idle route
 * taken as one step with each element reserved, checked against times
 * worked out by hand, beside HOPS on the same cases.
 *
 * Parameters as in tests/test_net.c: an 8-PE star, one link crossing
 * L = 5e-8 + 4096 / 12.5e6 = 3.2773e-4 s, a switch pass D = 8e-5 s.
 *
 * Cases:
 *   - one message alone: the same arrival (2L + D) and busy times as HOPS,
 *     with busy time never counted ahead of the clock; one event
 *     dispatched in all (its start; its arrival, the next event anyway,
 *     is taken inline);
 *   - contention both modes agree on: A 0->5 and B 1->5 sent at 0. A
 *     reserves link 0 [0, L], the switch [L, L+D], link 5 [L+D, 2L+D];
 *     B's route is not idle (the switch is reserved), so B walks: link 1
 *     [0, L], waits for the switch until L+D, [L+D, L+2D], waits for link
 *     5 until 2L+D, [2L+D, 3L+D]: arrives 3L + D, as in HOPS;
 *   - the difference: A 0->5 at 0, B 5->3 at L/2. HOPS: link 5 is idle at
 *     L/2, B takes it [L/2, 3L/2] and A, reaching it at L+D < 3L/2, waits:
 *     A arrives 5L/2, B (switch [3L/2, 3L/2+D], link 3) 5L/2 + D. WHOLE: A
 *     reserved link 5 at 0, B waits behind it although the link is idle
 *     until L+D: A arrives 2L+D, B (link 5 [2L+D, 3L+D], switch, link 3)
 *     4L + 2D. The observer is told busy and idle at those instants;
 *   - a link crossed virtually (batched paging's net_vuser) over [a, b):
 *     a message reaching it inside waits until b, outside it does not,
 *     in both modes (by hand, below);
 *   - a WHOLE route reserving a TREE uplink while a walking message waits
 *     there for virtual crossings: the walker queues behind the
 *     reservation and is handed the uplink at its end (issue 23);
 *   - a switch with a rate of virtual crossings: messages wait as in an
 *     M/G/1 queue of that load and the messages' own (mean and share of
 *     no wait, by hand);
 *   - the messages' load window (net_rload) and a virtual crossing's
 *     mean wait behind both streams, by hand;
 *   - a switch's backlog of virtual work (batched paging): messages wait
 *     for what is ahead of them, FIFO, by hand; a killed message takes
 *     its crossing out of it, and its wait for virtual work is not busy;
 *   - an observer changes nothing (issue 32): A 1->0, B 2->0, C 1->0,
 *     D 2->0 sent at 0 in that order. A reserves link 1 [0, L], the
 *     switch [L, L+D], link 0 [L+D, 2L+D]; B walks (link 2 [0, L], its
 *     hop end an event scheduled at 0); C waits behind A on link 1, and
 *     A's end there becomes an event only then, after B's; D queues on
 *     link 2 behind B. At L both ends fall on one instant, in the order
 *     they were scheduled: B's first (D is handed link 2), then A's (C
 *     is handed link 1); so D's and C's crossings, both ending at 2L,
 *     end D's first, and the switch's FIFO, then link 0's, is B, D, C:
 *     arrivals A 2L+D, B 3L+D, D 4L+D, C 5L+D, with an observer too, and
 *     the same events dispatched and scheduled (before the fix an
 *     observer made A's end an event at 0: C before D);
 *   - killing a reserved message half-way through the switch (L + D/2),
 *     with B waiting behind it: link 0 counts its crossing, the switch
 *     busy D/2 and goes to B at once, link 5 (not begun) is given back
 *     unused: B arrives L + 3D/2 + L = 2L + 3D/2; busy 3L + 3D/2 in all;
 *     restarted at 1 on an idle network it arrives 1 + 2L + D.
 */
#include "net/internal.h" /* net_rload_add (batched.c) */
#include "net/net.h"
#include "tests/testutil.h"

#include <stdint.h>
#include <string.h>
#include "tests/fixture_net.h"

static net_t *mk(sim_t *sim, net_route_mode mode)
{
    ev_init(sim);
    net_t *net = net_create(sim, TOPO_KIND_STAR, 8, BW, LAT, DELAY);
    ck_assert_ptr_nonnull(net);
    net_set_route_mode(net, mode);
    return net;
}

/* mk with a virtual rng (batched paging's waits are drawn from it, and
 * the messages' load and switch backlogs are kept only with one); the
 * caller frees *rg after teardown. */
static net_t *mk_virtual(sim_t *sim, net_route_mode mode, rng_t **rg)
{
    net_t *net = mk(sim, mode);
    *rg = rng_stream_gen(RNG_MT19937, 7, "test", 0);
    net_set_virtual_rng(net, *rg);
    return net;
}

/* The star's switch (element 8 of the 8-PE star). */
static net_elem *star_switch(net_t *net)
{
    net_elem *sw = net_elem_at(net, 8);
    ck_assert(sw->is_switch);
    return sw;
}

static double busy_of(const sim_t *sim, net_t *net, long i)
{
    return net_elem_busy_time(sim, net_elem_at(net, i));
}

START_TEST(test_whole_alone)
{
    reset_arrivals();
    sim_t sim;
    net_t *net = mk(&sim, NET_ROUTE_WHOLE);
    ck_assert_int_eq(net_route_mode_of(net), NET_ROUTE_WHOLE);
    ck_assert_str_eq(net_route_mode_name(NET_ROUTE_WHOLE), "whole");
    msg_t *a = send(&sim, net, 0, 5, 0);
    ck_assert_int_eq(net_in_flight(net), 1);
    ev_run(&sim, 0); /* its start: the route reserved */
    ck_assert_uint_eq(net_whole_routes(net), 1);
    ck_assert_ptr_eq(net_elem_at(net, 5)->whole.resv, a);
    /* Busy time is never counted ahead of the clock. */
    ck_assert_double_eq(busy_of(&sim, net, 0), 0);
    ck_assert_double_eq(busy_of(&sim, net, 5), 0);
    ev_run(&sim, L_HOP + 0.5 * D_SW);
    ck_assert_near(busy_of(&sim, net, 0), L_HOP, TOL);
    ck_assert_near(busy_of(&sim, net, 8), 0.5 * D_SW, TOL);
    ck_assert_double_eq(busy_of(&sim, net, 5), 0);
    ev_run(&sim, INFINITY);
    ck_assert_near(arrive[0], 2 * L_HOP + D_SW, TOL);
    ck_assert_uint_eq(sim.dispatched, 2); /* its start and arrival */
    ck_assert_uint_eq(sim.skipped, 0); /* not inline: the run was cut at L + D/2 */
    ck_assert_int_eq(net_in_flight(net), 0);
    ck_assert_near(net_busy_time(&sim, net), 2 * L_HOP + D_SW, TOL);
    for (int i = 0; i < 9; i++) {
        net_elem *e = net_elem_at(net, i);
        int used = i == 0 || i == 5 || i == 8;
        ck_assert_uint_eq(e->messages, used);
        ck_assert_double_eq(e->bytes, used ? BYTES : 0);
        ck_assert_ptr_null(e->whole.resv);
        ck_assert_ptr_null(e->res.holder);
        ck_assert_uint_eq(e->res.completions, used);
    }
    ck_assert_near(net_busy_time(&sim, net), elem_busy_sum(&sim, net), 0);
    teardown(&sim, net);
}
END_TEST

START_TEST(test_whole_contention_same_as_hops)
{
    for (int mode = NET_ROUTE_HOPS; mode <= NET_ROUTE_WHOLE; mode++) {
        reset_arrivals();
        sim_t sim;
        net_t *net = mk(&sim, (net_route_mode)mode);
        send(&sim, net, 0, 5, 0);
        send(&sim, net, 1, 5, 1);
        ev_run(&sim, INFINITY);
        ck_assert_near(arrive[0], 2 * L_HOP + D_SW, TOL);
        ck_assert_near(arrive[1], 3 * L_HOP + D_SW, TOL);
        ck_assert_uint_eq(net_whole_routes(net), mode == NET_ROUTE_WHOLE ? 1 : 0);
        ck_assert_uint_eq(net_held_back(net), 0); /* B waits only where A is */
        ck_assert_near(busy_of(&sim, net, 5), 2 * L_HOP, TOL);
        ck_assert_near(busy_of(&sim, net, 8), 2 * D_SW, TOL);
        ck_assert_near(net_busy_time(&sim, net), 4 * L_HOP + 2 * D_SW, 4 * TOL);
        ck_assert_uint_eq(net_elem_at(net, 5)->messages, 2);
        ck_assert_uint_eq(net_elem_at(net, 8)->messages, 2);
        ck_assert_double_eq(net_elem_at(net, 8)->res.queue.max, 1); /* B waited */
        teardown(&sim, net);
    }
}
END_TEST

/* Observer log: element, busy or idle, when. */
enum { MAXOBS = 32 };
static struct {
    long elem[MAXOBS];
    bool busy[MAXOBS];
    double t[MAXOBS];
    int n;
} olog;

static void obs_busy(sim_t *sim, const net_elem *e, bool busy, double t, void *ctx)
{
    (void)ctx;
    ck_assert_int_lt(olog.n, MAXOBS);
    /* Told in time order, never of the future (WHOLE's notes may come
     * after their instant: net_observer). */
    ck_assert(t <= sim->now);
    ck_assert(olog.n == 0 || t >= olog.t[olog.n - 1]);
    olog.elem[olog.n] = e->index;
    olog.busy[olog.n] = busy;
    olog.t[olog.n] = t;
    olog.n++;
}

/* Busy time of element i from the observer log (busy and idle alternate). */
static double obs_busy_time(long i)
{
    double sum = 0, since = -1;
    for (int k = 0; k < olog.n; k++) {
        if (olog.elem[k] != i)
            continue;
        if (olog.busy[k]) {
            ck_assert_msg(since < 0, "element %ld told busy twice", i);
            since = olog.t[k];
        } else {
            ck_assert_msg(since >= 0, "element %ld told idle while idle", i);
            sum += olog.t[k] - since;
            since = -1;
        }
    }
    ck_assert_msg(since < 0, "element %ld left busy", i);
    return sum;
}

/* When element i was told busy (nth time, from 0), or -1. */
static double obs_at(long i, bool busy, int nth)
{
    for (int k = 0; k < olog.n; k++)
        if (olog.elem[k] == i && olog.busy[k] == busy && nth-- == 0)
            return olog.t[k];
    return -1;
}

static net_t *later_net;
static void send_b(sim_t *sim, void *arg)
{
    (void)arg;
    send(sim, later_net, 5, 3, 1);
}

START_TEST(test_whole_no_overtaking)
{
    net_observer o = {.busy = obs_busy};
    for (int mode = NET_ROUTE_HOPS; mode <= NET_ROUTE_WHOLE; mode++) {
        reset_arrivals();
        memset(&olog, 0, sizeof olog);
        sim_t sim;
        net_t *net = mk(&sim, (net_route_mode)mode);
        net_set_observer(net, &o);
        later_net = net;
        send(&sim, net, 0, 5, 0);
        ev_once(&sim, 0.5 * L_HOP, send_b, NULL);
        ev_run(&sim, INFINITY);
        if (mode == NET_ROUTE_HOPS) {
            ck_assert_near(arrive[0], 2.5 * L_HOP, TOL);
            ck_assert_near(arrive[1], 2.5 * L_HOP + D_SW, TOL);
            /* link 5: B [L/2, 3L/2], handed to A, A until 5L/2 */
            ck_assert_near(obs_at(5, true, 0), 0.5 * L_HOP, TOL);
            ck_assert_near(obs_at(5, false, 0), 2.5 * L_HOP, TOL);
        } else {
            ck_assert_near(arrive[0], 2 * L_HOP + D_SW, TOL);
            ck_assert_near(arrive[1], 4 * L_HOP + 2 * D_SW, TOL);
            ck_assert_uint_eq(net_whole_routes(net), 1);
            ck_assert_uint_eq(net_held_back(net), 1); /* B at link 5 */
            /* link 5: A's reservation [L+D, 2L+D], handed to B, B until
             * 3L+D; the switch: A [L, L+D], then B [3L+D, 3L+2D] */
            ck_assert_near(obs_at(5, true, 0), L_HOP + D_SW, TOL);
            ck_assert_near(obs_at(5, false, 0), 3 * L_HOP + D_SW, TOL);
            ck_assert_near(obs_at(8, true, 0), L_HOP, TOL);
            ck_assert_near(obs_at(8, false, 0), L_HOP + D_SW, TOL);
            ck_assert_near(obs_at(8, true, 1), 3 * L_HOP + D_SW, TOL);
            ck_assert_near(obs_at(8, false, 1), 3 * L_HOP + 2 * D_SW, TOL);
            ck_assert_near(obs_at(0, true, 0), 0, TOL);
            ck_assert_near(obs_at(0, false, 0), L_HOP, TOL);
        }
        /* Either way: two crossings of link 5, the observer's busy
         * stretches sum to each element's busy time. */
        ck_assert_near(busy_of(&sim, net, 5), 2 * L_HOP, TOL);
        ck_assert_uint_eq(net_elem_at(net, 5)->messages, 2);
        for (long i = 0; i < 9; i++)
            ck_assert_near(obs_busy_time(i), busy_of(&sim, net, i), TOL);
        net_set_observer(net, NULL);
        teardown(&sim, net);
    }
}
END_TEST

START_TEST(test_whole_observer_passive)
{
    net_observer o = {.busy = obs_busy};
    uint64_t dispatched[2], scheduled[2];
    for (int observed = 0; observed <= 1; observed++) {
        reset_arrivals();
        memset(&olog, 0, sizeof olog);
        sim_t sim;
        net_t *net = mk(&sim, NET_ROUTE_WHOLE);
        if (observed)
            net_set_observer(net, &o);
        send(&sim, net, 1, 0, 0); /* A */
        send(&sim, net, 2, 0, 1); /* B */
        send(&sim, net, 1, 0, 2); /* C */
        send(&sim, net, 2, 0, 3); /* D */
        ev_run(&sim, INFINITY);
        ck_assert_near(arrive[0], 2 * L_HOP + D_SW, TOL);
        ck_assert_near(arrive[1], 3 * L_HOP + D_SW, TOL);
        ck_assert_near(arrive[3], 4 * L_HOP + D_SW, TOL);
        ck_assert_near(arrive[2], 5 * L_HOP + D_SW, TOL);
        ck_assert_uint_eq(net_whole_routes(net), 1);
        dispatched[observed] = sim.dispatched;
        scheduled[observed] = sim.scheduled;
        if (observed) {
            /* Every busy stretch told, in time order (obs_busy), summing
             * to each element's busy time; link 0 busy from A's turn
             * there to C's arrival without a gap. */
            for (long i = 0; i < 9; i++)
                ck_assert_near(obs_busy_time(i), busy_of(&sim, net, i), TOL);
            ck_assert_near(obs_at(0, true, 0), L_HOP + D_SW, TOL);
            ck_assert_near(obs_at(0, false, 0), 5 * L_HOP + D_SW, TOL);
            ck_assert_double_eq(obs_at(0, true, 1), -1);
        }
        net_set_observer(net, NULL);
        teardown(&sim, net);
    }
    ck_assert_uint_eq(dispatched[1], dispatched[0]);
    ck_assert_uint_eq(scheduled[1], scheduled[0]);
}
END_TEST

START_TEST(test_whole_kill_and_restart)
{
    net_observer o = {.busy = obs_busy};
    for (int observed = 0; observed <= 1; observed++) {
        reset_arrivals();
        memset(&olog, 0, sizeof olog);
        sim_t sim;
        net_t *net = mk(&sim, NET_ROUTE_WHOLE);
        if (observed)
            net_set_observer(net, &o);
        msg_t *a = send(&sim, net, 0, 5, 0);
        send(&sim, net, 1, 5, 1);
        ev_once(&sim, L_HOP + 0.5 * D_SW, kill_cb, a);
        ev_run(&sim, INFINITY);
        ck_assert(a->killed && !net_msg_in_flight(a));
        ck_assert_double_eq(arrive[0], -1);
        ck_assert_near(arrive[1], 2 * L_HOP + 1.5 * D_SW, TOL);
        ck_assert_near(busy_of(&sim, net, 0), L_HOP, TOL);
        ck_assert_near(busy_of(&sim, net, 8), 1.5 * D_SW, TOL);
        ck_assert_near(busy_of(&sim, net, 5), L_HOP, TOL);
        ck_assert_near(net_busy_time(&sim, net), 3 * L_HOP + 1.5 * D_SW, 4 * TOL);
        /* A crossed link 0 only; B all three of its elements. */
        ck_assert_uint_eq(net_elem_at(net, 0)->messages, 1);
        ck_assert_uint_eq(net_elem_at(net, 8)->messages, 1);
        ck_assert_uint_eq(net_elem_at(net, 5)->messages, 1);
        ck_assert_ptr_null(net_elem_at(net, 5)->whole.resv);
        if (observed)
            for (long i = 0; i < 9; i++)
                ck_assert_near(obs_busy_time(i), busy_of(&sim, net, i), TOL);
        /* Restarted at 1 on an idle network: one step again. */
        ev_once(&sim, 1.0, restart_cb, a);
        ev_run(&sim, INFINITY);
        ck_assert_near(arrive[0], 1 + 2 * L_HOP + D_SW, 1e-12);
        ck_assert_uint_eq(net_whole_routes(net), 2);
        ck_assert_uint_eq(net_restarts(net), 1);
        ck_assert_int_eq(net_in_flight(net), 0);
        if (observed)
            for (long i = 0; i < 9; i++)
                ck_assert_near(obs_busy_time(i), busy_of(&sim, net, i), 1e-12);
        net_set_observer(net, NULL);
        teardown(&sim, net);
    }
}
END_TEST

/* A virtual crosser (batched paging's net_vuser) crossing its link over
 * [a, b). */
typedef struct fake_vuser {
    net_vuser u;
    double a, b;
} fake_vuser;

static net_t *send_net;

static void send_at_cb(sim_t *sim, void *arg)
{
    (void)arg;
    send(sim, send_net, 0, 5, 0);
}

static double fake_crossing_end(const net_vuser *u, const net_elem *e, double t)
{
    const fake_vuser *f = (const fake_vuser *)u;
    (void)e;
    return f->a <= t && t < f->b ? f->b : -1;
}

START_TEST(test_virtual_crossing_waits)
{
    /* Link 5 crossed virtually over [a, b) = [L + D/2, L + D/2 + L) (a
     * batched page). A message 0 -> 5 sent at s reaches link 5 at
     * s + L + D: if that falls in [a, b) it waits until b, as behind a
     * message holding the link, and arrives b + L; otherwise s + 2L + D.
     * Sent at 0: reaches link 5 at L + D, inside: arrives 2L + D/2 + L.
     * Sent at L: reaches it at 2L + D, after b = 2L + D/2: no wait. With
     * the crossing D/4 later, sent at 0: L + D is still inside, arrives
     * 3L + 3D/4.
     * Both route modes (WHOLE walks hop by hop when a link of its route
     * is crossed virtually when it would reach it). The switch takes no
     * registration; unregistered, nothing waits. */
    static const struct { double shift, send, want; } c[] = {
        {0, 0, 3 * L_HOP + D_SW / 2},
        {0, L_HOP, L_HOP + 2 * L_HOP + D_SW},
        {D_SW / 4, 0, 3 * L_HOP + D_SW / 2 + D_SW / 4},
    };
    for (int mode = 0; mode < 2; mode++)
        for (int k = 0; k < 3; k++) {
            reset_arrivals();
            sim_t sim;
            net_t *net = mk(&sim, mode ? NET_ROUTE_WHOLE : NET_ROUTE_HOPS);
            fake_vuser f = {.u.crossing_end = fake_crossing_end,
                            .a = L_HOP + D_SW / 2 + c[k].shift,
                            .b = 2 * L_HOP + D_SW / 2 + c[k].shift};
            net_vuser_add(net_elem_at(net, 5), &f.u);
            ck_assert_double_eq(net_virtual_busy(net_elem_at(net, 5), f.a), f.b);
            ck_assert_double_eq(net_virtual_busy(net_elem_at(net, 5), f.b), -1);
            ck_assert_double_eq(net_virtual_busy(net_elem_at(net, 4), f.a), -1);
            send_net = net;
            ev_once(&sim, c[k].send, send_at_cb, NULL);
            ev_run(&sim, INFINITY);
            ck_assert_msg(fabs(arrive[0] - c[k].want) < TOL, "mode %d case %d: %.9g, want %.9g",
                          mode, k, arrive[0], c[k].want);
            ck_assert_uint_eq(net_virtual_waits(net), k != 1);
            net_vuser_del(&f.u);
            teardown(&sim, net);
        }
}
END_TEST

/* Sends message `tag` 0 -> 2 at the event's time (the uplink case). */
static void send_a_cb(sim_t *sim, void *arg)
{
    (void)arg;
    send(sim, send_net, 0, 2, 1);
}

START_TEST(test_reserved_while_waiting_virtually)
{
    /* Issue 23 part 4: a message waiting for virtual crossings on a link
     * in the middle of a route, while a WHOLE route reserves that link.
     * TREE, 4 PEs in racks of 2: links 0..3, uplinks 4, 5, ToR 6, 7, core
     * 8; uplinks as links (L), switches D. Route 1 -> 3: 1, 6, 4, 8, 5, 7,
     * 3; route 0 -> 2: 0, 6, 4, 8, 5, 7, 2.
     * Uplink 4 is crossed virtually over [0, b), b = L + D + L/2. B (1 ->
     * 3, sent at 0) reaches it at L + D, inside: it walks and waits
     * there until b. A (0 -> 2, sent at s = L + D + L/4, when nothing is
     * held) would reach uplink 4 at s + L + D > b: its route is idle, so
     * it is reserved: uplink 4 [s + L + D, s + 2L + D], core until
     * s + 2L + 2D, uplink 5 until s + 3L + 2D, ToR 7 until s + 3L + 3D;
     * A arrives s + 4L + 3D. At b, B asks for uplink 4 and queues behind
     * A's reservation (not yet begun: held back once); it gets the uplink
     * at the reservation's end s + 2L + D (not at A's arrival), then
     * uplink 4 L, core D (A's ended), uplink 5 L (A's ends as B reaches
     * it), ToR 7 D, link 3 L: B arrives s + 2L + D + 3L + 2D =
     * s + 5L + 3D. Before the fix B had no event at the reservation's
     * end: an assertion failed at A's arrival (net/whole.c resv_finish),
     * and without asserts B arrived s + 7L + 5D. */
    reset_arrivals();
    sim_t sim;
    ev_init(&sim);
    net_tree tr = {.ncompute = 4, .rack_size = 2, .servers = NET_SERVERS_SPREAD,
                   .uplink_bandwidth = BW, .uplink_latency = LAT};
    net_t *net = net_create_tree(&sim, &tr, 4, BW, LAT, DELAY);
    ck_assert_ptr_nonnull(net);
    net_set_route_mode(net, NET_ROUTE_WHOLE);
    ck_assert(!net_elem_at(net, 4)->is_switch && net_elem_at(net, 8)->is_switch);
    double b = L_HOP + D_SW + L_HOP / 2, s = L_HOP + D_SW + L_HOP / 4;
    fake_vuser f = {.u.crossing_end = fake_crossing_end, .a = 0, .b = b};
    net_vuser_add(net_elem_at(net, 4), &f.u);
    send(&sim, net, 1, 3, 0);
    send_net = net;
    ev_once(&sim, s, send_a_cb, NULL);
    ev_run(&sim, INFINITY);
    ck_assert_uint_eq(net_whole_routes(net), 1);
    ck_assert_uint_eq(net_virtual_waits(net), 1);
    ck_assert_uint_eq(net_held_back(net), 1);
    ck_assert_msg(fabs(arrive[1] - (s + 4 * L_HOP + 3 * D_SW)) < TOL, "A at %.12g", arrive[1]);
    ck_assert_msg(fabs(arrive[0] - (s + 5 * L_HOP + 3 * D_SW)) < TOL, "B at %.12g", arrive[0]);
    for (int i = 0; i < 9; i++) {
        ck_assert_ptr_null(net_elem_at(net, i)->whole.resv);
        ck_assert_ptr_null(net_elem_at(net, i)->res.holder);
    }
    /* Busy: each of the 7 elements of both routes once per message. */
    ck_assert_near(net_busy_time(&sim, net), 2 * (4 * L_HOP + 3 * D_SW), 1e-14);
    net_vuser_del(&f.u);
    teardown(&sim, net);
}
END_TEST

/* Switch waits for virtual crossings drawn from a rate: messages sent one
 * at a time. */
enum { NSW = 20000 };
static double sw_excess[NSW];
static int sw_n;

static void sw_arrive(sim_t *sim, msg_t *m)
{
    sw_excess[sw_n++] = sim->now - m->sent_at - (2 * L_HOP + D_SW);
    net_msg_free(m->net, m);
}

static void sw_send_cb(sim_t *sim, void *arg)
{
    (void)arg;
    msg_t *m = send(sim, send_net, 0, 5, 0);
    m->done = sw_arrive;
}

START_TEST(test_switch_virtual_rate)
{
    /* The switch crossed virtually at vrate = 1000 per second: load
     * rho_v = 1000 x D = 0.08. Messages one at a time, 1 ms apart, find
     * its backlog empty (what a message and its wait leave drains at
     * 1 - rho_v = 0.92 s per s, gone within the ms unless the wait is
     * over 0.84 ms, probability about e^-19), so each draws its wait
     * from the M/D/1 queue of the virtual crossings: mean rho_v D /
     * (2 (1 - rho_v)) = 0.08 x 8e-5 / 1.84 = 3.4783e-6 s, none with
     * probability 0.92. 20,000 messages alone on their route: the mean
     * excess over 2L + D within 5 standard errors of that, the share of
     * zero waits within 5 standard errors of 0.92; in both route modes
     * (WHOLE walks the route when its switch has a rate). The messages
     * load the switch too (rho_m = 0.08, net_rload), which a virtual
     * crossing waits behind (net_vwait_mean). Rate 0 again: no waits. */
    for (int mode = 0; mode < 2; mode++) {
        sim_t sim;
        rng_t *rg;
        net_t *net = mk_virtual(&sim, mode ? NET_ROUTE_WHOLE : NET_ROUTE_HOPS, &rg);
        net_elem *sw = star_switch(net);
        net_vrate_add(sw, 1000, D_SW);
        send_net = net;
        sw_n = 0;
        for (int k = 0; k < NSW; k++)
            ev_once(&sim, 1e-3 * k, sw_send_cb, NULL);
        ev_run(&sim, INFINITY);
        ck_assert_int_eq(sw_n, NSW);
        double sum = 0, sum2 = 0;
        int zero = 0;
        for (int k = 0; k < NSW; k++) {
            double x = sw_excess[k];
            ck_assert(x > -1e-12);
            sum += x;
            sum2 += x * x;
            zero += x < 1e-12;
        }
        double mean = sum / NSW, sd = sqrt(sum2 / NSW - mean * mean);
        /* A virtual crossing's mean wait: behind both streams, the
         * messages' second moment per second rho_m D (one size). */
        double rm = net_rload(sw, sim.now);
        ck_assert_msg(rm > 0.07 && rm < 0.09, "messages' load %g", rm);
        ck_assert_near(net_vwait_mean(sw, sim.now), (0.08 * D_SW + rm * D_SW) / (2 * (1 - 0.08 - rm)),
                       1e-18);
        ck_assert_msg(fabs(mean - 0.08 * D_SW / 1.84) < 5 * sd / sqrt(NSW), "mean wait %g", mean);
        double q = 0.92, pz = (double)zero / NSW;
        ck_assert_msg(fabs(pz - q) < 5 * sqrt(q * (1 - q) / NSW), "no wait %g", pz);
        ck_assert_uint_eq(net_virtual_waits(net), (uint64_t)(NSW - zero));
        net_vrate_add(sw, -1000, D_SW);
        ck_assert_double_eq(sw->batched.vrate, 0);
        reset_arrivals();
        double t0 = sim.now;
        send(&sim, net, 0, 5, 0);
        ev_run(&sim, INFINITY);
        ck_assert_near(arrive[0] - t0, 2 * L_HOP + D_SW, 1e-12); /* t0 ~ 20 s: ulps */
        teardown(&sim, net);
        rng_free(rg);
    }
}
END_TEST

START_TEST(test_messages_load_window)
{
    /* net_rload by hand (NET_RLOAD_WINDOW = 0.01 s), crossings of one
     * link added at t (s) for d (s):
     *   0.001 for 0.002, 0.004 for 0.001: window [0, 0.01) holds 0.003;
     *     at 0.005 the load is 0.003 / (0.01 + 0.005) = 0.2;
     *   0.013 for 0.002: the window rolls to [0.01, 0.02), the one before
     *     holds 0.003: at 0.015, (0.003 + 0.002) / 0.015 = 1/3; at 0.025
     *     (a window later, none added) 0.002 / 0.015; at 0.031 nothing;
     *   0.045 for 0.001: three windows on, [0.04, 0.05), nothing before:
     *     at 0.045, 0.001 / 0.015.
     * With virtual crossings at 100 per second of 0.001 s (rho_v = 0.1),
     * at 0.045 a virtual crossing waits (rho_v d + m2) / (2 (1 - rho))
     * with m2 = 0.001^2 / 0.015 and rho = 0.1 + 0.001 / 0.015: 1e-4 s.
     * Only while a virtual rng is set do messages add to the window:
     * messages on a network without one leave it empty. */
    sim_t sim;
    net_t *net = mk(&sim, NET_ROUTE_HOPS);
    net_elem *e = net_elem_at(net, 2);
    ck_assert(!e->is_switch);
    ck_assert_double_eq(net_rload(e, 0), 0);
    net_rload_add(e, 0.001, 0.002);
    net_rload_add(e, 0.004, 0.001);
    ck_assert_near(net_rload(e, 0.005), 0.2, 1e-12);
    net_rload_add(e, 0.013, 0.002);
    ck_assert_near(net_rload(e, 0.015), 1.0 / 3, 1e-12);
    ck_assert_near(net_rload(e, 0.025), 0.002 / 0.015, 1e-12);
    ck_assert_double_eq(net_rload(e, 0.031), 0);
    net_rload_add(e, 0.045, 0.001);
    ck_assert_near(net_rload(e, 0.045), 0.001 / 0.015, 1e-12);
    net_vrate_add(e, 100, 0.001);
    ck_assert_near(net_vwait_mean(e, 0.045), 1e-4, 1e-15);
    net_vrate_add(e, -100, 0.001);
    teardown(&sim, net);

    /* Messages, no virtual rng: nothing measured (exact runs pay nothing). */
    reset_arrivals();
    net = mk(&sim, NET_ROUTE_HOPS);
    send(&sim, net, 0, 5, 0);
    ev_run(&sim, INFINITY);
    ck_assert_double_eq(net_rload(net_elem_at(net, 8), sim.now), 0);
    teardown(&sim, net);
    /* With one: the switch saw one crossing of D, its link two of L. */
    reset_arrivals();
    rng_t *rg;
    net = mk_virtual(&sim, NET_ROUTE_HOPS, &rg);
    send(&sim, net, 0, 5, 0);
    ev_run(&sim, INFINITY);
    ck_assert_near(net_rload(net_elem_at(net, 8), sim.now), D_SW / (0.01 + sim.now), 1e-15);
    teardown(&sim, net);
    rng_free(rg);
}
END_TEST

/* A message sent at a given time (switch backlog tests). */
typedef struct timed_send {
    net_t *net;
    int src, dst;
    long tag;
    msg_t *m;
} timed_send;

static void timed_send_cb(sim_t *sim, void *arg)
{
    timed_send *t = arg;
    t->m = send(sim, t->net, t->src, t->dst, t->tag);
}

START_TEST(test_switch_backlog_burst)
{
    /* The switch's fluid backlog (net.h "Switch backlog"), by hand. Virtual
     * crossings load the switch rho_v = 0.5; its backlog is set to 1 ms at
     * t = 0 (virtual work queued there). A: 0 -> 5 sent at 0 reaches the
     * switch at L, where the backlog has drained to u = 1e-3 - L/2; the
     * switch is idle, so A takes it and holds it u (the virtual work ahead
     * of it), crosses [L+u, L+u+D] and link 5: arrives 2L + u + D. The
     * backlog is then u + D at L. B: 1 -> 6 sent at D/2 reaches the switch
     * at L + D/2 and finds u + D - (D/2)(1 - 0.5) = u + 0.75D: it may begin
     * at L + u + 1.25D. It waits in the switch's queue behind A until
     * L + u + D, then holds it 0.25D more (the virtual crossings that came
     * while A was being served, FIFO ahead of B), crosses and takes link 6:
     * arrives 2L + u + 2.25D. The switch is busy 2D (the waits for virtual
     * work are theirs, counted with their batches). No draw is made (the
     * backlog is never empty). In both route modes (WHOLE walks: the
     * switch has virtual crossings). With rho_v = 0, the same backlog is
     * not waited for (it can only be the messages' own queue, which the
     * switch serves): A arrives 2L + D. */
    for (int mode = 0; mode < 2; mode++)
        for (int virt = 1; virt >= 0; virt--) {
            sim_t sim;
            rng_t *rg;
            net_t *net = mk_virtual(&sim, mode ? NET_ROUTE_WHOLE : NET_ROUTE_HOPS, &rg);
            net_elem *sw = star_switch(net);
            if (virt)
                net_vrate_add(sw, 0.5 / D_SW, D_SW);
            sw->batched.fu = 1e-3;
            sw->batched.fu_t = 0;
            reset_arrivals();
            send(&sim, net, 0, 5, 0);
            timed_send b = {net, 1, 6, 1, NULL};
            if (virt)
                ev_once(&sim, D_SW / 2, timed_send_cb, &b);
            ev_run(&sim, INFINITY);
            if (virt) {
                double u = 1e-3 - L_HOP / 2;
                ck_assert_near(arrive[0], 2 * L_HOP + u + D_SW, TOL);
                ck_assert_near(arrive[1], 2 * L_HOP + u + 2.25 * D_SW, TOL);
                ck_assert_near(busy_of(&sim, net, 8), 2 * D_SW, TOL);
                ck_assert_uint_eq(net_virtual_waits(net), 2);
                net_vrate_add(sw, -0.5 / D_SW, D_SW);
            } else {
                ck_assert_near(arrive[0], 2 * L_HOP + D_SW, TOL);
                ck_assert_near(busy_of(&sim, net, 8), D_SW, TOL);
                ck_assert_uint_eq(net_virtual_waits(net), 0);
            }
            teardown(&sim, net);
            rng_free(rg);
        }
}
END_TEST

/* Kill a message; then read the switch's backlog (same instant). */
typedef struct kill_look {
    msg_t *m;
    net_elem *sw;
    double backlog;
} kill_look;

static void kill_look_cb(sim_t *sim, void *arg)
{
    kill_look *k = arg;
    net_kill(sim, k->m->net, k->m);
    k->backlog = net_switch_backlog(k->sw, sim->now);
}

START_TEST(test_switch_backlog_kill)
{
    /* A killed message takes its crossing out of the switch's backlog,
     * and a wait for virtual work is not busy time. As above: rho_v = 0.5,
     * backlog 1 ms at 0, A: 0 -> 5 reaches the switch at L, finds
     * u = 1e-3 - L/2, holds the switch u, then crosses it for D; the
     * backlog is u + D at L.
     *   - Killed at L + u/2 (waiting for the virtual work): the backlog
     *     is u + D - (u/2)(0.5) = 0.75u + D, less A's crossing: 0.75u;
     *     the switch was never busy.
     *   - Killed at L + u + D/2 (half-way across): u + D - (u + D/2)(0.5)
     *     = 0.5u + 0.75D, less the half left: 0.5u + 0.25D; busy D/2.
     * Link 0 is busy L either way; nothing arrives. HOPS (WHOLE walks the
     * same way here: the switch has virtual crossings). */
    for (int half = 0; half < 2; half++) {
        sim_t sim;
        rng_t *rg;
        net_t *net = mk_virtual(&sim, NET_ROUTE_HOPS, &rg);
        net_elem *sw = star_switch(net);
        net_vrate_add(sw, 0.5 / D_SW, D_SW);
        sw->batched.fu = 1e-3;
        sw->batched.fu_t = 0;
        reset_arrivals();
        double u = 1e-3 - L_HOP / 2;
        kill_look k = {send(&sim, net, 0, 5, 0), sw, -1};
        ev_once(&sim, half ? L_HOP + u + D_SW / 2 : L_HOP + u / 2, kill_look_cb, &k);
        ev_run(&sim, INFINITY);
        ck_assert_int_eq(arrivals, 0);
        ck_assert(k.m->killed);
        if (half) {
            ck_assert_near(k.backlog, 0.5 * u + 0.25 * D_SW, TOL);
            ck_assert_near(busy_of(&sim, net, 8), D_SW / 2, TOL);
        } else {
            ck_assert_near(k.backlog, 0.75 * u, TOL);
            ck_assert_near(busy_of(&sim, net, 8), 0, TOL);
        }
        ck_assert_near(busy_of(&sim, net, 0), L_HOP, TOL);
        net_vrate_add(sw, -0.5 / D_SW, D_SW);
        net_msg_free(net, k.m);
        teardown(&sim, net);
        rng_free(rg);
    }
}
END_TEST

static Suite *make_suite(void)
{
    (void)kill_net; /* the fixture's, for the tests that kill by callback */
    Suite *s = suite_create("net_whole");
    TCase *tc = tcase_create("whole");
    tcase_add_test(tc, test_whole_alone);
    tcase_add_test(tc, test_whole_contention_same_as_hops);
    tcase_add_test(tc, test_whole_no_overtaking);
    tcase_add_test(tc, test_whole_observer_passive);
    tcase_add_test(tc, test_whole_kill_and_restart);
    tcase_add_test(tc, test_virtual_crossing_waits);
    tcase_add_test(tc, test_reserved_while_waiting_virtually);
    tcase_add_test(tc, test_switch_virtual_rate);
    tcase_add_test(tc, test_messages_load_window);
    tcase_add_test(tc, test_switch_backlog_burst);
    tcase_add_test(tc, test_switch_backlog_kill);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
