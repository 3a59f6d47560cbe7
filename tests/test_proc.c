/* tests/test_proc.c: processes, resources, wait queues and barriers:
 * a signal ends a hold early and the hold returns it; suspension keeps the
 * remaining hold time; FIFO service and preemption
 * match schedules worked out by hand; a hold that is the next event anyway
 * goes on without an event, at the same times; a cancelled process
 * never runs again until started; an M/M/1 built from
 * processes agrees with queueing theory. */
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
static void do_suspend(sim_t *sim, void *arg)
{
    (void)arg;
    ck_assert(proc_suspend(sim, &victim->p));
}
static void do_resume(sim_t *sim, void *arg)
{
    (void)arg;
    proc_resume(sim, &victim->p);
}

START_TEST(test_suspend_resume)
{
    /* Hold 10 from t=0; suspended at 3 (7 left); resumed at 7.5:
     * ends at 7.5 + 7 = 14.5, its hold returning PROC_OK. */
    sim_t sim;
    ev_init(&sim);
    struct holder h = {.dt = 10, .done_at = -1};
    victim = &h;
    proc_init(&sim, &h.p, hold_body);
    proc_start(&sim, &h.p, 0);
    ev_once(&sim, 3, do_suspend, NULL);
    ev_once(&sim, 7.5, do_resume, NULL);
    ev_run(&sim, INFINITY);
    ck_assert_double_eq(h.done_at, 14.5);
    ck_assert_int_eq(h.p.state, PROC_DONE);
    ck_assert_int_eq(h.p.sig, PROC_OK);
    /* Suspending or interrupting a process that is not holding does
     * nothing. */
    ck_assert(!proc_suspend(&sim, &h.p));
    ck_assert(!proc_interrupt(&sim, &h.p, PROC_STOPPED));
    proc_destroy(&sim, &h.p);
    ck_assert_uint_eq(sim.live_records, 0);
    ev_destroy(&sim);
}
END_TEST

/* ---- signals ------------------------------------------------------------- */

/* A worker owes `work` seconds of holding. When a hold returns a signal it
 * notes it and waits on `resume` until `go` is set, then holds what it
 * still owed: the pattern of a gang-scheduled thread (sched/job.c). */
struct worker {
    proc_t p;
    double work;
    bool go;
    waitq_t resume;
    int sigs;             /* holds that returned a signal */
    int last_sig;
    double sig_at, left_at_sig;
    bool saw_marker;      /* the event queued before the wake had run */
    int wakes;            /* returns from the wait */
    double done_at;
};
static struct worker *wk;
static bool marker;

static void worker_body(sim_t *sim, proc_t *p)
{
    struct worker *w = (struct worker *)p;
    PROC_BEGIN(p);
    for (;;) {
        PROC_HOLD(sim, p, w->work);
        if (p->sig == PROC_OK)
            break;
        w->sigs++;
        w->last_sig = p->sig;
        w->sig_at = sim->now;
        w->left_at_sig = proc_hold_left(sim, p);
        w->saw_marker = marker;
        w->work = w->left_at_sig;
        w->go = false;
        PROC_WAIT_UNTIL(sim, p, &w->resume, w->go);
        w->wakes++;
    }
    w->done_at = sim->now;
    PROC_END(sim, p);
}

static void do_signal(sim_t *sim, void *arg)
{
    ck_assert(proc_interrupt(sim, &wk->p, (int)(intptr_t)arg));
    ck_assert_int_eq(wk->p.state, PROC_READY);
}
static void set_marker(sim_t *sim, void *arg)
{
    (void)sim;
    (void)arg;
    marker = true;
}
static void do_wake(sim_t *sim, void *arg)
{
    wk->go = arg != NULL;
    ck_assert_ptr_nonnull(waitq_signal(sim, &wk->resume));
}

