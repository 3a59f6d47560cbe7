/* app/schedule.c: schedule.csv and the Paje trace (see schedule.h); the
 * per-node files (pes.csv, memory.csv, paging.csv) and the paging bursts
 * are app/schedule_nodes.c's.
 *
 * A stretch is the time a job is scheduled in the current slot: it begins
 * when the scheduler runs the job (job_run observer) and ends when it stops
 * it or the job ends (job_stop observer). Its `start` is the instant the
 * job's threads may compute, after the parallel context switch charged to
 * it (column pcs); the row is written when the stretch ends, one row per
 * run of consecutive PEs of the job (in the order of its threads' PEs).
 * The per-stretch state is kept under the job's first PE: one job runs on
 * a PE at a time, so N entries suffice.
 *
 * The Paje trace must be written in time order, but the state change at
 * the end of a context switch (from "context switch" to "job N") lies in
 * the future when the switch happens. Those changes wait in a FIFO (they
 * are all now + pcs, so their times never decrease) and are written before
 * anything later; a stretch stopped before its switch ended cancels its
 * entry (per-PE generation numbers). At most one entry per running job.
 * A PE that goes idle when a job stops is marked so only once the instant
 * is over (a stack of PEs): at a slot switch the next job's state replaces
 * it at the same instant and the idle line is never written, which keeps
 * the trace a third smaller. The ends of paging bursts (app/schedule_nodes.c)
 * are due in the future too: flush merges both in time order, and also
 * writes paging.csv's rows when there is no Paje trace.
 *
 * With several cores per node (issue 25) a job state belongs to a core and
 * memory and paging to its node: the trace then has a Node container
 * (alias p<node>, as a PE's) per node holding a Core container (k<core>)
 * per core, and the job-state lines name cores (s->rp); with one core per
 * node the PE containers and every line are as before, byte for byte.
 *
 * The window (issue 26, output.schedule_from/to): every Paje line passes
 * pj_at(t), in time order. Before `from` nothing is written but the state
 * each line sets is kept (per core its job state, per node its memory
 * values and paging burst, per network element whether it exists and is
 * busy); the first line at or after `from` first writes the containers at
 * `from` with those states (paje_begin), and the first line after `to`
 * (or the end of the run) first closes everything at `to` (paje_end):
 * states pushed are popped, containers destroyed. With no window the trace
 * begins when the run does, as before, byte for byte.
 */
#include "app/schedule.h"

#include "app/output.h"
#include "app/schedule_nodes.h"

#include "core/mem.h"
#include "hw/pe.h"
#include "net/net.h"
#include "sched/cluster.h"

#include <assert.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct pending {
    double t;        /* when the job's threads start computing */
    const job_t *j;
    int pe0;         /* its first PE */
    unsigned gen;    /* gen[pe0] when queued */
} pending;

/* A core's job state as the trace last set it (pj_run): a job number, or: */
#define RUN_IDLE LONG_MIN
#define RUN_PCS (LONG_MIN + 1)
/* A network element's flags (net_flags): its container exists (created
 * with the run or when the network made it), a state of it is pushed. */
enum { NET_MADE = 1, NET_OPEN = 2 };

