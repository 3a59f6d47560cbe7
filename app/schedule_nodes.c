/* app/schedule_nodes.c: pes.csv, memory.csv, paging.csv and the paging
 * bursts (see schedule_nodes.h).
 *
 * A burst begins when a node's first thread starts servicing a page fault
 * while no burst is on; when its last such thread is done, the burst's end
 * becomes due SCHEDULE_PAGING_GAP s later (a binary min-heap of nodes by
 * that time); a fault beginning before then cancels the due end (the burst
 * goes on). The burst's counts: pe->faults counts a fault when it begins
 * (just before the observer is told), pe->fault_time when it ends, so the
 * counts are taken when the burst begins (faults - 1, fault_time) and each
 * time its last fault ends. The heap is driven by app/schedule.c, which
 * merges the due ends with the Paje trace's other deferred lines in time
 * order (snodes_next_end, snodes_end_burst).
 *
 * memory.csv's rows at the window's start cannot be written at that
 * instant (no event is scheduled for it: the output must not change the
 * run): they are written before the first row at or after it, or at the
 * end of the run, from the values kept per node, which are the state then.
 */
#include "app/schedule_nodes.h"

#include "app/output.h"

#include "core/mem.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

struct snodes {
    cluster_t *cl;
    FILE *pes, *mem, *paging;
    int n;                     /* nodes */
    int group;                 /* nodes per pes.csv row */
    double from, to;           /* the window */
    /* pes.csv: values at the previous sample */
    double *last_busy, *last_ftime;
    uint64_t *last_faults;
    /* memory.csv: the values of each node's last row (the state) */
    double *m_alloc, *m_over, *m_lent, *m_held;
    bool started;              /* memory.csv's rows at `from` written */
    /* bursts */
    unsigned char *paging_on;  /* threads paging now (as last told) */
    double *pg_off;            /* when its due end is, -1 = none due */
    int *heap, *pos, len;      /* nodes with an end due, by pg_off (pos -1:
                                * not in the heap) */
    double *b_start, *b_ftime0, *b_ftime1;
    uint64_t *b_faults0, *b_faults1;
};

/* ---- the heap of due burst ends ------------------------------------------------ */

static void heap_swap(snodes *s, int a, int b)
{
    int pa = s->heap[a], pb = s->heap[b];
    s->heap[a] = pb;
    s->heap[b] = pa;
    s->pos[pb] = a;
    s->pos[pa] = b;
}

