/* tests/test_gang.c: the gang scheduler (sched/gang.c, techreport §2.1.2 and
 * §4.4): schedules worked out by hand on small machines for every priority
 * order and packing scheme, strict order, MPL 1 as space sharing, time
 * slicing with context-switch costs, alternative scheduling, slot
 * unification and moving back. Memory awareness, the MPL metrics, edge
 * cases, the placement pass and runs on a real trace are in
 * tests/test_gang_pass.c. The harness, the layout strings and the rules
 * the expectations rely on are described in tests/fixture_gang.h.
 */
#include "tests/fixture_components.h"
#include "app/config.h"
#include "app/run.h"
#include "app/run_check.h"
#include "core/res.h"
#include "hw/pe.h"
#include "net/net.h"
#include "sched/backfill.h"
#include "sched/gang.h"
#include "sched/gang_check.h"
#include "sched/job.h"
#include "tests/testcluster.h"
#include "tests/testutil.h"

#include <stdio.h>
#include <string.h>
#include "tests/fixture_gang.h"

/* ---- priority orders: space sharing (MPL 1), strict order ---------------- */

/* 4 PEs, MPL 1, strict order. J1 (4 PEs, 10 s) holds the machine from 0 to
 * 10; meanwhile J2 (1 PE, 5 s) arrives at 1, J3 (3 PEs, 4 s) at 2, J4 (2
 * PEs, 6 s) at 3 and J5 (2 PEs, 3 s) at 4. At 10 the queue is J2 J3 J4 J5;
 * the priority decides who goes first. */
static void priority_case(tc_t *t, sched_priority prio)
{
    gang_params gp = params(prio, PACK_FIRSTFIT, 1, 5, 0.5, true);
    tc_init(t, 4, 1024, &gp);
    tc_job(t, 1, 0, 4, 10);
    tc_job(t, 2, 1, 1, 5);
    tc_job(t, 3, 2, 3, 4);
    tc_job(t, 4, 3, 2, 6);
    tc_job(t, 5, 4, 2, 3);
}

START_TEST(test_priority_fcfs)
{
    /* FCFS: at 10 J2 takes PE 0 [10,15) and J3 PEs 1-3 [10,14); J4 needs 2
     * PEs, none free: it blocks J5. At 14 J3 ends: J4 on PEs 1,2 [14,20);
     * J5 needs 2, only PE 3 is free. At 15 J2 ends: J5 on PEs 0,3
     * [15,18). */
    tc_t t;
    priority_case(&t, PRIO_FCFS);
    probe_t *p5 = tc_probe(&t, 5), *p12 = tc_probe(&t, 12), *p16 = tc_probe(&t, 16);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_LAYOUT(p5, ">1 1 1 1");
    ck_assert_int_eq(p5->queued, 4);
    EXPECT_LAYOUT(p12, ">2 3 3 3");
    ck_assert_int_eq(p12->running, 2);
    ck_assert_int_eq(p12->queued, 2);
    EXPECT_LAYOUT(p16, ">5 4 4 5");
    ck_assert_int_eq(p16->running, 2);
    EXPECT_JOB(&t, 1, 0, 10);
    EXPECT_JOB(&t, 2, 10, 15);
    EXPECT_JOB(&t, 3, 10, 14);
    EXPECT_JOB(&t, 4, 14, 20);
    EXPECT_JOB(&t, 5, 15, 18);
    ck_assert_uint_eq(gang_pcs_count(t.g), 0);
    ck_assert_int_eq(gang_mpl_max(t.g), 1);
    expect_drained(&t, 5);
    tc_free(&t);
}
END_TEST

