/* study/values.c: the value lists of a study file.
 *
 * A [vary] key's value is a comma-separated list whose items are plain
 * values or ranges: a:b[:s] (a, a+s, ... up to b inclusive, a 1e-9
 * relative tolerance absorbing rounding; s may be negative when b < a) and
 * a:b:*k (a, a*k, a*k*k, ... up to b; a > 0, k > 1). Range values are
 * written with %.10g, so 0:0.3:0.1 gives 0, 0.1, 0.2, 0.3. An item that
 * does not read as a range of numbers (a time such as 00:10) is a plain
 * value. The expanded values keep the order written and may not repeat
 * (checked once the list is expanded, by sorting: one range may hold up
 * to 100,000 values; the repeat named is the first in the list). A bound or step that is not a finite number
 * (1:nan:1, 1e999) is an error, as is a step too fine for %.10g to tell
 * two values apart. The [study] metrics list is a plain list (no ranges,
 * no repeats). Errors go through study_fail ("FILE:LINE: KEY: ...").
 * Once the file is read, values are also compared as pnrsim parses them
 * (study_vary_distinct): two values that are one setting would make two
 * points of one configuration.
 */
#include "study/values.h"
#include "study/text.h"
#include "study/util.h"

#include "app/config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STUDY_MAX_RANGE 100000L

/* The [vary] key being read: its values (p->values, whose capacity
 * doubles), the items of its list as written, and the item each value
 * came from, for the message that names a value given twice. */
typedef struct vary_read {
    study_param *p;
    size_t cap;
    size_t *from;      /* per value: the index of its item */
    struct item {
        char *text;
        bool range;
    } *items;
    size_t nitems;
} vary_read;

/* Append value v of the last item. */
static void push_value(vary_read *r, const char *v)
{
    study_param *p = r->p;
    if (p->nvalues == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 8;
        p->values = xrealloc(p->values, r->cap * sizeof *p->values);
        r->from = xrealloc(r->from, r->cap * sizeof *r->from);
    }
    r->from[p->nvalues] = r->nitems - 1;
    p->values[p->nvalues++] = xstrdup(v);
}

/* A value and its index, sorted by text then index (repeats_check). */
typedef struct value_ref {
    const char *v;
    size_t i;
} value_ref;

static int value_ref_cmp(const void *a, const void *b)
{
    const value_ref *x = a, *y = b;
    int r = strcmp(x->v, y->v);
    return r ? r : (x->i > y->i) - (x->i < y->i);
}

/* No value twice: sorted (n log n, for ranges of up to 100,000 values),
 * the repeat reported is the first one in the list's order, as reading it
 * left to right would meet it. Two values of one range that print alike
 * with %.10g mean a step below the 10 significant digits values are
 * written with. 0, or -1 (reported). */
static int repeats_check(study_parse_ctx *c, const vary_read *r)
{
    const study_param *p = r->p;
    value_ref *v = xmalloc((p->nvalues + 1) * sizeof *v);
    for (size_t i = 0; i < p->nvalues; i++)
        v[i] = (value_ref){p->values[i], i};
    qsort(v, p->nvalues, sizeof *v, value_ref_cmp);
    size_t best = 0; /* v[best] repeats v[best - 1]; 0: no repeat */
    for (size_t k = 1; k < p->nvalues; k++)
        if (!strcmp(v[k].v, v[k - 1].v) && (!best || v[k].i < v[best].i))
            best = k;
    int rc = 0;
    if (best) {
        size_t first = r->from[v[best - 1].i], second = r->from[v[best].i];
        const char *item = r->items[second].text, *val = v[best].v;
        if (first == second)
            rc = study_fail(c, p->line, p->key,
                            "range '%s': its step is too fine for the 10 significant "
                            "digits values are written with (%%.10g): '%s' would "
                            "come twice", item, val);
        else if (r->items[second].range)
            rc = study_fail(c, p->line, p->key, "value '%s' (of range '%s') given twice",
                            val, item);
        else
            rc = study_fail(c, p->line, p->key, "value '%s' given twice", val);
    }
    free(v);
    return rc;
}

/* True when the whole string reads as a number, finite or not ("nan",
 * "inf", "1e999"): such a range bound is an error, not a plain value. */
static bool looks_numeric(const char *t)
{
    char *end;
    (void)strtod(t, &end);
    return end != t && !*end;
}

/* Why a range bound or step t (which looks like a number) is refused:
 * NULL when it is a finite number that parse_num takes. */
static const char *bad_number(const char *t)
{
    double v;
    if (study_parse_num(t, &v))
        return NULL;
    char *end;
    errno = 0;
    v = strtod(t, &end);
    if (isnan(v))
        return "not a number";
    if (isinf(v))
        return "infinite or too large for a double";
    if (errno == ERANGE)
        return "too close to zero (below 2.2e-308) to be written to 10 "
               "significant digits";
    return "not a finite number";
}

