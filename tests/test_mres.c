/* tests/test_mres.c: multi-server resources (core/mres.h), the SSD's
 * queue (computer.swap = SSD): a burst of requests on c servers follows
 * the sample path worked out by hand (FIFO, ceil(i/c) * s), the busy time
 * and busy server-seconds are those of that path, and a Poisson stream
 * agrees with queueing theory: M/D/1 with the Pollaczek-Khinchine mean
 * wait, M/M/2 with Erlang C (the c-server queue with an independent
 * formula), M/M/1 and M/D/4 utilisation = rho. */
#include "core/mres.h"
#include "core/rng.h"
#include "tests/testutil.h"

#include <gsl/gsl_cdf.h>

/* ---- a burst at t = 0 -------------------------------------------------- */
struct job {
    proc_t p;
    mres_t *r;
    double s;
    double start, end;   /* when served, when done */
};

static void job_body(sim_t *sim, proc_t *p)
{
    struct job *j = (struct job *)p;
    PROC_BEGIN(p);
    PROC_MREQUEST(sim, p, j->r);
    j->start = sim->now;
    PROC_HOLD(sim, p, j->s);
    mres_release(sim, j->r);
    j->end = sim->now;
    PROC_END(sim, p);
}

/* k requests at t = 0, in order 1..k, on c servers, service s each. */
static void burst(int k, int c, double s)
{
    sim_t sim;
    ev_init(&sim);
    mres_t r;
    mres_init(&sim, &r, "ssd", c);
    struct job j[16];
    ck_assert_int_le(k, 16);
    for (int i = 0; i < k; i++) {
        j[i].r = &r;
        j[i].s = s;
        j[i].start = j[i].end = -1;
        proc_init(&sim, &j[i].p, job_body);
        proc_start(&sim, &j[i].p, 0);
    }
    /* At t = 0 every request has arrived: min(k, c) in service, the rest
     * queued (M/D/c sample path). */
    ev_run(&sim, 0);
    ck_assert_int_eq(r.nbusy, k < c ? k : c);
    ck_assert_int_eq((int)r.q.n, k > c ? k - c : 0);
    ev_run(&sim, INFINITY);
    for (int i = 1; i <= k; i++) {
        /* Request i (1-based) is in batch ceil(i/c): it waits
         * (ceil(i/c) - 1) s and ends at ceil(i/c) s. */
        int batch = (i + c - 1) / c;
        ck_assert_double_eq_tol(j[i - 1].start, (batch - 1) * s, 1e-12);
        ck_assert_double_eq_tol(j[i - 1].end, batch * s, 1e-12);
    }
    int batches = (k + c - 1) / c;
    /* Busy: some server busy from 0 to the last end, batches * s;
     * server-seconds: every request's service, k * s; utilisation:
     * k s / (c * batches s); the queue peaked at k - c. */
    ck_assert_double_eq_tol(mres_busy_time(&sim, &r), batches * s, 1e-12);
    ck_assert_double_eq_tol(mres_server_time(&sim, &r), k * s, 1e-12);
    ck_assert_double_eq_tol(mres_utilization(&sim, &r), (double)k / (c * batches), 1e-12);
    ck_assert_double_eq_tol(mres_mean_busy(&sim, &r), (double)k / batches, 1e-12);
    ck_assert_double_eq(r.queue.max, (double)(k > c ? k - c : 0));
    ck_assert_uint_eq(r.requests, (uint64_t)k);
    ck_assert_uint_eq(r.completions, (uint64_t)k);
    ck_assert_int_eq(r.nbusy, 0);
    for (int i = 0; i < k; i++)
        proc_destroy(&sim, &j[i].p);
    ck_assert_uint_eq(sim.live_records, 0);
    ev_destroy(&sim);
}

/* 7 requests on 3 servers, s = 2: ends 2,2,2,4,4,4,6; waits 0,0,0,2,2,2,4;
 * busy 6 s, 14 server-seconds, utilisation 14/18. */
