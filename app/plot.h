/* app/plot.h: pnrsim --plot: run pnrsim-plot (a wrapper around the
 * Python companion python/pnrsim, installed beside pnrsim) on the output
 * directory after the run.
 *
 * What it needs is found before the run, so that a missing pandas is a
 * usage error (exit 2, nothing written) rather than a surprise after an
 * hour of simulation: pnrsim-plot beside the running pnrsim (build/ or
 * $(PREFIX)/bin), else on PATH; /usr/bin/python3 importing pandas and
 * matplotlib.
 */
#ifndef PNRSIM_APP_PLOT_H
#define PNRSIM_APP_PLOT_H

#include <stddef.h>

/* Find pnrsim-plot (into path, n bytes) and check that /usr/bin/python3
 * imports pandas and matplotlib.
 * argv0 is pnrsim's argv[0] (used when /proc/self/exe cannot be read).
 * Returns 0, or -1 with the reason in err (errn bytes). */
int plot_find(const char *argv0, char *path, size_t n, char *err, size_t errn);

/* Run `path outdir` (its standard output goes to pnrsim's standard
 * error, or nowhere when quiet; SIGINT and SIGTERM reach it normally) and
 * wait. Returns its exit status, 128 + N when killed by signal N, or -1
 * when it could not be started (errno set). */
int plot_run(const char *path, const char *outdir, int quiet);

#endif
