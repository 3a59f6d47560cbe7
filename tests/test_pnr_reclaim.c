/* tests/test_pnr_reclaim.c: donors taking their memory back (issue 25
 * item 4, netram.reclaim = SWAP | REPLACE; docs/MODEL.md "Donors take
 * memory back"), on the hand-built machine of tests/fixture_pnr.h (star,
 * 12.5e6 B/s links, 4096-byte pages), with the conservation checker on at
 * every step (pnr_check after every allocation, deallocation and reclaim
 * step: lent == held + in transit per server and in total, and per node
 * the network RAM its faults draw from == what it holds).
 *
 * The scenario (3 PEs of 100 MB, threshold 0.1 MB, WORSTFIT selection:
 * ties to the lowest PE):
 *   t = 1  a 130 MB thread on PE 1 overallocates it by 30 MB and asks for
 *          30. Every table shows PEs 0 and 2 at their installed 100 MB:
 *          the tie goes to PE 0, which lends 30. PE 1 holds 30 at PE 0.
 *   t = 5  a 90 MB thread starts on PE 0: 90 + 30 lent = 120 > 100, an
 *          overallocation of 20 with 30 lent, so PE 0 takes back
 *          x = min(30, 20) = 20 MB at once: PE 0 has lent 10, PE 1 holds
 *          10 there (its pool shrinks by 20), and 20 * 2^20 / 4096 = 5120
 *          pages go back to PE 1 in one transfer of 20,971,520 bytes. PE 0
 *          is then exactly full (90 + 10 = 100): its thread asks nothing.
 *   SWAP     PE 1 keeps 10 MB of network RAM; its other 20 MB of
 *            overallocation are on its disk.
 *   REPLACE  PE 1 asks for 20 MB again (under CENTRAL its REQUEST waits
 *            at PE 0's link behind the 20 MB going back, until 6.678 s;
 *            answered by t = 10). Its manager's table shows PE 0
 *            with no free RAM (CENTRAL: PE 0 reads its own; MANAGER: PE
 *            1's own table last heard PE 0 at 70 MB from its GRANT, below
 *            PE 2's 100) and PE 2 at 100: PE 2 lends 20. PE 1 holds 10 at
 *            PE 0 and 20 at PE 2: 30 again, all of its overallocation.
 * At the end (both jobs finished) nothing is lent, held or in transit.
 */
#include "app/config.h"
#include "app/config_notes.h"
#include "app/run.h"
#include "pnr/check.h" /* private: internal.h, the node's pieces */
#include "pnr/pnr.h"
#include "sched/job.h"
#include "tests/testcluster.h"
#include "tests/testutil.h"

#include "tests/fixture_pnr.h"

static const double RAM100[NPE_MAX] = {100, 100, 100, 100, 100, 100, 100, 100};

/* MB node b holds at server s: its pieces, and under release ALL its
 * threads' grants there. */
static double holds_at(const world *w, int b, int s)
{
    const pnr_t *p = w->pnr;
    double mb = 0;
    for (int i = 0; i < p->node[b].n; i++)
        if (p->node[b].v[i].server == s)
            mb += p->node[b].v[i].mb;
    for (pe_user *x = pe_user_first(&w->cl.pes[b]); x; x = pe_user_next(&w->cl.pes[b], x)) {
        const creq_t *c = container_of(x, thread_t, mem_user)->pnr;
        if (c && c->granted > 0)
            for (int i = 0; i < c->pieces.n; i++)
                if (c->pieces.v[i].server == s)
                    mb += c->pieces.v[i].mb;
    }
    return mb;
}

