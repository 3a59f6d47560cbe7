/* tests/test_pnr_batch.c: batched paging of remote faults
 * (process.paging = BATCHED with network RAM: sched/batch.c, pnr/client.c
 * pnr_fault_plan and pnr_fault_count, net/batched.c net_count_idle;
 * docs/BATCHING.md).
 *
 * The references are worked out by hand or are the exact machinery, never
 * the batched code's own output:
 *   - a thread alone whose overallocation is all in network RAM (the
 *     round-trip case of tests/test_pnr.c): on the idle star every fault
 *     costs 2 T(4096), page out and page in, in either mode; both modes
 *     draw the same destinations and fault clocks from the same streams,
 *     so they fault at the same CPU times, end at the same instant, and
 *     count the same page messages, received pages and crossings of every
 *     link and the switch (messages, bytes, busy time); the batched run
 *     takes a small fraction of the events;
 *   - the same on a TREE of two racks, MANAGER and BACKBONE, a thread
 *     whose network RAM is at two servers (each fault draws one) and
 *     with an access time: every server's pages, every link's, uplink's
 *     and switch's crossings equal;
 *   - a half-covered thread (test_pnr.c's partial cover) mixes disk and
 *     remote faults inside batches: fault time = disk faults x disk
 *     service + remote faults x 2 T(4096), and the remote share is
 *     Binomial(n, 0.49) within 5 standard deviations;
 *   - the batched run's virtual crossings of each link (which messages
 *     wait for) begin and end where the exact run's page messages hold
 *     that link, at 400 instants;
 *   - two threads paging to one server: their pages queue at its link,
 *     and the batched mean wait per fault beyond the idle round trip is
 *     60-120% of the exact one (the M/D/1 mean leaves out part of the
 *     FIFO queue's; 10 seeds each);
 *   - a batch's page waiting at a link is in the link's queue for the
 *     messages that ask for it then (all of its crossing left), by hand;
 *   - seven threads saturating one server's link: busy no longer than
 *     the run in either mode, and fault time within 10%;
 *   - wherever a batch is cut by a job stop (120 instants, many inside a
 *     remote fault), once the fault under way has had time to end the
 *     thread, PE, PNR and network counters equal the exact run's, and so
 *     do the loads each end has heard from the page messages, with their
 *     stamps.
 * Every run has PNR's checks on (tables against a plain copy, conservation
 * of lent, held and in-transit memory) and ends settled.
 */
#include "app/config.h"
#include "app/run.h"
#include "net/net.h"
#include "pnr/check.h"
#include "pnr/pnr.h"
#include "pnr/pnr_check.h"
#include "pnr/table.h" /* private: the tables */
#include "sched/job.h"
#include "sched/batch_link.h" /* a batch built by hand */
#include "tests/testcluster.h"
#include "tests/testutil.h"

#include <math.h>
#include <stdint.h>
#include <string.h>
#include "tests/fixture_pnr.h"

static const double RAM100[NPE_MAX] = {100, 100, 100, 100, 100, 100, 100, 100};

#define NELEM 16 /* elements of the networks below, at most */

/* Everything the two modes must agree on, read at one instant (the
 * faulting thread, j's first, is on PE `pe`; on a star of 2 PEs its server
 * is PE 0). */
typedef struct mtally {
    uint64_t faults, th_faults, remote, disk, page_out, page_in, got_out, got_in;
    uint64_t sent, delivered, elem_msgs[NELEM], got[NPE_MAX];
    double fault_time, cpu_done, D, end, elem_bytes[NELEM], elem_busy[NELEM];
    long nelem;
    entry_t heard[2];       /* PE 0's table entry for PE 1, and PE 1's for 0 */
} mtally;

