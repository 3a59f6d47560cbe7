/* core/mres.c: multi-server FIFO resources (see mres.h). */
#include "core/mres.h"

#include <assert.h>

void mres_init(sim_t *sim, mres_t *r, const char *name, int c)
{
    assert(c >= 1);
    r->name = name;
    r->c = c;
    r->nbusy = 0;
    waitq_init(&r->q);
    r->busy_since = 0;
    r->busy = 0;
    r->requests = r->completions = 0;
    timeavg_init(&r->inuse, sim->now, 0);
    timeavg_init(&r->queue, sim->now, 0);
}

bool mres_request(sim_t *sim, mres_t *r, proc_t *p)
{
    r->requests++;
    if (r->nbusy < r->c) {
        if (r->nbusy == 0)
            r->busy_since = sim->now;
        r->nbusy++;
        timeavg_set(&r->inuse, sim->now, r->nbusy);
        return true;
    }
    waitq_wait(sim, &r->q, p);
    timeavg_set(&r->queue, sim->now, r->q.n);
    return false;
}

void mres_release(sim_t *sim, mres_t *r)
{
    assert(r->nbusy > 0);
    r->completions++;
    proc_t *next = waitq_pop(&r->q);
    if (next) {
        /* The server passes straight to the longest waiter: nbusy stays. */
        timeavg_set(&r->queue, sim->now, r->q.n);
        proc_wake(sim, next);
        return;
    }
    r->nbusy--;
    timeavg_set(&r->inuse, sim->now, r->nbusy);
    if (r->nbusy == 0)
        r->busy += sim->now - r->busy_since;
}

bool mres_cancel(sim_t *sim, mres_t *r, proc_t *p)
{
    if (!waitq_remove(&r->q, p))
        return false;
    timeavg_set(&r->queue, sim->now, r->q.n);
    return true;
}

void mres_account(mres_t *r, uint64_t n, double busy)
{
    assert(r->nbusy == 0 && r->q.n == 0 && busy >= 0);
    if (n == 0)
        return;
    r->requests += n;
    r->completions += n;
    r->busy += busy;
    r->inuse.area += busy; /* each at 1 busy server, in the past */
    if (r->inuse.max < 1)
        r->inuse.max = 1;
}

void mres_account_beside(mres_t *r, uint64_t n, double area)
{
    assert(r->nbusy == 0 && r->q.n == 0 && r->c >= 2 && area >= 0);
    if (n == 0)
        return;
    r->requests += n;
    r->completions += n;
    r->inuse.area += area;
    if (r->inuse.max < 2)
        r->inuse.max = 2;
}

void mres_take_since(sim_t *sim, mres_t *r, double since)
{
    assert(r->nbusy < r->c && r->q.n == 0 && since <= sim->now);
    assert(r->nbusy == 0 || since >= r->busy_since);
    r->requests++;
    if (r->nbusy == 0)
        r->busy_since = since;
    r->nbusy++;
    timeavg_set(&r->inuse, sim->now, r->nbusy);
    r->inuse.area += sim->now - since;
}

double mres_busy_time(const sim_t *sim, const mres_t *r)
{
    return r->busy + (r->nbusy > 0 ? sim->now - r->busy_since : 0);
}

double mres_server_time(const sim_t *sim, const mres_t *r)
{
    return timeavg_area(&r->inuse, sim->now);
}

double mres_mean_busy(const sim_t *sim, const mres_t *r)
{
    return sim->now > r->inuse.t0 ? mres_server_time(sim, r) / (sim->now - r->inuse.t0) : 0;
}

double mres_utilization(const sim_t *sim, const mres_t *r)
{
    return mres_mean_busy(sim, r) / r->c;
}
