/* pnr/select.h: the manager's two policies (select.c; techreport §5.2.2,
 * §5.2.3). Above table.c (it reads the manager's table), below the agents.
 */
#ifndef PNRSIM_PNR_SELECT_H
#define PNRSIM_PNR_SELECT_H

#include "pnr/internal.h"

/* The fair share of §5.2.3 (water-filling): given n asks and a total
 * granted <= sum of asks, share[i] = min(ask[i], level) with the level
 * chosen so the shares add up to granted (asks of EPS_MB or less get 0). */
void pnr_fair_share(const double *asks, int n, double granted, double *share);
/* The next server to ask in round r for `remaining` MB (§5.2.2, by
 * p->selection), or -1 when no server is left that may be asked. */
int pnr_select_server(pnr_t *p, round_t *r, double remaining);

#endif
