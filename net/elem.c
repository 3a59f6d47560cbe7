/* net/elem.c: the interconnect's elements, topologies and routes
 * (net/elem.h), the bottom of net/: it calls nothing else of net/.
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
 * The fields of an element that belong to the approximations (a WHOLE
 * reservation, batched paging's virtual crossings) are set to "none" here
 * and used only by net/whole.c and net/batched.c.
 */
#include "net/internal.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NET_LINK_CHUNK = 256 };

/* One block of lazily created CONNECTED links. */
typedef struct link_chunk {
    struct link_chunk *next;
    net_elem elem[NET_LINK_CHUNK];
} link_chunk;

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
    e->whole.resv = NULL;
    e->whole.rs = e->whole.re = 0;
    e->whole.rel_ev = EV_NONE;
    e->whole.note_gen = 0;
    e->whole.told = e->whole.idle_told = false;
    list_init(&e->batched.vusers);
    e->batched.vrate = e->batched.vd = 0;
    e->batched.rw0 = 0;
    e->batched.rb[0] = e->batched.rb[1] = e->batched.rb2[0] = e->batched.rb2[1] = 0;
    e->batched.fu = e->batched.fu_t = 0;
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

double net_idle_time(const net_t *net, int src, int dst, double bytes)
{
    double t = 0;
    int len = net_route_len(net, src, dst);
    for (int k = 0; k < len; k++)
        t += net_elem_time(net_route_elem(net, src, dst, k), bytes);
    return t;
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

/* ---- observer ------------------------------------------------------------ */

/* A new observer (or none) starts with no notes (net/whole.c). */
void net_set_observer(net_t *net, const net_observer *o)
{
    net->obs = o;
    net->whole.nnotes = 0;
}

bool net_observed(const net_t *net) { return net->obs != NULL; }

void net_elems_free(net_t *net)
{
    for (link_chunk *c = net->lchunks, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    free(net->slot);
    free(net->created);
    free(net->elem);
}
