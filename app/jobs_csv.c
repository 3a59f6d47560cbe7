/* app/jobs_csv.c: jobs.csv rows (see jobs_csv.h for the contract).
 *
 * A finished job's row is built by hand, without printf for the common
 * integral values (app/numtext.h; issue 11: printf("%.12g") was a third of
 * a replay), from the column list JOBS_CSV, which also gives the header,
 * then the columns every state has: requested_time, state, reason, slot,
 * pes. pes is the job's gang matrix columns as ascending ranges separated
 * by spaces ("0-31 64-95 100", the interval-set text of evalys and Batsim),
 * from its pe_ids (ascending, sched/gang.h), each widened to its node's
 * cores under whole-node allocation. The other states' rows are rare (at
 * most one per job, most of them at the end) and take the same path with
 * empty fields for what does not apply. The row buffer grows with the
 * widest job seen, so a row never allocates after that.
 *
 * With scheduler.time_limit = KILL (cl->time_kill; issue 35) a job killed
 * at its limit has state `killed`, reason `time_limit`, its wait, response
 * and execution as run (to the kill) and no slowdowns, and every row has
 * one more column at its end, lost_core_seconds: the cores it held x its
 * run clock at the kill (sched/job_limit.h), empty for the others.
 *
 * The last column of every row is bounded_slowdown_dedicated (issue 37):
 * max(1, response / max(T_ded, tau)), T_ded the job's dedicated run time
 * (sched/job_types.h job_dedicated_time), for a finished job only.
 */
#include "app/jobs_csv.h"

#include "app/numtext.h"
#include "app/output.h"
#include "sched/limits.h"
#include "core/mem.h"
#include "net/net.h"
#include "sched/gang_alloc.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct jobs_csv {
    FILE *f;
    const cluster_t *cl;
    const gang_t *g;
    bool exclusive;
    bool kill;            /* time_kill: the column lost_core_seconds */
    bool racks, hops;     /* the placement columns (jobs_csv_open_placed) */
    int cpn;              /* cores per node (pes under exclusive) */
    char *buf;            /* one row */
    size_t cap;
    int *cols;            /* a job's columns sorted, when its threads' are not */
    size_t ncols;         /* capacity of cols */
};

/* The 14 columns of a finished job j (wait, response, exec, sld and bsld
 * computed in on_job_end, app/run.c), and the header, from this one list
 * (see CSV_* in app/output.h). */
#define JOBS_CSV(FIRST, X)                                                     \
    FIRST("job", num_put_i64, j->id)                                           \
    X("submit", num_put_g12, j->submit)                                        \
    X("start", num_put_g12, j->start)                                          \
    X("end", num_put_g12, j->end)                                              \
    X("threads", num_put_i64, j->threads)                                      \
    X("wait", num_put_g12, wait)                                               \
    X("response", num_put_g12, response)                                       \
    X("execution", num_put_g12, exec)                                          \
    X("slowdown", num_put_g12, sld)                                            \
    X("bounded_slowdown", num_put_g12, bsld)                                   \
    X("cpu_demand", num_put_g12, j->cpu)                                       \
    X("memory_mb", num_put_g12, j->mem_mb)                                     \
    X("page_faults", num_put_u64, (unsigned long long)j->faults)               \
    X("fault_time", num_put_g12, j->fault_time)
/* The columns after those (and `cores`), in every row. */
#define JOBS_CSV_TAIL "requested_time,state,reason,slot,pes"
/* The last column of every row (after lost_core_seconds when there is
 * one; issue 37): a finished job's bounded slowdown over its dedicated run
 * time, empty in every other row. Last, so that every column before it
 * keeps the position it had. */
#define JOBS_CSV_LAST "bounded_slowdown_dedicated"

jobs_csv *jobs_csv_open(FILE *f, const cluster_t *cl, const gang_t *g, bool exclusive)
{
    return jobs_csv_open_placed(f, cl, g, exclusive, false);
}

