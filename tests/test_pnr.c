/* tests/test_pnr.c: parallel network RAM (pnr/, techreport §5).
 *
 * Hand-built cases on small clusters (2-4 PEs) and randomised whole runs on
 * the HPC2N trace:
 *   - the fair share of §5.2.3 (water-filling) on the report's example;
 *   - conservation at every allocation and deallocation step of a whole run
 *     with every strategy (and global knowledge): lent == held + in transit
 *     + pending in total and per server, no grant below the threshold, no
 *     client above its ask, every availability table (stored shared, see
 *     pnr.c) reads exactly as a plain N x N copy kept beside it; at the end
 *     nothing is lent, held or in transit;
 *     the same under a run stopped part way (leaks, under ASan);
 *   - CENTRAL: every request goes to PE 0; CLIENT: a thread waits for one
 *     round trip to a server only, never for its job's other threads;
 *     MANAGER: the manager is one of the job's PEs, chosen the same way for
 *     the same seed, and broadcasts go to the N-1 others after every round
 *     that allocated or freed network RAM, never after a 0 MB round;
 *     BACKBONE: requests only to the managers, broadcasts to the M-1 others;
 *     with one manager it is CENTRAL, job for job;
 *   - every message kind counted on a hand-worked case per strategy;
 *   - the fair share end to end: a 4-thread job's clients asking 10, 20,
 *     30 and 60 MB when a server lends 80 hold 10, 20, 25 and 25;
 *   - paging: a thread covered by network RAM never uses the disk and each
 *     fault costs exactly a round trip on the idle star; a half-covered
 *     thread sends about half of its faults to the network; a server's
 *     loan can push its own later thread into disk paging;
 *   - global knowledge: a stale table makes the manager ask a full server
 *     first; with global knowledge it asks the right one at once;
 *   - races: a job that ends before its own allocation round; a stress
 *     trace of small jobs on a slow network with context switches, run to
 *     the end and stopped at instants with protocol messages in flight.
 *
 * Hand-built cases use the report's appendix network (star, 12.5e6 B/s
 * links, 5e-8 s latency, 8e-5 s switch delay) and 64-byte control messages.
 * On an idle star a message of b bytes between two PEs crosses two links
 * and the switch: T(b) = 2 (LAT + b / BW) + DELAY, so
 *     T(64)   = 2 (5e-8 + 5.12e-6) + 8e-5 = 9.034e-5 s,
 *     T(4096) = 2 (5e-8 + 3.2768e-4) + 8e-5 = 7.5546e-4 s,
 * and a message to the sender's own PE arrives at once.
 *
 * This file: the fair share and the hand-built cases; the whole runs on
 * the trace are in tests/test_pnr_trace.c, the world and T(b) in
 * tests/fixture_pnr.h.
 */
#include "app/config.h"
#include "app/run.h"
#include "app/run_check.h"
#include "core/rng.h"
#include "pnr/check.h" /* private: the checker, totals */
#include "pnr/pnr.h"
#include "pnr/pnr_check.h"
#include "pnr/select.h" /* private: the fair share */
#include "sched/job.h"
#include "tests/testcluster.h"
#include "tests/testutil.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "tests/fixture_pnr.h"

/* ---- fair share ------------------------------------------------------------ */

START_TEST(test_fair_share)
{
    /* §5.2.3: 80 MB among asks of 10, 20, 30 and 60. An even share is 20;
     * 10 and 20 ask no more than that and get their asks, leaving 50 for
     * the two others: 25 each, both below their asks. */
    double asks[4] = {10, 20, 30, 60}, share[4];
    pnr_fair_share(asks, 4, 80, share);
    ck_assert_near(share[0], 10, 1e-12);
    ck_assert_near(share[1], 20, 1e-12);
    ck_assert_near(share[2], 25, 1e-12);
    ck_assert_near(share[3], 25, 1e-12);
    /* The order of the asks does not matter. */
    double asks2[4] = {60, 30, 10, 20};
    pnr_fair_share(asks2, 4, 80, share);
    ck_assert_near(share[0], 25, 1e-12);
    ck_assert_near(share[1], 25, 1e-12);
    ck_assert_near(share[2], 10, 1e-12);
    ck_assert_near(share[3], 20, 1e-12);
    /* Everything granted (120 = the sum): everyone gets its ask. */
    pnr_fair_share(asks, 4, 120, share);
    for (int i = 0; i < 4; i++)
        ck_assert_near(share[i], asks[i], 1e-12);
    /* Nothing granted: zeros. */
    pnr_fair_share(asks, 4, 0, share);
    for (int i = 0; i < 4; i++)
        ck_assert_double_eq(share[i], 0);
    /* 40 MB: even share 10; the 10 is capped, 30 left for three: 10 each. */
    pnr_fair_share(asks, 4, 40, share);
    for (int i = 0; i < 4; i++)
        ck_assert_near(share[i], 10, 1e-12);
    /* Zero asks (threads that fit) take no share: 30 among 0, 5, 0, 100
     * gives 5 and 25. */
    double asks3[4] = {0, 5, 0, 100};
    pnr_fair_share(asks3, 4, 30, share);
    ck_assert_double_eq(share[0], 0);
    ck_assert_near(share[1], 5, 1e-12);
    ck_assert_double_eq(share[2], 0);
    ck_assert_near(share[3], 25, 1e-12);
    /* Two levels: 100 among 5, 15, 40, 50, 70. Even share 20: 5 and 15
     * are capped, 80 left for three: 26.67 each, below 40, 50 and 70. */
    double asks4[5] = {5, 15, 40, 50, 70}, share4[5];
    pnr_fair_share(asks4, 5, 100, share4);
    ck_assert_near(share4[0], 5, 1e-12);
    ck_assert_near(share4[1], 15, 1e-12);
    for (int i = 2; i < 5; i++)
        ck_assert_near(share4[i], 80.0 / 3, 1e-12);
}
END_TEST

