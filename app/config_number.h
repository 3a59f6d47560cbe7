/* app/config_number.h: numbers as configuration files write them
 * (app/config_number.c). Private to the configuration module (app/config.h
 * lists its files in their layers). */
#ifndef PNRSIM_APP_CONFIG_NUMBER_H
#define PNRSIM_APP_CONFIG_NUMBER_H

#include <stddef.h>

/* Parse a decimal integer (optional sign, digits, nothing else): 0, -1
 * when malformed, -2 when it does not fit a long long. */
int cfg_parse_ll(const char *s, long long *v);
/* Parse a decimal number: [+-] digits [. digits] [e [+-] digits], at least
 * one digit in the mantissa; no hex, nan or inf; -0 read as 0. 0, -1 when
 * malformed, -2 when its magnitude exceeds a double's. */
int cfg_parse_number(const char *s, double *v);
/* Parse a time: a decimal number with an optional unit s, m, h or d
 * (case-insensitive; blanks before it allowed: "1.5 h") into seconds.
 * 0, -1 when malformed, -2 when too large for a double. */
int cfg_parse_time(const char *s, double *v);
/* Parse a memory size: a decimal number with an optional unit MB, GB or
 * TB (case-insensitive, blanks before it allowed) into MB of 2^20 bytes:
 * 1 GB = 1024 MB, 1 TB = 1048576 MB (exact: powers of two). 0, -1 when
 * malformed, -2 when too large for a double. */
int cfg_parse_memory(const char *s, double *v);
/* Write into buf (n bytes) the shortest text that reads back as exactly v:
 * integral values of moderate size without exponent, others with the
 * fewest %g digits that round-trip. */
void cfg_format_double(char *buf, size_t n, double v);

#endif
