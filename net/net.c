/* net/net.c: the interconnect's messages (net/net.h): the message pools,
 * the message process and its walk, sending and killing; the top of
 * net/. Below it: net/elem.c (elements, topologies and routes: see its
 * top comment for the numbering), and the approximations' rooms,
 * net/batched.c (process.paging = BATCHED) and net/whole.c (network.route
 * = WHOLE). Elements and routes are read through net_route_elem
 * (net/elem.c) and net_msg_time (inline in net/msg.h: net_elem_time, or
 * for a one-sided RDMA transfer its links' bytes / bandwidth only).
 *
 * The approximations' points. The walk reads the exact model; it steps
 * aside at these points only, each one branch an exact run (HOPS, no
 * batched paging) tests and never takes, with the decisions in the rooms
 * (which return what the walk must do) and only the holds and requests
 * here, since they must be in the coroutine's body:
 *   - at the start, in route mode WHOLE: whole_reserve, and when the
 *     route was reserved, one hold to its arrival and whole_arrive;
 *   - before each request, where the element is reserved (e->whole.resv):
 *     whole_wait_behind (again after a virtual wait);
 *   - before each request, where net_vhop_at finds virtual crossings
 *     (batched paging): net_vhop_wait, the time to hold first;
 *   - after each grant, while virtual crossings are modelled
 *     (net->batched.vrng): net_vswitch_hold, the time to hold the switch
 *     for the virtual work ahead, then net_vgranted;
 *   - net_kill: whole_kill or net_vswitch_kill; net_destroy:
 *     whole_cancel_events, whole_free; net_elem_busy_time: whole_resv_busy;
 *   - telling an observer of a hop (net_tell_busy): whole_tell_now, which
 *     tells WHOLE's notes due first (none in HOPS mode).
 * An observer adds nothing the run sees in either mode (issue 32).
 * The approximations' state is in the `whole` and `batched` members of
 * the elements, messages and network (types in net/approx.h).
 *
 * Messages. A message is a process (msg_t embeds proc_t first) whose body,
 * msg_walk, requests, holds and releases each element of its route in
 * turn. net_send starts it through its own wake-up event at the current
 * instant, so messages sent at one instant request their first element in
 * the order they were sent, and a message to self arrives through that
 * event too (never by a recursive call into the sender). When the walk
 * reaches its end, msg_body marks the message delivered and calls done;
 * done may free or re-send the message, so nothing touches it afterwards.
 * Per-element message and byte counts grow when a message completes its
 * hop (a killed partial crossing adds busy time only).
 *
 * The pools. Every layer's messages are typed structs that embed a msg_t
 * (net.h); the net keeps one pool per type, told apart by (size, offset of
 * the msg_t), on the short list net->pools (a job's messages, PNR's, the
 * tests' plain ones: three at most today). A pool's messages come in chunks
 * (16, 32, ... up to 4096 messages), chained for net_destroy, each slot
 * `stride` bytes (the size rounded up to the type's alignment; a chunk's
 * slots start at the alignment of max_align_t);
 * free messages are kept on the pool's list through msg_t.link, taken and
 * given back at its head. Each message gets its process (and so its event
 * record) once, when its chunk is created; alloc, send, delivery and free
 * allocate nothing, so the number of live event records the network owns
 * is the sum of the pool sizes.
 *
 * Killing. Outside its body a message in flight is in exactly one of these
 * situations, and net_kill undoes each: it holds its current element ->
 * release it (the busy time counts up to now, the next waiter gets it at
 * once); it is queued on its current element -> res_cancel; its wake-up is
 * pending (start, self-delivery, end of a hold, or a grant by res_release)
 * -> proc_cancel, last, which also makes the process idle.
 */
#include "net/internal.h"
#include "net/net.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

enum { NET_CHUNK_MIN = 16, NET_CHUNK_MAX = 4096 };

/* One block of pool messages: n slots of the pool's stride. */
typedef struct msg_chunk {
    struct msg_chunk *next;
    size_t n;
    max_align_t slots[];
} msg_chunk;

struct net_pool {
    net_pool *next;         /* the net's pools */
    net_t *net;
    size_t size, align;     /* the typed struct */
    size_t offset;          /* its msg_t in it */
    size_t stride;          /* bytes per slot: size rounded up to align */
    void *owner;            /* the layer its messages belong to */
    msg_chunk *chunks;
    list_t free;            /* free messages, through msg_t.link */
    size_t count;           /* messages created */
};

