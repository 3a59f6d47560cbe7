/* net/msg.h: the message struct (types only, no msg.c): the network's
 * part of every message, read by the message walk (net/net.c) and by the
 * WHOLE room (net/whole.c), which reserves a message's route. The
 * functions on messages (pools, sending, killing) are in net/net.h. */
#ifndef PNRSIM_NET_MSG_H
#define PNRSIM_NET_MSG_H

#include "core/list.h"
#include "core/proc.h"
#include "net/elem.h"

#include <stdbool.h>

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
    int len;            /* its route's length (set when its walk starts) */
    struct net_elem *cur; /* the element of hop `hop`, while walking */
    bool holding;       /* holds route element `hop` */
    bool killed;
    bool rdma;          /* a one-sided RDMA transfer (issue 25): its links
                         * are held for bytes / bandwidth only
                         * (net_msg_time); set by its sender, kept by
                         * net_send and net_restart */
    bool job;           /* a job's own message (sched/job.c: neighbour,
                         * reply, synchronisation), not network RAM's:
                         * its bytes are also counted in job_bytes of
                         * each element it crosses; set by its sender */
    double sent_at;     /* time of the latest (re)send */
    msg_whole whole;    /* route mode WHOLE (net/approx.h, net/whole.c) */
    msg_batched batched; /* batched paging (net/approx.h, net/batched.c) */
    msg_fn done;
    list_t link;        /* the owner's while allocated (e.g. a job's list
                           of its messages); the pool's while free */
};

/* Time m holds element e: net_elem_time, except that a one-sided RDMA
 * transfer (m->rdma) holds a link for bytes / bandwidth only, without the
 * link's latency (its NIC-to-NIC latency is added once per operation by
 * the sender's layer: docs/MODEL.md "One-sided far memory"). A switch is
 * held for its delay either way. Inline: the walk takes it at every hop. */
static inline double net_msg_time(const net_elem *e, const msg_t *m)
{
    if (m->rdma && !e->is_switch)
        return m->bytes / e->bandwidth;
    return net_elem_time(e, m->bytes);
}

#endif
