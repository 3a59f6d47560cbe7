/* sched/gang_check.c: the gang scheduler's test hooks (sched/gang_check.h):
 * the invariant checks of the matrix, the queue and the memory reserved
 * per PE (gang_check); the placement rule checked by brute force over the
 * queue (gang_check_placement), independent of the pass's buckets; and the
 * hook that runs them after every scheduler action. The program never
 * calls these; tests/ and app/run.c's checking mode do. They read the
 * scheduler's structures (sched/gang_internal.h) and change nothing.
 */
#include "sched/gang_check.h"
#include "sched/limits.h"
#include "sched/gang_alloc.h"
#include "sched/gang_internal.h"

#include "core/mem.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Contracts of the four public functions: sched/gang_check.h. */

int gang_current_slot(const gang_t *g) { return g->cur; }

void gang_set_mirror_back(gang_t *g, bool on) { g->mirror_back = on; }

void gang_set_hook(gang_t *g, gang_hook_fn fn, void *ctx)
{
    g->hook = fn;
    g->hook_ctx = ctx;
}

/* Walks every slot's row once, then sums the reserved memory afresh. */
const char *gang_check(const gang_t *g)
{
    static char msg[200];
    if (g->p.mpl > 0 && g->nslots > g->p.mpl)
        return "more slots than MPL";
    if (g->nslots > 0 ? g->cur < 0 || g->cur >= g->nslots : g->cur != -1)
        return "current slot out of range";
    long placed = 0, running = 0, exiles = 0, recorded = 0;
    for (int i = 0; i < g->nslots; i++)
        recorded += g->slots[i]->nexiles;
    for (int i = 0; i < g->nslots; i++) {
        slot_t *s = g->slots[i];
        int used = 0, jobs = 0;
        if (i > 0 && g->slots[i - 1]->id >= s->id)
            return "slot ids do not increase along the slots (gang_slot_index)";
        for (int pe = 0; pe < g->npes; pe++) {
            job_t *j = s->pe_job[pe];
            if (!j)
                continue;
            used++;
            if (j->queued)
                return "a placed job is also queued";
            if (j->slot != s->id) {
                snprintf(msg, sizeof msg, "job %ld on slot %d thinks it is in %d", j->id, s->id,
                         j->slot);
                return msg;
            }
            if (j->pe_ids[0] == pe) {
                jobs++;
                core_iter it;
                int held = 0;
                for (int c = gang_core_first(g, j, &it); c >= 0; c = gang_core_next(g, j, &it)) {
                    if (s->pe_job[c] != j)
                        return "job's PE entry missing from its slot";
                    held++;
                }
                if (held != j->width)
                    return "job holds other than its width";
                if (j->running) {
                    running++;
                    if (i != g->cur) {
                        snprintf(msg, sizeof msg, "job %ld runs outside the current slot", j->id);
                        return msg;
                    }
                }
                if (j->home_slot >= 0) {
                    int h = gang_slot_index(g, j->home_slot);
                    if (j->home_slot == s->id || h < 0)
                        return "job's home slot is itself or gone";
                    exiles++;
                    for (int t = 0; t < j->threads; t++)
                        if (!g->slots[h]->exile_on || g->slots[h]->exile_on[j->pe_ids[t]] != j)
                            return "job's home slot does not record it (exile_on)";
                    for (int c = gang_core_first(g, j, &it); c >= 0;
                         c = gang_core_next(g, j, &it))
                        if (g->slots[h]->pe_job[c]) {
                            snprintf(msg, sizeof msg,
                                     "job %ld's PEs are taken in its home slot %d", j->id,
                                     j->home_slot);
                            return msg;
                        }
                }
            }
        }
        if (used != g->npes - s->nfree)
            return "free count wrong";
        if (g->fidx.t[g->fidx.cap + i] != s->nfree)
            return "free-core index (fidx) out of date";
        if (jobs != s->njobs)
            return "job count wrong";
        if (jobs == 0)
            return "empty slot kept";
        placed += jobs;
    }
    if (placed != g->placed)
        return "placed count wrong";
    for (int k = 1; k < 2 * g->fidx.cap; k++) {
        const int *t = g->fidx.t;
        if (k >= g->fidx.cap ? k - g->fidx.cap >= g->nslots && t[k] != -1
                             : t[k] != (t[2 * k] > t[2 * k + 1] ? t[2 * k] : t[2 * k + 1]))
            return "free-core index (fidx) inconsistent";
    }
    if (exiles != recorded) /* with the test above: exile_on holds just them */
        return "exile count of the slots wrong (nexiles)";
    if (running != g->running)
        return "running count wrong";
    /* Memory reserved per PE: the threads of the placed jobs whose memory
     * has not been freed yet. */
    double *sum = xcalloc((size_t)g->nnodes, sizeof *sum);
    for (int i = 0; i < g->nslots; i++)
        for (int pe = 0; pe < g->npes; pe++) {
            job_t *j = g->slots[i]->pe_job[pe];
            if (j && j->pe_ids[0] == pe)
                for (int t = 0; t < j->threads; t++)
                    if (!job_thread_mem_freed(j, t))
                        sum[j->pe_ids[t] / g->cpn] += j->mem_mb;
        }
    const char *bad = NULL;
    for (int pe = 0; pe < g->nnodes && !bad; pe++) {
        if (fabs(sum[pe] - g->reserved[pe]) > 1e-6 * (1 + sum[pe]))
            bad = "reserved memory does not match the placed jobs";
        else if (g->p.mem_aware && !g->p.mem_global &&
                 g->reserved[pe] > g->cl->pes[pe].ram_mb + 1e-6)
            bad = "mem_aware placement overcommits a PE";
    }
    free(sum);
    if (bad)
        return bad;
    if ((bad = jobq_check(&g->queue)))
        return bad;
    if (g->in_system != g->queue.n + g->placed)
        return "jobs in system wrong";
    return NULL;
}

