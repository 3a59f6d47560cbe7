/* study/metrics.c: reading the metrics.json a pnrsim run leaves behind.
 *
 * Through jansson (Debian's libjansson): the document must be one object
 * followed only by white space (jansson's end-of-file check), so a file
 * cut short by a kill is rejected and its run counts as unfinished.
 * Members are flattened into (key, value) pairs in the file's order:
 * nested objects give "outer.inner" keys (as for "dropped": {"too_wide":
 * 3} -> dropped.too_wide), arrays are skipped. A member given twice is
 * refused (JSON_REJECT_DUPLICATES), and so is one whose flattened name
 * another already has ("dropped.too_wide": 7 beside "dropped":
 * {"too_wide": 0}): readers disagree on which counts. The "partial" member is also kept
 * aside: true marks a run that stopped early (a time limit or a signal)
 * and is not a result.
 *
 * jansson keeps a number's value, not its text, so results.csv writes
 * each number back as the shortest of %.15g, %.16g and %.17g that reads
 * back as the same double: exactly the text pnrsim wrote, since pnrsim
 * writes %.15g (any text of at most 15 significant digits comes back
 * unchanged, DBL_DIG = 15) and integers (%llu, %ld: digit for digit up to
 * 2^53). Numbers are all read as reals (JSON_DECODE_INT_AS_REAL), so that
 * "-0" keeps its sign and no integer is too big. Not JSON, hence refused
 * (a run without a result): NaN and Infinity literals, invalid UTF-8, a
 * \u0000 in a string (pnrsim writes null for a number that is not finite,
 * and valid UTF-8).
 */
#include "study/sweep.h"

#include <jansson.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* v as pnrsim wrote it: the shortest %.15g..%.17g text that reads back. */
static char *num_text(double v)
{
    char buf[40];
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    return xstrdup(buf);
}

/* Add member key and raw (both taken over) to o. A key o already has is
 * not added: its name goes to *dup (when *dup is still NULL; to free). */
static void add_metric(sweep_metrics *o, char *key, char *raw, double num, sweep_type type,
                       char **dup)
{
    for (size_t i = 0; i < o->n; i++)
        if (!strcmp(o->m[i].key, key)) {
            free(raw);
            if (!*dup)
                *dup = key;
            else
                free(key);
            return;
        }
    o->m = xrealloc(o->m, (o->n + 1) * sizeof *o->m);
    o->m[o->n++] = (sweep_metric){key, raw, num, type};
}

/* The members of object obj, under prefix (NULL at the top), into o. */
static void flatten(sweep_metrics *o, const char *prefix, json_t *obj, char **dup)
{
    const char *name;
    json_t *v;
    json_object_foreach(obj, name, v) {
        char *key = prefix ? xasprintf("%s.%s", prefix, name) : xstrdup(name);
        switch (json_typeof(v)) {
        case JSON_OBJECT:
            flatten(o, key, v, dup);
            free(key);
            break;
        case JSON_ARRAY:
            free(key);
            break;
        case JSON_STRING:
            add_metric(o, key, xstrdup(json_string_value(v)), NAN, SWEEP_STR, dup);
            break;
        case JSON_REAL:
        case JSON_INTEGER: /* not with JSON_DECODE_INT_AS_REAL */
            add_metric(o, key, num_text(json_number_value(v)), json_number_value(v),
                       SWEEP_NUM, dup);
            break;
        case JSON_TRUE:
        case JSON_FALSE:
            add_metric(o, key, xstrdup(json_is_true(v) ? "true" : "false"),
                       json_is_true(v), SWEEP_BOOL, dup);
            break;
        case JSON_NULL:
            add_metric(o, key, xstrdup(""), NAN, SWEEP_NULL, dup);
            break;
        }
    }
}

int sweep_metrics_parse(const char *text, size_t len, sweep_metrics *out,
                        char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    err[0] = '\0';
    json_error_t e;
    /* A key given twice is refused: which of the two a reader takes is
     * not defined (jansson keeps the last, Python's json too, others the
     * first), and pnrsim never writes one. */
    json_t *root = json_loadb(text, len, JSON_DECODE_INT_AS_REAL | JSON_REJECT_DUPLICATES, &e);
    if (!root) {
        snprintf(err, errlen, "%s (line %d, column %d)", e.text, e.line, e.column);
        return -1;
    }
    if (!json_is_object(root)) { /* jansson takes only an object or an array */
        snprintf(err, errlen, "not a JSON object");
        json_decref(root);
        return -1;
    }
    char *dup = NULL;
    flatten(out, NULL, root, &dup);
    json_decref(root);
    if (dup) {
        snprintf(err, errlen, "two members are both %s once nested objects are "
                 "flattened (\"a.b\" beside \"a\": {\"b\"}): which counts is not "
                 "defined", dup);
        free(dup);
        sweep_metrics_free(out);
        return -1;
    }
    const sweep_metric *p = sweep_metrics_get(out, "partial");
    if (p) {
        out->has_partial = true;
        out->partial = (p->type == SWEEP_BOOL || p->type == SWEEP_NUM) && p->num != 0;
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
