/* net/whole.c: route mode WHOLE (net/whole.h, issue 11): an uncontended
 * route taken as one step. Above net/elem.c and net/batched.c (a WHOLE
 * route in a batched run meets virtual crossings and switch backlogs);
 * below the message walk (net/net.c).
 *
 * A message that starts on an idle route reserves each element for its
 * store-and-forward interval [rs, re] (route_reserve): the element's
 * holder is the message from then on, so anyone reaching it before re
 * queues behind the reservation. Nothing happens at rs or re unless it
 * must: a reservation nobody waits behind is finished lazily, by the
 * next message that looks at the element (resv_settle) or by its own
 * message's arrival (whole_arrive); one that someone waits behind gets a
 * one-shot event at re that hands the element over (resv_end_at); with
 * an observer installed, every reservation's start and end are events,
 * so the observer is told busy and idle at the right instants. Busy time
 * counts [rs, re] up to now (net_elem_busy_time); a killed message gives
 * its reservations back (whole_kill). docs/MODEL.md says where this
 * differs from HOPS, and docs/BATCHING.md shows the 20-seed comparison.
 *
 * Where the walk (net/net.c, msg_walk) calls in:
 *   1. at a message's start in route mode WHOLE (net->whole.mode):
 *      whole_reserve, and when its route was reserved, whole_arrive at its
 *      arrival (its one event);
 *   2. at each hop of a hop-by-hop walk, only when the element is
 *      reserved (e->whole.resv): whole_wait_behind, and again after a
 *      virtual wait (batched paging);
 *   3. net_kill of a message with a reserved route (m->whole.reserved):
 *      whole_kill;
 *   4. net_destroy: whole_cancel_events on every element;
 *   5. net_elem_busy_time (net/net.c), for a reserved element:
 *      whole_resv_busy;
 *   6. the hardware report (net/report.c): whole_resv_done, a crossing
 *      over but not yet settled.
 * The state is in the elements', messages' and network's `whole` members
 * (net/approx.h).
 */
#include "net/batched.h"
#include "net/internal.h"
#include "net/msg.h"
#include "net/whole.h"

#include <assert.h>

void net_set_route_mode(net_t *net, net_route_mode mode) { net->whole.mode = mode; }
net_route_mode net_route_mode_of(const net_t *net) { return net->whole.mode; }
uint64_t net_whole_routes(const net_t *net) { return net->whole.routes; }
uint64_t net_held_back(const net_t *net) { return net->whole.held_back; }

const char *net_route_mode_name(net_route_mode mode)
{
    return mode == NET_ROUTE_WHOLE ? "whole" : "hops";
}

int whole_resv_done(const sim_t *sim, const net_elem *e, double *bytes)
{
    const net_elem_whole *w = &e->whole;
    int done = w->resv && w->re <= sim->now;
    *bytes = done ? w->resv->bytes : 0;
    return done;
}

double whole_resv_busy(const sim_t *sim, const net_elem *e)
{
    const net_elem_whole *w = &e->whole;
    double end = sim->now < w->re ? sim->now : w->re;
    return end > w->rs ? end - w->rs : 0;
}

/* Tell the observer, if any, that e becomes busy or idle now. */
static inline void net_tell(sim_t *sim, const net_t *net, const net_elem *e, bool busy)
{
    if (net->obs && net->obs->busy)
        net->obs->busy(sim, e, busy, net->obs->ctx);
}

/* Cancel the pending events of e's reservation (one-shot events: a
 * cancelled or fired one is gone, hence EV_NONE). */
void whole_cancel_events(sim_t *sim, net_elem *e)
{
    if (e->whole.rel_ev != EV_NONE)
        ev_cancel(sim, e->whole.rel_ev);
    if (e->whole.busy_ev != EV_NONE)
        ev_cancel(sim, e->whole.busy_ev);
    e->whole.rel_ev = e->whole.busy_ev = EV_NONE;
}

/* End e's reservation: busy time up to t_end (none when the reservation had
 * not begun by then), one crossing counted when `crossed`, and the element
 * goes to the first message waiting behind it (at once: t_end is now when
 * someone waits) or becomes idle. The reservation's pending events are
 * cancelled. */
static void resv_finish(sim_t *sim, net_t *net, net_elem *e, double t_end, bool crossed)
{
    msg_t *m = e->whole.resv;
    res_t *r = &e->res;
    assert(m && r->holder == &m->p);
    whole_cancel_events(sim, e);
    if (t_end > e->whole.rs)
        r->busy += t_end - e->whole.rs;
    if (crossed) {
        e->messages++;
        e->bytes += m->bytes;
    }
    r->completions++;
    r->holder = NULL;
    e->whole.resv = NULL;
    bool told = e->whole.told;
    e->whole.told = false;
    proc_t *next = waitq_pop(&r->q);
    if (next) { /* as res_release: the next waiter holds it from now */
        assert(t_end == sim->now);
        timeavg_set(&r->queue, sim->now, r->q.n);
        r->holder = next;
        r->busy_since = sim->now;
        proc_wake(sim, next);
        if (!told) /* killed before its turn: busy from now, for next */
            net_tell(sim, net, e, true);
    } else if (told) {
        net_tell(sim, net, e, false);
    }
}

/* An ended reservation nobody waits behind is finished lazily, by the
 * next one to look at the element (no event was needed for it). */
static void resv_settle(sim_t *sim, net_t *net, net_elem *e)
{
    if (e->whole.resv && e->whole.re <= sim->now && e->res.q.n == 0)
        resv_finish(sim, net, e, e->whole.re, true);
}

