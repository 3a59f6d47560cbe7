/* app/output.h: result files and the metrics in text, JSON and CSV.
 *
 * Files are written whole or not at all: each is written under a temporary
 * name in the output directory (".NAME.XXXXXX.tmp", unique) and renamed into place by
 * out_commit; out_abort removes it.
 */
#ifndef PNRSIM_APP_OUTPUT_H
#define PNRSIM_APP_OUTPUT_H

#include "app/config.h"
#include "app/run.h"

#include <stdbool.h>
#include <stdio.h>

typedef struct out_file {
    char path[CFG_PATH_MAX + 64];
    char tmp[CFG_PATH_MAX + 64];
    FILE *f;
    bool closed;   /* written and closed, not yet renamed */
} out_file;

/* Create directory dir and its parents (like mkdir -p). 0 or -1 + errno
 * (an empty name is ENOENT). When created is not NULL it receives the
 * length of the shortest prefix of dir that this call created (the length
 * of dir plus one when it created nothing), for out_rmdirs. */
int out_mkdirs(const char *dir, size_t *created);
/* Undo out_mkdirs after a failure: remove, leaf first, the directories of
 * dir that out_mkdirs created (those at least `created` bytes long), as far
 * as they are empty. Directories that existed before are never touched. */
void out_rmdirs(const char *dir, size_t created);
/* Open dir/name for writing under a temporary name. 0 or -1 + errno. */
int out_open(out_file *o, const char *dir, const char *name);
/* Close and rename into place. 0 or -1 + errno (the file is removed). */
int out_commit(out_file *o);
/* Close every file (checking for write errors), and only when all are
 * complete rename them all into place; on any failure every temporary
 * file is removed and none is renamed. 0 or -1 + errno. The renames
 * themselves cannot fail halfway in practice (same directory). */
int out_commit_all(out_file **files, int n);
/* The two halves of a commit: flush and close (0 or -1 + errno, the file
 * stays under its temporary name), then rename. */
int out_close(out_file *o);
int out_rename(out_file *o);
/* Close and remove. Safe on a file that was never opened. */
void out_abort(out_file *o);

/* The 19 metrics of techreport §2.2.2 for people, with units. */
void out_metrics_text(FILE *f, const run_metrics *m, const config *c, const char *trace);
/* metrics.json: the metrics plus seed, trace, drop counts, partial flag. */
void out_metrics_json(FILE *f, const run_metrics *m, const config *c, const char *trace);
/* metrics.dat / --format csv: a header line and one line of values,
 * separated by sep (' ' or ','). */
void out_metrics_table(FILE *f, const run_metrics *m, char sep);

#endif
