/* study/study.h: a study: what pnrsim-sweep runs.
 *
 * A study is read from an INI file (format in study/study.c and
 * docs/STUDIES.md): a base configuration, an optional trace, the parameters
 * to vary with their values, a number of replications (seeds), fixed
 * overrides, baselines, the metrics of interest, plots and Slurm options.
 * Its cross product is a list of parameter points; each point is run once
 * per seed. A baseline is one more value of a varied key (after its plain
 * values) that stands for a set of overrides.
 *
 * Points are numbered in the order of the cross product, the first [vary]
 * key outermost and each key's values in the order written; runs are
 * numbered (point * W + window) * replications + replication, W being the
 * number of trace windows ([study] windows, 1 when the trace is not
 * sliced). Every output of the sweep
 * (results.csv, summary.csv, job lists) follows this order, so it does not
 * depend on which run finished first.
 *
 * This header is the study model as the rest of pnrsim-sweep sees it: the
 * types (study/types.h), the runs by number (study/points.h), the point
 * directory names and the fingerprint (study/fingerprint.h), and reading a
 * study file (study_load, study/study.c, the top of the reader: below it
 * study/sections.c reads the lines and sections, study/values.c expands
 * [vary] lists, study/resolve.c builds [plot] and [baseline] sections,
 * sharing study/parse.h). Files below the reader include the smaller
 * headers, not this one.
 */
#ifndef PNRSIM_STUDY_STUDY_H
#define PNRSIM_STUDY_STUDY_H

#include "study/fingerprint.h"
#include "study/points.h"
#include "study/types.h"

/* Read the study file at path into s (which is overwritten). Returns 0, or
 * -1 with a one-line message "FILE:LINE: KEY: problem" in err (s is then
 * empty and need not be freed, though study_free is harmless). */
int study_load(study *s, const char *path, char err[STUDY_ERR_MAX]);

/* Release everything s holds and zero it. */
void study_free(study *s);

#endif
