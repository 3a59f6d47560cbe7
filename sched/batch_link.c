/* sched/batch_link.c: the links a batch's remote faults cross (batched
 * paging, sched/batch.c; docs/BATCHING.md "Batched pages on links").
 *
 * A batched remote fault sends no messages: its page out and page in are
 * planned, hop by hop, when its batch is planned, and counted when the
 * batch is counted. What they would have met on the way is modelled
 * here, on links (switches are crossed without waiting, and nobody waits
 * for a batched page at a switch):
 *
 *   - a batch registers on every link of its remote faults' routes
 *     (net_vuser; route_of), so that
 *   - a message that asks for a link while a batched page is crossing it
 *     waits until that crossing ends (batch_crossing_end; net/net.c), as
 *     behind the page message holding the link in the exact mode;
 *   - a switch takes no registrations (every batch crosses it): a batch
 *     adds to the switch's vrate the rate at which its pages cross it;
 *     the batched crossings count as a Poisson stream into the switch's
 *     queue, so a message asking for the switch waits a draw whose mean
 *     is that M/D/1 queue's (net.h), and a batched page crossing it waits
 *     that mean (the other batches' load; not its own);
 *   - batched pages queue behind each other on a link (link_fifo): a
 *     crossing starts when every crossing of that link planned before it
 *     that reached the link first has ended (first come, first served, as
 *     the exact mode's FIFO queue); a crossing planned before that reaches
 *     the link later but begins before this one is done would, in a FIFO
 *     queue, have waited for this one; it is planned already and cannot
 *     move, so this fault takes on that wait (its service grows by it,
 *     after its last hop) and, for the rest of this fault's planning, that
 *     crossing counts as moved (the page in that follows a page out on a
 *     server's link then waits behind it as in the exact mode). So the
 *     total waiting on a link is the FIFO queue's, up to the knock-on
 *     waits of crossings moved this way on later faults.
 *
 * Not modelled: a batched page waiting behind a message (not a batched
 * page) holding or queued at a link or switch; a message waiting behind a
 * batched page it reached the link before.
 */
#include "sched/job_internal.h"

#include <assert.h>
#include <math.h>

