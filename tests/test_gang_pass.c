/* tests/test_gang_pass.c: the gang scheduler (sched/gang.c, techreport
 * §4.4) continued: memory awareness worked out by hand, the MPL metrics,
 * edge cases, the placement pass at every instant room may appear
 * (issue 10), a parallel context switch on a job's first start
 * (pcs_first_start), and the matrix invariants and CPU-time conservation
 * through runs on a real trace. The harness, the layout strings and the
 * rules the expectations rely on: tests/fixture_gang.h; the other hand
 * cases: tests/test_gang.c.
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

/* ---- memory awareness --------------------------------------------------------- */

/* 4 PEs of 100 MB, MPL 2, quantum 4, PCS 0. J1 (2 PEs, 60 MB per thread,
 * 10 s) at 0 on PEs 0,1; J2 (4 PEs, 50 MB, 5 s) at 1. */
static void mem_case(tc_t *t, bool aware)
{
    gang_params gp = params(PRIO_FCFS, PACK_FIRSTFIT, 2, 4, 0, true);
    gp.mem_aware = aware;
    tc_init(t, 4, 100, &gp);
    tc_job_mem(t, 1, 0, 2, 10, 60);
    tc_job_mem(t, 2, 1, 4, 5, 50);
}

START_TEST(test_mem_aware_waits)
{
    /* mem_aware: J2 would put 110 MB on PEs 0 and 1, so it waits although
     * slot 0 has PEs 2,3 free and MPL allows a second slot with all four.
     * At 10 J1 ends and frees its memory: J2 [10,15). */
    tc_t t;
    mem_case(&t, true);
    probe_t *p2 = tc_probe(&t, 2), *p11 = tc_probe(&t, 11);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_LAYOUT(p2, ">1 1 . .");
    ck_assert_int_eq(p2->queued, 1);
    ck_assert_int_eq(p2->slots, 1);
    EXPECT_LAYOUT(p11, ">2 2 2 2");
    ck_assert_double_eq(p11->alloc[0], 50);
    ck_assert(t.max_alloc <= 100);
    EXPECT_JOB(&t, 1, 0, 10);
    EXPECT_JOB(&t, 2, 10, 15);
    ck_assert_int_eq(gang_impossible(t.g), 0);
    expect_drained(&t, 2);
    tc_free(&t);
}
END_TEST

START_TEST(test_mem_unaware_overcommits)
{
    /* Control: without mem_aware J2 gets slot 1 at 1 (quantum from 1).
     *   5   switch: J1 stopped (5 done), J2 starts [5, ...)
     *   9   switch: J2 stopped (4 done), J1 resumes (5 -> 9 at 13)
     *   13  switch: J1 stopped (9 done), J2 resumes: ends at 14
     *   14  J2's slot is gone: J1 resumes, ends at 15.
     * While both are placed, PEs 0,1 hold 60 + 50 = 110 MB > 100. */
    tc_t t;
    mem_case(&t, false);
    probe_t *p2 = tc_probe(&t, 2), *p6 = tc_probe(&t, 6);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_LAYOUT(p2, ">1 1 . . | 2 2 2 2");
    ck_assert_double_eq(p6->alloc[0], 110);
    EXPECT_JOB(&t, 1, 0, 15);
    EXPECT_JOB(&t, 2, 5, 14);
    ck_assert_uint_eq(gang_pcs_count(t.g), 4);
    expect_drained(&t, 2);
    tc_free(&t);
}
END_TEST

