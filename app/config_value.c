/* app/config_value.c: configuration values by type: parsing a value's
 * text, checking a stored value against its key's range or names,
 * formatting it back (the shortest text that reads back the same),
 * comparing, and describing what a key accepts, in messages and in the
 * comments of written files. The messages' classes ("malformed number",
 * "out of range", "expected one of", ...) are tested by tests/test_config.c
 * and tests/test_config_set.c.
 *
 * Why switches and not a per-type ops table (issue 13.7 said "consider"):
 * the six `switch (kd->type)` statements all live in this one file, and
 * several types share case bodies (INT with LONG, U64 with BOOL) that a
 * table of function pointers would split into near-copies. A table would
 * pay off if types were added often; they are not, so the switches stay.
 *
 * cfg_apply, at the end, is what every reader calls with a value it read:
 * parse it, record where it was set (config's origin), or word the
 * failure at that place (app/config_error.c). In the configuration
 * module's layers (app/config.h) this file is above the key table and the
 * error wording, and below the readers (INI, PNRSim files, --set).
 */
#include "app/config_value.h"
#include "app/config_lookup.h"
#include "app/ini_reader.h"
#include "app/util.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void *cfg_field(config *c, const key_def *kd)
{
    return (char *)c + kd->offset;
}

const void *cfg_cfield(const config *c, const key_def *kd)
{
    return (const char *)c + kd->offset;
}

/* The stored value of an enum key, as int. */
int cfg_get_enum(const config *c, const key_def *kd)
{
    int v;
    memcpy(&v, cfg_cfield(c, kd), sizeof v);
    return v;
}

/* The number of entries of a KT_STATUS key. */
int cfg_get_count(const config *c, const key_def *kd)
{
    int n;
    memcpy(&n, (const char *)c + kd->count_offset, sizeof n);
    return n;
}

/* ---------------------------------------------------------------------- */
/* Values: describing, parsing, checking, formatting                       */
/* ---------------------------------------------------------------------- */

/* The largest value an integer key can hold: its table max or its type's. */
static double int_max(const key_def *kd)
{
    double tmax = kd->type == KT_INT ? (double)INT_MAX
                  : kd->type == KT_LONG ? (double)LONG_MAX
                                        : (double)INT_MAX;
    return kd->max < tmax ? kd->max : tmax;
}

/* What kd accepts, as a phrase ("a number > 0", "one of FCFS, BESTFIT"). */
static void describe_allowed(const key_def *kd, char *buf, size_t n)
{
    buf[0] = '\0';
    switch (kd->type) {
    case KT_STRING:
        if (kd->allowed)
            snprintf(buf, n, "%s", kd->allowed);
        else
            snprintf(buf, n, "%stext of at most %zu characters, without ';'",
                     kd->min >= 1 ? "non-empty " : "", kd->size - 1);
        break;
    case KT_TIME:
        snprintf(buf, n, "a time >= %g and <= %g s: seconds, or a number with a unit s, m, "
                 "h or d (384300, 384300s, 100h, 2d)", kd->min, kd->max);
        break;
    case KT_DOUBLE:
        if (kd->whole)
            snprintf(buf, n, "an integer between %.0f and %.0f", kd->min, kd->max);
        else if (kd->max == NOMAX)
            snprintf(buf, n, "a number %s %g", kd->min_open ? ">" : ">=", kd->min);
        else
            snprintf(buf, n, "%sa number %s %g and <= %g", kd->zero_off ? "0 or " : "",
                     kd->min_open ? ">" : ">=", kd->min, kd->max);
        /* The unit the bounds are in, for a value written with another. */
        if (cfg_key_dim(kd) != KEY_PLAIN)
            util_appendf(buf, n, " %s", cfg_key_dim(kd) == KEY_TIME ? "s" : "MB");
        break;
    case KT_INT:
    case KT_LONG:
        snprintf(buf, n, "an integer between %.0f and %.0f", kd->min, int_max(kd));
        break;
    case KT_U64:
        snprintf(buf, n, "an integer between 0 and %" PRIu64, UINT64_MAX);
        break;
    case KT_BOOL:
        snprintf(buf, n, "a boolean: yes, no, true, false, on, off, 1 or 0");
        break;
    case KT_ENUM:
        snprintf(buf, n, "one of ");
        for (size_t i = 0; key_names(kd)[i]; i++)
            util_appendf(buf, n, "%s%s", i ? ", " : "", key_names(kd)[i]);
        if (kd->names == cfg_mem_aware_names)
            util_appendf(buf, n, ", or a boolean (yes = LOCAL, no = NO)");
        if (kd->names == cfg_schedule_names)
            util_appendf(buf, n, " (true, on, 1 = yes; false, off, 0 = no)");
        break;
    case KT_STATUS:
        snprintf(buf, n, "at most %zu comma-separated integers between %.0f and %.0f",
                 kd->size, kd->min, kd->max);
        break;
    case KT_RAM: /* groups have messages of their own (parse_groups) */
    case KT_SPEED:
        snprintf(buf, n, "a number %s %g and <= %g%s", kd->min_open ? ">" : ">=", kd->min,
                 kd->max, kd->type == KT_SPEED ? ", or groups COUNTxSPEED" : " MB");
        break;
    }
}

