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
 * one-shot event at re that hands the element over (resv_end_at). An
 * observer changes none of this (issue 32): a reservation's busy and idle
 * instants are notes the network keeps for it, told in time order later
 * ("the observer's notes" below), never events. Busy time
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
 *      over but not yet settled;
 *   7. with an observer, before the walk tells it of a hop:
 *      whole_tell_now (the notes due first).
 * The state is in the elements', messages' and network's `whole` members
 * (net/approx.h).
 */
#include "net/batched.h"
#include "net/internal.h"
#include "net/msg.h"
#include "net/whole.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

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

/* ---- the observer's notes --------------------------------------------------
 *
 * Issue 32: the observer once had a reservation's start and end as events
 * of their own (scheduled when the route was reserved), and the end event
 * also handed the element over. An end that someone waits behind is
 * otherwise scheduled when the first waiter arrives (resv_end_at), so
 * with an observer the hand-overs of one instant came in another order
 * (a FIFO queue at a switch then differed), and the extra events changed
 * the events counted and which holds were taken inline. Now nothing is
 * scheduled for the observer: the model runs exactly as unobserved, and
 * the instants the observer must hear are notes in a heap on (t, seq),
 * told in that order (each with its own t) when the network next tells
 * the observer anything, when a reservation ends or is cut (resv_finish),
 * at a new reservation, or when the observer asks (net_observe_step,
 * which the schedule writer calls before writing any line at a later
 * time). A note belongs to a reservation of its element (note_gen); when
 * the reservation ends its notes still pending are dropped and the
 * observer is told the element's state from then (resv_finish). The heap
 * grows by doubling and is emptied as time passes: no allocation per
 * event in steady state. Without an observer none of this runs. */
struct whole_note {
    double t;
    uint64_t seq;
    net_elem *e;
    uint32_t gen;   /* e->whole.note_gen when made */
    bool busy;
};