/* A range bound or step with a unit, as pnrsim reads it for a time or
 * memory key (config_unit_number): 256MB or 0.25GB for computer.ram, 90m
 * for a time, in the key's unit (256, 5400), signed. Not checked against
 * the key's range here: the values are, as a plain range's are, by
 * study/check.c with pnrsim's own message. True with *v, or false when t
 * is a bare number or not a number with a unit of that key (a plain value
 * then). */
static bool unit_number(const char *key, const char *t, double *v)
{
    if (looks_numeric(t) || config_unit_number(key, t, v) != 0)
        return false;
    return isfinite(*v);
}

/* Expand a:b, a:b:s or a:b:*k into p; bounds and a linear step may carry
 * a unit of the key (256MB:1GB:256MB), the values are then written in the
 * key's unit (256, 512, 768, 1024). Returns 1 when item is a range and was
 * added, 0 when item is not a range, -1 on error. */
static int add_range(study_parse_ctx *c, vary_read *r, const char *item)
{
    study_param *p = r->p;
    char *copy = xstrdup(item);
    char *f[4];
    int nf = 0;
    char *save = NULL;
    for (char *t = strtok_r(copy, ":", &save); t && nf < 4;
         t = strtok_r(NULL, ":", &save))
        f[nf++] = study_trim(t);
    size_t colons = 0;
    for (const char *q = item; *q; q++)
        colons += *q == ':';
    double a, b, step = 1;
    bool geometric = false;
    if (colons < 1 || colons > 2 || nf != (int)colons + 1) {
        free(copy);
        return 0; /* not a range: a plain value */
    }
    double ab[2];
    bool unit[2];
    for (int i = 0; i < 2; i++) {
        unit[i] = unit_number(p->key, f[i], &ab[i]);
        if (!unit[i] && !looks_numeric(f[i])) {
            free(copy);
            return 0; /* not a range: a plain value (e.g. a time 00:10) */
        }
    }
    for (int i = 0; i < 2; i++) {
        const char *why = unit[i] ? NULL : bad_number(f[i]);
        if (why) {
            int rc = study_fail(c, p->line, p->key,
                          "range '%s': bound '%s' is %s", item, f[i], why);
            free(copy);
            return rc;
        }
        if (!unit[i])
            study_parse_num(f[i], &ab[i]);
    }
    a = ab[0];
    b = ab[1];
    if (nf == 3) {
        const char *st = f[2];
        if (*st == '*') {
            geometric = true;
            st = study_trim((char *)st + 1);
        }
        if (!study_parse_num(st, &step) && (geometric || !unit_number(p->key, st, &step))) {
            const char *why = looks_numeric(st) ? bad_number(st)
                                                : "not a number";
            int rc = study_fail(c, p->line, p->key,
                          "range '%s': the step must be a finite number "
                          "('%s' is %s)", item, st, why);
            free(copy);
            return rc;
        }
    }
    free(copy);
    char buf[64];
    if (geometric) {
        if (!(a > 0) || !(step > 1) || b < a)
            return study_fail(c, p->line, p->key,
                        "range '%s': a:b:*k needs 0 < a <= b and k > 1", item);
        /* log_k(b/a) + 1 values: refuse a k so close to 1 that there
         * would be too many before generating any. */
        double count = floor(log(b / a) / log(step) + 1e-9) + 1;
        if (count > STUDY_MAX_RANGE)
            return study_fail(c, p->line, p->key,
                        "range '%s': too many values (%.4g; at most %ld): "
                        "k is too close to 1", item, count, STUDY_MAX_RANGE);
        double v = a;
        for (long i = 0; v <= b * (1 + 1e-9); i++, v *= step) {
            if (i >= STUDY_MAX_RANGE)
                return study_fail(c, p->line, p->key,
                            "range '%s': too many values (at most %ld)", item,
                            STUDY_MAX_RANGE);
            snprintf(buf, sizeof buf, "%.10g", v);
            push_value(r, buf);
        }
        return 1;
    }
    if (step == 0 || (b > a && step < 0) || (b < a && step > 0))
        return study_fail(c, p->line, p->key,
                    "range '%s': the step must be non-zero and go from %g "
                    "towards %g", item, a, b);
    double span = (b - a) / step;
    if (span > STUDY_MAX_RANGE)
        return study_fail(c, p->line, p->key,
                    "range '%s': too many values (%.4g; at most %ld)", item,
                    floor(span) + 1, STUDY_MAX_RANGE);
    long n = (long)floor(span + 1e-9) + 1;
    for (long i = 0; i < n; i++) {
        double v = a + (double)i * step;
        if (fabs(v) < fabs(step) * 1e-12)
            v = 0; /* avoid "-0" and 1e-17 from rounding */
        snprintf(buf, sizeof buf, "%.10g", v);
        push_value(r, buf);
    }
    return 1;
}