struct schedule_out {
    cluster_t *cl;
    FILE *csv, *paje;
    snodes *nodes;   /* pes.csv, memory.csv, paging.csv, paging bursts */
    int n;           /* entries of the per-PE arrays: max(nodes, cores) */
    int nnodes;      /* PEs of cl->pes (nodes) */
    int cpn;         /* cores per node */
    const char *rp;  /* Paje alias prefix of a core: "p" (C = 1: the PE),
                      * "k" (C > 1: nodes are p<node>, cores k<core>) */
    double from, to; /* the window (to = HUGE_VAL: none) */
    int pj;          /* the Paje window: 0 not begun, 1 open, 2 closed */
    long *pj_run;    /* per core: its job state (RUN_IDLE, RUN_PCS, job) */
    /* current stretch, under the job's first PE */
    const job_t **run_job;
    double *run_from, *run_pcs;
    int *run_slot;
    unsigned *gen;
    /* Paje: last variable values set, deferred state changes */
    double *last_mem, *last_lent;
    pending *q;
    int qhead, qlen;
    int *idle;                 /* PEs that went idle at idle_t */
    unsigned char *idle_pending;
    int nidle;
    double idle_t;
    gang_observer gobs;
    pe_observer pobs;
    net_observer nobs;         /* links and switches (Paje only) */
    net_t *net;
    /* Network states in the trace: at most net_cap pushes (0 = no cap);
     * later pushes are counted (net_dropped, the first at net_capped_at),
     * and the pops of the states still open are written so the trace stays
     * well formed. net_flags[index]: NET_MADE, NET_OPEN. */
    long net_cap, net_pushes, net_dropped;
    double net_capped_at;
    unsigned char *net_flags;
    size_t net_flags_n;
    double tcache_t;           /* the time last formatted, and its text */
    char tcache[32];
};

/* The time t as the trace writes it (%.15g: a link holds a message for
 * some 80 us at times of 10^6 s, so 12 digits would round its states by
 * 1 %), formatted once per instant:
 * most lines share their instant with the one before. */
static const char *tstr(schedule_out *s, double t)
{
    if (t != s->tcache_t || !s->tcache[0]) {
        snprintf(s->tcache, sizeof s->tcache, "%.15g", t);
        s->tcache_t = t;
    }
    return s->tcache;
}

/* ---- Paje ------------------------------------------------------------------- */

static const char PAJE_HEADER[] =
    "%EventDef PajeDefineContainerType 0\n%       Alias string\n%       Type string\n"
    "%       Name string\n%EndEventDef\n"
    "%EventDef PajeDefineStateType 1\n%       Alias string\n%       Type string\n"
    "%       Name string\n%EndEventDef\n"
    "%EventDef PajeDefineEventType 2\n%       Alias string\n%       Type string\n"
    "%       Name string\n%EndEventDef\n"
    "%EventDef PajeDefineVariableType 3\n%       Alias string\n%       Type string\n"
    "%       Name string\n%       Color color\n%EndEventDef\n"
    "%EventDef PajeDefineEntityValue 4\n%       Alias string\n%       Type string\n"
    "%       Name string\n%       Color color\n%EndEventDef\n"
    "%EventDef PajeCreateContainer 5\n%       Time date\n%       Alias string\n"
    "%       Type string\n%       Container string\n%       Name string\n%EndEventDef\n"
    "%EventDef PajeDestroyContainer 6\n%       Time date\n%       Type string\n"
    "%       Name string\n%EndEventDef\n"
    "%EventDef PajeSetState 7\n%       Time date\n%       Type string\n"
    "%       Container string\n%       Value string\n%EndEventDef\n"
    "%EventDef PajePushState 8\n%       Time date\n%       Type string\n"
    "%       Container string\n%       Value string\n%EndEventDef\n"
    "%EventDef PajePopState 9\n%       Time date\n%       Type string\n"
    "%       Container string\n%EndEventDef\n"
    "%EventDef PajeNewEvent 10\n%       Time date\n%       Type string\n"
    "%       Container string\n%       Value string\n%EndEventDef\n"
    "%EventDef PajeSetVariable 11\n%       Time date\n%       Type string\n"
    "%       Container string\n%       Value double\n%EndEventDef\n";

/* The types: one core per node, a PE is both (the report's machine);
 * several, a core (its job states) inside its node (memory and paging). */
static const char PAJE_TYPES_PE[] =
    "0 CL 0 \"Cluster\"\n"
    "0 PE CL \"PE\"\n"
    "0 LK CL \"Link\"\n"
    "0 SWT CL \"Switch\"\n"
    "1 RUN PE \"Job\"\n"
    "1 PG PE \"Paging\"\n"
    "1 LS LK \"Transfer\"\n"
    "1 SS SWT \"Forwarding\"\n"
    "2 SW CL \"Slot switch\"\n"
    "3 MEM PE \"Memory in use (MB)\" \"0 0 1\"\n"
    "3 LENT PE \"Network RAM lent (MB)\" \"1 0 0\"\n"
    "4 idle RUN \"idle\" \"1 1 1\"\n"
    "4 pcs RUN \"context switch\" \"0.5 0.5 0.5\"\n"
    "4 paging PG \"paging\" \"1 0 0\"\n"
    "4 xfer LS \"transferring\" \"0 0.6 0\"\n"
    "4 fwd SS \"forwarding\" \"0 0.6 0\"\n";

