/* sched/gang.c: the gang scheduler (see gang.h for the policy).
 *
 * The matrix and the queue (their layout: sched/gang_internal.h) change
 * here, in these parts in this order: statistics (the MPL area),
 * slots (create, find, remove, put a job in, take it out, choose its PEs),
 * running and stopping (slot switches at quantum ends, alternative
 * scheduling, moves back home: the context switches), placement and the
 * placement pass, then the public entry points (creation, submission, the
 * job-end and memory hooks). The invariant checks and the placement rule
 * that tests and the checking mode run after every action are in
 * sched/gang_check.c.
 */
#include "sched/gang.h"
#include "sched/admit.h"
#include "sched/gang_alloc.h"
#include "sched/gang_internal.h"

#include "core/mem.h"
#include "sched/queue.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* ---- statistics ------------------------------------------------------------ */

/* Account the MPL area up to now; call before any change of nslots or
 * in_system. */
static void mpl_tick(gang_t *g)
{
    double now = g->sim->now;
    if (g->in_system > 0) {
        g->mpl_area += g->nslots * (now - g->last_t);
        g->busy_span += now - g->last_t;
    }
    g->last_t = now;
}

/* node_sharing EXCLUSIVE: account the idle core-seconds up to now, then
 * add d to the idle cores of running jobs. */
static void idle_tick(gang_t *g, int d)
{
    double now = g->sim->now;
    g->idle_area += (double)g->idle_running * (now - g->idle_t);
    g->idle_t = now;
    g->idle_running += d;
    assert(g->idle_running >= 0);
}

double gang_idle_core_seconds(const gang_t *g, double now)
{
    return g->idle_area + (double)g->idle_running * (now - g->idle_t);
}

int gang_slots(const gang_t *g) { return g->nslots; }
int gang_mpl_max(const gang_t *g) { return g->mpl_max; }
uint64_t gang_pcs_count(const gang_t *g) { return g->pcs; }
long gang_queued(const gang_t *g) { return g->queue.n; }
long gang_placed(const gang_t *g) { return g->placed; }
long gang_running(const gang_t *g) { return g->running; }
long gang_impossible(const gang_t *g) { return g->nimpossible; }
int gang_job_slot(const gang_t *g, const job_t *j)
{ return j->slot >= 0 ? gang_slot_index(g, j->slot) : j->last_slot; }
/* Checking: tell the hook that a scheduler action is complete. */
static void acted(gang_t *g)
{
    if (g->hook)
        g->hook(g->sim, g, g->hook_ctx);
}

double gang_mpl_mean(const gang_t *g, double now)
{
    double area = g->mpl_area, span = g->busy_span;
    if (g->in_system > 0) {
        area += g->nslots * (now - g->last_t);
        span += now - g->last_t;
    }
    return span > 0 ? area / span : 0;
}

job_t *gang_slot_job(const gang_t *g, int s, int pe)
{
    if (s < 0 || s >= g->nslots || pe < 0 || pe >= g->npes)
        return NULL;
    return g->slots[s]->pe_job[pe];
}

/* ---- slots ---------------------------------------------------------------------- */

static slot_t *slot_new(gang_t *g)
{
    slot_t *s = gang_home_slot_new(g->next_slot_id++, g->npes);
    mpl_tick(g);
    if (g->nslots == g->capslots) {
        g->capslots = g->capslots ? 2 * g->capslots : 4;
        g->slots = realloc(g->slots, (size_t)g->capslots * sizeof *g->slots);
        if (!g->slots)
            abort();
    }
    g->slots[g->nslots++] = s;
    gang_fidx_append(&g->fidx, g->slots, g->nslots);
    if (g->nslots > g->mpl_max)
        g->mpl_max = g->nslots;
    return s;
}

static slot_t *slot_of(const gang_t *g, const job_t *j)
{
    int i = gang_slot_index(g, j->slot);
    return i >= 0 ? g->slots[i] : NULL;
}

