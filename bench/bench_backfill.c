/* bench/bench_backfill.c: the cost of the backfilling passes (issue 14).
 *
 * Replays the bundled traces in space sharing (MPL 1) with FCFS and WFP3
 * under no backfilling, EASY and conservative backfilling, and
 * conservative with every pass rebuilt ("rebuild": the same schedule
 * without the kept reservations of sched/backfill.c, i.e. conservative as
 * it was before they came, for comparison), with the run
 * times as CPU demand and no memory (memory_scale 0), so the figures are
 * the scheduler's and the event kernel's, not paging. For each run it
 * prints the CPU time and jobs per second, and what the passes did: how
 * many there were, the queue length they sorted (mean and most), and for
 * conservative the jobs reserved per pass (mean and most: "k" of
 * sched/backfill.h; a rebuilt pass costs O(k (r + k))), the mean profile
 * length, the profile steps examined per reservation (visited: from the
 * dominance bound of sched/reserve_bound.h to the job's start and through its
 * window) and the passes that kept the last pass's reservations. Lublin is
 * also run at twice its load (load_scale 2, FCFS only), where queues are
 * much longer, to show how the cost per pass grows with the queue; and
 * with estimates twice the run times (estimate_scale 2: every job ends
 * early, so every pass after an end rebuilds, as with requested times) at
 * once, twice and three times its load, without messages (so that the
 * time is the scheduler's), conservative and rebuild against "oracle"
 * (every pass rebuilt and every search from now: the algorithm before the
 * dominance bound and the kept passes; same schedule).
 *
 * Usage: bench_backfill [-r reps] [-t trace]   (run from the repository
 * root; every figure is the best of reps CPU times, default 1; -t runs
 * one trace only: nasa, hpc2n, lublin, lublin-x2, lublin-e2, lublin-x2-e2
 * or lublin-x3-e2)
 * Output, one line per run:
 *   backfill lublin fcfs/conservative jobs=10000 cpu_s=... jobs_per_s=...
 *     passes=... queue_mean=... queue_max=... reserved_mean=...
 *     reserved_max=... steps_mean=... visited_mean=... kept_passes=...
 *     us_per_pass=... ns_per_reservation=...
 */
#include "app/config.h"
#include "app/run.h"
#include "app/run_check.h"
#include "sched/backfill.h"
#include "sched/backfill_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* CPU time of this process (the machine is shared: wall time measures the
 * load). */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct trace {
    const char *name, *path, *pes, *load, *est;
    int nprio;          /* the first nprio of fcfs, wfp3 */
    bool few;           /* conservative, rebuild and oracle only, and no messages
                         * (process.comm_rate and sync_rate 0, as in
                         * docs/SCHEDULING.md's commands) */
} trace;

/* One run; returns 0 or prints the error and returns -1. bf is a
 * scheduler.backfill value, "rebuild": conservative with every pass
 * rebuilt (bf_set_rebuild_always; the passes as before kept reservations,
 * for comparison: same schedule), or "oracle": rebuilt and every search
 * from now (bf_set_plain_search too: as before the dominance bound). */
