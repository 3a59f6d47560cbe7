/* app/config_types.h: the scenario as data: struct config (every parameter
 * of a run), its limits, and cfg_error (a configuration problem in parts).
 * Types only, no functions: the lowest layer of the configuration module,
 * seen by every file of it (app/config.h says how the files stack up) and,
 * through app/config.h, by everyone else.
 *
 * Units are the techreport's: seconds, MB (memory, 2^20 bytes) and MB/s
 * (bandwidth and disk transfer, 10^6 bytes/s, so 12.5 MB/s = 100 Mb/s as in
 * the report's appendix A). configs/reference.ini lists every key with its
 * default, unit and a one-line comment.
 */
#ifndef PNRSIM_APP_CONFIG_TYPES_H
#define PNRSIM_APP_CONFIG_TYPES_H

#include "core/rng.h"
#include "net/topology.h"
#include "pnr/strategy.h"
#include "sched/job_profile.h"
#include "sched/policy.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CFG_NAME_MAX 64
/* Room for a path with its NUL: Linux's PATH_MAX, the longest path the
 * system opens, so that a trace made absolute always fits (issue 32). */
#define CFG_PATH_MAX 4096
#define CFG_ERR_MAX 512
#define CFG_MAX_STATUS 16
#define CFG_MAX_RAM_GROUPS 64
/* Most items of process.fault_curves (APP:FILE). */
#define CFG_CURVES_MAX 256
/* Most items of process.dirty_fractions (APP:F). */
#define CFG_DIRTY_MAX 256
/* At least the number of keys (arrays indexed by key). */
#define CFG_MAX_KEYS 192
/* Room for where a key was set ("FILE:LINE", "--set ARG", "-t TRACE"). */
#define CFG_ORIGIN_MAX 96

/* One group of computer.ram: `count` consecutive PEs with `mb` MB each. */
typedef struct cfg_ram_group {
    int count;
    double mb;
} cfg_ram_group;

/* One group of computer.speed (issue 35): `count` consecutive nodes whose
 * cores run CPU demand at `speed` times the reference (the trace's). */
typedef struct cfg_speed_group {
    int count;
    double speed;
} cfg_speed_group;

/* Policy enums live with the layers that use them (sched/, pnr/, net/); the
 * configuration names them. */
/* scheduler.priority/packing/backfill are registry components (an index,
 * core/registry.h); netram.packing (unused) keeps the packing names. */
typedef int cfg_priority;
typedef enum { CFG_PACK_FIRSTFIT, CFG_PACK_BESTFIT, CFG_PACK_WORSTFIT } cfg_packing;
typedef enum { SCHED_GANG } cfg_sched_type;
typedef int cfg_strategy; /* netram.strategy: a registry index (K_COMP) */
typedef pnr_release cfg_release;
typedef pnr_selection cfg_selection;
typedef pnr_locality cfg_locality;
typedef pnr_transport cfg_transport;
typedef pnr_rdma_read_mode cfg_rdma_read;
typedef pnr_reclaim cfg_reclaim;
typedef net_topology cfg_topology;
typedef net_server_placement cfg_server_placement;
typedef net_route_mode cfg_route;
typedef enum { CPU_DEMAND_CPUTIME, CPU_DEMAND_RUNTIME, CPU_DEMAND_AUTO } cfg_cpu_demand;
typedef enum { INTERVAL_FIXED, INTERVAL_EXPONENTIAL } cfg_interval;
typedef enum { ROTATION_HALF, ROTATION_FULL } cfg_rotation;
/* The PEs' swap device: the report's disk (§4.1.3) or an SSD. */
typedef enum { SWAP_DISK, SWAP_SSD } cfg_swap;
typedef sched_mem_release cfg_mem_release;
typedef sched_paging cfg_paging;
/* A thread's fault rate (issue 33): the report's model (§4.1.5) or a
 * measured curve (docs/MODEL.md "Fault model CURVE"). */
typedef enum { FAULT_MODEL_REPORT, FAULT_MODEL_CURVE } cfg_fault_model;
typedef sched_mem_aware cfg_mem_aware;
/* A job's estimate: SWF field 9 (requested time), or its run time. */
typedef enum { ESTIMATE_REQUESTED, ESTIMATE_RUNTIME } cfg_estimate;
/* scheduler.time_limit (issue 35): a job runs on past its requested time
 * (IGNORE, the report) or is killed at limit_factor x it (KILL). */
