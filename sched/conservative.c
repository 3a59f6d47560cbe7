/* sched/conservative.c: conservative backfilling, the built-in
 * reservation policy CONSERVATIVE (backfill.h states its rules), written
 * against the public interface only (sched/reserve.h, sched/profile.h,
 * sched/reserve_bound.h), as a plugin's would be.
 *
 * Every queued job in order gets the earliest start at which it fits for
 * its whole estimate in the profiles of free cores that the host builds
 * (sched_host_build_profiles), and that space is reserved; jobs whose
 * start is now start. Where reservations hold memory (MPL 1 under
 * mem_aware, sched_host_mem_reserves), a job's reservation is also a
 * concrete placement in the host's plan (sched/bf_plan.c): the first step
 * where it fits by cores and fits the plan, so that a job started now
 * takes no core or memory a reservation needs. Its state, kept from pass
 * to pass (no allocation in steady state once the arrays have grown to
 * the largest queue and machine seen):
 *   ps       the profiles (sched/profile.h; open slots, then the slots
 *            that may still be opened).
 *   resv     at MPL 1 with a static order: the jobs reserved by the last
 *            pass but not started, with their reservations, in queue
 *            order; with ps.pr[0] they are kept for the next pass when it
 *            can be proved that a rebuild would give the same
 *            (incremental), so a pass reserves only the jobs not reserved
 *            yet instead of the whole queue.
 *   bound    the dominance bound of the reservations made so far in a
 *            pass, where each search starts (reserve_bound.h).
 *   stop     MPL 1: the stop test by width classes (reserve_bound.h).
 *   mx       while the profiles are stale (lazy_open): a max tree of
 *            their free cores now.
 */
#include "sched/reserve.h"
#include "sched/profile.h"
#include "sched/reserve_bound.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct cons {
    int npes;               /* 0 until the first pass */
    sched_job *const *q;    /* this pass's queue, in queue order */
    bool plain;             /* SCHED_HOOK_PLAIN_SEARCH this pass */
    sched_profiles ps;
    int *sufmin;            /* narrowest job in q[i..] */
    size_t sufcap;
    sched_stop stop;
    sched_bound bound;
    bool kept;              /* ps.pr[0] and resv are what a rebuild would give */
    bool dirty;             /* a job ended off its expected end since */
    bool head_seen;         /* this pass has met its head */
    bool memres;            /* this pass's reservations hold memory (MPL 1,
                             * mem_aware): the host's plan */
    bool restart;           /* MPL > 1: a slot was opened, rebuild the profiles */
    bool stale;             /* MPL > 1: slots were opened without a rebuild
                             * (reserve_from, lazy_open): the profiles' free
                             * cores now are exact, their later steps are not */
    int *mx;                /* while stale: leaves mx[mxn + k] = ps.pr[k].f[0] */
    int mxn, mxcap;
    sched_job **resv;       /* reserved queued jobs, in queue order */
    double *resv_t;         /* their reserved starts */
    size_t nresv, resvcap, resvtcap;
} cons;

static void *xgrow(void *p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return p;
    size_t c = *cap ? *cap : 16;
    while (c < need)
        c *= 2;
    p = realloc(p, c * size);
    if (!p)
        abort();
    *cap = c;
    return p;
}

static void *cons_create(const pnrsim_ctx *ctx)
{
    (void)ctx;
    cons *c = calloc(1, sizeof *c);
    if (!c)
        abort();
    return c;
}

static void cons_destroy(void *state)
{
    cons *c = state;
    sched_profiles_free(&c->ps);
    free(c->sufmin);
    if (c->npes) {
        sched_stop_free(&c->stop);
        sched_bound_free(&c->bound);
    }
    free(c->resv);
    free(c->resv_t);
    free(c->mx);
    free(c);
}

/* A job ended: at MPL 1 a kept profile released its cores at its expected
 * end (a zero-length job's just after its start): an end anywhere else
 * makes it stale. (incremental's check of the cores free now catches such
 * ends too; this is the cheap first guard.) */
static void cons_ended(void *state, sched_host *h, const sched_job *j)
{
    cons *c = state;
    if (sched_host_mpl(h) != 1)
        return;
    double e = sched_job_expected_end(j);
    if (!(sched_job_end(j) == e && e > sched_job_start(j)))
        c->dirty = true;
}

/* Build the profiles (fresh: not stale). */
static int build(cons *c, sched_host *h, double now, int unopened, size_t chain)
{
    c->stale = false;
    return sched_host_build_profiles(h, now, unopened, chain, &c->ps);
}

