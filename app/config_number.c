/* app/config_number.c: numbers as configuration files write them (see
 * config_number.h): decimal integers and numbers read strictly (no hex,
 * nan or inf), times with a unit, and the shortest text that reads back
 * as the same double; memory sizes with a unit MB, GB or TB (1 GB = 1024
 * MB: pnrsim's MB is 2^20 bytes, docs/MODEL.md). Split from app/config_value.c (issue 35), which
 * uses it for every numeric key; it knows no key or configuration.
 */
#include "app/config_number.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Parse a decimal integer (optional sign, digits, nothing else). Returns 0,
 * -1 when malformed, -2 when it does not fit a long long. */
int cfg_parse_ll(const char *s, long long *v)
{
    const char *p = s + (*s == '+' || *s == '-');
    if (!isdigit((unsigned char)*p))
        return -1;
    for (const char *q = p; *q; q++)
        if (!isdigit((unsigned char)*q))
            return -1;
    errno = 0;
    *v = strtoll(s, NULL, 10);
    return errno == ERANGE ? -2 : 0;
}

/* Parse a decimal number: [+-] digits [. digits] [e [+-] digits], at least
 * one digit in the mantissa; no hex, nan or inf. Returns 0, -1 when
 * malformed, -2 when its magnitude exceeds a double's. */
int cfg_parse_number(const char *s, double *v)
{
    const char *p = s + (*s == '+' || *s == '-');
    int digits = 0;
    while (isdigit((unsigned char)*p)) {
        p++;
        digits++;
    }
    if (*p == '.')
        for (p++; isdigit((unsigned char)*p); p++)
            digits++;
    if (!digits)
        return -1;
    if (*p == 'e' || *p == 'E') {
        p++;
        p += (*p == '+' || *p == '-');
        if (!isdigit((unsigned char)*p))
            return -1;
        while (isdigit((unsigned char)*p))
            p++;
    }
    if (*p)
        return -1;
    errno = 0;
    *v = strtod(s, NULL);
    if (errno == ERANGE && fabs(*v) > 1.0)
        return -2;
    if (*v == 0)
        *v = 0.0; /* no -0 */
    return 0;
}

/* Parse s as a number with an optional unit: the unit (one of n suffixes
 * sfx[i], case-insensitive, the longest that ends s) multiplies by
 * factor[i]; blanks between the number and its unit are allowed. 0, -1
 * when malformed, -2 when too large for a double. */
static int parse_with_unit(const char *s, double *v, const char *const *sfx,
                           const double *factor, size_t n)
{
    char buf[64];
    size_t len = strlen(s), best = 0;
    double unit = 1;
    if (len == 0 || len >= sizeof buf)
        return -1;
    for (size_t i = 0; i < n; i++) {
        size_t l = strlen(sfx[i]);
        if (l > best && l < len && !strcasecmp(s + len - l, sfx[i])) {
            best = l;
            unit = factor[i];
        }
    }
    len -= best;
    while (best && len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t'))
        len--;
    memcpy(buf, s, len);
    buf[len] = '\0';
    int r = cfg_parse_number(buf, v);
    if (r == 0) {
        *v *= unit;
        if (!isfinite(*v))
            return -2;
    }
    return r;
}

int cfg_parse_time(const char *s, double *v)
{
    static const char *const sfx[] = {"s", "m", "h", "d"};
    static const double factor[] = {1, 60, 3600, 86400};
    return parse_with_unit(s, v, sfx, factor, 4);
}

int cfg_parse_memory(const char *s, double *v)
{
    static const char *const sfx[] = {"MB", "GB", "TB"};
    static const double factor[] = {1, 1024, 1024.0 * 1024};
    return parse_with_unit(s, v, sfx, factor, 3);
}

/* Shortest text that reads back as exactly v: integral values of moderate
 * size without exponent, others with the fewest %g digits that round-trip. */
void cfg_format_double(char *buf, size_t n, double v)
{
    if (v == floor(v) && fabs(v) < 1e15) {
        snprintf(buf, n, "%.0f", v);
        return;
    }
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}