static mtally read_mtally_on(world *w, job_t *j, int pe_id)
{
    mtally t = {0};
    pe_t *pe = &w->cl.pes[pe_id];
    thread_t *th = j->th ? &j->th[0] : NULL;
    t.faults = j->faults;
    t.th_faults = th ? th->faults : 0;
    t.remote = pe->remote_faults;
    t.disk = pe->disk_faults;
    t.page_out = sent(w, PNR_MSG_PAGE_OUT);
    t.page_in = sent(w, PNR_MSG_PAGE_IN);
    t.got_out = received(w, 0, PNR_MSG_PAGE_OUT);
    t.got_in = received(w, pe_id, PNR_MSG_PAGE_IN);
    for (int i = 0; i < w->cl.npes; i++)
        t.got[i] = received(w, i, PNR_MSG_PAGE_OUT);
    t.sent = net_messages_sent(w->cl.net);
    t.delivered = net_messages_delivered(w->cl.net);
    t.fault_time = j->fault_time;
    t.cpu_done = th ? th->cpu_done : 0;
    t.D = th ? th->D : 0;
    t.end = j->end;
    /* The loads the page messages carried, as each end heard them. */
    t.heard[0] = pnr_table_get(w->pnr, &w->pnr->tables[0], 1);
    t.heard[1] = pnr_table_get(w->pnr, &w->pnr->tables[1], 0);
    t.nelem = net_elem_count(w->cl.net);
    ck_assert_int_le(t.nelem, NELEM);
    for (long k = 0; k < t.nelem; k++) {
        const net_elem *e = net_elem_at(w->cl.net, k);
        t.elem_msgs[k] = e->messages;
        t.elem_bytes[k] = e->bytes;
        t.elem_busy[k] = net_elem_busy_time(&w->sim, e);
    }
    return t;
}

static mtally read_mtally(world *w, job_t *j)
{
    return read_mtally_on(w, j, 1);
}

static void assert_same(const mtally *a, const mtally *b)
{
    ck_assert_uint_eq(a->faults, b->faults);
    ck_assert_uint_eq(a->th_faults, b->th_faults);
    ck_assert_uint_eq(a->remote, b->remote);
    ck_assert_uint_eq(a->disk, b->disk);
    ck_assert_uint_eq(a->page_out, b->page_out);
    ck_assert_uint_eq(a->page_in, b->page_in);
    ck_assert_uint_eq(a->got_out, b->got_out);
    ck_assert_uint_eq(a->got_in, b->got_in);
    ck_assert_uint_eq(a->sent, b->sent);
    ck_assert_uint_eq(a->delivered, b->delivered);
    ck_assert_near(a->fault_time, b->fault_time, 1e-9);
    ck_assert_near(a->cpu_done, b->cpu_done, 1e-9);
    ck_assert_double_eq(a->D, b->D);
    for (int k = 0; k < 2; k++) {
        ck_assert_double_eq(a->heard[k].avail, b->heard[k].avail);
        ck_assert_near(a->heard[k].stamp, b->heard[k].stamp, 1e-9);
    }
    for (int i = 0; i < NPE_MAX; i++)
        ck_assert_uint_eq(a->got[i], b->got[i]);
    ck_assert_int_eq(a->nelem, b->nelem);
    for (int k = 0; k < a->nelem; k++) {
        ck_assert_uint_eq(a->elem_msgs[k], b->elem_msgs[k]);
        ck_assert_double_eq(a->elem_bytes[k], b->elem_bytes[k]);
        ck_assert_near(a->elem_busy[k], b->elem_busy[k], 1e-9);
    }
}

/* The round-trip world of test_pnr.c: CENTRAL, 2 PEs of 100 MB, one
 * thread of 110 MB and `cpu` s on PE 1 started at t = 1, all of its 10 MB
 * overallocation lent by PE 0. */
static job_t *covered(world *w, bool batched, uint64_t seed, double R, double cpu)
{
    world_init(w, 2, RAM100, R, "CENTRAL", NULL, seed);
    w->cl.paging = batched ? PAGING_BATCHED : PAGING_EXACT;
    job_t *j = make_job(w, 1, 1, (int[]){1}, cpu, 110);
    start_at(w, 1, j);
    return j;
}

