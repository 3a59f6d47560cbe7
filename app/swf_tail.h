/* app/swf_tail.h: the last record's submit time of a plain SWF file, read
 * from the file's end (for progress: the end of the trace's submit span).
 */
#ifndef PNRSIM_APP_SWF_TAIL_H
#define PNRSIM_APP_SWF_TAIL_H

/* Field 2 (submit time, s) of the last data line of the regular file open
 * on fd, of size bytes, read backwards with pread (fd's offset does not
 * move), or NAN when it cannot be known cheaply: the file is gzip data, no
 * data line lies within its last SWF_TAIL_MAX bytes, or that line's field 2
 * is not a number >= 0. */
double swf_tail_submit(int fd, double size);

/* Bytes read from a file's end at most: a trailer of comments longer than
 * this gives NAN (progress then falls back to the share of bytes read). */
#define SWF_TAIL_MAX (1 << 20)

#endif
