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
 * Next-event slot: most events scheduled in a paging run become the new
 * earliest event (a thread's next wake-up, a process woken at the current
 * instant). Such an entry goes into a one-entry slot in front of the heap
 * instead of being sifted up, and the next dispatch takes it from there
 * without a pop; an entry displaced from the slot by an earlier one goes
 * where it would have gone (heap, or bucket in large mode). The slot entry is never later than any heap or
 * bucket entry, so dispatch order, which (t, seq) fixes completely, is
 * exactly that of the heap alone. Pops move the hole to the bottom along
 * the smaller children and sift the last entry up from there (three
 * compares per level instead of four).
 *
 * Sequence numbers are 32 bits: a 2-bit priority class above a 30-bit
 * counter. When the counter runs out, every live entry is renumbered in
 * (time, seq) order, keeping its class, which keeps the relative order of
 * all pending events; this happens once per billion schedules.
 */
#include "core/ev.h"
#include "core/ev_check.h"
#include "core/mem.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

volatile sig_atomic_t ev_stop_flag = 0;

enum { EV_ONESHOT = 1u, EV_FREE = 2u, EV_DAEMON = 4u };

/* The order (t, seq) as one 128-bit unsigned integer: the bit pattern of a
 * non-negative double orders like the double (t is never negative, and
 * ev_at turns -0.0 into +0.0) and seq is unique among entries. Comparing
 * keys compiles to cmp/sbb and lets the compiler use cmov instead of two
 * data-dependent branches. */
typedef unsigned __int128 ev_key;

static inline ev_key entry_key(const ev_entry *a)
{
    uint64_t tb;
    memcpy(&tb, &a->t, sizeof tb);
    return ((ev_key)tb << 64) | a->seq;
}

