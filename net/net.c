/* net/net.c: the interconnect (net.h): elements, topologies and routes,
 * the message pool and the message process.
 *
 * Elements. All elements live in one array, links first, then the switch
 * (at most one). Each wraps a res_t, so queueing, busy time and queue
 * statistics come from the core. A message holds a link for
 * latency + bytes / bandwidth: the link is held during the latency too
 * (§4.2.1 gives a link one message at a time, and we read the latency as
 * part of that message's turn, so back-to-back messages on a link are
 * spaced by the full latency + transmission time). A switch is held for its
 * processing delay. Forwarding is store-and-forward: a message releases an
 * element only when its service there is over, then asks for the next one.
 *
 * Element numbering and routes. Routes are not stored: for every topology
 * the k-th element of the route src -> dst is a constant-time formula on
 * (src, dst, k), fixed when the network is created, so nothing is searched
 * or allocated per message and CONNECTED with large N costs no N^2 route
 * table.
 *
 * CONNECTED links are created on first use. N(N-1) links of about 150
 * bytes each made 3,000 PEs cost 1.4 GB and 50,000 PEs impossible, while
 * a run only ever uses the pairs its jobs talk over (neighbours in a ring,
 * the PNR servers). So a CONNECTED link exists once a route has asked for
 * it (or net_elem_at has): it is allocated in chunks of NET_LINK_CHUNK
 * (never moved, never freed before net_destroy), found through a hash
 * table keyed by its index (open addressing, at most half full), and
 * listed in `created`, sorted by index when statistics ask for it. A link
 * created at time t is initialised as if it had existed, idle and with an
 * empty queue, since the network's creation (its queue statistics start
 * at that time, t0), so every figure is the same as with all links made
 * up front, and summing over the created links in index order adds the
 * same numbers in the same order (the others add exact zeros). Memory is
 * O(N + links used).
 *   STAR       links 0..N-1 (link i joins PE i to the switch), switch N.
 *              Route: src, N, dst.
 *   BUS        link 0. Route: 0.
 *   WHEEL      spokes 0..N-1 (as in STAR), rim links N..N+N/2-1 (rim k
 *              joins PEs 2k and 2k+1), switch N+N/2. Route: the rim link
 *              N + src/2 when src/2 == dst/2 (a rim pair), otherwise
 *              src, N+N/2, dst. With odd N, PE N-1 has no rim link. In a
 *              ring of threads placed on consecutive PEs, every other
 *              neighbour message (2k -> 2k+1 and its reply) takes one hop.
 *   CONNECTED  one one-way link per ordered pair: link i*(N-1) + j' where
 *              j' = j for j < i and j - 1 for j > i. Route: that link.
 *   TREE       R racks: links 0..N-1 (PE i to its ToR switch), uplinks
 *              N..N+R-1 (ToR r to the core), ToR switches N+R..N+2R-1,
 *              the core switch N+2R. Route within rack r: src, N+R+r, dst;
 *              across: src, N+R+rs, N+rs, N+2R, N+rd, N+R+rd, dst. The rack
 *              of a PE is the formula of net.h (net_rack_of).
 * A message to its own PE has an empty route (length 0).
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

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { NET_CHUNK_MIN = 16, NET_CHUNK_MAX = 4096, NET_LINK_CHUNK = 256 };

/* One block of lazily created CONNECTED links. */
typedef struct link_chunk {
    struct link_chunk *next;
    net_elem elem[NET_LINK_CHUNK];
} link_chunk;

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

/* ---- topology and routes ------------------------------------------------ */

const char *net_topology_name(net_topology topo)
{
    switch (topo) {
    case TOPO_KIND_STAR: return "star";
    case TOPO_KIND_BUS: return "bus";
    case TOPO_KIND_WHEEL: return "wheel";
    case TOPO_KIND_CONNECTED: return "connected";
    case TOPO_KIND_TREE: return "tree";
    }
    return "?";
}

/* Number of links of topology topo on n PEs. */
static long net_link_count(net_topology topo, int n)
{
    switch (topo) {
    case TOPO_KIND_STAR: return n;
    case TOPO_KIND_BUS: return 1;
    case TOPO_KIND_WHEEL: return (long)n + n / 2;
    case TOPO_KIND_CONNECTED: return (long)n * (n - 1);
    case TOPO_KIND_TREE: break; /* net_create_tree */
    }
    return 0;
}

