/* app/swf.c: the SWF reader (see swf.h for the contract).
 *
 * One file is read through zlib (gzdopen reads plain files transparently,
 * so .swf, .swf.gz and a pipe on standard input all take the same path), in
 * 64 KB chunks split at '\n' into a line buffer that grows to fit the
 * longest line, so memory depends on the longest line and never on the
 * length of the trace, and no line is ever cut in two. At open it reads the
 * leading block of `;` comment lines as the header, `; Key: value`, where a
 * following `;` line that holds no `Key:` continues the value (keys in a
 * hash table, values grown by doubling: linear in the header's size); the
 * first data line is kept for the first record. Every record must have
 * exactly 18 numbers (floats accepted, -1 = unknown); anything else is an
 * error naming file, line and what was wrong. A UTF-8 byte order mark
 * opening the file is skipped. A line holding a NUL byte is malformed
 * wherever it is (header, data or comment): an error naming line and
 * column, or under lenient a counted malformed record.
 *
 * Choices (docs/MODEL.md):
 *  - Header lines are only those of the leading comment block; later `;`
 *    lines, and text after a `;` on a data line, are comments. Keys are
 *    looked up case-insensitively; a repeated key (e.g. Note) keeps its
 *    first value. An empty `;` line ends a continued value. `Key:` with
 *    nothing but blanks after it has the empty value.
 *  - SIGINT/SIGTERM (ev_stop_flag) during the header ends the trace there:
 *    the run then stops before it starts.
 *  - "-" reads standard input (a dup of fd 0, so closing the reader does
 *    not close stdin); its display name is "stdin".
 *  - Progress is the fraction of the file's (compressed) bytes consumed, for
 *    regular files, including standard input redirected from one; 0 for
 *    pipes. A plain (not gzip) regular file's last submit time is read
 *    from its end at open (app/swf_tail.c), for the progress line.
 *  - The checksum (swf_sha256, metrics.json's trace_sha256): of a regular
 *    file (a path, or standard input redirected from one), SHA-256 of its
 *    bytes as stored, read again from a second descriptor when asked, from
 *    the offset where reading began to the end, so it equals `sha256sum
 *    FILE` however much of the trace the run read; of a pipe, SHA-256 of
 *    the bytes read from it, hashed as they come (reading may stop early:
 *    max_jobs, submit_max). zlib hands out the bytes of plain text as they
 *    are; gzip data on a pipe is hashed decompressed, the only case where
 *    the checksum is not that of the stored bytes (sha256sum of `gzip -dc`).
 */
#include "app/swf.h"
#include "app/numtext.h"
#include "app/sha256.h"
#include "app/swf_tail.h"
#include "app/util.h"

#include "core/ev.h"
#include "core/mem.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

typedef struct swf_header_entry {
    char *key;
    char *value;
    size_t len, cap;     /* of value, so continuing it costs O(added) */
    unsigned hash;       /* of the key, case-folded */
} swf_header_entry;

#define SWF_CHUNK (1 << 16)   /* bytes read from zlib at a time */

struct swf_reader {
    gzFile gz;
    char *path;          /* as given, for messages ("stdin" for "-"; a long one
                          * cut in its middle: util_path_shown) */
    char *name;          /* path without directories */
    double size;         /* bytes of a regular file; 0 = unknown */
    double last_submit;  /* field 2 of the last data line; NAN = unknown */
    char *in;            /* SWF_CHUNK bytes read from zlib ... */
    size_t in_pos, in_len;   /* ... of which in[in_pos..in_len) are unread */
    char *buf;           /* current line, NUL-terminated */
    size_t cap;
    size_t len;          /* bytes in buf (it may hold NUL bytes itself) */
    size_t nul_col;      /* 1-based column of the first NUL in buf, 0 = none */
    long line;           /* number of the line in buf */
    bool pending;        /* buf holds a data line not yet parsed */
    bool eof;
    bool lenient;        /* a header line with a NUL is counted, not fatal */
    long bad_header;     /* header lines skipped for a NUL byte (lenient) */
    int hash_fd;         /* regular file: a second descriptor to hash it
                          * (swf_sha256), else -1 */
    off_t hash_from;     /* ... from this offset (where reading began) */
    bool hash_stream;    /* a pipe: its bytes hashed as they are read */
    sha256_ctx sha;      /* ... into this */
    swf_header_entry *hdr;
    size_t n_hdr, cap_hdr;
    size_t *slot;        /* open-addressing table of hdr indices + 1 */
    size_t n_slot;       /* a power of two > 2 * n_hdr; 0 = no table yet */
};

