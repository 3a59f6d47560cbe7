/* tests/test_ini_reader.c: app/ini_reader.h, the one INI reader of
 * scenario and study files (issue 37 item 7). The comment rule on its own
 * (ini_reader_comment_at: ';' or '#' at a line's start or after white
 * space), then whole texts: what the callbacks receive, in order, with the
 * line each names (a joined line names its first), and the messages for
 * text that is not INI. Every expected value is read off the text by
 * hand; nothing is pasted back from the reader's output.
 */
#include "app/ini_reader.h"
#include "app/util.h"
#include "core/mem.h"
#include "tests/testutil.h"

#include <stdio.h>
#include <string.h>

/* ---- the comment rule ----------------------------------------------- */

START_TEST(comment_rule)
{
    /* offset of the comment, or the length when none */
    ck_assert_uint_eq(ini_reader_comment_at("; all", 5), 0);
    ck_assert_uint_eq(ini_reader_comment_at("# all", 5), 0);
    ck_assert_uint_eq(ini_reader_comment_at("  # indented", 12), 2);
    ck_assert_uint_eq(ini_reader_comment_at("a = 1 ; x", 9), 6);
    ck_assert_uint_eq(ini_reader_comment_at("a = 1 # x", 9), 6);
    ck_assert_uint_eq(ini_reader_comment_at("a = 1\t#x", 8), 6);
    /* not after white space: part of the value */
    ck_assert_uint_eq(ini_reader_comment_at("a = b#c", 7), 7);
    ck_assert_uint_eq(ini_reader_comment_at("a = b;c", 7), 7);
    ck_assert_uint_eq(ini_reader_comment_at("a =;c", 5), 5);
    /* the first one counts: "b#c #d" -> at the ' #' (offset 8) */
    ck_assert_uint_eq(ini_reader_comment_at("a = b#c #d", 10), 8);
    /* n bounds the search: the ';' at offset 6 is beyond n = 5 */
    ck_assert_uint_eq(ini_reader_comment_at("a = 1 ; x", 5), 5);
}
END_TEST

/* ---- whole texts ------------------------------------------------------ */

/* What the callbacks saw, one line each: "S line name", "P line [section]
 * key=value", "E line message". */
typedef struct seen {
    char log[4096];
    int stop_at_key; /* a key on this line makes on_pair stop (0: never) */
} seen;

static int t_section(void *user, char *name, long line)
{
    seen *s = user;
    util_appendf(s->log, sizeof s->log, "S %ld %s\n", line, name);
    return strcmp(name, "bad") ? 0 : -1;
}

static int t_pair(void *user, const char *section, const char *key, const char *value,
                  long line)
{
    seen *s = user;
    util_appendf(s->log, sizeof s->log, "P %ld [%s] %s=%s\n", line, section, key, value);
    return line != s->stop_at_key;
}

static void t_bad(void *user, long line, const char *msg)
{
    seen *s = user;
    util_appendf(s->log, sizeof s->log, "E %ld %s\n", line, msg);
}

/* Read text (len bytes) with join and max_line; returns the log. */
static int run(seen *s, const char *text, size_t len, bool join, int max_line)
{
    memset(s->log, 0, sizeof s->log);
    ini_reader_spec sp = {text, len, max_line, join, t_section, t_pair, t_bad, s};
    return ini_reader_parse(&sp);
}

#define RUN(s, lit, join) run(s, lit, sizeof lit - 1, join, 256)

START_TEST(comments_and_headers)
{
    seen s = {.stop_at_key = 0};
    /* line 1: BOM + comment; 2: '#' comment; 3: header with comment;
     * 4: ';' inline; 5: '#' inline after a tab; 6: '#' inside a value
     * kept; 7: key: value (inih's); 8: blank; 9: an indented key (no
     * join: an ordinary key); 10: CRLF. */
    int rc = RUN(&s,
                 "\xEF\xBB\xBF; c\n"
                 "# c\n"
                 "[ Sec one ]  ; c\n"
                 "a = 1 ; one\n"
                 "b = 2\t# two\n"
                 "c = x#y;z\n"
                 "d: 4\n"
                 "\n"
                 "   e = 5\n"
                 "f = 6\r\n",
                 false);
    ck_assert_int_eq(rc, 0);
    ck_assert_str_eq(s.log, "S 3 Sec one\n"
                            "P 4 [ Sec one ] a=1\n"
                            "P 5 [ Sec one ] b=2\n"
                            "P 6 [ Sec one ] c=x#y;z\n"
                            "P 7 [ Sec one ] d=4\n"
                            "P 9 [ Sec one ] e=5\n"
                            "P 10 [ Sec one ] f=6\n");
}
END_TEST

