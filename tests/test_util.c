/* tests/test_util.c: app/util.h (mkdir -p with the prefix it created,
 * whole-file reads, atomic whole-file writes, the monotonic clock, trim and
 * append) and core/mem.h's string helpers, checked against the file system
 * itself. */
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

START_TEST(read_file_whole_or_why_not)
{
    char base[] = "/tmp/pnrsim-test-util-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(base));
    char err[256];
    size_t len = 99;
    util_read_fail why = UTIL_READ_IO;

    /* A missing file: NULL, why OPEN, errno ENOENT; *len untouched. */
    char *missing = xasprintf("%s/missing", base);
    errno = 0;
    ck_assert_ptr_null(util_read_file(missing, 0, &len, &why));
    ck_assert_int_eq(why, UTIL_READ_OPEN);
    ck_assert_int_eq(errno, ENOENT);
    ck_assert_uint_eq(len, 99);

    /* A directory: why DIR, errno EISDIR. */
    ck_assert_ptr_null(util_read_file(base, 0, &len, &why));
    ck_assert_int_eq(why, UTIL_READ_DIR);
    ck_assert_int_eq(errno, EISDIR);

    /* An empty file: "" and length 0 (why and len may be NULL). */
    char *empty = xasprintf("%s/empty", base);
    ck_assert_int_eq(util_write_file(empty, "", 0, err, sizeof err), 0);
    char *t = util_read_file(empty, 0, &len, NULL);
    ck_assert_ptr_nonnull(t);
    ck_assert_uint_eq(len, 0);
    ck_assert_str_eq(t, "");
    free(t);

    /* A NUL byte inside is kept: the length says so, strlen does not; the
     * text is NUL-terminated after its last byte. */
    char *nul = xasprintf("%s/nul", base);
    ck_assert_int_eq(util_write_file(nul, "a\0b\n", 4, err, sizeof err), 0);
    t = util_read_file(nul, 0, &len, &why);
    ck_assert_ptr_nonnull(t);
    ck_assert_uint_eq(len, 4);
    ck_assert_uint_eq(strlen(t), 1);
    ck_assert_int_eq(memcmp(t, "a\0b\n", 5), 0);
    free(t);

    /* Bigger than one read (the buffer grows), with a limit: exactly max
     * bytes is read whole, one more is refused (why BIG, errno EFBIG). */
    size_t big = 3 * 4096 + 17;
    char *data = xmalloc(big);
    for (size_t i = 0; i < big; i++)
        data[i] = (char)('a' + i % 26);
    char *large = xasprintf("%s/large", base);
    ck_assert_int_eq(util_write_file(large, data, big, err, sizeof err), 0);
    t = util_read_file(large, big, &len, &why);
    ck_assert_ptr_nonnull(t);
    ck_assert_uint_eq(len, big);
    ck_assert_int_eq(memcmp(t, data, big), 0);
    ck_assert_int_eq(t[big], '\0');
    free(t);
    len = 99;
    ck_assert_ptr_null(util_read_file(large, big - 1, &len, &why));
    ck_assert_int_eq(why, UTIL_READ_BIG);
    ck_assert_int_eq(errno, EFBIG);
    ck_assert_uint_eq(len, 99);
    t = util_read_file(large, 0, NULL, NULL); /* 0: no limit */
    ck_assert_ptr_nonnull(t);
    ck_assert_int_eq(memcmp(t, data, big), 0);
    free(t);

    char *cmd = xasprintf("rm -rf '%s'", base);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
    free(data);
    free(large);
    free(nul);
    free(empty);
    free(missing);
}
END_TEST

START_TEST(trim_and_append)
{
    char out[8];
    ck_assert(util_trim_copy(out, sizeof out, "  ab c \t\n", 9));
    ck_assert_str_eq(out, "ab c");
    ck_assert(util_trim_copy(out, sizeof out, "   ", 3));
    ck_assert_str_eq(out, "");
    ck_assert(util_trim_copy(out, sizeof out, " 1234567 ", 9)); /* 7 fit in 8 */
    ck_assert_str_eq(out, "1234567");
    ck_assert(!util_trim_copy(out, sizeof out, "12345678", 8)); /* 8 do not */
    ck_assert(util_trim_copy(out, sizeof out, "xy, z", 2)); /* only len bytes */
    ck_assert_str_eq(out, "xy");

    char buf[10] = "";
    util_appendf(buf, sizeof buf, "%s-%d", "ab", 12);
    ck_assert_str_eq(buf, "ab-12");
    util_appendf(buf, sizeof buf, ",%s", "long tail"); /* cut to fit */
    ck_assert_str_eq(buf, "ab-12,lon");
    util_appendf(buf, sizeof buf, "more"); /* full: unchanged */
    ck_assert_str_eq(buf, "ab-12,lon");
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
    tcase_add_test(tc, read_file_whole_or_why_not);
    tcase_add_test(tc, trim_and_append);
    tcase_add_test(tc, clock_and_strings);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
