/* app/workload.c: jobs from a Standard Workload Format trace (see
 * workload.h for the contract).
 *
 * Records come from the SWF reader (app/swf.c: lines, header, the 18
 * numbers of a record); this file maps each record to a job (techreport
 * §2.1.3) and applies the [workload] policies. Choices made here
 * (docs/MODEL.md):
 *
 *  - Submit times are relative to the first KEPT job and divided by
 *    load_scale: submit' = (submit - submit_first_kept) / load_scale. The
 *    first job therefore arrives at t = 0 and every inter-arrival gap is
 *    divided by load_scale. The window bounds submit_min/submit_max are
 *    compared with the trace's own (unscaled) submit times.
 *  - Integer fields (job number, processors, status) may be written as
 *    floats; they are rounded to the nearest integer (2.6 processors = 3).
 *    Kept jobs whose processor count was not whole are counted
 *    (workload_rounded; pnrsim warns), since rounding changes the job.
 *  - Job numbers of kept jobs must ascend (techreport §2.1.3: "a unique
 *    ascending number"; SWF: a counter from 1): a number not above the
 *    previous kept job's (a duplicate, or out of order) is an error naming
 *    both lines; under lenient the record is skipped and counted as
 *    malformed. Only the last number is kept, so memory stays constant.
 *  - CPU demand: CPUTIME uses field 6, RUNTIME field 4, AUTO field 6 when it
 *    is > 0, else field 4 when it is >= 0, else field 6 when it is exactly 0.
 *    Any negative value is "unknown". A demand of 0 is a real job and kept.
 *  - Estimate (scheduler.backfill, SJF...): field 9 (requested time) when it
 *    is > 0 and estimate = REQUESTED, else the CPU demand (what the job runs
 *    for without paging or time sharing: field 4 under cpu_demand RUNTIME);
 *    times estimate_scale. It never changes how long a job runs.
 *  - Memory per thread: field 7 (KB) / 1024 MB, or default_memory MB when
 *    field 7 is negative; memory_scale multiplies both. A job with unknown
 *    memory and default_memory 0 runs with 0 MB, so WL_DROP_NO_MEMORY is
 *    never counted (it stays in the enum for output compatibility).
 *  - Drop reasons are tested in this order, and a record counts once, under
 *    the first that applies: excluded status, outside submit_min/submit_max,
 *    processors unknown or < 1 (after rounding), wider than max_pes, no CPU
 *    demand, before the window (workload.window W skips the first W x
 *    max_jobs jobs that pass the other filters, counted as "window"),
 *    beyond max_jobs.
 *  - Reading stops as soon as no later record can be kept (issue 11): once
 *    max_jobs jobs have been returned (the next record is not read), and at
 *    the first record submitted after submit_max (that record is counted
 *    under "window", the rest is not read). Traces are in submit order, so
 *    nothing that could be kept is lost; in a trace that is not, records
 *    after that point that lie inside the window are not read either (a
 *    kept job out of order is an error anyway). Counts and the syntax
 *    check then cover the records read; workload_stopped_at says where.
 *  - A record with an unknown (negative) submit time is malformed: it cannot
 *    be placed in the arrival schedule.
 *  - Jobs must arrive in nondecreasing submit order. A kept job submitted
 *    before the previous kept job is an error naming both lines, even under
 *    lenient: the reader never reorders. Dropped records are not checked.
 */
#include "app/workload.h"

#include "app/util.h"
#include "core/mem.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct workload {
    swf_reader *r;
    cfg_cpu_demand cpu_demand;
    double default_memory, memory_scale, load_scale;
    long max_jobs;
    long skip;                   /* jobs still to skip: window * max_jobs */
    double submit_min, submit_max;
    int exclude_status[CFG_MAX_STATUS];
    int n_exclude_status;
    bool lenient;
    cfg_estimate estimate;
    double estimate_scale;
    int max_pes;
    long records;                /* records read (returned + dropped) */
    long kept;                   /* jobs returned */
    long dropped[WL_DROP_N];
    double first_submit;         /* trace submit time of the first kept job */
    double last_submit;          /* ... and of the last one */
    long last_line;
    long last_id;                /* job number of the last kept job */
    long rounded;                /* kept jobs whose field 5 was not a whole number */
    long rounded_line;           /* the line of the first of them */
    long stopped_at;             /* last line read when reading stopped
                                  * early (max_jobs, submit_max), else 0 */
    wl_drop_fn on_drop;          /* told of dropped records (jobs.csv) */
    void *drop_ctx;
    long rest_kept;              /* workload_rest: records it would keep */
    bool rest_done;              /* workload_rest: reading stopped */
};

