/* bench/bench_hold.c: the classic hold model on the event kernel and on
 * plain 4-ary heaps (the practical limit of this machine).
 *
 * Hold model: `pending` events are placed at Exp(1) times; then, `ops`
 * times, the earliest event is taken and one is scheduled at now + Exp(1),
 * so the queue size stays at `pending`. The set-up that fills the queue is
 * not timed; only the ops loop is (clock_gettime(CLOCK_MONOTONIC)).
 *
 *   kernel          `pending` ev_new records whose callback reschedules its
 *                   own record with ev_after(sim, id, x); the loop is
 *                   ev_run, stopped by the callback after `ops` dispatches.
 *   heap4-tuned     an array-based 4-ary min-heap of 16-byte (double t,
 *                   uint64 seq) entries, written here with the usual tuning
 *                   (branch-free 128-bit key compare, unrolled min-of-4,
 *                   the four children of a node on one cache line): pop the
 *                   min, push (now + x, seq++).
 *   heap4-textbook  the same heap written the obvious way (short-circuit
 *                   compare, loop over the children, malloc'd array): the
 *                   code shape of core/ev.c's heap. Branchy code lets the
 *                   CPU run ahead down the heap, which can win when the heap
 *                   is far larger than the caches.
 *   limit           the faster of the two plain heaps at that size: the
 *                   practical limit the targets are ratios to.
 *
 * All draw x from the same table of 2^16 pre-generated Exp(1) values,
 * indexed cyclically from 0 at the start of each set-up, so they see
 * identical keys: the kernel's final clock must equal the heaps' final
 * `now` exactly, which the program checks (check=ok).
 *
 * Each (size, variant) is measured `reps` times (default 3), the variants
 * interleaved; the figure printed is the BEST (highest rate) of the reps,
 * with the median beside it.
 *
 * Usage: bench_hold [-o ops] [-r reps] [-p pending]... [-v klt]
 *        (k kernel, l heap4-tuned, t heap4-textbook; default all)
 * Output, one line per figure:
 *   hold kernel pending=1000 ops=10000000 reps=3 Mops/s=23.40 median_Mops/s=23.10 ns/op=42.7
 *   hold heap4-tuned pending=1000 ...
 *   hold heap4-textbook pending=1000 ...
 *   hold limit pending=1000 Mops/s=37.40 from=heap4-tuned
 *   hold ratio pending=1000 kernel/limit=0.63 target=0.70 met=no check=ok
 */
#include "core/ev.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- shared Exp(1) table ------------------------------------------------ */
#define EXP_BITS 16
#define EXP_N (1u << EXP_BITS)
#define EXP_MASK (EXP_N - 1)
static double exptab[EXP_N];
static uint32_t expidx;

static inline double next_exp(void)
{
    double x = exptab[expidx];
    expidx = (expidx + 1) & EXP_MASK;
    return x;
}

