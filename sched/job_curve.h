/* sched/job_curve.h: fault model CURVE (process.fault_model = CURVE, issue
 * 33; docs/MODEL.md "Fault model CURVE"): a program's measured LRU miss
 * curve as plain data, and the fault rate it gives a thread. On numbers
 * alone, below the job layer: app/curve.c reads the files and fills the
 * struct, each job points to its curve (job_t.curve, NULL under REPORT),
 * and thread_fault_redraw (sched/job_clock.c) asks job_curve_next for the next fault.
 */
#ifndef PNRSIM_SCHED_JOB_CURVE_H
#define PNRSIM_SCHED_JOB_CURVE_H

#include "core/rng.h"

/* A measured curve (docs/MODEL.md "Measured fault curves"): rows of
 * (pages, misses) with pages[0] = 0 < pages[1] < ... < pages[n-1] = F
 * (footprint) and misses non-increasing to misses[n-1] = 0: the misses of
 * an LRU memory of that many pages over the program's run (cold misses
 * excluded), which took cpu_seconds of CPU time. Read once at the start
 * (app/curve.c), never changed during the run. */
typedef struct fault_curve {
    long page_size;           /* bytes per page of the measurement */
    double footprint;         /* F, pages */
    double accesses;          /* N, memory accesses measured */
    double cpu_seconds;       /* X > 0, CPU seconds of the measured run */
    long n;                   /* rows, >= 2 */
    double *pages, *misses;   /* n each */
} fault_curve;

/* misses(x) for x pages of memory: linear between the rows around x (a
 * binary search), x clamped to [0, F]. */
double job_curve_misses(const fault_curve *c, double x);
/* Faults per CPU second at local fraction f in [0, 1] (clamped):
 * misses(f F) / cpu_seconds. */
double job_curve_rate(const fault_curve *c, double f);
/* The CPU time (cpu_done + the gap) of the next fault of a thread of
 * size_bytes whose overallocated part is L bytes (as the report model
 * computes it), with page size page_bytes: INFINITY when c is NULL (no
 * curve), when L < page_bytes (less than a page out of RAM, as under
 * REPORT) or when the rate at f = 1 - L / size_bytes is 0; otherwise
 * cpu_done + Exp(mean cpu_seconds / misses(f F)), one draw from stream `pe` of the fault
 * streams s. */
double job_curve_next(const fault_curve *c, rng_set *s, int pe, double cpu_done, double L,
                      double size_bytes, double page_bytes);

#endif
