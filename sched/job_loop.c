/* sched/job_loop.c: load imbalance and loop scheduling inside a job (see
 * job_loop.h; docs/MODEL.md "Load imbalance inside jobs").
 *
 * The chunk rules, R the iterations left, p the threads, N = n p:
 *   STATIC  thread i takes iterations [i n, (i + 1) n) once;
 *   SS      1 (Tang and Yew 1986, "pure self-scheduling");
 *   GSS     ceil(R / p) (Polychronopoulos and Kuck 1987);
 *   FAC     batches of p ceil(R_b / (2 p)) iterations, R_b those left when
 *           the batch began, in chunks of ceil(R_b / (2 p)) (Hummel,
 *           Schonberg and Flynn 1992, the practical FAC2);
 *   WF      FAC's batches, thread i's chunk floor(w_i ceil(R_b / (2 p))),
 *           w_i its node's speed relative to the job's mean (Flynn Hummel
 *           et al. 1996), at most what is left of the batch;
 *   AWF     WF with weights measured: from the second interval on, w_i in
 *           proportion to the iterations per second thread i achieved in the
 *           last interval (Banicescu, Velusamy and Devaprasad 2003); the
 *           first interval has equal weights.
 * Every chunk is at least 1 and at most R. Ties between threads asking at
 * the same instant go in event order (thread order after a barrier). The
 * batch and weight arithmetic follows DLS4LB's GetChunkSize (Carino and
 * Banicescu 2007, Mohammed 2018; docs/SOURCES.md), without its merging of
 * a batch's last single iteration into the chunk before.
 */
#include "sched/job_loop.h"
#include "sched/job_clock.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- draws ------------------------------------------------------------------ */

/* A standard normal (Marsaglia's polar method; the second value dropped,
 * so a draw depends on nothing kept). */
static double loop_normal(rng_t *r)
{
    for (;;) {
        double u = 2 * rng_uniform01(r) - 1, v = 2 * rng_uniform01(r) - 1;
        double s = u * u + v * v;
        if (s > 0 && s < 1)
            return u * sqrt(-2 * log(s) / s);
    }
}

/* Gamma of shape a >= 1, scale 1 (Marsaglia and Tsang, "A simple method
 * for generating gamma variables", ACM TOMS 26(3), 2000). */
static double loop_gamma_ge1(rng_t *r, double a)
{
    const double d = a - 1.0 / 3, c = 1 / sqrt(9 * d);
    for (;;) {
        double x = loop_normal(r), v = 1 + c * x;
        if (v <= 0)
            continue;
        v = v * v * v;
        double u = rng_uniform01(r);
        if (u < 1 - 0.0331 * x * x * x * x)
            return d * v;
        if (log(u) < 0.5 * x * x + d * (1 - v + log(v)))
            return d * v;
    }
}

/* The logarithm of a gamma draw of shape a, scale 1: for a < 1, log G(a + 1)
 * + log(U) / a (G(a) = G(a + 1) U^(1/a), the same paper, section 6), which
 * stays finite at shapes so small that the draw itself would underflow. */
static double loop_log_gamma(rng_t *r, double a)
{
    if (a >= 1)
        return log(loop_gamma_ge1(r, a));
    double g = loop_gamma_ge1(r, a + 1);
    double u = rng_uniform01(r);
    return log(g) + (u > 0 ? log(u) / a : -INFINITY);
}

double loop_gamma(rng_t *r, double mean, double cv)
{
    const double a = 1 / (cv * cv), scale = mean * cv * cv;
    if (a >= 1)
        return loop_gamma_ge1(r, a) * scale;
    return exp(loop_log_gamma(r, a)) * scale;
}

/* ---- the job's state ---------------------------------------------------------- */

void loop_attach(job_t *j)
{
    const cluster_t *cl = j->cl;
    assert(!j->loop && cl->loop_sched != LOOP_NONE && j->cpu > 0);
    long n = cl->loop_n > 0 ? cl->loop_n : 1;
    long N = n * j->threads;
    size_t doubles = (size_t)N + 1 + 2 * (size_t)j->threads;
    job_loop *L = malloc(sizeof *L + doubles * sizeof(double));
    if (!L) { /* a configuration too large for this machine: say which */
        fprintf(stderr, "pnrsim: process.loop_iterations = %ld: job %ld of %d threads needs "
                "%.0f MB for its iterations' demands, more than can be allocated\n",
                n, j->id, j->threads, (double)doubles * sizeof(double) / 1048576.0);
        exit(2);
    }
    *L = (job_loop){.n = n, .N = N};
    L->P = (double *)(L + 1);
    L->w = L->P + N + 1;
    L->rate = L->w + j->threads;
    /* WF: the nodes' speeds relative to their mean; AWF starts equal. */
    double sum = 0;
    for (int i = 0; i < j->threads; i++)
        sum += cl->loop_sched == LOOP_WF ? cl->pes[cluster_node_id(cl, j->pe_ids[i])].speed : 1;
    for (int i = 0; i < j->threads; i++) {
        double s = cl->loop_sched == LOOP_WF ? cl->pes[cluster_node_id(cl, j->pe_ids[i])].speed : 1;
        L->w[i] = s * j->threads / sum;
        L->rate[i] = 0;
    }
    j->loop = L;
}

void loop_free(job_t *j)
{
    free(j->loop);
    j->loop = NULL;
}

/* AWF: the weights from the last interval's rates, when every thread has
 * one (else they stay). */