workload *workload_open(const char *path, const config *c, int max_pes,
                        char err[CFG_ERR_MAX])
{
    char shown[256]; /* the path in messages, cut in its middle when long */
    util_path_shown(shown, sizeof shown, strcmp(path, "-") == 0 ? "stdin" : path);
    workload tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.cpu_demand = c->workload.cpu_demand;
    tmp.estimate = c->workload.estimate;
    tmp.estimate_scale = c->workload.estimate_scale;
    tmp.default_memory = c->workload.default_memory;
    tmp.memory_scale = c->workload.memory_scale;
    tmp.load_scale = c->workload.load_scale;
    tmp.max_jobs = c->workload.max_jobs;
    tmp.submit_min = c->workload.submit_min;
    tmp.submit_max = c->workload.submit_max;
    int n_ex = c->workload.n_exclude_status;
    if (n_ex > CFG_MAX_STATUS)
        n_ex = CFG_MAX_STATUS;
    tmp.n_exclude_status = n_ex < 0 ? 0 : n_ex;
    memcpy(tmp.exclude_status, c->workload.exclude_status,
           (size_t)tmp.n_exclude_status * sizeof(int));
    tmp.lenient = c->workload.lenient;
    tmp.max_pes = max_pes;

    if (max_pes < 1) {
        snprintf(err, CFG_ERR_MAX, "%s: the machine needs at least 1 PE (got %d)", shown,
                max_pes);
        return NULL;
    }
    if (!(tmp.load_scale > 0) || !isfinite(tmp.load_scale)) {
        snprintf(err, CFG_ERR_MAX, "%s: workload.load_scale must be > 0 (got %g)", shown,
                tmp.load_scale);
        return NULL;
    }
    if (!(tmp.memory_scale >= 0) || !isfinite(tmp.memory_scale)) {
        snprintf(err, CFG_ERR_MAX, "%s: workload.memory_scale must be >= 0 (got %g)", shown,
                tmp.memory_scale);
        return NULL;
    }
    if (!(tmp.default_memory >= 0) || !isfinite(tmp.default_memory)) {
        snprintf(err, CFG_ERR_MAX, "%s: workload.default_memory must be >= 0 (got %g)",
                shown, tmp.default_memory);
        return NULL;
    }
    if (tmp.max_jobs < 0) {
        snprintf(err, CFG_ERR_MAX, "%s: workload.max_jobs must be >= 0 (got %ld)", shown,
                tmp.max_jobs);
        return NULL;
    }
    if (c->workload.window < 0 ||
        (c->workload.window > 0 &&
         (tmp.max_jobs <= 0 || c->workload.window > LONG_MAX / tmp.max_jobs))) {
        snprintf(err, CFG_ERR_MAX, "%s: workload.window = %ld needs max_jobs > 0 and "
                "window x max_jobs within range (max_jobs = %ld)", shown,
                c->workload.window, tmp.max_jobs);
        return NULL;
    }
    tmp.skip = c->workload.window * tmp.max_jobs;
    if (tmp.cpu_demand != CPU_DEMAND_CPUTIME &&
        tmp.cpu_demand != CPU_DEMAND_RUNTIME &&
        tmp.cpu_demand != CPU_DEMAND_AUTO) {
        snprintf(err, CFG_ERR_MAX, "%s: workload.cpu_demand has no valid value (%d)", shown,
                (int)tmp.cpu_demand);
        return NULL;
    }

    tmp.r = swf_open(path, tmp.lenient, err);
    if (!tmp.r)
        return NULL;
    /* Header lines skipped for a NUL byte count as malformed records. */
    tmp.records = swf_bad_header(tmp.r);
    tmp.dropped[WL_DROP_MALFORMED] = swf_bad_header(tmp.r);
    workload *w = xrealloc(NULL, sizeof *w);
    *w = tmp;
    return w;
}

/* CPU demand per thread of rec under policy p, or -1 when it has none. */
static double workload_cpu(cfg_cpu_demand p, const swf_record *rec)
{
    double cputime = rec->f[5], runtime = rec->f[3];
    switch (p) {
    case CPU_DEMAND_CPUTIME:
        return cputime >= 0 ? cputime : -1;
    case CPU_DEMAND_RUNTIME:
        return runtime >= 0 ? runtime : -1;
    case CPU_DEMAND_AUTO:
        if (cputime > 0)
            return cputime;
        if (runtime >= 0)
            return runtime;
        return cputime == 0 ? 0 : -1;
    }
    return -1;
}

