/* study/fingerprint.h: the names a study's runs are kept under
 * (study/fingerprint.c): a point's directory name and the fingerprint of
 * what every run of an output directory shares. Above study/points.c,
 * below the reader; it needs only the study's types.
 */
#ifndef PNRSIM_STUDY_FINGERPRINT_H
#define PNRSIM_STUDY_FINGERPRINT_H

#include "study/types.h"

#include <stdbool.h>
#include <stddef.h>

/* Directory name of a point below runs/: "key=value,key=value" with every
 * byte outside [A-Za-z0-9._+-] written as %XX, a baseline value as @NAME
 * ("base" with no [vary]; a hash when the name would be too long). Newly
 * allocated. */
char *study_point_dirname(const study *s, size_t point);

/* A text that changes whenever anything that affects the outcome of a run
 * changes, except the values of the varied parameters, the seeds and the
 * number of replications (which name the run directories): the base
 * configuration's content, the trace, the plugins loaded (file name and
 * SHA-256 of each), the [set] overrides and the names of
 * the varied keys, then one line per baseline, "baseline NAME: KEY; k = v;
 * ..." (study_fingerprint_merge compares those by name, so that baselines
 * can be added to a study like values). Newly allocated; NULL when the base
 * cannot be read. */
char *study_fingerprint(const study *s);

/* Compare the fingerprint recorded in a directory (old) with a study's
 * (cur): compatible when the lines other than baselines are the same and no
 * baseline of cur is recorded in old with other settings. Returns true when
 * compatible; *merged then receives (newly allocated) the fingerprint to
 * record: cur plus the baselines recorded in old that cur lacks (so a
 * baseline that is removed and later brought back with other settings is
 * still caught). When not compatible, *merged is NULL and, when the cause
 * is a baseline, *why receives its name (newly allocated; else NULL). */
bool study_fingerprint_merge(const char *old, const char *cur, char **merged,
                             char **why);

#endif
