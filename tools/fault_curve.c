/*
 * tools/fault_curve.c: pnrsim-fault-curve, the heavy pass of
 * tools/fault-curve (issue 33 item 2: a fault rate measured, not chosen).
 *
 * It reads a memory trace in the format of valgrind's lackey tool
 * (`valgrind --tool=lackey --trace-mem=yes`: one access a line,
 * "I  ADDR,SIZE" an instruction fetch, " L ADDR,SIZE" a load, " S ..." a
 * store, " M ..." a modify, i.e. a load and a store of the same bytes;
 * ADDR in hex; valgrind's own lines start with "==" or "--"), reduces each
 * address to its page (ADDR / page size) and computes the program's LRU
 * miss-ratio curve by stack distances (R. L. Mattson, J. Gecsei, D. R.
 * Slutz, I. L. Traiger, "Evaluation techniques for storage hierarchies",
 * IBM Systems Journal 9(2), 1970): the stack distance of a reference to
 * page p is the number of distinct pages referenced since the previous
 * reference to p, p included (1 for a page referenced twice in a row). An
 * LRU memory of m pages holds exactly the m most recently used pages, so a
 * reference misses in it iff its distance exceeds m; one pass over the
 * trace gives the misses of every memory size at once.
 *
 * One streaming pass, O(log n) per reference, memory growing with the
 * distinct pages, not with the references: a hash map page -> time of its
 * last reference, and a Fenwick tree over times holding a 1 at each page's
 * last reference time. For a reference at time `now` to a page last used
 * at t, the pages referenced since are those whose mark lies after t, so
 * the distance is F - prefix(t) + 1 (F = distinct pages so far, each with
 * one mark, every mark before now). Times are renumbered (compacted to
 * 0..F-1 in order) whenever they reach the tree's capacity, kept at least
 * twice F, so the renumbering costs O(1) per reference amortised.
 *
 * First references (cold misses) are not counted as misses: a page's
 * first touch is a zero-fill (minor) fault, not a swap-in (docs/MODEL.md,
 * "Measured fault curves"). Instruction fetches are left out unless
 * --instructions: code is file-backed, and the kernel drops and rereads
 * it from the file instead of swapping it.
 *
 * The output is the curve file of docs/MODEL.md "Measured fault curves",
 * format 1, which the simulator's process.fault_model = CURVE reads.
 */
#define _GNU_SOURCE /* F_SETPIPE_SZ */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define EMPTY UINT64_MAX

/* The pass's whole state. */
typedef struct {
    uint64_t page_size;
    int instructions;          /* count "I" lines too */
    uint32_t cap0;             /* first time capacity and hash size */
    /* hash map page -> slot; open addressing, linear probing */
    uint64_t *keys;            /* page number, EMPTY when free */
    uint32_t *when;            /* the page's last reference time */
    size_t hcap;               /* a power of two */
    size_t used;               /* distinct pages = F */
    /* Fenwick tree over times 0..tcap-1 (1-based inside) */
    int32_t *bit;
    uint32_t *owner;           /* time -> hash slot + 1, 0 = no mark */
    uint32_t tcap, now;
    /* hist[d]: references of stack distance d (1..F) */
    uint64_t *hist;
    size_t hist_cap;
    uint64_t refs;             /* every reference, cold ones included */
} fc_state;

static void *fc_alloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p) {
        fprintf(stderr, "pnrsim-fault-curve: out of memory (%zu x %zu bytes)\n", n, size);
        exit(2);
    }
    return p;
}