/* Write "out of range: expected <allowed>" into why. */
static void why_range(const key_def *kd, char *why, size_t n)
{
    char allowed[160];
    describe_allowed(kd, allowed, sizeof allowed);
    snprintf(why, n, "out of range: expected %s", allowed);
}

/* Parse a boolean word. Returns 0 and sets *v, or -1. */
static int parse_bool(const char *s, bool *v)
{
    static const char *const yes[] = {"yes", "true", "on", "1"};
    static const char *const no[] = {"no", "false", "off", "0"};
    for (size_t i = 0; i < 4; i++) {
        if (!strcasecmp(s, yes[i])) {
            *v = true;
            return 0;
        }
        if (!strcasecmp(s, no[i])) {
            *v = false;
            return 0;
        }
    }
    return -1;
}

/* Check the value of kd stored in c against the table. Returns 0, or -1 with
 * the problem in why ("out of range: expected ..."). */
static int check_groups(const key_def *kd, const config *c, char *why, size_t n);

int cfg_check_stored(const key_def *kd, const config *c, char *why, size_t n)
{
    switch (kd->type) {
    case KT_STRING: {
        const char *s = cfg_cfield(c, kd);
        size_t len = strnlen(s, kd->size);
        if (len == kd->size) {
            snprintf(why, n, "too long: at most %zu characters", kd->size - 1);
            return -1;
        }
        if ((double)len < kd->min) {
            snprintf(why, n, "empty: expected a non-empty name");
            return -1;
        }
        /* config.ini must read it back: ';' anywhere and '#' after a blank
         * start a comment in an INI value (app/config_ini.c). */
        for (size_t i = 0; i < len; i++)
            if (s[i] == ';' || iscntrl((unsigned char)s[i]) ||
                (s[i] == '#' && i > 0 && (s[i - 1] == ' ' || s[i - 1] == '\t'))) {
                snprintf(why, n, "must not contain ';' or a '#' after a blank (they start a "
                                 "comment) or control characters");
                return -1;
            }
        if (ini_reader_comment_at(s, len) < len) {
            snprintf(why, n, "must not contain '#' at its start or after white space "
                             "(it starts a comment)");
            return -1;
        }
        return kd->validate ? kd->validate(s, why, n) : 0;
    }
    case KT_TIME:
    case KT_DOUBLE: {
        double v = *(const double *)cfg_cfield(c, kd);
        if (kd->zero_off && v == 0)
            return 0;
        if (!isfinite(v) || (kd->min_open ? v <= kd->min : v < kd->min) ||
            v > kd->max) {
            why_range(kd, why, n);
            return -1;
        }
        if (kd->whole && v != floor(v)) {
            snprintf(why, n, "not a whole number: expected an integer between %.0f and %.0f",
                     kd->min, kd->max);
            return -1;
        }
        if (v != 0 && fabs(v) < DBL_MIN) {
            /* Physically 0; a denormal would only slow arithmetic down. The
             * message offers 0 only where the key takes 0. */
            bool zero_ok = kd->zero_off || ((kd->min_open ? 0 > kd->min : 0 >= kd->min) &&
                                            0 <= kd->max);
            char allowed[160], least[32];
            describe_allowed(kd, allowed, sizeof allowed);
            util_fmt_g(least, sizeof least, DBL_MIN);
            if (zero_ok)
                snprintf(why, n, "subnormal number: expected 0 or a magnitude of at least %s",
                         least);
            else
                snprintf(why, n, "subnormal number: expected %s, of magnitude at least %s "
                                 "(0 is not accepted)", allowed, least);
            return -1;
        }
        return 0;
    }
    case KT_INT:
    case KT_LONG: {
        double v = kd->type == KT_INT ? *(const int *)cfg_cfield(c, kd)
                                      : (double)*(const long *)cfg_cfield(c, kd);
        if (v < kd->min || v > int_max(kd)) {
            why_range(kd, why, n);
            return -1;
        }
        return 0;
    }
    case KT_U64:
    case KT_BOOL:
        return 0;
    case KT_ENUM: {
        int v = cfg_get_enum(c, kd);
        if (v < 0 || (size_t)v >= cfg_n_names(key_names(kd))) {
            char allowed[160];
            describe_allowed(kd, allowed, sizeof allowed);
            snprintf(why, n, "expected %s", allowed);
            return -1;
        }
        return 0;
    }
    case KT_STATUS: {
        int count = cfg_get_count(c, kd);
        const int *v = cfg_cfield(c, kd);
        if (count < 0 || (size_t)count > kd->size) {
            why_range(kd, why, n);
            return -1;
        }
        for (int i = 0; i < count; i++)
            if (v[i] < kd->min || v[i] > kd->max) {
                why_range(kd, why, n);
                return -1;
            }
        return 0;
    }
    case KT_RAM:
    case KT_SPEED:
        return check_groups(kd, c, why, n);
    }
    return 0;
}