/* Free PEs of slot s (NULL: an empty new slot) with room for a thread of
 * mem MB (any room without mem_aware). */
static int pes_with_room(const gang_t *g, const slot_t *s, double mem)
{
    int k = 0;
    if (g->cpn > 1) {
        /* Node by node: its free cores, and under mem_aware no more than
         * its room holds (threads of one job on a node add up). */
        for (int node = 0; node < g->nnodes; node++) {
            int free = 0;
            for (int pe = node * g->cpn; pe < (node + 1) * g->cpn; pe++)
                free += !(s && s->pe_job[pe]);
            if (g->p.mem_aware && mem > 0) {
                double n = floor((nodes_room(GANG_NODES(g), node) + 1e-9) / mem);
                if (n < free)
                    free = n > 0 ? (int)n : 0;
            }
            k += free;
        }
        return k;
    }
    for (int pe = 0; pe < g->npes; pe++) {
        if (s && s->pe_job[pe])
            continue;
        if (g->p.mem_aware &&
            g->cl->pes[pe].ram_mb - g->reserved[pe] - g->cl->pes[pe].lent_mb + 1e-9 < mem)
            continue;
        k++;
    }
    return k;
}

/* True when j could be placed now: in an existing slot, or in a new one. */
static bool fits_now(const gang_t *g, const job_t *j)
{
    if (!gang_alloc_builtin(g)) {
        /* A plugin's allocation policy: its own answer, slot by slot. */
        double avail = 0;
        if (g->p.mem_global) {
            admit_view v = gang_admit_of(g);
            avail = admit_available(&v);
        }
        int *ids = xcalloc((size_t)j->threads, sizeof *ids);
        bool fits = false;
        for (int i = 0; i < g->nslots && !fits; i++)
            fits = g->slots[i]->nfree >= j->width &&
                   gang_alloc_fits(g, g->slots[i]->pe_job, j, ids, avail);
        if (!fits && (g->p.mpl == 0 || g->nslots < g->p.mpl))
            fits = gang_alloc_fits(g, NULL, j, ids, avail);
        free(ids);
        return fits;
    }
    if (g->p.mem_global) {
        /* The admission rule with the network RAM available now. */
        admit_view v = gang_admit_of(g);
        double avail = admit_available(&v), cost;
        int *ids = xcalloc((size_t)j->threads, sizeof *ids);
        bool fits = false;
        for (int i = 0; i < g->nslots && !fits; i++)
            fits = g->slots[i]->nfree >= j->width &&
                   gang_global_fit(g, g->slots[i]->pe_job, j, ids, avail, &cost);
        if (!fits && (g->p.mpl == 0 || g->nslots < g->p.mpl))
            fits = gang_global_fit(g, NULL, j, ids, avail, &cost);
        free(ids);
        return fits;
    }
    if (g->p.exclusive) {
        /* Whole nodes: the placement's own rule, slot by slot. */
        int *ids = xcalloc((size_t)j->threads, sizeof *ids);
        bool fits = false;
        for (int i = 0; i < g->nslots && !fits; i++)
            fits = gang_choose_nodes(GANG_NODES(g), g->slots[i]->pe_job, j, ids);
        if (!fits && (g->p.mpl == 0 || g->nslots < g->p.mpl))
            fits = gang_choose_nodes(GANG_NODES(g), NULL, j, ids);
        free(ids);
        return fits;
    }
    for (int i = 0; i < g->nslots; i++)
        if (pes_with_room(g, g->slots[i], j->mem_mb) >= j->threads)
            return true;
    if (g->p.mpl != 0 && g->nslots >= g->p.mpl)
        return false;
    return pes_with_room(g, NULL, j->mem_mb) >= j->threads;
}

