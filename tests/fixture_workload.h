/* tests/fixture_workload.h: helpers of tests/test_workload*.c: hand-built
 * traces written to temporary files in /tmp (mkstemp), a configuration
 * with a given CPU-demand policy, opening a workload that must open, and
 * draining one into a tally of what was read and dropped.
 */
#ifndef PNRSIM_TESTS_FIXTURE_WORKLOAD_H
#define PNRSIM_TESTS_FIXTURE_WORKLOAD_H

#include "app/workload.h"
#include "tests/testutil.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>


#define LANL "traces/lanl-cm5-techreport-sample10.swf"
#define HPC2N "traces/hpc2n-seth-first3171.swf"
#define LUBLIN "traces/lublin-256-synthetic.swf"
#define NASA "traces/NASA-iPSC-1993-3.1-cln.swf.gz"
#define META "tests/data/metacentrum-wagap-2013-head20.swf"

/* Fields 12..18 of a record, all unknown. */
#define TAIL " -1 -1 -1 -1 -1 -1 -1\n"

/* Write text to a new temporary file; returns its malloc'd path. */
static inline char *tmp_write(const void *data, size_t n)
{
    char tmpl[] = "/tmp/test_workload_XXXXXX";
    int fd = mkstemp(tmpl);
    ck_assert_int_ge(fd, 0);
    const char *p = data;
    while (n > 0) {
        ssize_t k = write(fd, p, n);
        ck_assert_int_gt(k, 0);
        p += k;
        n -= (size_t)k;
    }
    close(fd);
    return strdup(tmpl);
}

/* tmp_write for a NUL-terminated string. */
static inline char *tmp_swf(const char *text)
{
    return tmp_write(text, strlen(text));
}

/* Remove and free a path from tmp_write. */
static inline void tmp_remove(char *path)
{
    unlink(path);
    free(path);
}

/* A configuration with everything 0 except the neutral scales. */
static inline void cfg_init(config *c, cfg_cpu_demand policy)
{
    memset(c, 0, sizeof *c);
    c->workload.cpu_demand = policy;
    c->workload.memory_scale = 1;
    c->workload.load_scale = 1;
}

/* Open path, failing the test (with the message) when it cannot. */
static inline workload *open_ok(const char *path, const config *c, int pes)
{
    char err[CFG_ERR_MAX] = "";
    workload *w = workload_open(path, c, pes, err);
    ck_assert_msg(w != NULL, "workload_open(%s): %s", path, err);
    return w;
}

/* What drain() saw. */
typedef struct tally {
    long jobs;
    double cpu_sum, mem_sum, thread_cpu_sum;
    wl_job first, last;
    double prev_submit;
    bool sorted;
} tally;

/* Read every job of w into *t; returns the final workload_next result
 * (0 at the end, -1 on an error, whose message is left in err). */
static inline int drain(workload *w, tally *t, char err[CFG_ERR_MAX])
{
    memset(t, 0, sizeof *t);
    t->sorted = true;
    wl_job j;
    int rc;
    while ((rc = workload_next(w, &j, err)) == 1) {
        if (t->jobs == 0)
            t->first = j;
        else if (j.submit < t->prev_submit)
            t->sorted = false;
        t->prev_submit = j.submit;
        t->last = j;
        t->jobs++;
        t->cpu_sum += j.cpu;
        t->mem_sum += j.mem_mb;
        t->thread_cpu_sum += j.cpu * j.threads;
    }
    return rc;
}

/* Sum of the drop counters. */
static inline long dropped_total(const workload *w)
{
    long n = 0;
    for (int r = 0; r < WL_DROP_N; r++)
        n += workload_dropped(w, (wl_drop_reason)r);
    return n;
}

/* Read all of path and check records == jobs + drops; returns the tally. */
static inline tally read_all(const char *path, const config *c, int pes,
                             workload **keep)
{
    char err[CFG_ERR_MAX] = "";
    workload *w = open_ok(path, c, pes);
    tally t;
    int rc = drain(w, &t, err);
    ck_assert_msg(rc == 0, "%s: %s", path, err);
    ck_assert_int_eq(workload_records(w), t.jobs + dropped_total(w));
    ck_assert(t.sorted);
    if (keep)
        *keep = w;
    else
        workload_close(w);
    return t;
}


#endif
