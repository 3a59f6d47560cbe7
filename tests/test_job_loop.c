/* tests/test_job_loop.c: load imbalance and loop scheduling inside jobs
 * (issue 36 item 2, sched/job_loop.h, docs/MODEL.md "Load imbalance inside
 * jobs"), on the hand-built world of tests/fixture_job.h: no messages, no
 * synchronisation (so a job is one interval and its run time is that
 * interval's makespan) unless a case says otherwise.
 *
 *  - hand-worked chunk sequences with equal iterations (imbalance 0) and a
 *    chunk overhead h: GSS, FAC, SS and STATIC on 4 threads and 100
 *    iterations (the arithmetic in each case's comment);
 *  - the expected makespan of STATIC and of SS on k = 4 threads with
 *    exponential iteration demands (imbalance 1), over many intervals,
 *    against independent computations: STATIC's from the gamma
 *    distribution's CDF by numerical integration (GSL), SS's from a Monte
 *    Carlo of greedy self-scheduling written here, with GSL's generator;
 *  - a thread that pages falls behind and a dynamic schedule gives its
 *    work to the other thread; STATIC waits for it;
 *  - STATIC with imbalance 0 and no overhead is the report's model event
 *    for event (whole runs with synchronisation, messages and paging, in
 *    tests/test_job_loop.sh against NONE; here the per-thread ends).
 */
#include "sched/job_loop.h"
#include "tests/fixture_job.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

/* A world of npes PEs with loop schedule s, overhead h, n iterations per
 * thread, imbalance c. */
static void loop_world(world *w, int npes, sched_loop s, double h, long n, double c, uint64_t seed)
{
    cluster_params p = world_params(npes, 1024, TOPO_KIND_STAR, BW, seed);
    p.loop_sched = s;
    p.chunk_overhead = h;
    p.loop_n = n;
    p.imbalance = c;
    world_init_p(w, &p);
}

/* Run one job of `threads` threads and `cpu` CPU s each to its end;
 * returns its run time (end - start). */
static double run_one(world *w, long id, int threads, double cpu)
{
    job_t *j = make_job(w, id, threads, NULL, cpu, 0);
    double t0 = w->sim.now;
    job_run(&w->sim, j, 0);
    ev_run(&w->sim, INFINITY);
    ck_assert(j->ended);
    ck_assert_double_eq(j->start, t0);
    double rt = j->end - j->start;
    w->ntend = 0;
    job_release(&w->sim, j);
    ev_run(&w->sim, INFINITY);
    return rt;
}

START_TEST(test_gss_hand)
{
    /* GSS, 4 threads of 25 CPU s, n = 25: 100 iterations of 1 s each
     * (25 x (1/25)), h = 0.1 s per chunk. Chunks ceil(R/4) for R = 100, 75,
     * 56, 42, 31, 23, 17, 12, 9, 6, 4, 3, 2, 1:
     *     25 19 14 11 8 6 5 3 3 2 1 1 1 1   (14 chunks, sum 100).
     * At 0 the threads ask in order: T0 25 -> ends 25.1, T1 19 -> 19.1,
     * T2 14 -> 14.1, T3 11 -> 11.1. Then, each when free (chunk + 0.1):
     *     11.1 T3 8 -> 19.2     14.1 T2 6 -> 20.2     19.1 T1 5 -> 24.2
     *     19.2 T3 3 -> 22.3     20.2 T2 3 -> 23.3     22.3 T3 2 -> 24.4
     *     23.3 T2 1 -> 24.4     24.2 T1 1 -> 25.3     24.4 T2/T3 1 each -> 25.5
     * (the tie at 24.4 takes the last two single iterations either way).
     * Nothing is left: T0 ends at 25.1, T1 at 25.3, T2 and T3 at 25.5, the
     * job at 25.5; CPU 100 + 14 x 0.1 = 101.4. */
    world w;
    loop_world(&w, 4, LOOP_GSS, 0.1, 25, 0, 1);
    job_t *j = make_job(&w, 1, 4, NULL, 25, 0);
    job_run(&w.sim, j, 0);
    ev_run(&w.sim, INFINITY);
    ck_assert(j->ended);
    ck_assert_near(thread_end_time(&w, 1, 0), 25.1, 1e-9);
    ck_assert_near(thread_end_time(&w, 1, 1), 25.3, 1e-9);
    ck_assert_near(thread_end_time(&w, 1, 2), 25.5, 1e-9);
    ck_assert_near(thread_end_time(&w, 1, 3), 25.5, 1e-9);
    ck_assert_near(j->end, 25.5, 1e-9);
    ck_assert_uint_eq(w.cl.loop_chunks, 14);
    ck_assert_near(w.cl.cpu_demand_done, 101.4, 1e-9);
    job_release(&w.sim, j);
    ev_run(&w.sim, INFINITY);
    world_free(&w);
}
END_TEST

