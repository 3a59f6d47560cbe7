/* pnr/frame.c: the PNR layer's frame (frame.h): sending, and the arrival
 * of every PNR message.
 *
 * A PNR message is a typed struct (internal.h) embedding the network's
 * msg_t: a header with its kind and the sender's piggybacked load (its
 * free RAM in MB when it sent), then what its kind is about (the round,
 * client, snapshot or thread it belongs to, and an amount in MB). When one
 * arrives, on_arrival lets the receiver hear the load (table.c), counts
 * it, calls the handler of its kind with the typed message, and gives the
 * message back to the pool. The handlers are p->handlers, filled by the
 * agents (server.c, broadcast.c, manager.c, client.c) when pnr_create
 * creates them: the frame calls them through the table and names none of
 * them, so it sits below them all. A strategy's own control messages
 * (pnr_host_send, pnr/strategy_api.h) go through it too, to the
 * strategy's callback.
 */
#include "pnr/frame.h"

#include "pnr/strategy_host.h"
#include "pnr/table.h"

#include <assert.h>

static void on_arrival(sim_t *sim, msg_t *m);
static void on_rdma_arrival(sim_t *sim, msg_t *m);
static void on_strategy_arrival(sim_t *sim, msg_t *m);

void pnr_frame_init(pnr_t *p)
{
    p->pool = NET_POOL_FOR(p->cl->net, pnr_msg_u, h.m);
    net_pool_set_owner(p->pool, p);
}

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

/* Send one RDMA transfer of `bytes` from src to dst now, of kind `kind`,
 * for th. */
static void rdma_send(pnr_t *p, int kind, int src, int dst, double bytes, thread_t *th)
{
    pnr_msg_u *u = container_of(net_pool_alloc(p->sim, p->pool), pnr_msg_u, h.m);
    u->h.m.src = src;
    u->h.m.dst = dst;
    u->h.m.bytes = bytes;
    u->h.m.done = on_rdma_arrival;
    u->h.m.rdma = true;
    u->h.kind = kind;
    u->page.th = th;
    net_send(p->sim, p->cl->net, &u->h.m);
}

void pnr_rdma_post(pnr_t *p, int op, int src, int dst, thread_t *th)
{
    assert(op == PNR_RDMA_READ || op == PNR_RDMA_WRITE);
    double bytes = job_page_bytes(p->cl);
    if (op == PNR_RDMA_READ) {
        p->st.rdma_reads++;
        p->st.rdma_read_bytes += bytes;
    } else {
        p->st.rdma_writes++;
        p->st.rdma_write_bytes += bytes;
    }
    if (op == PNR_RDMA_READ && p->rdma_read == PNR_RDMA_READ_ROUND_TRIP)
        /* The request first, client (dst) -> server (src); the page
         * follows on its arrival (on_rdma_arrival). */
        rdma_send(p, PNR_RDMA_READ_REQ, dst, src, p->control_bytes, th);
    else
        rdma_send(p, op, src, dst, bytes, th);
}

void pnr_bulk_post(pnr_t *p, int src, int dst, double bytes)
{
    pnr_msg_u *u = container_of(net_pool_alloc(p->sim, p->pool), pnr_msg_u, h.m);
    u->h.m.src = src;
    u->h.m.dst = dst;
    u->h.m.bytes = bytes;
    u->h.m.done = on_rdma_arrival;
    u->h.m.rdma = p->transport == PNR_TRANSPORT_RDMA;
    u->h.kind = PNR_RECLAIM_MOVE;
    net_send(p->sim, p->cl->net, &u->h.m);
}

void pnr_host_send(pnr_host *h, int src, int dst, double bytes, pnr_arrival_fn fn, void *arg)
{
    pnr_t *p = (pnr_t *)h;
    if (src < 0 || src >= p->npes || dst < 0 || dst >= p->npes || !(bytes >= 0 && bytes <= 1e12))
        pnr_strategy_broken(p, "pnr_host_send from node %d to node %d of %.17g bytes (nodes 0 .. "
                               "%d, 0 to 1e12 bytes)", src, dst, bytes, p->npes - 1);
    pnr_msg_u *u = container_of(net_pool_alloc(p->sim, p->pool), pnr_msg_u, h.m);
    u->h.m.src = src;
    u->h.m.dst = dst;
    u->h.m.bytes = bytes;
    u->h.m.done = on_strategy_arrival;
    u->h.kind = PNR_STRATEGY_MSG;
    u->h.load = pe_free_mb(&p->cl->pes[src]);
    u->strategy.fn = fn;
    u->strategy.arg = arg;
    p->st.strategy_msgs++;
    p->st.strategy_bytes += bytes;
    net_send(p->sim, p->cl->net, &u->h.m);
}

double pnr_host_control_bytes(const pnr_host *h) { return ((const pnr_t *)h)->control_bytes; }

/* A strategy's message arrived: the receiver hears the sender's load, the
 * slot goes back to the pool, then the strategy's callback runs. */
