/* tests/test_ev.c: the event kernel orders events by (time, insertion),
 * honours cancel and reschedule, survives sequence-number renumbering, and
 * stops at limits and on request. */
#include "core/ev.h"
#include "core/ev_check.h"
#include "core/rng.h"
#include "tests/testutil.h"

#include <stdlib.h>
#include <string.h>

#define N_EVENTS 100000

/* What each fired event records. */
static struct fired {
    double t;
    long key; /* order in which its (last) scheduling call was made */
} *log_;
static long nlog;
static long *key_of; /* key of event i's last scheduling call */

static void record(sim_t *sim, void *arg)
{
    long i = (long)(intptr_t)arg;
    log_[nlog].t = sim->now;
    log_[nlog].key = key_of[i];
    nlog++;
}

/* Expected order: (time, key) ascending. */
struct exp_ev {
    double t;
    long key;
};
static int cmp_exp(const void *a, const void *b)
{
    const struct exp_ev *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return (x->key > y->key) - (x->key < y->key);
}

START_TEST(test_order_cancel_reschedule)
{
    sim_t sim;
    ck_assert_int_eq(ev_init(&sim), 0);
    rng_t *r = rng_stream(42, "test", 0);
    log_ = calloc(N_EVENTS, sizeof *log_);
    key_of = calloc(N_EVENTS, sizeof *key_of);
    ev_id *ids = calloc(N_EVENTS, sizeof *ids);
    double *when = calloc(N_EVENTS, sizeof *when);
    bool *live = calloc(N_EVENTS, sizeof *live);
    long key = 0;
    nlog = 0;
    /* Times on a grid of 500 values: about 200 events share each time. */
    for (long i = 0; i < N_EVENTS; i++) {
        ids[i] = ev_new(&sim, record, (void *)(intptr_t)i);
        when[i] = (double)rng_index(r, 500) * 0.25;
        key_of[i] = key++;
        live[i] = true;
        ev_at(&sim, ids[i], when[i]);
    }
    ck_assert_uint_eq(ev_count(&sim), N_EVENTS);
    /* Cancel every 10th event, move every 7th (not cancelled) one. */
    long ncancel = 0;
    for (long i = 0; i < N_EVENTS; i++) {
        if (i % 10 == 3) {
            ev_cancel(&sim, ids[i]);
            live[i] = false;
            ncancel++;
        } else if (i % 7 == 2) {
            when[i] = (double)rng_index(r, 500) * 0.25;
            key_of[i] = key++;
            ev_at(&sim, ids[i], when[i]);
        }
    }
    ck_assert_uint_eq(ev_count(&sim), (size_t)(N_EVENTS - ncancel));
    struct exp_ev *exp = calloc(N_EVENTS, sizeof *exp);
    long nexp = 0;
    for (long i = 0; i < N_EVENTS; i++)
        if (live[i])
            exp[nexp++] = (struct exp_ev){when[i], key_of[i]};
    qsort(exp, nexp, sizeof *exp, cmp_exp);
    ck_assert_int_eq(ev_run(&sim, INFINITY), EV_RUN_EMPTY);
    ck_assert_int_eq(nlog, nexp);
    for (long k = 0; k < nexp; k++) {
        ck_assert_msg(log_[k].t == exp[k].t && log_[k].key == exp[k].key,
                      "event %ld: got (%g, %ld), expected (%g, %ld)", k,
                      log_[k].t, log_[k].key, exp[k].t, exp[k].key);
    }
    ck_assert_uint_eq(sim.dispatched, (uint64_t)nexp);
    ck_assert_uint_eq(sim.cancelled, (uint64_t)ncancel);
    free(exp);
    free(ids);
    free(when);
    free(live);
    free(log_);
    free(key_of);
    rng_free(r);
    ev_destroy(&sim);
}
END_TEST

