/* gen/main.c: pnrsim-gen, a synthetic workload generator (issue 36).
 *
 *   pnrsim-gen [-n JOBS] [-s SEED] [-p PARAMS] [--procs N] [-o FILE]
 *   pnrsim-gen --fit TRACE [-o FILE]
 *
 * Writes SWF (man/pnrsim-gen.1): a header saying what generated it (the
 * program and version, the models, the seed, and every parameter, which
 * the header holds as an INI file behind "; "), then one line per job,
 * streamed as drawn (constant memory for any -n). --fit prints the
 * parameters estimated from a log as a file -p reads. Exit 0, 1 on a write
 * error, 2 on a usage error or a bad parameter file (file:line: key: ...).
 */
#include "gen/fit.h"
#include "gen/model.h"
#include "gen/params.h"

#include "app/version.h"

#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fputs("usage: pnrsim-gen [-n JOBS] [-s SEED] [-p PARAMS] [--procs N] [-o FILE]\n"
          "       pnrsim-gen --fit TRACE [-o FILE]\n"
          "  -n JOBS     jobs to write (default 1000)\n"
          "  -s SEED     master seed, >= 1 (default 1); the same seed gives the same file\n"
          "  -p PARAMS   parameter file (as --fit writes; default: the built-in parameters)\n"
          "  --procs N   machine of N PEs: the size model's uhi = log2 N, umed = uhi - 2.5\n"
          "  --fit TRACE estimate the parameters from an SWF log and print them\n"
          "  -o FILE     write to FILE instead of standard output\n"
          "  --version   print the version\n", f);
}

static int whole(const char *s, const char *what, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || *end || errno || v < lo || v > hi) {
        fprintf(stderr, "pnrsim-gen: %s '%s': expected a whole number in [%lld, %lld]\n",
                what, s, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        { "fit", required_argument, 0, 'f' }, { "procs", required_argument, 0, 'P' },
        { "help", no_argument, 0, 'h' }, { "version", no_argument, 0, 'V' }, { 0, 0, 0, 0 }
    };
    long long jobs = 1000, seed = 1, procs = 0;
    const char *fit = NULL, *pfile = NULL, *outp = NULL;
    int c;
    while ((c = getopt_long(argc, argv, "n:s:p:o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'n': if (whole(optarg, "-n", 0, (long long)1e15, &jobs)) return 2; break;
        case 's': if (whole(optarg, "-s", 1, INT64_MAX, &seed)) return 2; break;
        case 'P': if (whole(optarg, "--procs", 1, 10000000, &procs)) return 2; break;
        case 'p': pfile = optarg; break;
        case 'o': outp = optarg; break;
        case 'f': fit = optarg; break;
        case 'h': usage(stdout); return 0;
        case 'V': printf("pnrsim-gen %s\n", pnrsim_version()); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (optind < argc || (fit && (pfile || procs))) {
        usage(stderr);
        return 2;
    }
    gen_params p;
    char err[GEN_ERR_MAX];
    gen_params_default(&p);
    if (fit && gen_fit(&p, fit, err)) {
        fprintf(stderr, "pnrsim-gen: %s\n", err);
        return 2;
    }
    if (pfile && gen_params_read(&p, pfile, err)) {
        fprintf(stderr, "pnrsim-gen: %s\n", err);
        return 2;
    }
    if (procs)
        gen_params_machine(&p, (long)procs);
    if (gen_params_check(&p, err)) {
        fprintf(stderr, "pnrsim-gen: %s\n", err);
        return 2;
    }
    FILE *out = stdout;
    if (outp && !(out = fopen(outp, "w"))) {
        fprintf(stderr, "pnrsim-gen: %s: cannot open: %s\n", outp, strerror(errno));
        return 1;
    }
    if (fit) {
        fprintf(out, "; pnrsim-gen %s parameters: pnrsim-gen -p FILE reads them\n",
                pnrsim_version());
        gen_params_write(&p, out, "");
    } else {
        gen_model *g = gen_model_new(&p, (uint64_t)seed);
        if (!g) {
            fprintf(stderr, "pnrsim-gen: out of memory\n");
            return 1;
        }
        fprintf(out, "; Version: 2.2\n"
                "; Computer: synthetic, %ld PEs\n"
                "; Generator: pnrsim-gen %s\n"
                "; Model: Lublin and Feitelson 2003 (sizes, runtimes, arrivals with the daily "
                "cycle); requested times: modal values after Tsafrir, Etsion and Feitelson 2005; "
                "memory per process: log-normal per size class\n"
                "; GeneratorSeed: %lld\n"
                "; MaxJobs: %lld\n; MaxRecords: %lld\n; MaxProcs: %ld\n; MaxNodes: %ld\n"
                "; UnixStartTime: 0\n; TimeZone: 0\n"
                "; Note: submit 0 is midnight; fields 3, 6, 10, 12-18 are -1; field 7 is memory "
                "per process (KB); the parameters follow (remove '; ' for a -p file)\n"
                "; GeneratorParameters:\n",
                p.procs, pnrsim_version(), seed, jobs, jobs, p.procs, p.procs);
        gen_params_write(&p, out, "; ");
        fputs(";\n", out);
        gen_job j;
        for (long long i = 1; i <= jobs; i++) {
            gen_model_next(g, &j);
            fprintf(out, "%lld %ld -1 %ld %ld -1 %ld %ld %ld -1 1 -1 -1 -1 -1 -1 -1 -1\n", i,
                    j.submit, j.runtime, j.procs, j.mem_kb, j.procs, j.request);
        }
        long clamped = gen_model_mem_clamped(g);
        if (clamped)
            fprintf(stderr, "pnrsim-gen: warning: %ld jobs' memory per process was outside 1 .. "
                    "1e12 KB and was written at the bound ([memory] mu, slope, sigma)\n", clamped);
        gen_model_free(g);
    }
    if (ferror(out) || (out != stdout ? fclose(out) : fflush(out))) {
        fprintf(stderr, "pnrsim-gen: write error\n");
        return 1;
    }
    return 0;
}
