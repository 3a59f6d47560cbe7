/* tests/mm1.h: an M/M/1 queue written with the process and resource API,
 * shared by tests/test_proc.c (checked against queueing theory) and
 * bench/bench_mm1.c (speed). Header-only on purpose: both programs compile
 * the same model.
 *
 * A source process creates customers at exponential intervals; a customer
 * requests the server, holds it for an exponential service time and
 * releases it. Customers are recycled through a free list, so the run
 * allocates nothing once the pool has grown to the largest population.
 */
#ifndef PNRSIM_TESTS_MM1_H
#define PNRSIM_TESTS_MM1_H

#include "core/proc.h"
#include "core/res.h"
#include "core/rng.h"
#include "core/stats.h"

#include <stdlib.h>

struct mm1;
struct mm1_cust {
    proc_t p;            /* first member: the process */
    struct mm1 *m;
    double arrival;
    struct mm1_cust *next_free;
};

struct mm1 {
    proc_t source;
    res_t server;
    rng_t *arr_rng, *svc_rng;
    double mean_iat, mean_svc;
    long customers, created, warmup;
    tally_t wait;        /* waiting time in queue, after warm-up */
    struct mm1_cust *free;
    struct mm1_cust **all;
    long nall, capall;
};

static void mm1_customer(sim_t *sim, proc_t *p)
{
    struct mm1_cust *c = (struct mm1_cust *)p;
    struct mm1 *m = c->m;
    PROC_BEGIN(p);
    c->arrival = sim->now;
    PROC_REQUEST(sim, p, &m->server);
    if (m->created > m->warmup)
        tally_add(&m->wait, sim->now - c->arrival);
    PROC_HOLD(sim, p, rng_exp(m->svc_rng, m->mean_svc));
    res_release(sim, &m->server, p);
    c->next_free = m->free;
    m->free = c;
    PROC_END(sim, p);
}

static void mm1_source(sim_t *sim, proc_t *p)
{
    struct mm1 *m = (struct mm1 *)p; /* source is the first member */
    PROC_BEGIN(p);
    while (m->created < m->customers) {
        PROC_HOLD(sim, p, rng_exp(m->arr_rng, m->mean_iat));
        {
            struct mm1_cust *c = m->free;
            if (c) {
                m->free = c->next_free;
            } else {
                c = calloc(1, sizeof *c);
                c->m = m;
                proc_init(sim, &c->p, mm1_customer);
                if (m->nall == m->capall) {
                    m->capall = m->capall ? 2 * m->capall : 64;
                    m->all = realloc(m->all, m->capall * sizeof *m->all);
                }
                m->all[m->nall++] = c;
            }
            m->created++;
            proc_start(sim, &c->p, 0);
        }
    }
    PROC_END(sim, p);
}

/* Set up an M/M/1 with arrival rate lambda and service rate mu for n
 * customers, ignoring the waits of the first `warmup` in the tally. */
static void mm1_init(sim_t *sim, struct mm1 *m, double lambda, double mu,
                     long n, long warmup, uint64_t seed)
{
    m->mean_iat = 1 / lambda;
    m->mean_svc = 1 / mu;
    m->customers = n;
    m->created = 0;
    m->warmup = warmup;
    m->arr_rng = rng_stream(seed, "arrivals", 0);
    m->svc_rng = rng_stream(seed, "service", 0);
    m->free = NULL;
    m->all = NULL;
    m->nall = m->capall = 0;
    tally_init(&m->wait);
    res_init(sim, &m->server, "server");
    proc_init(sim, &m->source, mm1_source);
    proc_start(sim, &m->source, 0);
}

static void mm1_free(sim_t *sim, struct mm1 *m)
{
    for (long i = 0; i < m->nall; i++) {
        proc_destroy(sim, &m->all[i]->p);
        free(m->all[i]);
    }
    free(m->all);
    proc_destroy(sim, &m->source);
    rng_free(m->arr_rng);
    rng_free(m->svc_rng);
}

#endif