/* A malloc'd copy of the n bytes at s, NUL-terminated. */
static char *swf_strndup(const char *s, size_t n)
{
    char *d = xrealloc(NULL, n + 1);
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

/* printf into err (CFG_ERR_MAX bytes), if err is not NULL. */
static void swf_err(char *err, const char *fmt, ...)
{
    if (!err)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, CFG_ERR_MAX, fmt, ap);
    va_end(ap);
}

static bool swf_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' ||
           c == '\f';
}

/* True, with "path:line: read error: reason" in err, when zlib reports
 * an error on r (I/O error, corrupt or truncated gzip data). */
static bool swf_read_error(const swf_reader *r, char *err)
{
    int zerr;
    const char *msg = gzerror(r->gz, &zerr);
    if (zerr == Z_OK)
        return false;
    if (zerr == Z_ERRNO) {
        msg = strerror(errno);
    } else {
        /* zlib prefixes its message with the file's name, "<fd:3>: ". */
        const char *colon = strstr(msg, ": ");
        if (strncmp(msg, "<fd:", 4) == 0 && colon)
            msg = colon + 2;
    }
    swf_err(err, "%s:%ld: read error: %s", r->path, r->line + 1, msg);
    return true;
}

/* The longest line the reader accepts (header notes included): far above
 * any real SWF line, low enough that an endless line is an error, not an
 * out-of-memory abort. */
#define SWF_LINE_MAX (1 << 20)

/* Append the n bytes at s to the line in r->buf, growing it. */
static void swf_line_add(swf_reader *r, const char *s, size_t n)
{
    if (r->cap - r->len < n + 1) {
        size_t cap = r->cap ? r->cap : 4096;
        while (cap - r->len < n + 1)
            cap *= 2;
        r->buf = xrealloc(r->buf, cap);
        r->cap = cap;
    }
    memcpy(r->buf + r->len, s, n);
    r->len += n;
}

/* Read the next physical line into r->buf (without its newline), growing
 * the buffer as needed. The bytes come from zlib a chunk at a time and are
 * split at '\n' only, so a line of any length, NUL bytes included, is one
 * line: r->len is its true length and r->nul_col the column of its first
 * NUL (0 = none). A UTF-8 byte order mark opening the file is skipped.
 * Returns 1 with a line, 0 at end of file, -1 with err filled on a read
 * error (e.g. a truncated or corrupt gzip stream). */
