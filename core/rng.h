/* core/rng.h: random-number streams and distributions; public (issue 34).
 *
 * One master seed; any number of independent named streams derived from it
 * ("fault", 3) -> its own generator seeded from a hash of the master seed,
 * the name and the index. A component draws only from its own streams, so
 * adding draws in one component never changes another's sequence.
 *
 * Two generators (the key simulation.generator; docs/MODEL.md):
 *
 *  - RNG_XOSHIRO256SS, the default: xoshiro256** 1.0 (Blackman and Vigna,
 *    "Scrambled linear pseudorandom number generators", ACM TOMS 2021),
 *    32 bytes of state seeded with splitmix64 from the stream's 64-bit key.
 *    Exponential draws use a 256-layer ziggurat (Marsaglia and Tsang, "The
 *    ziggurat method for generating random variables", JSS 5(8), 2000):
 *    one 64-bit draw and a multiply for ~99% of draws, no logarithm.
 *    Uniform doubles take the top 53 bits; uniform integers use Lemire's
 *    multiply-and-reject ("Fast random integer generation in an interval",
 *    ACM TOMACS 2019), unbiased.
 *  - RNG_MT19937: Mersenne Twister, bit for bit the sequence of GSL's
 *    gsl_rng_mt19937 seeded with rng_stream_seed, with GSL's distributions
 *    (gsl_rng_uniform, gsl_rng_uniform_int, gsl_ran_exponential): the
 *    results of every release before the generator key existed
 *    (tests/test_rng.c compares against GSL itself). 2.5 KB per stream.
 *
 * Every distribution below works with both; each stream remembers its
 * generator. A master seed of 0 means "from the clock", as in PNRSim:
 * rng_resolve_seed turns it into the seed actually used, which the program
 * prints so the run can be repeated.
 */
#ifndef PNRSIM_CORE_RNG_H
#define PNRSIM_CORE_RNG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The generators; 0 is the default. */
typedef enum rng_gen {
    RNG_XOSHIRO256SS = 0,
    RNG_MT19937 = 1
} rng_gen;

/* One stream. The MT19937 state (624 words) follows only in streams of
 * that generator (flexible array member), so a xoshiro stream is 48 bytes. */
typedef struct rng {
    uint64_t s[4];      /* xoshiro256** state */
    rng_gen gen;
    unsigned mti;       /* MT19937: next index (624 = regenerate first) */
    uint32_t mt[];      /* MT19937: 624 words */
} rng_t;

/* The seed to use: seed itself when non-zero, else one from the clock. */
uint64_t rng_resolve_seed(uint64_t seed);
/* The 64-bit key of stream (name, index) under master (xoshiro256** is
 * seeded from it). */
uint64_t rng_stream_key(uint64_t master, const char *name, uint64_t index);
/* The GSL seed of stream (name, index) under master, for MT19937: the key
 * folded to 32 bits, never 0. */
unsigned long rng_stream_seed(uint64_t master, const char *name, uint64_t index);
/* A new stream (name, index) of generator gen. Aborts when out of memory. */
rng_t *rng_stream_gen(rng_gen gen, uint64_t master, const char *name, uint64_t index);
/* The same with the default generator. */
rng_t *rng_stream(uint64_t master, const char *name, uint64_t index);
/* A stream of xoshiro256** with the given state words (not all zero), for
 * known-answer tests against the authors' reference code. */
rng_t *rng_xoshiro_from_state(const uint64_t s[4]);
/* Free a stream made by rng_stream_gen, rng_stream, rng_xoshiro_from_state
 * or pnrsim_ctx_stream (core/registry.h), once; NULL does nothing. r is
 * not to be used afterwards. */
void rng_free(rng_t *r);
/* The generator's name as written in configuration ("XOSHIRO256SS",
 * "MT19937"). */
const char *rng_gen_name(rng_gen gen);

/* A family of streams (name, 0..n-1), each created when first asked for:
 * a stream's draws depend only on (generator, master, name, index), so
 * creating it late changes nothing, and a machine of 65,536 PEs does not
 * pay for a generator per PE that never draws. */
typedef struct rng_set {
    rng_gen gen;
    uint64_t master;
    const char *name;   /* not copied: must outlive the set */
    size_t n;
    rng_t **v;          /* v[i] == NULL until stream i is first used */
} rng_set;

/* Prepare n streams of generator gen named name under master (none
 * created yet). Aborts when out of memory. */
void rng_set_init(rng_set *s, rng_gen gen, uint64_t master, const char *name, size_t n);
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

/* The next 64-bit output of a xoshiro256** stream (the authors' next()). */
static inline uint64_t rng_next64(rng_t *r)
{
    uint64_t *s = r->s;
    uint64_t x = s[1] * 5;
    uint64_t out = ((x << 7) | (x >> 57)) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = (s[3] << 45) | (s[3] >> 19);
    return out;
}

/* Ziggurat tables (core/rng.c): layer i accepts at once when the 53-bit
 * uniform j < rng_zig_k[i], returning j * rng_zig_w[i]. */
extern uint64_t rng_zig_k[256];
extern double rng_zig_w[256];
/* The rest of a ziggurat draw whose quick test failed on output u. */
double rng_exp1_slow(rng_t *r, uint64_t u);
/* MT19937 exponential draw (gsl_ran_exponential). */
double rng_exp_mt(rng_t *r, double mean);

/* Uniform on [0, 1). */
double rng_uniform01(rng_t *r);
/* Uniform on [a, b). */
double rng_uniform(rng_t *r, double a, double b);
/* Uniform integer on 0..n-1 (1 <= n <= 2^32 - 1). */
unsigned long rng_index(rng_t *r, unsigned long n);
/* Exponential with the given mean (> 0). */
static inline double rng_exp(rng_t *r, double mean)
{
    if (__builtin_expect(r->gen == RNG_XOSHIRO256SS, 1)) {
        uint64_t u = rng_next64(r);
        unsigned i = (unsigned)(u & 255);
        uint64_t j = u >> 11;
        if (__builtin_expect(j < rng_zig_k[i], 1))
            return (double)j * rng_zig_w[i] * mean;
        return rng_exp1_slow(r, u) * mean;
    }
    return rng_exp_mt(r, mean);
}
/* Triangular on [a, c] with mode b (a <= b <= c), by inverse CDF. a == c
 * returns a; a == b and b == c are handled. */
double rng_triangular(rng_t *r, double a, double b, double c);
/* The inverse CDF used by rng_triangular, for u in [0, 1]. */
double rng_triangular_icdf(double u, double a, double b, double c);

#ifdef __cplusplus
}
#endif

#endif