static const char PAJE_TYPES_NODES[] =
    "0 CL 0 \"Cluster\"\n"
    "0 ND CL \"Node\"\n"
    "0 PE ND \"Core\"\n"
    "0 LK CL \"Link\"\n"
    "0 SWT CL \"Switch\"\n"
    "1 RUN PE \"Job\"\n"
    "1 PG ND \"Paging\"\n"
    "1 LS LK \"Transfer\"\n"
    "1 SS SWT \"Forwarding\"\n"
    "2 SW CL \"Slot switch\"\n"
    "3 MEM ND \"Memory in use (MB)\" \"0 0 1\"\n"
    "3 LENT ND \"Network RAM lent (MB)\" \"1 0 0\"\n"
    "4 idle RUN \"idle\" \"1 1 1\"\n"
    "4 pcs RUN \"context switch\" \"0.5 0.5 0.5\"\n"
    "4 paging PG \"paging\" \"1 0 0\"\n"
    "4 xfer LS \"transferring\" \"0 0.6 0\"\n"
    "4 fwd SS \"forwarding\" \"0 0.6 0\"\n";

static void paje_begin(schedule_out *s, double t);
static void paje_end(schedule_out *s, double t);

/* May a Paje line at time t be written? Lines come in time order: the
 * first at or after `from` opens the window (at from), the first after
 * `to` closes it (at to). False without a Paje trace. */
static bool pj_at(schedule_out *s, double t)
{
    if (!s->paje)
        return false;
    if (s->pj == 0 && t >= s->from)
        paje_begin(s, s->from);
    if (s->pj == 1 && t > s->to)
        paje_end(s, s->to);
    return s->pj == 1;
}

/* A job state's value as the trace names it. */
static void put_run(schedule_out *s, double t, int pe)
{
    long v = s->pj_run[pe];
    if (v == RUN_IDLE)
        fprintf(s->paje, "7 %s RUN %s%d idle\n", tstr(s, t), s->rp, pe);
    else if (v == RUN_PCS)
        fprintf(s->paje, "7 %s RUN %s%d pcs\n", tstr(s, t), s->rp, pe);
    else
        fprintf(s->paje, "7 %s RUN %s%d \"job %ld\"\n", tstr(s, t), s->rp, pe, v);
}

/* Write the deferred changes due at or before t (idle marks: of an earlier
 * instant, or all when `all`): the Paje lines, and the ends of paging
 * bursts (paging.csv rows, whether or not there is a Paje trace). */