/* ---- hand-built cases ------------------------------------------------------------ */

static const double RAM100[NPE_MAX] = {100, 100, 100, 100, 100, 100, 100, 100};

START_TEST(test_remote_faults_round_trip)
{
    /* CENTRAL, 2 PEs of 100 MB. One thread of 110 MB on PE 1 overallocates
     * by L = 10 MB; PE 0 is idle. Its request reaches the manager (PE 0)
     * after T(64); the manager's table shows PE 0 at its installed 100 MB
     * and PE 1 at 0 (heard with the request), so it asks PE 0 - itself, at
     * once - which lends 10 MB (100 - 10 >= threshold 0.1); the reply
     * (64 + 12 bytes for one piece) takes T(76). The thread waits
     * T(64) + T(76), then all of its overallocated data is in network RAM
     * (share 10/10 = 1): every fault goes to PE 0 and costs exactly one
     * round trip, page out and page in: 2 T(4096) = 1.51092e-3 s, with no
     * other traffic on the star. The disk is never used. The job ends at
     * 1 + T(64) + T(76) + 50 s CPU + faults x 2 T(4096). */
    world w;
    world_init(&w, 2, RAM100, 2e-5, "CENTRAL", NULL, 3);
    job_t *j = make_job(&w, 1, 1, (int[]){1}, 50, 110);
    start_at(&w, 1, j);
    ev_run(&w.sim, 2);
    ck_assert_near(w.cl.pes[0].lent_mb, 10, 1e-12);
    ck_assert_near(w.cl.pes[1].remote_mb, 10, 1e-12);
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(w.jobs_ended, 1);
    struct jrec *r = &w.rec[1];
    double wait = T_MSG(CTRL) + T_MSG(CTRL + 12);
    ck_assert_near(r->waited_alloc, wait, 1e-15);
    ck_assert_uint_gt(r->faults, 300);
    ck_assert_uint_eq(w.cl.pes[1].faults, r->faults);
    ck_assert_uint_eq(w.cl.pes[1].remote_faults, r->faults);
    ck_assert_uint_eq(w.cl.pes[1].disk_faults, 0);
    ck_assert_double_eq(res_busy_time(&w.sim, &w.cl.pes[1].disk), 0);
    ck_assert_near(r->fault_time / (double)r->faults, 2 * T_MSG(PAGE), 1e-15);
    ck_assert_near(r->end, 1 + wait + 50 + r->fault_time, 1e-9);
    /* The protocol: one message of each control kind, one page pair per
     * fault, nothing left. */
    for (int k = PNR_MSG_REQUEST; k <= PNR_MSG_ACK; k++)
        ck_assert_msg(sent(&w, k) == 1, "%s: %llu", pnr_kind_name(k),
                      (unsigned long long)sent(&w, k));
    ck_assert_uint_eq(sent(&w, PNR_MSG_BROADCAST), 0);
    ck_assert_uint_eq(sent(&w, PNR_MSG_PAGE_OUT), r->faults);
    ck_assert_uint_eq(received(&w, 0, PNR_MSG_PAGE_OUT), r->faults);
    ck_assert_uint_eq(received(&w, 1, PNR_MSG_PAGE_IN), r->faults);
    ck_assert_uint_eq(pnr_get_stats(w.pnr)->satisfied, 1);
    assert_settled(w.pnr);
    ck_assert_double_eq(w.cl.pes[1].remote_mb, 0);
    world_free(&w);
}
END_TEST

START_TEST(test_partial_cover)
{
    /* CENTRAL, 2 PEs of 100 MB. PE 0 runs a 95 MB thread (fits: asks 0),
     * so it can lend only 5 - 0.1 = 4.9 MB; a 110 MB thread on PE 1 asks
     * for 10 and gets 4.9 (a partial grant), leaving PE 0 exactly at its
     * threshold. Each of its faults goes to network RAM with probability
     * 4.9/10: over n faults the network count is Binomial(n, 0.49); accept
     * 5 standard deviations. Network faults still cost 2 T(4096) each; disk
     * faults are served by PE 1's disk. */
    world w;
    world_init(&w, 2, RAM100, 1e-5, "CENTRAL", NULL, 4);
    job_t *a = make_job(&w, 1, 1, (int[]){0}, 400, 95);
    job_t *b = make_job(&w, 2, 1, (int[]){1}, 300, 110);
    start_at(&w, 0, a);
    start_at(&w, 1, b);
    ev_run(&w.sim, 2);
    ck_assert_near(w.cl.pes[0].lent_mb, 4.9, 1e-12);
    ck_assert_near(pe_free_mb(&w.cl.pes[0]), 0.1, 1e-12);
    ck_assert_near(w.cl.pes[1].remote_mb, 4.9, 1e-12);
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(w.jobs_ended, 2);
    const pnr_stats *st = pnr_get_stats(w.pnr);
    ck_assert_uint_eq(st->requests, 1);
    ck_assert_uint_eq(st->partial, 1);
    ck_assert_near(st->granted_mb, 4.9, 1e-12);
    pe_t *pe = &w.cl.pes[1];
    assert_remote_share(pe, 0.49);
    double disk_time = (double)pe->disk_faults * pe->disk_service;
    ck_assert_near(pe->fault_time, disk_time + (double)pe->remote_faults * 2 * T_MSG(PAGE),
                   1e-9 * pe->fault_time);
    ck_assert_uint_eq(w.cl.pes[0].remote_faults + w.cl.pes[0].disk_faults, w.cl.pes[0].faults);
    assert_settled(w.pnr);
    world_free(&w);
}
END_TEST

