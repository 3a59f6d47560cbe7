/* bench/bench_swf.c: the SWF reader on large headers and long traces.
 *
 * Issue 12 found the header parser quadratic (80,000 header keys: 27 s;
 * 200,000 continuation lines: 14 s). This prints the time to open (read
 * the header of) such traces, and to read a trace of many records, so the
 * growth is visible: each header case runs at n and 2n, and a linear
 * parser shows a ratio near 2 (a quadratic one near 4).
 *
 *   keys        n distinct "; Kn: n" header lines
 *   cont        "; Note: a" continued over n "; b" lines
 *   records     n 18-field records, read to the end (workload_next)
 *
 * The files are written to /tmp first (not timed). Every figure is the
 * best of `reps` (default 3) timings with clock_gettime(CLOCK_MONOTONIC).
 *
 * Usage: bench_swf [-r reps]
 * Output, one line per figure:
 *   swf keys n=80000 s=0.031 per_line_ns=390
 *   swf keys n=160000 s=0.065 per_line_ns=404
 *   swf keys growth 2n/n=2.10 (linear ~2, quadratic ~4)
 */
#include "app/workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#define REC "1 0 -1 10 1 10 -1 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n"

/* Write the trace of kind (keys, cont, records) with n lines to path. */
static void write_trace(const char *path, const char *kind, long n)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(1);
    }
    if (strcmp(kind, "keys") == 0) {
        for (long i = 0; i < n; i++)
            fprintf(f, "; K%ld: %ld\n", i, i);
        fputs(REC, f);
    } else if (strcmp(kind, "cont") == 0) {
        fputs("; Note: a\n", f);
        for (long i = 0; i < n; i++)
            fputs(";  b\n", f);
        fputs(REC, f);
    } else {
        for (long i = 0; i < n; i++)
            fprintf(f, "%ld %ld -1 10 1 10 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n",
                    i + 1, i);
    }
    if (fclose(f) != 0) {
        perror(path);
        exit(1);
    }
}

/* Best time of reps to open path and, for records, read every job. */
static double time_read(const char *path, bool all, int reps)
{
    config c;
    config_defaults(&c);
    double best = 1e300;
    for (int r = 0; r < reps; r++) {
        char err[CFG_ERR_MAX];
        double t0 = now();
        workload *w = workload_open(path, &c, 8, err);
        if (!w) {
            fprintf(stderr, "bench_swf: %s\n", err);
            exit(1);
        }
        if (all) {
            wl_job j;
            int rc;
            while ((rc = workload_next(w, &j, err)) == 1)
                ;
            if (rc < 0) {
                fprintf(stderr, "bench_swf: %s\n", err);
                exit(1);
            }
        }
        double t = now() - t0;
        workload_close(w);
        if (t < best)
            best = t;
    }
    return best;
}

int main(int argc, char **argv)
{
    int reps = 3;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-r") == 0 && i + 1 < argc) {
            reps = atoi(argv[++i]);
        } else {
            fprintf(stderr, "usage: bench_swf [-r reps]\n");
            return 2;
        }
    }
    if (reps < 1)
        reps = 1;
    char path[64];
    snprintf(path, sizeof path, "/tmp/bench_swf_%ld.swf", (long)getpid());
    static const struct { const char *kind; long n; } cases[] = {
        {"keys", 80000}, {"cont", 200000}, {"records", 1000000}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        double t[2];
        for (int m = 0; m < 2; m++) {
            long n = cases[k].n * (m + 1);
            write_trace(path, cases[k].kind, n);
            t[m] = time_read(path, strcmp(cases[k].kind, "records") == 0, reps);
            printf("swf %s n=%ld reps=%d s=%.3f per_line_ns=%.0f\n", cases[k].kind,
                   n, reps, t[m], 1e9 * t[m] / (double)n);
        }
        printf("swf %s growth 2n/n=%.2f (linear ~2, quadratic ~4)\n",
               cases[k].kind, t[0] > 0 ? t[1] / t[0] : 0.0);
    }
    unlink(path);
    return 0;
}