/* The scenario under `strategy`, reclaim `mode`, release `release`. */
static void scenario(const char *strategy, const char *mode, const char *release)
{
    char m[64], r[64];
    snprintf(m, sizeof m, "netram.reclaim=%s", mode);
    snprintf(r, sizeof r, "netram.release=%s", release);
    const char *sets[] = {"netram.server_selection=WORSTFIT", m, r, NULL};
    bool replace = !strcmp(mode, "REPLACE");
    world w;
    world_init(&w, 3, RAM100, 1e-5, strategy, sets, 5);
    job_t *borrower = make_job(&w, 1, 1, (int[]){1}, 300, 130);
    job_t *donor = make_job(&w, 2, 1, (int[]){0}, 400, 90);
    start_at(&w, 1, borrower);
    start_at(&w, 5, donor);
    ev_run(&w.sim, 4.9);
    /* Before: PE 0 lent 30, PE 1 holds 30 there. */
    ck_assert_near(w.cl.pes[0].lent_mb, 30, 1e-9);
    ck_assert_near(w.cl.pes[1].remote_mb, 30, 1e-9);
    ck_assert_near(holds_at(&w, 1, 0), 30, 1e-9);
    ck_assert_uint_eq(pnr_get_stats(w.pnr)->reclaim_events, 0);
    uint64_t requests_before = pnr_get_stats(w.pnr)->requests;
    ev_run(&w.sim, 5); /* the donor's thread starts: the reclaim */
    const pnr_stats *st = pnr_get_stats(w.pnr);
    ck_assert_uint_eq(st->reclaim_events, 1);
    ck_assert_near(st->reclaim_mb, 20, 1e-9);
    ck_assert_near(st->reclaim_pages, 5120, 1e-6);
    ck_assert_near(w.cl.pes[0].lent_mb, 10, 1e-9);
    ck_assert_near(pe_overalloc_mb(&w.cl.pes[0]), 0, 1e-9);
    ck_assert_near(w.cl.pes[1].remote_mb, 10, 1e-9);
    ck_assert_near(holds_at(&w, 1, 0), 10, 1e-9);
    ck_assert_msg(pnr_check_failure(w.pnr) == NULL, "%s", pnr_check_failure(w.pnr));
    if (replace && !strcmp(strategy, "CENTRAL")) {
        /* The request again (PE 1 -> manager PE 0) queues at PE 0's link
         * behind the pages going back, which hold it over [5, 5 + LAT +
         * 20 * 2^20 / BW] = [5, 6.67772165]: no answer at 6.5 yet. */
        ev_run(&w.sim, 6.5);
        ck_assert_double_eq(st->reclaim_replaced_mb, 0);
        ck_assert_near(w.cl.pes[1].remote_mb, 10, 1e-9);
    }
    ev_run(&w.sim, 10); /* REPLACE: the request again has been answered */
    if (replace) {
        ck_assert_uint_eq(st->requests, requests_before + 1);
        ck_assert_near(st->reclaim_replaced_mb, 20, 1e-9);
        ck_assert_near(w.cl.pes[2].lent_mb, 20, 1e-9);
        ck_assert_near(w.cl.pes[1].remote_mb, 30, 1e-9);
        ck_assert_near(holds_at(&w, 1, 2), 20, 1e-9);
    } else {
        ck_assert_uint_eq(st->requests, requests_before);
        ck_assert_double_eq(st->reclaim_replaced_mb, 0);
        ck_assert_double_eq(w.cl.pes[2].lent_mb, 0);
        ck_assert_near(w.cl.pes[1].remote_mb, 10, 1e-9);
    }
    ck_assert_near(holds_at(&w, 1, 0), 10, 1e-9);
    ck_assert_near(w.cl.pes[0].lent_mb, 10, 1e-9);
    ck_assert_msg(pnr_check_failure(w.pnr) == NULL, "%s", pnr_check_failure(w.pnr));
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(w.jobs_ended, 2);
    ck_assert_uint_eq(st->reclaim_events, 1); /* PE 0 never overallocated again */
    assert_settled(w.pnr);
    world_free(&w);
}

START_TEST(test_reclaim_central_swap) { scenario("CENTRAL", "SWAP", "EXCESS"); }
END_TEST
START_TEST(test_reclaim_central_replace) { scenario("CENTRAL", "REPLACE", "EXCESS"); }
END_TEST
START_TEST(test_reclaim_manager_swap) { scenario("MANAGER", "SWAP", "EXCESS"); }
END_TEST
START_TEST(test_reclaim_manager_replace) { scenario("MANAGER", "REPLACE", "EXCESS"); }
END_TEST
START_TEST(test_reclaim_release_all)
{
    /* Release ALL: the thread holds its grant itself; the reclaim cuts the
     * thread's piece (30 -> 10) and, under REPLACE, the node's new piece
     * (20 at PE 2) is freed when the thread ends (assert_settled). */
    scenario("CENTRAL", "SWAP", "ALL");
    scenario("CENTRAL", "REPLACE", "ALL");
}
END_TEST

