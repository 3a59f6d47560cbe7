/* pnr/manager.h: the manager agent (manager.c; techreport §5.2):
 * allocation and deallocation rounds. */
#ifndef PNRSIM_PNR_MANAGER_H
#define PNRSIM_PNR_MANAGER_H

#include "pnr/internal.h"

/* Fill the frame's handlers of the kinds a manager receives (REQUEST,
 * GRANT, DEALLOC, ACK), at creation. */
void pnr_manager_init(pnr_t *p);

#endif