START_TEST(test_fac_ss_static_hand)
{
    /* The same job, 100 iterations of 1 s on 4 threads, h = 0.1.
     * FAC (FAC2): batches of 4 chunks of ceil(R_b / 8): R_b = 100 -> 13,
     * 48 -> 6, 24 -> 3, 12 -> 2, 4 -> 1: 20 chunks; the threads stay in
     * step (equal chunks, asked for together), each 13 + 6 + 3 + 2 + 1 =
     * 25 iterations and 5 overheads: all end at 25.5.
     * SS: 100 chunks of 1, the threads in step: 25 each, 25 x 1.1 = 27.5.
     * STATIC: one chunk of 25 each: 25.1. */
    static const struct {
        sched_loop s;
        double end;
        unsigned chunks;
    } cs[] = {{LOOP_FAC, 25.5, 20}, {LOOP_SS, 27.5, 100}, {LOOP_STATIC, 25.1, 4}};
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        world w;
        loop_world(&w, 4, cs[i].s, 0.1, 25, 0, 1);
        double rt = run_one(&w, 1, 4, 25);
        ck_assert_near(rt, cs[i].end, 1e-9);
        ck_assert_uint_eq(w.cl.loop_chunks, cs[i].chunks);
        world_free(&w);
    }
}
END_TEST

START_TEST(test_wf_hand)
{
    /* WF on 2 threads, nodes of speeds 1 and 3 (weights 2 s / (1 + 3):
     * 0.5 and 1.5), 100 iterations of 1 CPU s (n = 50, 50 CPU s each),
     * h = 0.25 CPU s per chunk (work, so 0.25 / 3 s on the fast node).
     * A batch: bc = ceil(R / 4) and 2 bc iterations; thread i's chunk
     * floor(w_i bc), at least 1, at most what is left of the batch.
     *  t        who  new batch (R, bc, 2 bc)  chunk  left  ends at
     *  0        T0   100, 25, 50              12     38    12.25
     *  0        T1                            37      1    37.25 / 3 = 12.4167
     *  12.25    T0                             1      0    13.5
     *  12.4167  T1   50, 13, 26               19      7    + 19.25 / 3 = 18.8333
     *  13.5     T0                             6      1    19.75
     *  18.8333  T1                             1      0    + 1.25 / 3 = 19.25
     *  19.25    T1   24, 6, 12                 9      3    + 9.25 / 3 = 22.3333
     *  19.75    T0                             3      0    23
     *  22.3333  T1   12, 3, 6                  4      2    + 4.25 / 3 = 23.75
     *  23       T0                             1      1    24.25
     *  23.75    T1                             1      0    + 1.25 / 3 = 24.1667
     *  24.1667  T1   6, 2, 4                   3      1    + 3.25 / 3 = 25.25
     *  24.25    T0                             1      0    25.5
     *  25.25    T1   2, 1, 2                   1      1    + 1.25 / 3 = 25.6667
     *  25.5     T0                             1      0    26.75
     * Then nothing is left: T0 did 25 iterations in 7 chunks (CPU 25 + 7 x 0.25 = 26.75,
     * ends 26.75), T1 75 in 8 (CPU 77, ends 77 / 3 = 25.6667); 15 chunks.
     * No two asks fall at one instant after the start (h chosen so). */
    static const double sp[2] = {1, 3};
    cluster_params p = world_params(2, 1024, TOPO_KIND_STAR, BW, 1);
    p.pe_speed = sp;
    p.loop_sched = LOOP_WF;
    p.chunk_overhead = 0.25;
    p.loop_n = 50;
    world w;
    world_init_p(&w, &p);
    job_t *j = make_job(&w, 1, 2, NULL, 50, 0);
    job_run(&w.sim, j, 0);
    ev_run(&w.sim, INFINITY);
    ck_assert(j->ended);
    ck_assert_near(thread_end_time(&w, 1, 0), 26.75, 1e-9);
    ck_assert_near(thread_end_time(&w, 1, 1), 77.0 / 3, 1e-9);
    ck_assert_near(j->th[0].cpu_done, 26.75, 1e-9);
    ck_assert_near(j->th[1].cpu_done, 77, 1e-9);
    ck_assert_uint_eq(w.cl.loop_chunks, 15);
    job_release(&w.sim, j);
    ev_run(&w.sim, INFINITY);
    world_free(&w);
}
END_TEST