START_TEST(test_burst_7_on_3) { burst(7, 3, 2.0); }
END_TEST
/* More than the parallelism by one, and a multiple of it: 5 on 4 (ends
 * 1,1,1,1,2) and 8 on 2 (ends 1,1,2,2,3,3,4,4), s = 1; fewer than c: 3 on
 * 8 (all end at 1, busy 1 s, 3 server-seconds); c = 1: 4 on 1 (1,2,3,4). */
START_TEST(test_burst_other) {
    burst(5, 4, 1.0);
    burst(8, 2, 1.0);
    burst(3, 8, 1.0);
    burst(4, 1, 1.0);
}
END_TEST

/* A server given back while others wait passes to the longest waiter at
 * that instant: a second burst at t = 1.5 on c = 2 with s = 1 (two
 * requests at 0, three at 1.5) ends 1, 1, 2.5, 2.5, 3.5 and the servers
 * idle over [1, 1.5): busy 1 + 2 = 3 s, server-seconds 5. */
START_TEST(test_idle_gap)
{
    sim_t sim;
    ev_init(&sim);
    mres_t r;
    mres_init(&sim, &r, "ssd", 2);
    struct job j[5];
    for (int i = 0; i < 5; i++) {
        j[i].r = &r;
        j[i].s = 1;
        proc_init(&sim, &j[i].p, job_body);
        proc_start(&sim, &j[i].p, i < 2 ? 0 : 1.5);
    }
    ev_run(&sim, INFINITY);
    const double want[5] = {1, 1, 2.5, 2.5, 3.5};
    for (int i = 0; i < 5; i++)
        ck_assert_double_eq_tol(j[i].end, want[i], 1e-12);
    ck_assert_double_eq_tol(mres_busy_time(&sim, &r), 3, 1e-12);
    ck_assert_double_eq_tol(mres_server_time(&sim, &r), 5, 1e-12);
    for (int i = 0; i < 5; i++)
        proc_destroy(&sim, &j[i].p);
    ev_destroy(&sim);
}
END_TEST

/* ---- Poisson arrivals against theory ------------------------------------ */
struct cust;
struct station {
    proc_t source;
    mres_t r;
    rng_t *arr_rng, *svc_rng;
    double mean_iat, svc;
    bool exp_svc;            /* exponential service of mean svc, or exactly svc */
    long customers, created, warmup;
    tally_t wait;            /* waits in queue, after the warm-up */
    struct cust *free;
    struct cust **all;
    long nall, capall;
};
struct cust {
    proc_t p;
    struct station *m;
    double arrival;
    struct cust *next_free;
};

static void cust_body(sim_t *sim, proc_t *p)
{
    struct cust *c = (struct cust *)p;
    struct station *m = c->m;
    PROC_BEGIN(p);
    c->arrival = sim->now;
    PROC_MREQUEST(sim, p, &m->r);
    if (m->created > m->warmup)
        tally_add(&m->wait, sim->now - c->arrival);
    PROC_HOLD(sim, p, m->exp_svc ? rng_exp(m->svc_rng, m->svc) : m->svc);
    mres_release(sim, &m->r);
    c->next_free = m->free;
    m->free = c;
    PROC_END(sim, p);
}

static void source_body(sim_t *sim, proc_t *p)
{
    struct station *m = (struct station *)p;
    PROC_BEGIN(p);
    while (m->created < m->customers) {
        PROC_HOLD(sim, p, rng_exp(m->arr_rng, m->mean_iat));
        {
            struct cust *c = m->free;
            if (c) {
                m->free = c->next_free;
            } else {
                c = calloc(1, sizeof *c);
                c->m = m;
                proc_init(sim, &c->p, cust_body);
                if (m->nall == m->capall) {
                    m->capall = m->capall ? 2 * m->capall : 64;
                    m->all = realloc(m->all, (size_t)m->capall * sizeof *m->all);
                }
                m->all[m->nall++] = c;
            }
            m->created++;
            proc_start(sim, &c->p, 0);
        }
    }
    PROC_END(sim, p);
}

/* R replications of n customers (10% warm-up) of Poisson(lambda)
 * arrivals on c servers of service svc (exponential or deterministic):
 * the theoretical mean wait wq must lie in the Student-t 99.9% interval
 * of the R means, which must be narrower than 6% of wq (so a wrong model
 * fails); the utilisation must be lambda svc / c. */
