/* pnr/check.h: the PNR conservation checker (check.c), private to pnr/ and
 * its tests. pnr_check.h's pnr_set_checking turns it on; the protocol's files
 * call pnr_check after every allocation and deallocation step, and the
 * table code reports what it heard so the checker can keep its plain copy.
 *
 * What it checks (each a number worked out independently of the counters):
 *   - in total, MB lent by servers == held by clients + in transit +
 *     pending at managers, and none of these is negative;
 *   - per server, what it has lent == the pieces naming it in clients'
 *     lists, in allocation rounds (granted, not shared out yet; a GRANT in
 *     flight) and in deallocation rounds (in a DEALLOC, gathered, in a FREE);
 *   - no grant leaves a server below server_threshold; no client gets more
 *     than it asked (pnr_check_fail from the code that would break them);
 *   - every availability table reads exactly as a plain N x N copy kept
 *     beside it (the shadow: N^2 memory, for tests on small machines).
 * The first violation is kept (pnr_check_failure); later ones are ignored.
 */
#ifndef PNRSIM_PNR_CHECK_H
#define PNRSIM_PNR_CHECK_H

#include "pnr/internal.h"

/* When checking: verify conservation in total and per server now. */
void pnr_check(pnr_t *p);
/* Record a violation (printf format; the time is prefixed) unless one was
 * recorded already. */
void pnr_check_fail(pnr_t *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* When checking: receiver heard src's load at sent_at; update the plain
 * copy the same way and compare the shared table's entry with it. */
void pnr_check_heard(pnr_t *p, int receiver, int src, double load, double sent_at);
/* When checking: PE x merged the broadcast table e (npes entries); merge
 * it into the plain copy and compare the whole table. */
void pnr_check_merged(pnr_t *p, int x, const entry_t *e);

/* Test hooks. Current totals: MB lent by servers, MB held by clients, MB
 * in transit or pending at managers (granted and not yet shared out, or
 * gathered for freeing). */
void pnr_totals(const pnr_t *p, double *lent, double *held, double *transit);
/* PNR messages of `kind` (PNR_MSG_*) that arrived at PE pe (0 for a PE or
 * kind out of range). */
uint64_t pnr_received(const pnr_t *p, int pe, int kind);
/* The manager PE a job's clients use for allocation (after it started). */
int pnr_job_manager(const pnr_t *p, const job_t *j);
/* fn(p, ctx) runs at the end of every pnr_create (NULL: none), so a test
 * can reach the PNR layer of a run built by app/run.c. Process global; not
 * for concurrent use. */
typedef void (*pnr_create_hook)(pnr_t *p, void *ctx);
void pnr_set_create_hook(pnr_create_hook fn, void *ctx);

#endif
