/* app/ini_reader.h: the one reader of INI text (app/ini_reader.c), through
 * inih: scenario files (app/config_ini.c) and study files (study/sections.c)
 * alike, with one comment rule (ini_reader_comment_at) and one set of
 * messages for text that is not INI. Knows nothing of keys or sections:
 * its callers do (it sits beside app/util.c, below the configuration).
 */
#ifndef PNRSIM_APP_INI_READER_H
#define PNRSIM_APP_INI_READER_H

#include <stdbool.h>
#include <stddef.h>

/* What to read and whom to tell. */
typedef struct ini_reader_spec {
    const char *text;  /* the file's bytes, NUL-terminated at len */
    size_t len;
    int max_line;      /* longest line accepted (its comment cut), in bytes,
                          plus 2 */
    bool join;         /* an indented line without '=' after a key = value
                          line continues its value (joined with a space;
                          blank and comment lines between are skipped):
                          study files' long lists */
    /* A [section] header on line `line`: name is the text between '[' and
     * the first ']', trimmed (may be changed in place). 0 to go on, -1 to
     * stop (the callback has reported why). */
    int (*on_section)(void *user, char *name, long line);
    /* key = value (both trimmed; key may be "") in inih's current section
     * (its first 49 characters), on line `line` (the first line of a
     * joined one). Nonzero to go on, 0 to stop (reported). */
    int (*on_pair)(void *user, const char *section, const char *key,
                   const char *value, long line);
    /* A line that is not INI: a NUL byte, too long, a malformed header or
     * line. msg says what; report it. */
    void (*on_bad_text)(void *user, long line, const char *msg);
    void *user;
} ini_reader_spec;

/* The comment rule of every INI file pnrsim reads: a ';' or '#' at the
 * start of a line or after white space starts a comment, which runs to
 * the end of the line (so a '#' inside a value, "a#b", is kept). Returns
 * the offset in line (n bytes) where the comment starts, n if none. */
size_t ini_reader_comment_at(const char *line, size_t n);

/* Read spec->text: line by line (a UTF-8 BOM at the start dropped),
 * comments cut, headers checked ("[NAME]" then nothing but a comment) and
 * handed to on_section, key = value (or key: value, inih's) lines to
 * on_pair, in order; stops at the first problem. inih's settings
 * (process-wide) are set for the call and restored. 0, or -1 when a
 * callback stopped or on_bad_text was called. Not thread-safe. */
int ini_reader_parse(const ini_reader_spec *spec);

#endif
