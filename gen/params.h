/* gen/params.h: the parameters of pnrsim-gen's workload model.
 *
 * One struct holds every parameter of the model gen/model.c draws from:
 * the Lublin-Feitelson 2003 model (sizes, runtimes, arrivals; its
 * published "typeless" parameters are the defaults), the modal requested
 * times after Tsafrir, Etsion and Feitelson 2005, and memory per process
 * (log-normal, its median a power of the size; defaults fitted to HPC2N's log). The same
 * struct is read from and written to an INI file (inih), so that
 * `pnrsim-gen --fit TRACE` prints a file the generator reads back.
 * docs/WORKLOADS.md describes every key.
 */
#ifndef PNRSIM_GEN_PARAMS_H
#define PNRSIM_GEN_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define GEN_BUCKETS 48      /* half hours of the daily cycle */
#define GEN_MODES_MAX 64    /* requested-time modes */
#define GEN_ERR_MAX 512

typedef struct gen_params {
    long procs;                         /* machine PEs (MaxProcs) */
    /* sizes: serial, power of two, two-stage uniform on log2(size) */
    double serial_prob, pow2_prob, ulow, umed, uhi, uprob;
    /* runtimes: ln(runtime) ~ hyper-gamma, p = pa * size + pb */
    double a1, b1, a2, b2, pa, pb, rt_max_log;
    /* arrivals: ln(points x 1800) ~ gamma(aarr, barr), daily weights */
    double aarr, barr, arr_max_log;
    double p_same;                      /* next job submitted in the same second */
    double weights[GEN_BUCKETS];        /* mean 1; bucket 0 = 00:00-00:30 */
    /* requested times: modes (s) with their popularity */
    size_t nmodes;
    double mode_s[GEN_MODES_MAX], mode_w[GEN_MODES_MAX];
    /* memory per process (KB): ln = mu + slope x ln(size) + N(0, sigma) */
    bool mem_on;                        /* false: no memory (-1 in the SWF) */
    double mem_mu, mem_slope, mem_sigma;
    char source[256];                   /* what the parameters came from */
} gen_params;

/* The defaults: Lublin-Feitelson's published typeless parameters for a
 * 128-PE machine, the default modes and HPC2N's memory fit. */
void gen_params_default(gen_params *p);
/* The daily weights of Lublin's gamma(anum, bnum) over half hours
 * (normalised to mean 1) into w. */
void gen_weights_lublin(double anum, double bnum, double w[GEN_BUCKETS]);
/* Rescale the size model to a machine of procs PEs (uhi = log2 procs,
 * umed = uhi - 2.5 as Lublin advises); procs >= 1. */
void gen_params_machine(gen_params *p, long procs);
/* Read path over *p (keys absent keep their value). Returns 0, or 2 with
 * "path:line: section.key: what was expected" in err. */
int gen_params_read(gen_params *p, const char *path, char err[GEN_ERR_MAX]);
/* Check the parameters' ranges; 0, or 2 with "key: ..." in err. */
int gen_params_check(const gen_params *p, char err[GEN_ERR_MAX]);
/* Write *p as an INI file gen_params_read reads back, each line prefixed
 * by prefix ("" for a file, "; " for an SWF header). */
void gen_params_write(const gen_params *p, FILE *out, const char *prefix);

#endif
