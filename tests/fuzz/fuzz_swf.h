/* tests/fuzz/fuzz_swf.h: reading a whole SWF trace for the SWF harnesses,
 * with the properties every read must keep:
 *
 * - no crash; workload_open/workload_next return only their documented
 *   codes; an error is one line that starts with "FILE:";
 * - after a complete read, records = jobs + every drop counter;
 * - every job is runnable as the simulator expects: 1 <= threads <= PEs,
 *   CPU demand >= 0 and finite, memory >= 0 and finite, submit times >= 0,
 *   finite and nondecreasing, trace lines strictly increasing.
 */
#ifndef PNRSIM_TESTS_FUZZ_SWF_H
#define PNRSIM_TESTS_FUZZ_SWF_H

#include "app/workload.h"
#include "tests/fuzz/fuzz.h"

#include <math.h>

#define FUZZ_PES 64
#define FUZZ_MAX_JOBS 4096   /* jobs remembered for comparisons */

typedef struct fuzz_read {
    int rc;                  /* 0 read to the end, -1 error (open or line) */
    char err[CFG_ERR_MAX];   /* the message without "FILE" */
    long jobs;
    wl_job job[FUZZ_MAX_JOBS];
    long records, malformed;
} fuzz_read;

/* Read all of path with lenient as given into *out. */
static inline void fuzz_swf_read(const char *path, bool lenient, fuzz_read *out)
{
    memset(out, 0, sizeof *out);
    config c;
    config_defaults(&c);
    c.workload.lenient = lenient;
    char err[CFG_ERR_MAX] = "";
    workload *w = workload_open(path, &c, FUZZ_PES, err);
    int rc = -1;
    if (w) {
        wl_job j;
        double prev = 0;
        long prev_line = 0;
        while ((rc = workload_next(w, &j, err)) == 1) {
            FUZZ_CHECK(j.threads >= 1 && j.threads <= FUZZ_PES, "threads %d", j.threads);
            FUZZ_CHECK(j.cpu >= 0 && isfinite(j.cpu), "cpu %g", j.cpu);
            FUZZ_CHECK(j.mem_mb >= 0 && isfinite(j.mem_mb), "mem %g", j.mem_mb);
            FUZZ_CHECK(j.submit >= 0 && isfinite(j.submit) && j.submit >= prev,
                       "submit %g after %g", j.submit, prev);
            FUZZ_CHECK(j.line > prev_line, "line %ld after %ld", j.line, prev_line);
            prev = j.submit;
            prev_line = j.line;
            if (out->jobs < FUZZ_MAX_JOBS)
                out->job[out->jobs] = j;
            out->jobs++;
        }
        FUZZ_CHECK(rc == 0 || rc == -1, "workload_next returned %d", rc);
        out->records = workload_records(w);
        out->malformed = workload_dropped(w, WL_DROP_MALFORMED);
        if (rc == 0) {
            long sum = 0;
            for (int r = 0; r < WL_DROP_N; r++)
                sum += workload_dropped(w, (wl_drop_reason)r);
            FUZZ_CHECK(out->records == out->jobs + sum,
                       "records %ld != jobs %ld + dropped %ld", out->records,
                       out->jobs, sum);
        }
        (void)workload_header(w, "MaxProcs");
        workload_close(w);
    }
    out->rc = rc;
    if (rc != 0) {
        fuzz_check_message(err);
        size_t n = strlen(path);
        FUZZ_CHECK(strncmp(err, path, n) == 0 && err[n] == ':',
                   "message does not name the file: %s", err);
        snprintf(out->err, sizeof out->err, "%s", err + n);
    }
}

/* The same jobs, one by one. */
static inline bool fuzz_same_jobs(const fuzz_read *a, const fuzz_read *b)
{
    if (a->jobs != b->jobs)
        return false;
    long n = a->jobs < FUZZ_MAX_JOBS ? a->jobs : FUZZ_MAX_JOBS;
    for (long i = 0; i < n; i++) {
        const wl_job *x = &a->job[i], *y = &b->job[i];
        if (x->id != y->id || x->submit != y->submit ||
            x->threads != y->threads || x->cpu != y->cpu ||
            x->mem_mb != y->mem_mb || x->line != y->line ||
            x->status != y->status)
            return false;
    }
    return true;
}

#endif
