/* sched/job_limit.h: time limits (issue 35, scheduler.time_limit = KILL):
 * a job is killed when its run clock reaches its limit.
 *
 * The run clock of a job runs while the job is scheduled (from each
 * job_run to the next job_stop: its slot is current, the context switch
 * and its own paging included) and stands still while gang slicing has it
 * descheduled (the reading of docs/SCHEDULING.md "Time limits": the time
 * of the other slots is not the job's, as a suspended job's is not in
 * Slurm). Its limit (job_t.limit, set by its creator: limit_factor x SWF
 * field 9; <= 0 none) arms one event at the instant the clock would reach
 * it; job_stop disarms it, the next job_run arms it again for what is left.
 * The event runs in the arrival class (EV_PRIO_ARRIVAL), after the
 * instant's model events: a job whose last thread ends exactly at its
 * limit has finished, and is not killed.
 *
 * The kill (job_limit_kill): every thread ends where it is, in thread
 * order, at the limit: computing (its CPU time credited and the CPU given
 * back, as job_stop does), waiting for or holding its core, its swap
 * device (disk or SSD: the fault in service is cut, the device freed),
 * its context switch, the barrier, or parked; its memory is freed as at a
 * normal end (RAM, and network RAM through the PNR layer's thread_ended,
 * the same DEALLOC notices). The job's in-flight messages are killed as a
 * descheduling kills them (net_kill, counted in messages_killed) and
 * never sent again. Two kinds of thread are not stopped from outside but
 * end as soon as they are back (the thread loop tests j->killing;
 * TH_AT_DRAIN): one in a network-RAM exchange (waiting for its grant, or
 * for a remote fault's page: the messages are in the network and the
 * server answers them; the thread ends when that exchange ends, at most
 * one fault's round trip later) and one in a batch of batched paging (the
 * batch is cut at the kill, counting its steps so far, and the thread ends
 * when the fault it was cut in ends). The job ends when its last thread
 * ends; its scheduler frees its PEs then (gang.c's job_ended, as at any
 * end) and reports it killed (j->killing).
 *
 * Counted: cl->jobs_killed, cl->killed_core_seconds (width x run clock at
 * the kill, the cores it held, all lost), cl->killed_cpu (CPU seconds all
 * its threads had done, finished ones included), and cl->cpu_cut (the part
 * done by the threads cut short): cpu_demand_done + cpu_cut is all the CPU
 * time threads did once every job has ended.
 */
#ifndef PNRSIM_SCHED_JOB_LIMIT_H
#define PNRSIM_SCHED_JOB_LIMIT_H

#include "sched/job.h"

/* Install the time limits on cl (cluster_init, scheduler.time_limit =
 * KILL): cl->time_kill, and cl->limiting's clock_run (j was just switched in:
 * with a limit, its run clock runs from now and its kill is armed for what
 * is left of it) and clock_stop (its run clock stops: the time since clock_run
 * counts, the kill is disarmed; only when j->kill_armed). A layer above
 * sched/job.c, which reaches it only through cl->limiting. */
void job_limit_attach(cluster_t *cl);
/* Kill j now (its limit's event; a test may call it): see above. j must
 * be running, not ended. */
void job_limit_kill(sim_t *sim, job_t *j);

#endif
