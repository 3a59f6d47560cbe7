/* app/config_notes.c: the "has no effect" notes (see config_notes.h): for
 * each key whose value cannot matter in the configuration it is in (a key
 * of a feature the configuration leaves off), a note naming it, its value
 * and why. Each rule reads only the configuration and its defaults.
 */
#include "app/config_notes.h"
#include "app/components.h"
#include "app/config_error.h"
#include "app/config_ini.h"
#include "app/config_keys.h"
#include "app/config_pnrsim.h"
#include "app/config_value.h"
#include "app/plugin.h"
#include "app/util.h"
#include "core/mem.h"
#include "hw/pe.h"
#include "pnr/strategy_api.h"
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---------------------------------------------------------------------- */
/* Keys without effect                                                     */
/* ---------------------------------------------------------------------- */

/* Add a note on key section.key of c to notes (when there is room): its
 * value and why it has no effect. */
static void note(const config *c, const char *section, const char *key,
                 cfg_note *notes, size_t max, size_t *n, const char *why)
{
    if (*n < max) {
        const key_def *kd = cfg_find_key(section, key);
        assert(kd);
        char v[128];
        cfg_format_value(kd, c, v, sizeof v);
        cfg_note *o = &notes[*n];
        snprintf(o->key, sizeof o->key, "%s.%s", section, key);
        snprintf(o->origin, sizeof o->origin, "%s", c->origin[kd - cfg_keys]);
        snprintf(o->what, sizeof o->what, "[%s] %s = %s has no effect: %s", section, key,
                 v, why);
    }
    (*n)++;
}

/* True when key section.key holds a value other than its default in c. */
static bool changed(const config *c, const config *def, const char *section,
                    const char *key)
{
    const key_def *kd = cfg_find_key(section, key);
    assert(kd);
    return !cfg_value_equal(kd, c, def);
}

