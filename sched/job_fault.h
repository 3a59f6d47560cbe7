/* sched/job_fault.h: the page-fault model's formulas (techreport §4.1.5;
 * sched/job_fault.c), on numbers alone: the job layer (sched/job.c) and
 * batched paging (sched/batch.c) apply them to threads.
 */
#ifndef PNRSIM_SCHED_JOB_FAULT_H
#define PNRSIM_SCHED_JOB_FAULT_H

#include "core/rng.h"

/* The page-fault reset (§4.1.5): the amount of the thread's overallocated
 * data not in RAM after all of it was paged in, drawn from a triangular
 * distribution on [P, C] with mode P, where C = max(P, min(L, |RAM - size|)),
 * P = page_bytes. See docs/MODEL.md for why this reading. */
double job_fault_reset(rng_t *r, double L, double ram_bytes, double size_bytes,
                       double page_bytes);
/* A thread's share of its node's overallocation `over` (bytes) when the
 * threads of its row on the node total S bytes (its own size included):
 * over x size / S, or `over` itself when S <= size (alone in its row, as
 * on a one-core node: not a product and quotient, so bit for bit the
 * report's). Issue 25, docs/MODEL.md "Nodes of several cores". */
double job_fault_share(double over, double size_bytes, double S);

#endif
