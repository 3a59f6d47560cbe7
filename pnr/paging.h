/* pnr/paging.h: where a fault goes (paging.c; techreport §5.4). */
#ifndef PNRSIM_PNR_PAGING_H
#define PNRSIM_PNR_PAGING_H

#include "pnr/internal.h"

/* Paging to network RAM (§5.4, §5.1.1): the node uses the network RAM its
 * clients hold as additional virtual memory, as it would the disk. At a
 * fault of any thread on PE pe, u ~ U(0,1) below (network RAM held by the
 * PE's threads) / (PE overallocation) sends it to the network; the server
 * is drawn in proportion to what each holds for this PE (from pe's fault
 * stream; or the strategy's fault_server's answer, when it has one and
 * gives a server, without that second draw). Returns that server, or -1
 * for the disk. The draws are the same
 * whether the fault is then sent (pnr_fault) or planned in a batch
 * (pnr_fault_plan). */
int pnr_fault_server(pnr_t *p, pe_t *pe);

#endif
