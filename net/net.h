/* net/net.h: the interconnect: links, switches, topologies, routes and
 * messages (techreport §4.2).
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
 * (src, dst, k) for each topology (see net.c for the numbering).
 *
 * A message is a process that walks its route hop by hop: request the
 * element, hold it for its service time, release it, go on. When it has
 * crossed its last hop its `done` callback runs at the destination. A
 * broadcast is N-1 point-to-point messages. Messages come from pools owned
 * by the network (no allocation in steady state).
 *
 * Killing (gang context switches, §4.4.2): net_kill stops a message where it
 * is (it leaves any queue, gives back any element it holds) and net_restart
 * later sends it again from the beginning of its route.
 *
 * Route mode WHOLE (net_set_route_mode; `network.route = whole`, issue 11):
 * a message that starts (at the instant it is sent or restarted, through
 * its start event as in HOPS) when every element of its route is idle (no
 * holder, nobody queued, no reservation still running) computes its whole
 * store-and-forward timing at once: hop k is served from s_k to
 * e_k = s_k + its service time, s_0 = now, s_{k+1} = e_k (the times an
 * idle network gives in HOPS mode, bit for bit), and it reserves each
 * element for [s_k, e_k]; its next step is its arrival (one event, or
 * none when it is the next event anyway, ev_next_is). Otherwise it walks
 * hop by hop as in HOPS. While
 * reserved, an element has the message as its holder, so a message that
 * reaches it before e_k (walking hop by hop because its own route was
 * not idle) waits behind the reservation and gets the element at e_k,
 * even if it came before s_k: the one way WHOLE differs from HOPS, where
 * it would have overtaken (docs/MODEL.md). Busy time counts [s_k, e_k]
 * (net_elem_busy_time: up to now, never ahead of it); per-element counts
 * grow when a reservation ends. A killed reserved message gives back every
 * element it still reserves at once: busy time up to now where it was
 * being served, none where it had not begun (as a killed walker). With an
 * observer installed each reservation also schedules its busy and idle
 * instants as events, so the observer is told at the right times. A
 * message to its own PE goes through an event as in HOPS.
 */
#ifndef PNRSIM_NET_NET_H
#define PNRSIM_NET_NET_H

#include "core/list.h"
#include "core/proc.h"
#include "core/res.h"
#include "core/rng.h"
#include "net/topology.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct msg msg_t;
typedef struct net net_t;
typedef struct net_pool net_pool;
/* Called when m has arrived at m->dst (sim->now is the arrival time). The
 * callback owns m: it must net_msg_free it or reuse it. */
typedef void (*msg_fn)(sim_t *sim, msg_t *m);

/* The network's part of a message. A layer that sends messages embeds a
 * msg_t in its own typed struct (a job's neighbour or sync message, a PNR
 * request, ...), takes it from a pool of that type (net_pool_for), and on
 * arrival gets its struct back with container_of (core/list.h): the
 * network sees a size, the receiver a typed message. */
struct msg {
    proc_t p;           /* first member: the message is a process */
    net_t *net;
    net_pool *pool;     /* the pool it came from */
    int src, dst;       /* PE numbers */
    double bytes;
    int hop;            /* index of the element on its route being used */
    double vwait;       /* waiting for virtual crossings (net.c): at a
                         * link, when they are over; at a switch, how long */
    int len;            /* its route's length (set when its walk starts) */
    struct net_elem *cur; /* the element of hop `hop`, while walking */
    bool holding;       /* holds route element `hop` */
    bool killed;
    double sent_at;     /* time of the latest (re)send */
    bool whole;         /* route mode WHOLE: its route is reserved, its one
                           event is its arrival */
    bool vhold;         /* holding a switch while the virtual work ahead
                           of it is served (batched paging, net.c) */
    double behind_rs;   /* WHOLE: start of the reservation it was last
                           counted as held back behind (net.c) */
    msg_fn done;
    list_t link;        /* the owner's while allocated (e.g. a job's list
                           of its messages); the pool's while free */
};

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
    char name[24];
    /* route mode WHOLE: the reservation it is under (see above) */
    struct net *net;    /* its network */
    msg_t *resv;        /* the message that reserved it, or NULL */
    double rs, re;      /* the reserved interval */
    ev_id rel_ev;       /* the reservation's end, when it must be an event
                         * (a message waits behind it, or an observer is
                         * installed): a pending one-shot event, or EV_NONE */
    ev_id busy_ev;      /* observer: the reservation's start, likewise */
    bool told;          /* observer: told busy for this reservation */
    list_t vusers;      /* links: virtual crossers registered (below) */
    double vrate;       /* virtual crossings per second (below) */
    double vd;          /* and the time each holds the element */
    /* The messages' own load, measured when virtual crossings exist
     * (net_rload, below): their crossing time, and its square, summed
     * over the window begun at rw0 ([1]) and the one before it ([0]). */
    double rw0, rb[2], rb2[2];
    /* Switches, the same while: the work (s) in its FIFO queue at time
     * fu_t as a fluid of virtual crossings and messages (net.c). */
    double fu, fu_t;
} net_elem;