/* The largest k with f[k] < b (f[k] <= b when closed), or -1. */
static int step_before(const fault_batch *bt, double b, bool closed)
{
    if (bt->n == 0 || (closed ? bt->f[0] > b : bt->f[0] >= b))
        return -1;
    int lo = 0, hi = bt->n - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (closed ? bt->f[mid] <= b : bt->f[mid] < b)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* net_vuser.crossing_end of a batch: the end of its crossing of link e
 * under way at t (begun at or before t), or -1. Only the step under way
 * at t can be crossing then (steps do not overlap). */
static double batch_crossing_end(const net_vuser *u, const net_elem *e, double t)
{
    const fault_batch *bt = ((const batch_vuser *)u)->bt;
    int k = step_before(bt, t, true);
    if (k < 0 || bt->ri[k] < 0 || t >= bt->f[k] + bt->svc[k])
        return -1;
    const batch_route *r = &bt->rt[(int)bt->ri[k]];
    for (int h = 0; h < r->nh; h++)
        if (r->e[h] == e && bt->hs[k][h] <= t && t < bt->hs[k][h] + r->d[h])
            return bt->hs[k][h] + r->d[h];
    return -1;
}

int batch_route_of(net_t *net, double page, fault_batch *bt, int c, int s, double svc)
{
    for (int i = bt->nrt - 1; i >= 0; i--)
        if (bt->rt[i].s == s)
            return i;
    if (bt->nrt == BATCH_SERVERS)
        return -1;
    batch_route *r = &bt->rt[bt->nrt];
    r->s = s;
    r->nh = 0;
    double sum = 0;
    net_elem *add[BATCH_HOPS];
    int na = 0;
    for (int dir = 0; dir < 2; dir++) {
        int a = dir ? s : c, b = dir ? c : s;
        int len = net_route_len(net, a, b);
        for (int k = 0; k < len; k++) {
            net_elem *x = net_route_elem(net, a, b, k);
            assert(r->nh < BATCH_HOPS);
            r->e[r->nh] = x;
            r->d[r->nh] = net_elem_time(x, page);
            sum += r->d[r->nh++];
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
    }
    if (bt->nv + na > BATCH_LINKS)
        return -1;
    r->lat = svc > sum ? svc - sum : 0; /* the access time (fault_plan's) */
    for (int q = 0; q < na; q++) {
        batch_vuser *v = &bt->v[bt->nv++];
        v->u.crossing_end = batch_crossing_end;
        v->bt = bt;
        v->e = add[q];
        net_vuser_add(add[q], &v->u);
    }
    return bt->nrt++;
}

/* ---- planning a fault's crossings ---- */

enum { MOVED_MAX = 16, NEAR_MAX = 64 };

/* A crossing planned before, moved (for the rest of one fault's planning)
 * by the wait this fault took on for it. */
typedef struct moved {
    const fault_batch *bt;
    int k, h;
    double by;
} moved;

typedef struct fifo_ctx {
    int n;
    moved m[MOVED_MAX];
    double charge;            /* waits taken on so far (an upper bound of
                               * any move) */
} fifo_ctx;

/* A crossing of a link by another batch: who, its arrival at the link,
 * its start and end (moved, if it was). */
typedef struct near {
    const fault_batch *bt;
    int k, h;
    double arr, s0, s1;
} near;

static double moved_by(const fifo_ctx *fc, const fault_batch *bt, int k, int h)
{
    for (int i = 0; i < fc->n; i++)
        if (fc->m[i].bt == bt && fc->m[i].k == k && fc->m[i].h == h)
            return fc->m[i].by;
    return 0;
}

/* Other batches' crossings of link x in steps that begin before hi and
 * end (moved) after lo, into out (at most NEAR_MAX). Returns how many. */
static int near_crossings(const net_elem *x, const fault_batch *self, double lo, double hi,
                          const fifo_ctx *fc, near *out)
{
    int n = 0;
    for (const list_t *l = x->vusers.next; l != &x->vusers; l = l->next) {
        const fault_batch *bt = container_of(l, batch_vuser, u.link)->bt;
        if (bt == self)
            continue;
        /* f[k] + svc[k] grows with k: stop at the first step over by lo. */
        for (int k = step_before(bt, hi, false);
             k >= 0 && bt->f[k] + bt->svc[k] + fc->charge > lo; k--) {
            if (bt->ri[k] < 0)
                continue;
            const batch_route *r = &bt->rt[(int)bt->ri[k]];
            for (int h = 0; h < r->nh; h++) {
                if (r->e[h] != x || n == NEAR_MAX)
                    continue;
                double by = moved_by(fc, bt, k, h);
                out[n++] = (near){bt, k, h, h ? bt->hs[k][h - 1] + r->d[h - 1] : bt->f[k],
                                  bt->hs[k][h] + by, bt->hs[k][h] + by + r->d[h]};
            }
        }
    }
    return n;
}

/* When this fault's crossing of link x, reaching it at a0 and lasting d,
 * starts (see the top of the file); takes on the waits it causes. */
static double link_fifo(const net_elem *x, const fault_batch *self, double a0, double d,
                        fifo_ctx *fc)
{
    near c[NEAR_MAX];
    double S = a0;
    /* Behind every crossing that reached the link first (a tie: theirs,
     * planned first), until it is done. */
    for (bool again = true; again;) {
        again = false;
        int n = near_crossings(x, self, a0, S + d, fc, c);
        for (int i = 0; i < n; i++)
            if (c[i].arr <= a0 && c[i].s1 > S) {
                S = c[i].s1;
                again = true;
            }
    }
    /* Those that reach it later but begin before this one is done would
     * wait for it: it takes their waits on, and they count as moved. */
    int n = near_crossings(x, self, a0, S + d, fc, c);
    for (int i = 0; i < n; i++) {
        if (c[i].arr <= a0 || c[i].s0 >= S + d || c[i].s1 <= S)
            continue;
        double w = S + d - c[i].s0;
        fc->charge += w;
        int j = 0;
        while (j < fc->n && !(fc->m[j].bt == c[i].bt && fc->m[j].k == c[i].k &&
                              fc->m[j].h == c[i].h))
            j++;
        if (j == fc->n && fc->n < MOVED_MAX)
            fc->m[fc->n++] = (moved){c[i].bt, c[i].k, c[i].h, 0};
        if (j < fc->n)
            fc->m[j].by += w;
    }
    return S;
}

double batch_plan_crossings(fault_batch *bt, int n, const batch_route *r, double t)
{
    fifo_ctx fc = {.n = 0, .charge = 0};
    double at = t;
    for (int h = 0; h < r->nh; h++) {
        const net_elem *x = r->e[h];
        /* Others registered on x: its list is longer than this batch. */
        if (x->is_switch)
            at += net_vswitch_wait(x); /* 0 when no batch crosses it */
        else if (x->vusers.next != x->vusers.prev)
            at = link_fifo(x, bt, at, r->d[h], &fc);
        bt->hs[n][h] = at;
        at += r->d[h];
    }
    return at - t + fc.charge + r->lat;
}

void batch_vrate_add(fault_batch *bt, double now)
{
    bt->nsw = 0;
    double span = bt->end - now;
    if (!(span > 0))
        return;
    for (int k = 0; k < bt->n; k++) {
        if (bt->ri[k] < 0)
            continue;
        const batch_route *r = &bt->rt[(int)bt->ri[k]];
        for (int h = 0; h < r->nh; h++) {
            net_elem *x = r->e[h];
            if (!x->is_switch)
                continue;
            int i = 0;
            while (i < bt->nsw && bt->sw[i] != x)
                i++;
            if (i == bt->nsw) {
                if (bt->nsw == 4)
                    continue; /* more switches than any topology has on two routes */
                bt->sw[bt->nsw] = x;
                bt->swr[bt->nsw++] = 0;
            }
            bt->swr[i] += 1;
        }
    }
    for (int i = 0; i < bt->nsw; i++) {
        bt->swr[i] /= span;
        net_vrate_add(bt->sw[i], bt->swr[i]);
    }
}

void batch_vrate_drop(fault_batch *bt)
{
    for (int i = 0; i < bt->nsw; i++)
        net_vrate_add(bt->sw[i], -bt->swr[i]);
    bt->nsw = 0;
}