START_TEST(test_awf_learns)
{
    /* AWF on 2 threads, nodes of speeds 1 and 3, synchronisation every 10
     * CPU s, 40 s of demand (4 intervals of n = 100 iterations a thread,
     * 0.1 s each), no imbalance, h = 0.01. The first interval has equal
     * weights (FAC's chunks); the fast thread does more of them, and its
     * measured rate (iterations per second over the interval) is about 3
     * times the slow one's, so from the second interval the weights are
     * near 0.5 and 1.5: the ratio w1 / w0 lies in [2, 4] at the end, the
     * weights summing to the threads. Both FAC and AWF end within four
     * chunks of 0.1 s (+ h) of the balanced (80 + chunks h) / 4 (the
     * speeds sum to 4), never before it. */
    static const double sp[2] = {1, 3};
    long chunks[2];
    double rt[2];
    for (int s = 0; s < 2; s++) {
        cluster_params p = world_params(2, 1024, TOPO_KIND_STAR, BW, 1);
        p.pe_speed = sp;
        p.loop_sched = s ? LOOP_AWF : LOOP_FAC;
        p.chunk_overhead = 0.01;
        p.loop_n = 100;
        p.sync_rate = 10;
        world w;
        world_init_p(&w, &p);
        job_t *j = make_job(&w, 1, 2, NULL, 40, 0);
        job_run(&w.sim, j, 0);
        ev_run(&w.sim, INFINITY);
        ck_assert(j->ended);
        rt[s] = j->end - j->start;
        chunks[s] = (long)w.cl.loop_chunks;
        if (s) {
            double ratio = j->loop->w[1] / j->loop->w[0];
            fprintf(stderr, "AWF: weights %.3f %.3f (ratio %.3f), %ld chunks, run %.3f s; "
                    "FAC %ld chunks, run %.3f s\n", j->loop->w[0], j->loop->w[1], ratio, chunks[1],
                    rt[1], chunks[0], rt[0]);
            ck_assert(ratio >= 2 && ratio <= 4);
            ck_assert_near(j->loop->w[0] + j->loop->w[1], 2, 1e-12);
        }
        ck_assert(rt[s] >= (80 + chunks[s] * 0.01) / 4 - 1e-9);
        ck_assert(rt[s] <= (80 + chunks[s] * 0.01) / 4 + 4 * 0.11);
        job_release(&w.sim, j);
        ev_run(&w.sim, INFINITY);
        world_free(&w);
    }
}
END_TEST

START_TEST(test_sync_intervals)
{
    /* With synchronisation every 10 CPU s and 25 s of demand: intervals of
     * 10, 10 and 5 s per thread, STATIC, h = 0.5: each interval's chunk
     * costs its length + 0.5, the barrier messages (64 B, star) a few us:
     * the job takes 25 + 3 x 0.5 = 26.5 s plus two barriers' messages
     * (under 1 ms). Equal to NONE's run plus 1.5 s. */
    world w;
    loop_world(&w, 2, LOOP_STATIC, 0.5, 4, 0, 1);
    w.cl.sync_rate = 10;
    double rt = run_one(&w, 1, 2, 25);
    ck_assert_uint_eq(w.cl.loop_chunks, 6);
    world_free(&w);
    loop_world(&w, 2, LOOP_NONE, 0, 4, 0, 1);
    w.cl.sync_rate = 10;
    double base = run_one(&w, 1, 2, 25);
    world_free(&w);
    ck_assert_near(rt - base, 1.5, 1e-9);
    ck_assert(base > 25 && base < 25.001);
}
END_TEST

