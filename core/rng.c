/* core/rng.c: named random streams, the two generators (xoshiro256**,
 * MT19937 as in GSL) and the distributions the model uses (see rng.h). */
#include "core/rng.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

uint64_t rng_resolve_seed(uint64_t seed)
{
    if (seed)
        return seed;
    uint64_t t = (uint64_t)time(NULL);
    return t ? t : 1;
}

/* splitmix64 (Vigna): the state advances by the golden ratio, the output
 * is this bijective mix of 64 bits. */
static uint64_t mix64(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint64_t rng_stream_key(uint64_t master, const char *name, uint64_t index)
{
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a over the name */
    for (const unsigned char *s = (const unsigned char *)name; *s; s++)
        h = (h ^ *s) * 0x100000001b3ull;
    uint64_t z = mix64(mix64(master) ^ h);
    return mix64(z ^ index);
}

unsigned long rng_stream_seed(uint64_t master, const char *name, uint64_t index)
{
    uint64_t z = rng_stream_key(master, name, index);
    /* mt19937 uses the low 32 bits of its seed; fold the high half in. */
    unsigned long s32 = (unsigned long)((z ^ (z >> 32)) & 0xffffffffu);
    return s32 ? s32 : 1;
}

const char *rng_gen_name(rng_gen gen)
{
    return gen == RNG_MT19937 ? "MT19937" : "XOSHIRO256SS";
}

/* ---- ziggurat for the exponential (Marsaglia and Tsang 2000) ----
 *
 * The density f(x) = e^-x is covered by 256 layers of equal area v: layer
 * 0 is the strip [0, r] x [0, f(r)] plus the tail beyond r, layers
 * i = 1..255 the boxes [0, x_i] x [f(x_i), f(x_{i+1})], with x_1 = r,
 * x_{i+1} = f^-1(f(x_i) + v / x_i) and x_256 = 0; layer 0 has the
 * pseudo-width x_0 = v / f(r). A draw picks layer i (8 bits) and
 * x = U x_i (53 bits): x < x_{i+1} lies under the curve and is returned;
 * in layer 0 beyond r it is a tail draw, r + Exp(1) (memorylessness); in
 * the other layers a point (x, y) with y uniform in [f(x_i), f(x_{i+1})]
 * is accepted when y < f(x) and otherwise the whole draw starts again.
 * r = 7.69711747013104972 is the paper's for 256 layers; v = f(r)(r + 1)
 * makes the layers' area equal the tail's strip. */
#define ZIG_R 7.69711747013104972

uint64_t rng_zig_k[256];
double rng_zig_w[256];
static double zig_x[257], zig_f[257];
static int zig_ready;

static void zig_init(void)
{
    if (zig_ready)
        return;
    const double r = ZIG_R, v = exp(-r) * (r + 1);
    zig_x[0] = v / exp(-r);
    zig_x[1] = r;
    for (int i = 1; i < 255; i++) {
        double y = exp(-zig_x[i]) + v / zig_x[i];
        assert(y < 1);
        zig_x[i + 1] = -log(y);
    }
    zig_x[256] = 0;
    for (int i = 0; i <= 256; i++)
        zig_f[i] = exp(-zig_x[i]);
    const double two53 = 9007199254740992.0;
    for (int i = 0; i < 256; i++) {
        rng_zig_k[i] = (uint64_t)(zig_x[i + 1] / zig_x[i] * two53);
        rng_zig_w[i] = zig_x[i] / two53;
    }
    zig_ready = 1;
}

double rng_exp1_slow(rng_t *r, uint64_t u)
{
    double add = 0;
    for (;;) {
        unsigned i = (unsigned)(u & 255);
        uint64_t j = u >> 11;
        double x = (double)j * rng_zig_w[i];
        if (j < rng_zig_k[i])
            return add + x;
        if (i == 0) {
            add += ZIG_R; /* the tail: r + a fresh Exp(1) */
        } else {
            double y = zig_f[i] + (double)(rng_next64(r) >> 11) * 0x1.0p-53 *
                                      (zig_f[i + 1] - zig_f[i]);
            if (y < exp(-x))
                return add + x;
        }
        u = rng_next64(r);
    }
}

rng_t *rng_stream_gen(rng_gen gen, uint64_t master, const char *name, uint64_t index)
{
    size_t bytes = sizeof(rng_t) + (gen == RNG_MT19937 ? 624 * sizeof(uint32_t) : 0);
    rng_t *g = malloc(bytes);
    if (!g) {
        fprintf(stderr, "pnrsim: out of memory (random stream)\n");
        abort();
    }
    g->gen = gen;
    g->mti = 624;
    if (gen == RNG_MT19937) {
        /* GSL's mt_set: Knuth's initialisation of the 1998 reference code,
         * seed 0 meaning 4357 (rng_stream_seed never gives 0). */
        unsigned long s = rng_stream_seed(master, name, index);
        g->mt[0] = (uint32_t)(s ? s : 4357);
        for (unsigned i = 1; i < 624; i++)
            g->mt[i] = 1812433253u * (g->mt[i - 1] ^ (g->mt[i - 1] >> 30)) + i;
        g->s[0] = g->s[1] = g->s[2] = g->s[3] = 0;
    } else {
        /* The authors' advice: fill the state with splitmix64 outputs
         * (distinct inputs through a bijection: never all zero). */
        uint64_t z = rng_stream_key(master, name, index);
        for (int k = 0; k < 4; k++)
            g->s[k] = mix64(z + (uint64_t)k * 0x9e3779b97f4a7c15ull);
        zig_init();
    }
    return g;
}

rng_t *rng_stream(uint64_t master, const char *name, uint64_t index)
{
    return rng_stream_gen(RNG_XOSHIRO256SS, master, name, index);
}

rng_t *rng_xoshiro_from_state(const uint64_t s[4])
{
    assert(s[0] | s[1] | s[2] | s[3]);
    rng_t *g = rng_stream_gen(RNG_XOSHIRO256SS, 0, "", 0);
    for (int k = 0; k < 4; k++)
        g->s[k] = s[k];
    return g;
}

void rng_set_init(rng_set *s, rng_gen gen, uint64_t master, const char *name, size_t n)
{
    s->gen = gen;
    s->master = master;
    s->name = name;
    s->n = n;
    s->v = calloc(n ? n : 1, sizeof *s->v);
    if (!s->v) {
        fprintf(stderr, "pnrsim: out of memory (random streams)\n");
        abort();
    }
}

rng_t *rng_set_make(rng_set *s, size_t i)
{
    assert(i < s->n && !s->v[i]);
    s->v[i] = rng_stream_gen(s->gen, s->master, s->name, (uint64_t)i);
    return s->v[i];
}

void rng_set_free(rng_set *s)
{
    if (!s->v)
        return;
    for (size_t i = 0; i < s->n; i++)
        rng_free(s->v[i]);
    free(s->v);
    s->v = NULL;
    s->n = 0;
}

void rng_free(rng_t *r)
{
    if (r)
        free(r);
}

/* Regenerate the 624 words of state (the reference code's loop). */
static void mt_refill(rng_t *r)
{
    enum { N = 624, M = 397 };
    uint32_t *mt = r->mt;
#define MT_MIX(a, b, c) ((c) ^ ((((a) & 0x80000000u) | ((b) & 0x7fffffffu)) >> 1) ^ \
                         (((b) & 1u) ? 0x9908b0dfu : 0u))
    unsigned k;
    for (k = 0; k < N - M; k++)
        mt[k] = MT_MIX(mt[k], mt[k + 1], mt[k + M]);
    for (; k < N - 1; k++)
        mt[k] = MT_MIX(mt[k], mt[k + 1], mt[k + M - N]);
    mt[N - 1] = MT_MIX(mt[N - 1], mt[0], mt[M - 1]);
#undef MT_MIX
    r->mti = 0;
}

