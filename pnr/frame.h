/* pnr/frame.h: the frame of the PNR layer (frame.c): every PNR message is
 * built and posted through it, and arrives through it, to the handler its
 * kind has in p->handlers (pnr/internal.h), a table the agents fill when
 * they are created. The frame names no agent: it sits below all of them
 * (above objects.c, check.c and table.c).
 */
#ifndef PNRSIM_PNR_FRAME_H
#define PNRSIM_PNR_FRAME_H

#include "pnr/internal.h"

/* Open the frame of p: its message pool (slots of pnr_msg_u) on p->cl's
 * network, owned by p. The handlers are the agents' to fill. */
void pnr_frame_init(pnr_t *p);
/* A new PNR message of `kind` (a zeroed slot big enough for any kind,
 * returned as its header) from src to dst, of `bytes`; the caller fills in
 * its typed part and sends it with pnr_post. */
pnr_msg *pnr_msg_new(pnr_t *p, int kind, int src, int dst, double bytes);
/* The same, as the typed struct `type` (pnr_ask_msg, ...). */
#define PNR_MSG_NEW(type, p, kind, src, dst, bytes)                            \
    container_of(pnr_msg_new((p), (kind), (src), (dst), (bytes)), type, h)
/* Send h now, piggybacking src's free RAM, and count it. */
void pnr_post(pnr_t *p, pnr_msg *h);
/* netram.transport = RDMA: post the one-sided operation `op`
 * (PNR_RDMA_READ or PNR_RDMA_WRITE) moving one page from src to dst for
 * thread th (READ: the faulting thread; WRITE: NULL) now. It crosses the
 * route like a message but holds links for bytes / bandwidth only
 * (net_msg_time); it carries no load and is counted in p->st.rdma_*, not
 * among the message kinds. On arrival a READ goes to
 * p->handlers.on_rdma_read (the client, which adds the operation's
 * latency); a WRITE lands in the server's memory with nothing to run.
 * With p->rdma_read = ROUND_TRIP a READ is first its request, dst -> src,
 * of control_bytes (PNR_RDMA_READ_REQ), and the page leaves src when the
 * request arrives; the counts (rdma_reads, rdma_read_bytes: the page) are
 * the operation's, taken at the post. */
void pnr_rdma_post(pnr_t *p, int op, int src, int dst, thread_t *th);
/* netram.reclaim: post a borrower's pages going back from donor src to
 * borrower dst, `bytes` in one transfer (PNR_RECLAIM_MOVE): a message
 * under transport MESSAGES (links held latency + bytes / bandwidth), an
 * RDMA transfer under RDMA (bytes / bandwidth). It loads the route; nobody
 * waits for it, no agent handles it and it carries no load. */
void pnr_bulk_post(pnr_t *p, int src, int dst, double bytes);

#endif
