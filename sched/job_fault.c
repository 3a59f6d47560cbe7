/* sched/job_fault.c: the page-fault model's formulas (see job_fault.h):
 * the reset draw and the per-node share of the overallocation. Below the
 * job layer: it knows no job or thread, only numbers and a stream.
 */
#include "sched/job_fault.h"

#include <math.h>

double job_fault_reset(rng_t *r, double L, double ram_bytes, double size_bytes,
                       double page_bytes)
{
    const double P = page_bytes;
    double c = fabs(ram_bytes - size_bytes);
    if (c > L)
        c = L;
    if (c < P)
        c = P;
    return rng_triangular(r, P, P, c);
}

double job_fault_share(double over, double size_bytes, double S)
{
    if (!(S > size_bytes))
        return over;
    return over * size_bytes / S;
}
