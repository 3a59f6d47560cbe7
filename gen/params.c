/* gen/params.c: defaults, reading and writing of pnrsim-gen's parameters.
 *
 * The defaults are the "typeless" parameters of Lublin and Feitelson's
 * model as published with their generator (m_lublin99.c; docs/SOURCES.md):
 * one class of jobs, a 128-PE machine. The file format is INI (inih), one
 * section per part of the model; lists are comma-separated. A bad value
 * names its file, line and key, and the reader returns 2 (exit status 2 of
 * pnrsim-gen, as pnrsim's own configuration errors).
 */
#include "gen/params.h"

#include <ini.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <stddef.h>
#include <strings.h>

/* Memory per process fitted to traces/hpc2n-seth-first3171.swf (the
 * [memory] section of `pnrsim-gen --fit` on it; docs/WORKLOADS.md). */
#define GEN_HPC2N_MU 13.7420823
#define GEN_HPC2N_SIGMA 0.09036418309
#define GEN_HPC2N_SLOPE -0.995963017

void gen_weights_lublin(double anum, double bnum, double w[GEN_BUCKETS])
{
    /* As m_lublin99.c's arrive_init: the cycle's gamma is over half-hour
     * numbers 11..58 (the day starts at 05:30), moved back cyclically. */
    double mean = 0;
    for (int i = 11; i < GEN_BUCKETS + 11; i++) {
        int idx = (i - 1) % GEN_BUCKETS;
        w[idx] = gsl_cdf_gamma_P(i + 0.5, anum, bnum) - gsl_cdf_gamma_P(i - 0.5, anum, bnum);
        mean += w[idx];
    }
    mean /= GEN_BUCKETS;
    for (int i = 0; i < GEN_BUCKETS; i++)
        w[i] /= mean;
}

void gen_params_machine(gen_params *p, long procs)
{
    p->procs = procs;
    p->uhi = log2((double)procs);
    p->umed = p->uhi - 2.5;
    if (p->umed < p->ulow)
        p->umed = (p->ulow + p->uhi) / 2;
}

void gen_params_default(gen_params *p)
{
    memset(p, 0, sizeof *p);
    p->procs = 128;
    p->serial_prob = 0.244; p->pow2_prob = 0.576;
    p->ulow = 0.8; p->umed = 4.5; p->uhi = 7; p->uprob = 0.86;
    p->a1 = 4.2; p->b1 = 0.94; p->a2 = 312; p->b2 = 0.03;
    p->pa = -0.0054; p->pb = 0.78; p->rt_max_log = 12;
    p->aarr = 10.2303 * 1.0225;        /* AARR x ARAR */
    p->barr = 0.4871; p->arr_max_log = 13;
    gen_weights_lublin(8.1737, 3.9631, p->weights);
    /* Requested-time modes (s): the reading of docs/WORKLOADS.md (round
     * values; the largest, the site's limit, the most popular). */
    static const double ms[] = { 300, 900, 1800, 3600, 7200, 14400, 28800,
                                 43200, 64800, 86400, 172800 };
    static const double mw[] = { 0.08, 0.10, 0.08, 0.12, 0.08, 0.07, 0.06,
                                 0.06, 0.05, 0.05, 0.25 };
    p->nmodes = sizeof ms / sizeof ms[0];
    memcpy(p->mode_s, ms, sizeof ms);
    memcpy(p->mode_w, mw, sizeof mw);
    /* Memory: HPC2N's first 3,171 jobs (`pnrsim-gen --fit`;
     * docs/WORKLOADS.md). */
    p->mem_on = true;
    p->mem_mu = GEN_HPC2N_MU;
    p->mem_slope = GEN_HPC2N_SLOPE;
    p->mem_sigma = GEN_HPC2N_SIGMA;
    snprintf(p->source, sizeof p->source, "defaults");
}

typedef struct rd {
    gen_params *p;
    FILE *f;
    long line;             /* lines handed to inih so far */
    bool toolong;          /* a line longer than inih's buffer */
    long errline;          /* the first line the handler refused (0 = none) */
    char key[128];
    char why[256];
    size_t nw, nmode;      /* list items read (a repeated key appends) */
    double w[GEN_BUCKETS];
} rd;

/* ini_parse_stream's reader: one line per call, counted; a line that does
 * not fit inih's buffer stops the parse (inih would cut it silently). */
