/* tests/test_pnr_trace.c: parallel network RAM (pnr/, techreport §5) in
 * randomised whole runs on the HPC2N trace: conservation at every
 * allocation and deallocation step with every strategy (and global
 * knowledge), every availability table against a plain N x N copy, nothing
 * lent, held or in transit at the end; BACKBONE with one manager is
 * CENTRAL job for job; a stress trace of small jobs on a slow network with
 * context switches, run to the end and stopped at instants with protocol
 * messages in flight; GLOBAL admission with mem_aware; racks with memory
 * servers. The hand-built cases are in tests/test_pnr.c; the world and the
 * message times in tests/fixture_pnr.h.
 */
#include "app/config.h"
#include "app/run.h"
#include "app/run_check.h"
#include "core/rng.h"
#include "pnr/check.h" /* private: the checker, totals */
#include "pnr/pnr.h"
#include "sched/job.h"
#include "tests/testcluster.h"
#include "tests/testutil.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "tests/fixture_pnr.h"

/* ---- whole runs on a real trace ------------------------------------------------ */

static pnr_t *created;
static void on_created(pnr_t *p, void *ctx)
{
    (void)ctx;
    created = p;
}

typedef struct trace_result {
    run_metrics m;
    pnr_stats st;
    uint64_t *received;  /* npes x PNR_NKINDS */
    int npes;
    char *jobs_csv;
    size_t jobs_len;
    double lent, held, transit;
} trace_result;

static void trace_result_free(trace_result *t)
{
    free(t->received);
    free(t->jobs_csv);
}

/* Run the first NJOBS jobs of the HPC2N trace on 240 PEs of 100 MB with
 * 64 MB per thread and MPL 2, so that PEs holding two threads overallocate
 * by 28 MB while others have RAM to lend, under `strategy` and the extra
 * settings, with PNR conservation checks on. R = 0.0024 s (10^4 times the
 * default) keeps the faults to about a million a run, so a run takes
 * about 0.5 s. max_time > 0 stops the run part way. */
static void trace_run(trace_result *t, const char *strategy, const char *const *extra,
                      double max_time)
{
    config c;
    char err[CFG_ERR_MAX], buf[128];
    config_defaults(&c);
    const char *sets[] = {"workload.trace=" TRACE, "workload.default_memory=64", "computer.number=240",
                          "computer.ram=100", "scheduler.mpl=2", "scheduler.packing=bestfit",
                          "process.mem_access_rate=0.0024", "netram.enabled=yes",
                          "simulation.seed=7", NULL};
    for (int i = 0; sets[i]; i++)
        ck_assert_msg(config_set(&c, sets[i], err) == 0, "%s", err);
    snprintf(buf, sizeof buf, "workload.max_jobs=%d", NJOBS);
    ck_assert_msg(config_set(&c, buf, err) == 0, "%s", err);
    snprintf(buf, sizeof buf, "netram.strategy=%s", strategy);
    ck_assert_msg(config_set(&c, buf, err) == 0, "%s", err);
    for (int i = 0; extra && extra[i]; i++)
        ck_assert_msg(config_set(&c, extra[i], err) == 0, "%s", err);
    if (max_time > 0) {
        snprintf(buf, sizeof buf, "simulation.max_time=%.17g", max_time);
        ck_assert_msg(config_set(&c, buf, err) == 0, "%s", err);
    }
    ck_assert_msg(config_validate(&c, err) == 0, "%s", err);
    memset(t, 0, sizeof *t);
    pnr_set_create_hook(on_created, NULL);
    FILE *jobs = open_memstream(&t->jobs_csv, &t->jobs_len);
    ck_assert_ptr_nonnull(jobs);
    run_t *r = run_create(&c, jobs, NULL, err);
    ck_assert_msg(r != NULL, "%s", err);
    run_set_checking(r, true);
    ck_assert_msg(run_execute(r, err) == 0, "%s", err);
    ck_assert_msg(run_check_failure(r) == NULL, "%s: %s", strategy, run_check_failure(r));
    run_metrics_get(r, &t->m);
    pnr_t *p = created;
    ck_assert_ptr_nonnull(p);
    t->st = *pnr_get_stats(p);
    t->npes = c.computer.number + c.computer.memory_servers;
    t->received = calloc((size_t)t->npes * PNR_NKINDS, sizeof *t->received);
    ck_assert_ptr_nonnull(t->received);
    for (int pe = 0; pe < t->npes; pe++)
        for (int k = 0; k < PNR_NKINDS; k++)
            t->received[pe * PNR_NKINDS + k] = pnr_received(p, pe, PNR_MSG_REQUEST + k);
    pnr_totals(p, &t->lent, &t->held, &t->transit);
    run_destroy(r);
    created = NULL;
    pnr_set_create_hook(NULL, NULL);
    fclose(jobs);
}

