/* net/internal.h: what net.c (elements, routes, pools, the message walk)
 * and route.c (route mode WHOLE) share, private to net/: the network's
 * struct and the reservation functions. */
#ifndef PNRSIM_NET_INTERNAL_H
#define PNRSIM_NET_INTERNAL_H

#include "net/net.h"

#include <limits.h>

typedef struct link_chunk link_chunk;

struct net {
    net_topology topo;
    int n;                  /* PEs */
    double bandwidth, latency, delay;
    net_elem *elem;         /* links, then the switch; NULL for CONNECTED */
    long nelem, nlinks;
    long sw;                /* index of the switch, -1 when none (TREE: core) */
    net_tree tree;          /* TREE: its shape */
    int nracks;             /* TREE: racks (compute racks, then server racks) */
    int crack;              /* TREE: compute racks, ceil(ncompute / rack_size) */
    /* CONNECTED: links created on first use (see the top of the file) */
    sim_t *sim;
    double t0;              /* creation time: start of every queue statistic */
    link_chunk *lchunks;    /* newest first */
    int lchunk_used;        /* links used in the newest chunk */
    net_elem **slot;        /* hash table by index; NULL: empty */
    size_t nslots;          /* a power of two, or 0 */
    net_elem **created;     /* every created link */
    long ncreated, cap_created;
    bool created_sorted;    /* created is in index order */
    net_pool *pools;        /* message pools, one per type */
    net_route_mode route;   /* HOPS or WHOLE */
    uint64_t whole;         /* messages that took their route as one step */
    uint64_t held_back;     /* waits behind a reservation not yet begun */
    uint64_t virtual_waits; /* waits for a virtual crossing (net_vuser) */
    rng_t *vrng;            /* switches' virtual waits (not owned) */
    /* totals */
    long in_flight;
    long flight_cap;        /* net_set_flight_cap; LONG_MAX = no guard */
    bool saturated;         /* flight_cap was exceeded */
    uint64_t sent, delivered, restarts;
    double bytes_sent;
    const net_observer *obs; /* NULL when nobody observes */
};

/* ---- route.c: route mode WHOLE ---- */

/* Cancel the pending events of e's reservation. */
void elem_cancel_events(sim_t *sim, net_elem *e);
/* An ended reservation of e that nobody waits behind is finished now. */
void resv_settle(sim_t *sim, net_t *net, net_elem *e);
/* e's reservation ends through an event at its end (someone waits). */
void resv_end_at(sim_t *sim, net_elem *e);
/* At m's start: reserve its route when idle and return its arrival time,
 * or -1 (nothing reserved) when an element is not idle. */
double route_reserve(sim_t *sim, net_t *net, msg_t *m);
/* At m's arrival: end the reservations it still has. */
void route_arrive(sim_t *sim, net_t *net, msg_t *m);
/* A message's crossing of e for d seconds from t, into e's load window
 * (net_rload; only while virtual crossings are modelled). */
void net_rload_add(net_elem *e, double t, double d);
/* Switch e's backlog (net.h) loses `work` seconds at t (a killed
 * message's crossing), at least nothing left. */
void net_backlog_drop(net_elem *e, double t, double work);
/* m is killed: give back every element it still reserves. */
void route_kill(sim_t *sim, net_t *net, msg_t *m);

#endif