START_TEST(test_mem_aware_pe_choice)
{
    /* 4 PEs of 100 MB, MPL 3, quantum 100, PCS 0, mem_aware, FCFS, strict
     * order off. With mem_aware a job takes the lowest-numbered free PEs
     * that have room for a thread.
     *   0   J1 (1 PE, 10 MB, 5 s) -> slot 0, PE 0 [0,5); J2 (1 PE, 10 MB,
     *       20 s) -> slot 0, PE 1 [0,20); J3 (3 PEs, 80 MB, 10 s): slot 0
     *       has 2 free PEs -> slot 1, PEs 0-2 (room 90, 90, 100 >= 80).
     *       Reserved MB per PE: 90 90 80 0.
     *   5   J1 ends: reserved 80 90 80 0.
     *   6   J4 (1 PE, 25 MB, 4 s): slot 0's free PEs 0, 2, 3 have room
     *       20, 20, 100: PE 3 [6,10). Reserved 80 90 80 25.
     *   7   J5 (1 PE, 95 MB, 3 s): slot 0 (PEs 0, 2: room 20) no; slot 1
     *       (PE 3: room 75) no; a third slot would need a PE with 95 MB
     *       free: none. It waits.
     *   10  J4 ends, PE 3 has 100 MB free: J5 -> slot 0, PE 3 [10,13).
     *   20  J2 ends, slot 0 is removed: slot 1's turn, J3 [20,30). */
    tc_t t;
    gang_params gp = params(PRIO_FCFS, PACK_FIRSTFIT, 3, 100, 0, false);
    gp.mem_aware = true;
    tc_init(&t, 4, 100, &gp);
    tc_job_mem(&t, 1, 0, 1, 5, 10);
    tc_job_mem(&t, 2, 0, 1, 20, 10);
    tc_job_mem(&t, 3, 0, 3, 10, 80);
    tc_job_mem(&t, 4, 6, 1, 4, 25);
    tc_job_mem(&t, 5, 7, 1, 3, 95);
    probe_t *p8 = tc_probe(&t, 8), *p11 = tc_probe(&t, 11);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_LAYOUT(p8, ">. 2 . 4 | 3 3 3 .");
    ck_assert_int_eq(p8->queued, 1);
    EXPECT_LAYOUT(p11, ">. 2 . 5 | 3 3 3 .");
    ck_assert_int_eq(p11->queued, 0);
    EXPECT_JOB(&t, 1, 0, 5);
    EXPECT_JOB(&t, 2, 0, 20);
    EXPECT_JOB(&t, 3, 20, 30);
    EXPECT_JOB(&t, 4, 6, 10);
    EXPECT_JOB(&t, 5, 10, 13);
    ck_assert_int_eq(gang_mpl_max(t.g), 2);
    expect_drained(&t, 5);
    tc_free(&t);
}
END_TEST

START_TEST(test_mem_impossible)
{
    /* 4 PEs of 100 MB, mem_aware, strict order. J1 (1 PE, 150 MB) can never
     * be placed: counted as impossible, it does not block J2 (2 PEs, 10 MB,
     * 3 s, at 1: [1,4)) and the run ends when no other event remains. */
    tc_t t;
    gang_params gp = params(PRIO_FCFS, PACK_FIRSTFIT, 2, 4, 0, true);
    gp.mem_aware = true;
    tc_init(&t, 4, 100, &gp);
    tc_job_mem(&t, 1, 0, 1, 5, 150);
    tc_job_mem(&t, 2, 1, 2, 3, 10);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    ck_assert_int_eq(gang_impossible(t.g), 1);
    ck_assert_int_eq(gang_queued(t.g), 0);
    ck_assert(!t.job[1]->started);
    EXPECT_JOB(&t, 2, 1, 4);
    ck_assert_int_eq(t.nended, 1);
    ck_assert_double_eq(t.sim.now, 4);
    /* Time weighting ignores the impossible job: 1 slot over [1,4). */
    ck_assert_double_eq(gang_mpl_mean(t.g, t.sim.now), 1.0);
    tc_free(&t);
}
END_TEST

START_TEST(test_mem_aware_heterogeneous_and_servers)
{
    /* Compute PEs of 100, 100, 300, 300 MB and one memory server (PE 4,
     * 1000 MB: cl->ncompute = 4), mem_aware, MPL 1, FCFS, strict order off.
     *   0  J1 (2 PEs, 200 MB, 5 s): PEs 0 and 1 lack room, PEs 2,3 have
     *      it: [0,5) on PEs 2,3.
     *   0  J2 (3 PEs, 200 MB): only 2 PEs have 200 MB: impossible.
     *   0  J3 (5 PEs, 1 MB): wider than the 4 compute PEs (the server
     *      does not count): impossible.
     *   1  J4 (4 PEs, 10 MB, 2 s): slot 0 has PEs 0,1 free only: waits
     *      until J1 ends, [5,7) on PEs 0-3.
     *   2  J5 (1 PE, 150 MB, 1 s), tried at 2 (strict order off): the
     *      free PEs 0,1 lack room, PEs 2,3 are taken: it waits; at 5 J4
     *      (first in FCFS order) takes every PE; at 7 J5 gets PE 2, [7,8).
     * The memory server never gets a thread: its CPU stays idle. */
    tc_t t;
    gang_params gp = params(PRIO_FCFS, PACK_FIRSTFIT, 1, 100, 0, false);
    gp.mem_aware = true;
    memset(&t, 0, sizeof t);
    T = &t;
    ck_assert_int_eq(ev_init(&t.sim), 0);
    static const double ram[] = {100, 100, 300, 300, 1000};
    cluster_params cp = test_cluster_params(5, 0, 0);
    cp.ncompute = 4;
    cp.pe_ram_mb = ram;
    cp.gang = &gp;
    cp.on_end = on_end;
    cp.end_ctx = &t;
    cluster_init(&t.sim, &t.cl, &cp);
    cluster_t *cl = &t.cl;
    t.g = cl->gang;
    gang_set_hook(t.g, sched_acted, &t);
    for (int i = 0; i <= MAXJ; i++)
        t.start[i] = t.end[i] = -1;
    ck_assert_int_eq(gang_npes(t.g), 4);
    tc_job_mem(&t, 1, 0, 2, 5, 200);
    tc_job_mem(&t, 2, 0, 3, 5, 200);
    tc_job_mem(&t, 3, 0, 5, 5, 1);
    tc_job_mem(&t, 4, 1, 4, 2, 10);
    tc_job_mem(&t, 5, 2, 1, 1, 150);
    probe_t *p3 = tc_probe(&t, 3), *p6 = tc_probe(&t, 6), *p75 = tc_probe(&t, 7.5);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    /* Layouts show PE 4 too: never used. */
    EXPECT_LAYOUT(p3, ">. . 1 1 .");
    ck_assert_int_eq(p3->queued, 2);
    EXPECT_LAYOUT(p6, ">4 4 4 4 .");
    EXPECT_LAYOUT(p75, ">. . 5 . .");
    EXPECT_JOB(&t, 1, 0, 5);
    EXPECT_JOB(&t, 4, 5, 7);
    EXPECT_JOB(&t, 5, 7, 8);
    ck_assert_int_eq(gang_impossible(t.g), 2);
    ck_assert_double_eq(res_busy_time(&t.sim, &cl->pes[4].cpu), 0);
    ck_assert_double_eq(cl->pes[4].alloc_mb, 0);
    ck_assert_near(tc_cpu_busy(&t), t.cl.cpu_demand_done, 1e-9);
    tc_free(&t);
}
END_TEST

