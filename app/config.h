/* app/config.h: the scenario: every parameter of a run, its defaults, and
 * reading it from INI files, PNRSim's own "Name value" files and --set.
 * The types (struct config, cfg_error; units) are in app/config_types.h,
 * the names of enum values in app/config_names.h; both come with this
 * header.
 *
 * The configuration module in layers, lowest first: each file uses only
 * the files listed before it (tools/check-layers.py keeps it so).
 *   config_types.h   struct config, cfg_error: types only
 *   config_names.c   the names of enum values, as written in files
 *   config_keys.c    the table of every key (key_def), and lookup in it
 *   config_lookup.c  a key's dimension from its unit (time, memory), and
 *                    the nearest known name to a misspelt one
 *   config_error.c   where a problem is (where) and how it is worded
 *   config_number.c  numbers, times and sizes as files write them: strict
 *                    parsing, the shortest text that reads back the same
 *   config_value.c   values by type: parse, check, format, compare,
 *                    describe; storing a value read at a place (cfg_apply)
 *   config_ini.c     INI files (read by app/ini_reader.c, through inih)
 *   config_pnrsim.c  PNRSim's "Name value" files
 *   config_nodes.c   what each node gets: its RAM and CPU speed (groups)
 *   config.c         defaults, loading a file (format detection), --set,
 *                    validation (this header)
 *   config_notes.c   keys without effect (config_notes.h)
 *   config_build.c   a run's configuration from its inputs (this header)
 */
#ifndef PNRSIM_APP_CONFIG_H
#define PNRSIM_APP_CONFIG_H

#include "app/config_names.h"
#include "app/config_nodes.h"
#include "app/config_types.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* e as one line, as pnrsim prints it: "FILE:LINE: what", "FILE: what",
 * "--set ARG: what" or "configuration: what" (cut to fit n: a long FILE or
 * ARG in its middle, so that what is kept). Room for all of it:
 * CFG_MESSAGE_MAX. */
void config_error_message(const cfg_error *e, char *buf, size_t n);
#define CFG_MESSAGE_MAX (CFG_PATH_MAX + 3 * CFG_ERR_MAX)

/* The key an assignment "SECTION.KEY=VALUE" sets, as "section.key" in the
 * table's spelling (sections and keys are case-insensitive), into key (n
 * bytes): 0, or -1 when it names no key (config_set says why). */
int config_assignment_key(const char *assignment, char *key, size_t n);

/* Fill c with the defaults (those of configs/reference.ini). */
void config_defaults(config *c);

/* Read an INI file into c (on top of what c holds). Section, key and enum
 * names are case-insensitive. Returns 0, or -1 with a one-line message in
 * err naming file, line, key, value and what is allowed; on error c is left
 * unchanged. A key set twice in one file is an error. */
int config_load_ini(config *c, const char *path, char err[CFG_ERR_MAX]);

/* Read a PNRSim "Name value" file (techreport appendix A). Same contract. */
int config_load_pnrsim(config *c, const char *path, char err[CFG_ERR_MAX]);

/* Read a file, choosing the format: INI when its first significant line is
 * a [section] header, PNRSim's format otherwise. Same contract. */
int config_load(config *c, const char *path, char err[CFG_ERR_MAX]);

/* Apply one "section.key=value" override. Same contract (the message names
 * the --set argument instead of a file line). */
int config_set(config *c, const char *assignment, char err[CFG_ERR_MAX]);

/* Check cross-key constraints (e.g. managers <= number). 0 or -1 + err. */
int config_validate(const config *c, char err[CFG_ERR_MAX]);

/* config_load, config_set and config_validate with the problem in parts
 * (e->source FILE, SET and VALIDATE); the functions above write
 * config_error_message of it. */
int config_load_e(config *c, const char *path, cfg_error *e);
int config_set_e(config *c, const char *assignment, cfg_error *e);
int config_validate_e(const config *c, cfg_error *e);

/* The inputs of a run's configuration, as pnrsim's command line gives them
 * and pnrsim-sweep gives them to each run. */
typedef struct config_args {
    const char *const *files; /* -c FILE..., in order (layered), or NULL */
    size_t nfiles;
    const char *trace;        /* -t TRACE, or NULL */
    const char *seed;         /* -s SEED, or NULL */
    const char *const *sets;  /* --set SECTION.KEY=VALUE, in order */
    size_t nsets;
    const char *schedule;     /* --schedule[=VALUE]: NULL, "yes" (--schedule) or
                               * VALUE ([output] schedule: yes, gz) */
    const char *paje;         /* --paje[=NAME]: NULL, "yes" (--paje) or NAME
                               * ([output] paje) */
} config_args;