static uint64_t t_received(const trace_result *t, int pe, int kind)
{
    return t->received[pe * PNR_NKINDS + (kind - PNR_MSG_REQUEST)];
}

static uint64_t t_sent(const trace_result *t, int kind)
{
    return t->st.msgs[kind - PNR_MSG_REQUEST];
}

/* What every complete run must show: all jobs finished, nothing left lent,
 * held or in transit, PNR actually used (asked, granted, remote faults,
 * and still some disk faults), every request answered (denied, partial or
 * satisfied; one REPLY each), one GRANT per ASK, one ACK per FREE, one
 * PAGE_OUT and one PAGE_IN per remote fault, and every message sent
 * received. */
static void assert_complete(const trace_result *t, const char *what)
{
    ck_assert_msg(t->m.jobs_finished == NJOBS && t->m.jobs_unfinished == 0, "%s: %ld finished",
                  what, t->m.jobs_finished);
    ck_assert_msg(fabs(t->lent) < 1e-6 && fabs(t->held) < 1e-6 && fabs(t->transit) < 1e-6,
                  "%s: lent %g held %g transit %g at the end", what, t->lent, t->held,
                  t->transit);
    ck_assert_uint_gt(t->st.requests, 0);
    ck_assert_uint_gt(t->st.satisfied, 0);
    ck_assert(t->st.granted_mb > 0);
    ck_assert_uint_gt(t->m.page_faults_remote, 0);
    ck_assert_uint_gt(t->m.page_faults_disk, 0);
    ck_assert_uint_eq(t->st.requests, t->st.denied + t->st.partial + t->st.satisfied);
    ck_assert_uint_eq(t_sent(t, PNR_MSG_GRANT), t_sent(t, PNR_MSG_ASK));
    ck_assert_uint_eq(t_sent(t, PNR_MSG_ACK), t_sent(t, PNR_MSG_FREE));
    ck_assert_uint_eq(t_sent(t, PNR_MSG_PAGE_OUT), t->m.page_faults_remote);
    ck_assert_uint_eq(t_sent(t, PNR_MSG_PAGE_IN), t->m.page_faults_remote);
    ck_assert_uint_eq(t_sent(t, PNR_MSG_REPLY), t->st.requests);
    ck_assert_uint_eq(t->st.remote_faults, t->m.page_faults_remote);
    /* Every message sent arrived. */
    for (int k = PNR_MSG_REQUEST; k < PNR_MSG_KINDS_END; k++) {
        uint64_t got = 0;
        for (int pe = 0; pe < t->npes; pe++)
            got += t_received(t, pe, k);
        ck_assert_msg(got == t_sent(t, k), "%s: %s sent %llu, received %llu", what,
                      pnr_kind_name(k), (unsigned long long)t_sent(t, k),
                      (unsigned long long)got);
    }
}

/* Threads of the trace's jobs: the REQUEST and DEALLOC counts of the
 * coordinated strategies. */
static long trace_threads(const trace_result *t)
{
    /* Count the thread column of jobs.csv (5th field). */
    long n = 0;
    const char *q = strchr(t->jobs_csv, '\n');
    while (q && q[1]) {
        q++;
        int f = 0;
        const char *c = q;
        while (f < 4 && (c = strchr(c, ',')) != NULL) {
            c++;
            f++;
        }
        ck_assert_ptr_nonnull(c);
        n += strtol(c, NULL, 10);
        q = strchr(q, '\n');
    }
    return n;
}

START_TEST(test_run_central)
{
    /* CENTRAL: every REQUEST, DEALLOC, GRANT and ACK arrives at PE 0, the
     * manager; one REQUEST and one DEALLOC per thread; no broadcasts. */
    trace_result t;
    trace_run(&t, "CENTRAL", NULL, 0);
    assert_complete(&t, "CENTRAL");
    long threads = trace_threads(&t);
    ck_assert_uint_eq(t_sent(&t, PNR_MSG_REQUEST), (uint64_t)threads);
    ck_assert_uint_eq(t_sent(&t, PNR_MSG_DEALLOC), (uint64_t)threads);
    ck_assert_uint_eq(t_received(&t, 0, PNR_MSG_REQUEST), (uint64_t)threads);
    ck_assert_uint_eq(t_received(&t, 0, PNR_MSG_DEALLOC), (uint64_t)threads);
    ck_assert_uint_eq(t_received(&t, 0, PNR_MSG_GRANT), t_sent(&t, PNR_MSG_GRANT));
    ck_assert_uint_eq(t_received(&t, 0, PNR_MSG_ACK), t_sent(&t, PNR_MSG_ACK));
    ck_assert_uint_eq(t_sent(&t, PNR_MSG_BROADCAST), 0);
    ck_assert_uint_eq(t.st.alloc_rounds, NJOBS);
    ck_assert_uint_eq(t.st.dealloc_rounds, NJOBS);
    trace_result_free(&t);
}
END_TEST

