/* app/version.c: the version string (see version.h). PNRSIM_VERSION comes
 * from the Makefile (-D, from VERSION and git describe); a build outside
 * the Makefile gets "unknown". */
#include "app/version.h"

#ifndef PNRSIM_VERSION
#define PNRSIM_VERSION "unknown"
#endif

const char *pnrsim_version(void) { return PNRSIM_VERSION; }