START_TEST(test_priority_bestfit)
{
    /* BESTFIT (most PEs first): at 10 the order is J3 J4 J5 J2. J3 on PEs
     * 0-2 [10,14); J4 needs 2 and 1 is free: blocked. At 14 the machine is
     * empty: J4 on 0,1 [14,20), J5 on 2,3 [14,17); J2 waits. At 17 J5 ends:
     * J2 on PE 2 [17,22). */
    tc_t t;
    priority_case(&t, PRIO_BESTFIT);
    probe_t *p12 = tc_probe(&t, 12), *p16 = tc_probe(&t, 16), *p18 = tc_probe(&t, 18.5);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_LAYOUT(p12, ">3 3 3 .");
    EXPECT_LAYOUT(p16, ">4 4 5 5");
    EXPECT_LAYOUT(p18, ">4 4 2 .");
    EXPECT_JOB(&t, 1, 0, 10);
    EXPECT_JOB(&t, 2, 17, 22);
    EXPECT_JOB(&t, 3, 10, 14);
    EXPECT_JOB(&t, 4, 14, 20);
    EXPECT_JOB(&t, 5, 14, 17);
    ck_assert_uint_eq(gang_pcs_count(t.g), 0);
    ck_assert_int_eq(gang_mpl_max(t.g), 1);
    expect_drained(&t, 5);
    tc_free(&t);
}
END_TEST

START_TEST(test_priority_worstfit)
{
    /* WORSTFIT (fewest PEs first; J4 before J5 by trace order): at 10 J2 on
     * PE 0 [10,15), J4 on 1,2 [10,16); J5 needs 2, 1 free: blocked, and J3
     * behind it. At 15 J2 ends: J5 on 0,3 [15,18). At 16 J4 ends: J3 needs
     * 3, 2 free. At 18 J5 ends: J3 on 0-2 [18,22). */
    tc_t t;
    priority_case(&t, PRIO_WORSTFIT);
    probe_t *p12 = tc_probe(&t, 12), *p17 = tc_probe(&t, 17), *p20 = tc_probe(&t, 20);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_LAYOUT(p12, ">2 4 4 .");
    EXPECT_LAYOUT(p17, ">5 . . 5");
    ck_assert_int_eq(p17->queued, 1);
    EXPECT_LAYOUT(p20, ">3 3 3 .");
    EXPECT_JOB(&t, 1, 0, 10);
    EXPECT_JOB(&t, 2, 10, 15);
    EXPECT_JOB(&t, 3, 18, 22);
    EXPECT_JOB(&t, 4, 10, 16);
    EXPECT_JOB(&t, 5, 15, 18);
    ck_assert_uint_eq(gang_pcs_count(t.g), 0);
    expect_drained(&t, 5);
    tc_free(&t);
}
END_TEST

/* ---- packing schemes ------------------------------------------------------ */

/* 8 PEs, MPL 3, quantum 10, pcs 0, FCFS. All five jobs arrive at 0, in
 * order, and are placed in the pass at 0:
 *   J1 6 PEs 4 s    -> slot 0, PEs 0-5 (slot 0 has 2 free)
 *   J2 7 PEs 3 s    -> fits nowhere: slot 1, PEs 0-6 (1 free)
 *   J3 5 PEs 2 s    -> fits nowhere: slot 2, PEs 0-4 (3 free)
 *   J4 1 PE  5 s    -> the packing decides
 *   J5 2 PEs 1.5 s  -> the packing decides
 * Every job is shorter than the quantum, and the quantum restarts at each
 * switch, so no job is ever preempted; alternative scheduling moves jobs
 * into the current slot when their PEs fall idle there. */
static void packing_case(tc_t *t, sched_packing pack)
{
    gang_params gp = params(PRIO_FCFS, pack, 3, 10, 0, true);
    tc_init(t, 8, 1024, &gp);
    tc_job(t, 1, 0, 6, 4);
    tc_job(t, 2, 0, 7, 3);
    tc_job(t, 3, 0, 5, 2);
    tc_job(t, 4, 0, 1, 5);
    tc_job(t, 5, 0, 2, 1.5);
}