/* Build the effective configuration from a: defaults < files in order
 * (layers: each file's keys override those of the files before it, key by
 * key; "-" = standard input; a relative [workload] trace in a file taken
 * from that file's directory, or from the working directory for "-") <
 * trace < seed < sets in order < schedule < paje; then a relative trace is made
 * absolute (from the working directory) and the whole is validated.
 * Standard input named twice (two "-c -", or -c - and a trace "-") is
 * refused. Returns 0, or -1 with e saying which input was refused and why
 * (the file and line for a file's problem; c is then unspecified). */
int config_build(config *c, const config_args *a, cfg_error *e);

/* The Paje trace's file name in the output directory ([output] paje:
 * "schedule.paje" for yes, else the name given), or NULL when none is
 * written (no). */
const char *config_paje_name(const config *c);

/* Where key "section.key" of c was last set: "FILE:LINE" (a configuration
 * file; a long path is cut at its start, "..." first), "--set ARG" (cut at
 * its end), "-t TRACE" or "-s SEED" (config_build), or "" when it holds its
 * default (or was set directly in the struct, or key is unknown). */
const char *config_origin(const config *c, const char *key);

/* Record text as where key "section.key" of c was set (config_origin);
 * cut to CFG_ORIGIN_MAX like the others. For values a program sets after
 * config_build (the seed taken from the clock). No effect for an unknown
 * key. */
void config_set_origin(config *c, const char *key, const char *text);

/* The unit of key "section.key" as configs/reference.ini gives it ("MB",
 * "s", "MB/s", "PEs", ...; "" for names, booleans and paths), or NULL when
 * there is no such key (e.g. for a plot axis: "computer.ram [MB]"). */
const char *config_key_unit(const char *key);

/* For a key written without its section ("ram", "Strategy"): the
 * "section.key" names spelt so in any section (case-insensitive), joined
 * by " or " ("computer.ram"), else the one key name nearest to it when
 * close ("rma" -> "computer.ram"), into buf (n bytes). The number of
 * names written; 0 (buf "") when none is near. For the study file's
 * messages (study/). */
int config_suggest_dotted(const char *key, char *buf, size_t n);

/* text as a number of key's unit, as pnrsim reads a time key (s, m, h, d
 * into seconds) or a memory key (MB, GB, TB into MB; 1 GB = 1024 MB),
 * without the key's range check (a study's range step, a bound that may be
 * refused later with the key's own message). 0 with *v, or -1 when key is
 * not a time or memory key or text is not such a number. */
int config_unit_number(const char *key, const char *text, double *v);

/* Whether word is a misspelling of name close enough to suggest (the
 * rule of pnrsim's own "did you mean": an edit distance of 1 up to 5
 * characters, 2 up to 8, 3 beyond, case-insensitive; not the same word).
 * For other files' names (the study file's sections). */
bool config_is_near(const char *word, const char *name);

/* Whether section names a section of pnrsim's configuration
 * (case-insensitive; built-ins, plugins, loaded plugins' plugin.NAME). */
bool config_is_section(const char *section);

/* Write the complete configuration as INI: every key, with a unit comment,
 * and above the key line of every key that does not hold its default by
 * default a line "; from ORIGIN" (config_origin: FILE:LINE, --set ARG, -t,
 * -s, --schedule): where the value came from, through every -c layer.
 * Reading it back with config_load_ini gives an equal configuration (the
 * provenance lines are comments). */
void config_write_ini(const config *c, FILE *out);

/* As config_write_ini, but only the keys whose value differs from the
 * built-in defaults (config_defaults), a section's header only above such
 * keys (--print-config --changed). Returns 0, -1 when out of memory. */
int config_write_changed(const config *c, FILE *out);

/* True when a and b hold the same values (field by field). */
bool config_equal(const config *a, const config *b);

/* The value that assignment ("section.key=value") gives its key, parsed
 * on the defaults and written back as pnrsim writes it in config.ini
 * (enum names in upper case, numbers as the shortest text that reads back
 * the same), into buf (n bytes): "central" and "CENTRAL" give the same
 * text, as do "128" and "128.0". 0, or -1 when pnrsim refuses the
 * assignment (buf is then ""). */
int config_value_text(const char *assignment, char *buf, size_t n);

#endif
