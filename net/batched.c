/* net/batched.c: the network's approximations for batched paging
 * (process.paging = BATCHED; net/batched.h, docs/BATCHING.md). Above
 * net/elem.c (routes, element times); below net/whole.c and the message
 * walk (net/net.c).
 *
 * A batched fault sends no messages: its pages cross the network
 * virtually. What they do to the messages, and what the messages do to
 * them, is kept here: registrations of virtual crossers on links
 * (net_vuser), their rates on every element (vrate), the messages' load
 * windows (net_rload), the M/G/1 mean wait of a virtual crossing
 * (net_vwait_mean), the switches' fluid backlogs drawn from the virtual
 * random stream (net->batched.vrng), and the counting of batched pages as
 * messages that crossed an idle network (net_count_idle).
 *
 * Where the exact walk (net/net.c, msg_walk) calls in, each time behind a
 * branch that an exact run never takes, and each call saying what the
 * walk must do (the walk keeps only the holds):
 *   1. a message about to ask for an element where net_vhop_at (inline,
 *      batched.h) is true (a link with registered crossers, e->batched.
 *      vusers not empty, or a switch while net->batched.vrng is set):
 *      net_vhop_wait, the time it holds first for the virtual crossings
 *      in a link's queue (net_virtual_busy); at a switch it keeps when
 *      the message may begin behind the backlog (net_vswitch_arrive);
 *   2. a message granted an element (net->batched.vrng set):
 *      net_vswitch_hold, the time it holds the switch for the virtual
 *      work ahead (m->batched.vhold meanwhile), then net_vgranted: its
 *      busy time from then on, and its crossing into the element's load
 *      window (net_rload_add);
 *   3. a message killed at a switch (net->batched.vrng set):
 *      net_vswitch_kill.
 * WHOLE reservations (net/whole.c) call net_virtual_busy, net_rload_add,
 * net_switch_backlog and net_backlog_drop too. The state is in the
 * elements', messages' and network's `batched` members (net/approx.h).
 *
 * The planned trips at the end (net_vtrip_*) are the queueing arithmetic
 * of a batch's remote faults, kept here so that sched/batch_link.c holds
 * only the batch's bookkeeping: which trips and links a batch uses, its
 * registrations, and the rates its steps add.
 */
#include "net/batched.h"
#include "net/internal.h"
#include "net/msg.h"

#include <assert.h>
#include <math.h>

/* How long an RDMA transfer of `bytes` holds e (net_msg_time's rule). */
static double rdma_hold(const net_elem *e, double bytes)
{
    return e->is_switch ? net_elem_time(e, bytes) : bytes / e->bandwidth;
}

double net_rdma_idle_time(const net_t *net, int src, int dst, double bytes)
{
    double t = 0;
    int len = net_route_len(net, src, dst);
    for (int k = 0; k < len; k++)
        t += rdma_hold(net_route_elem(net, src, dst, k), bytes);
    return t;
}

void net_count_idle(net_t *net, int src, int dst, double bytes, uint64_t n, bool rdma)
{
    int len = net_route_len(net, src, dst);
    for (int k = 0; k < len; k++) {
        net_elem *e = net_route_elem(net, src, dst, k);
        /* As n walks that each found the element idle: no queueing. The
         * element may have a holder now (the batch did not wait for it),
         * so its fields are added to directly (res_account asserts none). */
        e->res.requests += n;
        e->res.completions += n;
        e->res.busy += (double)n * (rdma ? rdma_hold(e, bytes) : net_elem_time(e, bytes));
        e->messages += n;
        e->bytes += (double)n * bytes;
    }
    net->sent += n;
    net->delivered += n;
    net->bytes_sent += (double)n * bytes;
}

void net_vuser_add(net_elem *e, net_vuser *u)
{
    assert(!e->is_switch);
    list_add_tail(&e->batched.vusers, &u->link);
}

void net_vuser_del(net_vuser *u) { list_del(&u->link); }

double net_virtual_busy(const net_elem *e, double t)
{
    double left = 0;
    bool any = false;
    for (const list_t *n = e->batched.vusers.next; n != &e->batched.vusers; n = n->next) {
        const net_vuser *u = container_of(n, net_vuser, link);
        double x = u->crossing_end(u, e, t);
        if (x > t) {
            left += x - t;
            any = true;
        }
    }
    return any ? t + left : -1;
}

uint64_t net_virtual_waits(const net_t *net) { return net->batched.virtual_waits; }