static int swf_read_line(swf_reader *r, char *err)
{
    r->len = 0;
    r->nul_col = 0;
    if (r->eof)
        return 0;
    bool newline = false;
    while (!newline) {
        if (r->in_pos == r->in_len) {
            int n = gzread(r->gz, r->in, SWF_CHUNK);
            if (n < 0 && ev_stop_flag && errno == EINTR) {
                /* SIGINT/SIGTERM during a blocking read (a pipe on stdin):
                 * the trace ends here and the run stops with what it has. */
                r->eof = true;
                return 0;
            }
            /* zlib reports a truncated gzip stream as an error at its end,
             * after returning the data it could decompress. */
            if (n <= 0 && swf_read_error(r, err))
                return -1;
            if (n <= 0) {
                r->eof = true;
                if (r->len == 0)
                    return 0;
                break;
            }
            r->in_pos = 0;
            r->in_len = (size_t)n;
            if (r->hash_stream)
                sha256_update(&r->sha, r->in, (size_t)n);
        }
        const char *s = r->in + r->in_pos;
        size_t avail = r->in_len - r->in_pos;
        const char *nl = memchr(s, '\n', avail);
        size_t take = nl ? (size_t)(nl - s) : avail;
        if (r->len + take > SWF_LINE_MAX) {
            /* No SWF line is anywhere near this long: a binary or
             * endless input (e.g. /dev/zero) must not exhaust memory. */
            swf_err(err, "%s:%ld: line longer than %d bytes (SWF is short text "
                    "lines; is this a binary file?)", r->path, r->line + 1, SWF_LINE_MAX);
            return -1;
        }
        swf_line_add(r, s, take);
        r->in_pos += take + (nl ? 1 : 0);
        newline = nl != NULL;
    }
    r->buf[r->len] = '\0';
    if (r->line == 0 && r->len >= 3 && memcmp(r->buf, "\xEF\xBB\xBF", 3) == 0) {
        memmove(r->buf, r->buf + 3, r->len - 3 + 1);
        r->len -= 3;
    }
    while (r->len > 0 && r->buf[r->len - 1] == '\r')
        r->buf[--r->len] = '\0';
    const char *nul = memchr(r->buf, '\0', r->len);
    r->nul_col = nul ? (size_t)(nul - r->buf) + 1 : 0;
    r->line++;
    return 1;
}

/* The "path:line: NUL byte at column N" message for the line in r. */
static void swf_nul_error(const swf_reader *r, char *err)
{
    swf_err(err, "%s:%ld: NUL byte at column %zu (SWF is text; is this a "
            "binary file?)", r->path, r->line, r->nul_col);
}

/* Pointer to the first non-space character of s. */
static const char *swf_skip_space(const char *s)
{
    while (*s && swf_space(*s))
        s++;
    return s;
}

/* Length of s without trailing spaces. */
static size_t swf_trimmed_len(const char *s)
{
    size_t n = strlen(s);
    while (n > 0 && swf_space(s[n - 1]))
        n--;
    return n;
}

/* Hash of the n bytes of key s, case-folded (FNV-1a). */
static unsigned swf_key_hash(const char *s, size_t n)
{
    unsigned h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)tolower((unsigned char)s[i])) * 16777619u;
    return h;
}

/* The slot of r's table that holds key s (n bytes, any case), or the
 * empty slot where it belongs. The table must exist. */
static size_t *swf_key_slot(const swf_reader *r, const char *s, size_t n,
                            unsigned h)
{
    size_t mask = r->n_slot - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        size_t *slot = &r->slot[i];
        if (*slot == 0)
            return slot;
        const swf_header_entry *e = &r->hdr[*slot - 1];
        if (e->hash == h && strlen(e->key) == n && strncasecmp(e->key, s, n) == 0)
            return slot;
    }
}

/* Make room in r's table for one more key (load at most one half). */
static void swf_key_grow(swf_reader *r)
{
    if (2 * (r->n_hdr + 1) < r->n_slot)
        return;
    size_t n = r->n_slot ? 2 * r->n_slot : 64;
    r->slot = xrealloc(r->slot, n * sizeof *r->slot);
    memset(r->slot, 0, n * sizeof *r->slot);
    r->n_slot = n;
    for (size_t i = 0; i < r->n_hdr; i++) {
        const swf_header_entry *e = &r->hdr[i];
        *swf_key_slot(r, e->key, strlen(e->key), e->hash) = i + 1;
    }
}

/* Add or continue a header entry from the text of a comment line (what
 * follows the ';'). *open says whether a value may still be continued.
 * Linear in the length of the line: keys are found through a hash table
 * and a continued value grows by doubling. */