/* The next 32-bit output (GSL's mt_get). */
static inline uint32_t mt_next(rng_t *r)
{
    if (__builtin_expect(r->mti >= 624, 0))
        mt_refill(r);
    uint32_t k = r->mt[r->mti++];
    k ^= k >> 11;
    k ^= (k << 7) & 0x9d2c5680u;
    k ^= (k << 15) & 0xefc60000u;
    k ^= k >> 18;
    return k;
}

/* gsl_rng_uniform for mt19937: k / 2^32, in [0, 1). */
static inline double mt_uniform(rng_t *r)
{
    return mt_next(r) / 4294967296.0;
}

/* Uniform on [0, 1) from either generator: xoshiro's top 53 bits / 2^53. */
static inline double uniform01(rng_t *r)
{
    if (r->gen == RNG_XOSHIRO256SS)
        return (double)(rng_next64(r) >> 11) * 0x1.0p-53;
    return mt_uniform(r);
}

double rng_uniform01(rng_t *r)
{
    return uniform01(r);
}

double rng_uniform(rng_t *r, double a, double b)
{
    return a + (b - a) * uniform01(r);
}

unsigned long rng_index(rng_t *r, unsigned long n)
{
    assert(n >= 1);
    assert(n <= 0xffffffffu);
    if (r->gen == RNG_XOSHIRO256SS) {
        /* Lemire: the high word of x * n, rejecting the low words below
         * 2^64 mod n, which leaves every value exactly as likely. */
        uint64_t nn = n;
        unsigned __int128 m = (unsigned __int128)rng_next64(r) * nn;
        uint64_t lo = (uint64_t)m;
        if (lo < nn) {
            uint64_t t = -nn % nn;
            while (lo < t) {
                m = (unsigned __int128)rng_next64(r) * nn;
                lo = (uint64_t)m;
            }
        }
        return (unsigned long)(m >> 64);
    }
    /* gsl_rng_uniform_int: range 0..2^32-1 cut into n bins of
     * floor((2^32 - 1) / n) values, the rest rejected. */
    unsigned long scale = 0xffffffffUL / n, k;
    do
        k = mt_next(r) / scale;
    while (k >= n);
    return k;
}

double rng_exp_mt(rng_t *r, double mean)
{
    assert(mean > 0);
    /* gsl_ran_exponential */
    return -mean * log1p(-mt_uniform(r));
}

double rng_triangular_icdf(double u, double a, double b, double c)
{
    assert(a <= b && b <= c);
    if (c <= a)
        return a;
    double fb = (b - a) / (c - a); /* CDF at the mode */
    if (u < fb)
        return a + sqrt(u * (c - a) * (b - a));
    return c - sqrt((1 - u) * (c - a) * (c - b));
}

double rng_triangular(rng_t *r, double a, double b, double c)
{
    return rng_triangular_icdf(uniform01(r), a, b, c);
}
