/* net/internal.h: private to net/ (declarations only, no .c): the
 * network's struct, and the calls each file of net/ offers the files above
 * it beyond its public header. The layers, bottom first:
 *   elem.c     elements, topologies, routes          (net/elem.h)
 *   batched.c  batched paging's approximations        (net/batched.h)
 *   whole.c    route mode WHOLE (uses batched.c)      (net/whole.h)
 *   net.c      pools, the message walk, send/kill     (net/net.h)
 *   report.c   --hardware-report                      (net/net.h)
 * net/approx.h (types only) holds the approximations' state. The hooks
 * below are the few points where the exact message walk
 * (net.c) calls into the approximations' rooms; each room's top comment
 * says when. */
#ifndef PNRSIM_NET_INTERNAL_H
#define PNRSIM_NET_INTERNAL_H

#include "core/rng.h"
#include "net/elem.h"

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
    /* The approximations' state (net/approx.h): the route mode and WHOLE's
     * counters (net/whole.c), batched paging's virtual stream and waits
     * (net/batched.c). */
    net_whole_state whole;
    net_batched_state batched;
    /* totals */
    long in_flight;
    long flight_cap;        /* net_set_flight_cap; LONG_MAX = no guard */
    bool saturated;         /* flight_cap was exceeded */
    uint64_t sent, delivered, restarts;
    double bytes_sent;
    const net_observer *obs; /* NULL when nobody observes */
};

/* ---- elem.c ---- */

/* Free the elements and the CONNECTED links' tables (net_destroy, after
 * the pools and the reservations' events). */
void net_elems_free(net_t *net);

/* ---- batched.c: the walk's calls (only while net->batched.vrng is set or a
 * link has registered crossers; net_vhop_at in net/batched.h says when
 * for the first) ---- */

/* m about to ask for e at `now` (net_vhop_at(e, net->batched.vrng) true): how
 * long it must hold first for the virtual crossings in a link's queue
 * (0: none; a wait is counted in net_virtual_waits); at a switch, 0, and
 * the time it may begin behind the switch's backlog kept in m->batched.vwait
 * (net_vswitch_arrive). */
double net_vhop_wait(net_t *net, msg_t *m, net_elem *e, double now);
/* m just granted m->cur at `now` (net->batched.vrng set): how long it must hold
 * the switch for the virtual work ahead of it (0: none; a wait is counted
 * in net_virtual_waits, and m->batched.vhold is set until net_vgranted). */
double net_vswitch_hold(net_t *net, msg_t *m, double now);
/* m's crossing of m->cur begins at `now` (net->batched.vrng set, after
 * net_vswitch_hold and its hold): the element's busy time starts now when
 * m held it for virtual work, and the crossing joins the element's load
 * window (net_rload_add). */
void net_vgranted(msg_t *m, double now);
/* A message reaches switch e at t and will hold it d seconds: the time
 * it may begin its crossing behind the switch's virtual backlog. */
double net_vswitch_arrive(net_t *net, net_elem *e, double t, double d);
/* A message's crossing of e for d seconds from t, into e's load window
 * (net_rload). */
void net_rload_add(net_elem *e, double t, double d);
/* Switch e's backlog (batched.h) loses `work` seconds at t (a killed
 * message's crossing), at least nothing left. */
void net_backlog_drop(net_elem *e, double t, double work);
/* m, at switch e (queued, holding it for the virtual work ahead, or
 * crossing it), is being killed: its crossing leaves e's backlog, all of
 * it unless under way, and a wait for the virtual work ahead of it is not
 * busy time (m->batched.vhold cleared). Before m gives e back. */
void net_vswitch_kill(sim_t *sim, net_elem *e, msg_t *m);

/* ---- whole.c: the walk's calls (only in route mode WHOLE, or where an
 * element is reserved: e->whole.resv) ---- */

/* At m's start: reserve its route when idle and return its arrival time,
 * or -1 (nothing reserved) when an element is not idle. */
double whole_reserve(sim_t *sim, net_t *net, msg_t *m);
/* At m's arrival: end the reservations it still has (m->whole.reserved cleared). */
void whole_arrive(sim_t *sim, net_t *net, msg_t *m);
/* m about to ask for element e (e->whole.resv set) on its hop-by-hop walk: an
 * ended reservation gives e back; m waits behind one still running. */
void whole_wait_behind(sim_t *sim, net_t *net, msg_t *m, net_elem *e);
/* m is killed: give back every element it still reserves. */
void whole_kill(sim_t *sim, net_t *net, msg_t *m);
/* The busy time of e's reservation (e->whole.resv set) up to now: the
 * part of [rs, re] already past, 0 when it has not begun
 * (net_elem_busy_time). */
double whole_resv_busy(const sim_t *sim, const net_elem *e);
/* A reservation of e already over (its end <= now) and not yet settled:
 * 1, with its message's bytes in *bytes; else 0 and *bytes = 0 (the
 * hardware report counts it as a crossing done). */
int whole_resv_done(const sim_t *sim, const net_elem *e, double *bytes);
/* Cancel the pending end event of e's reservation (net_destroy). */
void whole_cancel_events(sim_t *sim, net_elem *e);
/* With an observer installed: tell it e becomes busy (or idle) now, the
 * notes due by now first (the walk's hops, net.c; see "the observer's
 * notes" in net/whole.c). */
void whole_tell_now(sim_t *sim, net_t *net, const net_elem *e, bool busy);
/* Free the observer's notes (net_destroy). */
void whole_free(net_t *net);

#endif
