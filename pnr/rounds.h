/* pnr/rounds.h: allocation and deallocation rounds and per-job state
 * (rounds.c), shared by the client and the manager; below both.
 */
#ifndef PNRSIM_PNR_ROUNDS_H
#define PNRSIM_PNR_ROUNDS_H

#include "pnr/internal.h"

/* A new allocation (dealloc false) or deallocation round at `manager`,
 * expecting `expected` requests or notices; js: its job's state or NULL.
 * Tracked; counted in p->st. */
round_t *pnr_round_new(pnr_t *p, bool dealloc, jstate_t *js, int manager, int expected);
/* Untrack and free a finished round; its `asked` array goes back to p's
 * spares (so steady state allocates none: issue 15 review). */
void pnr_round_free(pnr_t *p, round_t *r);
/* Job j's PNR state, created (and tracked) at its first thread's start. */
jstate_t *pnr_jstate_of(pnr_t *p, job_t *j);
/* Untrack and free a job's state (its remaining client records too). */
void pnr_jstate_free(jstate_t *js);

#endif
