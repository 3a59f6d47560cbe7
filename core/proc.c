/* core/proc.c: stackless processes on top of the event kernel (proc.h). */
#include "core/proc.h"

#include <assert.h>
#include <math.h>

/* The event callback of every process: re-enter its body. */
static void proc_dispatch(sim_t *sim, void *arg)
{
    proc_t *p = arg;
    p->state = PROC_RUNNING;
    p->body(sim, p);
    /* A body that returned without scheduling anything, queueing itself or
     * finishing is waiting for someone to wake it. */
    if (p->state == PROC_RUNNING)
        p->state = PROC_WAITING;
}

void proc_init(sim_t *sim, proc_t *p, proc_body body)
{
    p->body = body;
    p->ev = ev_new(sim, proc_dispatch, p);
    p->pc = 0;
    p->state = PROC_IDLE;
    p->wake_at = 0;
    p->remaining = 0;
    p->sig = PROC_OK;
    list_init(&p->qlink);
}

void proc_destroy(sim_t *sim, proc_t *p)
{
    if (p->ev != EV_NONE)
        ev_free(sim, p->ev);
    p->ev = EV_NONE;
    p->state = PROC_IDLE;
}

void proc_start(sim_t *sim, proc_t *p, double delay)
{
    p->pc = 0;
    p->state = PROC_READY;
    ev_after(sim, p->ev, delay);
}

void proc_wake(sim_t *sim, proc_t *p)
{
    p->state = PROC_READY;
    p->sig = PROC_OK;
    ev_at(sim, p->ev, sim->now);
}

void proc_hold_until(sim_t *sim, proc_t *p, double t)
{
    assert(t >= sim->now && !isnan(t));
    p->state = PROC_HOLDING;
    p->sig = PROC_OK;
    p->wake_at = t;
    ev_at(sim, p->ev, t);
}

void proc_hold(sim_t *sim, proc_t *p, double dt)
{
    assert(dt >= 0 && !isnan(dt));
    proc_hold_until(sim, p, sim->now + dt);
}

void proc_rehold(sim_t *sim, proc_t *p, double dt)
{
    assert(dt >= 0 && !isnan(dt));
    if (p->state == PROC_SUSPENDED)
        p->remaining = dt;
    else
        proc_hold(sim, p, dt);
}

void proc_cancel(sim_t *sim, proc_t *p)
{
    assert(p->state != PROC_RUNNING);
    assert(!list_linked(&p->qlink));
    ev_cancel(sim, p->ev); /* nothing when no wake-up is pending */
    p->state = PROC_IDLE;
}

/* Cancel a holding p's wake-up and keep the hold time it still had. */
static void hold_cut(sim_t *sim, proc_t *p)
{
    ev_cancel(sim, p->ev);
    p->remaining = p->wake_at - sim->now;
    if (p->remaining < 0)
        p->remaining = 0;
}

bool proc_interrupt(sim_t *sim, proc_t *p, int sig)
{
    assert(sig != PROC_OK);
    if (p->state != PROC_HOLDING)
        return false;
    hold_cut(sim, p);
    p->state = PROC_READY;
    p->sig = sig;
    ev_at(sim, p->ev, sim->now);
    return true;
}

bool proc_suspend(sim_t *sim, proc_t *p)
{
    if (p->state != PROC_HOLDING)
        return false;
    hold_cut(sim, p);
    p->state = PROC_SUSPENDED;
    return true;
}

void proc_resume(sim_t *sim, proc_t *p)
{
    assert(p->state == PROC_SUSPENDED);
    p->state = PROC_HOLDING;
    p->sig = PROC_OK;
    p->wake_at = sim->now + p->remaining;
    p->remaining = 0;
    ev_at(sim, p->ev, p->wake_at);
}

double proc_hold_left(const sim_t *sim, const proc_t *p)
{
    if (p->state == PROC_HOLDING)
        return p->wake_at - sim->now;
    if (p->state == PROC_SUSPENDED || p->sig != PROC_OK)
        return p->remaining;
    return 0;
}
