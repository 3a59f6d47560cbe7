/* app/swf.h: one Standard Workload Format file, line by line.
 *
 * A reader opens one SWF file (.swf, .swf.gz, or "-" for standard input),
 * reads its header (the leading `; Key: value` comment block, with
 * continuation lines) and then hands out its records one at a time: every
 * record has exactly 18 numbers (floats accepted, -1 = unknown). Memory
 * depends on the longest line, never on the length of the trace. What a
 * record means for the simulator (jobs, drop reasons, the [workload]
 * policies) is app/workload.c's business, not this reader's.
 */
#ifndef PNRSIM_APP_SWF_H
#define PNRSIM_APP_SWF_H

#include "app/config.h"

#include <stdbool.h>

#define SWF_FIELDS 18

/* One SWF record; f[i] is field i+1 of the SWF definition. */
typedef struct swf_record {
    double f[SWF_FIELDS];
    long line;                   /* line number in the file */
} swf_record;

typedef struct swf_reader swf_reader;

/* Open path ("-" = standard input) and read its header, up to and including
 * the first data line, which stays pending. A header line holding a NUL
 * byte is an error, or under lenient counted (swf_bad_header) and skipped.
 * A SIGINT/SIGTERM (ev_stop_flag) ends the header, and the trace, at once.
 * Returns the reader, or NULL with "path: cannot open: reason" (or a read
 * error, or the NUL's line and column) in err. */
swf_reader *swf_open(const char *path, bool lenient, char err[CFG_ERR_MAX]);
/* Next record of the file: returns 1 with *rec filled, 0 at the end, -1
 * with err filled ("path:line: ...") on a malformed line or a read error.
 * *malformed is set when the -1 is for a malformed line (which the caller
 * may skip: the next call reads the line after it). */
int swf_next(swf_reader *r, swf_record *rec, bool *malformed, char err[CFG_ERR_MAX]);
/* Header lines skipped for a NUL byte (lenient only). */
long swf_bad_header(const swf_reader *r);
/* Header value for key (any case, e.g. "MaxProcs"), or NULL when absent. */
const char *swf_header(const swf_reader *r, const char *key);
/* Fraction of the file's (compressed) bytes consumed, 0..1: 1 at the end,
 * -1 when the size is unknown (a pipe, before its end). */
double swf_progress(const swf_reader *r);
/* Field 2 (submit time, s, as written) of the file's last data line, read
 * from its end at open (app/swf_tail.h), or NAN when that is not cheap to
 * know: gzip data, a pipe, no data line near the end. */
double swf_last_submit(const swf_reader *r);
/* The path as given, for messages ("stdin" for "-"). */
const char *swf_path(const swf_reader *r);
/* The file name without directories. */
const char *swf_name(const swf_reader *r);
/* SHA-256 of the trace as 64 hex digits into hex: of a regular file's
 * bytes as stored (all of them, from where reading began, whatever was
 * read), of a pipe's bytes read so far (decompressed for gzip data; see
 * swf.c). Returns 0; 1 when that is a pipe not read to its end (the run
 * stopped reading early: max_jobs, submit_max, max_time, a signal), so the
 * checksum is of the bytes read only; or -1 with hex empty on a read
 * error. */
int swf_sha256(const swf_reader *r, char hex[65]);
/* Close r and free everything it holds. NULL is fine. */
void swf_close(swf_reader *r);

#endif
