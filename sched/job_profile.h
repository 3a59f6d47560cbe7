/* sched/job_profile.h: memory that changes over time (issue 33 item 3,
 * workload.memory_profile; docs/MODEL.md "Memory that changes over time"),
 * on numbers alone (sched/job_profile.c): the points of CPU time at which a
 * thread changes its allocation and the fraction of its peak (the job's
 * memory per thread, j->mem_mb) it holds from each. The job layer
 * (sched/job.c) starts a thread at point 0's level; sched/job_resize.c
 * applies each later point to a thread.
 */
#ifndef PNRSIM_SCHED_JOB_PROFILE_H
#define PNRSIM_SCHED_JOB_PROFILE_H

/* CONSTANT: the whole size from the start to the end (the report, §4.3.1);
 * RAMP: from `start` of the peak up to the peak in `steps` equal steps over
 * the first `ramp_share` of the CPU demand; PHASES: `low` of the peak for
 * the first 1 - peak_share of every `period` CPU seconds, the peak for the
 * rest of it. */
typedef enum { MEM_PROFILE_CONSTANT, MEM_PROFILE_RAMP, MEM_PROFILE_PHASES } mem_profile_kind;

typedef struct mem_profile {
    mem_profile_kind kind;
    double start;       /* RAMP: fraction of the peak at the start, [0, 1] */
    int steps;          /* RAMP: equal steps up to the peak, >= 1 */
    double ramp_share;  /* RAMP: share of the CPU demand they span, (0, 1] */
    double low;         /* PHASES: the low level, fraction of the peak, [0, 1] */
    double peak_share;  /* PHASES: share of each period at the peak, (0, 1] */
    double period;      /* PHASES: CPU seconds of one low + peak cycle, > 0 */
} mem_profile;

/* Point k of the profile pf for a thread of CPU demand cpu: k = 0 is the
 * start (returns 0); k >= 1 the k-th change. Returns the point's CPU time,
 * INFINITY when there is no point k or it falls after cpu (a point at
 * exactly cpu is kept, as every clock of the thread loop); *frac = the
 * fraction of the peak held from the point on (exactly 1 at the peak).
 * CONSTANT: point 0 at 1, no other. Times are products k x step, never
 * running sums, so they are exact when the numbers are. */
double job_profile_point(const mem_profile *pf, double cpu, long k, double *frac);

#endif