/* ---- MPL metrics ----------------------------------------------------------------- */

START_TEST(test_mpl_metrics)
{
    /* 4 PEs, MPL 0 (unlimited), quantum 10, PCS 0. J1, J2, J3 (4 PEs, 5 s)
     * at 0 get slots 0, 1, 2. Each ends inside its first turn and the next
     * slot takes over at once: J1 [0,5), J2 [5,10), J3 [10,15). Slots: 3
     * over [0,5), 2 over [5,10), 1 over [10,15): area 30 over 15 s.
     * Nothing in the system over [15,100): not counted.
     * J4 (2 PEs, 6 s) and J5 (4 PEs, 10 s) at 100: J4 in slot 0 on 0,1
     * [100,106), J5 in slot 1; at 106 J4 ends and J5 takes over [106,116).
     * Slots: 2 over [100,106), 1 over [106,116): area 22 over 16 s.
     * Highest MPL 3; mean (30 + 22) / (15 + 16) = 52/31; at 50 (idle) it is
     * 30/15 = 2; at 103, (30 + 2x3) / (15 + 3) = 2. No job was ever stopped
     * or resumed: 0 PCS. */
    tc_t t;
    gang_params gp = params(PRIO_FCFS, PACK_FIRSTFIT, 0, 10, 0, true);
    tc_init(&t, 4, 1024, &gp);
    tc_job(&t, 1, 0, 4, 5);
    tc_job(&t, 2, 0, 4, 5);
    tc_job(&t, 3, 0, 4, 5);
    tc_job(&t, 4, 100, 2, 6);
    tc_job(&t, 5, 100, 4, 10);
    probe_t *p1 = tc_probe(&t, 1), *p50 = tc_probe(&t, 50), *p103 = tc_probe(&t, 103);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_LAYOUT(p1, ">1 1 1 1 | 2 2 2 2 | 3 3 3 3");
    ck_assert_near(p1->mpl_mean, 3, 1e-12);
    ck_assert_int_eq(p50->slots, 0);
    ck_assert_near(p50->mpl_mean, 2, 1e-12);
    EXPECT_LAYOUT(p103, ">4 4 . . | 5 5 5 5");
    ck_assert_near(p103->mpl_mean, 2, 1e-12);
    EXPECT_JOB(&t, 1, 0, 5);
    EXPECT_JOB(&t, 2, 5, 10);
    EXPECT_JOB(&t, 3, 10, 15);
    EXPECT_JOB(&t, 4, 100, 106);
    EXPECT_JOB(&t, 5, 106, 116);
    ck_assert_int_eq(gang_mpl_max(t.g), 3);
    ck_assert_near(gang_mpl_mean(t.g, t.sim.now), 52.0 / 31.0, 1e-12);
    ck_assert_uint_eq(gang_pcs_count(t.g), 0);
    expect_drained(&t, 5);
    tc_free(&t);
}
END_TEST

/* ---- edge cases ------------------------------------------------------------------ */

