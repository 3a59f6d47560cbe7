/* tests/test_job_solo.c: one process per job (sched/job.h, issue 11)
 * against one process per thread, in whole runs through app/run.h.
 *
 * Under space sharing a job whose threads nothing distinguishes runs as one
 * process; run_set_thread_processes turns that off, which gives the
 * reference: every thread its own process, as before. Each case runs the
 * same trace both ways and requires byte-identical jobs.csv, samples.csv
 * and metrics.json (apart from the kernel's event count), and checks that
 * the one-process jobs really were taken (fewer events) or, where the
 * rules exclude them, that they were not (the same events). The traces
 * are written by hand to hold ties: jobs submitted together, jobs ending
 * at the instant others start, zero-length jobs, jobs of one thread and of
 * the whole machine, jobs that fit in RAM beside jobs that page.
 */
#include "app/config.h"
#include "app/output.h"
#include "app/run.h"
#include "app/run_check.h"
#include "tests/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One run's outputs, as text. */
typedef struct outs {
    char *jobs, *samples, *metrics; /* metrics.json without its "events" line */
    unsigned long long events;
} outs;

/* Remove the line holding "events" from the JSON text s. */
static void drop_events_line(char *s)
{
    char *e = strstr(s, "\"events\":");
    ck_assert_ptr_nonnull(e);
    char *start = e, *end = strchr(e, '\n');
    while (start > s && start[-1] != '\n')
        start--;
    ck_assert_ptr_nonnull(end);
    memmove(start, end + 1, strlen(end + 1) + 1);
}

/* Run the trace at path with the overrides in sets (NULL-terminated), one
 * process per thread when per_thread, into *o. */
static void run_trace(const char *path, const char *const *sets, bool per_thread, outs *o)
{
    config c;
    char err[CFG_ERR_MAX], set[CFG_PATH_MAX + 32];
    config_defaults(&c);
    for (int i = 0; sets[i]; i++)
        ck_assert_msg(config_set(&c, sets[i], err) == 0, "%s: %s", sets[i], err);
    snprintf(set, sizeof set, "workload.trace=%s", path);
    ck_assert_msg(config_set(&c, set, err) == 0, "%s", err);
    ck_assert_msg(config_validate(&c, err) == 0, "%s", err);
    size_t nj, ns, nm;
    FILE *jobs = open_memstream(&o->jobs, &nj);
    FILE *samples = open_memstream(&o->samples, &ns);
    FILE *metrics = open_memstream(&o->metrics, &nm);
    ck_assert(jobs && samples && metrics);
    run_t *r = run_create(&c, jobs, samples, err);
    ck_assert_msg(r != NULL, "%s", err);
    if (per_thread)
        run_set_thread_processes(r);
    run_set_checking(r, true);
    ck_assert_msg(run_execute(r, err) == 0, "%s", err);
    ck_assert_ptr_null(run_check_failure(r));
    run_metrics m;
    run_metrics_get(r, &m);
    out_metrics_json(metrics, &m, &c, run_trace_name(r));
    o->events = (unsigned long long)m.events;
    ck_assert_int_gt(m.jobs_finished, 0);
    run_destroy(r);
    fclose(jobs);
    fclose(samples);
    fclose(metrics);
    drop_events_line(o->metrics);
}

/* Assert texts a and b are equal, naming the first line that differs. */
static void same_text(const char *what, const char *a, const char *b)
{
    if (strcmp(a, b) == 0)
        return;
    size_t i = 0, line = 1, start = 0;
    for (; a[i] && a[i] == b[i]; i++)
        if (a[i] == '\n') {
            line++;
            start = i + 1;
        }
    ck_abort_msg("%s differ at line %zu: \"%.80s\" vs \"%.80s\"", what, line, a + start,
                 b + start);
}

static void outs_free(outs *o)
{
    free(o->jobs);
    free(o->samples);
    free(o->metrics);
}