/* Group keys (KT_RAM, KT_SPEED): one value for every node, or groups
 * COUNTxVALUE in node order. The view of kd's fields in c: the single
 * value, the number of groups, and group i's count and value. */
typedef struct grp_view {
    double *one;
    int *n;
    int *count[CFG_MAX_RAM_GROUPS];
    double *val[CFG_MAX_RAM_GROUPS];
    const char *form, *eg; /* "COUNTxMB", "200x1024, 40x4096" */
} grp_view;

static grp_view groups_of(const key_def *kd, const config *cc)
{
    config *c = (config *)cc; /* the view of a const config is only read */
    grp_view g;
    bool ram = kd->type == KT_RAM;
    g.one = ram ? &c->computer.ram : &c->computer.speed;
    g.n = ram ? &c->computer.n_ram_groups : &c->computer.n_speed_groups;
    for (int i = 0; i < CFG_MAX_RAM_GROUPS; i++) {
        g.count[i] = ram ? &c->computer.ram_groups[i].count : &c->computer.speed_groups[i].count;
        g.val[i] = ram ? &c->computer.ram_groups[i].mb : &c->computer.speed_groups[i].speed;
    }
    g.form = ram ? "COUNTxMB" : "COUNTxSPEED";
    g.eg = ram ? "200x1024, 40x4096" : "120x1.0, 120x2.0";
    return g;
}

/* Whether v is in kd's range (KT_SPEED: min is open). */
static bool group_value_ok(const key_def *kd, double v)
{
    return isfinite(v) && (kd->min_open ? v > kd->min : v >= kd->min) && v <= kd->max;
}

/* Parse computer.ram or computer.speed: one number (every node), or
 * comma-separated groups COUNTxVALUE in node order (the view's n and
 * groups; its single value = the first group's). Whether the counts add
 * up to the nodes is a cross-key rule (config_validate). Returns 0, or -1
 * with the problem in why. */