/* ---- statistics ----------------------------------------------------------- */

/* res_busy_time counts e's finished crossings (res.busy) and the one of
 * its holder up to now. A WHOLE reservation makes its message the holder
 * over [rs, re], which may lie ahead of the clock, so that part is asked
 * of net/whole.c; the finished crossings are res.busy either way. */
double net_elem_busy_time(const sim_t *sim, const net_elem *e)
{
    if (e->whole.resv) /* WHOLE: whole_resv_busy */
        return e->res.busy + whole_resv_busy(sim, e);
    return res_busy_time(sim, &e->res);
}

double net_busy_time(const sim_t *sim, const net_t *net)
{
    /* In index order over the elements that exist: the same sum as over
     * all of them (a link never created adds an exact 0). Sorting the
     * created list changes nothing observable, hence the cast. */
    net_t *nt = (net_t *)net;
    double t = 0;
    for (long k = 0; k < net_elem_live_count(net); k++)
        t += net_elem_busy_time(sim, net_elem_live_at(nt, k));
    return t;
}

int net_tree_busy_time(const sim_t *sim, const net_t *net, net_tree_busy *out)
{
    *out = (net_tree_busy){0};
    if (net->topo != TOPO_KIND_TREE)
        return -1;
    /* Index order within each kind: links, uplinks, ToRs, core. */
    for (int i = 0; i < net->n; i++)
        out->rack_links += net_elem_busy_time(sim, &net->elem[i]);
    for (int r = 0; r < net->nracks; r++)
        out->uplinks += net_elem_busy_time(sim, &net->elem[(long)net->n + r]);
    for (int r = 0; r < net->nracks; r++)
        out->tor_switches += net_elem_busy_time(sim, &net->elem[net->nlinks + r]);
    out->core_switch = net_elem_busy_time(sim, &net->elem[net->sw]);
    return 0;
}

long net_in_flight(const net_t *net) { return net->in_flight; }
uint64_t net_messages_sent(const net_t *net) { return net->sent; }
double net_bytes_sent(const net_t *net) { return net->bytes_sent; }
uint64_t net_messages_delivered(const net_t *net) { return net->delivered; }
uint64_t net_restarts(const net_t *net) { return net->restarts; }
size_t net_msg_pool_size(const net_t *net)
{
    size_t n = 0;
    for (const net_pool *pl = net->pools; pl; pl = pl->next)
        n += pl->count;
    return n;
}

/* ---- the message process ---------------------------------------------- */

/* Tell the observer, when e has no holder, that it becomes busy (called
 * just before a request, which res_request then grants at once) or that it
 * became idle (called just after a release that left nobody to hand it
 * to). With a holder, nothing changes and nothing is told. Route mode
 * WHOLE's notes due by now are told first (whole_tell_now). */
static inline void net_tell_busy(sim_t *sim, net_t *net, const net_elem *e, bool busy)
{
    if (net->obs && net->obs->busy && !e->res.holder)
        whole_tell_now(sim, net, e, busy);
}