/* Place j, whose earliest start in profile `best` is now, now: in best's
 * slot (a slot not open yet: a new one). When memory refuses it there, in
 * the first other profile where it fits now for its whole estimate d (a
 * slot of its own, or a new slot, tried once: every new slot is empty),
 * so that a job that fits somewhere now is placed (gang_check_placement;
 * docs/SCHEDULING.md, mem_aware). Returns the profile it was placed by (best when
 * none), *placed, and *opened when a new slot was opened (its profile's
 * real set). */
static int place_now(cons *c, sched_host *h, sched_job *j, int best, double d, bool *placed,
                     bool *opened)
{
    int w = sched_job_width(j);
    bool new_tried = false;
    for (int k = best, o = -1; o < c->ps.n; k = ++o) {
        sched_prof *p = &c->ps.pr[k];
        if (o >= 0) {
            long long scratch = 0; /* not counted in the pass's statistics */
            if (k == best || (p->real < 0 && new_tried) ||
                sched_prof_earliest(p, 0, w, d, &scratch) != 0)
                continue;
        }
        if (p->real >= 0) {
            *placed = sched_host_place(h, j, p->real, -1, false);
        } else {
            new_tried = true;
            *placed = *opened = sched_host_place(h, j, sched_host_slots(h), -1, true);
            if (*placed)
                p->real = sched_host_slots(h) - 1;
        }
        if (*placed || !sched_host_mem_aware(h))
            return k;
    }
    return best;
}

/* The max tree of the profiles' free PEs now (stale profiles): build it
 * over pr[0..npr) (O(npr)). */
static void mx_build(cons *c)
{
    int m = 1;
    while (m < c->ps.n)
        m *= 2;
    m *= 2; /* room to append profiles (lazy_open) */
    if (2 * m > c->mxcap) {
        c->mx = realloc(c->mx, 2 * (size_t)m * sizeof *c->mx);
        if (!c->mx)
            abort();
        c->mxcap = 2 * m;
    }
    c->mxn = m;
    for (int k = 0; k < m; k++)
        c->mx[m + k] = k < c->ps.n ? c->ps.pr[k].f[0] : -1;
    for (int i = m - 1; i > 0; i--)
        c->mx[i] = c->mx[2 * i] > c->mx[2 * i + 1] ? c->mx[2 * i] : c->mx[2 * i + 1];
}

/* Profile k's free PEs now changed, or profile k was added: O(log npr). */
static void mx_set(cons *c, int k)
{
    if (k >= c->mxn) {
        mx_build(c);
        return;
    }
    int i = c->mxn + k;
    c->mx[i] = c->ps.pr[k].f[0];
    for (i /= 2; i > 0; i /= 2)
        c->mx[i] = c->mx[2 * i] > c->mx[2 * i + 1] ? c->mx[2 * i] : c->mx[2 * i + 1];
}

/* The lowest profile with at least w PEs free now, or -1: O(log npr). */
static int mx_lowest(const cons *c, int w)
{
    if (c->mx[1] < w)
        return -1;
    int i = 1;
    while (i < c->mxn)
        i = c->mx[2 * i] >= w ? 2 * i : 2 * i + 1;
    return i - c->mxn;
}

/* MPL > 1: job j has just opened slot sched_host_slots(h) - 1 through profile
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
static bool lazy_open(cons *c, sched_host *h, int best, double now)
{
    int ns = sched_host_slots(h);
    if (c->plain || ns < 2 || best != ns - 1 || c->ps.pr[best].real != ns - 1 ||
        !(now + sched_host_wall(h, 0) > now))
        return false;
    int want = ns + sched_host_unopened(h), had = c->ps.n;
    for (int k = best + 1; k < c->ps.n; k++)
        if (c->ps.pr[k].real >= 0 || c->ps.pr[k].n != 1 || c->ps.pr[k].f[0] != c->npes)
            return false; /* not the fresh profiles of slots not opened */
    if (c->ps.n > want)
        return false;
    while (c->ps.n < want) {
        sched_profiles_reset(&c->ps, c->ps.n, now, c->npes, -1);
        c->ps.n++;
    }
    if (!c->stale)
        mx_build(c);
    else
        for (int k = had; k < c->ps.n; k++)
            mx_set(c, k);
    c->stale = true;
    sched_host_stats(h)->lazy_opens++;
    return true;
}

