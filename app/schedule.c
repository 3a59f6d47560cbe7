/* app/schedule.c: schedule.csv, pes.csv and schedule.paje (see schedule.h).
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
 * the trace a third smaller.
 *
 * With several cores per node (issue 25) a job state belongs to a core and
 * memory and paging to its node: the trace then has a Node container
 * (alias p<node>, as a PE's) per node holding a Core container (k<core>)
 * per core, and the job-state lines name cores (s->rp); with one core per
 * node the PE containers and every line are as before, byte for byte.
 */
#include "app/schedule.h"

#include "app/output.h"

#include "core/mem.h"
#include "hw/pe.h"
#include "net/net.h"
#include "sched/cluster.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

typedef struct pending {
    double t;        /* when the job's threads start computing */
    const job_t *j;
    int pe0;         /* its first PE */
    unsigned gen;    /* gen[pe0] when queued */
} pending;

struct schedule_out {
    cluster_t *cl;
    double period;
    FILE *csv, *pes, *paje;
    int n;           /* entries of the per-PE arrays: max(nodes, cores) */
    int nnodes;      /* PEs of cl->pes (nodes): pes.csv's rows */
    int cpn;         /* cores per node */
    const char *rp;  /* Paje alias prefix of a core: "p" (C = 1: the PE),
                      * "k" (C > 1: nodes are p<node>, cores k<core>) */
    /* current stretch, under the job's first PE */
    const job_t **run_job;
    double *run_from, *run_pcs;
    int *run_slot;
    unsigned *gen;
    /* Paje: last variable values written, deferred state changes */
    double *last_mem, *last_lent;
    unsigned char *paging_on;
    pending *q;
    int qhead, qlen;
    /* paging ends due: a binary min-heap of PEs by pg_off (pos: index in
     * the heap, -1 when not in it) */
    int *pgheap, *pgpos, pglen;
    double *pg_off;            /* per PE: when its paging state ends, -1 = none due */
    int *idle;                 /* PEs that went idle at idle_t */
    unsigned char *idle_pending;
    int nidle;
    double idle_t;
    /* pes.csv: values at the previous sample */
    double *last_busy, *last_ftime;
    uint64_t *last_faults;
    int group;       /* PEs per pes.csv row */
    gang_observer gobs;
    pe_observer pobs;
    net_observer nobs;         /* links and switches (Paje only) */
    net_t *net;
    /* Network states in schedule.paje: at most net_cap pushes (0 = no cap);
     * later pushes are counted (net_dropped, the first at net_capped_at),
     * and the pops of the states still open are written so the trace stays
     * well formed. net_open[index]: a pushed state is open. */
    long net_cap, net_pushes, net_dropped;
    double net_capped_at;
    unsigned char *net_open;
    size_t net_open_n;
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

static void heap_swap(schedule_out *s, int a, int b)
{
    int pa = s->pgheap[a], pb = s->pgheap[b];
    s->pgheap[a] = pb;
    s->pgheap[b] = pa;
    s->pgpos[pb] = a;
    s->pgpos[pa] = b;
}

/* Restore the heap order around index i (ties: lower PE first). */
static void heap_fix(schedule_out *s, int i)
{
#define HLESS(a, b)                                                                    \
    (s->pg_off[s->pgheap[a]] < s->pg_off[s->pgheap[b]] ||                              \
     (s->pg_off[s->pgheap[a]] == s->pg_off[s->pgheap[b]] && s->pgheap[a] < s->pgheap[b]))
    while (i > 0 && HLESS(i, (i - 1) / 2)) {
        heap_swap(s, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
    for (;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        if (l < s->pglen && HLESS(l, m))
            m = l;
        if (r < s->pglen && HLESS(r, m))
            m = r;
        if (m == i)
            break;
        heap_swap(s, i, m);
        i = m;
    }
#undef HLESS
}

static void heap_remove(schedule_out *s, int pe)
{
    int i = s->pgpos[pe];
    assert(i >= 0);
    heap_swap(s, i, s->pglen - 1);
    s->pglen--;
    s->pgpos[pe] = -1;
    if (i < s->pglen)
        heap_fix(s, i);
}

/* Write the deferred state changes due at or before t (idle marks: of an
 * earlier instant, or all when `all`). */
static void paje_flush(schedule_out *s, double t, bool all)
{
    if (s->nidle > 0 && (all || s->idle_t < t)) {
        for (int k = 0; k < s->nidle; k++) {
            int pe = s->idle[k];
            if (s->idle_pending[pe])
                fprintf(s->paje, "7 %s RUN %s%d idle\n", tstr(s, s->idle_t), s->rp, pe);
            s->idle_pending[pe] = 0;
        }
        s->nidle = 0;
    }
    /* Pending ends of context switches and of paging, merged in time order
     * (each FIFO is in time order; both are later than any idle mark). */
    for (;;) {
        bool q_due = s->qlen > 0 && s->q[s->qhead].t <= t;
        bool pg_due = s->pglen > 0 && s->pg_off[s->pgheap[0]] <= t;
        if (!q_due && !pg_due)
            break;
        if (q_due && (!pg_due || s->q[s->qhead].t <= s->pg_off[s->pgheap[0]])) {
            pending *p = &s->q[s->qhead];
            if (p->gen == s->gen[p->pe0] && s->run_job[p->pe0] == p->j) {
                const job_t *j = p->j;
                for (int i = 0; i < j->threads; i++)
                    fprintf(s->paje, "7 %s RUN %s%d \"job %ld\"\n", tstr(s, p->t), s->rp, j->pe_ids[i],
                            j->id);
            }
            s->qhead = (s->qhead + 1) % s->n;
            s->qlen--;
        } else {
            int pe = s->pgheap[0];
            fprintf(s->paje, "9 %s PG p%d\n", tstr(s, s->pg_off[pe]), pe);
            heap_remove(s, pe);
            s->pg_off[pe] = -1;
        }
    }
}

static void paje_advance(schedule_out *s, double t)
{
    paje_flush(s, t, false);
}

/* Drop the pending ends of context switches whose stretch is over (their
 * PE's generation moved on, or another job runs there): paje_flush would
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
    if (!s->paje)
        return;
    paje_advance(s, sim->now);
    for (int i = 0; i < j->threads; i++)
        s->idle_pending[j->pe_ids[i]] = 0; /* replaced at this instant */
    if (from > sim->now) {
        for (int i = 0; i < j->threads; i++)
            fprintf(s->paje, "7 %s RUN %s%d pcs\n", tstr(s, sim->now), s->rp, j->pe_ids[i]);
        if (s->qlen == s->n)
            pending_compact(s);
        assert(s->qlen < s->n);
        assert(s->qlen == 0 || s->q[(s->qhead + s->qlen - 1) % s->n].t <= from);
        s->q[(s->qhead + s->qlen) % s->n] = (pending){from, j, pe0, s->gen[pe0]};
        s->qlen++;
    } else {
        for (int i = 0; i < j->threads; i++)
            fprintf(s->paje, "7 %s RUN %s%d \"job %ld\"\n", tstr(s, sim->now), s->rp, j->pe_ids[i],
                    j->id);
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

/* Write the rows of j's stretch ending at `end` and forget it. */
static void stretch_end(schedule_out *s, sim_t *sim, const job_t *j, double end)
{
    int pe0 = j->pe_ids[0];
    assert(s->run_job[pe0] == j);
    if (s->paje)
        paje_advance(s, sim->now); /* first: this stretch's own deferred change */
    double from = s->run_from[pe0];
    if (s->csv && end > from) {
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
                    paje_flush(s, sim->now, true);
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
    paje_advance(s, sim->now);
    fprintf(s->paje, "10 %s SW c \"slot %d of %d\"\n", tstr(s, sim->now), slot, nslots);
}

static void on_mem(sim_t *sim, const pe_t *pe, void *ctx)
{
    schedule_out *s = ctx;
    double mem = pe->alloc_mb + pe->lent_mb;
    if (mem == s->last_mem[pe->id] && pe->lent_mb == s->last_lent[pe->id])
        return;
    paje_advance(s, sim->now);
    if (mem != s->last_mem[pe->id])
        fprintf(s->paje, "11 %s MEM p%d %.12g\n", tstr(s, sim->now), pe->id, mem);
    if (pe->lent_mb != s->last_lent[pe->id])
        fprintf(s->paje, "11 %s LENT p%d %.12g\n", tstr(s, sim->now), pe->id, pe->lent_mb);
    s->last_mem[pe->id] = mem;
    s->last_lent[pe->id] = pe->lent_mb;
}

/* The PE's paging state is on while at least one thread services a page
 * fault, and stays on for SCHEDULE_PAGING_GAP s after the last one ended:
 * a PE that pages keeps one state instead of one per fault (a fault every
 * few milliseconds would make the trace gigabytes long). */
static void on_paging(sim_t *sim, const pe_t *pe, void *ctx)
{
    schedule_out *s = ctx;
    bool on = pe->paging > 0;
    if (on == (bool)s->paging_on[pe->id])
        return;
    s->paging_on[pe->id] = on;
    paje_advance(s, sim->now);
    if (on) {
        if (s->pg_off[pe->id] >= 0) { /* still on: the pending end is cancelled */
            heap_remove(s, pe->id);
            s->pg_off[pe->id] = -1;
        } else
            fprintf(s->paje, "8 %s PG p%d paging\n", tstr(s, sim->now), pe->id);
    } else {
        assert(s->pgpos[pe->id] < 0 && s->pglen < s->n);
        s->pg_off[pe->id] = sim->now + SCHEDULE_PAGING_GAP;
        s->pgheap[s->pglen] = pe->id;
        s->pgpos[pe->id] = s->pglen++;
        heap_fix(s, s->pglen - 1);
    }
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

static void on_net_created(sim_t *sim, const net_elem *e, void *ctx)
{
    schedule_out *s = ctx;
    paje_advance(s, sim->now);
    paje_elem_create(s, sim->now, e);
}

static void on_net_busy(sim_t *sim, const net_elem *e, bool busy, void *ctx)
{
    schedule_out *s = ctx;
    size_t i = (size_t)e->index;
    if (i >= s->net_open_n) { /* CONNECTED links appear on first use */
        size_t n = s->net_open_n ? s->net_open_n : 64;
        while (n <= i)
            n *= 2;
        s->net_open = xrealloc(s->net_open, n);
        memset(s->net_open + s->net_open_n, 0, n - s->net_open_n);
        s->net_open_n = n;
    }
    if (busy && s->net_cap > 0 && s->net_pushes >= s->net_cap) {
        if (!s->net_dropped)
            s->net_capped_at = sim->now;
        s->net_dropped++;
        return;
    }
    if (!busy && !s->net_open[i])
        return; /* its push was dropped */
    paje_advance(s, sim->now);
    if (busy) {
        s->net_pushes++;
        s->net_open[i] = 1;
        fprintf(s->paje, "8 %s %s n%ld %s\n", tstr(s, sim->now), e->is_switch ? "SS" : "LS",
                e->index, e->is_switch ? "fwd" : "xfer");
    } else {
        s->net_open[i] = 0;
        fprintf(s->paje, "9 %s %s n%ld\n", tstr(s, sim->now), e->is_switch ? "SS" : "LS",
                e->index);
    }
}

void schedule_set_net_cap(schedule_out *s, long cap)
{
    s->net_cap = cap;
}

long schedule_net_dropped(const schedule_out *s, double *at)
{
    if (at)
        *at = s->net_capped_at;
    return s->net_dropped;
}

/* pes.csv: one row per group of PEs first..last per sample (m of them;
 * in schedule_sample), and its header, from this one list (see CSV_* in
 * app/output.h). */
#define PES_CSV(FIRST, X)                                                      \
    FIRST("time", "%.12g", sim->now)                                           \
    X("first_pe", "%d", first)                                                 \
    X("last_pe", "%d", last)                                                   \
    X("mem_alloc_mb", "%.6g", mem / m)                                         \
    X("overalloc_mb", "%.6g", over / m)                                        \
    X("netram_lent_mb", "%.6g", lent / m)                                      \
    X("netram_held_mb", "%.6g", held / m)                                      \
    X("page_faults", "%.6g", (double)faults / m)                               \
    X("paging_time", "%.6g", ftime / m)                                        \
    X("cpu_busy", "%.6g", busy / (m * span))

/* ---- life cycle ---------------------------------------------------------------- */

/* Several cores per node: a Node container p<node> per node (compute nodes
 * and memory servers: its memory variables and paging state), holding a
 * Core container k<core> per core of a compute node (its job states, idle
 * at first; memory servers run no threads and have none). */
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
            fprintf(s->paje, "7 %s RUN k%d idle\n", tstr(s, t), i * C + c);
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

schedule_out *schedule_open(sim_t *sim, cluster_t *cl, double period, bool network,
                            FILE *csv, FILE *pes, FILE *paje)
{
    schedule_out *s = xcalloc(1, sizeof *s);
    /* The stretches are per core (a gang column), pes.csv per node (with
     * one core per node both are the PEs). Paje: with one core per node a
     * container per PE; with several, a container per node (memory,
     * paging) holding one per core (job states). */
    int n = cl->npes, cores = cluster_cores(cl);
    s->nnodes = n;
    s->cpn = cluster_cpn(cl);
    s->rp = s->cpn > 1 ? "k" : "p";
    if (cores > n)
        n = cores;
    s->cl = cl;
    s->period = period;
    s->csv = csv;
    s->pes = pes;
    s->paje = paje;
    s->n = n;
    s->run_job = xcalloc((size_t)n, sizeof *s->run_job);
    s->run_from = xcalloc((size_t)n, sizeof *s->run_from);
    s->run_pcs = xcalloc((size_t)n, sizeof *s->run_pcs);
    s->run_slot = xcalloc((size_t)n, sizeof *s->run_slot);
    s->gen = xcalloc((size_t)n, sizeof *s->gen);
    s->last_mem = xcalloc((size_t)n, sizeof *s->last_mem);
    s->last_lent = xcalloc((size_t)n, sizeof *s->last_lent);
    s->q = xcalloc((size_t)n, sizeof *s->q);
    s->paging_on = xcalloc((size_t)n, 1);
    s->idle = xcalloc((size_t)n, sizeof *s->idle);
    s->pgheap = xcalloc((size_t)n, sizeof *s->pgheap);
    s->pgpos = xcalloc((size_t)n, sizeof *s->pgpos);
    s->pg_off = xcalloc((size_t)n, sizeof *s->pg_off);
    for (int i = 0; i < n; i++) {
        s->pg_off[i] = -1;
        s->pgpos[i] = -1;
    }
    s->idle_pending = xcalloc((size_t)n, 1);
    s->last_busy = xcalloc((size_t)n, sizeof *s->last_busy);
    s->last_ftime = xcalloc((size_t)n, sizeof *s->last_ftime);
    s->last_faults = xcalloc((size_t)n, sizeof *s->last_faults);
    s->group = (s->nnodes + SCHEDULE_PE_ROWS - 1) / SCHEDULE_PE_ROWS;
    for (int i = 0; i < s->nnodes; i++) {
        const pe_t *pe = &cl->pes[i];
        s->last_mem[i] = pe->alloc_mb + pe->lent_mb;
        s->last_lent[i] = pe->lent_mb;
        s->last_busy[i] = pe_cpu_busy(sim, pe); /* all its cores */
        s->last_ftime[i] = pe->fault_time;
        s->last_faults[i] = pe->faults;
    }
    if (csv)
        fputs(SCHEDULE_CSV(CSV_NAME1, CSV_NAME) "\n", csv);
    if (pes)
        fputs(PES_CSV(CSV_NAME1, CSV_NAME) "\n", pes);
    if (paje) {
        fputs(PAJE_HEADER, paje);
        fputs(s->cpn > 1 ? PAJE_TYPES_NODES : PAJE_TYPES_PE, paje);
        fprintf(paje, "5 %.15g c CL 0 \"cluster\"\n", sim->now);
        if (s->cpn > 1)
            paje_open_nodes(s, sim->now);
        for (int i = 0; i < n && s->cpn == 1; i++) {
            const pe_t *pe = &cl->pes[i];
            fprintf(paje, "5 %.15g p%d PE c \"%s\"\n", sim->now, i, pe->name);
            fprintf(paje, "7 %.15g RUN p%d idle\n", sim->now, i);
            fprintf(paje, "11 %.15g MEM p%d %.12g\n", sim->now, i, s->last_mem[i]);
            fprintf(paje, "11 %.15g LENT p%d %.12g\n", sim->now, i, s->last_lent[i]);
        }
        s->net = network ? cl->net : NULL;
        for (long k = 0; s->net && k < net_elem_live_count(s->net); k++) {
            const net_elem *e = net_elem_live_at(s->net, k);
            paje_elem_create(s, sim->now, e);
            if (e->res.holder) /* busy already (not with pnrsim: nothing runs before) */
                on_net_busy(sim, e, true, s);
        }
        s->nobs = (net_observer){.busy = on_net_busy, .created = on_net_created, .ctx = s};
    }
    s->gobs = (gang_observer){.on_job_run = on_run, .on_job_stop = on_stop, .ctx = s};
    cluster_observer o = {.gang = &s->gobs};
    if (paje) {
        s->gobs.slot_switch = on_switch;
        s->pobs = (pe_observer){.mem = on_mem, .paging = on_paging, .ctx = s};
        o.pe = &s->pobs;
        o.net = network ? &s->nobs : NULL;
    }
    cluster_observe(cl, &o);
    return s;
}

void schedule_sample(schedule_out *s, sim_t *sim, double span)
{
    if (!s->pes)
        return;
    int n = s->nnodes, k = s->group;
    for (int first = 0; first < n; first += k) {
        int last = first + k < n ? first + k - 1 : n - 1;
        double mem = 0, over = 0, lent = 0, held = 0, ftime = 0, busy = 0;
        uint64_t faults = 0;
        for (int i = first; i <= last; i++) {
            const pe_t *pe = &s->cl->pes[i];
            mem += pe->alloc_mb + pe->lent_mb;
            over += pe_overalloc_mb(pe);
            lent += pe->lent_mb;
            held += pe->remote_mb;
            faults += pe->faults - s->last_faults[i];
            s->last_faults[i] = pe->faults;
            ftime += pe->fault_time - s->last_ftime[i];
            s->last_ftime[i] = pe->fault_time;
            double b = pe_cpu_busy(sim, pe); /* summed over its cores */
            busy += b - s->last_busy[i];
            s->last_busy[i] = b;
        }
        /* Means over the group's PEs (one PE when N <= SCHEDULE_PE_ROWS). */
        double m = last - first + 1;
        fprintf(s->pes, PES_CSV(CSV_FMT1, CSV_FMT) "\n" PES_CSV(CSV_ARG, CSV_ARG));
    }
}

void schedule_finish(schedule_out *s, sim_t *sim)
{
    for (int i = 0; i < s->n; i++)
        if (s->run_job[i])
            stretch_end(s, sim, s->run_job[i], sim->now);
    if (s->paje) {
        paje_flush(s, sim->now, true);
        /* Paging states still on end with the run. */
        for (int i = 0; i < s->nnodes; i++)
            if (s->pgpos[i] >= 0 || s->paging_on[i])
                fprintf(s->paje, "9 %s PG p%d\n", tstr(s, sim->now), i);
        if (s->cpn > 1)
            paje_close_nodes(s, sim->now);
        for (int i = 0; i < s->nnodes && s->cpn == 1; i++)
            fprintf(s->paje, "6 %s PE p%d\n", tstr(s, sim->now), i);
        /* Links and switches: those still busy end with the run. */
        for (long k = 0; s->net && k < net_elem_live_count(s->net); k++) {
            const net_elem *e = net_elem_live_at(s->net, k);
            if (e->res.holder)
                on_net_busy(sim, e, false, s);
            fprintf(s->paje, "6 %s %s n%ld\n", tstr(s, sim->now), e->is_switch ? "SWT" : "LK",
                    e->index);
        }
        fprintf(s->paje, "6 %s CL c\n", tstr(s, sim->now));
    }
}

void schedule_close(schedule_out *s)
{
    if (!s)
        return;
    cluster_observe(s->cl, NULL);
    free(s->net_open);
    free(s->run_job);
    free(s->run_from);
    free(s->run_pcs);
    free(s->run_slot);
    free(s->gen);
    free(s->last_mem);
    free(s->last_lent);
    free(s->q);
    free(s->paging_on);
    free(s->idle);
    free(s->pgheap);
    free(s->pgpos);
    free(s->pg_off);
    free(s->idle_pending);
    free(s->last_busy);
    free(s->last_ftime);
    free(s->last_faults);
    free(s);
}
