/* pnr/pnr.c: the PNR layer's frame (pnr.h): creation and destruction,
 * protocol-object tracking, sending, and the arrival of every PNR message.
 *
 * A PNR message is a typed struct (internal.h) embedding the network's
 * msg_t: a header with its kind and the sender's piggybacked load (its
 * free RAM in MB when it sent), then what its kind is about (the round,
 * client, snapshot or thread it belongs to, and an amount in MB). When one
 * arrives, on_arrival lets the receiver hear the load (table.c), counts
 * it, calls the handler of its kind with the typed message, and gives the
 * message back to the pool; each handler lives with the agent that receives
 * it (client.c, manager.c, server.c, table.c; see internal.h for the map
 * of the layer).
 */
#include "pnr/check.h"

#include "core/mem.h"

#include <assert.h>
#include <stdlib.h>

void pnr_track(pnr_t *p, pobj *o, pobj_kind kind, void (*destroy)(pobj *))
{
    o->kind = kind;
    o->destroy = destroy;
    list_add_head(&p->objs, &o->node);
}

void pnr_untrack(pobj *o)
{
    list_del(&o->node);
}

void pnr_add_piece(pieces_t *ps, int server, double mb)
{
    for (int i = 0; i < ps->n; i++)
        if (ps->v[i].server == server) {
            ps->v[i].mb += mb;
            return;
        }
    if (ps->n == ps->cap) {
        ps->cap = ps->cap ? 2 * ps->cap : 4;
        ps->v = xrealloc(ps->v, (size_t)ps->cap * sizeof *ps->v);
    }
    ps->v[ps->n++] = (piece_t){server, mb};
}

const pnr_stats *pnr_get_stats(const pnr_t *p) { return &p->st; }

const char *pnr_kind_name(int kind)
{
    static const char *names[PNR_NKINDS] = {"request", "ask", "grant", "reply", "dealloc",
                                            "free", "ack", "broadcast", "page_out", "page_in"};
    int k = kind - PNR_MSG_REQUEST;
    return k >= 0 && k < PNR_NKINDS ? names[k] : "?";
}

/* ---- sending and arrival ------------------------------------------------- */

static void on_arrival(sim_t *sim, msg_t *m);

pnr_msg *pnr_msg_new(pnr_t *p, int kind, int src, int dst, double bytes)
{
    assert(kind >= PNR_MSG_REQUEST && kind < PNR_MSG_KINDS_END);
    pnr_msg *h = container_of(net_pool_alloc(p->sim, p->pool), pnr_msg, m);
    h->m.src = src;
    h->m.dst = dst;
    h->m.bytes = bytes;
    h->m.done = on_arrival;
    h->kind = kind;
    return h;
}

void pnr_post(pnr_t *p, pnr_msg *h)
{
    h->load = pe_free_mb(&p->cl->pes[h->m.src]);
    p->st.msgs[h->kind - PNR_MSG_REQUEST]++;
    p->st.bytes[h->kind - PNR_MSG_REQUEST] += h->m.bytes;
    net_send(p->sim, p->cl->net, &h->m);
}

/* Every PNR message arrives here: the receiver hears the sender's load,
 * the handler of its kind runs, and the message goes back to the pool
 * (a handler that answers takes a new one). */
