/* pnr/table.h: the availability tables (table.c; techreport §5.2,
 * §5.2.6): per servent, per server, the free MB last heard of and when.
 * Below the frame: it calls only objects.c and check.c.
 */
#ifndef PNRSIM_PNR_TABLE_H
#define PNRSIM_PNR_TABLE_H

#include "pnr/internal.h"

/* Table t's entry for server i. */
entry_t pnr_table_get(const pnr_t *p, const table_t *t, int i);
/* Free MB the manager believes server s has (its table; its own PE and
 * global knowledge: the truth). */
double pnr_believed_free(pnr_t *p, int manager, int s);
/* The load piggybacked on a message (src's free MB when it was sent at
 * sent_at) updates the receiver's table (§5.2.6), unless the table already
 * holds newer news of src. */
void pnr_hear(pnr_t *p, int receiver, int src, double load, double sent_at);
/* A snapshot of manager's table now (its own entry: its load now), with
 * `refs` references (one per BROADCAST that will carry it), tracked. */
snapshot_t *pnr_table_snapshot(pnr_t *p, int manager, int refs);
/* PE dst merges the broadcast snapshot s (§5.2.6); one reference of s
 * passes to dst's table. */
void pnr_table_merge(pnr_t *p, int dst, snapshot_t *s);
/* Drop one reference to a snapshot (freed at the last; NULL is ignored). */
void pnr_snapshot_release(snapshot_t *s);

#endif
