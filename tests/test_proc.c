/* tests/test_proc.c: processes, resources, wait queues and barriers:
 * interruption keeps the remaining hold time; FIFO service and preemption
 * match schedules worked out by hand; an M/M/1 built from processes agrees
 * with queueing theory. */
#include "core/proc.h"
#include "core/res.h"
#include "core/sync.h"
#include "tests/mm1.h"
#include "tests/testutil.h"

#include <gsl/gsl_cdf.h>

/* ---- interruption ---------------------------------------------------- */
struct holder {
    proc_t p;
    double dt;
    double done_at;
};

static void hold_body(sim_t *sim, proc_t *p)
{
    struct holder *h = (struct holder *)p;
    PROC_BEGIN(p);
    PROC_HOLD(sim, p, h->dt);
    h->done_at = sim->now;
    PROC_END(sim, p);
}

static struct holder *victim;
static void do_interrupt(sim_t *sim, void *arg)
{
    (void)arg;
    ck_assert(proc_interrupt(sim, &victim->p));
}
static void do_resume(sim_t *sim, void *arg)
{
    (void)arg;
    proc_resume(sim, &victim->p);
}

START_TEST(test_interrupt_resume)
{
    /* Hold 10 from t=0; interrupted at 3 (7 left); resumed at 7.5:
     * ends at 7.5 + 7 = 14.5. */
    sim_t sim;
    ev_init(&sim);
    struct holder h = {.dt = 10, .done_at = -1};
    victim = &h;
    proc_init(&sim, &h.p, hold_body);
    proc_start(&sim, &h.p, 0);
    ev_once(&sim, 3, do_interrupt, NULL);
    ev_once(&sim, 7.5, do_resume, NULL);
    ev_run(&sim, INFINITY);
    ck_assert_double_eq(h.done_at, 14.5);
    ck_assert_int_eq(h.p.state, PROC_DONE);
    /* Interrupting a process that is not holding does nothing. */
    ck_assert(!proc_interrupt(&sim, &h.p));
    proc_destroy(&sim, &h.p);
    ck_assert_uint_eq(sim.live_records, 0);
    ev_destroy(&sim);
}
END_TEST

/* ---- resources --------------------------------------------------------- */
static res_t cpu;
struct job {
    proc_t p;
    double service;
    double start, end;
};

static void job_body(sim_t *sim, proc_t *p)
{
    struct job *j = (struct job *)p;
    PROC_BEGIN(p);
    PROC_REQUEST(sim, p, &cpu);
    j->start = sim->now;
    PROC_HOLD(sim, p, j->service);
    res_release(sim, &cpu, p);
    j->end = sim->now;
    PROC_END(sim, p);
}

START_TEST(test_fifo_resource)
{
    /* Three jobs of 2 s each arrive at t=0 (A, B, C in that order):
     * A 0-2, B 2-4, C 4-6. Queue: 2 waiting in [0,2), 1 in [2,4), 0 after:
     * area 2*2 + 1*2 = 6 over 6 s -> mean 1, max 2. Busy 6 of 6 s. */
    sim_t sim;
    ev_init(&sim);
    res_init(&sim, &cpu, "cpu");
    struct job j[3];
    for (int i = 0; i < 3; i++) {
        j[i] = (struct job){.service = 2};
        proc_init(&sim, &j[i].p, job_body);
        proc_start(&sim, &j[i].p, 0);
    }
    ev_run(&sim, INFINITY);
    for (int i = 0; i < 3; i++) {
        ck_assert_double_eq(j[i].start, 2.0 * i);
        ck_assert_double_eq(j[i].end, 2.0 * i + 2);
        proc_destroy(&sim, &j[i].p);
    }
    ck_assert_double_eq(res_busy_time(&sim, &cpu), 6);
    ck_assert_double_eq(res_utilization(&sim, &cpu), 1);
    ck_assert_double_eq(timeavg_mean(&cpu.queue, sim.now), 1);
    ck_assert_double_eq(cpu.queue.max, 2);
    ck_assert_uint_eq(cpu.completions, 3);
    ev_destroy(&sim);
}
END_TEST

static struct job *preemptor;
static void do_preempt(sim_t *sim, void *arg)
{
    (void)arg;
    res_preempt(sim, &cpu, &preemptor->p);
    preemptor->start = sim->now;
    proc_hold(sim, &preemptor->p, preemptor->service);
    /* Continue the preemptor's body after its hold: its pc points past
     * PROC_REQUEST already because it was started at the hold line. */
}

static void urgent_body(sim_t *sim, proc_t *p)
{
    struct job *j = (struct job *)p;
    /* Entered only once, when its hold (started by do_preempt) ends. */
    res_release(sim, &cpu, p);
    j->end = sim->now;
    p->state = PROC_DONE;
}

