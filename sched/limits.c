/* sched/limits.c: per-user limits (see limits.h). */
#include "sched/limits.h"

#include "core/mem.h"

#include <assert.h>
#include <stdlib.h>

void sched_limits_init(sched_limits *l, int max_running, int max_cores)
{
    *l = (sched_limits){.max_running = max_running, .max_cores = max_cores};
    sched_idmap_init(&l->ids);
}

void sched_limits_free(sched_limits *l)
{
    for (size_t i = 0; i < l->ids.n; i++)
        free(l->acct[i]);
    free(l->acct);
    sched_idmap_free(&l->ids);
}

void sched_limits_attach(sched_limits *l, job_t *j)
{
    if (j->acct)
        return;
    size_t n = l->ids.n;
    int ix = sched_idmap_add(&l->ids, j->user);
    if (l->ids.n > n) { /* a new user */
        if (l->ids.n > l->cap) {
            l->cap = l->cap ? 2 * l->cap : 16;
            l->acct = xrealloc(l->acct, l->cap * sizeof *l->acct);
        }
        sched_limit_acct *a = xcalloc(1, sizeof *a);
        a->lim = l;
        a->user = j->user;
        l->acct[ix] = a;
    }
    j->acct = l->acct[ix];
}

unsigned sched_limits_holds(const job_t *j)
{
    const sched_limit_acct *a = j->acct;
    if (!a)
        return 0;
    unsigned bits = 0;
    if (a->lim->max_running > 0 && a->running >= a->lim->max_running)
        bits |= SCHED_LIMIT_RUNNING;
    if (a->lim->max_cores > 0 && a->cores + j->width > a->lim->max_cores)
        bits |= SCHED_LIMIT_CORES;
    return bits;
}

void sched_limits_note(sched_limits *l, job_t *j, unsigned bits)
{
    assert(bits);
    if (!j->limit_held)
        l->delayed++;
    j->limit_held |= bits;
}

void sched_limits_started(job_t *j)
{
    sched_limit_acct *a = j->acct;
    if (!a)
        return;
    a->running++;
    a->cores += j->width;
}

void sched_limits_ended(job_t *j)
{
    sched_limit_acct *a = j->acct;
    if (!a)
        return;
    a->running--;
    a->cores -= j->width;
    assert(a->running >= 0 && a->cores >= 0);
}

const char *sched_limits_reason(unsigned bits)
{
    switch (bits & (SCHED_LIMIT_RUNNING | SCHED_LIMIT_CORES)) {
    case SCHED_LIMIT_RUNNING:
        return "limit:running_per_user";
    case SCHED_LIMIT_CORES:
        return "limit:cores_per_user";
    case SCHED_LIMIT_RUNNING | SCHED_LIMIT_CORES:
        return "limit:running_per_user+cores_per_user";
    default:
        return NULL;
    }
}