START_TEST(test_covered_same_path)
{
    for (uint64_t seed = 1; seed <= 3; seed++) {
        mtally t[2];
        uint64_t events[2], batched = 0;
        for (int b = 0; b < 2; b++) {
            world w;
            job_t *j = covered(&w, b, seed, 2e-5, 50);
            ev_run(&w.sim, INFINITY);
            ck_assert_int_eq(w.jobs_ended, 1);
            t[b] = read_mtally(&w, j);
            t[b].end = w.rec[1].end;
            t[b].faults = w.rec[1].faults;
            t[b].fault_time = w.rec[1].fault_time;
            events[b] = w.sim.dispatched + w.sim.skipped;
            if (b)
                batched = w.cl.batch_faults;
            /* By hand: every fault a round trip on the idle star. */
            ck_assert_uint_gt(t[b].faults, 300);
            ck_assert_uint_eq(t[b].remote, t[b].faults);
            ck_assert_uint_eq(t[b].disk, 0);
            ck_assert_near(t[b].fault_time, (double)t[b].faults * 2 * T_MSG(PAGE),
                           1e-12 * (double)t[b].faults);
            ck_assert_uint_eq(t[b].page_out, t[b].faults);
            ck_assert_uint_eq(t[b].got_in, t[b].faults);
            /* Link 1 carries every page both ways; the control messages
             * are 1 request, 1 reply, 1 dealloc each way's share. */
            ck_assert_uint_ge(t[b].elem_msgs[1], 2 * t[b].faults);
            ck_assert_near(t[b].end, 1 + T_MSG(CTRL) + T_MSG(CTRL + 12) + 50 + t[b].fault_time,
                           1e-9);
            assert_settled(w.pnr);
            world_free(&w);
        }
        t[0].th_faults = t[1].th_faults = 0; /* threads are gone */
        t[0].cpu_done = t[1].cpu_done = 0;
        t[0].D = t[1].D = 0;
        assert_same(&t[0], &t[1]);
        ck_assert_near(t[1].end, t[0].end, 1e-9 * t[0].end);
        ck_assert_uint_gt(batched, t[1].faults / 2);
        ck_assert_uint_lt(events[1] * 10, events[0]);
    }
}
END_TEST

START_TEST(test_partial_cover_mixed)
{
    /* test_pnr.c's partial cover, batched: PE 0's 95 MB thread lets it
     * lend only 4.9 MB to PE 1's 110 MB thread, which asks 10; each fault
     * goes to network RAM with probability 0.49, else to PE 1's disk. */
    world w;
    world_init(&w, 2, RAM100, 1e-5, "CENTRAL", NULL, 4);
    w.cl.paging = PAGING_BATCHED;
    job_t *a = make_job(&w, 1, 1, (int[]){0}, 400, 95);
    job_t *b = make_job(&w, 2, 1, (int[]){1}, 300, 110);
    start_at(&w, 0, a);
    start_at(&w, 1, b);
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(w.jobs_ended, 2);
    pe_t *pe = &w.cl.pes[1];
    double n = (double)pe->faults;
    assert_remote_share(pe, 0.49);
    ck_assert_near(pe->fault_time,
                   (double)pe->disk_faults * pe->disk_service +
                       (double)pe->remote_faults * 2 * T_MSG(PAGE),
                   1e-9 * pe->fault_time);
    ck_assert_uint_eq(pe->disk.completions, pe->disk_faults);
    ck_assert_uint_eq(sent(&w, PNR_MSG_PAGE_OUT), pe->remote_faults + w.cl.pes[0].remote_faults);
    ck_assert_uint_gt(w.cl.batch_faults, (uint64_t)(n / 2));
    assert_settled(w.pnr);
    world_free(&w);
}
END_TEST

