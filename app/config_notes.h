/* app/config_notes.h: the keys of a valid configuration that have no
 * effect on its run ("has no effect" warnings), cut from app/config.c:
 * the rules read a whole configuration and its defaults, above the
 * loading and validating of app/config.h.
 */
#ifndef PNRSIM_APP_CONFIG_NOTES_H
#define PNRSIM_APP_CONFIG_NOTES_H

#include "app/config.h"

#include <stddef.h>

/* A key of a valid configuration whose value has no effect on the run
 * (e.g. network.rack_size without a TREE topology). Such keys are accepted,
 * so that a sweep can vary one key (the topology, network RAM on or off)
 * with the others fixed; the programs warn about them on stderr. */
typedef struct cfg_note {
    char key[80];               /* "section.key" */
    char origin[CFG_ORIGIN_MAX]; /* where it was set (config_origin) */
    char what[CFG_ERR_MAX];     /* "[network] rack_size = 8 has no effect: ..." */
} cfg_note;

/* The keys of c that are set to a value other than their default and have
 * no effect: the TREE-only keys of [network] (rack_size,
 * memory_server_placement, uplink_bandwidth, uplink_latency) with another
 * topology, computer.memory_servers > 0 with network RAM off, and
 * computer.memory_server_ram without memory servers. Writes at most max
 * notes, in that order; returns how many there are (may exceed max). */
size_t config_ignored(const config *c, cfg_note *notes, size_t max);
/* Room for every note config_ignored can write (more than it has keys to
 * name); callers size their arrays with it and still say how many more
 * there were, should a later key outgrow it. */
#define CFG_IGNORED_MAX 64

/* Fold the notes (n from config_ignored, at most CFG_IGNORED_MAX of them
 * written) of keys set by a lower layer of a, a machine preset under a
 * scenario: a -c file that a later -c file or a --set is layered over
 * (their origins name it). Two or more notes of one such file become one
 * note at the place of its first: origin the file, what "N keys it sets
 * have no effect in this configuration (features a later layer leaves
 * off): KEY, KEY, ... (-v: each, and why)", key the first one's. The
 * others, and a lower layer's single note, are kept as they are, in
 * order. Returns the new count; n itself, nothing folded, when n exceeds
 * CFG_IGNORED_MAX (not every note was written). */
size_t config_fold_notes(cfg_note *notes, size_t n, const config_args *a);

#endif
