/* bench/gen_synth.c: write a synthetic SWF trace for the scale benchmark
 * (bench/bench_scale.sh, issue 15).
 *
 *   gen_synth JOBS PES [SEED]  > trace.swf
 *
 * JOBS jobs for a machine of PES compute PEs, deterministic for a seed
 * (pnrsim's own random streams, core/rng.h, so every machine writes the same
 * bytes). Each job:
 *   width    2^k PEs, k uniform in 0..8 (1 to 256 PEs; mean 56.8), capped
 *            at PES;
 *   runtime  log-uniform between 60 s and 36,000 s (mean about 5,618 s),
 *            used as both the run time and the CPU time per thread;
 *   memory   per thread, log-uniform between 64 MB and 4,096 MB (SWF field
 *            7 in KB), so with 2 GB PEs about a third of the threads
 *            overallocate and ask for network RAM;
 *   arrival  Poisson, with the mean gap that gives an offered load of 0.9
 *            of PES: gap = mean width x mean runtime / (0.9 x PES).
 * The other fields are -1 or 1 (status 1 = completed).
 * Exit status 0, or 2 on bad arguments.
 */
#include "core/rng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: gen_synth JOBS PES [SEED]\n");
        return 2;
    }
    char *end;
    long jobs = strtol(argv[1], &end, 10);
    if (*end || jobs < 1) {
        fprintf(stderr, "gen_synth: JOBS: expected an integer >= 1, got \"%s\"\n", argv[1]);
        return 2;
    }
    long pes = strtol(argv[2], &end, 10);
    if (*end || pes < 1) {
        fprintf(stderr, "gen_synth: PES: expected an integer >= 1, got \"%s\"\n", argv[2]);
        return 2;
    }
    unsigned long long seed = 1;
    if (argc == 4) {
        seed = strtoull(argv[3], &end, 10);
        if (*end) {
            fprintf(stderr, "gen_synth: SEED: expected an integer, got \"%s\"\n", argv[3]);
            return 2;
        }
    }
    rng_t *r = rng_stream(seed, "synthetic-trace", 0);
    const double tmin = 60, tmax = 36000, mmin = 64, mmax = 4096;
    double mean_w = 511.0 / 9, mean_t = (tmax - tmin) / log(tmax / tmin);
    double gap = mean_w * mean_t / (0.9 * (double)pes);
    double t = 0;
    for (long i = 1; i <= jobs; i++) {
        long w = 1L << rng_index(r, 9);
        if (w > pes)
            w = pes;
        double run = floor(tmin * exp(rng_uniform01(r) * log(tmax / tmin)));
        double mem = mmin * exp(rng_uniform01(r) * log(mmax / mmin));
        long kb = (long)(mem * 1024);
        printf("%ld %.0f -1 %.0f %ld %.0f %ld %ld %.0f -1 1 1 1 1 1 1 -1 -1\n", i, floor(t), run,
               w, run, kb, w, run);
        t += rng_exp(r, gap);
    }
    rng_free(r);
    return ferror(stdout) ? 1 : 0;
}