/* Reservations that hold memory (MPL 1, mem_aware; docs/SCHEDULING.md
 * "Reservations that hold memory"): the first step at or after step
 * `from` of profile p at which j (w cores, d seconds) fits by cores for
 * its whole estimate and fits the host's plan (sched_host_plan_fits: by
 * cores and memory on the machine as expected then, every later
 * reservation of the plan still placed at its start beside it); -1 when
 * none does (a job only network RAM can admit). Steps examined are not counted in the pass's
 * statistics. */
static int plan_earliest(sched_host *h, const sched_prof *p, int from, sched_job *j, int w,
                         double d)
{
    long long scratch = 0;
    for (int s = from; s < p->n; s++) {
        s = sched_prof_earliest(p, s, w, d, &scratch);
        if (sched_host_plan_fits(h, j, p->t[s], d))
            return s;
    }
    return -1;
}

/* The stop test by classes starts after this many reservations. */
#define STOP_AFTER 32

/* Reserve q[from..n) in order in the profiles (built, or kept from the
 * last pass), placing each job whose reservation is now, until no
 * remaining job could start now. Jobs reserved but not started are appended
 * to resv when keep. Returns false if a job reserved now could not be
 * placed (memory). */
static bool reserve_from(cons *c, sched_host *h, size_t from, size_t n, bool keep)
{
    int np = c->ps.n;
    c->sufmin = xgrow(c->sufmin, &c->sufcap, n + 1, sizeof *c->sufmin);
    c->sufmin[n] = c->npes + 1;
    for (size_t i = n; i-- > from;) {
        int w = sched_job_waiting(c->q[i]) ? sched_job_width(c->q[i]) : c->npes + 1;
        c->sufmin[i] = w < c->sufmin[i + 1] ? w : c->sufmin[i + 1];
    }
    /* MPL 1: the stop test by width classes (reserve_bound.h), from the
     * STOP_AFTER-th reservation of the pass on (most passes reserve a few
     * jobs: its O(q) table would cost more than it saves), every
     * SCHED_STOP_STRIDE jobs from base. */
    bool eligible = np == 1 && sched_host_mpl(h) == 1 && !c->plain, classes = false;
    size_t base = from;
    if (keep) {
        c->resv = xgrow(c->resv, &c->resvcap, c->nresv + (n - from), sizeof *c->resv);
        c->resv_t = xgrow(c->resv_t, &c->resvtcap, c->nresv + (n - from), sizeof *c->resv_t);
    }
    long reserved = 0;
    /* scheduler.reservations: at most `depth` jobs that cannot start now
     * hold a reservation (0: all); once that many do, a later job is
     * placed only where it starts now for its whole estimate beside them,
     * and gets no reservation otherwise (Maui's RESERVATIONDEPTH). */
    int depth = sched_host_reservations(h), held = 0;
    bool all_placed = true;
    bool clean = true; /* every job reserved so far was placed now */
    sched_bound_clear(&c->bound); /* the bounds hold within one run of reservations */
    /* The last reservation, recorded in the bound only when another job is
     * searched (a kept pass often reserves one job: no record then). */
    bool pending = false;
    int pend_n = 0;
    double pend_d = 0, pend_t = 0;
    for (size_t i = from; i < n; i++) {
        if (sched_host_interrupted(h))
            break; /* interrupted: the run ends, its results are partial */
        /* Stop once no remaining job could start now. */
        int now_free = 0;
        if (c->stale)
            now_free = c->mx[1];
        else
            for (int k = 0; k < np; k++)
                if (c->ps.pr[k].f[0] > now_free)
                    now_free = c->ps.pr[k].f[0];
        if (now_free < c->sufmin[i])
            break;
        if (eligible && !classes && reserved >= STOP_AFTER) {
            classes = true;
            base = i;
            sched_stop_jobs(&c->stop, c->q + base, n - base);
            sched_stop_profile(&c->stop, c->ps.pr[0].t, c->ps.pr[0].f, c->ps.pr[0].n);
        }
        if (classes && (i - base) % SCHED_STOP_STRIDE == 0 &&
            !sched_stop_may_start(&c->stop, c->ps.pr[0].t[0], (i - base) / SCHED_STOP_STRIDE))
            break;
        sched_job *j = c->q[i];
        if (!sched_job_waiting(j))
            continue; /* placed before a restart (MPL > 1) */
        int w = sched_job_width(j);
        double d = sched_host_wall(h, sched_job_estimate(j));
        /* No start before the latest reservation of an earlier job of this
         * run no wider and no longer (reserve_bound.h). */
        if (pending)
            sched_bound_record(&c->bound, pend_n, pend_d, pend_t);
        pending = false;
        double lb = c->plain ? -INFINITY : sched_bound_bound(&c->bound, w, d);
        int best = -1, bs = 0;
        double bt = INFINITY;
        if (c->stale) {
            /* Every profile's free PEs never decrease with time (lazy_open):
             * the earliest start is now in the lowest profile with w PEs
             * free now, if any; else the stale later steps would decide. */
            best = mx_lowest(c, w);
            if (best < 0) {
                c->restart = true;
                break;
            }
            bt = c->ps.pr[best].t[0];
        }
        for (int k = 0; k < np && !c->stale; k++) {
            sched_prof *pk = &c->ps.pr[k];
            int at = lb > pk->t[0] ? sched_prof_at(pk, lb) : 0;
            assert(at < pk->n); /* the last step fits, so it is >= lb */
            int s = sched_prof_earliest(pk, at, w, d, &sched_host_stats(h)->visited_sum);
#ifndef NDEBUG
            if ((sched_host_hooks(h) & SCHED_HOOK_CHECK_BOUND)) { /* tests: the bound never changes a start */
                long long scratch = 0;
                assert(s == sched_prof_earliest(pk, 0, w, d, &scratch));
            }
#endif
            if (c->ps.pr[k].t[s] < bt) {
                bt = c->ps.pr[k].t[s];
                best = k;
                bs = s;
            }
        }
        bool full = depth > 0 && held >= depth;
        if (full && bs != 0)
            continue; /* no reservation left for a job that cannot start now */
        double pe_t = bt; /* the earliest start by cores (the bound's) */
        bool holds = false; /* memres: its reservation holds memory (the plan) */
        if (c->memres) {
            int s = plan_earliest(h, &c->ps.pr[0], bs, j, w, d);
            if (s >= 0) {
                holds = true;
                bs = s;
                bt = c->ps.pr[0].t[s];
            }
            if (full && bs != 0)
                continue;
        }
        /* Reserved now: placed now, in the slot of its profile or, when
         * memory refuses it there, in another that fits it now. memres: only
         * where the plan has it start now (a job that fits nowhere by memory
         * without network RAM and takes cores a reservation needs keeps its
         * reservation by cores at now and waits). */
        bool placed = false, opened = false;
        if (bs == 0 && (!c->memres || holds)) {
            if (holds) /* the plan's reservations take their cores beside it */
                sched_host_plan_add(h, j, bt, d);
            best = place_now(c, h, j, best, d, &placed, &opened);
        }
        if (c->stale && !(bs == 0 && placed)) {
            /* Stale profiles (lazy_open) cannot say where j goes: rebuild
             * and search again (the same failed placements are tried
             * again; they change nothing). */
            c->restart = true;
            break;
        }
        if (full && !placed)
            continue; /* fits now by cores, memory refused it: no reservation */
        held += !placed;
        clean &= bs == 0 && placed;
        sched_prof *p = &c->ps.pr[best];
        int last = sched_prof_reserve(p, bs, w, d);
        if (c->stale)
            mx_set(c, best); /* bs == 0 */
        if (classes)
            sched_stop_lower(&c->stop, p->t, p->f, bs, last);
        if (!c->plain && pe_t > lb) { /* else: no new bound */
            pending = true;
            pend_n = w;
            pend_d = d;
            pend_t = pe_t;
        }
        reserved++;
        sched_host_note_reserved(h, j, bt);
        if (bs == 0) {
            if (opened && sched_host_mpl(h) != 1) {
                /* A new slot: every expected end counts the slots, so
                 * the profiles are stale; the caller rebuilds them,
                 * unless nothing can tell (lazy_open). */
                if (!clean || !lazy_open(c, h, best, c->ps.pr[0].t[0])) {
                    c->restart = true;
                    break;
                }
                np = c->ps.n;
            }
            all_placed &= placed;
        }
        if (!placed && !c->head_seen) {
            c->head_seen = true;
            sched_host_note_head(h, j, bt);
        }
        if (holds && !placed && bs != 0)
            sched_host_plan_add(h, j, bt, d);
        if (keep && !placed) {
            c->resv[c->nresv] = j;
            c->resv_t[c->nresv++] = bt;
        }
    }
    sched_host_stats(h)->reserved_sum += reserved;
    if (reserved > sched_host_stats(h)->reserved_max)
        sched_host_stats(h)->reserved_max = reserved;
    for (int k = 0; k < np; k++)
        sched_host_stats(h)->steps_sum += c->ps.pr[k].n;
    return all_placed;
}

