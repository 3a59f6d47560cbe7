/* app/resultset.h: the result files of a run, all or nothing.
 *
 * The result set of a run (config.ini, jobs.csv, samples.csv, metrics.dat,
 * metrics.json in the output directory DIR, and the schedule files asked
 * for: schedule.csv, pes.csv, memory.csv, paging.csv, plain or .gz, and the
 * Paje trace) is all or nothing:
 *
 *   - DIR/.pnrsim.lock (flock, holding "pid@host") is taken before the run
 *     and kept to the end: a second pnrsim into the same DIR is refused at
 *     once (exit 2) rather than mixing its files with the first's. The lock
 *     file is removed when the run ends.
 *   - The files are written into a fresh staging directory
 *     DIR/.pnrsim-PID@HOST.tmp. On success it is renamed (one atomic step)
 *     to .pnrsim-PID@HOST.commit, DIR/metrics.json is removed, the files
 *     are renamed into DIR with metrics.json last, and the directory goes.
 *     So a metrics.json in DIR always comes with the other four files of
 *     the same run; on any failure before the renames nothing in DIR is
 *     replaced.
 *   - Other files in DIR are never touched (a study's directory, the
 *     sweep's stderr.txt): -o names where the five files go, not a
 *     directory pnrsim owns.
 *   - Debris of dead runs: the next run into DIR (holding the lock) removes
 *     staging directories whose process is provably gone (same host, pid
 *     not running) and completes a .commit directory left by a run killed
 *     while renaming. Files it cannot prove dead are left alone.
 */
#ifndef PNRSIM_APP_RESULTSET_H
#define PNRSIM_APP_RESULTSET_H

#include "app/config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define RSET_PATH_MAX (CFG_PATH_MAX + 256)

typedef struct rset_file {
    char path[RSET_PATH_MAX];   /* final name, DIR/NAME */
    char tmp[RSET_PATH_MAX];    /* in the staging directory */
    FILE *f;
    bool closed;   /* written and closed, not yet renamed */
} rset_file;

/* The output directory of a run being written (see above). */
typedef struct rset {
    char dir[RSET_PATH_MAX];
    char shown[256];            /* dir in messages (util_path_shown) */
    char stage[RSET_PATH_MAX];  /* DIR/.pnrsim-PID@HOST.tmp */
    char lock[RSET_PATH_MAX];   /* DIR/.pnrsim.lock */
    int lockfd;                 /* -1 when not held */
    size_t created;             /* for rset_rmdirs */
} rset_t;

/* Undo util_mkdirs (app/util.h) after a failure: remove, leaf first, the directories of
 * dir that util_mkdirs created (those at least `created` bytes long), as far
 * as they are empty. Directories that existed before are never touched. */
void rset_rmdirs(const char *dir, size_t created);
/* Start writing results into dir: create it (and parents), take its lock,
 * clean what dead runs left, refuse when a name of the set is a
 * directory, create the staging directory. 0, or -1 with a message in err
 * (n bytes); nothing is left behind on failure. */
int rset_begin(rset_t *s, const char *dir, char *err, size_t n);
/* Open NAME for writing in the staging directory. 0 or -1 + errno. */
int rset_open(rset_t *s, rset_file *o, const char *name);
/* Open NAME for writing gzip-compressed (zlib, level 6) in the staging
 * directory: a stdio stream like rset_open's. 0 or -1 + errno. */
int rset_open_gz(rset_t *s, rset_file *o, const char *name);
/* Flush and close. 0 or -1 + errno (the file stays staged). */
int rset_close(rset_file *o);
/* Close the n files (checking for write errors) and commit the set into
 * the directory, then release the lock. 0, or -1 with a message in err:
 * before the renames nothing in the directory is replaced (the staged
 * files are removed); should a rename fail halfway (not seen in practice),
 * metrics.json is absent and the message says where the rest is. */
int rset_commit(rset_t *s, rset_file **files, int n, char *err, size_t errn);
/* Close a file without committing it (safe on one never opened). */
void rset_file_abort(rset_file *o);
/* Give up: remove the staging directory, release the lock, remove the
 * directories rset_begin created. Close the files first. */
void rset_abort(rset_t *s);
/* True when dir/metrics.json holds complete ("partial": false) results. */
bool rset_has_complete(const char *dir);

#endif