START_TEST(test_packing_firstfit)
{
    /* FIRSTFIT: J4 -> slot 0 (first with a free PE), PE 6. Free PEs are now
     * [1, 1, 3]: J5 -> slot 2, PEs 5,6.
     *   0    slot 0 runs: J1 [0,4), J4 [0,5).
     *   4    J1 ends; slot 0's idle PEs 0-5,7: J2 (0-6) no (PE 6 busy);
     *        J3 (0-4) yes: moved in, starts [4,6); J5 (5,6) no.
     *   5    J4 ends; idle 5,6,7: J5 (5,6) moved in [5,6.5); slot 2 is
     *        now empty and removed (unification).
     *   6.5  J5 ends: slot 0 is empty and removed; slot 1 takes over: J2
     *        [6.5,9.5), first start, no PCS. */
    tc_t t;
    packing_case(&t, PACK_FIRSTFIT);
    probe_t *p0 = tc_probe(&t, 0.5), *p4 = tc_probe(&t, 4.5), *p5 = tc_probe(&t, 5.5);
    probe_t *p7 = tc_probe(&t, 7);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_LAYOUT(p0, ">1 1 1 1 1 1 4 . | 2 2 2 2 2 2 2 . | 3 3 3 3 3 5 5 .");
    EXPECT_LAYOUT(p4, ">3 3 3 3 3 . 4 . | 2 2 2 2 2 2 2 . | . . . . . 5 5 .");
    EXPECT_LAYOUT(p5, ">3 3 3 3 3 5 5 . | 2 2 2 2 2 2 2 .");
    EXPECT_LAYOUT(p7, ">2 2 2 2 2 2 2 .");
    EXPECT_JOB(&t, 1, 0, 4);
    EXPECT_JOB(&t, 2, 6.5, 9.5);
    EXPECT_JOB(&t, 3, 4, 6);
    EXPECT_JOB(&t, 4, 0, 5);
    EXPECT_JOB(&t, 5, 5, 6.5);
    ck_assert_int_eq(gang_mpl_max(t.g), 3);
    ck_assert_uint_eq(gang_pcs_count(t.g), 0); /* nothing was ever stopped */
    expect_drained(&t, 5);
    tc_free(&t);
}
END_TEST

START_TEST(test_packing_bestfit)
{
    /* BESTFIT: J4 -> the slot with the fewest adequate free PEs: slot 1 (1
     * free), PE 7. Free PEs [2, 0, 3]: J5 -> slot 0 (2), PEs 6,7.
     *   0    slot 0 runs: J1 [0,4), J5 [0,1.5).
     *   1.5  J5 ends; idle 6,7: J2 (0-6) no; J4 (7) moved in [1.5,6.5).
     *   4    J1 ends; idle 0-6: J2 (0-6) moved in [4,7); slot 1 empty:
     *        removed.
     *   7    J2 ends: slot 0 empty, removed; J3's slot: J3 [7,9). */
    tc_t t;
    packing_case(&t, PACK_BESTFIT);
    probe_t *p0 = tc_probe(&t, 0.5), *p2 = tc_probe(&t, 2), *p4 = tc_probe(&t, 4.5);
    probe_t *p8 = tc_probe(&t, 8);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_LAYOUT(p0, ">1 1 1 1 1 1 5 5 | 2 2 2 2 2 2 2 4 | 3 3 3 3 3 . . .");
    EXPECT_LAYOUT(p2, ">1 1 1 1 1 1 . 4 | 2 2 2 2 2 2 2 . | 3 3 3 3 3 . . .");
    EXPECT_LAYOUT(p4, ">2 2 2 2 2 2 2 4 | 3 3 3 3 3 . . .");
    EXPECT_LAYOUT(p8, ">3 3 3 3 3 . . .");
    EXPECT_JOB(&t, 1, 0, 4);
    EXPECT_JOB(&t, 2, 4, 7);
    EXPECT_JOB(&t, 3, 7, 9);
    EXPECT_JOB(&t, 4, 1.5, 6.5);
    EXPECT_JOB(&t, 5, 0, 1.5);
    ck_assert_int_eq(gang_mpl_max(t.g), 3);
    ck_assert_uint_eq(gang_pcs_count(t.g), 0);
    expect_drained(&t, 5);
    tc_free(&t);
}
END_TEST

