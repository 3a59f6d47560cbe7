/* study/metrics.c: reading the metrics.json a pnrsim run leaves behind.
 *
 * A small strict JSON reader, enough for a results file: the document must
 * be one object followed only by white space, so a file cut short by a kill
 * is rejected and its run counts as unfinished. Members are flattened into
 * (key, value) pairs: nested objects give "outer.inner" keys (as for
 * "dropped": {"too_wide": 3} -> dropped.too_wide), arrays are parsed and
 * skipped. Numbers keep the exact text they were written with, so
 * results.csv repeats them digit for digit; NaN, Infinity and -Infinity
 * (which some writers emit although JSON has no such literals) are read as
 * numbers too. The "partial" member is also kept aside: true marks a run
 * that stopped early (a time limit or a signal) and is not a result.
 */
#include "study/sweep.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JSON_MAX_DEPTH 32

typedef struct jparser {
    const char *start, *p, *end;
    char *err;
    size_t errlen;
    sweep_metrics *out;
    int depth;
} jparser;

static int jfail(jparser *j, const char *what)
{
    if (!j->err[0])
        snprintf(j->err, j->errlen, "%s at byte %ld", what,
                 (long)(j->p - j->start));
    return -1;
}

static void skip_ws(jparser *j)
{
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' ||
                             *j->p == '\r'))
        j->p++;
}

static bool lit(jparser *j, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(j->end - j->p) >= n && !memcmp(j->p, word, n)) {
        j->p += n;
        return true;
    }
    return false;
}

