/* app/ini_reader.c: the one reader of INI text, through inih.
 *
 * Scenario files (app/config_ini.c) and study files (study/sections.c) are
 * both read here, so they share one comment rule and one set of messages
 * for text that is not INI. inih (Debian's libinih, r55) splits key =
 * value lines; its behaviour is set by process-wide globals, which
 * ini_reader_parse sets for the call and then restores. inih is handed
 * exactly one line per call from the text in memory, already without its
 * comment (ini_reader_comment_at: inih's own comment handling is off), so
 * that line numbers are ours (the installed <ini.h> has the four-argument
 * handler, INI_HANDLER_LINENO 0) and so that the reader, not inih, decides:
 * NUL bytes and lines longer than inih's buffer are refused (inih would
 * cut such a line silently and read its tail as a new line), [section]
 * headers are checked and handed to the caller in full (inih keeps 49
 * characters and calls the handler only for key = value lines), and, for
 * study files (spec->join), indented continuation lines are joined to
 * the key = value line above before inih sees it, so that a value's
 * first line is the one its messages name.
 *
 * Beside app/util.c at the bottom of app/: it knows no key or section.
 * Not thread-safe (inih's settings are globals).
 */
#include "app/ini_reader.h"

#include <ini.h>

#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Contract: app/ini_reader.h. */
size_t ini_reader_comment_at(const char *line, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((line[i] == ';' || line[i] == '#') &&
            (i == 0 || isspace((unsigned char)line[i - 1])))
            return i;
    return n;
}

/* The reader's state: the text left, lines read, the first line of the
 * line last handed to inih (a joined line spans several). */
typedef struct reader {
    const ini_reader_spec *sp;
    const char *pos, *end;
    long line, first;
    bool failed;
} reader;