START_TEST(test_packing_worstfit)
{
    /* WORSTFIT: J4 -> the slot with the most free PEs: slot 2 (3), PE 5.
     * Free PEs [2, 1, 2]: J5 -> slot 0 (tie with slot 2: the first), 6,7.
     *   0    slot 0 runs: J1 [0,4), J5 [0,1.5).
     *   1.5  J5 ends; idle 6,7: J2 (0-6) no, J3 (0-4) no, J4 (5) no.
     *   4    J1 ends: slot 0 empty, removed; slot 1 takes over: J2 [4,7).
     *        Its idle PE 7 suits no job of slot 2.
     *   7    J2 ends, slot removed: J3 [7,9), J4 [7,12). */
    tc_t t;
    packing_case(&t, PACK_WORSTFIT);
    probe_t *p0 = tc_probe(&t, 0.5), *p4 = tc_probe(&t, 4.5), *p8 = tc_probe(&t, 8);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_LAYOUT(p0, ">1 1 1 1 1 1 5 5 | 2 2 2 2 2 2 2 . | 3 3 3 3 3 4 . .");
    EXPECT_LAYOUT(p4, ">2 2 2 2 2 2 2 . | 3 3 3 3 3 4 . .");
    EXPECT_LAYOUT(p8, ">3 3 3 3 3 4 . .");
    EXPECT_JOB(&t, 1, 0, 4);
    EXPECT_JOB(&t, 2, 4, 7);
    EXPECT_JOB(&t, 3, 7, 9);
    EXPECT_JOB(&t, 4, 7, 12);
    EXPECT_JOB(&t, 5, 0, 1.5);
    ck_assert_int_eq(gang_mpl_max(t.g), 3);
    ck_assert_uint_eq(gang_pcs_count(t.g), 0);
    expect_drained(&t, 5);
    tc_free(&t);
}
END_TEST

/* ---- strict order ---------------------------------------------------------- */

/* 4 PEs, MPL 1, FCFS. J1 (2 PEs, 10 s) at 0 on PEs 0,1; J2 (4 PEs, 5 s) at
 * 1 cannot start before 10; J3 (2 PEs, 3 s) at 2; J4 (1 PE, 2 s) at 6. */
static void strict_case(tc_t *t, bool strict)
{
    gang_params gp = params(PRIO_FCFS, PACK_FIRSTFIT, 1, 5, 0.5, strict);
    tc_init(t, 4, 1024, &gp);
    tc_job(t, 1, 0, 2, 10);
    tc_job(t, 2, 1, 4, 5);
    tc_job(t, 3, 2, 2, 3);
    tc_job(t, 4, 6, 1, 2);
}

START_TEST(test_strict_order_yes)
{
    /* The blocked J2 blocks J3 and J4 although PEs 2,3 are free. At 10 J2
     * [10,15); at 15 J3 on 0,1 [15,18) and J4 on PE 2 [15,17). */
    tc_t t;
    strict_case(&t, true);
    probe_t *p7 = tc_probe(&t, 7);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_LAYOUT(p7, ">1 1 . .");
    ck_assert_int_eq(p7->queued, 3);
    EXPECT_JOB(&t, 1, 0, 10);
    EXPECT_JOB(&t, 2, 10, 15);
    EXPECT_JOB(&t, 3, 15, 18);
    EXPECT_JOB(&t, 4, 15, 17);
    expect_drained(&t, 4);
    tc_free(&t);
}
END_TEST

START_TEST(test_strict_order_no)
{
    /* Later jobs that fit go ahead of J2: J3 on PEs 2,3 [2,5); J4 at 6 on
     * PE 2 [6,8). J2 still starts when J1 ends: [10,15). */
    tc_t t;
    strict_case(&t, false);
    probe_t *p3 = tc_probe(&t, 3), *p7 = tc_probe(&t, 7);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_LAYOUT(p3, ">1 1 3 3");
    EXPECT_LAYOUT(p7, ">1 1 4 .");
    ck_assert_int_eq(p7->queued, 1);
    EXPECT_JOB(&t, 1, 0, 10);
    EXPECT_JOB(&t, 2, 10, 15);
    EXPECT_JOB(&t, 3, 2, 5);
    EXPECT_JOB(&t, 4, 6, 8);
    expect_drained(&t, 4);
    tc_free(&t);
}
END_TEST

/* ---- MPL 1 is space sharing without preemption ------------------------------ */

