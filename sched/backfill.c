/* sched/backfill.c: the keyed placement pass, host of the reservation
 * policies (sched/reserve.h; the rules of the built-in EASY and
 * CONSERVATIVE, sched/easy.c and sched/conservative.c, are in backfill.h).
 *
 * A pass sorts the queue by the run's order (sched/priority.c) and hands
 * it to the backfilling component's on_pass, or for NONE places jobs in
 * that order itself. The host keeps what a policy cannot know from the
 * public interface and answers its queries:
 *   q        the queued jobs of this pass, sorted by the priority key.
 *   run      at MPL 1, the placed jobs sorted by (expected end, trace
 *            order), kept up to date at every start and end (binary search
 *            and a move of at most r pointers), so a pass never sorts them.
 *   expected ends  job->bf_end: MPL 1 start + estimate; MPL > 1 the bound
 *            W of backfill.h, never later within a slot epoch (the number
 *            of slots unchanged).
 *   profiles sched_host_build_profiles fills a policy's profiles
 *            (sched/profile.h) from those ends: one per open slot, then
 *            the slots that may still be opened.
 */
#include "sched/backfill.h"
#include "sched/backfill_check.h"
#include "sched/bf_host.h"
#include "sched/gang_future.h"

#include "core/ev.h"
#include "core/mem.h"
#include "core/registry_host.h"
#include "sched/priority.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void *bf_grow(void *p, size_t *cap, size_t need, size_t size)
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

#define grow bf_grow

static const gang_policy bf_policy;

bf_t *bf_attach(gang_t *g)
{
    const gang_params *p = gang_get_params(g);
    bool limits = p->max_running_per_user > 0 || p->max_cores_per_user > 0;
    if (p->priority->bucket != SCHED_BUCKET_NONE && !p->backfill->on_pass && !limits &&
        !(p->priority->flags & SCHED_ORDER_HOOKS))
        return NULL; /* the scheduler's own pass, by the width buckets */
    bf_t *b = xcalloc(1, sizeof *b);
    b->g = g;
    b->npes = gang_npes(g);
    b->epoch = 1;
    b->memres = p->mpl == 1 && gang_mem_matters(g);
    b->oflags = p->priority->flags;
    sched_limits_init(&b->lim, p->max_running_per_user, p->max_cores_per_user);
    if (p->priority == &sched_multifactor_ops) {
        sched_mf_params mf = p->mf;
        mf.cores = b->npes;
        b->ostate = sched_mf_create(&mf);
    } else {
        b->ostate = p->priority->create ? p->priority->create(&p->ctx) : NULL;
    }
    b->rstate = p->backfill->create ? p->backfill->create(&p->ctx) : NULL;
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
    sched_profiles_free(&b->own);
    sched_limits_free(&b->lim);
    free(b->q);
    free(b->run);
    free(b->tmp);
    free(b->plan_job);
    free(b->plan_t);
    free(b->plan_end);
    free(b->plan_ord);
    free(b->saved);
    free(b);
}

void bf_get_stats(const bf_t *b, bf_stats *s) { *s = b->st; }

long bf_limit_delayed(const bf_t *b) { return b ? b->lim.delayed : 0; }

/* The order's hook (SCHED_ORDER_HOOKS; sched/order.h) on job j at now:
 * which = 0 submit, 1 start, 2 end. */
static void order_hook(bf_t *b, int which, const job_t *j, double now)
{
    if (!(b->oflags & SCHED_ORDER_HOOKS))
        return;
    const sched_order_ops *o = gang_get_params(b->g)->priority;
    void (*fn)(void *, const sched_job_info *, double) =
        which == 0 ? o->on_submit : which == 1 ? o->on_start : o->on_end;
    if (!fn)
        return;
    sched_job_info info;
    job_public(j, &info);
    fn(b->ostate, &info, now);
}

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
    if (!mpl1(b)) {
        /* The bound of build_profiles, from the placement on. */
        slot_epoch(b);
        j->bf_end = now + wall(b->g, j->estimate);
        j->bf_epoch = b->epoch;
    } else {
        j->bf_end = now + j->estimate;
        b->run = grow(b->run, &b->runcap, b->nrun + 1, sizeof *b->run);
        size_t i = run_lower(b, j);
        memmove(b->run + i + 1, b->run + i, (b->nrun - i) * sizeof *b->run);
        b->run[i] = j;
        b->nrun++;
    }
    sched_limits_started(j);
    order_hook(b, 1, j, now);
    const sched_reserve_ops *r = gang_get_params(b->g)->backfill;
    if (r->on_placed)
        r->on_placed(b->rstate, b, (const sched_job *)(void *)j, now);
}

