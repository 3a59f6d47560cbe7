/* pnr/client.h: the client agent (client.c; techreport §5.1, §5.4): the
 * hooks pnr_create installs in the cluster. */
#ifndef PNRSIM_PNR_CLIENT_H
#define PNRSIM_PNR_CLIENT_H

#include "pnr/internal.h"

/* Fill the frame's handlers of the kinds a client receives (REPLY,
 * PAGE_IN), at creation. */
void pnr_client_init(pnr_t *p);
/* The job_hooks thread_starting, thread_ended and fault (sched/job.h),
 * installed by pnr_create. */
bool pnr_thread_starting(sim_t *sim, thread_t *th, void *ctx);
void pnr_thread_ended(sim_t *sim, thread_t *th, void *ctx);
bool pnr_fault(sim_t *sim, thread_t *th, void *ctx);
/* The job_hooks mem_resized (a thread's memory profile changed its
 * allocation by mb MB, already on its PE): growing, the node takes back
 * what it lends if it must (reclaim) and asks for its uncovered
 * overallocation, nobody waiting; shrinking, it gives back what exceeds its
 * overallocation in a DEALLOC. Release EXCESS only. */
void pnr_thread_resized(sim_t *sim, thread_t *th, double mb, void *ctx);

#endif
