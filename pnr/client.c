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
 * strategies, maybe empty; under per-thread coordination, CLIENT's, only a
 * thread with something to free). The strategy (p->strat) names the
 * managers and hears of threads starting and ending; it may have a node
 * give back network RAM (pnr_host_release: a DEALLOC round of the node's
 * own, as after a thread's shrinking). Faults: a uniform
 * draw against (network RAM the node holds) / (its overallocation) sends
 * a fault to the network as a PAGE_OUT / PAGE_IN round trip to a server
 * drawn in proportion to what it holds for the node (the draw is
 * paging.c's). Under netram.transport = RDMA the round trip
 * is an RDMA READ the thread waits for and an RDMA WRITE of the evicted
 * page at the same instant (frame.c's pnr_rdma_post), no server agent;
 * with netram.rdma_read = ROUND_TRIP the READ is its request to the
 * server's NIC and then the page back (frame.c), rdma_latency at its end.
 *
 * In pnr/: the highest agent, above the frame (it posts through it and
 * receives through the handlers pnr_client_init fills), rounds.c (it opens
 * the rounds the manager runs), paging.c and client_batch.c (the batched
 * mode's part, called at the two points where the node's pieces change:
 * pnr_batch_pieces_changed); only the top file (pnr.c) is above it.
 */
#include "pnr/client.h"

#include "pnr/check.h"
#include "pnr/client_batch.h"
#include "pnr/frame.h"
#include "pnr/objects.h"
#include "pnr/paging.h"
#include "pnr/reclaim.h"
#include "pnr/rounds.h"
#include "pnr/strategy_host.h"
#include "pnr/table.h"

#include "sched/job_cost.h"

#include "core/mem.h"

#include <assert.h>
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

/* DEALLOC to round r's manager from PE src: mb MB given back, in the
 * pieces waiting in r->incoming[slot] (12 bytes each). */
static void send_dealloc(pnr_t *p, int src, round_t *r, int slot, double mb)
{
    pnr_dealloc_msg *d = PNR_MSG_NEW(pnr_dealloc_msg, p, PNR_MSG_DEALLOC, src, r->manager,
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

/* The manager for a job's allocation or deallocation, or (per-thread
 * coordination) a thread's: the strategy's choice (§5.5; the report's in
 * strategies.c), once per round. */
static int choose_manager(pnr_t *p, const job_t *j, const thread_t *th)
{
    int m = p->strat->manager(p->strat_state, pnr_host_of(p), pnr_job_of(j), th->pe->id);
    if (m < 0 || m >= p->npes)
        pnr_strategy_broken(p, "manager() returned %d for job %ld (a node 0 .. %d)", m, j->id,
                            p->npes - 1);
    return m;
}

bool pnr_thread_starting(sim_t *sim, thread_t *th, void *ctx)
{
    pnr_t *p = ctx;
    job_t *j = th->job;
    jstate_t *js = pnr_jstate_of(p, j);
    creq_t *c = xcalloc(1, sizeof *c);
    js->creqs[th->idx] = c;
    c->th = th;
    c->pe = th->pe->id;
    th->pnr = c;
    double page = job_page_bytes(p->cl);
    /* A lender its own threads now overallocate takes memory back first
     * (netram.reclaim; nothing under NONE). */
    pnr_take_back(p, th->pe);
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
    if (p->strat->thread_started)
        p->strat->thread_started(p->strat_state, pnr_host_of(p), pnr_job_of(j), th->idx,
                                 th->pe->id, c->ask);
    if (p->strat->overallocated && pe_overalloc_mb(th->pe) > EPS_MB)
        p->strat->overallocated(p->strat_state, pnr_host_of(p), th->pe->id,
                                pe_overalloc_mb(th->pe));
    round_t *r;
    if (p->strat->coordination == PNR_COORD_THREAD) {
        if (c->ask <= EPS_MB)
            return false; /* nothing to ask, nobody to tell */
        r = pnr_round_new(p, false, NULL, choose_manager(p, j, th), 1);
    } else {
        if (!js->alloc) {
            js->alloc_manager = choose_manager(p, j, th);
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

/* Give back `excess` MB of the node's pieces, from the servers its own
 * table shows most loaded first (splitting a piece where the excess ends).
 * Moves the freed pieces into *out (empty) and returns their MB (0:
 * nothing to free). */
static double release_node(pnr_t *p, pe_t *pe, double excess, pieces_t *out)
{
    pieces_t *ps = &p->node[pe->id];
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

/* Release EXCESS (§5.1.3): at a thread's end (its memory already freed)
 * the node keeps the network RAM its remaining overallocation needs and
 * gives back the rest (release_node). */
static double release_excess(pnr_t *p, pe_t *pe, pieces_t *out)
{
    return release_node(p, pe, pe->remote_mb - pe_overalloc_mb(pe), out);
}

/* The node's network RAM beyond what its overallocation needs goes back
 * (release_excess) in a DEALLOC notice of its own to `manager`, outside
 * any job's round: after a thread's memory shrank (pnr_thread_resized) or
 * a re-request's reply (reask_replied). */
static void give_back_excess(sim_t *sim, pnr_t *p, pe_t *pe, int manager)
{
    pieces_t out = {0};
    double mb = release_excess(p, pe, &out);
    if (mb > EPS_MB) {
        if (p->strat->underallocated)
            p->strat->underallocated(p->strat_state, pnr_host_of(p), pe->id, mb);
        pe_remote(sim, pe, -mb);
        round_t *r = pnr_round_new(p, true, NULL, manager, 1);
        r->incoming[0] = out;
        out = (pieces_t){0};
        p->held -= mb;
        p->transit += mb;
        send_dealloc(p, pe->id, r, 0, mb);
    }
    free(out.v);
}

/* pnr_host_release: take up to `want` MB from the pieces ps of node id,
 * the servers its table shows most loaded first (sort_pieces), splitting
 * a piece where `want` ends; the pieces taken join *out. Returns the MB
 * taken. */
static double take_pieces(pnr_t *p, int id, pieces_t *ps, double want, pieces_t *out)
{
    if (want <= EPS_MB || ps->n == 0)
        return 0;
    sort_pieces(p, id, ps);
    double took = 0;
    int k = 0;
    while (k < ps->n && want - took > EPS_MB) {
        piece_t *x = &ps->v[k];
        if (x->mb <= want - took + EPS_MB) { /* the whole piece */
            pnr_add_piece(out, x->server, x->mb);
            took += x->mb;
            k++;
        } else { /* part of it */
            pnr_add_piece(out, x->server, want - took);
            x->mb -= want - took;
            took = want;
        }
    }
    memmove(ps->v, ps->v + k, (size_t)(ps->n - k) * sizeof *ps->v);
    ps->n -= k;
    return took;
}

double pnr_host_release(pnr_host *h, int node, double mb)
{
    pnr_t *p = (pnr_t *)h;
    pnr_strategy_may_act(p, "pnr_host_release");
    if (node < 0 || node >= p->npes)
        pnr_strategy_broken(p, "pnr_host_release of node %d, not a node", node);
    pe_t *pe = &p->cl->pes[node];
    if (!(mb > EPS_MB) || pe->remote_mb <= EPS_MB)
        return 0;
    pnr_batch_pieces_changed(p->sim, pe); /* the node's pieces change */
    pieces_t out = {0};
    /* The node's pieces, then (release ALL) its threads' in start order. */
    double took = take_pieces(p, node, &p->node[node], mb, &out);
    if (p->release == PNR_RELEASE_ALL) {
        for (pe_user *x = pe_user_first(pe); x && mb - took > EPS_MB; x = pe_user_next(pe, x)) {
            creq_t *c = container_of(x, thread_t, mem_user)->pnr;
            if (c && c->granted > EPS_MB) {
                double t = take_pieces(p, node, &c->pieces, mb - took, &out);
                c->granted -= t;
                took += t;
            }
        }
    }
    if (took <= EPS_MB) {
        free(out.v);
        return 0;
    }
    /* As a node's notice of its own (give_back_excess): a DEALLOC in a
     * round of its own, its pieces most loaded first. */
    sort_pieces(p, node, &out);
    pe_remote(p->sim, pe, -took);
    round_t *r = pnr_round_new(p, true, NULL, pnr_node_manager(p, node), 1);
    r->incoming[0] = out;
    p->held -= took;
    p->transit += took;
    send_dealloc(p, node, r, 0, took);
    pnr_check(p);
    return took;
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
    pnr_batch_pieces_changed(sim, th->pe); /* the node's pieces change */
    if (p->release == PNR_RELEASE_ALL) {
        mb = c ? c->granted : 0;
        if (c) {
            out = c->pieces;
            c->pieces = (pieces_t){0};
        }
        if (p->node[th->pe->id].n > 0) {
            /* Pieces the node got again after a reclaim (REPLACE): what
             * exceeds its remaining overallocation goes too, as EXCESS
             * frees (its threads' grants, already counted, aside). */
            pieces_t more = {0};
            double extra = release_node(p, th->pe,
                                        th->pe->remote_mb - mb - pe_overalloc_mb(th->pe), &more);
            for (int i = 0; i < more.n; i++)
                pnr_add_piece(&out, more.v[i].server, more.v[i].mb);
            free(more.v);
            mb += extra;
        }
    } else {
        mb = release_excess(p, th->pe, &out);
    }
    if (mb > EPS_MB)
        pe_remote(sim, th->pe, -mb);
    if (p->strat->thread_ended)
        p->strat->thread_ended(p->strat_state, pnr_host_of(p), pnr_job_of(j), th->idx,
                               th->pe->id, mb > EPS_MB ? mb : 0);
    if (p->strat->underallocated && mb > EPS_MB)
        p->strat->underallocated(p->strat_state, pnr_host_of(p), th->pe->id, mb);
    bool alone = p->strat->coordination == PNR_COORD_THREAD;
    if (alone) {
        if (out.n > 0)
            r = pnr_round_new(p, true, NULL, choose_manager(p, j, th), 1);
    } else if (js) {
        if (!js->dealloc)
            js->dealloc = pnr_round_new(p, true, js, choose_manager(p, j, th), j->threads);
        r = js->dealloc;
    }
    if (r) {
        /* The notice carries the client's pieces, most loaded first. */
        int slot = alone ? 0 : th->idx;
        if (p->release == PNR_RELEASE_ALL)
            sort_pieces(p, th->pe->id, &out);
        r->incoming[slot] = out;
        out = (pieces_t){0};
        p->held -= mb;
        p->transit += mb;
        send_dealloc(p, th->pe->id, r, slot, mb);
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

/* ---- a thread's memory changes (memory profile) ------------------------------ */

void pnr_thread_resized(sim_t *sim, thread_t *th, double mb, void *ctx)
{
    pnr_t *p = ctx;
    pe_t *pe = th->pe;
    int id = pe->id;
    /* Release ALL (a thread holds its own grant) is refused with a profile
     * (app/config.c): a grant of the node's, EXCESS, follows its sum. */
    assert(p->release == PNR_RELEASE_EXCESS);
    if (mb > 0) {
        /* As at a thread's start: a lender its own threads now overallocate
         * takes memory back first; then the node asks for what neither its
         * network RAM nor its requests in progress cover (§5.1.1). The
         * thread does not wait: it pages to disk until the REPLY. */
        pnr_take_back(p, pe);
        if (p->strat->overallocated && pe_overalloc_mb(pe) > EPS_MB)
            p->strat->overallocated(p->strat_state, pnr_host_of(p), id, pe_overalloc_mb(pe));
        double diff = pe_overalloc_mb(pe) - pe->remote_mb - p->asking[id];
        if (diff * MB_BYTES >= job_page_bytes(p->cl))
            pnr_reask(p, id, diff, true);
    } else {
        /* As at a thread's end: the node keeps what its overallocation
         * needs and gives back the rest, in a notice of its own. */
        pnr_batch_pieces_changed(sim, pe); /* the node's pieces change */
        give_back_excess(sim, p, pe, pnr_node_manager(p, id));
    }
    pnr_check(p);
}

/* The faulting core's CPU time of sending a PAGE_OUT is over: it leaves. */
static void page_out_sent(sim_t *sim, cost_work *w)
{
    (void)sim;
    send_page_out(w->ctx, w->arg, w->a);
}

bool pnr_fault(sim_t *sim, thread_t *th, void *ctx)
{
    pnr_t *p = ctx;
    pe_t *pe = th->pe;
    int server = pnr_fault_server(p, pe);
    if (server < 0)
        return false;
    p->st.remote_faults++;
    if (p->transport == PNR_TRANSPORT_RDMA) {
        /* One-sided (docs/MODEL.md "One-sided far memory"): the thread
         * waits for the RDMA READ of its page from the server's NIC; the
         * RDMA WRITE of the page it evicts leaves at the same instant,
         * posted second, and nobody waits for it. */
        pnr_rdma_post(p, PNR_RDMA_READ, server, pe->id, th);
        pnr_rdma_post(p, PNR_RDMA_WRITE, pe->id, server, NULL);
    } else if (p->message_cpu > 0) {
        /* Issue 33: the faulting core sends the PAGE_OUT first (a batch
         * of another thread on that core ends first: batched paging). */
        job_batch_cpu_end(sim, th);
        cost_work *w = cost_on_core(sim, p->cl, th->core_cpu, p->message_cpu, COST_MESSAGE,
                                    page_out_sent);
        w->ctx = p;
        w->arg = th;
        w->a = server;
    } else {
        send_page_out(p, th, server);
    }
    return true;
}


/* EXCESS: node id's request of `ask` MB is answered; what its requests in
 * progress ask drops by it (rounding below 1e-9 MB is 0). */
static void asking_settled(pnr_t *p, int id, double ask)
{
    p->asking[id] -= ask;
    if (p->asking[id] < 1e-9)
        p->asking[id] = 0;
}

/* The pieces a grant brought to c join node id's pool (§5.1.1). */
static void pieces_to_node(pnr_t *p, int id, creq_t *c)
{
    for (int i = 0; i < c->pieces.n; i++)
        pnr_add_piece(&p->node[id], c->pieces.v[i].server, c->pieces.v[i].mb);
    c->pieces.n = 0;
}
/* REPLY to a node's request again after a reclaim (REPLACE, reclaim.c)
 * or a thread's growth (pnr_thread_resized):
 * the grant joins the node's pieces; what the node no longer needs (its
 * threads ended or shrank meanwhile) it gives back at once, in a DEALLOC
 * to the same manager. Nobody waits. */
static void reask_replied(pnr_t *p, creq_t *c, double amount)
{
    sim_t *sim = p->sim;
    reask_t *ra = container_of(c, reask_t, c);
    int id = c->pe;
    pe_t *pe = &p->cl->pes[id];
    pnr_batch_pieces_changed(sim, pe);
    p->transit -= amount;
    p->held += amount;
    if (p->release == PNR_RELEASE_EXCESS)
        asking_settled(p, id, c->ask);
    pieces_to_node(p, id, c);
    if (amount > EPS_MB)
        pe_remote(sim, pe, amount);
    if (!ra->grow)
        p->st.reclaim_replaced_mb += amount;
    give_back_excess(sim, p, pe, ra->manager);
    pnr_reask_free(ra);
    pnr_check(p);
}

/* REPLY from the manager: the client's grant (its pieces are already in
 * its list). The thread proceeds. */
static void reply_arrived(pnr_t *p, const pnr_reply_msg *m)
{
    sim_t *sim = p->sim;
    creq_t *c = m->client;
    double amount = m->mb;
    thread_t *th = c->th;
    if (!th) {
        reask_replied(p, c, amount);
        return;
    }
    /* The node's pieces change: a fault batch on the PE drew its servers
     * from the old ones. */
    pnr_batch_pieces_changed(sim, th->pe);
    p->transit -= amount;
    p->held += amount;
    c->granted = amount;
    if (p->release == PNR_RELEASE_EXCESS) {
        /* The grant is the node's (§5.1: the client allocates network
         * RAM on behalf of its node). */
        int id = th->pe->id;
        asking_settled(p, id, c->ask);
        pieces_to_node(p, id, c);
    }
    if (amount > EPS_MB)
        pe_remote(sim, th->pe, amount);
    p->st.alloc_wait += sim->now - c->t_asked;
    th->job->waited_alloc += sim->now - c->t_asked;
    pnr_check(p);
    thread_proceed(sim, th);
}

/* The faulting core's CPU time of receiving the PAGE_IN is over. */
static void page_in_received(sim_t *sim, cost_work *w)
{
    thread_fault_done(sim, w->arg);
}

/* The page of thread th's fault is back and accessed: under MESSAGES with
 * netram.message_cpu its core receives it first (issue 33: as an
 * interrupt, which preempts whoever computes there, e.g. another slot's
 * thread after a job switch), then the thread goes on. */
static void page_back(pnr_t *p, thread_t *th)
{
    if (p->transport == PNR_TRANSPORT_MESSAGES && p->message_cpu > 0) {
        job_batch_cpu_end(p->sim, th); /* a batch on that core ends first */
        cost_interrupt(p->sim, p->cl, th->core_cpu, p->message_cpu, COST_MESSAGE,
                       page_in_received)->arg = th;
    } else {
        thread_fault_done(p->sim, th);
    }
}

/* The remote page access of thread arg is over (netram.access_latency). */
static void page_access_done(sim_t *sim, void *arg)
{
    thread_t *th = arg;
    (void)sim;
    page_back(th->job->cl->hooks.pnr_ctx, th);
}

/* PAGE_IN from a server: the thread's fault is served, after
 * netram.access_latency (issue 15: the remote device's fixed access time,
 * added when the page is back, so it delays the faulting thread and not the
 * network). */
static void page_in_arrived(pnr_t *p, const pnr_page_msg *m)
{
    if (p->access_latency > 0)
        ev_once(p->sim, p->sim->now + p->access_latency, page_access_done, m->th);
    else
        page_back(p, m->th);
}

/* RDMA READ arrived (netram.transport = RDMA): the operation's
 * NIC-to-NIC latency (netram.rdma_latency, once per operation, at its end)
 * and then netram.access_latency, as for a PAGE_IN, before the thread goes
 * on. */
static void rdma_read_arrived(pnr_t *p, const pnr_page_msg *m)
{
    double wait = p->rdma_latency + p->access_latency;
    if (wait > 0)
        ev_once(p->sim, p->sim->now + wait, page_access_done, m->th);
    else
        thread_fault_done(p->sim, m->th);
}

void pnr_client_init(pnr_t *p)
{
    p->handlers.on_rdma_read = rdma_read_arrived;
    p->handlers.on_reply = reply_arrived;
    p->handlers.on_page_in = page_in_arrived;
}
