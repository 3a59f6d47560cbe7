/* app/config_value.h: configuration values by type (app/config_value.c):
 * parse, check, format, compare and describe the value of a key, and store
 * a value read at a place (cfg_apply). Private to the configuration module
 * (app/config.h lists its files in their layers). */
#ifndef PNRSIM_APP_CONFIG_VALUE_H
#define PNRSIM_APP_CONFIG_VALUE_H

#include "app/config_error.h"
#include "app/config_keys.h"
#include "app/config_number.h"
#include "app/config_types.h"

#include <stdbool.h>
#include <stddef.h>

/* Pointer to the stored value of kd in c (const and non-const). */
void *cfg_field(config *c, const key_def *kd);
const void *cfg_cfield(const config *c, const key_def *kd);
/* The stored value of an enum key, as int; the entries of a KT_STATUS key. */
int cfg_get_enum(const config *c, const key_def *kd);
int cfg_get_count(const config *c, const key_def *kd);
/* Parse text (trimmed) as kd's value into c: 0, or -1 with why. */
int cfg_parse_value(const key_def *kd, const char *text, config *c, char *why, size_t n);
/* Check kd's value stored in c against the table: 0, or -1 with why. */
int cfg_check_stored(const key_def *kd, const config *c, char *why, size_t n);
/* kd's value in c as written in an INI file. */
void cfg_format_value(const key_def *kd, const config *c, char *buf, size_t n);
/* True when kd's values in a and b are equal. */
bool cfg_value_equal(const key_def *kd, const config *a, const config *b);
/* kd's allowed values, tersely (the comment above it in written files). */
void cfg_describe_terse(const key_def *kd, char *buf, size_t n);

/* Record where kd was set in c: text from fmt ("--set ARG", "-t TRACE"),
 * cut to CFG_ORIGIN_MAX with "..." at its end. */
void cfg_set_origin(config *c, const key_def *kd, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Parse value for kd into *c and record w as its origin ("FILE:LINE" or
 * "--set ARG"). On failure fill e at w (cfg_fail_value); *c may then hold
 * part of the value (the readers work on a copy). 0 or -1. */
int cfg_apply(config *c, const key_def *kd, const char *value, const where *w,
              cfg_error *e);

#endif
