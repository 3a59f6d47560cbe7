/* sched/gang_home.c: slots of the gang matrix and the home links of the
 * jobs moved out of them (see gang_home.h). sched/gang.c calls these where
 * it changes a home link; they keep each slot's per-core record of its
 * exiles (exile_on, nexiles) equal to the links (gang_check verifies it).
 */
#include "sched/gang_home.h"

#include "core/mem.h"

#include <assert.h>
#include <stdlib.h>

slot_t *gang_home_slot_new(int id, int npes)
{
    slot_t *s = xcalloc(1, sizeof *s);
    s->id = id;
    s->nfree = npes;
    s->pe_job = xcalloc((size_t)npes, sizeof *s->pe_job);
    return s;
}

void gang_home_slot_free(slot_t *s)
{
    free(s->pe_job);
    free(s->exile_on);
    free(s);
}

/* The cores of j's threads (under EXCLUSIVE a node's other cores are j's
 * too, but two jobs holding whole nodes meet on a node iff one holds a
 * thread core of the other, so the threads' cores are enough). */
void gang_home_set(slot_t *h, job_t *j, int npes)
{
    assert(j->home_slot < 0 && j->slot != h->id);
    if (!h->exile_on)
        h->exile_on = xcalloc((size_t)npes, sizeof *h->exile_on);
    for (int i = 0; i < j->threads; i++) {
        assert(!h->exile_on[j->pe_ids[i]]);
        h->exile_on[j->pe_ids[i]] = j;
    }
    j->home_slot = h->id;
    h->nexiles++;
}

void gang_home_clear(slot_t *h, job_t *j)
{
    assert(j->home_slot == h->id && h->exile_on && h->nexiles > 0);
    for (int i = 0; i < j->threads; i++) {
        assert(h->exile_on[j->pe_ids[i]] == j);
        h->exile_on[j->pe_ids[i]] = NULL;
    }
    j->home_slot = -1;
    h->nexiles--;
}

/* One look at each core, only when s has exiles. */
void gang_home_slot_gone(slot_t *s)
{
    if (!s->exile_on)
        return;
    for (int pe = 0; s->nexiles > 0; pe++) {
        job_t *o = s->exile_on[pe];
        if (o && o->pe_ids[0] == pe)
            gang_home_clear(s, o);
    }
}

/* ---- the free-core index ------------------------------------------------ */

void gang_fidx_build(slot_fidx *x, slot_t *const *slots, int n)
{
    if (n > x->cap || !x->t) {
        int cap = x->cap ? x->cap : 4;
        while (cap < n)
            cap *= 2;
        free(x->t);
        x->t = xcalloc(2 * (size_t)cap, sizeof *x->t);
        x->cap = cap;
    }
    for (int i = 0; i < x->cap; i++)
        x->t[x->cap + i] = i < n ? slots[i]->nfree : -1;
    for (int k = x->cap - 1; k >= 1; k--)
        x->t[k] = x->t[2 * k] > x->t[2 * k + 1] ? x->t[2 * k] : x->t[2 * k + 1];
}

void gang_fidx_append(slot_fidx *x, slot_t *const *slots, int n)
{
    if (n > x->cap)
        gang_fidx_build(x, slots, n);
    else
        gang_fidx_set(x, n - 1, slots[n - 1]->nfree);
}

void gang_fidx_set(slot_fidx *x, int i, int v)
{
    assert(i >= 0 && i < x->cap);
    int k = x->cap + i;
    x->t[k] = v;
    for (k /= 2; k >= 1; k /= 2)
        x->t[k] = x->t[2 * k] > x->t[2 * k + 1] ? x->t[2 * k] : x->t[2 * k + 1];
}

/* Up from leaf `from` while the subtrees to the right hold too little,
 * then down to the leftmost leaf with enough. */
int gang_fidx_next(const slot_fidx *x, int from, int w)
{
    if (from >= x->cap)
        return -1;
    int k = x->cap + from;
    while (x->t[k] < w) {
        while (k & 1) { /* a right child: its parent's range is done */
            k /= 2;
            if (k == 0)
                return -1;
        }
        k++; /* the next range to the right, as wide */
    }
    while (k < x->cap)
        k = x->t[2 * k] >= w ? 2 * k : 2 * k + 1;
    return k - x->cap;
}

void gang_fidx_free(slot_fidx *x)
{
    free(x->t);
    x->t = NULL;
    x->cap = 0;
}