/* E[max of k i.i.d. Gamma(n, 1)] = int_0^inf 1 - P(n, x)^k dx, by
 * Simpson's rule on [0, n + 40 sqrt(n)] (the tail beyond is < 1e-12). */
static double e_max_gamma(int k, double n)
{
    const double hi = n + 40 * sqrt(n);
    const int m = 200000; /* even */
    const double dx = hi / m;
    double s = 0;
    for (int i = 0; i <= m; i++) {
        double x = i * dx;
        double f = 1 - pow(gsl_cdf_gamma_P(x, n, 1), k);
        s += (i == 0 || i == m ? 1 : (i % 2 ? 4 : 2)) * f;
    }
    return s * dx / 3;
}

START_TEST(test_expected_makespan)
{
    /* k = 4 threads, n = 25 iterations each (N = 100), each iteration's
     * demand exponential (imbalance 0.2: iterations' CV 0.2 sqrt(25) = 1, a
     * gamma of shape 1; a thread's share has the CV 0.2), normalised so the
     * interval's total is k x 25 = 100 CPU s; 1000 intervals (jobs).
     *
     * STATIC: thread i's share is 25 x G_i / sum(G) x k, G_i ~ Gamma(25)
     * the sum of its 25 draws; the normalised vector is independent of
     * sum(G) (gamma variables of one scale), so E[makespan] =
     * E[max G_i] x (k x 25) / E[sum G] = E[max of 4 Gamma(25, 1)], which
     * e_max_gamma integrates from GSL's CDF: about 30.1 s.
     *
     * SS with h = 0.01: greedy self-scheduling of the 100 iterations (+ h
     * each) onto the first free thread; simulated here independently (GSL
     * generator and draws) over 20000 intervals. Bounds for every
     * interval: (total + N h) / k <= makespan <= that + max iteration + h.
     * Both compared within 4 combined standard errors. */
    const int k = 4, M = 1000;
    const long n = 25;
    double e_static = e_max_gamma(k, (double)n);
    world w;
    loop_world(&w, 4, LOOP_STATIC, 0, n, 0.2, 11);
    double s1 = 0, s2 = 0;
    for (int i = 0; i < M; i++) {
        double rt = run_one(&w, i + 1, k, 25);
        s1 += rt;
        s2 += rt * rt;
    }
    world_free(&w);
    double mean_st = s1 / M, se_st = sqrt((s2 / M - mean_st * mean_st) / (M - 1));
    fprintf(stderr, "STATIC: pnrsim mean makespan %.4f (se %.4f) over %d intervals; "
            "E[max of 4 Gamma(25)] = %.4f\n", mean_st, se_st, M, e_static);
    ck_assert_msg(fabs(mean_st - e_static) < 4 * se_st, "STATIC %.4f vs %.4f", mean_st, e_static);

    /* SS: pnrsim */
    const double h = 0.01;
    loop_world(&w, 4, LOOP_SS, h, n, 0.2, 12);
    s1 = s2 = 0;
    for (int i = 0; i < M; i++) {
        double rt = run_one(&w, i + 1, k, 25);
        /* (100 + 100 h) / 4 = 25.25 at least */
        ck_assert(rt >= 25.25 - 1e-9);
        s1 += rt;
        s2 += rt * rt;
    }
    world_free(&w);
    double mean_ss = s1 / M, se_ss = sqrt((s2 / M - mean_ss * mean_ss) / (M - 1));

    /* SS: independent Monte Carlo */
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(g, 4242);
    const int MC = 20000, N = 100;
    double x[100], q1 = 0, q2 = 0;
    for (int r = 0; r < MC; r++) {
        double sum = 0, xmax = 0;
        for (int m = 0; m < N; m++)
            sum += (x[m] = gsl_ran_exponential(g, 1));
        double free_at[4] = {0, 0, 0, 0};
        for (int m = 0; m < N; m++) {
            double d = x[m] * N / sum * (25.0 / 25.0); /* S x X / n, S = n = 25 */
            if (d > xmax)
                xmax = d;
            int b = 0;
            for (int t = 1; t < k; t++)
                if (free_at[t] < free_at[b])
                    b = t;
            free_at[b] += h + d;
        }
        double mk = 0;
        for (int t = 0; t < k; t++)
            mk = free_at[t] > mk ? free_at[t] : mk;
        ck_assert(mk <= 25.25 + xmax + h + 1e-9);
        q1 += mk;
        q2 += mk * mk;
    }
    gsl_rng_free(g);
    double mean_mc = q1 / MC, se_mc = sqrt((q2 / MC - mean_mc * mean_mc) / (MC - 1));
    fprintf(stderr, "SS (h = %g): pnrsim mean makespan %.4f (se %.4f); independent Monte Carlo "
            "%.4f (se %.4f, %d intervals); bound (total + N h) / k = 25.25\n",
            h, mean_ss, se_ss, mean_mc, se_mc, MC);
    ck_assert_msg(fabs(mean_ss - mean_mc) < 4 * sqrt(se_ss * se_ss + se_mc * se_mc),
                  "SS %.4f vs %.4f", mean_ss, mean_mc);
    /* And the point of the exercise: SS beats STATIC by seconds here. */
    ck_assert(mean_st - mean_ss > 2);
}
END_TEST