static uint64_t fc_hash(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

/* fc_bit_add: add v at time t (0-based). */
static void fc_bit_add(fc_state *s, uint32_t t, int32_t v)
{
    for (uint32_t i = t + 1; i <= s->tcap; i += i & (~i + 1))
        s->bit[i] += v;
}

/* fc_bit_prefix: marks at times 0..t (0-based), inclusive. */
static uint64_t fc_bit_prefix(const fc_state *s, uint32_t t)
{
    uint64_t sum = 0;
    for (uint32_t i = t + 1; i > 0; i -= i & (~i + 1))
        sum += (uint64_t)s->bit[i];
    return sum;
}

/* fc_bit_build: a tree of capacity cap with marks at times 0..n-1. */
static void fc_bit_build(fc_state *s, uint32_t cap, uint32_t n)
{
    free(s->bit);
    s->bit = fc_alloc((size_t)cap + 1, sizeof *s->bit);
    s->tcap = cap;
    for (uint32_t i = 1; i <= n; i++)
        s->bit[i] = 1;
    for (uint32_t i = 1; i <= cap; i++) {   /* O(cap) Fenwick build */
        uint32_t j = i + (i & (~i + 1));
        if (j <= cap)
            s->bit[j] += s->bit[i];
    }
}

/* fc_compact: renumber the marks 0..F-1 in time order, into a tree of
 * capacity at least 2F + cap0 (and at least the current one). */
static void fc_compact(fc_state *s)
{
    uint64_t want = 2 * (uint64_t)s->used + s->cap0;
    if (want < s->tcap)
        want = s->tcap;
    if (want > UINT32_MAX - 1) {
        fprintf(stderr, "pnrsim-fault-curve: more than 2^31 distinct pages\n");
        exit(2);
    }
    uint32_t cap = (uint32_t)want;
    uint32_t *owner = fc_alloc(cap, sizeof *owner);
    uint32_t n = 0;
    for (uint32_t t = 0; t < s->now; t++) {
        uint32_t o = s->owner[t];
        if (o) {
            s->when[o - 1] = n;
            owner[n++] = o;
        }
    }
    free(s->owner);
    s->owner = owner;
    s->now = n;
    fc_bit_build(s, cap, n);
}

static void fc_rehash(fc_state *s)
{
    size_t ocap = s->hcap;
    uint64_t *okeys = s->keys;
    uint32_t *owhen = s->when;
    s->hcap = ocap ? 2 * ocap : s->cap0;
    s->keys = fc_alloc(s->hcap, sizeof *s->keys);
    s->when = fc_alloc(s->hcap, sizeof *s->when);
    for (size_t i = 0; i < s->hcap; i++)
        s->keys[i] = EMPTY;
    for (size_t i = 0; i < ocap; i++) {
        if (okeys[i] == EMPTY)
            continue;
        size_t j = fc_hash(okeys[i]) & (s->hcap - 1);
        while (s->keys[j] != EMPTY)
            j = (j + 1) & (s->hcap - 1);
        s->keys[j] = okeys[i];
        s->when[j] = owhen[i];
        s->owner[owhen[i]] = (uint32_t)j + 1;
    }
    free(okeys);
    free(owhen);
}

/* fc_ref: one reference to page p. */
static void fc_ref(fc_state *s, uint64_t p)
{
    if (s->now == s->tcap)
        fc_compact(s);
    s->refs++;
    size_t j = fc_hash(p) & (s->hcap - 1);
    while (s->keys[j] != EMPTY && s->keys[j] != p)
        j = (j + 1) & (s->hcap - 1);
    if (s->keys[j] == p) {
        uint32_t t = s->when[j];
        uint64_t d = s->used - fc_bit_prefix(s, t) + 1;
        s->hist[d]++;
        fc_bit_add(s, t, -1);
        s->owner[t] = 0;
    } else {
        s->keys[j] = p;
        s->used++;
        if (s->used + 1 >= s->hist_cap) {
            size_t ncap = 2 * s->hist_cap;
            s->hist = realloc(s->hist, ncap * sizeof *s->hist);
            if (!s->hist) {
                fprintf(stderr, "pnrsim-fault-curve: out of memory\n");
                exit(2);
            }
            memset(s->hist + s->hist_cap, 0, (ncap - s->hist_cap) * sizeof *s->hist);
            s->hist_cap = ncap;
        }
    }
    s->when[j] = s->now;
    s->owner[s->now] = (uint32_t)j + 1;
    fc_bit_add(s, s->now, 1);
    s->now++;
    if (2 * s->used > s->hcap) /* load at most 1/2 */
        fc_rehash(s);
}

static void fc_init(fc_state *s, uint64_t page_size, int instructions, uint32_t cap0)
{
    memset(s, 0, sizeof *s);
    s->page_size = page_size;
    s->instructions = instructions;
    s->cap0 = cap0;
    s->tcap = cap0;
    s->owner = fc_alloc(s->tcap, sizeof *s->owner);
    fc_bit_build(s, s->tcap, 0);
    fc_rehash(s);
    s->hist_cap = 1024;
    s->hist = fc_alloc(s->hist_cap, sizeof *s->hist);
}

static void fc_free(fc_state *s)
{
    free(s->keys);
    free(s->when);
    free(s->bit);
    free(s->owner);
    free(s->hist);
}

static void fc_bad_line(const char *file, uint64_t line, const char *text, size_t len)
{
    fprintf(stderr, "pnrsim-fault-curve: %s: line %llu: expected a lackey trace line "
            "(\"I  ADDR,SIZE\", \" L|S|M ADDR,SIZE\" with ADDR in hex, or a valgrind line "
            "starting with == or --), got \"%.*s\"\n",
            file, (unsigned long long)line, (int)(len > 80 ? 80 : len), text);
    exit(2);
}

static int fc_hex(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* fc_line: one line (without its newline). */
static void fc_line(fc_state *s, const char *file, uint64_t line, const char *b, size_t n)
{
    if (n == 0)
        return;
    if (n >= 2 && ((b[0] == '=' && b[1] == '=') || (b[0] == '-' && b[1] == '-')))
        return;
    int instr;
    if (n >= 3 && b[0] == 'I' && b[1] == ' ' && b[2] == ' ')
        instr = 1;
    else if (n >= 3 && b[0] == ' ' && (b[1] == 'L' || b[1] == 'S' || b[1] == 'M') && b[2] == ' ')
        instr = 0;
    else
        fc_bad_line(file, line, b, n);
    size_t i = 3;
    uint64_t addr = 0;
    int digits = 0, h;
    while (i < n && (h = fc_hex((unsigned char)b[i])) >= 0) {
        if (digits == 16)
            fc_bad_line(file, line, b, n);
        addr = addr << 4 | (uint64_t)h;
        digits++;
        i++;
    }
    if (!digits || i >= n || b[i] != ',')
        fc_bad_line(file, line, b, n);
    i++;
    uint64_t size = 0;
    int sdigits = 0;
    while (i < n && b[i] >= '0' && b[i] <= '9' && sdigits < 9) {
        size = size * 10 + (uint64_t)(b[i] - '0');
        sdigits++;
        i++;
    }
    if (!sdigits || i != n || size == 0 || addr + (size - 1) < addr)
        fc_bad_line(file, line, b, n);
    if (instr && !s->instructions)
        return;
    /* an access straddling pages references each page it touches */
    uint64_t first = addr / s->page_size, last = (addr + size - 1) / s->page_size;
    for (uint64_t p = first; p <= last; p++)
        fc_ref(s, p);
}

/* fc_read: the whole trace from fd, line by line, through a large buffer.
 * Lackey writes one line per write(2); on a pipe or FIFO a reader keeping
 * up would take one read per line too and cost as much CPU as valgrind.
 * So the pipe is enlarged (1 MB) and after a short read the reader sleeps
 * 2 ms, letting lines pile up: a few hundred reads a second instead. */
static void fc_read(fc_state *s, int fd, const char *file)
{
    size_t cap = 1 << 20, len = 0;
    char *buf = fc_alloc(cap, 1);
    uint64_t line = 0;
    struct stat st;
    int is_pipe = fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode);
#ifdef F_SETPIPE_SZ
    if (is_pipe)
        (void)fcntl(fd, F_SETPIPE_SZ, 1 << 20);   /* best effort */
#endif
    for (;;) {
        ssize_t got = read(fd, buf + len, cap - len);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            fprintf(stderr, "pnrsim-fault-curve: %s: %s\n", file, strerror(errno));
            exit(2);
        }
        len += (size_t)got;
        size_t start = 0;
        char *nl;
        while ((nl = memchr(buf + start, '\n', len - start)) != NULL) {
            size_t e = (size_t)(nl - buf);
            fc_line(s, file, ++line, buf + start, e - start);
            start = e + 1;
        }
        memmove(buf, buf + start, len - start);
        len -= start;
        if (got == 0) {
            if (len)
                fc_line(s, file, ++line, buf, len);
            break;
        }
        if (len == cap)
            fc_bad_line(file, line + 1, buf, len);  /* a 1 MB line */
        if (is_pipe && (size_t)got < cap / 4) {
            struct timespec nap = {0, 2000000};
            nanosleep(&nap, NULL);
        }
    }
    free(buf);
}

