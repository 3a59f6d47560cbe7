/* app/curve.c: fault model CURVE's files (see curve.h; issue 33,
 * docs/MODEL.md "Measured fault curves" and "Fault model CURVE").
 *
 * A curve file is what tools/fault-curve writes from a program's memory
 * trace: a header of five numbers and a table of (pages, misses). It is
 * read whole, once, at the start of a run (run_create), into the plain
 * struct of sched/job_curve.h that each job of the run points to; nothing
 * is read or allocated while the run goes on. The reader is strict: any
 * line it cannot take stops the run with the file, the line and what was
 * expected there (exit 2), nothing is clamped or skipped, because a curve
 * that is silently wrong gives every fault rate of the run wrong.
 *
 * The set (curve_set) holds the run's curves: process.fault_curve's (the
 * jobs not mapped) and fault_curves' APP:FILE items, sorted by application
 * number so that a job's curve is a binary search at its arrival.
 */
#include "app/curve.h"
#include "app/config_keys.h"
#include "app/util.h"

#include "core/mem.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The largest file read (a curve of 40 million rows, 160 GB of memory). */
#define CURVE_MAX_BYTES ((size_t)1 << 30)

/* The reader's place, for messages. */
typedef struct rd {
    const char *path;
    long line;                /* 0: the file as a whole */
    char *err;
} rd;