START_TEST(test_seq_renumbering)
{
    /* Schedule across the 32-bit sequence wrap: order must be unchanged. */
    sim_t sim;
    ev_init(&sim);
    log_ = calloc(64, sizeof *log_);
    key_of = calloc(64, sizeof *key_of);
    nlog = 0;
    ev_test_set_seq(&sim, EV_SEQ_MASK - 20);
    for (long i = 0; i < 40; i++) {
        ev_id id = ev_new(&sim, record, (void *)(intptr_t)i);
        key_of[i] = i;
        ev_at(&sim, id, (double)(i % 3)); /* three times, many ties */
    }
    ev_run(&sim, INFINITY);
    ck_assert_int_eq(nlog, 40);
    /* Expected: all i%3==0 in i order, then i%3==1, then i%3==2. */
    long k = 0;
    for (int t = 0; t < 3; t++)
        for (long i = t; i < 40; i += 3, k++) {
            ck_assert_double_eq(log_[k].t, (double)t);
            ck_assert_int_eq(log_[k].key, i);
        }
    free(log_);
    free(key_of);
    ev_destroy(&sim);
}
END_TEST

static int count_calls;
static void count_cb(sim_t *sim, void *arg)
{
    (void)sim;
    (void)arg;
    count_calls++;
}
static void stopper(sim_t *sim, void *arg)
{
    (void)arg;
    ev_stop(sim);
}

START_TEST(test_limits_stop_oneshot)
{
    sim_t sim;
    ev_init(&sim);
    count_calls = 0;
    for (int i = 1; i <= 10; i++)
        ev_once(&sim, i, count_cb, NULL);
    ck_assert_uint_eq(sim.live_records, 10);
    /* Time limit: events at 1..4 run, clock advanced to 4.5. */
    ck_assert_int_eq(ev_run(&sim, 4.5), EV_RUN_LIMIT);
    ck_assert_int_eq(count_calls, 4);
    ck_assert_double_eq(sim.now, 4.5);
    /* Stop request from an event at 6.0 (scheduled after the one at 6). */
    ev_once(&sim, 6, stopper, NULL);
    ck_assert_int_eq(ev_run(&sim, INFINITY), EV_RUN_STOPPED);
    ck_assert_int_eq(count_calls, 6);
    ck_assert_double_eq(sim.now, 6);
    /* The signal-handler flag stops too. */
    ev_stop_flag = 1;
    ck_assert_int_eq(ev_run(&sim, INFINITY), EV_RUN_STOPPED);
    ck_assert_int_eq(count_calls, 6);
    ev_stop_flag = 0;
    /* Cancel a one-shot: it never fires and its record is freed. */
    ev_id x = ev_once(&sim, 8.5, count_cb, NULL);
    ev_cancel(&sim, x);
    ck_assert_int_eq(ev_run(&sim, INFINITY), EV_RUN_EMPTY);
    ck_assert_int_eq(count_calls, 10);
    ck_assert_uint_eq(sim.live_records, 0);
    ck_assert_double_eq(sim.now, 10);
    ev_destroy(&sim);
}
END_TEST

START_TEST(test_heap_bounded_under_churn)
{
    /* Rescheduling the same 100 events 100,000 times must not let stale
     * entries pile up: the heap stays within about twice the live count. */
    sim_t sim;
    ev_init(&sim);
    ev_id ids[100];
    for (int i = 0; i < 100; i++) {
        ids[i] = ev_new(&sim, count_cb, NULL);
        ev_at(&sim, ids[i], 1000.0 + i);
    }
    for (int k = 0; k < 100000; k++)
        ev_at(&sim, ids[k % 100], 500.0 + (k % 977));
    ck_assert_uint_eq(ev_count(&sim), 100);
    ck_assert_uint_le(sim.n, 2 * 100 + 64 + 1);
    count_calls = 0;
    ev_run(&sim, INFINITY);
    ck_assert_int_eq(count_calls, 100);
    ev_destroy(&sim);
}
END_TEST

