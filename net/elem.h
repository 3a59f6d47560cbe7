/* net/elem.h: the interconnect's elements, topologies and routes (techreport
 * §4.2), the bottom of net/ (net/elem.c). Above it: the approximations'
 * rooms, net/batched.h (process.paging = BATCHED) and net/whole.h
 * (network.route = WHOLE), then the message walk, net/net.h, which
 * includes all three (everyone outside net/ includes net/net.h).
 *
 *
 * A link carries one message at a time (FIFO queue, no collisions); a
 * message holds a link for latency + bytes / bandwidth (the link is held
 * during the latency too). A switch forwards one message at a time from
 * one unlimited FIFO queue, holding it for its fixed processing delay. Both are core resources (res_t), so each keeps
 * busy time, completions and queue statistics.
 *
 * Topologies, N = number of PEs (routes are computed once, at creation):
 *   STAR       N links and one switch: src link -> switch -> dst link.
 *   BUS        one link shared by all: one hop.
 *   WHEEL      N spoke links and one switch as in STAR, plus N/2 rim links
 *              joining PEs 2k and 2k+1; a pair joined by a rim link uses it
 *              (one hop), every other pair goes through the switch.
 *   CONNECTED  N(N-1) one-way links, one per ordered pair: one hop. A
 *              link is created on first use (idle since the network's
 *              creation), so memory grows with the pairs that talk, not N^2.
 *   TREE       racks (issue 15): each PE has a link to its rack's
 *              top-of-rack (ToR) switch; each ToR switch has an uplink to
 *              one core switch. Same rack: src link -> ToR -> dst link (3
 *              hops); other racks: src link -> ToR(src) -> uplink(src) ->
 *              core -> uplink(dst) -> ToR(dst) -> dst link (7 hops).
 *              Compute PE p (p < ncompute) is in rack p / rack_size; memory
 *              server k (PE ncompute + k) in rack k mod C (SPREAD, C =
 *              ceil(ncompute / rack_size) compute racks) or C + k /
 *              rack_size (RACKS). Uplinks have their own bandwidth and
 *              latency.
 * Links of STAR, BUS, WHEEL and TREE carry both directions (one message at a
 * time in total); CONNECTED links are one-way. A message to its own PE has
 * an empty route and arrives at the current instant. Routes are not
 * stored: the k-th element of a route is a constant-time formula of
 * (src, dst, k) for each topology (see elem.c for the numbering).
 *
 * An element carries the fields of the two approximations too (a WHOLE
 * reservation, batched paging's virtual crossings and load windows): they
 * are only data here, set to "none" at creation, and read and written by
 * net/whole.c and net/batched.c.
 */
#ifndef PNRSIM_NET_ELEM_H
#define PNRSIM_NET_ELEM_H

#include "core/ev.h"
#include "core/list.h"
#include "core/res.h"
#include "net/approx.h"
#include "net/topology.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct msg msg_t;     /* net/msg.h */
typedef struct net net_t;     /* net/internal.h (private to net/) */
typedef struct net_pool net_pool;

/* One network element on a route. */
typedef struct net_elem {
    res_t res;
    long index;         /* its number: 0 .. net_elem_count - 1 */
    int is_switch;
    double latency;     /* links: seconds per crossing */
    double bandwidth;   /* links: bytes per second */
    double delay;       /* switches: seconds per message */
    uint64_t messages;  /* messages that crossed it */
    double bytes;       /* bytes that crossed it */
    double job_bytes;   /* of those, the bytes of jobs' own messages
                         * (msg.job); the rest is network RAM's */
    char name[24];
    struct net *net;    /* its network */
    /* The approximations' state (net/approx.h): route mode WHOLE's
     * reservation (net/whole.c), batched paging's virtual crossings and
     * load windows (net/batched.c). */
    net_elem_whole whole;
    net_elem_batched batched;
} net_elem;


/* Create the network for n PEs. bandwidth in bytes/s, latency and delay in
 * seconds. Returns NULL when out of memory. Keeps sim, which must outlive
 * the network (CONNECTED links are made on first use). */
net_t *net_create(sim_t *sim, net_topology topo, int n, double bandwidth,
                  double latency, double delay);
