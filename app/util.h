/* app/util.h: small system helpers shared by pnrsim (app/) and
 * pnrsim-sweep (study/, which links the library): mkdir -p, reading a
 * whole file, a whole-file atomic write, a monotonic clock, shortest round-trip number text, and
 * two string helpers (trim into a buffer, append to a buffer). Checked
 * allocation is core/mem.h.
 */
#ifndef PNRSIM_APP_UTIL_H
#define PNRSIM_APP_UTIL_H

#include <stdbool.h>
#include <stddef.h>

/* Create directory dir and its parents (like mkdir -p). 0 or -1 + errno
 * (an empty name is ENOENT; an existing non-directory, ENOTDIR). When
 * created is not NULL it receives the length of the shortest prefix of dir
 * that this call created (the length of dir plus one when it created
 * nothing), so that a caller can undo it (rset_rmdirs). */
int util_mkdirs(const char *dir, size_t *created);

/* Why util_read_file failed (errno is set too). */
typedef enum util_read_fail {
    UTIL_READ_OPEN, /* the file cannot be opened (errno from fopen) */
    UTIL_READ_DIR,  /* it is a directory (errno EISDIR) */
    UTIL_READ_BIG,  /* it holds more than max bytes (errno EFBIG) */
    UTIL_READ_IO,   /* reading it failed (errno from the read; EIO if none) */
} util_read_fail;

/* Read the file at path whole (path NULL = standard input, which is left
 * open), in one pass, so pipes, FIFOs and process substitutions can be
 * read too, into a new buffer (to free): the file's bytes, then a NUL.
 * *len (when len is not NULL) receives the number of bytes before that
 * NUL; the file's own NUL bytes are kept, so a caller that refuses them
 * compares *len with strlen. An empty file gives "" and *len = 0. max > 0:
 * a file of more than max bytes is refused (one of exactly max is read),
 * without reading much past max; max = 0: no limit. On failure: NULL, with
 * *why (when why is not NULL) saying which step failed and errno set;
 * nothing is left open or allocated. The callers word their own messages
 * (app/config.c, study/). */
char *util_read_file(const char *path, size_t max, size_t *len, util_read_fail *why);

/* Write len bytes of data as the whole of file path, atomically: into
 * PATH.tmp.PID, fsync, then rename over path, so a reader never sees half
 * a file. A symlink is followed (the temporary goes beside its target,
 * renamed over the target, never over the link; a dangling one is
 * replaced). A path naming an existing non-regular file (a device such as
 * /dev/null or /dev/stdout, a FIFO), also through links, is written in
 * place instead, so that the rename never replaces it. 0, or -1 with
 * "FILE: strerror" in err (errlen bytes) and nothing left behind. */
int util_write_file(const char *path, const void *data, size_t len, char *err,
                    size_t errlen);

/* Seconds on the monotonic clock (wall-clock durations, never results). */
double util_now(void);
/* Seconds s as M:SS, or H:MM:SS from an hour on, rounded to the second
 * (below 0 or not a number: 0:00; capped at 1e9 s), into buf (n bytes):
 * progress lines' elapsed time and time left. */
void util_hms(char *buf, size_t n, double s);

/* v as the shortest %g text that reads back as exactly v (1e+12, 0.1,
 * 1000001000000), into buf (n bytes; 32 is enough). For messages that
 * compare a value with a limit: two different numbers never print alike. */
void util_fmt_g(char *buf, size_t n, double v);

/* path as messages show it, into out (n bytes): itself when it fits, else
 * its start and end around "...", n - 1 characters in all, so that the
 * explanation after it in a message of fixed size is never cut (issue 32
 * item 8: a long path filled the whole message). */
void util_path_shown(char *out, size_t n, const char *path);

/* s (len bytes) without leading and trailing whitespace, written into out
 * (n bytes) with a NUL; false (out unspecified) when it does not fit. */
bool util_trim_copy(char *out, size_t n, const char *s, size_t len);

/* Append formatted text to the string in buf (n bytes in all), cut to fit
 * (silently). */
void util_appendf(char *buf, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* argv[0..argc) as one shell command line: each word as it is when it
 * holds only [A-Za-z0-9_@%+=:,./-] (and is not empty), else in single
 * quotes (a ' inside as '\''), joined by spaces (the provenance of a run:
 * metrics.json's command_line). Returns a malloc'd string. */
char *util_shell_join(int argc, char *const argv[]);

#endif
