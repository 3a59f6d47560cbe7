/* tests/test_numtext.c: the number parser and formatter (app/numtext.h)
 * against the C library they stand in for: num_parse against strtod (read
 * to the token's end, finite) and num_put_* against snprintf, bit for bit
 * and byte for byte, on edge inputs and on a million random ones of the
 * shapes traces and job rows hold (and of shapes they do not, which must
 * take the library path and still agree).
 */
#include "app/numtext.h"
#include "tests/testutil.h"

#include <ctype.h>
#include <float.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The test's own generator (splitmix64), so that its inputs do not depend
 * on the simulator's streams. */
static uint64_t mix_state;
static uint64_t rnd(void)
{
    uint64_t z = (mix_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
/* Uniform on 0..n-1 (n small: the bias is negligible and harmless here). */
static unsigned long rnd_index(unsigned long n)
{
    return (unsigned long)(rnd() % n);
}

/* The reference: the token's characters must be those of a decimal
 * number, strtod must read all of them and the value must be finite. */
static bool ref_parse(const char *t, size_t n, double *v)
{
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!(isdigit((unsigned char)t[i]) || strchr(".-+eE", t[i])))
            return false;
    char buf[128];
    ck_assert_uint_lt(n, sizeof buf);
    memcpy(buf, t, n);
    buf[n] = '\0';
    char *end;
    double x = strtod(buf, &end);
    if (end != buf + n || !isfinite(x))
        return false;
    *v = x;
    return true;
}

/* num_parse(s) and the reference agree: both reject, or both accept with
 * the same bits. The token is followed by a space, as in a record. */
static void same_parse(const char *s)
{
    char line[160];
    snprintf(line, sizeof line, "%s 7", s);
    size_t n = strlen(s);
    double a = 12345.5, b = 12345.5;
    bool ok_a = num_parse(line, n, &a), ok_b = ref_parse(s, n, &b);
    /* ck_abort only on failure: a ck_assert per input is slow (Check
     * records every one). */
    if (ok_a != ok_b)
        ck_abort_msg("\"%s\": num_parse %d, strtod %d", s, ok_a, ok_b);
    if (ok_a && memcmp(&a, &b, sizeof a) != 0)
        ck_abort_msg("\"%s\": %.17g vs strtod %.17g", s, a, b);
    if (!ok_a && a != 12345.5)
        ck_abort_msg("\"%s\": rejected but *v changed", s);
}

START_TEST(test_parse_edges)
{
    static const char *const edges[] = {
        "0", "-0", "00", "-00", "0.0", "-0.0", "1", "-1", "7.", ".5", "-.5", "5.",
        "0.1", "0.2", "0.3", "552.21", "3600", "1451", "-1.0", "1e3", "1E3", "1e-3", "-1e3",
        "+5", "+0", "1e400", "-1e400", "1e-400", "4.9e-324", "1.7976931348623157e308",
        "999999999999999", "9999999999999999", "123456789012345.", "12345678901234.5",
        "1234567890123456", "0.000000000000001", "0.0000000000000001", ".123456789012345",
        "9007199254740993", "000000000000000000001", "1.000000000000000000001",
        "0.1000000000000000055511151231257827", "", "-", ".", "-.", "+", "e", "1e", "1e+",
        "1.2.3", "--1", "-+1", "1-", "1..2", "abc", "nan", "NaN", "inf", "-inf", "0x10",
        "1,5", "1_000", "12a", "1 2", "١"};
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
        same_parse(edges[i]);
}
END_TEST

START_TEST(test_parse_random)
{
    /* Integers of 1-18 digits, decimals with 0-17 fraction digits, signs,
     * leading zeros, exponents, and random strings over the number
     * alphabet (mostly rejected). */
    mix_state = 11;
    char s[80];
    static const char alpha[] = "0123456789.-+eE";
    for (int k = 0; k < 1000000; k++) {
        size_t n = 0;
        int shape = (int)rnd_index(6);
        if (shape == 5) {
            size_t len = 1 + rnd_index(12);
            for (size_t i = 0; i < len; i++)
                s[n++] = alpha[rnd_index(sizeof alpha - 1)];
            s[n] = '\0';
            same_parse(s);
            continue;
        }
        if (rnd_index(4) == 0)
            s[n++] = '-';
        int lead = rnd_index(5) == 0 ? (int)rnd_index(4) : 0;
        for (int i = 0; i < lead; i++)
            s[n++] = '0';
        int idig = (int)rnd_index(19);
        for (int i = 0; i < idig; i++)
            s[n++] = (char)('0' + rnd_index(10));
        if (shape >= 2) {
            s[n++] = '.';
            int fdig = (int)rnd_index(18);
            for (int i = 0; i < fdig; i++)
                s[n++] = (char)('0' + rnd_index(10));
        }
        if (shape == 4)
            n += (size_t)sprintf(s + n, "e%d", (int)rnd_index(40) - 20);
        s[n] = '\0';
        same_parse(s);
    }
}
END_TEST

/* num_put_g12(v) prints what snprintf("%.12g") prints. */
static void same_g12(double v)
{
    char a[64], b[64];
    char *e = num_put_g12(a, v);
    *e = '\0';
    snprintf(b, sizeof b, "%.12g", v);
    if (e - a > 24 || strcmp(a, b) != 0)
        ck_abort_msg("%.17g: \"%s\" vs printf \"%s\"", v, a, b);
}

START_TEST(test_g12_edges)
{
    static const double edges[] = {
        0.0, -0.0, 1, -1, 0.5, -0.5, 1e11, 999999999999.0, -999999999999.0, 1e12, -1e12,
        1e12 - 1, 1e12 + 1, 999999999999.5, 123456789012.0, 1234567890123.0, 1e15, 1e16,
        9007199254740993.0, 1e300, -1e300, 1e-300, 4.9e-324, DBL_MAX, -DBL_MAX, DBL_MIN,
        0.1, 1.0 / 3, 2.0 / 3, 552.21, 3600, 1451, 1e-5, 1e-4, 123456.7890123456,
        (double)LLONG_MAX, (double)LLONG_MIN, 9.2233720368547758e18, -9.2233720368547758e18,
        1e19, -1e19, INFINITY, -INFINITY, NAN, -NAN};
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
        same_g12(edges[i]);
}
END_TEST

START_TEST(test_g12_random)
{
    /* Integers up to 2^60 in magnitude (either side of 10^12), times as
     * sums of fractions, ratios (slowdowns), random bit patterns. */
    mix_state = 12;
    for (int k = 0; k < 300000; k++) {
        int bits = 1 + (int)rnd_index(60);
        double i = (double)(rnd() >> (64 - bits));
        same_g12(i);
        same_g12(-i);
        same_g12(i / (1 + (double)rnd_index(100000)));
        same_g12((double)rnd_index(1000000) / 100);
        uint64_t u = rnd();
        double x;
        memcpy(&x, &u, sizeof x);
        same_g12(x);
    }
}
END_TEST

START_TEST(test_put_ints)
{
    static const long long s[] = {0, 1, -1, 9, 10, -10, 99, 100, 1234567890, LLONG_MAX,
                                  LLONG_MIN, LLONG_MIN + 1, -9223372036854775807LL};
    char a[32], b[32];
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++) {
        *num_put_i64(a, s[i]) = '\0';
        snprintf(b, sizeof b, "%lld", s[i]);
        ck_assert_str_eq(a, b);
    }
    static const unsigned long long u[] = {0, 1, 10, 18446744073709551615ULL,
                                           10000000000000000000ULL};
    for (size_t i = 0; i < sizeof u / sizeof u[0]; i++) {
        *num_put_u64(a, u[i]) = '\0';
        snprintf(b, sizeof b, "%llu", u[i]);
        ck_assert_str_eq(a, b);
    }
    mix_state = 13;
    for (int k = 0; k < 100000; k++) {
        unsigned long long x = rnd() >> rnd_index(64);
        *num_put_u64(a, x) = '\0';
        snprintf(b, sizeof b, "%llu", x);
        if (strcmp(a, b) != 0)
            ck_abort_msg("%s vs printf %s", a, b);
        *num_put_i64(a, -(long long)(x >> 1)) = '\0';
        snprintf(b, sizeof b, "%lld", -(long long)(x >> 1));
        if (strcmp(a, b) != 0)
            ck_abort_msg("%s vs printf %s", a, b);
    }
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("numtext");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_parse_edges);
    tcase_add_test(tc, test_parse_random);
    tcase_add_test(tc, test_g12_edges);
    tcase_add_test(tc, test_g12_random);
    tcase_add_test(tc, test_put_ints);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
