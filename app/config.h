/* app/config.h: the scenario: every parameter of a run, its defaults, and
 * reading it from INI files, PNRSim's own "Name value" files and --set.
 *
 * Units are the techreport's: seconds, MB (memory, 2^20 bytes) and MB/s
 * (bandwidth and disk transfer, 10^6 bytes/s, so 12.5 MB/s = 100 Mb/s as in
 * the report's appendix A). configs/reference.ini lists every key with its
 * default, unit and a one-line comment.
 */
#ifndef PNRSIM_APP_CONFIG_H
#define PNRSIM_APP_CONFIG_H

#include "core/rng.h"
#include "net/topology.h"
#include "pnr/strategy.h"
#include "sched/policy.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define CFG_NAME_MAX 64
#define CFG_PATH_MAX 1024
#define CFG_ERR_MAX 512
#define CFG_MAX_STATUS 16
#define CFG_MAX_RAM_GROUPS 64
/* At least the number of keys (arrays indexed by key). */
#define CFG_MAX_KEYS 128
/* Room for where a key was set ("FILE:LINE", "--set ARG", "-t TRACE"). */
#define CFG_ORIGIN_MAX 96

/* One group of computer.ram: `count` consecutive PEs with `mb` MB each. */
typedef struct cfg_ram_group {
    int count;
    double mb;
} cfg_ram_group;

/* Policy enums live with the layers that use them (sched/, pnr/, net/); the
 * configuration names them. */
typedef sched_priority cfg_priority;
typedef sched_packing cfg_packing;
typedef enum { SCHED_GANG } cfg_sched_type;
typedef pnr_strategy cfg_strategy;
typedef pnr_release cfg_release;
typedef pnr_selection cfg_selection;
typedef pnr_locality cfg_locality;
typedef net_topology cfg_topology;
typedef net_server_placement cfg_server_placement;
typedef net_route_mode cfg_route;
typedef enum { CPU_DEMAND_CPUTIME, CPU_DEMAND_RUNTIME, CPU_DEMAND_AUTO } cfg_cpu_demand;
typedef enum { INTERVAL_FIXED, INTERVAL_EXPONENTIAL } cfg_interval;
typedef enum { ROTATION_HALF, ROTATION_FULL } cfg_rotation;
typedef sched_mem_release cfg_mem_release;
typedef sched_paging cfg_paging;
typedef sched_mem_aware cfg_mem_aware;
/* A job's estimate: SWF field 9 (requested time), or its run time. */
typedef enum { ESTIMATE_REQUESTED, ESTIMATE_RUNTIME } cfg_estimate;
typedef sched_backfill cfg_backfill;