/* Why rec does not become a job (the first reason that applies, in the
 * order documented at the top), or WL_DROP_N when it does; *cpu receives
 * its CPU demand. max_jobs is handled by the caller. */
static wl_drop_reason workload_classify(const workload *w,
                                        const swf_record *rec, double *cpu)
{
    double submit = rec->f[1], procs = rec->f[4];
    long status = lround(rec->f[10]);
    for (int i = 0; i < w->n_exclude_status; i++)
        if (status == w->exclude_status[i])
            return WL_DROP_STATUS;
    if (submit < w->submit_min || (w->submit_max > 0 && submit > w->submit_max))
        return WL_DROP_WINDOW;
    if (!(procs >= 0.5))                /* rounds to 0 or unknown */
        return WL_DROP_NO_PROCS;
    if (round(procs) > (double)w->max_pes)
        return WL_DROP_WIDE;
    *cpu = workload_cpu(w->cpu_demand, rec);
    if (*cpu < 0)
        return WL_DROP_NO_CPU;
    return WL_DROP_N;
}

/* A user or group number (SWF fields 12, 13): a whole number >= 0 as
 * written (rounded), -1 when unknown (negative, or beyond a long). */
static long workload_id(double f)
{
    return f >= 0 && f < 9e18 ? lround(f) : -1;
}

/* rec as a job as far as it maps (workload_on_drop, workload_rest): NAN
 * for what is unknown, threads -1 when field 5 is not a count. */
static void workload_fill(const workload *w, const swf_record *rec, wl_job *job)
{
    double cpu = workload_cpu(w->cpu_demand, rec), procs = rec->f[4], mem_kb = rec->f[6];
    job->id = lround(rec->f[0]);
    job->submit = w->kept > 0 && rec->f[1] >= 0 ? (rec->f[1] - w->first_submit) / w->load_scale
                                                 : NAN;
    job->threads = procs >= 0.5 && procs < INT_MAX ? (int)lround(procs) : -1;
    job->cpu = cpu >= 0 ? cpu : NAN;
    job->mem_mb = (mem_kb >= 0 ? mem_kb / 1024.0 : w->default_memory) * w->memory_scale;
    job->runtime = rec->f[3];
    job->estimate = NAN;
    job->requested = rec->f[8] >= 0 ? rec->f[8] : NAN;
    job->status = (int)lround(rec->f[10] < INT_MIN ? INT_MIN
                              : rec->f[10] > INT_MAX ? INT_MAX : rec->f[10]);
    job->user = workload_id(rec->f[11]);
    job->group = workload_id(rec->f[12]);
    job->line = rec->line;
}

/* Count rec as dropped for reason why, and tell the hook. */
static void workload_drop(workload *w, const swf_record *rec, wl_drop_reason why)
{
    w->records++;
    w->dropped[why]++;
    if (w->on_drop) {
        wl_job job;
        workload_fill(w, rec, &job);
        w->on_drop(&job, why, w->drop_ctx);
    }
}

void workload_on_drop(workload *w, wl_drop_fn fn, void *ctx)
{
    w->on_drop = fn;
    w->drop_ctx = ctx;
}

