/* study/parse.c: how the study-file parser reports a problem.
 *
 * Every part of the reader (study/values.c, study/resolve.c,
 * study/sections.c, study/study.c) carries a study_parse_ctx and rejects
 * the study with one message, "FILE:LINE: KEY: what is wrong", formatted
 * here into the caller's error buffer. The lowest part of the reader.
 */
#include "study/parse.h"

#include "app/config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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

int study_not_param_key(study_parse_ctx *c, long line, const char *key, const char *also)
{
    char near[512];
    /* The suggestion is for the key part: "ram" or ".ram" alike. */
    const char *bare = key[0] == '.' ? key + 1 : key;
    int n = strchr(bare, '.') ? 0 : config_suggest_dotted(bare, near, sizeof near);
    return study_fail(c, line, key, "not a pnrsim key (section.key)%s%s%s%s", also,
                      n ? "; did you mean " : "", n ? near : "", n ? "?" : "");
}
