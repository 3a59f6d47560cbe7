/* sched/backfill.c: the placement pass for the priority functions and for
 * EASY and conservative backfilling (see backfill.h for the rules).
 *
 * Data structures (all reused from pass to pass: no allocation in steady
 * state once the arrays have grown to the largest queue and machine seen):
 *   q        the queued jobs of this pass, sorted by the priority key.
 *   run      at MPL 1, the placed jobs sorted by (expected end, trace
 *            order), kept up to date at every start and end (binary search
 *            and a move of at most r pointers), so a pass never sorts them.
 *   prof     one profile per slot (sched/bf_profile.h; existing slots, then the slots that may
 *            still be opened): steps (t[i], f[i]) meaning f[i] PEs are free
 *            from t[i] to t[i+1] (the last step to infinity; it always has
 *            every PE free). t[0] is now.
 *   resv     conservative at MPL 1 with a static order: the jobs reserved
 *            by the last pass but not started, with their reservations, in
 *            queue order; with pr[0] they are kept for the next pass when
 *            it can be proved that a rebuild would give the same
 *            (incremental), so a pass reserves only the jobs not reserved
 *            yet instead of the whole queue.
 *   bound    the dominance bound of the reservations made so far in a
 *            pass, where each search starts (bf_bound.h).
 *   stop     MPL 1: the stop test by width classes (bf_bound.h).
 */
#include "sched/backfill.h"
#include "sched/backfill_check.h"
#include "sched/bf_host.h"

#include "core/mem.h"
#include "sched/bf_bound.h"
#include "sched/bf_profile.h"
#include "sched/priority.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>


static void *grow(void *p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return p;
    size_t c = *cap ? *cap : 16;
    while (c < need)
        c *= 2;
    p = xrealloc(p, c * size);
    *cap = c;
    return p;
}

static const gang_policy bf_policy;

bf_t *bf_attach(gang_t *g)
{
    const gang_params *p = gang_get_params(g);
    if (p->priority->bucket != SCHED_BUCKET_NONE && !p->backfill->on_pass)
        return NULL;
    bf_t *b = xcalloc(1, sizeof *b);
    b->g = g;
    b->ostate = p->priority->create ? p->priority->create(&p->ctx) : NULL;
    b->rstate = p->backfill->create ? p->backfill->create(&p->ctx) : NULL;
    b->npes = gang_npes(g);
    b->epoch = 1;
    bfb_init(&b->bound, b->npes);
    bfs_init(&b->stop, b->npes);
    gang_set_policy(g, &bf_policy, b);
    return b;
}

bf_t *bf_of(const gang_t *g) { return gang_policy_ctx(g, &bf_policy); }

/* The policy's on_destroy: free b. */
static void bf_destroy(void *ctx)
{
    bf_t *b = ctx;
    const gang_params *p = gang_get_params(b->g);
    if (p->priority->destroy)
        p->priority->destroy(b->ostate);
    if (p->backfill->destroy)
        p->backfill->destroy(b->rstate);
    for (int i = 0; i < b->prcap; i++) {
        free(b->pr[i].t);
        free(b->pr[i].f);
        free(b->pr[i].m);
        free(b->pr[i].late);
    }
    free(b->pr);
    free(b->q);
    free(b->run);
    free(b->tmp);
    free(b->sufmin);
    bfs_free(&b->stop);
    free(b->resv);
    free(b->resv_t);
    free(b->mx);
    bfb_free(&b->bound);
    free(b);
}

void bf_get_stats(const bf_t *b, bf_stats *s) { *s = b->st; }

static bool mpl1(const bf_t *b) { return gang_get_params(b->g)->mpl == 1; }

/* Order of the run array: expected end, then trace order. */
static bool run_before(const job_t *a, const job_t *x)
{
    return a->bf_end < x->bf_end || (a->bf_end == x->bf_end && a->order < x->order);
}

