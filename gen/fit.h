/* gen/fit.h: estimating pnrsim-gen's parameters from an SWF log. */
#ifndef PNRSIM_GEN_FIT_H
#define PNRSIM_GEN_FIT_H

#include "gen/params.h"

/* Fit *p (from its defaults) to the log at path: every record with
 * procs >= 1 and runtime >= 0 (field 5, else field 8; field 4). Returns
 * 0, or 2 with the reason in err (unreadable, malformed, fewer than 10
 * jobs). The methods are docs/WORKLOADS.md's. */
int gen_fit(gen_params *p, const char *path, char err[GEN_ERR_MAX]);

#endif