static char *rd_line(char *str, int num, void *stream)
{
    rd *r = stream;
    if (!fgets(str, num, r->f))
        return NULL;
    r->line++;
    size_t n = strlen(str);
    if (n == (size_t)num - 1 && str[n - 1] != '\n' && !feof(r->f)) {
        r->toolong = true;
        return NULL;
    }
    return str;
}

static int num(const char *v, double *out)
{
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    while (*end == ' ' || *end == '\t')
        end++;
    if (end == v || *end || errno || !isfinite(x))
        return -1;
    *out = x;
    return 0;
}

/* A comma-separated list of numbers (or of s:w pairs when b != NULL). */
static int list(const char *v, double *a, double *b, size_t max, size_t *n)
{
    char buf[4096];
    if (strlen(v) >= sizeof buf)
        return -1;
    strcpy(buf, v);
    *n = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        while (*t == ' ' || *t == '\t')
            t++;
        if (*n >= max)
            return -1;
        if (b) {
            char *c = strchr(t, ':');
            if (!c)
                return -1;
            *c = 0;
            if (num(t, &a[*n]) || num(c + 1, &b[*n]))
                return -1;
        } else if (num(t, &a[*n])) {
            return -1;
        }
        (*n)++;
    }
    return *n ? 0 : -1;
}

typedef struct dkey {
    const char *sec, *name;
    size_t off;
    double lo, hi;
} dkey;

#define D(s, n, f, lo, hi) { s, n, offsetof(gen_params, f), lo, hi }
static const dkey DKEYS[] = {
    D("size", "serial_prob", serial_prob, 0, 1), D("size", "pow2_prob", pow2_prob, 0, 1),
    D("size", "ulow", ulow, 0, 30), D("size", "umed", umed, 0, 30),
    D("size", "uhi", uhi, 0, 30), D("size", "uprob", uprob, 0, 1),
    D("runtime", "a1", a1, 1e-6, 1e6), D("runtime", "b1", b1, 1e-9, 1e6),
    D("runtime", "a2", a2, 1e-6, 1e6), D("runtime", "b2", b2, 1e-9, 1e6),
    D("runtime", "pa", pa, -1e3, 1e3), D("runtime", "pb", pb, -1e3, 1e3),
    D("runtime", "max_log", rt_max_log, 0.5, 30),
    D("arrival", "aarr", aarr, 1e-6, 1e6), D("arrival", "barr", barr, 1e-9, 1e6),
    D("arrival", "max_log", arr_max_log, 0.5, 30),
    D("arrival", "p_same", p_same, 0, 0.99),
    D("memory", "mu", mem_mu, 0, 40), D("memory", "slope", mem_slope, -10, 10),
    D("memory", "sigma", mem_sigma, 0, 10),
};

static int handle(rd *r, const char *sec, const char *name, const char *v);

/* inih's handler: the first refusal is kept (inih goes on reading and
 * reports the first bad line, which may be a syntax error of its own). */
static int handler(void *user, const char *sec, const char *name, const char *v)
{
    rd *r = user;
    if (r->errline)
        return 1;
    if (handle(r, sec, name, v))
        return 1;
    r->errline = r->line;
    return 0;
}

