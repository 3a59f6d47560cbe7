/* core/ev.c: event kernel (see ev.h for the contract).
 *
 * The future-event set is an implicit 4-ary min-heap of 16-byte entries
 * ordered by (time, sequence). Four children share one 64-byte cache line,
 * so a sift touches about half as many lines as a binary heap. Cancelling or
 * moving an event does not search the heap: the record's seq changes, and
 * the old entry is recognised as stale when it reaches the top. While the
 * earliest entry is popped, the record of the new earliest entry is
 * prefetched, which hides most of the cache miss of reading it.
 *
 * Sequence numbers are 32 bits: a 2-bit priority class above a 30-bit
 * counter. When the counter runs out, every live entry is renumbered in
 * (time, seq) order, keeping its class, which keeps the relative order of
 * all pending events; this happens once per billion schedules.
 */
#include "core/ev.h"

#include "core/mem.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

volatile sig_atomic_t ev_stop_flag = 0;

enum { EV_ONESHOT = 1u, EV_FREE = 2u, EV_DAEMON = 4u };

static inline bool entry_less(const ev_entry *a, const ev_entry *b)
{
    return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

/* Move entry e up from hole i until its parent is not greater. */
static inline void sift_up(ev_entry *h, size_t i, ev_entry e)
{
    while (i > 0) {
        size_t p = (i - 1) >> 2;
        if (!entry_less(&e, &h[p]))
            break;
        h[i] = h[p];
        i = p;
    }
    h[i] = e;
}

/* Move entry e down from hole i in a heap of n entries. Invariant: every
 * entry above the hole is <= e's final ancestors, so placing e at the
 * first position where no child is smaller restores the heap. */
static inline void sift_down(ev_entry *h, size_t n, size_t i, ev_entry e)
{
    for (;;) {
        size_t c = 4 * i + 1;
        if (c >= n)
            break;
        size_t m = c;
        size_t end = c + 4 < n ? c + 4 : n;
        for (size_t k = c + 1; k < end; k++)
            if (entry_less(&h[k], &h[m]))
                m = k;
        if (!entry_less(&h[m], &e))
            break;
        h[i] = h[m];
        i = m;
    }
    h[i] = e;
}

int ev_init(sim_t *sim)
{
    memset(sim, 0, sizeof *sim);
    sim->cap = 64;
    sim->heap = malloc(sim->cap * sizeof *sim->heap);
    sim->caprec = 64;
    sim->rec = malloc(sim->caprec * sizeof *sim->rec);
    if (!sim->heap || !sim->rec) {
        free(sim->heap);
        free(sim->rec);
        return -1;
    }
    sim->free_head = EV_NONE;
    sim->seq = 1;
    return 0;
}

void ev_destroy(sim_t *sim)
{
    free(sim->heap);
    free(sim->rec);
    memset(sim, 0, sizeof *sim);
}

ev_id ev_new(sim_t *sim, ev_fn fn, void *arg)
{
    ev_id id;
    if (sim->free_head != EV_NONE) {
        id = sim->free_head;
        sim->free_head = sim->rec[id].next;
    } else {
        if (sim->nrec == sim->caprec) {
            sim->caprec *= 2;
            sim->rec = xrealloc(sim->rec, sim->caprec * sizeof *sim->rec);
        }
        id = sim->nrec++;
    }
    ev_rec *r = &sim->rec[id];
    r->fn = fn;
    r->arg = arg;
    r->t = 0;
    r->seq = 0;
    r->next = EV_NONE;
    r->flags = 0;
    sim->live_records++;
    return id;
}

void ev_set_arg(sim_t *sim, ev_id id, void *arg)
{
    sim->rec[id].arg = arg;
}

/* Drop stale entries and rebuild the heap bottom-up (O(n)). */
static void sweep(sim_t *sim)
{
    size_t j = 0;
    for (size_t i = 0; i < sim->n; i++) {
        ev_entry e = sim->heap[i];
        if (sim->rec[e.id].seq == e.seq)
            sim->heap[j++] = e;
    }
    sim->n = j;
    sim->stale = 0;
    if (j > 1)
        for (size_t i = (j - 2) / 4 + 1; i-- > 0;)
            sift_down(sim->heap, j, i, sim->heap[i]);
}

static int cmp_entry(const void *a, const void *b)
{
    const ev_entry *x = a, *y = b;
    if (entry_less(x, y))
        return -1;
    return entry_less(y, x) ? 1 : 0;
}

/* Renumber live entries 1..n in (t, seq) order; a sorted array is a heap. */
static void renumber(sim_t *sim)
{
    sweep(sim);
    qsort(sim->heap, sim->n, sizeof *sim->heap, cmp_entry);
    for (size_t i = 0; i < sim->n; i++) {
        uint32_t s = (sim->heap[i].seq & ~EV_SEQ_MASK) | (uint32_t)(i + 1);
        sim->heap[i].seq = s;
        sim->rec[sim->heap[i].id].seq = s;
    }
    sim->seq = (uint32_t)sim->n + 1;
}

static inline void mark_stale(sim_t *sim, ev_rec *r)
{
    if (r->seq) {
        r->seq = 0;
        if (r->flags & EV_DAEMON)
            sim->daemons--;
        sim->stale++;
        if (sim->stale > 64 && sim->stale * 2 > sim->n)
            sweep(sim);
    }
}

void ev_at(sim_t *sim, ev_id id, double t)
{
    ev_at_prio(sim, id, t, EV_PRIO_NORMAL);
}

void ev_at_prio(sim_t *sim, ev_id id, double t, unsigned prio)
{
    assert(prio <= EV_PRIO_LAST);
    assert(id < sim->nrec && !(sim->rec[id].flags & EV_FREE));
    assert(t >= sim->now && !isnan(t));
    ev_rec *r = &sim->rec[id];
    mark_stale(sim, r);
    if (sim->seq >= EV_SEQ_MASK)
        renumber(sim);
    if (sim->n == sim->cap) {
        sim->cap *= 2;
        sim->heap = xrealloc(sim->heap, sim->cap * sizeof *sim->heap);
    }
    ev_entry e = {t, (prio << EV_PRIO_SHIFT) | sim->seq++, id};
    r = &sim->rec[id];
    r->seq = e.seq;
    r->t = t;
    if (r->flags & EV_DAEMON)
        sim->daemons++;
    sift_up(sim->heap, sim->n++, e);
    sim->scheduled++;
    size_t pending = sim->n - sim->stale;
    if (pending > sim->peak_pending)
        sim->peak_pending = pending;
}

void ev_after(sim_t *sim, ev_id id, double delay)
{
    assert(delay >= 0);
    ev_at(sim, id, sim->now + delay);
}

ev_id ev_once(sim_t *sim, double t, ev_fn fn, void *arg)
{
    ev_id id = ev_new(sim, fn, arg);
    sim->rec[id].flags = EV_ONESHOT;
    ev_at(sim, id, t);
    return id;
}

void ev_set_daemon(sim_t *sim, ev_id id)
{
    ev_rec *r = &sim->rec[id];
    if (!(r->flags & EV_DAEMON) && r->seq)
        sim->daemons++;
    r->flags |= EV_DAEMON;
}

static void release_record(sim_t *sim, ev_id id)
{
    ev_rec *r = &sim->rec[id];
    r->flags = EV_FREE;
    r->seq = 0;
    r->next = sim->free_head;
    sim->free_head = id;
    sim->live_records--;
}

void ev_cancel(sim_t *sim, ev_id id)
{
    ev_rec *r = &sim->rec[id];
    assert(!(r->flags & EV_FREE));
    if (r->seq) {
        sim->cancelled++;
        mark_stale(sim, r);
    }
    if (r->flags & EV_ONESHOT)
        release_record(sim, id);
}

void ev_free(sim_t *sim, ev_id id)
{
    ev_rec *r = &sim->rec[id];
    assert(!(r->flags & EV_FREE));
    mark_stale(sim, r);
    release_record(sim, id);
}

bool ev_pending(const sim_t *sim, ev_id id)
{
    return sim->rec[id].seq != 0;
}

double ev_time(const sim_t *sim, ev_id id)
{
    return sim->rec[id].t;
}

size_t ev_count(const sim_t *sim)
{
    return sim->n - sim->stale;
}

/* Remove the top entry. */
static inline void pop_top(sim_t *sim)
{
    ev_entry last = sim->heap[--sim->n];
    if (sim->n)
        sift_down(sim->heap, sim->n, 0, last);
}

/* Drop stale entries at the top; returns false when the heap is empty. */
static inline bool settle_top(sim_t *sim)
{
    while (sim->n) {
        ev_entry *e = &sim->heap[0];
        if (sim->rec[e->id].seq == e->seq)
            return true;
        pop_top(sim);
        sim->stale--;
    }
    return false;
}

double ev_next_time(sim_t *sim)
{
    return settle_top(sim) ? sim->heap[0].t : INFINITY;
}

/* Pop and run the top entry, which must be live. */
static inline void dispatch_top(sim_t *sim)
{
    ev_entry e = sim->heap[0];
    pop_top(sim);
    if (sim->n)
        __builtin_prefetch(&sim->rec[sim->heap[0].id]);
    ev_rec *r = &sim->rec[e.id];
    r->seq = 0;
    if (r->flags & EV_DAEMON)
        sim->daemons--;
    sim->now = e.t;
    sim->dispatched++;
    ev_fn fn = r->fn;
    void *arg = r->arg;
    if (r->flags & EV_ONESHOT)
        release_record(sim, e.id);
    fn(sim, arg);
}

bool ev_step(sim_t *sim)
{
    if (!settle_top(sim))
        return false;
    dispatch_top(sim);
    return true;
}

void ev_stop(sim_t *sim)
{
    sim->stop = true;
}

ev_run_result ev_run(sim_t *sim, double until)
{
    sim->stop = false;
    for (;;) {
        if (sim->stop || ev_stop_flag)
            return EV_RUN_STOPPED;
        if (!settle_top(sim) || sim->n - sim->stale == sim->daemons)
            return EV_RUN_EMPTY;
        if (sim->heap[0].t > until) {
            if (until > sim->now)
                sim->now = until;
            return EV_RUN_LIMIT;
        }
        dispatch_top(sim);
    }
}

void ev_test_set_seq(sim_t *sim, uint32_t seq)
{
    sim->seq = seq;
}
