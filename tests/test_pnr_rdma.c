/* tests/test_pnr_rdma.c: one-sided far memory (issue 25 item 4,
 * netram.transport = RDMA; docs/MODEL.md "One-sided far memory"), on the
 * hand-built machine of tests/fixture_pnr.h (star, BW = 12.5e6 B/s links,
 * LAT = 5e-8 s, DELAY = 8e-5 s switches, 4096-byte pages).
 *
 * An RDMA transfer of P bytes holds each link P / bandwidth (no link
 * latency), each switch its delay, store-and-forward FIFO like a message,
 * and the operation's rdma_latency is added once at its end. With
 * a = P / BW = 4096 / 12.5e6 = 3.2768e-4 s:
 *   - STAR (link, switch, link), idle: a fault costs rdma + 2a + DELAY;
 *   - TREE across racks (link, ToR, uplink, core, uplink, ToR, link) with
 *     uplinks of UBW = 125e6 B/s, u = P / UBW = 3.2768e-5 s: a fault costs
 *     rdma + 2a + 2u + 3 DELAY;
 *   - contention: two READs from PE 0 to PEs 1 and 2 at the same instant
 *     queue at PE 0's link: the first arrives at 2a + DELAY, the second
 *     waits a there and arrives at 3a + DELAY;
 *   - on a TREE a READ may wait at a ToR behind a WRITE going the other
 *     way (test_rdma_tree_read_waits: 2a + 4u + 7 DELAY).
 * No server agent runs: the server receives no PAGE_OUT and no page
 * message is sent; the faulting side's counts are RDMA READs and WRITEs.
 */
#include "app/config.h"
#include "app/config_notes.h"
#include "app/run.h"
#include "pnr/check.h" /* private: internal.h, the handler table */
#include "pnr/frame.h" /* private: pnr_rdma_post */
#include "pnr/pnr.h"
#include "sched/job.h"
#include "tests/testcluster.h"
#include "tests/testutil.h"

#include "tests/fixture_pnr.h"

static const double RAM100[NPE_MAX] = {100, 100, 100, 100, 100, 100, 100, 100};

#define A_LINK (PAGE / BW) /* 3.2768e-4 s */
#define RDMA_LAT 1e-4      /* > DELAY: a fault's WRITE is over before the
                            * thread goes on (it leaves the switch at
                            * 2a + 2 DELAY, the thread at 2a + DELAY + 1e-4) */

/* Sum over every message kind of what pe received (agents that ran). */
static uint64_t received_all(const world *w, int pe)
{
    uint64_t n = 0;
    for (int k = PNR_MSG_REQUEST; k < PNR_MSG_KINDS_END; k++)
        n += received(w, pe, k);
    return n;
}