static void put_utf8(sweep_buf *b, unsigned long cp)
{
    char u[4];
    size_t n;
    if (cp < 0x80) {
        u[0] = (char)cp;
        n = 1;
    } else if (cp < 0x800) {
        u[0] = (char)(0xC0 | (cp >> 6));
        u[1] = (char)(0x80 | (cp & 0x3F));
        n = 2;
    } else if (cp < 0x10000) {
        u[0] = (char)(0xE0 | (cp >> 12));
        u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[2] = (char)(0x80 | (cp & 0x3F));
        n = 3;
    } else {
        u[0] = (char)(0xF0 | (cp >> 18));
        u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        u[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[3] = (char)(0x80 | (cp & 0x3F));
        n = 4;
    }
    sweep_buf_add(b, u, n);
}

static int hex4(jparser *j, unsigned long *cp)
{
    if (j->end - j->p < 4)
        return jfail(j, "short \\u escape");
    unsigned long v = 0;
    for (int i = 0; i < 4; i++) {
        int ch = (unsigned char)*j->p++;
        v <<= 4;
        if (ch >= '0' && ch <= '9')
            v |= (unsigned long)(ch - '0');
        else if (ch >= 'a' && ch <= 'f')
            v |= (unsigned long)(ch - 'a' + 10);
        else if (ch >= 'A' && ch <= 'F')
            v |= (unsigned long)(ch - 'A' + 10);
        else
            return jfail(j, "bad \\u escape");
    }
    *cp = v;
    return 0;
}

/* A string starting at the opening quote; the decoded text in a new string. */
static int parse_string(jparser *j, char **out)
{
    j->p++; /* '"' */
    sweep_buf b = {0};
    sweep_buf_puts(&b, "");
    while (j->p < j->end && *j->p != '"') {
        unsigned char ch = (unsigned char)*j->p;
        if (ch < 0x20) {
            sweep_buf_free(&b);
            return jfail(j, "control character in a string");
        }
        if (ch != '\\') {
            sweep_buf_add(&b, j->p++, 1);
            continue;
        }
        if (++j->p >= j->end)
            break;
        char e = *j->p++;
        unsigned long cp;
        switch (e) {
        case '"': sweep_buf_puts(&b, "\""); break;
        case '\\': sweep_buf_puts(&b, "\\"); break;
        case '/': sweep_buf_puts(&b, "/"); break;
        case 'b': sweep_buf_puts(&b, "\b"); break;
        case 'f': sweep_buf_puts(&b, "\f"); break;
        case 'n': sweep_buf_puts(&b, "\n"); break;
        case 'r': sweep_buf_puts(&b, "\r"); break;
        case 't': sweep_buf_puts(&b, "\t"); break;
        case 'u':
            if (hex4(j, &cp)) {
                sweep_buf_free(&b);
                return -1;
            }
            if (cp >= 0xD800 && cp < 0xDC00 && j->end - j->p >= 6 &&
                j->p[0] == '\\' && j->p[1] == 'u') {
                unsigned long lo;
                j->p += 2;
                if (hex4(j, &lo)) {
                    sweep_buf_free(&b);
                    return -1;
                }
                if (lo >= 0xDC00 && lo < 0xE000)
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                else
                    cp = 0xFFFD;
            } else if (cp >= 0xD800 && cp < 0xE000) {
                cp = 0xFFFD;
            }
            put_utf8(&b, cp);
            break;
        default:
            sweep_buf_free(&b);
            return jfail(j, "bad escape in a string");
        }
    }
    if (j->p >= j->end) {
        sweep_buf_free(&b);
        return jfail(j, "unterminated string");
    }
    j->p++; /* '"' */
    *out = b.p;
    return 0;
}

/* A number; its text in *raw and value in *num. */
static int parse_number(jparser *j, char **raw, double *num)
{
    const char *s = j->p;
    if (lit(j, "NaN") || lit(j, "Infinity") || lit(j, "-Infinity")) {
        *raw = xstrndup(s, (size_t)(j->p - s));
        *num = s[0] == 'N' ? NAN : s[0] == '-' ? -INFINITY : INFINITY;
        return 0;
    }
    const char *q = s;
    if (q < j->end && *q == '-')
        q++;
    if (q >= j->end || !isdigit((unsigned char)*q))
        return jfail(j, "bad value");
    if (*q == '0')
        q++;
    else
        while (q < j->end && isdigit((unsigned char)*q))
            q++;
    if (q < j->end && *q == '.') {
        q++;
        if (q >= j->end || !isdigit((unsigned char)*q))
            return jfail(j, "bad number");
        while (q < j->end && isdigit((unsigned char)*q))
            q++;
    }
    if (q < j->end && (*q == 'e' || *q == 'E')) {
        q++;
        if (q < j->end && (*q == '+' || *q == '-'))
            q++;
        if (q >= j->end || !isdigit((unsigned char)*q))
            return jfail(j, "bad number");
        while (q < j->end && isdigit((unsigned char)*q))
            q++;
    }
    *raw = xstrndup(s, (size_t)(q - s));
    *num = strtod(*raw, NULL);
    j->p = q;
    return 0;
}

static void add_metric(jparser *j, const char *prefix, const char *key,
                       char *raw, double num, sweep_type type)
{
    sweep_metrics *o = j->out;
    char *full = prefix ? xasprintf("%s.%s", prefix, key)
                        : xstrdup(key);
    for (size_t i = 0; i < o->n; i++)
        if (!strcmp(o->m[i].key, full)) { /* duplicate member: last wins */
            free(o->m[i].raw);
            free(full);
            o->m[i].raw = raw;
            o->m[i].num = num;
            o->m[i].type = type;
            return;
        }
    o->m = xrealloc(o->m, (o->n + 1) * sizeof *o->m);
    o->m[o->n++] = (sweep_metric){full, raw, num, type};
}

static int parse_value(jparser *j, const char *prefix, const char *key);

static int parse_object(jparser *j, const char *prefix)
{
    if (++j->depth > JSON_MAX_DEPTH)
        return jfail(j, "nested too deeply");
    j->p++; /* '{' */
    skip_ws(j);
    if (j->p < j->end && *j->p == '}') {
        j->p++;
        j->depth--;
        return 0;
    }
    for (;;) {
        skip_ws(j);
        if (j->p >= j->end || *j->p != '"')
            return jfail(j, "expected a member name");
        char *name;
        if (parse_string(j, &name))
            return -1;
        skip_ws(j);
        if (j->p >= j->end || *j->p != ':') {
            free(name);
            return jfail(j, "expected ':'");
        }
        j->p++;
        skip_ws(j);
        int rc = parse_value(j, prefix, name);
        free(name);
        if (rc)
            return -1;
        skip_ws(j);
        if (j->p < j->end && *j->p == ',') {
            j->p++;
            continue;
        }
        if (j->p < j->end && *j->p == '}') {
            j->p++;
            j->depth--;
            return 0;
        }
        return jfail(j, "expected ',' or '}'");
    }
}

/* An array: parsed for syntax, its contents dropped. */
static int skip_array(jparser *j)
{
    if (++j->depth > JSON_MAX_DEPTH)
        return jfail(j, "nested too deeply");
    j->p++; /* '[' */
    skip_ws(j);
    if (j->p < j->end && *j->p == ']') {
        j->p++;
        j->depth--;
        return 0;
    }
    sweep_metrics *saved = j->out;
    sweep_metrics scratch = {0};
    j->out = &scratch;
    int rc = 0;
    for (;;) {
        skip_ws(j);
        if ((rc = parse_value(j, NULL, "item")) != 0)
            break;
        skip_ws(j);
        if (j->p < j->end && *j->p == ',') {
            j->p++;
            continue;
        }
        if (j->p < j->end && *j->p == ']') {
            j->p++;
            break;
        }
        rc = jfail(j, "expected ',' or ']'");
        break;
    }
    sweep_metrics_free(&scratch);
    j->out = saved;
    j->depth--;
    return rc;
}

/* The value of member key (under prefix) at j->p. */
static int parse_value(jparser *j, const char *prefix, const char *key)
{
    if (j->p >= j->end)
        return jfail(j, "unexpected end of file");
    char c = *j->p;
    if (c == '{') {
        char *sub = prefix ? xasprintf("%s.%s", prefix, key)
                           : xstrdup(key);
        int rc = parse_object(j, sub);
        free(sub);
        return rc;
    }
    if (c == '[')
        return skip_array(j);
    if (c == '"') {
        char *s;
        if (parse_string(j, &s))
            return -1;
        add_metric(j, prefix, key, s, NAN, SWEEP_STR);
        return 0;
    }
    if (lit(j, "true")) {
        add_metric(j, prefix, key, xstrdup("true"), 1, SWEEP_BOOL);
        return 0;
    }
    if (lit(j, "false")) {
        add_metric(j, prefix, key, xstrdup("false"), 0, SWEEP_BOOL);
        return 0;
    }
    if (lit(j, "null")) {
        add_metric(j, prefix, key, xstrdup(""), NAN, SWEEP_NULL);
        return 0;
    }
    char *raw;
    double num;
    if (parse_number(j, &raw, &num))
        return -1;
    add_metric(j, prefix, key, raw, num, SWEEP_NUM);
    return 0;
}

int sweep_metrics_parse(const char *text, size_t len, sweep_metrics *out,
                        char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    err[0] = '\0';
    jparser j = {text, text, text + len, err, errlen, out, 0};
    skip_ws(&j);
    int rc;
    if (j.p >= j.end || *j.p != '{') {
        rc = jfail(&j, j.p >= j.end ? "empty file" : "not a JSON object");
    } else {
        rc = parse_object(&j, NULL);
        if (!rc) {
            skip_ws(&j);
            if (j.p != j.end)
                rc = jfail(&j, "trailing text after the object");
        }
    }
    if (rc) {
        sweep_metrics_free(out);
        return -1;
    }
    const sweep_metric *p = sweep_metrics_get(out, "partial");
    if (p) {
        out->has_partial = true;
        out->partial = p->type == SWEEP_BOOL ? p->num != 0
                       : p->type == SWEEP_NUM ? p->num != 0
                                              : false;
    }
    return 0;
}

int sweep_metrics_read(const char *path, sweep_metrics *out, char *err,
                       size_t errlen)
{
    memset(out, 0, sizeof *out);
    size_t len;
    char *text = util_read_file(path, 0, &len, NULL);
    if (!text) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    char msg[256];
    int rc = sweep_metrics_parse(text, len, out, msg, sizeof msg);
    free(text);
    if (rc)
        snprintf(err, errlen, "%s: %s", path, msg);
    return rc;
}

const sweep_metric *sweep_metrics_get(const sweep_metrics *ms, const char *key)
{
    for (size_t i = 0; i < ms->n; i++)
        if (!strcmp(ms->m[i].key, key))
            return &ms->m[i];
    return NULL;
}

void sweep_metrics_free(sweep_metrics *ms)
{
    for (size_t i = 0; i < ms->n; i++) {
        free(ms->m[i].key);
        free(ms->m[i].raw);
    }
    free(ms->m);
    memset(ms, 0, sizeof *ms);
}