static int parse_groups(const key_def *kd, const char *text, config *c, char *why, size_t n)
{
    grp_view g = groups_of(kd, c);
    bool ram = kd->type == KT_RAM;
    const char *unit = ram ? " MB" : "";
    if (!strchr(text, 'x') && !strchr(text, 'X') && !strchr(text, ',')) {
        double v;
        int r = ram ? cfg_parse_memory(text, &v) : cfg_parse_number(text, &v);
        if (r == -1) {
            snprintf(why, n, "malformed number: expected a decimal number such as %s%s, "
                             "or groups %s such as %s%s", kd->def,
                     ram ? " (MB), or a size with a unit MB, GB or TB (256GB; 1 GB = 1024 MB)"
                         : "", g.form, g.eg, ram ? " (or 200x1GB, 40x4GB)" : "");
            return -1;
        }
        if (r == -2 || !group_value_ok(kd, v)) {
            why_range(kd, why, n);
            return -1;
        }
        *g.one = v;
        *g.n = 0;
        return 0;
    }
    int k = 0;
    for (const char *p = text;;) {
        size_t len = strcspn(p, ",");
        char item[64], *x;
        long long count = 0;
        double v = 0;
        if (!util_trim_copy(item, sizeof item, p, len) || !(x = strpbrk(item, "xX"))) {
            snprintf(why, n, "malformed group %d: expected %s such as %.*s", k + 1, g.form,
                     (int)strcspn(g.eg, ","), g.eg);
            return -1;
        }
        *x = '\0';
        char cs[64], ms[64];
        if (!util_trim_copy(cs, sizeof cs, item, strlen(item)) ||
            !util_trim_copy(ms, sizeof ms, x + 1, strlen(x + 1)) || cfg_parse_ll(cs, &count) ||
            (ram ? cfg_parse_memory(ms, &v) : cfg_parse_number(ms, &v)) == -1) {
            snprintf(why, n, "malformed group %d: expected %s such as %.*s%s", k + 1, g.form,
                     (int)strcspn(g.eg, ","), g.eg,
                     ram ? " (MB), or with a unit MB, GB or TB such as 200x1GB" : "");
            return -1;
        }
        if (count < 1) {
            snprintf(why, n, "group %d: count %s: expected an integer >= 1", k + 1, cs);
            return -1;
        }
        double most = cfg_find_key("computer", "number")->max;
        if ((double)count > most) {
            snprintf(why, n, "group %d: count %s exceeds the most PEs [computer] number "
                     "allows (%g)", k + 1, cs, most);
            return -1;
        }
        if (!group_value_ok(kd, v)) {
            snprintf(why, n, "group %d: %s%s out of range: expected %s %g and <= %g",
                     k + 1, ms, unit, kd->min_open ? ">" : ">=", kd->min, kd->max);
            return -1;
        }
        if (k >= CFG_MAX_RAM_GROUPS) {
            snprintf(why, n, "more than %d groups", CFG_MAX_RAM_GROUPS);
            return -1;
        }
        *g.count[k] = (int)count;
        *g.val[k++] = v;
        if (!p[len])
            break;
        p += len + 1;
    }
    *g.n = k;
    *g.one = *g.val[0];
    return 0;
}

/* Check a stored computer.ram or computer.speed. 0, or -1 with the problem
 * in why. */
static int check_groups(const key_def *kd, const config *c, char *why, size_t n)
{
    grp_view g = groups_of(kd, c);
    int k = *g.n;
    if (k < 0 || k > CFG_MAX_RAM_GROUPS) {
        why_range(kd, why, n);
        return -1;
    }
    for (int i = 0; i <= k; i++) {
        double v = i < k ? *g.val[i] : *g.one;
        if (!group_value_ok(kd, v) || (i < k && *g.count[i] < 1)) {
            why_range(kd, why, n);
            return -1;
        }
    }
    return 0;
}

/* Parse a list of comma-separated integers into kd's array in c ("" = no
 * entry). Returns 0, or -1 with the problem in why. */
static int parse_status_list(const key_def *kd, const char *text, config *c,
                             char *why, size_t n)
{
    int *v = cfg_field(c, kd);
    int count = 0;
    for (const char *p = text; *p;) {
        size_t len = strcspn(p, ",");
        char item[32];
        long long x = 0;
        int r = util_trim_copy(item, sizeof item, p, len) ? cfg_parse_ll(item, &x) : -1;
        if (r == -1) {
            snprintf(why, n, "malformed number: expected comma-separated integers");
            return -1;
        }
        if (r == -2 || x < kd->min || x > kd->max || (size_t)count >= kd->size) {
            why_range(kd, why, n);
            return -1;
        }
        v[count++] = (int)x;
        if (!p[len])
            break;
        p += len + 1;
        if (!*p) { /* trailing comma */
            snprintf(why, n, "malformed number: expected comma-separated integers");
            return -1;
        }
    }
    memcpy((char *)c + kd->count_offset, &count, sizeof count);
    return 0;
}

/* Parse text (already trimmed) as the value of kd and store it in c. Returns
 * 0, or -1 with the problem in why; the message classes are "malformed
 * number", "out of range", "expected one of", "expected a boolean", "too
 * long", "empty" and "must not contain". */