static void check_station(int c, double lambda, double svc, bool exp_svc, double wq, long n,
                          int reps)
{
    tally_t means, utils;
    tally_init(&means);
    tally_init(&utils);
    for (int k = 0; k < reps; k++) {
        sim_t sim;
        ev_init(&sim);
        struct station m = {0};
        m.mean_iat = 1 / lambda;
        m.svc = svc;
        m.exp_svc = exp_svc;
        m.customers = n;
        m.warmup = n / 10;
        m.arr_rng = rng_stream(2000 + (uint64_t)k, "arrivals", 0);
        m.svc_rng = rng_stream(2000 + (uint64_t)k, "service", 0);
        tally_init(&m.wait);
        mres_init(&sim, &m.r, "station", c);
        proc_init(&sim, &m.source, source_body);
        proc_start(&sim, &m.source, 0);
        ev_run(&sim, INFINITY);
        tally_add(&means, m.wait.mean);
        tally_add(&utils, mres_utilization(&sim, &m.r));
        ck_assert_uint_eq(m.r.completions, (uint64_t)n);
        /* Allocation: the customer pool only, bounded by the largest
         * population, not by n. */
        ck_assert_int_lt(m.nall, n / 100);
        for (long i = 0; i < m.nall; i++) {
            proc_destroy(&sim, &m.all[i]->p);
            free(m.all[i]);
        }
        free(m.all);
        proc_destroy(&sim, &m.source);
        rng_free(m.arr_rng);
        rng_free(m.svc_rng);
        ck_assert_uint_eq(sim.live_records, 0);
        ev_destroy(&sim);
    }
    double t = gsl_cdf_tdist_Pinv(0.9995, reps - 1);
    double half = t * tally_sd(&means) / sqrt(reps);
    ck_assert_msg(fabs(means.mean - wq) <= half, "c %d: Wq %.4f +- %.4f, theory %.4f", c,
                  means.mean, half, wq);
    ck_assert_msg(half < 0.06 * wq, "c %d: interval %.4f too wide", c, half);
    double rho = lambda * svc / c;
    double uhalf = t * tally_sd(&utils) / sqrt(reps);
    ck_assert_msg(fabs(utils.mean - rho) <= uhalf + 1e-3, "c %d: utilisation %.4f +- %.4f",
                  c, utils.mean, uhalf);
}

/* M/D/1, s = 1, lambda = 0.8: rho = 0.8, Pollaczek-Khinchine Wq =
 * rho s / (2 (1 - rho)) = 0.8 / 0.4 = 2.0 (half the M/M/1's 4.0). */
START_TEST(test_md1_pk) { check_station(1, 0.8, 1.0, false, 2.0, 200000, 20); }
END_TEST

/* M/M/2, mu = 1, lambda = 1.6: a = 1.6, rho = 0.8. Erlang C:
 * C = (a^2/2! / (1 - rho)) / (1 + a + a^2/2! / (1 - rho))
 *   = (1.28 / 0.2) / (2.6 + 6.4) = 6.4 / 9 = 0.71111;
 * Wq = C / (c mu - lambda) = 0.71111 / 0.4 = 1.77778. */
START_TEST(test_mm2_erlang_c) { check_station(2, 1.6, 1.0, true, 6.4 / 9.0 / 0.4, 200000, 20); }
END_TEST

/* M/M/1 through the c-server code with c = 1, rho = 0.5: Wq = rho / (mu -
 * lambda) = 1.0 (the same figure tests/test_proc.c checks on res_t). */
START_TEST(test_mm1_c1) { check_station(1, 0.5, 1.0, true, 1.0, 100000, 10); }
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("mres");
    TCase *tc = tcase_create("multi-server");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_burst_7_on_3);
    tcase_add_test(tc, test_burst_other);
    tcase_add_test(tc, test_idle_gap);
    tcase_add_test(tc, test_md1_pk);
    tcase_add_test(tc, test_mm2_erlang_c);
    tcase_add_test(tc, test_mm1_c1);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