START_TEST(test_rdma_star_idle)
{
    /* As test_remote_faults_round_trip (test_pnr.c), with transport RDMA:
     * CENTRAL, 2 PEs of 100 MB, one 110 MB thread on PE 1 wholly covered
     * by 10 MB lent by PE 0 (allocation by the protocol's messages as
     * before: it waits T(64) + T(76)). Each fault: the READ crosses link 0,
     * the switch, link 1: a + DELAY + a, then RDMA_LAT; the WRITE leaves at
     * the same instant over link 1, the switch (behind the READ, which
     * was posted first: it waits DELAY), link 0 (free since a). So every
     * fault costs exactly RDMA_LAT + 2a + DELAY = 1e-4 + 6.5536e-4 + 8e-5
     * = 8.3536e-4 s (by messages: 2 T(4096) = 1.51092e-3 s). */
    world w;
    const char *sets[] = {"netram.transport=RDMA", "netram.rdma_latency=1e-4", NULL};
    world_init(&w, 2, RAM100, 2e-5, "CENTRAL", sets, 3);
    job_t *j = make_job(&w, 1, 1, (int[]){1}, 50, 110);
    start_at(&w, 1, j);
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(w.jobs_ended, 1);
    struct jrec *r = &w.rec[1];
    double wait = T_MSG(CTRL) + T_MSG(CTRL + 12);
    ck_assert_near(r->waited_alloc, wait, 1e-15);
    ck_assert_uint_gt(r->faults, 300);
    ck_assert_uint_eq(w.cl.pes[1].remote_faults, r->faults);
    ck_assert_uint_eq(w.cl.pes[1].disk_faults, 0);
    ck_assert_near(r->fault_time / (double)r->faults, RDMA_LAT + 2 * A_LINK + DELAY, 1e-15);
    ck_assert_near(r->end, 1 + wait + 50 + r->fault_time, 1e-9);
    /* No page messages, one READ and one WRITE per fault, the protocol's
     * control messages as by messages (one of each kind). */
    const pnr_stats *st = pnr_get_stats(w.pnr);
    ck_assert_uint_eq(sent(&w, PNR_MSG_PAGE_OUT), 0);
    ck_assert_uint_eq(sent(&w, PNR_MSG_PAGE_IN), 0);
    ck_assert_uint_eq(st->rdma_reads, r->faults);
    ck_assert_uint_eq(st->rdma_writes, r->faults);
    ck_assert_double_eq(st->rdma_read_bytes, PAGE * (double)r->faults);
    ck_assert_double_eq(st->rdma_write_bytes, PAGE * (double)r->faults);
    for (int k = PNR_MSG_REQUEST; k <= PNR_MSG_ACK; k++)
        ck_assert_uint_eq(sent(&w, k), 1);
    /* No agent of the server ran for a page: PE 0 (server and manager)
     * handled the 6 protocol messages of PE 0's side only (REQUEST, ASK,
     * GRANT, DEALLOC, FREE, ACK), PE 1 the REPLY; nobody a page. */
    ck_assert_uint_eq(received(&w, 0, PNR_MSG_PAGE_OUT), 0);
    ck_assert_uint_eq(received(&w, 1, PNR_MSG_PAGE_IN), 0);
    ck_assert_uint_eq(received_all(&w, 0), 6);
    ck_assert_uint_eq(received_all(&w, 1), 1);
    /* The elements count RDMA transfers like messages: link 1 carried the
     * REQUEST (64 B), the REPLY (76), the DEALLOC (76) and 2 pages per
     * fault; its busy time is theirs: 3 control crossings of LAT + b/BW
     * and 2 a per fault (no latency). */
    net_elem *l1 = net_elem_at(w.cl.net, 1);
    ck_assert_uint_eq(l1->messages, 3 + 2 * r->faults);
    ck_assert_double_eq(l1->bytes, 64 + 76 + 76 + 2 * PAGE * (double)r->faults);
    double busy = 3 * LAT + (64 + 76 + 76) / BW + 2 * A_LINK * (double)r->faults;
    ck_assert_near(res_busy_time(&w.sim, &l1->res), busy, 1e-12);
    assert_settled(w.pnr);
    world_free(&w);
}
END_TEST

