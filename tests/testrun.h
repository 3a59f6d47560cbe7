/* tests/testrun.h: the set-up shared by the tests that run a small trace
 * through the whole program (run_create ... run_execute): the trace
 * written to a temporary file, and a configuration of the defaults, a
 * test's base settings and a case's settings. Header only.
 */
#ifndef PNRSIM_TESTS_TESTRUN_H
#define PNRSIM_TESTS_TESTRUN_H

#include "app/config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Write text to a new temporary file; tmpl is a mkstemp template
 * ("/tmp/NAME-XXXXXX"), rewritten in place to the file's name. */
static inline void tu_write_temp(char *tmpl, const char *text)
{
    int fd = mkstemp(tmpl);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

/* c = the defaults, then each of the NULL-terminated settings base and
 * sets ("section.key=value"), then workload.trace = trace, validated; any
 * refusal fails the test with the error. */
static inline void tu_configure(config *c, const char *const *base, const char *const *sets,
                                const char *trace)
{
    char err[CFG_ERR_MAX], kv[CFG_PATH_MAX + 32];
    config_defaults(c);
    for (int i = 0; base[i]; i++)
        ck_assert_msg(config_set(c, base[i], err) == 0, "%s: %s", base[i], err);
    for (int i = 0; sets[i]; i++)
        ck_assert_msg(config_set(c, sets[i], err) == 0, "%s: %s", sets[i], err);
    snprintf(kv, sizeof kv, "workload.trace=%s", trace);
    ck_assert_msg(config_set(c, kv, err) == 0, "%s", err);
    ck_assert_msg(config_validate(c, err) == 0, "%s", err);
}

#endif