START_TEST(test_wider_than_machine)
{
    /* A job wider than the machine (the workload drops these, but the
     * scheduler's API takes any job) can never be placed: it is counted as
     * impossible, does not block J2 under strict order, and the run ends.
     * 4 PEs: J1 (5 PEs) at 0; J2 (2 PEs, 3 s) at 1: [1,4). */
    tc_t t;
    gang_params gp = params(PRIO_BESTFIT, PACK_FIRSTFIT, 2, 4, 0, true);
    tc_init(&t, 4, 1024, &gp);
    tc_job(&t, 1, 0, 5, 5);
    tc_job(&t, 2, 1, 2, 3);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    ck_assert_int_eq(gang_impossible(t.g), 1);
    ck_assert(!t.job[1]->started);
    EXPECT_JOB(&t, 2, 1, 4);
    ck_assert_int_eq(gang_queued(t.g), 0);
    tc_free(&t);
}
END_TEST

START_TEST(test_quantum_at_job_end)
{
    /* 4 PEs, MPL 2, Q = 10, C = 0; J1 and J2 (4 PEs, 20 s) at 0.
     *   J1 [0,10), J2 [10,20), J1 resumes at 20 with 10 s left.
     *   30  the quantum ends at the very instant J1's work is done. A
     *       quantum end is a scheduler event, and at one instant model
     *       events (J1's threads finishing) come before the scheduler: J1
     *       ends at 30, its slot (the current one) is removed and J2 is
     *       switched in at once.
     *   J2 computes [30,40): ends at 40. Switches at 10, 20, 30: 3 PCS. */
    tc_t t;
    gang_params gp = params(PRIO_FCFS, PACK_FIRSTFIT, 2, 10, 0, true);
    tc_init(&t, 4, 1024, &gp);
    tc_job(&t, 1, 0, 4, 20);
    tc_job(&t, 2, 0, 4, 20);
    probe_t *p35 = tc_probe(&t, 35);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_LAYOUT(p35, ">2 2 2 2");
    ck_assert_int_eq(p35->running, 1);
    EXPECT_JOB(&t, 1, 0, 30);
    EXPECT_JOB(&t, 2, 10, 40);
    ck_assert_uint_eq(gang_pcs_count(t.g), 3);
    expect_drained(&t, 2);
    tc_free(&t);
}
END_TEST

START_TEST(test_priority_bestfit_not_strict)
{
    /* The priority case with BESTFIT and strict order off: at 10 J3 (the
     * widest) on PEs 0-2 [10,14), then the widest that fits the one free
     * PE: J2 on PE 3 [10,15). At 14 PEs 0-2: J4 on 0,1 [14,20) (J5 also
     * needs 2: one PE left). At 15 PEs 2,3: J5 [15,18). */
    tc_t t;
    gang_params gp = params(PRIO_BESTFIT, PACK_FIRSTFIT, 1, 5, 0.5, false);
    tc_init(&t, 4, 1024, &gp);
    tc_job(&t, 1, 0, 4, 10);
    tc_job(&t, 2, 1, 1, 5);
    tc_job(&t, 3, 2, 3, 4);
    tc_job(&t, 4, 3, 2, 6);
    tc_job(&t, 5, 4, 2, 3);
    probe_t *p12 = tc_probe(&t, 12), *p16 = tc_probe(&t, 16);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_LAYOUT(p12, ">3 3 3 2");
    EXPECT_LAYOUT(p16, ">4 4 5 5");
    EXPECT_JOB(&t, 1, 0, 10);
    EXPECT_JOB(&t, 2, 10, 15);
    EXPECT_JOB(&t, 3, 10, 14);
    EXPECT_JOB(&t, 4, 14, 20);
    EXPECT_JOB(&t, 5, 15, 18);
    expect_drained(&t, 5);
    tc_free(&t);
}
END_TEST

/* ---- the placement pass at every instant room may appear (issue 10) --------- */

