/* core/res.c: single-server FIFO resources (see res.h). */
#include "core/res.h"

#include <assert.h>
#include <stddef.h>

void res_init(sim_t *sim, res_t *r, const char *name)
{
    r->name = name;
    r->holder = NULL;
    waitq_init(&r->q);
    r->busy_since = 0;
    r->busy = 0;
    r->requests = r->completions = r->preemptions = 0;
    timeavg_init(&r->queue, sim->now, 0);
}

static void grant(sim_t *sim, res_t *r, proc_t *p)
{
    r->holder = p;
    r->busy_since = sim->now;
}

static void set_idle(sim_t *sim, res_t *r)
{
    r->busy += sim->now - r->busy_since;
    r->holder = NULL;
}

bool res_request(sim_t *sim, res_t *r, proc_t *p)
{
    r->requests++;
    if (!r->holder) {
        grant(sim, r, p);
        return true;
    }
    assert(r->holder != p);
    waitq_wait(sim, &r->q, p);
    timeavg_set(&r->queue, sim->now, r->q.n);
    return false;
}

void res_release(sim_t *sim, res_t *r, proc_t *p)
{
    assert(r->holder == p);
    (void)p;
    r->completions++;
    set_idle(sim, r);
    proc_t *next = waitq_pop(&r->q);
    if (!next)
        return;
    timeavg_set(&r->queue, sim->now, r->q.n);
    grant(sim, r, next);
    /* A preempted holder continues its suspended service; any other
     * waiter continues after its PROC_REQUEST. */
    if (next->state == PROC_SUSPENDED)
        proc_resume(sim, next);
    else
        proc_wake(sim, next);
}

void res_account(res_t *r, uint64_t n, double busy)
{
    assert(!r->holder && busy >= 0);
    r->requests += n;
    r->completions += n;
    r->busy += busy;
}

void res_take_since(sim_t *sim, res_t *r, proc_t *p, double since)
{
    assert(!r->holder && r->q.n == 0 && since <= sim->now);
    (void)sim;
    r->requests++;
    r->holder = p;
    r->busy_since = since;
}

void res_preempt(sim_t *sim, res_t *r, proc_t *p)
{
    r->requests++;
    proc_t *old = r->holder;
    if (!old) {
        grant(sim, r, p);
        return;
    }
    r->preemptions++;
    set_idle(sim, r);
    /* The old holder must be serving (holding); it keeps what it still
     * owes and waits at the head of the queue. */
    bool was_holding = proc_suspend(sim, old);
    assert(was_holding);
    (void)was_holding;
    waitq_push_head(&r->q, old);
    timeavg_set(&r->queue, sim->now, r->q.n);
    grant(sim, r, p);
}

void res_give_up(sim_t *sim, res_t *r, proc_t *p)
{
    if (r->holder == p) {
        res_release(sim, r, p);
        return;
    }
    assert(p->state == PROC_SUSPENDED);
    bool queued = res_cancel(sim, r, p);
    assert(queued);
    (void)queued;
    proc_resume(sim, p);
}

bool res_cancel(sim_t *sim, res_t *r, proc_t *p)
{
    if (!waitq_remove(&r->q, p))
        return false;
    timeavg_set(&r->queue, sim->now, r->q.n);
    return true;
}

double res_busy_time(const sim_t *sim, const res_t *r)
{
    return r->busy + (r->holder ? sim->now - r->busy_since : 0);
}

double res_utilization(const sim_t *sim, const res_t *r)
{
    double span = sim->now - r->queue.t0;
    return span > 0 ? res_busy_time(sim, r) / span : 0;
}
