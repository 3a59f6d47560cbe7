/* core/ev.h: the event kernel: simulated clock and future-event set.
 *
 * Simulated time is a double in seconds. Events are ordered by time, then by
 * the order in which they were scheduled: two events at the same instant are
 * dispatched in the order their ev_at/ev_after calls were made, so every run
 * is reproducible.
 *
 * An event is a small record owned by the kernel and named by an ev_id. It
 * carries a callback and an argument; scheduling it puts a 16-byte entry
 * (time, sequence, id) into a 4-ary heap, or into a one-entry slot in front
 * of the heap when it is earlier than everything pending. An event may be scheduled, moved
 * (rescheduled) and cancelled any number of times; moving or cancelling
 * leaves the old heap entry behind as "stale", recognised by its sequence
 * number when it surfaces and dropped without being dispatched. Stale entries
 * are swept out when they outnumber the live ones, so the heap never holds
 * more than about twice the pending events.
 *
 * Records are recycled through a free list and the heap grows by doubling:
 * in steady state no call here allocates memory.
 */
#ifndef PNRSIM_CORE_EV_H
#define PNRSIM_CORE_EV_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

typedef struct sim sim_t;
typedef uint32_t ev_id;
#define EV_NONE UINT32_MAX

/* Callback run when an event fires; sim->now is the event's time. */
typedef void (*ev_fn)(sim_t *sim, void *arg);

/* One heap entry: 16 bytes, compared by (t, seq). */
typedef struct ev_entry {
    double t;
    uint32_t seq;
    ev_id id;
} ev_entry;

/* One event record. seq is the sequence number of its live heap entry, or 0
 * when the event is not pending. */
typedef struct ev_rec {
    ev_fn fn;
    void *arg;
    union {
        double t;      /* time it is scheduled for, when pending */
        uint32_t next; /* free-list link, when free */
    } u;
    uint32_t seq;
    uint32_t flags;
} ev_rec;              /* 32 bytes: with the array 64-byte aligned, one
                        * record never straddles two cache lines */

/* Why ev_run returned. */
typedef enum {
    EV_RUN_EMPTY = 0,   /* no events remain */
    EV_RUN_LIMIT = 1,   /* the next event lies beyond the time limit */
    EV_RUN_STOPPED = 2, /* ev_stop() or the stop flag was set */
    EV_RUN_PAUSED = 3   /* `dispatched` reached `pause_at` (see ev_run) */
} ev_run_result;

struct sim {
    double now;                 /* the simulated clock, seconds */
    ev_entry slot;              /* the earliest entry, when `slotted` */
    bool slotted;               /* slot holds an entry (<= all others) */
    ev_entry *heap;             /* 4-ary min-heap on (t, seq) */
    size_t n, cap;              /* entries in heap (live + stale), capacity */
    size_t stale;               /* entries whose record has moved on */
    size_t nb;                  /* entries in the radix buckets (large mode) */
    struct ev_radix *rq;        /* radix buckets, NULL in heap-only mode */
    ev_rec *rec;                /* records, indexed by ev_id */
    uint32_t nrec, caprec;      /* records ever created, capacity */
    uint32_t free_head;         /* free-list head, EV_NONE if empty */
    uint32_t seq;               /* next sequence counter, 1..EV_SEQ_MASK */
    bool stop;                  /* set by ev_stop(); ends ev_run */
    /* kernel statistics */
    uint64_t dispatched;        /* events taken from the queue and run */
    uint64_t scheduled;         /* ev_at/ev_after calls */
    uint64_t cancelled;         /* ev_cancel calls on pending events */
    size_t peak_pending;        /* most events pending at once */
    uint32_t live_records;      /* records allocated and not freed */
    size_t daemons;             /* pending daemon events */
    uint64_t pause_at;          /* ev_run pauses when dispatched reaches it
                                 * (UINT64_MAX, the default: never) */
    double until;               /* the running ev_run's limit; -inf outside
                                 * ev_run (nothing may skip ahead then) */
    uint64_t skipped;           /* holds taken inline (ev_skip_to), not
                                 * dispatched: see ev_next_is */
    /* ev_poll: called with the kernel every EV_POLL_WORK units of work done
     * inside one event (NULL: none); set by the program (app/run.c: the
     * progress line); it must change nothing in the run */
    void (*on_poll)(sim_t *sim, void *ctx);
    void *poll_ctx;
    uint64_t poll_work;         /* work counted since its last call */
};

/* A flag a signal handler may set; ev_run checks it before every event and
 * returns EV_RUN_STOPPED when it is non-zero. */
extern volatile sig_atomic_t ev_stop_flag;

/* Work units (about one look at a PE or a job each) between two calls of
 * on_poll from ev_poll. */
#define EV_POLL_WORK ((uint64_t)1 << 20)

/* For long computations inside one event (a placement pass over many jobs,
 * the arrivals of one instant): count `work` units done, call on_poll
 * every EV_POLL_WORK of them, and return true when the stop flag is set,
 * so that the caller may stop at a point where its state is consistent
 * (the run is then being interrupted and its results are partial). Never
 * changes the run otherwise. */