/* Events of a reservation (observer, or someone waiting): its end... */
static void resv_end_ev(sim_t *sim, void *arg)
{
    net_elem *e = arg;
    e->whole.rel_ev = EV_NONE; /* fired */
    assert(e->whole.resv && e->whole.re == sim->now);
    resv_finish(sim, e->net, e, e->whole.re, true);
}

/* ... and, for the observer, its start. */
static void resv_busy_ev(sim_t *sim, void *arg)
{
    net_elem *e = arg;
    e->whole.busy_ev = EV_NONE; /* fired */
    assert(e->whole.resv && !e->whole.told);
    e->whole.told = true;
    net_tell(sim, e->net, e, true);
}

/* Schedule e's reservation end as an event (once; a one-shot event, so
 * the records the network keeps are still one per pooled message). */
static void resv_end_at(sim_t *sim, net_elem *e)
{
    if (e->whole.rel_ev == EV_NONE)
        e->whole.rel_ev = ev_once(sim, e->whole.re, resv_end_ev, e);
}

/* A message walking hop by hop about to ask for element e, reserved: an
 * ended reservation gives e back; one still running (or not yet begun)
 * makes the message wait behind it, until its end, which is then an event
 * (resv_end_at): without it the waiter would be handed e only when the
 * reserving message arrives, after the reservation's end. */
void whole_wait_behind(sim_t *sim, net_t *net, msg_t *m, net_elem *e)
{
    assert(e->whole.resv);
    resv_settle(sim, net, e);
    if (e->whole.resv) {
        resv_end_at(sim, e);
        /* HOPS would let it overtake; counted once per reservation
         * (the second look after a virtual wait may find the same). */
        if (e->whole.rs > sim->now && m->whole.behind_rs != e->whole.rs) {
            net->whole.held_back++;
            m->whole.behind_rs = e->whole.rs;
        }
    }
}

/* WHOLE, at m's start: reserve its route when every element is idle and
 * return its arrival time; return -1 (nothing changed but lazy settling)
 * when one is not. */
double whole_reserve(sim_t *sim, net_t *net, msg_t *m)
{
    int len = net_route_len(net, m->src, m->dst);
    if (len == 0)
        return -1;
    double at = sim->now;
    for (int k = 0; k < len; k++) {
        net_elem *e = net_route_elem(net, m->src, m->dst, k);
        resv_settle(sim, net, e);
        if (e->res.holder || e->res.q.n)
            return -1;
        /* A link crossed virtually when the message would reach it
         * (batched paging): walk hop by hop, which waits for it. */
        if (!list_empty(&e->batched.vusers) && net_virtual_busy(e, at) > at)
            return -1;
        /* A switch with batched crossings or a backlog of them: its wait
         * is worked out on the way. */
        if (e->is_switch && net->batched.vrng &&
            (e->batched.vrate > 0 || net_switch_backlog(e, at) >= NET_VWAIT_MIN))
            return -1;
        at += net_msg_time(e, m);
    }
    bool eager = net->obs != NULL;
    double t = sim->now;
    for (int k = 0; k < len; k++) {
        net_elem *e = net_route_elem(net, m->src, m->dst, k);
        res_t *r = &e->res;
        r->requests++;
        r->holder = &m->p;
        r->busy_since = t;
        e->whole.resv = m;
        e->whole.rs = t;
        if (net->batched.vrng) {
            /* Batched paging: into the messages' load as of now (the
             * window never runs ahead of the clock), and a switch's
             * crossing into its (empty) backlog. */
            net_rload_add(e, sim->now, net_msg_time(e, m));
            if (e->is_switch) {
                e->batched.fu = net_msg_time(e, m);
                e->batched.fu_t = t;
            }
        }
        t += net_msg_time(e, m); /* as a walk on an idle route */
        e->whole.re = t;
        e->whole.told = false;
        if (eager) {
            if (k == 0) {
                e->whole.told = true;
                net_tell(sim, net, e, true);
            } else {
                e->whole.busy_ev = ev_once(sim, e->whole.rs, resv_busy_ev, e);
            }
            resv_end_at(sim, e);
        }
    }
    m->whole.reserved = true;
    net->whole.routes++;
    return t;
}

/* WHOLE, at m's arrival: end the reservations it still has (all over). */
void whole_arrive(sim_t *sim, net_t *net, msg_t *m)
{
    int len = net_route_len(net, m->src, m->dst);
    for (int k = 0; k < len; k++) {
        net_elem *e = net_route_elem(net, m->src, m->dst, k);
        if (e->whole.resv == m) {
            assert(e->whole.re <= sim->now);
            resv_finish(sim, net, e, e->whole.re, true);
        }
    }
    m->hop = len;
    m->whole.reserved = false;
}

/* WHOLE: m, killed, gives back every element it still reserves: a
 * crossing over is counted, one under way counts busy time up to now, one
 * not begun none (its next waiter takes the element at once). */
void whole_kill(sim_t *sim, net_t *net, msg_t *m)
{
    int len = net_route_len(net, m->src, m->dst);
    for (int k = 0; k < len; k++) {
        net_elem *e = net_route_elem(net, m->src, m->dst, k);
        if (e->whole.resv != m)
            continue;
        const net_elem_whole *w = &e->whole;
        if (e->is_switch && net->batched.vrng && w->re > sim->now) /* out of its backlog */
            net_backlog_drop(e, sim->now, w->rs > sim->now ? w->re - w->rs : w->re - sim->now);
        if (e->whole.re <= sim->now)
            resv_finish(sim, net, e, e->whole.re, true);
        else
            resv_finish(sim, net, e, sim->now, false);
    }
    m->whole.reserved = false;
}
