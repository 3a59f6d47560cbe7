/* sched/limits.h: per-user limits (issue 35; scheduler.max_running_per_user,
 * scheduler.max_cores_per_user; docs/SCHEDULING.md "Per-user limits").
 *
 * A user (SWF field 12; -1, unknown, is one user) may have at most
 * max_running placed jobs and hold at most max_cores cores (the jobs'
 * widths, summed over the gang slots) at once; 0 = no limit. A queued job
 * whose user is at a limit (running >= max_running, or cores + its width
 * > max_cores) is held: a pass skips it (it blocks no later job, as
 * Slurm's QOS limits), it gets no reservation, and sched_job_waiting
 * (sched/reserve.h) says false for it. The accounts are kept by the keyed
 * pass's host (sched/backfill.c): a job's account is attached at the first
 * pass that sees it, charged when it is placed and released when it ends.
 */
#ifndef PNRSIM_SCHED_LIMITS_H
#define PNRSIM_SCHED_LIMITS_H

#include "sched/idmap.h"
#include "sched/job.h"

#include <stdbool.h>

/* The limits that held a job (job_t.limit_held). */
#define SCHED_LIMIT_RUNNING 1u   /* max_running_per_user */
#define SCHED_LIMIT_CORES 2u     /* max_cores_per_user */

typedef struct sched_limits sched_limits;

/* One user's account (job_t.acct points at it; stable for the run). */
typedef struct sched_limit_acct {
    const sched_limits *lim;
    long user;
    int running;      /* placed jobs */
    long cores;       /* their widths */
} sched_limit_acct;

struct sched_limits {
    int max_running, max_cores;   /* 0: no limit */
    sched_idmap ids;
    sched_limit_acct **acct;      /* by index of ids */
    size_t cap;
    long delayed;                 /* jobs held back at least once */
};

/* Limits of max_running jobs and max_cores cores per user (0: none). */
void sched_limits_init(sched_limits *l, int max_running, int max_cores);
void sched_limits_free(sched_limits *l);
/* Whether any limit is set. */
static inline bool sched_limits_on(const sched_limits *l)
{
    return l->max_running > 0 || l->max_cores > 0;
}
/* Attach j's account (its user's, created when new) if not done yet. */
void sched_limits_attach(sched_limits *l, job_t *j);
/* The SCHED_LIMIT_* bits of the limits that hold the queued job j now (0:
 * none; always 0 for a job without an account). */
unsigned sched_limits_holds(const job_t *j);
/* The pass saw j held by the limits `bits` (non-zero): note them in
 * j->limit_held (counting j in l->delayed the first time). */
void sched_limits_note(sched_limits *l, job_t *j, unsigned bits);
/* j was placed / placed j ended: charge / release its account. */
void sched_limits_started(job_t *j);
void sched_limits_ended(job_t *j);
/* jobs.csv's reason for the bits: "limit:running_per_user",
 * "limit:cores_per_user", "limit:running_per_user+cores_per_user"; NULL
 * for 0. */
const char *sched_limits_reason(unsigned bits);

#endif