/* The shape of a TREE network (see above). */
typedef struct net_tree {
    int ncompute;                 /* compute PEs (the rest are memory servers) */
    int rack_size;                /* PEs per rack, >= 1 */
    net_server_placement servers; /* memory servers spread or in own racks */
    double uplink_bandwidth;      /* bytes/s, > 0 */
    double uplink_latency;        /* s, >= 0 */
} net_tree;
/* Create a TREE network for n PEs (n >= tree->ncompute >= 1); the other
 * arguments as for net_create (PE links and switches). NULL when out of
 * memory. */
net_t *net_create_tree(sim_t *sim, const net_tree *tree, int n, double bandwidth,
                       double latency, double delay);
/* TREE: the rack of PE pe (0 for the other topologies, one rack), and the
 * number of racks (1 for the other topologies). Constant time. */
int net_rack_of(const net_t *net, int pe);
int net_rack_count(const net_t *net);
/* TREE: its shape; NULL for the other topologies. */
const net_tree *net_tree_shape(const net_t *net);
/* TREE: the first uplink, ToR switch and the core switch's indexes (as for
 * net_elem_at); -1 for the other topologies. */
long net_uplink_index(const net_t *net, int rack);
long net_tor_index(const net_t *net, int rack);
long net_core_index(const net_t *net);

/* Route from src to dst: number of elements and the elements in order. */
int net_route_len(const net_t *net, int src, int dst);
net_elem *net_route_elem(const net_t *net, int src, int dst, int k);
/* Time a message of `bytes` holds element e: latency + bytes / bandwidth
 * for a link, the processing delay for a switch. Inline: the message walk
 * takes it at every hop. */
static inline double net_elem_time(const net_elem *e, double bytes)
{
    return e->is_switch ? e->delay : e->latency + bytes / e->bandwidth;
}
/* Time a message of `bytes` takes from src to dst on an idle network. */
double net_idle_time(const net_t *net, int src, int dst, double bytes);

/* The parameters the network was created with. */
int net_pe_count(const net_t *net);
net_topology net_topology_kind(const net_t *net);
/* "star", "bus", "wheel", "connected" or "tree". */
const char *net_topology_name(net_topology topo);

/* All elements (links then switches): their number, and element i (a
 * CONNECTED link is created if it does not exist yet). */
long net_elem_count(const net_t *net);
net_elem *net_elem_at(net_t *net, long i);
/* The elements that exist, in index order, for statistics and reports:
 * all of them, except for CONNECTED, whose links not yet used do not
 * exist (they are idle, with zero counts). k from 0 to count - 1. */
long net_elem_live_count(const net_t *net);
net_elem *net_elem_live_at(net_t *net, long k);

/* Observer (schedule output, tracing): told that an element becomes busy
 * (a message starts holding it while it was idle) at time t and idle (its
 * holder releases it, or is killed, with nobody waiting; a hand-over to a
 * waiting message keeps it busy and is not told) at time t, so busy and
 * idle alternate for each element, starting idle, and the busy stretches
 * told sum to res_busy_time. Also told when a CONNECTED link is created on
 * first use (created, at sim->now). It must not change the network, and
 * the network does nothing for it that the run could see: no event, no
 * sequence number, no change of order (issue 32). In route mode HOPS t is
 * always sim->now. In route mode WHOLE a reservation's later instants
 * (its elements' busy starts and idle ends, which no event marks) are
 * kept as notes and told later, in time order, with their own t, which
 * may then lie before sim->now: when the network next changes an
 * element's state, when the reserving message arrives or is killed, or
 * when the observer asks (net_observe_next, net_observe_step). So the
 * told times never decrease, and before anything else an observer writes
 * at time T (a trace in time order) it tells the notes up to T. Members
 * may be NULL. */
typedef struct net_observer {
    void (*busy)(sim_t *sim, const net_elem *e, bool busy, double t, void *ctx);
    void (*created)(sim_t *sim, const net_elem *e, void *ctx);
    void *ctx;
} net_observer;
/* Install o (not copied: it must outlive its installation; NULL removes),
 * before the first message: notes pending are dropped. */
void net_set_observer(net_t *net, const net_observer *o);
/* True while an observer is installed (net_set_observer). */
bool net_observed(const net_t *net);
/* Route mode WHOLE: the time of the next note still to be told to the
 * observer (+inf when none, or while the observer's busy callback runs);
 * net_observe_step tells it (nothing when none). Both only touch the
 * notes, never the run (net/whole.c). */
double net_observe_next(net_t *net);
void net_observe_step(net_t *net);

#endif
