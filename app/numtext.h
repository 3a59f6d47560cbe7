/* app/numtext.h: numbers to and from text on the replay's hot paths (issue
 * 11): the SWF reader's field parser and the jobs.csv formatter. Each has
 * an integer fast path that gives exactly what the C library gives
 * (strtod, printf("%.12g")) for the values that occur in traces and job
 * rows, and falls back to the library for everything else, so results are
 * byte for byte those of the library (tests/test_numtext.c compares them
 * on random and edge inputs).
 */
#ifndef PNRSIM_APP_NUMTEXT_H
#define PNRSIM_APP_NUMTEXT_H

#include <stdbool.h>
#include <stddef.h>

/* Parse the n characters at t (followed by a space, ';' or the end of the
 * string, anything but a digit, '.', 'e' or 'E') as a finite decimal
 * number into *v, exactly as strtod would read them: integers, fractions
 * and exponents of any length ("552.21", "1e3", "-1"); text, hex, "nan"
 * and "inf" are rejected, and so is a token strtod would not read to its
 * end. Returns true on success (*v untouched otherwise). Fast path: an
 * optional '-', at most 15 digits with at most one '.', no exponent: the
 * digits as an exact integer divided by an exact power of ten, one
 * correctly rounded IEEE operation, which is strtod's correctly rounded
 * result. */
bool num_parse(const char *t, size_t n, double *v);
/* num_parse's fast path on its own: when the characters from p (up to end)
 * start with an optional '-' and at most 15 digits with at most one '.'
 * (and at least one digit), store strtod's value of them in *v and return
 * the pointer just past them (the first other character, or end); else
 * return NULL (*v untouched). What follows is not looked at: "1e3" gives
 * 1 and a pointer to the 'e'. */
const char *num_scan_plain(const char *p, const char *end, double *v);

/* Append to p exactly what printf("%.12g", v) prints, without the
 * terminating NUL; return the new end. At most 24 bytes. Fast path: an
 * integral v with |v| < 10^12 (printed as the integer, since %.12g uses
 * plain notation for exponents below 12 and drops a zero fraction);
 * -0.0, NaN, infinities and everything else go to snprintf. */
char *num_put_g12(char *p, double v);
/* Append x in decimal (like printf("%llu") / "%lld"); return the new end.
 * At most 20 bytes. */
char *num_put_u64(char *p, unsigned long long x);
char *num_put_i64(char *p, long long x);

#endif
