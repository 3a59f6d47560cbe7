/* app/version.h: the version of this build of pnrsim.
 *
 * One string for every program and output (pnrsim --version, pnrsim-sweep
 * --version, pnrsim-plot --version, metrics.json, config.ini): the release
 * number in the file VERSION, followed, when the build ran in a git
 * checkout of pnrsim, by "+g" and the commit's short hash, and "-dirty"
 * when the tree had uncommitted changes ("0.26.0+g1a2b3c4-dirty"). The
 * Makefile computes it (target $(BUILD)/version.txt) and passes it to
 * app/version.c alone, so a new commit rebuilds one file.
 */
#ifndef PNRSIM_APP_VERSION_H
#define PNRSIM_APP_VERSION_H

/* The version string (static storage; never NULL, never empty). */
const char *pnrsim_version(void);

#endif