static void swf_header_line(swf_reader *r, const char *text, bool *open)
{
    const char *s = swf_skip_space(text);
    size_t n = swf_trimmed_len(s);
    if (n == 0) {
        *open = false;
        return;
    }
    /* `Key:` = a word of letters, digits, '_' or '-' starting with a letter,
     * then ':' followed by a space or the end (so "http://..." is not one). */
    size_t k = 0;
    if (isalpha((unsigned char)s[0]))
        while (k < n && (isalnum((unsigned char)s[k]) || s[k] == '_' ||
                         s[k] == '-'))
            k++;
    if (k > 0 && k < n && s[k] == ':' && (k + 1 == n || swf_space(s[k + 1]))) {
        *open = true;
        swf_key_grow(r);
        unsigned h = swf_key_hash(s, k);
        size_t *slot = swf_key_slot(r, s, k, h);
        if (*slot != 0) {
            *open = false;   /* repeated key: keep the first value */
            return;
        }
        if (r->n_hdr == r->cap_hdr) {
            r->cap_hdr = r->cap_hdr ? 2 * r->cap_hdr : 16;
            r->hdr = xrealloc(r->hdr, r->cap_hdr * sizeof *r->hdr);
        }
        /* The value: what follows "Key:" up to the trimmed end, which may
         * be nothing ("Key:" then only blanks). */
        const char *v = s + k + 1;
        while (v < s + n && swf_space(*v))
            v++;
        swf_header_entry *e = &r->hdr[r->n_hdr];
        e->key = swf_strndup(s, k);
        e->len = (size_t)(s + n - v);
        e->cap = e->len + 1;
        e->value = swf_strndup(v, e->len);
        e->hash = h;
        *slot = ++r->n_hdr;
        return;
    }
    if (*open && r->n_hdr > 0) {
        swf_header_entry *e = &r->hdr[r->n_hdr - 1];
        size_t need = e->len + 1 + n + 1;
        if (need > e->cap) {
            e->cap = need > 2 * e->cap ? need : 2 * e->cap;
            e->value = xrealloc(e->value, e->cap);
        }
        if (e->len > 0)
            e->value[e->len++] = ' ';
        memcpy(e->value + e->len, s, n);
        e->len += n;
        e->value[e->len] = '\0';
    }
}

/* Close r and free everything it holds (r itself too). NULL is fine. */
void swf_close(swf_reader *r)
{
    if (!r)
        return;
    if (r->gz)
        gzclose(r->gz);
    if (r->hash_fd >= 0)
        close(r->hash_fd);
    for (size_t i = 0; i < r->n_hdr; i++) {
        free(r->hdr[i].key);
        free(r->hdr[i].value);
    }
    free(r->hdr);
    free(r->slot);
    free(r->in);
    free(r->buf);
    free(r->path);
    free(r->name);
    free(r);
}

/* Open path ("-" = standard input) and read its header, up to and including
 * the first data line, which stays pending. A header line holding a NUL
 * byte is an error, or under lenient counted in bad_header and skipped.
 * A SIGINT/SIGTERM (ev_stop_flag) ends the header, and the trace, at once.
 * Returns the reader, or NULL with "path: cannot open: reason" (or a read
 * error, or the NUL's line and column) in err. */