/* Write the n lines of trace into a temporary file; its name into path. */
static void write_trace(char path[32], const char *const *lines)
{
    strcpy(path, "/tmp/pnrsim-test-solo-XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    ck_assert_ptr_nonnull(f);
    for (int i = 0; lines[i]; i++)
        fprintf(f, "%s\n", lines[i]);
    fclose(f);
}

/* Run trace file path with sets both ways; the outputs must be the same.
 * expect_solo: the one-process jobs must have saved events (else: the
 * rules exclude them, the same events both ways). */
static void compare(const char *path, const char *const *sets, bool expect_solo)
{
    outs a, b;
    run_trace(path, sets, false, &a);
    run_trace(path, sets, true, &b);
    same_text("jobs.csv", a.jobs, b.jobs);
    same_text("samples.csv", a.samples, b.samples);
    same_text("metrics.json", a.metrics, b.metrics);
    if (expect_solo)
        ck_assert_msg(a.events < b.events, "events %llu (one process per job) vs %llu",
                      a.events, b.events);
    else
        ck_assert_msg(a.events == b.events, "events %llu vs %llu", a.events, b.events);
    outs_free(&a);
    outs_free(&b);
}

/* 8 PEs of 64 MB. Jobs 1 and 2 (4 threads, 100 s) start together and end
 * together; job 3 (all 8 PEs) starts at that instant; job 4 has no work;
 * 5 and 6 (one thread) arrive together; job 7 (no work, 8 threads) and 8,
 * 9 arrive at 150 s, when job 3 ends; job 10 needs 80 MB per thread on
 * 64 MB PEs and pages (one process per thread); job 11 uses 16 MB (fits).
 * Fields: number, submit, wait, run time, processors, CPU time, memory
 * (KB), requested processors, requested time, ... */
static const char *const ties[] = {
    "1 0 -1 100 4 100 -1 4 120 -1 1 1 1 1 1 1 -1 -1",
    "2 0 -1 100 4 100 -1 4 100 -1 1 1 1 1 1 1 -1 -1",
    "3 0 -1 50 8 50 -1 8 60 -1 1 1 1 1 1 1 -1 -1",
    "4 0 -1 0 2 0 -1 2 10 -1 1 1 1 1 1 1 -1 -1",
    "5 10 -1 40 1 40 -1 1 40 -1 1 1 1 1 1 1 -1 -1",
    "6 10 -1 40 1 40 -1 1 50 -1 1 1 1 1 1 1 -1 -1",
    "7 150 -1 0 8 0 -1 8 1 -1 1 1 1 1 1 1 -1 -1",
    "8 150 -1 25 3 25 -1 3 30 -1 1 1 1 1 1 1 -1 -1",
    "9 150 -1 25 5 25 -1 5 25 -1 1 1 1 1 1 1 -1 -1",
    "10 160 -1 30 2 30 81920 2 40 -1 1 1 1 1 1 1 -1 -1",
    "11 160 -1 30 6 30 16384 6 35 -1 1 1 1 1 1 1 -1 -1",
    "12 175 -1 12.5 7 12.5 16384 7 20 -1 1 1 1 1 1 1 -1 -1",
    "13 175 -1 12.5 1 12.5 -1 1 20 -1 1 1 1 1 1 1 -1 -1",
    NULL};

#define BASE "computer.number=8", "computer.ram=64", "scheduler.mpl=1", \
             "process.comm_rate=0", "process.sync_rate=0", "workload.cpu_demand=runtime", \
             "process.mem_access_rate=0.0001", "simulation.metrics_period=7"

START_TEST(test_solo_ties)
{
    /* Space sharing as configured by default (mem_release JOB), then with
     * the variants that change what happens at a job's start and end:
     * memory freed thread by thread, a context-switch cost charged on first
     * starts (the threads wait before computing), mem_aware placement,
     * backfilling (EASY, conservative) and SJF. */
    char path[32];
    write_trace(path, ties);
    const char *plain[] = {BASE, NULL};
    const char *thread[] = {BASE, "process.mem_release=thread", NULL};
    const char *pcs[] = {BASE, "scheduler.pcs_first_start=yes", "scheduler.pcs=0.5", NULL};
    const char *aware[] = {BASE, "scheduler.mem_aware=yes", "process.mem_release=thread",
                           NULL};
    const char *easy[] = {BASE, "scheduler.backfill=easy", NULL};
    const char *cons[] = {BASE, "scheduler.backfill=conservative", NULL};
    const char *sjf[] = {BASE, "scheduler.priority=sjf", "scheduler.strict_order=no", NULL};
    const char *const *cases[] = {plain, thread, pcs, aware, easy, cons, sjf};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        compare(path, cases[i], true);
    unlink(path);
}
END_TEST

START_TEST(test_solo_excluded)
{
    /* Where something can distinguish the threads, every thread keeps its
     * own process: neighbour messages, synchronisation, gang scheduling
     * with MPL 2 (jobs stopped and shared PEs), network RAM. */
    char path[32];
    write_trace(path, ties);
    const char *comm[] = {BASE, "process.comm_rate=7", NULL};
    const char *sync[] = {BASE, "process.sync_rate=9", NULL};
    const char *gang[] = {BASE, "scheduler.mpl=2", "scheduler.quantum=5", NULL};
    const char *net[] = {BASE, "netram.enabled=yes", NULL};
    const char *const *cases[] = {comm, sync, gang, net};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        compare(path, cases[i], false);
    unlink(path);
}
END_TEST

START_TEST(test_solo_hpc2n)
{
    /* The bundled HPC2N slice (3,171 jobs, up to 240 threads, memory from
     * the trace) on 240 PEs of 256 MB at MPL 1: some jobs page (one
     * process per thread), most do not (one per job), and many start and
     * end at the same instants. */
    const char *sets[] = {"computer.number=240", "computer.ram=256", "scheduler.mpl=1",
                          "process.comm_rate=0", "process.sync_rate=0",
                          "simulation.metrics_period=3600", "workload.max_jobs=1500",
                          NULL};
    compare("traces/hpc2n-seth-first3171.swf", sets, true);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("job_solo");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_solo_ties);
    tcase_add_test(tc, test_solo_excluded);
    tcase_add_test(tc, test_solo_hpc2n);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
