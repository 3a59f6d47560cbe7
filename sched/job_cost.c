/* sched/job_cost.c: CPU work on a node's cores that is no thread's burst
 * (issue 33, docs/MODEL.md "Costs on a fault's path").
 *
 * Under netram.transport = MESSAGES a page crosses as two messages, and
 * each end of each pays CPU time: the faulting thread's core sends the
 * PAGE_OUT and receives the PAGE_IN (netram.message_cpu each), the serving
 * node receives the one and sends the other and serves the request
 * (2 message_cpu + netram.server_cpu). The PNR layer (pnr/client.c,
 * pnr/server.c) asks for that time here; a work is a small process that
 * holds a core's CPU (the res_t a burst holds) for its seconds and then
 * calls back.
 *
 * The faulting thread's send queues FIFO on its core (cost_on_core: it is
 * the thread's own time, and the core is normally idle then, the thread
 * having just ended its burst); its receive of the PAGE_IN comes as an
 * interrupt on that core (cost_interrupt), which may by then run another
 * slot's thread. The serving node's work comes as an interrupt too
 * (cost_on_node): it takes an idle core if there is one and slows nobody
 * (a thread that wants that core meanwhile waits, as for any holder); else
 * it preempts the holder of the lowest busy core (res_preempt): the
 * holder's hold is suspended with its time left and resumes when the work
 * gives the core
 * back, so a computing thread's burst, its job's end with it, comes
 * exactly the work's seconds later. Its CPU time is credited up to the
 * preemption (thread_burst_credit) and its burst starts again at the
 * resumption; while it waits (th->preempted_by), job_stop and memory
 * changes treat it as computing (job.c: res_give_up, proc_rehold). A work
 * preempted by a later one resumes after it (the later work runs first,
 * as a nested interrupt would). This is the gang matrix's answer: a
 * server's work runs on a core of its node whatever slot runs there, and
 * the slot's thread on that core is the one slowed.
 *
 * The records are kept on the cluster (cl->cost_free, cl->cost_busy) and
 * reused: no allocation per fault in steady state. In sched/: above
 * job.c (it reads threads and credits their bursts), below the scheduler.
 */
#include "sched/job_cost.h"

#include "core/mem.h"

#include <assert.h>
#include <stdlib.h>

static void work_body(sim_t *sim, proc_t *p);

/* A free record, or a new one; on cl->cost_busy. */
static cost_work *work_get(sim_t *sim, cluster_t *cl, res_t *core, double secs, int kind,
                           cost_done_fn done)
{
    assert(secs > 0);
    if (!cl->cost_free.next) { /* a cluster made without cluster_init */
        list_init(&cl->cost_free);
        list_init(&cl->cost_busy);
    }
    cost_work *w;
    list_t *n = list_pop_head(&cl->cost_free);
    if (n) {
        w = container_of(n, cost_work, link);
    } else {
        w = xcalloc(1, sizeof *w);
        proc_init(sim, &w->p, work_body);
    }
    list_add_head(&cl->cost_busy, &w->link);
    w->cl = cl;
    w->core = core;
    w->secs = secs;
    w->kind = kind;
    w->victim = NULL;
    w->done = done;
    w->ctx = w->arg = NULL;
    w->a = w->b = 0;
    w->p.pc = 0;
    return w;
}

/* w holds its core now: its hold starts (the body then runs at its end). */
static void work_go(sim_t *sim, cost_work *w)
{
    w->holding = true;
    proc_hold(sim, &w->p, w->secs);
}

/* The work is done: a thread it preempted starts its burst again, the
 * core goes to the head of its queue, the caller's done runs, and the
 * record is free again (only then: done may start works). */
static void work_end(sim_t *sim, cost_work *w)
{
    cluster_t *cl = w->cl;
    cl->cost_cpu[w->kind] += w->secs;
    thread_t *th = w->victim;
    if (th && th->preempted_by == w) { /* not stopped meanwhile (job_stop) */
        th->preempted_by = NULL;
        th->burst_start = sim->now;
    }
    res_release(sim, w->core, &w->p);
    w->done(sim, w);
    list_del(&w->link);
    list_add_head(&cl->cost_free, &w->link);
}

/* Granted at once (work_go: the hold is over) or after a wait in the queue
 * (woken holding the core: hold now). */
static void work_body(sim_t *sim, proc_t *p)
{
    cost_work *w = (cost_work *)p;
    PROC_BEGIN(p);
    if (!w->holding)
        PROC_HOLD(sim, p, w->secs);
    work_end(sim, w);
    PROC_END(sim, p);
}

cost_work *cost_on_core(sim_t *sim, cluster_t *cl, res_t *core, double secs, int kind,
                        cost_done_fn done)
{
    cost_work *w = work_get(sim, cl, core, secs, kind, done);
    w->holding = false;
    if (res_request(sim, core, &w->p))
        work_go(sim, w);
    return w;
}

/* w takes its core as an interrupt would: at once when the core is idle;
 * preempting the holder when it holds (credited up to now when it is a
 * computing thread); else (a holder granted at this very instant) FIFO. */
static void work_take(sim_t *sim, cost_work *w)
{
    res_t *core = w->core;
    proc_t *h = core->holder;
    w->holding = false;
    if (!h || h->state != PROC_HOLDING) {
        if (res_request(sim, core, &w->p))
            work_go(sim, w);
        return;
    }
    thread_t *th = job_thread_of(h);
    if (th && th->computing) {
        thread_burst_credit(sim, th);
        th->preempted_by = w;
        w->victim = th;
    }
    res_preempt(sim, core, &w->p);
    work_go(sim, w);
}

cost_work *cost_interrupt(sim_t *sim, cluster_t *cl, res_t *core, double secs, int kind,
                          cost_done_fn done)
{
    cost_work *w = work_get(sim, cl, core, secs, kind, done);
    work_take(sim, w);
    return w;
}

/* The core of pe a work takes (cost_on_node). */
static int node_core(pe_t *pe)
{
    int C = pe->ncores > 1 ? pe->ncores : 1;
    int idle = -1, busy = -1;
    for (int c = 0; c < C && idle < 0; c++) {
        res_t *r = pe_cpu(pe, c);
        if (!r->holder)
            idle = c;
        else if (busy < 0 && r->holder->state == PROC_HOLDING)
            busy = c;
    }
    return idle >= 0 ? idle : busy >= 0 ? busy : 0;
}

cost_work *cost_on_node(sim_t *sim, cluster_t *cl, pe_t *pe, double secs, int kind,
                        cost_done_fn done)
{
    int c = node_core(pe);
    /* Batched paging: a batch's core has no holder while the batch runs
     * (its thread computes or pages in it), so a work that would take it
     * first ends the batch (as a request of that core does,
     * job_batch_cpu_end), which leaves the thread holding it or not as
     * the exact mode would; then the core is chosen again. */
    const thread_t *b = pe->batch;
    if (b && b->core_cpu == pe_cpu(pe, c)) {
        pe_batch_end(sim, pe);
        c = node_core(pe);
    }
    return cost_interrupt(sim, cl, pe_cpu(pe, c), secs, kind, done);
}

void cost_free_all(sim_t *sim, cluster_t *cl)
{
    list_t *lists[2] = {&cl->cost_free, &cl->cost_busy};
    for (int i = 0; i < 2; i++) {
        if (!lists[i]->next)
            continue;
        for (list_t *n; (n = list_pop_head(lists[i]));) {
            cost_work *w = container_of(n, cost_work, link);
            proc_destroy(sim, &w->p);
            free(w);
        }
    }
}
