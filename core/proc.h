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
 * Interruption: a process that is holding can be interrupted
 * (proc_interrupt); it keeps the time it still had to hold and, when
 * resumed (proc_resume), wakes exactly that much later, continuing after
 * its PROC_HOLD as if nothing happened. This is how gang scheduling and
 * resource preemption stop and restart work.
 */
#ifndef PNRSIM_CORE_PROC_H
#define PNRSIM_CORE_PROC_H

#include "core/ev.h"

typedef struct proc proc_t;
typedef void (*proc_body)(sim_t *sim, proc_t *p);

typedef enum {
    PROC_IDLE,         /* created, not started, or finished */
    PROC_READY,        /* wake-up scheduled at the current instant or later */
    PROC_HOLDING,      /* in PROC_HOLD, wake-up scheduled at wake_at */
    PROC_INTERRUPTED,  /* hold suspended; `remaining` seconds left */
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
    double remaining;   /* when INTERRUPTED: hold time still owed */
    proc_t *qnext;      /* intrusive link for resource and wait queues */
    void *owner;        /* free for the model (e.g. the thread's job) */
};

/* Prepare p to run body. Allocates p's event record. */
void proc_init(sim_t *sim, proc_t *p, proc_body body);
/* Release p's event record. p must not be queued anywhere. */
void proc_destroy(sim_t *sim, proc_t *p);
/* Start (or restart from the top) at now + delay. */
void proc_start(sim_t *sim, proc_t *p, double delay);
/* Make a waiting process runnable at the current instant; it runs after
 * events already scheduled for this instant (FIFO). */
void proc_wake(sim_t *sim, proc_t *p);

/* Begin a hold of dt seconds (used by PROC_HOLD). */
void proc_hold(sim_t *sim, proc_t *p, double dt);
/* Interrupt a holding process. Returns true and keeps the remaining hold
 * time if p was holding; false (no effect) otherwise. */
bool proc_interrupt(sim_t *sim, proc_t *p);
/* Resume an interrupted process: it wakes after its remaining hold time. */
void proc_resume(sim_t *sim, proc_t *p);
/* Seconds of hold left: wake_at - now when holding, remaining when
 * interrupted, 0 otherwise. */
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
#define PROC_HOLD(sim, p, dt)                                                  \
    do {                                                                       \
        proc_hold((sim), (p), (dt));                                           \
        PROC_YIELD(p);                                                         \
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

#endif