START_TEST(test_run_client)
{
    /* CLIENT: one REQUEST per asking thread, to its own PE (so one
     * allocation round per request); no broadcasts. */
    trace_result t;
    trace_run(&t, "CLIENT", NULL, 0);
    assert_complete(&t, "CLIENT");
    ck_assert_uint_eq(t_sent(&t, PNR_MSG_REQUEST), t.st.requests);
    ck_assert_uint_eq(t.st.alloc_rounds, t.st.requests);
    ck_assert_uint_eq(t_sent(&t, PNR_MSG_DEALLOC), t.st.dealloc_rounds);
    ck_assert_uint_le(t.st.dealloc_rounds, t.st.requests - t.st.denied);
    ck_assert_uint_eq(t_sent(&t, PNR_MSG_BROADCAST), 0);
    trace_result_free(&t);
}
END_TEST

START_TEST(test_run_manager)
{
    /* MANAGER: one round per job start and one per job end; each round
     * that granted or freed network RAM, and only those, is followed by a
     * broadcast to the N-1 = 239 other servents (§5.2.6); each changing
     * allocation round answered at least one client with something
     * (satisfied or partial), and most rounds (jobs that fit) change
     * nothing. With release = ALL every job that got network RAM frees
     * all of it in its one deallocation round, so as many deallocation
     * rounds change allocations as allocation rounds do; with EXCESS
     * (the default) a job's deallocation may free RAM another job's thread
     * asked for, or nothing, so the two counts differ. */
    for (int rel = 0; rel < 2; rel++) {
        const char *extra[] = {rel ? "netram.release=all" : "netram.release=excess", NULL};
        trace_result t;
        trace_run(&t, "MANAGER", extra, 0);
        assert_complete(&t, extra[0]);
        long threads = trace_threads(&t);
        ck_assert_uint_eq(t_sent(&t, PNR_MSG_REQUEST), (uint64_t)threads);
        ck_assert_uint_eq(t_sent(&t, PNR_MSG_DEALLOC), (uint64_t)threads);
        ck_assert_uint_eq(t.st.alloc_rounds, NJOBS);
        ck_assert_uint_eq(t.st.dealloc_rounds, NJOBS);
        uint64_t changed = t.st.alloc_rounds_changed + t.st.dealloc_rounds_changed;
        ck_assert_uint_gt(t.st.alloc_rounds_changed, 0);
        ck_assert_uint_gt(t.st.dealloc_rounds_changed, 0);
        ck_assert_uint_le(t.st.alloc_rounds_changed, t.st.satisfied + t.st.partial);
        ck_assert_uint_lt(changed, t.st.alloc_rounds + t.st.dealloc_rounds);
        ck_assert_uint_eq(t_sent(&t, PNR_MSG_BROADCAST), 239u * changed);
        if (rel)
            ck_assert_uint_eq(t.st.dealloc_rounds_changed, t.st.alloc_rounds_changed);
        /* Every PE hears every broadcast it did not send. */
        uint64_t heard = 0;
        for (int pe = 0; pe < 240; pe++) {
            ck_assert_uint_le(t_received(&t, pe, PNR_MSG_BROADCAST), changed);
            heard += t_received(&t, pe, PNR_MSG_BROADCAST);
        }
        ck_assert_uint_eq(heard, 239u * changed);
        trace_result_free(&t);
    }
}
END_TEST

START_TEST(test_run_backbone)
{
    /* BACKBONE with 4 managers on PEs 0, 60, 120, 180: requests and
     * deallocations arrive only there; each round that granted or freed
     * network RAM is followed by a broadcast to the 3 other managers (the
     * broadcaster is always a backbone manager, so M - 1 targets), and
     * only managers receive them. */
    const char *extra[] = {"netram.managers=4", NULL};
    trace_result t;
    trace_run(&t, "BACKBONE", extra, 0);
    assert_complete(&t, "BACKBONE");
    long threads = trace_threads(&t);
    uint64_t req = 0, dea = 0, bc = 0;
    for (int k = 0; k < 4; k++) {
        req += t_received(&t, 60 * k, PNR_MSG_REQUEST);
        dea += t_received(&t, 60 * k, PNR_MSG_DEALLOC);
        bc += t_received(&t, 60 * k, PNR_MSG_BROADCAST);
        ck_assert_uint_gt(t_received(&t, 60 * k, PNR_MSG_REQUEST), 0);
    }
    ck_assert_uint_eq(req, (uint64_t)threads);
    ck_assert_uint_eq(dea, (uint64_t)threads);
    ck_assert_uint_eq(bc, t_sent(&t, PNR_MSG_BROADCAST));
    uint64_t changed = t.st.alloc_rounds_changed + t.st.dealloc_rounds_changed;
    ck_assert_uint_gt(t.st.alloc_rounds_changed, 0);
    ck_assert_uint_lt(changed, t.st.alloc_rounds + t.st.dealloc_rounds);
    ck_assert_uint_eq(t_sent(&t, PNR_MSG_BROADCAST), 3u * changed);
    trace_result_free(&t);
}
END_TEST

