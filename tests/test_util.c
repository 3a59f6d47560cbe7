/* tests/test_util.c: app/util.h (mkdir -p with the prefix it created,
 * atomic whole-file writes, the monotonic clock) and core/mem.h's string
 * helpers, checked against the file system itself. */
#include "app/util.h"
#include "core/mem.h"
#include "tests/testutil.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

START_TEST(mkdirs_reports_what_it_created)
{
    char base[] = "/tmp/pnrsim-test-util-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(base));
    char *deep = xasprintf("%s/a//b/c/", base);
    size_t created = 0;
    ck_assert_int_eq(util_mkdirs(deep, &created), 0);
    ck_assert(is_dir(deep));
    /* The first directory it made is BASE/a: the prefix up to there. */
    ck_assert_uint_eq(created, strlen(base) + 2);
    ck_assert_int_eq(strncmp(deep, base, strlen(base)), 0);
    /* Again: nothing new, created = length + 1. */
    ck_assert_int_eq(util_mkdirs(deep, &created), 0);
    ck_assert_uint_eq(created, strlen(deep) + 1);

    /* A file in the way: ENOTDIR; an empty name: ENOENT. */
    char *file = xasprintf("%s/f", base);
    char err[256];
    ck_assert_int_eq(util_write_file(file, "x", 1, err, sizeof err), 0);
    ck_assert_int_eq(util_mkdirs(file, NULL), -1);
    ck_assert_int_eq(errno, ENOTDIR);
    char *below = xasprintf("%s/f/g", base);
    ck_assert_int_eq(util_mkdirs(below, NULL), -1);
    ck_assert_int_eq(util_mkdirs("", NULL), -1);
    ck_assert_int_eq(errno, ENOENT);

    char *cmd = xasprintf("rm -rf '%s'", base);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
    free(below);
    free(file);
    free(deep);
}
END_TEST

START_TEST(write_file_is_whole_and_leaves_nothing)
{
    char base[] = "/tmp/pnrsim-test-util-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(base));
    char *path = xasprintf("%s/out.csv", base);
    char err[256];
    ck_assert_int_eq(util_write_file(path, "old contents\n", 13, err, sizeof err), 0);
    ck_assert_int_eq(util_write_file(path, "a,b\n1,2\n", 8, err, sizeof err), 0);
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    char buf[64] = "";
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    ck_assert_uint_eq(n, 8);
    ck_assert_str_eq(buf, "a,b\n1,2\n");
    /* No temporary file is left beside it. */
    char *tmp = xasprintf("%s.tmp.%ld", path, (long)getpid());
    ck_assert_int_ne(access(tmp, F_OK), 0);
    /* Into a missing directory: -1, the message names the file. */
    char *bad = xasprintf("%s/no/such/out.csv", base);
    ck_assert_int_eq(util_write_file(bad, "x", 1, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "out.csv"));
    ck_assert_int_eq(unlink(path), 0);
    ck_assert_int_eq(rmdir(base), 0); /* empty: nothing else was left */
    free(bad);
    free(tmp);
    free(path);
}
END_TEST

START_TEST(clock_and_strings)
{
    double a = util_now(), b = util_now();
    ck_assert(b >= a);
    char *s = xasprintf("%s-%d", "run", 42);
    ck_assert_str_eq(s, "run-42");
    char *t = xstrndup(s, 3);
    ck_assert_str_eq(t, "run");
    char *u = xstrdup("");
    ck_assert_str_eq(u, "");
    free(u);
    free(t);
    free(s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("util");
    TCase *tc = tcase_create("util");
    tcase_add_test(tc, mkdirs_reports_what_it_created);
    tcase_add_test(tc, write_file_is_whole_and_leaves_nothing);
    tcase_add_test(tc, clock_and_strings);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
