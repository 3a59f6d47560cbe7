/* sched/job_curve.c: fault model CURVE's rate (see job_curve.h; docs/MODEL.md
 * "Fault model CURVE (issue 33)").
 *
 * Under CURVE a thread's faults are a Poisson process in its CPU time with
 * rate lambda(f) = misses(f F) / cpu_seconds, f = 1 - L / size its local
 * fraction: the steady-state rate at which the measured program, given
 * f F pages of LRU memory, missed. No D, U or reset: the curve already
 * averages over the program's phases. The thread's L is the report
 * model's (thread_fault_redraw), and the draw is taken where the report model
 * takes its draw, from the same per-PE stream, so every redraw point is
 * the report's: exponential gaps are memoryless, so redrawing at a change
 * of L does not bias the process.
 */
#include "sched/job_curve.h"

#include <math.h>

double job_curve_misses(const fault_curve *c, double x)
{
    if (!(x > 0))
        return c->misses[0];
    if (x >= c->footprint)
        return c->misses[c->n - 1];
    /* The row i with pages[i] <= x < pages[i + 1]. */
    long lo = 0, hi = c->n - 1;
    while (hi - lo > 1) {
        long mid = lo + (hi - lo) / 2;
        if (c->pages[mid] <= x)
            lo = mid;
        else
            hi = mid;
    }
    double p0 = c->pages[lo], p1 = c->pages[hi];
    double m0 = c->misses[lo], m1 = c->misses[hi];
    return m0 + (m1 - m0) * ((x - p0) / (p1 - p0));
}

double job_curve_rate(const fault_curve *c, double f)
{
    if (f < 0)
        f = 0;
    if (f > 1)
        f = 1;
    return job_curve_misses(c, f * c->footprint) / c->cpu_seconds;
}

double job_curve_next(const fault_curve *c, rng_set *s, int pe, double cpu_done, double L,
                      double size_bytes, double page_bytes)
{
    if (!c || L < page_bytes)
        return INFINITY;
    double f = 1 - L / size_bytes; /* L <= size, so f in [0, 1] */
    double m = job_curve_misses(c, f * c->footprint);
    if (!(m > 0))
        return INFINITY;
    /* The mean gap 1 / rate, as cpu_seconds / misses (one rounding). */
    return cpu_done + rng_exp(rng_set_get(s, (size_t)pe), c->cpu_seconds / m);
}