START_TEST(test_mpl1_space_sharing)
{
    /* 4 PEs, MPL 1, a quantum of 1 s and a PCS of 0.5 s that must never
     * apply. J1 (2 PEs, 100 s) at 0 on PEs 0,1; J2 (4 PEs, 5 s) at 1 waits
     * for the whole machine; J3 (2 PEs, 50 s) at 2 waits behind J2 (strict
     * FCFS); J4 (2 PEs, 7 s) at 3 likewise. Space sharing by hand: J1
     * [0,100), J2 [100,105), then J3 on 0,1 and J4 on 2,3: [105,155) and
     * [105,112). Each job runs in one piece: end - start = CPU demand. */
    tc_t t;
    gang_params gp = params(PRIO_FCFS, PACK_FIRSTFIT, 1, 1, 0.5, true);
    tc_init(&t, 4, 1024, &gp);
    tc_job(&t, 1, 0, 2, 100);
    tc_job(&t, 2, 1, 4, 5);
    tc_job(&t, 3, 2, 2, 50);
    tc_job(&t, 4, 3, 2, 7);
    probe_t *p50 = tc_probe(&t, 50), *p110 = tc_probe(&t, 110);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_LAYOUT(p50, ">1 1 . .");
    EXPECT_LAYOUT(p110, ">3 3 4 4");
    EXPECT_JOB(&t, 1, 0, 100);
    EXPECT_JOB(&t, 2, 100, 105);
    EXPECT_JOB(&t, 3, 105, 155);
    EXPECT_JOB(&t, 4, 105, 112);
    ck_assert_uint_eq(gang_pcs_count(t.g), 0);
    ck_assert_int_eq(gang_mpl_max(t.g), 1);
    ck_assert_double_eq(gang_mpl_mean(t.g, t.sim.now), 1.0);
    expect_drained(&t, 4);
    tc_free(&t);
}
END_TEST

/* ---- time slicing and the parallel context switch ---------------------------- */

START_TEST(test_two_full_jobs_pcs)
{
    /* 4 PEs, MPL 2, quantum Q = 10, PCS C = 1. J1 and J2 need all 4 PEs
     * and 25 s each (solo time 25); both arrive at 0: J1 in slot 0 (runs),
     * J2 in slot 1; the quantum starts at 0.
     *   [0,10)   J1 computes 10 (15 left)
     *   10       switch 1: J1 stopped; J2 starts (first start: no PCS)
     *   [10,20)  J2 computes 10 (15 left)
     *   20       switch 2: J2 stopped; J1 resumed: PCS [20,21)
     *   [21,30)  J1 computes 9 (6 left)
     *   30       switch 3: J1 stopped; J2 resumed, PCS [30,31)
     *   [31,40)  J2 computes 9 (6 left)
     *   40       switch 4: J2 stopped; J1 resumed, PCS [40,41)
     *   [41,47)  J1 computes 6: ends at 47; slot 0 is removed
     *   47       switch 5: J2's slot takes over at once, PCS [47,48)
     *   [48,54)  J2 computes 6: ends at 54.
     * J1 = 25 + 19 (J2's computing while J1 waits) + 3 PCS = 47; J2 = 2 x 25
     * + 4 PCS = 54 (twice the solo time plus every PCS delay). 5 switches,
     * 5 PCS counted. MPL: 2 slots over [0,47), 1 over [47,54): mean
     * (2*47 + 7) / 54 = 101/54. */
    tc_t t;
    gang_params gp = params(PRIO_FCFS, PACK_FIRSTFIT, 2, 10, 1, true);
    tc_init(&t, 4, 1024, &gp);
    tc_job(&t, 1, 0, 4, 25);
    tc_job(&t, 2, 0, 4, 25);
    probe_t *p5 = tc_probe(&t, 5), *p15 = tc_probe(&t, 15), *p20 = tc_probe(&t, 20.5);
    probe_t *p50 = tc_probe(&t, 50);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_LAYOUT(p5, ">1 1 1 1 | 2 2 2 2");
    ck_assert_uint_eq(p5->pcs, 0);
    EXPECT_LAYOUT(p15, "1 1 1 1 | >2 2 2 2");
    ck_assert_uint_eq(p15->pcs, 1);
    ck_assert_int_eq(p15->running, 1);
    EXPECT_LAYOUT(p20, ">1 1 1 1 | 2 2 2 2");
    ck_assert_uint_eq(p20->pcs, 2);
    EXPECT_LAYOUT(p50, ">2 2 2 2");
    ck_assert_uint_eq(p50->pcs, 5);
    EXPECT_JOB(&t, 1, 0, 47);
    EXPECT_JOB(&t, 2, 10, 54);
    ck_assert_uint_eq(gang_pcs_count(t.g), 5);
    ck_assert_int_eq(gang_mpl_max(t.g), 2);
    ck_assert_near(gang_mpl_mean(t.g, t.sim.now), 101.0 / 54.0, 1e-12);
    /* The PEs computed 2 jobs x 4 threads x 25 s and nothing during PCS. */
    ck_assert_near(tc_cpu_busy(&t), 200, 1e-9);
    expect_drained(&t, 2);
    tc_free(&t);
}
END_TEST

