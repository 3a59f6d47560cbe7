/* pnr/server.h: the server agent (server.c; techreport §5.3): lends and
 * frees RAM, answers page requests. */
#ifndef PNRSIM_PNR_SERVER_H
#define PNRSIM_PNR_SERVER_H

#include "pnr/internal.h"

/* Fill the frame's handlers of the kinds a server receives (ASK, FREE,
 * PAGE_OUT), at creation. */
void pnr_server_init(pnr_t *p);

#endif
