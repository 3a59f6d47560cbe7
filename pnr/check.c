/* pnr/check.c: the conservation checker (pnr/check.h), a test hook, and
 * the test hooks that read the layer's state (pnr_received,
 * pnr_job_manager). Low in pnr/: it reads the protocol's data and calls no
 * other file of pnr/, so every file above may report to it.
 *
 * The totals come from the counters p->held, p->transit and p->pending
 * against the sum of the PEs' lent_mb; the per-server check ignores those
 * counters and walks the protocol's own data instead: every tracked round
 * and job state, and every node's pieces, claiming for each server the MB
 * they name. Tables are compared with a shadow: for every PE a full row of
 * N entries updated the plain way (newest news wins) at every hear and
 * merge, which the shared storage of table.c must read exactly like
 * (table.c keeps the shadow; this file allocates it). Per node, the
 * network RAM its faults draw from must equal what it holds (check_nodes:
 * a reclaim cuts both at once).
 */
#include "pnr/check.h"

#include "core/mem.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

void pnr_set_checking(pnr_t *p, bool on)
{
    p->checking = on;
    if (on && !p->shadow) {
        /* Only before anything was heard (tests turn checks on at once). */
        size_t n = (size_t)p->npes;
        p->shadow = xcalloc(n * n, sizeof *p->shadow);
        for (size_t x = 0; x < n; x++)
            for (size_t i = 0; i < n; i++)
                p->shadow[x * n + i] = (entry_t){p->cl->pes[i].ram_mb, -1};
        p->node_claimed = xcalloc(n, sizeof *p->node_claimed);
    }
}

const char *pnr_check_failure(const pnr_t *p) { return p->check_failure; }

void pnr_totals(const pnr_t *p, double *lent, double *held, double *transit)
{
    double l = 0;
    for (int i = 0; i < p->npes; i++)
        l += p->cl->pes[i].lent_mb;
    *lent = l;
    *held = p->held;
    *transit = p->transit + p->pending;
}

void pnr_check_fail(pnr_t *p, const char *fmt, ...)
{
    if (p->check_failure)
        return;
    int k = snprintf(p->check_msg, sizeof p->check_msg, "t=%.9g: ", p->sim->now);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->check_msg + k, sizeof p->check_msg - (size_t)k, fmt, ap);
    va_end(ap);
    p->check_failure = p->check_msg;
}

/* Add the MB of every piece of ps to its server's claim. */
static void claim(pnr_t *p, const pieces_t *ps)
{
    for (int i = 0; i < ps->n; i++)
        p->claimed[ps->v[i].server] += ps->v[i].mb;
}

/* Per node: the network RAM its faults draw from (pe->remote_mb) == what
 * it holds: its pieces, and under release ALL its threads' grants (their
 * REPLY arrived). A reclaim (reclaim.c) must cut both by the same MB.
 * Returns true (and records it) when a node differs. */
static bool check_nodes(pnr_t *p)
{
    for (int b = 0; b < p->npes; b++) {
        double h = 0;
        for (int i = 0; i < p->node[b].n; i++)
            h += p->node[b].v[i].mb;
        p->node_claimed[b] = h;
    }
    if (p->release == PNR_RELEASE_ALL)
        list_for_each(it, &p->objs) {
            const pobj *o = container_of(it, pobj, node);
            if (o->kind != POBJ_JSTATE)
                continue;
            const jstate_t *js = container_of(o, jstate_t, link);
            for (int i = 0; i < js->threads; i++)
                if (js->creqs[i])
                    p->node_claimed[js->creqs[i]->pe] += js->creqs[i]->granted;
        }
    for (int b = 0; b < p->npes; b++) {
        double r = p->cl->pes[b].remote_mb;
        if (fabs(r - p->node_claimed[b]) > 1e-6 * (1 + r)) {
            pnr_check_fail(p, "node %d draws on %.9g MB of network RAM but holds %.9g", b, r,
                           p->node_claimed[b]);
            return true;
        }
    }
    return false;
}

void pnr_check(pnr_t *p)
{
    if (!p->checking || p->check_failure)
        return;
    double lent, held, transit;
    pnr_totals(p, &lent, &held, &transit);
    if (fabs(lent - held - transit) > 1e-6 * (1 + lent)) {
        pnr_check_fail(p, "lent %.9g MB != held %.9g + in transit %.9g", lent, held, transit);
        return;
    }
    if (p->held < -1e-6 || p->transit < -1e-6 || p->pending < -1e-6) {
        pnr_check_fail(p, "negative total: held %.9g, in transit %.9g, pending %.9g", p->held,
                       p->transit, p->pending);
        return;
    }
    for (int s = 0; s < p->npes; s++)
        p->claimed[s] = 0;
    list_for_each(it, &p->objs) {
        const pobj *o = container_of(it, pobj, node);
        if (o->kind == POBJ_ROUND) {
            const round_t *r = container_of(o, round_t, link);
            claim(p, &r->got);
            if (r->dealloc) {
                for (int i = 0; i < r->expected; i++)
                    claim(p, &r->incoming[i]);
            } else if (r->grant_mb > 0) {
                p->claimed[r->grant_server] += r->grant_mb;
            }
        } else if (o->kind == POBJ_REASK) {
            claim(p, &container_of(o, reask_t, link)->c.pieces);
        } else if (o->kind == POBJ_JSTATE) {
            const jstate_t *js = container_of(o, jstate_t, link);
            for (int i = 0; i < js->threads; i++)
                if (js->creqs[i])
                    claim(p, &js->creqs[i]->pieces);
        }
    }
    for (int pe = 0; pe < p->npes; pe++)
        claim(p, &p->node[pe]);
    if (check_nodes(p))
        return;
    for (int s = 0; s < p->npes; s++) {
        double l = p->cl->pes[s].lent_mb;
        if (l < -1e-9 || fabs(l - p->claimed[s]) > 1e-6 * (1 + l)) {
            pnr_check_fail(p, "server %d has lent %.9g MB but the protocol accounts for %.9g",
                           s, l, p->claimed[s]);
            return;
        }
    }
}

int pnr_job_manager(const pnr_t *p, const job_t *j)
{
    const jstate_t *js = j->pnr;
    (void)p;
    return js ? js->alloc_manager : -1;
}

uint64_t pnr_received(const pnr_t *p, int pe, int kind)
{
    int k = kind - PNR_MSG_REQUEST;
    if (pe < 0 || pe >= p->npes || k < 0 || k >= PNR_NKINDS)
        return 0;
    return p->received[(size_t)pe * PNR_NKINDS + (size_t)k];
}
