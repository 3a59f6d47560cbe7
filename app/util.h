/* app/util.h: small system helpers shared by pnrsim (app/) and
 * pnrsim-sweep (study/, which links the library): mkdir -p, a whole-file
 * atomic write, a monotonic clock, shortest round-trip number text, and
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

/* Write len bytes of data as the whole of file path, atomically: into
 * PATH.tmp.PID, fsync, then rename over path, so a reader never sees half
 * a file. 0, or -1 with "FILE: strerror" in err (errlen bytes) and nothing
 * left behind. */
int util_write_file(const char *path, const void *data, size_t len, char *err,
                    size_t errlen);

/* Seconds on the monotonic clock (wall-clock durations, never results). */
double util_now(void);

/* v as the shortest %g text that reads back as exactly v (1e+12, 0.1,
 * 1000001000000), into buf (n bytes; 32 is enough). For messages that
 * compare a value with a limit: two different numbers never print alike. */
void util_fmt_g(char *buf, size_t n, double v);

/* s (len bytes) without leading and trailing whitespace, written into out
 * (n bytes) with a NUL; false (out unspecified) when it does not fit. */
bool util_trim_copy(char *out, size_t n, const char *s, size_t len);

/* Append formatted text to the string in buf (n bytes in all), cut to fit
 * (silently). */
void util_appendf(char *buf, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
