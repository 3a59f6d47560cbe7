/* tests/test_pnr_racks.c: PNR on a machine with racks (issue 15), split
 * out of tests/test_pnr.c to keep each test program under 900 lines: the
 * fixed extra per remote access (netram.access_latency) and rack locality
 * (netram.locality = RACK) for CENTRAL, CLIENT, a job spanning racks,
 * MANAGER and BACKBONE, each worked out by hand in its comment. The
 * hand-built machine and helpers are tests/fixture_pnr.h's. */

#include "app/config.h"
#include "app/run.h"
#include "app/run_check.h"
#include "core/rng.h"
#include "pnr/check.h" /* private: the checker, totals */
#include "pnr/pnr.h"
#include "pnr/pnr_check.h"
#include "sched/job.h"
#include "tests/testcluster.h"
#include "tests/testutil.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "tests/fixture_pnr.h"

static const double RAM100[NPE_MAX] = {100, 100, 100, 100, 100, 100, 100, 100};


START_TEST(test_access_latency)
{
    /* The case above with netram.access_latency = 2 ms (issue 15): every
     * remote fault costs the round trip plus exactly 2 ms, the faults
     * themselves (drawn in CPU time) are the same ones, and the job ends
     * faults x 2 ms later. */
    uint64_t faults[2];
    double end[2];
    for (int v = 0; v < 2; v++) {
        world w;
        const char *sets[] = {v ? "netram.access_latency=0.002" : "netram.access_latency=0",
                              NULL};
        world_init(&w, 2, RAM100, 2e-5, "CENTRAL", sets, 3);
        job_t *j = make_job(&w, 1, 1, (int[]){1}, 50, 110);
        start_at(&w, 1, j);
        ev_run(&w.sim, INFINITY);
        struct jrec *r = &w.rec[1];
        double wait = T_MSG(CTRL) + T_MSG(CTRL + 12);
        ck_assert_uint_eq(w.cl.pes[1].remote_faults, r->faults);
        ck_assert_near(r->fault_time / (double)r->faults, 2 * T_MSG(PAGE) + (v ? 0.002 : 0),
                       1e-15);
        ck_assert_near(r->end, 1 + wait + 50 + r->fault_time, 1e-9);
        faults[v] = r->faults;
        end[v] = r->end;
        assert_settled(w.pnr);
        world_free(&w);
    }
    ck_assert_uint_gt(faults[0], 300);
    ck_assert_uint_eq(faults[0], faults[1]);
    ck_assert_near(end[1] - end[0], 0.002 * (double)faults[0], 1e-9);
}
END_TEST

START_TEST(test_rack_locality)
{
    /* CENTRAL (manager PE 0), WORSTFIT selection (ties to the lowest PE),
     * 8 PEs of 100 MB in racks of 4 (rack 0: PEs 0-3, rack 1: PEs 4-7),
     * threshold 0.1 MB, so a server lends at most 99.9 MB. One thread of
     * 450 MB on PE 5 needs 350 MB. The manager's table shows every other
     * PE at 100 MB.
     *   locality NONE: PEs 0, 1, 2 lend 99.9 each (lowest first), PE 3 the
     *     last 50.3.
     *   locality RACK: PE 5's rack first: PEs 4, 6, 7 lend 99.9 each, then
     *     the rest: PE 0 lends 50.3.
     * With RACK the pages then stay in rack 1 except those held on PE 0. */
    static const double want[2][8] = {{99.9, 99.9, 99.9, 50.3, 0, 0, 0, 0},
                                      {50.3, 0, 0, 0, 99.9, 0, 99.9, 99.9}};
    world_tree = (net_tree){.ncompute = 8, .rack_size = 4, .servers = NET_SERVERS_SPREAD,
                            .uplink_bandwidth = BW, .uplink_latency = LAT};
    for (int v = 0; v < 2; v++) {
        world w;
        const char *sets[] = {"netram.server_selection=WORSTFIT",
                              v ? "netram.locality=RACK" : "netram.locality=NONE", NULL};
        world_init_topo(&w, TOPO_KIND_TREE, 8, RAM100, 0, "CENTRAL", sets, 3);
        job_t *j = make_job(&w, 1, 1, (int[]){5}, 1, 450);
        start_at(&w, 1, j);
        ev_run(&w.sim, 1.5);
        for (int i = 0; i < 8; i++)
            ck_assert_msg(fabs(w.cl.pes[i].lent_mb - want[v][i]) < 1e-9,
                          "locality %d: PE %d lent %g, expected %g", v, i, w.cl.pes[i].lent_mb,
                          want[v][i]);
        ck_assert_near(w.cl.pes[5].remote_mb, 350, 1e-9);
        ev_run(&w.sim, INFINITY);
        ck_assert_int_eq(w.jobs_ended, 1);
        assert_settled(w.pnr);
        world_free(&w);
    }
}
END_TEST

