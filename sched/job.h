/* sched/job.h: parallel jobs and their threads (techreport §4.3).
 *
 * A job has one thread per allocated processor, each bound to one PE for
 * the job's whole life. A thread is a process that needs `cpu` seconds of
 * CPU time. While it computes, these clocks of CPU time run:
 *   - the next page fault (§4.1.5), when its PE is overallocated;
 *   - the next neighbour message, every comm_rate CPU seconds (0 = never):
 *     the thread sends to its successor in a one-way ring of the job's
 *     threads, which answers at once; neither waits (§4.3.2);
 *   - the next synchronisation, every sync_rate CPU seconds (0 = never):
 *     the thread declares itself ready and waits; when all threads are
 *     ready, each sends a message to the master (thread 0); when the master
 *     has received all of them, the barrier opens and every thread computes
 *     again (§4.3.3).
 *   - under a memory profile (workload.memory_profile, cl->resize: RAMP or
 *     PHASES; docs/MODEL.md "Memory that changes over time"), the next
 *     change of its allocation, mem_at (sched/job_resize.c applies it).
 * With cl->interval_exp the two intervals are instead exponential with
 * those means: each thread draws its own neighbour intervals; a job draws
 * its synchronisation points once for all its threads (the first thread to
 * pass a point draws the next), so every thread of a job synchronises at
 * the same CPU times, as with fixed intervals. Draws come from the per-PE
 * streams cl->interval_rng, so the fault streams do not shift.
 * When several clocks expire at the same CPU instant they are handled in
 * the order memory change, fault, neighbour, synchronisation. Only CPU
 * time advances the clocks; paging, messages and barriers do not.
 *
 * The scheduler controls threads through job_run (start or resume the
 * job's threads on their PEs) and job_stop (deschedule: computing threads
 * give back their CPU and their hold is interrupted through the process
 * API, returning PROC_STOPPED (core/proc.h); they keep their remaining work;
 * in-flight neighbour and synchronisation messages are killed, to be sent
 * again from the start when the job runs again, §4.4.2). A thread that is
 * paging or waiting when its job is stopped finishes that activity and then
 * waits for the job to run again before computing.
 *
 * One process per job (issue 11): when nothing can distinguish a job's
 * threads (cl->solo_ok: space sharing; no neighbour or synchronisation
 * messages; no network RAM; no thread can page), job_run starts one
 * process for the whole job instead of one per thread. It does for each
 * thread, in thread order, exactly what that thread's process would do at
 * the same instant, so every per-thread and per-PE figure and every tie
 * among same-time events are those of the per-thread processes; only the
 * number of kernel events differs (2 per job instead of 2 per thread).
 * Such a job has no thread_t (j->th is NULL): what its threads share is
 * kept in the job; ask job_thread_mem_freed rather than j->th.
 */
#ifndef PNRSIM_SCHED_JOB_H
#define PNRSIM_SCHED_JOB_H
#include "sched/job_clock.h"
#include "sched/job_types.h"

/* Create a job (not yet placed). threads >= 1. */
job_t *job_create(cluster_t *cl, long id, long order, double submit, int threads,
                  double cpu, double mem_mb);
/* Free the job now (its messages are dropped). */
void job_destroy(sim_t *sim, job_t *j);
/* Free every job alive on cl (job_destroy), and the thread arrays kept
 * for reuse. */
void job_destroy_all(sim_t *sim, cluster_t *cl);
/* The jobs alive on cl, newest first: the first, and the one after j;
 * NULL past the end. */
job_t *job_first(const cluster_t *cl);
job_t *job_next(const cluster_t *cl, const job_t *j);
/* The job's owner is done with it (it ended, or never started): it is
 * freed, through an event, once none of its messages is in flight. */
void job_release(sim_t *sim, job_t *j);
/* Bind thread i to core pe_id (before the first job_run). */
void job_bind(job_t *j, int i, int pe_id);
/* True when the memory of thread i of j has been given back to its PE
 * (false before the job started). */
bool job_thread_mem_freed(const job_t *j, int i);
/* Start (first call) or resume the job's threads; their bursts begin or
 * continue after `delay` seconds (the context-switch cost; on a first start
 * the threads allocate their memory at once and compute `delay` later). */
void job_run(sim_t *sim, job_t *j, double delay);
/* Deschedule the job (see above). */
void job_stop(sim_t *sim, job_t *j);
/* Thread i of j has done its work, or was killed (j->killing; its
 * thread finished: sched/job_limit.c): the end of a thread (its memory
 * freed under mem_release THREAD, its CPU counted: its demand, or what it
 * had done when killed), and with the last one the job's end (memory
 * freed under JOB, on_job_ended). */
void job_thread_ended(sim_t *sim, job_t *j, int i);
/* The PNR layer's answer arrived: the thread may compute. */
static inline void thread_proceed(sim_t *sim, thread_t *th) { proc_wake(sim, &th->p); }
/* A fault served elsewhere (hook) is complete: the thread continues. */
static inline void thread_fault_done(sim_t *sim, thread_t *th) { proc_wake(sim, &th->p); }
/* The thread whose process p is (a thread_body), or NULL (another
 * process: a job's, a work's of job_cost.c). */
thread_t *job_thread_of(proc_t *p);
#endif