size_t config_ignored(const config *c, cfg_note *notes, size_t max)
{
    config def;
    config_defaults(&def);
    size_t n = 0;
    char why[256];
    const double dmax = cfg_dirty_max(c->process.dirty_fractions, c->process.dirty_fraction);
    static const char *const tree_keys[] = {"rack_size", "memory_server_placement",
                                            "uplink_bandwidth", "uplink_latency"};
    if (c->network.topology != TOPO_KIND_TREE) {
        snprintf(why, sizeof why, "only a TREE topology has racks and uplinks "
                 "([network] topology = %s)", config_topology_name(c->network.topology));
        for (size_t i = 0; i < sizeof tree_keys / sizeof tree_keys[0]; i++)
            if (changed(c, &def, "network", tree_keys[i]))
                note(c, "network", tree_keys[i], notes, max, &n, why);
    }
    /* RACK without racks (issue 35): the machine is one rack and it places
     * as FIRSTFREE does (the placement metrics are still written). */
    if (c->network.topology != TOPO_KIND_TREE &&
        !strcmp(pnrsim_at(PNRSIM_KIND_ALLOCATION, c->scheduler.allocation)->name, "RACK")) {
        snprintf(why, sizeof why, "only a TREE topology has racks ([network] topology = %s): "
                 "the machine is one rack and RACK places as FIRSTFREE does (jobs.csv and "
                 "metrics.json still get the placement figures)",
                 config_topology_name(c->network.topology));
        note(c, "scheduler", "allocation", notes, max, &n, why);
    }
    if (c->computer.memory_servers > 0 && !c->netram.enabled)
        note(c, "computer", "memory_servers", notes, max, &n,
             "network RAM is off ([netram] enabled = no), so the memory servers hold "
             "no pages and run no threads (they still appear in the hardware report "
             "and pes.csv)");
    if (c->computer.memory_servers == 0 && changed(c, &def, "computer", "memory_server_ram"))
        note(c, "computer", "memory_server_ram", notes, max, &n,
             "there are no memory servers ([computer] memory_servers = 0)");
    const char *bf = pnrsim_at(PNRSIM_KIND_BACKFILL, c->scheduler.backfill)->name;
    if ((!strcmp(bf, "NONE") || !strcmp(bf, "EASY")) && changed(c, &def, "scheduler", "reservations"))
        note(c, "scheduler", "reservations", notes, max, &n, "it is conservative backfilling's depth "
             "([scheduler] backfill = CONSERVATIVE, or a plugin's policy that reads it)");
    if (c->scheduler.time_limit == TIME_LIMIT_IGNORE && changed(c, &def, "workload", "limit_factor"))
        note(c, "workload", "limit_factor", notes, max, &n,
             "jobs are not killed at their requested time ([scheduler] time_limit = IGNORE)");
    /* MULTIFACTOR's keys (issue 35). */
    static const char *const mf_keys[] = {"weight_age", "weight_size", "weight_fairshare",
                                          "weight_wait", "max_age", "fairshare_half_life",
                                          "fairshare_by"};
    const char *prio = pnrsim_at(PNRSIM_KIND_PRIORITY, c->scheduler.priority)->name;
    if (strcmp(prio, "MULTIFACTOR") != 0) {
        snprintf(why, sizeof why, "it is a weight of the MULTIFACTOR order ([scheduler] "
                 "priority = %s)", prio);
        for (size_t i = 0; i < sizeof mf_keys / sizeof mf_keys[0]; i++)
            if (changed(c, &def, "scheduler", mf_keys[i]))
                note(c, "scheduler", mf_keys[i], notes, max, &n, why);
    } else {
        if (c->scheduler.weight_age == 0 && changed(c, &def, "scheduler", "max_age"))
            note(c, "scheduler", "max_age", notes, max, &n,
                 "it scales the age factor, whose weight is 0 ([scheduler] weight_age)");
        for (size_t i = 5; i < 7; i++)
            if (c->scheduler.weight_fairshare == 0 && changed(c, &def, "scheduler", mf_keys[i]))
                note(c, "scheduler", mf_keys[i], notes, max, &n,
                     "it is the fair share's, whose weight is 0 ([scheduler] "
                     "weight_fairshare)");
        if (c->scheduler.weight_age == 0 && c->scheduler.weight_size == 0 &&
            c->scheduler.weight_fairshare == 0 && c->scheduler.weight_wait == 0)
            note(c, "scheduler", "priority", notes, max, &n,
                 "MULTIFACTOR with every weight 0 gives every job the key 0: trace "
                 "order, as FCFS ([scheduler] weight_age, weight_size, weight_fairshare, "
                 "weight_wait)");
    }
    /* Loop scheduling's keys (issue 36). */
    static const char *const loop_keys[] = {"imbalance", "chunk_overhead", "loop_iterations"};
    if (c->process.loop_schedule == LOOP_NONE) {
        for (size_t i = 0; i < sizeof loop_keys / sizeof loop_keys[0]; i++)
            if (changed(c, &def, "process", loop_keys[i]))
                note(c, "process", loop_keys[i], notes, max, &n,
                     "it is loop scheduling's, and [process] loop_schedule = NONE keeps "
                     "every thread's demand as the trace gives it");
    }
    if (c->computer.cores_per_node == 1 && c->scheduler.node_sharing == NODE_EXCLUSIVE)
        note(c, "scheduler", "node_sharing", notes, max, &n,
             "with [computer] cores_per_node = 1 a node is one core, so a job's cores are "
             "whole nodes anyway (SHARED)");
    if (c->process.paging == PAGING_BATCHED && c->computer.cores_per_node > 1 &&
        c->computer.swap == SWAP_DISK)
        note(c, "process", "paging", notes, max, &n,
             "with [computer] cores_per_node > 1 and swap = DISK every fault runs "
             "exactly: the node's cores share one disk, and batches measured more disk "
             "faults and saved no events there (docs/BATCHING.md; SSD swap is batched)");
    else if (c->process.paging == PAGING_BATCHED && c->computer.cores_per_node > 1 &&
             c->netram.enabled && c->netram.transport == PNR_TRANSPORT_MESSAGES &&
             (c->netram.message_cpu > 0 || c->netram.server_cpu > 0))
        note(c, "process", "paging", notes, max, &n, "with the messages' CPU costs on nodes of "
             "several cores every fault runs exactly: batches measured no fewer events and "
             "more CPU time there (docs/BATCHING.md; one-core nodes are batched)");
    else if (c->process.paging == PAGING_BATCHED &&
             (c->output.schedule || config_paje_name(c)))
        note(c, "process", "paging", notes, max, &n,
             "schedule output is on ([output] schedule or paje, or --schedule, --paje), "
             "and schedule observers need every fault's instant, so every fault runs "
             "exactly (docs/BATCHING.md)");
    else if (c->process.paging == PAGING_BATCHED && c->netram.enabled &&
             c->netram.transport == PNR_TRANSPORT_RDMA)
        note(c, "process", "paging", notes, max, &n,
             "with pages moved by one-sided RDMA ([netram] transport = RDMA) every "
             "fault runs exactly: batched RDMA faults measured 1.1% less page-fault "
             "time than exact ones (docs/BATCHING.md)");
    else if (c->process.paging == PAGING_BATCHED && c->netram.enabled &&
             c->network.topology == TOPO_KIND_BUS)
        note(c, "process", "paging", notes, max, &n,
             "with network RAM on a BUS network ([network] topology = BUS) every "
             "fault runs exactly: batched paging's model of the network is biased "
             "where everything shares one link (docs/BATCHING.md)");
    else if (c->process.paging == PAGING_BATCHED && dmax > 0 &&
             c->computer.swap == SWAP_SSD && c->computer.ssd_parallelism > 1 &&
             pe_ssd_write_time(c->computer.ssd_latency, c->computer.ssd_bandwidth,
                               c->computer.ssd_write_latency, c->computer.ssd_write_bandwidth,
                               (double)c->process.page_size) >
                 pe_ssd_access_time(c->computer.ssd_latency, c->computer.ssd_bandwidth,
                                    (double)c->process.page_size))
        note(c, "process", "paging", notes, max, &n,
             "with dirty write-backs ([process] dirty_fraction, or a fraction of "
             "dirty_fractions, > 0) on an SSD of several "
             "servers whose page write takes longer than its read every fault runs "
             "exactly: a batch has no model of a write still under way at the next "
             "fault (docs/BATCHING.md)");
    /* The fault model's keys not in use (issue 33). */
    bool curve = c->process.fault_model == FAULT_MODEL_CURVE;
    if (curve && changed(c, &def, "process", "mem_access_rate"))
        note(c, "process", "mem_access_rate", notes, max, &n,
             "under [process] fault_model = CURVE the measured curves give every fault "
             "rate (docs/MODEL.md, fault model CURVE)");
    static const char *const curve_keys[] = {"fault_curve", "fault_curves"};
    for (size_t i = 0; i < 2 && !curve; i++)
        if (changed(c, &def, "process", curve_keys[i]))
            note(c, "process", curve_keys[i], notes, max, &n,
                 "the fault model is the report's ([process] fault_model = REPORT: "
                 "mem_access_rate), so no curve is read");
    if (!c->output.schedule && !config_paje_name(c)) {
        static const char *const win[] = {"schedule_from", "schedule_to"};
        for (size_t i = 0; i < 2; i++)
            if (changed(c, &def, "output", win[i]))
                note(c, "output", win[i], notes, max, &n,
                     "no schedule file or Paje trace is written ([output] schedule = no "
                     "and paje = no: give --schedule or --paje)");
    }
    /* The keys of the swap device not in use. */
    static const char *const disk_keys[] = {"seek", "rpm", "transfer", "rotation"};
    static const char *const ssd_keys[] = {"ssd_latency", "ssd_bandwidth", "ssd_parallelism",
                                           "ssd_write_latency", "ssd_write_bandwidth"};
    bool ssd = c->computer.swap == SWAP_SSD;
    const char *const *unused = ssd ? disk_keys : ssd_keys;
    size_t nunused = ssd ? sizeof disk_keys / sizeof disk_keys[0]
                         : sizeof ssd_keys / sizeof ssd_keys[0];
    snprintf(why, sizeof why, "the swap device is %s ([computer] swap = %s)",
             ssd ? "an SSD, not a disk" : "a disk, not an SSD", ssd ? "SSD" : "DISK");
    for (size_t i = 0; i < nunused; i++)
        if (changed(c, &def, "computer", unused[i]))
            note(c, "computer", unused[i], notes, max, &n, why);
    /* The memory profile's keys of the other profiles (issue 33). */
    static const char *const profile_keys[] = {"memory_start", "memory_steps", "ramp_share",
                                               "memory_low", "peak_share", "memory_period"};
    const mem_profile_kind mp = c->workload.memory_profile;
    for (size_t i = 0; i < 6; i++) {
        bool ramp = i < 3;
        if (mp == (ramp ? MEM_PROFILE_RAMP : MEM_PROFILE_PHASES) ||
            !changed(c, &def, "workload", profile_keys[i]))
            continue;
        snprintf(why, sizeof why, "the memory profile is not %s ([workload] memory_profile = %s)",
                 ramp ? "RAMP" : "PHASES", cfg_mem_profile_names[mp]);
        note(c, "workload", profile_keys[i], notes, max, &n, why);
    }
    static const char *const write_keys[] = {"ssd_write_latency", "ssd_write_bandwidth"};
    for (size_t i = 0; ssd && dmax == 0 && i < 2; i++)
        if (changed(c, &def, "computer", write_keys[i]))
            note(c, "computer", write_keys[i], notes, max, &n,
                 "no evicted page is written back ([process] dirty_fraction(s) = 0)");
    if (dmax == 0 && changed(c, &def, "process", "dirty_fractions"))
        note(c, "process", "dirty_fractions", notes, max, &n, "every fraction in it is 0, "
             "as [process] dirty_fraction: no evicted page is written back");
    if (!c->netram.enabled && changed(c, &def, "netram", "transport"))
        note(c, "netram", "transport", notes, max, &n,
             "network RAM is off ([netram] enabled = no)");
    if (!c->netram.enabled && changed(c, &def, "netram", "reclaim"))
        note(c, "netram", "reclaim", notes, max, &n,
             "network RAM is off ([netram] enabled = no), so nothing is lent to take back");
    static const char *const msg_keys[] = {"message_cpu", "server_cpu"};
    for (size_t i = 0; i < 2; i++)
        if ((!c->netram.enabled || c->netram.transport != PNR_TRANSPORT_MESSAGES) &&
            changed(c, &def, "netram", msg_keys[i]))
            note(c, "netram", msg_keys[i], notes, max, &n,
                 !c->netram.enabled ? "network RAM is off ([netram] enabled = no)"
                                    : "pages move by one-sided RDMA ([netram] transport = "
                                      "RDMA), which runs no code at the server and no "
                                      "message ends (docs/MODEL.md, costs on a fault's path)");
    if ((!c->netram.enabled || c->netram.transport != PNR_TRANSPORT_RDMA) &&
        changed(c, &def, "netram", "rdma_latency"))
        note(c, "netram", "rdma_latency", notes, max, &n,
             "pages do not move by RDMA ([netram] transport = RDMA with network RAM "
             "on is needed)");
    if ((!c->netram.enabled || c->netram.transport != PNR_TRANSPORT_RDMA) &&
        changed(c, &def, "netram", "rdma_read"))
        note(c, "netram", "rdma_read", notes, max, &n,
             "pages do not move by RDMA ([netram] transport = RDMA with network RAM "
             "on is needed)");
    return n;
}