START_TEST(test_place_at_switch_issue10)
{
    /* The issue's trace on 6 PEs, MPL 2; every other setting is the default
     * of configs/reference.ini: quantum Q = 60, PCS C = 0.004, FCFS,
     * FIRSTFIT, strict order. Threads of 1 MB on 32 MB PEs: nothing pages.
     *   J1 at 0, 2 PEs, 1000 s    J2 at 1, 4 PEs, 1000 s
     *   J3 at 2, 4 PEs, 30 s      J4 at 3, 2 PEs, 1000 s
     *   J5 at 4, 3 PEs, 100 s
     * Slots A (first) and B. By hand:
     *   0     J1 -> A, PEs 0,1, runs.
     *   1     J2 -> A, PEs 2-5, runs.               A: 1 1 2 2 2 2
     *   2     J3: A full -> new slot B, PEs 0-3; the quantum starts (-> 62).
     *   3     J4 -> B, PEs 4,5.                     B: 3 3 3 3 4 4
     *   4     J5 (3 PEs): no slot has 3 free, MPL reached: queued.
     *   62    switch to B: J1 (62 done), J2 (61) stopped; J3, J4 start
     *         (first starts, no PCS). PCS 1.
     *   92    J3 ends (30). B's idle PEs 0-3: alternative scheduling moves
     *         J1 (PEs 0,1) in from A; it resumes at 92.004. PCS 2. The pass
     *         comes after: J5 needs 3, A has 2 free (0,1), B 2 (2,3): queued.
     *   122   switch to A: J1 moves back home (still running: no PCS); J4
     *         stopped (60), J2 resumes at 122.004. PCS 3. The move back freed
     *         PEs 0,1 of B: B has 0-3 free. THE PASS at this switch places J5
     *         in B, PEs 0-2 (it waits for B's turn). Before the fix it stayed
     *         queued until J1 ended (at 1030).
     *   182   switch to B: J1 (151.996 done), J2 (120.996) stopped; J4
     *         resumes at 182.004; J5 starts (first start). PCS 4.
     *   242   A: J1, J2 resume at 242.004. PCS 5.     J4 119.996, J5 60.
     *   302   B: J4, J5 resume at 302.004. PCS 6.     J1 211.992, J2 180.992.
     *   342.004  J5 ends (40 more). B's idle PEs 0-3: J1 moved in, resumes
     *         at 342.008. PCS 7. The queue is empty from here on.
     *   362   A: J1 moves back, running on; J4 (179.992) stopped; J2 resumes.
     *   From now on J1 computes without a break: at every B turn it moves
     *   into B (still running), at every A turn it moves back. It ends at
     *   342.008 + (1000 - 211.992) = 1130.016, in the A turn that began at
     *   1082. Each turn gives J2 (A) or J4 (B) Q - C = 59.996 s: A turns at
     *   362, 482, ..., 962 (6) take J2 to 540.968, B turns at 422, ..., 1022
     *   (6) take J4 to 539.968; switches 362..1082 every 60 s are 13 PCS
     *   (20 in all). J1's end moves nothing (J4's PEs 4,5 are J2's in A).
     *   1082  A turn: J2 600.964 at 1142. Then A turns 1202 ... 1802 (6)
     *         give J2 960.94 and the 1922 turn ends it at 1922.004 + 39.06 =
     *         1961.064. B turns 1142 ... 1862 (7) give J4 959.94. Switches
     *         1142 ... 1922 every 60 s: 14 PCS (34).
     *   1961.064  J2 ends: A is empty and removed, B switched in at once: J4
     *         resumes at 1961.068 with 40.06 left: ends at 2001.128. PCS 35.
     */
    config c;
    config_defaults(&c);
    ck_assert_double_eq(c.scheduler.quantum, 60);
    ck_assert_double_eq(c.scheduler.pcs, 0.004);
    tc_t t;
    gang_params gp = params(t_ops_at(PNRSIM_KIND_PRIORITY, c.scheduler.priority),
                            t_ops_at(PNRSIM_KIND_PACKING, c.scheduler.packing), 2, c.scheduler.quantum,
                            c.scheduler.pcs, c.scheduler.strict_order);
    gp.mem_aware = c.scheduler.mem_aware;
    gp.pcs_first_start = c.scheduler.pcs_first_start;
    tc_init(&t, 6, c.computer.ram, &gp);
    tc_job_mem(&t, 1, 0, 2, 1000, 1024 / 1024.0);
    tc_job_mem(&t, 2, 1, 4, 1000, 1);
    tc_job_mem(&t, 3, 2, 4, 30, 1);
    tc_job_mem(&t, 4, 3, 2, 1000, 1);
    tc_job_mem(&t, 5, 4, 3, 100, 1);
    probe_t *p50 = tc_probe(&t, 50), *p100 = tc_probe(&t, 100), *p150 = tc_probe(&t, 150);
    probe_t *p200 = tc_probe(&t, 200), *p350 = tc_probe(&t, 350);
    probe_t *p1135 = tc_probe(&t, 1135), *p1980 = tc_probe(&t, 1980);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    EXPECT_LAYOUT(p50, ">1 1 2 2 2 2 | 3 3 3 3 4 4");
    ck_assert_int_eq(p50->queued, 1);
    EXPECT_LAYOUT(p100, ". . 2 2 2 2 | >1 1 . . 4 4");
    ck_assert_int_eq(p100->queued, 1);
    EXPECT_LAYOUT(p150, ">1 1 2 2 2 2 | 5 5 5 . 4 4");
    ck_assert_int_eq(p150->queued, 0);
    EXPECT_LAYOUT(p200, "1 1 2 2 2 2 | >5 5 5 . 4 4");
    ck_assert_int_eq(p200->running, 2);
    EXPECT_LAYOUT(p350, ". . 2 2 2 2 | >1 1 . . 4 4");
    ck_assert_uint_eq(p350->pcs, 7);
    EXPECT_LAYOUT(p1135, ">. . 2 2 2 2 | . . . . 4 4");
    ck_assert_uint_eq(p1135->pcs, 20);
    EXPECT_LAYOUT(p1980, ">. . . . 4 4");
    ck_assert_uint_eq(p1980->pcs, 35);
    EXPECT_JOB(&t, 1, 0, 1130.016);
    EXPECT_JOB(&t, 2, 1, 1961.064);
    EXPECT_JOB(&t, 3, 62, 92);
    EXPECT_JOB(&t, 4, 62, 2001.128);
    EXPECT_JOB(&t, 5, 182, 342.004);
    ck_assert_uint_eq(gang_pcs_count(t.g), 35);
    ck_assert_int_eq(gang_mpl_max(t.g), 2);
    /* The PEs computed the demand and nothing during the 35 PCS. */
    ck_assert_near(tc_cpu_busy(&t), 2 * 1000 + 4 * 1000 + 4 * 30 + 2 * 1000 + 3 * 100, 1e-6);
    expect_drained(&t, 5);
    tc_free(&t);
}
END_TEST

