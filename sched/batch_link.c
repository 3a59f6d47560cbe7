/* sched/batch_link.c: the network a batch's remote faults cross (batched
 * paging, sched/batch.c; docs/BATCHING.md): the batch's side of it.
 *
 * The split with net/: the queueing of the pages on the network (the
 * elements of a trip and their crossing times, each hop's mean wait and
 * the congestion test, the hop starts of a planned page, when a page's
 * crossing in a link's queue ends) is network arithmetic over elements,
 * in net/batched.c (net_vtrip_*, beside the load windows and backlogs it
 * reads). What is here needs the batch's own types (fault_batch,
 * batch_route, batch_vuser): which step is under way, which trips and
 * links a batch uses within its fixed arrays, its registrations on links,
 * and the rates its planned steps add to each element.
 *
 * A batched remote fault sends no messages: its page out and page in are
 * planned, hop by hop, when its batch is planned, and counted when the
 * batch is counted. What they would have met on the way is modelled, at
 * a cost that does not grow with the number of batches:
 *
 *   - batched pages behind the rest: a batch adds to every element it
 *     crosses (links and switches) the rate at which its planned pages
 *     cross it (crossings over its span: vrate, net/elem.h); an element's
 *     queue takes the batched crossings as a Poisson stream besides the
 *     messages (their load measured over the last 10-20 ms, net_rload),
 *     and a batched page waits at each element the M/G/1 queue's mean
 *     wait for both (Pollaczek-Khinchine; net_vwait_mean), the other
 *     batches' load and the messages' (its own pages do not queue behind
 *     each other);
 *   - messages behind batched pages: a batch registers on every link of
 *     its routes (net_vuser; batch_route_of), and a message that asks for
 *     a link first waits for the work left of the batched crossings in
 *     its queue then (batch_crossing_end: waiting there or crossing;
 *     net/batched.c), as behind the page messages holding and queued at it;
 *     at a switch, which every batch crosses, it waits for the switch's
 *     backlog of virtual crossings (net/batched.h, "Switch backlog");
 *   - saturation: a fault whose route crosses an element loaded beyond
 *     BATCH_LOAD_MAX by other batches and messages together goes the
 *     exact way, its messages meeting the real queues; so a saturated
 *     element serves its faults as the exact mode does.
 */
#include "sched/batch_link.h"

#include <assert.h>