/* The coroutine: cross every element of the route, then reach PROC_END. */
static void msg_walk(sim_t *sim, proc_t *p)
{
    msg_t *m = (msg_t *)p;
    net_t *net = m->net;
    net_elem *e;
    double t;
    PROC_BEGIN(p);
    if (net->whole.mode == NET_ROUTE_WHOLE && (t = whole_reserve(sim, net, m)) >= 0) {
        /* Its route is reserved: the next step is its arrival, taken
         * inline when it is the next event anyway (as a hop's end). */
        if (ev_next_is(sim, t)) {
            ev_skip_to(sim, t);
        } else {
            proc_hold_until(sim, p, t); /* t itself, not now + (t - now) */
            PROC_YIELD(p);
        }
        whole_arrive(sim, net, m);
    } else
    for (m->hop = 0, m->len = net_route_len(net, m->src, m->dst); m->hop < m->len; m->hop++) {
        /* The element is found once per hop and kept in m->cur across the
         * hop's request and hold (the body's locals do not survive them). */
        m->cur = e = net_route_elem(net, m->src, m->dst, m->hop);
        m->whole.behind_rs = -1;
        if (e->whole.resv) /* WHOLE: whole_wait_behind */
            whole_wait_behind(sim, net, m, e);
        /* batched paging: net_vhop_wait (virtual crossings ahead) */
        if (net_vhop_at(e, net->batched.vrng) && (t = net_vhop_wait(net, m, e, sim->now)) > 0) {
            PROC_HOLD(sim, p, t);
            e = m->cur;
            if (e->whole.resv) /* WHOLE: whole_wait_behind, the second look */
                whole_wait_behind(sim, net, m, e);
        }
        net_tell_busy(sim, net, e, true);
        PROC_REQUEST(sim, p, &m->cur->res);
        m->holding = true;
        if (net->batched.vrng) { /* batched paging: net_vswitch_hold, net_vgranted */
            if ((t = net_vswitch_hold(net, m, sim->now)) > 0)
                PROC_HOLD(sim, p, t);
            net_vgranted(m, sim->now);
        }
        /* The end of this hop is often the next event anyway (hops are
         * microseconds, events in a busy run milliseconds apart): then
         * PROC_HOLD moves the clock on and the walk goes on (exact,
         * ev_next_is). */
        PROC_HOLD(sim, p, net_msg_time(m->cur, m));
        e = m->cur;
        e->messages++;
        e->bytes += m->bytes;
        if (m->job)
            e->job_bytes += m->bytes;
        m->holding = false;
        res_release(sim, &e->res, p);
        net_tell_busy(sim, net, e, false);
    }
    PROC_END(sim, p);
}

/* The process body: walk, and on arrival hand the message to its owner.
 * done may free or re-send m, so m is not touched after it. */
static void msg_body(sim_t *sim, proc_t *p)
{
    msg_walk(sim, p);
    if (p->state != PROC_DONE)
        return;
    msg_t *m = (msg_t *)p;
    net_t *net = m->net;
    assert(!m->holding && net->in_flight > 0);
    net->in_flight--;
    net->delivered++;
    if (m->done)
        m->done(sim, m);
    else
        net_msg_free(net, m);
}

bool net_msg_in_flight(const msg_t *m)
{
    return m->p.state != PROC_IDLE && m->p.state != PROC_DONE;
}

/* ---- the pool ----------------------------------------------------------- */

net_pool *net_pool_for(net_t *net, size_t size, size_t align, size_t offset)
{
    assert(offset + sizeof(msg_t) <= size);
    assert(align > 0 && (align & (align - 1)) == 0 && align <= _Alignof(max_align_t));
    for (net_pool *pl = net->pools; pl; pl = pl->next)
        if (pl->size == size && pl->align == align && pl->offset == offset)
            return pl;
    net_pool *pl = calloc(1, sizeof *pl);
    if (!pl) {
        fprintf(stderr, "pnrsim: out of memory (message pool)\n");
        abort();
    }
    pl->net = net;
    pl->size = size;
    pl->align = align;
    pl->offset = offset;
    pl->stride = (size + align - 1) / align * align;
    list_init(&pl->free);
    pl->next = net->pools;
    net->pools = pl;
    return pl;
}

/* The msg_t of slot i of chunk c in pool pl. */
static msg_t *slot_msg(const net_pool *pl, msg_chunk *c, size_t i)
{
    return (msg_t *)((char *)c->slots + i * pl->stride + pl->offset);
}

msg_t *net_pool_alloc(sim_t *sim, net_pool *pl)
{
    if (list_empty(&pl->free)) {
        size_t n = pl->count < NET_CHUNK_MIN ? NET_CHUNK_MIN
                   : pl->count > NET_CHUNK_MAX ? NET_CHUNK_MAX
                                               : pl->count;
        msg_chunk *c = calloc(1, sizeof *c + n * pl->stride);
        if (!c) {
            fprintf(stderr, "pnrsim: out of memory (message pool)\n");
            abort();
        }
        c->n = n;
        c->next = pl->chunks;
        pl->chunks = c;
        /* Push in reverse so the pool hands messages out in address order. */
        for (size_t i = n; i-- > 0;) {
            msg_t *m = slot_msg(pl, c, i);
            proc_init(sim, &m->p, msg_body);
            m->net = pl->net;
            m->pool = pl;
            list_add_head(&pl->free, &m->link);
        }
        pl->count += n;
    }
    msg_t *m = container_of(list_pop_head(&pl->free), msg_t, link);
    proc_t keep = m->p;
    memset((char *)m - pl->offset, 0, pl->size);
    m->p.body = keep.body;
    m->p.ev = keep.ev;
    m->p.state = PROC_IDLE;
    list_init(&m->p.qlink);
    m->net = pl->net;
    m->pool = pl;
    list_init(&m->link);
    return m;
}