/* Index of the CONNECTED link from src to dst (src != dst). */
static inline long net_connected_link(int n, int src, int dst)
{
    return (long)src * (n - 1) + (dst < src ? dst : dst - 1);
}

/* Initialise e, element i, as a link or switch named name. */
static void net_elem_init(sim_t *sim, net_t *net, net_elem *e, long i, int is_switch,
                          const char *name)
{
    e->index = i;
    e->is_switch = is_switch;
    e->latency = is_switch ? 0 : net->latency;
    e->bandwidth = is_switch ? 0 : net->bandwidth;
    e->delay = is_switch ? net->delay : 0;
    e->messages = 0;
    e->bytes = 0;
    e->net = net;
    e->resv = NULL;
    e->rs = e->re = 0;
    e->rel_ev = e->busy_ev = EV_NONE;
    e->told = false;
    list_init(&e->vusers);
    e->vrate = e->vd = 0;
    e->rw0 = 0;
    e->rb[0] = e->rb[1] = e->rb2[0] = e->rb2[1] = 0;
    e->fu = e->fu_t = 0;
    size_t len = strlen(name);
    if (len >= sizeof e->name)
        len = sizeof e->name - 1;
    memcpy(e->name, name, len);
    e->name[len] = '\0';
    res_init(sim, &e->res, e->name);
    timeavg_init(&e->res.queue, net->t0, 0); /* as if there since t0 */
}

/* Slot of link index i in the hash table: where it is, or the empty slot
 * where it would go. nslots > 0. */
static size_t net_slot_of(const net_t *net, long i)
{
    size_t mask = net->nslots - 1;
    size_t h = (size_t)((uint64_t)i * 0x9E3779B97F4A7C15ULL >> 17) & mask;
    while (net->slot[h] && net->slot[h]->index != i)
        h = (h + 1) & mask;
    return h;
}

/* The CONNECTED link with index i, created (idle since t0) when it does
 * not exist yet. Aborts when out of memory, like the message pool. */
static net_elem *net_link_get(net_t *net, long i)
{
    assert(!net->elem && i >= 0 && i < net->nlinks);
    if (net->nslots) {
        net_elem *e = net->slot[net_slot_of(net, i)];
        if (e)
            return e;
    }
    if (2 * (size_t)(net->ncreated + 1) > net->nslots) { /* grow the table */
        size_t n = net->nslots ? 2 * net->nslots : 64;
        net_elem **slot = calloc(n, sizeof *slot);
        if (!slot)
            goto oom;
        free(net->slot);
        net->slot = slot;
        net->nslots = n;
        for (long k = 0; k < net->ncreated; k++)
            net->slot[net_slot_of(net, net->created[k]->index)] = net->created[k];
    }
    if (net->ncreated == net->cap_created) {
        long cap = net->cap_created ? 2 * net->cap_created : 64;
        net_elem **c = realloc(net->created, (size_t)cap * sizeof *c);
        if (!c)
            goto oom;
        net->created = c;
        net->cap_created = cap;
    }
    if (!net->lchunks || net->lchunk_used == NET_LINK_CHUNK) {
        link_chunk *c = calloc(1, sizeof *c);
        if (!c)
            goto oom;
        c->next = net->lchunks;
        net->lchunks = c;
        net->lchunk_used = 0;
    }
    net_elem *e = &net->lchunks->elem[net->lchunk_used++];
    char name[48];
    int src = (int)(i / (net->n - 1)), j = (int)(i % (net->n - 1));
    snprintf(name, sizeof name, "link %d->%d", src, j < src ? j : j + 1);
    net_elem_init(net->sim, net, e, i, 0, name);
    net->slot[net_slot_of(net, i)] = e;
    net->created[net->ncreated++] = e;
    net->created_sorted = net->ncreated == 1 ||
                          (net->created_sorted && net->created[net->ncreated - 2]->index < i);
    if (net->obs && net->obs->created)
        net->obs->created(net->sim, e, net->obs->ctx);
    return e;
oom:
    fprintf(stderr, "pnrsim: out of memory (network links)\n");
    abort();
}