START_TEST(test_pcs_zero_cost)
{
    /* The same two jobs with C = 0: the PEs never idle. By turns: J1
     * computes [0,10) [20,30) [40,45) and ends at 45; J2 computes [10,20)
     * [30,40) and, taking over at 45, [45,50): ends at 50 = 2 x 25.
     * Switches at 10, 20, 30, 40, 45: 5 counted, each free. */
    tc_t t;
    gang_params gp = params(PRIO_FCFS, PACK_FIRSTFIT, 2, 10, 0, true);
    tc_init(&t, 4, 1024, &gp);
    tc_job(&t, 1, 0, 4, 25);
    tc_job(&t, 2, 0, 4, 25);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_JOB(&t, 1, 0, 45);
    EXPECT_JOB(&t, 2, 10, 50);
    ck_assert_uint_eq(gang_pcs_count(t.g), 5);
    ck_assert_near(tc_cpu_busy(&t), 200, 1e-9);
    expect_drained(&t, 2);
    tc_free(&t);
}
END_TEST

/* ---- alternative scheduling, moving back, slot unification ------------------- */

/* 4 PEs, MPL 2, quantum 10, PCS 1, FCFS, FIRSTFIT. At 0:
 *   J1 3 PEs 5 s   -> slot 0, PEs 0-2 (runs)
 *   J2 2 PEs 20 s  -> slot 0 has 1 free: slot 1, PEs 0,1
 *   J3 1 PE 12 s   -> slot 0, PE 3 (runs)
 *   J4 2 PEs 8 s   -> slot 1, PEs 2,3
 * The quantum starts at 0 (slot 1 appears then). */
static void alt_case(tc_t *t)
{
    gang_params gp = params(PRIO_FCFS, PACK_FIRSTFIT, 2, 10, 1, true);
    tc_init(t, 4, 1024, &gp);
    tc_job(t, 1, 0, 3, 5);
    tc_job(t, 2, 0, 2, 20);
    tc_job(t, 3, 0, 1, 12);
    tc_job(t, 4, 0, 2, 8);
}

START_TEST(test_alternative_and_unification)
{
    /*   5   J1 ends; slot 0's idle PEs 0-2: J2 (0,1) is moved in from slot 1
     *       and starts [5, ...) at once (alternative scheduling), 5 s before
     *       its own slot's turn; J4 (2,3) cannot (PE 3 busy).
     *   10  quantum: slot 1's turn. Its PEs 0,1 are still free, so J2 is
     *       moved back and keeps running (no stop, no PCS); J3 is stopped
     *       (10 of 12 s done); J4 starts [10,18). Switch 1.
     *   18  J4 ends; slot 1's idle PEs 2,3: J3 (PE 3) is moved in from slot
     *       0 and resumes after the PCS: computes [19,21), ends at 21.
     *       Slot 0 is now empty: removed (unification); J3 stays. PCS 2.
     *       One slot left: no more quantum.
     *   25  J2 ends: it computed [5,25) without a break. */
    tc_t t;
    alt_case(&t);
    probe_t *p0 = tc_probe(&t, 0.5), *p6 = tc_probe(&t, 6), *p12 = tc_probe(&t, 12);
    probe_t *p19 = tc_probe(&t, 19.5);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_LAYOUT(p0, ">1 1 1 3 | 2 2 4 4");
    ck_assert_int_eq(p0->running, 2);
    EXPECT_LAYOUT(p6, ">2 2 . 3 | . . 4 4");
    ck_assert_int_eq(p6->running, 2);
    ck_assert_uint_eq(p6->pcs, 0);
    EXPECT_LAYOUT(p12, ". . . 3 | >2 2 4 4");
    ck_assert_int_eq(p12->running, 2);
    ck_assert_uint_eq(p12->pcs, 1);
    EXPECT_LAYOUT(p19, ">2 2 . 3");
    ck_assert_int_eq(p19->slots, 1);
    ck_assert_uint_eq(p19->pcs, 2);
    EXPECT_JOB(&t, 1, 0, 5);
    EXPECT_JOB(&t, 2, 5, 25);
    EXPECT_JOB(&t, 3, 0, 21);
    EXPECT_JOB(&t, 4, 10, 18);
    ck_assert_uint_eq(gang_pcs_count(t.g), 2);
    ck_assert_int_eq(gang_mpl_max(t.g), 2);
    /* 3x5 + 2x20 + 12 + 2x8 CPU seconds. */
    ck_assert_near(tc_cpu_busy(&t), 83, 1e-9);
    expect_drained(&t, 4);
    tc_free(&t);
}
END_TEST

