/* pnr/client.c: the client (techreport §5.1) and paging to network RAM
 * (§5.4): the three hooks pnr_create installs in the cluster and the
 * messages a client receives.
 *
 * Thread start: the client sends its manager a REQUEST (0 MB when nothing
 * is to be asked, so coordinated managers count every thread); a thread
 * that asked for more than 0 waits for the REPLY. Under release EXCESS the
 * request is the node's overallocation not yet covered by its network RAM
 * or by requests in progress, and a grant joins the node's pieces; under
 * release ALL the thread asks its own L and holds its grant itself.
 * Thread end: the node gives back what exceeds its remaining
 * overallocation (EXCESS, most loaded servers first by its own table) or
 * the thread's whole grant (ALL), in a DEALLOC notice to the job's
 * deallocation round (every thread sends one under the coordinated
 * strategies, maybe empty; under CLIENT only a thread with something to
 * free). Faults: a uniform draw against (network RAM the node holds) /
 * (its overallocation) sends a fault to the network as a PAGE_OUT / PAGE_IN
 * round trip to a server drawn in proportion to what it holds for the node.
 */
#include "pnr/check.h"

#include "core/mem.h"

#include <stdlib.h>
#include <string.h>

/* ---- the messages a client sends ------------------------------------------ */

/* REQUEST to round r's manager from thread th: client c asks for mb MB
 * (c NULL, mb 0: a zero request, which names only the round: nothing is
 * sent back to it). */
static void send_request(pnr_t *p, const thread_t *th, round_t *r, creq_t *c, double mb)
{
    pnr_request_msg *q = PNR_MSG_NEW(pnr_request_msg, p, PNR_MSG_REQUEST, th->pe->id,
                                     r->manager, p->control_bytes);
    q->round = r;
    q->client = c;
    q->mb = mb;
    pnr_post(p, &q->h);
}

/* DEALLOC to round r's manager from thread th: mb MB given back, in the
 * pieces waiting in r->incoming[slot] (12 bytes each). */
static void send_dealloc(pnr_t *p, const thread_t *th, round_t *r, int slot, double mb)
{
    pnr_dealloc_msg *d = PNR_MSG_NEW(pnr_dealloc_msg, p, PNR_MSG_DEALLOC, th->pe->id, r->manager,
                                     p->control_bytes + 12.0 * r->incoming[slot].n);
    d->round = r;
    d->mb = mb;
    d->slot = slot;
    pnr_post(p, &d->h);
}

/* PAGE_OUT from th's PE to `server`: a page request carrying a page. */
static void send_page_out(pnr_t *p, thread_t *th, int server)
{
    pnr_page_msg *o = PNR_MSG_NEW(pnr_page_msg, p, PNR_MSG_PAGE_OUT, th->pe->id, server,
                                  job_page_bytes(p->cl));
    o->th = th;
    pnr_post(p, &o->h);
}

/* ---- thread start and end ---------------------------------------------------- */

bool pnr_thread_starting(sim_t *sim, thread_t *th, void *ctx)
{
    pnr_t *p = ctx;
    job_t *j = th->job;
    jstate_t *js = pnr_jstate_of(p, j);
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
        r = pnr_round_new(p, false, NULL, th->pe->id, 1);
    } else {
        if (!js->alloc) {
            js->alloc_manager = pnr_choose_manager(p, j, th);
            js->alloc = pnr_round_new(p, false, js, js->alloc_manager, j->threads);
        }
        r = js->alloc;
    }
    if (c->ask > EPS_MB) {
        p->st.requests++;
        p->st.asked_mb += c->ask;
    }
    /* An asker's request names its client (which waits, so stays alive). */
    if (c->ask > EPS_MB) {
        c->round = r;
        send_request(p, th, r, c, c->ask);
    } else {
        send_request(p, th, r, NULL, 0);
    }
    return c->ask > EPS_MB;
}

