/* app/busiest.h: workload.busiest, the trace's busiest window (issue 36
 * item 3). */
#ifndef PNRSIM_APP_BUSIEST_H
#define PNRSIM_APP_BUSIEST_H

#include "app/config.h"

/* With c->workload.busiest = D > 0: find the window [s, s + D] of the
 * trace (s a record's submit time, the window inside [submit_min,
 * submit_max] when those are set) with the largest offered load
 * (docs/MODEL.md: sum of procs x runtime over the records submitted in it
 * / (computer.number x D); the earliest such window on a tie), set
 * c->workload.submit_min = s and submit_max = s + D, and record where they
 * came from (config_set_origin: config.ini's "; from" lines). *load gets
 * the window's offered load (0 when D = 0: nothing done). Returns 0, or 2
 * with the reason in err (trace unreadable or standard input, malformed,
 * out of submit order, no job with work inside the range). */
int busiest_resolve(config *c, double *load, char err[CFG_ERR_MAX]);

#endif
