/* gen/fit.c: `pnrsim-gen --fit TRACE`, the model's parameters from a log.
 *
 * The fit reads the whole log into arrays (it is a one-off analysis, not
 * the generator's stream) and estimates each part of the model apart:
 *  - sizes: serial and power-of-two shares counted; (ulow, umed, uprob) by
 *    a grid search minimising the Kolmogorov-Smirnov distance between the
 *    model's exact size CDF and the log's (uhi = log2 of the machine);
 *  - runtimes: a two-gamma mixture on ln(runtime) by EM with moment
 *    M-steps, then p = pa * size + pb by least squares of each job's
 *    responsibility of the first gamma on its size;
 *  - arrivals: the daily weights from the log's half-hour counts (local
 *    time from UnixStartTime and TimeZone when the header has them), and
 *    gamma(aarr, barr) by moments on ln of each inter-arrival's weighted
 *    length (the points Lublin's process would spend on it);
 *  - requested times: the log's values held by at least 0.5% of the jobs
 *    (at most GEN_MODES_MAX, the largest always) as modes, their weights
 *    scaled iteratively until the model's choice rule applied to the log's
 *    own runtimes reproduces the log's share of each mode;
 *  - memory: least squares of ln(KB per process) on ln(size) (mu, slope),
 *    sigma the residuals' root mean square; off with fewer than 10 jobs
 *    that have memory;
 *  - p_same: the share of inter-arrival times of 0 s (beyond Lublin's
 *    model), the gamma then fitted to the others.
 */
#include "gen/fit.h"

#include "app/swf.h"
#include "core/mem.h"

#include <gsl/gsl_randist.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct fjob {
    double submit, run, req, mem;
    long n;
} fjob;

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* CDF of the two-stage uniform at x. */
static double tsu_cdf(double x, double lo, double med, double hi, double pr)
{
    if (x <= lo)
        return 0;
    if (x >= hi)
        return 1;
    if (x <= med)
        return med > lo ? pr * (x - lo) / (med - lo) : pr;
    return pr + (1 - pr) * (x - med) / (hi - med);
}

static int cmp_l(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* The model's size CDF at s (exact: the branches' roundings). */
static double size_cdf(long s, double sp, double pp, double op, double lo, double med, double hi,
                       double pr)
{
    if (s < 1)
        return 0;
    return sp + pp * tsu_cdf(floor(log2((double)s)) + 0.5, lo, med, hi, pr)
         + op * tsu_cdf(log2(s + 0.5), lo, med, hi, pr);
}

static void fit_sizes(gen_params *p, const fjob *j, size_t n)
{
    long P = p->procs, minpar = P;
    long *v = xmalloc(n * sizeof *v);
    size_t ser = 0, pow2 = 0;
    for (size_t i = 0; i < n; i++) {
        long s = j[i].n > P ? P : j[i].n;
        v[i] = s;
        if (s == 1)
            ser++;
        else {
            if (!(s & (s - 1)))
                pow2++;
            if (s < minpar)
                minpar = s;
        }
    }
    qsort(v, n, sizeof *v, cmp_l);
    /* Both CDFs are steps on whole sizes and the log's is flat between
     * its sizes, where the model's only grows: |G - E| is largest at a
     * logged size or just below the next one. Those points and E there. */
    long *at = xmalloc(2 * n * sizeof *at);
    double *e = xmalloc(2 * n * sizeof *e);
    size_t k = 0;
    for (size_t i = 0; i < n;) {
        size_t q = i;
        while (q < n && v[q] == v[i])
            q++;
        if (i == 0 && v[0] > 1) {
            at[k] = v[0] - 1;
            e[k++] = 0;
        }
        at[k] = v[i];
        e[k++] = (double)q / (double)n;
        if (q < n && v[q] - 1 > v[i]) {
            at[k] = v[q] - 1;
            e[k++] = (double)q / (double)n;
        }
        i = q;
    }
    p->serial_prob = (double)ser / (double)n;
    p->pow2_prob = (double)pow2 / (double)n;
    p->uhi = log2((double)P);
    double sp = p->serial_prob, pp = p->pow2_prob, op = 1 - sp - pp, best = 2;
    double l0 = log2((double)(minpar < P ? minpar : 2));
    for (double lo = l0 - 0.5; lo <= p->uhi - 0.5; lo += 0.1)
        for (double med = lo + 0.05; med < p->uhi; med += 0.05)
            for (double pr = 0.02; pr < 1; pr += 0.02) {
                double d = 0;
                for (size_t q = 0; q < k && d < best; q++) {
                    double x = fabs(size_cdf(at[q], sp, pp, op, lo, med, p->uhi, pr) - e[q]);
                    if (x > d)
                        d = x;
                }
                if (d < best) {
                    best = d;
                    p->ulow = lo < 0 ? 0 : lo;
                    p->umed = med;
                    p->uprob = pr;
                }
            }
    free(v);
    free(at);
    free(e);
}

