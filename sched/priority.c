/* sched/priority.c: a run's queue order applied to the jobs (see
 * priority.h).
 *
 * The sort is a plain qsort on (key, trace order): trace order is unique, so
 * the comparison is a total order and the result does not depend on the
 * library's sort (PReMAS's lesson, peers.md). Cost O(q log q) per pass for
 * a queue of q jobs, and one call of the order's key per job. */
#include "sched/priority.h"

#include "core/registry_host.h"
#include "sched/reserve.h"
#include "sched/limits.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

void job_public(const job_t *j, sched_job_info *out)
{
    *out = (sched_job_info){
        .id = j->id, .order = j->order, .threads = j->threads, .width = j->width,
        .submit = j->submit, .estimate = j->estimate, .requested = j->requested,
        .mem_mb = j->mem_mb, .user = j->user, .group = j->group,
    };
}

/* reserve.h's view of a job: a sched_job is a job_t. */
void sched_job_get(const sched_job *j, sched_job_info *out)
{
    job_public((const job_t *)(const void *)j, out);
}

static const job_t *JC(const sched_job *j) { return (const job_t *)(const void *)j; }

bool sched_job_waiting(const sched_job *j)
{
    return JC(j)->queued && !sched_limits_holds(JC(j));
}
int sched_job_width(const sched_job *j) { return JC(j)->width; }
double sched_job_estimate(const sched_job *j) { return JC(j)->estimate; }
double sched_job_start(const sched_job *j) { return JC(j)->start; }
double sched_job_end(const sched_job *j) { return JC(j)->end; }
double sched_job_expected_end(const sched_job *j) { return JC(j)->bf_end; }

double prio_key(const sched_order_ops *o, void *state, const job_t *j, double now)
{
    sched_job_info info;
    job_public(j, &info);
    double k = o->key(state, &info, now);
    if (isnan(k)) {
        /* sched/order.h: a key is a number; NaN would leave the sort's
         * order undefined. A plugin's broken answer stops the run. */
        const pnrsim_component *c = pnrsim_component_of(PNRSIM_KIND_PRIORITY, o);
        fprintf(stderr, "pnrsim: scheduler.priority %s: key of job %ld at t = %.17g is NaN "
                        "(sched/order.h)\n", c ? c->name : "?", j->id, now);
        exit(2);
    }
    return k;
}

static int cmp(const void *a, const void *b)
{
    const job_t *x = *(job_t *const *)a, *y = *(job_t *const *)b;
    if (x->prio_key < y->prio_key)
        return -1;
    if (x->prio_key > y->prio_key)
        return 1;
    return (x->order > y->order) - (x->order < y->order);
}

void prio_sort(job_t **v, size_t n, const sched_order_ops *o, void *state, double now)
{
    for (size_t i = 0; i < n; i++)
        v[i]->prio_key = prio_key(o, state, v[i], now);
    qsort(v, n, sizeof *v, cmp);
}