typedef struct config {
    struct {
        char system[CFG_NAME_MAX];   /* name, output only */
        double max_time;             /* s; 0 = no limit */
        double metrics_period;       /* s between samples/progress lines, > 0 */
        uint64_t seed;               /* master seed; 0 = from the clock */
        rng_gen generator;           /* random-number generator of every stream */
        double bsld_tau;             /* s, bounded-slowdown threshold (10) */
        long max_samples;            /* rows of samples.csv at most; 0 = no cap */
        double max_event_rate;       /* events per simulated s per PE; 0 = no guard */
        long max_messages;           /* messages in flight per PE; 0 = no guard */
    } simulation;
    struct {
        char trace[CFG_PATH_MAX];    /* SWF path ("" = none; "-" = stdin) */
        cfg_cpu_demand cpu_demand;   /* field 6, field 4, or 6 if > 0 else 4 */
        double default_memory;       /* MB per thread when field 7 is -1 */
        double memory_scale;         /* multiplies every thread's memory */
        double load_scale;           /* divides inter-arrival gaps */
        long max_jobs;               /* 0 = all */
        long window;                 /* skip window * max_jobs kept jobs */
        double submit_min;           /* s; jobs submitted earlier are dropped */
        double submit_max;           /* s; 0 = no upper bound */
        int exclude_status[CFG_MAX_STATUS]; /* SWF status values to drop */
        int n_exclude_status;
        bool lenient;                /* skip (and count) malformed lines */
        cfg_estimate estimate;       /* field 9 when > 0, else run time; or run time */
        double estimate_scale;       /* multiplies every estimate, > 0 */
    } workload;
    struct {
        char name[CFG_NAME_MAX];
        double mem_access_rate;      /* s between memory accesses (R) */
        double comm_rate;            /* CPU s between neighbour messages; 0 = off */
        double sync_rate;            /* CPU s between synchronisations; 0 = off */
        long page_size;              /* bytes, the report's P (4096) */
        cfg_interval interval;       /* comm/sync intervals fixed or exponential */
        cfg_mem_release mem_release; /* memory freed at thread or job end */
        cfg_paging paging;           /* EXACT or BATCHED faults (docs/BATCHING.md) */
    } process;
    struct {
        cfg_sched_type type;
        cfg_priority priority;
        cfg_packing packing;
        int mpl;                     /* max slots; 0 = unlimited */
        double pcs;                  /* s per parallel context switch */
        double quantum;              /* s per time slice, > 0 */
        cfg_mem_aware mem_aware;     /* NO, LOCAL (yes), GLOBAL */
        bool strict_order;           /* a job that cannot start blocks later ones */
        bool pcs_first_start;        /* a job's first start costs a PCS */
        bool alternative;            /* alternative scheduling, §4.4.2 */
        cfg_backfill backfill;       /* none, EASY, conservative */
    } scheduler;
    struct {
        char name[CFG_NAME_MAX];
        int number;                  /* PEs, >= 1 */
        double cpu;                  /* unused, as in PNRSim */
        double ram;                  /* MB per PE, > 0 (with groups: the first group's) */
        int n_ram_groups;            /* 0 = every PE has `ram` MB; else groups in PE order */
        cfg_ram_group ram_groups[CFG_MAX_RAM_GROUPS];
        int memory_servers;          /* memory-only PEs after the compute PEs; 0 = none */
        double memory_server_ram;    /* MB per memory server, > 0 */
        double rpm;                  /* disk revolutions per minute, > 0 */
        double seek;                 /* s, average seek, >= 0 */
        double transfer;             /* MB/s, > 0 */
        cfg_rotation rotation;       /* rotational delay: half or full revolution */
    } computer;
    struct {
        bool enabled;
        cfg_strategy strategy;
        bool global_knowledge;
        int managers;                /* BACKBONE: 1..number */
        double server_threshold;     /* MB of free RAM a server keeps */
        cfg_packing packing;         /* unused, as in PNRSim */
        cfg_release release;         /* what a node frees at a thread's end */
        cfg_selection server_selection; /* how a manager picks a server */
        double access_latency;       /* s added to each remote page access */
        cfg_locality locality;       /* servers in the clients' racks first */
    } netram;
    struct {
        cfg_topology topology;
        int rack_size;               /* TREE: PEs per rack, >= 1 */
        cfg_server_placement memory_server_placement; /* TREE: spread or own racks */
        double uplink_bandwidth;     /* TREE: MB/s per uplink; 0 = bandwidth */
        double uplink_latency;       /* TREE: s per uplink crossing, >= 0 */
        double bandwidth;            /* MB/s per link, > 0 */
        double latency;              /* s per link crossing, >= 0 */
        double delay;                /* s per switch pass, >= 0 */
        cfg_route route;             /* HOPS (exact) or WHOLE (issue 11) */
        double neighbour_msg;        /* bytes of a neighbour message */
        double sync_msg;             /* bytes of a synchronisation message */
        double control_msg;          /* bytes of a PNR control message */
    } network;
    struct {
        bool schedule;               /* schedule.csv, pes.csv, schedule.paje */
        bool schedule_network;       /* links and switches in schedule.paje */
    } output;
    /* Not a parameter: where each key was last set, by the key's place in
     * the key table ("" = its default), as config_origin returns it, for
     * messages about several keys. config_equal ignores it. */
    char origin[CFG_MAX_KEYS][CFG_ORIGIN_MAX];
} config;

/* Which input a configuration problem comes from. */
typedef enum {
    CFG_SRC_FILE,     /* a configuration file (-c; a sweep's base) */
    CFG_SRC_TRACE,    /* the trace given apart (-t; a sweep's [study] trace) */
    CFG_SRC_SEED,     /* the seed given apart (-s) */
    CFG_SRC_SET,      /* a SECTION.KEY=VALUE assignment (--set; a sweep's keys) */
    CFG_SRC_VALIDATE, /* the configuration as a whole (config_validate) */
} cfg_src;

