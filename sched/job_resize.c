/* sched/job_resize.c: a thread's memory that changes over time (issue 33
 * item 3, workload.memory_profile; docs/MODEL.md "Memory that changes over
 * time"). The points of the profile are sched/job_profile.c's; this file
 * applies them to a thread, reached from the thread loop of sched/job.c
 * through cl->resize (installed by job_resize_attach, from cluster_init),
 * so the job layer does not grow and a CONSTANT run makes no call at all.
 *
 * A thread starts at point 0's level (job_run asks before the thread's
 * first step, so its start allocates that: thread_begin). Its next change
 * is a clock of CPU time, th->mem_at, beside the fault, neighbour and sync
 * clocks (thread_next_target, sched/job_clock.c); when it comes due the thread loop calls
 * the step below before anything else due at that CPU instant. A change of
 * mb MB: on a node of several cores the thread's user size first (so the
 * others' shares of the node's overallocation count it), then pe_alloc
 * (which ends any batch on the PE, updates the time averages and, when the
 * overallocation moved, makes every thread on the PE redraw its fault
 * clock, §4.1.5), then the PNR layer's hook (mem_resized: the node asks for
 * more network RAM or gives back what it no longer needs). The scheduler
 * is not told: admission charges the peak (j->mem_mb) for the job's whole
 * life, as a batch system's memory request does.
 *
 * In sched/: above job.c (it works on its threads), below the scheduler.
 */
#include "sched/job_resize.h"

#include <math.h>

static void resize_step(sim_t *sim, thread_t *th)
{
    job_t *j = th->job;
    cluster_t *cl = j->cl;
    double frac, next;
    if (!th->started) {
        /* Its first size (point 0) and its first change. */
        job_profile_point(&cl->profile, j->cpu, 0, &frac);
        th->mem_mb = frac * j->mem_mb;
        th->size_bytes = th->mem_mb * MB_BYTES;
        th->mem_k = 0;
        th->mem_at = job_profile_point(&cl->profile, j->cpu, 1, &next);
        return;
    }
    th->mem_k++;
    job_profile_point(&cl->profile, j->cpu, th->mem_k, &frac);
    /* The next clock first: the PE's users are told of the change below,
     * th among them, and it recomputes its burst's end from its clocks. */
    th->mem_at = job_profile_point(&cl->profile, j->cpu, th->mem_k + 1, &next);
    double mb = frac * j->mem_mb, delta = mb - th->mem_mb;
    if (delta == 0)
        return;
    pe_t *pe = th->pe;
    th->mem_mb = mb;
    th->size_bytes = mb * MB_BYTES;
    if (pe->ncores > 1)
        pe_user_resize(pe, &th->mem_user, th->size_bytes);
    pe_alloc(sim, pe, delta);
    if (cl->hooks.mem_resized)
        cl->hooks.mem_resized(sim, th, delta, cl->hooks.pnr_ctx);
}

void job_resize_attach(cluster_t *cl)
{
    cl->resize = cl->profile.kind == MEM_PROFILE_CONSTANT ? NULL : resize_step;
}
