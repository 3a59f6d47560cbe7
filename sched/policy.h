/* sched/policy.h: the gang scheduler's policy names (techreport §2.1.2
 * Priority and Packing), shared by the scheduler and the configuration. */
#ifndef PNRSIM_SCHED_POLICY_H
#define PNRSIM_SCHED_POLICY_H

/* The queue order, backfilling and packing are registry components
 * (issue 34): sched/order.h, sched/reserve.h, sched/packing.h. */
/* Node allocation (issue 25, scheduler.node_sharing): SHARED = a job gets
 * cores, other jobs may use the rest of its nodes; EXCLUSIVE = whole
 * nodes in its slot, the unused cores idle. */
typedef enum { NODE_SHARED, NODE_EXCLUSIVE } sched_node_sharing;
/* When a thread's memory is freed (§4.3.1 "at process termination"): when
 * the thread ends, or when its whole job ends. */
typedef enum { MEM_RELEASE_THREAD, MEM_RELEASE_JOB } sched_mem_release;
/* Paging (process.paging; docs/BATCHING.md): EXACT = every page fault is
 * its own events (disk service or page messages, CPU burst); BATCHED = a
 * thread's consecutive faults, disk or remote, run as one hold up to its
 * next interaction (not the same sample path; batched page messages are
 * counted, not sent). */
typedef enum { PAGING_EXACT, PAGING_BATCHED } sched_paging;
/* Loop scheduling inside a job (issue 36, sched/job_loop.h): NONE = every
 * thread's demand fixed (the report's model); STATIC, SS, GSS, FAC (FAC2),
 * WF, AWF divide each interval's iterations among the job's threads. */
typedef enum { LOOP_NONE, LOOP_STATIC, LOOP_SS, LOOP_GSS, LOOP_FAC, LOOP_WF, LOOP_AWF } sched_loop;
/* Memory-aware admission (§2.1.2 MemAware; issue 15): none; LOCAL = every
 * thread fits its PE's free RAM (the report's); GLOBAL = or the job's
 * overallocation fits the network RAM still available (sched/admit.h). */
typedef enum { MEM_AWARE_NO, MEM_AWARE_LOCAL, MEM_AWARE_GLOBAL } sched_mem_aware;

#endif