void net_vrate_add(net_elem *e, double r, double d)
{
    e->batched.vd = d;
    e->batched.vrate += r;
    if (e->batched.vrate < 1e-9)
        e->batched.vrate = 0; /* every crosser gone: rounding left */
}

void net_set_virtual_rng(net_t *net, rng_t *rg) { net->batched.vrng = rg; }

double net_vload(const net_elem *e) { return e->batched.vrate * e->batched.vd; }

/* A message's crossing of e for d seconds, from t: into e's load window
 * (net_rload), rolled on first when t is past it. */
void net_rload_add(net_elem *e, double t, double d)
{
    double x = t - e->batched.rw0;
    if (x >= NET_RLOAD_WINDOW) {
        double k = floor(x / NET_RLOAD_WINDOW);
        if (k == 1) {
            e->batched.rb[0] = e->batched.rb[1];
            e->batched.rb2[0] = e->batched.rb2[1];
        } else {
            e->batched.rb[0] = e->batched.rb2[0] = 0;
        }
        e->batched.rb[1] = e->batched.rb2[1] = 0;
        e->batched.rw0 += k * NET_RLOAD_WINDOW;
    }
    e->batched.rb[1] += d;
    e->batched.rb2[1] += d * d;
}

/* The messages' crossing time per second at e at t (net_rload), and its
 * second moment per second in *m2. */
static double rload(const net_elem *e, double t, double *m2)
{
    double x = t - e->batched.rw0;
    if (x < NET_RLOAD_WINDOW) {
        *m2 = (e->batched.rb2[0] + e->batched.rb2[1]) / (NET_RLOAD_WINDOW + x);
        return (e->batched.rb[0] + e->batched.rb[1]) / (NET_RLOAD_WINDOW + x);
    }
    if (x < 2 * NET_RLOAD_WINDOW) {
        *m2 = e->batched.rb2[1] / x;
        return e->batched.rb[1] / x;
    }
    *m2 = 0;
    return 0;
}

double net_rload(const net_elem *e, double t)
{
    double m2;
    return rload(e, t, &m2);
}

/* A load as the queueing formulas take it: at most 0.95 (net.h). */
static inline double load_cap(double rho) { return rho < 0.95 ? rho : 0.95; }

/* The load of e's queue as the M/G/1 mean takes it: the virtual
 * crossings' and the messages' together, capped; the messages' second
 * moment per second in *m2. */
static double qload(const net_elem *e, double t, double *m2)
{
    return load_cap(net_vload(e) + rload(e, t, m2));
}

double net_vwait_mean(const net_elem *e, double t)
{
    double m2, rho = qload(e, t, &m2);
    return (net_vload(e) * e->batched.vd + m2) / (2 * (1 - rho));
}

double net_switch_backlog(const net_elem *e, double t)
{
    double rv = load_cap(net_vload(e));
    double dt = t - e->batched.fu_t; /* < 0: a WHOLE reservation's crossing ahead */
    double u = e->batched.fu - (dt > 0 ? dt : 0) * (1 - rv);
    return u > 0 ? u : 0;
}

void net_backlog_drop(net_elem *e, double t, double work)
{
    double u = net_switch_backlog(e, t) - work;
    e->batched.fu = u > 0 ? u : 0;
    e->batched.fu_t = t;
}

/* A message reaches switch e at t (batched paging; batched.h "Switch
 * backlog"): the time it may begin its crossing, FIFO behind the fluid
 * backlog, or behind a draw of the virtual crossings' M/D/1 queue when
 * the backlog is empty (0 with probability 1 - rho_v, else exponential
 * with mean d / (2 (1 - rho_v))); its crossing joins the backlog. */
double net_vswitch_arrive(net_t *net, net_elem *e, double t, double d)
{
    double u = net_switch_backlog(e, t);
    if (u < NET_VWAIT_MIN)
        u = 0;
    if (u == 0 && e->batched.vrate > 0) {
        double rv = load_cap(net_vload(e));
        if (rng_uniform01(net->batched.vrng) < rv)
            u = rng_exp(net->batched.vrng, e->batched.vd / (2 * (1 - rv)));
    }
    e->batched.fu = u + d;
    e->batched.fu_t = t;
    return t + u;
}

void net_vswitch_kill(sim_t *sim, net_elem *e, msg_t *m)
{
    res_t *r = &e->res;
    double left = net_msg_time(e, m);
    if (r->holder == &m->p && m->batched.vhold)
        r->busy_since = sim->now;
    else if (r->holder == &m->p && m->p.state == PROC_HOLDING)
        left = m->p.wake_at - sim->now;
    net_backlog_drop(e, sim->now, left);
    m->batched.vhold = false;
}

