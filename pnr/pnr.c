/* pnr/pnr.c: parallel network RAM servents and strategies (see pnr.h).
 *
 * Everything is driven by message arrivals: a PNR message is a network
 * message whose `ctx` points at the protocol object it belongs to (an
 * allocation round, a deallocation round, a broadcast, or a thread for page
 * traffic), `value` carries the sender's piggybacked load (its free RAM in
 * MB when it sent) and `value2` the amount the message is about. Managers
 * do their work instantly when a message arrives; only the network costs
 * time.
 *
 * Accounting for the conservation check: every MB a server has lent is, at
 * any instant, exactly one of: held by a client (pieces it was told of), in
 * transit in a message (GRANT, REPLY, DEALLOC or FREE), or pending at a
 * manager (granted and not yet shared out, or gathered for freeing).
 */
#include "pnr/pnr.h"

#include "core/mem.h"

#include "core/rng.h"

#include <assert.h>
#include <stddef.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EPS_MB 1e-9

typedef struct piece {
    int server;
    double mb;
} piece_t;

typedef struct pieces {
    piece_t *v;
    int n, cap;
} pieces_t;

/* Tracked allocation: every protocol object is on p->objs until it is
 * freed, so a run stopped part way frees them all. */
typedef struct pobj {
    struct pobj *next, *prev;
    void (*destroy)(struct pobj *o);
} pobj;

typedef struct creq { /* the client side of one thread */
    thread_t *th;
    double ask;        /* MB asked */
    double granted;    /* MB held */
    pieces_t pieces;
    double t_asked;
    struct round *round; /* its allocation round, while it waits */
} creq_t;

typedef struct jstate jstate_t;

typedef struct round { /* one allocation or deallocation at a manager */
    pobj link;
    bool dealloc;
    jstate_t *js;       /* the job's state while the job lives, else NULL */
    int manager;
    int expected, received;
    creq_t **reqs;      /* alloc: askers (NULL for zero requests), by arrival */
    double *asks;
    int nreqs;
    double total_ask;
    double granted;     /* alloc: MB granted by servers so far */
    pieces_t got;       /* alloc: grants; dealloc: amounts per server */
    pieces_t *incoming; /* dealloc: pieces on their way, by thread */
    unsigned char *asked; /* alloc: servers asked (npes) */
    unsigned char *racks; /* alloc, locality RACK: racks of its clients */
    bool in_rack;         /* select_server's first pass: only those racks */
    int grant_server;   /* alloc: the GRANT in flight (at most one) ... */
    double grant_mb;    /* ... and the MB it carries */
    int acks_pending;
} round_t;

struct jstate { /* per job */
    pobj link;
    int threads, threads_ended;
    round_t *alloc;     /* coordinated strategies: the job's rounds */
    round_t *dealloc;
    int alloc_manager;
    creq_t **creqs;     /* one per thread, freed as threads end */
};

/* Availability tables (§5.2, §5.2.6). Every servent has one: per server,
 * the free MB last heard of and when it was true. Stored so that memory is
 * O(N) plus what differs, not N tables of N entries (N^2: 1.7 GB at 10,000
 * PEs under MANAGER, where broadcasts fill every table): a table is a
 * shared base - the last broadcast snapshot it received, or none (every
 * server at its installed RAM, heard at time -1) - plus a sorted list of
 * the entries where it differs from that base (news it heard directly, or
 * older news the snapshot's sender lacked). The values read are exactly
 * those of full tables; only the storage is shared. */
typedef struct entry {
    double avail;       /* free MB as last heard */
    double stamp;       /* when it was true (-1: never heard) */
} entry_t;

typedef struct snapshot { /* a broadcast table, shared by its messages and
                           * by the tables it is the base of */
    pobj link;
    int refs;
    entry_t *e;         /* npes entries */
} snapshot_t;

typedef struct override {
    int pe;
    entry_t v;
} override_t;

typedef struct table {
    snapshot_t *base;   /* NULL: installed RAM, stamp -1 */
    override_t *o;      /* entries that differ from the base, by pe */
    int n, cap;
} table_t;

struct pnr {
    sim_t *sim;
    cluster_t *cl;
    pnr_strategy strategy;
    bool global;
    double threshold;
    int npes;
    int nmanagers;
    int *managers;       /* BACKBONE: manager PEs */
    double control_bytes;
    pnr_release release;
    pnr_selection selection;
    double access_latency; /* s a remote fault waits after its page arrived */
    pnr_locality locality;
    pieces_t *node;      /* release EXCESS: per PE, the network RAM the node
                          * holds (grants join it when they arrive) */
    double *asking;      /* release EXCESS: per PE, MB its clients asked for
                          * and have not been answered yet */
    table_t *tables;     /* per PE (see table_t) */
    override_t *scratch; /* a spare override list for merges */
    int scratch_cap;
    rng_set mgr_rng;     /* per PE: server selection draws */
    rng_set fault_rng;   /* per PE: network or disk, which piece */
    rng_t *choice_rng;   /* which manager a job uses */
    pobj objs;
    pnr_stats st;
    double held, transit, pending;
    bool checking;
    const char *check_failure;
    char check_msg[200];
    uint64_t *received;  /* test hook: per PE and kind, messages received */
    double *claimed;     /* check(): per server, MB accounted for */
    entry_t *shadow;     /* checking: full N x N tables kept the plain way,
                          * to compare the shared ones with */
};

static void track(pnr_t *p, pobj *o, void (*destroy)(pobj *))
{
    o->destroy = destroy;
    o->next = p->objs.next;
    o->prev = &p->objs;
    p->objs.next->prev = o;
    p->objs.next = o;
}

static void untrack(pobj *o)
{
    o->prev->next = o->next;
    o->next->prev = o->prev;
    o->next = o->prev = NULL;
}

/* Add mb held on server to a piece list (merging per server). */
static void add_piece(pieces_t *ps, int server, double mb)
{
    for (int i = 0; i < ps->n; i++)
        if (ps->v[i].server == server) {
            ps->v[i].mb += mb;
            return;
        }
    if (ps->n == ps->cap) {
        ps->cap = ps->cap ? 2 * ps->cap : 4;
        ps->v = realloc(ps->v, (size_t)ps->cap * sizeof *ps->v);
        if (!ps->v)
            abort();
    }
    ps->v[ps->n++] = (piece_t){server, mb};
}