START_TEST(test_no_move_back_when_taken)
{
    /* As above, plus J5 (2 PEs, 4 s) arriving at 7.
     *   5   J2 moved into slot 0 as above: [5, ...).
     *   7   J5: slot 0 has 1 free PE, slot 1 has PEs 0,1 free (J2's place
     *       at home): J5 -> slot 1, PEs 0,1; it waits for slot 1's turn.
     *   10  slot 1's turn: J2's PEs there are taken by J5, so J2 stays in
     *       slot 0 for good and is stopped (5 of 20 s done), as is J3 (10 of
     *       12 done); J5 [10,14) and J4 [10,18) start. Switch 1.
     *   14  J5 ends; slot 1's idle PEs 0,1: J2 is moved in (its home is now
     *       slot 0) and resumes after the PCS: computes from 15, 15 s left.
     *       PCS 2.
     *   18  J4 ends; idle 2,3: J3 moved in, resumes at 19, ends at 21;
     *       slot 0 empty: removed. PCS 3.
     *   30  J2 ends (15 + 15). */
    tc_t t;
    alt_case(&t);
    tc_job(&t, 5, 7, 2, 4);
    probe_t *p8 = tc_probe(&t, 8), *p12 = tc_probe(&t, 12), *p14 = tc_probe(&t, 14.5);
    probe_t *p19 = tc_probe(&t, 19.5);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_LAYOUT(p8, ">2 2 . 3 | 5 5 4 4");
    EXPECT_LAYOUT(p12, "2 2 . 3 | >5 5 4 4");
    ck_assert_int_eq(p12->running, 2);
    ck_assert_uint_eq(p12->pcs, 1);
    EXPECT_LAYOUT(p14, ". . . 3 | >2 2 4 4");
    ck_assert_uint_eq(p14->pcs, 2);
    EXPECT_LAYOUT(p19, ">2 2 . 3");
    ck_assert_uint_eq(p19->pcs, 3);
    EXPECT_JOB(&t, 1, 0, 5);
    EXPECT_JOB(&t, 2, 5, 30);
    EXPECT_JOB(&t, 3, 0, 21);
    EXPECT_JOB(&t, 4, 10, 18);
    EXPECT_JOB(&t, 5, 10, 14);
    ck_assert_uint_eq(gang_pcs_count(t.g), 3);
    expect_drained(&t, 5);
    tc_free(&t);
}
END_TEST