jobs_csv *jobs_csv_open_placed(FILE *f, const cluster_t *cl, const gang_t *g, bool exclusive,
                               bool placed)
{
    jobs_csv *w = xcalloc(1, sizeof *w);
    w->f = f;
    w->cl = cl;
    w->g = g;
    w->exclusive = exclusive;
    w->kill = cl->time_kill;
    w->hops = placed;
    w->racks = placed && net_tree_shape(cl->net) != NULL;
    w->cpn = cluster_cpn(cl);
    w->cap = 1024;
    w->buf = xrealloc(NULL, w->cap);
    fputs(exclusive ? JOBS_CSV(CSV_NAME1, CSV_NAME) ",cores" : JOBS_CSV(CSV_NAME1, CSV_NAME), f);
    fputs(w->racks ? ",racks,hops_mean," : w->hops ? ",hops_mean," : ",", f);
    fputs(JOBS_CSV_TAIL, f);
    fputs(w->kill ? ",lost_core_seconds" : "", f);
    fputs("," JOBS_CSV_LAST "\n", f);
    return w;
}

/* Room for a row of a job of `threads` threads: 22 fields of at most 24
 * bytes, and at most one range "a-b " of two ints per thread. */
static char *row_start(jobs_csv *w, long threads)
{
    size_t need = 26 * 26 + 128 + /* the columns, the longest reason */ (threads > 0 ? (size_t)threads * 24 : 0);
    if (need > w->cap) {
        free(w->buf);
        w->cap = need;
        w->buf = xrealloc(NULL, w->cap);
    }
    return w->buf;
}

static void row_end(jobs_csv *w, char *p)
{
    *p++ = '\n';
    assert((size_t)(p - w->buf) <= w->cap);
    fwrite(w->buf, 1, (size_t)(p - w->buf), w->f);
}

/* A number, or nothing when it is unknown (NAN, or negative where only
 * values >= 0 mean something: neg_unknown). */
static char *put_opt(char *p, double v, bool neg_unknown)
{
    if (isnan(v) || (neg_unknown && v < 0))
        return p;
    return num_put_g12(p, v);
}

static char *put_str(char *p, const char *s)
{
    size_t n = strlen(s);
    memcpy(p, s, n);
    return p + n;
}

static int cmp_int(const void *x, const void *y)
{
    int a = *(const int *)x, b = *(const int *)y;
    return (a > b) - (a < b);
}

/* The gang matrix columns of j as ascending ranges. Thread k's column is
 * usually above thread k-1's (the placements give runs of columns in
 * order); where it is not (GLOBAL's placement on nodes of several cores),
 * the columns are sorted in w->cols first (grown once to the widest job:
 * no allocation per row after that). */
static char *put_pes(jobs_csv *w, char *p, const job_t *j)
{
    const int *ids = j->pe_ids;
    for (int i = 1; i < j->threads; i++) {
        if (ids[i] >= ids[i - 1])
            continue;
        if ((size_t)j->threads > w->ncols) {
            free(w->cols);
            w->ncols = (size_t)j->threads;
            w->cols = xrealloc(NULL, w->ncols * sizeof *w->cols);
        }
        memcpy(w->cols, j->pe_ids, (size_t)j->threads * sizeof *w->cols);
        qsort(w->cols, (size_t)j->threads, sizeof *w->cols, cmp_int);
        ids = w->cols;
        break;
    }
    int lo = -1, hi = -2;
    for (int i = 0; i < j->threads; i++) {
        int a = ids[i], b = a;
        if (w->exclusive) {
            a = a / w->cpn * w->cpn;
            b = a + w->cpn - 1;
        }
        assert(a >= lo);
        if (a <= hi + 1) {
            if (b > hi)
                hi = b;
            continue;
        }
        if (lo >= 0) {
            p = num_put_i64(p, lo);
            if (hi > lo) {
                *p++ = '-';
                p = num_put_i64(p, hi);
            }
            *p++ = ' ';
        }
        lo = a;
        hi = b;
    }
    if (lo >= 0) {
        p = num_put_i64(p, lo);
        if (hi > lo) {
            *p++ = '-';
            p = num_put_i64(p, hi);
        }
    }
    return p;
}