/* The policy's on_ended: placed job j ended (before it leaves its slot). */
static void bf_ended(void *ctx, job_t *j)
{
    bf_t *b = ctx;
    sched_limits_ended(j);
    order_hook(b, 2, j, j->end);
    const sched_reserve_ops *r = gang_get_params(b->g)->backfill;
    if (r->on_ended)
        r->on_ended(b->rstate, b, (const sched_job *)(void *)j);
    if (!mpl1(b))
        return;
    size_t i = run_lower(b, j);
    assert(i < b->nrun && b->run[i] == j);
    memmove(b->run + i, b->run + i + 1, (b->nrun - i - 1) * sizeof *b->run);
    b->nrun--;
}

/* ---- profiles ------------------------------------------------------------------ */

/* Whether the placed job j, whose expected end is not after now, is due at
 * this very instant: it started now and its estimate says it is done (a
 * zero-length job, or an estimate too small to move the time), so its end
 * is expected now and a second pass follows it at now. Otherwise it
 * outlived its estimate and is expected an instant after now, when
 * nothing is known to happen. */
static bool due_now(const job_t *j, double now) { return j->started && j->start == now; }

/* Release the placed jobs js[0..k) of profile p, sorted by expected end;
 * those with an expected end <= lim (>= now) are not expected later than
 * now. Jobs due now free their PEs just after now with the moment now;
 * jobs that outlived their estimate free theirs at a late step after
 * every step that may keep the moment now (docs/SCHEDULING.md, "Moments"):
 * after the due-now step (now+) and after the chain of at most `chain`
 * steps that the reservations of this pass may add just after those
 * (a zero-length job reserved at a step that keeps the moment now ends
 * just after it, keeping the moment: one step per reservation). */
