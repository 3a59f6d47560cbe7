/* net/approx.h: the state of the network's two approximations, types
 * only (no approx.c): what an element, a message and the network carry
 * for batched paging (process.paging = BATCHED; read and written by
 * net/batched.c) and for route mode WHOLE (network.route = WHOLE; by
 * net/whole.c). The exact structs (net_elem in net/elem.h, msg_t in
 * net/msg.h, struct net in net/internal.h) hold one member of each type,
 * `batched` and `whole`, set to "none" at creation; the exact model never
 * reads inside them except for the few tests the message walk makes
 * (net/net.c's top comment lists them); everything else goes through
 * net/batched.c and net/whole.c (whose top comments list the points). Here, below net/elem.h, so that
 * the exact structs can embed them.
 */
#ifndef PNRSIM_NET_APPROX_H
#define PNRSIM_NET_APPROX_H

#include "core/ev.h"
#include "core/list.h"
#include "core/rng.h"
#include "net/topology.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct msg msg_t; /* net/msg.h */

/* An element under route mode WHOLE (net/whole.c): the reservation it is
 * under. */
typedef struct net_elem_whole {
    msg_t *resv;        /* the message that reserved it, or NULL */
    double rs, re;      /* the reserved interval */
    ev_id rel_ev;       /* the reservation's end, when it must be an event
                         * (a message waits behind it): a pending one-shot
                         * event, or EV_NONE */
    /* An observer's view (net/whole.c, "the observer's notes"): never an
     * event, never read by the model. */
    uint32_t note_gen;  /* generation of its notes; a note of another is stale */
    bool told;          /* the observer was told busy for this reservation */
    bool idle_told;     /* ... and idle at its end */
} net_elem_whole;

/* An element under batched paging (net/batched.c, net/batched.h): the
 * virtual crossings it meets and the messages' load they meet. */
typedef struct net_elem_batched {
    list_t vusers;      /* links: virtual crossers registered (net_vuser) */
    double vrate;       /* virtual crossings per second (net_vrate_add) */
    double vd;          /* and the time each holds the element */
    /* The messages' own load, measured when virtual crossings exist
     * (net_rload): their crossing time, and its square, summed over the
     * window begun at rw0 ([1]) and the one before it ([0]). */
    double rw0, rb[2], rb2[2];
    /* Switches, the same while: the work (s) in its FIFO queue at time
     * fu_t as a fluid of virtual crossings and messages
     * (net_switch_backlog). */
    double fu, fu_t;
} net_elem_batched;

/* A message under route mode WHOLE (net/whole.c). */
typedef struct msg_whole {
    bool reserved;      /* its route is reserved, its one event is its
                           arrival */
    double behind_rs;   /* start of the reservation it was last counted as
                           held back behind (net_held_back) */
} msg_whole;

/* A message under batched paging (net/batched.c). */
typedef struct msg_batched {
    double vwait;       /* waiting for virtual crossings: at a link, when
                         * they are over; at a switch, when it may begin
                         * behind the switch's backlog */
    bool vhold;         /* holding a switch while the virtual work ahead
                           of it is served */
} msg_batched;

/* The network's route mode and its WHOLE counters (net/whole.c). */
typedef struct whole_note whole_note; /* net/whole.c */
typedef struct net_whole_state {
    net_route_mode mode; /* HOPS or WHOLE (net_set_route_mode) */
    uint64_t routes;    /* messages that took their route as one step */
    uint64_t held_back; /* waits behind a reservation not yet begun */
    /* An observer's notes (net/whole.c): a binary heap on (t, seq) of the
     * busy and idle instants of reservations still to be told. */
    whole_note *notes;
    size_t nnotes, capnotes;
    uint64_t note_seq;  /* next note's sequence number */
    bool telling;       /* inside the observer's callback */
} net_whole_state;

/* The network under batched paging (net/batched.c). */
typedef struct net_batched_state {
    rng_t *vrng;        /* switches' virtual waits (not owned); NULL in
                         * exact runs (net_set_virtual_rng) */
    uint64_t virtual_waits; /* waits for a virtual crossing (net_vuser) */
} net_batched_state;

#endif
