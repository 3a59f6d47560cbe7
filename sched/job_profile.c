/* sched/job_profile.c: the points of a memory profile (job_profile.h).
 * Below the job layer: it knows no job or thread, only numbers.
 *
 * RAMP with s = start, n = steps, W = ramp_share x cpu: point k (1..n) at
 * CPU time k W / n, level s + (1 - s) k / n (the last exactly 1).
 * PHASES with T = period, q = peak_share, l = low: the thread starts at l;
 * change 2m + 1 (m = 0, 1, ...) goes up to the peak at (m + 1 - q) T,
 * change 2m + 2 back down to l at (m + 1) T. With q = 1 or l = 1 the
 * thread is always at one level (the peak, or l = 1: the peak): no change.
 */
#include "sched/job_profile.h"

#include <math.h>
#include <stdbool.h>

double job_profile_point(const mem_profile *pf, double cpu, long k, double *frac)
{
    double t = INFINITY;
    switch (pf->kind) {
    case MEM_PROFILE_CONSTANT:
        *frac = 1;
        return k == 0 ? 0 : INFINITY;
    case MEM_PROFILE_RAMP:
        if (k == 0) {
            *frac = pf->start;
            return 0;
        }
        if (k > pf->steps)
            return INFINITY;
        *frac = k == pf->steps ? 1 : pf->start + (1 - pf->start) * (double)k / pf->steps;
        t = (double)k * (pf->ramp_share * cpu) / pf->steps;
        break;
    case MEM_PROFILE_PHASES:
        if (pf->peak_share >= 1 || pf->low >= 1) {
            *frac = 1;
            return k == 0 ? 0 : INFINITY;
        }
        if (k == 0) {
            *frac = pf->low;
            return 0;
        }
        {
            long m = (k - 1) / 2;
            bool up = (k - 1) % 2 == 0;
            *frac = up ? 1 : pf->low;
            t = up ? ((double)m + (1 - pf->peak_share)) * pf->period : (double)(m + 1) * pf->period;
        }
        break;
    }
    return t <= cpu ? t : INFINITY;
}