START_TEST(test_reclaim_none_keeps_lending)
{
    /* NONE (PNRSim): PE 0 keeps lending 30 and its own thread's
     * overallocation of 20 goes to its disk. */
    const char *sets[] = {"netram.server_selection=WORSTFIT", NULL};
    world w;
    world_init(&w, 3, RAM100, 1e-5, "CENTRAL", sets, 5);
    start_at(&w, 1, make_job(&w, 1, 1, (int[]){1}, 300, 130));
    start_at(&w, 5, make_job(&w, 2, 1, (int[]){0}, 400, 90));
    ev_run(&w.sim, 6);
    ck_assert_near(w.cl.pes[0].lent_mb, 30, 1e-9);
    ck_assert_near(pe_overalloc_mb(&w.cl.pes[0]), 20, 1e-9);
    ck_assert_near(w.cl.pes[1].remote_mb, 30, 1e-9);
    ck_assert_uint_eq(pnr_get_stats(w.pnr)->reclaim_events, 0);
    ev_run(&w.sim, INFINITY);
    assert_settled(w.pnr);
    world_free(&w);
}
END_TEST

START_TEST(test_reclaim_two_lenders)
{
    /* Only the lender that overallocates takes back, and only from its
     * own borrowers: 4 PEs of 100 MB, CENTRAL, WORSTFIT. t = 1: PE 1 runs
     * 120 MB and asks 20: the tie among PEs 0, 2, 3 at 100 goes to PE 0,
     * which lends 20 (80 left). t = 2: PE 2 runs 112 MB and asks 12: the
     * manager reads its own PE 0 at 80 and believes PE 3 at 100: PE 3
     * lends 12. t = 3: 95 MB on PE 0: 95 + 20 = 115, over by 15: its one
     * borrower, PE 1, loses 15 (holds 5); 15 * 256 = 3840 pages. t = 4:
     * 80 MB on PE 3: 80 + 12 = 92 fits: no reclaim, PE 2 keeps its 12. */
    const char *sets[] = {"netram.server_selection=WORSTFIT", "netram.reclaim=SWAP", NULL};
    world w;
    world_init(&w, 4, RAM100, 1e-5, "CENTRAL", sets, 5);
    start_at(&w, 1, make_job(&w, 1, 1, (int[]){1}, 300, 120));
    start_at(&w, 2, make_job(&w, 2, 1, (int[]){2}, 300, 112));
    start_at(&w, 3, make_job(&w, 3, 1, (int[]){0}, 300, 95));
    start_at(&w, 4, make_job(&w, 4, 1, (int[]){3}, 300, 80));
    ev_run(&w.sim, 2.9);
    ck_assert_near(w.cl.pes[0].lent_mb, 20, 1e-9);
    ck_assert_near(w.cl.pes[3].lent_mb, 12, 1e-9);
    ev_run(&w.sim, 4.5);
    const pnr_stats *st = pnr_get_stats(w.pnr);
    ck_assert_uint_eq(st->reclaim_events, 1);
    ck_assert_near(st->reclaim_mb, 15, 1e-9);
    ck_assert_near(st->reclaim_pages, 3840, 1e-6);
    ck_assert_near(w.cl.pes[1].remote_mb, 5, 1e-9);
    ck_assert_near(w.cl.pes[2].remote_mb, 12, 1e-9);
    ck_assert_near(w.cl.pes[0].lent_mb, 5, 1e-9);
    ck_assert_near(w.cl.pes[3].lent_mb, 12, 1e-9);
    ev_run(&w.sim, INFINITY);
    assert_settled(w.pnr);
    world_free(&w);
}
END_TEST