static void mom(double m, double v, double *a, double *b)
{
    if (v <= 1e-12)
        v = 1e-12;
    *a = m * m / v;
    *b = v / m;
}

static void fit_runtimes(gen_params *p, const fjob *j, size_t n)
{
    double *x = xmalloc(n * sizeof *x), *g = xmalloc(n * sizeof *g), *s = xmalloc(n * sizeof *s);
    double mx = 0;
    for (size_t i = 0; i < n; i++) {
        x[i] = log(j[i].run < 1 ? 1 : j[i].run);
        if (x[i] < 0.05)
            x[i] = 0.05;        /* the gammas' support: runtimes of 0-1 s */
        s[i] = x[i];
        mx = x[i] > mx ? x[i] : mx;
    }
    qsort(s, n, sizeof *s, cmp_d);
    double med = s[n / 2], w = 0.5;
    double a1, b1, a2, b2, m1 = 0, m2 = 0, v1 = 0, v2 = 0;
    size_t k1 = 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] < med) {
            m1 += s[i];
            k1++;
        } else
            m2 += s[i];
    m1 /= (double)(k1 ? k1 : 1);
    m2 /= (double)(n - k1 ? n - k1 : 1);
    for (size_t i = 0; i < n; i++) {
        if (s[i] < med)
            v1 += (s[i] - m1) * (s[i] - m1);
        else
            v2 += (s[i] - m2) * (s[i] - m2);
    }
    mom(m1 > 0.05 ? m1 : 0.05, v1 / (double)(k1 ? k1 : 1) + 1e-3, &a1, &b1);
    mom(m2, v2 / (double)(n - k1 ? n - k1 : 1) + 1e-3, &a2, &b2);
    for (int it = 0; it < 300; it++) {
        double sw = 0, sx1 = 0, sx2 = 0, sq1 = 0, sq2 = 0;
        for (size_t i = 0; i < n; i++) {
            double f1 = w * gsl_ran_gamma_pdf(x[i], a1, b1);
            double f2 = (1 - w) * gsl_ran_gamma_pdf(x[i], a2, b2);
            g[i] = f1 + f2 > 0 ? f1 / (f1 + f2) : (x[i] < m1 + (m2 - m1) / 2);
            sw += g[i];
            sx1 += g[i] * x[i];
            sx2 += (1 - g[i]) * x[i];
        }
        if (sw < 1 || (double)n - sw < 1)
            break;
        m1 = sx1 / sw;
        m2 = sx2 / ((double)n - sw);
        for (size_t i = 0; i < n; i++) {
            sq1 += g[i] * (x[i] - m1) * (x[i] - m1);
            sq2 += (1 - g[i]) * (x[i] - m2) * (x[i] - m2);
        }
        mom(m1, sq1 / sw, &a1, &b1);
        mom(m2, sq2 / ((double)n - sw), &a2, &b2);
        w = sw / (double)n;
    }
    /* p = pa * size + pb: least squares of responsibilities on sizes. */
    double sn = 0, sg = 0, snn = 0, sng = 0;
    for (size_t i = 0; i < n; i++) {
        double v = (double)j[i].n;
        sn += v;
        sg += g[i];
        snn += v * v;
        sng += v * g[i];
    }
    double den = (double)n * snn - sn * sn;
    p->pa = den > 0 ? ((double)n * sng - sn * sg) / den : 0;
    p->pb = (sg - p->pa * sn) / (double)n;
    p->a1 = a1; p->b1 = b1; p->a2 = a2; p->b2 = b2;
    p->rt_max_log = mx + 0.01;
    free(x);
    free(g);
    free(s);
}