START_TEST(test_pending_and_time)
{
    sim_t sim;
    ev_init(&sim);
    ev_id a = ev_new(&sim, count_cb, NULL);
    ck_assert(!ev_pending(&sim, a));
    ev_after(&sim, a, 2.5);
    ck_assert(ev_pending(&sim, a));
    ck_assert_double_eq(ev_time(&sim, a), 2.5);
    ck_assert_double_eq(ev_next_time(&sim), 2.5);
    ev_cancel(&sim, a);
    ck_assert(!ev_pending(&sim, a));
    ck_assert(ev_next_time(&sim) == INFINITY);
    ev_free(&sim, a);
    ck_assert_uint_eq(sim.live_records, 0);
    ev_destroy(&sim);
}
END_TEST

START_TEST(test_priority_classes)
{
    /* At one instant, classes run in order whatever the insertion order:
     * SCHED (key 0) inserted first, then ARRIVAL (1), then NORMAL (2), then
     * another NORMAL (3): run order 2, 3, 1, 0. An earlier time still wins
     * over a lower class. Renumbering keeps the classes. */
    sim_t sim;
    ev_init(&sim);
    log_ = calloc(8, sizeof *log_);
    key_of = calloc(8, sizeof *key_of);
    nlog = 0;
    ev_test_set_seq(&sim, EV_SEQ_MASK - 2);
    unsigned prio[5] = {EV_PRIO_SCHED, EV_PRIO_ARRIVAL, EV_PRIO_NORMAL, EV_PRIO_NORMAL,
                        EV_PRIO_LAST};
    double when[5] = {5, 5, 5, 5, 4};
    for (long i = 0; i < 5; i++) {
        key_of[i] = i;
        ev_at_prio(&sim, ev_new(&sim, record, (void *)(intptr_t)i), when[i], prio[i]);
    }
    ev_run(&sim, INFINITY);
    long expect[5] = {4, 2, 3, 1, 0};
    ck_assert_int_eq(nlog, 5);
    for (int k = 0; k < 5; k++)
        ck_assert_int_eq(log_[k].key, expect[k]);
    free(log_);
    free(key_of);
    ev_destroy(&sim);
}
END_TEST

START_TEST(test_large_queue_with_limits)
{
    /* 20,000 events (the kernel's large-queue mode) at random times on a
     * grid; run to t = 250 (half), then schedule 5,000 more, some exactly at
     * the current time and some among the pending ones; everything must
     * still come out in (time, insertion) order. */
    sim_t sim;
    ev_init(&sim);
    rng_t *r = rng_stream(9, "large", 0);
    enum { A = 20000, B = 5000 };
    log_ = calloc(A + B, sizeof *log_);
    key_of = calloc(A + B, sizeof *key_of);
    nlog = 0;
    struct exp_ev *exp = calloc(A + B, sizeof *exp);
    for (long i = 0; i < A; i++) {
        key_of[i] = i;
        exp[i] = (struct exp_ev){(double)rng_index(r, 1000) * 0.5, i};
        ev_at(&sim, ev_new(&sim, record, (void *)(intptr_t)i), exp[i].t);
    }
    ck_assert_int_eq(ev_run(&sim, 250), EV_RUN_LIMIT);
    for (long i = A; i < A + B; i++) {
        key_of[i] = i;
        double t = i % 3 == 0 ? sim.now : sim.now + (double)rng_index(r, 500) * 0.5;
        exp[i] = (struct exp_ev){t, i};
        ev_at(&sim, ev_new(&sim, record, (void *)(intptr_t)i), t);
    }
    ev_run(&sim, INFINITY);
    qsort(exp, A + B, sizeof *exp, cmp_exp);
    ck_assert_int_eq(nlog, A + B);
    for (long k = 0; k < A + B; k++)
        ck_assert_msg(log_[k].t == exp[k].t && log_[k].key == exp[k].key,
                      "event %ld: got (%g, %ld), expected (%g, %ld)", k, log_[k].t, log_[k].key,
                      exp[k].t, exp[k].key);
    free(exp);
    free(log_);
    free(key_of);
    rng_free(r);
    ev_destroy(&sim);
}
END_TEST