START_TEST(test_preempt)
{
    /* A holds the CPU for 10 s from t=0. At t=4 U preempts for 3 s: U runs
     * 4-7, then A resumes its remaining 6 s: A ends at 13. Busy 13 s. */
    sim_t sim;
    ev_init(&sim);
    res_init(&sim, &cpu, "cpu");
    struct job a = {.service = 10}, u = {.service = 3};
    proc_init(&sim, &a.p, job_body);
    proc_init(&sim, &u.p, urgent_body);
    proc_start(&sim, &a.p, 0);
    preemptor = &u;
    ev_once(&sim, 4, do_preempt, NULL);
    ev_run(&sim, INFINITY);
    ck_assert_double_eq(u.start, 4);
    ck_assert_double_eq(u.end, 7);
    ck_assert_double_eq(a.start, 0);
    ck_assert_double_eq(a.end, 13);
    ck_assert_double_eq(res_busy_time(&sim, &cpu), 13);
    ck_assert_uint_eq(cpu.preemptions, 1);
    proc_destroy(&sim, &a.p);
    proc_destroy(&sim, &u.p);
    ev_destroy(&sim);
}
END_TEST

/* ---- barrier ------------------------------------------------------------ */
static barrier_t bar;
struct party {
    proc_t p;
    double arrive, leave;
};
static void party_body(sim_t *sim, proc_t *p)
{
    struct party *x = (struct party *)p;
    PROC_BEGIN(p);
    PROC_HOLD(sim, p, x->arrive);
    if (barrier_arrive(&bar))
        barrier_release(sim, &bar);
    else
        PROC_WAIT(sim, p, &bar.q);
    x->leave = sim->now;
    PROC_END(sim, p);
}

START_TEST(test_barrier)
{
    /* Parties arrive at 1, 2 and 5: all leave at 5; second round reusable. */
    sim_t sim;
    ev_init(&sim);
    barrier_init(&bar, 3);
    struct party x[3] = {{.arrive = 1}, {.arrive = 5}, {.arrive = 2}};
    for (int i = 0; i < 3; i++) {
        proc_init(&sim, &x[i].p, party_body);
        proc_start(&sim, &x[i].p, 0);
    }
    ev_run(&sim, INFINITY);
    for (int i = 0; i < 3; i++) {
        ck_assert_double_eq(x[i].leave, 5);
        proc_destroy(&sim, &x[i].p);
    }
    ck_assert_uint_eq(bar.arrived, 0);
    ck_assert_uint_eq(bar.q.n, 0);
    ev_destroy(&sim);
}
END_TEST

/* ---- M/M/1 against theory ------------------------------------------------ */
/* Mean wait in queue Wq = rho / (mu - lambda). With mu = 1: rho 0.5 -> 1,
 * rho 0.9 -> 9; utilisation = rho. R independent replications of n
 * customers (the first 10% discarded as warm-up) give R means whose spread
 * yields a Student-t 99.9% confidence interval; the theoretical value must
 * lie inside it, and the interval must be narrow (< 6% of the value) so the
 * test can fail when the model is wrong. */
static void check_mm1(double rho, long n, int reps)
{
    double lambda = rho, mu = 1;
    double wq = rho / (mu - lambda);
    tally_t means, utils;
    tally_init(&means);
    tally_init(&utils);
    for (int k = 0; k < reps; k++) {
        sim_t sim;
        ev_init(&sim);
        struct mm1 m;
        mm1_init(&sim, &m, lambda, mu, n, n / 10, 1000 + k);
        ev_run(&sim, INFINITY);
        tally_add(&means, m.wait.mean);
        tally_add(&utils, res_utilization(&sim, &m.server));
        ck_assert_uint_eq(m.server.completions, (uint64_t)n);
        mm1_free(&sim, &m);
        ck_assert_uint_eq(sim.live_records, 0);
        ev_destroy(&sim);
    }
    double t = gsl_cdf_tdist_Pinv(0.9995, reps - 1);
    double half = t * tally_sd(&means) / sqrt(reps);
    ck_assert_msg(fabs(means.mean - wq) <= half,
                  "rho %.1f: Wq %.4f +- %.4f, theory %.4f", rho, means.mean, half, wq);
    ck_assert_msg(half < 0.06 * wq, "rho %.1f: interval %.4f too wide", rho, half);
    double uhalf = t * tally_sd(&utils) / sqrt(reps);
    ck_assert_msg(fabs(utils.mean - rho) <= uhalf + 1e-3,
                  "rho %.1f: utilisation %.4f +- %.4f", rho, utils.mean, uhalf);
}

START_TEST(test_mm1_rho05) { check_mm1(0.5, 100000, 10); }
END_TEST
START_TEST(test_mm1_rho09) { check_mm1(0.9, 400000, 40); }
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("proc");
    TCase *tc = tcase_create("processes");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_interrupt_resume);
    tcase_add_test(tc, test_fifo_resource);
    tcase_add_test(tc, test_preempt);
    tcase_add_test(tc, test_barrier);
    tcase_add_test(tc, test_mm1_rho05);
    tcase_add_test(tc, test_mm1_rho09);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