swf_reader *swf_open(const char *path, bool lenient, char err[CFG_ERR_MAX])
{
    bool is_stdin = strcmp(path, "-") == 0;
    char shown[256]; /* the path in messages, cut in its middle when long */
    util_path_shown(shown, sizeof shown, is_stdin ? "stdin" : path);
    int fd = is_stdin ? dup(STDIN_FILENO) : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        swf_err(err, "%s: cannot open: %s", shown, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        swf_err(err, "%s: cannot open: %s", shown, strerror(errno));
        close(fd);
        return NULL;
    }
    if (S_ISDIR(st.st_mode)) {
        swf_err(err, "%s: cannot open: %s", shown, strerror(EISDIR));
        close(fd);
        return NULL;
    }
    gzFile gz = gzdopen(fd, "rb");
    if (!gz) {
        swf_err(err, "%s: cannot open: %s", shown,
                errno ? strerror(errno) : "out of memory");
        close(fd);
        return NULL;
    }
    gzbuffer(gz, 1 << 16);

    swf_reader *r = xrealloc(NULL, sizeof *r);
    memset(r, 0, sizeof *r);
    r->gz = gz;
    r->lenient = lenient;
    r->in = xrealloc(NULL, SWF_CHUNK);
    r->path = swf_strndup(shown, strlen(shown));
    const char *whole = is_stdin ? "stdin" : path;
    const char *slash = strrchr(whole, '/');
    const char *base = slash ? slash + 1 : whole;
    r->name = swf_strndup(base, strlen(base));
    r->size = S_ISREG(st.st_mode) ? (double)st.st_size : 0.0;
    r->hash_fd = -1;
    if (S_ISREG(st.st_mode)) {
        r->hash_from = lseek(fd, 0, SEEK_CUR); /* before zlib reads */
        r->hash_fd = r->hash_from >= 0 ? dup(fd) : -1;
        if (r->hash_fd >= 0)
            fcntl(r->hash_fd, F_SETFD, FD_CLOEXEC);
    }
    if (r->hash_fd < 0) {
        r->hash_stream = true;
        sha256_init(&r->sha);
    }
    r->last_submit = swf_tail_submit(fd, r->size); /* before zlib reads */

    bool open_value = false;
    for (;;) {
        int rc = swf_read_line(r, err);
        if (rc < 0) {
            swf_close(r);
            return NULL;
        }
        if (rc == 0)
            break;
        if (ev_stop_flag) {
            /* Interrupted: a header of millions of lines must not delay
             * the first Ctrl-C. The trace ends here (no records). */
            r->eof = true;
            break;
        }
        const char *s = swf_skip_space(r->buf);
        if (r->nul_col && *s == ';') {
            if (!lenient) {
                swf_nul_error(r, err);
                swf_close(r);
                return NULL;
            }
            r->bad_header++;
            open_value = false;
        } else if (*s == ';') {
            swf_header_line(r, s + 1, &open_value);
        } else if (*s != '\0' || r->nul_col) {
            r->pending = true;
            break;
        }
    }
    return r;
}

/* Copy at most 12 characters of token t (length n) into out, adding "..."
 * when it is longer and showing unprintable bytes as '?': for messages. */
static void swf_token_excerpt(const char *t, size_t n, char out[32])
{
    size_t k = n > 12 ? 12 : n;
    for (size_t i = 0; i < k; i++)
        out[i] = isprint((unsigned char)t[i]) ? t[i] : '?';
    strcpy(out + k, n > 12 ? "..." : "");
}

/* The common record, parsed in one pass: 18 fields of num_scan_plain's
 * shape separated by blanks or tabs, nothing else on the line. Returns
 * true with rec->f filled as the general path would fill it (the same
 * tokens, each read by num_parse's fast path), false when the line has any
 * other shape (the general path then reads it, or reports it). */
static bool swf_parse_plain(const swf_reader *r, swf_record *rec)
{
    /* The line holds no NUL (nul_col is 0), so its terminating NUL ends
     * every loop below. */
    const char *p = r->buf, *end = r->buf + r->len;
    assert(r->nul_col == 0 && *end == '\0');
    for (int k = 0; k < SWF_FIELDS; k++) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (p[0] == '-' && p[1] == '1' && (p[2] == ' ' || p[2] == '\t' || p[2] == '\0')) {
            rec->f[k] = -1; /* "unknown", SWF's most common field */
            p += 2;
            continue;
        }
        p = num_scan_plain(p, end, &rec->f[k]);
        if (!p || (*p != ' ' && *p != '\t' && *p != '\0'))
            return false;
    }
    while (*p == ' ' || *p == '\t')
        p++;
    return *p == '\0';
}

/* Parse the data line in r->buf into *rec. Returns 0, or -1 with err
 * naming file, line and the problem (field count or a non-number). */