START_TEST(test_tree_two_servers)
{
    /* tests/test_pnr_racks.c's spread case, MANAGER and BACKBONE: on a
     * TREE of 2 racks of 4 PEs, a 250 MB thread on PE 5 gets its 150 MB
     * from PE 0 (99.9 MB) and PE 1 (50.1), in the other rack; each
     * fault draws its server in proportion, and waits 1 ms of access time
     * after its page is back. Batched and exact: the same faults, the
     * same pages received by each server, the same crossings of every
     * link, uplink and switch, the same end. */
    static const char *strat[2] = {"MANAGER", "BACKBONE"};
    world_tree = (net_tree){.ncompute = 8, .rack_size = 4, .servers = NET_SERVERS_SPREAD,
                            .uplink_bandwidth = BW, .uplink_latency = LAT};
    for (int s = 0; s < 2; s++) {
        mtally t[2];
        for (int b = 0; b < 2; b++) {
            world w;
            const char *sets[] = {"netram.server_selection=WORSTFIT",
                                  "netram.access_latency=0.001", NULL};
            world_init_topo(&w, TOPO_KIND_TREE, 8, RAM100, 2e-5, strat[s], sets, 3);
            w.cl.paging = b ? PAGING_BATCHED : PAGING_EXACT;
            job_t *j = make_job(&w, 1, 1, (int[]){5}, 50, 250);
            start_at(&w, 1, j);
            ev_run(&w.sim, INFINITY);
            ck_assert_int_eq(w.jobs_ended, 1);
            t[b] = read_mtally_on(&w, j, 5);
            t[b].th_faults = 0;
            t[b].cpu_done = t[b].D = 0;
            t[b].end = w.rec[1].end;
            t[b].faults = w.rec[1].faults;
            t[b].fault_time = w.rec[1].fault_time;
            ck_assert_uint_gt(t[b].got[0], 100);
            ck_assert_uint_gt(t[b].got[1], 50);
            ck_assert_uint_eq(t[b].got[0] + t[b].got[1], t[b].remote);
            ck_assert_uint_eq(t[b].remote, t[b].faults);
            if (b)
                ck_assert_uint_gt(w.cl.batch_faults, t[b].faults / 2);
            assert_settled(w.pnr);
            world_free(&w);
        }
        assert_same(&t[0], &t[1]);
        ck_assert_near(t[1].end, t[0].end, 1e-9 * t[0].end);
    }
}
END_TEST

/* The end of the crossing of link i (PE i's) under way now: exact, the
 * hold of the message holding it; batched, the batch's virtual crossing
 * (net_virtual_busy); -1 when none. */
enum { NPROBE = 400 };
typedef struct link_probe {
    world *w;
    bool batched;
    int k;
    double end[NPROBE][2];
} link_probe;

static void link_probe_cb(sim_t *sim, void *arg)
{
    link_probe *lp = arg;
    for (int i = 0; i < 2; i++) {
        const net_elem *e = net_elem_at(lp->w->cl.net, i);
        double end = -1;
        if (lp->batched) {
            end = net_virtual_busy(e, sim->now);
            ck_assert_ptr_null(e->res.holder); /* no real page traffic */
        } else if (e->res.holder && e->res.holder->state == PROC_HOLDING) {
            end = e->res.holder->wake_at;
        }
        lp->end[lp->k][i] = end;
    }
    lp->k++;
}

START_TEST(test_virtual_crossings_are_exact_holds)
{
    /* The covered thread (R = 1e-6), looked at 400 times 2.9 ms apart:
     * whenever the exact run has a page crossing PE 1's or PE 0's link,
     * the batched run reports a virtual crossing of that link ending at
     * the same instant, and none otherwise: a message asking for the link
     * then waits exactly as long in both modes. */
    link_probe lp[2];
    int busy = 0;
    for (int b = 0; b < 2; b++) {
        world w;
        covered(&w, b, 5, 1e-6, 3);
        lp[b] = (link_probe){.w = &w, .batched = b};
        for (int k = 0; k < NPROBE; k++)
            ev_once(&w.sim, 1.001 + 0.0029 * k, link_probe_cb, &lp[b]);
        ev_run(&w.sim, INFINITY);
        ck_assert_int_eq(lp[b].k, NPROBE);
        if (b)
            ck_assert_uint_gt(w.cl.batch_faults, 0);
        world_free(&w);
    }
    for (int k = 0; k < NPROBE; k++)
        for (int i = 0; i < 2; i++) {
            double x = lp[0].end[k][i], y = lp[1].end[k][i];
            ck_assert_msg((x < 0 && y < 0) || fabs(x - y) < 1e-12,
                          "probe %d link %d: exact %.15g, batched %.15g", k, i, x, y);
            busy += x >= 0;
        }
    ck_assert_int_ge(busy, 40);
}
END_TEST

