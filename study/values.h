/* study/values.h: the value lists of a study file (study/values.c): the
 * [vary] lists and ranges, the [study] metrics list, and the check that a
 * key's values are distinct settings. Above study/parse.c and
 * study/text.c; used by study/sections.c and study/study.c.
 */
#ifndef PNRSIM_STUDY_VALUES_H
#define PNRSIM_STUDY_VALUES_H

#include "study/parse.h"

#include <stddef.h>

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

#endif
