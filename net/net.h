/* net/net.h: the interconnect (techreport §4.2): messages and their walk
 * over the routes, the top of net/ (net/net.c; net/report.c beside it).
 * Everyone outside net/ includes this header, which brings the rest:
 *   net/elem.h     elements, topologies and routes (the bottom)
 *   net/batched.h  batched paging's approximations (process.paging = BATCHED)
 *   net/whole.h    route mode WHOLE (network.route = whole)
 *   net/msg.h      the message struct
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
 */
#ifndef PNRSIM_NET_NET_H
#define PNRSIM_NET_NET_H

#include "core/list.h"
#include "core/proc.h"
#include "core/res.h"
#include "core/rng.h"
#include "net/batched.h"
#include "net/elem.h"
#include "net/msg.h"
#include "net/topology.h"
#include "net/whole.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

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

/* Sum of the busy times of all links and switches up to now: the metric
 * "cumulative time communication units were in use". */
double net_busy_time(const sim_t *sim, const net_t *net);
/* Busy time of element e up to now (s): res_busy_time, or, while a WHOLE
 * reservation holds e, its crossings before it plus the part of the
 * reservation already past (never ahead of now). */
double net_elem_busy_time(const sim_t *sim, const net_elem *e);
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

#endif
