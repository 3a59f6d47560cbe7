/* sched/batch.h: batched paging (process.paging = BATCHED; sched/batch.c,
 * docs/BATCHING.md), a layer above the exact job model (sched/job.c): it
 * attaches itself to a cluster (batch_attach, by cluster_init), and the
 * thread loop reaches it only through cl->batching (job.h) and a PE's
 * pe_batch_end (hw/pe.h). What the layers above call besides: settling
 * the batches under way before a sample or at the end of a run, and
 * freeing their records.
 */
#ifndef PNRSIM_SCHED_BATCH_H
#define PNRSIM_SCHED_BATCH_H

#include "sched/job.h"

/* Install batched paging's entry points in cl (cl->batching) and set up
 * its lists of batch records. Whether faults are batched is decided at each
 * fault by cl->paging (which a test may change after cluster_init). */
void batch_attach(cluster_t *cl);
/* Batched paging: end every fault batch under way at the current instant,
 * so that counters, busy times and thread states are those of now (before
 * a sample, at the end of a run). No effect in exact mode. */
void batch_settle(sim_t *sim, cluster_t *cl);
/* batch_settle at the end of a run: also counts the page messages of the
 * batched remote faults still under way (the run will not end them), so
 * that page outs equal remote faults as in the exact mode. */
void batch_settle_end(sim_t *sim, cluster_t *cl);
/* Free the spare batch records (cluster_destroy). */
void batch_free_all(cluster_t *cl);

#endif
