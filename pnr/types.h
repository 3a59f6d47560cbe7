/* pnr/types.h: the PNR layer's public types (types only, no code): the
 * layer's handle, its message kinds and its counters. pnr/pnr.h (the
 * layer's public face) and pnr/internal.h (what the files of pnr/ share)
 * both start from here, so the files low in pnr/ need not include the top
 * file's header.
 */
#ifndef PNRSIM_PNR_TYPES_H
#define PNRSIM_PNR_TYPES_H

#include <stdint.h>

typedef struct pnr pnr_t;

/* Message kinds (pnr_msg.kind; each kind is a typed message, see
 * pnr/internal.h). */
enum {
    PNR_MSG_REQUEST = 100, /* client -> manager: need (MB) */
    PNR_MSG_ASK,           /* manager -> server: please lend (MB) */
    PNR_MSG_GRANT,         /* server -> manager: lent (MB) */
    PNR_MSG_REPLY,         /* manager -> client: your pieces */
    PNR_MSG_DEALLOC,       /* client -> manager: my pieces to free */
    PNR_MSG_FREE,          /* manager -> server: free (MB) */
    PNR_MSG_ACK,           /* server -> manager: freed */
    PNR_MSG_BROADCAST,     /* manager -> servents: availability table */
    PNR_MSG_PAGE_OUT,      /* client -> server: page request (carries a page) */
    PNR_MSG_PAGE_IN,       /* server -> client: the page */
    PNR_MSG_KINDS_END
};
#define PNR_NKINDS (PNR_MSG_KINDS_END - PNR_MSG_REQUEST)

/* One-sided RDMA operations (netram.transport = RDMA, issue 25): they
 * travel the network like messages (pnr_msg.kind holds one of these) but
 * are no messages of the protocol: no agent handles them, they carry no
 * load, and they are counted apart (pnr_stats.rdma_*), not among the
 * PNR_NKINDS kinds. */
enum {
    PNR_RDMA_READ = 200,   /* server's NIC -> client: the page faulted on */
    PNR_RDMA_WRITE,        /* client -> server's NIC: the page evicted */
    PNR_RECLAIM_MOVE,      /* netram.reclaim: a donor sends a borrower's
                            * pages back in bulk (a message or an RDMA
                            * transfer per netram.transport), counted in
                            * pnr_stats.reclaim_* */
    PNR_RDMA_READ_REQ,     /* netram.rdma_read = ROUND_TRIP: a READ's
                            * request, client -> server's NIC (control_msg
                            * bytes); its arrival sends the page back */
    PNR_STRATEGY_MSG       /* a strategy's own control message
                            * (pnr_host_send, pnr/strategy_api.h): carries
                            * its sender's load like the protocol's,
                            * counted in pnr_stats.strategy_* */
};

typedef struct pnr_stats {
    uint64_t msgs[PNR_NKINDS];
    double bytes[PNR_NKINDS];
    uint64_t requests, denied, partial, satisfied; /* client requests > 0 */
    double asked_mb, granted_mb;
    double alloc_wait;          /* s threads waited for allocation */
    uint64_t remote_faults;
    uint64_t alloc_rounds, dealloc_rounds; /* manager rounds started */
    /* rounds finished that granted / freed network RAM (the rounds after
     * which MANAGER and BACKBONE broadcast, §5.2.6) */
    uint64_t alloc_rounds_changed, dealloc_rounds_changed;
    /* netram.transport = RDMA: one-sided operations and their bytes */
    uint64_t rdma_reads, rdma_writes;
    double rdma_read_bytes, rdma_write_bytes;
    /* netram.reclaim != NONE: donors taking memory back (reclaim.c) */
    uint64_t reclaim_events;    /* a donor took memory back */
    double reclaim_mb;          /* MB taken back */
    double reclaim_pages;       /* pages sent back: MB * 2^20 / page size */
    double reclaim_replaced_mb; /* REPLACE: MB granted again to borrowers */
    /* a strategy's own messages (pnr_host_send) and their bytes */
    uint64_t strategy_msgs;
    double strategy_bytes;
} pnr_stats;

#endif