/* Remove the empty slot at index i; jobs whose home it was stay put. */
static void slot_remove(gang_t *g, int i)
{
    slot_t *s = g->slots[i];
    assert(s->njobs == 0);
    gang_home_slot_gone(s);
    mpl_tick(g);
    memmove(&g->slots[i], &g->slots[i + 1], (size_t)(g->nslots - i - 1) * sizeof *g->slots);
    g->nslots--;
    gang_fidx_build(&g->fidx, g->slots, g->nslots);
    if (g->cur > i)
        g->cur--;
    else if (g->cur == i)
        g->cur = -2; /* the caller must choose a new current slot */
    gang_home_slot_free(s);
}

static void slot_put(gang_t *g, slot_t *s, job_t *j)
{
    core_iter it;
    for (int pe = gang_core_first(g, j, &it); pe >= 0; pe = gang_core_next(g, j, &it)) {
        assert(!s->pe_job[pe]);
        s->pe_job[pe] = j;
    }
    s->nfree -= j->width;
    gang_fidx_set(&g->fidx, gang_slot_index(g, s->id), s->nfree);
    s->njobs++;
    j->slot = s->id;
}

static void slot_take(gang_t *g, slot_t *s, job_t *j)
{
    core_iter it;
    for (int pe = gang_core_first(g, j, &it); pe >= 0; pe = gang_core_next(g, j, &it)) {
        assert(s->pe_job[pe] == j);
        s->pe_job[pe] = NULL;
    }
    s->nfree += j->width;
    gang_fidx_set(&g->fidx, gang_slot_index(g, s->id), s->nfree);
    s->njobs--;
    j->slot = -1;
}

/* True when every PE of j is free in slot s. */
static bool pes_free_in(const gang_t *g, const slot_t *s, const job_t *j)
{
    core_iter it;
    for (int pe = gang_core_first(g, j, &it); pe >= 0; pe = gang_core_next(g, j, &it))
        if (s->pe_job[pe])
            return false;
    return true;
}

/* Choose cores for j in slot s: the allocation policy's answer
 * (scheduler.allocation, sched/gang_alloc.h) into pe_ids; false when it
 * does not fit. */
static bool choose_pes(gang_t *g, const slot_t *s, job_t *j)
{
    return gang_alloc_choose(g, s->pe_job, j);
}

/* True when j would fit in an empty slot (pe_ids: scratch). */
static bool fits_empty(gang_t *g, job_t *j)
{
    return gang_alloc_choose(g, NULL, j);
}

/* ---- running and stopping ------------------------------------------------------------- */

static void request_pass(gang_t *g);

/* Run j (no effect if it runs). A job that ran before resumes `delay`
 * seconds later; a first start costs `delay` too only with pcs_first_start.
 * Returns true when a context switch was charged (the caller counts it). */
static bool run_job(gang_t *g, job_t *j, double delay)
{
    if (j->running)
        return false;
    bool charged = j->started || g->p.pcs_first_start;
    idle_tick(g, j->width - j->threads);
    g->running++;
    job_run(g->sim, j, charged ? delay : 0);
    if (g->obs.on_job_run)
        g->obs.on_job_run(g->sim, j, gang_slot_index(g, j->slot), j->resume_at, g->obs.ctx);
    return charged;
}

static void stop_job(gang_t *g, job_t *j)
{
    if (!j->running)
        return;
    idle_tick(g, j->threads - j->width);
    g->running--;
    job_stop(g->sim, j);
    if (g->obs.on_job_stop)
        g->obs.on_job_stop(g->sim, j, g->obs.ctx);
}

static void quantum_arm(gang_t *g)
{
    if (g->nslots >= 2) {
        if (!ev_pending(g->sim, g->quantum_ev))
            ev_at_prio(g->sim, g->quantum_ev, g->sim->now + g->p.quantum, EV_PRIO_SCHED);
    } else if (ev_pending(g->sim, g->quantum_ev)) {
        ev_cancel(g->sim, g->quantum_ev);
    }
}

