/* sched/idmap.c: user and group numbers to dense indices (see idmap.h). */
#include "sched/idmap.h"

#include "core/mem.h"

#include <stdint.h>
#include <stdlib.h>

void sched_idmap_init(sched_idmap *m) { *m = (sched_idmap){0}; }

void sched_idmap_free(sched_idmap *m)
{
    free(m->key);
    free(m->idx);
    *m = (sched_idmap){0};
}

/* The first slot of id's probe sequence (a 64-bit mix, then the mask). */
static size_t home(const sched_idmap *m, long id)
{
    uint64_t x = (uint64_t)id * 0x9E3779B97F4A7C15ull;
    x ^= x >> 29;
    return (size_t)x & (m->cap - 1);
}

int sched_idmap_find(const sched_idmap *m, long id)
{
    if (!m->cap)
        return -1;
    for (size_t i = home(m, id);; i = (i + 1) & (m->cap - 1)) {
        if (m->idx[i] < 0)
            return -1;
        if (m->key[i] == id)
            return m->idx[i];
    }
}

/* Put (id, ix) in a table with room, id not in it. */
static void put(sched_idmap *m, long id, int ix)
{
    size_t i = home(m, id);
    while (m->idx[i] >= 0)
        i = (i + 1) & (m->cap - 1);
    m->key[i] = id;
    m->idx[i] = ix;
}

int sched_idmap_add(sched_idmap *m, long id)
{
    int f = sched_idmap_find(m, id);
    if (f >= 0)
        return f;
    if (2 * (m->n + 1) > m->cap) {
        sched_idmap old = *m;
        m->cap = old.cap ? 2 * old.cap : 16;
        m->key = xcalloc(m->cap, sizeof *m->key);
        m->idx = xmalloc(m->cap * sizeof *m->idx);
        for (size_t i = 0; i < m->cap; i++)
            m->idx[i] = -1;
        for (size_t i = 0; i < old.cap; i++)
            if (old.idx[i] >= 0)
                put(m, old.key[i], old.idx[i]);
        free(old.key);
        free(old.idx);
    }
    int ix = (int)m->n++;
    put(m, id, ix);
    return ix;
}
