/* study/text.c: the small text tests and conversions of the study-file
 * parser: trimming, lower case, what a pnrsim key and a name look like,
 * control characters, and whole-string numbers. Pure functions of their
 * arguments; the bottom of study/ with study/util.c (nothing here calls
 * another file of the folder).
 */
#include "study/text.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Contract: study/text.h. */
char *study_trim(char *p)
{
    while (isspace((unsigned char)*p))
        p++;
    size_t n = strlen(p);
    while (n && isspace((unsigned char)p[n - 1]))
        p[--n] = '\0';
    return p;
}

void study_lower(char *p)
{
    for (; *p; p++)
        *p = (char)tolower((unsigned char)*p);
}

/* A pnrsim key: section.key with [a-z0-9_] on both sides, or a plugin's
 * plugin.NAME.key (issue 34; NAME may hold '-' too). */
bool study_is_param_key(const char *k)
{
    bool plugin = !strncmp(k, "plugin.", 7);
    const char *s = plugin ? k + 7 : k;
    const char *dot = strchr(s, '.');
    if (!dot || dot == s || !dot[1] || strchr(dot + 1, '.'))
        return false;
    for (const char *p = k; *p; p++)
        if (p != dot && !(plugin && p == k + 6) &&
            !(islower((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '_' ||
              (plugin && p < dot && *p == '-')))
            return false;
    return true;
}

/* A name usable as a file name stem. */
bool study_is_name(const char *v)
{
    if (!*v || *v == '.')
        return false;
    for (const char *p = v; *p; p++)
        if (!(isalnum((unsigned char)*p) || strchr("._-", *p)))
            return false;
    return true;
}

bool study_has_ctrl(const char *v)
{
    for (const char *p = v; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            return true;
    return false;
}

/* Parse a whole string as a finite double. */
bool study_parse_num(const char *t, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(t, &end);
    if (end == t || *end || errno == ERANGE || !isfinite(v))
        return false;
    *out = v;
    return true;
}

/* Parse a whole string as a long. */
bool study_parse_long(const char *t, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(t, &end, 10);
    if (end == t || *end || errno == ERANGE)
        return false;
    *out = v;
    return true;
}