/* ",requested,state,reason,slot,pes" of a submitted job j (slot and pes
 * empty when it was never placed). */
static char *put_tail(jobs_csv *w, char *p, const job_t *j, const char *state)
{
    *p++ = ',';
    p = put_opt(p, j->requested, true);
    *p++ = ',';
    p = put_str(p, state);
    /* reason: dropped records (record_row), and why a queued job never
     * started: never placeable, placed in a slot that never came round, or
     * still waiting in the queue (docs/METRICS.md). */
    int slot = gang_job_slot(w->g, j);
    *p++ = ',';
    if (j->impossible)
        p = put_str(p, "impossible");
    else if (j->limit_held || j->killing) {
        /* A per-user limit held it back, its time limit killed it (or was
         * reached: still ending when the run stopped), or both, the limit
         * first (issue 35; docs/METRICS.md) */
        if (j->limit_held)
            p = put_str(p, sched_limits_reason(j->limit_held));
        if (j->limit_held && j->killing)
            *p++ = ';';
        if (j->killing)
            p = put_str(p, "time_limit");
    } else if (!j->started && strcmp(state, "queued") == 0)
        p = put_str(p, slot >= 0 ? "slot_not_reached" : "waiting");
    *p++ = ',';
    if (slot >= 0)
        p = num_put_i64(p, slot);
    *p++ = ',';
    if (slot >= 0)
        p = put_pes(w, p, j);
    if (w->kill) {
        *p++ = ',';
        if (j->killing && j->ended) /* a killed row */
            p = num_put_g12(p, j->lost_core_s);
    }
    return p;
}

/* ",racks,hops_mean" of job j when asked (issue 35), before the tail (pes
 * stays the last column): of its cores at its last placement, empty when
 * it was never placed; hops_mean empty for one thread (no pair). */
static char *put_placed(jobs_csv *w, char *p, const job_t *j)
{
    bool placed = gang_job_slot(w->g, j) >= 0; /* as pes */
    if (w->racks) {
        *p++ = ',';
        if (placed)
            p = num_put_i64(p, gang_job_racks(w->g, j));
    }
    if (w->hops) {
        *p++ = ',';
        if (placed)
            p = put_opt(p, gang_job_hops(w->g, j), false);
    }
    return p;
}

void jobs_csv_finished(jobs_csv *w, const job_t *j, double wait, double response, double exec,
                       double sld, double bsld, double bsld_ded)
{
    char *p = row_start(w, j->threads);
    JOBS_CSV(CSV_PUT1, CSV_PUT)
    if (w->exclusive) {
        *p++ = ',';
        p = num_put_i64(p, j->width); /* cores: whole nodes */
    }
    p = put_placed(w, p, j);
    p = put_tail(w, p, j, "finished");
    *p++ = ',';
    p = num_put_g12(p, bsld_ded);
    row_end(w, p);
}

void jobs_csv_killed(jobs_csv *w, const job_t *j)
{
    double wait = j->start - j->submit, response = j->end - j->submit;
    double exec = j->end - j->start;
    char *p = row_start(w, j->threads);
    p = num_put_i64(p, j->id);
    *p++ = ',';
    p = num_put_g12(p, j->submit);
    *p++ = ',';
    p = num_put_g12(p, j->start);
    *p++ = ',';
    p = num_put_g12(p, j->end);
    *p++ = ',';
    p = num_put_i64(p, j->threads);
    *p++ = ',';
    p = num_put_g12(p, wait);
    *p++ = ',';
    p = num_put_g12(p, response);
    *p++ = ',';
    p = num_put_g12(p, exec);
    p = put_str(p, ",,,"); /* slowdown, bounded_slowdown: not for a killed job */
    p = num_put_g12(p, j->cpu);
    *p++ = ',';
    p = num_put_g12(p, j->mem_mb);
    *p++ = ',';
    p = num_put_u64(p, (unsigned long long)j->faults);
    *p++ = ',';
    p = num_put_g12(p, j->fault_time);
    if (w->exclusive) {
        *p++ = ',';
        p = num_put_i64(p, j->width);
    }
    p = put_placed(w, p, j);
    p = put_tail(w, p, j, "killed");
    *p++ = ','; /* bounded_slowdown_dedicated: not for a killed job */
    row_end(w, p);
}