static void awf_reweigh(job_t *j)
{
    job_loop *L = j->loop;
    double sum = 0;
    for (int i = 0; i < j->threads; i++) {
        if (!(L->rate[i] > 0))
            return;
        sum += L->rate[i];
    }
    for (int i = 0; i < j->threads; i++)
        L->w[i] = L->rate[i] * j->threads / sum;
}

/* Set up interval k (th the first of its job to begin it). */
static void interval_setup(thread_t *th, long k)
{
    job_t *j = th->job;
    cluster_t *cl = j->cl;
    job_loop *L = j->loop;
    double start = L->k ? L->nom_end : 0;
    L->k = k;
    L->nom_start = start;
    if (start >= j->cpu) {
        L->over = true; /* the last barrier was at the demand's end */
        return;
    }
    /* Its end: the next synchronisation point, drawn where today's model
     * draws it (th->loop_next), or the demand's end. */
    L->barrier = th->loop_next <= j->cpu;
    L->nom_end = L->barrier ? th->loop_next : j->cpu;
    L->next = 0;
    L->batch_left = 0;
    L->P[0] = 0;
    double sum = 0;
    if (cl->imbalance > 0) {
        /* N draws from the stream of th's PE, normalised to sum N. The
         * iterations' CV is imbalance x sqrt(n), so that a thread's n
         * (its STATIC share, a gamma of shape 1 / imbalance^2) have the
         * CV imbalance: the "CV of thread demand". Logarithms,
         * scaled by the largest before exp: no underflow at tiny shapes
         * (the scale cancels in the normalisation). */
        rng_t *r = rng_set_get(&cl->imb_rng, (size_t)th->pe->id);
        const double cv = cl->imbalance * sqrt((double)L->n), a = 1 / (cv * cv);
        double top = -INFINITY;
        for (long m = 0; m < L->N; m++) {
            double y = loop_log_gamma(r, a);
            L->P[m + 1] = y;
            if (y > top)
                top = y;
        }
        for (long m = 0; m < L->N && top > -INFINITY; m++)
            sum += (L->P[m + 1] = exp(L->P[m + 1] - top));
    }
    if (sum > 0) {
        double f = (double)L->N / sum;
        for (long m = 0; m < L->N; m++)
            L->P[m + 1] = L->P[m] + L->P[m + 1] * f;
    } else { /* no imbalance (or, at shapes near 0, every draw 0: equal) */
        for (long m = 0; m < L->N; m++)
            L->P[m + 1] = (double)(m + 1); /* exact integers */
    }
    if (cl->loop_sched == LOOP_AWF && k > 1) {
        awf_reweigh(j);
        for (int i = 0; i < j->threads; i++)
            L->rate[i] = 0; /* each interval's own */
    }
}

int loop_begin(sim_t *sim, thread_t *th)
{
    job_t *j = th->job;
    job_loop *L = j->loop;
    if (L->k < th->sync_k)
        interval_setup(th, th->sync_k);
    assert(L->k == th->sync_k);
    if (L->over)
        return LOOP_END;
    th->loop_lag = th->cpu_done - L->nom_start;
    th->loop_acc = 0;
    th->loop_iters = 0;
    th->loop_t0 = sim->now;
    th->loop_taken = false;
    return loop_take(sim, th);
}

/* The size of th's next chunk, R > 0 left. */
static long chunk_size(thread_t *th, long R)
{
    job_t *j = th->job;
    job_loop *L = j->loop;
    const long p = j->threads;
    long c;
    switch (j->cl->loop_sched) {
    case LOOP_SS:
        c = 1;
        break;
    case LOOP_GSS:
        c = (R + p - 1) / p;
        break;
    case LOOP_FAC:
    case LOOP_WF:
    case LOOP_AWF:
        if (L->batch_left == 0) {
            /* A new batch: p chunks of ceil(R / (2p)), counted in iterations */
            L->batch_R = (R + 2 * p - 1) / (2 * p);
            L->batch_left = p * L->batch_R < R ? p * L->batch_R : R;
        }
        if (j->cl->loop_sched == LOOP_FAC)
            c = L->batch_R;
        else
            c = (long)(L->w[th->idx] * (double)L->batch_R); /* truncated, as DLS4LB */
        if (c < 1)
            c = 1;
        if (c > L->batch_left)
            c = L->batch_left;
        L->batch_left -= c;
        break;
    default:
        assert(0);
        c = 1;
    }
    if (c < 1)
        c = 1;
    return c < R ? c : R;
}

int loop_take(sim_t *sim, thread_t *th)
{
    job_t *j = th->job;
    cluster_t *cl = j->cl;
    job_loop *L = j->loop;
    long a, b;
    if (cl->loop_sched == LOOP_STATIC) {
        a = th->idx * L->n;
        b = th->loop_taken ? a : a + L->n;
        th->loop_taken = true;
    } else {
        long R = L->N - L->next;
        a = L->next;
        b = R > 0 ? a + chunk_size(th, R) : a;
        L->next = b;
    }
    if (b == a) {
        /* Nothing left for th: AWF records its rate over the interval. */
        double t = sim->now - th->loop_t0;
        L->rate[th->idx] = t > 0 ? (double)th->loop_iters / t : 0;
        return L->barrier ? LOOP_BARRIER : LOOP_END;
    }
    const double S = L->nom_end - L->nom_start;
    th->loop_iters += b - a;
    th->loop_acc += cl->chunk_overhead + S * ((L->P[b] - L->P[a]) / (double)L->n);
    th->sync_at = L->nom_end + th->loop_lag + (th->loop_acc - S);
    cl->loop_chunks++;
    return LOOP_MORE;
}