int study_parse_vary(study_parse_ctx *c, const char *key, char *value,
                     long line)
{
    study *s = c->s;
    if (!study_is_param_key(key))
        return study_not_param_key(c, line, key, "");
    for (size_t i = 0; i < s->nvary; i++)
        if (!strcmp(s->vary[i].key, key))
            return study_fail(c, line, key, "varied twice (first on line %ld)",
                        s->vary[i].line);
    s->vary = xrealloc(s->vary, (s->nvary + 1) * sizeof *s->vary);
    study_param *p = &s->vary[s->nvary++];
    memset(p, 0, sizeof *p);
    p->key = xstrdup(key);
    p->line = line;
    vary_read r = {p, 0, NULL, NULL, 0};
    int rc = 0;
    /* Walk by hand (strtok would merge ",,") to catch empty items. */
    char *q = value;
    for (;;) {
        char *comma = strchr(q, ',');
        if (comma)
            *comma = '\0';
        char *item = study_trim(q);
        if (!*item) {
            rc = study_fail(c, line, key, "empty value in the list");
            break;
        }
        r.items = xrealloc(r.items, (r.nitems + 1) * sizeof *r.items);
        r.items[r.nitems++] = (struct item){xstrdup(item), false};
        int k = add_range(c, &r, item);
        if (k < 0) {
            rc = -1;
            break;
        }
        r.items[r.nitems - 1].range = k > 0;
        if (k == 0)
            push_value(&r, item);
        if (!comma)
            break;
        q = comma + 1;
    }
    if (!rc && !p->nvalues)
        rc = study_fail(c, line, key, "no values");
    if (!rc)
        rc = repeats_check(c, &r);
    for (size_t i = 0; i < r.nitems; i++)
        free(r.items[i].text);
    free(r.items);
    free(r.from);
    return rc;
}

int study_parse_list(study_parse_ctx *c, const char *key, char *value, long line,
                      char ***out, size_t *nout)
{
    char *q = value;
    for (;;) {
        char *comma = strchr(q, ',');
        if (comma)
            *comma = '\0';
        char *item = study_trim(q);
        if (!*item)
            return study_fail(c, line, key, "empty item in the list");
        for (size_t i = 0; i < *nout; i++)
            if (!strcmp((*out)[i], item))
                return study_fail(c, line, key, "'%s' listed twice", item);
        *out = xrealloc(*out, (*nout + 1) * sizeof **out);
        (*out)[(*nout)++] = xstrdup(item);
        if (!comma)
            break;
        q = comma + 1;
    }
    return 0;
}

/* A value as pnrsim reads it, with its index (study_vary_distinct). */
typedef struct parsed_value {
    char text[256];
    size_t index;
} parsed_value;

static int parsed_cmp(const void *a, const void *b)
{
    const parsed_value *x = a, *y = b;
    int r = strcmp(x->text, y->text);
    return r ? r : (x->index > y->index) - (x->index < y->index);
}

int study_vary_distinct(study_parse_ctx *c)
{
    const study *s = c->s;
    for (size_t i = 0; i < s->nvary; i++) {
        const study_param *p = &s->vary[i];
        parsed_value *pv = xmalloc((p->nvalues + 1) * sizeof *pv);
        size_t n = 0;
        for (size_t v = 0; v < p->nvalues; v++) {
            if (p->baseline && p->baseline[v] >= 0)
                continue;
            /* A text that fills the buffer may have been cut: left out
             * (such values were already compared as written). */
            char *a = xasprintf("%s=%s", p->key, p->values[v]);
            if (config_value_text(a, pv[n].text, sizeof pv[n].text) == 0 &&
                strlen(pv[n].text) < sizeof pv[n].text - 1)
                pv[n++].index = v;
            free(a);
        }
        qsort(pv, n, sizeof *pv, parsed_cmp);
        /* The group of equal texts whose first value comes first. */
        size_t best = n, best_len = 0;
        for (size_t k = 0; k < n;) {
            size_t e = k + 1;
            while (e < n && !strcmp(pv[e].text, pv[k].text))
                e++;
            if (e - k > 1 && (best == n || pv[k].index < pv[best].index)) {
                best = k;
                best_len = e - k;
            }
            k = e;
        }
        if (best < n) {
            sweep_buf b = {0};
            for (size_t k = 0; k < best_len; k++)
                sweep_buf_printf(&b, "%s'%s'", !k ? "" : k + 1 < best_len ? ", " : " and ",
                                 p->values[pv[best + k].index]);
            int rc = study_fail(c, p->line, p->key,
                                "values %s are the same setting (%s): give it "
                                "once", b.p, pv[best].text);
            sweep_buf_free(&b);
            free(pv);
            return rc;
        }
        free(pv);
    }
    return 0;
}