START_TEST(test_run_global)
{
    /* Global knowledge under MANAGER: conservation and completeness as
     * always (the choice itself is tested by hand below). */
    const char *extra[] = {"netram.global_knowledge=yes", NULL};
    trace_result t;
    trace_run(&t, "MANAGER", extra, 0);
    assert_complete(&t, "MANAGER+global");
    trace_result_free(&t);
}
END_TEST

START_TEST(test_backbone1_is_central)
{
    /* BACKBONE with one manager (PE 0) and CENTRAL, same seed: the same
     * messages, the same jobs.csv byte for byte (every job's start, end,
     * faults and fault time). */
    const char *extra[] = {"netram.managers=1", NULL};
    trace_result a, b;
    trace_run(&a, "CENTRAL", NULL, 0);
    trace_run(&b, "BACKBONE", extra, 0);
    ck_assert_uint_eq(a.jobs_len, b.jobs_len);
    ck_assert_int_eq(memcmp(a.jobs_csv, b.jobs_csv, a.jobs_len), 0);
    for (int k = 0; k < PNR_NKINDS; k++)
        ck_assert_uint_eq(a.st.msgs[k], b.st.msgs[k]);
    ck_assert_uint_eq(a.m.page_faults_remote, b.m.page_faults_remote);
    ck_assert_uint_eq(a.m.page_faults_disk, b.m.page_faults_disk);
    ck_assert_double_eq(a.m.total_time, b.m.total_time);
    trace_result_free(&a);
    trace_result_free(&b);
}
END_TEST

/* 80 small jobs of a trace written to a temporary file (path filled in):
 * 1-8 threads, 1-20 s of CPU or, for a quarter of them, 1-20 ms, 8-96 MB
 * per thread, arrivals every 3 s on average. */
static void write_stress_trace(char *path)
{
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    ck_assert_ptr_nonnull(f);
    rng_t *r = rng_stream(33, "trace", 0);
    double submit = 0;
    for (int i = 1; i <= 80; i++) {
        int procs = 1 + (int)rng_index(r, 8);
        double cpu = (1 + (int)rng_index(r, 20)) * (rng_index(r, 4) == 0 ? 0.001 : 1);
        int mem_kb = (8 + (int)rng_index(r, 89)) * 1024;
        fprintf(f, "%d %.0f 0 %g %d %g %d %d -1 -1 1 1 1 1 1 1 -1 -1\n", i, submit, cpu, procs,
                cpu, mem_kb, procs);
        submit += floor(rng_exp(r, 3));
    }
    rng_free(r);
    fclose(f);
}

static const char *const stress_variants[][3] = {
    {"netram.strategy=CENTRAL", NULL, NULL},
    {"netram.strategy=CLIENT", NULL, NULL},
    {"netram.strategy=MANAGER", NULL, NULL},
    {"netram.strategy=BACKBONE", "netram.managers=3", NULL},
    {"netram.strategy=MANAGER", "netram.global_knowledge=yes", NULL},
    {"netram.strategy=CLIENT", "netram.global_knowledge=yes", NULL},
    {"netram.strategy=CENTRAL", "netram.release=all", NULL},
    {"netram.strategy=CLIENT", "netram.release=all", NULL},
    {"netram.strategy=MANAGER", "netram.release=all", NULL},
    {"netram.strategy=CENTRAL", "process.mem_release=job", NULL},
    {"netram.strategy=CLIENT", "process.mem_release=job", NULL},
    /* route mode WHOLE (issue 11): conservation holds there too */
    {"netram.strategy=CENTRAL", "network.route=whole", NULL},
    {"netram.strategy=CLIENT", "network.route=whole", NULL},
    {"netram.strategy=MANAGER", "network.route=whole", NULL},
    {"netram.strategy=BACKBONE", "network.route=whole", NULL},
};
#define N_STRESS (int)(sizeof stress_variants / sizeof stress_variants[0])

