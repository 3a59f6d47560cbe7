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
