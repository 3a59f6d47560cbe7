/* pnr/strategy.h: the parameters of the PNR layer, shared by pnr/ and the
 * configuration. The strategy (techreport §5.5) is a registry component
 * (pnr/strategy_api.h; the report's four are in pnr/strategies.c). */
#ifndef PNRSIM_PNR_STRATEGY_H
#define PNRSIM_PNR_STRATEGY_H

#include "core/registry.h"

#include <stdbool.h>

/* What a node gives back when one of its threads ends (§5.1.3): EXCESS =
 * only what exceeds its remaining overallocation (the report); ALL = the
 * ending thread's whole grant. */
typedef enum { PNR_RELEASE_EXCESS, PNR_RELEASE_ALL } pnr_release;

/* How a manager picks the next server to ask (§5.2.2; see select.c's
 * pnr_select_server). */
typedef enum {
    PNR_SELECT_RANDOM_WORSTFIT, PNR_SELECT_WORSTFIT, PNR_SELECT_BESTFIT, PNR_SELECT_RANDOM
} pnr_selection;

/* Where a manager looks for servers first (issue 15): anywhere (NONE), or
 * in the racks of the round's clients before the others (RACK; needs a
 * TREE network). */
typedef enum { PNR_LOCALITY_NONE, PNR_LOCALITY_RACK } pnr_locality;

/* How pages move to and from network RAM (issue 25): MESSAGES = PAGE_OUT
 * and PAGE_IN messages the server's agent handles (the report, §5.4);
 * RDMA = one-sided RDMA READ and WRITE between the NICs, no agent on the
 * server (docs/MODEL.md "One-sided far memory"). */
typedef enum { PNR_TRANSPORT_MESSAGES, PNR_TRANSPORT_RDMA } pnr_transport;
/* How an RDMA READ crosses the network (netram.rdma_read, issue 33):
 * ONE_WAY = the page alone, server -> client (issue 25: the request is
 * part of rdma_latency); ROUND_TRIP = a control-sized request client ->
 * server, then the page back. */
typedef enum { PNR_RDMA_READ_ONE_WAY, PNR_RDMA_READ_ROUND_TRIP } pnr_rdma_read_mode;

/* What a node lending network RAM does when its own threads need the RAM
 * (issue 25; docs/MODEL.md "Donors take memory back"): NONE = never takes
 * it back (PNRSim); SWAP = takes it back, the borrowers' pages go to their
 * swap devices; REPLACE = takes it back, the borrowers ask again through
 * the strategy's protocol (on swap until granted). */
typedef enum { PNR_RECLAIM_NONE, PNR_RECLAIM_SWAP, PNR_RECLAIM_REPLACE } pnr_reclaim;

typedef struct pnr_params {
    const pnrsim_component *strategy; /* of kind PNRSIM_KIND_STRATEGY: its ops
                                       * are a pnr_strategy_ops */
    bool global_knowledge;     /* managers see true free memory */
    int managers;              /* BACKBONE: number of managers */
    double server_threshold;   /* MB of free RAM a server keeps */
    double control_bytes;      /* size of a PNR control message */
    pnr_release release;
    pnr_selection selection;
    double access_latency;     /* s added to every remote page access (issue 15) */
    double message_cpu;        /* MESSAGES: s of CPU per page message at each end (issue 33) */
    double server_cpu;         /* MESSAGES: s of the server's CPU per page request (issue 33) */
    pnr_locality locality;     /* servers in the clients' racks first */
    pnr_transport transport;   /* pages by messages or one-sided RDMA */
    double rdma_latency;       /* s, RDMA: NIC-to-NIC latency per operation */
    pnr_rdma_read_mode rdma_read; /* RDMA: a READ one way or a round trip */
    pnr_reclaim reclaim;       /* donors take memory back */
    pnrsim_ctx ctx;            /* what the strategy is created with (core/registry.h) */
} pnr_params;

#endif
