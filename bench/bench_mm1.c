/* bench/bench_mm1.c: speed of the M/M/1 of tests/mm1.h (processes,
 * resource, GSL random streams), rho = 0.9 (lambda 0.9, mu 1).
 *
 * Each repetition builds a fresh kernel and model with the same seed (so
 * every repetition does identical work), times ev_run only
 * (clock_gettime(CLOCK_MONOTONIC)), and reads sim.dispatched. The figures
 * printed are the BEST of `reps` (default 3) repetitions, median beside.
 *
 * Usage: bench_mm1 [-n customers] [-r reps]
 * Output, one line per figure:
 *   mm1 c customers=1000000 rho=0.9 dispatched=3899874 events/customer=3.900
 *   mm1 c events reps=3 Mevents/s=27.1 median_Mevents/s=26.9 ns/event=36.9 target=25 met=yes
 *   mm1 c customers reps=3 Mcustomers/s=6.95 median_Mcustomers/s=6.90
 *   mm1 c cpu reps=3 Mcustomers_per_cpu_s=7.01 median_Mcustomers_per_cpu_s=6.95
 *     (the same per second of this process's CPU time, not wall time)
 *   mm1 c check Wq=9.02 theory_Wq=9.00 utilisation=0.900
 */
#include "tests/mm1.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double now_sec(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* CPU time of this process: on a machine shared with other work, a
 * steadier measure than wall time. */
static double cpu_sec(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

#define MAXREPS 64

int main(int argc, char **argv)
{
    long n = 1000000;
    int reps = 3;
    const double lambda = 0.9, mu = 1.0;
    int c;
    while ((c = getopt(argc, argv, "n:r:")) != -1) {
        switch (c) {
        case 'n':
            n = atol(optarg);
            break;
        case 'r':
            reps = atoi(optarg);
            break;
        default:
            fprintf(stderr, "usage: %s [-n customers] [-r reps]\n", argv[0]);
            return 2;
        }
    }
    if (n < 1 || reps < 1 || reps > MAXREPS) {
        fprintf(stderr, "bench_mm1: bad -n or -r\n");
        return 2;
    }

    double ev_rate[MAXREPS], cu_rate[MAXREPS], cu_cpu_rate[MAXREPS];
    uint64_t dispatched = 0;
    double wq = 0, util = 0;
    for (int r = 0; r < reps; r++) {
        sim_t sim;
        if (ev_init(&sim) != 0) {
            fprintf(stderr, "bench_mm1: ev_init failed\n");
            return 1;
        }
        struct mm1 m;
        mm1_init(&sim, &m, lambda, mu, n, n / 10, 12345);
        double t0 = now_sec(), c0 = cpu_sec();
        ev_run(&sim, INFINITY);
        double t1 = now_sec(), c1 = cpu_sec();
        if (m.server.completions != (uint64_t)n) {
            fprintf(stderr, "bench_mm1: %llu completions, expected %ld\n",
                    (unsigned long long)m.server.completions, n);
            return 1;
        }
        dispatched = sim.dispatched;
        ev_rate[r] = (double)sim.dispatched / (t1 - t0) / 1e6;
        cu_rate[r] = (double)n / (t1 - t0) / 1e6;
        cu_cpu_rate[r] = (double)n / (c1 - c0) / 1e6;
        wq = m.wait.mean;
        util = res_utilization(&sim, &m.server);
        mm1_free(&sim, &m);
        ev_destroy(&sim);
    }
    double be = ev_rate[0], bc = cu_rate[0], bcc = cu_cpu_rate[0];
    for (int r = 1; r < reps; r++) {
        if (ev_rate[r] > be)
            be = ev_rate[r];
        if (cu_rate[r] > bc)
            bc = cu_rate[r];
        if (cu_cpu_rate[r] > bcc)
            bcc = cu_cpu_rate[r];
    }
    printf("mm1 c customers=%ld rho=%.1f dispatched=%llu events/customer=%.3f\n",
           n, lambda / mu, (unsigned long long)dispatched, (double)dispatched / (double)n);
    printf("mm1 c events reps=%d Mevents/s=%.2f median_Mevents/s=%.2f ns/event=%.1f target=25 met=%s\n",
           reps, be, median(ev_rate, reps), 1e3 / be, be >= 25 ? "yes" : "no");
    printf("mm1 c customers reps=%d Mcustomers/s=%.3f median_Mcustomers/s=%.3f\n",
           reps, bc, median(cu_rate, reps));
    printf("mm1 c cpu reps=%d Mcustomers_per_cpu_s=%.3f median_Mcustomers_per_cpu_s=%.3f\n",
           reps, bcc, median(cu_cpu_rate, reps));
    printf("mm1 c check Wq=%.3f theory_Wq=%.3f utilisation=%.4f\n",
           wq, lambda / (mu * (mu - lambda)), util);
    return 0;
}