START_TEST(test_rack_locality_client)
{
    /* Locality prefers the racks of the threads that ASK (docs/MODEL.md):
     * CLIENT its own, CENTRAL those of the round's askers; a thread of the
     * job that fits (a zero request) adds no rack. WORSTFIT (ties to the
     * lowest PE), threshold 0.1 MB, 8 PEs in racks of 2 (rack 0: PEs 0-1,
     * 1: 2-3, 2: 4-5, 3: 6-7), all of 100 MB but PE 7 of 400 MB. A job of
     * 2 threads of 350 MB on PEs 5 and 7: PE 7's fits (50 MB free, so it
     * can lend 49.9), PE 5's needs 250.
     *   CENTRAL (manager PE 0): rack 2 first: PE 4 lends 99.9 (rack 3 is
     *     not preferred: PE 6 lends nothing). Then the rest by worst fit:
     *     the manager heard PE 7's zero request (50 free), so PE 0 (100,
     *     its own) 99.9 and PE 1 (100) the last 50.2.
     *   CLIENT (PE 5 is its own manager): rack 2 first: PE 4 99.9; then
     *     the rest by PE 5's table, which shows the installed RAM: PE 7
     *     (400) first, lends 49.9, then PE 0 99.9 and PE 1 the last 0.3
     *     (99.9 + 49.9 + 99.9 + 0.3 = 250). */
    static const double ram[NPE_MAX] = {100, 100, 100, 100, 100, 100, 100, 400};
    static const double want[2][8] = {{99.9, 50.2, 0, 0, 99.9, 0, 0, 0},
                                      {99.9, 0.3, 0, 0, 99.9, 0, 0, 49.9}};
    static const char *strat[2] = {"CENTRAL", "CLIENT"};
    world_tree = (net_tree){.ncompute = 8, .rack_size = 2, .servers = NET_SERVERS_SPREAD,
                            .uplink_bandwidth = BW, .uplink_latency = LAT};
    for (int v = 0; v < 2; v++) {
        world w;
        const char *sets[] = {"netram.server_selection=WORSTFIT", "netram.locality=RACK", NULL};
        world_init_topo(&w, TOPO_KIND_TREE, 8, ram, 0, strat[v], sets, 3);
        job_t *j = make_job(&w, 1, 2, (int[]){5, 7}, 1, 350);
        start_at(&w, 1, j);
        ev_run(&w.sim, 1.5);
        for (int i = 0; i < 8; i++)
            ck_assert_msg(fabs(w.cl.pes[i].lent_mb - want[v][i]) < 1e-9,
                          "%s: PE %d lent %g, expected %g", strat[v], i, w.cl.pes[i].lent_mb,
                          want[v][i]);
        ck_assert_near(w.cl.pes[5].remote_mb, 250, 1e-9);
        ck_assert_near(w.cl.pes[7].remote_mb, 0, 1e-9);
        ev_run(&w.sim, INFINITY);
        ck_assert_int_eq(w.jobs_ended, 1);
        assert_settled(w.pnr);
        world_free(&w);
    }
}
END_TEST

START_TEST(test_rack_locality_spanning)
{
    /* A CENTRAL job spanning racks prefers all of its racks. WORSTFIT,
     * threshold 0.1, 8 PEs of 100 MB in racks of 2. A job of 2 threads of
     * 200 MB on PEs 3 (rack 1) and 6 (rack 3): each needs 100, 200 in all.
     *   NONE: the lowest PEs with 100 believed: PE 0 99.9, PE 1 99.9, then
     *     PE 2 the last 0.2 (PEs 3 and 6 are clients; the manager hears
     *     their requests, so believes them full).
     *   RACK: racks 1 and 3 first: PE 2 99.9, PE 7 99.9, then the rest:
     *     PE 0 the last 0.2. Fair share: each thread gets 100. */
    static const double want[2][8] = {{99.9, 99.9, 0.2, 0, 0, 0, 0, 0},
                                      {0.2, 0, 99.9, 0, 0, 0, 0, 99.9}};
    world_tree = (net_tree){.ncompute = 8, .rack_size = 2, .servers = NET_SERVERS_SPREAD,
                            .uplink_bandwidth = BW, .uplink_latency = LAT};
    for (int v = 0; v < 2; v++) {
        world w;
        const char *sets[] = {"netram.server_selection=WORSTFIT",
                              v ? "netram.locality=RACK" : "netram.locality=NONE", NULL};
        world_init_topo(&w, TOPO_KIND_TREE, 8, RAM100, 0, "CENTRAL", sets, 3);
        job_t *j = make_job(&w, 1, 2, (int[]){3, 6}, 1, 200);
        start_at(&w, 1, j);
        ev_run(&w.sim, 1.5);
        for (int i = 0; i < 8; i++)
            ck_assert_msg(fabs(w.cl.pes[i].lent_mb - want[v][i]) < 1e-9,
                          "locality %d: PE %d lent %g, expected %g", v, i, w.cl.pes[i].lent_mb,
                          want[v][i]);
        ck_assert_near(w.cl.pes[3].remote_mb, 100, 1e-9);
        ck_assert_near(w.cl.pes[6].remote_mb, 100, 1e-9);
        ev_run(&w.sim, INFINITY);
        ck_assert_int_eq(w.jobs_ended, 1);
        assert_settled(w.pnr);
        world_free(&w);
    }
}
END_TEST

