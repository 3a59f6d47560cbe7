/* app/progress.c: pnrsim's progress line (see progress.h).
 *
 * run_execute calls progress_show every RUN_PROGRESS_WINDOW events (app/
 * run.h: never per event, and a pause there changes nothing in the run);
 * whether a line is printed depends on wall time only, never on simulated
 * time or metrics_period:
 *  - on a terminal, one line rewritten in place ('\r', then "\033[K" to
 *    erase what a longer line left), at most every PROGRESS_TTY_REDRAW s,
 *    and erased at the end (progress_clear) so the results start on a clean
 *    line;
 *  - otherwise a line every `interval` wall seconds ([output]
 *    progress_interval, default 60; 0 = none), the first after one
 *    interval, so a run shorter than that prints none.
 *
 * The line:
 *   pnrsim: 1:23 elapsed, 43.1% of submit span, t=123456 s, 2.31 M events/s, about 1:49 left
 * The fraction names what it measures (run_progress_kind): "of submit
 * span" (simulated time over the trace's last submit time, read from a
 * plain file's end), "of max_time", "of max_jobs submitted", or "of trace
 * read" (the share of the file's compressed bytes read: .gz without
 * max_time, stdin). Once every job is submitted the fraction is 100% and the
 * line adds "N jobs left" (submitted, not finished).
 *
 * The estimate of time left: while jobs are still to be submitted, the
 * fraction extrapolated linearly (elapsed x (1 - f) / f: the time to the
 * last submit, the measure's end); after that, from the jobs finished since
 * the last submit (elapsed since then x jobs left / jobs finished since).
 * "time left not known yet" while neither has anything to go on. events/s
 * is measured over the last window of at least 1 s (since the start during
 * the first second).
 */
#include "app/progress.h"
#include "app/util.h"

#include <stdio.h>
#include <string.h>

void progress_init(progress_t *p, FILE *out, bool tty, double interval)
{
    memset(p, 0, sizeof *p);
    p->out = out;
    p->tty = tty;
    p->interval = interval > 0 ? interval : 0;
    p->rate = -1;
}

bool progress_active(const progress_t *p)
{
    return p->tty || p->interval > 0;
}

/* Note when every job has been submitted (at the first call after that,
 * printing or not: the estimate of the jobs' phase starts there). */
static void progress_drain(progress_t *p, const run_progress *rp)
{
    if (rp->all_submitted && !p->draining) {
        p->draining = true;
        p->drain_wall = rp->wall;
        p->drain_left = rp->left;
    }
}

static const char *progress_kind_name(run_progress_kind k)
{
    switch (k) {
    case RUN_PROGRESS_SPAN: return "of submit span";
    case RUN_PROGRESS_TIME: return "of max_time";
    case RUN_PROGRESS_JOBS: return "of max_jobs submitted";
    case RUN_PROGRESS_BYTES: return "of trace read";
    case RUN_PROGRESS_NONE: return "";
    }
    return "";
}

void progress_format(progress_t *p, const run_progress *rp, char *buf, size_t n)
{
    double dw = rp->wall - p->ref_wall;
    if (dw >= 1) {
        p->rate = (double)(rp->events - p->ref_events) / dw;
        p->ref_wall = rp->wall;
        p->ref_events = rp->events;
    }
    progress_drain(p, rp);
    double rate = p->rate >= 0 ? p->rate : rp->wall > 0 ? (double)rp->events / rp->wall : 0;
    double left = -1;
    if (!rp->all_submitted) {
        if (rp->fraction > 0)
            left = rp->wall * (1 - rp->fraction) / rp->fraction;
    } else if (rp->left <= 0) {
        left = 0;
    } else if (p->drain_left > rp->left) {
        left = (rp->wall - p->drain_wall) * (double)rp->left /
               (double)(p->drain_left - rp->left);
    }
    char elapsed[32], eta[48], jobs[48] = "";
    util_hms(elapsed, sizeof elapsed, rp->wall);
    if (left >= 0) {
        char t[32];
        util_hms(t, sizeof t, left);
        snprintf(eta, sizeof eta, "about %s left", t);
    } else {
        snprintf(eta, sizeof eta, "time left not known yet");
    }
    if (rp->all_submitted)
        snprintf(jobs, sizeof jobs, ", %ld job%s left", rp->left, rp->left == 1 ? "" : "s");
    if (rp->kind == RUN_PROGRESS_NONE && !rp->all_submitted) /* a pipe: no share known */
        snprintf(buf, n, "pnrsim: %s elapsed, %ld job%s submitted (trace on a pipe: no share "
                 "known), t=%.0f s, %.2f M events/s", elapsed, rp->submitted,
                 rp->submitted == 1 ? "" : "s", rp->now, rate / 1e6);
    else
        snprintf(buf, n, "pnrsim: %s elapsed, %.1f%% %s%s, t=%.0f s, %.2f M events/s, %s",
                 elapsed, rp->fraction * 100, progress_kind_name(rp->kind), jobs, rp->now,
                 rate / 1e6, eta);
}

void progress_show(run_t *r, const run_progress *rp, void *ctx)
{
    progress_t *p = ctx;
    (void)r;
    char line[256];
    progress_drain(p, rp);
    if (p->tty) {
        if (p->drawn && rp->wall - p->last_print < PROGRESS_TTY_REDRAW)
            return;
        progress_format(p, rp, line, sizeof line);
        fprintf(p->out, "\r%s\033[K", line);
        fflush(p->out);
        p->drawn = true;
    } else {
        if (!(p->interval > 0) || rp->wall - p->last_print < p->interval)
            return;
        progress_format(p, rp, line, sizeof line);
        fprintf(p->out, "%s\n", line);
        fflush(p->out);
    }
    p->last_print = rp->wall;
}

void progress_clear(progress_t *p)
{
    if (p->drawn) {
        fputs("\r\033[K", p->out);
        fflush(p->out);
        p->drawn = false;
    }
}