static int net_elem_cmp(const void *a, const void *b)
{
    long x = (*(net_elem *const *)a)->index, y = (*(net_elem *const *)b)->index;
    return (x > y) - (x < y);
}

/* Put the created CONNECTED links in index order (statistics only). */
static void net_sort_created(net_t *net)
{
    if (!net->created_sorted) {
        qsort(net->created, (size_t)net->ncreated, sizeof *net->created, net_elem_cmp);
        net->created_sorted = true;
    }
}

net_t *net_create(sim_t *sim, net_topology topo, int n, double bandwidth,
                  double latency, double delay)
{
    assert(n >= 1);
    assert(bandwidth > 0 && latency >= 0 && delay >= 0);
    assert(topo != TOPO_KIND_TREE); /* net_create_tree */
    long nlinks = net_link_count(topo, n);
    int has_switch = topo == TOPO_KIND_STAR || topo == TOPO_KIND_WHEEL;
    net_t *net = calloc(1, sizeof *net);
    if (!net)
        return NULL;
    net->topo = topo;
    net->n = n;
    net->bandwidth = bandwidth;
    net->latency = latency;
    net->delay = delay;
    net->nlinks = nlinks;
    net->nelem = nlinks + has_switch;
    net->sw = has_switch ? nlinks : -1;
    net->sim = sim;
    net->t0 = sim->now;
    net->flight_cap = LONG_MAX; /* no guard until net_set_flight_cap */
    if (topo == TOPO_KIND_CONNECTED)
        return net; /* links come on first use */
    net->elem = calloc((size_t)net->nelem, sizeof *net->elem);
    if (!net->elem) {
        free(net);
        return NULL;
    }
    char name[48];
    switch (topo) {
    case TOPO_KIND_STAR:
        for (int i = 0; i < n; i++) {
            snprintf(name, sizeof name, "link %d", i);
            net_elem_init(sim, net, &net->elem[i], i, 0, name);
        }
        break;
    case TOPO_KIND_BUS:
        net_elem_init(sim, net, &net->elem[0], 0, 0, "bus");
        break;
    case TOPO_KIND_WHEEL:
        for (int i = 0; i < n; i++) {
            snprintf(name, sizeof name, "spoke %d", i);
            net_elem_init(sim, net, &net->elem[i], i, 0, name);
        }
        for (int k = 0; k < n / 2; k++) {
            snprintf(name, sizeof name, "rim %d-%d", 2 * k, 2 * k + 1);
            net_elem_init(sim, net, &net->elem[n + k], n + k, 0, name);
        }
        break;
    case TOPO_KIND_CONNECTED:
    case TOPO_KIND_TREE:
        break;
    }
    if (has_switch)
        net_elem_init(sim, net, &net->elem[net->sw], net->sw, 1, "switch");
    return net;
}

net_t *net_create_tree(sim_t *sim, const net_tree *tree, int n, double bandwidth,
                       double latency, double delay)
{
    assert(n >= 1 && tree->ncompute >= 1 && tree->ncompute <= n && tree->rack_size >= 1);
    assert(bandwidth > 0 && latency >= 0 && delay >= 0);
    assert(tree->uplink_bandwidth > 0 && tree->uplink_latency >= 0);
    net_t *net = calloc(1, sizeof *net);
    if (!net)
        return NULL;
    int R = tree->rack_size, ns = n - tree->ncompute;
    net->topo = TOPO_KIND_TREE;
    net->n = n;
    net->bandwidth = bandwidth;
    net->latency = latency;
    net->delay = delay;
    net->tree = *tree;
    net->crack = (tree->ncompute + R - 1) / R;
    net->nracks = net->crack +
                  (tree->servers == NET_SERVERS_RACKS ? (ns + R - 1) / R : 0);
    net->nlinks = (long)n + net->nracks;
    net->nelem = net->nlinks + net->nracks + 1;
    net->sw = net->nelem - 1;
    net->sim = sim;
    net->t0 = sim->now;
    net->flight_cap = LONG_MAX; /* no guard until net_set_flight_cap */
    net->elem = calloc((size_t)net->nelem, sizeof *net->elem);
    if (!net->elem) {
        free(net);
        return NULL;
    }
    char name[48];
    for (int i = 0; i < n; i++) {
        snprintf(name, sizeof name, "link %d", i);
        net_elem_init(sim, net, &net->elem[i], i, 0, name);
    }
    for (int r = 0; r < net->nracks; r++) {
        long u = (long)n + r, t = net->nlinks + r;
        snprintf(name, sizeof name, "uplink %d", r);
        net_elem_init(sim, net, &net->elem[u], u, 0, name);
        net->elem[u].bandwidth = tree->uplink_bandwidth;
        net->elem[u].latency = tree->uplink_latency;
        snprintf(name, sizeof name, "tor %d", r);
        net_elem_init(sim, net, &net->elem[t], t, 1, name);
    }
    net_elem_init(sim, net, &net->elem[net->sw], net->sw, 1, "core");
    return net;
}