static void release_placed(sched_prof *p, job_t *const *js, size_t k, double now, double lim,
                           size_t chain)
{
    double after = sched_just_after(now), late_t = after;
    size_t r = 0;
    while (r < k && !(js[r]->bf_end > lim))
        r++;
    bool due = false, late = false;
    for (size_t i = 0; i < r; i++) {
        if (due_now(js[i], now)) {
            sched_prof_release(p, after, js[i]->width, now, false);
            due = true;
        } else {
            late = true;
        }
    }
    if (late) {
        /* The steps that keep the moment now lie in (now, now + c ulps],
         * c = chain (+ 1 with a due-now step): the late step comes after. */
        for (size_t c = chain + due; c-- > 0;)
            late_t = sched_just_after(late_t);
        for (size_t i = 0; i < r; i++)
            if (!due_now(js[i], now))
                sched_prof_release(p, late_t, js[i]->width, late_t, true);
    }
    for (size_t i = r; i < k; i++)
        sched_prof_release(p, js[i]->bf_end, js[i]->width, js[i]->bf_end, false);
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
static int build_profiles(bf_t *b, double now, int nvirt, size_t chain, sched_profiles *ps)
{
    gang_t *g = b->g;
    double after = nextafter(now, INFINITY);
    int ns = gang_slots(g);
    if (mpl1(b)) {
        assert(ns <= 1);
        if (ns == 1) {
            sched_prof *p = sched_profiles_reset(ps, 0, now, gang_slot_nfree(g, 0), 0);
            release_placed(p, b->run, b->nrun, now, now, chain);
        }
    } else {
        for (int s = 0; s < ns; s++) {
            sched_prof *p = sched_profiles_reset(ps, s, now, gang_slot_nfree(g, s), s);
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
        sched_profiles_reset(ps, ns + v, now, b->npes, -1);
    ps->n = ns + nvirt;
    return ps->n;
}

/* Slots that may still be opened (one stands for any number when the MPL
 * is unlimited). */
static int virtual_slots(const gang_t *g)
{
    int mpl = gang_get_params(g)->mpl, ns = gang_slots(g);
    return mpl == 0 ? 1 : mpl - ns;
}

/* One placement pass at now over the queue sorted by the order; returns
 * how many of its jobs a per-user limit held at its start. */
static size_t pass_once(bf_t *b, gang_t *g, double now)
{
    size_t held0 = 0;
    const gang_params *gp = gang_get_params(g);
    size_t n = (size_t)gang_queued(g);
    b->q = grow(b->q, &b->qcap, n + 1, sizeof *b->q);
    size_t k = 0;
    bool limits = sched_limits_on(&b->lim);
    for (job_t *j = gang_queue_first(g); j; j = gang_queue_next(g, j)) {
        if (!j->order_told) { /* its first pass: the order hears of it */
            j->order_told = true;
            order_hook(b, 0, j, now);
        }
        if (limits) { /* held jobs stay in q: sched_job_waiting says false */
            sched_limits_attach(&b->lim, j);
            unsigned held = sched_limits_holds(j);
            if (held) {
                sched_limits_note(&b->lim, j, held);
                held0++;
            }
        }
        b->q[k++] = j;
    }
    assert(k == n);
    b->nq = n;
    b->st.passes++;
    b->now = now;
    if (!mpl1(b))
        slot_epoch(b);
    b->st.queued_sum += (long long)n;
    if ((long)n > b->st.queued_max)
        b->st.queued_max = (long)n;
    prio_sort(b->q, n, gp->priority, b->ostate, now);
    if (b->memres && !b->mem_binds) /* until memory could refuse a placement */
        b->mem_binds = gang_mem_can_bind(g, b->q, n);
    if (gp->backfill->on_pass) /* EASY, CONSERVATIVE, a plugin's */
        gp->backfill->on_pass(b->rstate, b, (sched_job *const *)(void *)b->q, n, now);
    else /* NONE: in order (strict_order: up to the first that does not
          * fit; a job a limit holds is skipped, it blocks nothing) */
        for (size_t i = 0; i < n; i++)
            if (!(limits && sched_limits_holds(b->q[i])) &&
                !gang_place_where(g, b->q[i], -1, -1, true) && gp->strict_order)
                break;
    return held0;
}

/* The policy's on_pass: one placement pass at now. With per-user limits,
 * a job may become held during the pass (a job of its user placed after
 * it was considered) when it has already been given a reservation (or,
 * under strict order, stopped the pass): the pass is then run again at
 * the same instant, so that what the pass leaves is what a pass with the
 * held jobs known from the start gives (a held job holds no reservation
 * and blocks nothing; docs/SCHEDULING.md). Each repeat holds at least one
 * more job, and jobs are only held within an instant (a hold ends at a
 * job end), so it ends; most passes hold no new job and run once. */
static void bf_pass(void *ctx, gang_t *g, double now)
{
    bf_t *b = ctx;
    for (;;) {
        size_t held0 = pass_once(b, g, now), held = 0;
        if (!sched_limits_on(&b->lim) || ev_stop_flag)
            return;
        for (size_t i = 0; i < b->nq; i++)
            if (b->q[i]->queued && sched_limits_holds(b->q[i]))
                held++;
        if (held == held0)
            return;
        b->lim_repasses++;
    }
}

static const gang_policy bf_policy = {
    .on_pass = bf_pass,
    .on_placed = bf_placed,
    .on_ended = bf_ended,
    .on_destroy = bf_destroy,
};

/* ---- reserve.h: what a policy sees and does -------------------------------------- */

static job_t *JB(sched_job *j) { return (job_t *)(void *)j; }

int sched_host_cores(const sched_host *h) { return h->npes; }
int sched_host_slots(const sched_host *h) { return gang_slots(h->g); }
int sched_host_mpl(const sched_host *h) { return gang_get_params(h->g)->mpl; }
/* A reservation policy broke sched/reserve.h's rules: stop the run. */
void bf_policy_broken(const sched_host *h, const char *fmt, ...)
{
    const pnrsim_component *c =
        pnrsim_component_of(PNRSIM_KIND_BACKFILL, gang_get_params(h->g)->backfill);
    fprintf(stderr, "pnrsim: scheduler.backfill %s (%s): ", c ? c->name : "?",
            c ? c->origin : "?");
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs(" (sched/reserve.h)\n", stderr);
    exit(2);
}

int sched_host_slot_free(const sched_host *h, int s)
{
    if (s < 0 || s >= gang_slots(h->g))
        bf_policy_broken(h, "sched_host_slot_free of slot %d (open: 0 .. %d)", s,
                      gang_slots(h->g) - 1);
    return gang_slot_nfree(h->g, s);
}
int sched_host_unopened(const sched_host *h) { return virtual_slots(h->g); }
bool sched_host_mem_aware(const sched_host *h) { return gang_get_params(h->g)->mem_aware; }
unsigned sched_host_order_flags(const sched_host *h)
{
    /* With per-user limits, which jobs may start changes as jobs start and
     * end: nothing of the last pass may be kept, as for a time-dependent
     * order (reserve.h). */
    return h->oflags | (sched_limits_on(&h->lim) ? SCHED_ORDER_TIME_DEPENDENT : 0u);
}
double sched_host_wall(const sched_host *h, double work) { return wall(h->g, work); }
int sched_host_reservations(const sched_host *h) { return gang_get_params(h->g)->reservations; }
double sched_host_next_end(const sched_host *h)
{
    return h->nrun > 0 ? h->run[0]->bf_end : INFINITY;
}
bool sched_host_interrupted(const sched_host *h)
{
    (void)h;
    return ev_stop_flag != 0;
}

bool sched_host_place(sched_host *h, sched_job *j, int only, int exclude, bool allow_new)
{
    int ns = gang_slots(h->g);
    if (!JB(j)->queued)
        bf_policy_broken(h, "sched_host_place of job %ld, which is not waiting", JB(j)->id);
    if (sched_limits_holds(JB(j)))
        return false; /* held by a per-user limit (sched/limits.h) */
    if (only < -1 || only > ns || exclude < -1 || exclude > ns)
        bf_policy_broken(h, "sched_host_place of job %ld in slot %d, not %d (slots -1 .. %d)",
                      JB(j)->id, only, exclude, ns);
    return gang_place_where(h->g, JB(j), only, exclude, allow_new);
}

void sched_host_note_reserved(sched_host *h, sched_job *j, double t)
{
    (void)h;
    if (JB(j)->bf_first_res < 0)
        JB(j)->bf_first_res = t;
}

void sched_host_note_head(sched_host *h, sched_job *j, double t)
{
    (void)h;
    if (JB(j)->bf_head_res < 0)
        JB(j)->bf_head_res = t;
}

int sched_host_build_profiles(sched_host *h, double now, int unopened, size_t chain,
                              sched_profiles *ps)
{
    assert(unopened >= 0 && unopened <= virtual_slots(h->g));
    return build_profiles(h, now, unopened, chain, ps);
}

int sched_host_profiles(sched_host *h, double now)
{
    return build_profiles(h, now, virtual_slots(h->g) > 0 ? 1 : 0, 0, &h->own);
}

int sched_host_profile(const sched_host *h, int k, const double **t, const int **f)
{
    assert(k >= 0 && k < h->own.n);
    *t = h->own.pr[k].t;
    *f = h->own.pr[k].f;
    return h->own.pr[k].n;
}

sched_pass_stats *sched_host_stats(sched_host *h) { return &h->st; }
unsigned sched_host_hooks(const sched_host *h) { return h->hooks; }

/* ---- backfill_check.h ---- */

static void set_hook(bf_t *b, unsigned bit, bool on)
{
    b->hooks = on ? b->hooks | bit : b->hooks & ~bit;
}

void bf_set_rebuild_always(bf_t *b, bool on) { set_hook(b, SCHED_HOOK_REBUILD_ALWAYS, on); }
void bf_set_plain_search(bf_t *b, bool on) { set_hook(b, SCHED_HOOK_PLAIN_SEARCH, on); }
void bf_set_check_bound(bf_t *b, bool on) { set_hook(b, SCHED_HOOK_CHECK_BOUND, on); }