START_TEST(test_fair_share_end_to_end)
{
    /* CENTRAL, 5 PEs of 100 MB, threshold 0. Single-thread jobs started at
     * t = 0 fill PEs 0..4 with 50, 60, 70, 100 and 20 MB (each fits and
     * asks 0; their requests tell the manager PE 4 has 80 MB free). At
     * t = 1 a 4-thread job of 60 MB per thread starts on PEs 0..3, which
     * then overallocate by 10, 20, 30 and 60 MB: its threads ask for 10,
     * 20, 30 and 60. The manager asks PE 4 (the only server with RAM above
     * the threshold in its table), which grants all it has, 80 MB, then
     * shares it as in §5.2.3: 10, 20, 25, 25 (the clients' remote_mb). */
    world w;
    world_init(&w, 5, RAM100, 0, "CENTRAL", (const char *[]){"netram.server_threshold=0", NULL},
               5);
    const double fill[5] = {50, 60, 70, 100, 20};
    for (int i = 0; i < 5; i++)
        start_at(&w, 0, make_job(&w, 1 + i, 1, (int[]){i}, 100, fill[i]));
    job_t *k = make_job(&w, 10, 4, (int[]){0, 1, 2, 3}, 10, 60);
    start_at(&w, 1, k);
    ev_run(&w.sim, 1.5);
    ck_assert_near(w.cl.pes[4].lent_mb, 80, 1e-12);
    ck_assert_near(pe_free_mb(&w.cl.pes[4]), 0, 1e-12);
    const double expect[4] = {10, 20, 25, 25};
    for (int i = 0; i < 4; i++)
        ck_assert_near(w.cl.pes[i].remote_mb, expect[i], 1e-12);
    const pnr_stats *st = pnr_get_stats(w.pnr);
    ck_assert_uint_eq(st->requests, 4);
    ck_assert_uint_eq(st->satisfied, 2);
    ck_assert_uint_eq(st->partial, 2);
    ck_assert_near(st->asked_mb, 120, 1e-12);
    ck_assert_near(st->granted_mb, 80, 1e-12);
    ck_assert_uint_eq(sent(&w, PNR_MSG_ASK), 1);
    ck_assert_uint_eq(received(&w, 4, PNR_MSG_ASK), 1);
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(w.jobs_ended, 6);
    assert_settled(w.pnr);
    world_free(&w);
}
END_TEST

START_TEST(test_server_pages_for_its_loan)
{
    /* CENTRAL, 2 PEs of 100 MB. PE 0 lends 10 MB to a 110 MB thread on
     * PE 1 (as in the round-trip case). At t = 2 a 95 MB thread starts on
     * PE 0: 95 + 10 lent = 105 MB, so the loan pushes it 5 MB over. It asks
     * for 5; PE 1 has nothing free, so the request is denied and its faults
     * go to PE 0's disk. Lent memory is not taken back (§5: no eviction). */
    world w;
    world_init(&w, 2, RAM100, 1e-4, "CENTRAL", NULL, 9);
    start_at(&w, 1, make_job(&w, 1, 1, (int[]){1}, 60, 110));
    start_at(&w, 2, make_job(&w, 2, 1, (int[]){0}, 20, 95));
    ev_run(&w.sim, 3);
    ck_assert_near(w.cl.pes[0].lent_mb, 10, 1e-12);
    ck_assert_near(pe_overalloc_mb(&w.cl.pes[0]), 5, 1e-12);
    ck_assert_double_eq(w.cl.pes[0].remote_mb, 0);
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(w.jobs_ended, 2);
    const pnr_stats *st = pnr_get_stats(w.pnr);
    ck_assert_uint_eq(st->requests, 2);
    ck_assert_uint_eq(st->satisfied, 1);
    ck_assert_uint_eq(st->denied, 1);
    ck_assert_uint_gt(w.cl.pes[0].faults, 10);
    ck_assert_uint_eq(w.cl.pes[0].disk_faults, w.cl.pes[0].faults);
    ck_assert_uint_eq(w.cl.pes[1].disk_faults, 0);
    assert_settled(w.pnr);
    world_free(&w);
}
END_TEST

/* A 2-thread job of 10 MB per thread (fits: both ask 0) and 1 us of CPU
 * on PEs 1 and 2 of 3: both threads end at t = 1e-6, long before their
 * requests reach the manager (T(64) = 9e-5 s): the job's state is gone
 * while its allocation round and then its deallocation round go on alone.
 */