START_TEST(test_rdma_tree_7_hops)
{
    /* TREE, racks of 1 PE (PE 0 in rack 0, PE 1 in rack 1), uplinks of
     * UBW = 125e6 B/s (u = 3.2768e-5 s) with a latency of 1 ms that RDMA
     * does not pay. The READ from PE 0 to PE 1 crosses link 0 (a), ToR 0
     * (D), uplink 0 (u), the core (D), uplink 1 (u), ToR 1 (D), link 1 (a).
     * The WRITE goes the other way at the same instant: it reaches the
     * core at a + D + u, when the READ does, and queues behind it (posted
     * first), D; every other element it meets is free. So each fault:
     * RDMA_LAT + 2a + 2u + 3 D = 1e-4 + 6.5536e-4 + 6.5536e-5 + 2.4e-4 =
     * 1.060896e-3 s; the WRITE is over at 2a + 2u + 3D, before the thread
     * goes on. */
    world_tree = (net_tree){.ncompute = 2, .rack_size = 1, .servers = NET_SERVERS_SPREAD,
                            .uplink_bandwidth = 125e6, .uplink_latency = 1e-3};
    world w;
    const char *sets[] = {"netram.transport=RDMA", "netram.rdma_latency=1e-4", NULL};
    world_init_topo(&w, TOPO_KIND_TREE, 2, RAM100, 2e-5, "CENTRAL", sets, 3);
    ck_assert_int_eq(net_route_len(w.cl.net, 0, 1), 7);
    job_t *j = make_job(&w, 1, 1, (int[]){1}, 50, 110);
    start_at(&w, 1, j);
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(w.jobs_ended, 1);
    struct jrec *r = &w.rec[1];
    ck_assert_uint_gt(r->faults, 300);
    ck_assert_uint_eq(w.cl.pes[1].remote_faults, r->faults);
    double u = PAGE / 125e6;
    ck_assert_near(r->fault_time / (double)r->faults,
                   RDMA_LAT + 2 * A_LINK + 2 * u + 3 * DELAY, 1e-12);
    ck_assert_near(RDMA_LAT + 2 * A_LINK + 2 * u + 3 * DELAY, 1.060896e-3, 1e-15);
    ck_assert_uint_eq(received(&w, 0, PNR_MSG_PAGE_OUT), 0);
    assert_settled(w.pnr);
    world_free(&w);
}
END_TEST

/* The READs' arrival times (the test's handler in place of the client's). */
static double arrived_at[4];
static int arrived_to[4];
static int narrived;

static void record_read(pnr_t *p, const pnr_page_msg *m)
{
    ck_assert_int_lt(narrived, 4);
    arrived_at[narrived] = p->sim->now;
    arrived_to[narrived++] = m->h.m.dst;
}

START_TEST(test_rdma_contention)
{
    /* STAR, 3 PEs. Two READs leave server PE 0 at t = 0, to PE 1 then to
     * PE 2. Both need link 0 at once: the first holds it [0, a], the
     * second waits there a and holds it [a, 2a]. First: switch [a, a+D],
     * link 1 [a+D, 2a+D]: arrives at 2a + D = 7.3536e-4 s. Second: switch
     * [2a, 2a+D], link 2 [2a+D, 3a+D]: arrives at 3a + D = 1.06304e-3 s.
     * Link 0 was busy 2a (no link latency), carried 2 transfers of P. */
    world w;
    const char *sets[] = {"netram.transport=RDMA", NULL};
    world_init(&w, 3, RAM100, 0, "CENTRAL", sets, 3);
    w.pnr->handlers.on_rdma_read = record_read;
    narrived = 0;
    pnr_rdma_post(w.pnr, PNR_RDMA_READ, 0, 1, NULL);
    pnr_rdma_post(w.pnr, PNR_RDMA_READ, 0, 2, NULL);
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(narrived, 2);
    ck_assert_int_eq(arrived_to[0], 1);
    ck_assert_near(arrived_at[0], 2 * A_LINK + DELAY, 1e-15);
    ck_assert_near(arrived_at[0], 7.3536e-4, 1e-15);
    ck_assert_int_eq(arrived_to[1], 2);
    ck_assert_near(arrived_at[1], 3 * A_LINK + DELAY, 1e-15);
    ck_assert_near(arrived_at[1], 1.06304e-3, 1e-15);
    net_elem *l0 = net_elem_at(w.cl.net, 0);
    ck_assert_near(res_busy_time(&w.sim, &l0->res), 2 * A_LINK, 1e-15);
    ck_assert_uint_eq(l0->messages, 2);
    ck_assert_double_eq(l0->bytes, 2 * PAGE);
    ck_assert_uint_eq(pnr_get_stats(w.pnr)->rdma_reads, 2);
    ck_assert_uint_eq(received_all(&w, 0), 0);
    world_free(&w);
}
END_TEST

