/* app/workload.h: jobs from a Standard Workload Format (SWF) trace.
 *
 * The SWF reader (app/swf.h) reads one SWF file (.swf, .swf.gz or "-" for
 * standard input) line by line: its header (`; Key: value`, with
 * continuation lines) and its records (all 18 fields; floats accepted; -1 =
 * unknown). The workload layer on top maps records to simulated jobs with
 * PNRSim's mapping (techreport §2.1.3) and the [workload] policies of the
 * configuration, dropping (and counting, per reason) the jobs that cannot
 * run. Both stream: one record at a time, so memory does not grow with the
 * trace.
 */
#ifndef PNRSIM_APP_WORKLOAD_H
#define PNRSIM_APP_WORKLOAD_H

#include "app/config.h"
#include "app/swf.h"

#include <stdbool.h>
#include <stdint.h>

/* Reasons a record does not become a job. */
typedef enum {
    WL_DROP_MALFORMED,   /* malformed line skipped under lenient */
    WL_DROP_WIDE,        /* more threads than PEs */
    WL_DROP_NO_PROCS,    /* allocated processors <= 0 or unknown */
    WL_DROP_NO_CPU,      /* no usable CPU demand under the cpu_demand policy */
    WL_DROP_NO_MEMORY,   /* memory unknown and default_memory is 0 */
    WL_DROP_STATUS,      /* status excluded by exclude_status */
    WL_DROP_WINDOW,      /* outside the submit window or beyond max_jobs */
    WL_DROP_N
} wl_drop_reason;

/* A job as the simulator sees it. */
typedef struct wl_job {
    long id;             /* SWF job number (field 1) */
    double submit;       /* s, after load_scale and relative to the first job */
    int threads;         /* allocated processors (field 5) */
    double cpu;          /* CPU demand per thread, s */
    double mem_mb;       /* memory per thread, MB (field 7 KB / 1024 * memory_scale) */
    double runtime;      /* field 4, for reference (-1 unknown) */
    double estimate;     /* s: field 9 or the CPU demand, x estimate_scale */
    double requested;    /* s: field 9 as in the trace, NAN when unknown (< 0) */
    int status;          /* field 11 */
    double app;          /* field 14, executable (application) number; -1 unknown */
    long user;           /* field 12, user number; -1 unknown (issue 35) */
    long group;          /* field 13, group number; -1 unknown */
    long line;           /* line in the trace */
} wl_job;

/* The largest estimate accepted (s): workload_next rejects a job whose
 * estimate (x estimate_scale) exceeds it, so that now + estimate stays
 * comparable with shadow times and profile steps (docs/SCHEDULING.md). */
#define WL_ESTIMATE_MAX 1e12

typedef struct workload workload;

/* Open the trace at path for a machine of max_pes PEs with configuration c.
 * Returns a new workload, or NULL with a one-line message in err naming the
 * file (and line) and the problem. */
workload *workload_open(const char *path, const config *c, int max_pes,
                        char err[CFG_ERR_MAX]);
/* Next job in trace order: returns 1 and fills *job, 0 at the end of the
 * trace, -1 with err filled on a malformed line (unless lenient), a job
 * submitted before the previous kept job, or a job number not above the
 * previous kept job's (a duplicate; skipped and counted as malformed under
 * lenient). */
int workload_next(workload *w, wl_job *job, char err[CFG_ERR_MAX]);
/* Told of each record dropped (and counted) from now on that has a job
 * number, as it is dropped: the record as a job as far as it maps (NAN
 * for what is unknown: submit before the first kept job, a CPU demand the
 * policy finds none of; threads -1 when field 5 is unknown or < 0.5). A
 * line that does not parse (malformed without a usable job number) is
 * counted but not told. NULL fn: none. */
typedef void (*wl_drop_fn)(const wl_job *job, wl_drop_reason why, void *ctx);
void workload_on_drop(workload *w, wl_drop_fn fn, void *ctx);
/* After the run (simulation.max_time): the next record the run would
 * have read had it gone on, as a job mapped as far as it maps (as told to
 * wl_drop_fn), whether the run would have kept or dropped it: returns 1
 * with *job filled, 0 at the end. Reading stops where workload_next would
 * have stopped (max_jobs kept, the first record after submit_max, already
 * stopped), or at a read error; lines workload_next would refuse (that
 * do not parse, out of range) are skipped. Nothing is counted: the drop
 * counts, workload_rounded and workload_stopped_at stay those of the run. */
int workload_rest(workload *w, wl_job *job);
/* SHA-256 of the trace (swf_sha256: 0, 1 = of the bytes read from a pipe
 * only, -1). */
int workload_sha256(const workload *w, char hex[65]);
/* Jobs returned so far whose processor count (field 5) was not a whole
 * number and was rounded to the nearest; the line of the first of them in
 * *first_line (when not NULL; 0 when there is none). */
long workload_rounded(const workload *w, long *first_line);
/* Jobs dropped so far for reason r. */
long workload_dropped(const workload *w, wl_drop_reason r);
/* Short name of a drop reason (for output keys): "malformed", "too_wide"... */
const char *workload_drop_name(wl_drop_reason r);
/* Records read so far (jobs returned + dropped). */
long workload_records(const workload *w);
/* 0 when the trace was (or is being) read to its end; else the last line
 * read when reading stopped because no later record could be kept
 * (max_jobs reached, or a record submitted after submit_max). */
long workload_stopped_at(const workload *w);
/* Header value for key (e.g. "MaxProcs"), or NULL when absent. */
const char *workload_header(const workload *w, const char *key);
/* Bytes of the file consumed so far and its size (0 when unknown, e.g.
 * stdin or gzip), for progress bars. */
void workload_progress(const workload *w, double *done_fraction);
/* The simulated submit time (s, as wl_job.submit) of the last job the
 * trace can offer, from the file's last record (swf_last_submit) bounded by
 * submit_max, for progress; NAN when unknown: no job read yet, max_jobs set
 * (the last job is then not the file's last), or no cheap tail (gzip,
 * pipe). An estimate: the last record may yet be dropped. */
double workload_last_submit(const workload *w);
/* The trace's display name (file name without directories). */
const char *workload_name(const workload *w);
void workload_close(workload *w);

#endif