START_TEST(test_pages_queue_at_a_shared_server)
{
    /* Two covered threads (110 MB on PEs 1 and 2 of 100 MB, R = 1e-6, 5 s
     * of CPU) page to the one server, PE 0, whose link both pages cross
     * twice per fault: it is about a sixth busy, so pages queue there.
     * Batched pages wait the M/D/1 mean of the other batch's load at each
     * crossing (sched/batch_link.c), which leaves out what the exact FIFO
     * queue adds for a page in that reaches the link just as its own page
     * out leaves it (whatever came meanwhile is ahead of it): the mean
     * wait per fault beyond the idle round trip 2 T(4096), 10 seeds per
     * mode, must be at least 60% and at most 120% of the exact one (it is
     * about 75%; with no contention model it would be 0, with the exact
     * first-come-first-served planning of the previous version 106%). */
    double w[2][10];
    for (int b = 0; b < 2; b++)
        for (int k = 0; k < 10; k++) {
            world w0;
            world_init(&w0, 3, RAM100, 1e-6, "CENTRAL", NULL, 100 + (uint64_t)k);
            w0.cl.paging = b ? PAGING_BATCHED : PAGING_EXACT;
            start_at(&w0, 1, make_job(&w0, 1, 1, (int[]){1}, 5, 110));
            start_at(&w0, 1, make_job(&w0, 2, 1, (int[]){2}, 5, 110));
            ev_run(&w0.sim, INFINITY);
            ck_assert_int_eq(w0.jobs_ended, 2);
            double ft = w0.rec[1].fault_time + w0.rec[2].fault_time;
            double n = (double)(w0.rec[1].faults + w0.rec[2].faults);
            ck_assert_uint_eq(w0.cl.pes[1].remote_faults + w0.cl.pes[2].remote_faults,
                              (uint64_t)n);
            w[b][k] = ft / n - 2 * T_MSG(PAGE);
            if (b)
                ck_assert_uint_gt(w0.cl.batch_faults, (uint64_t)(n / 2));
            assert_settled(w0.pnr);
            world_free(&w0);
        }
    double m[2], v[2];
    for (int b = 0; b < 2; b++) {
        m[b] = v[b] = 0;
        for (int k = 0; k < 10; k++)
            m[b] += w[b][k] / 10;
        for (int k = 0; k < 10; k++)
            v[b] += (w[b][k] - m[b]) * (w[b][k] - m[b]) / 9;
    }
    double se = sqrt(v[0] / 10 + v[1] / 10);

    ck_assert_msg(m[0] > 1e-5, "exact: %g s of queueing per fault", m[0]);
    ck_assert_msg(m[1] > 0.6 * m[0] - 4 * se && m[1] < 1.2 * m[0] + 4 * se,
                  "wait per fault: exact %g, batched %g (se %g)", m[0], m[1], se);
}
END_TEST