START_TEST(test_rdma_tree_read_waits)
{
    /* Issue 25 review: a 7-hop case where a timed READ itself waits.
     * TREE, racks of 1 PE (PE k in rack k), uplinks of UBW = 125e6 B/s,
     * u = P / UBW = 3.2768e-5 s (their 1 ms latency is not paid by RDMA);
     * a = 3.2768e-4 s, D = 8e-5 s. At t = 0, in this order: READ1 PE 0 ->
     * PE 1, READ2 PE 0 -> PE 2, WRITE PE 1 -> PE 0 (links carry one transfer
     * at a time in both directions, §4.2.1; ties in posting order).
     *   READ1: link 0 [0, a], ToR 0 [a, a+D], uplink 0 [a+D, a+D+u],
     *     core [a+D+u, a+2D+u] (reached at the same instant as the WRITE,
     *     posted first so it goes first), uplink 1 [a+2D+u, a+2D+2u]
     *     (the WRITE left it at a+D+u), ToR 1 [.., a+3D+2u], link 1
     *     [.., 2a+3D+2u]: arrives at 2a + 2u + 3D = 9.60896e-4 s.
     *   WRITE: link 1 [0, a], ToR 1 [a, a+D], uplink 1 [a+D, a+D+u], waits
     *     D at the core behind READ1: core [a+2D+u, a+3D+u], uplink 0
     *     [a+3D+u, a+3D+2u] (READ1 left it at a+D+u), ToR 0 from
     *     a+3D+2u = 6.33216e-4 to a+4D+2u = 7.13216e-4, link 0 (free since
     *     2a) [7.13216e-4, 2a+4D+2u = 1.040896e-3].
     *   READ2: waits a at link 0 behind READ1: link 0 [a, 2a]; reaches
     *     ToR 0 at 2a = 6.5536e-4, where the WRITE holds it (since
     *     6.33216e-4) until 7.13216e-4: waits 5.7856e-5 s. Then ToR 0 [
     *     7.13216e-4, +D], uplink 0 (+u), core (+D, free since a+3D+u),
     *     uplink 2 (+u), ToR 2 (+D), link 2 (+a), all free: arrives at
     *     a+4D+2u + 3D + 2u + a = 2a + 7D + 4u = 1.346432e-3 s.
     * Link 0 was busy 2a for the READs and a for the WRITE: 3a. */
    world_tree = (net_tree){.ncompute = 3, .rack_size = 1, .servers = NET_SERVERS_SPREAD,
                            .uplink_bandwidth = 125e6, .uplink_latency = 1e-3};
    world w;
    const char *sets[] = {"netram.transport=RDMA", NULL};
    world_init_topo(&w, TOPO_KIND_TREE, 3, RAM100, 0, "CENTRAL", sets, 3);
    ck_assert_int_eq(net_route_len(w.cl.net, 0, 2), 7);
    w.pnr->handlers.on_rdma_read = record_read;
    narrived = 0;
    pnr_rdma_post(w.pnr, PNR_RDMA_READ, 0, 1, NULL);
    pnr_rdma_post(w.pnr, PNR_RDMA_READ, 0, 2, NULL);
    pnr_rdma_post(w.pnr, PNR_RDMA_WRITE, 1, 0, NULL);
    ev_run(&w.sim, INFINITY);
    double u = PAGE / 125e6;
    ck_assert_int_eq(narrived, 2);
    ck_assert_int_eq(arrived_to[0], 1);
    ck_assert_near(arrived_at[0], 2 * A_LINK + 2 * u + 3 * DELAY, 1e-15);
    ck_assert_near(arrived_at[0], 9.60896e-4, 1e-15);
    ck_assert_int_eq(arrived_to[1], 2);
    ck_assert_near(arrived_at[1], 2 * A_LINK + 4 * u + 7 * DELAY, 1e-15);
    ck_assert_near(arrived_at[1], 1.346432e-3, 1e-15);
    /* Without the WRITE's hold of ToR 0 READ2 would arrive at 2a + 2u + 3D
     * + a (its wait at link 0 only) = 1.288576e-3 s. */
    ck_assert(arrived_at[1] > 3 * A_LINK + 2 * u + 3 * DELAY + 5e-5);
    net_elem *l0 = net_elem_at(w.cl.net, 0);
    ck_assert_near(res_busy_time(&w.sim, &l0->res), 3 * A_LINK, 1e-15);
    ck_assert_uint_eq(l0->messages, 3);
    ck_assert_uint_eq(pnr_get_stats(w.pnr)->rdma_reads, 2);
    ck_assert_uint_eq(pnr_get_stats(w.pnr)->rdma_writes, 1);
    ck_assert_uint_eq(received_all(&w, 0), 0);
    world_free(&w);
}
END_TEST

