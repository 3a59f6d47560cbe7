/* core/mem.h: allocation that cannot fail quietly.
 *
 * The simulator treats running out of memory as fatal: these wrappers print
 * one line on standard error and abort, so callers need no error paths for
 * it. calloc of 0 elements returns a valid, unique pointer.
 */
#ifndef PNRSIM_CORE_MEM_H
#define PNRSIM_CORE_MEM_H

#include <stddef.h>

/* calloc(n ? n : 1, size), aborting when out of memory. */
void *xcalloc(size_t n, size_t size);
/* realloc(p, n), aborting when out of memory. */
void *xrealloc(void *p, size_t n);
/* malloc(n ? n : 1), aborting when out of memory. */
void *xmalloc(size_t n);
/* A new copy of s, or of its first n bytes (then NUL-terminated). */
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* A new string formatted as by printf. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
