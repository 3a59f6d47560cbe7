/* study/resolve.h: the [plot] and [baseline] sections of a study file,
 * built once the whole file is read (study/resolve.c). Above
 * study/parse.c, study/text.c and study/points.c; used by study/study.c.
 */
#ifndef PNRSIM_STUDY_RESOLVE_H
#define PNRSIM_STUDY_RESOLVE_H

#include "study/parse.h"

#include <stddef.h>

/* Build plot pl from raw section rp against c->s's [vary] keys and metrics
 * list. 0, or -1 (reported); pl is then to be freed with study_free_plot. */
int study_build_plot(study_parse_ctx *c, const study_raw *rp, study_plot *pl);
/* Free the n raw sections at r, and r. */
void study_free_raw(study_raw *r, size_t n);
/* Free what pl holds (not pl). */
void study_free_plot(study_plot *pl);
/* Turn the nrb [baseline] sections rb into c->s->baselines and append their
 * names to the values of the key they extend (the plots give that key when
 * a baseline does not). 0, or -1 (reported). */
int study_build_baselines(study_parse_ctx *c, const study_raw *rb, size_t nrb,
                          const study_raw *plots, size_t nplots);

#endif