START_TEST(test_rdma_warnings)
{
    /* Keys without effect (docs/MODEL.md "Keys without effect"). */
    config c;
    char err[CFG_ERR_MAX];
    cfg_note notes[8];
    config_defaults(&c);
    ck_assert_int_eq(config_set(&c, "netram.transport=RDMA", err), 0);
    ck_assert_int_eq(config_set(&c, "netram.rdma_latency=1e-6", err), 0);
    size_t n = config_ignored(&c, notes, 8); /* network RAM off */
    ck_assert_uint_eq(n, 2);
    ck_assert_str_eq(notes[0].key, "netram.transport");
    ck_assert_str_eq(notes[1].key, "netram.rdma_latency");
    ck_assert_int_eq(config_set(&c, "netram.enabled=yes", err), 0);
    ck_assert_uint_eq(config_ignored(&c, notes, 8), 0);
    ck_assert_int_eq(config_set(&c, "process.paging=BATCHED", err), 0);
    ck_assert_uint_eq(config_ignored(&c, notes, 8), 1);
    ck_assert_ptr_nonnull(strstr(notes[0].what, "[process] paging = BATCHED has no effect: "
                                                "with pages moved by one-sided RDMA"));
    ck_assert_int_eq(config_set(&c, "netram.transport=MESSAGES", err), 0);
    ck_assert_uint_eq(config_ignored(&c, notes, 8), 1);
    ck_assert_str_eq(notes[0].key, "netram.rdma_latency");
}
END_TEST

START_TEST(test_rdma_batched_runs_exactly)
{
    /* process.paging = BATCHED with RDMA: every fault runs exactly, so the
     * run is the exact one fault for fault (test_rdma_star_idle's case). */
    double ft[2];
    uint64_t nf[2];
    for (int v = 0; v < 2; v++) {
        world_paging = v ? PAGING_BATCHED : PAGING_EXACT;
        world w;
        const char *sets[] = {"netram.transport=RDMA", "netram.rdma_latency=1e-4", NULL};
        world_init(&w, 2, RAM100, 2e-5, "CENTRAL", sets, 3);
        job_t *j = make_job(&w, 1, 1, (int[]){1}, 50, 110);
        start_at(&w, 1, j);
        ev_run(&w.sim, INFINITY);
        ft[v] = w.rec[1].fault_time;
        nf[v] = w.rec[1].faults;
        ck_assert_uint_eq(pnr_get_stats(w.pnr)->rdma_reads, nf[v]);
        world_free(&w);
    }
    world_paging = PAGING_EXACT;
    ck_assert_uint_eq(nf[0], nf[1]);
    ck_assert_double_eq(ft[0], ft[1]);
}
END_TEST

