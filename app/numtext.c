/* app/numtext.c: numbers to and from text with integer fast paths (see
 * numtext.h for the contract and why each fast path is exact).
 */
#include "app/numtext.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* 10^0 .. 10^15: every one exact in a double. */
static const double pow10_exact[16] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};

/* The library path: the characters strtod may read, then strtod, which
 * must read the whole token and give a finite number. */
static bool num_parse_libc(const char *t, size_t n, double *v)
{
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!(isdigit((unsigned char)t[i]) || t[i] == '.' || t[i] == '-' || t[i] == '+' ||
              t[i] == 'e' || t[i] == 'E'))
            return false;
    /* Only those characters: strtod cannot read past the token. */
    char *end;
    double x = strtod(t, &end);
    if (end != t + n || !isfinite(x))
        return false;
    *v = x;
    return true;
}

const char *num_scan_plain(const char *p, const char *end, double *v)
{
    bool neg = p < end && *p == '-';
    p += neg;
    uint64_t m = 0;
    const char *start = p;
    while (p < end && (unsigned)(*p - '0') < 10)
        m = m * 10 + (unsigned)(*p++ - '0');
    int digits = (int)(p - start), frac = 0;
    if (p < end && *p == '.') {
        const char *f = ++p;
        while (p < end && (unsigned)(*p - '0') < 10 && p - f < 16)
            m = m * 10 + (unsigned)(*p++ - '0');
        frac = (int)(p - f);
        digits += frac;
    }
    /* Up to 15 digits: m < 10^15 < 2^53 and 10^frac are exact, so the
     * quotient has one rounding, strtod's. (Longer runs of digits may have
     * wrapped m: they go to strtod.) */
    if (digits == 0 || digits > 15)
        return NULL;
    double x = (double)m;
    if (frac)
        x /= pow10_exact[frac];
    *v = neg ? -x : x;
    return p;
}

bool num_parse(const char *t, size_t n, double *v)
{
    double x;
    if (num_scan_plain(t, t + n, &x) == t + n) {
        *v = x;
        return true;
    }
    return num_parse_libc(t, n, v); /* exponent, '+', text, long... */
}

/* "00" "01" ... "99": two digits at a time. */
static const char digit_pairs[201] = "00010203040506070809101112131415161718192021222324"
                                     "25262728293031323334353637383940414243444546474849"
                                     "50515253545556575859606162636465666768697071727374"
                                     "75767778798081828384858687888990919293949596979899";

char *num_put_u64(char *p, unsigned long long x)
{
    int n = 1;
    for (unsigned long long t = 10; n < 20 && x >= t; t *= 10)
        n++;
    char *q = p + n;
    while (x >= 100) {
        unsigned r = (unsigned)(x % 100);
        x /= 100;
        q -= 2;
        q[0] = digit_pairs[2 * r];
        q[1] = digit_pairs[2 * r + 1];
    }
    if (x >= 10) {
        q[-2] = digit_pairs[2 * x];
        q[-1] = digit_pairs[2 * x + 1];
    } else {
        q[-1] = (char)('0' + x);
    }
    return p + n;
}

char *num_put_i64(char *p, long long x)
{
    if (x < 0) {
        *p++ = '-';
        return num_put_u64(p, 0ull - (unsigned long long)x);
    }
    return num_put_u64(p, (unsigned long long)x);
}

char *num_put_g12(char *p, double v)
{
    if (fabs(v) < 1e12) {
        long long i = (long long)v; /* in range: |v| < 10^12 */
        if ((double)i == v && !(i == 0 && signbit(v)))
            return num_put_i64(p, i);
    }
    return p + snprintf(p, 32, "%.12g", v);
}
