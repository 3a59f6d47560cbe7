/* study/parse.c: how the study-file parser reports a problem.
 *
 * Every part of the reader (study/values.c, study/resolve.c,
 * study/sections.c, study/study.c) carries a study_parse_ctx and rejects
 * the study with one message, "FILE:LINE: KEY: what is wrong", formatted
 * here into the caller's error buffer. The lowest part of the reader.
 */
#include "study/parse.h"

#include <stdarg.h>
#include <stdio.h>

/* Format "FILE:LINE: KEY: message" into c->err (cut to fit); returns -1. */
int study_fail(study_parse_ctx *c, long line, const char *key, const char *fmt, ...)
{
    int n = snprintf(c->err, STUDY_ERR_MAX, "%s:%ld: %s%s", c->file, line, key ? key : "",
                     key ? ": " : "");
    if (n >= 0 && n < STUDY_ERR_MAX) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->err + n, (size_t)(STUDY_ERR_MAX - n), fmt, ap);
        va_end(ap);
    }
    return -1;
}
