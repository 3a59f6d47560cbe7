/* sched/job_resize.h: a thread's memory following its profile (issue 33
 * item 3; sched/job_resize.c), attached to a cluster by cluster_init. */
#ifndef PNRSIM_SCHED_JOB_RESIZE_H
#define PNRSIM_SCHED_JOB_RESIZE_H

#include "sched/job.h"

/* Install cl->resize when cl->profile is not CONSTANT (else leave it NULL:
 * the job layer then runs exactly as before profiles existed). */
void job_resize_attach(cluster_t *cl);

#endif