/* Virtual crossings (batched paging, docs/BATCHING.md): something that
 * crosses links without sending messages (a batch of remote faults, whose
 * pages are counted with net_count_idle) registers on each link it
 * crosses. A message about to ask for a link first asks every registered
 * crosser whether it has a crossing of that link in the link's queue at
 * this instant (waiting for it or crossing it); if one has, the message
 * waits, once, for the work those crossings have left (net_virtual_busy),
 * as it would wait for the messages holding and queued at the link ahead
 * of it (net_virtual_waits counts these waits). Switches take no
 * registrations: a crossing of a switch is virtual for everyone (below,
 * "Switch backlog"). */
typedef struct net_vuser net_vuser;
struct net_vuser {
    list_t link;        /* on the link's vusers */
    /* When u's crossing of e in e's queue at time t (it reached e at or
     * before t and has not ended) would end if it began at t at the
     * latest: its end when under way, t + its crossing time when still
     * waiting; -1 when u has no crossing of e in the queue then. */
    double (*crossing_end)(const net_vuser *u, const net_elem *e, double t);
};
/* Register u on link e (not a switch), and take it off its link. */
void net_vuser_add(net_elem *e, net_vuser *u);
void net_vuser_del(net_vuser *u);
/* When the virtual crossings in e's queue at t are over if they are done
 * one after the other (t + the sum of what is left of each: crossers may
 * overlap, while messages cross one at a time), or -1 when none is. */
double net_virtual_busy(const net_elem *e, double t);
/* Messages that waited for a virtual crossing (each wait counted once). */
uint64_t net_virtual_waits(const net_t *net);

/* Load: a crosser also adds to each element it crosses (links and
 * switches) the rate at which it crosses it (crossings per second, over
 * the time it has planned, each holding the element d seconds;
 * net_vrate_add with -r takes it back). The virtual crossings count as a
 * Poisson stream of load rho_v = vrate x d into the element's FIFO queue
 * (net_vwait_mean, below). The draws of messages' waits at switches come
 * from rg (net_set_virtual_rng; none: no waits, and the messages' load
 * and the switch backlogs are not kept). */
void net_vrate_add(net_elem *e, double r, double d);
void net_set_virtual_rng(net_t *net, rng_t *rg);
/* The load of e's virtual crossings, rho (not capped). */
double net_vload(const net_elem *e);

/* Messages' load (batched paging): while virtual crossings are modelled
 * (a virtual rng is set), every message's crossing of an element adds its
 * time to the element's window of NET_RLOAD_WINDOW seconds; the
 * messages' load at t is their crossing time over the current window and
 * the one before it, divided by the time those span (one window and what
 * has run of the current one), 0 after two windows without a message.
 * It is what a virtual crosser meets besides the other virtual ones. */
#define NET_RLOAD_WINDOW 0.01
double net_rload(const net_elem *e, double t);
/* The mean wait at e at time t of a virtual crossing behind the other
 * virtual crossings (load rho_v = net_vload) and the messages (load
 * rho_m = net_rload, second moment of crossing time per second m2): the
 * M/G/1 queue of both streams, (rho_v d + m2) / (2 (1 - rho)) with
 * rho = rho_v + rho_m at most 0.95 (Pollaczek-Khinchine), s. */
