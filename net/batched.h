/* net/batched.h: the network's approximations for batched paging
 * (process.paging = BATCHED, docs/BATCHING.md), net/batched.c: virtual
 * crossings (the pages of batched faults, which send no messages) and what
 * they meet and make others meet: registrations on links (net_vuser), load
 * rates (vrate), the messages' load windows (net_rload), the switches'
 * fluid backlogs and the virtual random stream, and the counting of a
 * batch's pages as messages that crossed an idle network (net_count_idle).
 * Above net/elem.h, below net/whole.h and the message walk (net/net.c),
 * which calls it at the points listed at the top of net/batched.c. In an
 * exact run (no virtual rng set, no crosser registered) none of it runs.
 */
#ifndef PNRSIM_NET_BATCHED_H
#define PNRSIM_NET_BATCHED_H

#include "core/rng.h"
#include "net/elem.h"

#include <stdint.h>

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
/* The message walk's test before each request (net/net.c; vrng: the
 * net's virtual rng, NULL in exact runs): true when e is a link with
 * registered crossers or a switch while virtual crossings are modelled,
 * where the walk asks net_vhop_wait (net/internal.h) how long to hold.
 * Inline: an exact run pays these two field tests per hop and no call. */
static inline bool net_vhop_at(const net_elem *e, const rng_t *vrng)
{
    return !list_empty(&e->batched.vusers) || (e->is_switch && vrng);
}
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

/* Batched paging (docs/BATCHING.md): count n messages of `bytes` from src
 * to dst as sent, delivered and crossing every element of their route
 * without waiting, each holding each element for net_elem_time (requests,
 * completions, busy time, messages and bytes), without sending anything.
 * Nothing in flight or queued is affected. */
void net_count_idle(net_t *net, int src, int dst, double bytes, uint64_t n, bool rdma);
/* With rdma: a one-sided RDMA transfer's, holding each link bytes /
 * bandwidth only (net_msg_time); otherwise each element net_elem_time.
 * net_rdma_idle_time: the time an RDMA transfer of `bytes` from src to dst
 * takes on an idle route (the sum of those holds). */
double net_rdma_idle_time(const net_t *net, int src, int dst, double bytes);

/* Planned trips (sched/batch_link.c): the pages of a batch's remote faults
 * to one server, each a round trip client -> server -> client whose
 * crossings are planned in advance, every hop after the mean wait of the
 * M/G/1 queue there (net_vwait_mean). A trip is given as its hops: nh
 * elements e[h], each crossed in d[h] seconds after a mean wait of w[h].
 *
 * The elements from c to s and back, in order, and each one's crossing
 * time for `bytes` (net_elem_time), into e and d; returns their number,
 * at most max, of which the first *nout are the page out's (c to s). */
int net_vtrip(net_t *net, int c, int s, double bytes, net_elem **e, double *d, int max,
              int *nout);
/* The same for one-sided RDMA (netram.transport = RDMA): the READ's
 * elements from s to c first (*nread of them), then the WRITE's from c to
 * s, each held as an RDMA transfer holds it (net_msg_time). */
int net_vtrip_rdma(net_t *net, int c, int s, double bytes, net_elem **e, double *d, int max,
                   int *nread);
/* Each hop's mean wait at `now` into w[h] (0 where nothing else crosses);
 * true when an element is loaded beyond load_max by the virtual crossings
 * and the messages together (net_vload + net_rload), where the M/G/1 mean
 * is a poor stand-in and the page should go the exact way. */
bool net_vtrip_waits(int nh, net_elem *const *e, double now, double load_max, double *w);
/* A page leaving at t: hop h begins at hs[h] (after the waits before it
 * and its own); returns the time its last crossing ends. */
double net_vtrip_plan(int nh, const double *w, const double *d, double t, double *hs);
/* The page planned with hop starts hs: when its crossing of element x in
 * x's queue at t (from its arrival there, hs[h] - w[h], to its crossing's
 * end) would end if it began at t at the latest: its end when under way,
 * t + d[h] when still waiting; -1 when it has none in the queue then.
 * What a net_vuser's crossing_end tells of one page. */
double net_vtrip_crossing_end(int nh, net_elem *const *e, const double *w, const double *d,
                              const double *hs, const net_elem *x, double t);

#endif
