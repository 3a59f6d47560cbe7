/* app/busiest.c: workload.busiest = D, the trace's busiest window of
 * length D by offered load, as the two-level simulator's experiments take
 * a log's busiest 24 hours (issue 36 item 3).
 *
 * One pass over the trace before the run, in constant memory but for the
 * jobs of one window: a FIFO of (submit, work) for the records from the
 * current start s onwards with submit <= s + D. For each start (each
 * record with work, in submit order) the records up to s + D are read,
 * the window's work summed, and the start dropped. Work = procs x runtime
 * over the records with procs (field 5, else 8) >= 1 and runtime (field 4)
 * > 0, as logged (before load_scale, exclude_status or any other filter:
 * the load offered to the logged machine, normalised by this one's PEs).
 * The chosen window becomes submit_min/submit_max, so config.ini replays
 * it: searching again inside [s, s + D] finds the same window.
 */
#include "app/busiest.h"

#include "app/swf.h"
#include "core/mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct wjob {
    double submit, work;
} wjob;

typedef struct fifo {
    wjob *v;
    size_t cap, head, n;
    double sum;
} fifo;

static void fifo_push(fifo *q, wjob j)
{
    if (q->n == q->cap) {
        size_t cap = q->cap ? 2 * q->cap : 256;
        wjob *v = xmalloc(cap * sizeof *v);
        for (size_t i = 0; i < q->n; i++)
            v[i] = q->v[(q->head + i) % q->cap];
        free(q->v);
        q->v = v;
        q->cap = cap;
        q->head = 0;
    }
    q->v[(q->head + q->n) % q->cap] = j;
    q->n++;
    q->sum += j.work;
}

static wjob fifo_pop(fifo *q)
{
    wjob j = q->v[q->head];
    q->head = (q->head + 1) % q->cap;
    q->n--;
    q->sum -= j.work;
    return j;
}

/* The next record with work inside [lo, hi] (hi = 0: no bound): 1, 0 at
 * the end (or past hi), -1 with err. */
static int next_job(swf_reader *r, const config *c, double *last, wjob *j, char err[CFG_ERR_MAX])
{
    swf_record rec;
    bool bad;
    for (;;) {
        int rc = swf_next(r, &rec, &bad, err);
        if (rc < 0 && bad && c->workload.lenient)
            continue;
        if (rc <= 0)
            return rc;
        double s = rec.f[1];
        if (s < *last) {
            snprintf(err, CFG_ERR_MAX, "%s:%ld: workload.busiest: submit time %.0f is before the "
                     "previous record's %.0f: the trace is not in submit order", swf_path(r),
                     rec.line, s, *last);
            return -1;
        }
        *last = s;
        if (s < c->workload.submit_min)
            continue;
        if (c->workload.submit_max > 0 && s > c->workload.submit_max)
            return 0;
        double procs = rec.f[4] >= 1 ? rec.f[4] : rec.f[7];
        if (!(procs >= 1) || !(rec.f[3] > 0))
            continue;
        j->submit = s;
        j->work = procs * rec.f[3];
        return 1;
    }
}

int busiest_resolve(config *c, double *load, char err[CFG_ERR_MAX])
{
    *load = 0;
    double D = c->workload.busiest;
    if (!(D > 0))
        return 0;
    if (!strcmp(c->workload.trace, "-")) {
        snprintf(err, CFG_ERR_MAX, "workload.busiest = %g s needs a trace file to read twice "
                 "(the search, then the run), not standard input", D);
        return 2;
    }
    swf_reader *r = swf_open(c->workload.trace, c->workload.lenient, err);
    if (!r)
        return 2;
    fifo q = { 0 };
    wjob pend, best = { -1, -1 };
    double last = -1e300;
    int rc = next_job(r, c, &last, &pend, err);
    bool have = rc == 1;
    while (rc >= 0 && (have || q.n)) {
        if (!q.n) {
            fifo_push(&q, pend);
            rc = next_job(r, c, &last, &pend, err);
            have = rc == 1;
            continue;
        }
        double s = q.v[q.head].submit;
        if (c->workload.submit_max > 0 && s + D > c->workload.submit_max)
            break;                  /* this window and every later one leave the range */
        while (rc >= 0 && have && pend.submit <= s + D) {
            fifo_push(&q, pend);
            rc = next_job(r, c, &last, &pend, err);
            have = rc == 1;
        }
        if (rc < 0)
            break;
        if (q.sum > best.work) {
            best.work = q.sum;
            best.submit = s;
        }
        fifo_pop(&q);
    }
    free(q.v);
    swf_close(r);
    if (rc < 0)
        return 2;
    if (best.work < 0) {
        snprintf(err, CFG_ERR_MAX, "%.200s: workload.busiest = %g s: no window of that length with a "
                 "job (procs >= 1, runtime > 0) inside the submit range", c->workload.trace, D);
        return 2;
    }
    /* A window of only zero-work records has no start here: starts are
     * records with work, the earliest of equal loads kept (strict >). */
    *load = best.work / ((double)c->computer.number * D);
    c->workload.submit_min = best.submit;
    c->workload.submit_max = best.submit + D;
    char why[CFG_ORIGIN_MAX];
    snprintf(why, sizeof why, "workload.busiest = %g s: the busiest window [%.0f, %.0f] s, "
             "offered load %.4f", D, best.submit, best.submit + D, *load);
    config_set_origin(c, "workload.submit_min", why);
    config_set_origin(c, "workload.submit_max", why);
    return 0;
}