START_TEST(test_paging_thread_falls_behind)
{
    /* 2 threads of 50 CPU s, n = 50 (100 iterations of 0.5 s), thread 0's
     * PE overallocated by 1 MB (RAM 64 MB, 65 MB each) with R = 1e-6: it
     * pages to the disk (S_DISK = 13.25 ms a fault), thread 1 never.
     * STATIC: thread 1 ends at 50; thread 0 at 50 + its fault time F (it
     * computes its 50 s and waits F on the disk): the job takes 50 + F.
     * SS: thread 1 takes the iterations thread 0 is too slow for, so the
     * two end within one iteration (0.5 s) plus one fault of each other,
     * and the job takes (100 + F) / 2 within that: the CPU work plus the
     * paging shared by the two. */
    double rt[2];
    for (int s = 0; s < 2; s++) {
        world w;
        loop_world(&w, 2, s ? LOOP_SS : LOOP_STATIC, 0, 50, 0, 3);
        w.cl.mem_access_rate = 1e-6;
        w.cl.pes[0].ram_mb = 64;
        w.cl.pes[1].ram_mb = 1024;
        job_t *j = make_job(&w, 1, 2, NULL, 50, 65);
        job_run(&w.sim, j, 0);
        ev_run(&w.sim, INFINITY);
        ck_assert(j->ended);
        rt[s] = j->end - j->start;
        double F = j->fault_time, e0 = thread_end_time(&w, 1, 0), e1 = thread_end_time(&w, 1, 1);
        ck_assert_uint_gt(j->faults, 100);
        ck_assert_uint_eq(j->th[1].faults, 0);
        ck_assert_near(F, (double)j->faults * S_DISK, 1e-6); /* one thread: no queue */
        ck_assert_near(j->th[0].cpu_done + j->th[1].cpu_done, 100, 1e-6);
        if (s) {
            ck_assert(fabs(e0 - e1) <= 0.5 + S_DISK + 1e-9);
            ck_assert(fabs(rt[1] - (100 + F) / 2) <= 0.5 + S_DISK + 1e-9);
            ck_assert(j->th[1].cpu_done > j->th[0].cpu_done + F - 1 - 2 * S_DISK);
        } else {
            ck_assert_near(j->th[0].cpu_done, 50, 1e-9);
            ck_assert_near(e1, 50, 1e-9);
            ck_assert_near(e0, 50 + F, 1e-6);
        }
        fprintf(stderr, "paging thread, %s: run %.3f s, its fault time %.3f s (%llu faults), "
                "threads' CPU %.2f + %.2f\n", s ? "SS" : "STATIC", rt[s], F,
                (unsigned long long)j->faults, j->th[0].cpu_done, j->th[1].cpu_done);
        job_release(&w.sim, j);
        ev_run(&w.sim, INFINITY);
        world_free(&w);
    }
    ck_assert(rt[1] < rt[0] - 2);
}
END_TEST