static void on_strategy_arrival(sim_t *sim, msg_t *m)
{
    (void)sim;
    pnr_msg_u *u = container_of(m, pnr_msg_u, h.m);
    pnr_t *p = net_msg_owner(m);
    int src = m->src, dst = m->dst;
    pnr_arrival_fn fn = u->strategy.fn;
    void *arg = u->strategy.arg;
    pnr_hear(p, dst, src, u->h.load, m->sent_at);
    net_msg_free(p->cl->net, m);
    if (fn)
        fn(arg, (pnr_host *)p, src, dst);
}

/* A one-sided RDMA operation or a reclaim's bulk transfer has crossed its
 * route: nobody hears a load, no agent of the server runs; a READ wakes
 * its client's handler; a READ's request (ROUND_TRIP) has reached the
 * server's NIC, which sends the page back at once. */
static void on_rdma_arrival(sim_t *sim, msg_t *m)
{
    (void)sim;
    pnr_msg_u *u = container_of(m, pnr_msg_u, h.m);
    pnr_t *p = net_msg_owner(m);
    if (u->h.kind == PNR_RDMA_READ)
        p->handlers.on_rdma_read(p, &u->page);
    else if (u->h.kind == PNR_RDMA_READ_REQ)
        rdma_send(p, PNR_RDMA_READ, m->dst, m->src, job_page_bytes(p->cl), u->page.th);
    net_msg_free(p->cl->net, m);
}

/* The public kinds of the control messages are the first of the layer's,
 * in the same order (pnr/strategy_api.h pnr_ctrl_kind). */
_Static_assert(PNR_MSG_ASK - PNR_MSG_REQUEST == PNR_CTRL_ASK &&
                   PNR_MSG_GRANT - PNR_MSG_REQUEST == PNR_CTRL_GRANT &&
                   PNR_MSG_REPLY - PNR_MSG_REQUEST == PNR_CTRL_REPLY &&
                   PNR_MSG_DEALLOC - PNR_MSG_REQUEST == PNR_CTRL_DEALLOC &&
                   PNR_MSG_FREE - PNR_MSG_REQUEST == PNR_CTRL_FREE &&
                   PNR_MSG_ACK - PNR_MSG_REQUEST == PNR_CTRL_ACK &&
                   PNR_MSG_BROADCAST - PNR_MSG_REQUEST == PNR_CTRL_BROADCAST &&
                   PNR_MSG_PAGE_OUT == PNR_MSG_BROADCAST + 1,
               "pnr_ctrl_kind follows PNR_MSG_*");

/* The MB a control message carries (pnr_ctrl_kind's). */
static double ctrl_mb(const pnr_msg_u *u)
{
    switch (u->h.kind) {
    case PNR_MSG_REQUEST: return u->request.mb;
    case PNR_MSG_ASK: return u->ask.need;
    case PNR_MSG_GRANT: return u->grant.lent;
    case PNR_MSG_REPLY: return u->reply.mb;
    case PNR_MSG_DEALLOC: return u->dealloc.mb;
    case PNR_MSG_FREE: return u->free.mb;
    case PNR_MSG_ACK: return u->ack.freed;
    default: return 0;
    }
}

/* Every PNR message arrives here: the receiver hears the sender's load,
 * the handler of its kind runs, a strategy's message_arrived hears of a
 * control message, and the message goes back to the pool (a handler that
 * answers takes a new one). */
static void on_arrival(sim_t *sim, msg_t *m)
{
    (void)sim;
    pnr_msg_u *u = container_of(m, pnr_msg_u, h.m);
    pnr_t *p = net_msg_owner(m);
    const pnr_handlers *on = &p->handlers;
    int k = u->h.kind - PNR_MSG_REQUEST;
    pnr_hear(p, m->dst, m->src, u->h.load, m->sent_at);
    p->received[(size_t)m->dst * PNR_NKINDS + (size_t)k]++;
    switch (u->h.kind) {
    case PNR_MSG_REQUEST: on->on_request(p, &u->request); break;
    case PNR_MSG_ASK: on->on_ask(p, &u->ask); break;
    case PNR_MSG_GRANT: on->on_grant(p, &u->grant); break;
    case PNR_MSG_REPLY: on->on_reply(p, &u->reply); break;
    case PNR_MSG_DEALLOC: on->on_dealloc(p, &u->dealloc); break;
    case PNR_MSG_FREE: on->on_free(p, &u->free); break;
    case PNR_MSG_ACK: on->on_ack(p, &u->ack); break;
    case PNR_MSG_BROADCAST: on->on_broadcast(p, &u->broadcast); break;
    case PNR_MSG_PAGE_OUT: on->on_page_out(p, &u->page); break;
    case PNR_MSG_PAGE_IN: on->on_page_in(p, &u->page); break;
    default: assert(0 && "unknown PNR message");
    }
    if (p->strat->message_arrived && u->h.kind < PNR_MSG_PAGE_OUT)
        p->strat->message_arrived(p->strat_state, (pnr_host *)p,
                                  (pnr_ctrl_kind)(u->h.kind - PNR_MSG_REQUEST), m->src, m->dst,
                                  m->bytes, ctrl_mb(u));
    net_msg_free(p->cl->net, m);
}