static void flush(schedule_out *s, double t, bool all)
{
    if (s->nidle > 0 && (all || s->idle_t < t)) {
        for (int k = 0; k < s->nidle; k++) {
            int pe = s->idle[k];
            if (s->idle_pending[pe]) {
                s->pj_run[pe] = RUN_IDLE;
                if (pj_at(s, s->idle_t))
                    put_run(s, s->idle_t, pe);
            }
            s->idle_pending[pe] = 0;
        }
        s->nidle = 0;
    }
    /* Pending ends of context switches and of paging bursts, and the
     * network's notes (route mode WHOLE: a reservation's busy and idle
     * instants, net_observe_next), merged in time order (each is in time
     * order; all are later than any idle mark). A note is told through
     * on_net_busy, whose own flush then finds no note (the network says
     * none while it tells one). */
    for (;;) {
        int node = -1;
        double pg_t = snodes_next_end(s->nodes, &node);
        bool q_due = s->qlen > 0 && s->q[s->qhead].t <= t;
        bool pg_due = pg_t <= t;
        double nt = s->net ? net_observe_next(s->net) : INFINITY;
        if (nt <= t && (!q_due || nt < s->q[s->qhead].t) && (!pg_due || nt < pg_t)) {
            net_observe_step(s->net);
            continue;
        }
        if (!q_due && !pg_due)
            break;
        if (q_due && (!pg_due || s->q[s->qhead].t <= pg_t)) {
            pending *p = &s->q[s->qhead];
            if (p->gen == s->gen[p->pe0] && s->run_job[p->pe0] == p->j) {
                const job_t *j = p->j;
                bool live = pj_at(s, p->t);
                for (int i = 0; i < j->threads; i++) {
                    s->pj_run[j->pe_ids[i]] = j->id;
                    if (live)
                        put_run(s, p->t, j->pe_ids[i]);
                }
            }
            s->qhead = (s->qhead + 1) % s->n;
            s->qlen--;
        } else {
            if (pj_at(s, pg_t))
                fprintf(s->paje, "9 %s PG p%d\n", tstr(s, pg_t), node);
            snodes_end_burst(s->nodes, node);
        }
    }
}

/* Drop the pending ends of context switches whose stretch is over (their
 * PE's generation moved on, or another job runs there): flush would
 * skip them anyway, and a stale entry stays stale (generations only grow).
 * Keeps the FIFO's time order. Live entries are at most one per PE whose
 * stretch is under way, so the caller, which is starting a stretch on a PE
 * whose earlier entries are all stale, always gets a free place. Several
 * switches at one instant that each end a stretch inside its PCS (a
 * zero-length job, or one moved out again) could otherwise fill the FIFO. */
static void pending_compact(schedule_out *s)
{
    int kept = 0;
    for (int k = 0; k < s->qlen; k++) {
        pending p = s->q[(s->qhead + k) % s->n];
        if (p.gen == s->gen[p.pe0] && s->run_job[p.pe0] == p.j)
            s->q[(s->qhead + kept++) % s->n] = p;
    }
    s->qlen = kept;
}

/* ---- observers -------------------------------------------------------------- */

static void on_run(sim_t *sim, const job_t *j, int slot, double from, void *ctx)
{
    schedule_out *s = ctx;
    int pe0 = j->pe_ids[0];
    assert(!s->run_job[pe0]);
    s->run_job[pe0] = j;
    s->run_from[pe0] = from;
    s->run_pcs[pe0] = from - sim->now;
    s->run_slot[pe0] = slot;
    s->gen[pe0]++;
    flush(s, sim->now, false);
    if (!s->paje)
        return;
    for (int i = 0; i < j->threads; i++)
        s->idle_pending[j->pe_ids[i]] = 0; /* replaced at this instant */
    bool live = pj_at(s, sim->now);
    long v = from > sim->now ? RUN_PCS : j->id;
    for (int i = 0; i < j->threads; i++) {
        s->pj_run[j->pe_ids[i]] = v;
        if (live)
            put_run(s, sim->now, j->pe_ids[i]);
    }
    if (from > sim->now) {
        if (s->qlen == s->n)
            pending_compact(s);
        assert(s->qlen < s->n);
        assert(s->qlen == 0 || s->q[(s->qhead + s->qlen - 1) % s->n].t <= from);
        s->q[(s->qhead + s->qlen) % s->n] = (pending){from, j, pe0, s->gen[pe0]};
        s->qlen++;
    }
}

/* schedule.csv: one row per run of consecutive PEs of a stretch of job j
 * (in stretch_end), and its header, from this one list (see CSV_* in
 * app/output.h). */
#define SCHEDULE_CSV(FIRST, X)                                                 \
    FIRST("job", "%ld", j->id)                                                 \
    X("slot", "%d", s->run_slot[pe0])                                          \
    X("start", "%.12g", from)                                                  \
    X("end", "%.12g", end)                                                     \
    X("first_pe", "%d", first)                                                 \
    X("pes", "%d", len)                                                        \
    X("pcs", "%.12g", s->run_pcs[pe0])

