/* sched/policy.h: the gang scheduler's policy names (techreport §2.1.2
 * Priority and Packing), shared by the scheduler and the configuration. */
#ifndef PNRSIM_SCHED_POLICY_H
#define PNRSIM_SCHED_POLICY_H

/* Queue order: FCFS; BESTFIT = most PEs first; WORSTFIT = fewest first. */
typedef enum { PRIO_FCFS, PRIO_BESTFIT, PRIO_WORSTFIT } sched_priority;
/* Slot choice: the first, the fullest or the emptiest slot that fits. */
typedef enum { PACK_FIRSTFIT, PACK_BESTFIT, PACK_WORSTFIT } sched_packing;
/* When a thread's memory is freed (§4.3.1 "at process termination"): when
 * the thread ends, or when its whole job ends. */
typedef enum { MEM_RELEASE_THREAD, MEM_RELEASE_JOB } sched_mem_release;

#endif