static int handle(rd *r, const char *sec, const char *name, const char *v)
{
    gen_params *p = r->p;
    snprintf(r->key, sizeof r->key, "%s.%s", sec, name);
    double x;
    size_t n;
    for (size_t i = 0; i < sizeof DKEYS / sizeof DKEYS[0]; i++) {
        const dkey *k = &DKEYS[i];
        if (strcasecmp(sec, k->sec) || strcasecmp(name, k->name))
            continue;
        if (num(v, &x) || x < k->lo || x > k->hi) {
            snprintf(r->why, sizeof r->why, "'%s': expected a number in [%g, %g]", v, k->lo, k->hi);
            return 0;
        }
        *(double *)((char *)p + k->off) = x;
        return 1;
    }
    if (!strcasecmp(sec, "machine") && !strcasecmp(name, "procs")) {
        if (num(v, &x) || x < 1 || x > 1e7 || x != floor(x)) {
            snprintf(r->why, sizeof r->why, "'%s': expected a whole number of PEs in [1, 1e7]", v);
            return 0;
        }
        p->procs = (long)x;
        return 1;
    }
    if (!strcasecmp(sec, "machine") && !strcasecmp(name, "source")) {
        snprintf(p->source, sizeof p->source, "%s", v);
        return 1;
    }
    if (!strcasecmp(sec, "arrival") && !strcasecmp(name, "weights")) {
        if (list(v, r->w + r->nw, NULL, GEN_BUCKETS - r->nw, &n)) {
            snprintf(r->why, sizeof r->why, "expected %d comma-separated weights in all "
                     "(%zu so far; a repeated key continues the list)", GEN_BUCKETS, r->nw);
            return 0;
        }
        for (size_t i = r->nw; i < r->nw + n; i++)
            if (r->w[i] <= 0) {
                snprintf(r->why, sizeof r->why, "weight %zu is %g: expected > 0", i + 1, r->w[i]);
                return 0;
            }
        r->nw += n;
        return 1;
    }
    if (!strcasecmp(sec, "estimate") && !strcasecmp(name, "modes")) {
        size_t k = r->nmode;
        double *s = p->mode_s + k, *w = p->mode_w + k;
        if (list(v, s, w, GEN_MODES_MAX - k, &n)) {
            snprintf(r->why, sizeof r->why, "expected 1 to %d SECONDS:WEIGHT pairs, comma-separated",
                     GEN_MODES_MAX);
            return 0;
        }
        for (size_t i = 0; i < n; i++)
            if (s[i] < 1 || w[i] <= 0 || (i + k && s[i] <= s[(long)i - 1])) {
                snprintf(r->why, sizeof r->why, "mode %zu (%g:%g): expected seconds >= 1 "
                         "increasing, weight > 0", k + i + 1, s[i], w[i]);
                return 0;
            }
        p->nmodes = r->nmode = k + n;
        return 1;
    }
    if (!strcasecmp(sec, "memory") && !strcasecmp(name, "model")) {
        if (strcasecmp(v, "none") && strcasecmp(v, "lognormal")) {
            snprintf(r->why, sizeof r->why, "'%s': expected lognormal or none", v);
            return 0;
        }
        p->mem_on = !strcasecmp(v, "lognormal");
        return 1;
    }
    snprintf(r->why, sizeof r->why, "unknown key");
    return 0;
}

int gen_params_read(gen_params *p, const char *path, char err[GEN_ERR_MAX])
{
    rd r = { .p = p };
    if (!(r.f = fopen(path, "r"))) {
        snprintf(err, GEN_ERR_MAX, "%s: cannot open: %s", path, strerror(errno));
        return 2;
    }
    int line = ini_parse_stream(rd_line, &r, handler, &r);
    fclose(r.f);
    if (r.toolong && line == 0) {
        snprintf(err, GEN_ERR_MAX, "%s:%ld: line longer than %d characters (split a list "
                 "over repeated keys)", path, r.line, INI_MAX_LINE - 2);
        return 2;
    }
    if (line > 0) {
        if (r.errline == line)
            snprintf(err, GEN_ERR_MAX, "%s:%d: %s: %s", path, line, r.key, r.why);
        else
            snprintf(err, GEN_ERR_MAX, "%s:%d: not a KEY = VALUE line or [section]", path, line);
        return 2;
    }
    if (line < -1) {
        snprintf(err, GEN_ERR_MAX, "%s: out of memory", path);
        return 2;
    }
    if (r.nw && r.nw != GEN_BUCKETS) {
        snprintf(err, GEN_ERR_MAX, "%s: arrival.weights: %zu weights: expected %d", path, r.nw,
                 GEN_BUCKETS);
        return 2;
    }
    if (r.nw) {
        double s = 0;
        for (size_t i = 0; i < GEN_BUCKETS; i++)
            s += r.w[i];
        for (size_t i = 0; i < GEN_BUCKETS; i++)     /* normalise to mean 1 */
            p->weights[i] = r.w[i] * GEN_BUCKETS / s;
    }
    return gen_params_check(p, err) ? 2 : 0;
}