/* The stress trace at `path` under variant v on 8 PEs of 64 MB, MPL 3 with
 * 2 s quanta, neighbour and synchronisation messages, and a slow star
 * (0.05 MB/s: a control message takes 1.3 ms a link, a page 82 ms), with
 * checks on; max_time > 0 stops it part way. Returns the PNR layer's
 * check failure (NULL) after asserting completeness when not stopped. */
static void stress_run(const char *path, int v, double max_time)
{
    config c;
    char err[CFG_ERR_MAX], set[CFG_PATH_MAX + 32];
    config_defaults(&c);
    const char *sets[] = {"computer.number=8", "computer.ram=64", "scheduler.mpl=3",
                          "scheduler.quantum=2", "scheduler.pcs=0.01",
                          "scheduler.strict_order=no", "process.comm_rate=1",
                          "process.sync_rate=3", "process.mem_access_rate=0.0001",
                          "network.bandwidth=0.05", "netram.enabled=yes",
                          "simulation.seed=11", NULL};
    for (int i = 0; sets[i]; i++)
        ck_assert_msg(config_set(&c, sets[i], err) == 0, "%s", err);
    for (int i = 0; stress_variants[v][i]; i++)
        ck_assert_msg(config_set(&c, stress_variants[v][i], err) == 0, "%s", err);
    snprintf(set, sizeof set, "workload.trace=%s", path);
    ck_assert_msg(config_set(&c, set, err) == 0, "%s", err);
    if (max_time > 0) {
        snprintf(set, sizeof set, "simulation.max_time=%.17g", max_time);
        ck_assert_msg(config_set(&c, set, err) == 0, "%s", err);
    }
    ck_assert_msg(config_validate(&c, err) == 0, "%s", err);
    pnr_set_create_hook(on_created, NULL);
    run_t *run = run_create(&c, NULL, NULL, err);
    ck_assert_msg(run != NULL, "%s", err);
    run_set_checking(run, true);
    ck_assert_msg(run_execute(run, err) == 0, "%s", err);
    ck_assert_msg(run_check_failure(run) == NULL, "%s: %s", stress_variants[v][0],
                  run_check_failure(run));
    run_metrics m;
    run_metrics_get(run, &m);
    const pnr_stats *st = pnr_get_stats(created);
    if (max_time > 0) {
        ck_assert_int_lt(m.jobs_finished, 80);
    } else {
        ck_assert_int_eq(m.jobs_finished, 80);
        ck_assert_uint_gt(m.page_faults_remote, 0);
        ck_assert_uint_gt(m.messages_killed, 0);
        ck_assert_uint_gt(st->partial + st->denied, 0);
        assert_settled(created);
    }
    run_destroy(run);
    pnr_set_create_hook(NULL, NULL);
    created = NULL;
}

START_TEST(test_run_stress)
{
    /* Races: the stress trace (above), so that allocation rounds overlap,
     * threads that fit end before their job's allocation round is over,
     * servers change between a manager's look and its ask, and context
     * switches come mid-protocol. Every strategy (and global knowledge):
     * conservation at every step, every job finished, nothing left lent.
     * Then the same runs stopped part way, with rounds and pages in flight:
     * destroying them frees every protocol object (ASan). */
    char path[] = "/tmp/pnrsim-test-pnr-XXXXXX";
    write_stress_trace(path);
    for (int v = 0; v < N_STRESS; v++) {
        stress_run(path, v, 0);
        /* Stops chosen where some variants have grants, replies or
         * deallocations on the network or pending at a manager. */
        static const double stops[] = {112.74, 147.52, 183.04, 226.33, 235.58};
        for (int k = 0; k < 5; k++)
            stress_run(path, v, stops[k]);
    }
    unlink(path);
}
END_TEST

START_TEST(test_run_stopped)
{
    /* A run stopped part way (max_time) with rounds and pages in flight:
     * checks hold up to the stop and destroying it frees every protocol
     * object (ASan). */
    for (int s = 0; s < 4; s++) {
        static const char *names[] = {"CENTRAL", "CLIENT", "MANAGER", "BACKBONE"};
        const char *extra[] = {"netram.managers=3", NULL};
        trace_result t;
        trace_run(&t, names[s], extra, 400000.5);
        ck_assert(t.m.jobs_finished < NJOBS);
        ck_assert(t.lent > 0);
        trace_result_free(&t);
    }
}
END_TEST

/* Run the SWF lines `trace` with the settings, checks on; job starts and
 * ends by job number (1..4) and the metrics. */
