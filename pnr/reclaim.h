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
/* The manager of a request or notice node b makes with no job behind it
 * (a REPLACE, a thread's growth or shrink): CENTRAL PE 0, CLIENT and
 * MANAGER the node itself, BACKBONE a backbone manager drawn as a job's
 * clients draw one (no draw with one manager). */
int pnr_node_manager(pnr_t *p, int b);
/* Node b asks for mb MB in an allocation round of its own at
 * pnr_node_manager's choice; nothing waits for the REPLY (client.c: the
 * grant joins the node's pieces, the excess goes back). grow: asked for a
 * thread's growth (a memory profile), not to replace a reclaim. */
void pnr_reask(pnr_t *p, int b, double mb, bool grow);
/* Free a REPLACE request once its REPLY has been handled. */
void pnr_reask_free(reask_t *ra);

#endif
