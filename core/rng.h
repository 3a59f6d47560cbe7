/* core/rng.h: random-number streams and distributions (GSL).
 *
 * One master seed; any number of independent named streams derived from it
 * ("fault", 3) -> its own GSL generator seeded from a hash of the master
 * seed, the name and the index. A component draws only from its own
 * streams, so adding draws in one component never changes another's
 * sequence. The generator is Mersenne Twister MT19937, implemented here
 * so that its draws inline into the callers, and bit for bit the sequence
 * of GSL's gsl_rng_mt19937 with the same seed, as are the distributions
 * (gsl_rng_uniform, gsl_rng_uniform_int, gsl_ran_exponential): results
 * are those of the GSL-based streams (tests/test_rng.c compares them).
 *
 * A master seed of 0 means "from the clock", as in PNRSim: rng_resolve_seed
 * turns it into the seed actually used, which the program prints so the run
 * can be repeated.
 */
#ifndef PNRSIM_CORE_RNG_H
#define PNRSIM_CORE_RNG_H

#include <stddef.h>
#include <stdint.h>

/* One MT19937 stream: 624 words of state and the next index (624 = the
 * state must be regenerated first). */
typedef struct rng {
    uint32_t mt[624];
    unsigned mti;
} rng_t;

/* The seed to use: seed itself when non-zero, else one from the clock. */
uint64_t rng_resolve_seed(uint64_t seed);
/* The GSL seed of stream (name, index) under master: a 64-bit mix, never 0. */
unsigned long rng_stream_seed(uint64_t master, const char *name, uint64_t index);
/* A new generator for stream (name, index). Aborts when out of memory. */
rng_t *rng_stream(uint64_t master, const char *name, uint64_t index);
void rng_free(rng_t *r);

/* A family of streams (name, 0..n-1), each created when first asked for:
 * a stream's draws depend only on (master, name, index), so creating it
 * late changes nothing, and a machine of 65,536 PEs does not pay for (and
 * hold, ~5 KB each) a generator per PE that never draws. */
typedef struct rng_set {
    uint64_t master;
    const char *name;   /* not copied: must outlive the set */
    size_t n;
    rng_t **v;          /* v[i] == NULL until stream i is first used */
} rng_set;

/* Prepare n streams named name under master (none created yet). Aborts
 * when out of memory. */
void rng_set_init(rng_set *s, uint64_t master, const char *name, size_t n);
/* Free every stream created and the set's array. */
void rng_set_free(rng_set *s);
/* Creates stream i of s (used by rng_set_get). */
rng_t *rng_set_make(rng_set *s, size_t i);
/* Stream i (< n) of s, created on first use. */
static inline rng_t *rng_set_get(rng_set *s, size_t i)
{
    rng_t *r = s->v[i];
    return r ? r : rng_set_make(s, i);
}

/* Uniform on [0, 1). */
double rng_uniform01(rng_t *r);
/* Uniform on [a, b). */
double rng_uniform(rng_t *r, double a, double b);
/* Uniform integer on 0..n-1 (n >= 1). */
unsigned long rng_index(rng_t *r, unsigned long n);
/* Exponential with the given mean (> 0). */
double rng_exp(rng_t *r, double mean);
/* Triangular on [a, c] with mode b (a <= b <= c), by inverse CDF. a == c
 * returns a; a == b and b == c are handled. */
double rng_triangular(rng_t *r, double a, double b, double c);
/* The inverse CDF used by rng_triangular, for u in [0, 1]. */
double rng_triangular_icdf(double u, double a, double b, double c);

#endif
