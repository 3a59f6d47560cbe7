/* pnr/check.h: the PNR conservation checker (check.c), private to pnr/ and
 * its tests, low in pnr/ (above objects.c only: it reads the protocol's
 * data and calls nothing of pnr/). pnr_check.h's pnr_set_checking turns it
 * on; the agents call pnr_check after every allocation and deallocation
 * step, and pnr_check_fail where they would break a rule; table.c keeps the
 * plain copy of the tables (the shadow) the checker allocates.
 *
 * What it checks (each a number worked out independently of the counters):
 *   - in total, MB lent by servers == held by clients + in transit +
 *     pending at managers, and none of these is negative;
 *   - per server, what it has lent == the pieces naming it in clients'
 *     lists (threads', nodes', a REPLACE request's after a reclaim), in
 *     allocation rounds (granted, not shared out yet; a GRANT in flight)
 *     and in deallocation rounds (in a DEALLOC, gathered, in a FREE);
 *   - per node, the network RAM its faults draw from (pe->remote_mb) ==
 *     what it holds (its pieces; under release ALL its threads' grants),
 *     so a reclaim loses and double-counts nothing;
 *   - no grant leaves a server below server_threshold; no client gets more
 *     than it asked (pnr_check_fail from the code that would break them);
 *   - every availability table reads exactly as a plain N x N copy kept
 *     beside it (the shadow: N^2 memory, for tests on small machines).
 * The first violation is kept (pnr_check_failure); later ones are ignored.
 */
#ifndef PNRSIM_PNR_CHECK_H
#define PNRSIM_PNR_CHECK_H

#include "pnr/internal.h"
#include "pnr/pnr_check.h"

/* When checking: verify conservation in total and per server now. */
void pnr_check(pnr_t *p);
/* Record a violation (printf format; the time is prefixed) unless one was
 * recorded already. */
void pnr_check_fail(pnr_t *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Test hooks. Current totals: MB lent by servers, MB held by clients, MB
 * in transit or pending at managers (granted and not yet shared out, or
 * gathered for freeing). */
void pnr_totals(const pnr_t *p, double *lent, double *held, double *transit);
/* PNR messages of `kind` (PNR_MSG_*) that arrived at PE pe (0 for a PE or
 * kind out of range). */
uint64_t pnr_received(const pnr_t *p, int pe, int kind);
/* The manager PE a job's clients use for allocation (after it started). */
int pnr_job_manager(const pnr_t *p, const job_t *j);
#endif