static inline bool ev_poll(sim_t *sim, uint64_t work)
{
    sim->poll_work += work;
    if (sim->poll_work >= EV_POLL_WORK) {
        sim->poll_work = 0;
        if (sim->on_poll)
            sim->on_poll(sim, sim->poll_ctx);
    }
    return ev_stop_flag != 0;
}

/* Initialise an empty kernel with the clock at 0. Returns 0, or -1 when out
 * of memory. */
int ev_init(sim_t *sim);
/* Free everything the kernel holds. */
void ev_destroy(sim_t *sim);

/* Create an event record that calls fn(sim, arg) each time it fires. The
 * record lives until ev_free. Aborts when out of memory. */
ev_id ev_new(sim_t *sim, ev_fn fn, void *arg);
/* Release a record (cancelling it if pending); its id may be reused. */
void ev_free(sim_t *sim, ev_id id);
/* Change the callback argument of a record. */
void ev_set_arg(sim_t *sim, ev_id id, void *arg);

/* Schedule id at absolute time t (t >= now). If it was pending it is moved:
 * it then fires only at t, ordered after everything scheduled before this
 * call. */
void ev_at(sim_t *sim, ev_id id, double t);
/* Priority classes for events at the same instant: lower classes run
 * first, whatever the insertion order; within a class, insertion order.
 * The class is folded into the top bits of the sequence number, so the
 * heap compares nothing more. */
enum {
    EV_PRIO_NORMAL = 0,   /* model events: completions, messages, faults */
    EV_PRIO_ARRIVAL = 1,  /* job arrivals: after completions at an instant */
    EV_PRIO_SCHED = 2,    /* scheduler pass: once all else at the instant */
    EV_PRIO_LAST = 3      /* observers: samplers, progress */
};
#define EV_PRIO_SHIFT 30
#define EV_SEQ_MASK ((1u << EV_PRIO_SHIFT) - 1)
/* Schedule id at absolute time t in priority class prio (EV_PRIO_*). */
void ev_at_prio(sim_t *sim, ev_id id, double t, unsigned prio);
/* Schedule id at now + delay (delay >= 0). */
void ev_after(sim_t *sim, ev_id id, double delay);
/* One-shot event: a record that is freed after it fires (or is cancelled).
 * Returns its id. */
ev_id ev_once(sim_t *sim, double t, ev_fn fn, void *arg);
/* Mark id as a daemon: a pending daemon event does not keep ev_run going
 * (samplers, progress reports). ev_run returns EV_RUN_EMPTY when only
 * daemon events remain, without dispatching them. */
void ev_set_daemon(sim_t *sim, ev_id id);
/* Cancel a pending event; no effect if it is not pending. For a one-shot
 * event this also frees it. */
void ev_cancel(sim_t *sim, ev_id id);
/* True when id is scheduled. */
static inline bool ev_pending(const sim_t *sim, ev_id id)
{
    return sim->rec[id].seq != 0;
}
/* Time id is scheduled for (only meaningful when pending). */
double ev_time(const sim_t *sim, ev_id id);
/* Number of pending events (daemons included). */
size_t ev_count(const sim_t *sim);
/* Time of the earliest pending event, or +inf when none. Drops stale
 * entries it finds at the top. */
double ev_next_time(sim_t *sim);

/* Exact shortcut for a hold that is the next event anyway (issue 11): true
 * when an event scheduled now for time t in class EV_PRIO_NORMAL would be
 * the next one ev_run dispatches: every pending event (daemons such as the
 * sampler included) is strictly later than t, t is within the running
 * ev_run's limit, and no stop was asked. The caller, a callback that would
 * schedule that event and return, may instead advance the clock to t with
 * ev_skip_to and go on at once: the same actions happen at the same times
 * in the same order (only the sequence numbers of later events shift, all
 * by the same amount, which keeps their order). False outside ev_run. */
static inline bool ev_next_is(sim_t *sim, double t);
/* ev_next_is after dropping stale entries from the top (its slow path). */
bool ev_next_is_settle(sim_t *sim, double t);
/* Advance the clock to t (t >= now) after ev_next_is(sim, t) said yes;
 * counts sim->skipped. */
static inline void ev_skip_to(sim_t *sim, double t)
{
    sim->now = t;
    sim->skipped++;
}
static inline bool ev_next_is(sim_t *sim, double t)
{
    /* Inline for the hot path (every PROC_HOLD asks): with no stale entry
     * anywhere, the slot entry, else the heap top, is the earliest pending
     * one (the heap top is not later than any radix bucket entry); only
     * with stale entries, or entries in buckets alone, is the top settled
     * first. */
    if (sim->stale == 0 && !sim->stop && !ev_stop_flag && t <= sim->until) {
        if (sim->slotted)
            return t < sim->slot.t;
        if (sim->n)
            return t < sim->heap[0].t;
        if (sim->nb == 0)
            return true;
    }
    return ev_next_is_settle(sim, t);
}

/* Dispatch events in order until none remain, the next one lies beyond
 * `until` (the clock is then advanced to `until`), a stop is requested, or
 * sim->dispatched reaches sim->pause_at (EV_RUN_PAUSED: the caller may look
 * at the run, e.g. its event rate, and call ev_run again to continue).
 * Pass INFINITY for no limit. */
ev_run_result ev_run(sim_t *sim, double until);
/* Ask ev_run to return before dispatching another event. */
void ev_stop(sim_t *sim);

#endif
