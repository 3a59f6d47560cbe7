/* core/rng.c: named random streams and the distributions the model uses. */
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

/* splitmix64 finaliser: a bijective mix of 64 bits. */
static uint64_t mix64(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

unsigned long rng_stream_seed(uint64_t master, const char *name, uint64_t index)
{
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a over the name */
    for (const unsigned char *s = (const unsigned char *)name; *s; s++)
        h = (h ^ *s) * 0x100000001b3ull;
    uint64_t z = mix64(mix64(master) ^ h);
    z = mix64(z ^ index);
    /* mt19937 uses the low 32 bits of its seed; fold the high half in. */
    unsigned long s32 = (unsigned long)((z ^ (z >> 32)) & 0xffffffffu);
    return s32 ? s32 : 1;
}

rng_t *rng_stream(uint64_t master, const char *name, uint64_t index)
{
    rng_t *g = malloc(sizeof *g);
    if (!g) {
        fprintf(stderr, "pnrsim: out of memory (random stream)\n");
        abort();
    }
    /* GSL's mt_set: Knuth's initialisation of the 1998 reference code,
     * seed 0 meaning 4357 (rng_stream_seed never gives 0). */
    unsigned long s = rng_stream_seed(master, name, index);
    g->mt[0] = (uint32_t)(s ? s : 4357);
    for (unsigned i = 1; i < 624; i++)
        g->mt[i] = 1812433253u * (g->mt[i - 1] ^ (g->mt[i - 1] >> 30)) + i;
    g->mti = 624;
    return g;
}

void rng_set_init(rng_set *s, uint64_t master, const char *name, size_t n)
{
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
    s->v[i] = rng_stream(s->master, s->name, (uint64_t)i);
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

double rng_uniform01(rng_t *r)
{
    return mt_uniform(r);
}

double rng_uniform(rng_t *r, double a, double b)
{
    return a + (b - a) * mt_uniform(r);
}

unsigned long rng_index(rng_t *r, unsigned long n)
{
    assert(n >= 1);
    /* gsl_rng_uniform_int: range 0..2^32-1 cut into n bins of
     * floor((2^32 - 1) / n) values, the rest rejected. */
    assert(n <= 0xffffffffu);
    unsigned long scale = 0xffffffffUL / n, k;
    do
        k = mt_next(r) / scale;
    while (k >= n);
    return k;
}

double rng_exp(rng_t *r, double mean)
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
    return rng_triangular_icdf(mt_uniform(r), a, b, c);
}