/* Write the rows of j's stretch ending at `end` (when it overlaps the
 * window) and forget it. */
static void stretch_end(schedule_out *s, sim_t *sim, const job_t *j, double end)
{
    int pe0 = j->pe_ids[0];
    assert(s->run_job[pe0] == j);
    flush(s, sim->now, false); /* first: this stretch's own deferred change */
    double from = s->run_from[pe0];
    if (s->csv && end > from && end > s->from && from < s->to) {
        int first = j->pe_ids[0], len = 1;
        for (int i = 1; i <= j->threads; i++) {
            if (i < j->threads && j->pe_ids[i] == first + len) {
                len++;
                continue;
            }
            fprintf(s->csv, SCHEDULE_CSV(CSV_FMT1, CSV_FMT) "\n" SCHEDULE_CSV(CSV_ARG, CSV_ARG));
            if (i < j->threads) {
                first = j->pe_ids[i];
                len = 1;
            }
        }
    }
    s->run_job[pe0] = NULL;
    s->gen[pe0]++;
    if (s->paje) {
        s->idle_t = sim->now;
        for (int i = 0; i < j->threads; i++) {
            int pe = j->pe_ids[i];
            if (!s->idle_pending[pe]) {
                if (s->nidle == s->n) /* only when PEs stop twice in one instant */
                    flush(s, sim->now, true);
                s->idle_pending[pe] = 1;
                s->idle[s->nidle++] = pe;
            }
        }
    }
}

static void on_stop(sim_t *sim, const job_t *j, void *ctx)
{
    stretch_end(ctx, sim, j, sim->now);
}

static void on_switch(sim_t *sim, int slot, int nslots, void *ctx)
{
    schedule_out *s = ctx;
    if (!s->paje)
        return;
    flush(s, sim->now, false);
    if (pj_at(s, sim->now))
        fprintf(s->paje, "10 %s SW c \"slot %d of %d\"\n", tstr(s, sim->now), slot, nslots);
}

static void on_mem(sim_t *sim, const pe_t *pe, void *ctx)
{
    schedule_out *s = ctx;
    flush(s, sim->now, false);
    snodes_mem(s->nodes, sim, pe);
    if (!s->paje)
        return;
    double mem = pe->alloc_mb + pe->lent_mb;
    if (mem == s->last_mem[pe->id] && pe->lent_mb == s->last_lent[pe->id])
        return;
    if (pj_at(s, sim->now)) {
        if (mem != s->last_mem[pe->id])
            fprintf(s->paje, "11 %s MEM p%d %.12g\n", tstr(s, sim->now), pe->id, mem);
        if (pe->lent_mb != s->last_lent[pe->id])
            fprintf(s->paje, "11 %s LENT p%d %.12g\n", tstr(s, sim->now), pe->id, pe->lent_mb);
    }
    s->last_mem[pe->id] = mem;
    s->last_lent[pe->id] = pe->lent_mb;
}

/* The node's paging state is on while its burst is (app/schedule_nodes.c:
 * a node that pages keeps one state instead of one per fault; a fault
 * every few milliseconds would make the trace gigabytes long). The window
 * is settled before the burst changes, so that it begins or ends with the
 * state before this instant's change. */
static void on_paging(sim_t *sim, const pe_t *pe, void *ctx)
{
    schedule_out *s = ctx;
    flush(s, sim->now, false);
    bool live = pj_at(s, sim->now);
    if (snodes_paging(s->nodes, sim, pe) && live)
        fprintf(s->paje, "8 %s PG p%d paging\n", tstr(s, sim->now), pe->id);
}

/* Links and switches: a container per element (alias n<index>), created
 * with the run or, for a CONNECTED link, when the network creates it on
 * first use; a "transferring"/"forwarding" state pushed while a message
 * holds it (net_observer tells exactly when it becomes busy and idle, so
 * these states sum to its busy time, the comm_busy_time metric). */
static void paje_elem_create(schedule_out *s, double t, const net_elem *e)
{
    fprintf(s->paje, "5 %s n%ld %s c \"%s\"\n", tstr(s, t), e->index, e->is_switch ? "SWT" : "LK",
            e->name);
}