static void early_end_case(const char *strategy)
{
    world w;
    world_init(&w, 3, RAM100, 1e-3, strategy, NULL, 10);
    job_t *j = make_job(&w, 1, 2, (int[]){1, 2}, 1e-6, 10);
    start_at(&w, 0, j);
    ev_run(&w.sim, 2e-6);
    ck_assert_int_eq(w.jobs_ended, 1);
    ck_assert_near(w.rec[1].end, 1e-6, 1e-15);
    ev_run(&w.sim, INFINITY);
    const pnr_stats *st = pnr_get_stats(w.pnr);
    ck_assert_uint_eq(st->requests, 0);
    ck_assert_uint_eq(sent(&w, PNR_MSG_REQUEST), 2);
    ck_assert_uint_eq(sent(&w, PNR_MSG_DEALLOC), 2);
    ck_assert_uint_eq(sent(&w, PNR_MSG_ASK), 0);
    ck_assert_uint_eq(sent(&w, PNR_MSG_REPLY), 0);
    ck_assert_uint_eq(sent(&w, PNR_MSG_FREE), 0);
    ck_assert_uint_eq(st->alloc_rounds, 1);
    ck_assert_uint_eq(st->dealloc_rounds, 1);
    for (int k = PNR_MSG_REQUEST; k < PNR_MSG_KINDS_END; k++) {
        uint64_t got = 0;
        for (int pe = 0; pe < 3; pe++)
            got += received(&w, pe, k);
        ck_assert_uint_eq(got, sent(&w, k));
    }
    assert_settled(w.pnr);
    world_free(&w);
}

START_TEST(test_job_ends_before_its_rounds)
{
    /* CENTRAL (requests and notices cross the network to PE 0) and MANAGER
     * (one of them is local, the other crosses; after each round a
     * broadcast to the 2 others). Nothing is freed early (ASan). */
    early_end_case("CENTRAL");
    early_end_case("MANAGER");
}
END_TEST

/* CLIENT vs CENTRAL on 4 PEs: PE 0 runs a 50 MB thread (from t = 0); at
 * t = 1 a 2-thread job of 60 MB per thread starts on PEs 0 and 1: thread 0
 * overallocates PE 0 by 10 MB and asks for 10, thread 1 fits (PE 1 at
 * 60 MB). Returns the 2-thread job's record. */
static struct jrec client_case(const char *strategy, uint64_t *requests, uint64_t *asks)
{
    world w;
    world_init(&w, 4, RAM100, 1e-3, strategy, NULL, 6);
    start_at(&w, 0, make_job(&w, 1, 1, (int[]){0}, 100, 50));
    start_at(&w, 1, make_job(&w, 2, 2, (int[]){0, 1}, 20, 60));
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(w.jobs_ended, 2);
    assert_settled(w.pnr);
    struct jrec r = w.rec[2];
    *requests = sent(&w, PNR_MSG_REQUEST);
    *asks = sent(&w, PNR_MSG_ASK);
    ck_assert_uint_eq(pnr_get_stats(w.pnr)->satisfied, 1);
    world_free(&w);
    return r;
}

START_TEST(test_client_does_not_wait)
{
    /* CLIENT: thread 0's local manager acts at once for it alone: the
     * request and the reply stay on PE 0 (no time); its table knows
     * nothing of PEs 1-3 (installed 100 MB each) and any of them can lend
     * 10 MB, so one ASK/GRANT round trip: wait = 2 T(64), whatever thread 1
     * does (it sends nothing). Only thread 0 sends a request.
     * CENTRAL (manager PE 0) waits for both threads of the job: thread 1's
     * request arrives after T(64), then the same ASK/GRANT round trip:
     * 3 T(64). Three requests: the 50 MB thread's and the job's two. */
    uint64_t req, asks;
    struct jrec c = client_case("CLIENT", &req, &asks);
    ck_assert_near(c.waited_alloc, 2 * T_MSG(CTRL), 1e-15);
    ck_assert_uint_eq(req, 1);
    ck_assert_uint_eq(asks, 1);
    struct jrec z = client_case("CENTRAL", &req, &asks);
    ck_assert_near(z.waited_alloc, 3 * T_MSG(CTRL), 1e-15);
    ck_assert_uint_eq(req, 3);
    ck_assert_uint_eq(asks, 1);
}
END_TEST