/* Alternative scheduling into the current slot: jobs of other slots whose
 * PEs are all idle in it move in (their home remembered) and run. A slot
 * emptied by a move is removed (slot unification) at once, so a job
 * visited later in the pass whose home was that slot gets the slot it is
 * moved from as its new home. With `moved` (at a switch) the moved jobs
 * are not run here but appended to moved[*nmoved] in the order they moved
 * (at most npes of them): the caller runs them once the outgoing slot's
 * jobs are stopped. Returns true when a job that had run before was
 * resumed (never with `moved`). */
static bool alternative(gang_t *g, job_t **moved, int *nmoved)
{
    bool resumed = false;
    if (g->p.no_alternative || g->cur < 0 || g->nslots < 2)
        return false;
    slot_t *cs = g->slots[g->cur];
    /* Visit the other slots in ring order from the current one; ids are
     * collected first because moves may remove slots. */
    int n = g->nslots, ids[n];
    for (int step = 1; step < n; step++)
        ids[step] = g->slots[(g->cur + step) % n]->id;
    for (int step = 1; step < n && cs->nfree > 0; step++) {
        int oi = gang_slot_index(g, ids[step]);
        if (oi < 0)
            continue;
        slot_t *o = g->slots[oi];
        for (int pe = 0; pe < g->npes && cs->nfree > 0; pe++) {
            job_t *j = o->pe_job[pe];
            if (!j || j->pe_ids[0] != pe) /* each job once, at its first PE */
                continue;
            if (!pes_free_in(g, cs, j))
                continue;
            slot_take(g, o, j);
            slot_put(g, cs, j);
            if (j->home_slot < 0)
                gang_home_set(o, j, g->npes);
            if (moved) {
                assert(*nmoved < g->npes);
                moved[(*nmoved)++] = j;
            } else if (run_job(g, j, g->p.pcs)) {
                resumed = true;
            }
        }
        if (o->njobs == 0)
            slot_remove(g, oi); /* slot unification */
    }
    quantum_arm(g);
    return resumed;
}

/* Make slot index `next` current: moves back, alternative scheduling, stop
 * what does not run in it, run what does. */
static void switch_to(gang_t *g, int next)
{
    bool changed = false;
    g->cur = next;
    slot_t *ns = g->slots[next];
    /* Jobs whose home is this slot move back: their PEs here are free,
     * since a job placed on them would have kept them out (keep_out).
     * So the order in which slots are visited does not matter (test hook
     * mirror_back visits them the other way round). */
    for (int step = 0; step < g->nslots && ns->nexiles > 0; step++) {
        int k = g->mirror_back ? g->nslots - 1 - step : step;
        if (k == next)
            continue;
        slot_t *o = g->slots[k];
        for (int pe = 0; pe < g->npes; pe++) {
            job_t *j = o->pe_job[pe];
            if (!j || j->pe_ids[0] != pe || j->home_slot != ns->id)
                continue;
            assert(pes_free_in(g, ns, j));
            slot_take(g, o, j);
            slot_put(g, ns, j);
            gang_home_clear(ns, j);
        }
    }
    /* Slots emptied by moving back are removed. */
    for (int k = 0; k < g->nslots; k++) {
        if (g->slots[k]->njobs == 0 && k != g->cur) {
            slot_remove(g, k);
            k--;
        }
    }
    /* Jobs moved in are started after the stops (two jobs never run on
     * one PE, not even at one instant), in the order they moved, then the
     * slot's own jobs by PE. */
    job_t *moved[g->npes];
    int nmoved = 0;
    alternative(g, moved, &nmoved);
    ns = g->slots[g->cur];
    /* Stop every running job that is not in the current slot. */
    for (int k = 0; k < g->nslots; k++) {
        if (k == g->cur)
            continue;
        slot_t *o = g->slots[k];
        for (int pe = 0; pe < g->npes; pe++) {
            job_t *j = o->pe_job[pe];
            if (j && j->pe_ids[0] == pe && j->running) {
                stop_job(g, j);
                changed = true;
            }
        }
    }
    /* A moved job of the previous slot that is still running (a switch is
     * under way) just keeps running: not a resumption. */
    for (int i = 0; i < nmoved; i++)
        if (run_job(g, moved[i], g->p.pcs))
            changed = true;
    for (int pe = 0; pe < g->npes; pe++) {
        job_t *j = ns->pe_job[pe];
        if (j && j->pe_ids[0] == pe && !j->running && run_job(g, j, g->p.pcs))
            changed = true;
    }
    if (changed)
        g->pcs++;
    if (g->obs.slot_switch)
        g->obs.slot_switch(g->sim, g->cur, g->nslots, g->obs.ctx);
    if (ev_pending(g->sim, g->quantum_ev))
        ev_cancel(g->sim, g->quantum_ev);
    quantum_arm(g);
    /* Moves back, unification and the switch itself may have freed room. */
    request_pass(g);
}