static int one(const trace *t, const char *prio, const char *mode, int reps)
{
    bool oracle = strcmp(mode, "oracle") == 0;
    bool rebuild = oracle || strcmp(mode, "rebuild") == 0;
    const char *bf = rebuild ? "conservative" : mode;
    double best = 0;
    bf_stats st;
    run_metrics m;
    memset(&st, 0, sizeof st);
    for (int rep = 0; rep < reps; rep++) {
        config c;
        char err[CFG_ERR_MAX], set[300];
        config_defaults(&c);
        const char *sets[] = {"workload.cpu_demand=runtime", "workload.memory_scale=0",
                              "simulation.metrics_period=1e12", "scheduler.mpl=1", NULL};
        for (int i = 0; sets[i]; i++)
            if (config_set(&c, sets[i], err) != 0)
                goto bad;
        snprintf(set, sizeof set, "workload.trace=%s", t->path);
        if (config_set(&c, set, err) != 0)
            goto bad;
        snprintf(set, sizeof set, "computer.number=%s", t->pes);
        if (config_set(&c, set, err) != 0)
            goto bad;
        snprintf(set, sizeof set, "workload.load_scale=%s", t->load);
        if (config_set(&c, set, err) != 0)
            goto bad;
        snprintf(set, sizeof set, "workload.estimate_scale=%s", t->est);
        if (config_set(&c, set, err) != 0)
            goto bad;
        if (t->few && (config_set(&c, "process.comm_rate=0", err) != 0 ||
                       config_set(&c, "process.sync_rate=0", err) != 0))
            goto bad;
        snprintf(set, sizeof set, "scheduler.priority=%s", prio);
        if (config_set(&c, set, err) != 0)
            goto bad;
        snprintf(set, sizeof set, "scheduler.backfill=%s", bf);
        if (config_set(&c, set, err) != 0 || config_validate(&c, err) != 0)
            goto bad;
        run_t *r = run_create(&c, NULL, NULL, err);
        if (!r)
            goto bad;
        if (rebuild)
            bf_set_rebuild_always(bf_of(run_gang(r)), true);
        if (oracle)
            bf_set_plain_search(bf_of(run_gang(r)), true);
        double t0 = now();
        if (run_execute(r, err) != 0) {
            run_destroy(r);
            goto bad;
        }
        double w = now() - t0;
        if (rep == 0 || w < best)
            best = w;
        run_metrics_get(r, &m);
        const bf_t *b = bf_of(run_gang(r));
        if (b)
            bf_get_stats(b, &st);
        run_destroy(r);
        continue;
    bad:
        fprintf(stderr, "bench_backfill: %s %s/%s: %s\n", t->name, prio, mode, err);
        return -1;
    }
    double p = st.passes > 0 ? (double)st.passes : 1;
    long cons_passes = strcmp(bf, "conservative") == 0 ? st.passes : 0;
    double cp = cons_passes > 0 ? (double)cons_passes : 1;
    double rs = st.reserved_sum > 0 ? (double)st.reserved_sum : 1;
    printf("backfill %s %s/%s jobs=%ld cpu_s=%.3f jobs_per_s=%.0f passes=%ld "
           "queue_mean=%.1f queue_max=%ld reserved_mean=%.1f reserved_max=%ld "
           "steps_mean=%.1f visited_mean=%.1f kept_passes=%ld us_per_pass=%.2f "
           "ns_per_reservation=%.0f\n",
           t->name, prio, mode, m.jobs_finished, best,
           best > 0 ? (double)m.jobs_finished / best : 0, st.passes, (double)st.queued_sum / p,
           st.queued_max, cons_passes ? (double)st.reserved_sum / cp : 0, st.reserved_max,
           cons_passes ? (double)st.steps_sum / cp : 0,
           cons_passes ? (double)st.visited_sum / rs : 0, st.kept_passes,
           st.passes ? 1e6 * best / p : 0, cons_passes ? 1e9 * best / rs : 0);
    return 0;
}

int main(int argc, char **argv)
{
    int reps = 1, opt;
    const char *only = NULL;
    while ((opt = getopt(argc, argv, "r:t:")) != -1) {
        if (opt == 'r' && atoi(optarg) > 0) {
            reps = atoi(optarg);
        } else if (opt == 't') {
            only = optarg;
        } else {
            fprintf(stderr, "usage: bench_backfill [-r reps] [-t trace]\n");
            return 2;
        }
    }
    static const char *const L = "traces/lublin-256-synthetic.swf";
    static const trace traces[] = {
        {"nasa", "traces/NASA-iPSC-1993-3.1-cln.swf.gz", "128", "1", "1", 2, false},
        {"hpc2n", "traces/hpc2n-seth-first3171.swf", "240", "1", "1", 2, false},
        {"lublin", L, "256", "1", "1", 2, false},
        {"lublin-x2", L, "256", "2", "1", 1, false},
        {"lublin-e2", L, "256", "1", "2", 1, true},
        {"lublin-x2-e2", L, "256", "2", "2", 1, true},
        {"lublin-x3-e2", L, "256", "3", "2", 1, true},
    };
    static const char *const prios[] = {"fcfs", "wfp3"};
    static const char *const modes[] = {"none", "easy", "conservative", "rebuild", "oracle"};
    int failed = 0;
    for (size_t t = 0; t < sizeof traces / sizeof traces[0]; t++) {
        if (only && strcmp(only, traces[t].name) != 0)
            continue;
        for (int p = 0; p < traces[t].nprio; p++)
            for (int k = 0; k < 5; k++)
                if (!traces[t].few || k >= 2)
                    failed |= one(&traces[t], prios[p], modes[k], reps) != 0;
    }
    return failed ? 1 : 0;
}
