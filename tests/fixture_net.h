/* tests/fixture_net.h: helpers of tests/test_net*.c: a test message type
 * embedding msg_t, the log of arrivals, sending, killing and restarting
 * messages at given times, the sum of the elements' busy time, teardown.
 */
#ifndef PNRSIM_TESTS_FIXTURE_NET_H
#define PNRSIM_TESTS_FIXTURE_NET_H

#include "net/net.h"
#include "tests/testutil.h"

#include <stdint.h>
#include <string.h>


#define BW 12.5e6
#define LAT 5e-8
#define DELAY 8e-5
#define BYTES 4096.0
#define L_HOP 3.2773e-4 /* LAT + BYTES / BW, by hand */
#define D_SW 8e-5
#define TOL 1e-15       /* times are ~1e-3 s; one ulp there is ~2e-19 */

/* ---- helpers ----------------------------------------------------------- */

enum { MAXMSG = 64 };
static double arrive[MAXMSG];   /* arrival time by tag, -1 if none */
static int arrivals;

static inline void reset_arrivals(void)
{
    for (int i = 0; i < MAXMSG; i++)
        arrive[i] = -1;
    arrivals = 0;
}

/* The tests' typed message: the network's part and a tag. */
typedef struct tmsg {
    long tag;
    msg_t m;            /* not first, so container_of has work to do */
} tmsg;

static inline tmsg *tmsg_of(msg_t *m) { return container_of(m, tmsg, m); }
       
       /* A tagged message from the net's pool of them. */
       static msg_t *talloc(sim_t *sim, net_t *net)
{
    return net_pool_alloc(sim, NET_POOL_FOR(net, tmsg, m));
}

/* done: record the arrival time under the message's tag, free it. */
static inline void on_arrive(sim_t *sim, msg_t *m)
{
    long tag = tmsg_of(m)->tag;
    ck_assert(tag >= 0 && tag < MAXMSG);
    ck_assert_msg(arrive[tag] < 0, "message %ld arrived twice", tag);
    ck_assert(!net_msg_in_flight(m));
    arrive[tag] = sim->now;
    arrivals++;
    net_msg_free(m->net, m);
}

static inline msg_t *send(sim_t *sim, net_t *net, int src, int dst, long tag)
{
    msg_t *m = talloc(sim, net);
    m->src = src;
    m->dst = dst;
    m->bytes = BYTES;
    m->done = on_arrive;
    tmsg_of(m)->tag = tag;
    net_send(sim, net, m);
    return m;
}

static inline void kill_cb(sim_t *sim, void *arg)
{
    msg_t *m = arg;
    net_kill(sim, m->net, m);
}

static inline void restart_cb(sim_t *sim, void *arg)
{
    msg_t *m = arg;
    net_restart(sim, m->net, m);
}

static inline double elem_busy_sum(const sim_t *sim, net_t *net)
{
    double t = 0;
    for (int i = 0; i < net_elem_count(net); i++)
        t += res_busy_time(sim, &net_elem_at(net, i)->res);
    return t;
}

/* Finish: destroy the network and check every event record went with it. */
static inline void teardown(sim_t *sim, net_t *net)
{
    ck_assert_uint_eq(sim->live_records, net_msg_pool_size(net));
    net_destroy(sim, net);
    ck_assert_uint_eq(sim->live_records, 0);
    ev_destroy(sim);
}


/* The network the kill callbacks act on (each test that uses them sets it). */
static net_t *kill_net;

#endif
