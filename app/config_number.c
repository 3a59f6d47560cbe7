/* app/config_number.c: numbers as configuration files write them (see
 * config_number.h): decimal integers and numbers read strictly (no hex,
 * nan or inf), times with a unit, and the shortest text that reads back
 * as the same double. Split from app/config_value.c (issue 35), which
 * uses it for every numeric key; it knows no key or configuration.
 */
#include "app/config_number.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int cfg_parse_time(const char *s, double *v)
{
    char buf[64];
    size_t len = strlen(s);
    if (len == 0 || len >= sizeof buf)
        return -1;
    double unit = 1;
    switch (s[len - 1]) {
    case 's': case 'S': unit = 1; len--; break;
    case 'm': case 'M': unit = 60; len--; break;
    case 'h': case 'H': unit = 3600; len--; break;
    case 'd': case 'D': unit = 86400; len--; break;
    default: break;
    }
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
