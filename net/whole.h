/* net/whole.h: route mode WHOLE (net_set_route_mode; `network.route =
 * whole`, issue 11), net/whole.c; above net/elem.h and net/batched.h,
 * below the message walk (net/net.c), which calls it at the points listed
 * at the top of net/whole.c. In HOPS mode none of it runs.
 *
 * A message that starts (at the instant it is sent or restarted, through
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
 * being served, none where it had not begun (as a killed walker). An
 * observer changes nothing of this (issue 32): the busy and idle instants
 * of each reservation are kept as notes and told to it in time order, with
 * their own times, never scheduled as events (net/elem.h, net_observer). A
 * message to its own PE goes through an event as in HOPS.
 */
#ifndef PNRSIM_NET_WHOLE_H
#define PNRSIM_NET_WHOLE_H

#include "core/ev.h"
#include "net/elem.h"

#include <stdint.h>

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

#endif