/* ---- netram.rdma_read = ROUND_TRIP (issue 33) ------------------------------
 * A READ is its request (CTRL = 64 bytes, client -> server) and then the
 * page back; a WRITE stays one way. On the STAR of 2 PEs the route is
 * link, switch, link (two links, one switch between). With
 * c = CTRL / BW = 64 / 12.5e6 = 5.12e-6 s, a = 3.2768e-4 s, D = 8e-5 s:
 *   request: link 1 [0, c], switch [c, c+D], link 0 [c+D, 2c+D];
 *   page:    link 0 [2c+D, 2c+D+a], switch [.., 2c+2D+a], link 1
 *            [.., 2c+2D+2a]: it arrives at 2c + 2D + 2a
 *            = 1.024e-5 + 1.6e-4 + 6.5536e-4 = 8.256e-4 s,
 * and the thread goes on rdma_latency later. (ONE_WAY: 2a + D = 7.3536e-4.) */
#define C_LINK (CTRL / BW) /* 5.12e-6 s */

START_TEST(test_rdma_read_round_trip)
{
    world w;
    const char *sets[] = {"netram.transport=RDMA", "netram.rdma_read=ROUND_TRIP", NULL};
    world_init(&w, 2, RAM100, 0, "CENTRAL", sets, 3);
    w.pnr->handlers.on_rdma_read = record_read;
    narrived = 0;
    pnr_rdma_post(w.pnr, PNR_RDMA_READ, 0, 1, NULL);
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(narrived, 1);
    ck_assert_int_eq(arrived_to[0], 1);
    ck_assert_near(arrived_at[0], 2 * C_LINK + 2 * DELAY + 2 * A_LINK, 1e-15);
    ck_assert_near(arrived_at[0], 8.256e-4, 1e-15);
    /* Each link carried the request and the page: CTRL + PAGE bytes, busy
     * c + a; the operation is counted once, with the page's bytes. */
    for (int l = 0; l < 2; l++) {
        net_elem *e = net_elem_at(w.cl.net, l);
        ck_assert_uint_eq(e->messages, 2);
        ck_assert_double_eq(e->bytes, CTRL + PAGE);
        ck_assert_near(res_busy_time(&w.sim, &e->res), C_LINK + A_LINK, 1e-15);
    }
    ck_assert_uint_eq(pnr_get_stats(w.pnr)->rdma_reads, 1);
    ck_assert_double_eq(pnr_get_stats(w.pnr)->rdma_read_bytes, PAGE);
    ck_assert_uint_eq(received_all(&w, 0), 0);
    world_free(&w);
}
END_TEST

START_TEST(test_rdma_write_one_way)
{
    /* Under ROUND_TRIP a WRITE is still the page alone, one way: PE 1 ->
     * PE 0 over link 1 [0, a], the switch [a, a+D], link 0 [a+D, 2a+D]:
     * the last event is its arrival at 2a + D = 7.3536e-4 s, no rdma
     * latency after it (nobody waits for it), no handler runs. */
    world w;
    const char *sets[] = {"netram.transport=RDMA", "netram.rdma_read=ROUND_TRIP",
                          "netram.rdma_latency=1e-4", NULL};
    world_init(&w, 2, RAM100, 0, "CENTRAL", sets, 3);
    w.pnr->handlers.on_rdma_read = record_read;
    narrived = 0;
    pnr_rdma_post(w.pnr, PNR_RDMA_WRITE, 1, 0, NULL);
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(narrived, 0);
    ck_assert_near(w.sim.now, 2 * A_LINK + DELAY, 1e-15);
    ck_assert_near(w.sim.now, 7.3536e-4, 1e-15);
    net_elem *l0 = net_elem_at(w.cl.net, 0);
    ck_assert_uint_eq(l0->messages, 1);
    ck_assert_double_eq(l0->bytes, PAGE);
    ck_assert_uint_eq(pnr_get_stats(w.pnr)->rdma_writes, 1);
    world_free(&w);
}
END_TEST