static int fail(rd *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(rd *r, const char *fmt, ...)
{
    char shown[180], why[300];
    util_path_shown(shown, sizeof shown, r->path);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    if (r->line > 0)
        snprintf(r->err, CFG_ERR_MAX, "%s:%ld: %s", shown, r->line, why);
    else
        snprintf(r->err, CFG_ERR_MAX, "%s: %s", shown, why);
    return -1;
}

/* [s, e) as a whole number of at most 15 digits (exact in a double). */
static bool whole(const char *s, const char *e, double *v)
{
    if (s == e || e - s > 15)
        return false;
    double x = 0;
    for (const char *p = s; p < e; p++) {
        if (*p < '0' || *p > '9')
            return false;
        x = x * 10 + (*p - '0');
    }
    *v = x;
    return true;
}

/* [s, e) as a finite decimal number > 0 (digits, '.', an exponent). */
static bool positive(const char *s, const char *e, double *v)
{
    char buf[64];
    if (s == e || e - s >= (long)sizeof buf || strspn(s, "0123456789.eE+-") < (size_t)(e - s))
        return false;
    memcpy(buf, s, (size_t)(e - s));
    buf[e - s] = '\0';
    char *end;
    *v = strtod(buf, &end);
    return *end == '\0' && isfinite(*v) && *v > 0;
}

/* The header's numbers after format, in the order messages list them. */
#define CURVE_MAX_RATE 1e10 /* faults per CPU second: a mean gap of 1e-10 s */

enum { H_PAGE_SIZE, H_FOOTPRINT, H_ACCESSES, H_CPU, H_N };
static const char *const hnames[H_N] = {"page_size", "footprint_pages", "accesses",
                                        "cpu_seconds"};

/* The state of a read: where in the file, what was read so far. */
typedef struct parse {
    enum { P_FORMAT, P_HEADER, P_BODY, P_DONE } at;
    double h[H_N];
    long hline[H_N];          /* line of each header key, 0 = not yet */
    long last_line;           /* the last row's line */
    long cap;
} parse;

static void add_row(fault_curve *c, parse *ps, double pages, double misses)
{
    if (c->n == ps->cap) {
        ps->cap = ps->cap ? 2 * ps->cap : 256;
        c->pages = xrealloc(c->pages, (size_t)ps->cap * sizeof *c->pages);
        c->misses = xrealloc(c->misses, (size_t)ps->cap * sizeof *c->misses);
    }
    c->pages[c->n] = pages;
    c->misses[c->n] = misses;
    c->n++;
}

/* A header line [s, e) (trimmed, not a comment): KEY = VALUE. */
static int header_line(rd *r, parse *ps, fault_curve *c, const char *s, const char *e)
{
    const char *eq = memchr(s, '=', (size_t)(e - s));
    if (!eq)
        return fail(r, "expected KEY = VALUE (the header: format, then page_size, "
                       "footprint_pages, accesses, cpu_seconds, then columns), got \"%.40s\"",
                    s);
    const char *ke = eq, *v = eq + 1;
    while (ke > s && (ke[-1] == ' ' || ke[-1] == '\t'))
        ke--;
    while (v < e && (*v == ' ' || *v == '\t'))
        v++;
    int klen = (int)(ke - s);
    if (ps->at == P_FORMAT) {
        double f;
        if (klen != 6 || strncmp(s, "format", 6))
            return fail(r, "expected \"format = 1\" first (before any line but comments and "
                           "blanks), got \"%.40s\"", s);
        if (!whole(v, e, &f))
            return fail(r, "format \"%.*s\": expected a whole number (1)", (int)(e - v), v);
        if (f != 1)
            return fail(r, "format %.0f: this pnrsim reads format 1 only", f);
        ps->at = P_HEADER;
        return 0;
    }
    if (klen == 7 && !strncmp(s, "columns", 7)) {
        for (int k = 0; k < H_N; k++)
            if (!ps->hline[k])
                return fail(r, "missing header key %s before columns: expected page_size, "
                               "footprint_pages, accesses and cpu_seconds, each once",
                            hnames[k]);
        if (e - v != 12 || strncmp(v, "pages,misses", 12))
            return fail(r, "columns = \"%.*s\": expected columns = pages,misses",
                        (int)(e - v > 40 ? 40 : e - v), v);
        c->page_size = (long)ps->h[H_PAGE_SIZE];
        c->footprint = ps->h[H_FOOTPRINT];
        c->accesses = ps->h[H_ACCESSES];
        c->cpu_seconds = ps->h[H_CPU];
        ps->at = P_BODY;
        return 0;
    }
    for (int k = 0; k < H_N; k++) {
        if ((size_t)klen != strlen(hnames[k]) || strncmp(s, hnames[k], (size_t)klen))
            continue;
        if (ps->hline[k])
            return fail(r, "%s given twice (first at line %ld): expected each header key once",
                        hnames[k], ps->hline[k]);
        bool okv = k == H_CPU ? positive(v, e, &ps->h[k]) : whole(v, e, &ps->h[k]);
        if (okv && (k == H_PAGE_SIZE || k == H_FOOTPRINT) && ps->h[k] < 1)
            okv = false;
        if (!okv)
            return fail(r, "%s = \"%.*s\": expected %s", hnames[k], (int)(e - v > 40 ? 40 : e - v),
                        v,
                        k == H_CPU ? "a decimal number above 0 (CPU seconds of the measured run)"
                        : k == H_ACCESSES ? "a whole number (memory accesses measured)"
                                          : "a whole number of at least 1");
        ps->hline[k] = r->line;
        return 0;
    }
    return fail(r, "unknown header key \"%.*s\": expected page_size, footprint_pages, "
                   "accesses, cpu_seconds or columns", klen > 40 ? 40 : klen, s);
}

/* A row [s, e) (trimmed, not a comment): PAGES,MISSES. */
static int body_line(rd *r, parse *ps, fault_curve *c, const char *s, const char *e)
{
    const char *comma = memchr(s, ',', (size_t)(e - s));
    double p, m;
    if (!comma || !whole(s, comma, &p) || !whole(comma + 1, e, &m))
        return fail(r, "expected a row PAGES,MISSES (two whole numbers of at most 15 digits "
                       "and a comma, no blanks), got \"%.*s\"",
                    (int)(e - s > 40 ? 40 : e - s), s);
    if (c->n == 0 && p != 0)
        return fail(r, "the first row's pages is %.0f: expected 0 (a memory of no pages)", p);
    if (c->n > 0 && !(p > c->pages[c->n - 1]))
        return fail(r, "pages %.0f not above the previous row's %.0f (line %ld): expected "
                       "pages strictly increasing", p, c->pages[c->n - 1], ps->last_line);
    if (p > c->footprint)
        return fail(r, "pages %.0f beyond footprint_pages = %.0f: expected rows up to it",
                    p, c->footprint);
    if (c->n == 0 && m > c->accesses)
        return fail(r, "misses %.0f exceed accesses = %.0f: a miss is an access", m,
                    c->accesses);
    /* The highest rate (the first row's) bounded as mem_access_rate's R is
     * (>= 1e-10 s): a mean gap below 1e-10 CPU s would vanish in rounding
     * against a thread's CPU time and stop its clock (review of issue 33). */
    if (c->n == 0 && m / c->cpu_seconds > CURVE_MAX_RATE)
        return fail(r, "misses %.0f in cpu_seconds = %.6g: %.3g faults per CPU second, "
                       "expected at most %.0e (a mean gap of at least 1e-10 s, the bound of "
                       "mem_access_rate)", m, c->cpu_seconds, m / c->cpu_seconds,
                    CURVE_MAX_RATE);
    if (c->n > 0 && m > c->misses[c->n - 1])
        return fail(r, "misses %.0f above the previous row's %.0f (line %ld): expected misses "
                       "non-increasing (an LRU memory of more pages misses no more)",
                    m, c->misses[c->n - 1], ps->last_line);
    if (p == c->footprint && m != 0)
        return fail(r, "the last row (pages = footprint_pages = %.0f) has misses %.0f: "
                       "expected 0 (the whole footprint fits)", p, m);
    add_row(c, ps, p, m);
    ps->last_line = r->line;
    if (p == c->footprint)
        ps->at = P_DONE;
    return 0;
}

/* The text of the file (len bytes), line by line. */
static int parse_text(rd *r, fault_curve *c, const char *text, size_t len)
{
    parse ps = {.at = P_FORMAT};
    const char *p = text, *end = text + len;
    r->line = 0;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end, *s = p;
        r->line++;
        p = nl ? nl + 1 : end;
        while (s < le && (*s == ' ' || *s == '\t'))
            s++;
        if (s == le || *s == '#')
            continue; /* blank or comment */
        if (memchr(s, '\r', (size_t)(le - s)))
            return fail(r, "a carriage return: expected Unix line ends (LF, not CR LF)");
        const char *e = le;
        while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
            e--;
        int rc;
        if (ps.at == P_DONE)
            return fail(r, "a line after the last row (pages = footprint_pages, line %ld): "
                           "expected only comments and blank lines", ps.last_line);
        rc = ps.at == P_BODY ? body_line(r, &ps, c, s, e) : header_line(r, &ps, c, s, e);
        if (rc != 0)
            return -1;
    }
    if (ps.at == P_FORMAT)
        return fail(r, "no \"format = 1\" line: expected a fault curve (docs/MODEL.md, "
                       "measured fault curves)");
    if (ps.at == P_HEADER)
        return fail(r, "the file ends in its header: expected page_size, footprint_pages, "
                       "accesses, cpu_seconds, then columns = pages,misses and the rows");
    if (ps.at == P_BODY && c->n == 0)
        return fail(r, "the file ends after its header: expected rows 0,MISSES up to "
                       "footprint_pages = %.0f", c->footprint);
    if (ps.at == P_BODY)
        return fail(r, "the file ends after the row of pages %.0f (line %ld): expected rows "
                       "up to pages = footprint_pages = %.0f, the last with misses 0",
                    c->pages[c->n - 1], ps.last_line, c->footprint);
    return 0;
}

