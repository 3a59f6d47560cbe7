/* core/proc.h: processes: the model's actors, written as sequences of
 * activities (hold, request, release, wait, signal).
 *
 * A process is a stackless coroutine: a body function that is re-entered at
 * the point where it last gave up control, in the style of protothreads.
 * The PROC_* macros expand to `return` plus a `case` label, so a body reads
 * top to bottom:
 *
 *     static void customer(sim_t *sim, proc_t *p) {
 *         struct cust *c = (struct cust *)p;
 *         PROC_BEGIN(p);
 *         PROC_REQUEST(sim, p, &server);
 *         PROC_HOLD(sim, p, c->service);
 *         res_release(sim, &server, p);
 *         PROC_END(sim, p);
 *     }
 *
 * Rules of the style: variables that must survive an activity live in the
 * process's struct (which embeds proc_t as its first member), not on the C
 * stack; at most one PROC_* macro per source line; no PROC_* macro inside a
 * nested switch. A process switch is a plain function return and call: no
 * system call, no stack copying, no allocation.
 *
 * Each process owns one event record (its wake-up), created by proc_init and
 * released by proc_destroy, so holding and waking allocate nothing.
 *
 * Signals (after Cimba's cmb_process_hold): every hold ends with a signal
 * value, which the body reads in p->sig just after its PROC_HOLD: PROC_OK
 * (0) when the hold ran its course, or the value another party passed to
 * proc_interrupt, which ends the hold at once. The hold time left is kept
 * (proc_hold_left) and the body decides what to do with it. This is how
 * gang scheduling stops work: job_stop (sched/job.c) interrupts each
 * computing thread with PROC_STOPPED; the thread's hold returns that
 * signal and the thread waits for its job to run again.
 *
 * Suspension: a holding process can instead be suspended (proc_suspend);
 * it keeps the time it still had to hold and, when resumed (proc_resume),
 * wakes exactly that much later, continuing after its PROC_HOLD as if
 * nothing happened (its hold returns PROC_OK). This is how resource
 * preemption (res_preempt) pauses service and restarts it.
 */
#ifndef PNRSIM_CORE_PROC_H
#define PNRSIM_CORE_PROC_H

#include "core/ev.h"
#include "core/list.h"

typedef struct proc proc_t;

/* Signal values a hold ends with (p->sig). Models may use other nonzero
 * values of their own. */
#define PROC_OK 0           /* the hold ran its course (or a normal wake) */
#define PROC_STOPPED (-3)   /* the process's work was descheduled (job_stop) */
typedef void (*proc_body)(sim_t *sim, proc_t *p);

typedef enum {
    PROC_IDLE,         /* created, not started, or finished */
    PROC_READY,        /* wake-up scheduled at the current instant or later */
    PROC_HOLDING,      /* in PROC_HOLD, wake-up scheduled at wake_at */
    PROC_SUSPENDED,    /* hold suspended; `remaining` seconds left */
    PROC_WAITING,      /* queued on a resource or wait queue */
    PROC_RUNNING,      /* its body is executing */
    PROC_DONE          /* reached PROC_END */
} proc_state;

struct proc {
    proc_body body;
    ev_id ev;           /* the process's wake-up event */
    int pc;             /* resume point inside body (0 = start) */
    proc_state state;
    double wake_at;     /* when HOLDING: time the hold ends */
    double remaining;   /* when SUSPENDED, or after an interrupted hold:
                           hold time still owed */
    int sig;            /* how the last hold or wake ended: PROC_OK, or the
                           signal passed to proc_interrupt */
    list_t qlink;       /* its place in a wait queue (core/sync.h), or
                           unlinked */
};

/* Prepare p to run body. Allocates p's event record. */
void proc_init(sim_t *sim, proc_t *p, proc_body body);
/* Release p's event record. p must not be queued anywhere. */
void proc_destroy(sim_t *sim, proc_t *p);
/* Start (or restart from the top) at now + delay. */
void proc_start(sim_t *sim, proc_t *p, double delay);
/* Make a waiting process runnable at the current instant; it runs after
 * events already scheduled for this instant (FIFO). p->sig becomes
 * PROC_OK. */
void proc_wake(sim_t *sim, proc_t *p);

/* Begin a hold of dt seconds (used by PROC_HOLD); p->sig becomes PROC_OK.
 * Calling it again on a holding process moves the end of the hold. */
void proc_hold(sim_t *sim, proc_t *p, double dt);
/* Move the end of p's hold to dt seconds from now when p is holding (as
 * proc_hold), or, when p is suspended, to dt seconds after its resumption
 * (the hold time it owes becomes dt): a preempted process's work changed
 * (issue 33, sched/job_cost.c). */