START_TEST(test_saturated_server_link)
{
    /* Seven threads (105 MB on PEs 1-7 of 100 MB, 1 s of CPU)
     * page to the one server, PE 0 (R = 1e-7: a fault every ~0.4 ms / U
     * of CPU). Each fault crosses its link twice,
     * L = LAT + 4096 / BW each (0.328 ms), so the link serves at most
     * 1 / 2L = 1,526 faults a second, while the seven threads would
     * fault over 2,000 times a second on an idle network (a round trip
     * is 2 T(4096) = 1.47 ms): the link is saturated, and the closed loop
     * of faults, not the threads' demand, sets the throughput. Neither
     * mode may then have the link busy longer than the run lasts: the
     * exact one by construction; batched pages are counted, not sent, and
     * must see the messages' load (net_rload) and leave the faults to the
     * exact way there; the few planned while the load looked lower cross
     * beside the messages, so 1% more is allowed (without the messages'
     * load the link was busy 34% longer than the run). The batched mode's
     * faults take as long (total fault time within 10% of the exact
     * run's; 3 seeds each). */
    static const double ram[NPE_MAX] = {1000, 100, 100, 100, 100, 100, 100, 100};
    const double L = LAT + PAGE / BW;
    double ft[2] = {0, 0};
    for (int b = 0; b < 2; b++)
        for (int k = 0; k < 3; k++) {
            world w;
            world_paging = b ? PAGING_BATCHED : PAGING_EXACT;
            world_init(&w, 8, ram, 1e-7, "CENTRAL", NULL, 40 + (uint64_t)k);
            world_paging = PAGING_EXACT;
            ck_assert_int_eq(w.cl.paging, b ? PAGING_BATCHED : PAGING_EXACT);
            for (int i = 1; i < 8; i++)
                start_at(&w, 1, make_job(&w, i, 1, (int[]){i}, 1, 105));
            ev_run(&w.sim, INFINITY);
            ck_assert_int_eq(w.jobs_ended, 7);
            double n = 0, last = 0;
            for (int i = 1; i < 8; i++) {
                ck_assert_uint_eq(w.cl.pes[i].disk_faults, 0);
                n += (double)w.cl.pes[i].remote_faults;
                ft[b] += w.rec[i].fault_time;
                if (w.rec[i].end > last)
                    last = w.rec[i].end;
            }
            const net_elem *link = net_route_elem(w.cl.net, 0, 1, 0); /* PE 0's */
            /* Two pages a fault, and a few control messages. */
            ck_assert_msg(link->res.busy > n * 2 * L - 1e-9 &&
                              link->res.busy < n * 2 * L + 0.001,
                          "busy %g s, %.0f faults", link->res.busy, n);
            /* Saturated: demand beyond the link, which is busy nearly
             * all along (the threads end at different times). */
            ck_assert_msg(n / (last - 1) > 0.8 / (2 * L), "%.0f faults in %g s", n, last - 1);
            ck_assert_msg(link->res.busy <= (last - 1) * (b ? 1.01 : 1) + 1e-9,
                          "%s: PE 0's link busy %g s in a run of %g s",
                          b ? "batched" : "exact", link->res.busy, last - 1);
            if (b)
                ck_assert_uint_gt(w.cl.batch_faults, 0);
            assert_settled(w.pnr);
            world_free(&w);
        }
    ck_assert_msg(fabs(ft[1] - ft[0]) < 0.1 * ft[0], "fault time: exact %g s, batched %g s",
                  ft[0], ft[1]);
}
END_TEST

START_TEST(test_link_queue_holds_waiting_pages)
{
    /* What messages see of a batch at a link (sched/batch_link.c through
     * net_virtual_busy), by hand. A batch planned at 0 on an idle 8-PE
     * star, one remote fault from PE 1 to server PE 0, whose page waits
     * w = 0.1 ms at PE 1's link before crossing it (set by hand, as other
     * batches' load would): it crosses [w, w + L], L = LAT + 4096 / BW.
     * From 0 to w the page is in the link's queue with all of its crossing
     * left: a message asking then waits until t + L; from w to w + L it is
     * crossing: until w + L; after that none, until the page in: on the
     * way back it reaches
     * PE 1's link at w + 3L + 2D (link 1, switch, link 0, link 0, switch)
     * with no wait, and crosses it until w + 4L + 2D. */
    sim_t sim;
    ev_init(&sim);
    net_t *net = net_create(&sim, TOPO_KIND_STAR, 8, BW, LAT, DELAY);
    ck_assert_ptr_nonnull(net);
    static fault_batch bt;
    memset(&bt, 0, sizeof bt);
    bt.f[0] = 0;
    const double L = LAT + PAGE / BW, w = 1e-4;
    int ri = batch_route_of(net, PAGE, &bt, 1, 0, 2 * T_MSG(PAGE), false);
    ck_assert_int_eq(ri, 0);
    ck_assert_int_eq(bt.rt[0].nh, 6);
    bt.rt[0].w[0] = w;
    bt.n = 1;
    bt.ri[0] = 0;
    bt.svc[0] = batch_plan_crossings(&bt, 0, &bt.rt[0], 0);
    ck_assert_near(bt.svc[0], w + 2 * T_MSG(PAGE), 1e-15);
    bt.end = bt.svc[0];
    net_elem *link1 = net_route_elem(net, 1, 0, 0);
    ck_assert_near(net_virtual_busy(link1, 0), L, 1e-15);
    ck_assert_near(net_virtual_busy(link1, 0.5 * w), 0.5 * w + L, 1e-15);
    ck_assert_near(net_virtual_busy(link1, w), w + L, 1e-15);
    ck_assert_near(net_virtual_busy(link1, w + 0.5 * L), w + L, 1e-15);
    ck_assert_double_eq(net_virtual_busy(link1, w + L + 1e-9), -1);
    ck_assert_double_eq(net_virtual_busy(link1, w + 3 * L + 2 * DELAY - 1e-9), -1);
    ck_assert_near(net_virtual_busy(link1, w + 3.5 * L + 2 * DELAY), w + 4 * L + 2 * DELAY, 1e-15);
    for (int k = 0; k < bt.nv; k++)
        net_vuser_del(&bt.v[k].u);
    net_destroy(&sim, net);
    ev_destroy(&sim);
}
END_TEST