START_TEST(test_thread_cv)
{
    /* STATIC, p = 4 threads of S = 10 CPU s, n = 100, imbalance c = 0.5:
     * the iterations are gamma of CV 0.5 x sqrt(100) = 5 (shape 0.04: the
     * small-shape branch), a thread's 100 of them Gamma(a = 1 / c^2 = 4),
     * CV c before the interval's normalisation. After it, thread i's
     * share is S p G_i / sum G = S p B, B ~ Beta(a, (p - 1) a): mean S,
     * Var(p B) = (p - 1) / (p a + 1) = 3 / 17, CV sqrt(3 / 17) = 0.4201.
     * One interval a job (no synchronisation), so thread 0 ends at its
     * share; 2000 jobs: mean within 4 standard errors of 10, CV within
     * 0.03 of 0.4201 (its standard error about 0.42 / sqrt(2 x 2000) =
     * 0.0066, a little more for the gamma's kurtosis). */
    world w;
    loop_world(&w, 4, LOOP_STATIC, 0, 100, 0.5, 21);
    const int M = 2000;
    double s1 = 0, s2 = 0;
    for (int i = 0; i < M; i++) {
        job_t *j = make_job(&w, i + 1, 4, NULL, 10, 0);
        double t0 = w.sim.now;
        job_run(&w.sim, j, 0);
        ev_run(&w.sim, INFINITY);
        double e = thread_end_time(&w, i + 1, 0) - t0;
        double tot = 0;
        for (int k = 0; k < 4; k++)
            tot += j->th[k].cpu_done;
        ck_assert_near(tot, 40, 1e-9); /* conserved */
        s1 += e;
        s2 += e * e;
        w.ntend = 0;
        job_release(&w.sim, j);
        ev_run(&w.sim, INFINITY);
    }
    world_free(&w);
    double mean = s1 / M, sd = sqrt(s2 / M - mean * mean), cv = sd / mean;
    fprintf(stderr, "STATIC share of a thread: mean %.4f s (S = 10), CV %.4f (theory %.4f)\n",
            mean, cv, sqrt(3.0 / 17));
    ck_assert(fabs(mean - 10) < 4 * sd / sqrt(M));
    ck_assert(fabs(cv - sqrt(3.0 / 17)) < 0.03);
}
END_TEST

START_TEST(test_gamma_draws)
{
    /* loop_gamma: mean 1 and CV c for c = 0.3, 1, 2 (shapes 11.1, 1,
     * 0.25: both branches), 200000 draws, within 4 standard errors of the
     * mean (sd/sqrt(n)) and 3% of the CV. */
    static const double cvs[] = {0.3, 1, 2};
    rng_t *r = rng_stream(7, "test", 0);
    for (int i = 0; i < 3; i++) {
        const int n = 200000;
        double s1 = 0, s2 = 0;
        for (int m = 0; m < n; m++) {
            double y = loop_gamma(r, 1, cvs[i]);
            ck_assert(y >= 0);
            s1 += y;
            s2 += y * y;
        }
        double mean = s1 / n, sd = sqrt(s2 / n - mean * mean);
        ck_assert_msg(fabs(mean - 1) < 4 * cvs[i] / sqrt(n), "cv %g: mean %g", cvs[i], mean);
        ck_assert_msg(fabs(sd / mean - cvs[i]) < 0.03 * cvs[i], "cv %g: %g", cvs[i], sd / mean);
    }
    rng_free(r);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("job_loop");
    TCase *tc = tcase_create("loop");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_gss_hand);
    tcase_add_test(tc, test_fac_ss_static_hand);
    tcase_add_test(tc, test_wf_hand);
    tcase_add_test(tc, test_awf_learns);
    tcase_add_test(tc, test_sync_intervals);
    tcase_add_test(tc, test_expected_makespan);
    tcase_add_test(tc, test_paging_thread_falls_behind);
    tcase_add_test(tc, test_thread_cv);
    tcase_add_test(tc, test_gamma_draws);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
