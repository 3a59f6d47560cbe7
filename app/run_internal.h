/* app/run_internal.h: the state of one run (struct run), private to
 * app/run.c, which drives it, and app/run_collect.c, which reads the
 * metrics from it at the end (run_metrics_get). Types and one inline
 * predicate only.
 */
#ifndef PNRSIM_APP_RUN_INTERNAL_H
#define PNRSIM_APP_RUN_INTERNAL_H

#include "app/config.h"
#include "app/curve.h"
#include "app/dirty.h"
#include "app/jobs_csv.h"
#include "app/run.h"
#include "app/schedule.h"
#include "app/workload.h"

#include "core/ev.h"
#include "core/stats.h"
#include "net/net.h"
#include "pnr/pnr.h"
#include "sched/cluster.h"
#include "sched/gang.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct run {
    config c;
    sim_t sim;
    cluster_t cl;
    net_t *net;             /* the cluster's network and scheduler (owned by cl) */
    gang_t *g;
    pnr_t *pnr;
    workload *wl;
    wl_job next;
    const fault_curve *next_curve; /* next's curve (fault_model = CURVE) */
    curve_set curves;       /* CURVE: every curve of the run, read at its start */
    dirty_set dirty;        /* process.dirty_fractions, by application number */
    bool have_next;
    bool wl_failed;
    char wl_err[CFG_ERR_MAX];
    ev_id arrival_ev;
    long order;
    long submitted, finished;
    long no_limit;          /* time_limit KILL: submitted without field 9 */
    uint64_t seed;
    FILE *samples_out;
    jobs_csv *jobs;         /* jobs.csv, NULL when not written */
    sampler_t sampler;
    bool sampling;
    double *last_busy;      /* per PE CPU busy at the previous sample */
    uint64_t *touched;      /* bit per PE: memory ever changed (pe_set_touch_map) */
    tally_t response, wait, exec, slowdown, bsld;
    tally_t bsld_ded;       /* bounded slowdown over the dedicated run time */
    long slowdown_excluded;
    run_progress_fn on_progress;
    void *progress_ctx;
    bool checking;
    const char *check_failure;
    double wall0, wall_run;
    bool time_limited;
    schedule_out *sched_out; /* --schedule files, NULL when not asked */
    /* samples.csv (see the top of the file) */
    uint64_t sample_events;   /* sim.dispatched after the previous sample */
    uint64_t sample_k;        /* sampler index of the previous sample */
    char last_row[512];       /* last row written, time aside */
    bool have_row;
    long samples_written, samples_dropped;
    double samples_capped_at;
    long pes_samples_written, pes_samples_dropped; /* pes.csv, in samples */
    double pes_capped_at;
};

/* Whole nodes per job (node_sharing EXCLUSIVE on nodes of several cores):
 * jobs.csv's column `cores` and the metric idle_core_seconds. */
static inline bool run_exclusive(const run_t *r)
{
    return r->c.scheduler.node_sharing == NODE_EXCLUSIVE && r->c.computer.cores_per_node > 1;
}

/* scheduler.allocation other than FIRSTFREE (index 0, the default; issues
 * 34, 35): the placement metrics are written (metrics.json's alloc_*
 * members and net_uplink_bytes, jobs.csv's racks and hops_mean columns).
 * A study's baseline names LOWEST, FIRSTFREE's own table under another
 * name, to have them. The value decides, not where it was set: a run's
 * config.ini names every key, and replaying it must give the same outputs
 * (issue 34 also counted FIRSTFREE set explicitly, which a replay of an
 * unset run's config.ini then did too). */
static inline bool run_alloc_explicit(const config *c)
{
    return c->scheduler.allocation != 0;
}

#endif