START_TEST(test_rdma_trip_planned)
{
    /* The planning of a batched RDMA fault (sched/batch_link.c,
     * net_vtrip_rdma), by hand, kept ready although RDMA faults are not
     * batched (pnr_batch_costs_ok; docs/BATCHING.md). PE 1 faults on
     * server PE 0 on an idle 8-PE star at 0: the READ crosses link 0
     * (a = 4096 / BW, no link latency under RDMA), the switch (DELAY),
     * link 1 (a), 3 hops; the WRITE crosses link 1, the switch, link 0,
     * leaving at 0 too. With a service from fault_plan of 2a + DELAY +
     * X (X = an RDMA latency of 1e-4 s), the access part is X; with a
     * wait w set by hand at the READ's first hop, the service is w + 2a +
     * DELAY + X, and the WRITE's hops start at 0, a, a + DELAY whatever
     * the READ waits. */
    sim_t sim;
    ev_init(&sim);
    net_t *net = net_create(&sim, TOPO_KIND_STAR, 8, BW, LAT, DELAY);
    ck_assert_ptr_nonnull(net);
    static fault_batch bt;
    memset(&bt, 0, sizeof bt);
    bt.f[0] = 0;
    const double a = PAGE / BW, X = 1e-4, w = 2e-5;
    ck_assert_near(net_rdma_idle_time(net, 0, 1, PAGE), 2 * a + DELAY, 1e-15);
    int ri = batch_route_of(net, PAGE, &bt, 1, 0, 2 * a + DELAY + X, true);
    ck_assert_int_eq(ri, 0);
    batch_route *r = &bt.rt[0];
    ck_assert_int_eq(r->nh, 6);
    ck_assert_int_eq(r->nread, 3);
    ck_assert_ptr_eq(r->e[0], net_route_elem(net, 0, 1, 0)); /* the READ first */
    ck_assert_ptr_eq(r->e[3], net_route_elem(net, 1, 0, 0)); /* then the WRITE */
    ck_assert_near(r->d[0], a, 1e-18);
    ck_assert_near(r->d[1], DELAY, 1e-18);
    ck_assert_near(r->lat, X, 1e-15);
    r->w[0] = w;
    bt.n = 1;
    bt.ri[0] = 0;
    bt.svc[0] = batch_plan_crossings(&bt, 0, r, 0);
    ck_assert_near(bt.svc[0], w + 2 * a + DELAY + X, 1e-15);
    ck_assert_near(bt.hs[0][0], w, 1e-18);
    ck_assert_near(bt.hs[0][2], w + a + DELAY, 1e-15);
    ck_assert_near(bt.hs[0][3], 0, 1e-18);
    ck_assert_near(bt.hs[0][4], a, 1e-18);
    ck_assert_near(bt.hs[0][5], a + DELAY, 1e-15);
    for (int k = 0; k < bt.nv; k++)
        net_vuser_del(&bt.v[k].u);
    net_destroy(&sim, net);
    ev_destroy(&sim);
}
END_TEST