/* The row of a job still in the system at the end. */
static void alive_row(jobs_csv *w, const job_t *j)
{
    char *p = row_start(w, j->threads);
    p = num_put_i64(p, j->id);
    *p++ = ',';
    p = num_put_g12(p, j->submit);
    *p++ = ',';
    if (j->started)
        p = num_put_g12(p, j->start);
    p = put_str(p, ",,"); /* end */
    p = num_put_i64(p, j->threads);
    p = put_str(p, ",,,,,,"); /* wait .. bounded_slowdown */
    p = num_put_g12(p, j->cpu);
    *p++ = ',';
    p = num_put_g12(p, j->mem_mb);
    *p++ = ',';
    p = num_put_u64(p, (unsigned long long)j->faults);
    *p++ = ',';
    p = num_put_g12(p, j->fault_time);
    if (w->exclusive) {
        *p++ = ',';
        p = num_put_i64(p, j->width);
    }
    p = put_placed(w, p, j);
    p = put_tail(w, p, j, j->started ? "running" : "queued");
    *p++ = ','; /* bounded_slowdown_dedicated */
    row_end(w, p);
}

/* The row of a record the run never submitted: dropped (why) or not
 * (why = WL_DROP_N: unsubmitted). */
static void record_row(jobs_csv *w, const wl_job *job, wl_drop_reason why)
{
    char *p = row_start(w, 0);
    p = num_put_i64(p, job->id);
    *p++ = ',';
    p = put_opt(p, job->submit, false);
    p = put_str(p, ",,,"); /* start, end */
    if (job->threads >= 0)
        p = num_put_i64(p, job->threads);
    p = put_str(p, ",,,,,,"); /* wait .. bounded_slowdown */
    p = put_opt(p, job->cpu, false);
    *p++ = ',';
    p = put_opt(p, job->mem_mb, false);
    p = put_str(p, w->exclusive ? ",,,," : ",,,"); /* faults, fault time (cores) */
    if (w->racks)
        *p++ = ',';
    if (w->hops)
        *p++ = ',';
    p = put_opt(p, job->requested, true);
    if (why == WL_DROP_N) {
        p = put_str(p, ",unsubmitted,");
    } else {
        p = put_str(p, ",dropped,");
        p = put_str(p, workload_drop_name(why));
    }
    p = put_str(p, ",,"); /* slot, pes */
    if (w->kill)
        *p++ = ','; /* lost_core_seconds */
    *p++ = ','; /* bounded_slowdown_dedicated */
    row_end(w, p);
}

void jobs_csv_dropped(const wl_job *job, wl_drop_reason why, void *w)
{
    record_row(w, job, why);
}

void jobs_csv_unsubmitted(jobs_csv *w, const wl_job *job)
{
    record_row(w, job, WL_DROP_N);
}

static int by_number(const void *a, const void *b)
{
    const job_t *x = *(const job_t *const *)a, *y = *(const job_t *const *)b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

void jobs_csv_alive(jobs_csv *w)
{
    size_t n = 0;
    for (job_t *j = job_first(w->cl); j; j = job_next(w->cl, j))
        n += !j->ended;
    if (n == 0)
        return;
    const job_t **v = xcalloc(n, sizeof *v);
    size_t k = 0;
    for (job_t *j = job_first(w->cl); j; j = job_next(w->cl, j))
        if (!j->ended)
            v[k++] = j;
    qsort(v, n, sizeof *v, by_number);
    for (k = 0; k < n; k++)
        alive_row(w, v[k]);
    free(v);
}

void jobs_csv_close(jobs_csv *w)
{
    if (!w)
        return;
    free(w->buf);
    free(w->cols);
    free(w);
}