int cfg_parse_value(const key_def *kd, const char *text, config *c, char *why,
                       size_t n)
{
    switch (kd->type) {
    case KT_STRING: {
        size_t len = strlen(text);
        if (len >= kd->size) {
            snprintf(why, n, "too long: at most %zu characters", kd->size - 1);
            return -1;
        }
        memcpy(cfg_field(c, kd), text, len + 1);
        break;
    }
    case KT_DOUBLE: {
        /* A time or a memory size may carry its unit (config_lookup.h). */
        double v;
        key_dim dim = cfg_key_dim(kd);
        int r = dim == KEY_TIME     ? cfg_parse_time(text, &v)
                : dim == KEY_MEMORY ? cfg_parse_memory(text, &v)
                                    : cfg_parse_number(text, &v);
        if (r == -1) {
            snprintf(why, n, "malformed number: expected a decimal number such as 12.5 or "
                     "2.4e-07%s", dim == KEY_TIME ? " (s), or a time with a unit s, m, h or d "
                                                    "(60s, 1.5h, 2d)"
                                  : dim == KEY_MEMORY ? " (MB), or a size with a unit MB, GB or "
                                                        "TB (512MB, 256GB, 1TB; 1 GB = 1024 MB)"
                                                      : "");
            return -1;
        }
        if (r == -2) {
            why_range(kd, why, n);
            return -1;
        }
        *(double *)cfg_field(c, kd) = v;
        break;
    }
    case KT_INT:
    case KT_LONG: {
        long long v;
        int r = cfg_parse_ll(text, &v);
        if (r == -1) {
            snprintf(why, n, "malformed number: expected an integer");
            return -1;
        }
        if (r == -2 || (double)v < kd->min || (double)v > int_max(kd)) {
            why_range(kd, why, n);
            return -1;
        }
        if (kd->type == KT_INT)
            *(int *)cfg_field(c, kd) = (int)v;
        else
            *(long *)cfg_field(c, kd) = (long)v;
        break;
    }
    case KT_U64: {
        long long dummy;
        int r = cfg_parse_ll(text, &dummy);
        if (r == -1) {
            snprintf(why, n, "malformed number: expected an integer");
            return -1;
        }
        errno = 0;
        unsigned long long v = strtoull(text, NULL, 10);
        if (text[0] == '-' || errno == ERANGE) {
            /* "-0" is 0; any other negative value is out of range */
            if (!(text[0] == '-' && v == 0 && errno != ERANGE)) {
                why_range(kd, why, n);
                return -1;
            }
        }
        *(uint64_t *)cfg_field(c, kd) = (uint64_t)v;
        break;
    }
    case KT_BOOL: {
        bool v;
        if (parse_bool(text, &v)) {
            char allowed[160];
            describe_allowed(kd, allowed, sizeof allowed);
            snprintf(why, n, "expected %s", allowed);
            return -1;
        }
        *(bool *)cfg_field(c, kd) = v;
        break;
    }
    case KT_ENUM: {
        int v = -1;
        for (int i = 0; key_names(kd)[i]; i++)
            if (!strcasecmp(text, key_names(kd)[i]))
                v = i;
        bool b;
        if (v < 0 && kd->names == cfg_mem_aware_names && parse_bool(text, &b) == 0)
            v = b ? MEM_AWARE_LOCAL : MEM_AWARE_NO; /* the report's Yes/No */
        if (v < 0 && kd->names == cfg_schedule_names && parse_bool(text, &b) == 0)
            v = b ? SCHEDULE_YES : SCHEDULE_NO; /* a boolean before issue 26 */
        if (v < 0) {
            char allowed[160];
            describe_allowed(kd, allowed, sizeof allowed);
            snprintf(why, n, "expected %s", allowed);
            return -1;
        }
        memcpy(cfg_field(c, kd), &v, sizeof v);
        break;
    }
    case KT_STATUS:
        if (parse_status_list(kd, text, c, why, n))
            return -1;
        break;
    case KT_RAM:
    case KT_SPEED:
        if (parse_groups(kd, text, c, why, n))
            return -1;
        break;
    case KT_TIME: {
        double v;
        int r = cfg_parse_time(text, &v);
        if (r == -1) {
            snprintf(why, n, "malformed time: expected seconds, or a number with a unit s, "
                             "m, h or d (384300, 384300s, 100h, 2d)");
            return -1;
        }
        if (r == -2) {
            why_range(kd, why, n);
            return -1;
        }
        *(double *)cfg_field(c, kd) = v;
        break;
    }
    }
    return cfg_check_stored(kd, c, why, n);
}