START_TEST(test_manager_choice)
{
    /* MANAGER on 4 PEs: one 3-thread job on PEs 1, 2, 3 (70 MB per thread,
     * after 50 MB threads on PEs 1 and 2 so that two of its threads ask).
     * Its manager is one of PEs 1-3; all three requests arrive there;
     * all three deallocation notices arrive at one PE of the job (drawn
     * again at the job's end). The single-thread jobs fit (ask 0) and their
     * rounds change nothing: no broadcast (§5.2.6). The 3-thread job's
     * threads on PEs 1 and 2 overallocate by 50 + 70 - 100 = 20 MB each and
     * get 40 MB from PE 0 (the only server with room), so after its
     * allocation and after its deallocation the manager broadcasts to the
     * N - 1 = 3 others: 6 broadcasts, every PE but that round's manager
     * receiving one per round. The same seed
     * gives the same manager; across seeds every PE of the job serves. */
    bool seen[4] = {false, false, false, false};
    int first = -1;
    for (uint64_t seed = 1; seed <= 12; seed++) {
        for (int rep = 0; rep < (seed == 1 ? 2 : 1); rep++) {
            world w;
            world_init(&w, 4, RAM100, 1e-3, "MANAGER", NULL, seed);
            start_at(&w, 0, make_job(&w, 1, 1, (int[]){1}, 100, 50));
            start_at(&w, 0, make_job(&w, 2, 1, (int[]){2}, 100, 50));
            job_t *j = make_job(&w, 3, 3, (int[]){1, 2, 3}, 10, 70);
            start_at(&w, 1, j);
            ev_run(&w.sim, 1.5);
            int m = pnr_job_manager(w.pnr, j);
            ck_assert(m >= 1 && m <= 3);
            /* Single-thread jobs manage themselves. */
            ck_assert_uint_eq(received(&w, 1, PNR_MSG_REQUEST) + received(&w, 2, PNR_MSG_REQUEST) +
                                  received(&w, 3, PNR_MSG_REQUEST),
                              2 + 3);
            ck_assert_uint_eq(received(&w, m, PNR_MSG_REQUEST), (m == 3 ? 0 : 1) + 3);
            ev_run(&w.sim, INFINITY);
            ck_assert_int_eq(w.jobs_ended, 3);
            assert_settled(w.pnr);
            const pnr_stats *st = pnr_get_stats(w.pnr);
            ck_assert_uint_eq(st->alloc_rounds, 3);
            ck_assert_uint_eq(st->dealloc_rounds, 3);
            ck_assert_uint_eq(st->requests, 2);
            ck_assert_uint_eq(st->alloc_rounds_changed, 1);
            ck_assert_uint_eq(st->dealloc_rounds_changed, 1);
            ck_assert_uint_eq(sent(&w, PNR_MSG_BROADCAST), 3 * 2);
            /* The 3-thread job's deallocation notices went to one PE. */
            int dm = -1;
            for (int pe = 1; pe <= 3; pe++) {
                uint64_t own = pe <= 2 ? 1 : 0; /* the single-thread job's own */
                uint64_t d = received(&w, pe, PNR_MSG_DEALLOC) - own;
                ck_assert(d == 0 || d == 3);
                if (d == 3)
                    dm = pe;
            }
            ck_assert_int_ge(dm, 1);
            ck_assert_uint_eq(received(&w, 0, PNR_MSG_DEALLOC), 0);
            ck_assert_uint_eq(received(&w, 0, PNR_MSG_REQUEST), 0);
            /* PE 0 is in no job: it hears both broadcasts. */
            ck_assert_uint_eq(received(&w, 0, PNR_MSG_BROADCAST), 2);
            /* The job's PEs hear each one they did not send. */
            for (int pe = 1; pe <= 3; pe++) {
                int managed = (m == pe) + (dm == pe);
                ck_assert_uint_eq(received(&w, pe, PNR_MSG_BROADCAST), 2 - managed);
            }
            if (seed == 1 && rep == 0)
                first = m;
            else if (seed == 1)
                ck_assert_int_eq(m, first);
            seen[m] = true;
            world_free(&w);
        }
    }
    ck_assert(seen[1] && seen[2] && seen[3]);
}
END_TEST

/* Messages of every kind on one hand-worked case, per strategy. 4 PEs of
 * 100 MB on the star. t = 0: job 1, two 50 MB threads on PEs 0 and 1
 * (they fit: asks 0). t = 1: job 2, one 120 MB thread on PE 3, which
 * overallocates by 20 MB and asks for 20. Every server it may be sent to
 * (PE 0 or 1: 50 MB free; PE 2: 100) has more than 20 + 0.1 MB, so the
 * first ASK is granted in full whatever the table says: 1 ASK, 1 GRANT,
 * 1 REPLY; at job 2's end its whole 20 MB is freed (PE 3 is no longer
 * overallocated): 1 FREE, 1 ACK.
 *   CENTRAL:  REQUEST 3 (every thread), DEALLOC 3, BROADCAST 0.
 *   CLIENT:   REQUEST 1 (only the asking thread), DEALLOC 1, BROADCAST 0.
 *   MANAGER:  REQUEST 3, DEALLOC 3; 4 rounds (2 per job) of which 2 (job
 *             2's) change allocations: 2 x (N-1) = 6 BROADCASTs (every
 *             round broadcasting would have made 12).
 *   BACKBONE (2 managers, PEs 0 and 2): REQUEST 3, DEALLOC 3; 2 changing
 *             rounds x (M-1) = 2 BROADCASTs (4 if every round did). */
static void counts_case(const char *strategy, const char *const *sets, const uint64_t *want)
{
    for (uint64_t seed = 1; seed <= 4; seed++) {
        world w;
        world_init(&w, 4, RAM100, 1e-3, strategy, sets, seed);
        start_at(&w, 0, make_job(&w, 1, 2, (int[]){0, 1}, 20, 50));
        start_at(&w, 1, make_job(&w, 2, 1, (int[]){3}, 10, 120));
        ev_run(&w.sim, INFINITY);
        ck_assert_int_eq(w.jobs_ended, 2);
        assert_settled(w.pnr);
        for (int k = PNR_MSG_REQUEST; k <= PNR_MSG_BROADCAST; k++)
            ck_assert_msg(sent(&w, k) == want[k - PNR_MSG_REQUEST], "%s seed %llu: %s %llu, want %llu",
                          strategy, (unsigned long long)seed, pnr_kind_name(k),
                          (unsigned long long)sent(&w, k),
                          (unsigned long long)want[k - PNR_MSG_REQUEST]);
        ck_assert_uint_eq(pnr_get_stats(w.pnr)->satisfied, 1);
        ck_assert_uint_eq(w.cl.pes[3].disk_faults, 0);
        world_free(&w);
    }
}

START_TEST(test_message_counts)
{
    /* REQUEST, ASK, GRANT, REPLY, DEALLOC, FREE, ACK, BROADCAST */
    counts_case("CENTRAL", NULL, (const uint64_t[]){3, 1, 1, 1, 3, 1, 1, 0});
    counts_case("CLIENT", NULL, (const uint64_t[]){1, 1, 1, 1, 1, 1, 1, 0});
    counts_case("MANAGER", NULL, (const uint64_t[]){3, 1, 1, 1, 3, 1, 1, 6});
    counts_case("BACKBONE", (const char *[]){"netram.managers=2", NULL},
                (const uint64_t[]){3, 1, 1, 1, 3, 1, 1, 2});
}
END_TEST