static void paje_elem_state(schedule_out *s, double t, const net_elem *e, bool push)
{
    if (push)
        fprintf(s->paje, "8 %s %s n%ld %s\n", tstr(s, t), e->is_switch ? "SS" : "LS", e->index,
                e->is_switch ? "fwd" : "xfer");
    else
        fprintf(s->paje, "9 %s %s n%ld\n", tstr(s, t), e->is_switch ? "SS" : "LS", e->index);
}

/* The flags of element index (CONNECTED links appear on first use). */
static unsigned char *net_slot(schedule_out *s, long index)
{
    size_t i = (size_t)index;
    if (i >= s->net_flags_n) {
        size_t n = s->net_flags_n ? s->net_flags_n : 64;
        while (n <= i)
            n *= 2;
        s->net_flags = xrealloc(s->net_flags, n);
        memset(s->net_flags + s->net_flags_n, 0, n - s->net_flags_n);
        s->net_flags_n = n;
    }
    return &s->net_flags[i];
}

static void on_net_created(sim_t *sim, const net_elem *e, void *ctx)
{
    schedule_out *s = ctx;
    flush(s, sim->now, false);
    bool live = pj_at(s, sim->now);
    *net_slot(s, e->index) |= NET_MADE;
    if (live)
        paje_elem_create(s, sim->now, e);
}

/* An element becomes busy or idle at t (route mode WHOLE: t may lie
 * before now, told in time order: net_observer). */
static void on_net_busy(sim_t *sim, const net_elem *e, bool busy, double t, void *ctx)
{
    schedule_out *s = ctx;
    (void)sim;
    unsigned char *f = net_slot(s, e->index);
    if (!busy && !(*f & NET_OPEN))
        return; /* its push was dropped */
    flush(s, t, false);
    bool live = pj_at(s, t);
    if (busy && live && s->net_cap > 0 && s->net_pushes >= s->net_cap) {
        if (!s->net_dropped)
            s->net_capped_at = t;
        s->net_dropped++;
        return;
    }
    if (busy)
        *f |= NET_OPEN;
    else
        *f &= (unsigned char)~NET_OPEN;
    if (live) {
        s->net_pushes += busy;
        paje_elem_state(s, t, e, busy);
    }
}

void schedule_set_net_cap(schedule_out *s, long cap)
{
    s->net_cap = cap;
}

long schedule_net_kept(const schedule_out *s)
{
    return s->net_pushes;
}

long schedule_net_dropped(const schedule_out *s, double *at)
{
    if (at)
        *at = s->net_capped_at;
    return s->net_dropped;
}

/* ---- the window: containers and states ------------------------------------------ */

/* Several cores per node: a Node container p<node> per node (compute nodes
 * and memory servers: its memory variables and paging state), holding a
 * Core container k<core> per core of a compute node (its job states;
 * memory servers run no threads and have none). */
static void paje_open_nodes(schedule_out *s, double t)
{
    const int C = s->cpn, ncompute = cluster_compute_pes(s->cl);
    for (int i = 0; i < s->nnodes; i++) {
        const pe_t *pe = &s->cl->pes[i];
        fprintf(s->paje, "5 %s p%d ND c \"%s\"\n", tstr(s, t), i, pe->name);
        fprintf(s->paje, "11 %s MEM p%d %.12g\n", tstr(s, t), i, s->last_mem[i]);
        fprintf(s->paje, "11 %s LENT p%d %.12g\n", tstr(s, t), i, s->last_lent[i]);
        for (int c = 0; i < ncompute && c < C; c++) {
            fprintf(s->paje, "5 %s k%d PE p%d \"%s.%d\"\n", tstr(s, t), i * C + c, i, pe->name,
                    c);
            put_run(s, t, i * C + c);
        }
    }
}

