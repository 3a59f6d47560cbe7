/* sched/gang_internal.h: the gang scheduler's data structures, private to
 * sched/gang.c (the scheduler) and sched/gang_check.c (its invariant
 * checks). Nothing else includes it: callers see gang.h and gang_check.h.
 *
 * Data structures:
 *   slots      array of pointers in slot order (creation order); each slot
 *              is one row of the matrix: the job on each PE, the number of
 *              free PEs and of jobs. Slots have stable ids for "home" links;
 *              each records its exiles per core (slot_t, sched/gang_home.h).
 *   queue      waiting jobs, twice linked: one FIFO in arrival order (the
 *              head is the FCFS head) and one FIFO per width (threads), so
 *              the BESTFIT/WORSTFIT heads and "the first job that fits in
 *              k PEs" are found by scanning at most N bucket heads, never
 *              the whole queue (sched/queue.c).
 *   reserved   per node (PE of cl->pes; with one core per node, per
 *              column), MB of threads of placed jobs whose memory has not
 *              been freed yet (for mem_aware: memory of jobs waiting for
 *              their slot counts).
 */
#ifndef PNRSIM_SCHED_GANG_INTERNAL_H
#define PNRSIM_SCHED_GANG_INTERNAL_H

#include "sched/admit.h"
#include "sched/allocation.h"
#include "sched/gang_types.h"
#include "sched/gang_home.h"
#include "sched/gang_nodes.h"
#include "sched/priority.h"
#include "sched/queue.h"

#include <stdbool.h>
#include <stdint.h>

struct gang {
    sim_t *sim;
    cluster_t *cl;
    gang_params p;
    int npes;           /* columns: cores (cluster_cores) */
    int cpn;            /* cores per node: column pe is on node pe / cpn */
    int nnodes;         /* compute nodes (npes / cpn) */
    /* node_sharing EXCLUSIVE (p.exclusive, only with cpn > 1): the cores of
     * running jobs' nodes that none of their threads uses, and their
     * integral over time (idle core-seconds) up to idle_t */
    long idle_running;
    double idle_area, idle_t;
    slot_t **slots;
    int nslots, capslots;
    slot_fidx fidx;     /* free cores by slot index (sched/gang_home.h) */
    int cur;            /* index of the current slot, -1 when none */
    int next_slot_id;
    jobq_t queue;
    long pass_no;
    ev_id pass_ev;
    bool pass_pending;
    /* checking (gang_check.h's gang_hook_fn): after every scheduler action */
    void (*hook)(sim_t *sim, gang_t *g, void *ctx);
    void *hook_ctx;
    ev_id quantum_ev;
    double *reserved;  /* per compute node */
    double *ram_desc;  /* compute PEs' RAM, largest first (cpn = 1) */
    /* mem_global (sched/admit.h): network RAM available, as of pass
     * avail_pass and the placements since; all the cluster could lend */
    double avail;
    long avail_pass;
    double total_lendable;
    /* mem_global with cpn > 1: admit_view's scratch (zero between calls) */
    double *admit_used;
    int *admit_next;
    unsigned char *admit_mark;
    long nimpossible;   /* jobs that can never be placed (never queued) */
    /* gang_fits_after's scratch (allocated at its first use): a row of
     * cores and MB reserved per node as expected at a later instant */
    job_t **fut_row;
    double *fut_res;
    int *fut_ids;
    /* statistics */
    uint64_t pcs;
    int mpl_max;
    double mpl_area, busy_span, last_t;
    long in_system;     /* queued + placed */
    long placed, running;
    gang_end_fn on_end;
    void *ctx;
    gang_observer obs;      /* schedule output; members NULL when unused */
    /* a placement policy (gang.h; sched/backfill.c): the pass is
     * delegated to it when set; pf_* filter the slots place() may use */
    const gang_policy *policy;
    void *policy_ctx;
    void *pack_state;       /* the packing's state (p.packing->create) */
    int pf_only, pf_not;    /* slot index only / never (-1 none; nslots = a new slot) */
    bool pf_new;            /* place() may open a new slot */
    bool pf_charged;        /* a start placed through gang_place_where was charged a PCS */
    bool mirror_back;       /* test hook: moves back visit slots last to first */
    /* the allocation policy (scheduler.allocation, sched/gang_alloc.h) */
    const sched_alloc_ops *alloc;
    void *alloc_state;
    bool alloc_test;        /* ask it for every slot considered (mem_aware, or
                             * not the built-in FIRSTFREE) */
    unsigned char *alloc_mark; /* its answers' check: a byte per core, zero */
    int *rack_seen;         /* TREE: a mark per rack (racks spanned), zero */
    long racks_sum, racks_jobs; /* TREE: racks spanned by placed jobs */
    int racks_max;
    /* placement metrics (p.alloc_metrics, issue 35): mean pairwise hops of
     * the placed jobs; scratch for gang_job_hops (a count per compute node,
     * zero, and the nodes a job uses) */
    int *hop_count, *hop_nodes;
    double hops_sum;
    long hops_jobs;
};