/* Brute force over the whole queue with fits_now (no buckets). */
const char *gang_check_placement(const gang_t *g)
{
    static char msg[200];
    const job_t *bad = NULL;
    if (g->pass_pending)
        return NULL; /* a pass is due at this instant */
    if (g->policy) {
        /* Keyed orders and backfilling: the first job in priority order
         * (the head) must not fit; with no backfilling and no strict order,
         * no queued job may fit (as below). */
        const job_t *h = NULL;
        double hk = 0;
        for (const job_t *j = jobq_first(&g->queue); j; j = jobq_next(&g->queue, j)) {
            if (sched_limits_holds(j))
                continue; /* held by a per-user limit: not a candidate */
            /* The keys of the last pass: every queued job was in it (an
             * arrival asks for a pass), and a time-dependent order may
             * have changed since without any room appearing. */
            double k = j->prio_key;
            if (!h || k < hk || (k == hk && j->order < h->order)) {
                h = j;
                hk = k;
            }
        }
        if (h && fits_now(g, h))
            bad = h;
        if (!bad && !g->p.strict_order && !g->p.backfill->on_pass)
            for (const job_t *j = jobq_first(&g->queue); j && !bad; j = jobq_next(&g->queue, j))
                if (!sched_limits_holds(j) && fits_now(g, j))
                    bad = j;
    } else if (g->p.strict_order) {
        /* Only the head in priority order may start. */
        const job_t *h = jobq_head(&g->queue, g->p.priority->bucket);
        if (h && fits_now(g, h))
            bad = h;
    } else {
        for (const job_t *j = jobq_first(&g->queue); j && !bad; j = jobq_next(&g->queue, j))
            if (fits_now(g, j))
                bad = j;
    }
    if (!bad)
        return NULL;
    snprintf(msg, sizeof msg, "at %.17g queued job %ld (%d PEs, %g MB) fits but was not placed",
             g->sim->now, bad->id, bad->threads, bad->mem_mb);
    return msg;
}