/* The end of paje_open_nodes' containers: cores first, then their node. */
static void paje_close_nodes(schedule_out *s, double t)
{
    const int C = s->cpn, ncompute = cluster_compute_pes(s->cl);
    for (int i = 0; i < s->nnodes; i++) {
        for (int c = 0; i < ncompute && c < C; c++)
            fprintf(s->paje, "6 %s PE k%d\n", tstr(s, t), i * C + c);
        fprintf(s->paje, "6 %s ND p%d\n", tstr(s, t), i);
    }
}

/* The trace's containers at t, with the states kept: job states, memory
 * variables, paging bursts on, network elements made and busy. */
static void paje_begin(schedule_out *s, double t)
{
    assert(s->pj == 0);
    s->pj = 1;
    fprintf(s->paje, "5 %s c CL 0 \"cluster\"\n", tstr(s, t));
    if (s->cpn > 1)
        paje_open_nodes(s, t);
    for (int i = 0; i < s->nnodes && s->cpn == 1; i++) {
        fprintf(s->paje, "5 %s p%d PE c \"%s\"\n", tstr(s, t), i, s->cl->pes[i].name);
        put_run(s, t, i);
        fprintf(s->paje, "11 %s MEM p%d %.12g\n", tstr(s, t), i, s->last_mem[i]);
        fprintf(s->paje, "11 %s LENT p%d %.12g\n", tstr(s, t), i, s->last_lent[i]);
    }
    for (int i = 0; i < s->nnodes; i++)
        if (snodes_paging_on(s->nodes, i))
            fprintf(s->paje, "8 %s PG p%d paging\n", tstr(s, t), i);
    for (long k = 0; s->net && k < net_elem_live_count(s->net); k++) {
        const net_elem *e = net_elem_live_at(s->net, k);
        unsigned char f = *net_slot(s, e->index);
        if (f & NET_MADE)
            paje_elem_create(s, t, e);
        if ((f & NET_MADE) && (f & NET_OPEN)) {
            s->net_pushes++;
            paje_elem_state(s, t, e, true);
        }
    }
}

/* Close the trace at t: paging and network states popped, containers
 * destroyed. Nothing is written after. */
static void paje_end(schedule_out *s, double t)
{
    assert(s->pj == 1);
    s->pj = 2;
    for (int i = 0; i < s->nnodes; i++)
        if (snodes_paging_on(s->nodes, i))
            fprintf(s->paje, "9 %s PG p%d\n", tstr(s, t), i);
    if (s->cpn > 1)
        paje_close_nodes(s, t);
    for (int i = 0; i < s->nnodes && s->cpn == 1; i++)
        fprintf(s->paje, "6 %s PE p%d\n", tstr(s, t), i);
    for (long k = 0; s->net && k < net_elem_live_count(s->net); k++) {
        const net_elem *e = net_elem_live_at(s->net, k);
        unsigned char f = *net_slot(s, e->index);
        if (f & NET_OPEN)
            paje_elem_state(s, t, e, false);
        if (f & NET_MADE)
            fprintf(s->paje, "6 %s %s n%ld\n", tstr(s, t), e->is_switch ? "SWT" : "LK",
                    e->index);
    }
    fprintf(s->paje, "6 %s CL c\n", tstr(s, t));
}

/* ---- life cycle ---------------------------------------------------------------- */