static void run_text(const char *trace, const char *const *sets, double start[5],
                     double end[5], run_metrics *m, uint64_t disk_faults[4])
{
    char path[] = "/tmp/pnrsim-test-pnr-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    fputs(trace, f);
    fclose(f);
    config c;
    char err[CFG_ERR_MAX], set[CFG_PATH_MAX + 32];
    config_defaults(&c);
    for (int i = 0; sets[i]; i++)
        ck_assert_msg(config_set(&c, sets[i], err) == 0, "%s", err);
    snprintf(set, sizeof set, "workload.trace=%s", path);
    ck_assert_msg(config_set(&c, set, err) == 0, "%s", err);
    ck_assert_msg(config_validate(&c, err) == 0, "%s", err);
    char *csv = NULL;
    size_t len = 0;
    FILE *jobs = open_memstream(&csv, &len);
    run_t *r = run_create(&c, jobs, NULL, err);
    ck_assert_msg(r != NULL, "%s", err);
    run_set_checking(r, true);
    ck_assert_msg(run_execute(r, err) == 0, "%s", err);
    ck_assert_msg(run_check_failure(r) == NULL, "%s", run_check_failure(r));
    run_metrics_get(r, m);
    for (int i = 0; i < 4; i++)
        disk_faults[i] = run_cluster(r)->pes[i].disk_faults;
    run_destroy(r);
    fclose(jobs);
    for (int i = 0; i < 5; i++)
        start[i] = end[i] = -1;
    /* jobs.csv: job,submit,start,end,... */
    for (const char *q = strchr(csv, '\n'); q && q[1]; q = strchr(q + 1, '\n')) {
        long id;
        double sub, st, en;
        /* A job that did not finish (issue 26: every job has a row) has
         * an empty end; such rows keep start/end at -1. */
        int got = sscanf(q + 1, "%ld,%lf,%lf,%lf", &id, &sub, &st, &en);
        if (got < 4) {
            ck_assert_msg(got >= 2 && !tu_row_finished(q + 1),
                          "a finished job's row without start and end");
            continue;
        }
        ck_assert(id >= 1 && id <= 4);
        start[id] = st;
        end[id] = en;
    }
    free(csv);
    unlink(path);
}

START_TEST(test_mem_aware_global)
{
    /* scheduler.mem_aware = GLOBAL on a hand-worked trace (issue 15). Four
     * PEs of 100 MB, CENTRAL, threshold 0.1 MB (a PE lends at most 99.9
     * MB), MPL 1, no messages, R = 0.01 s.
     *   J1 at 0: 2 threads of 150 MB, 100 s. PEs 0, 1 (lowest free) would
     *     overallocate by 50 MB each. Available network RAM: 4 x 99.9 =
     *     399.6 MB; J1 needs 100 and its PEs lose their 2 x 99.9 lendable:
     *     299.8 <= 399.6: admitted at 0. The manager gets 100 MB from PEs
     *     2 and 3 (99.9 from one, 0.1 from the other).
     *   J2 at 1: 2 threads of 150 MB, 50 s, on the free PEs 2, 3. Available:
     *     only 99.8 MB (what PEs 2, 3 have left); J2 needs 100 + the
     *     lendable its PEs lose (99.8): 299.8 > 99.8: it waits (it would
     *     page to disk).
     *   J1 ends at 100 + its fault time; its memory is freed and its network
     *     RAM deallocated (DEALLOC to the manager, FREE to the servers).
     *     Only when the servers have their lent memory back is there
     *     enough (399.6 >= 299.8): J2 starts then, a few control messages
     *     after J1's end, and pages only to network RAM.
     * Controls: NO starts J2 at 1 and PEs 2, 3 page to disk; LOCAL (= yes)
     * can never admit a 150 MB thread on 100 MB PEs: both impossible. */
    const char *trace = "1 0 -1 100 2 100 153600 2 -1 -1 1 1 1 1 1 1 -1 -1\n"
                        "2 1 -1 50 2 50 153600 2 -1 -1 1 1 1 1 1 1 -1 -1\n";
    const char *base[] = {"computer.number=4", "computer.ram=100", "netram.enabled=yes",
                          "scheduler.mpl=1", "process.mem_access_rate=0.01",
                          "process.comm_rate=0", "process.sync_rate=0", NULL, NULL};
    double st[5], en[5];
    run_metrics m;
    uint64_t disk[4];
    base[7] = "scheduler.mem_aware=global";
    run_text(trace, base, st, en, &m, disk);
    ck_assert_int_eq(m.jobs_finished, 2);
    ck_assert_double_eq(st[1], 0);
    ck_assert_double_gt(en[1], 100);
    ck_assert_double_gt(st[2], en[1]);            /* waited for network RAM */
    ck_assert_double_lt(st[2], en[1] + 0.01);     /* ... a few messages */
    for (int i = 0; i < 4; i++)
        ck_assert_uint_eq(disk[i], 0);            /* never paged to disk */
    ck_assert_uint_gt(m.page_faults_remote, 0);
    base[7] = "scheduler.mem_aware=no";
    run_text(trace, base, st, en, &m, disk);
    ck_assert_int_eq(m.jobs_finished, 2);
    ck_assert_double_eq(st[2], 1);
    ck_assert_uint_gt(disk[2] + disk[3], 0);
    base[7] = "scheduler.mem_aware=yes";
    run_text(trace, base, st, en, &m, disk);
    ck_assert_int_eq(m.jobs_finished, 0);
    ck_assert_int_eq(m.jobs_impossible, 2);
}
END_TEST