int gen_params_check(const gen_params *p, char err[GEN_ERR_MAX])
{
    if (p->serial_prob + p->pow2_prob > 1) {
        snprintf(err, GEN_ERR_MAX, "size.serial_prob + size.pow2_prob = %g: expected <= 1",
                 p->serial_prob + p->pow2_prob);
        return 2;
    }
    if (p->serial_prob < 1 && !(p->ulow <= p->umed && p->umed <= p->uhi)) {
        snprintf(err, GEN_ERR_MAX, "size.ulow <= size.umed <= size.uhi does not hold (%g, %g, %g)%s",
                 p->ulow, p->umed, p->uhi,
                 p->procs < 2 ? ": a machine of 1 PE has only serial jobs (size.serial_prob = 1)"
                              : "");
        return 2;
    }
    /* The redraws above max_log (gen/model.c) end only if a draw at or
     * below it is not hopeless: each gamma must put at least 1e-9 of its
     * mass there. */
    const struct { const char *what; double a, b, max; } g[] = {
        {"runtime.a1, b1", p->a1, p->b1, p->rt_max_log},
        {"runtime.a2, b2", p->a2, p->b2, p->rt_max_log},
        {"arrival.aarr, barr", p->aarr, p->barr, p->arr_max_log},
    };
    for (size_t i = 0; i < sizeof g / sizeof g[0]; i++) {
        /* At or below its mean a gamma has well over a quarter of its mass:
         * only a mean above max_log needs the tail (GSL's errors turned
         * into NaN here, refused as such). */
        if (g[i].a * g[i].b <= g[i].max)
            continue;
        gsl_error_handler_t *old = gsl_set_error_handler_off();
        double P = gsl_cdf_gamma_P(g[i].max, g[i].a, g[i].b);
        gsl_set_error_handler(old);
        if (!(P >= 1e-9)) {
            snprintf(err, GEN_ERR_MAX, "%s = %g, %g: a gamma draw is at most max_log = %g with "
                     "probability %g: expected at least 1e-9 (the draws above max_log are "
                     "drawn again)", g[i].what, g[i].a, g[i].b, g[i].max, P);
            return 2;
        }
    }
    if (p->serial_prob < 1 && p->uhi > log2((double)p->procs) + 1e-6) {
        snprintf(err, GEN_ERR_MAX, "size.uhi = %g: expected <= log2(machine.procs) = %g",
                 p->uhi, log2((double)p->procs));
        return 2;
    }
    return 0;
}

/* key = list, 6 items a line (a repeated key continues the list: lines
 * stay within inih's buffer). */
static void pr_list(FILE *out, const char *pre, const char *key, const double *a, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (i % 6 == 0)
            fprintf(out, "%s%s = ", pre, key);
        fprintf(out, "%s%.10g%s", i % 6 ? "," : "", a[i], i % 6 == 5 || i + 1 == n ? "\n" : "");
    }
}

void gen_params_write(const gen_params *p, FILE *out, const char *pre)
{
    fprintf(out, "%s[machine]\n%sprocs = %ld\n%ssource = %s\n", pre, pre, p->procs, pre, p->source);
    const char *sec = "";
    for (size_t i = 0; i < sizeof DKEYS / sizeof DKEYS[0]; i++) {
        const dkey *k = &DKEYS[i];
        if (!strcmp(k->sec, "memory"))
            continue;           /* written below, after memory.model */
        if (strcmp(sec, k->sec))
            fprintf(out, "%s[%s]\n", pre, sec = k->sec);
        fprintf(out, "%s%s = %.10g\n", pre, k->name, *(const double *)((const char *)p + k->off));
        if (!strcmp(k->name, "p_same"))
            pr_list(out, pre, "weights", p->weights, GEN_BUCKETS);
    }
    fprintf(out, "%s[estimate]\n", pre);
    for (size_t i = 0; i < p->nmodes; i++) {
        if (i % 6 == 0)
            fprintf(out, "%smodes = ", pre);
        fprintf(out, "%s%.10g:%.6g%s", i % 6 ? "," : "", p->mode_s[i], p->mode_w[i],
                i % 6 == 5 || i + 1 == p->nmodes ? "\n" : "");
    }
    fprintf(out, "%s[memory]\n%smodel = %s\n", pre, pre, p->mem_on ? "lognormal" : "none");
    fprintf(out, "%smu = %.10g\n%sslope = %.10g\n%ssigma = %.10g\n", pre, p->mem_mu, pre,
            p->mem_slope, pre, p->mem_sigma);
}