msg_t *net_msg_alloc(sim_t *sim, net_t *net)
{
    return net_pool_alloc(sim, NET_POOL_FOR(net, msg_t, p));
}

void net_pool_set_owner(net_pool *pl, void *owner) { pl->owner = owner; }

void *net_msg_owner(const msg_t *m) { return m->pool->owner; }

void net_msg_free(net_t *net, msg_t *m)
{
    assert(m->net == net && m->pool->net == net);
    assert(!net_msg_in_flight(m));
    assert(!list_linked(&m->link));
    (void)net;
    list_add_head(&m->pool->free, &m->link);
}

/* ---- sending, killing ------------------------------------------------- */

void net_set_flight_cap(net_t *net, long cap) { net->flight_cap = cap > 0 ? cap : LONG_MAX; }
bool net_saturated(const net_t *net) { return net->saturated; }

/* More than flight_cap messages in flight: mark the network saturated and
 * stop the run (once; the caller reports it, net_longest_queue). */
static void net_saturate(sim_t *sim, net_t *net)
{
    if (!net->saturated) {
        net->saturated = true;
        ev_stop(sim);
    }
}

void net_send(sim_t *sim, net_t *net, msg_t *m)
{
    assert(m->net == net);
    assert(!net_msg_in_flight(m));
    assert(m->src >= 0 && m->src < net->n && m->dst >= 0 && m->dst < net->n);
    assert(m->bytes >= 0);
    net->sent++;
    net->bytes_sent += m->bytes;
    if (++net->in_flight > net->flight_cap)
        net_saturate(sim, net);
    m->killed = false;
    m->holding = false;
    m->batched.vhold = false;
    m->hop = 0;
    m->sent_at = sim->now;
    proc_start(sim, &m->p, 0);
}

void net_kill(sim_t *sim, net_t *net, msg_t *m)
{
    assert(m->net == net);
    if (!net_msg_in_flight(m))
        return;
    if (m->whole.reserved) {
        whole_kill(sim, net, m);
    } else if (m->hop < net_route_len(net, m->src, m->dst)) {
        net_elem *e = net_route_elem(net, m->src, m->dst, m->hop);
        res_t *r = &e->res;
        if (e->is_switch && net->batched.vrng) /* batched paging: net_vswitch_kill */
            net_vswitch_kill(sim, e, m);
        if (r->holder == &m->p) {
            res_release(sim, r, &m->p);
            net_tell_busy(sim, net, e, false);
        } else if (m->p.state == PROC_WAITING) {
            bool found = res_cancel(sim, r, &m->p);
            assert(found);
            (void)found;
        }
    }
    /* Off every queue now; its pending wake-up (start, self-delivery, end
     * of hold or a grant, or, WHOLE, its arrival) is cancelled. */
    proc_cancel(sim, &m->p);
    m->holding = false;
    m->killed = true;
    net->in_flight--;
}

void net_restart(sim_t *sim, net_t *net, msg_t *m)
{
    assert(m->net == net);
    assert(m->killed && !net_msg_in_flight(m));
    net->restarts++;
    if (++net->in_flight > net->flight_cap)
        net_saturate(sim, net);
    m->killed = false;
    m->hop = 0;
    m->sent_at = sim->now;
    proc_start(sim, &m->p, 0);
}

void net_destroy(sim_t *sim, net_t *net)
{
    if (!net)
        return;
    for (net_pool *pl = net->pools, *pnext; pl; pl = pnext) {
        pnext = pl->next;
        for (msg_chunk *c = pl->chunks, *next; c; c = next) {
            next = c->next;
            for (size_t i = 0; i < c->n; i++)
                proc_destroy(sim, &slot_msg(pl, c, i)->p);
            free(c);
        }
        free(pl);
    }
    if (net->elem)
        for (long i = 0; i < net->nelem; i++)
            whole_cancel_events(sim, &net->elem[i]);
    for (long k = 0; k < net->ncreated; k++)
        whole_cancel_events(sim, net->created[k]);
    whole_free(net);
    net_elems_free(net);
    free(net);
}
