/* sched/priority.c: the queue orders as sort keys (see priority.h).
 *
 * The sort is a plain qsort on (key, trace order): trace order is unique, so
 * the comparison is a total order and the result does not depend on the
 * library's sort (PReMAS's lesson, peers.md). Cost O(q log q) per pass for
 * a queue of q jobs. */
#include "sched/priority.h"

#include <math.h>
#include <stdlib.h>

bool prio_is_bucketed(sched_priority p)
{
    return p == PRIO_FCFS || p == PRIO_BESTFIT || p == PRIO_WORSTFIT;
}

double prio_key(sched_priority p, const job_t *j, double now)
{
    double n = j->threads, e = j->estimate;
    double e1 = e < 1 ? 1 : e;
    double w = now - j->submit;
    switch (p) {
    case PRIO_FCFS: return 0;
    case PRIO_BESTFIT: return -n;
    case PRIO_WORSTFIT: return n;
    case PRIO_SJF: return e;
    case PRIO_LJF: return -e;
    case PRIO_SAF: return n * e;
    case PRIO_LAF: return -n * e;
    case PRIO_WFP3: {
        double r = w / e1;
        return -(r * r * r) * n;
    }
    case PRIO_UNICEP: {
        double l = j->threads == 1 ? 1 : log2(n);
        return -w / (l * e1);
    }
    case PRIO_F1: {
        double s = j->submit > 0 ? j->submit : 1;
        return log10(e1) * n + 870 * log10(s);
    }
    }
    return 0;
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

void prio_sort(job_t **v, size_t n, sched_priority p, double now)
{
    for (size_t i = 0; i < n; i++)
        v[i]->prio_key = prio_key(p, v[i], now);
    qsort(v, n, sizeof *v, cmp);
}
