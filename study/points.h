/* study/points.h: the runs of a study by number (study/points.c).
 *
 * Points are numbered in the order of the cross product, the first [vary]
 * key outermost and each key's values in the order written; runs are
 * numbered (point * W + window) * replications + replication (W trace
 * windows, 1 when the trace is not sliced). Computed from the numbers in
 * constant time; nothing is stored per run. Below the reader: it needs
 * only the study's types.
 */
#ifndef PNRSIM_STUDY_POINTS_H
#define PNRSIM_STUDY_POINTS_H

#include "study/types.h"

#include <stddef.h>

/* The value index of parameter param at point (0 <= point < npoints). */
size_t study_value_index(const study *s, size_t point, size_t param);

/* The value of parameter param at point (a baseline's NAME for a
 * baseline value). */
const char *study_value(const study *s, size_t point, size_t param);

/* The baseline that is the value of parameter param at point, or NULL when
 * that value is a plain one. */
const study_baseline *study_value_baseline(const study *s, size_t point,
                                           size_t param);

/* The point that has value index idx[i] for each parameter i. */
size_t study_point_of(const study *s, const size_t *idx);

/* The seed of replication rep (0-based). */
long study_seed(const study *s, size_t rep);

/* Run r of the study: its point (r / nrep), its trace window (0 ..
 * windows-1, or -1 when the study has no windows) and its seed. Runs are
 * ordered by point, then window, then seed. */
size_t study_run_point(const study *s, size_t run);
long study_run_window(const study *s, size_t run);
long study_run_seed(const study *s, size_t run);

/* Index of the varied parameter named key, or -1. */
long study_param_index(const study *s, const char *key);

#endif
