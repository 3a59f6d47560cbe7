/* pnr/broadcast.c: broadcasts of availability tables (techreport §5.2.6):
 * the sending, by a manager after a round that changed network RAM, and the
 * arrival of a BROADCAST at a servent, which merges it into its table.
 * Above the frame (it posts and receives through it) and table.c (which
 * builds the snapshot and does the merge); below the manager, which calls
 * pnr_broadcast at the end of its rounds.
 */
#include "pnr/broadcast.h"

#include "pnr/frame.h"
#include "pnr/table.h"

/* One BROADCAST of snapshot s (one of its references) to PE dst. */
static void send_snapshot(pnr_t *p, int manager, int dst, double bytes, snapshot_t *s)
{
    pnr_broadcast_msg *b =
        PNR_MSG_NEW(pnr_broadcast_msg, p, PNR_MSG_BROADCAST, manager, dst, bytes);
    b->snap = s;
    pnr_post(p, &b->h);
}

/* By the strategy's broadcast scope (MANAGER: ALL, BACKBONE: MANAGERS):
 * after a round that allocated or deallocated network RAM (§5.2.6
 * "broadcasts are only executed after network RAM has been allocated or
 * deallocated"; `changed` says whether this round did) the manager sends
 * its table to every other servent (ALL) or to the other managers of the
 * strategy's set (MANAGERS; the broadcaster is one of them when the
 * strategy's manager() keeps to its set). The
 * message is control_msg + 16 bytes per PE (value and time stamp). */
void pnr_broadcast(pnr_t *p, int manager, bool changed)
{
    pnr_broadcast_scope scope = p->strat->broadcast;
    if (scope == PNR_BROADCAST_NONE)
        return;
    if (!changed)
        return;
    int targets = p->npes - 1;
    if (scope == PNR_BROADCAST_MANAGERS) {
        targets = 0;
        for (int k = 0; k < p->nmanagers; k++)
            targets += p->managers[k] != manager;
    }
    if (targets <= 0)
        return;
    snapshot_t *s = pnr_table_snapshot(p, manager, targets);
    double bytes = p->control_bytes + 16.0 * p->npes;
    if (scope == PNR_BROADCAST_ALL) {
        for (int pe = 0; pe < p->npes; pe++)
            if (pe != manager)
                send_snapshot(p, manager, pe, bytes, s);
    } else {
        for (int k = 0; k < p->nmanagers; k++)
            if (p->managers[k] != manager)
                send_snapshot(p, manager, p->managers[k], bytes, s);
    }
}

/* BROADCAST arrived at m->h.m.dst: its snapshot's reference passes to the
 * receiver's table, which merges it. */
static void broadcast_arrived(pnr_t *p, const pnr_broadcast_msg *m)
{
    pnr_table_merge(p, m->h.m.dst, m->snap);
}

void pnr_broadcast_init(pnr_t *p)
{
    p->handlers.on_broadcast = broadcast_arrived;
}
