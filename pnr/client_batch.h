/* pnr/client_batch.h: the client's part in batched paging
 * (client_batch.c; process.paging = BATCHED, docs/BATCHING.md). */
#ifndef PNRSIM_PNR_CLIENT_BATCH_H
#define PNRSIM_PNR_CLIENT_BATCH_H

#include "pnr/internal.h"

/* Empty the cache of remote services (at creation). */
void pnr_client_batch_init(pnr_t *p);
/* Batched paging (sched/batch.c): the job_hooks fault_plan and
 * fault_count (sched/job.h), installed by pnr_create. */
int pnr_fault_plan(thread_t *th, void *ctx, double *svc);
void pnr_fault_count(thread_t *th, int server, uint64_t n, double last_at, void *ctx);

/* The exact client's one call into the batched mode: the network RAM of
 * PE pe's node is about to change (a thread ended, a REPLY arrived), so a
 * fault batch under way on pe, which drew its servers from the old pieces,
 * ends now (sched/batch.c; nothing when no batch is under way). */
static inline void pnr_batch_pieces_changed(sim_t *sim, pe_t *pe)
{
    pe_batch_end(sim, pe);
}

#endif