START_TEST(test_reclaim_order)
{
    /* Two borrowers of one donor, most held first: 4 PEs of 100 MB,
     * CENTRAL (manager PE 0), WORSTFIT. t = 0.5: 60 MB on PE 3 (fits; its
     * zero request tells the manager PE 3 has 40 free). t = 1: PE 1 runs
     * 120 MB and asks 20: PE 0 (100, read directly) ties with PE 2
     * (believed 100) and wins as the lowest: it lends 20 (80 left).
     * t = 2: PE 2 runs 130 MB and asks 30: PE 0 at 80 beats PE 3 at 40:
     * PE 0 lends 30. So PE 0 has lent 20 to PE 1 and 30 to PE 2. t = 3:
     * 70 MB on PE 0: 70 + 50 = 120, over by 20: PE 2 (30 held, the most)
     * loses all 20 and keeps 10; PE 1 keeps its 20. */
    const char *sets[] = {"netram.server_selection=WORSTFIT", "netram.reclaim=SWAP", NULL};
    world w;
    world_init(&w, 4, RAM100, 1e-5, "CENTRAL", sets, 5);
    start_at(&w, 0.5, make_job(&w, 5, 1, (int[]){3}, 300, 60));
    start_at(&w, 1, make_job(&w, 1, 1, (int[]){1}, 300, 120));
    start_at(&w, 2, make_job(&w, 2, 1, (int[]){2}, 300, 130));
    start_at(&w, 3, make_job(&w, 3, 1, (int[]){0}, 300, 70));
    ev_run(&w.sim, 2.9);
    ck_assert_near(w.cl.pes[0].lent_mb, 50, 1e-9);
    ck_assert_near(holds_at(&w, 1, 0), 20, 1e-9);
    ck_assert_near(holds_at(&w, 2, 0), 30, 1e-9);
    ev_run(&w.sim, 3.5);
    const pnr_stats *st = pnr_get_stats(w.pnr);
    ck_assert_uint_eq(st->reclaim_events, 1);
    ck_assert_near(st->reclaim_mb, 20, 1e-9);
    ck_assert_near(holds_at(&w, 2, 0), 10, 1e-9);
    ck_assert_near(holds_at(&w, 1, 0), 20, 1e-9);
    ck_assert_near(w.cl.pes[2].remote_mb, 10, 1e-9);
    ck_assert_near(w.cl.pes[1].remote_mb, 20, 1e-9);
    ev_run(&w.sim, INFINITY);
    assert_settled(w.pnr);
    world_free(&w);
}
END_TEST

START_TEST(test_reclaim_checker_fails)
{
    /* The checker can fail on what a reclaim must keep: after the reclaim
     * of the scenario (t = 5), give PE 1 its 20 MB of network RAM back by
     * hand without pieces (pages double-counted: in network RAM and on
     * swap): "node 1 draws on 30 MB ... holds 10"; a fresh world with PE
     * 0's loan left at 30 while its borrower holds 10: "server 0 has lent
     * 30 MB but the protocol accounts for 10". */
    for (int v = 0; v < 2; v++) {
        const char *sets[] = {"netram.server_selection=WORSTFIT", "netram.reclaim=SWAP", NULL};
        world w;
        world_init(&w, 3, RAM100, 1e-5, "CENTRAL", sets, 5);
        start_at(&w, 1, make_job(&w, 1, 1, (int[]){1}, 300, 130));
        start_at(&w, 5, make_job(&w, 2, 1, (int[]){0}, 400, 90));
        ev_run(&w.sim, 5);
        ck_assert_ptr_null(pnr_check_failure(w.pnr));
        if (v == 0)
            pe_remote(&w.sim, &w.cl.pes[1], 20);
        else
            pe_lend(&w.sim, &w.cl.pes[0], 20), w.pnr->held += 20;
        pnr_check(w.pnr);
        const char *f = pnr_check_failure(w.pnr);
        ck_assert_ptr_nonnull(f);
        ck_assert_ptr_nonnull(strstr(f, v == 0 ? "node 1 draws on 30 MB of network RAM but holds 10"
                                               : "server 0 has lent 30 MB but the protocol "
                                                 "accounts for 10"));
        if (v == 0)
            pe_remote(&w.sim, &w.cl.pes[1], -20);
        else
            pe_lend(&w.sim, &w.cl.pes[0], -20), w.pnr->held -= 20;
        world_free(&w);
    }
}
END_TEST

START_TEST(test_reclaim_warning)
{
    config c;
    char err[CFG_ERR_MAX];
    cfg_note notes[8];
    config_defaults(&c);
    ck_assert_int_eq(config_set(&c, "netram.reclaim=SWAP", err), 0);
    ck_assert_uint_eq(config_ignored(&c, notes, 8), 1);
    ck_assert_str_eq(notes[0].key, "netram.reclaim");
    ck_assert_int_eq(config_set(&c, "netram.enabled=yes", err), 0);
    ck_assert_uint_eq(config_ignored(&c, notes, 8), 0);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("pnr_reclaim");
    TCase *tc = tcase_create("reclaim");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_reclaim_central_swap);
    tcase_add_test(tc, test_reclaim_central_replace);
    tcase_add_test(tc, test_reclaim_manager_swap);
    tcase_add_test(tc, test_reclaim_manager_replace);
    tcase_add_test(tc, test_reclaim_release_all);
    tcase_add_test(tc, test_reclaim_none_keeps_lending);
    tcase_add_test(tc, test_reclaim_two_lenders);
    tcase_add_test(tc, test_reclaim_order);
    tcase_add_test(tc, test_reclaim_checker_fails);
    tcase_add_test(tc, test_reclaim_warning);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