/* The case of §5.1.3 (3 PEs of 32 MB, CENTRAL): jobs of two 24 MB
 * threads on PEs 0 and 1, submitted at 0 (2000 s of CPU), 1 (100 s) and
 * 2 (2000 s); here they all run at once (no gang scheduler), sharing the
 * CPUs. Job 1 fits (24 < 32). Job 2 overallocates each PE by 48 - 32 =
 * 16 MB; the manager (PE 0) asks PE 2, the most free RAM in its table
 * (its installed 32 MB), which lends 32 - 0.1 = 31.9 MB: 15.95 MB each.
 * Job 3 makes it 40 MB each; nobody has room (PE 2 is at its threshold),
 * so it gets nothing. Until job 2 ends, a fault goes to network RAM with
 * probability 15.95 / 40. When job 2 ends each PE is overallocated by 16:
 *   release ALL:    job 2's 15.95 MB per PE are freed: every later fault
 *                   goes to disk;
 *   release EXCESS: 15.95 <= 16 is all still needed: nothing is freed and
 *                   a fault goes to network RAM with probability
 *                   15.95 / 16 = 0.996875, until job 1's or job 3's thread
 *                   ends (then the PE is no longer overallocated and
 *                   frees everything). */
static void keep_case(const char *release, uint64_t *after_remote, uint64_t *after_disk,
                      uint64_t *mid_remote, uint64_t *mid_disk)
{
    static const double ram[3] = {32, 32, 32};
    char set[64];
    snprintf(set, sizeof set, "netram.release=%s", release);
    world w;
    world_init(&w, 3, ram, 2.4e-7, "CENTRAL", (const char *[]){set, NULL}, 5);
    start_at(&w, 0, make_job(&w, 1, 2, (int[]){0, 1}, 2000, 24));
    start_at(&w, 1, make_job(&w, 2, 2, (int[]){0, 1}, 100, 24));
    start_at(&w, 2, make_job(&w, 3, 2, (int[]){0, 1}, 2000, 24));
    ev_run(&w.sim, 3);
    for (int pe = 0; pe < 2; pe++) {
        ck_assert_near(w.cl.pes[pe].remote_mb, 15.95, 1e-9);
        ck_assert_near(pe_overalloc_mb(&w.cl.pes[pe]), 40, 1e-9);
    }
    ck_assert_near(w.cl.pes[2].lent_mb, 31.9, 1e-9);
    /* From t = 3 to 300 (job 2's threads still run: 72 MB on each PE). */
    uint64_t r3 = w.cl.pes[0].remote_faults + w.cl.pes[1].remote_faults;
    uint64_t d3 = w.cl.pes[0].disk_faults + w.cl.pes[1].disk_faults;
    ev_run(&w.sim, 300);
    ck_assert_near(w.cl.pes[0].alloc_mb + w.cl.pes[1].alloc_mb, 144, 1e-9);
    *mid_remote = w.cl.pes[0].remote_faults + w.cl.pes[1].remote_faults - r3;
    *mid_disk = w.cl.pes[0].disk_faults + w.cl.pes[1].disk_faults - d3;
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(w.jobs_ended, 3);
    const pnr_stats *st = pnr_get_stats(w.pnr);
    ck_assert_uint_eq(st->requests, 4);
    ck_assert_uint_eq(st->satisfied, 0);
    ck_assert_uint_eq(st->partial, 2);
    ck_assert_uint_eq(st->denied, 2);
    struct jrec *j2 = &w.rec[2];
    ck_assert(j2->end < w.rec[1].end && j2->end < w.rec[3].end);
    *after_remote = *after_disk = 0;
    for (int pe = 0; pe < 2; pe++) {
        *after_remote += w.cl.pes[pe].remote_faults - j2->remote[pe];
        *after_disk += w.cl.pes[pe].disk_faults - j2->disk[pe];
    }
    ck_assert_uint_eq(w.cl.pes[2].faults, 0);
    assert_settled(w.pnr);
    world_free(&w);
}

START_TEST(test_node_keeps_what_it_needs)
{
    uint64_t ar, ad, mr, md, mr2, md2;
    /* ALL: nothing remote after job 2's end. */
    keep_case("all", &ar, &ad, &mr, &md);
    ck_assert_uint_eq(ar, 0);
    ck_assert_uint_gt(ad, 10000);
    /* From t = 3 to 300 a fault is remote with probability 15.95 / 40:
     * Binomial(n, 0.39875), 5 standard deviations. */
    double n = (double)(mr + md), q = 15.95 / 40;
    ck_assert_msg(n > 10000, "%.0f faults", n);
    ck_assert_msg(fabs((double)mr - n * q) < 5 * sqrt(n * q * (1 - q)),
                  "%llu of %.0f faults remote, expected %.1f", (unsigned long long)mr, n, n * q);
    /* EXCESS: the same until job 2's threads end (job 3 asks 40 - 15.95 =
     * 24.05 instead of 24 and is denied all the same: the same messages,
     * the same draws); after job 2's end, Binomial(n, 15.95 / 16). */
    keep_case("excess", &ar, &ad, &mr2, &md2);
    ck_assert_uint_eq(mr2, mr);
    ck_assert_uint_eq(md2, md);
    n = (double)(ar + ad);
    q = 15.95 / 16;
    ck_assert_msg(n > 10000, "%.0f faults", n);
    ck_assert_msg(fabs((double)ar - n * q) < 5 * sqrt(n * q * (1 - q)),
                  "%llu of %.0f faults remote, expected %.1f", (unsigned long long)ar, n, n * q);
}
END_TEST