START_TEST(test_rack_locality_manager_backbone)
{
    /* MANAGER and BACKBONE, WORSTFIT, threshold 0.1, 8 PEs of 100 MB in
     * racks of 4 (rack 0: PEs 0-3, rack 1: 4-7). One thread of 250 MB on
     * PE 5 needs 150 (its request tells the manager PE 5 is full).
     *   NONE: PE 0 lends 99.9, PE 1 the last 50.1: every page crosses
     *     rack 1's uplink twice (PAGE_OUT and PAGE_IN, >= 4096 B each).
     *   RACK: rack 1 has room: PE 4 99.9, PE 6 50.1; no PE of rack 0
     *     receives a page and rack 1's uplink carries only control
     *     messages (less than one page's bytes in all). */
    static const double want[2][8] = {{99.9, 50.1, 0, 0, 0, 0, 0, 0},
                                      {0, 0, 0, 0, 99.9, 0, 50.1, 0}};
    static const char *strat[2] = {"MANAGER", "BACKBONE"};
    world_tree = (net_tree){.ncompute = 8, .rack_size = 4, .servers = NET_SERVERS_SPREAD,
                            .uplink_bandwidth = BW, .uplink_latency = LAT};
    for (int s = 0; s < 2; s++)
        for (int v = 0; v < 2; v++) {
            world w;
            const char *sets[] = {"netram.server_selection=WORSTFIT",
                                  v ? "netram.locality=RACK" : "netram.locality=NONE", NULL};
            world_init_topo(&w, TOPO_KIND_TREE, 8, RAM100, 2e-5, strat[s], sets, 3);
            job_t *j = make_job(&w, 1, 1, (int[]){5}, 50, 250);
            start_at(&w, 1, j);
            ev_run(&w.sim, 1.5);
            for (int i = 0; i < 8; i++)
                ck_assert_msg(fabs(w.cl.pes[i].lent_mb - want[v][i]) < 1e-9,
                              "%s locality %d: PE %d lent %g, expected %g", strat[s], v, i,
                              w.cl.pes[i].lent_mb, want[v][i]);
            ck_assert_near(w.cl.pes[5].remote_mb, 150, 1e-9);
            ev_run(&w.sim, INFINITY);
            ck_assert_int_eq(w.jobs_ended, 1);
            uint64_t rf = w.cl.pes[5].remote_faults;
            ck_assert_uint_gt(rf, 100);
            uint64_t far = 0;
            for (int i = 0; i < 4; i++)
                far += received(&w, i, PNR_MSG_PAGE_OUT);
            double up = net_elem_at(w.cl.net, net_uplink_index(w.cl.net, 1))->bytes;
            if (v) {
                ck_assert_uint_eq(far, 0);
                ck_assert_msg(up < PAGE, "%s: %g bytes on rack 1's uplink", strat[s], up);
            } else {
                ck_assert_uint_eq(far, rf);
                ck_assert_double_ge(up, 2 * PAGE * (double)rf);
            }
            assert_settled(w.pnr);
            world_free(&w);
        }
}
END_TEST


static Suite *make_suite(void)
{
    Suite *s = suite_create("pnr_racks");
    TCase *tc = tcase_create("pnr_racks");
    tcase_add_test(tc, test_access_latency);
    tcase_add_test(tc, test_rack_locality);
    tcase_add_test(tc, test_rack_locality_client);
    tcase_add_test(tc, test_rack_locality_spanning);
    tcase_add_test(tc, test_rack_locality_manager_backbone);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