schedule_out *schedule_open(sim_t *sim, cluster_t *cl, bool network, const schedule_files *f,
                            double from, double to)
{
    schedule_out *s = xcalloc(1, sizeof *s);
    /* The stretches are per core (a gang column), memory and paging per
     * node (with one core per node both are the PEs). Paje: with one core
     * per node a container per PE; with several, a container per node
     * (memory, paging) holding one per core (job states). */
    int n = cl->npes, cores = cluster_cores(cl);
    s->nnodes = n;
    s->cpn = cluster_cpn(cl);
    s->rp = s->cpn > 1 ? "k" : "p";
    if (cores > n)
        n = cores;
    s->cl = cl;
    s->csv = f->csv;
    s->paje = f->paje;
    s->from = from;
    s->to = to > 0 ? to : HUGE_VAL;
    s->n = n;
    s->nodes = snodes_open(sim, cl, f->pes, f->mem, f->paging, s->from, s->to);
    s->pj_run = xcalloc((size_t)n, sizeof *s->pj_run);
    s->run_job = xcalloc((size_t)n, sizeof *s->run_job);
    s->run_from = xcalloc((size_t)n, sizeof *s->run_from);
    s->run_pcs = xcalloc((size_t)n, sizeof *s->run_pcs);
    s->run_slot = xcalloc((size_t)n, sizeof *s->run_slot);
    s->gen = xcalloc((size_t)n, sizeof *s->gen);
    s->last_mem = xcalloc((size_t)n, sizeof *s->last_mem);
    s->last_lent = xcalloc((size_t)n, sizeof *s->last_lent);
    s->q = xcalloc((size_t)n, sizeof *s->q);
    s->idle = xcalloc((size_t)n, sizeof *s->idle);
    s->idle_pending = xcalloc((size_t)n, 1);
    for (int i = 0; i < n; i++)
        s->pj_run[i] = RUN_IDLE;
    for (int i = 0; i < s->nnodes; i++) {
        const pe_t *pe = &cl->pes[i];
        s->last_mem[i] = pe->alloc_mb + pe->lent_mb;
        s->last_lent[i] = pe->lent_mb;
    }
    if (s->csv)
        fputs(SCHEDULE_CSV(CSV_NAME1, CSV_NAME) "\n", s->csv);
    if (s->paje) {
        fputs(PAJE_HEADER, s->paje);
        fputs(s->cpn > 1 ? PAJE_TYPES_NODES : PAJE_TYPES_PE, s->paje);
        s->net = network ? cl->net : NULL;
        for (long k = 0; s->net && k < net_elem_live_count(s->net); k++) {
            const net_elem *e = net_elem_live_at(s->net, k);
            /* busy already: not with pnrsim (nothing runs before) */
            *net_slot(s, e->index) |= NET_MADE | (e->res.holder ? NET_OPEN : 0);
        }
        if (s->from <= sim->now) /* no window (or one from before now) */
            paje_begin(s, sim->now);
        s->nobs = (net_observer){.busy = on_net_busy, .created = on_net_created, .ctx = s};
    }
    s->gobs = (gang_observer){.on_job_run = on_run, .on_job_stop = on_stop, .ctx = s};
    cluster_observer o = {.gang = &s->gobs};
    if (s->paje)
        s->gobs.slot_switch = on_switch;
    if (s->paje || f->mem || f->paging) {
        s->pobs = (pe_observer){.mem = on_mem, .paging = on_paging, .ctx = s};
        o.pe = &s->pobs;
    }
    o.net = s->net ? &s->nobs : NULL;
    cluster_observe(cl, &o);
    return s;
}

bool schedule_sample(schedule_out *s, sim_t *sim, double span)
{
    return snodes_sample(s->nodes, sim, span);
}

void schedule_finish(schedule_out *s, sim_t *sim)
{
    for (int i = 0; i < s->n; i++)
        if (s->run_job[i])
            stretch_end(s, sim, s->run_job[i], sim->now);
    flush(s, sim->now, true);
    /* The trace ends with the run (or at `to`): paging states still on,
     * network elements still busy and the containers end then. A window
     * that begins after the run's end leaves a trace without containers. */
    if (s->paje && s->pj == 0 && sim->now >= s->from)
        paje_begin(s, s->from);
    if (s->paje && s->pj == 1)
        paje_end(s, sim->now < s->to ? sim->now : s->to);
    snodes_finish(s->nodes, sim);
}

void schedule_close(schedule_out *s)
{
    if (!s)
        return;
    cluster_observe(s->cl, NULL);
    snodes_close(s->nodes);
    free(s->net_flags);
    free(s->pj_run);
    free(s->run_job);
    free(s->run_from);
    free(s->run_pcs);
    free(s->run_slot);
    free(s->gen);
    free(s->last_mem);
    free(s->last_lent);
    free(s->q);
    free(s->idle);
    free(s->idle_pending);
    free(s);
}
