/* sched/policy.h: the gang scheduler's policy names (techreport §2.1.2
 * Priority and Packing), shared by the scheduler and the configuration. */
#ifndef PNRSIM_SCHED_POLICY_H
#define PNRSIM_SCHED_POLICY_H

/* Queue order: FCFS; BESTFIT = most PEs first; WORSTFIT = fewest first. */
typedef enum { PRIO_FCFS, PRIO_BESTFIT, PRIO_WORSTFIT } sched_priority;
/* Slot choice: the first, the fullest or the emptiest slot that fits. */
typedef enum { PACK_FIRSTFIT, PACK_BESTFIT, PACK_WORSTFIT } sched_packing;

#endif
