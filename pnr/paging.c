/* pnr/paging.c: where a fault goes (techreport §5.4, §5.1.1): the draw
 * that sends a fault of a thread to the disk or to a server holding the
 * node's network RAM. The exact client (client.c: pnr_fault) and the
 * batched paging (client_batch.c: pnr_fault_plan) both draw with it, the
 * same draws in the same order, so it sits below both; it reads the
 * protocol's data and calls only strategy_host.c (a strategy's
 * fault_server: its answer checked against what the node holds).
 */
#include "pnr/paging.h"

#include "pnr/strategy_host.h"

/* The thread a PE user record belongs to. */
static thread_t *user_thread(pe_user *u)
{
    return container_of(u, thread_t, mem_user);
}

int pnr_fault_server(pnr_t *p, pe_t *pe)
{
    double over = pe_overalloc_mb(pe);
    if (pe->remote_mb <= EPS_MB || over <= EPS_MB)
        return -1;
    double share = pe->remote_mb / over;
    rng_t *rg = rng_set_get(&p->fault_rng, (size_t)pe->id);
    if (rng_uniform01(rg) >= share)
        return -1;
    if (p->strat->fault_server) {
        /* The strategy's choice (pnr/strategy_api.h); -1: the draw below. */
        p->strat_busy++;
        int s = p->strat->fault_server(p->strat_state, pnr_host_of(p), pe->id);
        p->strat_busy--;
        if (s >= 0) {
            if (s >= p->npes || !(pnr_host_held_mb(pnr_host_of(p), pe->id, s) > EPS_MB))
                pnr_strategy_broken(p, "fault_server sent a fault of node %d to node %d, "
                                       "which holds none of its network RAM", pe->id, s);
            return s;
        }
        if (s != -1)
            pnr_strategy_broken(p, "fault_server returned %d for node %d (a node or -1)", s,
                                pe->id);
    }
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
