/* pnr/broadcast.h: broadcasts (broadcast.c; techreport §5.2.6): after a
 * round that changed network RAM, a manager sends its table to the other
 * servents (MANAGER) or managers (BACKBONE). Above the frame and table.c;
 * the manager (manager.c) calls it.
 */
#ifndef PNRSIM_PNR_BROADCAST_H
#define PNRSIM_PNR_BROADCAST_H

#include "pnr/internal.h"

/* Fill the frame's handler of BROADCAST (at creation). */
void pnr_broadcast_init(pnr_t *p);
/* MANAGER and BACKBONE, after a round that changed network RAM: send the
 * manager's table to the other servents or managers (§5.2.6). */
void pnr_broadcast(pnr_t *p, int manager, bool changed);

#endif
