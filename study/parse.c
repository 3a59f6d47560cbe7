/* study/parse.c: how the study-file parser reports a problem.
 *
 * Every part of the reader (study/values.c, study/resolve.c,
 * study/sections.c, study/study.c) carries a study_parse_ctx and rejects
 * the study with one message, "FILE:LINE: KEY: what is wrong", formatted
 * here into the caller's error buffer. The lowest part of the reader: it
 * uses only study/util.c's text buffer.
 */
#include "study/parse.h"
#include "study/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Format "FILE:LINE: KEY: message" into c->err; returns -1. */
int study_fail(study_parse_ctx *c, long line, const char *key, const char *fmt, ...)
{
    sweep_buf b = {0};
    sweep_buf_printf(&b, "%s:%ld: ", c->file, line);
    if (key)
        sweep_buf_printf(&b, "%s: ", key);
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *msg = xmalloc((size_t)(n > 0 ? n : 0) + 1);
    va_start(ap, fmt);
    vsnprintf(msg, (size_t)(n > 0 ? n : 0) + 1, fmt, ap);
    va_end(ap);
    sweep_buf_puts(&b, msg);
    free(msg);
    /* Truncate to the caller's buffer. */
    size_t len = b.n < STUDY_ERR_MAX - 1 ? b.n : STUDY_ERR_MAX - 1;
    memcpy(c->err, b.p, len);
    c->err[len] = '\0';
    sweep_buf_free(&b);
    return -1;
}
