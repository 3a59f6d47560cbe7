/* app/progress.h: pnrsim's progress line on standard error, driven by wall
 * time (app/progress.c for what it shows and when).
 */
#ifndef PNRSIM_APP_PROGRESS_H
#define PNRSIM_APP_PROGRESS_H

#include "app/run.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Seconds between two redraws of the terminal line at least. */
#define PROGRESS_TTY_REDRAW 0.1

typedef struct progress {
    FILE *out;
    bool tty;            /* one line rewritten in place */
    double interval;     /* not a terminal: s between lines; 0 = none */
    double last_print;   /* wall time (run_progress.wall) of the last line */
    bool drawn;          /* a terminal line is on screen */
    double ref_wall;     /* events/s: measured over windows of >= 1 s */
    uint64_t ref_events;
    double rate;         /* events/s of the last window; < 0 = none yet */
    bool draining;       /* every job submitted: the estimate from jobs */
    double drain_wall;   /* ... since this wall time, */
    long drain_left;     /* ... when this many jobs were left */
} progress_t;

/* Set p up to write to out: tty = out is a terminal; interval = seconds
 * between lines when it is not ([output] progress_interval, 0 = none). */
void progress_init(progress_t *p, FILE *out, bool tty, double interval);
/* Whether p prints anything at all (a terminal, or an interval > 0). */
bool progress_active(const progress_t *p);
/* The run_progress_fn (ctx = the progress_t): prints a line when one is
 * due (see app/progress.c). */
void progress_show(run_t *r, const run_progress *rp, void *ctx);
/* Erase the terminal line, if one is drawn (at the end, before messages). */
void progress_clear(progress_t *p);
/* Format the line for rp into buf (no '\r' nor '\n'), updating p's rate
 * and estimate state. */
void progress_format(progress_t *p, const run_progress *rp, char *buf, size_t n);

#endif