/* ---------------------------------------------------------------------- */
/* A lower layer's notes, folded                                           */
/* ---------------------------------------------------------------------- */

/* Whether origin ("FILE:LINE") names a key set in a lower layer of a:
 * FILE is a -c file that a later -c file, or a --set, is layered over.
 * An origin cut short ("...") matches no file and stays unfolded. */
static bool from_lower_layer(const char *origin, const config_args *a, size_t *layer)
{
    const char *colon = strrchr(origin, ':');
    if (!colon || !a->files)
        return false;
    size_t flen = (size_t)(colon - origin);
    bool found = false;
    for (size_t i = 0; i < a->nfiles; i++) {
        const char *f = strcmp(a->files[i], "-") ? a->files[i] : "stdin";
        if (strlen(f) == flen && !strncmp(origin, f, flen)) {
            *layer = i; /* the last layer of that name set it */
            found = true;
        }
    }
    return found && (*layer + 1 < a->nfiles || a->nsets > 0);
}

size_t config_fold_notes(cfg_note *notes, size_t n, const config_args *a)
{
    if (n > CFG_IGNORED_MAX)
        return n; /* some not written: printed as they are, with "and N more" */
    size_t written = n, out = 0;
    size_t layer_of[CFG_IGNORED_MAX];
    bool lower[CFG_IGNORED_MAX], done[CFG_IGNORED_MAX] = {false};
    for (size_t i = 0; i < written; i++)
        lower[i] = from_lower_layer(notes[i].origin, a, &layer_of[i]);
    static cfg_note folded[CFG_IGNORED_MAX]; /* large: not on the stack */
    for (size_t i = 0; i < written; i++) {
        if (done[i])
            continue;
        size_t same = 0;
        for (size_t j = i; j < written && lower[i]; j++)
            same += lower[j] && layer_of[j] == layer_of[i];
        if (same < 2) {
            folded[out++] = notes[i];
            continue;
        }
        /* One line for the layer, at its first note's place. */
        cfg_note *o = &folded[out++];
        const char *f = a->files[layer_of[i]];
        snprintf(o->key, sizeof o->key, "%s", notes[i].key);
        snprintf(o->origin, sizeof o->origin, "%s", strcmp(f, "-") ? f : "stdin");
        snprintf(o->what, sizeof o->what, "%zu keys it sets have no effect in this "
                 "configuration (features a later layer leaves off): ", same);
        for (size_t j = i, k = 0; j < written; j++)
            if (lower[j] && layer_of[j] == layer_of[i]) {
                util_appendf(o->what, sizeof o->what, "%s%s", k++ ? ", " : "", notes[j].key);
                done[j] = true;
            }
        util_appendf(o->what, sizeof o->what, " (-v: each, and why)");
    }
    memcpy(notes, folded, out * sizeof *notes);
    return out;
}