/* A node asks for the difference when its overallocation grows (§5.1.1,
 * §5.1.3). 3 PEs of 100 MB, CENTRAL (manager PE 0). t = 0: 95 MB threads
 * on PEs 0 and 2 (50 s of CPU) leave each 5 MB free. t = 1: job A, 120 MB
 * on PE 1 (1000 s), asks 20 MB and gets 4.9 + 4.9 = 9.8 (partial). The
 * 95 MB threads end at about 50 s; then both servers have 95.1 MB free.
 * t = 200: job B, 10 MB on PE 1 (300 s): PE 1 is overallocated by 30 MB.
 *   ALL:    B asks its own L = min(30, 10) = 10 MB: the node holds 19.8
 *           of 30 MB and a fault goes to disk with probability 1/3.
 *   EXCESS: B's client asks for the node's difference, 30 - 9.8 = 20.2 MB,
 *           gets it, and the node's 30 MB cover all of its overallocation:
 *           no fault goes to disk while B runs. */
static void grow_case(const char *release, double *asked, uint64_t *disk_after,
                      uint64_t *faults_after)
{
    char set[64];
    snprintf(set, sizeof set, "netram.release=%s", release);
    world w;
    world_init(&w, 3, RAM100, 1e-4, "CENTRAL", (const char *[]){set, NULL}, 6);
    start_at(&w, 0, make_job(&w, 1, 1, (int[]){0}, 50, 95));
    start_at(&w, 0, make_job(&w, 2, 1, (int[]){2}, 50, 95));
    start_at(&w, 1, make_job(&w, 3, 1, (int[]){1}, 1000, 120));
    start_at(&w, 200, make_job(&w, 4, 1, (int[]){1}, 300, 10));
    ev_run(&w.sim, 2);
    ck_assert_near(w.cl.pes[1].remote_mb, 9.8, 1e-9);
    ev_run(&w.sim, 201);
    ck_assert(w.rec[1].ended && w.rec[2].ended && !w.rec[4].ended);
    uint64_t d0 = w.cl.pes[1].disk_faults, f0 = w.cl.pes[1].faults;
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(w.jobs_ended, 4);
    *asked = pnr_get_stats(w.pnr)->asked_mb;
    *disk_after = w.rec[4].disk[1] - d0;
    *faults_after = w.rec[4].remote[1] + w.rec[4].disk[1] - f0;
    assert_settled(w.pnr);
    world_free(&w);
}

START_TEST(test_node_asks_the_difference)
{
    double asked;
    uint64_t disk, n;
    grow_case("all", &asked, &disk, &n);
    ck_assert_near(asked, 20 + 10, 1e-9);
    ck_assert_msg(n > 1000, "%llu", (unsigned long long)n);
    double q = 1.0 / 3;
    ck_assert_msg(fabs((double)disk - (double)n * q) < 5 * sqrt((double)n * q * (1 - q)),
                  "%llu of %llu faults on disk", (unsigned long long)disk, (unsigned long long)n);
    grow_case("excess", &asked, &disk, &n);
    ck_assert_near(asked, 20 + 20.2, 1e-9);
    ck_assert_msg(n > 1000, "%llu", (unsigned long long)n);
    ck_assert_uint_eq(disk, 0);
}
END_TEST

/* Server selection (§5.2.2, netram.server_selection) on 4 PEs of 100 MB,
 * CENTRAL with global knowledge (the manager, PE 0, sees true free RAM).
 * t = 0: threads of 40, 75 and 40 MB on PEs 1, 2 and 3 leave 60, 25 and
 * 60 MB free (lendable above the 0.1 MB threshold: 59.9, 24.9, 59.9).
 * t = 1: a thread of 100 + need MB on PE 0 asks for `need` MB and gets it
 * all. Returns a bit mask of the PEs asked; lent[pe] = MB each lent. */
static int select_case(const char *sel, double need, uint64_t seed, double *lent)
{
    char set[64];
    snprintf(set, sizeof set, "netram.server_selection=%s", sel);
    world w;
    world_init(&w, 4, RAM100, 1e-3, "CENTRAL",
               (const char *[]){set, "netram.global_knowledge=yes", NULL}, seed);
    start_at(&w, 0, make_job(&w, 1, 1, (int[]){1}, 10, 40));
    start_at(&w, 0, make_job(&w, 2, 1, (int[]){2}, 10, 75));
    start_at(&w, 0, make_job(&w, 3, 1, (int[]){3}, 10, 40));
    start_at(&w, 1, make_job(&w, 4, 1, (int[]){0}, 1, 100 + need));
    ev_run(&w.sim, 2);
    int mask = 0;
    for (int pe = 0; pe < 4; pe++) {
        if (received(&w, pe, PNR_MSG_ASK))
            mask |= 1 << pe;
        lent[pe] = w.cl.pes[pe].lent_mb;
    }
    ck_assert_near(w.cl.pes[0].remote_mb, need, 1e-9);
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(w.jobs_ended, 4);
    assert_settled(w.pnr);
    world_free(&w);
    return mask;
}

