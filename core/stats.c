/* core/stats.c: tallies, time averages and the periodic sampler. */
#include "core/stats.h"

#include <assert.h>
#include <math.h>

void tally_init(tally_t *t)
{
    t->n = 0;
    t->mean = t->m2 = 0;
    t->min = INFINITY;
    t->max = -INFINITY;
}

void tally_add(tally_t *t, double x)
{
    /* Welford: mean and m2 (sum of squared deviations) stay exact enough
     * over millions of observations of very different magnitude. */
    t->n++;
    double d = x - t->mean;
    t->mean += d / (double)t->n;
    t->m2 += d * (x - t->mean);
    if (x < t->min)
        t->min = x;
    if (x > t->max)
        t->max = x;
}

double tally_var(const tally_t *t)
{
    return t->n < 2 ? 0.0 : t->m2 / (double)(t->n - 1);
}

double tally_sd(const tally_t *t)
{
    return sqrt(tally_var(t));
}

void timeavg_init(timeavg_t *a, double t, double v)
{
    a->t0 = a->last_t = t;
    a->value = v;
    a->area = 0;
    a->max = v;
}

void timeavg_set(timeavg_t *a, double t, double v)
{
    assert(t >= a->last_t);
    a->area += a->value * (t - a->last_t);
    a->last_t = t;
    a->value = v;
    if (v > a->max)
        a->max = v;
}

void timeavg_add(timeavg_t *a, double t, double dv)
{
    timeavg_set(a, t, a->value + dv);
}

double timeavg_area(const timeavg_t *a, double t)
{
    return a->area + a->value * (t - a->last_t);
}

double timeavg_mean(const timeavg_t *a, double t)
{
    double span = t - a->t0;
    return span > 0 ? timeavg_area(a, t) / span : a->value;
}

static void sampler_fire(sim_t *sim, void *arg)
{
    sampler_t *s = arg;
    s->k++;
    s->fn(sim, s->arg);
    ev_at_prio(sim, s->ev, s->period * (double)(s->k + 1), EV_PRIO_LAST);
}

void sampler_start(sim_t *sim, sampler_t *s, double period, sampler_fn fn, void *arg)
{
    assert(period > 0);
    s->period = period;
    s->k = (uint64_t)floor(sim->now / period);
    s->fn = fn;
    s->arg = arg;
    s->ev = ev_new(sim, sampler_fire, s);
    ev_set_daemon(sim, s->ev);
    ev_at_prio(sim, s->ev, period * (double)(s->k + 1), EV_PRIO_LAST);
}

void sampler_skip_before(sampler_t *s, double t)
{
    if (!(t < INFINITY) || !(t / s->period < 9e15))
        return;
    /* The largest kk with kk * period < t; the next call is at kk. */
    uint64_t kk = (uint64_t)ceil(t / s->period);
    while (kk > 0 && s->period * (double)kk >= t)
        kk--;
    if (kk > s->k + 1)
        s->k = kk - 1;
}

void sampler_stop(sim_t *sim, sampler_t *s)
{
    if (s->ev != EV_NONE)
        ev_free(sim, s->ev);
    s->ev = EV_NONE;
}
