/* app/config_error.h: where a configuration problem is (a file line, or a
 * --set argument) and how it is worded into a cfg_error (app/config_error.c).
 * Private to the configuration module (app/config.h lists its files in
 * their layers). */
#ifndef PNRSIM_APP_CONFIG_ERROR_H
#define PNRSIM_APP_CONFIG_ERROR_H

#include "app/config_keys.h"
#include "app/config_types.h"

#include <stddef.h>

/* Where a value came from: a file line, or a --set argument. */
typedef struct where {
    const char *file;    /* NULL for --set */
    long line;
    const char *arg;     /* the --set argument */
    const char *alias;   /* the PNRSim name used, or NULL */
} where;

/* A value as quoted in a message: control characters as '?', cut at 80
 * characters with "..." appended (out: n bytes, n >= 4). */
void cfg_quote_value(char *out, size_t n, const char *s);
/* Fill e (when not NULL): the problem at w, described by fmt (no key,
 * value or why). */
void cfg_fail(cfg_error *e, const where *w, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Fill e (when not NULL): a problem with the file at path as a whole
 * (line 0, so the message reads "FILE: what"), described by fmt. */
void cfg_fail_file(cfg_error *e, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Fill e (when not NULL): "[section] key = "value": why" at w (or, for a
 * PNRSim name, "Name = "value" ([section] key): why"), naming the key, the
 * quoted value and why in e's parts too. */
void cfg_fail_value(cfg_error *e, const where *w, const key_def *kd, const char *value,
                    const char *why);
/* Fill e: an unknown section, or an unknown key of a section, listing the
 * known ones. */
void cfg_fail_unknown_section(cfg_error *e, const where *w, const char *section);
void cfg_fail_unknown_key(cfg_error *e, const where *w, const char *section,
                          const char *key);

#endif
