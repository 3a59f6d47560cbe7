/* app/swf_tail.c: the submit time of a plain SWF file's last record (see
 * swf_tail.h).
 *
 * SWF files are in submit order (app/workload.c refuses a kept job
 * submitted before the previous one), so the last data line holds the
 * latest submit time: the end of the trace's submit span, which the
 * progress line measures against (app/progress.c). It is found at open,
 * before anything is read through zlib, by reading the file's end in
 * windows of 4 KB, 16 KB, ... up to SWF_TAIL_MAX bytes with pread (so the
 * reader's offset is untouched) and scanning the complete lines of the
 * window backwards: empty lines and `;` comment lines are skipped, text
 * after a `;` on a data line is a comment, a trailing '\r' is a blank.
 * Gzip data (the magic bytes 1f 8b at offset 0) has no readable tail:
 * NAN, and the progress line uses the share of bytes read instead. The
 * value is a progress hint only: it is never checked against the records
 * (a malformed last line just gives NAN).
 */
#include "app/swf_tail.h"

#include "core/mem.h"

#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

/* Read exactly n bytes at offset off; false on a short read or error. */
static bool tail_pread(int fd, char *buf, size_t n, off_t off)
{
    size_t got = 0;
    while (got < n) {
        ssize_t k = pread(fd, buf + got, n - got, off + (off_t)got);
        if (k <= 0)
            return false;
        got += (size_t)k;
    }
    return true;
}

/* Field 2 of the data line s[0..n) (no '\n' in it): 1 with *submit set, 0
 * when the line is blank or a comment, -1 when it is a data line whose
 * field 2 is not a number >= 0. */
static int tail_line(const char *s, size_t n, double *submit)
{
    char line[256];
    const char *semi = memchr(s, ';', n);
    if (semi)
        n = (size_t)(semi - s);
    size_t i = 0;
    while (i < n && isspace((unsigned char)s[i]))
        i++;
    if (i == n)
        return 0; /* blank, or a comment line */
    if (n - i >= sizeof line)
        n = i + sizeof line - 1; /* field 2 lies well within 255 bytes */
    memcpy(line, s + i, n - i);
    line[n - i] = '\0';
    char *p = line, *end;
    strtod(p, &end); /* field 1 */
    if (end == p || !isspace((unsigned char)*end))
        return -1;
    p = end;
    double v = strtod(p, &end);
    if (end == p || !(v >= 0) || !isfinite(v))
        return -1;
    *submit = v;
    return 1;
}

double swf_tail_submit(int fd, double size)
{
    if (!(size > 0))
        return NAN;
    unsigned char magic[2];
    if (size >= 2 && tail_pread(fd, (char *)magic, 2, 0) && magic[0] == 0x1f &&
        magic[1] == 0x8b)
        return NAN; /* gzip: no cheap tail */
    double result = NAN;
    char *buf = NULL;
    for (size_t w = 4096;; w *= 4) {
        if (w > SWF_TAIL_MAX)
            w = SWF_TAIL_MAX;
        bool whole = (double)w >= size; /* the window starts at offset 0 */
        size_t n = whole ? (size_t)size : w;
        buf = xrealloc(buf, n);
        if (!tail_pread(fd, buf, n, (off_t)(size - (double)n)))
            break;
        /* Lines end at '\n' (or the end of the file); the first one of a
         * window that does not start the file may be cut: not scanned. */
        size_t end = n;
        bool found = false;
        while (end > 0 && !found) {
            size_t start = end;
            while (start > 0 && buf[start - 1] != '\n')
                start--;
            if (start == 0 && !whole)
                break;
            double v;
            int rc = tail_line(buf + start, end - start, &v);
            if (rc != 0) {
                found = true;
                if (rc > 0)
                    result = v;
            }
            end = start > 0 ? start - 1 : 0;
        }
        if (found || whole || w >= SWF_TAIL_MAX)
            break;
    }
    free(buf);
    return result;
}
