/* study/points.c: the runs of a study, by number.
 *
 * A study's runs are the cross product of its [vary] values (the first key
 * outermost, each key's values in the order written, a baseline after the
 * plain values of its key), then per point the trace windows, then the
 * seeds: run r is at point r / nrep, window (r % nrep) / replications and
 * seed seed_base + r % replications. Nothing is stored per run: these
 * functions compute a run's coordinates from its number in constant time
 * (study_value_index in the number of [vary] keys), so a million-run study
 * costs no memory until its runs are looked at.
 */
#include "study/points.h"

#include <stddef.h>
#include <string.h>

size_t study_value_index(const study *s, size_t point, size_t param)
{
    /* The last parameter varies fastest. */
    for (size_t i = s->nvary; i-- > param + 1;)
        point /= s->vary[i].nvalues;
    return point % s->vary[param].nvalues;
}

const char *study_value(const study *s, size_t point, size_t param)
{
    return s->vary[param].values[study_value_index(s, point, param)];
}

const study_baseline *study_value_baseline(const study *s, size_t point,
                                           size_t param)
{
    const study_param *p = &s->vary[param];
    if (!p->baseline)
        return NULL;
    long b = p->baseline[study_value_index(s, point, param)];
    return b >= 0 ? &s->baselines[b] : NULL;
}

size_t study_point_of(const study *s, const size_t *idx)
{
    size_t point = 0;
    for (size_t i = 0; i < s->nvary; i++)
        point = point * s->vary[i].nvalues + idx[i];
    return point;
}

long study_seed(const study *s, size_t rep)
{
    return s->seed_base + (long)rep;
}

size_t study_run_point(const study *s, size_t run)
{
    return run / s->nrep;
}

long study_run_window(const study *s, size_t run)
{
    if (s->windows <= 0)
        return -1;
    return (long)((run % s->nrep) / (size_t)s->replications);
}

long study_run_seed(const study *s, size_t run)
{
    return study_seed(s, run % (size_t)s->replications);
}

long study_param_index(const study *s, const char *key)
{
    for (size_t i = 0; i < s->nvary; i++)
        if (!strcmp(s->vary[i].key, key))
            return (long)i;
    return -1;
}
