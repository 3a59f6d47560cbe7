/* pnr/pnr.h: parallel network RAM (techreport §5): on every PE a servent
 * made of a client, a manager and a server, coordinating through messages
 * on the simulated network.
 *
 * Client (§5.1)  At thread start every client of a job sends its manager a
 *                request (0 MB when nothing is to be asked: coordinated
 *                managers must count every thread); a thread that asked
 *                for more than 0 waits for the answer. Release EXCESS (the
 *                report, §5.1.3): network RAM is the node's; the request
 *                asks for the node's overallocation not yet covered by its
 *                network RAM or requests in progress; at thread end the
 *                node frees only what exceeds its remaining
 *                overallocation, most loaded servers first, and the notice
 *                lists that (maybe nothing). Release ALL: the thread asks
 *                its own L and its whole grant is freed at its end.
 * Manager (§5.2) Keeps an availability table (free RAM per server as last
 *                heard, with the time it was heard), updated from the load
 *                piggybacked on every message it receives; its own PE's
 *                free RAM it reads directly (same servent). Per job it
 *                collects requests (all threads, except under CLIENT),
 *                then asks servers in randomized worst-fit order until the
 *                total is granted or no server is left whose entry shows
 *                more than the threshold, shares the grant fairly
 *                (water-filling), and tells each client its pieces.
 *                Deallocation: once every client of the job has sent its
 *                notice, tells each server what to free; servers
 *                acknowledge.
 * Server (§5.3)  Grants up to its free RAM above server_threshold (maybe
 *                less than asked, maybe nothing); lent memory counts
 *                against its own RAM; frees on request and acknowledges.
 * Paging (§5.4)  Per node: at each fault of a thread on a PE, a uniform
 *                draw against (network RAM held by the node) / (the
 *                PE's overallocation) chooses network or disk; a network
 *                fault is a round trip to a server holding the PE's pages
 *                (page out, page in).
 *
 * Strategies (§5.5): CENTRAL (one manager, PE 0, no broadcasts), CLIENT
 * (each client's local manager acts for it alone at once, no sharing),
 * MANAGER (per job start and per job end a random PE of the job is the
 * manager; it broadcasts its table to all N-1 other servents after each
 * round that allocated or freed network RAM, §5.2.6; rounds of 0 MB do not
 * broadcast), BACKBONE (`managers` well-known managers on PEs
 * floor(k*N/M); a job's clients use one chosen at random; broadcasts, after
 * the same rounds, go to the M-1 other managers only).
 */
#ifndef PNRSIM_PNR_PNR_H
#define PNRSIM_PNR_PNR_H

#include "pnr/strategy.h"
#include "pnr/types.h"
#include "sched/job.h"

/* Create the PNR layer for cluster cl with parameters c, master seed
 * seed, and install its hooks (thread start, thread end, fault) in cl. */
pnr_t *pnr_create(sim_t *sim, cluster_t *cl, const pnr_params *c, uint64_t seed);
/* Free the PNR layer and remove its hooks from the cluster (before
 * cluster_destroy; NULL: nothing). */
void pnr_destroy(sim_t *sim, pnr_t *p);
/* The layer's counters. */
const pnr_stats *pnr_get_stats(const pnr_t *p);
/* The name of a message kind (PNR_MSG_*; "?" for none). */
const char *pnr_kind_name(int kind);

#endif