/* A job stop at t_stop; a look 10 ms later (longer than a round trip, so
 * the fault under way at the stop has ended in both modes). */
typedef struct probe {
    world *w;
    job_t *j;
    bool in_fault;          /* the thread was paging at the stop */
    mtally t;
} probe;

static void look_cb(sim_t *sim, void *arg)
{
    (void)sim;
    probe *p = arg;
    p->t = read_mtally(p->w, p->j);
}

static void stop_cb(sim_t *sim, void *arg)
{
    probe *p = arg;
    job_stop(sim, p->j); /* cuts the batch under way: paging is up to date */
    p->in_fault = p->w->cl.pes[1].paging > 0;
    ev_once(sim, sim->now + 0.01, look_cb, p);
    ev_once(sim, sim->now + 0.02, run_cb, p->j);
}

START_TEST(test_cut_state)
{
    /* R = 1e-6: a fault every ~4 ms / U of CPU, each 1.5 ms: in the
     * first seconds (U large) about a quarter of the time is spent in
     * remote faults, so many of the 120 instants fall inside one. */
    int in_fault = 0;
    for (int k = 0; k < 120; k++) {
        double t_stop = 1.05 + 0.0373 * k;
        probe p[2];
        for (int b = 0; b < 2; b++) {
            world w;
            job_t *j = covered(&w, b, 11, 1e-6, 8);
            p[b] = (probe){.w = &w, .j = j};
            ev_once(&w.sim, t_stop, stop_cb, &p[b]);
            ev_run(&w.sim, INFINITY);
            ck_assert_int_eq(w.jobs_ended, 1);
            assert_settled(w.pnr);
            world_free(&w);
        }
        ck_assert_int_eq(p[1].in_fault, p[0].in_fault);
        in_fault += p[0].in_fault;
        assert_same(&p[0].t, &p[1].t);
    }
    ck_assert_int_ge(in_fault, 10);
}
END_TEST

START_TEST(test_run_ends_in_a_remote_fault)
{
    /* A run that ends (batch_settle_end, as at simulation.max_time) while a
     * batched remote fault is under way: the fault counts and so do its
     * page messages, so page outs equal remote faults, as in the exact
     * mode (which counts a page out when it is sent). At least 5 of the
     * 60 instants fall inside a remote fault. */
    int inside = 0;
    for (int k = 0; k < 60; k++) {
        world w;
        job_t *j = covered(&w, true, 11, 1e-6, 8);
        (void)j;
        ev_run(&w.sim, 1.05 + 0.0373 * k);
        batch_settle_end(&w.sim, &w.cl);
        inside += w.cl.pes[1].paging > 0;
        ck_assert_uint_eq(sent(&w, PNR_MSG_PAGE_OUT), w.cl.pes[1].remote_faults);
        ck_assert_uint_eq(sent(&w, PNR_MSG_PAGE_IN), w.cl.pes[1].remote_faults);
        ev_run(&w.sim, INFINITY); /* the rest of the run, then free */
        world_free(&w);
    }
    ck_assert_int_ge(inside, 5);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("pnr_batch");
    TCase *tc = tcase_create("pnr_batch");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_covered_same_path);
    tcase_add_test(tc, test_partial_cover_mixed);
    tcase_add_test(tc, test_tree_two_servers);
    tcase_add_test(tc, test_virtual_crossings_are_exact_holds);
    tcase_add_test(tc, test_pages_queue_at_a_shared_server);
    tcase_add_test(tc, test_saturated_server_link);
    tcase_add_test(tc, test_link_queue_holds_waiting_pages);
    tcase_add_test(tc, test_rdma_trip_planned);
    tcase_add_test(tc, test_run_ends_in_a_remote_fault);
    tcase_add_test(tc, test_cut_state);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
