/* pnr/objects.h: the bottom of pnr/ (objects.c): the tracking of protocol
 * objects (rounds, job states, snapshots: every one is on p->objs from
 * creation to its end) and piece lists. Calls nothing else of pnr/.
 */
#ifndef PNRSIM_PNR_OBJECTS_H
#define PNRSIM_PNR_OBJECTS_H

#include "pnr/internal.h"

/* Put o on p->objs (kind and destructor given); pnr_untrack takes it off.
 * The destructor frees the object without untracking it. */
void pnr_track(pnr_t *p, pobj *o, pobj_kind kind, void (*destroy)(pobj *));
void pnr_untrack(pobj *o);
/* Add mb held on server to a piece list (merging per server). */
void pnr_add_piece(pieces_t *ps, int server, double mb);

#endif