/* The stored value of kd in c as written in an INI file. */
void cfg_format_value(const key_def *kd, const config *c, char *buf, size_t n)
{
    switch (kd->type) {
    case KT_STRING:
        snprintf(buf, n, "%.*s", (int)strnlen(cfg_cfield(c, kd), kd->size),
                 (const char *)cfg_cfield(c, kd));
        break;
    case KT_DOUBLE:
    case KT_TIME:
        cfg_format_double(buf, n, *(const double *)cfg_cfield(c, kd));
        break;
    case KT_INT:
        snprintf(buf, n, "%d", *(const int *)cfg_cfield(c, kd));
        break;
    case KT_LONG:
        snprintf(buf, n, "%ld", *(const long *)cfg_cfield(c, kd));
        break;
    case KT_U64:
        snprintf(buf, n, "%" PRIu64, *(const uint64_t *)cfg_cfield(c, kd));
        break;
    case KT_BOOL:
        snprintf(buf, n, "%s", *(const bool *)cfg_cfield(c, kd) ? "yes" : "no");
        break;
    case KT_ENUM: {
        int v = cfg_get_enum(c, kd);
        snprintf(buf, n, "%s",
                 v >= 0 && (size_t)v < cfg_n_names(key_names(kd)) ? key_names(kd)[v] : "?");
        break;
    }
    case KT_STATUS: {
        int count = cfg_get_count(c, kd);
        const int *v = cfg_cfield(c, kd);
        buf[0] = '\0';
        for (int i = 0; i < count && (size_t)i < kd->size; i++)
            util_appendf(buf, n, "%s%d", i ? "," : "", v[i]);
        break;
    }
    case KT_RAM:
    case KT_SPEED: {
        grp_view g = groups_of(kd, c);
        if (*g.n == 0) {
            cfg_format_double(buf, n, *g.one);
            break;
        }
        buf[0] = '\0';
        for (int i = 0; i < *g.n && i < CFG_MAX_RAM_GROUPS; i++) {
            char v[40];
            cfg_format_double(v, sizeof v, *g.val[i]);
            util_appendf(buf, n, "%s%dx%s", i ? ", " : "", *g.count[i], v);
        }
        break;
    }
    }
}

/* True when kd's values in a and b are equal. */
bool cfg_value_equal(const key_def *kd, const config *a, const config *b)
{
    switch (kd->type) {
    case KT_STRING:
        return !strncmp(cfg_cfield(a, kd), cfg_cfield(b, kd), kd->size);
    case KT_DOUBLE:
    case KT_TIME:
        return *(const double *)cfg_cfield(a, kd) == *(const double *)cfg_cfield(b, kd);
    case KT_INT:
        return *(const int *)cfg_cfield(a, kd) == *(const int *)cfg_cfield(b, kd);
    case KT_LONG:
        return *(const long *)cfg_cfield(a, kd) == *(const long *)cfg_cfield(b, kd);
    case KT_U64:
        return *(const uint64_t *)cfg_cfield(a, kd) == *(const uint64_t *)cfg_cfield(b, kd);
    case KT_BOOL:
        return *(const bool *)cfg_cfield(a, kd) == *(const bool *)cfg_cfield(b, kd);
    case KT_ENUM:
        return cfg_get_enum(a, kd) == cfg_get_enum(b, kd);
    case KT_STATUS: {
        int na = cfg_get_count(a, kd), nb = cfg_get_count(b, kd);
        if (na != nb)
            return false;
        if (na < 0 || (size_t)na > kd->size)
            return true; /* equally broken */
        return !memcmp(cfg_cfield(a, kd), cfg_cfield(b, kd), (size_t)na * sizeof(int));
    }
    case KT_RAM:
    case KT_SPEED: {
        grp_view ga = groups_of(kd, a), gb = groups_of(kd, b);
        int na = *ga.n;
        if (na != *gb.n || *ga.one != *gb.one)
            return false;
        for (int i = 0; i < na && i < CFG_MAX_RAM_GROUPS; i++)
            if (*ga.count[i] != *gb.count[i] || *ga.val[i] != *gb.val[i])
                return false;
        return true;
    }
    }
    return false;
}


/* The allowed values of kd, tersely, for the comment above it. */
static void describe_terse(const key_def *kd, char *buf, size_t n);