int workload_next(workload *w, wl_job *job, char err[CFG_ERR_MAX])
{
    swf_record rec;
    if (w->stopped_at)
        return 0;
    if (w->max_jobs > 0 && w->kept >= w->max_jobs) {
        w->stopped_at = w->last_line; /* no later record can be kept */
        return 0;
    }
    for (;;) {
        bool malformed;
        int rc = swf_next(w->r, &rec, &malformed, err);
        if (rc == 0)
            return 0;
        if (rc < 0) {
            if (malformed && w->lenient) {
                w->records++;
                w->dropped[WL_DROP_MALFORMED]++;
                continue;
            }
            return -1;
        }
        /* Values no trace can mean: beyond these, simulated time stops
         * advancing (2^53 s) or sizes overflow. Times are limited to 10^12 s
         * (31,700 years), every other field to 10^15. */
        int bad = -1;
        for (int k = 0; k < SWF_FIELDS && bad < 0; k++) {
            bool is_time = k == 1 || k == 2 || k == 3 || k == 5 || k == 8 || k == 17;
            if (fabs(rec.f[k]) > (is_time ? 1e12 : 1e15))
                bad = k;
        }
        if (bad >= 0) {
            if (w->lenient && bad == 0) { /* no usable job number */
                w->records++;
                w->dropped[WL_DROP_MALFORMED]++;
                continue;
            }
            if (w->lenient) {
                workload_drop(w, &rec, WL_DROP_MALFORMED);
                continue;
            }
            char val[32];
            util_fmt_g(val, sizeof val, rec.f[bad]);
            snprintf(err, CFG_ERR_MAX, "%s:%ld: field %d is %s: out of range (at most %g in absolute value)",
                    swf_path(w->r), rec.line, bad + 1, val,
                    (bad == 1 || bad == 2 || bad == 3 || bad == 5 || bad == 8 || bad == 17)
                        ? 1e12 : 1e15);
            return -1;
        }
        if (!(rec.f[1] >= 0)) {
            if (w->lenient) {
                workload_drop(w, &rec, WL_DROP_MALFORMED);
                continue;
            }
            snprintf(err, CFG_ERR_MAX, "%s:%ld: field 2 (submit time) is %g: a job needs a "
                    "known submit time >= 0", swf_path(w->r), rec.line, rec.f[1]);
            return -1;
        }
        double cpu = 0;
        wl_drop_reason why = workload_classify(w, &rec, &cpu);
        /* Window W: the first W x max_jobs jobs that pass every other
         * filter are dropped as outside the window (before max_jobs). */
        if (why == WL_DROP_N && w->skip > 0) {
            w->skip--;
            why = WL_DROP_WINDOW;
        }
        if (why == WL_DROP_N && w->max_jobs > 0 && w->kept >= w->max_jobs)
            why = WL_DROP_WINDOW;
        if (why != WL_DROP_N) {
            workload_drop(w, &rec, why);
            if (why == WL_DROP_WINDOW && w->submit_max > 0 && rec.f[1] > w->submit_max) {
                w->stopped_at = rec.line; /* every later record is later still */
                return 0;
            }
            continue;
        }
        if (w->kept > 0 && rec.f[1] < w->last_submit) {
            snprintf(err, CFG_ERR_MAX, "%s:%ld: submit time %.17g is earlier than %.17g of "
                    "the job on line %ld; the simulator needs jobs in submit "
                    "order (sort the trace by field 2)", swf_path(w->r), rec.line,
                    rec.f[1], w->last_submit, w->last_line);
            return -1;
        }
        long id = lround(rec.f[0]);
        if (w->kept > 0 && id <= w->last_id) {
            if (w->lenient) {
                workload_drop(w, &rec, WL_DROP_MALFORMED);
                continue;
            }
            snprintf(err, CFG_ERR_MAX, "%s:%ld: field 1 (job number) is %ld, not above %ld of "
                    "the job on line %ld: job numbers must be unique and ascending (SWF: a "
                    "counter from 1)", swf_path(w->r), rec.line, id, w->last_id, w->last_line);
            return -1;
        }
        w->last_id = id;
        if (w->kept == 0)
            w->first_submit = rec.f[1];
        w->last_submit = rec.f[1];
        w->last_line = rec.line;
        w->records++;
        w->kept++;

        double mem_kb = rec.f[6];
        job->id = lround(rec.f[0]);
        job->submit = (rec.f[1] - w->first_submit) / w->load_scale;
        job->threads = (int)lround(rec.f[4]);
        if (rec.f[4] != (double)job->threads && w->rounded++ == 0)
            w->rounded_line = rec.line;
        job->cpu = cpu;
        job->mem_mb = (mem_kb >= 0 ? mem_kb / 1024.0 : w->default_memory) *
                      w->memory_scale;
        if (!(job->mem_mb <= 1e12)) {
            snprintf(err, CFG_ERR_MAX, "%s:%ld: memory per thread %g MB (field 7 x memory_scale) is out "
                    "of range (at most 1e12 MB)", swf_path(w->r), rec.line, job->mem_mb);
            return -1;
        }
        job->runtime = rec.f[3];
        /* The estimate (issue 14): field 9 when > 0 (REQUESTED), else the
         * job's CPU demand, the time it runs without paging or sharing. */
        job->estimate = (w->estimate == ESTIMATE_REQUESTED && rec.f[8] > 0 ? rec.f[8] : cpu) *
                        w->estimate_scale;
        /* Bounded so that now + estimate stays exact enough to compare with
         * a shadow time or a profile step (docs/SCHEDULING.md): at 1e18 s,
         * 2 + 1e18 == 1e18 and a job would backfill wrongly. */
        if (!(job->estimate <= WL_ESTIMATE_MAX)) {
            /* Enough digits that the value shown differs from the limit. */
            char est[32], scale[32], most[32];
            util_fmt_g(est, sizeof est, job->estimate);
            util_fmt_g(scale, sizeof scale, w->estimate_scale);
            util_fmt_g(most, sizeof most, WL_ESTIMATE_MAX);
            snprintf(err, CFG_ERR_MAX, "%s:%ld: estimate %s s (%s x workload.estimate_scale "
                    "%s) is out of range (at most %s s)", swf_path(w->r), rec.line,
                    est,
                    w->estimate == ESTIMATE_REQUESTED && rec.f[8] > 0
                        ? "field 9, requested time," : "the CPU demand",
                    scale, most);
            return -1;
        }
        job->requested = rec.f[8] >= 0 ? rec.f[8] : NAN;
        job->status = (int)lround(rec.f[10] < INT_MIN ? INT_MIN
                                  : rec.f[10] > INT_MAX ? INT_MAX : rec.f[10]);
        job->app = rec.f[13];
        job->user = workload_id(rec.f[11]);
        job->group = workload_id(rec.f[12]);
        job->line = rec.line;
        return 1;
    }
}