/* The weighted length (s x weight) of [t0, t1] under the daily weights,
 * t measured in local seconds since a midnight. */
static double wlen(const double *w, double t0, double t1)
{
    const double B = 86400.0 / GEN_BUCKETS;
    double acc = 0, t = t0;
    while (t < t1) {
        double k = floor(t / B), end = (k + 1) * B;
        if (end > t1)
            end = t1;
        acc += (end - t) * w[(long)fmod(k, GEN_BUCKETS)];
        t = end;
    }
    return acc;
}

static void fit_arrivals(gen_params *p, const fjob *j, size_t n, double t0)
{
    const double B = 86400.0 / GEN_BUCKETS;
    double c[GEN_BUCKETS];
    for (int b = 0; b < GEN_BUCKETS; b++)
        c[b] = 1;              /* one pseudo-count: no bucket of weight 0 */
    for (size_t i = 0; i < n; i++) {
        double t = fmod(t0 + j[i].submit, 86400.0);
        c[(int)(t / B) % GEN_BUCKETS] += 1;
    }
    double tot = 0;
    for (int b = 0; b < GEN_BUCKETS; b++)
        tot += c[b];
    for (int b = 0; b < GEN_BUCKETS; b++)
        p->weights[b] = c[b] * GEN_BUCKETS / tot;
    double m = 0, v = 0, mx = 0;
    size_t k = 0, same = 0;
    for (size_t i = 1; i < n; i++) {
        if (j[i].submit <= j[i - 1].submit) {
            same++;
            continue;
        }
        double L = wlen(p->weights, t0 + j[i - 1].submit, t0 + j[i].submit);
        double x = log(L < 1.05 ? 1.05 : L);
        m += x;
        v += x * x;
        mx = x > mx ? x : mx;
        k++;
    }
    p->p_same = (double)same / (double)(n - 1);
    if (p->p_same > 0.99)
        p->p_same = 0.99;
    if (k < 2)
        return;                 /* keep Lublin's gamma */
    m /= (double)k;
    v = v / (double)k - m * m;
    mom(m, v, &p->aarr, &p->barr);
    p->arr_max_log = mx + 0.01;
}

static int cmp_req(const void *a, const void *b)
{
    const fjob *x = a, *y = b;
    return (x->req > y->req) - (x->req < y->req);
}

static void fit_requests(gen_params *p, fjob *j, size_t n)
{
    fjob *s = xmalloc(n * sizeof *s);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (j[i].req > 0)
            s[m++] = j[i];
    if (m < 10) {
        free(s);
        return;                 /* too few: keep the default modes */
    }
    qsort(s, m, sizeof *s, cmp_req);
    double ms[GEN_MODES_MAX], tgt[GEN_MODES_MAX];
    size_t k = 0;
    for (size_t i = 0; i < m;) {
        size_t e = i;
        while (e < m && s[e].req == s[i].req)
            e++;
        bool last = e == m;
        if ((double)(e - i) >= 0.005 * (double)m || last) {
            if (k == GEN_MODES_MAX)
                k--;            /* keep room for the largest */
            ms[k] = s[i].req;
            tgt[k++] = (double)(e - i);
        }
        i = e;
    }
    double tt = 0;
    for (size_t i = 0; i < k; i++)
        tt += tgt[i];
    for (size_t i = 0; i < k; i++) {
        tgt[i] /= tt;
        p->mode_w[i] = tgt[i];
        p->mode_s[i] = ms[i];
    }
    p->nmodes = k;
    /* Scale the weights until the choice rule over the log's runtimes
     * gives each mode its share (a fixed point; 100 rounds). */
    double got[GEN_MODES_MAX];
    for (int it = 0; it < 100; it++) {
        memset(got, 0, sizeof got);
        for (size_t i = 0; i < m; i++) {
            double tot = 0;
            size_t f = k;
            for (size_t q = k; q-- > 0 && ms[q] >= s[i].run;) {
                tot += p->mode_w[q];
                f = q;
            }
            for (size_t q = f; q < k; q++)
                got[q] += p->mode_w[q] / tot / (double)m;
        }
        double sum = 0;
        for (size_t q = 0; q < k; q++) {
            if (got[q] > 0)
                p->mode_w[q] *= tgt[q] / got[q];
            sum += p->mode_w[q];
        }
        for (size_t q = 0; q < k; q++)
            p->mode_w[q] /= sum;
    }
    free(s);
}