/* Dynamic model for test_dynamic_against_reference: events schedule,
 * move and cancel events from inside callbacks (the pattern of a process
 * model, where most new events are the next one). A reference list of
 * pending (time, key) pairs, scanned linearly, names the event that must
 * fire next. */
enum { DYN_N = 1200, DYN_STEPS = 60000 };
static struct dyn {
    sim_t *sim;
    rng_t *r;
    ev_id id[DYN_N];
    bool pending[DYN_N];
    double t[DYN_N];
    long key[DYN_N];
    long next_key;
    long fired, bad;
    long active; /* events 0..active-1 take part (grows, then shrinks) */
} dyn;

static void dyn_schedule(long i, double t)
{
    dyn.t[i] = t;
    dyn.key[i] = dyn.next_key++;
    dyn.pending[i] = true;
    ev_at(dyn.sim, dyn.id[i], t);
}

static void dyn_fire(sim_t *sim, void *arg)
{
    long i = (long)(intptr_t)arg;
    /* The reference's earliest pending event must be this one. */
    long best = -1;
    for (long k = 0; k < DYN_N; k++)
        if (dyn.pending[k] &&
            (best < 0 || dyn.t[k] < dyn.t[best] || (dyn.t[k] == dyn.t[best] && dyn.key[k] < dyn.key[best])))
            best = k;
    if (best != i || dyn.t[i] != sim->now)
        dyn.bad++;
    dyn.pending[i] = false;
    dyn.fired++;
    if (dyn.fired == DYN_STEPS / 2)
        dyn.active = DYN_N / 10; /* shrink: leave the large mode */
    if (dyn.fired >= DYN_STEPS)
        return;
    /* Itself again: mostly soon (often the next event), sometimes now. */
    unsigned long u = rng_index(dyn.r, 10);
    if (i < dyn.active)
        dyn_schedule(i, sim->now + (u < 3 ? 0.0 : u < 8 ? (double)rng_index(dyn.r, 4) * 0.125
                                                        : (double)rng_index(dyn.r, 200)));
    /* Another event: moved, cancelled or started. */
    long o = (long)rng_index(dyn.r, (unsigned long)dyn.active);
    u = rng_index(dyn.r, 4);
    if (u == 0) {
        ev_cancel(sim, dyn.id[o]);
        dyn.pending[o] = false;
    } else if (u == 1 || !dyn.pending[o]) {
        dyn_schedule(o, sim->now + (double)rng_index(dyn.r, 8) * 0.0625);
    }
}

START_TEST(test_dynamic_against_reference)
{
    sim_t sim;
    ev_init(&sim);
    memset(&dyn, 0, sizeof dyn);
    dyn.sim = &sim;
    dyn.r = rng_stream(5, "dynamic", 0);
    dyn.active = DYN_N;
    for (long i = 0; i < DYN_N; i++)
        dyn.id[i] = ev_new(&sim, dyn_fire, (void *)(intptr_t)i);
    for (long i = 0; i < DYN_N; i++)
        dyn_schedule(i, (double)rng_index(dyn.r, 50));
    ev_run(&sim, INFINITY);
    ck_assert_int_eq(dyn.bad, 0);
    ck_assert_int_ge(dyn.fired, DYN_STEPS);
    for (long i = 0; i < DYN_N; i++)
        ck_assert(!dyn.pending[i]);
    ck_assert_uint_eq(ev_count(&sim), 0);
    rng_free(dyn.r);
    ev_destroy(&sim);
}
END_TEST