int curve_read(const char *path, fault_curve *c, char err[CFG_ERR_MAX])
{
    memset(c, 0, sizeof *c);
    rd r = {.path = path, .line = 0, .err = err};
    size_t len;
    util_read_fail why;
    char *text = util_read_file(path, CURVE_MAX_BYTES, &len, &why);
    if (!text)
        return fail(&r, "cannot read the fault curve: %s",
                    why == UTIL_READ_BIG ? "larger than 1 GiB"
                    : why == UTIL_READ_DIR ? "a directory" : strerror(errno));
    int rc = 0;
    if (strlen(text) != len)
        rc = fail(&r, "a NUL byte at offset %zu: expected a text file", strlen(text));
    else
        rc = parse_text(&r, c, text, len);
    free(text);
    if (rc != 0)
        curve_free(c);
    return rc;
}

void curve_free(fault_curve *c)
{
    free(c->pages);
    free(c->misses);
    memset(c, 0, sizeof *c);
}

/* ---- the run's curves ------------------------------------------------------- */

static int by_app(const void *a, const void *b)
{
    double x = ((const curve_app *)a)->app, y = ((const curve_app *)b)->app;
    return (x > y) - (x < y);
}

/* Read path as curve i of s, checking its page size against page_size
 * (key names the key that named it, for the message). */
static int load_one(curve_set *s, const char *path, long page_size, const char *key,
                    char err[CFG_ERR_MAX])
{
    fault_curve *c = &s->curves[s->ncurves];
    if (curve_read(path, c, err) != 0)
        return -1;
    s->ncurves++;
    if (c->page_size != page_size) {
        char shown[256];
        util_path_shown(shown, sizeof shown, path);
        snprintf(err, CFG_ERR_MAX,
                 "%s: page_size = %ld, but [process] page_size = %ld: a curve measured at "
                 "another page size gives other misses; measure it at %ld (tools/fault-curve) "
                 "(named by [process] %s)", shown, c->page_size, page_size, page_size, key);
        return -1;
    }
    return 0;
}

int curve_set_load(curve_set *s, const config *c, char err[CFG_ERR_MAX])
{
    memset(s, 0, sizeof *s);
    if (c->process.fault_model != FAULT_MODEL_CURVE)
        return 0;
    s->on = true;
    s->curves = xcalloc(CFG_CURVES_MAX + 1, sizeof *s->curves);
    s->map = xcalloc(CFG_CURVES_MAX, sizeof *s->map);
    const long P = c->process.page_size;
    if (c->process.fault_curve[0]) {
        if (load_one(s, c->process.fault_curve, P, "fault_curve", err) != 0)
            goto fail;
        s->dflt = &s->curves[0];
    }
    const char *p = c->process.fault_curves;
    char file[CFG_PATH_MAX], why[CFG_ERR_MAX];
    long app;
    while (cfg_curves_next(&p, &app, file, sizeof file, why, sizeof why) == 1) {
        if (load_one(s, file, P, "fault_curves", err) != 0)
            goto fail;
        s->map[s->nmap++] = (curve_app){(double)app, &s->curves[s->ncurves - 1]};
    }
    qsort(s->map, s->nmap, sizeof *s->map, by_app); /* no two alike (cfg_check_curves) */
    return 0;
fail:
    curve_set_free(s);
    return -1;
}

const fault_curve *curve_set_find(const curve_set *s, double app)
{
    if (!s->on)
        return NULL;
    size_t lo = 0, hi = s->nmap;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->map[mid].app < app)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < s->nmap && s->map[lo].app == app)
        return s->map[lo].curve;
    return s->dflt;
}

void curve_set_free(curve_set *s)
{
    for (size_t i = 0; i < s->ncurves; i++)
        curve_free(&s->curves[i]);
    free(s->curves);
    free(s->map);
    memset(s, 0, sizeof *s);
}