int net_rack_of(const net_t *net, int pe)
{
    assert(pe >= 0 && pe < net->n);
    if (net->topo != TOPO_KIND_TREE)
        return 0;
    if (pe < net->tree.ncompute)
        return pe / net->tree.rack_size;
    int k = pe - net->tree.ncompute;
    if (net->tree.servers == NET_SERVERS_SPREAD)
        return k % net->crack;
    return net->crack + k / net->tree.rack_size;
}

const net_tree *net_tree_shape(const net_t *net)
{
    return net->topo == TOPO_KIND_TREE ? &net->tree : NULL;
}

int net_rack_count(const net_t *net) { return net->topo == TOPO_KIND_TREE ? net->nracks : 1; }

long net_uplink_index(const net_t *net, int rack)
{
    assert(net->topo != TOPO_KIND_TREE || (rack >= 0 && rack < net->nracks));
    return net->topo == TOPO_KIND_TREE ? (long)net->n + rack : -1;
}

long net_tor_index(const net_t *net, int rack)
{
    assert(net->topo != TOPO_KIND_TREE || (rack >= 0 && rack < net->nracks));
    return net->topo == TOPO_KIND_TREE ? net->nlinks + rack : -1;
}

long net_core_index(const net_t *net) { return net->topo == TOPO_KIND_TREE ? net->sw : -1; }

int net_route_len(const net_t *net, int src, int dst)
{
    assert(src >= 0 && src < net->n && dst >= 0 && dst < net->n);
    if (src == dst)
        return 0;
    switch (net->topo) {
    case TOPO_KIND_STAR: return 3;
    case TOPO_KIND_WHEEL: return src / 2 == dst / 2 ? 1 : 3;
    case TOPO_KIND_BUS:
    case TOPO_KIND_CONNECTED: return 1;
    case TOPO_KIND_TREE: return net_rack_of(net, src) == net_rack_of(net, dst) ? 3 : 7;
    }
    return 0;
}

/* Index of the k-th element of the route src -> dst (0 <= k < length). */
static long net_route_index(const net_t *net, int src, int dst, int k)
{
    assert(k >= 0 && k < net_route_len(net, src, dst));
    switch (net->topo) {
    case TOPO_KIND_BUS:
        return 0;
    case TOPO_KIND_CONNECTED:
        return net_connected_link(net->n, src, dst);
    case TOPO_KIND_WHEEL:
        if (src / 2 == dst / 2)
            return net->n + src / 2;
        return k == 0 ? src : k == 1 ? net->sw : dst; /* as in STAR */
    case TOPO_KIND_STAR:
        return k == 0 ? src : k == 1 ? net->sw : dst;
    case TOPO_KIND_TREE: {
        int rs = net_rack_of(net, src), rd = net_rack_of(net, dst);
        if (rs == rd)
            return k == 0 ? src : k == 1 ? net->nlinks + rs : dst;
        switch (k) {
        case 0: return src;
        case 1: return net->nlinks + rs; /* ToR of src */
        case 2: return (long)net->n + rs; /* its uplink */
        case 3: return net->sw;           /* core */
        case 4: return (long)net->n + rd;
        case 5: return net->nlinks + rd;
        default: return dst;
        }
    }
    }
    return 0;
}

net_elem *net_route_elem(const net_t *net, int src, int dst, int k)
{
    long i = net_route_index(net, src, dst, k);
    /* Creating a CONNECTED link on first use changes no observable state
     * (it is idle since t0 either way), hence the cast. */
    return net->elem ? &net->elem[i] : net_link_get((net_t *)net, i);
}