const pnr_stats *pnr_get_stats(const pnr_t *p) { return &p->st; }
void pnr_set_checking(pnr_t *p, bool on)
{
    p->checking = on;
    if (on && !p->shadow) {
        /* Only before anything was heard (tests turn checks on at once). */
        size_t n = (size_t)p->npes;
        p->shadow = xcalloc(n * n, sizeof *p->shadow);
        for (size_t x = 0; x < n; x++)
            for (size_t i = 0; i < n; i++)
                p->shadow[x * n + i] = (entry_t){p->cl->pes[i].ram_mb, -1};
    }
}
const char *pnr_check_failure(const pnr_t *p) { return p->check_failure; }

void pnr_totals(const pnr_t *p, double *lent, double *held, double *transit)
{
    double l = 0;
    for (int i = 0; i < p->npes; i++)
        l += p->cl->pes[i].lent_mb;
    *lent = l;
    *held = p->held;
    *transit = p->transit + p->pending;
}

static void round_destroy(pobj *o);
static void jstate_destroy(pobj *o);

static void check_fail(pnr_t *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void check_fail(pnr_t *p, const char *fmt, ...)
{
    if (p->check_failure)
        return;
    int k = snprintf(p->check_msg, sizeof p->check_msg, "t=%.9g: ", p->sim->now);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->check_msg + k, sizeof p->check_msg - (size_t)k, fmt, ap);
    va_end(ap);
    p->check_failure = p->check_msg;
}

static void claim(pnr_t *p, const pieces_t *ps)
{
    for (int i = 0; i < ps->n; i++)
        p->claimed[ps->v[i].server] += ps->v[i].mb;
}

/* Conservation (test hook). The totals: MB lent by servers == MB held by
 * clients + in transit + pending at managers. Then per server, from the
 * protocol's own data rather than the counters: what a server has lent
 * equals the pieces naming it in clients' lists (held, or on their way in
 * a REPLY), in allocation rounds (granted, not yet shared out; a GRANT in
 * flight) and in deallocation rounds (on their way in a DEALLOC, gathered,
 * or on their way in a FREE). */
static void check(pnr_t *p)
{
    if (!p->checking || p->check_failure)
        return;
    double lent, held, transit;
    pnr_totals(p, &lent, &held, &transit);
    if (fabs(lent - held - transit) > 1e-6 * (1 + lent)) {
        check_fail(p, "lent %.9g MB != held %.9g + in transit %.9g", lent, held, transit);
        return;
    }
    if (p->held < -1e-6 || p->transit < -1e-6 || p->pending < -1e-6) {
        check_fail(p, "negative total: held %.9g, in transit %.9g, pending %.9g", p->held,
                   p->transit, p->pending);
        return;
    }
    for (int s = 0; s < p->npes; s++)
        p->claimed[s] = 0;
    for (pobj *o = p->objs.next; o != &p->objs; o = o->next) {
        if (o->destroy == round_destroy) {
            round_t *r = (round_t *)o;
            claim(p, &r->got);
            if (r->dealloc) {
                for (int i = 0; i < r->expected; i++)
                    claim(p, &r->incoming[i]);
            } else if (r->grant_mb > 0) {
                p->claimed[r->grant_server] += r->grant_mb;
            }
        } else if (o->destroy == jstate_destroy) {
            jstate_t *js = (jstate_t *)o;
            for (int i = 0; i < js->threads; i++)
                if (js->creqs[i])
                    claim(p, &js->creqs[i]->pieces);
        }
    }
    for (int pe = 0; pe < p->npes; pe++)
        claim(p, &p->node[pe]);
    for (int s = 0; s < p->npes; s++) {
        double l = p->cl->pes[s].lent_mb;
        if (l < -1e-9 || fabs(l - p->claimed[s]) > 1e-6 * (1 + l)) {
            check_fail(p, "server %d has lent %.9g MB but the protocol accounts for %.9g", s, l,
                       p->claimed[s]);
            return;
        }
    }
}

const char *pnr_kind_name(int kind)
{
    static const char *names[PNR_NKINDS] = {"request", "ask", "grant", "reply", "dealloc",
                                            "free", "ack", "broadcast", "page_out", "page_in"};
    int k = kind - PNR_MSG_REQUEST;
    return k >= 0 && k < PNR_NKINDS ? names[k] : "?";
}

/* ---- tables and load ---------------------------------------------------- */

static table_t *table_of(pnr_t *p, int pe)
{
    return &p->tables[pe];
}

