/* app/curve.h: fault model CURVE's files (issue 33; app/curve.c): the
 * strict reader of a measured fault curve (docs/MODEL.md "Measured fault
 * curves") and the set of a run's curves, looked up by a job's
 * application number (SWF field 14).
 */
#ifndef PNRSIM_APP_CURVE_H
#define PNRSIM_APP_CURVE_H

#include "app/config.h"
#include "sched/job_curve.h"

#include <stddef.h>

/* Read the curve file at path into *c (overwritten; free with
 * curve_free). 0, or -1 with one line in err naming the file, the line and
 * what was expected there ("FILE:LINE: ...") and nothing allocated. The
 * format, strictly: comment lines (first non-blank '#') and blank lines
 * anywhere; then `format = 1`; then page_size, footprint_pages, accesses
 * and cpu_seconds as `KEY = VALUE`, each once, in any order; then
 * `columns = pages,misses`; then rows `PAGES,MISSES` (whole numbers, no
 * blanks), pages from 0 strictly increasing to footprint_pages, misses
 * non-increasing, at most accesses, and 0 at pages = footprint_pages, the
 * last row. Blanks at a line's end are ignored. */
int curve_read(const char *path, fault_curve *c, char err[CFG_ERR_MAX]);
/* Free what curve_read allocated in c. */
void curve_free(fault_curve *c);

/* One item of process.fault_curves, read. */
typedef struct curve_app {
    double app;               /* application number (SWF field 14) */
    const fault_curve *curve;
} curve_app;

/* The curves of a run: every file named by process.fault_curve and
 * fault_curves, read once at the start. */
typedef struct curve_set {
    bool on;                  /* process.fault_model = CURVE */
    fault_curve *curves;      /* ncurves files read */
    size_t ncurves;
    const fault_curve *dflt;  /* process.fault_curve's, or NULL */
    curve_app *map;           /* fault_curves' items, by application number */
    size_t nmap;
} curve_set;

/* Read the curves c names into *s (overwritten): nothing under REPORT.
 * Each curve's page_size must equal c's process.page_size. 0, or -1 with
 * err (the file's reader's message, or the key and the mismatch) and s
 * empty. */
int curve_set_load(curve_set *s, const config *c, char err[CFG_ERR_MAX]);
/* The curve of a job of application number app (SWF field 14): its item
 * of fault_curves (a binary search), else fault_curve's curve, else NULL
 * (also always under REPORT). */
const fault_curve *curve_set_find(const curve_set *s, double app);
/* Free s's curves (the jobs that point to them must be gone). */
void curve_set_free(curve_set *s);

#endif