/* True when no field of rec is beyond what a trace can mean (the check of
 * workload_next). */
static bool workload_in_range(const swf_record *rec)
{
    for (int k = 0; k < SWF_FIELDS; k++) {
        bool is_time = k == 1 || k == 2 || k == 3 || k == 5 || k == 8 || k == 17;
        if (!(fabs(rec->f[k]) <= (is_time ? 1e12 : 1e15)))
            return false;
    }
    return true;
}

int workload_rest(workload *w, wl_job *job)
{
    if (w->stopped_at || w->rest_done)
        return 0;
    for (;;) {
        if (w->max_jobs > 0 && w->kept + w->rest_kept >= w->max_jobs) {
            w->rest_done = true; /* as workload_next: the next record is not read */
            return 0;
        }
        swf_record rec;
        bool malformed;
        char err[CFG_ERR_MAX];
        int rc = swf_next(w->r, &rec, &malformed, err);
        if (rc < 0 && malformed)
            continue;
        if (rc <= 0) {
            w->rest_done = true;
            return 0;
        }
        if (!workload_in_range(&rec))
            continue;
        double cpu = 0;
        wl_drop_reason why = rec.f[1] >= 0 ? workload_classify(w, &rec, &cpu) : WL_DROP_MALFORMED;
        if (why == WL_DROP_N && w->skip > 0) {
            w->skip--;
            why = WL_DROP_WINDOW;
        }
        if (why == WL_DROP_WINDOW && w->submit_max > 0 && rec.f[1] > w->submit_max) {
            w->rest_done = true; /* every later record is later still */
            return 0;
        }
        if (why == WL_DROP_N)
            w->rest_kept++;
        workload_fill(w, &rec, job);
        return 1;
    }
}

int workload_sha256(const workload *w, char hex[65])
{
    return swf_sha256(w->r, hex);
}

long workload_rounded(const workload *w, long *first_line)
{
    if (first_line)
        *first_line = w->rounded_line;
    return w->rounded;
}

long workload_dropped(const workload *w, wl_drop_reason r)
{
    if ((int)r < 0 || r >= WL_DROP_N)
        return 0;
    return w->dropped[r];
}

const char *workload_drop_name(wl_drop_reason r)
{
    switch (r) {
    case WL_DROP_MALFORMED: return "malformed";
    case WL_DROP_WIDE: return "too_wide";
    case WL_DROP_NO_PROCS: return "no_procs";
    case WL_DROP_NO_CPU: return "no_cpu";
    case WL_DROP_NO_MEMORY: return "no_memory";
    case WL_DROP_STATUS: return "status";
    case WL_DROP_WINDOW: return "window";
    case WL_DROP_N: break;
    }
    return "unknown";
}

long workload_records(const workload *w)
{
    return w->records;
}

long workload_stopped_at(const workload *w)
{
    return w->stopped_at;
}

const char *workload_header(const workload *w, const char *key)
{
    return swf_header(w->r, key);
}

void workload_progress(const workload *w, double *done_fraction)
{
    *done_fraction = swf_progress(w->r);
}

double workload_last_submit(const workload *w)
{
    double last = swf_last_submit(w->r);
    if (w->max_jobs > 0 || w->kept == 0 || !isfinite(last))
        return NAN;
    if (w->submit_max > 0 && w->submit_max < last)
        last = w->submit_max;
    double t = (last - w->first_submit) / w->load_scale;
    return t > 0 ? t : 0;
}

const char *workload_name(const workload *w)
{
    return swf_name(w->r);
}

void workload_close(workload *w)
{
    if (!w)
        return;
    swf_close(w->r);
    free(w);
}