static inline bool entry_less(const ev_entry *a, const ev_entry *b)
{
    return entry_key(a) < entry_key(b);
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

/* Index of the smallest of the four entries c..c+3: a branch-free
 * tournament of three compares. */
static inline size_t min_of4(const ev_entry *h, size_t c)
{
    size_t a = c + (entry_less(&h[c + 1], &h[c]) ? 1 : 0);
    size_t b = c + 2 + (entry_less(&h[c + 3], &h[c + 2]) ? 1 : 0);
    return entry_less(&h[b], &h[a]) ? b : a;
}

/* Move entry e down from hole i in a heap of n entries. Invariant: every
 * entry above the hole is <= e's final ancestors, so placing e at the
 * first position where no child is smaller restores the heap. */
static inline void sift_down(ev_entry *h, size_t n, size_t i, ev_entry e)
{
    for (;;) {
        size_t c = 4 * i + 1, m;
        if (c + 3 < n) {
            m = min_of4(h, c);
        } else {
            if (c >= n)
                break;
            m = c;
            for (size_t k = c + 1; k < n; k++)
                m = entry_less(&h[k], &h[m]) ? k : m;
        }
        if (!entry_less(&h[m], &e))
            break;
        h[i] = h[m];
        i = m;
    }
    h[i] = e;
}

/* The heap array is placed so that entry 1 starts a 64-byte line: the four
 * children 4i+1..4i+4 of any node then lie in exactly one line. The block
 * starts HEAP_PAD bytes before entry 0. */
#define HEAP_PAD 48

static ev_entry *heap_alloc(size_t cap)
{
    size_t bytes = (HEAP_PAD + cap * sizeof(ev_entry) + 63) & ~(size_t)63;
    char *raw = aligned_alloc(64, bytes);
    return raw ? (ev_entry *)(raw + HEAP_PAD) : NULL;
}

static void heap_free(ev_entry *h)
{
    if (h)
        free((char *)h - HEAP_PAD);
}

static ev_entry *heap_grow(ev_entry *h, size_t n, size_t cap)
{
    ev_entry *q = heap_alloc(cap);
    if (!q) {
        fprintf(stderr, "pnrsim: out of memory (%zu bytes)\n", cap * sizeof *q);
        abort();
    }
    memcpy(q, h, n * sizeof *q);
    heap_free(h);
    return q;
}

/* ---- large mode: a radix heap in front of which the 4-ary heap sits ----
 *
 * With many pending events a 4-ary heap pays a cache miss per level below
 * the part that fits in cache. In large mode (entered when the heap reaches
 * RADIX_ON entries, left when fewer than RADIX_OFF remain) entries are kept
 * in 64 buckets by the highest bit in which their time's bit pattern
 * differs from `last`, the time of the earliest entry when the buckets were
 * last split (a radix heap: times never decrease). Only the entries at the
 * earliest time, and any scheduled at or before `last`, are in the 4-ary
 * heap, which keeps ordering them by (t, seq); when it runs empty the
 * lowest non-empty bucket is split. Buckets are appended to and scanned
 * sequentially, so a dispatch touches a few lines instead of one per heap
 * level. Every entry is <= every bucket entry while it is in the heap, so
 * the heap top is still the earliest event. */
#define RADIX_ON (1u << 7)
#define RADIX_OFF (1u << 5)

typedef struct ev_bucket {
    ev_entry *v;
    size_t n, cap;
} ev_bucket;

struct ev_radix {
    uint64_t last;        /* bit pattern of the time the buckets split at */
    uint64_t mask;        /* bit i-1 set when bucket i is non-empty */
    ev_bucket b[65];      /* b[1..64]; b[0] unused (that is the heap) */
};

static inline uint64_t tbits(double t)
{
    uint64_t b;
    memcpy(&b, &t, sizeof b);
    return b;
}

static inline void bucket_push(ev_bucket *b, ev_entry e)
{
    if (b->n == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 256;
        b->v = xrealloc(b->v, b->cap * sizeof *b->v);
    }
    b->v[b->n++] = e;
}

static void heap_reserve(sim_t *sim, size_t need)
{
    if (need <= sim->cap)
        return;
    size_t cap = sim->cap;
    while (cap < need)
        cap *= 2;
    sim->heap = heap_grow(sim->heap, sim->n, cap);
    sim->cap = cap;
}

static void heapify(sim_t *sim)
{
    size_t j = sim->n;
    if (j > 1)
        for (size_t i = (j - 2) / 4 + 1; i-- > 0;)
            sift_down(sim->heap, j, i, sim->heap[i]);
}

/* Put e (t > last) in its bucket. */
static inline void radix_put(sim_t *sim, ev_entry e, uint64_t tb)
{
    struct ev_radix *q = sim->rq;
    unsigned i = 64 - (unsigned)__builtin_clzll(tb ^ q->last);
    bucket_push(&q->b[i], e);
    q->mask |= 1ull << (i - 1);
    sim->nb++;
}

/* Heap -> large mode: keep in the heap only the entries at the earliest
 * time. */
__attribute__((noinline, cold)) static void radix_enter(sim_t *sim)
{
    struct ev_radix *q = xcalloc(1, sizeof *q);
    sim->rq = q;
    q->last = tbits(sim->heap[0].t);
    size_t j = 0;
    for (size_t i = 0; i < sim->n; i++) {
        ev_entry e = sim->heap[i];
        uint64_t tb = tbits(e.t);
        if (tb <= q->last)
            sim->heap[j++] = e;
        else
            radix_put(sim, e, tb);
    }
    sim->n = j;
    heapify(sim);
}

/* Push e (not beyond `last` in large mode) into the heap. */
static inline void heap_push(sim_t *sim, ev_entry e)
{
    if (sim->n == sim->cap) {
        sim->cap *= 2;
        sim->heap = heap_grow(sim->heap, sim->n, sim->cap);
    }
    sift_up(sim->heap, sim->n++, e);
    if (sim->n >= RADIX_ON && !sim->rq)
        radix_enter(sim);
}

/* Put e into the buckets when it lies beyond `last`, else into the heap. */
static inline void insert(sim_t *sim, ev_entry e)
{
    uint64_t tb;
    if (sim->rq && (tb = tbits(e.t)) > sim->rq->last)
        radix_put(sim, e, tb);
    else
        heap_push(sim, e);
}

/* Large -> heap mode: pour every bucket into the heap. */
static void radix_leave(sim_t *sim)
{
    struct ev_radix *q = sim->rq;
    heap_reserve(sim, sim->n + sim->nb);
    for (unsigned i = 1; i <= 64; i++) {
        if (q->b[i].n)
            memcpy(sim->heap + sim->n, q->b[i].v, q->b[i].n * sizeof(ev_entry));
        sim->n += q->b[i].n;
        free(q->b[i].v);
    }
    free(q);
    sim->rq = NULL;
    sim->nb = 0;
    heapify(sim);
}

/* Move every entry of bucket i into the heap; `last` becomes the latest
 * of their times. Entries in higher buckets still differ from the new
 * `last` first at their bucket's bit, so they stay where they are. */
static void radix_pour(sim_t *sim, unsigned i)
{
    struct ev_radix *q = sim->rq;
    ev_bucket *b = &q->b[i];
    uint64_t mx = q->last;
    heap_reserve(sim, sim->n + b->n);
    for (size_t k = 0; k < b->n; k++) {
        ev_entry e = b->v[k];
        uint64_t tb = tbits(e.t);
        mx = tb > mx ? tb : mx;
        sift_up(sim->heap, sim->n++, e);
    }
    q->last = mx;
    sim->nb -= b->n;
    b->n = 0;
    q->mask &= ~(1ull << (i - 1));
}

#define RADIX_POUR 32 /* buckets this small go to the heap whole */

/* The heap is empty and buckets are not: split the lowest bucket, moving
 * the entries at its earliest time into the heap; then, while the heap is
 * short and the lowest bucket small, pour that bucket in whole, so the
 * heap holds the next several events and dispatch can prefetch their
 * records a whole event ahead. */
static void radix_refill(sim_t *sim)
{
    if (sim->nb < RADIX_OFF) {
        radix_leave(sim);
        return;
    }
    struct ev_radix *q = sim->rq;
    unsigned i = (unsigned)__builtin_ctzll(q->mask) + 1;
    ev_bucket *b = &q->b[i];
    if (b->n <= RADIX_POUR) {
        radix_pour(sim, i);
    } else {
        uint64_t m = tbits(b->v[0].t);
        for (size_t k = 1; k < b->n; k++) {
            uint64_t tb = tbits(b->v[k].t);
            m = tb < m ? tb : m;
        }
        q->last = m;
        ev_bucket cur = *b;
        b->n = 0;
        q->mask &= ~(1ull << (i - 1));
        sim->nb -= cur.n;
        for (size_t k = 0; k < cur.n; k++) {
            ev_entry e = cur.v[k];
            uint64_t tb = tbits(e.t);
            if (tb == m) {
                heap_reserve(sim, sim->n + 1);
                sift_up(sim->heap, sim->n++, e);
            } else {
                radix_put(sim, e, tb);
            }
        }
    }
    while (sim->n < 8 && q->mask) {
        i = (unsigned)__builtin_ctzll(q->mask) + 1;
        if (q->b[i].n > RADIX_POUR)
            break;
        radix_pour(sim, i);
    }
    __builtin_prefetch(&sim->rec[sim->heap[0].id]);
}

/* Drop stale entries from the buckets. */
static void radix_sweep(sim_t *sim)
{
    struct ev_radix *q = sim->rq;
    q->mask = 0;
    sim->nb = 0;
    for (unsigned i = 1; i <= 64; i++) {
        ev_bucket *b = &q->b[i];
        size_t j = 0;
        for (size_t k = 0; k < b->n; k++) {
            ev_entry e = b->v[k];
            if (sim->rec[e.id].seq == e.seq)
                b->v[j++] = e;
        }
        b->n = j;
        sim->nb += j;
        if (j)
            q->mask |= 1ull << (i - 1);
    }
}

int ev_init(sim_t *sim)
{
    memset(sim, 0, sizeof *sim);
    sim->cap = 64;
    sim->heap = heap_alloc(sim->cap);
    sim->caprec = 64;
    sim->rec = aligned_alloc(64, sim->caprec * sizeof *sim->rec);
    if (!sim->heap || !sim->rec) {
        heap_free(sim->heap);
        free(sim->rec);
        return -1;
    }
    sim->free_head = EV_NONE;
    sim->seq = 1;
    sim->pause_at = UINT64_MAX;
    sim->until = -INFINITY;
    return 0;
}

void ev_destroy(sim_t *sim)
{
    if (sim->rq)
        radix_leave(sim);
    heap_free(sim->heap);
    free(sim->rec);
    memset(sim, 0, sizeof *sim);
}

ev_id ev_new(sim_t *sim, ev_fn fn, void *arg)
{
    ev_id id;
    if (sim->free_head != EV_NONE) {
        id = sim->free_head;
        sim->free_head = sim->rec[id].u.next;
    } else {
        if (sim->nrec == sim->caprec) {
            ev_rec *q = aligned_alloc(64, 2 * sim->caprec * sizeof *q);
            if (!q) {
                fprintf(stderr, "pnrsim: out of memory (records)\n");
                abort();
            }
            memcpy(q, sim->rec, sim->caprec * sizeof *q);
            free(sim->rec);
            sim->rec = q;
            sim->caprec *= 2;
        }
        id = sim->nrec++;
    }
    ev_rec *r = &sim->rec[id];
    r->fn = fn;
    r->arg = arg;
    r->u.t = 0;
    r->seq = 0;
    r->flags = 0;
    sim->live_records++;
    return id;
}

void ev_set_arg(sim_t *sim, ev_id id, void *arg)
{
    sim->rec[id].arg = arg;
}

/* Drop stale entries and rebuild the heap bottom-up (O(n)). */
__attribute__((noinline, cold)) static void sweep(sim_t *sim)
{
    size_t j = 0;
    for (size_t i = 0; i < sim->n; i++) {
        ev_entry e = sim->heap[i];
        if (sim->rec[e.id].seq == e.seq)
            sim->heap[j++] = e;
    }
    sim->n = j;
    sim->stale = 0;
    if (sim->slotted && sim->rec[sim->slot.id].seq != sim->slot.seq)
        sim->slotted = false;
    if (sim->rq)
        radix_sweep(sim);
    heapify(sim);
}

static int cmp_entry(const void *a, const void *b)
{
    const ev_entry *x = a, *y = b;
    if (entry_less(x, y))
        return -1;
    return entry_less(y, x) ? 1 : 0;
}

/* Renumber live entries 1..n in (t, seq) order; a sorted array is a heap. */
__attribute__((noinline, cold)) static void renumber(sim_t *sim)
{
    if (sim->rq)
        radix_leave(sim);
    if (sim->slotted) {
        sim->slotted = false;
        heap_push(sim, sim->slot);
        if (sim->rq)
            radix_leave(sim);
    }
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
        if (sim->stale > 64 && sim->stale * 2 > sim->n + sim->nb + sim->slotted)
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
    t += 0.0; /* -0.0 -> +0.0, for the bitwise key */
    ev_rec *r = &sim->rec[id];
    mark_stale(sim, r);
    if (sim->seq >= EV_SEQ_MASK)
        renumber(sim);
    ev_entry e = {t, (prio << EV_PRIO_SHIFT) | sim->seq++, id};
    r = &sim->rec[id];
    r->seq = e.seq;
    r->u.t = t;
    if (r->flags & EV_DAEMON)
        sim->daemons++;
    if (sim->slotted) {
        /* The earlier of e and the slot entry stays in the slot. */
        if (entry_less(&e, &sim->slot)) {
            ev_entry old = sim->slot;
            sim->slot = e;
            insert(sim, old);
        } else {
            insert(sim, e);
        }
    } else if (sim->n ? entry_less(&e, &sim->heap[0])
                      : !sim->rq || sim->nb == 0 || tbits(t) <= sim->rq->last) {
        /* Earlier than the heap top, which is not later than any bucket
         * entry; or, with the heap empty, not later than `last`, below
         * every bucket entry. */
        sim->slot = e;
        sim->slotted = true;
    } else {
        insert(sim, e);
    }
    sim->scheduled++;
    size_t pending = sim->n + sim->nb + sim->slotted - sim->stale;
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
    r->u.next = sim->free_head;
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

double ev_time(const sim_t *sim, ev_id id)
{
    return sim->rec[id].u.t;
}

size_t ev_count(const sim_t *sim)
{
    return sim->n + sim->nb + sim->slotted - sim->stale;
}

/* Remove the top entry of the heap: move the hole at the root down along
 * the smallest children to the bottom, then sift the last entry up from
 * there (it usually stays). */
static inline void pop_top(sim_t *sim)
{
    size_t n = --sim->n;
    ev_entry last = sim->heap[n];
    ev_entry *h = sim->heap;
    if (n <= 1) {
        if (n)
            h[0] = last; /* one entry left: nothing to compare */
        return;
    }
    size_t i = 0;
    for (;;) {
        size_t c = 4 * i + 1, m;
        if (c + 3 < n) {
            m = min_of4(h, c);
        } else {
            if (c >= n)
                break;
            m = c;
            for (size_t k = c + 1; k < n; k++)
                m = entry_less(&h[k], &h[m]) ? k : m;
        }
        h[i] = h[m];
        i = m;
    }
    sift_up(h, i, last);
}

/* Drop stale entries at the top; returns false when nothing is pending.
 * The top is then the slot entry when slotted, else heap[0]. */
static inline bool settle_top(sim_t *sim)
{
    /* No stale entry anywhere: the top is live, and its record need not
     * be read yet (its prefetch keeps flying while the heap is popped). */
    for (;;) {
        if (sim->slotted) {
            if (sim->stale == 0 || sim->rec[sim->slot.id].seq == sim->slot.seq)
                return true;
            sim->slotted = false;
            sim->stale--;
            continue;
        }
        if (sim->n == 0) {
            if (sim->nb == 0)
                return false;
            radix_refill(sim);
            continue;
        }
        if (sim->stale == 0)
            return true;
        ev_entry *e = &sim->heap[0];
        if (sim->rec[e->id].seq == e->seq)
            return true;
        pop_top(sim);
        sim->stale--;
    }
}

/* The earliest entry; settle_top must have returned true. */
static inline const ev_entry *top_entry(const sim_t *sim)
{
    return sim->slotted ? &sim->slot : &sim->heap[0];
}

double ev_next_time(sim_t *sim)
{
    return settle_top(sim) ? top_entry(sim)->t : INFINITY;
}

/* Take out and run the top entry, which must be live. */
static inline void dispatch_top(sim_t *sim)
{
    ev_entry e;
    if (sim->slotted) {
        e = sim->slot;
        sim->slotted = false;
    } else {
        e = sim->heap[0];
        pop_top(sim);
    }
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

void ev_stop(sim_t *sim)
{
    sim->stop = true;
}

bool ev_next_is_settle(sim_t *sim, double t)
{
    if (sim->stop || ev_stop_flag || !(t <= sim->until))
        return false;
    /* An entry at exactly t might come first (an earlier sequence number,
     * or another class): only a strictly later top is sure. */
    return !settle_top(sim) || top_entry(sim)->t > t;
}

static ev_run_result run_loop(sim_t *sim, double until)
{
    for (;;) {
        if (sim->stop || ev_stop_flag)
            return EV_RUN_STOPPED;
        if (sim->dispatched >= sim->pause_at)
            return EV_RUN_PAUSED;
        if (!settle_top(sim) || sim->n + sim->nb + sim->slotted - sim->stale == sim->daemons)
            return EV_RUN_EMPTY;
        if (top_entry(sim)->t > until) {
            if (until > sim->now)
                sim->now = until;
            return EV_RUN_LIMIT;
        }
        dispatch_top(sim);
    }
}

ev_run_result ev_run(sim_t *sim, double until)
{
    sim->stop = false;
    sim->until = until;
    ev_run_result rr = run_loop(sim, until);
    sim->until = -INFINITY;
    return rr;
}

void ev_test_set_seq(sim_t *sim, uint32_t seq)
{
    sim->seq = seq;
}