/* A configuration problem in parts, so that each program words its own
 * message and nobody parses message text back. */
typedef struct cfg_error {
    cfg_src source;
    size_t index;               /* CFG_SRC_SET: which assignment (from 0) */
    char file[CFG_PATH_MAX];    /* CFG_SRC_FILE: the file */
    long line;                  /* CFG_SRC_FILE: its line; 0 = the whole file */
    char arg[CFG_PATH_MAX + 64]; /* CFG_SRC_SET/TRACE/SEED: the assignment */
    char key[80];               /* "section.key" concerned; "" = none (e.g. an
                                   unknown key, a malformed line) */
    char value[96];             /* that key's value as quoted in messages */
    char why[CFG_ERR_MAX];      /* what is wrong with it and what is allowed */
    char what[CFG_ERR_MAX];     /* the whole problem, without its location:
                                   "[network] topology = "ring": expected ..." */
} cfg_error;

/* e as one line, as pnrsim prints it: "FILE:LINE: what", "FILE: what",
 * "--set ARG: what" or "configuration: what" (cut to fit n). */
void config_error_message(const cfg_error *e, char *buf, size_t n);

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
    const char *file;         /* -c FILE, or NULL */
    const char *trace;        /* -t TRACE, or NULL */
    const char *seed;         /* -s SEED, or NULL */
    const char *const *sets;  /* --set SECTION.KEY=VALUE, in order */
    size_t nsets;
    bool schedule;            /* --schedule */
} config_args;

/* Build the effective configuration from a: defaults < file ("-" =
 * standard input; a relative [workload] trace in it taken from the file's
 * directory, or from the working directory for "-") < trace < seed <
 * sets in order < schedule; then a relative trace is made absolute (from
 * the working directory) and the whole is validated. A configuration and a
 * trace both from standard input are refused. Returns 0, or -1
 * with e saying which input was refused and why (c is then unspecified). */
int config_build(config *c, const config_args *a, cfg_error *e);

/* Where key "section.key" of c was last set: "FILE:LINE" (a configuration
 * file; a long path is cut at its start, "..." first), "--set ARG" (cut at
 * its end), "-t TRACE" or "-s SEED" (config_build), or "" when it holds its
 * default (or was set directly in the struct, or key is unknown). */
const char *config_origin(const config *c, const char *key);

/* The unit of key "section.key" as configs/reference.ini gives it ("MB",
 * "s", "MB/s", "PEs", ...; "" for names, booleans and paths), or NULL when
 * there is no such key (e.g. for a plot axis: "computer.ram [MB]"). */
const char *config_key_unit(const char *key);

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

/* Write the complete configuration as INI: every key, with a unit comment.
 * Reading it back with config_load_ini gives an equal configuration. */
void config_write_ini(const config *c, FILE *out);

/* True when a and b hold the same values (field by field). */
bool config_equal(const config *a, const config *b);

/* The value that assignment ("section.key=value") gives its key, parsed
 * on the defaults and written back as pnrsim writes it in config.ini
 * (enum names in upper case, numbers as the shortest text that reads back
 * the same), into buf (n bytes): "central" and "CENTRAL" give the same
 * text, as do "128" and "128.0". 0, or -1 when pnrsim refuses the
 * assignment (buf is then ""). */
int config_value_text(const char *assignment, char *buf, size_t n);

/* RAM in MB of PE i (0 .. number + memory_servers - 1): its group's, or
 * memory_server_ram for a memory server. */
double config_pe_ram(const config *c, int i);
/* Smallest RAM of any compute PE, MB. */
double config_ram_min(const config *c);

/* Names of enum values, as written in files (upper case). */
const char *config_priority_name(cfg_priority v);
const char *config_packing_name(cfg_packing v);
const char *config_strategy_name(cfg_strategy v);
const char *config_topology_name(cfg_topology v);
const char *config_cpu_demand_name(cfg_cpu_demand v);
const char *config_sched_type_name(cfg_sched_type v);
const char *config_mem_release_name(cfg_mem_release v);

#endif
