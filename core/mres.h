/* core/mres.h: multi-server resources: c identical servers with one FIFO
 * queue (the M/./c station of queueing theory), on which an SSD with c
 * requests in service at once is built (hw/pe.h, computer.swap = SSD).
 *
 * A process asks for a server with PROC_MREQUEST (mres_request); it gets
 * one at once when fewer than c are busy, otherwise it joins the tail of
 * the queue and is woken, owning a server, when its turn comes. The
 * servers are not told apart (nobody needs to know which one): the
 * resource counts how many are busy, so a request or a release costs
 * O(1) and allocates nothing. Unlike core/res.h there is no preemption.
 *
 * Statistics: requests, completions, the time at least one server is
 * busy, the busy server-seconds (the integral of the number busy; its
 * time average is the mean number busy, and utilisation = server-seconds
 * / (c * elapsed)), and the queue length as a time average with its
 * maximum. With c = 1 these are res_t's busy time and queue.
 */
#ifndef PNRSIM_CORE_MRES_H
#define PNRSIM_CORE_MRES_H

#include "core/proc.h"
#include "core/stats.h"
#include "core/sync.h"

#include <stdint.h>

typedef struct mres {
    const char *name;
    int c;                    /* servers, >= 1 */
    int nbusy;                /* servers in service now, 0..c */
    waitq_t q;                /* waiting processes, FIFO (q.n of them) */
    double busy_since;        /* when nbusy > 0: since when (the last 0 -> 1) */
    double busy;              /* time with nbusy > 0, until busy_since */
    uint64_t requests, completions;
    timeavg_t inuse;          /* nbusy over time: area = busy server-seconds */
    timeavg_t queue;          /* queue length over time */
} mres_t;

/* Initialise r with c >= 1 idle servers at the current time. */
void mres_init(sim_t *sim, mres_t *r, const char *name, int c);
/* Ask for one of r's servers on behalf of p. Returns true when p now has
 * one; false when p was queued (it will be woken holding one, FIFO). */
bool mres_request(sim_t *sim, mres_t *r, proc_t *p);
/* A holder gives its server back: the head of the queue (if any) gets it
 * at once (woken at the current instant), otherwise the server idles. */
void mres_release(sim_t *sim, mres_t *r);
/* Remove p from r's queue without waking it (its process is being
 * killed, sched/job_limit.c). p must be on r's queue or on none; returns
 * true when it was on r's. O(1). */
bool mres_cancel(sim_t *sim, mres_t *r, proc_t *p);
/* Time at least one server was busy, up to now. */
double mres_busy_time(const sim_t *sim, const mres_t *r);
/* Busy server-seconds up to now (the integral of the number busy). */
double mres_server_time(const sim_t *sim, const mres_t *r);
/* Mean number of busy servers since mres_init (0 at that instant). */
double mres_mean_busy(const sim_t *sim, const mres_t *r);
/* Busy server-seconds / (c * time since mres_init); 0 at that instant. */
double mres_utilization(const sim_t *sim, const mres_t *r);

/* Batched paging (sched/batch.c): n requests served one after the other
 * while nobody else used r, busy seconds in all, counted as if each had
 * been requested, served on an idle server and released (requests,
 * completions, busy time, busy server-seconds). r must have no server
 * busy and nobody queued. */
void mres_account(mres_t *r, uint64_t n, double busy);
/* Batched paging: n services done while nobody else used r, each on a
 * second server beside a service mres_account (or a held server) already
 * counts, all inside its busy time (a dirty page's write beside the read
 * of its fault, hw/swap.h): counted as requests and completions, their
 * `area` server-seconds as busy server-seconds, and 2 servers at the most
 * busy; r's busy time (some server busy) does not change. r must have no
 * server busy and nobody queued; c >= 2. */
void mres_account_beside(mres_t *r, uint64_t n, double area);
/* Batched paging: p (unnamed: servers are not told apart) holds one of
 * r's servers since `since` <= now, as if mres_request had granted it
 * then; it gives it back with mres_release. r must have a server idle and
 * nobody queued; when some are busy, since is no earlier than the busy
 * period's start (the batch's write and read, taken at the same instant). */
void mres_take_since(sim_t *sim, mres_t *r, double since);

/* Like PROC_REQUEST for a multi-server resource. */
#define PROC_MREQUEST(sim, p, r)                                               \
    do {                                                                       \
        if (!mres_request((sim), (r), (p)))                                    \
            PROC_YIELD(p);                                                     \
    } while (0)

#endif
