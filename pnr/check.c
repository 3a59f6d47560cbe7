/* pnr/check.c: the conservation checker (pnr/check.h), a test hook.
 *
 * The totals come from the counters p->held, p->transit and p->pending
 * against the sum of the PEs' lent_mb; the per-server check ignores those
 * counters and walks the protocol's own data instead: every tracked round
 * and job state, and every node's pieces, claiming for each server the MB
 * they name. Tables are compared with a shadow: for every PE a full row of
 * N entries updated the plain way (newest news wins) at every hear and
 * merge, which the shared storage of table.c must read exactly like.
 */
#include "pnr/check.h"
#include "pnr/pnr_check.h"

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
        } else if (o->kind == POBJ_JSTATE) {
            const jstate_t *js = container_of(o, jstate_t, link);
            for (int i = 0; i < js->threads; i++)
                if (js->creqs[i])
                    claim(p, &js->creqs[i]->pieces);
        }
    }
    for (int pe = 0; pe < p->npes; pe++)
        claim(p, &p->node[pe]);
    for (int s = 0; s < p->npes; s++) {
        double l = p->cl->pes[s].lent_mb;
        if (l < -1e-9 || fabs(l - p->claimed[s]) > 1e-6 * (1 + l)) {
            pnr_check_fail(p, "server %d has lent %.9g MB but the protocol accounts for %.9g",
                           s, l, p->claimed[s]);
            return;
        }
    }
}

void pnr_check_heard(pnr_t *p, int receiver, int src, double load, double sent_at)
{
    if (!p->checking || !p->shadow)
        return;
    entry_t *e = &p->shadow[(size_t)receiver * (size_t)p->npes + (size_t)src];
    if (sent_at >= e->stamp)
        *e = (entry_t){load, sent_at};
    entry_t v = pnr_table_get(p, &p->tables[receiver], src);
    if (v.avail != e->avail || v.stamp != e->stamp)
        pnr_check_fail(p, "PE %d's table entry for %d differs from the plain table", receiver,
                       src);
}

void pnr_check_merged(pnr_t *p, int x, const entry_t *se)
{
    if (!p->checking || !p->shadow)
        return;
    entry_t *sh = p->shadow + (size_t)x * (size_t)p->npes;
    for (int j = 0; j < p->npes; j++)
        if (se[j].stamp > sh[j].stamp)
            sh[j] = se[j];
    const table_t *t = &p->tables[x];
    for (int i = 0; i < p->npes; i++) {
        entry_t v = pnr_table_get(p, t, i);
        if (v.avail != sh[i].avail || v.stamp != sh[i].stamp) {
            pnr_check_fail(p, "PE %d's table reads %.17g MB at %.17g for server %d, the plain "
                              "table %.17g at %.17g", x, v.avail, v.stamp, i, sh[i].avail,
                           sh[i].stamp);
            return;
        }
    }
}
