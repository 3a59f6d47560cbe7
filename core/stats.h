/* core/stats.h: statistics collectors.
 *
 * tally_t    observations: count, mean and variance (Welford), min, max.
 * timeavg_t  a piecewise-constant quantity over simulated time (queue
 *            length, memory in use, MPL): time-weighted mean and maximum.
 * sampler_t  calls a function every `period` simulated seconds, at exact
 *            multiples of the period, for as long as model events remain
 *            (the function may skip multiples over an idle stretch).
 */
#ifndef PNRSIM_CORE_STATS_H
#define PNRSIM_CORE_STATS_H

#include "core/ev.h"

#include <stdint.h>

typedef struct tally {
    uint64_t n;
    double mean, m2, min, max;
} tally_t;

void tally_init(tally_t *t);
void tally_add(tally_t *t, double x);
/* Sample variance (n - 1 denominator); 0 when n < 2. */
double tally_var(const tally_t *t);
double tally_sd(const tally_t *t);

typedef struct timeavg {
    double t0;      /* start of observation */
    double last_t;  /* time of the last change */
    double value;   /* current value */
    double area;    /* integral of value over [t0, last_t] */
    double max;
} timeavg_t;

/* Start observing at time t with initial value v. */
void timeavg_init(timeavg_t *a, double t, double v);
/* The value becomes v at time t (t >= last change). */
void timeavg_set(timeavg_t *a, double t, double v);
/* Add dv to the value at time t. */
void timeavg_add(timeavg_t *a, double t, double dv);
/* Integral of the value over [t0, t]. */
double timeavg_area(const timeavg_t *a, double t);
/* Time-weighted mean over [t0, t]; the current value when t == t0. */
double timeavg_mean(const timeavg_t *a, double t);

typedef void (*sampler_fn)(sim_t *sim, void *arg);
typedef struct sampler {
    double period;
    uint64_t k;       /* samples taken */
    ev_id ev;
    sampler_fn fn;
    void *arg;
} sampler_t;

/* Call fn(sim, arg) at times period, 2*period, ... The sampler's event is a
 * daemon (ev_set_daemon): it never keeps a finished simulation alive, and
 * no sample is taken after the last model event. */
void sampler_start(sim_t *sim, sampler_t *s, double period, sampler_fn fn, void *arg);
/* Called from fn: make the next call come at the last multiple of the
 * period strictly before t, skipping the multiples before it, when that is
 * later than the normal next call (an idle stretch until a model event at
 * t). s->k then counts the multiples passed, called or not. */
void sampler_skip_before(sampler_t *s, double t);
void sampler_stop(sim_t *sim, sampler_t *s);

#endif