static void fit_memory(gen_params *p, const fjob *j, size_t n)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0, k = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(j[i].mem > 0))
            continue;
        double x = log((double)j[i].n), y = log(j[i].mem);
        sx += x; sy += y; sxx += x * x; sxy += x * y; k += 1;
    }
    if (k < 10) {
        p->mem_on = false;      /* the log has (almost) no memory */
        return;
    }
    double den = k * sxx - sx * sx;
    p->mem_slope = den > 1e-9 ? (k * sxy - sx * sy) / den : 0;
    p->mem_mu = (sy - p->mem_slope * sx) / k;
    double ss = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(j[i].mem > 0))
            continue;
        double e = log(j[i].mem) - p->mem_mu - p->mem_slope * log((double)j[i].n);
        ss += e * e;
    }
    p->mem_on = true;
    p->mem_sigma = sqrt(ss / k);
}

int gen_fit(gen_params *p, const char *path, char err[GEN_ERR_MAX])
{
    char e2[CFG_ERR_MAX];
    swf_reader *r = swf_open(path, false, e2);
    if (!r) {
        snprintf(err, GEN_ERR_MAX, "%s", e2);
        return 2;
    }
    size_t n = 0, cap = 1024;
    fjob *j = xmalloc(cap * sizeof *j);
    swf_record rec;
    bool bad;
    int rc;
    long maxn = 0;
    while ((rc = swf_next(r, &rec, &bad, e2)) == 1) {
        double procs = rec.f[4] >= 1 ? rec.f[4] : rec.f[7];
        if (!(procs >= 1) || !(rec.f[3] >= 0) || !(rec.f[1] >= 0))
            continue;
        if (n == cap)
            j = xrealloc(j, (cap *= 2) * sizeof *j);
        j[n] = (fjob){ rec.f[1], rec.f[3], rec.f[8], rec.f[6], (long)procs };
        maxn = j[n].n > maxn ? j[n].n : maxn;
        n++;
    }
    if (rc < 0) {
        snprintf(err, GEN_ERR_MAX, "%s", e2);
        swf_close(r);
        free(j);
        return 2;
    }
    const char *mp = swf_header(r, "MaxProcs"), *us = swf_header(r, "UnixStartTime"),
               *tz = swf_header(r, "TimeZone");
    long procs = mp ? atol(mp) : 0;
    double t0 = (us ? atof(us) : 0) + (tz ? atof(tz) : 0);
    if (procs < maxn)
        procs = maxn;
    if (n < 10) {
        snprintf(err, GEN_ERR_MAX, "%s: %zu usable jobs: the fit needs at least 10", path, n);
        swf_close(r);
        free(j);
        return 2;
    }
    p->procs = procs;
    fit_sizes(p, j, n);
    fit_runtimes(p, j, n);
    fit_arrivals(p, j, n, t0);
    fit_requests(p, j, n);
    fit_memory(p, j, n);
    snprintf(p->source, sizeof p->source, "fit of %s (%zu jobs)", swf_name(r), n);
    swf_close(r);
    free(j);
    return 0;
}