START_TEST(continuation_lines)
{
    seen s = {.stop_at_key = 0};
    /* join: line 3 continues line 2 (its comment cut first), lines 4-5
     * (a comment and a blank) are skipped, line 6 continues it too; line
     * 7 has '=' (a key of its own); line 8 is not indented (malformed: no
     * '='), so reading stops there, at its own line. */
    int rc = RUN(&s,
                 "[s]\n"
                 "m = a, ; first\n"
                 "    b,\n"
                 "  # between\n"
                 "\n"
                 "\tc\n"
                 "  k = v\n"
                 "x\n",
                 true);
    ck_assert_int_eq(rc, -1);
    ck_assert_str_eq(s.log, "S 1 s\n"
                            "P 2 [s] m=a, b, c\n"
                            "P 7 [s] k=v\n"
                            "E 8 malformed line: expected [SECTION], KEY = VALUE or a comment\n");
    /* Without join the same indented line is malformed (line 3). */
    rc = RUN(&s, "[s]\nm = a,\n    b\n", false);
    ck_assert_int_eq(rc, -1);
    ck_assert_str_eq(s.log, "S 1 s\nP 2 [s] m=a,\n"
                            "E 3 malformed line: expected [SECTION], KEY = VALUE or a comment\n");
    /* A header is never continued: the indented line after it is its own. */
    rc = RUN(&s, "[s]\n  [t]\n", true);
    ck_assert_int_eq(rc, 0);
    ck_assert_str_eq(s.log, "S 1 s\nS 2 t\n");
    /* A callback's refusal stops the reading at once: line 3 is the last. */
    s.stop_at_key = 3;
    rc = RUN(&s, "[s]\na = 1\nb = 2\nc = 3\n", true);
    ck_assert_int_eq(rc, -1);
    ck_assert_str_eq(s.log, "S 1 s\nP 2 [s] a=1\nP 3 [s] b=2\n");
}
END_TEST

START_TEST(text_that_is_not_ini)
{
    seen s = {.stop_at_key = 0};
    /* a NUL at column 4 of line 2 ("b =" is 3 bytes) */
    static const char nul[] = "[s]\nb =\0 2\n";
    ck_assert_int_eq(run(&s, nul, sizeof nul - 1, true, 256), -1);
    ck_assert_str_eq(s.log, "S 1 s\nE 2 a NUL byte (column 4): not a text file?\n");
    ck_assert_int_eq(RUN(&s, "[s\n", false), -1);
    ck_assert_str_eq(s.log, "E 1 malformed section header: expected [SECTION]\n");
    ck_assert_int_eq(RUN(&s, "[s] x\n", false), -1);
    ck_assert_str_eq(s.log, "E 1 malformed section header: text after ']'\n");
    ck_assert_int_eq(RUN(&s, "[s]#x\n", false), -1); /* '#' not after a space */
    ck_assert_str_eq(s.log, "E 1 malformed section header: text after ']'\n");
    ck_assert_int_eq(RUN(&s, "[bad]\na = 1\n", false), -1); /* on_section refuses */
    ck_assert_str_eq(s.log, "S 1 bad\n");
    /* max_line 10: at most 8 characters; "a = 12345" is 9. Its comment
     * does not count: "a = 1234 ; a long comment" is 8 before the ' ;'. */
    ck_assert_int_eq(run(&s, "a = 12345\n", strlen("a = 12345\n"), false, 10), -1);
    ck_assert_str_eq(s.log, "E 1 line too long: at most 8 characters\n");
    static const char cm[] = "[s]\na = 1234 ; a long comment\n";
    ck_assert_int_eq(run(&s, cm, strlen(cm), false, 10), 0);
    ck_assert_str_eq(s.log, "S 1 s\nP 2 [s] a=1234\n");
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("ini_reader");
    TCase *t = tcase_create("reader");
    tcase_add_test(t, comment_rule);
    tcase_add_test(t, comments_and_headers);
    tcase_add_test(t, continuation_lines);
    tcase_add_test(t, text_that_is_not_ini);
    suite_add_tcase(s, t);
    return s;
}

TEST_MAIN()