/* Whether the reservations of the last pass may be kept: conservative, MPL
 * 1, an order whose keys do not change with time (not WFP3, UNICEP), not
 * where reservations hold memory (the plan is made again at every pass). */
static bool keepable(const sched_host *h)
{
    unsigned fl = sched_host_order_flags(h);
    return sched_host_mpl(h) == 1 && !(fl & SCHED_ORDER_TIME_DEPENDENT) &&
           !sched_host_mem_reserves(h) &&
           sched_host_reservations(h) == 0 && !(sched_host_hooks(h) & SCHED_HOOK_REBUILD_ALWAYS);
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
static bool incremental(cons *c, sched_host *h, size_t n, double now)
{
    sched_prof *p = &c->ps.pr[0];
    if (!c->kept || c->dirty || sched_host_slots(h) != 1 || c->ps.n != 1 || p->real != 0)
        return false;
    if (!(sched_host_next_end(h) > now))
        return false; /* a running job is due now or outlived its estimate */
    if (c->nresv > n)
        return false;
    int starting = 0; /* threads of the jobs reserved for now */
    for (size_t i = 0; i < c->nresv; i++) {
        if (c->q[i] != c->resv[i] || c->resv_t[i] < now)
            return false; /* an arrival came before a reserved job, or a
                           * job missed its reservation */
        if (c->resv_t[i] == now)
            starting += sched_job_width(c->resv[i]);
    }
    int z = 0;
    while (z + 1 < p->n && p->t[z + 1] <= now)
        z++;
    if ((p->t[z] == now && p->m[z] != now) || p->f[z] + starting != sched_host_slot_free(h, 0))
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
    for (size_t i = 0; i < c->nresv; i++) {
        sched_job *j = c->resv[i];
        if (c->resv_t[i] == now && sched_host_place(h, j, 0, -1, false))
            continue;
        all_placed &= c->resv_t[i] != now;
        c->resv[k] = j;
        c->resv_t[k++] = c->resv_t[i];
    }
    size_t from = c->nresv;
    c->nresv = k;
    if (k > 0) {
        c->head_seen = true;
        sched_host_note_head(h, c->resv[0], c->resv_t[0]);
    }
    all_placed &= reserve_from(c, h, from, n, true);
    sched_host_stats(h)->kept_passes++;
    c->kept = all_placed;
    return true;
}

/* The pass (backfill.h's rules): keep the last pass's reservations when
 * incremental proves a rebuild would give the same, else build the
 * profiles and reserve the queue in order. */
static void cons_pass(void *state, sched_host *h, sched_job *const *q, size_t n, double now)
{
    cons *c = state;
    if (!c->npes) {
        c->npes = sched_host_cores(h);
        sched_bound_init(&c->bound, c->npes);
        sched_stop_init(&c->stop, c->npes);
    }
    c->q = q;
    c->plain = (sched_host_hooks(h) & SCHED_HOOK_PLAIN_SEARCH) != 0;
    bool keep = keepable(h);
    c->head_seen = false;
    c->memres = sched_host_mem_reserves(h);
    if (c->memres)
        sched_host_plan_clear(h);
    if (keep && incremental(c, h, n, now)) {
        c->dirty = false;
        return;
    }
    build(c, h, now, sched_host_unopened(h), n);
    long builds = 1;
    c->nresv = 0;
    c->restart = false;
    bool all_placed = reserve_from(c, h, 0, n, keep);
    while (c->restart) {
        /* MPL > 1: a job opened a slot. The reservations made so far
         * counted one slot fewer: build the profiles again (the jobs placed
         * are in them now) and reserve the queued jobs again. */
        assert(sched_host_mpl(h) != 1 && !keep);
        c->restart = false;
        c->head_seen = false;
        build(c, h, now, sched_host_unopened(h), n);
        builds++;
        all_placed &= reserve_from(c, h, 0, n, false);
    }
    if (c->stale) { /* set the expected ends as the last rebuild would have */
        build(c, h, now, sched_host_unopened(h), n);
        builds++;
    }
    if (builds > sched_host_stats(h)->builds_max)
        sched_host_stats(h)->builds_max = builds;
    c->kept = keep && all_placed && sched_host_slots(h) == 1 && c->ps.n == 1 && c->ps.pr[0].real == 0;
    c->dirty = false;
}


static const sched_reserve_ops cons_ops = {
    .create = cons_create,
    .destroy = cons_destroy,
    .on_pass = cons_pass,
    .on_ended = cons_ended,
};

int sched_conservative_register(pnrsim_registry *r)
{
    return pnrsim_register(r, PNRSIM_KIND_BACKFILL, "CONSERVATIVE",
                           "conservative: a reservation for every queued job", &cons_ops);
}
