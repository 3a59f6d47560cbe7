/* app/dirty.c: a run's dirty fractions by application number (see
 * dirty.h). The items are sorted by application number so that a job's
 * fraction is a binary search at its arrival. */
#include "app/dirty.h"
#include "app/config_keys.h"

#include <stdlib.h>
#include <string.h>

static int by_app(const void *a, const void *b)
{
    double x = ((const dirty_app *)a)->app, y = ((const dirty_app *)b)->app;
    return (x > y) - (x < y);
}

void dirty_set_load(dirty_set *s, const config *c)
{
    memset(s, 0, sizeof *s);
    s->dflt = s->max = c->process.dirty_fraction;
    const char *p = c->process.dirty_fractions;
    char why[CFG_ERR_MAX];
    long app;
    double f;
    while (s->n < CFG_DIRTY_MAX && cfg_dirty_next(&p, &app, &f, why, sizeof why) == 1) {
        s->map[s->n++] = (dirty_app){(double)app, f};
        if (f > s->max)
            s->max = f;
    }
    s->on = s->n > 0;
    qsort(s->map, s->n, sizeof *s->map, by_app); /* no two alike (cfg_check_dirty) */
}

double dirty_set_find(const dirty_set *s, double app)
{
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->map[mid].app < app)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < s->n && s->map[lo].app == app ? s->map[lo].f : s->dflt;
}