void cfg_describe_terse(const key_def *kd, char *buf, size_t n)
{
    describe_terse(kd, buf, n);
    /* A time or memory key in s or MB says it takes units (KT_TIME's
     * text says so already). */
    if (kd->type != KT_TIME && cfg_key_dim(kd) != KEY_PLAIN)
        util_appendf(buf, n, "; or with a unit %s",
                     cfg_key_dim(kd) == KEY_TIME ? "s, m, h, d" : "MB, GB, TB");
}

static void describe_terse(const key_def *kd, char *buf, size_t n)
{
    switch (kd->type) {
    case KT_DOUBLE:
        if (kd->whole)
            snprintf(buf, n, "integer %.0f..%.0f", kd->min, kd->max);
        else if (kd->max == NOMAX)
            snprintf(buf, n, "%s %g", kd->min_open ? ">" : ">=", kd->min);
        else
            snprintf(buf, n, "%s%g %s x <= %g", kd->zero_off ? "0 or " : "", kd->min,
                     kd->min_open ? "<" : "<=", kd->max);
        break;
    case KT_INT:
    case KT_LONG:
        if (kd->max == NOMAX)
            snprintf(buf, n, "integer >= %.0f", kd->min);
        else
            snprintf(buf, n, "integer %.0f..%.0f", kd->min, kd->max);
        break;
    case KT_U64:
        snprintf(buf, n, "integer >= 0");
        break;
    case KT_BOOL:
        snprintf(buf, n, "yes or no");
        break;
    case KT_STRING:
        if (kd->allowed)
            snprintf(buf, n, "%s", kd->allowed);
        else
            snprintf(buf, n, "at most %zu characters", kd->size - 1);
        break;
    case KT_TIME:
        snprintf(buf, n, "%g..%g; or with a unit s, m, h, d: 100h, 2d", kd->min, kd->max);
        break;
    case KT_ENUM:
        buf[0] = '\0';
        for (size_t i = 0; key_names(kd)[i]; i++)
            util_appendf(buf, n, "%s%s", i ? " | " : "", key_names(kd)[i]);
        break;
    case KT_STATUS:
        snprintf(buf, n, "%.0f..%.0f, at most %zu", kd->min, kd->max, kd->size);
        break;
    case KT_RAM:
        snprintf(buf, n, "%g <= x <= %g, or groups COUNTxMB, ...", kd->min, kd->max);
        break;
    case KT_SPEED:
        snprintf(buf, n, "%g %s x <= %g, or groups COUNTxSPEED, ...", kd->min, kd->min_open ? "<" : "<=", kd->max);
        break;
    }
}

/* ---------------------------------------------------------------------- */
/* Storing a value read at a place                                         */
/* ---------------------------------------------------------------------- */

/* Record where kd was set in c: text from fmt, cut to CFG_ORIGIN_MAX with
 * "..." at its end. */
void cfg_set_origin(config *c, const key_def *kd, const char *fmt, ...)
{
    char *o = c->origin[kd - cfg_keys];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(o, CFG_ORIGIN_MAX, fmt, ap);
    va_end(ap);
    if (n >= CFG_ORIGIN_MAX)
        memcpy(o + CFG_ORIGIN_MAX - 4, "...", 4);
}

/* Record w as where kd was set in c: "FILE:LINE" (the path cut at its
 * start when long, keeping the line number) or "--set ARG". */
static void set_origin_at(config *c, const key_def *kd, const where *w)
{
    if (!w->file) {
        cfg_set_origin(c, kd, "--set %s", w->arg);
        return;
    }
    char line[32];
    snprintf(line, sizeof line, ":%ld", w->line);
    size_t room = CFG_ORIGIN_MAX - 1 - strlen(line), len = strlen(w->file);
    if (len <= room)
        cfg_set_origin(c, kd, "%s%s", w->file, line);
    else
        cfg_set_origin(c, kd, "...%s%s", w->file + len - (room - 3), line);
}

/* Parse value for kd into *c and report a failure at w. */
int cfg_apply(config *c, const key_def *kd, const char *value, const where *w,
              cfg_error *e)
{
    char why[256];
    if (cfg_parse_value(kd, value, c, why, sizeof why)) {
        cfg_fail_value(e, w, kd, value, why);
        return -1;
    }
    set_origin_at(c, kd, w);
    return 0;
}