/* First index of run whose job does not come before j. */
static size_t run_lower(const bf_t *b, const job_t *j)
{
    size_t lo = 0, hi = b->nrun;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (run_before(b->run[mid], j))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static double wall(const gang_t *g, double r);

/* MPL > 1: a new slot epoch whenever the number of slots has changed since
 * the last look. Slots appear only when a job is placed and disappear only
 * at job ends, each followed by a pass at that instant, so looking at every
 * placement and at the start of every pass sees every change. */
static void slot_epoch(bf_t *b)
{
    if (gang_slots(b->g) != b->seen_slots) {
        b->seen_slots = gang_slots(b->g);
        b->epoch++;
    }
}

/* The policy's on_placed: j was placed now (gang.c's place). */
static void bf_placed(void *ctx, job_t *j, double now)
{
    bf_t *b = ctx;
    const sched_reserve_ops *r = gang_get_params(b->g)->backfill;
    if (r->on_placed)
        r->on_placed(b->rstate, (const sched_job *)(void *)j, now);
    if (!mpl1(b)) {
        /* The bound of build_profiles, from the placement on. */
        slot_epoch(b);
        j->bf_end = now + wall(b->g, j->estimate);
        j->bf_epoch = b->epoch;
        return;
    }
    j->bf_end = now + j->estimate;
    b->run = grow(b->run, &b->runcap, b->nrun + 1, sizeof *b->run);
    size_t i = run_lower(b, j);
    memmove(b->run + i + 1, b->run + i, (b->nrun - i) * sizeof *b->run);
    b->run[i] = j;
    b->nrun++;
}

/* The policy's on_ended: placed job j ended (before it leaves its slot). */
static void bf_ended(void *ctx, job_t *j)
{
    bf_t *b = ctx;
    const sched_reserve_ops *r = gang_get_params(b->g)->backfill;
    if (r->on_ended)
        r->on_ended(b->rstate, (const sched_job *)(void *)j);
    if (!mpl1(b))
        return;
    /* A kept profile released j's PEs at its expected end (a zero-length
     * job's just after its start): an end anywhere else makes it stale.
     * (incremental's check of the PEs free now catches such ends too; this
     * is the cheap first guard.) */
    if (!(j->end == j->bf_end && j->bf_end > j->start))
        b->dirty = true;
    size_t i = run_lower(b, j);
    assert(i < b->nrun && b->run[i] == j);
    memmove(b->run + i, b->run + i + 1, (b->nrun - i - 1) * sizeof *b->run);
    b->nrun--;
}

/* ---- profiles ------------------------------------------------------------------ */

/* Profile k, emptied, with nfree PEs free now; real = its slot or -1. */
static prof_t *prof_reset(bf_t *b, int k, double now, int nfree, int real)
{
    if (k >= b->prcap) {
        int c = b->prcap ? 2 * b->prcap : 4;
        while (c <= k)
            c *= 2;
        b->pr = xrealloc(b->pr, (size_t)c * sizeof *b->pr);
        memset(b->pr + b->prcap, 0, (size_t)(c - b->prcap) * sizeof *b->pr);
        b->prcap = c;
    }
    prof_t *p = &b->pr[k];
    p->n = 0;
    p->real = real;
    prof_push(p, now, nfree, now, false);
    return p;
}

static int cmp_end(const void *a, const void *b)
{
    const job_t *x = *(job_t *const *)a, *y = *(job_t *const *)b;
    if (x->bf_end != y->bf_end)
        return x->bf_end < y->bf_end ? -1 : 1;
    return (x->order > y->order) - (x->order < y->order);
}

/* The number of slots wall() counts with (at least 1). */
static int wall_slots(const gang_t *g) { return gang_slots(g) > 1 ? gang_slots(g) : 1; }

/* Wall time expected for r seconds of work at MPL > 1, with m slots
 * sharing the PEs in turns of quantum q of which pcs is lost to the
 * context switch: the job's slot comes round within (m - 1) q, and each of
 * its turns does q - pcs of work, so r > 0 takes at most
 * m q ceil(r / (q - pcs)) + q (the + q: the turn under way when it is
 * placed), and r <= 0 (a zero-length job, or one done by its estimate) at
 * most (m - 1) q, until its slot comes round. An upper bound, so that a
 * reservation holds while the number of slots stays the same and no job
 * moves (docs/SCHEDULING.md). At MPL 1 it is r itself (0 if r < 0). */
static double wall(const gang_t *g, double r)
{
    const gang_params *gp = gang_get_params(g);
    if (gp->mpl == 1)
        return r > 0 ? r : 0;
    int m = wall_slots(g);
    if (r <= 0)
        return (m - 1) * gp->quantum;
    double q = gp->quantum, useful = gp->quantum - gp->pcs;
    if (!(useful > 0))
        return INFINITY;
    return m * q * ceil(r / useful) + q;
}

/* Build the profiles of the existing slots and of nvirt slots that may
 * still be opened; returns how many. chain: how many reservations the
 * pass may make in them (the late steps come after the steps they may add
 * that keep the moment now: release_placed). */
static int build_profiles(bf_t *b, gang_t *g, double now, int nvirt, size_t chain)
{
    double after = nextafter(now, INFINITY);
    int ns = gang_slots(g);
    b->stale = false;
    if (mpl1(b)) {
        assert(ns <= 1);
        if (ns == 1) {
            prof_t *p = prof_reset(b, 0, now, gang_slot_nfree(g, 0), 0);
            release_placed(p, b->run, b->nrun, now, now, chain);
        }
    } else {
        for (int s = 0; s < ns; s++) {
            prof_t *p = prof_reset(b, s, now, gang_slot_nfree(g, s), s);
            size_t k = 0;
            b->tmp = grow(b->tmp, &b->tmpcap, (size_t)b->npes, sizeof *b->tmp);
            for (int pe = 0; pe < b->npes; pe++) {
                job_t *j = gang_slot_job(g, s, pe);
                if (!j || j->pe_ids[0] != pe)
                    continue;
                double done = j->th ? j->th[0].cpu_done : 0;
                double e = now + wall(g, j->estimate - done);
                /* A bound found earlier in this slot epoch (the number of
                 * slots unchanged since) still holds: keep the earlier, so
                 * that expected ends never move later within an epoch. */
                if (j->bf_epoch == b->epoch && j->bf_end < e)
                    e = j->bf_end;
                j->bf_epoch = b->epoch;
                j->bf_end = e > now ? e : after;
                b->tmp[k++] = j;
            }
            qsort(b->tmp, k, sizeof *b->tmp, cmp_end);
            release_placed(p, b->tmp, k, now, after, chain); /* after: e <= now above */
        }
    }
    for (int v = 0; v < nvirt; v++)
        prof_reset(b, ns + v, now, b->npes, -1);
    b->npr = ns + nvirt;
    return b->npr;
}

/* Slots that may still be opened (one stands for any number when the MPL
 * is unlimited). */
static int virtual_slots(const gang_t *g)
{
    int mpl = gang_get_params(g)->mpl, ns = gang_slots(g);
    return mpl == 0 ? 1 : mpl - ns;
}

/* ---- the modes -------------------------------------------------------------------- */

void bf_easy(bf_t *b, gang_t *g, size_t n, double now)
{
    size_t i = 0;
    while (i < n && gang_place_where(g, b->q[i], -1, -1, true))
        i++;
    if (i == n)
        return;
    job_t *h = b->q[i];
    int np = build_profiles(b, g, now, virtual_slots(g) > 0 ? 1 : 0, 0);
    int r = -1, extra = 0;
    double S = INFINITY;
    for (int k = 0; k < np; k++) {
        prof_t *p = &b->pr[k];
        int s = 0;
        while (p->f[s] < h->width)
            s++; /* the last step has every PE free */
        if (p->t[s] < S) {
            S = p->t[s];
            r = k;
            extra = p->f[s] - h->width;
        }
    }
    assert(r >= 0);
    if (h->bf_first_res < 0)
        h->bf_first_res = S;
    if (h->bf_head_res < 0)
        h->bf_head_res = S;
    for (size_t k = i + 1; k < n; k++) {
        job_t *j = b->q[k];
        bool rnew = r == gang_slots(g); /* the reserved slot is not open yet */
        if (now + wall(g, j->estimate) <= S) {
            gang_place_where(g, j, -1, -1, rnew);
        } else if (!gang_place_where(g, j, -1, r, false) && j->width <= extra &&
                   gang_place_where(g, j, r, -1, rnew)) {
            extra -= j->width;
        }
    }
}

/* Place j, whose earliest start in profile `best` is now, now: in best's
 * slot (a slot not open yet: a new one). When memory refuses it there, in
 * the first other profile where it fits now for its whole estimate d (a
 * slot of its own, or a new slot, tried once: every new slot is empty),
 * so that a job that fits somewhere now is placed (gang_check_placement;
 * docs/SCHEDULING.md, mem_aware). Returns the profile it was placed by (best when
 * none), *placed, and *opened when a new slot was opened (its profile's
 * real set). */
static int place_now(bf_t *b, gang_t *g, job_t *j, int best, double d, bool *placed,
                     bool *opened)
{
    bool new_tried = false;
    for (int k = best, o = -1; o < b->npr; k = ++o) {
        prof_t *p = &b->pr[k];
        if (o >= 0) {
            long long scratch = 0; /* not counted in the pass's statistics */
            if (k == best || (p->real < 0 && new_tried) ||
                prof_earliest(p, 0, j->width, d, &scratch) != 0)
                continue;
        }
        if (p->real >= 0) {
            *placed = gang_place_where(g, j, p->real, -1, false);
        } else {
            new_tried = true;
            *placed = *opened = gang_place_where(g, j, gang_slots(g), -1, true);
            if (*placed)
                p->real = gang_slots(g) - 1;
        }
        if (*placed || !gang_get_params(g)->mem_aware)
            return k;
    }
    return best;
}

/* The max tree of the profiles' free PEs now (stale profiles): build it
 * over pr[0..npr) (O(npr)). */
static void mx_build(bf_t *b)
{
    int c = 1;
    while (c < b->npr)
        c *= 2;
    c *= 2; /* room to append profiles (lazy_open) */
    if (2 * c > b->mxcap) {
        b->mx = xrealloc(b->mx, 2 * (size_t)c * sizeof *b->mx);
        b->mxcap = 2 * c;
    }
    b->mxn = c;
    for (int k = 0; k < c; k++)
        b->mx[c + k] = k < b->npr ? b->pr[k].f[0] : -1;
    for (int i = c - 1; i > 0; i--)
        b->mx[i] = b->mx[2 * i] > b->mx[2 * i + 1] ? b->mx[2 * i] : b->mx[2 * i + 1];
}

/* Profile k's free PEs now changed, or profile k was added: O(log npr). */
static void mx_set(bf_t *b, int k)
{
    if (k >= b->mxn) {
        mx_build(b);
        return;
    }
    int i = b->mxn + k;
    b->mx[i] = b->pr[k].f[0];
    for (i /= 2; i > 0; i /= 2)
        b->mx[i] = b->mx[2 * i] > b->mx[2 * i + 1] ? b->mx[2 * i] : b->mx[2 * i + 1];
}

/* The lowest profile with at least w PEs free now, or -1: O(log npr). */
static int mx_lowest(const bf_t *b, int w)
{
    if (b->mx[1] < w)
        return -1;
    int i = 1;
    while (i < b->mxn)
        i = b->mx[2 * i] >= w ? 2 * i : 2 * i + 1;
    return i - b->mxn;
}

/* MPL > 1: job j has just opened slot gang_slots(g) - 1 through profile
 * `best`, and every job this run of reserve_from has reserved was
 * reserved now and placed. Then the profiles need not be rebuilt: since
 * their last build every reservation was at now, so each profile's free
 * PEs never decrease with time, and whether a job fits in it now for its
 * whole estimate (the only question a search can answer with "now")
 * depends on its free PEs now alone, which are exact. The rebuild would
 * only move the later steps (the ends counted with one slot more) and
 * give the new slot its own profile and a fresh one for the slots not
 * opened yet, which is what this does. reserve_from asks for the rebuild
 * (restart) before any job that would not be placed now (its search then
 * looks at the later steps), and conservative rebuilds once at the end
 * (placed jobs' expected ends, as the rebuild at the last opening would
 * have set them). Not done while one slot or none is open (with one slot
 * wall() may be 0, and a rebuild then moves an expected end of now to just
 * after now), nor where now + wall(0) rounds to now. Returns false (do the
 * rebuild) when it cannot skip it. */
static bool lazy_open(bf_t *b, gang_t *g, int best, double now)
{
    int ns = gang_slots(g);
    if (b->plain_search || ns < 2 || best != ns - 1 || b->pr[best].real != ns - 1 ||
        !(now + wall(g, 0) > now))
        return false;
    int want = ns + virtual_slots(g), had = b->npr;
    for (int k = best + 1; k < b->npr; k++)
        if (b->pr[k].real >= 0 || b->pr[k].n != 1 || b->pr[k].f[0] != b->npes)
            return false; /* not the fresh profiles of slots not opened */
    if (b->npr > want)
        return false;
    while (b->npr < want) {
        prof_reset(b, b->npr, now, b->npes, -1);
        b->npr++;
    }
    if (!b->stale)
        mx_build(b);
    else
        for (int k = had; k < b->npr; k++)
            mx_set(b, k);
    b->stale = true;
    b->st.lazy_opens++;
    return true;
}

/* The stop test by classes starts after this many reservations. */
#define STOP_AFTER 32

/* Reserve q[from..n) in order in the profiles (built, or kept from the
 * last pass), placing each job whose reservation is now, until no
 * remaining job could start now. Jobs reserved but not started are appended
 * to resv when keep. Returns false if a job reserved now could not be
 * placed (memory). */
static bool reserve_from(bf_t *b, gang_t *g, size_t from, size_t n, bool keep)
{
    int np = b->npr;
    b->sufmin = grow(b->sufmin, &b->sufcap, n + 1, sizeof *b->sufmin);
    b->sufmin[n] = b->npes + 1;
    for (size_t i = n; i-- > from;) {
        int w = b->q[i]->queued ? b->q[i]->width : b->npes + 1;
        b->sufmin[i] = w < b->sufmin[i + 1] ? w : b->sufmin[i + 1];
    }
    /* MPL 1: the stop test by width classes (bf_bound.h), from the
     * STOP_AFTER-th reservation of the pass on (most passes reserve a few
     * jobs: its O(q) table would cost more than it saves), every
     * BFS_STRIDE jobs from base. */
    bool eligible = np == 1 && mpl1(b) && !b->plain_search, classes = false;
    size_t base = from;
    if (keep) {
        b->resv = grow(b->resv, &b->resvcap, b->nresv + (n - from), sizeof *b->resv);
        b->resv_t = grow(b->resv_t, &b->resvtcap, b->nresv + (n - from), sizeof *b->resv_t);
    }
    long reserved = 0;
    bool all_placed = true;
    bool clean = true; /* every job reserved so far was placed now */
    bfb_clear(&b->bound); /* the bounds hold within one run of reservations */
    /* The last reservation, recorded in the bound only when another job is
     * searched (a kept pass often reserves one job: no record then). */
    bool pending = false;
    int pend_n = 0;
    double pend_d = 0, pend_t = 0;
    for (size_t i = from; i < n; i++) {
        if (ev_stop_flag)
            break; /* interrupted: the run ends, its results are partial */
        /* Stop once no remaining job could start now. */
        int now_free = 0;
        if (b->stale)
            now_free = b->mx[1];
        else
            for (int k = 0; k < np; k++)
                if (b->pr[k].f[0] > now_free)
                    now_free = b->pr[k].f[0];
        if (now_free < b->sufmin[i])
            break;
        if (eligible && !classes && reserved >= STOP_AFTER) {
            classes = true;
            base = i;
            bfs_jobs(&b->stop, b->q + base, n - base);
            bfs_profile(&b->stop, b->pr[0].t, b->pr[0].f, b->pr[0].n);
        }
        if (classes && (i - base) % BFS_STRIDE == 0 &&
            !bfs_may_start(&b->stop, b->pr[0].t[0], (i - base) / BFS_STRIDE))
            break;
        job_t *j = b->q[i];
        if (!j->queued)
            continue; /* placed before a restart (MPL > 1) */
        double d = wall(g, j->estimate);
        /* No start before the latest reservation of an earlier job of this
         * run no wider and no longer (bf_bound.h). */
        if (pending)
            bfb_record(&b->bound, pend_n, pend_d, pend_t);
        pending = false;
        double lb = b->plain_search ? -INFINITY : bfb_bound(&b->bound, j->width, d);
        int best = -1, bs = 0;
        double bt = INFINITY;
        if (b->stale) {
            /* Every profile's free PEs never decrease with time (lazy_open):
             * the earliest start is now in the lowest profile with w PEs
             * free now, if any; else the stale later steps would decide. */
            best = mx_lowest(b, j->width);
            if (best < 0) {
                b->restart = true;
                break;
            }
            bt = b->pr[best].t[0];
        }
        for (int k = 0; k < np && !b->stale; k++) {
            prof_t *pk = &b->pr[k];
            int at = lb > pk->t[0] ? prof_at(pk, lb) : 0;
            assert(at < pk->n); /* the last step fits, so it is >= lb */
            int s = prof_earliest(pk, at, j->width, d, &b->st.visited_sum);
#ifndef NDEBUG
            if (b->check_bound) { /* tests: the bound never changes a start */
                long long scratch = 0;
                assert(s == prof_earliest(pk, 0, j->width, d, &scratch));
            }
#endif
            if (b->pr[k].t[s] < bt) {
                bt = b->pr[k].t[s];
                best = k;
                bs = s;
            }
        }
        /* Reserved now: placed now, in the slot of its profile or, when
         * memory refuses it there, in another that fits it now. */
        bool placed = false, opened = false;
        if (bs == 0)
            best = place_now(b, g, j, best, d, &placed, &opened);
        if (b->stale && !(bs == 0 && placed)) {
            /* Stale profiles (lazy_open) cannot say where j goes: rebuild
             * and search again (the same failed placements are tried
             * again; they change nothing). */
            b->restart = true;
            break;
        }
        clean &= bs == 0 && placed;
        prof_t *p = &b->pr[best];
        int last = prof_reserve(p, bs, j->width, d);
        if (b->stale)
            mx_set(b, best); /* bs == 0 */
        if (classes)
            bfs_lower(&b->stop, p->t, p->f, bs, last);
        if (!b->plain_search && bt > lb) { /* else: no new bound */
            pending = true;
            pend_n = j->width;
            pend_d = d;
            pend_t = bt;
        }
        reserved++;
        if (j->bf_first_res < 0)
            j->bf_first_res = bt;
        if (bs == 0) {
            if (opened && !mpl1(b)) {
                /* A new slot: every expected end counts the slots, so
                 * the profiles are stale; the caller rebuilds them,
                 * unless nothing can tell (lazy_open). */
                if (!clean || !lazy_open(b, g, best, b->pr[0].t[0])) {
                    b->restart = true;
                    break;
                }
                np = b->npr;
            }
            all_placed &= placed;
        }
        if (!placed && !b->head_seen) {
            b->head_seen = true;
            if (j->bf_head_res < 0)
                j->bf_head_res = bt;
        }
        if (keep && !placed) {
            b->resv[b->nresv] = j;
            b->resv_t[b->nresv++] = bt;
        }
    }
    b->st.reserved_sum += reserved;
    if (reserved > b->st.reserved_max)
        b->st.reserved_max = reserved;
    for (int k = 0; k < np; k++)
        b->st.steps_sum += b->pr[k].n;
    return all_placed;
}

/* Whether the reservations of the last pass may be kept: conservative, MPL
 * 1, an order whose keys do not change with time (not WFP3, UNICEP). */
static bool keepable(const bf_t *b, const gang_t *g)
{
    unsigned fl = gang_get_params(g)->priority->flags;
    return mpl1(b) && !(fl & SCHED_ORDER_TIME_DEPENDENT) && !b->rebuild_always;
}

/* The incremental pass: when nothing happened since the last pass but
 * time passing, jobs starting at their reservations, jobs ending exactly at
 * their expected ends and arrivals that come after every reserved job in
 * the queue order, a rebuild would give every reserved job the reservation
 * it has (the same profile, the same jobs in the same order, earliest
 * starts taken in the same order). So the kept profile is moved to now,
 * the jobs reserved for now start, and only the jobs not reserved yet are
 * reserved. Returns false, having changed nothing, when the kept state
 * cannot be proved equal to a rebuild; the caller then rebuilds. */
static bool incremental(bf_t *b, gang_t *g, size_t n, double now)
{
    prof_t *p = &b->pr[0];
    if (!b->kept || b->dirty || gang_slots(g) != 1 || b->npr != 1 || p->real != 0)
        return false;
    if (b->nrun > 0 && !(b->run[0]->bf_end > now))
        return false; /* a running job is due now or outlived its estimate */
    if (b->nresv > n)
        return false;
    int starting = 0; /* threads of the jobs reserved for now */
    for (size_t i = 0; i < b->nresv; i++) {
        if (b->q[i] != b->resv[i] || b->resv_t[i] < now)
            return false; /* an arrival came before a reserved job, or a
                           * job missed its reservation */
        if (b->resv_t[i] == now)
            starting += b->resv[i]->width;
    }
    int z = 0;
    while (z + 1 < p->n && p->t[z + 1] <= now)
        z++;
    if ((p->t[z] == now && p->m[z] != now) || p->f[z] + starting != gang_slot_nfree(g, 0))
        return false; /* not the profile a rebuild would start from */
    /* Move the profile to now: the steps before now go. */
    if (z > 0) {
        size_t m = (size_t)(p->n - z);
        memmove(p->t, p->t + z, m * sizeof *p->t);
        memmove(p->f, p->f + z, m * sizeof *p->f);
        memmove(p->m, p->m + z, m * sizeof *p->m);
        p->n -= z;
    }
    p->t[0] = p->m[0] = now;
    /* The jobs reserved for now start, in queue order. */
    bool all_placed = true;
    size_t k = 0;
    for (size_t i = 0; i < b->nresv; i++) {
        job_t *j = b->resv[i];
        if (b->resv_t[i] == now && gang_place_where(g, j, 0, -1, false))
            continue;
        all_placed &= b->resv_t[i] != now;
        b->resv[k] = j;
        b->resv_t[k++] = b->resv_t[i];
    }
    size_t from = b->nresv;
    b->nresv = k;
    if (k > 0) {
        b->head_seen = true;
        if (b->resv[0]->bf_head_res < 0)
            b->resv[0]->bf_head_res = b->resv_t[0];
    }
    all_placed &= reserve_from(b, g, from, n, true);
    b->st.kept_passes++;
    b->kept = all_placed;
    return true;
}

void bf_conservative(bf_t *b, gang_t *g, size_t n, double now)
{
    bool keep = keepable(b, g);
    b->head_seen = false;
    if (keep && incremental(b, g, n, now)) {
        b->dirty = false;
        return;
    }
    build_profiles(b, g, now, virtual_slots(g), n);
    long builds = 1;
    b->nresv = 0;
    b->restart = false;
    bool all_placed = reserve_from(b, g, 0, n, keep);
    while (b->restart) {
        /* MPL > 1: a job opened a slot. The reservations made so far
         * counted one slot fewer: build the profiles again (the jobs placed
         * are in them now) and reserve the queued jobs again. */
        assert(!mpl1(b) && !keep);
        b->restart = false;
        b->head_seen = false;
        build_profiles(b, g, now, virtual_slots(g), n);
        builds++;
        all_placed &= reserve_from(b, g, 0, n, false);
    }
    if (b->stale) { /* set the expected ends as the last rebuild would have */
        build_profiles(b, g, now, virtual_slots(g), n);
        builds++;
    }
    if (builds > b->st.builds_max)
        b->st.builds_max = builds;
    b->kept = keep && all_placed && gang_slots(g) == 1 && b->npr == 1 && b->pr[0].real == 0;
    b->dirty = false;
}

/* The policy's on_pass: one placement pass at now. */
static void bf_pass(void *ctx, gang_t *g, double now)
{
    bf_t *b = ctx;
    const gang_params *gp = gang_get_params(g);
    size_t n = (size_t)gang_queued(g);
    b->q = grow(b->q, &b->qcap, n + 1, sizeof *b->q);
    size_t k = 0;
    for (job_t *j = gang_queue_first(g); j; j = gang_queue_next(g, j))
        b->q[k++] = j;
    assert(k == n);
    b->st.passes++;
    if (!mpl1(b))
        slot_epoch(b);
    b->st.queued_sum += (long long)n;
    if ((long)n > b->st.queued_max)
        b->st.queued_max = (long)n;
    prio_sort(b->q, n, gp->priority, b->ostate, now);
    if (gp->backfill->on_pass) /* EASY, CONSERVATIVE, a plugin's */
        gp->backfill->on_pass(b->rstate, b, (sched_job *const *)(void *)b->q, n, now);
    else /* NONE: in order (strict_order: up to the first that does not fit) */
        for (size_t i = 0; i < n; i++)
            if (!gang_place_where(g, b->q[i], -1, -1, true) && gp->strict_order)
                break;
}

int bf_profiles(bf_t *b, double now)
{
    return build_profiles(b, b->g, now, virtual_slots(b->g) > 0 ? 1 : 0, 0);
}

static const gang_policy bf_policy = {
    .on_pass = bf_pass,
    .on_placed = bf_placed,
    .on_ended = bf_ended,
    .on_destroy = bf_destroy,
};

void bf_set_rebuild_always(bf_t *b, bool on)
{
    b->rebuild_always = on;
    b->kept = false;
}

void bf_set_plain_search(bf_t *b, bool on) { b->plain_search = on; }

void bf_set_check_bound(bf_t *b, bool on) { b->check_bound = on; }
