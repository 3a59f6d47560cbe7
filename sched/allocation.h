/* sched/allocation.h: public (issue 34): an allocation policy
 * (scheduler.allocation), kind PNRSIM_KIND_ALLOCATION of core/registry.h:
 * which PEs (cores) of one time slot a job would get.
 *
 * The PReMAS rule: the policy decides, the scheduler applies. choose()
 * looks at a read-only view of the machine for one slot (sched_alloc_view,
 * below) and writes the cores it would give the job; it changes nothing.
 * The scheduler calls it once for every slot it considers for the job (the
 * packing, scheduler.packing, then picks among the slots it accepted), and
 * once more for the slot picked, whose answer it applies: so choose() must
 * give the same answer for the same view (pure in state, job and view).
 * One indirect call per placement attempt, never per simulation event.
 *
 * The answer pe_out[0 .. threads-1] is the thread -> core map in thread
 * order: thread t runs on core pe_out[t] (a job's thread order is also
 * the order in which the MANAGER strategy draws its threads' managers, so
 * the order matters, not only the set). The cores must be distinct,
 * in range and free in the slot (sched_alloc_pe_free); under node_sharing
 * EXCLUSIVE (sched_alloc_exclusive) the job takes exactly ceil(threads /
 * C) nodes, every one wholly free, and the threads of one node must be
 * consecutive in pe_out. The scheduler
 * checks these rules of every component but the built-in one and stops
 * the run with a message naming the component when one is broken.
 *
 * Memory: under scheduler.mem_aware = LOCAL or GLOBAL a component decides
 * whether the job's memory fits where it puts it (sched_alloc_free_mb, and
 * for GLOBAL sched_alloc_admits); the scheduler does not overrule it.
 *
 * The built-in default, FIRSTFREE (sched/alloc_firstfree.c, written
 * against this header only), is the scheduler's rule of every release
 * before the registry: the lowest-numbered free cores, with the memory
 * rules of scheduler.mem_aware and whole nodes under EXCLUSIVE.
 */
#ifndef PNRSIM_SCHED_ALLOCATION_H
#define PNRSIM_SCHED_ALLOCATION_H

#include "core/registry.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What an allocation policy sees of the job (the workload's public fields
 * that matter for a placement). */
typedef struct sched_alloc_job {
    long id;            /* SWF job number */
    int threads;        /* threads: the cores to choose */
    int width;          /* cores it holds in the slot (threads; under
                         * EXCLUSIVE whole nodes: ceil(threads / C) x C) */
    double mem_mb;      /* memory per thread, MB */
} sched_alloc_job;

/* The machine as seen for one slot (opaque; valid during the call only). */
typedef struct sched_alloc_view sched_alloc_view;

/* Cores (the slot's columns, numbered 0 .. npes-1), compute nodes, and
 * cores per node C: core p is on node p / C. */
int sched_alloc_npes(const sched_alloc_view *v);
int sched_alloc_nnodes(const sched_alloc_view *v);
int sched_alloc_cpn(const sched_alloc_view *v);
/* The node of core pe (pe / C). */
int sched_alloc_node_of(const sched_alloc_view *v, int pe);
/* True when core pe (0 <= pe < npes) is free in the slot considered (a new
 * slot: every core). */
bool sched_alloc_pe_free(const sched_alloc_view *v, int pe);
/* True when the slot considered is a new, empty one. */
bool sched_alloc_new_slot(const sched_alloc_view *v);
/* network.topology = TREE: the number of racks (compute racks first;
 * memory servers' racks, if any, after them: those have no cores) and the
 * rack of core pe; 0 and -1 for the other topologies. */
int sched_alloc_nracks(const sched_alloc_view *v);
int sched_alloc_rack_of(const sched_alloc_view *v, int pe);
/* The hop distance between cores a and b (docs/METRICS.md "Placement"):
 * 0 on one node; otherwise the number of elements (links and switches) of
 * the network's route between their nodes (net/elem.h): STAR 3, BUS 1,
 * WHEEL 1 for the two nodes of a rim link and 3 otherwise, CONNECTED 1,
 * TREE 3 within a rack and 7 across racks. Constant time. (Issue 35;
 * compatible addition: API version unchanged.) */
int sched_alloc_hops(const sched_alloc_view *v, int a, int b);
/* MB of node `node` that placements may still reserve: its RAM, less the
 * memory it has lent and the memory of the threads of placed, unfinished
 * jobs on it in any slot (may be negative). */
double sched_alloc_free_mb(const sched_alloc_view *v, int node);

/* scheduler.mem_aware, and node_sharing EXCLUSIVE. */
typedef enum sched_alloc_mem {
    SCHED_ALLOC_MEM_NO,       /* memory is not looked at */
    SCHED_ALLOC_MEM_LOCAL,    /* each thread must fit its node's free RAM */
    SCHED_ALLOC_MEM_GLOBAL    /* or the overallocation fits network RAM */
} sched_alloc_mem;
sched_alloc_mem sched_alloc_mem_rule(const sched_alloc_view *v);
bool sched_alloc_exclusive(const sched_alloc_view *v);

/* Queries on the rules of the built-in scheduler, for the parts of the
 * default that are the memory-aware admission's own (sched/admit.h) and
 * for plugins that want to keep them. j must be the job choose() was
 * called for.
 *   sched_alloc_admits: mem_aware GLOBAL, would j be admitted on the cores
 *     pe (threads of them): its threads fit their nodes' free RAM, or
 *     what they would overallocate, with the lendable memory their nodes
 *     lose, fits the network RAM available in this pass.
 *   sched_alloc_admit_choose: GLOBAL, the admission's own choice of cores
 *     (docs/MODEL.md; sched/admit.h admit_choose) into pe_out, and whether
 *     j is admitted there (sched_alloc_admits).
 *   sched_alloc_spread_nodes: EXCLUSIVE and LOCAL, the threads spread
 *     over the ceil(threads / C) whole free nodes of most room (ties: the
 *     lowest-numbered), each up to the threads its room holds, into pe_out;
 *     false when no such nodes hold them (sched/gang_nodes.h). */
bool sched_alloc_admits(const sched_alloc_view *v, const sched_alloc_job *j, const int *pe);
bool sched_alloc_admit_choose(const sched_alloc_view *v, const sched_alloc_job *j, int *pe_out);
bool sched_alloc_spread_nodes(const sched_alloc_view *v, const sched_alloc_job *j,
                              int *pe_out);

typedef struct sched_alloc_ops {
    /* Optional (NULL: state NULL). The policy's state for one run, created
     * with the run's context (its [plugin.NAME] keys, its random streams)
     * when the scheduler is created, before the first job arrives. */
    void *(*create)(const pnrsim_ctx *ctx);
    /* Optional. Free what create returned (at the scheduler's end). */
    void (*destroy)(void *state);
    /* Required. The cores job j would get in the slot of view v, into
     * pe_out[0 .. j->threads - 1] in thread order (see above): 0 when it
     * fits there, -1 when it does not (pe_out is then scratch). Must not
     * change the machine or depend on being called once; pure in (state,
     * j, v) between placements. */
    int (*choose)(void *state, const sched_alloc_job *j, const sched_alloc_view *v,
                  int *pe_out);
} sched_alloc_ops;

#ifdef __cplusplus
}
#endif

#endif
