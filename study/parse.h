/* study/parse.h: what the parts of the study-file parser share
 * (study/parse.c; private to the reader: study/values.c, study/resolve.c,
 * study/sections.c and study/study.c).
 *
 * study/sections.c reads the file into sections and keys; study/values.c
 * expands the [vary] value lists and ranges; study/resolve.c builds the
 * [plot] and [baseline] sections once the whole file is read; study/study.c
 * checks the study as a whole. They carry one parsing context and report
 * every problem the same way, "FILE:LINE: KEY: what is wrong", through
 * study_fail. The lowest part of the reader: it needs only the study's
 * types and study/util.c (the text helpers are study/text.h's).
 */
#ifndef PNRSIM_STUDY_PARSE_H
#define PNRSIM_STUDY_PARSE_H

#include "study/types.h"

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

/* study_fail for a [set], [vary] or [baseline] key that is not
 * section.key: "not a pnrsim key (section.key)<also>", and when key
 * names pnrsim keys without their section or is near one, "; did you
 * mean computer.ram?" (config_suggest_dotted). Returns -1. */
int study_not_param_key(study_parse_ctx *c, long line, const char *key, const char *also);

#endif