START_TEST(test_rdma_fault_round_trip)
{
    /* test_rdma_star_idle's run with ROUND_TRIP. A fault posts the READ
     * (its request first) and the WRITE, both leaving PE 1:
     *   request: link 1 [0, c], switch [c, c+D], link 0 [c+D, 2c+D];
     *   WRITE:   link 1 [c, c+a] (behind the request), switch [c+a,
     *            c+a+D], reaches link 0 at c+a+D = 4.128e-4, held by the
     *            page since 2c+D = 9.024e-5 until 2c+D+a = 4.1792e-4:
     *            link 0 [4.1792e-4, 7.456e-4];
     *   page:    link 0 [2c+D, 2c+D+a], switch [4.1792e-4, 4.9792e-4] (free
     *            since c+a+D), link 1 [4.9792e-4, 8.256e-4] (free since
     *            c+a): it arrives at 2c + 2D + 2a = 8.256e-4.
     * The thread goes on at RDMA_LAT + 8.256e-4 = 9.256e-4 s, after the
     * WRITE is over (7.456e-4): every fault starts on an idle route and
     * costs exactly 9.256e-4 s (ONE_WAY: 8.3536e-4; the mean over the
     * faults to 1e-12: each fault's time is now - start at t ~ 50 s). */
    world w;
    const char *sets[] = {"netram.transport=RDMA", "netram.rdma_latency=1e-4",
                          "netram.rdma_read=ROUND_TRIP", NULL};
    world_init(&w, 2, RAM100, 2e-5, "CENTRAL", sets, 3);
    job_t *j = make_job(&w, 1, 1, (int[]){1}, 50, 110);
    start_at(&w, 1, j);
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(w.jobs_ended, 1);
    struct jrec *r = &w.rec[1];
    ck_assert_uint_gt(r->faults, 300);
    ck_assert_uint_eq(w.cl.pes[1].remote_faults, r->faults);
    ck_assert_near(r->fault_time / (double)r->faults,
                   RDMA_LAT + 2 * C_LINK + 2 * DELAY + 2 * A_LINK, 1e-12);
    ck_assert_near(RDMA_LAT + 2 * C_LINK + 2 * DELAY + 2 * A_LINK, 9.256e-4, 1e-15);
    const pnr_stats *st = pnr_get_stats(w.pnr);
    ck_assert_uint_eq(st->rdma_reads, r->faults);
    ck_assert_uint_eq(st->rdma_writes, r->faults);
    ck_assert_uint_eq(received_all(&w, 1), 1); /* the REPLY only */
    assert_settled(w.pnr);
    world_free(&w);
}
END_TEST

START_TEST(test_rdma_read_warning)
{
    /* rdma_read without RDMA paging has no effect (a note, as rdma_latency). */
    config c;
    char err[CFG_ERR_MAX];
    cfg_note notes[8];
    config_defaults(&c);
    ck_assert_int_eq(config_set(&c, "netram.enabled=yes", err), 0);
    ck_assert_int_eq(config_set(&c, "netram.rdma_read=ROUND_TRIP", err), 0);
    ck_assert_uint_eq(config_ignored(&c, notes, 8), 1);
    ck_assert_str_eq(notes[0].key, "netram.rdma_read");
    ck_assert_int_eq(config_set(&c, "netram.transport=RDMA", err), 0);
    ck_assert_uint_eq(config_ignored(&c, notes, 8), 0);
    ck_assert_int_ne(config_set(&c, "netram.rdma_read=TWO_WAY", err), 0);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("pnr_rdma");
    TCase *tc = tcase_create("rdma");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_rdma_star_idle);
    tcase_add_test(tc, test_rdma_tree_7_hops);
    tcase_add_test(tc, test_rdma_contention);
    tcase_add_test(tc, test_rdma_tree_read_waits);
    tcase_add_test(tc, test_rdma_warnings);
    tcase_add_test(tc, test_rdma_batched_runs_exactly);
    tcase_add_test(tc, test_rdma_read_round_trip);
    tcase_add_test(tc, test_rdma_write_one_way);
    tcase_add_test(tc, test_rdma_fault_round_trip);
    tcase_add_test(tc, test_rdma_read_warning);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
