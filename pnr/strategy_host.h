/* pnr/strategy_host.h: the host side of the strategy interface
 * (strategy_host.c): the opaque handles of pnr/strategy_api.h made from
 * the layer's internals. */
#ifndef PNRSIM_PNR_STRATEGY_HOST_H
#define PNRSIM_PNR_STRATEGY_HOST_H

#include "pnr/internal.h"

/* A manager's view while it chooses a server for round r. */
struct pnr_view {
    pnr_t *p;
    round_t *r;
    double remaining;   /* MB the round still needs */
};

pnr_host *pnr_host_of(pnr_t *p);
const pnr_job *pnr_job_of(const job_t *j);
/* Whether s may be asked in this pass at all (not asked yet, in the
 * pass's racks), whatever its free RAM. */
bool pnr_view_open(const pnr_view *v, int s);
/* The strategy broke its contract (pnr/strategy_api.h): print "pnrsim:
 * netram.strategy NAME: " and the message on stderr, and exit 2. */
void pnr_strategy_broken(const pnr_t *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), noreturn));
/* pnr_host_release and pnr_host_reclaim (`what`) may not run inside
 * fault_server, select_server or server_grant: stop the run if they do. */
void pnr_strategy_may_act(const pnr_t *p, const char *what);

#endif
