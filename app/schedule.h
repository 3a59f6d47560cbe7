/* app/schedule.h: the schedule and PE-state files of a run (--schedule or
 * [output] schedule = yes): schedule.csv, pes.csv and schedule.paje.
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
 *   pes.csv        per metrics_period sample and PE (or group of PEs when
 *                  N > SCHEDULE_PE_ROWS): memory, paging, CPU busy.
 *   schedule.paje  a Paje trace (pj_dump, ViTE): PE containers (with
 *                  several cores per node: Node containers holding Core
 *                  containers; job states on cores, memory and paging on
 *                  nodes), job,
 *                  context-switch and paging states, memory variables,
 *                  slot-switch events; link and switch containers with a
 *                  state while a message holds them.
 */
#ifndef PNRSIM_APP_SCHEDULE_H
#define PNRSIM_APP_SCHEDULE_H

#include "core/ev.h"
#include "sched/gang.h"
#include "sched/job.h"

#include <stdio.h>

/* pes.csv has at most this many rows per sample: with more PEs, rows are
 * groups of ceil(N / SCHEDULE_PE_ROWS) consecutive PEs. */
#define SCHEDULE_PE_ROWS 256

/* Paje: a PE's paging state lasts until this many seconds after its last
 * page fault ended (faults closer together than this make one state). */
#define SCHEDULE_PAGING_GAP 1.0

typedef struct schedule_out schedule_out;

/* Start writing for the cluster cl (which must have a scheduler): headers
 * are written and the observers installed (cluster_observe). Any FILE may
 * be NULL (not written). period is the sample period (s). network: put the
 * links and switches into the Paje trace (a container each and their busy
 * states; output.schedule_network); false leaves the network out (no
 * network observer). Never NULL (aborts when out of memory). */
schedule_out *schedule_open(sim_t *sim, cluster_t *cl, double period, bool network,
                            FILE *csv, FILE *pes, FILE *paje);
/* One pes.csv sample, at sim->now (call at every sample); span is the
 * simulated time since the previous sample (s, > 0): figures "in the
 * period" are over it. */
void schedule_sample(schedule_out *s, sim_t *sim, double span);
/* The run is over (at sim->now): stretches still running end now (their
 * rows are written), and the Paje containers are destroyed. */
void schedule_finish(schedule_out *s, sim_t *sim);
/* At most cap network states (a link transferring, a switch forwarding)
 * in the Paje trace; 0 (the default) = no cap. Later ones are counted, not
 * written (the states already open are still closed). */
void schedule_set_net_cap(schedule_out *s, long cap);
/* Network states left out by the cap; *at (may be NULL): the simulated
 * time of the first. */
long schedule_net_dropped(const schedule_out *s, double *at);
/* Remove the observers and free the writer (not the FILEs). */
void schedule_close(schedule_out *s);

#endif