static void quantum_end(sim_t *sim, void *arg)
{
    (void)sim;
    gang_t *g = arg;
    if (g->nslots < 2)
        return;
    switch_to(g, (g->cur + 1) % g->nslots);
    acted(g);
}

/* ---- placement ---------------------------------------------------------------------- */

/* j was just placed in slot s: a job moved out of s (home s) whose PEs
 * there j now takes stays where it is for good (MODEL.md: "a job placed on
 * those PEs keeps the moved job from returning", decided here, when the
 * placement happens, whatever happens to j later). O(j's cores), and
 * nothing when s has no exiles (sched/gang_home.h). */
static void keep_out(gang_t *g, slot_t *s, const job_t *j)
{
    core_iter it;
    for (int pe = gang_core_first(g, j, &it); pe >= 0 && s->nexiles > 0;
         pe = gang_core_next(g, j, &it))
        gang_home_keep_out(s, pe);
}

/* Place the queued job j if possible (it then leaves the queue), looking
 * only at slots with room (g->fidx); starts it when it lands in the current
 * slot (setting *charged when that start was charged a PCS). */
static bool place(gang_t *g, job_t *j, bool *charged)
{
    slot_t *best = NULL;
    for (int i = gang_fidx_next(&g->fidx, 0, j->width), bi = -1; i >= 0;
         i = gang_fidx_next(&g->fidx, i + 1, j->width)) {
        slot_t *s = g->slots[i];
        if (i == g->pf_not || (g->pf_only >= 0 && i != g->pf_only))
            continue;
        if (g->alloc_test && !choose_pes(g, s, j))
            continue;
        if (!best || gang_pack_better(g, i, bi, j)) { /* the packing's choice */
            best = s;
            bi = i;
            if (g->p.packing->flags & SCHED_PACK_FIRST)
                break;
        }
    }
    bool fresh = false;
    if (!best) {
        if (g->p.mpl != 0 && g->nslots >= g->p.mpl)
            return false;
        if (!g->pf_new || g->pf_not == g->nslots || (g->pf_only >= 0 && g->pf_only != g->nslots))
            return false;
        if (j->width > g->npes || (g->alloc_test && !fits_empty(g, j)))
            return false;
        best = slot_new(g);
        fresh = true;
    }
    jobq_remove(&g->queue, j);
    gang_alloc_apply(g, best->pe_job, j); /* decided above, applied here */
    if (g->p.mem_global) {
        admit_view v = gang_admit_of(g);
        double need;
        g->avail -= admit_cost(&v, j, j->pe_ids, &need); /* before reserving */
    }
    slot_put(g, best, j);
    keep_out(g, best, j);
    for (int i = 0; i < j->threads; i++)
        g->reserved[j->pe_ids[i] / g->cpn] += j->mem_mb;
    j->row = best->id; /* the job layer's sharing of a node (job.h) */
    g->placed++;
    if (g->cur < 0)
        g->cur = gang_slot_index(g, best->id);
    if (g->slots[g->cur] == best && run_job(g, j, g->p.pcs))
        *charged = true;
    if (fresh)
        quantum_arm(g);
    if (g->policy)
        g->policy->on_placed(g->policy_ctx, j, g->sim->now);
    return true;
}

bool gang_place_where(gang_t *g, job_t *j, int only, int not, bool allow_new)
{
    if (ev_poll(g->sim, (uint64_t)(g->nslots + j->width)))
        return false; /* interrupted: nothing more is placed (see pass) */
    g->pf_only = only;
    g->pf_not = not;
    g->pf_new = allow_new;
    bool charged = false;
    bool ok = place(g, j, &charged);
    g->pf_only = g->pf_not = -1;
    g->pf_new = true;
    if (charged)
        g->pf_charged = true;
    return ok;
}