/* A problem with the text itself: reported through on_bad_text. */
static void bad_text(reader *r, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void bad_text(reader *r, long line, const char *fmt, ...)
{
    char msg[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    r->sp->on_bad_text(r->sp->user, line, msg);
    r->failed = true;
}

/* The next line of the text (without its '\n', n bytes), or NULL at the
 * end; counts it. */
static const char *next_line(reader *r, size_t *n)
{
    if (r->pos >= r->end)
        return NULL;
    const char *s = r->pos, *nl = memchr(s, '\n', (size_t)(r->end - s));
    *n = nl ? (size_t)(nl - s) : (size_t)(r->end - s);
    r->pos = nl ? nl + 1 : r->end;
    r->line++;
    return s;
}

/* The line s (n bytes) without its comment and surrounding white space:
 * [*b, *e). */
static void code_of(const char *s, size_t n, const char **b, const char **e)
{
    *b = s;
    *e = s + ini_reader_comment_at(s, n);
    while (*b < *e && isspace((unsigned char)**b))
        (*b)++;
    while (*e > *b && isspace((unsigned char)(*e)[-1]))
        (*e)--;
}

/* Append to str (len bytes used, num in all) the indented lines that
 * continue it (spec->join): each joined with a space, blank and comment
 * lines between them skipped; a line that does not continue it (not
 * indented, a header, a '=') is left for the next call. Returns the new
 * length, or -1 when it would not fit (reported). */
static long join_lines(reader *r, char *str, size_t len, int num)
{
    for (reader at = *r;;) {
        size_t n;
        const char *s = next_line(&at, &n), *b, *e;
        if (!s || memchr(s, '\0', n))
            return (long)len; /* the NUL is refused on its own line */
        code_of(s, n, &b, &e);
        if (b == e)
            continue; /* blank or comment: look further */
        if (!(s[0] == ' ' || s[0] == '\t') || *b == '[' || memchr(b, '=', (size_t)(e - b)))
            return (long)len;
        if (len + 1 + (size_t)(e - b) + 2 > (size_t)num) {
            bad_text(r, r->first, "line too long: at most %d characters", num - 2);
            return -1;
        }
        str[len++] = ' ';
        memcpy(str + len, b, (size_t)(e - b));
        len += (size_t)(e - b);
        str[len] = '\0';
        *r = at; /* the continuation and the lines before it are read */
    }
}

/* inih's reader: the next line, its comment cut (joined with its
 * continuation lines for spec->join), into str (num bytes); a header is
 * checked and handed to on_section first. NULL at the end or on a
 * problem (r->failed). */
static char *read_line(char *str, int num, void *stream)
{
    reader *r = stream;
    size_t n;
    const char *s = r->failed ? NULL : next_line(r, &n);
    if (!s)
        return NULL;
    r->first = r->line;
    const char *z = memchr(s, '\0', n);
    if (z) {
        bad_text(r, r->line, "a NUL byte (column %ld): not a text file?", (long)(z - s) + 1);
        return NULL;
    }
    if (r->line == 1 && n >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3)) {
        s += 3;
        n -= 3;
    }
    const char *b, *e;
    code_of(s, n, &b, &e);
    if ((size_t)(e - s) + 2 > (size_t)num) {
        bad_text(r, r->line, "line too long: at most %d characters", num - 2);
        return NULL;
    }
    size_t len = (size_t)(e - b);
    memcpy(str, b, len);
    str[len] = '\0';
    if (str[0] == '[') {
        char *close = strchr(str, ']');
        if (!close || close[1]) {
            bad_text(r, r->line, "malformed section header: %s",
                     close ? "text after ']'" : "expected [SECTION]");
            return NULL;
        }
        char *name = malloc((size_t)(close - str));
        if (!name) {
            bad_text(r, r->line, "out of memory");
            return NULL;
        }
        const char *nb = str + 1, *ne = close;
        while (nb < ne && isspace((unsigned char)*nb))
            nb++;
        while (ne > nb && isspace((unsigned char)ne[-1]))
            ne--;
        memcpy(name, nb, (size_t)(ne - nb));
        name[ne - nb] = '\0';
        int rc = r->sp->on_section(r->sp->user, name, r->line);
        free(name);
        if (rc) {
            r->failed = true;
            return NULL;
        }
    } else if (r->sp->join && len && strchr(str, '=') && join_lines(r, str, len, num) < 0) {
        return NULL;
    }
    return str;
}

/* inih's handler: on_pair with the line. */
static int pair(void *user, const char *section, const char *name, const char *value)
{
    reader *r = user;
    if (r->failed || !r->sp->on_pair(r->sp->user, section, name, value, r->first)) {
        r->failed = true;
        return 0;
    }
    return 1;
}

/* inih's settings, saved around a parse. */
typedef struct ini_settings {
    int max_line, initial_alloc;
    bool use_stack, multiline, inline_comments, stop_on_first_error, no_value,
        bom, realloc_;
    char *inline_prefixes, *start_prefixes;
} ini_settings;

static ini_settings settings_get(void)
{
    return (ini_settings){ini_max_line, ini_initial_alloc, ini_use_stack, ini_allow_multiline,
                          ini_allow_inline_comments, ini_stop_on_first_error,
                          ini_allow_no_value, ini_allow_bom, ini_allow_realloc,
                          ini_inline_comment_prefixes, ini_start_comment_prefixes};
}

static void settings_set(const ini_settings *s)
{
    ini_max_line = s->max_line;
    ini_initial_alloc = s->initial_alloc;
    ini_use_stack = s->use_stack;
    ini_allow_multiline = s->multiline;
    ini_allow_inline_comments = s->inline_comments;
    ini_stop_on_first_error = s->stop_on_first_error;
    ini_allow_no_value = s->no_value;
    ini_allow_bom = s->bom;
    ini_allow_realloc = s->realloc_;
    ini_inline_comment_prefixes = s->inline_prefixes;
    ini_start_comment_prefixes = s->start_prefixes;
}

/* Contract: app/ini_reader.h. */
int ini_reader_parse(const ini_reader_spec *spec)
{
    static char prefixes[] = ";#";
    reader r = {spec, spec->text, spec->text + spec->len, 0, 0, false};
    /* A line buffer on the heap, of max_line bytes (comments cut, lines
     * are never longer); inih does the rest without comments of its own. */
    ini_settings saved = settings_get();
    ini_settings mine = {spec->max_line, spec->max_line, false, false, false, true, false,
                         false, false, prefixes, prefixes};
    settings_set(&mine);
    int rc = ini_parse_stream(read_line, &r, pair, &r);
    settings_set(&saved);
    if (!r.failed && rc == -2)
        bad_text(&r, r.line, "out of memory");
    else if (!r.failed && rc != 0)
        bad_text(&r, r.first, "malformed line: expected [SECTION], KEY = VALUE or a comment");
    return r.failed ? -1 : 0;
}