void proc_rehold(sim_t *sim, proc_t *p, double dt);
/* proc_hold to the instant t (>= now) itself: wake_at is t bit for bit, not
 * now + (t - now), for a body that worked out its wake-up as a time (a
 * WHOLE route's arrival, net/net.c). Follow it with PROC_YIELD. */
void proc_hold_until(sim_t *sim, proc_t *p, double t);
/* PROC_HOLD's hold: when p is running and its wake-up at now + dt would be
 * the next event dispatched anyway (ev_next_is: everything pending is
 * strictly later, within the running ev_run's limit), the clock moves to
 * now + dt at once and true is returned, p->sig PROC_OK: the body goes on
 * without an event, and since no event could come between, nothing can
 * tell the difference (no one can interrupt or suspend the hold; the same
 * actions happen at the same times in the same order). Otherwise it is
 * proc_hold and false is returned. Exact (issue 11): fewer dispatches, the
 * same results. */
static inline bool proc_hold_inline(sim_t *sim, proc_t *p, double dt)
{
    double t = sim->now + dt;
    /* Only a running body holding itself with no wake-up pending (a
     * pending one would have to be moved, ordered after the others). */
    if (p->state == PROC_RUNNING && !ev_pending(sim, p->ev) && dt >= 0 &&
        ev_next_is(sim, t)) {
        p->sig = PROC_OK;
        p->wake_at = t;
        ev_skip_to(sim, t);
        return true;
    }
    proc_hold(sim, p, dt);
    return false;
}
/* End p's hold now with signal sig (nonzero): p's wake-up is cancelled, the
 * hold time it still had is kept in p->remaining, and p is woken at the
 * current instant, after events already scheduled for it (FIFO); its
 * PROC_HOLD then returns with p->sig == sig. Returns true when p was
 * holding; false (no effect) otherwise. */
bool proc_interrupt(sim_t *sim, proc_t *p, int sig);
/* Suspend a holding process: its wake-up is cancelled and the remaining
 * hold time kept; its body does not run until proc_resume. Returns true
 * when p was holding; false (no effect) otherwise. */
bool proc_suspend(sim_t *sim, proc_t *p);
/* Resume a suspended process: it wakes after its remaining hold time, its
 * hold returning PROC_OK. */
void proc_resume(sim_t *sim, proc_t *p);
/* Stop p from outside, wherever it is not queued: its pending wake-up, if
 * any (a start, a hold's end, a wake by proc_wake or a grant, an
 * interrupt), is cancelled, so its body does not run again, and p becomes
 * PROC_IDLE, to be started again from the top by proc_start. p must not be
 * on a wait queue (take it off first: res_cancel, waitq_remove) and must
 * not be running; what it holds (resources) is the caller's to give back.
 * Its other fields (wake_at, remaining, sig, pc) are left as they were, so
 * the caller may read them before or after. No effect on an idle or
 * finished p other than making it PROC_IDLE. This is how the network kills
 * a message in flight (net_kill). */
void proc_cancel(sim_t *sim, proc_t *p);
/* Seconds of hold left: wake_at - now when holding, remaining when
 * suspended or just after an interrupted hold (p->sig != PROC_OK), 0
 * otherwise. */
double proc_hold_left(const sim_t *sim, const proc_t *p);

#define PROC_BEGIN(p) switch ((p)->pc) { case 0:
#define PROC_END(sim, p)                                                       \
    }                                                                          \
    (p)->pc = -1;                                                              \
    (p)->state = PROC_DONE;                                                    \
    return
/* Yield control: give up the CPU of the simulator and continue at the
 * next line when woken (proc_wake) or resumed. */
#define PROC_YIELD(p)                                                          \
    do {                                                                       \
        (p)->pc = __LINE__;                                                    \
        return;                                                                \
    case __LINE__:;                                                            \
    } while (0)
/* Hold dt seconds of simulated time; afterwards p->sig says how the hold
 * ended (PROC_OK, or the signal of proc_interrupt). */
#define PROC_HOLD(sim, p, dt)                                                  \
    do {                                                                       \
        if (!proc_hold_inline((sim), (p), (dt)))                               \
            PROC_YIELD(p);                                                     \
    } while (0)
#define PROC_REQUEST(sim, p, r)                                                \
    do {                                                                       \
        if (!res_request((sim), (r), (p)))                                     \
            PROC_YIELD(p);                                                     \
    } while (0)
#define PROC_WAIT(sim, p, q)                                                   \
    do {                                                                       \
        waitq_wait((sim), (q), (p));                                           \
        PROC_YIELD(p);                                                         \
    } while (0)
/* Wait on q until cond holds: cond is tested first (no wait when it already
 * holds) and again after every wake-up, so a wake with cond still false
 * waits again. */
#define PROC_WAIT_UNTIL(sim, p, q, cond)                                       \
    while (!(cond))                                                            \
    PROC_WAIT(sim, p, q)

#endif