typedef enum { TIME_LIMIT_IGNORE, TIME_LIMIT_KILL } cfg_time_limit;
/* [output] schedule: the schedule CSV files not at all, plain, or gzipped. */
typedef enum { SCHEDULE_NO, SCHEDULE_YES, SCHEDULE_GZ } cfg_schedule;
typedef int cfg_backfill;
typedef sched_node_sharing cfg_node_sharing;
/* [scheduler] fairshare_by: MULTIFACTOR's accounts (issue 35). */
typedef enum { FAIRSHARE_BY_USER, FAIRSHARE_BY_GROUP } cfg_fairshare_by;

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
        double busiest;              /* s; the busiest window's length, 0 = off */
        int exclude_status[CFG_MAX_STATUS]; /* SWF status values to drop */
        int n_exclude_status;
        bool lenient;                /* skip (and count) malformed lines */
        cfg_estimate estimate;       /* field 9 when > 0, else run time; or run time */
        double estimate_scale;       /* multiplies every estimate, > 0 */
        double limit_factor;         /* time_limit = KILL: the limit is this x field 9 */
        mem_profile_kind memory_profile; /* CONSTANT, RAMP or PHASES (job_profile.h) */
        double memory_start;         /* RAMP: fraction of the peak at the start */
        int memory_steps;            /* RAMP: equal steps to the peak */
        double ramp_share;           /* RAMP: share of the CPU demand they span */
        double memory_low;           /* PHASES: low level, fraction of the peak */
        double peak_share;           /* PHASES: share of each period at the peak */
        double memory_period;        /* PHASES: CPU s of one cycle */
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
        cfg_fault_model fault_model; /* REPORT (R, §4.1.5) or CURVE (issue 33) */
        char fault_curve[CFG_PATH_MAX];  /* CURVE: the curve of jobs not mapped ("" = none) */
        char fault_curves[CFG_PATH_MAX]; /* CURVE: "APP:FILE, ..." by SWF field 14 */
        double dirty_fraction;       /* evicted pages written back, [0, 1] */
        char dirty_fractions[CFG_PATH_MAX]; /* "APP:F, ..." by SWF field 14 ("" = none:
                                             * dirty_fraction, counted per node) */
        sched_loop loop_schedule;    /* NONE (the report's) or a loop schedule (issue 36) */
        double imbalance;            /* CV of the iterations' demands, >= 0 */
        double chunk_overhead;       /* CPU s per chunk */
        long loop_iterations;        /* iterations per thread in an interval */
    } process;
    struct {
        cfg_sched_type type;
        int priority;                /* a component: its index in the registry (core/registry.h) */
        int packing;                 /* a component: its index in the registry */
        int mpl;                     /* max slots; 0 = unlimited */
        double pcs;                  /* s per parallel context switch */
        double quantum;              /* s per time slice, > 0 */
        cfg_mem_aware mem_aware;     /* NO, LOCAL (yes), GLOBAL */
        bool strict_order;           /* a job that cannot start blocks later ones */
        bool pcs_first_start;        /* a job's first start costs a PCS */
        bool alternative;            /* alternative scheduling, §4.4.2 */
        int backfill;                /* a component (NONE, EASY, CONSERVATIVE, ...): its index */
        char reservations[16];       /* CONSERVATIVE's depth: "all" or N >= 1 (issue 35) */
        cfg_node_sharing node_sharing; /* SHARED, EXCLUSIVE (issue 25) */
        int allocation;              /* a component (FIRSTFREE, ...): its index */
        cfg_time_limit time_limit;   /* IGNORE, KILL (issue 35, sched/job_limit.h) */
        /* MULTIFACTOR (issue 35, sched/multifactor.h) */
        double weight_age, weight_size, weight_fairshare, weight_wait; /* >= 0 */
        double max_age;              /* s, > 0: the age factor's 1 */
        double fairshare_half_life;  /* s, usage decay; 0 = none */
        cfg_fairshare_by fairshare_by;
        /* per-user limits (sched/limits.h); 0 = none */
        int max_running_per_user;
        int max_cores_per_user;
    } scheduler;
    struct {
        char name[CFG_NAME_MAX];
        int number;                  /* PEs = cores, >= 1, a multiple of cores_per_node */
        int cores_per_node;          /* C: cores sharing a node's RAM, disk, link (issue 25) */
        double cpu;                  /* unused, as in PNRSim */
        double fault_cpu;            /* s of the faulting core's CPU per fault (issue 33) */
        double ram;                  /* MB per node, > 0 (with groups: the first group's) */
        int n_ram_groups;            /* 0 = every node has `ram` MB; else groups in node order */
        cfg_ram_group ram_groups[CFG_MAX_RAM_GROUPS];
        double speed;                /* CPU speed of each node, > 0 (groups: the first's) */
        int n_speed_groups;          /* 0 = every node runs at `speed`; else groups in node order */
        cfg_speed_group speed_groups[CFG_MAX_RAM_GROUPS];
        int memory_servers;          /* memory-only PEs after the compute PEs; 0 = none */
        double memory_server_ram;    /* MB per memory server, > 0 */
        double rpm;                  /* disk revolutions per minute, > 0 */
        double seek;                 /* s, average seek, >= 0 */
        double transfer;             /* MB/s, > 0 */
        cfg_rotation rotation;       /* rotational delay: half or full revolution */
        cfg_swap swap;               /* swap device: DISK (the four above) or SSD */
        double ssd_latency;          /* s per SSD access, > 0 */
        double ssd_bandwidth;        /* MB/s (10^6 B/s), > 0 */
        int ssd_parallelism;         /* SSD requests served at once, >= 1 */
        double ssd_write_latency;    /* s per SSD page write; 0 = ssd_latency */
        double ssd_write_bandwidth;  /* MB/s of SSD writes; 0 = ssd_bandwidth */
    } computer;
    struct {
        bool enabled;
        int strategy;                /* a component: its index in the registry */
        bool global_knowledge;
        int managers;                /* BACKBONE: 1..number */
        double server_threshold;     /* MB of free RAM a server keeps */
        cfg_packing packing;         /* unused, as in PNRSim */
        cfg_release release;         /* what a node frees at a thread's end */
        cfg_selection server_selection; /* how a manager picks a server */
        double access_latency;       /* s added to each remote page access */
        double message_cpu;          /* MESSAGES: s of CPU per page message at each end */
        double server_cpu;           /* MESSAGES: s of the server node's CPU per request */
        cfg_locality locality;       /* servers in the clients' racks first */
        cfg_transport transport;     /* pages by messages or one-sided RDMA */
        double rdma_latency;         /* s per RDMA operation, NIC to NIC */
        cfg_rdma_read rdma_read;     /* a READ one way or a round trip */
        cfg_reclaim reclaim;         /* donors take memory back */
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
        cfg_schedule schedule;       /* schedule.csv, pes.csv, memory.csv,
                                      * paging.csv: no, yes, gz */
        bool schedule_network;       /* links and switches in the Paje trace */
        char paje[CFG_NAME_MAX];     /* the Paje trace: "no", "yes" (=
                                      * schedule.paje) or a file name */
        double schedule_from;        /* s: the window of the schedule files */
        double schedule_to;          /* s; 0 = the end of the run */
        double progress_interval;    /* s between progress lines off a terminal; 0 = none */
    } output;
    /* Not a parameter: where each key was last set, by the key's place in
     * the key table ("" = its default), as config_origin returns it, for
     * messages about several keys. config_equal ignores it. */
    char origin[CFG_MAX_KEYS][CFG_ORIGIN_MAX];
    /* The plugins' keys (core/registry.h pnrsim_register_key), by handle. */
    double plugin_values[PNRSIM_MAX_KEYS];
} config;

/* Which input a configuration problem comes from. */
typedef enum {
    CFG_SRC_FILE,     /* a configuration file (-c; a sweep's base) */
    CFG_SRC_TRACE,    /* the trace given apart (-t; a sweep's [study] trace) */
    CFG_SRC_SEED,     /* the seed given apart (-s) */
    CFG_SRC_SET,      /* a SECTION.KEY=VALUE assignment (--set; a sweep's keys) */
    CFG_SRC_VALIDATE, /* the configuration as a whole (config_validate) */
    CFG_SRC_OPTION,   /* a command-line option setting a key (--schedule=gz,
                       * --paje=NAME): arg holds it as given */
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

#endif