static void on_arrival(sim_t *sim, msg_t *m)
{
    (void)sim;
    pnr_msg_u *u = container_of(m, pnr_msg_u, h.m);
    pnr_t *p = net_msg_owner(m);
    int k = u->h.kind - PNR_MSG_REQUEST;
    pnr_hear(p, m->dst, m->src, u->h.load, m->sent_at);
    p->received[(size_t)m->dst * PNR_NKINDS + (size_t)k]++;
    switch (u->h.kind) {
    case PNR_MSG_REQUEST: pnr_on_request(p, &u->request); break;
    case PNR_MSG_ASK: pnr_on_ask(p, &u->ask); break;
    case PNR_MSG_GRANT: pnr_on_grant(p, &u->grant); break;
    case PNR_MSG_REPLY: pnr_on_reply(p, &u->reply); break;
    case PNR_MSG_DEALLOC: pnr_on_dealloc(p, &u->dealloc); break;
    case PNR_MSG_FREE: pnr_on_free(p, &u->free); break;
    case PNR_MSG_ACK: pnr_on_ack(p, &u->ack); break;
    case PNR_MSG_BROADCAST: pnr_on_broadcast(p, &u->broadcast); break;
    case PNR_MSG_PAGE_OUT: pnr_on_page_out(p, &u->page); break;
    case PNR_MSG_PAGE_IN: pnr_on_page_in(p, &u->page); break;
    default: assert(0 && "unknown PNR message");
    }
    net_msg_free(p->cl->net, m);
}

/* ---- managers ---------------------------------------------------------------------- */

/* MANAGER: a random PE of the job; BACKBONE: a random backbone manager.
 * No draw when there is only one choice, so BACKBONE with one manager
 * draws exactly what CENTRAL draws. */
int pnr_choose_manager(pnr_t *p, const job_t *j, const thread_t *th)
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

int pnr_job_manager(const pnr_t *p, const job_t *j)
{
    const jstate_t *js = j->pnr;
    (void)p;
    return js ? js->alloc_manager : -1;
}

uint64_t pnr_received(const pnr_t *p, int pe, int kind)
{
    int k = kind - PNR_MSG_REQUEST;
    if (pe < 0 || pe >= p->npes || k < 0 || k >= PNR_NKINDS)
        return 0;
    return p->received[(size_t)pe * PNR_NKINDS + (size_t)k];
}

/* ---- creation ---------------------------------------------------------------------- */

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
    rng_set_init(&p->mgr_rng, cl->rng_gen, seed, "pnr-manager", (size_t)p->npes);
    rng_set_init(&p->fault_rng, cl->rng_gen, seed, "pnr-fault", (size_t)p->npes);
    for (int i = 0; i < PNR_PLAN_SLOTS; i++)
        p->plan[i].c = -1;
    p->received = xcalloc((size_t)p->npes * PNR_NKINDS, sizeof *p->received);
    p->claimed = xcalloc((size_t)p->npes, sizeof *p->claimed);
    p->choice_rng = rng_stream_gen(cl->rng_gen, seed, "pnr-choice", 0);
    list_init(&p->objs);
    p->pool = NET_POOL_FOR(cl->net, pnr_msg_u, h.m);
    net_pool_set_owner(p->pool, p);
    cl->hooks.thread_starting = pnr_thread_starting;
    cl->hooks.thread_ended = pnr_thread_ended;
    cl->hooks.fault = pnr_fault;
    cl->hooks.fault_plan = pnr_fault_plan;
    cl->hooks.fault_count = pnr_fault_count;
    cl->hooks.pnr_ctx = p;
    if (create_hook)
        create_hook(p, create_hook_ctx);
    return p;
}

void pnr_destroy(sim_t *sim, pnr_t *p)
{
    (void)sim;
    if (!p)
        return;
    job_hooks *h = &p->cl->hooks;
    if (h->pnr_ctx == p) { /* the hooks pnr_create installed */
        h->thread_starting = NULL;
        h->thread_ended = NULL;
        h->fault = NULL;
        h->fault_plan = NULL;
        h->fault_count = NULL;
        h->pnr_ctx = NULL;
    }
    /* Protocol objects still alive (a run stopped part way). */
    for (list_t *n; (n = list_first(&p->objs));) {
        pobj *o = container_of(n, pobj, node);
        pnr_untrack(o);
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
    for (int i = 0; i < p->nspare_asked; i++)
        free(p->spare_asked[i]);
    free(p->spare_asked);
    free(p->node);
    free(p->asking);
    free(p->received);
    free(p->claimed);
    free(p->shadow);
    free(p->managers);
    free(p);
}