static int fc_cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* fc_write: the curve file (format 1) on out. Rows: every size 0..F when
 * all_rows, otherwise 0..min(F, exact), ceil(i F / steps) for i = 1..steps,
 * and F. */
static void fc_write(const fc_state *s, FILE *out, double cpu, int all_rows,
                     unsigned exact, unsigned steps, char **comments, int ncomments)
{
    uint64_t F = s->used;
    fprintf(out, "# pnrsim fault curve, format 1 (docs/MODEL.md \"Measured fault curves\")\n");
    for (int i = 0; i < ncomments; i++)
        fprintf(out, "# %s\n", comments[i]);
    fprintf(out, "# references: %s; cold first touches (%llu) not counted as misses\n",
            s->instructions ? "data accesses and instruction fetches"
                            : "data accesses (loads, stores, modifies); instruction fetches left out",
            (unsigned long long)F);
    fprintf(out, "format = 1\npage_size = %llu\nfootprint_pages = %llu\naccesses = %llu\n"
            "cpu_seconds = %.9g\ncolumns = pages,misses\n",
            (unsigned long long)s->page_size, (unsigned long long)F,
            (unsigned long long)s->refs, cpu);
    /* miss[m] = sum over d > m of hist[d] */
    uint64_t *miss = fc_alloc(F + 1, sizeof *miss);
    uint64_t acc = 0;
    for (uint64_t m = F + 1; m-- > 0;) {
        miss[m] = acc;
        if (m >= 1)
            acc += s->hist[m];
    }
    size_t nrows = 0;
    uint64_t *rows = fc_alloc(F + 2 + exact + steps + 1, sizeof *rows);
    if (all_rows) {
        for (uint64_t m = 0; m <= F; m++)
            rows[nrows++] = m;
    } else {
        for (uint64_t m = 0; m <= F && m <= exact; m++)
            rows[nrows++] = m;
        for (unsigned i = 1; i <= steps; i++)
            rows[nrows++] = (F * i + steps - 1) / steps;
        rows[nrows++] = F;
        qsort(rows, nrows, sizeof *rows, fc_cmp_u64);
    }
    for (size_t i = 0; i < nrows; i++)
        if (i == 0 || rows[i] != rows[i - 1])
            fprintf(out, "%llu,%llu\n", (unsigned long long)rows[i], (unsigned long long)miss[rows[i]]);
    free(rows);
    free(miss);
}

