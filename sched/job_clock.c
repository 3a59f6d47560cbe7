/* sched/job_clock.c: a thread's clocks (see job_clock.h), cut from
 * sched/job.c along its dependencies: the fault model and the message
 * intervals need the thread's fields, its PE and the cluster's random
 * streams, never the thread process, which sits above them in job.c.
 */
#include "sched/job_clock.h"
#include "sched/job_pool.h"

#include "core/mem.h"
#include "hw/swap.h"

#include <assert.h>
#include <math.h>

/* ---- page-fault model (§4.1.5) ------------------------------------------ */

/* Several cores per node: th's share of its node's overallocation (MODEL.md
 * "Nodes of several cores"); S, its row's size there (pe_key_size). */
static double thread_node_share(thread_t *th, double over)
{
    return job_fault_share(over, th->size_bytes, pe_key_size(th->pe, th->job->row));
}

/* Set L from the PE's overallocation and draw the next fault time. */
void thread_fault_redraw(thread_t *th)
{
    cluster_t *cl = th->job->cl;
    const double P = job_page_bytes(cl);
    double over = pe_overalloc_mb(th->pe) * MB_BYTES;
    if (th->pe->ncores > 1 && over > 0)
        over = thread_node_share(th, over);
    th->L = over < th->size_bytes ? over : th->size_bytes;
    if (th->L < P || cl->mem_access_rate <= 0 || th->job->curve) {
        /* Less than a page out of RAM: nothing to page; CURVE: its rate (job_curve.h). */
        th->fault_at = job_curve_next(th->job->curve, &cl->fault_rng, th->pe->id, th->cpu_done,
                                      th->L, th->size_bytes, P);
        return;
    }
    if (th->D > th->L)
        th->D = th->L;
    double O = th->L - th->D;
    if (O <= 0) {
        /* Everything paged in: a locality change (reset, see MODEL.md). */
        O = job_fault_reset(rng_set_get(&cl->fault_rng, (size_t)th->pe->id), th->L, th->pe->ram_mb * MB_BYTES,
                            th->size_bytes, P);
        th->D = th->L - O;
    }
    double U = O / th->L;
    double mean = cl->mem_access_rate * P / U;
    th->fault_at = th->cpu_done + rng_exp(rng_set_get(&cl->fault_rng, (size_t)th->pe->id), mean);
}

void thread_burst_credit(sim_t *sim, thread_t *th)
{
    if (th->preempted_by)
        return; /* credited when preempted (job_cost.c) */
    th->cpu_done += (sim->now - th->burst_start) * th->speed;
    if (th->cpu_done > th->target)
        th->cpu_done = th->target;
    th->burst_start = sim->now;
}

void thread_mem_changed(sim_t *sim, thread_t *th)
{
    if (th->finished || !th->started)
        return;
    if (th->batch)
        pe_batch_end(sim, th->pe); /* th's batch is its PE's */
    if (th->computing) {
        thread_burst_credit(sim, th);
        thread_fault_redraw(th);
        th->target = thread_next_target(th);
        proc_rehold(sim, &th->p, thread_burst_wall(th, th->target - th->cpu_done)); /* suspended: job_cost.c */
    } else {
        /* Waiting for the CPU, parked, in a context switch, paging or at a
         * barrier: the burst it is about to compute must end at the new
         * fault clock too (the target is recomputed before every burst
         * anyway when the thread is between bursts). */
        thread_fault_redraw(th);
        th->target = thread_next_target(th);
    }
}

void thread_mem_changed_cb(sim_t *sim, pe_user *u)
{
    thread_t *th = (thread_t *)((char *)u - offsetof(thread_t, mem_user));
    thread_mem_changed(sim, th);
}

/* ---- neighbour and synchronisation intervals (§4.3.2, §4.3.3) ------------ */

/* CPU time of the thread's next neighbour message: the comm_k-th with fixed
 * intervals; with exponential ones, prev_at (the previous message's CPU
 * time, 0 at the start) plus a draw. */
double thread_next_comm_at(thread_t *th, double prev_at)
{
    cluster_t *cl = th->job->cl;
    if (!(cl->comm_rate > 0))
        return INFINITY;
    if (cl->interval_exp)
        return prev_at + rng_exp(rng_set_get(&cl->interval_rng, (size_t)th->pe->id), cl->comm_rate);
    /* Fixed: k * rate, not a running sum, so counts stay exact. */
    return (double)th->comm_k * cl->comm_rate;
}

/* CPU time of the thread's next synchronisation point (its sync_k-th). With
 * exponential intervals the job draws each point once, from the stream of
 * the PE of the first thread to need it, for all its threads. */
double thread_next_sync_at(thread_t *th)
{
    job_t *j = th->job;
    cluster_t *cl = j->cl;
    if (!(cl->sync_rate > 0))
        return INFINITY;
    if (!cl->interval_exp)
        return (double)th->sync_k * cl->sync_rate;
    /* Every thread passes point k before any thread needs point k + 1 (the
     * barrier), so the job holds only the latest point. */
    assert(th->sync_k == j->sync_drawn || th->sync_k == j->sync_drawn + 1);
    if (th->sync_k > j->sync_drawn) {
        j->sync_point += rng_exp(rng_set_get(&cl->interval_rng, (size_t)th->pe->id), cl->sync_rate);
        j->sync_drawn = th->sync_k;
    }
    return j->sync_point;
}