static int swf_parse_record(const swf_reader *r, swf_record *rec, char *err)
{
    static const char *const names[SWF_FIELDS] = {
        "job number", "submit time", "wait time", "run time",
        "allocated processors", "average CPU time", "used memory",
        "requested processors", "requested time", "requested memory",
        "status", "user", "group", "executable", "queue", "partition",
        "preceding job", "think time"};
    const char *tok[SWF_FIELDS + 1];
    size_t len[SWF_FIELDS + 1];
    int count = 0;
    if (r->nul_col) {
        swf_nul_error(r, err);
        return -1;
    }
    if (swf_parse_plain(r, rec)) {
        rec->line = r->line;
        return 0;
    }
    const char *p = r->buf;
    for (;;) {
        p = swf_skip_space(p);
        if (*p == '\0' || *p == ';')   /* a ';' starts a trailing comment */
            break;
        const char *start = p;
        while (*p && !swf_space(*p) && *p != ';')
            p++;
        if (count <= SWF_FIELDS) {
            tok[count] = start;
            len[count] = (size_t)(p - start);
        }
        count++;
    }
    char ex[32];
    if (count != SWF_FIELDS) {
        if (count > SWF_FIELDS) {
            swf_token_excerpt(tok[SWF_FIELDS], len[SWF_FIELDS], ex);
            swf_err(err, "%s:%ld: expected %d numeric fields, found %d "
                    "(field %d is \"%s\")", r->path, r->line, SWF_FIELDS,
                    count, SWF_FIELDS + 1, ex);
        } else {
            swf_err(err, "%s:%ld: expected %d numeric fields, found %d",
                    r->path, r->line, SWF_FIELDS, count);
        }
        return -1;
    }
    for (int i = 0; i < SWF_FIELDS; i++) {
        if (!num_parse(tok[i], len[i], &rec->f[i])) {
            swf_token_excerpt(tok[i], len[i], ex);
            swf_err(err, "%s:%ld: field %d (%s) is \"%s\", expected a number",
                    r->path, r->line, i + 1, names[i], ex);
            return -1;
        }
    }
    rec->line = r->line;
    return 0;
}

/* Next record of the file: returns 1 with *rec filled, 0 at the end, -1
 * with err filled on a malformed line or a read error. *malformed is set
 * when the -1 is for a malformed line (which the caller may skip). */
int swf_next(swf_reader *r, swf_record *rec, bool *malformed, char err[CFG_ERR_MAX])
{
    *malformed = false;
    for (;;) {
        if (!r->pending) {
            int rc = swf_read_line(r, err);
            if (rc <= 0)
                return rc;
        }
        r->pending = false;
        const char *s = swf_skip_space(r->buf);
        if ((*s == '\0' || *s == ';') && !r->nul_col)
            continue;
        if (swf_parse_record(r, rec, err) != 0) {
            *malformed = true;
            return -1;
        }
        return 1;
    }
}


long swf_bad_header(const swf_reader *r)
{
    return r->bad_header;
}

const char *swf_header(const swf_reader *r, const char *key)
{
    if (r->n_slot == 0)
        return NULL;
    size_t n = strlen(key);
    size_t slot = *swf_key_slot(r, key, n, swf_key_hash(key, n));
    return slot ? r->hdr[slot - 1].value : NULL;
}

double swf_progress(const swf_reader *r)
{
    if (r->eof)
        return 1.0;
    if (r->size <= 0)
        return -1.0;
    z_off_t off = gzoffset(r->gz);
    double f = off < 0 ? 0.0 : (double)off / r->size;
    return f < 0 ? 0 : f > 1 ? 1 : f;
}

double swf_last_submit(const swf_reader *r)
{
    return r->last_submit;
}

const char *swf_path(const swf_reader *r)
{
    return r->path;
}

const char *swf_name(const swf_reader *r)
{
    return r->name;
}

int swf_sha256(const swf_reader *r, char hex[65])
{
    unsigned char d[32];
    hex[0] = '\0';
    if (r->hash_fd < 0) {
        sha256_ctx s = r->sha; /* a copy: the stream may go on */
        sha256_final(&s, d);
        sha256_hex(d, hex);
        return r->eof ? 0 : 1;
    }
    sha256_ctx s;
    sha256_init(&s);
    char *buf = xrealloc(NULL, SWF_CHUNK);
    for (off_t at = r->hash_from;;) {
        ssize_t n = pread(r->hash_fd, buf, SWF_CHUNK, at);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            free(buf);
            return -1;
        }
        if (n == 0)
            break;
        sha256_update(&s, buf, (size_t)n);
        at += n;
    }
    free(buf);
    sha256_final(&s, d);
    sha256_hex(d, hex);
    return 0;
}
