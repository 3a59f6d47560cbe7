/* app/config_internal.h: what the parts of the configuration module share
 * (app/config.c: lookup, errors, PNRSim files, --set, validation, writing;
 * app/config_keys.c: the table of keys; app/config_value.c: values by type;
 * app/config_ini.c: INI files through inih). Private to those files. */
#ifndef PNRSIM_APP_CONFIG_INTERNAL_H
#define PNRSIM_APP_CONFIG_INTERNAL_H

#include "app/config.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

#define NOMAX HUGE_VAL

typedef enum {
    KT_STRING,  /* char[size]; min = minimum length (0 or 1) */
    KT_DOUBLE,  /* finite double in [min, max] (or (min, max] if min_open) */
    KT_INT,     /* int in [min, max] */
    KT_LONG,    /* long in [min, max] */
    KT_U64,     /* uint64_t, any value */
    KT_BOOL,    /* bool */
    KT_ENUM,    /* int-sized enum, index into names */
    KT_STATUS,  /* int[size] + int count at count_offset; items in [min, max] */
    KT_RAM,     /* computer.ram: one MB value in [min, max], or COUNTxMB groups */
} key_type;

typedef struct key_def {
    const char *section;
    const char *key;
    key_type type;
    size_t offset;            /* of the value in struct config */
    size_t size;              /* KT_STRING: buffer size; KT_STATUS: capacity */
    size_t count_offset;      /* KT_STATUS: offset of the count */
    double min, max;          /* allowed range; max HUGE_VAL = none */
    bool min_open;            /* the value must be > min, not >= min */
    const char *const *names; /* KT_ENUM: names by value, NULL-terminated */
    const char *def;          /* default, as written in reference.ini */
    const char *unit;
    const char *comment;
    const char *pnrsim;       /* PNRSim names, '|'-separated, or NULL */
    bool zero_off;            /* KT_DOUBLE: 0 (= off) is allowed too */
} key_def;

typedef struct cfg_section {
    const char *name;
    const char *comment;
} cfg_section;

/* The table (config_keys.c): every key, and the sections in file order. */
extern const key_def cfg_keys[];
extern const size_t cfg_nkeys;
extern const cfg_section cfg_sections[];
/* scheduler.mem_aware's names: yes/no are accepted for LOCAL/NO too. */
extern const char *const cfg_mem_aware_names[];
extern const size_t cfg_nsections;

/* Where a value came from: a file line, or a --set argument. */
typedef struct where {
    const char *file;    /* NULL for --set */
    long line;
    const char *arg;     /* the --set argument */
    const char *alias;   /* the PNRSim name used, or NULL */
} where;

/* ---- values (config_value.c) ---- */

/* Pointer to the stored value of kd in c (const and non-const). */
void *cfg_field(config *c, const key_def *kd);
const void *cfg_cfield(const config *c, const key_def *kd);
/* The stored value of an enum key, as int; the entries of a KT_STATUS key. */
int cfg_get_enum(const config *c, const key_def *kd);
int cfg_get_count(const config *c, const key_def *kd);
/* Number of names in a NULL-terminated list. */
size_t cfg_n_names(const char *const *names);
/* s (len bytes) without surrounding whitespace into out (size n); false
 * when it does not fit. */
bool cfg_trim_copy(char *out, size_t n, const char *s, size_t len);
/* Append formatted text to the string in buf (size n), cut to fit. */
void cfg_appendf(char *buf, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A value as quoted in a message: control characters as '?', cut at 80
 * characters with "..." appended. */
void cfg_quote_value(char *out, size_t n, const char *s);
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

/* ---- lookup, errors, reading (config.c) ---- */

/* The key named key in section (case-insensitive), or NULL. */
const key_def *cfg_find_key(const char *section, const char *key);
/* The canonical (lower-case) spelling of a section name, or NULL. */
const char *cfg_find_section(const char *section);
/* Fill e (when not NULL): the problem at w, described by fmt. */
void cfg_fail(cfg_error *e, const where *w, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Fill e: "[section] key = "value": why" at w (or the PNRSim name's form). */
void cfg_fail_value(cfg_error *e, const where *w, const key_def *kd, const char *value,
                    const char *why);
/* Fill e: an unknown section, or an unknown key of a section, listing the known. */
void cfg_fail_unknown_section(cfg_error *e, const where *w, const char *section);
void cfg_fail_unknown_key(cfg_error *e, const where *w, const char *section,
                          const char *key);
/* Record where kd was set in c: "--set ARG" style text from fmt. */
void cfg_set_origin(config *c, const key_def *kd, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Parse value for kd into *c and record w as its origin; on failure fill e
 * at w. 0 or -1. */
int cfg_apply(config *c, const key_def *kd, const char *value, const where *w,
              cfg_error *e);
/* config_error_message of e into err (when not NULL). Returns -1. */
int cfg_to_text(const cfg_error *e, char err[CFG_ERR_MAX]);
/* Read path whole (NUL-terminated, *text to free). 0 or -1 with e. */
int cfg_read_whole(const char *path, char **text, size_t *len, cfg_error *e);

/* ---- INI files (config_ini.c) ---- */

/* Parse INI text (len bytes, NUL-terminated) read from path onto *c; on
 * error *c is unchanged. 0 or -1 with e. */
int cfg_parse_ini_text(config *c, const char *path, const char *text, size_t len,
                       cfg_error *e);

#endif