START_TEST(test_move_back_first)
{
    /* Moving back comes before alternative scheduling: in a 2-slot case
     * alternative scheduling at the switch would move the job anyway, so
     * this case has a third slot whose job competes for the same PEs.
     * 4 PEs, MPL 3, Q = 10, C = 1, FCFS, FIRSTFIT; all 2-PE jobs at 0:
     *   J1 3 s -> A (slot 0) PEs 0,1    J2 30 s -> A, PEs 2,3
     *   J3 30 s -> B (slot 1) PEs 0,1   J4 30 s -> B, PEs 2,3
     *   J5 30 s -> C (slot 2) PEs 0,1
     *   3   J1 ends; A's idle PEs 0,1: ring from A visits B first: J3 moved
     *       in (home B) and starts [3, ...).
     *   10  B's turn: J3 moves back to B first (still running); B is full.
     *       Without the move back, alternative scheduling (ring from B: C
     *       before A) would have moved J5 into B and stopped J3. J2 stopped
     *       (10 done); J4 starts. PCS 1.
     *   20  C's turn: C's idle PEs 2,3; ring from C: A: J2 moved in and
     *       resumes at 21; A is empty: removed (J2 stays in C). J3 (17
     *       done) and J4 (10 done) stopped; J5 starts. PCS 2. Slots: B, C.
     *   30  B: J5 (10 done), J2 (19 done) stopped; J3, J4 resume at 31. 3.
     *   40  C: J3 (26), J4 (19) stopped; J5, J2 resume at 41. PCS 4.
     *   50  B: J5 (19), J2 (28) stopped; J3, J4 resume at 51. PCS 5.
     *   55  J3 ends (4 left at 51); B's idle 0,1: J5 moved in from C
     *       (home C), resumes at 56 with 11 left. PCS 6.
     *   60  C's turn: J5 moves back (running on); J4 (28) stopped; J2
     *       resumes at 61. PCS 7.
     *   63  J2 ends; C's idle 2,3: J4 moved in, resumes at 64; B is empty:
     *       removed. PCS 8. One slot: no more quantum.
     *   66  J4 ends; 67 J5 ends (56 + 11). */
    tc_t t;
    gang_params gp = params(PRIO_FCFS, PACK_FIRSTFIT, 3, 10, 1, true);
    tc_init(&t, 4, 1024, &gp);
    tc_job(&t, 1, 0, 2, 3);
    for (long id = 2; id <= 5; id++)
        tc_job(&t, id, 0, 2, 30);
    probe_t *p5 = tc_probe(&t, 5), *p11 = tc_probe(&t, 11), *p21 = tc_probe(&t, 21);
    probe_t *p56 = tc_probe(&t, 56), *p61 = tc_probe(&t, 61), *p64 = tc_probe(&t, 64.5);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_LAYOUT(p5, ">3 3 2 2 | . . 4 4 | 5 5 . .");
    EXPECT_LAYOUT(p11, ". . 2 2 | >3 3 4 4 | 5 5 . .");
    ck_assert_uint_eq(p11->pcs, 1);
    EXPECT_LAYOUT(p21, "3 3 4 4 | >5 5 2 2");
    ck_assert_uint_eq(p21->pcs, 2);
    EXPECT_LAYOUT(p56, ">5 5 4 4 | . . 2 2");
    ck_assert_uint_eq(p56->pcs, 6);
    EXPECT_LAYOUT(p61, ". . 4 4 | >5 5 2 2");
    ck_assert_uint_eq(p61->pcs, 7);
    EXPECT_LAYOUT(p64, ">5 5 4 4");
    EXPECT_JOB(&t, 1, 0, 3);
    EXPECT_JOB(&t, 2, 0, 63);
    EXPECT_JOB(&t, 3, 3, 55);
    EXPECT_JOB(&t, 4, 10, 66);
    EXPECT_JOB(&t, 5, 20, 67);
    ck_assert_uint_eq(gang_pcs_count(t.g), 8);
    ck_assert_int_eq(gang_mpl_max(t.g), 3);
    ck_assert_near(tc_cpu_busy(&t), 2 * (3 + 4 * 30), 1e-9);
    expect_drained(&t, 5);
    tc_free(&t);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("gang");
    TCase *tc = tcase_create("hand");
    tcase_add_test(tc, test_priority_fcfs);
    tcase_add_test(tc, test_priority_bestfit);
    tcase_add_test(tc, test_priority_worstfit);
    tcase_add_test(tc, test_packing_firstfit);
    tcase_add_test(tc, test_packing_bestfit);
    tcase_add_test(tc, test_packing_worstfit);
    tcase_add_test(tc, test_strict_order_yes);
    tcase_add_test(tc, test_strict_order_no);
    tcase_add_test(tc, test_mpl1_space_sharing);
    tcase_add_test(tc, test_two_full_jobs_pcs);
    tcase_add_test(tc, test_pcs_zero_cost);
    tcase_add_test(tc, test_alternative_and_unification);
    tcase_add_test(tc, test_no_move_back_when_taken);
    tcase_add_test(tc, test_move_back_first);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