/* The index (slot order) of the slot with id `id`, -1 when it is gone.
 * Slots are kept in creation order and ids are given in that order, so
 * the ids increase along the array: a binary search (issue 32 item 5: a
 * linear one per job made jobs.csv of many slots quadratic). */
static inline int gang_slot_index(const gang_t *g, int id)
{
    int lo = 0, hi = g->nslots - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2, m = g->slots[mid]->id;
        if (m == id)
            return mid;
        if (m < id)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

/* The admission rule's view of g's machine (sched/admit.h). */
static inline admit_view gang_admit_of(const gang_t *g)
{
    return (admit_view){g->cl,          g->cpn,        g->nnodes,     g->reserved,
                        g->p.netram_threshold, g->p.netram, g->p.exclusive, g->admit_used,
                        g->admit_next,  g->admit_mark};
}

/* mem_global: cores for j among the free cores of pe_job (NULL: an empty
 * slot), into pe_ids (admit_choose), and whether it may be admitted there: its threads
 * fit, or what they need from network RAM (with the lendable memory their
 * PEs lose) is at most `avail`. *cost gets that amount. Returns true when
 * j may be admitted on the PEs written to pe_ids. */
bool gang_global_fit(const gang_t *g, job_t *const *pe_job, const job_t *j, int *pe_ids,
                     double avail, double *cost);

/* The cores job j holds in a slot, in increasing order: its threads' cores
 * (pe_ids, increasing), and under EXCLUSIVE every core of their nodes.
 *     core_iter it;
 *     for (int pe = gang_core_first(g, j, &it); pe >= 0; pe = gang_core_next(g, j, &it))
 */
typedef struct core_iter {
    int i;              /* next thread to look at */
    int next, end;      /* EXCLUSIVE: cores next .. end-1 of the current node */
} core_iter;

static inline int gang_core_next(const gang_t *g, const job_t *j, core_iter *it)
{
    if (!g->p.exclusive)
        return it->i < j->threads ? j->pe_ids[it->i++] : -1;
    if (it->next < it->end)
        return it->next++;
    const int C = g->cpn;
    while (it->i < j->threads && j->pe_ids[it->i] / C * C + C == it->end)
        it->i++; /* threads on the node just done */
    if (it->i >= j->threads)
        return -1;
    int base = j->pe_ids[it->i] / C * C;
    it->next = base + 1;
    it->end = base + C;
    return base;
}


static inline int gang_core_first(const gang_t *g, const job_t *j, core_iter *it)
{
    *it = (core_iter){0, 0, -1};
    return gang_core_next(g, j, it);
}

/* What sched/gang_nodes.c reads of scheduler g: a pointer to a nodes_view
 * that lives until the end of the enclosing block. */
#define GANG_NODES(g)                                                          \
    (&(nodes_view){(g)->cl, (g)->cpn, (g)->nnodes, (g)->npes, (g)->reserved,  \
                   (g)->p.mem_aware})

/* The packing's choice (gang.c place): whether slot index ci should
 * replace slot index bi, both fitting j. One indirect call per candidate
 * after the first (none for a SCHED_PACK_FIRST packing). */
static inline bool gang_pack_better(const gang_t *g, int ci, int bi, const job_t *j)
{
    sched_slot_info c = {ci, g->slots[ci]->nfree, g->npes};
    sched_slot_info b = {bi, g->slots[bi]->nfree, g->npes};
    sched_job_info info;
    job_public(j, &info);
    return g->p.packing->better(g->pack_state, &c, &b, &info);
}

#endif