/* Position of pe's override in t (or where it would go), by binary search. */
static int override_pos(const table_t *t, int pe)
{
    int lo = 0, hi = t->n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (t->o[mid].pe < pe)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static entry_t base_entry(const pnr_t *p, const table_t *t, int i)
{
    if (t->base)
        return t->base->e[i];
    return (entry_t){p->cl->pes[i].ram_mb, -1}; /* installed RAM (§5.2) */
}

/* Table t's entry for server i. */
static entry_t table_get(const pnr_t *p, const table_t *t, int i)
{
    int k = override_pos(t, i);
    if (k < t->n && t->o[k].pe == i)
        return t->o[k].v;
    return base_entry(p, t, i);
}

static void grow_overrides(override_t **o, int *cap, int need)
{
    if (need <= *cap)
        return;
    int c = *cap ? *cap : 8;
    while (c < need)
        c *= 2;
    *o = xrealloc(*o, (size_t)c * sizeof **o);
    *cap = c;
}

/* Set table t's entry for server i to v. */
static void table_set(table_t *t, int i, entry_t v)
{
    int k = override_pos(t, i);
    if (k < t->n && t->o[k].pe == i) {
        t->o[k].v = v;
        return;
    }
    grow_overrides(&t->o, &t->cap, t->n + 1);
    memmove(t->o + k + 1, t->o + k, (size_t)(t->n - k) * sizeof *t->o);
    t->o[k] = (override_t){i, v};
    t->n++;
}

static void snapshot_release(snapshot_t *s);

/* Checking: the table of PE x must read exactly as its plain copy. */
static void shadow_compare(pnr_t *p, int x)
{
    const entry_t *sh = p->shadow + (size_t)x * (size_t)p->npes;
    const table_t *t = &p->tables[x];
    for (int i = 0; i < p->npes; i++) {
        entry_t v = table_get(p, t, i);
        if (v.avail != sh[i].avail || v.stamp != sh[i].stamp) {
            check_fail(p, "PE %d's table reads %.17g MB at %.17g for server %d, the plain "
                          "table %.17g at %.17g", x, v.avail, v.stamp, i, sh[i].avail,
                       sh[i].stamp);
            return;
        }
    }
}

/* The load piggybacked on a message updates the receiver's table
 * (§5.2.6), unless the table already holds newer news of the sender. */
static void hear(pnr_t *p, int receiver, const msg_t *m)
{
    table_t *t = table_of(p, receiver);
    if (m->sent_at >= table_get(p, t, m->src).stamp)
        table_set(t, m->src, (entry_t){m->value, m->sent_at});
    if (p->checking && p->shadow) {
        entry_t *e = &p->shadow[(size_t)receiver * (size_t)p->npes + (size_t)m->src];
        if (m->sent_at >= e->stamp)
            *e = (entry_t){m->value, m->sent_at};
        entry_t v = table_get(p, t, m->src);
        if (v.avail != e->avail || v.stamp != e->stamp)
            check_fail(p, "PE %d's table entry for %d differs from the plain table", receiver,
                       m->src);
    }
}

/* ---- sending ------------------------------------------------------------------ */

static void on_arrival(sim_t *sim, msg_t *m);

static void send(pnr_t *p, int kind, int src, int dst, double bytes, void *ctx, double amount,
                 long tag)
{
    msg_t *m = net_msg_alloc(p->sim, p->cl->net);
    m->src = src;
    m->dst = dst;
    m->bytes = bytes;
    m->kind = kind;
    m->done = on_arrival;
    m->ctx = ctx;
    m->agent = p;
    m->value = pe_free_mb(&p->cl->pes[src]);
    m->value2 = amount;
    m->tag = tag;
    p->st.msgs[kind - PNR_MSG_REQUEST]++;
    p->st.bytes[kind - PNR_MSG_REQUEST] += bytes;
    net_send(p->sim, p->cl->net, m);
}

/* ---- managers ---------------------------------------------------------------------- */

/* The manager for a job's allocation or deallocation. MANAGER: a random PE
 * of the job; BACKBONE: a random backbone manager. No draw when there is
 * only one choice, so BACKBONE with one manager draws exactly what CENTRAL
 * draws. */
static int choose_manager(pnr_t *p, const job_t *j, const thread_t *th)
{
    switch (p->strategy) {
    case PNR_CENTRAL:
        return 0;
    case PNR_CLIENT:
        return th->pe->id;
    case PNR_MANAGER:
        if (j->threads == 1)
            return j->pe_ids[0];
        return j->pe_ids[rng_index(p->choice_rng, (unsigned long)j->threads)];
    case PNR_BACKBONE:
        if (p->nmanagers == 1)
            return p->managers[0];
        return p->managers[rng_index(p->choice_rng, (unsigned long)p->nmanagers)];
    }
    return 0;
}

static void snapshot_destroy(pobj *o)
{
    snapshot_t *s = (snapshot_t *)o;
    free(s->e);
    free(s);
}

/* Drop one reference (a message delivered, or a table's base replaced). */
static void snapshot_release(snapshot_t *s)
{
    if (s && --s->refs == 0) {
        untrack(&s->link);
        snapshot_destroy(&s->link);
    }
}

/* MANAGER and BACKBONE: after a round that allocated or deallocated
 * network RAM (§5.2.6 "broadcasts are only executed after network RAM has
 * been allocated or deallocated"; `changed` says whether this round did)
 * the manager sends its table to every other servent (MANAGER) or to the
 * other managers (BACKBONE; the broadcaster is always one of them). The
 * message is control_msg + 16 bytes per PE (value and time stamp). */
static void broadcast(pnr_t *p, int manager, bool changed)
{
    if (p->strategy != PNR_MANAGER && p->strategy != PNR_BACKBONE)
        return;
    if (!changed)
        return;
    int targets = p->strategy == PNR_MANAGER ? p->npes - 1 : p->nmanagers - 1;
    if (targets <= 0)
        return;
    table_t *t = table_of(p, manager);
    snapshot_t *s = xcalloc(1, sizeof *s);
    s->e = xcalloc((size_t)p->npes, sizeof *s->e);
    for (int i = 0; i < p->npes; i++)
        s->e[i] = base_entry(p, t, i);
    for (int k = 0; k < t->n; k++)
        s->e[t->o[k].pe] = t->o[k].v;
    /* its own load, now */
    s->e[manager] = (entry_t){pe_free_mb(&p->cl->pes[manager]), p->sim->now};
    s->refs = targets;
    track(p, &s->link, snapshot_destroy);
    double bytes = p->control_bytes + 16.0 * p->npes;
    if (p->strategy == PNR_MANAGER) {
        for (int pe = 0; pe < p->npes; pe++)
            if (pe != manager)
                send(p, PNR_MSG_BROADCAST, manager, pe, bytes, s, 0, 0);
    } else {
        for (int k = 0; k < p->nmanagers; k++)
            if (p->managers[k] != manager)
                send(p, PNR_MSG_BROADCAST, manager, p->managers[k], bytes, s, 0, 0);
    }
}

static void round_destroy(pobj *o)
{
    round_t *r = (round_t *)o;
    free(r->reqs);
    free(r->asks);
    free(r->got.v);
    if (r->incoming) {
        for (int i = 0; i < r->expected; i++)
            free(r->incoming[i].v);
        free(r->incoming);
    }
    free(r->asked);
    free(r->racks);
    free(r);
}

static void round_free(round_t *r)
{
    untrack(&r->link);
    round_destroy(&r->link);
}

static round_t *round_new(pnr_t *p, bool dealloc, jstate_t *js, int manager, int expected)
{
    round_t *r = xcalloc(1, sizeof *r);
    r->dealloc = dealloc;
    r->js = js;
    r->manager = manager;
    r->expected = expected;
    if (dealloc)
        p->st.dealloc_rounds++;
    else
        p->st.alloc_rounds++;
    if (dealloc) {
        r->incoming = xcalloc((size_t)expected, sizeof *r->incoming);
    } else {
        r->reqs = xcalloc((size_t)expected, sizeof *r->reqs);
        r->asks = xcalloc((size_t)expected, sizeof *r->asks);
        r->asked = xcalloc((size_t)p->npes, 1);
    }
    track(p, &r->link, round_destroy);
    return r;
}

/* Free MB the manager believes server s has: its table's entry, except
 * for its own PE, whose load it knows as its broadcasts do (manager and
 * server are parts of the same servent); with global knowledge, the truth. */
static double believed_free(pnr_t *p, int manager, int s)
{
    if (p->global || s == manager)
        return pe_free_mb(&p->cl->pes[s]);
    return table_get(p, table_of(p, manager), s).avail;
}

/* Fair share (§5.2.3) by water-filling: every asker gets min(ask, level),
 * where the level is raised until the grant is used up. share[] gets each
 * requester's MB. */
static void fair_share(const double *asks, int n, double granted, double *share)
{
    double left = granted;
    int open = 0;
    for (int i = 0; i < n; i++) {
        share[i] = 0;
        if (asks[i] > EPS_MB)
            open++;
    }
    bool done[n > 0 ? n : 1];
    for (int i = 0; i < n; i++)
        done[i] = asks[i] <= EPS_MB;
    /* Invariant: left = granted - sum of shares fixed so far; open = askers
     * not yet fixed, all asking more than any level tried so far. */
    while (open > 0 && left > EPS_MB) {
        double level = left / open;
        bool capped = false;
        for (int i = 0; i < n; i++)
            if (!done[i] && asks[i] <= level) {
                share[i] = asks[i];
                left -= asks[i];
                done[i] = true;
                open--;
                capped = true;
            }
        if (!capped) {
            for (int i = 0; i < n; i++)
                if (!done[i])
                    share[i] = level;
            break;
        }
    }
}

void pnr_fair_share(const double *asks, int n, double granted, double *share)
{
    fair_share(asks, n, granted, share);
}

/* Share the grant and answer every client that asked for something. */
static void finish_alloc(pnr_t *p, round_t *r)
{
    int n = r->nreqs;
    double share[n > 0 ? n : 1];
    fair_share(r->asks, n, r->granted, share);
    /* Hand out the granted pieces in order, splitting where a share ends
     * (what is handed out leaves r->got). */
    int pi = 0;
    for (int i = 0; i < n; i++) {
        creq_t *c = r->reqs[i];
        if (!c)
            continue; /* asked for nothing, waits for nothing */
        double need = share[i];
        double got = 0;
        while (need > EPS_MB && pi < r->got.n) {
            piece_t *g = &r->got.v[pi];
            double take = need < g->mb ? need : g->mb;
            add_piece(&c->pieces, g->server, take);
            need -= take;
            got += take;
            g->mb -= take;
            if (g->mb <= EPS_MB)
                pi++;
        }
        if (p->checking && got > c->ask + 1e-6)
            check_fail(p, "client on PE %d got %.9g MB, asked %.9g", c->th->pe->id, got, c->ask);
        p->pending -= got;
        p->transit += got;
        p->st.granted_mb += got;
        if (got <= EPS_MB)
            p->st.denied++;
        else if (got + 1e-6 < c->ask)
            p->st.partial++;
        else
            p->st.satisfied++;
        c->round = NULL;
        send(p, PNR_MSG_REPLY, r->manager, c->th->pe->id, p->control_bytes + 12.0 * c->pieces.n,
             c, got, 0);
    }
    check(p);
    if (r->granted > EPS_MB)
        p->st.alloc_rounds_changed++;
    broadcast(p, r->manager, r->granted > EPS_MB);
    if (r->js && r->js->alloc == r)
        r->js->alloc = NULL;
    round_free(r);
}

/* Whether server s may be asked in round r: not asked yet and believed to
 * have more than the threshold free; *f gets what it is believed to have. */
/* Server s is not to be asked now: asked already, or (the first pass of
 * rack locality) outside the racks of the round's clients. */
static inline bool skip(const pnr_t *p, const round_t *r, int s)
{
    return r->asked[s] || (r->in_rack && !r->racks[net_rack_of(p->cl->net, s)]);
}

static bool candidate(pnr_t *p, const round_t *r, int s, double *f)
{
    if (skip(p, r, s))
        return false;
    *f = believed_free(p, r->manager, s);
    return *f > p->threshold + 2 * EPS_MB;
}

/* The lowest-numbered candidate with the most believed free RAM, or -1. */
static int worst_fit(pnr_t *p, const round_t *r)
{
    int chosen = -1;
    double best = 0, f;
    for (int s = 0; s < p->npes; s++)
        if (candidate(p, r, s, &f) && (chosen < 0 || f > best + EPS_MB)) {
            chosen = s;
            best = f;
        }
    return chosen;
}

/* The next server to ask in round r for `remaining` MB (§5.2.2), by
 * `netram.server_selection`, over the candidates (above), or -1 when there
 * is none:
 *   RANDOM_WORSTFIT  the most free RAM, ties at random (the report);
 *   WORSTFIT         the most free RAM, ties to the lowest PE number;
 *   BESTFIT          the least free RAM that still covers the remaining
 *                    request (free - threshold >= remaining), ties to the
 *                    lowest PE; when none covers it, WORSTFIT;
 *   RANDOM           a candidate drawn uniformly.
 * Ties are within EPS_MB. The random choices draw from the manager's
 * stream, and only when there is more than one choice. */
static int select_rule(pnr_t *p, const round_t *r, double remaining)
{
    double f;
    switch (p->selection) {
    case PNR_SELECT_RANDOM_WORSTFIT: {
        double best = p->threshold + EPS_MB;
        int ties = 0;
        for (int s = 0; s < p->npes; s++) {
            if (skip(p, r, s))
                continue;
            f = believed_free(p, r->manager, s);
            if (f > best + EPS_MB) {
                best = f;
                ties = 1;
            } else if (ties > 0 && fabs(f - best) <= EPS_MB) {
                ties++;
            }
        }
        if (ties == 0)
            return -1;
        rng_t *rg = rng_set_get(&p->mgr_rng, (size_t)r->manager);
        unsigned long k = ties > 1 ? rng_index(rg, (unsigned long)ties) : 0;
        for (int s = 0; s < p->npes; s++)
            if (!skip(p, r, s) && fabs(believed_free(p, r->manager, s) - best) <= EPS_MB &&
                k-- == 0)
                return s;
        assert(0 && "a tie vanished");
        return -1;
    }
    case PNR_SELECT_WORSTFIT:
        return worst_fit(p, r);
    case PNR_SELECT_BESTFIT: {
        int chosen = -1;
        double best = 0;
        for (int s = 0; s < p->npes; s++)
            if (candidate(p, r, s, &f) && f - p->threshold >= remaining - EPS_MB &&
                (chosen < 0 || f < best - EPS_MB)) {
                chosen = s;
                best = f;
            }
        return chosen >= 0 ? chosen : worst_fit(p, r);
    }
    case PNR_SELECT_RANDOM: {
        unsigned long n = 0;
        for (int s = 0; s < p->npes; s++)
            n += candidate(p, r, s, &f);
        if (n == 0)
            return -1;
        rng_t *rg = rng_set_get(&p->mgr_rng, (size_t)r->manager);
        unsigned long k = n > 1 ? rng_index(rg, n) : 0;
        for (int s = 0; s < p->npes; s++)
            if (candidate(p, r, s, &f) && k-- == 0)
                return s;
        assert(0 && "a candidate vanished");
        return -1;
    }
    }
    return -1;
}

/* The next server to ask (select_rule), with netram.locality = RACK first
 * among the servers in the racks of the round's clients (every rack that
 * holds one of its requesting threads), then among all the others. */
static int select_server(pnr_t *p, round_t *r, double remaining)
{
    if (p->locality != PNR_LOCALITY_RACK)
        return select_rule(p, r, remaining);
    if (!r->racks) {
        r->racks = xcalloc((size_t)net_rack_count(p->cl->net), 1);
        for (int i = 0; i < r->nreqs; i++)
            if (r->reqs[i])
                r->racks[net_rack_of(p->cl->net, r->reqs[i]->th->pe->id)] = 1;
    }
    r->in_rack = true;
    int s = select_rule(p, r, remaining);
    r->in_rack = false;
    return s >= 0 ? s : select_rule(p, r, remaining);
}

/* Ask the next server (select_server), or finish when the need is covered
 * or no server is left to ask. */
static void ask_next(pnr_t *p, round_t *r)
{
    double remaining = r->total_ask - r->granted;
    if (remaining <= EPS_MB) {
        finish_alloc(p, r);
        return;
    }
    int chosen = select_server(p, r, remaining);
    if (chosen < 0) {
        finish_alloc(p, r);
        return;
    }
    r->asked[chosen] = 1;
    send(p, PNR_MSG_ASK, r->manager, chosen, p->control_bytes, r, remaining, 0);
}

/* ---- hooks -------------------------------------------------------------------------- */

static void jstate_destroy(pobj *o)
{
    jstate_t *js = (jstate_t *)o;
    for (int i = 0; i < js->threads; i++)
        if (js->creqs[i]) {
            free(js->creqs[i]->pieces.v);
            free(js->creqs[i]);
        }
    free(js->creqs);
    free(js);
}

static jstate_t *jstate_of(pnr_t *p, job_t *j)
{
    if (!j->pnr) {
        jstate_t *js = xcalloc(1, sizeof *js);
        js->threads = j->threads;
        js->creqs = xcalloc((size_t)j->threads, sizeof *js->creqs);
        js->alloc_manager = -1;
        track(p, &js->link, jstate_destroy);
        j->pnr = js;
    }
    return j->pnr;
}

static bool hook_thread_starting(sim_t *sim, thread_t *th, void *ctx)
{
    pnr_t *p = ctx;
    job_t *j = th->job;
    jstate_t *js = jstate_of(p, j);
    creq_t *c = xcalloc(1, sizeof *c);
    js->creqs[th->idx] = c;
    c->th = th;
    th->pnr = c;
    double page = job_page_bytes(p->cl);
    if (p->release == PNR_RELEASE_ALL) {
        c->ask = th->L >= page ? th->L / MB_BYTES : 0;
    } else {
        /* The node asks for the part of its overallocation that neither
         * its network RAM nor its requests in progress cover: its
         * overallocation grew by this thread (§5.1.1 "when it is
         * determined that the allocation will use disk"). */
        pe_t *pe = th->pe;
        int id = pe->id;
        double diff = pe_overalloc_mb(pe) - pe->remote_mb - p->asking[id];
        c->ask = diff * MB_BYTES >= page ? diff : 0;
        p->asking[id] += c->ask;
    }
    c->t_asked = sim->now;
    round_t *r;
    if (p->strategy == PNR_CLIENT) {
        if (c->ask <= EPS_MB)
            return false; /* nothing to ask, nobody to tell */
        r = round_new(p, false, NULL, th->pe->id, 1);
    } else {
        if (!js->alloc) {
            js->alloc_manager = choose_manager(p, j, th);
            js->alloc = round_new(p, false, js, js->alloc_manager, j->threads);
        }
        r = js->alloc;
    }
    if (c->ask > EPS_MB) {
        p->st.requests++;
        p->st.asked_mb += c->ask;
    }
    /* An asker's request names its client (which waits, so stays alive);
     * a zero request names only the round: nothing is sent back to it. */
    if (c->ask > EPS_MB) {
        c->round = r;
        send(p, PNR_MSG_REQUEST, th->pe->id, r->manager, p->control_bytes, c, c->ask, 1);
    } else {
        send(p, PNR_MSG_REQUEST, th->pe->id, r->manager, p->control_bytes, r, 0, 0);
    }
    return c->ask > EPS_MB;
}

/* Sort a client's pieces most loaded server first, by its servent's own
 * table (§5.1.3). */
static void sort_pieces(pnr_t *p, int pe, pieces_t *ps)
{
    table_t *t = table_of(p, pe);
    for (int i = 1; i < ps->n; i++) {
        piece_t x = ps->v[i];
        int k = i;
        while (k > 0 && table_get(p, t, ps->v[k - 1].server).avail >
                            table_get(p, t, x.server).avail) {
            ps->v[k] = ps->v[k - 1];
            k--;
        }
        ps->v[k] = x;
    }
}

/* Release EXCESS (§5.1.3): at a thread's end (its memory already freed)
 * the node keeps the network RAM its remaining overallocation needs and
 * gives back the rest, from the servers its own table shows most loaded
 * first (splitting a piece where the excess ends). Moves the freed pieces
 * into *out and returns their MB (0: nothing to free). */
static double release_excess(pnr_t *p, pe_t *pe, pieces_t *out)
{
    pieces_t *ps = &p->node[pe->id];
    double excess = pe->remote_mb - pe_overalloc_mb(pe);
    if (excess <= EPS_MB || ps->n == 0)
        return 0;
    sort_pieces(p, pe->id, ps);
    double left = excess;
    int k = 0;
    while (k < ps->n && left > EPS_MB) {
        piece_t *x = &ps->v[k];
        if (x->mb <= left + EPS_MB) { /* the whole piece */
            add_piece(out, x->server, x->mb);
            left -= x->mb;
            k++;
        } else { /* part of it: the node keeps the rest */
            add_piece(out, x->server, left);
            x->mb -= left;
            left = 0;
        }
    }
    /* Drop the freed pieces from the front, keeping the order. */
    memmove(ps->v, ps->v + k, (size_t)(ps->n - k) * sizeof *ps->v);
    ps->n -= k;
    double freed = 0;
    for (int i = 0; i < out->n; i++)
        freed += out->v[i].mb;
    return freed;
}

static void hook_thread_ended(sim_t *sim, thread_t *th, void *ctx)
{
    pnr_t *p = ctx;
    job_t *j = th->job;
    jstate_t *js = j->pnr;
    creq_t *c = th->pnr;
    round_t *r = NULL;
    double mb;
    pieces_t out = {0}; /* the pieces the notice names */
    if (p->release == PNR_RELEASE_ALL) {
        mb = c ? c->granted : 0;
        if (c) {
            out = c->pieces;
            c->pieces = (pieces_t){0};
        }
    } else {
        mb = release_excess(p, th->pe, &out);
    }
    if (mb > EPS_MB)
        pe_remote(sim, th->pe, -mb);
    if (p->strategy == PNR_CLIENT) {
        if (out.n > 0)
            r = round_new(p, true, NULL, th->pe->id, 1);
    } else if (js) {
        if (!js->dealloc)
            js->dealloc = round_new(p, true, js, choose_manager(p, j, th), j->threads);
        r = js->dealloc;
    }
    if (r) {
        /* The notice carries the client's pieces, most loaded first. */
        int slot = p->strategy == PNR_CLIENT ? 0 : th->idx;
        if (p->release == PNR_RELEASE_ALL)
            sort_pieces(p, th->pe->id, &out);
        r->incoming[slot] = out;
        out = (pieces_t){0};
        p->held -= mb;
        p->transit += mb;
        send(p, PNR_MSG_DEALLOC, th->pe->id, r->manager,
             p->control_bytes + 12.0 * r->incoming[slot].n, r, mb, slot);
    }
    free(out.v); /* CLIENT with nothing to free: no notice */
    if (c) {
        js->creqs[th->idx] = NULL;
        free(c->pieces.v);
        free(c);
        th->pnr = NULL;
    }
    if (js && ++js->threads_ended == j->threads) {
        /* Every thread has ended: rounds still in progress go on alone. */
        if (js->alloc)
            js->alloc->js = NULL;
        if (js->dealloc)
            js->dealloc->js = NULL;
        j->pnr = NULL;
        untrack(&js->link);
        jstate_destroy(&js->link);
    }
    check(p);
}

/* The node's network RAM: the PE's threads and their client records. */
static thread_t *user_thread(pe_user *u)
{
    return (thread_t *)((char *)u - offsetof(thread_t, mem_user));
}

/* Paging to network RAM (§5.4, §5.1.1): the node uses the network RAM its
 * clients hold as additional virtual memory, as it would the disk. At a
 * fault of any thread on the PE, u ~ U(0,1) below (network RAM held by the
 * PE's threads) / (PE overallocation) sends it to the network; the server
 * is drawn in proportion to what each holds for this PE. */
static bool hook_fault(sim_t *sim, thread_t *th, void *ctx)
{
    pnr_t *p = ctx;
    (void)sim;
    pe_t *pe = th->pe;
    double over = pe_overalloc_mb(pe);
    if (pe->remote_mb <= EPS_MB || over <= EPS_MB)
        return false;
    double share = pe->remote_mb / over;
    rng_t *rg = rng_set_get(&p->fault_rng, (size_t)pe->id);
    if (rng_uniform01(rg) >= share)
        return false;
    double u = rng_uniform01(rg) * pe->remote_mb;
    int server = -1;
    /* The node's pieces (release EXCESS), then its threads' (ALL). */
    const pieces_t *np = &p->node[pe->id];
    for (int k = 0; k < np->n && server < 0; k++) {
        if (u < np->v[k].mb)
            server = np->v[k].server;
        else
            u -= np->v[k].mb;
    }
    for (pe_user *x = pe->users.next; x != &pe->users && server < 0; x = x->next) {
        creq_t *c = user_thread(x)->pnr;
        if (!c || c->granted <= EPS_MB)
            continue; /* nothing held yet (its reply may be on its way) */
        for (int k = 0; k < c->pieces.n; k++) {
            server = c->pieces.v[k].server;
            if (u < c->pieces.v[k].mb)
                break;
            u -= c->pieces.v[k].mb;
            server = -1;
        }
    }
    if (server < 0 && np->n > 0)
        server = np->v[np->n - 1].server; /* rounding: u just past the end */
    if (server < 0) {
        /* Rounding left u just past the last piece: take the last one. */
        for (pe_user *x = pe->users.prev; x != &pe->users && server < 0; x = x->prev) {
            creq_t *c = user_thread(x)->pnr;
            if (c && c->granted > EPS_MB && c->pieces.n)
                server = c->pieces.v[c->pieces.n - 1].server;
        }
        if (server < 0)
            return false;
    }
    p->st.remote_faults++;
    send(p, PNR_MSG_PAGE_OUT, pe->id, server, job_page_bytes(p->cl), th, 0, 0);
    return true;
}

/* ---- message arrivals ---------------------------------------------------------------- */

/* `freed`: the round told some server to free memory. */
static void dealloc_done(pnr_t *p, round_t *r, bool freed)
{
    check(p);
    if (freed)
        p->st.dealloc_rounds_changed++;
    broadcast(p, r->manager, freed);
    if (r->js && r->js->dealloc == r)
        r->js->dealloc = NULL;
    round_free(r);
}

/* The remote page access of thread arg is over (netram.access_latency). */
static void page_access_done(sim_t *sim, void *arg)
{
    thread_fault_done(sim, arg);
}

static void on_arrival(sim_t *sim, msg_t *m)
{
    pnr_t *p = m->agent;
    int kind = m->kind, dst = m->dst, src = m->src;
    void *ctx = m->ctx;
    double amount = m->value2;
    long tag = m->tag;
    hear(p, dst, m);
    net_msg_free(p->cl->net, m);
    p->received[(size_t)dst * PNR_NKINDS + (size_t)(kind - PNR_MSG_REQUEST)]++;
    switch (kind) {
    case PNR_MSG_REQUEST: {
        creq_t *c = tag ? ctx : NULL;
        round_t *r = c ? c->round : ctx;
        r->asks[r->nreqs] = amount;
        r->reqs[r->nreqs] = c;
        r->nreqs++;
        r->total_ask += amount;
        if (++r->received == r->expected)
            ask_next(p, r);
        return;
    }
    case PNR_MSG_ASK: {
        round_t *r = ctx;
        pe_t *pe = &p->cl->pes[dst];
        double can = pe_free_mb(pe) - p->threshold;
        double grant = can > 0 ? (amount < can ? amount : can) : 0;
        if (grant > EPS_MB) {
            pe_lend(sim, pe, grant);
            p->transit += grant;
            /* A grant never takes a server below its threshold (its own
             * threads may later do so; that is not lending). */
            if (p->checking && pe_free_mb(pe) < p->threshold - 1e-9)
                check_fail(p, "server %d lent %.9g MB and kept %.9g MB free, below the "
                              "threshold %.9g", dst, grant, pe_free_mb(pe), p->threshold);
        } else {
            grant = 0;
        }
        r->grant_server = dst;
        r->grant_mb = grant;
        check(p);
        send(p, PNR_MSG_GRANT, dst, src, p->control_bytes, r, grant, 0);
        return;
    }
    case PNR_MSG_GRANT: {
        round_t *r = ctx;
        r->grant_mb = 0;
        if (amount > 0) {
            p->transit -= amount;
            p->pending += amount;
            r->granted += amount;
            add_piece(&r->got, src, amount);
        }
        ask_next(p, r);
        return;
    }
    case PNR_MSG_REPLY: {
        creq_t *c = ctx;
        thread_t *th = c->th;
        p->transit -= amount;
        p->held += amount;
        c->granted = amount;
        if (p->release == PNR_RELEASE_EXCESS) {
            /* The grant is the node's (§5.1: the client allocates network
             * RAM on behalf of its node). */
            int id = th->pe->id;
            p->asking[id] -= c->ask;
            if (p->asking[id] < 1e-9)
                p->asking[id] = 0;
            for (int i = 0; i < c->pieces.n; i++)
                add_piece(&p->node[id], c->pieces.v[i].server, c->pieces.v[i].mb);
            c->pieces.n = 0;
        }
        if (amount > EPS_MB)
            pe_remote(sim, th->pe, amount);
        p->st.alloc_wait += sim->now - c->t_asked;
        th->job->waited_alloc += sim->now - c->t_asked;
        check(p);
        thread_proceed(sim, th);
        return;
    }
    case PNR_MSG_DEALLOC: {
        round_t *r = ctx;
        p->transit -= amount;
        p->pending += amount;
        pieces_t *in = &r->incoming[tag];
        for (int i = 0; i < in->n; i++)
            add_piece(&r->got, in->v[i].server, in->v[i].mb);
        free(in->v);
        *in = (pieces_t){0};
        if (++r->received < r->expected)
            return;
        for (int i = 0; i < r->got.n; i++) {
            if (r->got.v[i].mb <= EPS_MB)
                continue;
            p->pending -= r->got.v[i].mb;
            p->transit += r->got.v[i].mb;
            r->acks_pending++;
            send(p, PNR_MSG_FREE, r->manager, r->got.v[i].server, p->control_bytes, r,
                 r->got.v[i].mb, 0);
        }
        if (r->acks_pending == 0)
            dealloc_done(p, r, false);
        return;
    }
    case PNR_MSG_FREE: {
        round_t *r = ctx;
        for (int i = 0; i < r->got.n; i++)
            if (r->got.v[i].server == dst)
                r->got.v[i].mb = 0; /* freed */
        pe_lend(sim, &p->cl->pes[dst], -amount);
        p->transit -= amount;
        check(p);
        send(p, PNR_MSG_ACK, dst, src, p->control_bytes, r, amount, 0);
        return;
    }
    case PNR_MSG_ACK: {
        round_t *r = ctx;
        if (--r->acks_pending == 0)
            dealloc_done(p, r, true);
        return;
    }
    case PNR_MSG_BROADCAST: {
        /* Entry by entry the newer news wins (the table's own on equal
         * stamps). The result becomes a table based on s, with overrides
         * where the old table's entry won and differs from s's. */
        snapshot_t *s = ctx;
        table_t *t = table_of(p, dst);
        const entry_t *se = s->e;
        const entry_t *be = t->base ? t->base->e : NULL;
        int n = 0, k = 0, i = 0;
        while (i < p->npes) {
            /* Entries up to the next override come from the base: a tight
             * loop, since most of them equal s's (shared history). */
            int end = k < t->n ? t->o[k].pe : p->npes;
            while (i < end) {
                /* Blocks equal bit for bit need no look inside. */
                if (be && end - i >= 32 && !memcmp(be + i, se + i, 32 * sizeof *se)) {
                    i += 32;
                    continue;
                }
                for (int stop = end - i > 32 ? i + 32 : end; i < stop; i++) {
                    entry_t cur = be ? be[i] : (entry_t){p->cl->pes[i].ram_mb, -1};
                    if (se[i].stamp > cur.stamp ||
                        (cur.avail == se[i].avail && cur.stamp == se[i].stamp))
                        continue; /* s's entry */
                    grow_overrides(&p->scratch, &p->scratch_cap, n + 1);
                    p->scratch[n++] = (override_t){i, cur};
                }
            }
            if (i == p->npes)
                break;
            entry_t cur = t->o[k++].v; /* the override at i */
            if (!(se[i].stamp > cur.stamp) &&
                !(cur.avail == se[i].avail && cur.stamp == se[i].stamp)) {
                grow_overrides(&p->scratch, &p->scratch_cap, n + 1);
                p->scratch[n++] = (override_t){i, cur};
            }
            i++;
        }
        /* Swap the override lists; the old one becomes the spare. */
        override_t *o = t->o;
        int cap = t->cap;
        t->o = p->scratch;
        t->cap = p->scratch_cap;
        t->n = n;
        p->scratch = o;
        p->scratch_cap = cap;
        snapshot_t *old = t->base;
        t->base = s; /* the message's reference passes to the table */
        if (p->checking && p->shadow) {
            entry_t *sh = p->shadow + (size_t)dst * (size_t)p->npes;
            for (int j = 0; j < p->npes; j++)
                if (se[j].stamp > sh[j].stamp)
                    sh[j] = se[j];
            shadow_compare(p, dst);
        }
        snapshot_release(old);
        return;
    }
    case PNR_MSG_PAGE_OUT:
        /* The remote memory answers instantly with the page (§5.4). */
        send(p, PNR_MSG_PAGE_IN, dst, src, job_page_bytes(p->cl), ctx, 0, 0);
        return;
    case PNR_MSG_PAGE_IN:
        /* netram.access_latency (issue 15): the remote device's fixed
         * access time, added when the page is back, so it delays the
         * faulting thread and not the network. */
        if (p->access_latency > 0)
            ev_once(sim, sim->now + p->access_latency, page_access_done, ctx);
        else
            thread_fault_done(sim, ctx);
        return;
    default:
        assert(0 && "unknown PNR message");
    }
}

static pnr_create_hook create_hook;
static void *create_hook_ctx;

void pnr_set_create_hook(pnr_create_hook fn, void *ctx)
{
    create_hook = fn;
    create_hook_ctx = ctx;
}

pnr_t *pnr_create(sim_t *sim, cluster_t *cl, const pnr_params *c, uint64_t seed)
{
    pnr_t *p = xcalloc(1, sizeof *p);
    p->sim = sim;
    p->cl = cl;
    p->strategy = c->strategy;
    p->global = c->global_knowledge;
    p->threshold = c->server_threshold;
    p->npes = cl->npes;
    p->control_bytes = c->control_bytes;
    p->release = c->release;
    p->selection = c->selection;
    p->access_latency = c->access_latency;
    p->locality = c->locality;
    p->node = xcalloc((size_t)cl->npes, sizeof *p->node);
    p->asking = xcalloc((size_t)cl->npes, sizeof *p->asking);
    p->nmanagers = p->strategy == PNR_BACKBONE ? c->managers : 1;
    if (p->nmanagers > p->npes)
        p->nmanagers = p->npes;
    p->managers = xcalloc((size_t)p->nmanagers, sizeof *p->managers);
    for (int k = 0; k < p->nmanagers; k++)
        p->managers[k] = (int)((long)k * p->npes / p->nmanagers);
    p->tables = xcalloc((size_t)p->npes, sizeof *p->tables);
    rng_set_init(&p->mgr_rng, seed, "pnr-manager", (size_t)p->npes);
    rng_set_init(&p->fault_rng, seed, "pnr-fault", (size_t)p->npes);
    p->received = xcalloc((size_t)p->npes * PNR_NKINDS, sizeof *p->received);
    p->claimed = xcalloc((size_t)p->npes, sizeof *p->claimed);
    p->choice_rng = rng_stream(seed, "pnr-choice", 0);
    p->objs.next = p->objs.prev = &p->objs;
    cl->hooks.thread_starting = hook_thread_starting;
    cl->hooks.thread_ended = hook_thread_ended;
    cl->hooks.fault = hook_fault;
    cl->hooks.pnr_ctx = p;
    if (create_hook)
        create_hook(p, create_hook_ctx);
    return p;
}

uint64_t pnr_received(const pnr_t *p, int pe, int kind)
{
    int k = kind - PNR_MSG_REQUEST;
    if (pe < 0 || pe >= p->npes || k < 0 || k >= PNR_NKINDS)
        return 0;
    return p->received[(size_t)pe * PNR_NKINDS + (size_t)k];
}

int pnr_job_manager(const pnr_t *p, const job_t *j)
{
    const jstate_t *js = j->pnr;
    (void)p;
    return js ? js->alloc_manager : -1;
}

void pnr_destroy(sim_t *sim, pnr_t *p)
{
    (void)sim;
    if (!p)
        return;
    /* Protocol objects still alive (a run stopped part way). */
    while (p->objs.next != &p->objs) {
        pobj *o = p->objs.next;
        untrack(o);
        o->destroy(o);
    }
    for (int i = 0; i < p->npes; i++) {
        free(p->node[i].v);
        free(p->tables[i].o); /* bases: freed with the tracked objects */
    }
    rng_set_free(&p->mgr_rng);
    rng_set_free(&p->fault_rng);
    rng_free(p->choice_rng);
    free(p->tables);
    free(p->scratch);
    free(p->node);
    free(p->asking);
    free(p->received);
    free(p->claimed);
    free(p->shadow);
    free(p->managers);
    free(p);
}