START_TEST(test_interrupt_signal)
{
    /* Work 10 s from t=0. At 3 a signal 5 ends the hold: the hold returns
     * 5 at t=3 with 10 - 3 = 7 s left, after the event already queued for
     * t=3 (FIFO). The worker waits for `go`: woken at 4 without it, it
     * waits again; woken at 6 with it, it holds the 7 s left. At 8 a
     * PROC_STOPPED ends that hold with 13 - 8 = 5 s left; woken at 9 with
     * go, it holds 5 s and ends at 14 with PROC_OK. */
    sim_t sim;
    ev_init(&sim);
    struct worker w = {.work = 10, .done_at = -1};
    wk = &w;
    marker = false;
    waitq_init(&w.resume);
    proc_init(&sim, &w.p, worker_body);
    proc_start(&sim, &w.p, 0);
    ev_once(&sim, 3, do_signal, (void *)(intptr_t)5);
    ev_once(&sim, 3, set_marker, NULL);
    ev_once(&sim, 4, do_wake, NULL);
    ev_once(&sim, 6, do_wake, &w);
    ev_run(&sim, 7);
    ck_assert_int_eq(w.sigs, 1);
    ck_assert_int_eq(w.last_sig, 5);
    ck_assert_double_eq(w.sig_at, 3);
    ck_assert_double_eq(w.left_at_sig, 7);
    ck_assert(w.saw_marker);
    ck_assert_int_eq(w.wakes, 1); /* the wake at 4 found go unset */
    ck_assert_int_eq(w.p.state, PROC_HOLDING);
    ck_assert_double_eq(proc_hold_left(&sim, &w.p), 6); /* 13 - 7 */
    ev_once(&sim, 8, do_signal, (void *)(intptr_t)PROC_STOPPED);
    ev_once(&sim, 9, do_wake, &w);
    ev_run(&sim, INFINITY);
    ck_assert_int_eq(w.sigs, 2);
    ck_assert_int_eq(w.last_sig, PROC_STOPPED);
    ck_assert_double_eq(w.sig_at, 8);
    ck_assert_double_eq(w.left_at_sig, 5);
    ck_assert_int_eq(w.wakes, 2);
    ck_assert_double_eq(w.done_at, 14);
    ck_assert_int_eq(w.p.state, PROC_DONE);
    ck_assert_int_eq(w.p.sig, PROC_OK);
    proc_destroy(&sim, &w.p);
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

static struct job *cancelled;
static void do_cancel(sim_t *sim, void *arg)
{
    (void)arg;
    ck_assert(res_cancel(sim, &cpu, &cancelled->p));
    /* Not queued any more: a second cancel finds nothing. */
    ck_assert(!res_cancel(sim, &cpu, &cancelled->p));
}

START_TEST(test_cancel_middle)
{
    /* A, B, C, D of 2 s each arrive at t=0 (A holds; B, C, D wait); at
     * t=1 C, in the middle of the queue, is taken off it: A 0-2, B 2-4,
     * D 4-6, C never starts. Queue length 3 in [0,1), 2 in [1,2), 1 in
     * [2,4), 0 after: area 3 + 2 + 2 = 7 over 6 s, max 3. */
    sim_t sim;
    ev_init(&sim);
    res_init(&sim, &cpu, "cpu");
    struct job j[4];
    for (int i = 0; i < 4; i++) {
        j[i] = (struct job){.service = 2, .start = -1, .end = -1};
        proc_init(&sim, &j[i].p, job_body);
        proc_start(&sim, &j[i].p, 0);
    }
    cancelled = &j[2];
    ev_once(&sim, 1, do_cancel, NULL);
    ev_run(&sim, INFINITY);
    ck_assert_double_eq(j[0].end, 2);
    ck_assert_double_eq(j[1].start, 2);
    ck_assert_double_eq(j[1].end, 4);
    ck_assert_double_eq(j[2].start, -1);
    ck_assert_double_eq(j[3].start, 4);
    ck_assert_double_eq(j[3].end, 6);
    ck_assert_uint_eq(cpu.q.n, 0);
    ck_assert_ptr_null(waitq_first(&cpu.q));
    ck_assert_double_eq_tol(timeavg_mean(&cpu.queue, sim.now), 7.0 / 6, 1e-12);
    ck_assert_double_eq(cpu.queue.max, 3);
    ck_assert_uint_eq(cpu.completions, 3);
    for (int i = 0; i < 4; i++)
        proc_destroy(&sim, &j[i].p);
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

static void count_cb_proc(sim_t *sim, void *arg)
{
    (void)sim;
    (void)arg;
}

/* ---- a hold that is the next event anyway is taken inline ----------- */
struct stepper {
    proc_t p;
    const double *dt;   /* holds, in turn */
    int n, k;
    double at[4];       /* clock after each hold */
};

static void step_body(sim_t *sim, proc_t *p)
{
    struct stepper *s = (struct stepper *)p;
    PROC_BEGIN(p);
    for (s->k = 0; s->k < s->n; s->k++) {
        PROC_HOLD(sim, p, s->dt[s->k]);
        ck_assert_int_eq(p->sig, PROC_OK);
        s->at[s->k] = sim->now;
    }
    PROC_END(sim, p);
}

START_TEST(test_inline_hold)
{
    /* A holds 1 then 5, B holds 2 then 1 then 0.5, both started at 0.
     * By hand: at 0 A holds to 1 (B's start is pending at 0: an event);
     * B holds to 2 (A's wake at 1 pending: an event); at 1 A holds to 6
     * (B's at 2 first: an event); at 2 B holds to 3: nothing pending
     * before 6, so B goes on at once at 3 (inline) and holds to 3.5, again
     * inline, and ends; at 6 A ends. The clock after each hold is what the
     * holds add up to either way; 5 events dispatched (the two starts,
     * A's two wake-ups, B's first), 2 holds skipped. */
    static const double da[] = {1, 5}, db[] = {2, 1, 0.5};
    sim_t sim;
    ev_init(&sim);
    struct stepper a = {.dt = da, .n = 2}, b = {.dt = db, .n = 3};
    proc_init(&sim, &a.p, step_body);
    proc_init(&sim, &b.p, step_body);
    proc_start(&sim, &a.p, 0);
    proc_start(&sim, &b.p, 0);
    ev_run(&sim, INFINITY);
    ck_assert_double_eq(a.at[0], 1);
    ck_assert_double_eq(a.at[1], 6);
    ck_assert_double_eq(b.at[0], 2);
    ck_assert_double_eq(b.at[1], 3);
    ck_assert_double_eq(b.at[2], 3.5);
    ck_assert_uint_eq(sim.dispatched, 5);
    ck_assert_uint_eq(sim.skipped, 2);
    ck_assert_double_eq(sim.now, 6);
    proc_destroy(&sim, &a.p);
    proc_destroy(&sim, &b.p);
    ev_destroy(&sim);

    /* With a limit of 3.2 the second skip (to 3.5) would cross it: that
     * hold becomes an event, left pending when ev_run returns at 3.2;
     * the rest runs when ev_run is called again. A sampler-like event at
     * 2.5 (pending when B holds at 2) makes B's hold to 3 an event too. */
    ev_init(&sim);
    struct stepper c = {.dt = da, .n = 2}, d = {.dt = db, .n = 3};
    proc_init(&sim, &c.p, step_body);
    proc_init(&sim, &d.p, step_body);
    proc_start(&sim, &c.p, 0);
    proc_start(&sim, &d.p, 0);
    ev_once(&sim, 2.5, count_cb_proc, NULL);
    ck_assert_int_eq(ev_run(&sim, 3.2), EV_RUN_LIMIT);
    ck_assert_double_eq(d.at[1], 3);
    ck_assert_uint_eq(sim.skipped, 0);
    ck_assert(ev_pending(&sim, d.p.ev));
    ck_assert_int_eq(d.p.state, PROC_HOLDING);
    ev_run(&sim, INFINITY);
    ck_assert_double_eq(d.at[2], 3.5);
    ck_assert_double_eq(c.at[1], 6);
    ck_assert_uint_eq(sim.skipped, 0);
    proc_destroy(&sim, &c.p);
    proc_destroy(&sim, &d.p);
    ev_destroy(&sim);
}
END_TEST

/* ---- proc_cancel: a process stopped from outside ---------------------- */
static void do_proc_cancel(sim_t *sim, void *arg)
{
    proc_cancel(sim, arg);
}

static struct job *granted;
/* Just after A released the cpu to B at 2 (a grant: B's wake-up pending at
 * 2, not run yet): cancel B and give the cpu back for it. */
static void cancel_granted(sim_t *sim, void *arg)
{
    (void)arg;
    ck_assert(cpu.holder == &granted->p);
    ck_assert_int_eq(granted->p.state, PROC_READY);
    ck_assert(ev_pending(sim, granted->p.ev));
    proc_cancel(sim, &granted->p);
    res_release(sim, &cpu, &granted->p); /* what it holds: the caller's */
}

START_TEST(test_proc_cancel)
{
    /* A holder of 5 s started at 0, cancelled at 2 while holding: its body
     * never runs again (done_at stays -1), it is idle, nothing is pending,
     * and the run ends at 2; its wake_at (5) is left for the caller.
     * Started again at 2 it runs from the top: done at 7. */
    sim_t sim;
    ev_init(&sim);
    struct holder h = {.dt = 5, .done_at = -1};
    proc_init(&sim, &h.p, hold_body);
    proc_start(&sim, &h.p, 0);
    ev_once(&sim, 2, do_proc_cancel, &h.p);
    ev_run(&sim, INFINITY);
    ck_assert_double_eq(sim.now, 2);
    ck_assert_double_eq(h.done_at, -1);
    ck_assert_int_eq(h.p.state, PROC_IDLE);
    ck_assert(!ev_pending(&sim, h.p.ev));
    ck_assert_double_eq(h.p.wake_at, 5);
    proc_start(&sim, &h.p, 0);
    ev_run(&sim, INFINITY);
    ck_assert_double_eq(h.done_at, 7);
    ck_assert_int_eq(h.p.state, PROC_DONE);

    /* Started (its start pending at 1) and cancelled before: never runs.
     * Cancelling an idle process again changes nothing. */
    h.done_at = -1;
    proc_start(&sim, &h.p, 1);
    ck_assert(ev_pending(&sim, h.p.ev));
    proc_cancel(&sim, &h.p);
    proc_cancel(&sim, &h.p);
    ck_assert_int_eq(h.p.state, PROC_IDLE);
    ev_run(&sim, INFINITY);
    ck_assert_double_eq(sim.now, 7);
    ck_assert_double_eq(h.done_at, -1);
    proc_destroy(&sim, &h.p);
    ev_destroy(&sim);

    /* A grant: jobs A and B of 2 s on the cpu from 0; at 2 A releases it
     * to B, whose wake-up is then pending at 2; an event at 2 scheduled
     * after that grant cancels B (and gives the cpu back): B never starts
     * its service, C (queued behind) gets the cpu at 2 and ends at 4. */
    ev_init(&sim);
    res_init(&sim, &cpu, "cpu");
    struct job j[3];
    for (int i = 0; i < 3; i++) {
        j[i] = (struct job){.service = 2, .start = -1, .end = -1};
        proc_init(&sim, &j[i].p, job_body);
        proc_start(&sim, &j[i].p, 0);
    }
    granted = &j[1];
    ev_run(&sim, 1);
    /* Scheduled after A's hold end at 2, before the grant it makes. */
    ev_once(&sim, 2, cancel_granted, NULL);
    ev_run(&sim, INFINITY);
    ck_assert_double_eq(j[0].end, 2);
    ck_assert_double_eq(j[1].start, -1);
    ck_assert_int_eq(j[1].p.state, PROC_IDLE);
    ck_assert_double_eq(j[2].start, 2);
    ck_assert_double_eq(j[2].end, 4);
    for (int i = 0; i < 3; i++)
        proc_destroy(&sim, &j[i].p);
    ev_destroy(&sim);
}
END_TEST

START_TEST(test_mm1_rho05) { check_mm1(0.5, 100000, 10); }
END_TEST
START_TEST(test_mm1_rho09) { check_mm1(0.9, 400000, 40); }
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("proc");
    TCase *tc = tcase_create("processes");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_suspend_resume);
    tcase_add_test(tc, test_interrupt_signal);
    tcase_add_test(tc, test_fifo_resource);
    tcase_add_test(tc, test_cancel_middle);
    tcase_add_test(tc, test_preempt);
    tcase_add_test(tc, test_barrier);
    tcase_add_test(tc, test_inline_hold);
    tcase_add_test(tc, test_proc_cancel);
    tcase_add_test(tc, test_mm1_rho05);
    tcase_add_test(tc, test_mm1_rho09);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
