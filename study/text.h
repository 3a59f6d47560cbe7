/* study/text.h: the small text tests and conversions of the study-file
 * parser (study/text.c). They know nothing of a study or of how problems
 * are reported, so they sit at the bottom of study/ beside study/util.c:
 * the reader (study/sections.c), the value lists (study/values.c), the
 * [plot]/[baseline] builder (study/resolve.c) and the plotter
 * (study/plot.c) use them.
 */
#ifndef PNRSIM_STUDY_TEXT_H
#define PNRSIM_STUDY_TEXT_H

#include <stdbool.h>

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

#endif