START_TEST(test_run_racks_servers)
{
    /* Issue 15's machine on the trace runs above, conservation checked at
     * every allocation and deallocation step: racks of 16 (TREE), RAM in
     * two groups, 6 memory servers of 300 MB (PEs 240-245) spread over the
     * racks or in a rack of their own, rack locality, an access latency,
     * every strategy. Then: the run ends with nothing lent, held or in
     * transit, every message sent arrived, memory servers received no
     * request as clients (CLIENT: a thread asks its own PE) yet served
     * pages, and a second run gives byte-identical jobs.csv. */
    static const char *const names[] = {"CENTRAL", "CLIENT", "MANAGER", "BACKBONE"};
    for (int v = 0; v < 4; v++) {
        const char *extra[] = {"network.topology=tree", "network.rack_size=16",
                               "computer.ram=120x100, 120x110", "computer.memory_servers=6",
                               "computer.memory_server_ram=300", "netram.locality=rack",
                               "netram.access_latency=0.0005", "netram.managers=3",
                               v % 2 ? "network.memory_server_placement=racks"
                                     : "network.memory_server_placement=spread",
                               NULL};
        trace_result t, u;
        trace_run(&t, names[v], extra, 0);
        ck_assert_int_eq(t.npes, 246);
        ck_assert_msg(t.m.jobs_finished == NJOBS && t.m.jobs_unfinished == 0, "%s", names[v]);
        ck_assert_msg(fabs(t.lent) < 1e-6 && fabs(t.held) < 1e-6 && fabs(t.transit) < 1e-6,
                      "%s: lent %g held %g transit %g", names[v], t.lent, t.held, t.transit);
        ck_assert_uint_gt(t.m.page_faults_remote, 0);
        ck_assert_uint_eq(t.st.requests, t.st.denied + t.st.partial + t.st.satisfied);
        ck_assert_uint_eq(t_sent(&t, PNR_MSG_GRANT), t_sent(&t, PNR_MSG_ASK));
        ck_assert_uint_eq(t_sent(&t, PNR_MSG_PAGE_OUT), t.m.page_faults_remote);
        uint64_t served = 0;
        for (int pe = 240; pe < 246; pe++) {
            served += t_received(&t, pe, PNR_MSG_PAGE_OUT);
            if (v == 1)
                ck_assert_uint_eq(t_received(&t, pe, PNR_MSG_REQUEST), 0);
        }
        ck_assert_uint_gt(served, 0);
        for (int k = PNR_MSG_REQUEST; k < PNR_MSG_KINDS_END; k++) {
            uint64_t got = 0;
            for (int pe = 0; pe < t.npes; pe++)
                got += t_received(&t, pe, k);
            ck_assert_uint_eq(got, t_sent(&t, k));
        }
        trace_run(&u, names[v], extra, 0);
        ck_assert_uint_eq(t.jobs_len, u.jobs_len);
        ck_assert_msg(memcmp(t.jobs_csv, u.jobs_csv, t.jobs_len) == 0, "%s: not deterministic",
                      names[v]);
        ck_assert_uint_eq(t.m.events, u.m.events);
        trace_result_free(&t);
        trace_result_free(&u);
    }
}
END_TEST

START_TEST(test_run_reclaim)
{
    /* Donors taking memory back (netram.reclaim, issue 25) on the whole
     * run, every strategy, SWAP and REPLACE (and release ALL for CENTRAL):
     * conservation checked at every step (run_set_checking: lent == held +
     * in transit per server and in total; per node, network RAM drawn on
     * == held), every job finished, nothing left lent, held or in transit.
     * Lenders on PEs that get a second thread (MPL 2) overallocate, so
     * memory is taken back; the pages sent back are MB * 2^20 / 4096. */
    static const char *const strat[] = {"CENTRAL", "CLIENT", "MANAGER", "BACKBONE"};
    for (int s = 0; s < 4; s++)
        for (int v = 0; v < 3; v++) {
            if (v == 2 && s > 0)
                continue;
            const char *extra[] = {v == 0 ? "netram.reclaim=SWAP" : "netram.reclaim=REPLACE",
                                   v == 2 ? "netram.release=all" : "netram.release=excess",
                                   "netram.managers=3", NULL};
            trace_result t;
            trace_run(&t, strat[s], extra, 0);
            assert_complete(&t, extra[0]);
            ck_assert_msg(t.st.reclaim_events > 0, "%s %s", strat[s], extra[0]);
            ck_assert(t.st.reclaim_mb > 0);
            ck_assert_near(t.st.reclaim_pages, t.st.reclaim_mb * 256, 1e-6 * t.st.reclaim_pages);
            ck_assert(t.m.reclaim && t.m.reclaim_events == t.st.reclaim_events);
            if (v == 0)
                ck_assert_double_eq(t.st.reclaim_replaced_mb, 0);
            else
                ck_assert_double_le(t.st.reclaim_replaced_mb, t.st.reclaim_mb + 1e-6);
            trace_result_free(&t);
        }
}
END_TEST