double net_vwait_mean(const net_elem *e, double t);

/* Switch backlog (batched paging): a switch's FIFO queue takes virtual
 * crossings as a fluid, rho_v seconds of work per second, and messages as
 * they come, d each; it serves one second of work per second. A message
 * reaching a switch begins its crossing once the backlog it found is
 * served: it waits in the switch's queue for the messages ahead, then
 * holds the switch for what is left of the virtual crossings ahead (not
 * counted busy: they were counted with their batches). When it finds
 * the backlog empty it draws its wait behind the virtual crossings from
 * their M/D/1 queue instead (0 with probability 1 - rho_v, else
 * exponential with mean d / (2 (1 - rho_v))), and that wait stays in the
 * backlog. So a burst of messages queued at a switch holds back the
 * virtual crossings that arrive meanwhile, which delay the messages
 * after them, as pages interleave with the burst in the exact mode.
 * A backlog or wait under NET_VWAIT_MIN seconds counts as none: with no
 * virtual crossings the backlog is the messages' own queue, served
 * exactly by the switch, and what is left is rounding (times of days
 * carry ulps of 1e-9 s), which must not add events or move anything.
 * The backlog at t, s: */
#define NET_VWAIT_MIN 1e-7
double net_switch_backlog(const net_elem *e, double t);

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
/* TREE: busy time (s, res_busy_time) summed by kind of element: the PE
 * links (PE or memory server to its ToR switch: "rack links"), the uplinks
 * (ToR to core), the ToR switches and the core switch. The four add up to
 * net_busy_time. Returns 0; -1 with *out zeroed for the other topologies,
 * which have no racks. O(N) over the elements: for reports, not hot paths. */
typedef struct net_tree_busy {
    double rack_links, uplinks, tor_switches, core_switch;
} net_tree_busy;
int net_tree_busy_time(const sim_t *sim, const net_t *net, net_tree_busy *out);

/* Free the network, its elements and every message of its pools (in flight
 * or not). Call it before ev_destroy(sim). */
void net_destroy(sim_t *sim, net_t *net);

/* The net's pool of messages of one type: `size` bytes each (sizeof the
 * typed struct), aligned to `align` (its _Alignof, a power of two), the
 * msg_t at `offset` in it (offsetof the member). Made on the first call
 * for that type, the same pool after (a scan of the net's few pools);
 * owned by the net and freed by net_destroy. A pool grows in chunks and
 * never shrinks, so allocation is free of malloc in steady state; a slot
 * takes `size` rounded up to `align`. Aborts when out of memory. */
net_pool *net_pool_for(net_t *net, size_t size, size_t align, size_t offset);
#define NET_POOL_FOR(net, type, member)                                        \
    net_pool_for((net), sizeof(type), _Alignof(type), offsetof(type, member))
/* The layer a pool's messages belong to (NULL until set), so that its
 * messages need not each carry it: set by that layer, read on arrival. */
void net_pool_set_owner(net_pool *pool, void *owner);
void *net_msg_owner(const msg_t *m);
/* A message from pool: the whole typed struct zeroed, m->net and m->pool
 * set, m->link unlinked. */
msg_t *net_pool_alloc(sim_t *sim, net_pool *pool);
/* A plain msg_t (no typed struct around it) from the net's pool of them. */
msg_t *net_msg_alloc(sim_t *sim, net_t *net);
/* Give m back to its pool. m must not be in flight, and m->link must not
 * be on the owner's list any more. */
void net_msg_free(net_t *net, msg_t *m);
/* Send m (src, dst, bytes, done set by the caller) now. src == dst
 * arrives at once (done is called at the current instant, through an
 * event). A NULL done gives m back to the pool on arrival. */
void net_send(sim_t *sim, net_t *net, msg_t *m);
/* Stop an in-flight message where it is; it keeps its fields. A message
 * not in flight (delivered, already killed, never sent) is left alone. */
void net_kill(sim_t *sim, net_t *net, msg_t *m);
/* Send a killed message again from the start of its route. */
void net_restart(sim_t *sim, net_t *net, msg_t *m);
/* True when m has been (re)sent and is neither delivered nor killed. */
bool net_msg_in_flight(const msg_t *m);

