/* study/sections.h: reading a study file's lines into sections and keys
 * (study/sections.c), the step of study_load (study/study.c) before the
 * study is checked as a whole. Private to the reader.
 */
#ifndef PNRSIM_STUDY_SECTIONS_H
#define PNRSIM_STUDY_SECTIONS_H

#include "study/parse.h"

#include <stddef.h>

/* A [study] line naming a file (base, trace): resolved once the whole file
 * is read, against the study file's directory. value NULL: not given. */
typedef struct study_path_line {
    char *value;
    long line;
} study_path_line;

/* What the [study] section gives besides the values stored in the study:
 * the file names, and the lines of keys the whole-study checks name. */
typedef struct study_keys {
    study_path_line base, trace;
    long reps_line, seed_line;
    long windows_line;
    long name_line, metrics_line; /* 0 until given */
} study_keys;

/* Read the study file's text (len bytes, NUL-terminated) into c->s: the
 * [study] keys (file names into k), [set], [vary] (expanded by
 * study/values.c) and [slurm]; the [plot] and [baseline] sections are kept
 * raw in *plots and *bases (*nplots and *nbases of them, newly allocated,
 * to free with study_free_raw even on failure), since the keys they name
 * may be varied further down. Read by app/ini_reader.c (comments, and
 * indented continuation lines joined). 0, or -1 (reported through
 * study_fail) at the first problem. */
int study_read_sections(study_parse_ctx *c, const char *text, size_t len, study_keys *k,
                        study_raw **plots, size_t *nplots, study_raw **bases,
                        size_t *nbases);

#endif