double net_elem_time(const net_elem *e, double bytes)
{
    return e->is_switch ? e->delay : e->latency + bytes / e->bandwidth;
}

double net_idle_time(const net_t *net, int src, int dst, double bytes)
{
    double t = 0;
    int len = net_route_len(net, src, dst);
    for (int k = 0; k < len; k++)
        t += net_elem_time(net_route_elem(net, src, dst, k), bytes);
    return t;
}

void net_count_idle(net_t *net, int src, int dst, double bytes, uint64_t n)
{
    int len = net_route_len(net, src, dst);
    for (int k = 0; k < len; k++) {
        net_elem *e = net_route_elem(net, src, dst, k);
        /* As n walks that each found the element idle: no queueing. The
         * element may have a holder now (the batch did not wait for it),
         * so its fields are added to directly (res_account asserts none). */
        e->res.requests += n;
        e->res.completions += n;
        e->res.busy += (double)n * net_elem_time(e, bytes);
        e->messages += n;
        e->bytes += (double)n * bytes;
    }
    net->sent += n;
    net->delivered += n;
    net->bytes_sent += (double)n * bytes;
}

bool net_observed(const net_t *net) { return net->obs != NULL; }

void net_vuser_add(net_elem *e, net_vuser *u)
{
    assert(!e->is_switch);
    list_add_tail(&e->vusers, &u->link);
}

void net_vuser_del(net_vuser *u) { list_del(&u->link); }

double net_virtual_busy(const net_elem *e, double t)
{
    double left = 0;
    bool any = false;
    for (const list_t *n = e->vusers.next; n != &e->vusers; n = n->next) {
        const net_vuser *u = container_of(n, net_vuser, link);
        double x = u->crossing_end(u, e, t);
        if (x > t) {
            left += x - t;
            any = true;
        }
    }
    return any ? t + left : -1;
}

uint64_t net_virtual_waits(const net_t *net) { return net->virtual_waits; }

void net_vrate_add(net_elem *e, double r, double d)
{
    e->vd = d;
    e->vrate += r;
    if (e->vrate < 1e-9)
        e->vrate = 0; /* every crosser gone: rounding left */
}

void net_set_virtual_rng(net_t *net, rng_t *rg) { net->vrng = rg; }

double net_vload(const net_elem *e) { return e->vrate * e->vd; }

/* A message's crossing of e for d seconds, from t: into e's load window
 * (net_rload), rolled on first when t is past it. */
void net_rload_add(net_elem *e, double t, double d)
{
    double x = t - e->rw0;
    if (x >= NET_RLOAD_WINDOW) {
        double k = floor(x / NET_RLOAD_WINDOW);
        if (k == 1) {
            e->rb[0] = e->rb[1];
            e->rb2[0] = e->rb2[1];
        } else {
            e->rb[0] = e->rb2[0] = 0;
        }
        e->rb[1] = e->rb2[1] = 0;
        e->rw0 += k * NET_RLOAD_WINDOW;
    }
    e->rb[1] += d;
    e->rb2[1] += d * d;
}

/* The messages' crossing time per second at e at t (net_rload), and its
 * second moment per second in *m2. */
static double rload(const net_elem *e, double t, double *m2)
{
    double x = t - e->rw0;
    if (x < NET_RLOAD_WINDOW) {
        *m2 = (e->rb2[0] + e->rb2[1]) / (NET_RLOAD_WINDOW + x);
        return (e->rb[0] + e->rb[1]) / (NET_RLOAD_WINDOW + x);
    }
    if (x < 2 * NET_RLOAD_WINDOW) {
        *m2 = e->rb2[1] / x;
        return e->rb[1] / x;
    }
    *m2 = 0;
    return 0;
}

double net_rload(const net_elem *e, double t)
{
    double m2;
    return rload(e, t, &m2);
}

/* A load as the queueing formulas take it: at most 0.95 (net.h). */
static inline double load_cap(double rho) { return rho < 0.95 ? rho : 0.95; }

/* The load of e's queue as the M/G/1 mean takes it: the virtual
 * crossings' and the messages' together, capped; the messages' second
 * moment per second in *m2. */
static double qload(const net_elem *e, double t, double *m2)
{
    return load_cap(net_vload(e) + rload(e, t, m2));
}

