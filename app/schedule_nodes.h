/* app/schedule_nodes.h: the per-node files of the schedule output
 * (app/schedule.h): pes.csv (sampled), memory.csv and paging.csv
 * (event-exact, issue 26), and the paging bursts that paging.csv and the
 * Paje trace's Paging states share.
 *
 *   pes.csv     per metrics_period sample and node (or group of nodes when
 *               there are more than SCHEDULE_PE_ROWS): memory, paging, CPU.
 *   memory.csv  time,pe,mem_alloc_mb,overalloc_mb,netram_lent_mb,
 *               netram_held_mb: a row each time one of a node's values
 *               changes (the last row of an instant is the state after it).
 *   paging.csv  pe,start,end,page_faults,paging_time: a row per burst of
 *               paging on a node (faults less than SCHEDULE_PAGING_GAP s
 *               apart make one burst), written when the burst ends.
 *
 * With a window [from, to] (output.schedule_from/to): pes.csv keeps the
 * samples in it, memory.csv the rows in it plus, at `from`, one row per
 * node whose state then is not all zero, paging.csv the bursts that
 * overlap it (whole: not clipped). Memory: a few arrays of N entries (N =
 * nodes), a binary heap of the nodes whose burst end is due; nothing is
 * allocated per event.
 */
#ifndef PNRSIM_APP_SCHEDULE_NODES_H
#define PNRSIM_APP_SCHEDULE_NODES_H

#include "core/ev.h"
#include "hw/pe.h"
#include "sched/cluster.h"

#include <stdbool.h>
#include <stdio.h>

/* pes.csv has at most this many rows per sample: with more PEs, rows are
 * groups of ceil(N / SCHEDULE_PE_ROWS) consecutive PEs. */
#define SCHEDULE_PE_ROWS 256

/* A node's paging burst (paging.csv, the Paje Paging state) lasts until
 * this many seconds after its last page fault ended (faults closer
 * together than this make one burst). */
#define SCHEDULE_PAGING_GAP 1.0

typedef struct snodes snodes;

/* Start the per-node files of cluster cl's nodes (cl->npes); any FILE may
 * be NULL (not written). Headers are written now. Window [from, to] (to =
 * HUGE_VAL: none). Never NULL. */
snodes *snodes_open(sim_t *sim, cluster_t *cl, FILE *pes, FILE *mem, FILE *paging,
                    double from, double to);
/* One pes.csv sample at sim->now over the last span s; true when written
 * (false: no pes.csv, or outside the window; the period's counters move on
 * either way). */
bool snodes_sample(snodes *n, sim_t *sim, double span);
/* A node's memory amounts may have changed (pe_observer.mem). */
void snodes_mem(snodes *n, sim_t *sim, const pe_t *pe);
/* The number of threads paging on a node changed (pe_observer.paging).
 * True when a burst begins now (it was not on, nor within
 * SCHEDULE_PAGING_GAP of its last fault). */
bool snodes_paging(snodes *n, sim_t *sim, const pe_t *pe);
/* The earliest end of a burst that is due (the node in *node), or
 * HUGE_VAL when none. */
double snodes_next_end(const snodes *n, int *node);
/* End node's due burst at its time (snodes_next_end): its paging.csv row. */
void snodes_end_burst(snodes *n, int node);
/* True when node's burst is on (paging, or within the gap after). */
bool snodes_paging_on(const snodes *n, int node);
/* The run is over at sim->now: bursts still on end now (their rows),
 * memory.csv's rows at `from` are written if the window began. */
void snodes_finish(snodes *n, sim_t *sim);
/* Free (not the FILEs). */
void snodes_close(snodes *n);

#endif
