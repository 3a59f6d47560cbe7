/* gen/model.c: the Lublin-Feitelson 2003 model, Tsafrir-style requested
 * times, and memory per process.
 *
 * Sizes, runtimes and arrivals follow m_lublin99.c (the authors' program;
 * docs/SOURCES.md) with its "typeless" class: a job is serial with
 * probability serial_prob; otherwise par ~ two-stage uniform on
 * [ulow, umed] (probability uprob) or [umed, uhi], rounded to an integer
 * for a power-of-two job (probability pow2_prob), and size = round(2^par).
 * ln(runtime) ~ hyper-gamma: gamma(a1, b1) with probability
 * p = pa * size + pb (clamped to [0, 1]), else gamma(a2, b2), redrawn above
 * rt_max_log; runtime = trunc(exp(.)). Arrivals: a draw g ~ gamma(aarr,
 * barr) (redrawn above arr_max_log) buys exp(g) / 1800 "points", and time
 * advances through half-hour buckets, each costing its daily weight (mean
 * 1), the remainder carried as Lublin's does. Requested times: among the
 * modes at least the runtime, one drawn with probability proportional to
 * its weight; none (a runtime above every mode) -> the runtime itself.
 * Memory per process: ln(KB) = mu + slope x ln(size) + N(0, sigma).
 */
#include "gen/model.h"

#include "core/rng.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

enum { S_ARR, S_SIZE, S_RUN, S_EST, S_MEM, S_N };
static const char *const SNAME[S_N] = { "gen.arrival", "gen.size", "gen.runtime",
                                        "gen.estimate", "gen.memory" };

struct gen_model {
    gen_params p;
    gsl_rng *r[S_N];
    int bucket;           /* current half hour of the day */
    double points, rem;   /* Lublin's points and reminder */
    double t;             /* next arrival, s */
    long mem_clamped;     /* memory draws outside [1, 1e12] KB, written at the bound */
};

long gen_model_mem_clamped(const gen_model *g) { return g->mem_clamped; }

static void next_arrival(gen_model *g)
{
    const double B = 86400.0 / GEN_BUCKETS;
    double x;
    do
        x = gsl_ran_gamma(g->r[S_ARR], g->p.aarr, g->p.barr);
    while (x > g->p.arr_max_log);
    g->points += exp(x) / B;
    double dt = 0;
    while (g->points > g->p.weights[g->bucket]) {
        g->points -= g->p.weights[g->bucket];
        g->bucket = (g->bucket + 1) % GEN_BUCKETS;
        dt += B;
    }
    double rem = g->points / g->p.weights[g->bucket];
    dt += B * (rem - g->rem);
    g->rem = rem;
    g->t += dt;
}

gen_model *gen_model_new(const gen_params *p, uint64_t seed)
{
    gen_model *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->p = *p;
    for (int i = 0; i < S_N; i++) {
        g->r[i] = gsl_rng_alloc(gsl_rng_mt19937);
        if (!g->r[i]) {
            gen_model_free(g);
            return NULL;
        }
        gsl_rng_set(g->r[i], rng_stream_seed(seed, SNAME[i], 0));
    }
    next_arrival(g);      /* the first job's arrival, as Lublin's init */
    return g;
}

static long draw_size(gen_model *g)
{
    const gen_params *p = &g->p;
    gsl_rng *r = g->r[S_SIZE];
    double u = gsl_rng_uniform(r);
    if (u <= p->serial_prob)
        return 1;
    double lo = p->umed, hi = p->uhi;
    if (gsl_rng_uniform(r) <= p->uprob) {
        lo = p->ulow;
        hi = p->umed;
    }
    double par = lo + gsl_rng_uniform(r) * (hi - lo);
    if (u <= p->serial_prob + p->pow2_prob)
        par = floor(par + 0.5);
    long n = (long)(pow(2, par) + 0.5);
    if (n < 1)
        n = 1;
    if (n > p->procs)
        n = p->procs;
    return n;
}

static long draw_runtime(gen_model *g, long n)
{
    const gen_params *p = &g->p;
    gsl_rng *r = g->r[S_RUN];
    double pr = p->pa * (double)n + p->pb, x;
    pr = pr > 1 ? 1 : pr < 0 ? 0 : pr;
    do {
        bool first = gsl_rng_uniform(r) <= pr;
        x = first ? gsl_ran_gamma(r, p->a1, p->b1) : gsl_ran_gamma(r, p->a2, p->b2);
    } while (x > p->rt_max_log);
    long t = (long)exp(x);
    return t < 1 ? 1 : t;
}

static long draw_request(gen_model *g, long run)
{
    const gen_params *p = &g->p;
    double tot = 0;
    size_t first = p->nmodes;
    for (size_t i = p->nmodes; i-- > 0 && p->mode_s[i] >= (double)run;) {
        tot += p->mode_w[i];
        first = i;
    }
    double u = gsl_rng_uniform(g->r[S_EST]) * tot;
    if (first == p->nmodes)
        return run;
    for (size_t i = first; i < p->nmodes; i++) {
        if (u < p->mode_w[i])
            return (long)p->mode_s[i];
        u -= p->mode_w[i];
    }
    return (long)p->mode_s[p->nmodes - 1];
}

static long draw_mem(gen_model *g, long n)
{
    const gen_params *p = &g->p;
    if (!p->mem_on)
        return -1;
    double x = p->mem_mu + p->mem_slope * log((double)n)
             + gsl_ran_gaussian_ziggurat(g->r[S_MEM], p->mem_sigma);
    double kb = exp(x);
    if (kb < 1 || kb > 1e12) { /* SWF's range: counted, reported at the end */
        g->mem_clamped++;
        return kb < 1 ? 1 : (long)1e12;
    }
    return (long)(kb + 0.5);
}

void gen_model_next(gen_model *g, gen_job *j)
{
    j->submit = (long)g->t;
    /* p_same (beyond Lublin's model: a log's batches of submissions in
     * one second): the next job comes in the same second. */
    if (!(g->p.p_same > 0 && gsl_rng_uniform(g->r[S_ARR]) < g->p.p_same))
        next_arrival(g);
    j->procs = draw_size(g);
    j->runtime = draw_runtime(g, j->procs);
    j->request = draw_request(g, j->runtime);
    j->mem_kb = draw_mem(g, j->procs);
}

void gen_model_free(gen_model *g)
{
    if (!g)
        return;
    for (int i = 0; i < S_N; i++)
        gsl_rng_free(g->r[i]);
    free(g);
}