START_TEST(test_place_at_switch_trace)
{
    /* The same five jobs read from the issue's SWF lines
     * (tests/data/issue10-placement.swf) by a whole run with every key at
     * its default but 6 PEs and MPL 2 (so also R = 2.4e-7 s, which pages
     * nothing: at most two 1 MB threads share a 32 MB PE): each job's
     * start and end as derived by hand in test_place_at_switch_issue10. */
    static const double want[6][2] = {{0, 0},         {0, 1130.016},  {1, 1961.064},
                                      {62, 92},       {62, 2001.128}, {182, 342.004}};
    config c;
    char err[CFG_ERR_MAX];
    config_defaults(&c);
    const char *sets[] = {"workload.trace=tests/data/issue10-placement.swf",
                          "computer.number=6", "scheduler.mpl=2", NULL};
    for (int i = 0; sets[i]; i++)
        ck_assert_msg(config_set(&c, sets[i], err) == 0, "%s", err);
    ck_assert_msg(config_validate(&c, err) == 0, "%s", err);
    FILE *jobs = tmpfile();
    ck_assert_ptr_nonnull(jobs);
    run_t *r = run_create(&c, jobs, NULL, err);
    ck_assert_msg(r != NULL, "%s", err);
    run_set_checking(r, true);
    ck_assert_msg(run_execute(r, err) == 0, "%s", err);
    ck_assert_ptr_null(run_check_failure(r));
    run_metrics m;
    run_metrics_get(r, &m);
    ck_assert_int_eq(m.jobs_finished, 5);
    ck_assert_int_eq(m.pcs_count, 35);
    ck_assert_double_eq(m.page_faults_per_pe, 0);
    run_destroy(r);
    rewind(jobs);
    char line[512];
    ck_assert_ptr_nonnull(fgets(line, sizeof line, jobs)); /* header */
    int seen = 0;
    while (fgets(line, sizeof line, jobs)) {
        long id;
        double submit, start, end;
        ck_assert_int_eq(sscanf(line, "%ld,%lf,%lf,%lf", &id, &submit, &start, &end), 4);
        ck_assert(id >= 1 && id <= 5);
        ck_assert_msg(fabs(start - want[id][0]) < 1e-9 && fabs(end - want[id][1]) < 1e-9,
                      "J%ld ran [%.12g, %.12g), expected [%.12g, %.12g)", id, start, end,
                      want[id][0], want[id][1]);
        seen++;
    }
    ck_assert_int_eq(seen, 5);
    fclose(jobs);
}
END_TEST

static void lend_cb(sim_t *sim, void *arg)
{
    pe_lend(sim, &T->cl.pes[0], *(double *)arg);
}

START_TEST(test_place_when_lent_memory_returns)
{
    /* mem_aware: memory given back by a PNR server (lent RAM) is room too.
     * 2 PEs of 100 MB, MPL 2, FCFS, strict. PE 0 lends 60 MB at 0 and gets
     * it back at 4. J1 (2 PEs, 50 MB, 5 s) at 1: PE 0 has 40 MB of room,
     * J1 waits. At 4 the pass placed at the return starts it: [4,9). No
     * other event happens at 4: without that pass J1 would never start. */
    static double lend = 60, unlend = -60;
    tc_t t;
    gang_params gp = params(PRIO_FCFS, PACK_FIRSTFIT, 2, 10, 0, true);
    gp.mem_aware = true;
    tc_init(&t, 2, 100, &gp);
    ev_once(&t.sim, 0, lend_cb, &lend);
    ev_once(&t.sim, 4, lend_cb, &unlend);
    tc_job_mem(&t, 1, 1, 2, 5, 50);
    probe_t *p3 = tc_probe(&t, 3);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    ck_assert_int_eq(p3->queued, 1);
    ck_assert_int_eq(p3->slots, 0);
    EXPECT_JOB(&t, 1, 4, 9);
    expect_drained(&t, 1);
    tc_free(&t);
}
END_TEST

/* ---- a parallel context switch on a job's first start (pcs_first_start) ----- */