static void fill_exptab(void)
{
    uint64_t s = 0x2545F4914F6CDD1Dull;
    for (uint32_t i = 0; i < EXP_N; i++) {
        /* splitmix64 -> uniform on (0, 1] -> -log(u) */
        uint64_t z = (s += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        double u = ((double)(z >> 11) + 1.0) * 0x1.0p-53;
        exptab[i] = -log(u);
    }
}

static double now_sec(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- variant (a): the kernel -------------------------------------------- */
static uint64_t k_left;

static void hold_cb(sim_t *sim, void *arg)
{
    ev_after(sim, (ev_id)(uintptr_t)arg, next_exp());
    if (--k_left == 0)
        ev_stop(sim);
}

/* Returns seconds for the timed loop; *final_now gets the clock at the end. */
static double run_kernel(size_t pending, uint64_t ops, double *final_now)
{
    sim_t sim;
    if (ev_init(&sim) != 0) {
        fprintf(stderr, "bench_hold: ev_init failed\n");
        exit(1);
    }
    expidx = 0;
    for (size_t i = 0; i < pending; i++) {
        ev_id id = ev_new(&sim, hold_cb, NULL);
        ev_set_arg(&sim, id, (void *)(uintptr_t)id);
        ev_at(&sim, id, next_exp());
    }
    k_left = ops;
    uint64_t d0 = sim.dispatched;
    double t0 = now_sec();
    ev_run_result rr = ev_run(&sim, INFINITY);
    double t1 = now_sec();
    if (rr != EV_RUN_STOPPED || sim.dispatched - d0 != ops || ev_count(&sim) != pending) {
        fprintf(stderr, "bench_hold: kernel run wrong (result %d, dispatched %llu, pending %zu)\n",
                (int)rr, (unsigned long long)(sim.dispatched - d0), ev_count(&sim));
        exit(1);
    }
    *final_now = sim.now;
    ev_destroy(&sim);
    return t1 - t0;
}

/* ---- variants (b) and (c): plain 4-ary heaps ---------------------------- */
typedef struct hent {
    double t;
    uint64_t seq;
} hent;

/* (b) heap4-tuned: a plain 4-ary heap as fast as it gets in cache. Three
 * things a textbook heap leaves on the table:
 *  - the (t, seq) order is compared as one 128-bit integer (the bits of a
 *    non-negative double order like the double itself), which compiles to
 *    cmp/sbb and a cmov instead of two unpredictable branches;
 *  - for a full node the smallest of the 4 children is found by a
 *    branch-free tournament (2 + 1 compares);
 *  - the array is placed so that entry 1 starts a 64-byte line: the four
 *    children of any node (4i+1 .. 4i+4) then share exactly one cache line
 *    (with malloc's 16-byte alignment they straddle two lines half the time).
 * The operations are still exactly "pop min, push (now + x, seq++)". */
typedef unsigned __int128 u128;

static inline u128 hkey(const hent *a)
{
    uint64_t b;
    memcpy(&b, &a->t, sizeof b);
    return ((u128)b << 64) | a->seq;
}

static inline int lless(const hent *a, const hent *b)
{
    return hkey(a) < hkey(b);
}

static inline void l_push(hent *h, size_t *n, hent e)
{
    size_t i = (*n)++;
    while (i > 0) {
        size_t p = (i - 1) >> 2;
        if (!lless(&e, &h[p]))
            break;
        h[i] = h[p];
        i = p;
    }
    h[i] = e;
}

static inline size_t l_min4(const hent *h, size_t c)
{
    size_t a = c + (lless(&h[c + 1], &h[c]) ? 1 : 0);
    size_t b = c + 2 + (lless(&h[c + 3], &h[c + 2]) ? 1 : 0);
    return lless(&h[b], &h[a]) ? b : a;
}

static inline hent l_pop(hent *h, size_t *n)
{
    hent top = h[0];
    hent e = h[--*n];
    size_t m = *n, i = 0;
    if (m == 0)
        return top;
    for (;;) {
        size_t c = 4 * i + 1, b;
        if (c + 3 < m) {
            b = l_min4(h, c);
        } else {
            if (c >= m)
                break;
            b = c;
            for (size_t k = c + 1; k < m; k++)
                b = lless(&h[k], &h[b]) ? k : b;
        }
        if (!lless(&h[b], &e))
            break;
        h[i] = h[b];
        i = b;
    }
    h[i] = e;
    return top;
}

static double run_tuned(size_t pending, uint64_t ops, double *final_now)
{
    /* entry 0 at offset 48 of a 64-byte line, so entry 1 starts a line */
    size_t bytes = ((pending + 4) * sizeof(hent) + 63) & ~(size_t)63;
    char *raw = aligned_alloc(64, bytes);
    if (!raw) {
        fprintf(stderr, "bench_hold: out of memory\n");
        exit(1);
    }
    hent *h = (hent *)(raw + 48);
    size_t n = 0;
    uint64_t seq = 1;
    expidx = 0;
    for (size_t i = 0; i < pending; i++)
        l_push(h, &n, (hent){next_exp(), seq++});
    double now = 0;
    double t0 = now_sec();
    for (uint64_t i = 0; i < ops; i++) {
        hent e = l_pop(h, &n);
        now = e.t;
        l_push(h, &n, (hent){now + next_exp(), seq++});
    }
    double t1 = now_sec();
    *final_now = now;
    free(raw);
    return t1 - t0;
}

/* (c) heap4-textbook: the same heap written the obvious way (short-circuit
 * (t, seq) compare, a loop over the children, malloc'd array); the code
 * shape of core/ev.c's heap. */
static inline int tless(const hent *a, const hent *b)
{
    return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static inline void t_push(hent *h, size_t *n, hent e)
{
    size_t i = (*n)++;
    while (i > 0) {
        size_t p = (i - 1) >> 2;
        if (!tless(&e, &h[p]))
            break;
        h[i] = h[p];
        i = p;
    }
    h[i] = e;
}

static inline hent t_pop(hent *h, size_t *n)
{
    hent top = h[0];
    hent e = h[--*n];
    size_t m = *n, i = 0;
    if (m == 0)
        return top;
    for (;;) {
        size_t c = 4 * i + 1;
        if (c >= m)
            break;
        size_t b = c;
        size_t end = c + 4 < m ? c + 4 : m;
        for (size_t k = c + 1; k < end; k++)
            if (tless(&h[k], &h[b]))
                b = k;
        if (!tless(&h[b], &e))
            break;
        h[i] = h[b];
        i = b;
    }
    h[i] = e;
    return top;
}

static double run_textbook(size_t pending, uint64_t ops, double *final_now)
{
    hent *h = malloc((pending + 1) * sizeof *h);
    if (!h) {
        fprintf(stderr, "bench_hold: out of memory\n");
        exit(1);
    }
    size_t n = 0;
    uint64_t seq = 1;
    expidx = 0;
    for (size_t i = 0; i < pending; i++)
        t_push(h, &n, (hent){next_exp(), seq++});
    double now = 0;
    double t0 = now_sec();
    for (uint64_t i = 0; i < ops; i++) {
        hent e = t_pop(h, &n);
        now = e.t;
        t_push(h, &n, (hent){now + next_exp(), seq++});
    }
    double t1 = now_sec();
    *final_now = now;
    free(h);
    return t1 - t0;
}

/* ---- driver --------------------------------------------------------------- */
static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static double best(const double *v, int n)
{
    double b = v[0];
    for (int i = 1; i < n; i++)
        if (v[i] > b)
            b = v[i];
    return b;
}

#define MAXREPS 64
#define MAXSIZES 16

enum { V_KERNEL, V_TUNED, V_TEXTBOOK, NV };
static const char *const vname[NV] = {"kernel", "heap4-tuned", "heap4-textbook"};
static double (*const vrun[NV])(size_t, uint64_t, double *) = {run_kernel, run_tuned,
                                                                run_textbook};

int main(int argc, char **argv)
{
    uint64_t ops = 10000000;
    int reps = 3;
    size_t sizes[MAXSIZES];
    int nsizes = 0;
    int on[NV] = {1, 1, 1};
    int c;
    while ((c = getopt(argc, argv, "o:r:p:v:")) != -1) {
        switch (c) {
        case 'o':
            ops = strtoull(optarg, NULL, 10);
            break;
        case 'r':
            reps = atoi(optarg);
            break;
        case 'p':
            if (nsizes < MAXSIZES)
                sizes[nsizes++] = (size_t)strtoull(optarg, NULL, 10);
            break;
        case 'v':
            on[V_KERNEL] = strchr(optarg, 'k') != NULL;
            on[V_TUNED] = strchr(optarg, 'l') != NULL;
            on[V_TEXTBOOK] = strchr(optarg, 't') != NULL;
            break;
        default:
            fprintf(stderr, "usage: %s [-o ops] [-r reps] [-p pending]... [-v klt]\n", argv[0]);
            return 2;
        }
    }
    if (reps < 1 || reps > MAXREPS || ops == 0) {
        fprintf(stderr, "bench_hold: bad -r or -o\n");
        return 2;
    }
    if (nsizes == 0) {
        sizes[nsizes++] = 1000;
        sizes[nsizes++] = 100000;
        sizes[nsizes++] = 1000000;
    }
    fill_exptab();

    for (int s = 0; s < nsizes; s++) {
        size_t pending = sizes[s];
        if (pending == 0)
            continue;
        double rate[NV][MAXREPS], fin[NV] = {0}, bestr[NV] = {0};
        /* variants interleaved within each repetition, so slow drifts of
         * the machine hit all of them alike */
        for (int r = 0; r < reps; r++)
            for (int v = 0; v < NV; v++)
                if (on[v])
                    rate[v][r] = (double)ops / vrun[v](pending, ops, &fin[v]) / 1e6;
        for (int v = 0; v < NV; v++) {
            if (!on[v])
                continue;
            bestr[v] = best(rate[v], reps);
            printf("hold %s pending=%zu ops=%llu reps=%d Mops/s=%.2f median_Mops/s=%.2f ns/op=%.1f\n",
                   vname[v], pending, (unsigned long long)ops, reps, bestr[v],
                   median(rate[v], reps), 1e3 / bestr[v]);
        }
        /* the limit: the faster plain heap at this size */
        int lim = -1;
        if (on[V_TUNED])
            lim = V_TUNED;
        if (on[V_TEXTBOOK] && (lim < 0 || bestr[V_TEXTBOOK] > bestr[lim]))
            lim = V_TEXTBOOK;
        if (lim >= 0)
            printf("hold limit pending=%zu Mops/s=%.2f from=%s\n", pending, bestr[lim],
                   vname[lim]);
        if (on[V_KERNEL] && lim >= 0) {
            double ratio = bestr[V_KERNEL] / bestr[lim];
            /* Targets (the issue): >= 0.7 at 10^3 pending, >= 0.9 at 10^6;
             * other sizes have none. */
            double target = pending == 1000 ? 0.7 : pending == 1000000 ? 0.9 : 0;
            char tgt[64];
            if (target > 0)
                snprintf(tgt, sizeof tgt, "target=%.2f met=%s", target,
                         ratio >= target ? "yes" : "no");
            else
                snprintf(tgt, sizeof tgt, "target=none");
            int ok = 1;
            for (int v = 1; v < NV; v++)
                if (on[v] && fin[v] != fin[V_KERNEL])
                    ok = 0;
            printf("hold ratio pending=%zu kernel/limit=%.3f %s check=%s\n", pending, ratio, tgt,
                   ok ? "ok" : "MISMATCH");
        }
        fflush(stdout);
    }
    return 0;
}
