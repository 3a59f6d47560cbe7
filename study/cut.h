/* study/cut.h: a study cut down from the command line (study/cut.c).
 *
 * pnrsim-sweep --set study.KEY=N and --only KEY=VALUE,... change a loaded
 * study in memory (the file is neither copied nor changed, so its relative
 * paths keep their meaning), and study_titles then fills the placeholders
 * of the [plot] titles and labels ({runs}, {replications}, {windows},
 * {jobs}) from the study as it will run. Above study/runs.c (it builds the
 * points' configurations for {jobs}); below study/main.c.
 */
#ifndef PNRSIM_STUDY_CUT_H
#define PNRSIM_STUDY_CUT_H

#include "study/types.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The command line's changes to a study, as given (not owned). */
typedef struct study_cut {
    const char **set;   /* "study.KEY=VALUE": replications, windows, seed_base */
    size_t nset;
    const char **only;  /* "KEY=VALUE[,VALUE...]": a [vary] key kept to these */
    size_t nonly;
} study_cut;

/* True when cut changes anything (some --set or --only). */
bool study_cut_any(const study_cut *cut);

/* Apply cut to s: the --set values replace [study]'s, then each --only
 * keeps the named values of its [vary] key (in the study's order; a
 * baseline by its NAME or @NAME; a key given twice keeps the union), and
 * the points, runs and [plot] pins are recounted; a [plot] pinned to a
 * value left out is dropped, with a warning on warn (NULL: silent). 0, or
 * -1 with "--set ...: why" / "--only ...: why (the values allowed)" in err
 * (s is then unusable: free it). */
int study_cut_apply(study *s, const study_cut *cut, FILE *warn, char *err,
                    size_t errlen);

/* Replace the placeholders in every [plot]'s title, xlabel and ylabel:
 * {runs} runs per point (windows x replications), {replications},
 * {windows} (1 when the trace is not sliced) and {jobs} (workload.max_jobs
 * of the points' configurations, "all" for 0, "A-B" when points differ;
 * left as written when a configuration cannot be built). Any other {NAME}
 * is left as written, with a warning on warn (NULL: silent). */
void study_titles(study *s, FILE *warn);

#endif