START_TEST(test_pcs_first_start)
{
    /* test_two_full_jobs_pcs with pcs_first_start: 4 PEs, MPL 2, Q = 10,
     * C = 1; J1 and J2 (4 PEs, 25 s) at 0. Now every start costs C too.
     *   0    J1 starts in slot 0: PCS [0,1), computes [1,10): 9 (16 left).
     *        The pass charged a PCS: 1.
     *   10   J2's first start: PCS, computes [11,20): 9 (16 left). 2.
     *   20   J1 [21,30): 18 done. 3.    30  J2 [31,40): 18 done. 4.
     *   40   J1 [41,48): 7 more, ends at 48. 5.
     *   48   J2's slot at once: PCS, [49,56): ends at 56. 6.
     * Against the default (no charge on a first start: J1 ends at 47, J2 at
     * 54, 5 PCS), each job pays one more C; busy CPU time is still 200. */
    tc_t t;
    gang_params gp = params(PRIO_FCFS, PACK_FIRSTFIT, 2, 10, 1, true);
    gp.pcs_first_start = true;
    tc_init(&t, 4, 1024, &gp);
    tc_job(&t, 1, 0, 4, 25);
    tc_job(&t, 2, 0, 4, 25);
    probe_t *p5 = tc_probe(&t, 0.5), *p15 = tc_probe(&t, 15);
    ck_assert_int_eq(tc_run(&t), EV_RUN_EMPTY);
    ck_assert_uint_eq(p5->pcs, 1);
    ck_assert_uint_eq(p15->pcs, 2);
    EXPECT_JOB(&t, 1, 0, 48);
    EXPECT_JOB(&t, 2, 10, 56);
    ck_assert_uint_eq(gang_pcs_count(t.g), 6);
    ck_assert_near(tc_cpu_busy(&t), 200, 1e-9);
    ck_assert_near(gang_mpl_mean(t.g, t.sim.now), (2.0 * 48 + 8) / 56, 1e-12);
    expect_drained(&t, 2);
    tc_free(&t);
}
END_TEST

/* ---- invariants on a real trace ------------------------------------------------------ */

static void trace_run(const char *prio, const char *pack, const char *extra[], uint64_t seed)
{
    config c;
    char err[CFG_ERR_MAX], set[128];
    config_defaults(&c);
    const char *sets[] = {"workload.trace=traces/hpc2n-seth-first3171.swf",
                          "workload.max_jobs=400",
                          "computer.number=240",
                          "scheduler.mpl=3",
                          "scheduler.strict_order=no",
                          "scheduler.quantum=600",
                          NULL};
    for (int i = 0; sets[i]; i++)
        ck_assert_msg(config_set(&c, sets[i], err) == 0, "%s", err);
    snprintf(set, sizeof set, "scheduler.priority=%s", prio);
    ck_assert_msg(config_set(&c, set, err) == 0, "%s", err);
    snprintf(set, sizeof set, "scheduler.packing=%s", pack);
    ck_assert_msg(config_set(&c, set, err) == 0, "%s", err);
    snprintf(set, sizeof set, "simulation.seed=%llu", (unsigned long long)seed);
    ck_assert_msg(config_set(&c, set, err) == 0, "%s", err);
    for (int i = 0; extra && extra[i]; i++)
        ck_assert_msg(config_set(&c, extra[i], err) == 0, "%s", err);
    ck_assert_msg(config_validate(&c, err) == 0, "%s", err);
    run_t *r = run_create(&c, NULL, NULL, err);
    ck_assert_msg(r != NULL, "%s", err);
    run_set_checking(r, true);
    ck_assert_msg(run_execute(r, err) == 0, "%s", err);
    const char *bad = run_check_failure(r);
    ck_assert_msg(bad == NULL, "%s/%s: gang_check: %s", prio, pack, bad ? bad : "");
    run_metrics m;
    run_metrics_get(r, &m);
    ck_assert_int_eq(m.jobs_submitted, 400);
    ck_assert_msg(m.jobs_finished == m.jobs_submitted, "%s/%s: %ld of %ld jobs finished",
                  prio, pack, m.jobs_finished, m.jobs_submitted);
    ck_assert_int_eq(m.jobs_unfinished, 0);
    ck_assert_int_eq(m.jobs_never_started, 0);
    ck_assert(m.cpu_demand_done > 0);
    ck_assert_msg(fabs(m.cpu_busy_total - m.cpu_demand_done) <= 1e-6 * m.cpu_demand_done,
                  "%s/%s: CPU busy %.17g s, demand done %.17g s", prio, pack, m.cpu_busy_total,
                  m.cpu_demand_done);
    ck_assert_int_le(m.mpl_max, c.scheduler.mpl ? c.scheduler.mpl : 400);
    ck_assert_int_ge(m.mpl_max, 1);
    ck_assert(m.mpl_mean >= 1 && m.mpl_mean <= m.mpl_max);
    if (c.scheduler.mem_aware)
        /* Placement never overcommits RAM, so nothing pages. */
        ck_assert_double_eq(m.page_faults_per_pe, 0);
    run_destroy(r);
}

