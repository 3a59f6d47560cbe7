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

bool num_parse(const char *t, size_t n, double *v)
{
    const char *s = t, *e = t + n;
    bool neg = s < e && *s == '-';
    s += neg;
    uint64_t m = 0;
    int digits = 0, frac = 0;
    bool dot = false;
    for (; s < e; s++) {
        unsigned d = (unsigned)(unsigned char)*s - '0';
        if (d < 10) {
            m = m * 10 + d;
            digits++;
            frac += dot;
        } else if (*s == '.' && !dot) {
            dot = true;
        } else {
            return num_parse_libc(t, n, v); /* exponent, '+', text... */
        }
    }
    if (digits == 0 || digits > 15)
        return num_parse_libc(t, n, v);
    /* m < 10^15 < 2^53 and 10^frac are exact: one rounding, strtod's. */
    double x = (double)m;
    if (frac)
        x /= pow10_exact[frac];
    *v = neg ? -x : x;
    return true;
}

char *num_put_u64(char *p, unsigned long long x)
{
    char tmp[24];
    int n = 0;
    do
        tmp[n++] = (char)('0' + x % 10);
    while ((x /= 10) != 0);
    while (n)
        *p++ = tmp[--n];
    return p;
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
    if (fabs(v) < 1e12 && v == (double)(long long)v && !(v == 0 && signbit(v)))
        return num_put_i64(p, (long long)v);
    return p + snprintf(p, 32, "%.12g", v);
}
