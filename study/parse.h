/* study/parse.h: what the parts of the study-file parser share (private
 * to study/study.c, study/values.c and study/resolve.c).
 *
 * study/study.c reads the file into sections and keys; study/values.c
 * expands the [vary] value lists and ranges; study/resolve.c builds the
 * [plot] and [baseline] sections once the whole file is read. They report
 * every problem the same way, "FILE:LINE: KEY: what is wrong", through
 * study_fail, and share the small text helpers below.
 */
#ifndef PNRSIM_STUDY_PARSE_H
#define PNRSIM_STUDY_PARSE_H

#include "study/study.h"

#include <stdbool.h>
#include <stddef.h>

/* Parsing state: the file name for messages and the error buffer. */
typedef struct study_parse_ctx {
    const char *file;
    char *err;          /* STUDY_ERR_MAX bytes */
    study *s;
} study_parse_ctx;

/* Raw [plot] and [baseline] content until the whole file is read (the keys
 * they name may be varied further down). */
typedef struct study_raw {
    char *name;
    study_kv *kv;
    size_t nkv;
    long line;
} study_raw;

/* Format "FILE:LINE: KEY: message" (no "KEY: " when key is NULL) into
 * c->err, truncated to STUDY_ERR_MAX; returns -1. */
int study_fail(study_parse_ctx *c, long line, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* p without leading and trailing white space (p is cut in place). */
char *study_trim(char *p);
/* p in lower case, in place. */
void study_lower(char *p);
/* A pnrsim key: section.key with [a-z0-9_] on both sides. */
bool study_is_param_key(const char *k);
/* A name usable as a file name stem: [A-Za-z0-9._-], not starting '.'. */
bool study_is_name(const char *v);
/* True when v holds a control character. */
bool study_has_ctrl(const char *v);
/* The whole string t as a finite double / a long: true with *out set. */
bool study_parse_num(const char *t, double *out);
bool study_parse_long(const char *t, long *out);

/* ---- values.c ---------------------------------------------------------- */

/* Read the [vary] line key = value (value is cut in place) into a new
 * entry of c->s->vary. 0, or -1 (reported) for a key that is not a pnrsim
 * key or is varied twice, an empty item, a bad range, a repeated value. */
int study_parse_vary(study_parse_ctx *c, const char *key, char *value,
                     long line);
/* Append the items of the comma-separated list value (cut in place) to
 * *out (*nout of them). 0, or -1 (reported) for an empty or repeated item. */
int study_parse_list(study_parse_ctx *c, const char *key, char *value, long line,
                     char ***out, size_t *nout);
/* Every [vary] key's plain values give different settings once pnrsim has
 * parsed them ("central" and "CENTRAL", "128" and "128.0" do not). 0, or
 * -1 (reported, naming the values) for the first key that repeats one.
 * Values pnrsim refuses are left to study/check.c. */
int study_vary_distinct(study_parse_ctx *c);

/* ---- resolve.c --------------------------------------------------------- */

/* Build plot pl from raw section rp against c->s's [vary] keys and metrics
 * list. 0, or -1 (reported); pl is then to be freed with study_free_plot. */
int study_build_plot(study_parse_ctx *c, const study_raw *rp, study_plot *pl);
/* Free the n raw sections at r, and r. */
void study_free_raw(study_raw *r, size_t n);
/* Free what pl holds (not pl). */
void study_free_plot(study_plot *pl);
/* Turn the nrb [baseline] sections rb into c->s->baselines and append their
 * names to the values of the key they extend (the plots give that key when
 * a baseline does not). 0, or -1 (reported). */
int study_build_baselines(study_parse_ctx *c, const study_raw *rb, size_t nrb,
                          const study_raw *plots, size_t nplots);

#endif
