/* app/schedule.h: the schedule files of a run: schedule.csv, pes.csv,
 * memory.csv, paging.csv (--schedule or [output] schedule = yes|gz) and the
 * Paje trace (--paje or [output] paje).
 *
 * The writer listens to the scheduler (gang_observer), to the PEs
 * (pe_observer) and to the network (net_observer), installed together
 * through the cluster (cluster_observe), and streams every row as
 * the run goes: its memory is a few arrays of N entries (N = PEs), whatever
 * the length of the trace. The
 * formats are described in docs/METRICS.md ("Schedule files").
 *
 *   schedule.csv   job,slot,start,end,first_pe,pes,pcs: one row per stretch
 *                  a job ran on one contiguous run of PEs, written when the
 *                  stretch ends (rows are in order of their end).
 *   pes.csv, memory.csv, paging.csv: per node (app/schedule_nodes.h).
 *   the Paje trace (pj_dump, ViTE): PE containers (with
 *                  several cores per node: Node containers holding Core
 *                  containers; job states on cores, memory and paging on
 *                  nodes), job,
 *                  context-switch and paging states, memory variables,
 *                  slot-switch events; link and switch containers with a
 *                  state while a message holds them.
 *
 * A window [from, to] keeps what happens in it (schedule.c, schedule_nodes.h).
 */
#ifndef PNRSIM_APP_SCHEDULE_H
#define PNRSIM_APP_SCHEDULE_H

#include "app/schedule_nodes.h"

#include "core/ev.h"
#include "sched/gang.h"
#include "sched/job.h"

#include <stdbool.h>
#include <stdio.h>

typedef struct schedule_out schedule_out;

/* The files written (each may be NULL: not written). */
typedef struct schedule_files {
    FILE *csv;      /* schedule.csv */
    FILE *pes;      /* pes.csv */
    FILE *mem;      /* memory.csv */
    FILE *paging;   /* paging.csv */
    FILE *paje;     /* the Paje trace */
} schedule_files;

/* Start writing for the cluster cl (which must have a scheduler) into the
 * files f: headers are written and the observers installed
 * (cluster_observe). network: put the links and switches into the Paje
 * trace (a container each and their busy states; output.schedule_network);
 * false leaves the network out (no network observer). The window: from
 * `from` to `to` (s; to = 0: the end of the run). Never NULL (aborts when
 * out of memory). */
schedule_out *schedule_open(sim_t *sim, cluster_t *cl, bool network, const schedule_files *f,
                            double from, double to);
/* One pes.csv sample, at sim->now (call at every sample); span is the
 * simulated time since the previous sample (s, > 0): figures "in the
 * period" are over it. True when written (in the window). */
bool schedule_sample(schedule_out *s, sim_t *sim, double span);
/* The run is over (at sim->now): stretches still running end now (their
 * rows are written), paging bursts too, and the Paje containers are
 * destroyed (at the window's end if earlier). */
void schedule_finish(schedule_out *s, sim_t *sim);
/* At most cap network states (a link transferring, a switch forwarding)
 * in the Paje trace; 0 (the default) = no cap. Later ones are counted, not
 * written (the states already open are still closed). */
void schedule_set_net_cap(schedule_out *s, long cap);
/* Network states left out by the cap; *at (may be NULL): the simulated
 * time of the first. */
long schedule_net_dropped(const schedule_out *s, double *at);
/* Network states written to the Paje trace (pushes: "8 ... LS|SS" lines,
 * each with its pop), the cap's count. */
long schedule_net_kept(const schedule_out *s);
/* Remove the observers and free the writer (not the FILEs). */
void schedule_close(schedule_out *s);

#endif