job_t *gang_queue_first(const gang_t *g) { return jobq_first(&g->queue); }
job_t *gang_queue_next(const gang_t *g, const job_t *j) { return jobq_next(&g->queue, j); }
int gang_npes(const gang_t *g) { return g->npes; }
const gang_params *gang_get_params(const gang_t *g) { return &g->p; }
int gang_slot_nfree(const gang_t *g, int s) { return g->slots[s]->nfree; }

void gang_set_policy(gang_t *g, const gang_policy *ops, void *ctx)
{
    assert(!g->policy && g->in_system == 0);
    g->policy = ops;
    g->policy_ctx = ctx;
}

void *gang_policy_ctx(const gang_t *g, const gang_policy *ops)
{
    return g->policy == ops ? g->policy_ctx : NULL;
}

static int max_fit(const gang_t *g)
{
    if (g->p.mpl == 0 || g->nslots < g->p.mpl)
        return g->npes;
    int m = 0;
    for (int i = 0; i < g->nslots; i++)
        if (g->slots[i]->nfree > m)
            m = g->slots[i]->nfree;
    return m;
}

/* The placement pass (§4.4.2): place queued jobs, in priority order, while
 * one that strict_order allows fits. It runs once per instant at which room
 * may have appeared (see request_pass's callers), after that instant's model
 * events; its cost is a scan of at most npes bucket heads per job tried. */
static void pass(sim_t *sim, void *arg)
{
    (void)sim;
    gang_t *g = arg;
    bool charged = false;
    g->pass_pending = false;
    g->pass_no++;
    if (g->policy) {
        /* A placement policy (priority functions, backfilling). */
        g->pf_charged = false;
        g->policy->on_pass(g->policy_ctx, g, g->sim->now);
        if (ev_stop_flag)
            request_pass(g); /* interrupted: it may have been cut short */
        if (g->pf_charged)
            g->pcs++;
        acted(g);
        return;
    }
    for (;;) {
        int maxw = max_fit(g);
        job_t *j;
        if (g->p.strict_order) {
            j = jobq_head(&g->queue, g->p.priority->bucket);
            if (!j || j->width > maxw || j->tried_pass == g->pass_no)
                break;
        } else {
            j = jobq_first_fitting(&g->queue, g->p.priority->bucket, maxw, g->pass_no);
            if (!j)
                break;
        }
        /* Stopped by a signal: the pass ends at this job boundary and is
         * due again (the run ends; its results are partial). */
        if (ev_poll(g->sim, (uint64_t)(g->nslots + j->width))) {
            request_pass(g);
            break;
        }
        if (!place(g, j, &charged)) {
            /* Only mem_aware placement fails once the width fits. */
            j->tried_pass = g->pass_no;
            if (g->p.strict_order)
                break;
        }
    }
    if (charged)
        g->pcs++; /* first starts charged a PCS (pcs_first_start) */
    acted(g);
}

/* Ask for a placement pass at this instant: room may have appeared. At most
 * one is pending; it runs in the scheduler's class, after the instant's
 * model events and arrivals, and after a quantum end of the same instant
 * (scheduled a quantum earlier, so it comes first in the class). */
static void request_pass(gang_t *g)
{
    if (!g->pass_pending) {
        g->pass_pending = true;
        ev_at_prio(g->sim, g->pass_ev, g->sim->now, EV_PRIO_SCHED);
    }
}

/* ---- public ---------------------------------------------------------------------------- */

/* A thread's memory went back to its PE (at the thread's end or its job's,
 * by mem_release): it no longer counts against the PE's room, and under
 * mem_aware a queued job may fit now. */
static void mem_freed(sim_t *sim, job_t *j, int pe, void *ctx)
{
    (void)sim;
    gang_t *g = ctx;
    assert(pe >= 0 && pe < g->nnodes); /* a node (the thread's PE) */
    g->reserved[pe] -= j->mem_mb;
    if (g->reserved[pe] < 1e-9)
        g->reserved[pe] = 0;
    if (g->p.mem_aware)
        request_pass(g);
    acted(g);
}