static void fc_usage(FILE *f)
{
    fprintf(f,
"usage: pnrsim-fault-curve --cpu-seconds X [--page-size BYTES] [--instructions]\n"
"                          [--all-rows] [--comment TEXT]... [--capacity N]\n"
"                          [-o FILE] [TRACE]\n"
"Reads a valgrind lackey trace (--tool=lackey --trace-mem=yes) from TRACE or\n"
"standard input and writes the program's LRU fault curve (pages, misses;\n"
"docs/MODEL.md \"Measured fault curves\", format 1) to FILE or standard output.\n"
"  --cpu-seconds X   the program's native CPU time (user + sys), written as\n"
"                    cpu_seconds (faults per CPU-second = misses / X)\n"
"  --page-size B     page size in bytes (default 4096)\n"
"  --instructions    count instruction fetches (\"I\" lines) too\n"
"  --all-rows        a row for every memory size 0..F (default: 0..100,\n"
"                    every 1/200 of F, and F)\n"
"  --comment TEXT    a comment line for the file's header (repeatable)\n"
"  --capacity N      first time capacity and hash table size (a power of\n"
"                    two, default 65536; small values are for tests)\n"
"tools/fault-curve runs a program under valgrind and calls this.\n");
}

static int fc_number(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !(v >= 0))
        return 0;
    *out = v;
    return 1;
}