START_TEST(test_pause)
{
    /* Ten events at times 1..10; pause_at = 4: ev_run dispatches four and
     * returns EV_RUN_PAUSED with the clock at 4; raised to 7, three more;
     * back to never, the rest, then EV_RUN_EMPTY. */
    sim_t sim;
    ev_init(&sim);
    ck_assert_uint_eq(sim.pause_at, UINT64_MAX);
    count_calls = 0;
    for (int i = 1; i <= 10; i++)
        ev_once(&sim, i, count_cb, NULL);
    sim.pause_at = 4;
    ck_assert_int_eq(ev_run(&sim, INFINITY), EV_RUN_PAUSED);
    ck_assert_int_eq(count_calls, 4);
    ck_assert_double_eq(sim.now, 4);
    sim.pause_at = 7;
    ck_assert_int_eq(ev_run(&sim, INFINITY), EV_RUN_PAUSED);
    ck_assert_int_eq(count_calls, 7);
    sim.pause_at = UINT64_MAX;
    ck_assert_int_eq(ev_run(&sim, INFINITY), EV_RUN_EMPTY);
    ck_assert_int_eq(count_calls, 10);
    ev_destroy(&sim);
}
END_TEST

/* ev_next_is: asked from inside callbacks of ev_run(sim, 10), with events
 * pending at 5 (normal) and, from the second callback on, at 3 (a later
 * class): a time strictly before every pending event and within the limit
 * is next; a tie, a later time, a time past the limit or a stop is not. */
static int next_calls;
static void next_probe(sim_t *sim, void *arg)
{
    (void)arg;
    next_calls++;
    if (next_calls == 1) { /* at t = 1; pending: 5 */
        ck_assert(ev_next_is(sim, 1));
        ck_assert(ev_next_is(sim, 4.5));
        ck_assert(!ev_next_is(sim, 5)); /* a tie: the pending one first */
        ck_assert(!ev_next_is(sim, 6));
        ev_skip_to(sim, 2);
        ck_assert_double_eq(sim->now, 2);
        ck_assert_uint_eq(sim->skipped, 1);
        ev_at_prio(sim, ev_once(sim, 3, count_cb, NULL), 3, EV_PRIO_LAST);
        ck_assert(!ev_next_is(sim, 3)); /* the class does not matter: a tie */
        ck_assert(ev_next_is(sim, 2.5));
    } else if (next_calls == 2) { /* at t = 5, the last event: limit 10 */
        ck_assert(ev_next_is(sim, 10));
        ck_assert(!ev_next_is(sim, 10.5));
        ev_stop(sim);
        ck_assert(!ev_next_is(sim, 6));
    }
}

START_TEST(test_next_is)
{
    sim_t sim;
    ev_init(&sim);
    next_calls = 0;
    count_calls = 0;
    ev_once(&sim, 1, next_probe, NULL);
    ev_once(&sim, 5, next_probe, NULL);
    ck_assert(!ev_next_is(&sim, 0.5)); /* outside ev_run: never */
    ck_assert_int_eq(ev_run(&sim, 10), EV_RUN_STOPPED);
    ck_assert_int_eq(next_calls, 2);
    ck_assert_int_eq(count_calls, 1);
    ck_assert(!ev_next_is(&sim, 6));
    ck_assert_uint_eq(sim.skipped, 1);
    ck_assert_uint_eq(sim.dispatched, 3);
    ev_destroy(&sim);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("ev");
    TCase *tc = tcase_create("kernel");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_order_cancel_reschedule);
    tcase_add_test(tc, test_seq_renumbering);
    tcase_add_test(tc, test_limits_stop_oneshot);
    tcase_add_test(tc, test_pause);
    tcase_add_test(tc, test_next_is);
    tcase_add_test(tc, test_heap_bounded_under_churn);
    tcase_add_test(tc, test_pending_and_time);
    tcase_add_test(tc, test_priority_classes);
    tcase_add_test(tc, test_large_queue_with_limits);
    tcase_add_test(tc, test_dynamic_against_reference);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