/* ---- the walk's hooks (net/net.c, msg_walk) ------------------------------ */

double net_vhop_wait(net_t *net, msg_t *m, net_elem *e, double now)
{
    /* A link with virtual crossings in its queue now: wait for what is
     * left of them, as behind the messages holding and queued at it. A
     * WHOLE route may reserve the link meanwhile (its reservation starts
     * when the virtual crossings are over): then the message queues
     * behind it too, hence the walk's second look (docs/MODEL.md, "Route
     * mode WHOLE"). */
    if (!list_empty(&e->batched.vusers) && (m->batched.vwait = net_virtual_busy(e, now)) > now) {
        net->batched.virtual_waits++;
        return m->batched.vwait - now;
    }
    /* A switch's FIFO queue holds virtual crossings too: the message
     * waits for those ahead while the messages ahead are served (its
     * request), and holds the switch for what is left of them once
     * granted (net_vswitch_hold). */
    if (e->is_switch && net->batched.vrng)
        m->batched.vwait = net_vswitch_arrive(net, e, now, net_msg_time(e, m));
    return 0;
}

double net_vswitch_hold(net_t *net, msg_t *m, double now)
{
    /* The virtual crossings ahead of it: the switch serves them (their
     * busy time was counted with them). With no virtual crossings the
     * backlog is the messages' own queue, which the switch has served
     * exactly. */
    net_elem *e = m->cur;
    if (!(e->is_switch && e->batched.vrate > 0 && m->batched.vwait - now >= NET_VWAIT_MIN))
        return 0;
    net->batched.virtual_waits++;
    m->batched.vhold = true;
    return m->batched.vwait - now;
}

void net_vgranted(msg_t *m, double now)
{
    net_elem *e = m->cur;
    if (m->batched.vhold) { /* held for the virtual work: its own crossing from now */
        m->batched.vhold = false;
        e->res.busy_since = now;
    }
    net_rload_add(e, now, net_msg_time(e, m));
}

/* ---- planned trips (sched/batch_link.c) ---------------------------------- */

/* Append the route a -> b's elements to e and their hold times for `bytes`
 * (a message's, or an RDMA transfer's: rdma_hold) to d, from e[*nh] on. */
static void trip_leg(net_t *net, int a, int b, double bytes, bool rdma, net_elem **e, double *d,
                     int *nh, int max)
{
    int len = net_route_len(net, a, b);
    for (int k = 0; k < len; k++) {
        net_elem *x = net_route_elem(net, a, b, k);
        assert(*nh < max);
        (void)max;
        e[*nh] = x;
        d[(*nh)++] = rdma ? rdma_hold(x, bytes) : net_elem_time(x, bytes);
    }
}

int net_vtrip(net_t *net, int c, int s, double bytes, net_elem **e, double *d, int max,
              int *nout)
{
    int nh = 0;
    trip_leg(net, c, s, bytes, false, e, d, &nh, max); /* the page out */
    *nout = nh;
    trip_leg(net, s, c, bytes, false, e, d, &nh, max); /* then the page in */
    return nh;
}

int net_vtrip_rdma(net_t *net, int c, int s, double bytes, net_elem **e, double *d, int max,
                   int *nread)
{
    int nh = 0;
    trip_leg(net, s, c, bytes, true, e, d, &nh, max); /* the READ */
    *nread = nh;
    trip_leg(net, c, s, bytes, true, e, d, &nh, max); /* then the WRITE */
    return nh;
}

bool net_vtrip_waits(int nh, net_elem *const *e, double now, double load_max, double *w)
{
    bool congested = false;
    for (int h = 0; h < nh; h++) {
        if (net_vload(e[h]) + net_rload(e[h], now) > load_max)
            congested = true;
        w[h] = net_vwait_mean(e[h], now); /* 0 when nothing else crosses it */
    }
    return congested;
}

double net_vtrip_plan(int nh, const double *w, const double *d, double t, double *hs)
{
    double at = t;
    for (int h = 0; h < nh; h++) {
        at += w[h];
        hs[h] = at;
        at += d[h];
    }
    return at;
}

double net_vtrip_crossing_end(int nh, net_elem *const *e, const double *w, const double *d,
                              const double *hs, const net_elem *x, double t)
{
    for (int h = 0; h < nh; h++) {
        if (e[h] != x)
            continue;
        if (hs[h] - w[h] <= t && t < hs[h])
            return t + d[h]; /* queued: all of its crossing is left */
        if (hs[h] <= t && t < hs[h] + d[h])
            return hs[h] + d[h];
    }
    return -1;
}