int batch_step_at(const fault_batch *bt, double t)
{
    if (bt->n == 0 || bt->f[0] > t)
        return -1;
    int lo = 0, hi = bt->n - 1;
    /* Invariant: f[lo] <= t, and every step after hi begins after t. */
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (bt->f[mid] <= t)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* net_vuser.crossing_end of a batch: when its crossing of link e in the
 * link's queue at t would end (net/batched.h), or -1. The crossing is in the
 * queue from when the page reaches the link (its mean wait before its
 * start) to its end; only the step under way at t can have one then
 * (steps do not overlap). */
static double batch_crossing_end(const net_vuser *u, const net_elem *e, double t)
{
    const fault_batch *bt = ((const batch_vuser *)u)->bt;
    int k = batch_step_at(bt, t);
    if (k < 0 || bt->ri[k] < 0 || t >= bt->f[k] + bt->svc[k])
        return -1;
    const batch_route *r = &bt->rt[(int)bt->ri[k]];
    return net_vtrip_crossing_end(r->nh, r->e, r->w, r->d, bt->hs[k], e, t);
}

int batch_route_of(net_t *net, double page, fault_batch *bt, int c, int s, double svc,
                   bool rdma)
{
    for (int i = bt->nrt - 1; i >= 0; i--)
        if (bt->rt[i].s == s)
            return i;
    if (bt->nrt == BATCH_SERVERS)
        return -1;
    batch_route *r = &bt->rt[bt->nrt];
    r->s = s;
    if (rdma) {
        r->nh = net_vtrip_rdma(net, c, s, page, r->e, r->d, BATCH_HOPS, &r->nread);
        r->nout = r->nread;
    } else {
        r->nh = net_vtrip(net, c, s, page, r->e, r->d, BATCH_HOPS, &r->nout);
        r->nread = r->nh;
    }
    double sum = 0;
    net_elem *add[BATCH_HOPS];
    int na = 0;
    for (int h = 0; h < r->nh; h++) {
        net_elem *x = r->e[h];
        if (h < r->nread)
            sum += r->d[h]; /* what the fault waits for */
        if (x->is_switch)
            continue;
        bool seen = false;
        for (int q = 0; q < bt->nv && !seen; q++)
            seen = bt->v[q].e == x;
        for (int q = 0; q < na && !seen; q++)
            seen = add[q] == x;
        if (!seen)
            add[na++] = x;
    }
    if (bt->nv + na > BATCH_LINKS)
        return -1;
    r->lat = svc > sum ? svc - sum : 0; /* the access time (fault_plan's) */
    r->steps = 0;
    double now = bt->f[0]; /* the batch is planned at its start: now */
    r->congested = net_vtrip_waits(r->nh, r->e, now, BATCH_LOAD_MAX, r->w);
    for (int q = 0; q < na; q++) {
        batch_vuser *v = &bt->v[bt->nv++];
        v->u.crossing_end = batch_crossing_end;
        v->bt = bt;
        v->e = add[q];
        net_vuser_add(add[q], &v->u);
    }
    return bt->nrt++;
}

double batch_plan_crossings(fault_batch *bt, int n, const batch_route *r, double t)
{
    if (r->congested)
        return -1;
    if (r->nread < r->nh) { /* RDMA: the READ, and the WRITE leaving at t too */
        double end = net_vtrip_plan(r->nread, r->w, r->d, t, bt->hs[n]);
        net_vtrip_plan(r->nh - r->nread, r->w + r->nread, r->d + r->nread, t,
                       bt->hs[n] + r->nread);
        return end - t + r->lat;
    }
    /* Page messages: the core sends the page out (mc), the server's node
     * works on it (sw, docs/MODEL.md "Costs on a fault's path"), the page
     * comes back, is accessed (lat) and received (mc). With mc = sw = 0 the
     * same sums as one plan of the nh hops. */
    double out = net_vtrip_plan(r->nout, r->w, r->d, t + bt->mc, bt->hs[n]);
    double end = net_vtrip_plan(r->nh - r->nout, r->w + r->nout, r->d + r->nout, out + bt->sw,
                                bt->hs[n] + r->nout);
    return end - t + r->lat + bt->mc;
}

void batch_vrate_add(fault_batch *bt, double now)
{
    bt->nvr = 0;
    double span = bt->end - now;
    if (!(span > 0))
        return;
    /* Crossings per element: each route's steps times its hops. */
    for (int i = 0; i < bt->nrt; i++)
        bt->rt[i].steps = 0;
    for (int k = 0; k < bt->n; k++)
        if (bt->ri[k] >= 0)
            bt->rt[(int)bt->ri[k]].steps++;
    for (int i = 0; i < bt->nrt; i++) {
        const batch_route *r = &bt->rt[i];
        if (r->steps == 0)
            continue;
        for (int h = 0; h < r->nh; h++) {
            net_elem *x = r->e[h];
            int j = 0;
            while (j < bt->nvr && bt->vel[j] != x)
                j++;
            if (j == bt->nvr) {
                assert(bt->nvr < BATCH_ELEMS);
                bt->vel[bt->nvr] = x;
                bt->vd[bt->nvr] = r->d[h];
                bt->vr[bt->nvr++] = 0;
            }
            bt->vr[j] += r->steps;
        }
    }
    for (int i = 0; i < bt->nvr; i++) {
        bt->vr[i] /= span;
        net_vrate_add(bt->vel[i], bt->vr[i], bt->vd[i]);
    }
}

void batch_vrate_drop(fault_batch *bt)
{
    for (int i = 0; i < bt->nvr; i++)
        net_vrate_add(bt->vel[i], -bt->vr[i], bt->vd[i]);
    bt->nvr = 0;
}
