/* sched/orders.c: the built-in queue orders (scheduler.priority) on the
 * public interface (sched/order.h; only public headers here).
 *
 * Every order is a key, lowest first, ties by trace order. With w = wait
 * so far (now - submit), e = the job's estimate, n = its threads, s = its
 * submit time (seconds from the trace start):
 *   FCFS      0                       (trace order)
 *   BESTFIT   -n                      (most PEs first)
 *   WORSTFIT  n                       (fewest PEs first)
 *   SJF       e                       LJF  -e
 *   SAF       n*e                     LAF  -n*e
 *   WFP3      -(w/e)^3 * n            (highest (w/e)^3*n first)
 *   UNICEP    -w / (log2(n) * e)      (n = 1 counts as log2 n = 1)
 *   F1        log10(e)*n + 870*log10(s)   (s = 0 counts as 1)
 * Where e divides or is a logarithm's argument (WFP3, UNICEP, F1) an
 * estimate below 1 s counts as 1 s (a zero estimate would divide by zero).
 * WFP3 and UNICEP depend on the time (SCHED_ORDER_TIME_DEPENDENT). FCFS,
 * BESTFIT and WORSTFIT are PNRSim's orders, served by the scheduler's
 * width buckets (their keys agree with the buckets: BESTFIT's -n is the
 * width's when node_sharing is SHARED, the only case PNRSim has).
 */
#include "sched/components.h"
#include "sched/order.h"
#include "sched/multifactor.h"

#include <math.h>

static double e1_of(const sched_job_info *j) { return j->estimate < 1 ? 1 : j->estimate; }

static double k_fcfs(void *s, const sched_job_info *j, double now)
{
    (void)s, (void)j, (void)now;
    return 0;
}
static double k_bestfit(void *s, const sched_job_info *j, double now)
{
    (void)s, (void)now;
    return -(double)j->threads;
}
static double k_worstfit(void *s, const sched_job_info *j, double now)
{
    (void)s, (void)now;
    return (double)j->threads;
}
static double k_sjf(void *s, const sched_job_info *j, double now)
{
    (void)s, (void)now;
    return j->estimate;
}
static double k_ljf(void *s, const sched_job_info *j, double now)
{
    (void)s, (void)now;
    return -j->estimate;
}
static double k_saf(void *s, const sched_job_info *j, double now)
{
    (void)s, (void)now;
    return (double)j->threads * j->estimate;
}
static double k_laf(void *s, const sched_job_info *j, double now)
{
    (void)s, (void)now;
    return -(double)j->threads * j->estimate;
}
static double k_wfp3(void *s, const sched_job_info *j, double now)
{
    (void)s;
    double r = (now - j->submit) / e1_of(j);
    return -(r * r * r) * (double)j->threads;
}
static double k_unicep(void *s, const sched_job_info *j, double now)
{
    (void)s;
    double l = j->threads == 1 ? 1 : log2((double)j->threads);
    return -(now - j->submit) / (l * e1_of(j));
}
static double k_f1(void *s, const sched_job_info *j, double now)
{
    (void)s, (void)now;
    double sub = j->submit > 0 ? j->submit : 1;
    return log10(e1_of(j)) * (double)j->threads + 870 * log10(sub);
}

#define ORDER(k, fl, b) {.key = (k), .flags = (fl), .bucket = (b)}
static const struct {
    const char *name, *desc;
    sched_order_ops ops;
} orders[] = {
    {"FCFS", "first come, first served (trace order)",
     ORDER(k_fcfs, 0, SCHED_BUCKET_ARRIVAL)},
    {"BESTFIT", "most PEs first", ORDER(k_bestfit, 0, SCHED_BUCKET_WIDEST)},
    {"WORSTFIT", "fewest PEs first", ORDER(k_worstfit, 0, SCHED_BUCKET_NARROWEST)},
    {"SJF", "shortest estimate first", ORDER(k_sjf, 0, SCHED_BUCKET_NONE)},
    {"LJF", "longest estimate first", ORDER(k_ljf, 0, SCHED_BUCKET_NONE)},
    {"SAF", "smallest area (threads x estimate) first", ORDER(k_saf, 0, SCHED_BUCKET_NONE)},
    {"LAF", "largest area first", ORDER(k_laf, 0, SCHED_BUCKET_NONE)},
    {"WFP3", "highest (wait/estimate)^3 x threads first",
     ORDER(k_wfp3, SCHED_ORDER_TIME_DEPENDENT, SCHED_BUCKET_NONE)},
    {"UNICEP", "highest wait / (log2 threads x estimate) first",
     ORDER(k_unicep, SCHED_ORDER_TIME_DEPENDENT, SCHED_BUCKET_NONE)},
    {"F1", "lowest log10(estimate) x threads + 870 log10(submit) first",
     ORDER(k_f1, 0, SCHED_BUCKET_NONE)},
};

int sched_orders_register(pnrsim_registry *r)
{
    for (size_t i = 0; i < sizeof orders / sizeof orders[0]; i++) {
        int rc = pnrsim_register(r, PNRSIM_KIND_PRIORITY, orders[i].name, orders[i].desc,
                                 &orders[i].ops);
        if (rc)
            return rc;
    }
    return sched_multifactor_register(r); /* sched/multifactor.c, last */
}