/* Sort a client's pieces most loaded server first, by its servent's own
 * table (§5.1.3). Stable (insertion sort). */
static void sort_pieces(pnr_t *p, int pe, pieces_t *ps)
{
    table_t *t = &p->tables[pe];
    for (int i = 1; i < ps->n; i++) {
        piece_t x = ps->v[i];
        int k = i;
        while (k > 0 && pnr_table_get(p, t, ps->v[k - 1].server).avail >
                            pnr_table_get(p, t, x.server).avail) {
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
            pnr_add_piece(out, x->server, x->mb);
            left -= x->mb;
            k++;
        } else { /* part of it: the node keeps the rest */
            pnr_add_piece(out, x->server, left);
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

void pnr_thread_ended(sim_t *sim, thread_t *th, void *ctx)
{
    pnr_t *p = ctx;
    job_t *j = th->job;
    jstate_t *js = j->pnr;
    creq_t *c = th->pnr;
    round_t *r = NULL;
    double mb;
    pieces_t out = {0}; /* the pieces the notice names */
    pe_batch_end(sim, th->pe); /* the PE's pieces change (sched/batch.c) */
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
            r = pnr_round_new(p, true, NULL, th->pe->id, 1);
    } else if (js) {
        if (!js->dealloc)
            js->dealloc = pnr_round_new(p, true, js, pnr_choose_manager(p, j, th), j->threads);
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
        send_dealloc(p, th, r, slot, mb);
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
        pnr_jstate_free(js);
    }
    pnr_check(p);
}

/* The thread a PE user record belongs to. */
static thread_t *user_thread(pe_user *u)
{
    return container_of(u, thread_t, mem_user);
}

/* Paging to network RAM (§5.4, §5.1.1): the node uses the network RAM its
 * clients hold as additional virtual memory, as it would the disk. At a
 * fault of any thread on the PE, u ~ U(0,1) below (network RAM held by the
 * PE's threads) / (PE overallocation) sends it to the network; the server
 * is drawn in proportion to what each holds for this PE. Returns that
 * server, or -1 for the disk. The draws are the same whether the fault is
 * then sent (pnr_fault) or planned in a batch (pnr_fault_plan). */
static int fault_server(pnr_t *p, pe_t *pe)
{
    double over = pe_overalloc_mb(pe);
    if (pe->remote_mb <= EPS_MB || over <= EPS_MB)
        return -1;
    double share = pe->remote_mb / over;
    rng_t *rg = rng_set_get(&p->fault_rng, (size_t)pe->id);
    if (rng_uniform01(rg) >= share)
        return -1;
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
    for (pe_user *x = pe_user_first(pe); x && server < 0; x = pe_user_next(pe, x)) {
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
        for (pe_user *x = pe_user_last(pe); x && server < 0; x = pe_user_prev(pe, x)) {
            creq_t *c = user_thread(x)->pnr;
            if (c && c->granted > EPS_MB && c->pieces.n)
                server = c->pieces.v[c->pieces.n - 1].server;
        }
    }
    return server;
}

bool pnr_fault(sim_t *sim, thread_t *th, void *ctx)
{
    pnr_t *p = ctx;
    (void)sim;
    pe_t *pe = th->pe;
    int server = fault_server(p, pe);
    if (server < 0)
        return false;
    p->st.remote_faults++;
    send_page_out(p, th, server);
    return true;
}

/* The remote service of a fault from client c to server s (its entry in
 * p->plan, worked out on a miss). */
static const struct plan_entry *plan_of(pnr_t *p, int c, int s)
{
    struct plan_entry *e = &p->plan[((unsigned)c * 40503u + (unsigned)s) & (PNR_PLAN_SLOTS - 1)];
    if (e->c != c || e->s != s) {
        double page = job_page_bytes(p->cl);
        e->c = c;
        e->s = s;
        e->out = net_idle_time(p->cl->net, c, s, page);
        e->svc = e->out + net_idle_time(p->cl->net, s, c, page) + p->access_latency;
    }
    return e;
}

/* Batched paging (job_hooks.fault_plan): a fault's destination drawn as
 * pnr_fault draws it; a remote one takes the page out and back on an idle
 * route, then the access latency (as pnr_on_page_in). Nothing is batched
 * while the network is observed (the observer must see every crossing). */
int pnr_fault_plan(thread_t *th, void *ctx, double *svc)
{
    pnr_t *p = ctx;
    if (net_observed(p->cl->net))
        return -2;
    int server = fault_server(p, th->pe);
    if (server < 0)
        return server;
    *svc = plan_of(p, th->pe->id, server)->svc;
    return server;
}

/* Batched paging (job_hooks.fault_count): n remote faults of th to server,
 * served in a batch, the last of them begun at last_at, counted as
 * pnr_fault, pnr_post, the network and on_arrival count a PAGE_OUT and its
 * PAGE_IN. The loads the messages carry are heard now, with the stamps of
 * the last pair: the client's load is the one it had all through the batch
 * (a change of it ends the batch first); the server's is its load now,
 * which may be newer than when that PAGE_IN left (docs/BATCHING.md). */
void pnr_fault_count(thread_t *th, int server, uint64_t n, double last_at, void *ctx)
{
    pnr_t *p = ctx;
    net_t *net = p->cl->net;
    double page = job_page_bytes(p->cl);
    int c = th->pe->id;
    const int out = PNR_MSG_PAGE_OUT - PNR_MSG_REQUEST, in = PNR_MSG_PAGE_IN - PNR_MSG_REQUEST;
    p->st.remote_faults += n;
    p->st.msgs[out] += n;
    p->st.bytes[out] += (double)n * page;
    p->st.msgs[in] += n;
    p->st.bytes[in] += (double)n * page;
    p->received[(size_t)server * PNR_NKINDS + (size_t)out] += n;
    p->received[(size_t)c * PNR_NKINDS + (size_t)in] += n;
    net_count_idle(net, c, server, page, n);
    net_count_idle(net, server, c, page, n);
    pnr_hear(p, server, c, pe_free_mb(th->pe), last_at);
    pnr_hear(p, c, server, pe_free_mb(&p->cl->pes[server]), last_at + plan_of(p, c, server)->out);
}

/* REPLY from the manager: the client's grant (its pieces are already in
 * its list). The thread proceeds. */
void pnr_on_reply(pnr_t *p, const pnr_reply_msg *m)
{
    sim_t *sim = p->sim;
    creq_t *c = m->client;
    double amount = m->mb;
    thread_t *th = c->th;
    /* The node's pieces change: a fault batch on the PE drew its servers
     * from the old ones (sched/batch.c). */
    pe_batch_end(sim, th->pe);
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
            pnr_add_piece(&p->node[id], c->pieces.v[i].server, c->pieces.v[i].mb);
        c->pieces.n = 0;
    }
    if (amount > EPS_MB)
        pe_remote(sim, th->pe, amount);
    p->st.alloc_wait += sim->now - c->t_asked;
    th->job->waited_alloc += sim->now - c->t_asked;
    pnr_check(p);
    thread_proceed(sim, th);
}

/* The remote page access of thread arg is over (netram.access_latency). */
static void page_access_done(sim_t *sim, void *arg)
{
    thread_fault_done(sim, arg);
}

/* PAGE_IN from a server: the thread's fault is served, after
 * netram.access_latency (issue 15: the remote device's fixed access time,
 * added when the page is back, so it delays the faulting thread and not the
 * network). */
void pnr_on_page_in(pnr_t *p, const pnr_page_msg *m)
{
    if (p->access_latency > 0)
        ev_once(p->sim, p->sim->now + p->access_latency, page_access_done, m->th);
    else
        thread_fault_done(p->sim, m->th);
}
