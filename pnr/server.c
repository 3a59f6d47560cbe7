/* pnr/server.c: the server (techreport §5.3) and the remote end of paging
 * (§5.4).
 *
 * A server grants what it can of an ASK: up to its free RAM above
 * server_threshold, maybe less than asked, maybe nothing (a GRANT of 0
 * still answers); a strategy's server_grant (pnr/strategy_api.h) may lend less
 * or deny. What it lends counts against its own RAM (pe_lend), so
 * its own threads may later page because of it. It frees on request and
 * acknowledges. A page request is answered at once with the page.
 *
 * In pnr/: the lowest agent, above the frame (it posts through it and
 * receives through the handlers pnr_server_init fills); it calls no other
 * agent.
 */
#include "pnr/server.h"

#include "pnr/check.h"
#include "pnr/frame.h"
#include "pnr/strategy_host.h"

#include "sched/job_cost.h"

/* GRANT: answer round r's ASK from manager `dst` with `lent` MB (maybe 0). */
static void send_grant(pnr_t *p, round_t *r, int src, int dst, double lent)
{
    pnr_grant_msg *g = PNR_MSG_NEW(pnr_grant_msg, p, PNR_MSG_GRANT, src, dst, p->control_bytes);
    g->round = r;
    g->lent = lent;
    pnr_post(p, &g->h);
}

/* ACK: tell manager `dst` that `freed` MB of round r are free again. */
static void send_ack(pnr_t *p, round_t *r, int src, int dst, double freed)
{
    pnr_ack_msg *a = PNR_MSG_NEW(pnr_ack_msg, p, PNR_MSG_ACK, src, dst, p->control_bytes);
    a->round = r;
    a->freed = freed;
    pnr_post(p, &a->h);
}

/* ASK from manager m->h.m.src (m->need: MB still needed). */
static void ask_arrived(pnr_t *p, const pnr_ask_msg *m)
{
    round_t *r = m->round;
    int dst = m->h.m.dst;
    double amount = m->need;
    pe_t *pe = &p->cl->pes[dst];
    double can = pe_free_mb(pe) - p->threshold;
    double grant = can > 0 ? (amount < can ? amount : can) : 0;
    if (p->strat->server_grant) {
        /* The strategy's answer (pnr/strategy_api.h): 0 .. the default. */
        p->strat_busy++;
        double g = p->strat->server_grant(p->strat_state, pnr_host_of(p), dst, m->h.m.src,
                                          amount, grant);
        p->strat_busy--;
        if (!(g >= 0 && g <= grant))
            pnr_strategy_broken(p, "server_grant answered %.17g MB to node %d's ASK of %.17g MB at "
                                   "node %d, outside [0, %.17g]", g, m->h.m.src, amount, dst,
                                grant);
        grant = g;
    }
    if (grant > EPS_MB) {
        pe_lend(p->sim, pe, grant);
        p->transit += grant;
        /* A grant never takes a server below its threshold (its own
         * threads may later do so; that is not lending). */
        if (p->checking && pe_free_mb(pe) < p->threshold - 1e-9)
            pnr_check_fail(p, "server %d lent %.9g MB and kept %.9g MB free, below the "
                              "threshold %.9g", dst, grant, pe_free_mb(pe), p->threshold);
    } else {
        grant = 0;
    }
    r->grant_server = dst;
    r->grant_mb = grant;
    pnr_check(p);
    send_grant(p, r, dst, m->h.m.src, grant);
}

/* FREE from manager m->h.m.src (m->mb: MB to give back). */
static void free_arrived(pnr_t *p, const pnr_free_msg *m)
{
    round_t *r = m->round;
    int dst = m->h.m.dst;
    double amount = m->mb;
    for (int i = 0; i < r->got.n; i++)
        if (r->got.v[i].server == dst)
            r->got.v[i].mb = 0; /* freed */
    pe_lend(p->sim, &p->cl->pes[dst], -amount);
    p->transit -= amount;
    pnr_check(p);
    send_ack(p, r, dst, m->h.m.src, amount);
}

/* PAGE_IN: the page thread th faulted on, from server src to its PE dst. */
static void send_page_in(pnr_t *p, int src, int dst, thread_t *th)
{
    pnr_page_msg *in = PNR_MSG_NEW(pnr_page_msg, p, PNR_MSG_PAGE_IN, src, dst,
                                   job_page_bytes(p->cl));
    in->th = th;
    pnr_post(p, &in->h);
}

/* The serving node's CPU time for a page request is over: the page
 * leaves (w->a the server, w->b the client's PE). */
static void request_served(sim_t *sim, cost_work *w)
{
    (void)sim;
    send_page_in(w->ctx, w->a, w->b, w->arg);
}

/* PAGE_OUT from a client: the remote memory answers with the page (§5.4),
 * at once, or (issue 33) after its node's CPU has received the page out,
 * served the request and sent the page in (2 netram.message_cpu +
 * netram.server_cpu on one of its cores, sched/job_cost.c). */
static void page_out_arrived(pnr_t *p, const pnr_page_msg *m)
{
    double cpu = 2 * p->message_cpu + p->server_cpu;
    if (!(cpu > 0)) {
        send_page_in(p, m->h.m.dst, m->h.m.src, m->th);
        return;
    }
    cost_work *w = cost_on_node(p->sim, p->cl, &p->cl->pes[m->h.m.dst], cpu, COST_SERVER,
                                request_served);
    w->ctx = p;
    w->arg = m->th;
    w->a = m->h.m.dst;
    w->b = m->h.m.src;
}

void pnr_server_init(pnr_t *p)
{
    p->handlers.on_ask = ask_arrived;
    p->handlers.on_free = free_arrived;
    p->handlers.on_page_out = page_out_arrived;
}
