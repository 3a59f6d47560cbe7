/* pnr/manager.c: the manager (techreport §5.2).
 *
 * A manager works in rounds. An allocation round collects the requests of
 * a job's clients (all its threads, zero requests included, so the round
 * knows when it has them all; under CLIENT one thread's alone), then asks
 * servers one at a time (ASK, answered by GRANT) in the order select.c
 * chooses, until the total is granted or no server is left, then shares
 * the grant fairly and answers every client that asked for something
 * (REPLY). A deallocation round collects the job's notices (DEALLOC, each
 * carrying the pieces its node gives back), then tells every server
 * concerned what to free (FREE) and ends when all have acknowledged (ACK).
 * After a round that allocated or freed network RAM, MANAGER and BACKBONE
 * broadcast the manager's table (table.c). The manager's work is instant
 * when a message arrives; only the network costs time.
 *
 * Per job, pnr_jstate_of (rounds.c) keeps the job's rounds and its
 * clients' records; a round outlives its job's state when the job ends
 * first (js = NULL).
 *
 * In pnr/: an agent, above the frame (it posts through it and receives
 * through the handlers pnr_manager_init fills), select.c, rounds.c and
 * broadcast.c; below the client, which opens the rounds.
 */
#include "pnr/manager.h"

#include "pnr/broadcast.h"
#include "pnr/check.h"
#include "pnr/frame.h"
#include "pnr/objects.h"
#include "pnr/rounds.h"
#include "pnr/select.h"

#include <stdlib.h>

/* ---- the messages a manager sends -------------------------------------------- */

/* ASK server `dst` for the `need` MB round r still needs. */
static void send_ask(pnr_t *p, round_t *r, int dst, double need)
{
    pnr_ask_msg *a = PNR_MSG_NEW(pnr_ask_msg, p, PNR_MSG_ASK, r->manager, dst, p->control_bytes);
    a->round = r;
    a->need = need;
    pnr_post(p, &a->h);
}

/* REPLY to client c: it was granted `mb` (its pieces are in c->pieces). */
static void send_reply(pnr_t *p, round_t *r, creq_t *c, double mb)
{
    pnr_reply_msg *a = PNR_MSG_NEW(pnr_reply_msg, p, PNR_MSG_REPLY, r->manager, c->pe,
                                   p->control_bytes + 12.0 * c->pieces.n);
    a->client = c;
    a->mb = mb;
    pnr_post(p, &a->h);
}

/* FREE: tell server `dst` to free `mb` for deallocation round r. */
static void send_free(pnr_t *p, round_t *r, int dst, double mb)
{
    pnr_free_msg *f = PNR_MSG_NEW(pnr_free_msg, p, PNR_MSG_FREE, r->manager, dst, p->control_bytes);
    f->round = r;
    f->mb = mb;
    pnr_post(p, &f->h);
}

/* ---- allocation ------------------------------------------------------------ */

/* Share the grant and answer every client that asked for something. */
static void finish_alloc(pnr_t *p, round_t *r)
{
    int n = r->nreqs;
    double share[n > 0 ? n : 1];
    pnr_fair_share(r->asks, n, r->granted, share);
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
            pnr_add_piece(&c->pieces, g->server, take);
            need -= take;
            got += take;
            g->mb -= take;
            if (g->mb <= EPS_MB)
                pi++;
        }
        if (p->checking && got > c->ask + 1e-6)
            pnr_check_fail(p, "client on PE %d got %.9g MB, asked %.9g", c->pe, got,
                           c->ask);
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
        send_reply(p, r, c, got);
    }
    pnr_check(p);
    if (r->granted > EPS_MB)
        p->st.alloc_rounds_changed++;
    pnr_broadcast(p, r->manager, r->granted > EPS_MB);
    if (r->js && r->js->alloc == r)
        r->js->alloc = NULL;
    pnr_round_free(p, r);
}

/* Ask the next server of an allocation round, or finish the round (share
 * the grant, answer the clients) when the need is covered or no server is
 * left to ask. */
static void ask_next(pnr_t *p, round_t *r)
{
    double remaining = r->total_ask - r->granted;
    if (remaining <= EPS_MB) {
        finish_alloc(p, r);
        return;
    }
    int chosen = pnr_select_server(p, r, remaining);
    if (chosen < 0) {
        finish_alloc(p, r);
        return;
    }
    r->asked[chosen] = 1;
    send_ask(p, r, chosen, remaining);
}

/* REQUEST from a client (a zero request names no client and is answered
 * by nothing). The last request of the round starts the asking. */
static void request_arrived(pnr_t *p, const pnr_request_msg *m)
{
    round_t *r = m->round;
    r->asks[r->nreqs] = m->mb;
    r->reqs[r->nreqs] = m->client;
    r->nreqs++;
    r->total_ask += m->mb;
    if (++r->received == r->expected)
        ask_next(p, r);
}

/* GRANT from server m->h.m.src (m->lent: MB lent, maybe 0). */
static void grant_arrived(pnr_t *p, const pnr_grant_msg *m)
{
    round_t *r = m->round;
    double amount = m->lent;
    r->grant_mb = 0;
    if (amount > 0) {
        p->transit -= amount;
        p->pending += amount;
        r->granted += amount;
        pnr_add_piece(&r->got, m->h.m.src, amount);
    }
    ask_next(p, r);
}

/* ---- deallocation ------------------------------------------------------------ */

/* The end of a deallocation round; `freed`: it told some server to free
 * memory. */
static void dealloc_done(pnr_t *p, round_t *r, bool freed)
{
    pnr_check(p);
    if (freed)
        p->st.dealloc_rounds_changed++;
    pnr_broadcast(p, r->manager, freed);
    if (r->js && r->js->dealloc == r)
        r->js->dealloc = NULL;
    pnr_round_free(p, r);
}

/* DEALLOC from a client: m->mb = MB it gives back, its pieces wait in
 * r->incoming[m->slot]. With the last notice, a FREE goes to every server
 * concerned. */
static void dealloc_arrived(pnr_t *p, const pnr_dealloc_msg *m)
{
    round_t *r = m->round;
    p->transit -= m->mb;
    p->pending += m->mb;
    pieces_t *in = &r->incoming[m->slot];
    for (int i = 0; i < in->n; i++)
        pnr_add_piece(&r->got, in->v[i].server, in->v[i].mb);
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
        send_free(p, r, r->got.v[i].server, r->got.v[i].mb);
    }
    if (r->acks_pending == 0)
        dealloc_done(p, r, false);
}

/* ACK from a server: the last one ends the round. */
static void ack_arrived(pnr_t *p, const pnr_ack_msg *m)
{
    round_t *r = m->round;
    if (--r->acks_pending == 0)
        dealloc_done(p, r, true);
}

void pnr_manager_init(pnr_t *p)
{
    p->handlers.on_request = request_arrived;
    p->handlers.on_grant = grant_arrived;
    p->handlers.on_dealloc = dealloc_arrived;
    p->handlers.on_ack = ack_arrived;
}
