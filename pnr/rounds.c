/* pnr/rounds.c: the protocol's state objects, shared by the client and
 * the manager: allocation and deallocation rounds (techreport §5.2) and
 * the per-job state that links a job's clients to its rounds. Both are
 * tracked objects (objects.c). Below the agents: the client opens rounds
 * and keeps its records in the job state, the manager runs and ends the
 * rounds.
 */
#include "pnr/rounds.h"

#include "pnr/objects.h"

#include "core/mem.h"

#include <stdlib.h>
#include <string.h>

/* Free a round and what it holds (the tracker's destructor: o must be
 * untracked already). */
static void round_destroy(pobj *o)
{
    round_t *r = container_of(o, round_t, link);
    free(r->reqs);
    free(r->asks);
    free(r->got.v);
    if (r->incoming) {
        for (int i = 0; i < r->expected; i++)
            free(r->incoming[i].v);
        free(r->incoming);
    }
    free(r->asked);
    free(r->racks);
    free(r);
}

void pnr_round_free(pnr_t *p, round_t *r)
{
    if (r->asked) {
        if (p->nspare_asked == p->spare_asked_cap) {
            p->spare_asked_cap = p->spare_asked_cap ? 2 * p->spare_asked_cap : 4;
            p->spare_asked =
                xrealloc(p->spare_asked, (size_t)p->spare_asked_cap * sizeof *p->spare_asked);
        }
        p->spare_asked[p->nspare_asked++] = r->asked;
        r->asked = NULL;
    }
    pnr_untrack(&r->link);
    round_destroy(&r->link);
}

round_t *pnr_round_new(pnr_t *p, bool dealloc, jstate_t *js, int manager, int expected)
{
    round_t *r = xcalloc(1, sizeof *r);
    r->dealloc = dealloc;
    r->js = js;
    r->manager = manager;
    r->expected = expected;
    if (dealloc)
        p->st.dealloc_rounds++;
    else
        p->st.alloc_rounds++;
    if (dealloc) {
        r->incoming = xcalloc((size_t)expected, sizeof *r->incoming);
    } else {
        r->reqs = xcalloc((size_t)expected, sizeof *r->reqs);
        r->asks = xcalloc((size_t)expected, sizeof *r->asks);
        /* A spare from a finished round, cleared (rounds overlap, so
         * one array per round in flight). */
        if (p->nspare_asked > 0) {
            r->asked = p->spare_asked[--p->nspare_asked];
            memset(r->asked, 0, (size_t)p->npes);
        } else {
            r->asked = xcalloc((size_t)p->npes, 1);
        }
    }
    pnr_track(p, &r->link, POBJ_ROUND, round_destroy);
    return r;
}

/* Free a job's state and its remaining client records (the tracker's
 * destructor: o must be untracked already). */
static void jstate_destroy(pobj *o)
{
    jstate_t *js = container_of(o, jstate_t, link);
    for (int i = 0; i < js->threads; i++)
        if (js->creqs[i]) {
            free(js->creqs[i]->pieces.v);
            free(js->creqs[i]);
        }
    free(js->creqs);
    free(js);
}

void pnr_jstate_free(jstate_t *js)
{
    pnr_untrack(&js->link);
    jstate_destroy(&js->link);
}

jstate_t *pnr_jstate_of(pnr_t *p, job_t *j)
{
    if (!j->pnr) {
        jstate_t *js = xcalloc(1, sizeof *js);
        js->threads = j->threads;
        js->creqs = xcalloc((size_t)j->threads, sizeof *js->creqs);
        js->alloc_manager = -1;
        pnr_track(p, &js->link, POBJ_JSTATE, jstate_destroy);
        j->pnr = js;
    }
    return j->pnr;
}
