/* study/resolve.c: the [plot] and [baseline] sections of a study file,
 * built once the whole file is read.
 *
 * The parser (study/sections.c) keeps the key = value lines of each [plot]
 * and [baseline] section raw (study_raw), because the [vary] keys they name
 * may come further down the file. Once every section is read, a baseline
 * becomes one more value, NAME, of the varied key it extends (its own
 * `lines = KEY`, or else the [plot]s' common lines key), and a plot gets
 * its axes checked against the [vary] keys and every other varied key
 * pinned to one value (a key with a single value pins itself). Every
 * problem is reported through study_fail against the line it comes from.
 */
#include "study/resolve.h"
#include "study/points.h"
#include "study/text.h"
#include "study/util.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "yes", "true", "1", "on" or "no", "false", "0", "off" (any case) into
 * *out; false for anything else. */
static bool parse_bool(const char *t, bool *out)
{
    char buf[8];
    snprintf(buf, sizeof buf, "%s", t);
    study_lower(buf);
    if (!strcmp(buf, "yes") || !strcmp(buf, "true") || !strcmp(buf, "1") ||
        !strcmp(buf, "on")) {
        *out = true;
        return true;
    }
    if (!strcmp(buf, "no") || !strcmp(buf, "false") || !strcmp(buf, "0") ||
        !strcmp(buf, "off")) {
        *out = false;
        return true;
    }
    return false;
}

int study_build_plot(study_parse_ctx *c, const study_raw *rp, study_plot *pl)
{
    study *s = c->s;
    memset(pl, 0, sizeof *pl);
    pl->line = rp->line;
    pl->pin = xmalloc((s->nvary ? s->nvary : 1) * sizeof *pl->pin);
    long *pin_line = xmalloc((s->nvary ? s->nvary : 1) * sizeof(long));
    for (size_t i = 0; i < s->nvary; i++) {
        pl->pin[i] = -1;
        pin_line[i] = 0;
    }
    int rc = -1;
    for (size_t i = 0; i < rp->nkv; i++) {
        const study_kv *kv = &rp->kv[i];
        char **slot = NULL;
        bool *flag = NULL;
        if (!strcmp(kv->key, "x"))
            slot = &pl->x;
        else if (!strcmp(kv->key, "lines"))
            slot = &pl->lines;
        else if (!strcmp(kv->key, "metric"))
            slot = &pl->metric;
        else if (!strcmp(kv->key, "title"))
            slot = &pl->title;
        else if (!strcmp(kv->key, "xlabel"))
            slot = &pl->xlabel;
        else if (!strcmp(kv->key, "ylabel"))
            slot = &pl->ylabel;
        else if (!strcmp(kv->key, "logx"))
            flag = &pl->logx;
        else if (!strcmp(kv->key, "logy"))
            flag = &pl->logy;
        if (slot) {
            if (*slot) {
                study_fail(c, kv->line, kv->key, "given twice in this plot");
                goto out;
            }
            *slot = xstrdup(kv->value);
            if (slot == &pl->x || slot == &pl->lines) {
                study_lower(*slot);
                if (study_param_index(s, *slot) < 0) {
                    study_fail(c, kv->line, kv->key, "'%s' is not a [vary] key",
                         *slot);
                    goto out;
                }
            }
            continue;
        }
        if (flag) {
            if (!parse_bool(kv->value, flag)) {
                study_fail(c, kv->line, kv->key, "'%s': need yes or no", kv->value);
                goto out;
            }
            continue;
        }
        long pi = study_param_index(s, kv->key);
        if (pi < 0) {
            study_fail(c, kv->line, kv->key,
                 "unknown key in [plot] (metric, x, lines, title, xlabel, "
                 "ylabel, logx, logy, or a [vary] key to pin)");
            goto out;
        }
        if (pin_line[pi]) {
            study_fail(c, kv->line, kv->key, "pinned twice in this plot");
            goto out;
        }
        const study_param *p = &s->vary[pi];
        long vi = -1;
        for (size_t j = 0; j < p->nvalues; j++)
            if (!strcmp(p->values[j], kv->value))
                vi = (long)j;
        if (vi < 0) {
            study_fail(c, kv->line, kv->key, "'%s' is not one of its [vary] values",
                 kv->value);
            goto out;
        }
        pl->pin[pi] = vi;
        pin_line[pi] = kv->line;
    }
    if (!pl->metric) {
        study_fail(c, rp->line, "metric", "missing in this [plot]");
        goto out;
    }
    if (!pl->x) {
        study_fail(c, rp->line, "x", "missing in this [plot]");
        goto out;
    }
    if (pl->lines && !strcmp(pl->lines, pl->x)) {
        study_fail(c, rp->line, "lines", "same key as x");
        goto out;
    }
    if (s->nmetrics) {
        bool found = false;
        for (size_t i = 0; i < s->nmetrics; i++)
            found |= !strcmp(s->metrics[i], pl->metric);
        if (!found) {
            study_fail(c, rp->line, "metric",
                 "'%s' is not in the [study] metrics list", pl->metric);
            goto out;
        }
    }
    for (size_t i = 0; i < s->nvary; i++) {
        bool axis = !strcmp(s->vary[i].key, pl->x) ||
                    (pl->lines && !strcmp(s->vary[i].key, pl->lines));
        if (axis && pin_line[i]) {
            study_fail(c, pin_line[i], s->vary[i].key,
                 "pinned but also used as x or lines");
            goto out;
        }
        if (!axis && pl->pin[i] < 0) {
            if (s->vary[i].nvalues == 1) {
                pl->pin[i] = 0;
                continue;
            }
            study_fail(c, rp->line, s->vary[i].key,
                 "varied but neither x nor lines in this [plot]: pin it "
                 "with '%s = VALUE'", s->vary[i].key);
            goto out;
        }
    }
    pl->name = xstrdup(rp->name ? rp->name : pl->metric);
    if (!study_is_name(pl->name)) {
        study_fail(c, rp->line, "plot",
             "'%s' is not usable as a file name; name the plot: [plot NAME]",
             pl->name);
        goto out;
    }
    rc = 0;
out:
    free(pin_line);
    return rc;
}