static bool note_before(const whole_note *a, const whole_note *b)
{
    return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

/* Add a note that e becomes busy (or idle) at t. */
static void note_push(net_t *net, net_elem *e, double t, bool busy)
{
    net_whole_state *w = &net->whole;
    if (w->nnotes == w->capnotes) {
        size_t cap = w->capnotes ? 2 * w->capnotes : 64;
        whole_note *n = realloc(w->notes, cap * sizeof *n);
        if (!n) {
            fprintf(stderr, "pnrsim: out of memory (network observer)\n");
            abort();
        }
        w->notes = n;
        w->capnotes = cap;
    }
    whole_note x = {t, w->note_seq++, e, e->whole.note_gen, busy};
    size_t i = w->nnotes++;
    while (i > 0 && note_before(&x, &w->notes[(i - 1) / 2])) {
        w->notes[i] = w->notes[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    w->notes[i] = x;
}

/* Remove the heap's top. */
static void note_pop(net_whole_state *w)
{
    whole_note x = w->notes[--w->nnotes];
    size_t i = 0, n = w->nnotes;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && note_before(&w->notes[c + 1], &w->notes[c]))
            c++;
        if (!note_before(&w->notes[c], &x))
            break;
        w->notes[i] = w->notes[c];
        i = c;
    }
    if (n)
        w->notes[i] = x;
}

/* The earliest live note (stale ones on top dropped), or NULL. */
static const whole_note *note_top(net_t *net)
{
    net_whole_state *w = &net->whole;
    while (w->nnotes && w->notes[0].gen != w->notes[0].e->whole.note_gen)
        note_pop(w);
    return w->nnotes ? &w->notes[0] : NULL;
}

/* Tell the observer, if any, that e becomes busy or idle at t (flagged,
 * so that it cannot ask for notes from inside: net_observe_next). */
static void tell(sim_t *sim, net_t *net, const net_elem *e, bool busy, double t)
{
    if (net->obs && net->obs->busy) {
        net->whole.telling = true;
        net->obs->busy(sim, e, busy, t, net->obs->ctx);
        net->whole.telling = false;
    }
}

double net_observe_next(net_t *net)
{
    if (net->whole.telling)
        return INFINITY;
    const whole_note *n = note_top(net);
    return n ? n->t : INFINITY;
}

void net_observe_step(net_t *net)
{
    const whole_note *top = note_top(net);
    if (!top || net->whole.telling)
        return;
    whole_note n = *top;
    note_pop(&net->whole);
    if (n.busy)
        n.e->whole.told = true;
    else
        n.e->whole.idle_told = true;
    tell(net->sim, net, n.e, n.busy, n.t);
}

/* Tell the notes due before t, or at or before t when `at`. */
static void notes_until(net_t *net, double t, bool at)
{
    for (;;) {
        double nt = net_observe_next(net);
        if (!(nt < t || (at && nt == t)))
            return;
        net_observe_step(net);
    }
}

void whole_tell_now(sim_t *sim, net_t *net, const net_elem *e, bool busy)
{
    notes_until(net, sim->now, true);
    tell(sim, net, e, busy, sim->now);
}

void whole_free(net_t *net)
{
    free(net->whole.notes);
    net->whole.notes = NULL;
    net->whole.nnotes = net->whole.capnotes = 0;
}

/* Cancel the pending end event of e's reservation (a one-shot event: a
 * cancelled or fired one is gone, hence EV_NONE). */
void whole_cancel_events(sim_t *sim, net_elem *e)
{
    if (e->whole.rel_ev != EV_NONE)
        ev_cancel(sim, e->whole.rel_ev);
    e->whole.rel_ev = EV_NONE;
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
    if (net->obs) /* the notes of earlier instants first */
        notes_until(net, sim->now, false);
    whole_cancel_events(sim, e);
    if (t_end > e->whole.rs)
        r->busy += t_end - e->whole.rs;
    if (crossed) {
        e->messages++;
        e->bytes += m->bytes;
        if (m->job)
            e->job_bytes += m->bytes;
    }
    r->completions++;
    r->holder = NULL;
    e->whole.resv = NULL;
    proc_t *next = waitq_pop(&r->q);
    if (next) { /* as res_release: the next waiter holds it from now */
        assert(t_end == sim->now);
        timeavg_set(&r->queue, sim->now, r->q.n);
        r->holder = next;
        r->busy_since = sim->now;
        proc_wake(sim, next);
    }
    if (net->obs) {
        /* The observer's view: busy as told so far (its notes of this
         * instant and later are dropped); from now busy iff handed over. */
        bool was = e->whole.told && !e->whole.idle_told;
        e->whole.note_gen++;
        e->whole.told = e->whole.idle_told = false;
        if (was != (next != NULL))
            tell(sim, net, e, next != NULL, sim->now);
    }
}

/* An ended reservation nobody waits behind is finished lazily, by the
 * next one to look at the element (no event was needed for it). */
static void resv_settle(sim_t *sim, net_t *net, net_elem *e)
{
    if (e->whole.resv && e->whole.re <= sim->now && e->res.q.n == 0)
        resv_finish(sim, net, e, e->whole.re, true);
}

/* The event of a reservation someone waits behind: its end. */
static void resv_end_ev(sim_t *sim, void *arg)
{
    net_elem *e = arg;
    e->whole.rel_ev = EV_NONE; /* fired */
    assert(e->whole.resv && e->whole.re == sim->now);
    resv_finish(sim, e->net, e, e->whole.re, true);
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
    bool observed = net->obs != NULL;
    if (observed) /* the notes due so far: an element's last idle first */
        notes_until(net, sim->now, true);
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
        if (observed) { /* notes only: nothing the run could see */
            e->whole.note_gen++;
            e->whole.told = e->whole.idle_told = false;
            if (e->whole.rs <= sim->now) {
                e->whole.told = true;
                tell(sim, net, e, true, sim->now);
            } else {
                note_push(net, e, e->whole.rs, true);
            }
            note_push(net, e, e->whole.re, false);
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
