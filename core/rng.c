/* core/rng.c: named random streams and the distributions the model uses. */
#include "core/rng.h"

#include <assert.h>
#include <gsl/gsl_randist.h>
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
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    if (!g) {
        fprintf(stderr, "pnrsim: out of memory (random stream)\n");
        abort();
    }
    gsl_rng_set(g, rng_stream_seed(master, name, index));
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
        gsl_rng_free(r);
}

double rng_uniform01(rng_t *r)
{
    return gsl_rng_uniform(r);
}

double rng_uniform(rng_t *r, double a, double b)
{
    return a + (b - a) * gsl_rng_uniform(r);
}

unsigned long rng_index(rng_t *r, unsigned long n)
{
    assert(n >= 1);
    return gsl_rng_uniform_int(r, n);
}

double rng_exp(rng_t *r, double mean)
{
    assert(mean > 0);
    return gsl_ran_exponential(r, mean);
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
    return rng_triangular_icdf(gsl_rng_uniform(r), a, b, c);
}