/* Saturation guard (issue 23; docs/MODEL.md "Ranges and runaway runs"):
 * when a send or restart leaves more than `cap` messages in flight, the
 * network is marked saturated and ev_stop ends the run; 0 = no guard (the
 * default). Nothing else changes, so runs that stay under the cap are
 * the same event for event. */
void net_set_flight_cap(net_t *net, long cap);
/* True once the cap was exceeded. */
bool net_saturated(const net_t *net);
/* The element with the longest queue of waiting messages now (the lowest
 * index among equals; NULL when no message waits anywhere). */
const net_elem *net_longest_queue(net_t *net);

/* Route mode (HOPS when created). Set it before the first message. */
void net_set_route_mode(net_t *net, net_route_mode mode);
net_route_mode net_route_mode_of(const net_t *net);
/* "hops" or "whole". */
const char *net_route_mode_name(net_route_mode mode);
/* Messages (sends and restarts) that took their route as one step. */
uint64_t net_whole_routes(const net_t *net);
/* Requests that found the element reserved by a message whose turn there
 * had not begun yet: the cases where WHOLE differs from HOPS (in HOPS the
 * requester would have taken the idle element first). */
uint64_t net_held_back(const net_t *net);
/* Busy time of e up to now (s): res_busy_time, plus the part of a WHOLE
 * reservation already past. */
double net_elem_busy_time(const sim_t *sim, const net_elem *e);

/* Route from src to dst: number of elements and the elements in order. */
int net_route_len(const net_t *net, int src, int dst);
net_elem *net_route_elem(const net_t *net, int src, int dst, int k);
/* Time a message of `bytes` takes from src to dst on an idle network. */
double net_idle_time(const net_t *net, int src, int dst, double bytes);
/* Batched paging (docs/BATCHING.md): count n messages of `bytes` from src
 * to dst as sent, delivered and crossing every element of their route
 * without waiting, each holding each element for net_elem_time (requests,
 * completions, busy time, messages and bytes), without sending anything.
 * Nothing in flight or queued is affected. */
void net_count_idle(net_t *net, int src, int dst, double bytes, uint64_t n);
/* True while an observer is installed (net_set_observer). */
bool net_observed(const net_t *net);
/* Time a message of `bytes` holds element e: latency + bytes / bandwidth
 * for a link, the processing delay for a switch. */
double net_elem_time(const net_elem *e, double bytes);

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
/* Sum of the busy times of all links and switches up to now: the metric
 * "cumulative time communication units were in use". */
double net_busy_time(const sim_t *sim, const net_t *net);
/* Messages currently in flight (sent, not yet delivered or killed). */
long net_in_flight(const net_t *net);
/* Totals since creation: net_send calls (restarts are not new messages)
 * and their bytes; arrivals; restarts. */
uint64_t net_messages_sent(const net_t *net);
double net_bytes_sent(const net_t *net);
uint64_t net_messages_delivered(const net_t *net);
uint64_t net_restarts(const net_t *net);
/* Messages the pools have created (each owns one event record for good). */
size_t net_msg_pool_size(const net_t *net);
/* Print links, switches (with statistics) and a summary of routes (route
 * length histogram and a few examples), for --hardware-report. */
void net_report(const sim_t *sim, const net_t *net, FILE *out);

/* Observer (schedule output, tracing): told at the simulated instant an
 * element becomes busy (a message starts holding it while it was idle)
 * and idle (its holder releases it, or is killed, with nobody waiting; a
 * hand-over to a waiting message keeps it busy and is not told), so busy
 * and idle alternate for each element, starting idle, and the busy
 * stretches told sum to res_busy_time. Also told when a CONNECTED link is
 * created on first use (created). It must not change the network. Members
 * may be NULL. */
typedef struct net_observer {
    void (*busy)(sim_t *sim, const net_elem *e, bool busy, void *ctx);
    void (*created)(sim_t *sim, const net_elem *e, void *ctx);
    void *ctx;
} net_observer;
/* Install o (not copied: it must outlive its installation; NULL removes). */
void net_set_observer(net_t *net, const net_observer *o);

#endif