/* Restore the heap order around index i (ties: lower node first). */
static void heap_fix(snodes *s, int i)
{
#define HLESS(a, b)                                                                    \
    (s->pg_off[s->heap[a]] < s->pg_off[s->heap[b]] ||                                  \
     (s->pg_off[s->heap[a]] == s->pg_off[s->heap[b]] && s->heap[a] < s->heap[b]))
    while (i > 0 && HLESS(i, (i - 1) / 2)) {
        heap_swap(s, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
    for (;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        if (l < s->len && HLESS(l, m))
            m = l;
        if (r < s->len && HLESS(r, m))
            m = r;
        if (m == i)
            break;
        heap_swap(s, i, m);
        i = m;
    }
#undef HLESS
}

static void heap_remove(snodes *s, int node)
{
    int i = s->pos[node];
    assert(i >= 0);
    heap_swap(s, i, s->len - 1);
    s->len--;
    s->pos[node] = -1;
    if (i < s->len)
        heap_fix(s, i);
}

/* ---- files ---------------------------------------------------------------------- */

/* pes.csv: one row per group of nodes first..last per sample (m of them;
 * in snodes_sample), and its header, from this one list (see CSV_* in
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

/* memory.csv: node i's state at time t. */
#define MEMORY_CSV(FIRST, X)                                                   \
    FIRST("time", "%.12g", t)                                                  \
    X("pe", "%d", i)                                                           \
    X("mem_alloc_mb", "%.12g", s->m_alloc[i])                                  \
    X("overalloc_mb", "%.12g", s->m_over[i])                                   \
    X("netram_lent_mb", "%.12g", s->m_lent[i])                                 \
    X("netram_held_mb", "%.12g", s->m_held[i])

/* paging.csv: node i's burst from b_start to end. */
#define PAGING_CSV(FIRST, X)                                                   \
    FIRST("pe", "%d", i)                                                       \
    X("start", "%.12g", s->b_start[i])                                         \
    X("end", "%.12g", end)                                                     \
    X("page_faults", "%llu", (unsigned long long)(s->b_faults1[i] - s->b_faults0[i])) \
    X("paging_time", "%.12g", s->b_ftime1[i] - s->b_ftime0[i])

snodes *snodes_open(sim_t *sim, cluster_t *cl, FILE *pes, FILE *mem, FILE *paging,
                    double from, double to)
{
    snodes *s = xcalloc(1, sizeof *s);
    int n = cl->npes;
    s->cl = cl;
    s->pes = pes;
    s->mem = mem;
    s->paging = paging;
    s->n = n;
    s->from = from;
    s->to = to;
    s->group = (n + SCHEDULE_PE_ROWS - 1) / SCHEDULE_PE_ROWS;
    size_t N = (size_t)n;
    s->last_busy = xcalloc(N, sizeof *s->last_busy);
    s->last_ftime = xcalloc(N, sizeof *s->last_ftime);
    s->last_faults = xcalloc(N, sizeof *s->last_faults);
    s->m_alloc = xcalloc(N, sizeof *s->m_alloc);
    s->m_over = xcalloc(N, sizeof *s->m_over);
    s->m_lent = xcalloc(N, sizeof *s->m_lent);
    s->m_held = xcalloc(N, sizeof *s->m_held);
    s->paging_on = xcalloc(N, 1);
    s->pg_off = xcalloc(N, sizeof *s->pg_off);
    s->heap = xcalloc(N, sizeof *s->heap);
    s->pos = xcalloc(N, sizeof *s->pos);
    s->b_start = xcalloc(N, sizeof *s->b_start);
    s->b_ftime0 = xcalloc(N, sizeof *s->b_ftime0);
    s->b_ftime1 = xcalloc(N, sizeof *s->b_ftime1);
    s->b_faults0 = xcalloc(N, sizeof *s->b_faults0);
    s->b_faults1 = xcalloc(N, sizeof *s->b_faults1);
    for (int i = 0; i < n; i++) {
        const pe_t *pe = &cl->pes[i];
        s->pg_off[i] = -1;
        s->pos[i] = -1;
        s->last_busy[i] = pe_cpu_busy(sim, pe); /* all its cores */
        s->last_ftime[i] = pe->fault_time;
        s->last_faults[i] = pe->faults;
        s->m_alloc[i] = pe->alloc_mb + pe->lent_mb;
        s->m_over[i] = pe_overalloc_mb(pe);
        s->m_lent[i] = pe->lent_mb;
        s->m_held[i] = pe->remote_mb;
    }
    if (pes)
        fputs(PES_CSV(CSV_NAME1, CSV_NAME) "\n", pes);
    if (mem)
        fputs(MEMORY_CSV(CSV_NAME1, CSV_NAME) "\n", mem);
    if (paging)
        fputs(PAGING_CSV(CSV_NAME1, CSV_NAME) "\n", paging);
    return s;
}

bool snodes_sample(snodes *s, sim_t *sim, double span)
{
    if (!s->pes)
        return false;
    bool in = sim->now >= s->from && sim->now <= s->to;
    int n = s->n, k = s->group;
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
        if (in)
            fprintf(s->pes, PES_CSV(CSV_FMT1, CSV_FMT) "\n" PES_CSV(CSV_ARG, CSV_ARG));
    }
    return in;
}

/* memory.csv at the window's start: a row at `from` per node whose state
 * is not all zero, once, when time t (>= from) is reached. */
static void window_start(snodes *s, double now)
{
    if (s->started || now < s->from)
        return;
    s->started = true;
    const double t = s->from;
    for (int i = 0; i < s->n && s->mem && t <= s->to; i++)
        if (s->m_alloc[i] != 0 || s->m_over[i] != 0 || s->m_lent[i] != 0 || s->m_held[i] != 0)
            fprintf(s->mem, MEMORY_CSV(CSV_FMT1, CSV_FMT) "\n" MEMORY_CSV(CSV_ARG, CSV_ARG));
}

void snodes_mem(snodes *s, sim_t *sim, const pe_t *pe)
{
    const int i = pe->id;
    const double t = sim->now;
    double alloc = pe->alloc_mb + pe->lent_mb, over = pe_overalloc_mb(pe);
    if (alloc == s->m_alloc[i] && over == s->m_over[i] && pe->lent_mb == s->m_lent[i] &&
        pe->remote_mb == s->m_held[i])
        return;
    window_start(s, t);
    s->m_alloc[i] = alloc;
    s->m_over[i] = over;
    s->m_lent[i] = pe->lent_mb;
    s->m_held[i] = pe->remote_mb;
    if (s->mem && t >= s->from && t <= s->to)
        fprintf(s->mem, MEMORY_CSV(CSV_FMT1, CSV_FMT) "\n" MEMORY_CSV(CSV_ARG, CSV_ARG));
}

bool snodes_paging(snodes *s, sim_t *sim, const pe_t *pe)
{
    const int i = pe->id;
    bool on = pe->paging > 0;
    if (on == (bool)s->paging_on[i])
        return false;
    s->paging_on[i] = on;
    if (on) {
        if (s->pg_off[i] >= 0) { /* within the gap: the due end is cancelled */
            heap_remove(s, i);
            s->pg_off[i] = -1;
            return false;
        }
        assert(pe->faults >= 1);
        s->b_start[i] = sim->now;
        s->b_faults0[i] = pe->faults - 1; /* this fault is counted already */
        s->b_ftime0[i] = pe->fault_time;
        s->b_faults1[i] = pe->faults;
        s->b_ftime1[i] = pe->fault_time;
        return true;
    }
    assert(s->pos[i] < 0 && s->len < s->n);
    s->b_faults1[i] = pe->faults;
    s->b_ftime1[i] = pe->fault_time;
    s->pg_off[i] = sim->now + SCHEDULE_PAGING_GAP;
    s->heap[s->len] = i;
    s->pos[i] = s->len++;
    heap_fix(s, s->len - 1);
    return false;
}

double snodes_next_end(const snodes *s, int *node)
{
    if (s->len == 0)
        return HUGE_VAL;
    *node = s->heap[0];
    return s->pg_off[s->heap[0]];
}

/* paging.csv: node i's burst, ended at `end`, when it overlaps the window. */
static void burst_row(snodes *s, int i, double end)
{
    if (s->paging && end > s->from && s->b_start[i] < s->to)
        fprintf(s->paging, PAGING_CSV(CSV_FMT1, CSV_FMT) "\n" PAGING_CSV(CSV_ARG, CSV_ARG));
}

void snodes_end_burst(snodes *s, int node)
{
    assert(s->pos[node] >= 0);
    burst_row(s, node, s->pg_off[node]);
    heap_remove(s, node);
    s->pg_off[node] = -1;
}

bool snodes_paging_on(const snodes *s, int node)
{
    return s->paging_on[node] || s->pos[node] >= 0;
}

void snodes_finish(snodes *s, sim_t *sim)
{
    window_start(s, sim->now);
    /* Bursts still on end with the run (in node order); one still paging
     * counts the faults begun and the fault time of those ended. */
    for (int i = 0; i < s->n; i++) {
        if (!snodes_paging_on(s, i))
            continue;
        if (s->paging_on[i]) {
            s->b_faults1[i] = s->cl->pes[i].faults;
            s->b_ftime1[i] = s->cl->pes[i].fault_time;
        }
        burst_row(s, i, sim->now);
        if (s->pos[i] >= 0)
            heap_remove(s, i);
        s->pg_off[i] = -1;
        s->paging_on[i] = 0;
    }
}

void snodes_close(snodes *s)
{
    if (!s)
        return;
    free(s->last_busy);
    free(s->last_ftime);
    free(s->last_faults);
    free(s->m_alloc);
    free(s->m_over);
    free(s->m_lent);
    free(s->m_held);
    free(s->paging_on);
    free(s->pg_off);
    free(s->heap);
    free(s->pos);
    free(s->b_start);
    free(s->b_ftime0);
    free(s->b_ftime1);
    free(s->b_faults0);
    free(s->b_faults1);
    free(s);
}