double net_vwait_mean(const net_elem *e, double t)
{
    double m2, rho = qload(e, t, &m2);
    return (net_vload(e) * e->vd + m2) / (2 * (1 - rho));
}

double net_switch_backlog(const net_elem *e, double t)
{
    double rv = load_cap(net_vload(e));
    double dt = t - e->fu_t; /* < 0: a WHOLE reservation's crossing ahead */
    double u = e->fu - (dt > 0 ? dt : 0) * (1 - rv);
    return u > 0 ? u : 0;
}

void net_backlog_drop(net_elem *e, double t, double work)
{
    double u = net_switch_backlog(e, t) - work;
    e->fu = u > 0 ? u : 0;
    e->fu_t = t;
}

/* A message reaches switch e at t (batched paging; net.h "Switch
 * backlog"): the time it may begin its crossing, FIFO behind the fluid
 * backlog, or behind a draw of the virtual crossings' M/D/1 queue when
 * the backlog is empty (0 with probability 1 - rho_v, else exponential
 * with mean d / (2 (1 - rho_v))); its crossing joins the backlog. */
static double vswitch_arrive(net_t *net, net_elem *e, double t, double d)
{
    double u = net_switch_backlog(e, t);
    if (u < NET_VWAIT_MIN)
        u = 0;
    if (u == 0 && e->vrate > 0) {
        double rv = load_cap(net_vload(e));
        if (rng_uniform01(net->vrng) < rv)
            u = rng_exp(net->vrng, e->vd / (2 * (1 - rv)));
    }
    e->fu = u + d;
    e->fu_t = t;
    return t + u;
}

int net_pe_count(const net_t *net) { return net->n; }
net_topology net_topology_kind(const net_t *net) { return net->topo; }
long net_elem_count(const net_t *net) { return net->nelem; }

net_elem *net_elem_at(net_t *net, long i)
{
    assert(i >= 0 && i < net->nelem);
    return net->elem ? &net->elem[i] : net_link_get(net, i);
}

long net_elem_live_count(const net_t *net)
{
    return net->elem ? net->nelem : net->ncreated;
}

net_elem *net_elem_live_at(net_t *net, long k)
{
    assert(k >= 0 && k < net_elem_live_count(net));
    if (net->elem)
        return &net->elem[k];
    net_sort_created(net);
    return net->created[k];
}

/* ---- statistics ----------------------------------------------------------- */

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

void net_set_observer(net_t *net, const net_observer *o) { net->obs = o; }

/* Tell the observer, when e has no holder, that it becomes busy (called
 * just before a request, which res_request then grants at once) or that it
 * became idle (called just after a release that left nobody to hand it
 * to). With a holder, nothing changes and nothing is told. */
static inline void net_tell_busy(sim_t *sim, const net_t *net, const net_elem *e, bool busy)
{
    if (net->obs && net->obs->busy && !e->res.holder)
        net->obs->busy(sim, e, busy, net->obs->ctx);
}

/* WHOLE, a message about to ask for element e on its walk: an ended
 * reservation gives e back; one still running (or not yet begun) makes
 * the message wait behind it, until its end, which is then an event
 * (resv_end_at): without it the waiter would be handed e only when the
 * reserving message arrives, after the reservation's end. */
static void hop_behind_resv(sim_t *sim, net_t *net, msg_t *m, net_elem *e)
{
    if (!e->resv)
        return;
    resv_settle(sim, net, e);
    if (e->resv) {
        resv_end_at(sim, e);
        /* HOPS would let it overtake; counted once per reservation
         * (the second look after a virtual wait may find the same). */
        if (e->rs > sim->now && m->behind_rs != e->rs) {
            net->held_back++;
            m->behind_rs = e->rs;
        }
    }
}

