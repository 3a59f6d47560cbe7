/* pnr/pnr_check.h: the PNR layer's public test hook, fenced off from
 * pnr/pnr.h: turn the conservation checker on and read its verdict.
 * For tests/ and app/run_check.h's checking mode only. */
#ifndef PNRSIM_PNR_PNR_CHECK_H
#define PNRSIM_PNR_PNR_CHECK_H

#include "pnr/types.h"

#include <stdbool.h>

/* Check after every allocation and deallocation step that
 * network RAM is conserved, that no grant leaves a server below
 * server_threshold, that no client gets more than it asked, and that
 * every availability table reads as a plain N x N copy kept beside it
 * (N^2 memory: call before the run starts, for tests only); the checker
 * itself is pnr/check.c, behind the private pnr/check.h.
 * pnr_check_failure: NULL or the first violation. */
void pnr_set_checking(pnr_t *p, bool on);
const char *pnr_check_failure(const pnr_t *p);
/* fn(p, ctx) runs at the end of every pnr_create (NULL: none), so a test
 * can reach the PNR layer of a run built by app/run.c. Process global; not
 * for concurrent use. (In pnr/pnr.c, with pnr_create.) */
typedef void (*pnr_create_hook)(pnr_t *p, void *ctx);
void pnr_set_create_hook(pnr_create_hook fn, void *ctx);

#endif