void study_free_raw(study_raw *r, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < r[i].nkv; j++) {
            free(r[i].kv[j].key);
            free(r[i].kv[j].value);
        }
        free(r[i].kv);
        free(r[i].name);
    }
    free(r);
}

void study_free_plot(study_plot *pl)
{
    free(pl->name);
    free(pl->x);
    free(pl->lines);
    free(pl->metric);
    free(pl->title);
    free(pl->xlabel);
    free(pl->ylabel);
    free(pl->pin);
}

/* The key a baseline without `lines = KEY` extends: the lines key of the
 * [plot]s, which must agree. NULL after a failure (reported). *line gets
 * the line of the plot's lines key. */
static char *plots_lines_key(study_parse_ctx *c, const study_raw *rb,
                             const study_raw *plots, size_t nplots, long *line)
{
    char *key = NULL;
    for (size_t i = 0; i < nplots; i++)
        for (size_t j = 0; j < plots[i].nkv; j++) {
            if (strcmp(plots[i].kv[j].key, "lines") != 0)
                continue;
            char *k = xstrdup(plots[i].kv[j].value);
            study_lower(k);
            if (!key) {
                key = k;
                *line = plots[i].kv[j].line;
            } else if (strcmp(key, k) != 0) {
                study_fail(c, rb->line, "lines",
                     "the [plot]s have different lines keys ('%s' on line "
                     "%ld, '%s' on line %ld): say which one this baseline "
                     "extends with lines = KEY", key, *line, k,
                     plots[i].kv[j].line);
                free(k);
                free(key);
                return NULL;
            } else {
                free(k);
            }
        }
    if (!key)
        study_fail(c, rb->line, "lines",
             "no [plot] has a lines key: say which [vary] key this baseline "
             "is a value of with lines = KEY");
    return key;
}

/* Turn the [baseline] sections into study_baselines and append their names
 * to the values of their key. 0 or -1 (reported). */
int study_build_baselines(study_parse_ctx *c, const study_raw *rb, size_t nrb,
                           const study_raw *plots, size_t nplots)
{
    study *s = c->s;
    if (!nrb)
        return 0;
    s->baselines = xmalloc(nrb * sizeof *s->baselines);
    for (size_t b = 0; b < nrb; b++) {
        const study_raw *r = &rb[b];
        study_baseline *bl = &s->baselines[s->nbaselines++];
        memset(bl, 0, sizeof *bl);
        bl->name = xstrdup(r->name);
        bl->line = r->line;
        long key_line = 0;
        bool from_plots = false;
        for (size_t i = 0; i < r->nkv; i++) {
            const study_kv *kv = &r->kv[i];
            if (!strcmp(kv->key, "lines")) {
                bl->key = xstrdup(kv->value);
                study_lower(bl->key);
                key_line = kv->line;
                continue;
            }
            long pi = study_param_index(s, kv->key);
            if (pi >= 0)
                return study_fail(c, kv->line, kv->key,
                            "also varied in [vary] (line %ld): a baseline "
                            "may only set keys that are not varied",
                            s->vary[pi].line);
            bl->set = xrealloc(bl->set, (bl->nset + 1) * sizeof *bl->set);
            bl->set[bl->nset++] = (study_kv){xstrdup(kv->key),
                                             xstrdup(kv->value),
                                             kv->line};
        }
        if (!bl->nset)
            return study_fail(c, r->line, "baseline",
                        "'%s': a baseline needs at least one KEY = VALUE override "
                        "(e.g. netram.enabled = no)", bl->name);
        if (!bl->key) {
            bl->key = plots_lines_key(c, r, plots, nplots, &key_line);
            if (!bl->key)
                return -1;
            from_plots = true;
        }
        long pi = study_param_index(s, bl->key);
        if (pi < 0 && from_plots)
            return study_fail(c, key_line, "lines",
                        "'%s' is not a [vary] key (the baseline on line %ld "
                        "extends the [plot]s' lines key)", bl->key, r->line);
        if (pi < 0)
            return study_fail(c, key_line, "lines",
                        "'%s' is not a [vary] key: a baseline is one more "
                        "value of a varied key", bl->key);
        if (b && strcmp(bl->key, s->baselines[0].key) != 0)
            return study_fail(c, key_line ? key_line : r->line, "lines",
                        "'%s': every baseline must extend the same [vary] key "
                        "(baseline '%s' on line %ld extends '%s')", bl->key,
                        s->baselines[0].name, s->baselines[0].line,
                        s->baselines[0].key);
        study_param *p = &s->vary[pi];
        for (size_t v = 0; v < p->nvalues; v++)
            if (!strcmp(p->values[v], bl->name))
                return study_fail(c, r->line, "baseline",
                            "'%s' is also a value of %s in [vary] (line %ld); "
                            "name the baseline otherwise", bl->name, p->key,
                            p->line);
        if (!p->baseline) {
            p->baseline = xmalloc((p->nvalues + nrb) * sizeof *p->baseline);
            for (size_t v = 0; v < p->nvalues; v++)
                p->baseline[v] = -1;
        }
        p->values = xrealloc(p->values,
                                   (p->nvalues + 1) * sizeof *p->values);
        p->values[p->nvalues] = xstrdup(bl->name);
        p->baseline[p->nvalues++] = (long)b;
    }
    return 0;
}
