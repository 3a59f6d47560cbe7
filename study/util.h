/* study/util.h: the small helpers of pnrsim-sweep (study/util.c), the
 * bottom of study/: a growing text buffer, whole-file writes,
 * rm -r, file tests, lexical absolute paths, and quoting for shell
 * commands and CSV fields. It names nothing of the study model, so every
 * other file of the folder may use it.
 */
#ifndef PNRSIM_STUDY_UTIL_H
#define PNRSIM_STUDY_UTIL_H

#include "app/util.h"
#include "core/mem.h"

#include <stdbool.h>
#include <stddef.h>

/* Checked allocation is core/mem.h's (xmalloc, xrealloc, xstrdup, xstrndup,
 * xasprintf); mkdir -p, whole-file reads, atomic whole-file writes and the
 * monotonic clock are app/util.h's (util_mkdirs, util_read_file,
 * util_write_file, util_now). */

/* A growing text buffer (always NUL-terminated once something was added). */
typedef struct sweep_buf {
    char *p;
    size_t n, cap;
} sweep_buf;
void sweep_buf_add(sweep_buf *b, const char *s, size_t n);
void sweep_buf_puts(sweep_buf *b, const char *s);
void sweep_buf_printf(sweep_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void sweep_buf_free(sweep_buf *b);

/* Write b's contents to DIR/NAME with util_write_file, say why on stderr
 * when that fails, and free b. 0 or -1. */
int sweep_write_buf(const char *dir, const char *name, sweep_buf *b);

/* rm -r (no error when path does not exist). 0 or -1 with errno. */
int sweep_rmtree(const char *path);
/* True when path exists and is a directory / a regular file. */
bool sweep_is_dir(const char *path);
bool sweep_is_file(const char *path);
/* Why path cannot serve as a study's base or trace file: NULL when it is a
 * readable regular file, else "no such file", "a directory, not a file",
 * "a device, not a regular file ...", or strerror's text. */
const char *sweep_file_problem(const char *path);

/* An absolute form of path: relative paths are taken from dir (the current
 * directory when dir is NULL); "." and ".." components are resolved
 * lexically. Newly allocated. */
char *sweep_abspath(const char *path, const char *dir);
/* The directory part of path ("." when none). Newly allocated. */
char *sweep_dirname(const char *path);

/* The word s quoted for a POSIX shell ('...'), newly allocated. Words made
 * only of safe characters ([A-Za-z0-9_./,:=+@%-]) are returned as they are. */
char *sweep_shell_quote(const char *s);

/* Append field s to b as a CSV field (quoted when it holds , " or a line
 * break). */
void sweep_csv_field(sweep_buf *b, const char *s);

#endif
