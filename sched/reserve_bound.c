/* sched/reserve_bound.c: the dominance bound of conservative reservations (see
 * reserve_bound.h for why it holds): a Fenwick tree over thread counts whose
 * nodes are staircases over durations. Node i covers thread counts
 * (i - lowbit(i), i]; a query for n visits the nodes of the prefix 1..n, a
 * record for n the nodes that cover n. Then the stop test by width
 * classes (sched_stop_). */
#include "sched/reserve_bound.h"

#include "core/mem.h"

#include <assert.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void sched_bound_init(sched_bound *b, int npes)
{
    memset(b, 0, sizeof *b);
    b->npes = npes;
    b->gen = 1;
}

void sched_bound_free(sched_bound *b)
{
    if (b->node) {
        for (int i = 1; i <= b->npes; i++) {
            free(b->node[i].p);
        }
    }
    free(b->node);
    b->node = NULL;
}

void sched_bound_clear(sched_bound *b) { b->gen++; }

/* The number of pairs of staircase x with duration <= d. */
static int stair_upper(const sched_bound_stair *x, double d)
{
    int lo = 0, hi = x->n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (x->p[mid].d <= d)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Add (d, s) to staircase x, keeping only the pairs no other pair
 * dominates (shorter or equal duration and later or equal start). False
 * when (d, s) itself is dominated (nothing changed). */
static bool stair_add(sched_bound_stair *x, long gen, double d, double s)
{
    if (x->gen != gen) {
        x->gen = gen;
        x->n = 0;
    }
    int pos = stair_upper(x, d);
    if (pos > 0 && x->p[pos - 1].s >= s)
        return false; /* a pair no longer and no earlier is there */
    int from = pos > 0 && x->p[pos - 1].d == d ? pos - 1 : pos;
    int to = from;
    while (to < x->n && x->p[to].s <= s)
        to++; /* longer (or equal) and no later: dominated by (d, s) */
    if (to == from) {
        if (x->n == x->cap) {
            x->cap = x->cap ? 2 * x->cap : 8;
            x->p = xrealloc(x->p, (size_t)x->cap * sizeof *x->p);
        }
        memmove(x->p + from + 1, x->p + from, (size_t)(x->n - from) * sizeof *x->p);
        x->n++;
    } else if (to > from + 1) {
        memmove(x->p + from + 1, x->p + to, (size_t)(x->n - to) * sizeof *x->p);
        x->n -= to - from - 1;
    }
    x->p[from] = (sched_bound_pair){d, s};
    return true;
}

void sched_bound_record(sched_bound *b, int n, double d, double s)
{
    if (n < 1 || n > b->npes)
        return;
    if (!b->node)
        b->node = xcalloc((size_t)b->npes + 1, sizeof *b->node);
    /* Each node on the way covers the thread counts of the one before:
     * once (d, s) is dominated in one, it is in all the rest. */
    for (int i = n; i <= b->npes; i += i & -i)
        if (!stair_add(&b->node[i], b->gen, d, s))
            break;
}

double sched_bound_bound(const sched_bound *b, int n, double d)
{
    double best = -INFINITY;
    if (!b->node)
        return best;
    if (n > b->npes)
        n = b->npes;
    for (int i = n; i > 0; i -= i & -i) {
        const sched_bound_stair *x = &b->node[i];
        if (x->gen != b->gen || x->n == 0)
            continue;
        int pos = stair_upper(x, d);
        if (pos > 0 && x->p[pos - 1].s > best)
            best = x->p[pos - 1].s;
    }
    return best;
}

/* ---- the stop test by width classes ---------------------------------------- */

void sched_stop_init(sched_stop *s, int npes)
{
    memset(s, 0, sizeof *s);
    s->npes = npes;
    while (s->ncls < 31 && (1 << s->ncls) <= npes)
        s->ncls++;
}

void sched_stop_free(sched_stop *s)
{
    free(s->row);
    s->row = NULL;
}

/* The class of a job of n >= 1 threads: floor(log2(n)). */
static int width_class(int n)
{
    int c = 0;
    while (n >>= 1)
        c++;
    return c;
}

void sched_stop_jobs(sched_stop *s, sched_job *const *q, size_t n)
{
    size_t nc = (size_t)s->ncls, rows = n / SCHED_STOP_STRIDE + 1;
    if (rows * nc > s->cap) {
        s->cap = 2 * rows * nc;
        s->row = xrealloc(s->row, s->cap * sizeof *s->row);
    }
    double cur[32];
    for (size_t c = 0; c < nc; c++)
        cur[c] = INFINITY;
    for (size_t i = n; i-- > 0;) {
        const sched_job *j = q[i];
        int w = sched_job_width(j);
        if (sched_job_waiting(j) && w >= 1 && w <= s->npes) {
            int c = width_class(w);
            double e = sched_job_estimate(j);
            double d = e > 0 ? e : 0; /* the duration at MPL 1 */
            if (d < cur[c])
                cur[c] = d;
        }
        if (i % SCHED_STOP_STRIDE == 0)
            memcpy(s->row + i / SCHED_STOP_STRIDE * nc, cur, nc * sizeof *cur);
    }
}

void sched_stop_lower(sched_stop *s, const double *t, const int *f, int from, int to)
{
    /* blk[0] is the latest (blk never grows with c): steps from it on
     * lower nothing. */
    for (int k = from; k <= to && t[k] < s->blk[0]; k++)
        for (int c = s->ncls - 1; c >= 0 && (1 << c) > f[k]; c--)
            if (t[k] < s->blk[c])
                s->blk[c] = t[k];
}

void sched_stop_profile(sched_stop *s, const double *t, const int *f, int n)
{
    for (int c = 0; c < s->ncls; c++)
        s->blk[c] = INFINITY;
    int minf = s->npes + 1;
    for (int k = 0; k < n && minf > 0; k++) {
        if (f[k] < minf) {
            sched_stop_lower(s, t, f, k, k);
            minf = f[k];
        }
    }
}

bool sched_stop_may_start(const sched_stop *s, double now, size_t r)
{
    const double *sd = s->row + r * (size_t)s->ncls;
    for (int c = 0; c < s->ncls; c++) {
        double e = now + sd[c];
        if (sd[c] < INFINITY && (e <= s->blk[c] || !(e > now)))
            return true;
    }
    return false;
}