/* A PE got lent memory back: under mem_aware a queued job may fit now. */
static void unlent(sim_t *sim, pe_t *pe, void *ctx)
{
    (void)sim;
    (void)pe;
    request_pass(ctx);
    acted(ctx);
}

/* qsort order: larger doubles first. */
static int cmp_desc(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x < y) - (x > y);
}

static void job_ended(sim_t *sim, job_t *j, void *ctx);

gang_t *gang_create(sim_t *sim, cluster_t *cl, const gang_params *p, gang_end_fn on_end,
                    void *ctx)
{
    gang_t *g = xcalloc(1, sizeof *g);
    g->sim = sim;
    g->cl = cl;
    g->p = *p;
    g->npes = cluster_cores(cl); /* memory servers get no threads */
    g->cpn = cluster_cpn(cl);
    g->nnodes = cluster_compute_pes(cl);
    /* Whole nodes only when a node has several cores: with one core per
     * node EXCLUSIVE is SHARED (config.c warns), and takes its code path. */
    g->p.exclusive = p->exclusive && g->cpn > 1;
    g->idle_t = sim->now;
    g->cur = -1;
    jobq_init(&g->queue, g->npes);
    g->reserved = xcalloc((size_t)g->nnodes, sizeof *g->reserved);
    /* RAM of the compute nodes, largest first: a job of w threads of m MB
     * can ever be placed under mem_aware only if ram_desc[w - 1] >= m (one
     * core per node; with several, see never_fits). */
    g->ram_desc = xcalloc((size_t)g->nnodes, sizeof *g->ram_desc);
    for (int i = 0; i < g->nnodes; i++)
        g->ram_desc[i] = cl->pes[i].ram_mb;
    qsort(g->ram_desc, (size_t)g->nnodes, sizeof *g->ram_desc, cmp_desc);
    g->pass_ev = ev_new(sim, pass, g);
    g->quantum_ev = ev_new(sim, quantum_end, g);
    g->last_t = sim->now;
    g->on_end = on_end;
    g->ctx = ctx;
    g->pf_only = g->pf_not = -1;
    g->pf_new = true;
    g->pack_state = p->packing->create ? p->packing->create(&p->ctx) : NULL;
    cl->hooks.on_job_ended = job_ended;
    cl->hooks.on_mem_freed = mem_freed;
    cl->hooks.sched_ctx = g;
    /* MPL 1: one slot, so a job runs alone on its PEs and is never stopped
     * (no quantum, no switch): its threads may run as one process. */
    cl->solo_ok = p->mpl == 1;
    g->avail_pass = -1;
    if (p->mem_global && g->cpn > 1) {
        g->admit_used = xcalloc((size_t)g->nnodes, sizeof *g->admit_used);
        g->admit_next = xcalloc((size_t)g->nnodes, sizeof *g->admit_next);
        g->admit_mark = xcalloc((size_t)g->npes, sizeof *g->admit_mark);
    }
    if (p->mem_global) {
        admit_view v = gang_admit_of(g);
        g->total_lendable = admit_total_lendable(&v);
    }
    /* Lent memory coming back makes room (LOCAL: on the PE; GLOBAL: network
     * RAM anywhere, memory servers included). */
    if (p->mem_aware)
        for (int i = 0; i < (p->mem_global ? cl->npes : g->nnodes); i++) {
            cl->pes[i].on_unlend = unlent;
            cl->pes[i].unlend_ctx = g;
        }
    gang_alloc_init(g); /* scheduler.allocation's state */
    return g;
}

