/* pnr/table.c: availability tables (techreport §5.2, §5.2.6), below the
 * frame in pnr/ (it calls objects.c and check.c only): the frame lets every
 * arriving message's receiver hear the load it carries (pnr_hear), and
 * broadcast.c builds and merges the tables' broadcast snapshots through it.
 *
 * Every servent keeps a table: per server, the free MB last heard of and
 * when it was true. A table is stored as a shared base (the last broadcast
 * snapshot it merged, or none: installed RAM heard at time -1) plus a list
 * of overrides sorted by PE where it differs from the base (internal.h
 * explains why). Two things change a table: the load piggybacked on every
 * message the servent receives (pnr_hear: newer news wins), and a
 * broadcast (pnr_table_merge: entry by entry the newer news wins, the
 * table's own on equal stamps). A broadcast sends one snapshot
 * (pnr_table_snapshot), shared by reference count between its N-1 (or
 * M-1) messages and the tables that adopt it as their base.
 *
 * When checking, every table is compared with its shadow, a plain N x N
 * copy updated the plain way (newest news wins) beside it.
 */
#include "pnr/table.h"

#include "pnr/check.h"
#include "pnr/objects.h"

#include "core/mem.h"

#include <stdlib.h>
#include <string.h>

/* Position of pe's override in t (or where it would go), by binary search. */
static int override_pos(const table_t *t, int pe)
{
    int lo = 0, hi = t->n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (t->o[mid].pe < pe)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Table t's base entry for server i. */
static entry_t base_entry(const pnr_t *p, const table_t *t, int i)
{
    if (t->base)
        return t->base->e[i];
    return (entry_t){p->cl->pes[i].ram_mb, -1}; /* installed RAM (§5.2) */
}

entry_t pnr_table_get(const pnr_t *p, const table_t *t, int i)
{
    int k = override_pos(t, i);
    if (k < t->n && t->o[k].pe == i)
        return t->o[k].v;
    return base_entry(p, t, i);
}

/* Make room for `need` overrides in *o (capacity *cap, doubling). */
static void grow_overrides(override_t **o, int *cap, int need)
{
    if (need <= *cap)
        return;
    int c = *cap ? *cap : 8;
    while (c < need)
        c *= 2;
    *o = xrealloc(*o, (size_t)c * sizeof **o);
    *cap = c;
}

/* Set table t's entry for server i to v. */
static void table_set(table_t *t, int i, entry_t v)
{
    int k = override_pos(t, i);
    if (k < t->n && t->o[k].pe == i) {
        t->o[k].v = v;
        return;
    }
    grow_overrides(&t->o, &t->cap, t->n + 1);
    memmove(t->o + k + 1, t->o + k, (size_t)(t->n - k) * sizeof *t->o);
    t->o[k] = (override_t){i, v};
    t->n++;
}

/* When checking: receiver heard src's load at sent_at; update the plain
 * copy the same way and compare the shared table's entry with it. */
static void shadow_heard(pnr_t *p, int receiver, int src, double load, double sent_at)
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

/* When checking: PE x merged the broadcast table se (npes entries); merge
 * it into the plain copy and compare the whole table. */
static void shadow_merged(pnr_t *p, int x, const entry_t *se)
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

void pnr_hear(pnr_t *p, int receiver, int src, double load, double sent_at)
{
    table_t *t = &p->tables[receiver];
    if (sent_at >= pnr_table_get(p, t, src).stamp)
        table_set(t, src, (entry_t){load, sent_at});
    if (p->checking)
        shadow_heard(p, receiver, src, load, sent_at);
}

double pnr_believed_free(pnr_t *p, int manager, int s)
{
    /* The manager knows its own load as its broadcasts do (manager and
     * server are parts of the same servent). */
    if (p->global || s == manager)
        return pe_free_mb(&p->cl->pes[s]);
    return pnr_table_get(p, &p->tables[manager], s).avail;
}

/* Free a snapshot (the tracker's destructor: o must be untracked
 * already, whatever its reference count). */
static void snapshot_destroy(pobj *o)
{
    snapshot_t *s = container_of(o, snapshot_t, link);
    free(s->e);
    free(s);
}

void pnr_snapshot_release(snapshot_t *s)
{
    if (s && --s->refs == 0) {
        pnr_untrack(&s->link);
        snapshot_destroy(&s->link);
    }
}

snapshot_t *pnr_table_snapshot(pnr_t *p, int manager, int refs)
{
    table_t *t = &p->tables[manager];
    snapshot_t *s = xcalloc(1, sizeof *s);
    s->e = xcalloc((size_t)p->npes, sizeof *s->e);
    for (int i = 0; i < p->npes; i++)
        s->e[i] = base_entry(p, t, i);
    for (int k = 0; k < t->n; k++)
        s->e[t->o[k].pe] = t->o[k].v;
    /* its own load, now */
    s->e[manager] = (entry_t){pe_free_mb(&p->cl->pes[manager]), p->sim->now};
    s->refs = refs;
    pnr_track(p, &s->link, POBJ_SNAPSHOT, snapshot_destroy);
    return s;
}

/* Entry by entry the newer news wins (the table's own on equal stamps).
 * The result becomes a table based on s, with overrides where the old
 * table's entry won and differs from s's. */
void pnr_table_merge(pnr_t *p, int dst, snapshot_t *s)
{
    table_t *t = &p->tables[dst];
    const entry_t *se = s->e;
    const entry_t *be = t->base ? t->base->e : NULL;
    int n = 0, k = 0, i = 0;
    while (i < p->npes) {
        /* Entries up to the next override come from the base: a tight
         * loop, since most of them equal s's (shared history). */
        int end = k < t->n ? t->o[k].pe : p->npes;
        while (i < end) {
            /* Blocks equal bit for bit need no look inside. */
            if (be && end - i >= 32 && !memcmp(be + i, se + i, 32 * sizeof *se)) {
                i += 32;
                continue;
            }
            for (int stop = end - i > 32 ? i + 32 : end; i < stop; i++) {
                entry_t cur = be ? be[i] : (entry_t){p->cl->pes[i].ram_mb, -1};
                if (se[i].stamp > cur.stamp ||
                    (cur.avail == se[i].avail && cur.stamp == se[i].stamp))
                    continue; /* s's entry */
                grow_overrides(&p->scratch, &p->scratch_cap, n + 1);
                p->scratch[n++] = (override_t){i, cur};
            }
        }
        if (i == p->npes)
            break;
        entry_t cur = t->o[k++].v; /* the override at i */
        if (!(se[i].stamp > cur.stamp) &&
            !(cur.avail == se[i].avail && cur.stamp == se[i].stamp)) {
            grow_overrides(&p->scratch, &p->scratch_cap, n + 1);
            p->scratch[n++] = (override_t){i, cur};
        }
        i++;
    }
    /* Swap the override lists; the old one becomes the spare. */
    override_t *o = t->o;
    int cap = t->cap;
    t->o = p->scratch;
    t->cap = p->scratch_cap;
    t->n = n;
    p->scratch = o;
    p->scratch_cap = cap;
    snapshot_t *old = t->base;
    t->base = s; /* the message's reference passes to the table */
    shadow_merged(p, dst, se);
    pnr_snapshot_release(old);
}