START_TEST(test_server_selection)
{
    double lent[4];
    /* 20 MB: WORSTFIT asks PE 1 (60 free, tied with PE 3: lowest PE);
     * BESTFIT asks PE 2 (the least free RAM that covers 20: 24.9 >= 20). */
    for (uint64_t seed = 1; seed <= 3; seed++) {
        ck_assert_int_eq(select_case("WORSTFIT", 20, seed, lent), 1 << 1);
        ck_assert_near(lent[1], 20, 1e-9);
        ck_assert_int_eq(select_case("BESTFIT", 20, seed, lent), 1 << 2);
        ck_assert_near(lent[2], 20, 1e-9);
    }
    /* RANDOM_WORSTFIT: PE 1 or PE 3 (the tie, at random), never PE 2;
     * RANDOM: any of the three. Over 40 seeds each possible choice occurs
     * (a given one is missed with probability (1/2)^40 or (2/3)^40). */
    int seen_rw = 0, seen_r = 0;
    for (uint64_t seed = 1; seed <= 40; seed++) {
        int m = select_case("RANDOM_WORSTFIT", 20, seed, lent);
        ck_assert(m == 1 << 1 || m == 1 << 3);
        seen_rw |= m;
        m = select_case("RANDOM", 20, seed, lent);
        ck_assert(m == 1 << 1 || m == 1 << 2 || m == 1 << 3);
        seen_r |= m;
    }
    ck_assert_int_eq(seen_rw, (1 << 1) | (1 << 3));
    ck_assert_int_eq(seen_r, (1 << 1) | (1 << 2) | (1 << 3));
    /* 70 MB: nobody covers it. BESTFIT falls back to the most free (PE 1,
     * lends 59.9), then 10.1 MB remain, which PE 2 (24.9) and PE 3 (59.9)
     * cover: the least free, PE 2. WORSTFIT: PE 1, then PE 3. */
    ck_assert_int_eq(select_case("BESTFIT", 70, 1, lent), (1 << 1) | (1 << 2));
    ck_assert_near(lent[1], 59.9, 1e-9);
    ck_assert_near(lent[2], 10.1, 1e-9);
    ck_assert_int_eq(select_case("WORSTFIT", 70, 1, lent), (1 << 1) | (1 << 3));
    ck_assert_near(lent[1], 59.9, 1e-9);
    ck_assert_near(lent[3], 10.1, 1e-9);
}
END_TEST

/* The stale-table case on 4 PEs of 100 MB fully connected (one one-way
 * link per ordered pair, so concurrent messages never queue: a 64-byte
 * message takes LAT + 64 / BW = 5.17e-6 s), CENTRAL (manager PE 0). At
 * t = 0, a 30 MB thread starts on PE 2 and a 60 MB thread on PE 3: their
 * requests tell the manager 70 and 40 MB free. At t = 1 a 100 MB thread
 * starts on PE 1 (its request is on the network until 1 + 5.17e-6) and a
 * 120 MB thread on PE 0 asks for 20 MB, at once (the manager is local).
 * Returns that thread's wait and the ASKs PEs 1 and 2 received. */
static double stale_case(bool global, uint64_t *asks1, uint64_t *asks2)
{
    world w;
    world_init_topo(&w, TOPO_KIND_CONNECTED, 4, RAM100, 1e-3, "CENTRAL",
               (const char *[]){global ? "netram.global_knowledge=yes"
                                       : "netram.global_knowledge=no",
                                NULL},
               8);
    start_at(&w, 0, make_job(&w, 1, 1, (int[]){2}, 100, 30));
    start_at(&w, 0, make_job(&w, 2, 1, (int[]){3}, 100, 60));
    start_at(&w, 1, make_job(&w, 3, 1, (int[]){1}, 100, 100));
    start_at(&w, 1, make_job(&w, 4, 1, (int[]){0}, 10, 120));
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(w.jobs_ended, 4);
    assert_settled(w.pnr);
    ck_assert_uint_eq(pnr_get_stats(w.pnr)->satisfied, 1);
    *asks1 = received(&w, 1, PNR_MSG_ASK);
    *asks2 = received(&w, 2, PNR_MSG_ASK);
    double wait = w.rec[4].waited_alloc;
    world_free(&w);
    return wait;
}

START_TEST(test_global_knowledge)
{
    /* Without global knowledge the manager's table still shows PE 1 at its
     * installed 100 MB, the most: it asks PE 1 first (full: grants 0), then
     * PE 2 (70 MB), which grants 20: wait = 2 round trips = 4 x 5.17e-6 s.
     * With global knowledge it reads the true free memory (PE 1: 0, PE 2:
     * 70, PE 3: 40) and asks PE 2 at once: 2 x 5.17e-6 s. */
    uint64_t a1, a2;
    double stale = stale_case(false, &a1, &a2);
    ck_assert_uint_eq(a1, 1);
    ck_assert_uint_eq(a2, 1);
    ck_assert_near(stale, 4 * (LAT + CTRL / BW), 1e-15);
    double global = stale_case(true, &a1, &a2);
    ck_assert_uint_eq(a1, 0);
    ck_assert_uint_eq(a2, 1);
    ck_assert_near(global, 2 * (LAT + CTRL / BW), 1e-15);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("pnr");
    TCase *tc = tcase_create("pnr");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_fair_share);
    tcase_add_test(tc, test_fair_share_end_to_end);
    tcase_add_test(tc, test_remote_faults_round_trip);
    tcase_add_test(tc, test_partial_cover);
    tcase_add_test(tc, test_server_pages_for_its_loan);
    tcase_add_test(tc, test_job_ends_before_its_rounds);
    tcase_add_test(tc, test_client_does_not_wait);
    tcase_add_test(tc, test_manager_choice);
    tcase_add_test(tc, test_message_counts);
    tcase_add_test(tc, test_node_keeps_what_it_needs);
    tcase_add_test(tc, test_node_asks_the_difference);
    tcase_add_test(tc, test_server_selection);
    tcase_add_test(tc, test_global_knowledge);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