static const char *const prio_names[] = {"FCFS", "BESTFIT", "WORSTFIT"};
static const char *const pack_names[] = {"FIRSTFIT", "BESTFIT", "WORSTFIT"};

START_TEST(test_trace_invariants)
{
    /* Every priority x packing, no messages; every other one memory aware,
     * with 12 MB given to each thread of the trace's jobs (most have none)
     * and 32 MB PEs, so that memory, not MPL, often limits placement. */
    int i = _i;
    const char *aware[] = {"scheduler.mem_aware=yes", "workload.default_memory=12",
                           "computer.ram=32", NULL};
    trace_run(prio_names[i / 3], pack_names[i % 3], (i % 2) ? aware : NULL, 7);
}
END_TEST

START_TEST(test_trace_invariants_stress)
{
    /* Three of the combinations again, with a different seed each, with
     * PEs that page (24 MB threads, up to 3 slots, 32 MB of RAM), neighbour
     * messages and synchronisations, and a PCS cost, so that context
     * switches cut bursts and land during faults, barriers and messages. */
    int i = _i;
    const char *extra[] = {"workload.default_memory=24", "computer.ram=32",
                           "process.mem_access_rate=0.01", "process.comm_rate=2000",
                           "process.sync_rate=5000", "scheduler.pcs=0.5", NULL};
    trace_run(prio_names[i], pack_names[(i + 1) % 3], extra, (uint64_t)(11 + i));
}
END_TEST

START_TEST(test_trace_placement)
{
    /* The placement rule on the real trace, checked after every scheduler
     * action (run_set_checking: gang_check_placement unless a pass is
     * due), with the default quantum of 60 s so that slots switch often,
     * over priority orders, packings, MPL 2 to 4, strict order on and off,
     * memory awareness with memory freed per thread or per job, and a PCS
     * on first starts. Without the pass at slot switches the third setting
     * broke the rule (at 706157 s, a 30-PE job left queued). */
    static const char *const sets[][8] = {
        {"scheduler.mpl=2", "scheduler.strict_order=yes", NULL},
        {"scheduler.mpl=3", "scheduler.strict_order=yes", NULL},
        {"scheduler.mpl=2", NULL},
        {"scheduler.mpl=4", "scheduler.strict_order=yes", "scheduler.pcs_first_start=yes", NULL},
        {"scheduler.mpl=2", "scheduler.strict_order=yes", "scheduler.mem_aware=yes",
         "workload.default_memory=12", "computer.ram=32", "process.mem_release=job", NULL},
        {"scheduler.mpl=3", "scheduler.mem_aware=yes", "workload.default_memory=12",
         "computer.ram=32", "process.mem_release=thread", NULL},
    };
    static const int prio[] = {0, 1, 2, 0, 0, 1}, pack[] = {1, 0, 2, 0, 1, 2};
    const char *extra[10];
    int i = _i, k = 0;
    extra[k++] = "scheduler.quantum=60";
    for (int e = 0; sets[i][e]; e++)
        extra[k++] = sets[i][e];
    extra[k] = NULL;
    trace_run(prio_names[prio[i]], pack_names[pack[i]], extra, (uint64_t)(21 + i));
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("gang_pass");
    TCase *tc = tcase_create("hand");
    tcase_add_test(tc, test_mem_aware_waits);
    tcase_add_test(tc, test_mem_unaware_overcommits);
    tcase_add_test(tc, test_mem_aware_pe_choice);
    tcase_add_test(tc, test_mem_impossible);
    tcase_add_test(tc, test_mem_aware_heterogeneous_and_servers);
    tcase_add_test(tc, test_mpl_metrics);
    tcase_add_test(tc, test_wider_than_machine);
    tcase_add_test(tc, test_quantum_at_job_end);
    tcase_add_test(tc, test_priority_bestfit_not_strict);
    tcase_add_test(tc, test_place_at_switch_issue10);
    tcase_add_test(tc, test_place_at_switch_trace);
    tcase_add_test(tc, test_place_when_lent_memory_returns);
    tcase_add_test(tc, test_pcs_first_start);
    suite_add_tcase(s, tc);
    TCase *tr = tcase_create("trace");
    tcase_set_timeout(tr, 120);
    tcase_add_loop_test(tr, test_trace_invariants, 0, 9);
    tcase_add_loop_test(tr, test_trace_invariants_stress, 0, 3);
    tcase_add_loop_test(tr, test_trace_placement, 0, 6);
    suite_add_tcase(s, tr);
    return s;
}

TEST_MAIN()