START_TEST(test_run_reclaim_racks)
{
    /* Regression (issue 25 review): REPLACE with netram.locality = RACK.
     * A node's reclaim request (pnr/reclaim.c) has no thread, and rack
     * locality collects the racks of a round's requesters: it read
     * req->th->pe and crashed on the NULL thread; the rack is the node's.
     * On racks of 16 (TREE), every strategy: the run ends with every job
     * finished and nothing lent, held or in transit (checker on at every
     * step), memory was taken back and some of it placed again (a
     * reclaim round went through server selection with locality on). */
    static const char *const strat[] = {"CENTRAL", "CLIENT", "MANAGER", "BACKBONE"};
    for (int s = 0; s < 4; s++) {
        const char *extra[] = {"network.topology=tree", "network.rack_size=16",
                               "netram.locality=rack", "netram.reclaim=REPLACE",
                               "netram.managers=3", NULL};
        trace_result t;
        trace_run(&t, strat[s], extra, 0);
        ck_assert_msg(t.m.jobs_finished == NJOBS && t.m.jobs_unfinished == 0, "%s", strat[s]);
        ck_assert_msg(fabs(t.lent) < 1e-6 && fabs(t.held) < 1e-6 && fabs(t.transit) < 1e-6,
                      "%s: lent %g held %g transit %g", strat[s], t.lent, t.held, t.transit);
        ck_assert_msg(t.st.reclaim_events > 0, "%s", strat[s]);
        ck_assert_msg(t.st.reclaim_replaced_mb > 0, "%s", strat[s]);
        ck_assert_double_le(t.st.reclaim_replaced_mb, t.st.reclaim_mb + 1e-6);
        trace_result_free(&t);
    }
}
END_TEST

START_TEST(test_run_rdma)
{
    /* netram.transport = RDMA on the whole run, with reclaim REPLACE:
     * one READ and one WRITE per remote fault, no page message, the
     * checks as everywhere. */
    const char *extra[] = {"netram.transport=RDMA", "netram.reclaim=REPLACE", NULL};
    trace_result t;
    trace_run(&t, "MANAGER", extra, 0);
    ck_assert_msg(t.m.jobs_finished == NJOBS, "%ld finished", t.m.jobs_finished);
    ck_assert_msg(fabs(t.lent) < 1e-6 && fabs(t.held) < 1e-6 && fabs(t.transit) < 1e-6,
                  "lent %g held %g transit %g at the end", t.lent, t.held, t.transit);
    ck_assert_uint_gt(t.m.page_faults_remote, 0);
    ck_assert_uint_eq(t.st.rdma_reads, t.m.page_faults_remote);
    ck_assert_uint_eq(t.st.rdma_writes, t.m.page_faults_remote);
    ck_assert_uint_eq(t_sent(&t, PNR_MSG_PAGE_OUT), 0);
    ck_assert_uint_eq(t_sent(&t, PNR_MSG_PAGE_IN), 0);
    ck_assert(t.m.rdma && t.m.pnr_rdma_reads == t.st.rdma_reads);
    trace_result_free(&t);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("pnr_trace");
    TCase *tc = tcase_create("pnr");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_mem_aware_global);
    tcase_add_test(tc, test_run_racks_servers);
    tcase_add_test(tc, test_run_central);
    tcase_add_test(tc, test_run_client);
    tcase_add_test(tc, test_run_manager);
    tcase_add_test(tc, test_run_backbone);
    tcase_add_test(tc, test_run_global);
    tcase_add_test(tc, test_backbone1_is_central);
    tcase_add_test(tc, test_run_stress);
    tcase_add_test(tc, test_run_stopped);
    tcase_add_test(tc, test_run_reclaim);
    tcase_add_test(tc, test_run_rdma);
    tcase_add_test(tc, test_run_reclaim_racks);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