/* fc_main: the program, given room for the comments (freed by main). */
static int fc_main(int argc, char **argv, char **comments)
{
    double cpu = -1, ps = 4096, cap0 = 65536;
    int instructions = 0, all_rows = 0, ncomments = 0;
    const char *trace = NULL, *outname = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fc_usage(stdout);
            return 0;
        } else if (!strcmp(a, "--cpu-seconds") && has) {
            if (!fc_number(argv[++i], &cpu) || cpu <= 0) {
                fprintf(stderr, "pnrsim-fault-curve: --cpu-seconds wants a positive number of seconds, not '%s'\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(a, "--page-size") && has) {
            if (!fc_number(argv[++i], &ps) || ps < 1 || ps != (double)(uint64_t)ps || ps > 1e12) {
                fprintf(stderr, "pnrsim-fault-curve: --page-size wants a positive whole number of bytes, not '%s'\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(a, "--capacity") && has) {
            /* for tests: a small first capacity renumbers times and grows
             * the hash table often */
            if (!fc_number(argv[++i], &cap0) || cap0 < 4 || cap0 > (1 << 30) ||
                cap0 != (double)(uint32_t)cap0 || ((uint32_t)cap0 & ((uint32_t)cap0 - 1))) {
                fprintf(stderr, "pnrsim-fault-curve: --capacity wants a power of two from 4 to 2^30, not '%s'\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(a, "--instructions")) {
            instructions = 1;
        } else if (!strcmp(a, "--all-rows")) {
            all_rows = 1;
        } else if (!strcmp(a, "--comment") && has) {
            comments[ncomments++] = argv[++i];
        } else if (!strcmp(a, "-o") && has) {
            outname = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "pnrsim-fault-curve: unknown option or missing value: '%s'\n", a);
            fc_usage(stderr);
            return 2;
        } else if (!trace) {
            trace = a;
        } else {
            fprintf(stderr, "pnrsim-fault-curve: one trace only ('%s', then '%s')\n", trace, a);
            return 2;
        }
    }
    if (cpu < 0) {
        fprintf(stderr, "pnrsim-fault-curve: --cpu-seconds X is required (the program's native CPU time)\n");
        return 2;
    }
    int in = 0;
    if (trace && strcmp(trace, "-")) {
        in = open(trace, O_RDONLY);
        if (in < 0) {
            fprintf(stderr, "pnrsim-fault-curve: %s: %s\n", trace, strerror(errno));
            return 2;
        }
    }
    fc_state s;
    fc_init(&s, (uint64_t)ps, instructions, (uint32_t)cap0);
    fc_read(&s, in, trace ? trace : "stdin");
    if (in != 0)
        close(in);
    if (s.used == 0) {
        /* No page touched: no curve pnrsim could read (footprint_pages >= 1). */
        fprintf(stderr, "pnrsim-fault-curve: %s: no memory access in the trace: expected "
                        "lackey lines (\" L ADDR,SIZE\", \" S\", \" M\"%s)\n",
                trace ? trace : "stdin", instructions ? ", \"I\"" : "");
        fc_free(&s);
        return 2;
    }
    FILE *out = stdout;
    if (outname) {
        out = fopen(outname, "w");
        if (!out) {
            fprintf(stderr, "pnrsim-fault-curve: %s: %s\n", outname, strerror(errno));
            fc_free(&s);
            return 2;
        }
    }
    fc_write(&s, out, cpu, all_rows, 100, 200, comments, ncomments);
    fc_free(&s);
    if (fflush(out) || ferror(out) || (out != stdout && fclose(out))) {
        fprintf(stderr, "pnrsim-fault-curve: %s: write failed\n", outname ? outname : "stdout");
        return 2;
    }
    return 0;
}

int main(int argc, char **argv)
{
    char **comments = fc_alloc((size_t)argc, sizeof *comments);
    int rc = fc_main(argc, argv, comments);
    free(comments);
    return rc;
}