void gang_destroy(sim_t *sim, gang_t *g)
{
    /* Jobs belong to the cluster's list (job_destroy); only the matrix and
     * the queue's storage are freed here. */
    for (int i = 0; i < g->nslots; i++)
        gang_home_slot_free(g->slots[i]);
    free(g->slots);
    gang_fidx_free(&g->fidx);
    jobq_destroy(&g->queue);
    free(g->reserved);
    free(g->fut_row);
    free(g->fut_res);
    free(g->fut_ids);
    free(g->ram_desc);
    free(g->admit_used);
    free(g->admit_next);
    free(g->admit_mark);
    gang_alloc_fini(g);
    if (g->cl->hooks.sched_ctx == g) {
        g->cl->hooks.on_job_ended = NULL;
        g->cl->hooks.on_mem_freed = NULL;
        g->cl->hooks.sched_ctx = NULL;
        g->cl->solo_ok = false;
    }
    for (int i = 0; i < g->cl->npes; i++)
        if (g->cl->pes[i].unlend_ctx == g) {
            g->cl->pes[i].on_unlend = NULL;
            g->cl->pes[i].unlend_ctx = NULL;
        }
    ev_free(sim, g->pass_ev);
    ev_free(sim, g->quantum_ev);
    if (g->policy)
        g->policy->on_destroy(g->policy_ctx);
    if (g->p.packing->destroy)
        g->p.packing->destroy(g->pack_state);
    free(g);
}

void gang_submit(sim_t *sim, gang_t *g, job_t *j)
{
    (void)sim;
    admit_view v = gang_admit_of(g);
    if (g->p.exclusive) /* whole nodes: ceil(threads / C) x C cores */
        j->width = (j->threads + g->cpn - 1) / g->cpn * g->cpn;
    if (j->width > g->npes ||
        (g->p.mem_global ? admit_impossible(&v, j, g->ram_desc, g->total_lendable)
         : g->p.exclusive ? g->p.mem_aware && gang_never_fits_exclusive(GANG_NODES(g), j)
         : g->cpn > 1    ? g->p.mem_aware && gang_never_fits(GANG_NODES(g), j)
                         : g->p.mem_aware && j->mem_mb > g->ram_desc[j->threads - 1] + 1e-9)) {
        /* A job wider than the machine, or (mem_aware) whose threads never fit the
         * RAM, is never placed (the width check keeps the buckets 1..npes in range). */
        j->impossible = true; /* jobs.csv: state queued, reason impossible */
        g->nimpossible++;
        return;
    }
    mpl_tick(g);
    g->in_system++;
    j->tried_pass = -1;
    jobq_push(&g->queue, j);
    request_pass(g);
    acted(g);
}

/* The job layer's job_ended hook (installed by gang_create): every thread
 * of j has finished. The job leaves the matrix, then goes to on_end. */
static void job_ended(sim_t *sim, job_t *j, void *ctx)
{
    gang_t *g = ctx;
    slot_t *s = slot_of(g, j);
    assert(s);
    int si = gang_slot_index(g, s->id);
    j->last_slot = si;
    if (j->running) {
        idle_tick(g, j->threads - j->width);
        g->running--;
        if (g->obs.on_job_stop)
            g->obs.on_job_stop(sim, j, g->obs.ctx);
    }
    if (g->policy)
        g->policy->on_ended(g->policy_ctx, j);
    if (j->home_slot >= 0) /* an exile ends: its home forgets it */
        gang_home_clear(g->slots[gang_slot_index(g, j->home_slot)], j);
    slot_take(g, s, j);
    /* Its memory was taken off `reserved` thread by thread (mem_freed). */
    for (int i = 0; i < j->threads; i++)
        assert(job_thread_mem_freed(j, i));
    g->placed--;
    mpl_tick(g);
    g->in_system--;
    if (s->njobs == 0) {
        slot_remove(g, si);
        if (g->nslots == 0) {
            g->cur = -1;
        } else if (g->cur == -2) {
            /* The current slot is gone: the next one takes over now. */
            switch_to(g, si % g->nslots);
        }
    } else if (si == g->cur) {
        if (alternative(g, NULL, NULL))
            g->pcs++;
    }
    quantum_arm(g);
    request_pass(g);
    acted(g);
    if (g->on_end)
        g->on_end(sim, j, g->ctx);
}

void gang_set_observer(gang_t *g, const gang_observer *o)
{
    if (o)
        g->obs = *o;
    else
        memset(&g->obs, 0, sizeof g->obs);
}