/* The coroutine: cross every element of the route, then reach PROC_END. */
static void msg_walk(sim_t *sim, proc_t *p)
{
    msg_t *m = (msg_t *)p;
    net_t *net = m->net;
    net_elem *e;
    double t;
    PROC_BEGIN(p);
    if (net->route == NET_ROUTE_WHOLE && (t = route_reserve(sim, net, m)) >= 0) {
        /* Its route is reserved: the next step is its arrival, taken
         * inline when it is the next event anyway (as a hop's end). */
        if (ev_next_is(sim, t)) {
            ev_skip_to(sim, t);
        } else {
            proc_hold_until(sim, p, t); /* t itself, not now + (t - now) */
            PROC_YIELD(p);
        }
        route_arrive(sim, net, m);
        m->whole = false;
    } else
    for (m->hop = 0, m->len = net_route_len(net, m->src, m->dst); m->hop < m->len; m->hop++) {
        /* The element is found once per hop and kept in m->cur across the
         * hop's request and hold (the body's locals do not survive them). */
        m->cur = e = net_route_elem(net, m->src, m->dst, m->hop);
        m->behind_rs = -1;
        hop_behind_resv(sim, net, m, e);
        /* A link with virtual crossings in its queue now (batched paging):
         * wait for what is left of them, as behind the messages holding
         * and queued at it. A WHOLE route may reserve the link while this
         * message waits (its reservation starts when the virtual
         * crossings are over): then this message queues behind it and
         * needs its end event too, hence the second look (docs/MODEL.md,
         * "Route mode WHOLE"). */
        if (!list_empty(&e->vusers) && (m->vwait = net_virtual_busy(e, sim->now)) > sim->now) {
            net->virtual_waits++;
            PROC_HOLD(sim, p, m->vwait - sim->now);
            e = m->cur;
            hop_behind_resv(sim, net, m, e);
        } else if (e->is_switch && net->vrng) {
            /* Batched paging: the switch's FIFO queue holds virtual
             * crossings too. Wait for those ahead while the messages
             * ahead are served (the request below), holding the switch
             * for what is left of them once granted. */
            m->vwait = vswitch_arrive(net, e, sim->now, net_elem_time(e, m->bytes));
        }
        net_tell_busy(sim, net, e, true);
        PROC_REQUEST(sim, p, &m->cur->res);
        m->holding = true;
        if (m->cur->is_switch && net->vrng && m->cur->vrate > 0 &&
            m->vwait - sim->now >= NET_VWAIT_MIN) {
            /* The virtual crossings ahead of it: the switch serves them
             * (their busy time was counted with them). With no virtual
             * crossings the backlog is the messages' own queue, which
             * the switch has served exactly. */
            net->virtual_waits++;
            m->vhold = true;
            PROC_HOLD(sim, p, m->vwait - sim->now);
            m->vhold = false;
            m->cur->res.busy_since = sim->now;
        }
        if (net->vrng) /* batched paging: the messages' load (net_rload) */
            net_rload_add(m->cur, sim->now, net_elem_time(m->cur, m->bytes));
        /* The end of this hop is often the next event anyway (hops are
         * microseconds, events in a busy run milliseconds apart): then
         * PROC_HOLD moves the clock on and the walk goes on (exact,
         * ev_next_is). */
        PROC_HOLD(sim, p, net_elem_time(m->cur, m->bytes));
        e = m->cur;
        e->messages++;
        e->bytes += m->bytes;
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
    m->vhold = false;
    m->hop = 0;
    m->sent_at = sim->now;
    proc_start(sim, &m->p, 0);
}

void net_kill(sim_t *sim, net_t *net, msg_t *m)
{
    assert(m->net == net);
    if (!net_msg_in_flight(m))
        return;
    if (m->whole) {
        route_kill(sim, net, m);
    } else if (m->hop < net_route_len(net, m->src, m->dst)) {
        net_elem *e = net_route_elem(net, m->src, m->dst, m->hop);
        res_t *r = &e->res;
        if (e->is_switch && net->vrng) {
            /* Batched paging: its crossing leaves the switch's backlog,
             * all of it unless under way; a wait for the virtual work
             * ahead of it is not busy time. */
            double left = net_elem_time(e, m->bytes);
            if (r->holder == &m->p && m->vhold)
                r->busy_since = sim->now;
            else if (r->holder == &m->p && m->p.state == PROC_HOLDING)
                left = m->p.wake_at - sim->now;
            net_backlog_drop(e, sim->now, left);
        }
        m->vhold = false;
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
            elem_cancel_events(sim, &net->elem[i]);
    for (long k = 0; k < net->ncreated; k++)
        elem_cancel_events(sim, net->created[k]);
    for (link_chunk *c = net->lchunks, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    free(net->slot);
    free(net->created);
    free(net->elem);
    free(net);
}
