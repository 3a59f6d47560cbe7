/* app/plugin.h: loading plugins (issue 34): shared objects that register
 * components and keys in the registry (core/registry.h), given by
 * --plugin FILE.so or a configuration file's [plugins] load = a.so, b.so
 * (app/plugin.c), and what each registered, for listing and recording.
 *
 * The order of reading: pnrsim loads every --plugin first, in the order
 * given; then config_build reads the -c files in order, and each INI
 * file's [plugins] section is read (plugin_load_ini_text) before any other
 * line of that file, wherever the section is in it, so that the names and
 * keys its plugins register are known when scheduler.priority = NAME or
 * [plugin.NAME] key = value are read, in that file and the later ones.
 * pnrsim-sweep loads the plugins of its study's base file the same way
 * before it checks the [vary] keys.
 */
#ifndef PNRSIM_APP_PLUGIN_H
#define PNRSIM_APP_PLUGIN_H

#include "app/config_types.h"

#include <stddef.h>
#include <stdio.h>

/* One loaded plugin. */
typedef struct plugin_info {
    char path[CFG_PATH_MAX];   /* absolute, symbolic links resolved */
    char from[CFG_ORIGIN_MAX]; /* "--plugin ARG" or "FILE:LINE" */
    char sha256[65];           /* of the file */
    char *names;               /* what it registered: "priority WFP_AGE, key
                                * plugin.wfp_age.exponent" ("" for nothing),
                                * whole (allocated, never truncated) */
} plugin_info;

/* Load the plugin at path (a path without '/' is taken from the working
 * directory, not searched for as dlopen would) and register what its
 * entry point registers; from says where it was named ("--plugin ARG",
 * "run.ini:3"). A file already loaded (the same resolved path) is not
 * loaded again: 0. Refused, with everything it registered forgotten (the
 * registry rolled back) and exit 2's message in e naming the file (e's
 * source is CFG_SRC_OPTION with arg = from, or CFG_SRC_FILE with the
 * INI's file and line when file is not NULL): the file cannot be opened
 * (dlerror), its resolved path has a ',', ';', control character or
 * blank at an end (config.ini could not record it), it lacks
 * PNRSIM_PLUGIN_API_SYMBOL or PNRSIM_PLUGIN_ENTRY, its API version is not
 * PNRSIM_API_VERSION, it registered while being opened (an ELF
 * constructor), its init returned non-zero, a registration of it was
 * refused (a duplicate name or key, a bad key declaration, a description
 * with a control character), or a component of it lacks a required ops
 * member (components_missing). 0 or -1. */
int plugin_load(const char *path, const char *from, const char *file, long line,
                cfg_error *e);

/* The pre-pass over an INI file's text (len bytes) read from file ("stdin"
 * for standard input): every [plugins] load = a.so, b.so (paths relative
 * to file's directory; items separated by commas) loaded in order. A
 * second load line, or an empty item, is refused. 0 or -1 with e (file and
 * line). */
int plugin_load_ini_text(const char *file, const char *text, size_t len, cfg_error *e);
/* The same for the file at path (read whole). */
int plugin_load_ini_file(const char *path, cfg_error *e);

/* The plugins loaded, in order. */
size_t plugin_count(void);
const plugin_info *plugin_at(size_t i);

/* --list-components: every registered component, kind by kind in
 * registration order ("KIND NAME ORIGIN DESCRIPTION"), then every plugin
 * key ("key plugin.S.K ORIGIN comment [unit; allowed; default D]"), in
 * columns as wide as their widest entry (two blanks between). */
void plugin_list_components(FILE *f);

#endif
