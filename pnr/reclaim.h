/* pnr/reclaim.h: donors taking their memory back (reclaim.c; netram.reclaim,
 * issue 25), private to pnr/. */
#ifndef PNRSIM_PNR_RECLAIM_H
#define PNRSIM_PNR_RECLAIM_H

#include "pnr/internal.h"

/* A thread has just allocated its memory on s (its start): when reclaim is
 * on, s has lent network RAM and is now overallocated, take back
 * min(overallocation, what borrowers hold at s) from the borrowers (most
 * held first, ties to the lowest PE), send their pages back, and under
 * REPLACE have them ask again. Nothing otherwise. */
void pnr_take_back(pnr_t *p, pe_t *s);
/* Free a REPLACE request once its REPLY has been handled. */
void pnr_reask_free(reask_t *ra);

#endif
