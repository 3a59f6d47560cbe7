/* app/config.c: the scenario's parameters, their defaults and their readers.
 *
 * One table, `keys`, describes every parameter: its INI section and key, its
 * C type and place in struct config, the allowed range or names, its default
 * (as text, exactly as configs/reference.ini writes it), its unit, a one-line
 * comment and its PNRSim name(s). Everything else is driven by that table:
 * config_defaults parses the default texts, the three readers (INI files,
 * PNRSim "Name value" files, --set) look keys up in it and parse values with
 * one function, config_validate re-checks stored values against it, and
 * config_write_ini (--print-config) writes it back with units and comments.
 * So reference.ini, the parsers and the printed configuration cannot
 * disagree about names, ranges or units; the tests check that
 * configs/reference.ini loads to exactly config_defaults.
 *
 * INI files go through inih (Debian's libinih, r55). Its behaviour is set by
 * process-wide globals, which config_load_ini sets for the duration of the
 * call and then restores: no multi-line values (an indented key is an
 * ordinary key, not a continuation of the previous value), `;` inline
 * comments (after whitespace) and `;`/`#` full-line comments, stop at the
 * first error. The installed <ini.h> declares the four-argument handler
 * (INI_HANDLER_LINENO is 0), so line numbers come from our own reader for
 * ini_parse_stream: it hands inih exactly one file line per call, counts
 * them, refuses lines longer than inih's buffer (inih would otherwise cut
 * such a line silently and parse its tail as a new line), and checks
 * [section] headers itself, so an unknown section is reported even when it
 * holds no key (inih calls the handler only for key = value lines).
 *
 * Every reader works on a copy of the configuration and stores it only when
 * the whole input was accepted: on error the caller's configuration is left
 * as it was. A key set twice in one file is an error (a typo or a stale copy
 * is more likely than an intended override; --set is the way to override).
 * Numbers are decimal only (no hex, nan or inf) and parsed with strtod, so
 * the program must keep the C locale for LC_NUMERIC.
 *
 * Not thread-safe (inih's settings are globals).
 */
#include "app/config.h"
#include "core/mem.h"

#include <ini.h>

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* ---------------------------------------------------------------------- */
/* The table                                                               */
/* ---------------------------------------------------------------------- */

typedef enum {
    KT_STRING,  /* char[size]; min = minimum length (0 or 1) */
    KT_DOUBLE,  /* finite double in [min, max] (or (min, max] if min_open) */
    KT_INT,     /* int in [min, max] */
    KT_LONG,    /* long in [min, max] */
    KT_U64,     /* uint64_t, any value */
    KT_BOOL,    /* bool */
    KT_ENUM,    /* int-sized enum, index into names */
    KT_STATUS,  /* int[size] + int count at count_offset; items in [min, max] */
} key_type;

typedef struct key_def {
    const char *section;
    const char *key;
    key_type type;
    size_t offset;            /* of the value in struct config */
    size_t size;              /* KT_STRING: buffer size; KT_STATUS: capacity */
    size_t count_offset;      /* KT_STATUS: offset of the count */
    double min, max;          /* allowed range; max HUGE_VAL = none */
    bool min_open;            /* the value must be > min, not >= min */
    const char *const *names; /* KT_ENUM: names by value, NULL-terminated */
    const char *def;          /* default, as written in reference.ini */
    const char *unit;
    const char *comment;
    const char *pnrsim;       /* PNRSim names, '|'-separated, or NULL */
    bool zero_off;            /* KT_DOUBLE: 0 (= off) is allowed too */
} key_def;

static const char *const priority_names[] = {"FCFS", "BESTFIT", "WORSTFIT", "SJF", "LJF",
                                             "SAF", "LAF", "WFP3", "UNICEP", "F1", NULL};
static const char *const packing_names[] = {"FIRSTFIT", "BESTFIT", "WORSTFIT", NULL};
static const char *const sched_names[] = {"GANG", NULL};
static const char *const strategy_names[] = {"CENTRAL", "CLIENT", "MANAGER",
                                             "BACKBONE", NULL};
static const char *const release_names[] = {"EXCESS", "ALL", NULL};
static const char *const selection_names[] = {"RANDOM_WORSTFIT", "WORSTFIT", "BESTFIT",
                                              "RANDOM", NULL};
static const char *const topology_names[] = {"STAR", "BUS", "WHEEL", "CONNECTED",
                                             NULL};
static const char *const cpu_demand_names[] = {"CPUTIME", "RUNTIME", "AUTO", NULL};
static const char *const interval_names[] = {"FIXED", "EXPONENTIAL", NULL};
static const char *const rotation_names[] = {"HALF", "FULL", NULL};
static const char *const mem_release_names[] = {"THREAD", "JOB", NULL};
static const char *const estimate_names[] = {"REQUESTED", "RUNTIME", NULL};
static const char *const backfill_names[] = {"NONE", "EASY", "CONSERVATIVE", NULL};

/* The name arrays are indexed by the enum values. */
_Static_assert(PRIO_FCFS == 0 && PRIO_BESTFIT == 1 && PRIO_WORSTFIT == 2, "");
_Static_assert(PACK_FIRSTFIT == 0 && PACK_BESTFIT == 1 && PACK_WORSTFIT == 2, "");
_Static_assert(SCHED_GANG == 0, "");
_Static_assert(PNR_CENTRAL == 0 && PNR_CLIENT == 1 && PNR_MANAGER == 2 &&
               PNR_BACKBONE == 3, "");
_Static_assert(PNR_RELEASE_EXCESS == 0 && PNR_RELEASE_ALL == 1, "");
_Static_assert(PNR_SELECT_RANDOM_WORSTFIT == 0 && PNR_SELECT_WORSTFIT == 1 &&
               PNR_SELECT_BESTFIT == 2 && PNR_SELECT_RANDOM == 3, "");
_Static_assert(TOPO_KIND_STAR == 0 && TOPO_KIND_BUS == 1 && TOPO_KIND_WHEEL == 2 &&
               TOPO_KIND_CONNECTED == 3, "");
_Static_assert(CPU_DEMAND_CPUTIME == 0 && CPU_DEMAND_RUNTIME == 1 &&
               CPU_DEMAND_AUTO == 2, "");
_Static_assert(INTERVAL_FIXED == 0 && INTERVAL_EXPONENTIAL == 1, "");
_Static_assert(ROTATION_HALF == 0 && ROTATION_FULL == 1, "");
_Static_assert(sizeof(cfg_interval) == sizeof(int) &&
               sizeof(cfg_rotation) == sizeof(int), "enums must be int-sized");
_Static_assert(MEM_RELEASE_THREAD == 0 && MEM_RELEASE_JOB == 1, "");
_Static_assert(PRIO_SJF == 3 && PRIO_LJF == 4 && PRIO_SAF == 5 && PRIO_LAF == 6 &&
               PRIO_WFP3 == 7 && PRIO_UNICEP == 8 && PRIO_F1 == 9, "");
_Static_assert(ESTIMATE_REQUESTED == 0 && ESTIMATE_RUNTIME == 1, "");
_Static_assert(BF_NONE == 0 && BF_EASY == 1 && BF_CONSERVATIVE == 2, "");
_Static_assert(sizeof(cfg_estimate) == sizeof(int) && sizeof(cfg_backfill) == sizeof(int),
               "enums must be int-sized");
_Static_assert(sizeof(cfg_mem_release) == sizeof(int), "enums must be int-sized");
/* Enums are read and written as int. */
_Static_assert(sizeof(cfg_priority) == sizeof(int) &&
               sizeof(cfg_packing) == sizeof(int) &&
               sizeof(cfg_sched_type) == sizeof(int) &&
               sizeof(cfg_strategy) == sizeof(int) &&
               sizeof(cfg_topology) == sizeof(int) &&
               sizeof(cfg_cpu_demand) == sizeof(int), "enums must be int-sized");

#define NOMAX HUGE_VAL
#define FIELD(f) (((config *)0)->f)
/* Offsets, checked against the field's type at compile time. */
#define OFF_T(f, T) _Generic(FIELD(f), T: offsetof(config, f))
#define OFF_ENUM(f)                                                            \
    (offsetof(config, f) + 0 * sizeof(char[sizeof(FIELD(f)) == sizeof(int) ? 1 : -1]))

#define K_STR(sec, k, f, minlen, def, unit, pnr, text)                         \
    {sec, k, KT_STRING, OFF_T(f, char *), sizeof(FIELD(f)), 0, minlen, NOMAX,   \
     false, NULL, def, unit, text, pnr, false}
/* Numbers: every one has a finite range [lo, hi] ((lo, hi] when open), so
 * that nonsense (denormals, 1e300) is refused; reference.ini gives each
 * range's rationale. K_DBL0 also accepts exactly 0, meaning "off". */
#define K_DBL(sec, k, f, lo, open, hi, def, unit, pnr, text)                   \
    {sec, k, KT_DOUBLE, OFF_T(f, double), 0, 0, lo, hi, open, NULL, def,       \
     unit, text, pnr, false}
#define K_DBL0(sec, k, f, lo, hi, def, unit, pnr, text)                        \
    {sec, k, KT_DOUBLE, OFF_T(f, double), 0, 0, lo, hi, false, NULL, def,      \
     unit, text, pnr, true}
#define K_INT(sec, k, f, lo, hi, def, unit, pnr, text)                         \
    {sec, k, KT_INT, OFF_T(f, int), 0, 0, lo, hi, false, NULL, def, unit,      \
     text, pnr, false}
#define K_LONG(sec, k, f, lo, hi, def, unit, pnr, text)                        \
    {sec, k, KT_LONG, OFF_T(f, long), 0, 0, lo, hi, false, NULL, def, unit,    \
     text, pnr, false}
#define K_U64(sec, k, f, def, unit, pnr, text)                                 \
    {sec, k, KT_U64, OFF_T(f, uint64_t), 0, 0, 0, NOMAX, false, NULL, def,     \
     unit, text, pnr, false}
#define K_BOOL(sec, k, f, def, pnr, text)                                      \
    {sec, k, KT_BOOL, OFF_T(f, bool), 0, 0, 0, 1, false, NULL, def, "",        \
     text, pnr, false}
#define K_ENUM(sec, k, f, names, def, pnr, text)                               \
    {sec, k, KT_ENUM, OFF_ENUM(f), 0, 0, 0, NOMAX, false, names, def, "",      \
     text, pnr, false}

static const struct {
    const char *name;
    const char *comment;
} sections[] = {
    {"simulation", "Run control: length, sampling, randomness."},
    {"workload", "The SWF trace and how its records become jobs."},
    {"process", "Behaviour of every thread of every job."},
    {"scheduler", "The gang scheduler."},
    {"computer", "Each of the identical PEs: CPU, RAM, disk."},
    {"netram", "Parallel network RAM (PNR)."},
    {"network", "Links, switches and message sizes."},
    {"output", "Optional result files (besides metrics, jobs.csv and samples.csv)."},
};
#define N_SECTIONS (sizeof sections / sizeof sections[0])

static const key_def keys[] = {
    K_STR("simulation", "system", simulation.system, 1, "pnrsim", "text",
          "System", "Name of the simulated system, used in output only."),
    K_DBL("simulation", "max_time", simulation.max_time, 0, false, 1e12, "0", "s",
          "Maxtime", "Simulated time at which the run stops; 0 = no limit."),
    K_DBL("simulation", "metrics_period", simulation.metrics_period, 1e-3, false,
          1e12, "3600", "s", "MetricsPeriod",
          "Simulated time between metric samples and progress lines."),
    K_U64("simulation", "seed", simulation.seed, "1", "", "Seed",
          "Master random seed; 0 = seeded from the clock (not reproducible)."),
    K_DBL("simulation", "bsld_tau", simulation.bsld_tau, 0, true, 1e7, "10", "s",
          NULL, "Bounded-slowdown threshold: shorter runtimes count as this long."),
    K_LONG("simulation", "max_samples", simulation.max_samples, 0, 1e9, "1000000",
           "rows", NULL,
           "Most rows samples.csv gets; later ones are counted, not written; 0 = no cap."),
    K_DBL0("simulation", "max_event_rate", simulation.max_event_rate, 1e3, 1e12,
           "1000000", "events/s/PE", NULL,
           "Stop a run whose events per simulated second per PE exceed this; 0 = no guard."),

    K_STR("workload", "trace", workload.trace, 0, "", "path", NULL,
          "SWF trace (.swf or .swf.gz); empty = none, - = standard input."),
    K_ENUM("workload", "cpu_demand", workload.cpu_demand, cpu_demand_names,
           "AUTO", NULL,
           "CPU demand per thread: CPUTIME = SWF field 6, RUNTIME = field 4, "
           "AUTO = field 6 if > 0, else field 4."),
    K_DBL("workload", "default_memory", workload.default_memory, 0, false, 1e8, "0",
          "MB per thread", NULL,
          "Memory of a thread whose job gives none (field 7 = -1); 0 = such threads use no memory."),
    K_DBL("workload", "memory_scale", workload.memory_scale, 0, false, 1e6, "1",
          "factor", NULL, "Multiplies the memory of every thread."),
    K_DBL("workload", "load_scale", workload.load_scale, 1e-3, false, 1e3, "1", "factor",
          NULL, "Divides the gaps between submissions: 2 = twice the offered load."),
    K_LONG("workload", "max_jobs", workload.max_jobs, 0, 1e9, "0", "jobs", NULL,
           "Simulate at most this many jobs of the trace; 0 = all."),
    K_LONG("workload", "window", workload.window, 0, 1e9, "0", "window number",
           NULL, "Window W of max_jobs jobs: skip the first W x max_jobs jobs "
           "that pass every other filter (counted as dropped: window); "
           "0 = from the first. Needs max_jobs > 0 when > 0."),
    K_DBL("workload", "submit_min", workload.submit_min, 0, false, 1e12, "0", "s",
          NULL, "Drop jobs submitted before this time (trace clock)."),
    K_DBL("workload", "submit_max", workload.submit_max, 0, false, 1e12, "0", "s",
          NULL, "Drop jobs submitted after this time (trace clock); 0 = no bound."),
    {"workload", "exclude_status", KT_STATUS,
     offsetof(config, workload.exclude_status) +
         0 * sizeof(char[_Generic(FIELD(workload.exclude_status), int *: 1)]),
     CFG_MAX_STATUS, OFF_T(workload.n_exclude_status, int), -1, 5, false, NULL,
     "", "SWF status codes", "Drop jobs with these statuses (field 11), "
     "comma-separated; empty = keep all.", NULL, false},
    K_BOOL("workload", "lenient", workload.lenient, "no", NULL,
           "Skip (and count) malformed trace lines instead of stopping."),
    K_ENUM("workload", "estimate", workload.estimate, estimate_names, "REQUESTED", NULL,
           "A job's run-time estimate (backfilling, SJF...): REQUESTED = SWF field 9 when "
           "> 0, else the job's CPU demand; RUNTIME = its CPU demand (exact estimates)."),
    K_DBL("workload", "estimate_scale", workload.estimate_scale, 0, true, 1e6, "1", "factor", NULL,
          "Multiplies every estimate (never how long a job runs)."),

    K_STR("process", "name", process.name, 1, "Process", "text", "Process",
          "Base name of the processes, used in output only."),
    K_DBL("process", "mem_access_rate", process.mem_access_rate, 1e-10, false,
          1, "0.00000024", "s", "MemAccessRate",
          "Mean time between memory accesses of a running thread (R)."),
    K_DBL0("process", "comm_rate", process.comm_rate, 1e-4, 1e7, "0", "s CPU",
          "CommRate",
          "Mean CPU time between neighbour messages of a thread; 0 = none."),
    K_DBL0("process", "sync_rate", process.sync_rate, 1e-4, 1e7, "0", "s CPU",
          "SynchRate|SynchRates",
          "Mean CPU time between global synchronisations of a job; 0 = none."),
    K_LONG("process", "page_size", process.page_size, 512, 1073741824, "4096",
           "bytes", NULL,
           "Page size P of the fault model, disk accesses and network RAM pages."),
    K_ENUM("process", "interval", process.interval, interval_names, "FIXED", NULL,
           "Neighbour and synchronisation intervals: FIXED = exactly comm_rate / "
           "sync_rate CPU s, EXPONENTIAL = exponential with that mean."),
    K_ENUM("process", "mem_release", process.mem_release, mem_release_names,
           "JOB", NULL,
           "When a thread's memory is freed: THREAD = when it ends, JOB = when its "
           "job's last thread ends."),

    K_ENUM("scheduler", "type", scheduler.type, sched_names, "GANG",
           "Scheduler", "Scheduler: GANG (time and space sharing) is the only one."),
    K_ENUM("scheduler", "priority", scheduler.priority, priority_names, "FCFS",
           "Priority",
           "Queue order: FCFS = arrival, BESTFIT = widest job first, "
           "WORSTFIT = narrowest first, SJF/LJF = shortest/longest estimate, "
           "SAF/LAF = smallest/largest threads x estimate, WFP3, UNICEP, F1 "
           "(docs/SCHEDULING.md); ties by trace order."),
    K_ENUM("scheduler", "packing", scheduler.packing, packing_names, "FIRSTFIT",
           "Packing",
           "Slot for a new job: FIRSTFIT = first that fits, BESTFIT = fewest "
           "free PEs, WORSTFIT = most free PEs."),
    K_INT("scheduler", "mpl", scheduler.mpl, 0, 10000, "1", "slots", "MPL",
          "Multiprogramming level (time slots); 0 = unlimited, 1 = space sharing only."),
    K_DBL("scheduler", "pcs", scheduler.pcs, 0, false, 3600, "0.004", "s", "PCS",
          "Overhead of one parallel context switch."),
    K_DBL("scheduler", "quantum", scheduler.quantum, 1e-3, false, 1e6, "60", "s",
          "Quantum", "Length of a time slice."),
    K_BOOL("scheduler", "mem_aware", scheduler.mem_aware, "no", "MemAware",
           "Queue a job whose memory does not fit in free RAM, even if PEs are free."),
    K_BOOL("scheduler", "strict_order", scheduler.strict_order, "yes", NULL,
           "A queued job that cannot start blocks the jobs behind it "
           "(ignored when backfill is not NONE)."),
    K_BOOL("scheduler", "pcs_first_start", scheduler.pcs_first_start, "no", NULL,
           "A job's first start costs a parallel context switch (pcs) too."),
    K_BOOL("scheduler", "alternative", scheduler.alternative, "yes", NULL,
           "Alternative scheduling (techreport 4.4.2): jobs of other slots whose PEs are idle "
           "in the current slot run there, move back, and emptied slots unify. no: jobs "
           "stay in their slot (the condition of the backfilling guarantees at MPL > 1, "
           "docs/SCHEDULING.md)."),
    K_ENUM("scheduler", "backfill", scheduler.backfill, backfill_names, "NONE", NULL,
           "Backfilling: NONE, EASY (reservation for the first job that does not fit), "
           "CONSERVATIVE (a reservation for every job); docs/SCHEDULING.md."),

    K_STR("computer", "name", computer.name, 1, "Node", "text", "Computer",
          "Base name of the PEs (a number is appended), used in output only."),
    K_INT("computer", "number", computer.number, 1, 100000, "64", "PEs", "Number",
          "Number of PEs (identical computers)."),
    K_DBL("computer", "cpu", computer.cpu, 0, false, 1e12, "1000", "unused", "CPU",
          "CPU speed; unused, as in PNRSim."),
    K_DBL("computer", "ram", computer.ram, 0.01, false, 1e8, "32", "MB", "RAM",
          "Physical RAM of each PE."),
    K_DBL("computer", "rpm", computer.rpm, 100, false, 1e5, "7200", "rev/min", "RPM",
          "Disk rotation speed."),
    K_DBL("computer", "seek", computer.seek, 0, false, 1, "0.009", "s", "Seek",
          "Average disk seek time."),
    K_DBL("computer", "transfer", computer.transfer, 0.01, false, 1e5, "50", "MB/s",
          "Transfer", "Disk transfer rate (MB = 10^6 bytes here)."),
    K_ENUM("computer", "rotation", computer.rotation, rotation_names, "HALF", NULL,
           "Rotational delay of a disk access: HALF = half a revolution "
           "(30/rpm s), FULL = a whole one (60/rpm s)."),

    K_BOOL("netram", "enabled", netram.enabled, "no", "Netram",
           "Use parallel network RAM."),
    K_ENUM("netram", "strategy", netram.strategy, strategy_names, "CENTRAL",
           "PNRStrategy",
           "CENTRAL = one manager, CLIENT = no manager, MANAGER = elected local "
           "managers, BACKBONE = a fixed set of managers."),
    K_BOOL("netram", "global_knowledge", netram.global_knowledge, "no",
           "GlobalKnowledge", "Servers see every PE's current memory load."),
    K_INT("netram", "managers", netram.managers, 1, 100000, "1", "managers", "Managers",
          "Number of managers of the BACKBONE strategy (at most computer.number)."),
    K_DBL("netram", "server_threshold", netram.server_threshold, 0, false,
          1e8, "0.1", "MB", "ServerThreshold",
          "Free RAM a server keeps: it lends only what is above this."),
    K_ENUM("netram", "packing", netram.packing, packing_names, "FIRSTFIT",
           "NetRamPacking", "Network RAM packing; unused, as in PNRSim."),
    K_ENUM("netram", "release", netram.release, release_names, "EXCESS", NULL,
           "At a thread's end its node frees: EXCESS = only network RAM beyond its "
           "remaining overallocation (report 5.1.3), ALL = the thread's whole grant."),
    K_ENUM("netram", "server_selection", netram.server_selection, selection_names,
           "RANDOM_WORSTFIT", NULL,
           "Server a manager asks next (report 5.2.2): RANDOM_WORSTFIT = most free RAM, "
           "ties at random; WORSTFIT = most free, ties to the lowest PE; BESTFIT = least "
           "free that covers the rest of the request (else most free), ties to the lowest "
           "PE; RANDOM = any with room."),

    K_ENUM("network", "topology", network.topology, topology_names, "STAR",
           "Network",
           "STAR = N links + 1 switch, BUS = 1 link, WHEEL = N + N/2 links + "
           "1 switch, CONNECTED = N(N-1) links."),
    K_DBL("network", "bandwidth", network.bandwidth, 1e-3, false, 1e6, "12.5", "MB/s",
          "Bandwidth", "Bandwidth of each link (MB = 10^6 bytes here)."),
    K_DBL("network", "latency", network.latency, 0, false, 1, "0.00000005", "s",
          "Latency", "Time for data to cross one link."),
    K_DBL("network", "delay", network.delay, 0, false, 1, "0.00008", "s", "Delay",
          "Time a switch takes to pass a packet on."),
    K_DBL("network", "neighbour_msg", network.neighbour_msg, 0, false, 1e9, "1024",
          "bytes", NULL, "Size of a neighbour (local communication) message."),
    K_DBL("network", "sync_msg", network.sync_msg, 0, false, 1e9, "64", "bytes",
          NULL, "Size of a synchronisation message."),
    K_DBL("network", "control_msg", network.control_msg, 0, false, 1e9, "64",
          "bytes", NULL, "Size of a PNR control message."),

    K_BOOL("output", "schedule", output.schedule, "no", NULL,
           "Also write schedule.csv, pes.csv and schedule.paje (same as --schedule)."),
};
#define N_KEYS (sizeof keys / sizeof keys[0])

/* ---------------------------------------------------------------------- */
/* Small helpers                                                           */
/* ---------------------------------------------------------------------- */

/* Pointer to the stored value of kd in c (const and non-const). */
static void *field(config *c, const key_def *kd)
{
    return (char *)c + kd->offset;
}

static const void *cfield(const config *c, const key_def *kd)
{
    return (const char *)c + kd->offset;
}

/* The stored value of an enum key, as int. */
static int get_enum(const config *c, const key_def *kd)
{
    int v;
    memcpy(&v, cfield(c, kd), sizeof v);
    return v;
}

/* The number of entries of a KT_STATUS key. */
static int get_count(const config *c, const key_def *kd)
{
    int n;
    memcpy(&n, (const char *)c + kd->count_offset, sizeof n);
    return n;
}

/* Number of names in a NULL-terminated list. */
static size_t n_names(const char *const *names)
{
    size_t n = 0;
    while (names[n])
        n++;
    return n;
}

/* s with leading and trailing whitespace removed, written into out (size n);
 * returns false when it does not fit. */
static bool trim_copy(char *out, size_t n, const char *s, size_t len)
{
    while (len > 0 && isspace((unsigned char)*s)) {
        s++;
        len--;
    }
    while (len > 0 && isspace((unsigned char)s[len - 1]))
        len--;
    if (len >= n)
        return false;
    memcpy(out, s, len);
    out[len] = '\0';
    return true;
}

/* Append formatted text to buf (size n, already holding a string),
 * truncating silently. */
static void appendf(char *buf, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void appendf(char *buf, size_t n, const char *fmt, ...)
{
    size_t used = strlen(buf);
    if (used + 1 >= n)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, n - used, fmt, ap);
    va_end(ap);
}

/* A value as quoted in a message: control characters become '?' and a value
 * longer than 80 characters is cut, with "..." appended. */
static void quote_value(char *out, size_t n, const char *s)
{
    size_t i = 0, limit = n - 4 < 80 ? n - 4 : 80;
    for (; s[i] && i < limit; i++)
        out[i] = iscntrl((unsigned char)s[i]) ? '?' : s[i];
    out[i] = '\0';
    if (s[i])
        strcat(out, "...");
}

/* The key named key in section (case-insensitive), or NULL. */
static const key_def *find_key(const char *section, const char *key)
{
    for (size_t i = 0; i < N_KEYS; i++)
        if (!strcasecmp(keys[i].section, section) && !strcasecmp(keys[i].key, key))
            return &keys[i];
    return NULL;
}

/* The canonical (lower-case) spelling of a section name, or NULL. */
static const char *find_section(const char *section)
{
    for (size_t i = 0; i < N_SECTIONS; i++)
        if (!strcasecmp(sections[i].name, section))
            return sections[i].name;
    return NULL;
}

/* The key whose PNRSim names include name (case-insensitive), or NULL. */
static const key_def *find_pnrsim(const char *name)
{
    size_t len = strlen(name);
    for (size_t i = 0; i < N_KEYS; i++) {
        const char *p = keys[i].pnrsim;
        while (p && *p) {
            size_t l = strcspn(p, "|");
            if (l == len && !strncasecmp(p, name, len))
                return &keys[i];
            p += l + (p[l] == '|');
        }
    }
    return NULL;
}

/* ---------------------------------------------------------------------- */
/* Error messages                                                          */
/* ---------------------------------------------------------------------- */

/* Where a value came from: a file line, or a --set argument. */
typedef struct where {
    const char *file;    /* NULL for --set */
    long line;
    const char *arg;     /* the --set argument */
    const char *alias;   /* the PNRSim name used, or NULL */
} where;

/* Start a structured error at w: where it happened, no key yet. */
static void error_at(cfg_error *e, const where *w)
{
    memset(e, 0, sizeof *e);
    if (w->file) {
        e->source = CFG_SRC_FILE;
        snprintf(e->file, sizeof e->file, "%s", w->file);
        e->line = w->line;
    } else {
        e->source = CFG_SRC_SET;
        snprintf(e->arg, sizeof e->arg, "%s", w->arg);
    }
}

/* Fill e: the problem at w, described by fmt (no key, value or why). */
static void fail(cfg_error *e, const where *w, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void fail(cfg_error *e, const where *w, const char *fmt, ...)
{
    if (!e)
        return;
    error_at(e, w);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->what, sizeof e->what, fmt, ap);
    va_end(ap);
}

void config_error_message(const cfg_error *e, char *buf, size_t n)
{
    switch (e->source) {
    case CFG_SRC_FILE:
        if (e->line > 0)
            snprintf(buf, n, "%s:%ld: %s", e->file, e->line, e->what);
        else
            snprintf(buf, n, "%s: %s", e->file, e->what);
        break;
    case CFG_SRC_VALIDATE:
        snprintf(buf, n, "configuration: %s", e->what);
        break;
    case CFG_SRC_SET:
    case CFG_SRC_TRACE:
    case CFG_SRC_SEED:
        snprintf(buf, n, "--set %.200s: %s", e->arg, e->what);
        break;
    }
}

/* The message of e into err (when err is not NULL); returns -1. */
static int to_text(const cfg_error *e, char err[CFG_ERR_MAX])
{
    if (err)
        config_error_message(e, err, CFG_ERR_MAX);
    return -1;
}

/* Name the key, the value (as quoted) and why in e. */
static void set_key(cfg_error *e, const key_def *kd, const char *quoted, const char *why)
{
    snprintf(e->key, sizeof e->key, "%s.%s", kd->section, kd->key);
    snprintf(e->value, sizeof e->value, "%s", quoted);
    snprintf(e->why, sizeof e->why, "%s", why);
}

/* Fill e with "[section] key = "value": <why>" (or, for a PNRSim name,
 * "<where>: Name = "value" ([section] key): <why>") into err. */
static void fail_value(cfg_error *e, const where *w, const key_def *kd,
                       const char *value, const char *why)
{
    if (!e)
        return;
    char q[96];
    quote_value(q, sizeof q, value);
    if (w->alias)
        fail(e, w, "%s = \"%s\" ([%s] %s): %s", w->alias, q, kd->section,
             kd->key, why);
    else
        fail(e, w, "[%s] %s = \"%s\": %s", kd->section, kd->key, q, why);
    set_key(e, kd, q, why);
}

/* "<where>: unknown section [x]; known sections: ..." */
static void fail_unknown_section(cfg_error *e, const where *w,
                                 const char *section)
{
    char q[96], list[256] = "";
    quote_value(q, sizeof q, section);
    for (size_t i = 0; i < N_SECTIONS; i++)
        appendf(list, sizeof list, "%s%s", i ? ", " : "", sections[i].name);
    fail(e, w, "unknown section [%s]; known sections: %s", q, list);
}

/* "<where>: unknown key "x" in [s]; known keys: ..." */
static void fail_unknown_key(cfg_error *e, const where *w,
                             const char *section, const char *key)
{
    char q[96], list[256] = "";
    quote_value(q, sizeof q, key);
    for (size_t i = 0; i < N_KEYS; i++)
        if (!strcmp(keys[i].section, section))
            appendf(list, sizeof list, "%s%s", list[0] ? ", " : "", keys[i].key);
    fail(e, w, "unknown key \"%s\" in [%s]; known keys: %s", q, section, list);
}

/* "<where>: unknown name "x"; known names: ..." (PNRSim files) */
static void fail_unknown_pnrsim(cfg_error *e, const where *w,
                                const char *name)
{
    char q[96], list[CFG_ERR_MAX] = "";
    quote_value(q, sizeof q, name);
    for (size_t i = 0; i < N_KEYS; i++)
        if (keys[i].pnrsim)
            appendf(list, sizeof list, "%s%.*s", list[0] ? ", " : "",
                    (int)strcspn(keys[i].pnrsim, "|"), keys[i].pnrsim);
    fail(e, w, "unknown name \"%s\"; known names: %s", q, list);
}

/* ---------------------------------------------------------------------- */
/* Values: describing, parsing, checking, formatting                       */
/* ---------------------------------------------------------------------- */

/* The largest value an integer key can hold: its table max or its type's. */
static double int_max(const key_def *kd)
{
    double tmax = kd->type == KT_INT ? (double)INT_MAX
                  : kd->type == KT_LONG ? (double)LONG_MAX
                                        : (double)INT_MAX;
    return kd->max < tmax ? kd->max : tmax;
}

/* What kd accepts, as a phrase ("a number > 0", "one of FCFS, BESTFIT"). */
static void describe_allowed(const key_def *kd, char *buf, size_t n)
{
    buf[0] = '\0';
    switch (kd->type) {
    case KT_STRING:
        snprintf(buf, n, "%stext of at most %zu characters, without ';'",
                 kd->min >= 1 ? "non-empty " : "", kd->size - 1);
        break;
    case KT_DOUBLE:
        if (kd->max == NOMAX)
            snprintf(buf, n, "a number %s %g", kd->min_open ? ">" : ">=", kd->min);
        else
            snprintf(buf, n, "%sa number %s %g and <= %g", kd->zero_off ? "0 or " : "",
                     kd->min_open ? ">" : ">=", kd->min, kd->max);
        break;
    case KT_INT:
    case KT_LONG:
        snprintf(buf, n, "an integer between %.0f and %.0f", kd->min, int_max(kd));
        break;
    case KT_U64:
        snprintf(buf, n, "an integer between 0 and %" PRIu64, UINT64_MAX);
        break;
    case KT_BOOL:
        snprintf(buf, n, "a boolean: yes, no, true, false, on, off, 1 or 0");
        break;
    case KT_ENUM:
        snprintf(buf, n, "one of ");
        for (size_t i = 0; kd->names[i]; i++)
            appendf(buf, n, "%s%s", i ? ", " : "", kd->names[i]);
        break;
    case KT_STATUS:
        snprintf(buf, n, "at most %zu comma-separated integers between %.0f and %.0f",
                 kd->size, kd->min, kd->max);
        break;
    }
}

/* Write "out of range: expected <allowed>" into why. */
static void why_range(const key_def *kd, char *why, size_t n)
{
    char allowed[160];
    describe_allowed(kd, allowed, sizeof allowed);
    snprintf(why, n, "out of range: expected %s", allowed);
}

/* Parse a decimal integer (optional sign, digits, nothing else). Returns 0,
 * -1 when malformed, -2 when it does not fit a long long. */
static int parse_ll(const char *s, long long *v)
{
    const char *p = s + (*s == '+' || *s == '-');
    if (!isdigit((unsigned char)*p))
        return -1;
    for (const char *q = p; *q; q++)
        if (!isdigit((unsigned char)*q))
            return -1;
    errno = 0;
    *v = strtoll(s, NULL, 10);
    return errno == ERANGE ? -2 : 0;
}

/* Parse a decimal number: [+-] digits [. digits] [e [+-] digits], at least
 * one digit in the mantissa; no hex, nan or inf. Returns 0, -1 when
 * malformed, -2 when its magnitude exceeds a double's. */
static int parse_number(const char *s, double *v)
{
    const char *p = s + (*s == '+' || *s == '-');
    int digits = 0;
    while (isdigit((unsigned char)*p)) {
        p++;
        digits++;
    }
    if (*p == '.')
        for (p++; isdigit((unsigned char)*p); p++)
            digits++;
    if (!digits)
        return -1;
    if (*p == 'e' || *p == 'E') {
        p++;
        p += (*p == '+' || *p == '-');
        if (!isdigit((unsigned char)*p))
            return -1;
        while (isdigit((unsigned char)*p))
            p++;
    }
    if (*p)
        return -1;
    errno = 0;
    *v = strtod(s, NULL);
    if (errno == ERANGE && fabs(*v) > 1.0)
        return -2;
    if (*v == 0)
        *v = 0.0; /* no -0 */
    return 0;
}

/* Parse a boolean word. Returns 0 and sets *v, or -1. */
static int parse_bool(const char *s, bool *v)
{
    static const char *const yes[] = {"yes", "true", "on", "1"};
    static const char *const no[] = {"no", "false", "off", "0"};
    for (size_t i = 0; i < 4; i++) {
        if (!strcasecmp(s, yes[i])) {
            *v = true;
            return 0;
        }
        if (!strcasecmp(s, no[i])) {
            *v = false;
            return 0;
        }
    }
    return -1;
}

/* Check the value of kd stored in c against the table. Returns 0, or -1 with
 * the problem in why ("out of range: expected ..."). */
static int check_stored(const key_def *kd, const config *c, char *why, size_t n)
{
    switch (kd->type) {
    case KT_STRING: {
        const char *s = cfield(c, kd);
        size_t len = strnlen(s, kd->size);
        if (len == kd->size) {
            snprintf(why, n, "too long: at most %zu characters", kd->size - 1);
            return -1;
        }
        if ((double)len < kd->min) {
            snprintf(why, n, "empty: expected a non-empty name");
            return -1;
        }
        for (size_t i = 0; i < len; i++)
            if (s[i] == ';' || iscntrl((unsigned char)s[i])) {
                snprintf(why, n, "must not contain ';' (it starts a comment) "
                                 "or control characters");
                return -1;
            }
        return 0;
    }
    case KT_DOUBLE: {
        double v = *(const double *)cfield(c, kd);
        if (kd->zero_off && v == 0)
            return 0;
        if (!isfinite(v) || (kd->min_open ? v <= kd->min : v < kd->min) ||
            v > kd->max) {
            why_range(kd, why, n);
            return -1;
        }
        if (v != 0 && fabs(v) < DBL_MIN) {
            /* Physically 0; a denormal would only slow arithmetic down. */
            snprintf(why, n, "subnormal number: expected 0 or a magnitude of at least %g",
                     DBL_MIN);
            return -1;
        }
        return 0;
    }
    case KT_INT:
    case KT_LONG: {
        double v = kd->type == KT_INT ? *(const int *)cfield(c, kd)
                                      : (double)*(const long *)cfield(c, kd);
        if (v < kd->min || v > int_max(kd)) {
            why_range(kd, why, n);
            return -1;
        }
        return 0;
    }
    case KT_U64:
    case KT_BOOL:
        return 0;
    case KT_ENUM: {
        int v = get_enum(c, kd);
        if (v < 0 || (size_t)v >= n_names(kd->names)) {
            char allowed[160];
            describe_allowed(kd, allowed, sizeof allowed);
            snprintf(why, n, "expected %s", allowed);
            return -1;
        }
        return 0;
    }
    case KT_STATUS: {
        int count = get_count(c, kd);
        const int *v = cfield(c, kd);
        if (count < 0 || (size_t)count > kd->size) {
            why_range(kd, why, n);
            return -1;
        }
        for (int i = 0; i < count; i++)
            if (v[i] < kd->min || v[i] > kd->max) {
                why_range(kd, why, n);
                return -1;
            }
        return 0;
    }
    }
    return 0;
}

/* Parse a list of comma-separated integers into kd's array in c ("" = no
 * entry). Returns 0, or -1 with the problem in why. */
static int parse_status_list(const key_def *kd, const char *text, config *c,
                             char *why, size_t n)
{
    int *v = field(c, kd);
    int count = 0;
    for (const char *p = text; *p;) {
        size_t len = strcspn(p, ",");
        char item[32];
        long long x = 0;
        int r = trim_copy(item, sizeof item, p, len) ? parse_ll(item, &x) : -1;
        if (r == -1) {
            snprintf(why, n, "malformed number: expected comma-separated integers");
            return -1;
        }
        if (r == -2 || x < kd->min || x > kd->max || (size_t)count >= kd->size) {
            why_range(kd, why, n);
            return -1;
        }
        v[count++] = (int)x;
        if (!p[len])
            break;
        p += len + 1;
        if (!*p) { /* trailing comma */
            snprintf(why, n, "malformed number: expected comma-separated integers");
            return -1;
        }
    }
    memcpy((char *)c + kd->count_offset, &count, sizeof count);
    return 0;
}

/* Parse text (already trimmed) as the value of kd and store it in c. Returns
 * 0, or -1 with the problem in why; the message classes are "malformed
 * number", "out of range", "expected one of", "expected a boolean", "too
 * long", "empty" and "must not contain". */
static int parse_value(const key_def *kd, const char *text, config *c, char *why,
                       size_t n)
{
    switch (kd->type) {
    case KT_STRING: {
        size_t len = strlen(text);
        if (len >= kd->size) {
            snprintf(why, n, "too long: at most %zu characters", kd->size - 1);
            return -1;
        }
        memcpy(field(c, kd), text, len + 1);
        break;
    }
    case KT_DOUBLE: {
        double v;
        int r = parse_number(text, &v);
        if (r == -1) {
            snprintf(why, n, "malformed number: expected a decimal number "
                             "such as 12.5 or 2.4e-07");
            return -1;
        }
        if (r == -2) {
            why_range(kd, why, n);
            return -1;
        }
        *(double *)field(c, kd) = v;
        break;
    }
    case KT_INT:
    case KT_LONG: {
        long long v;
        int r = parse_ll(text, &v);
        if (r == -1) {
            snprintf(why, n, "malformed number: expected an integer");
            return -1;
        }
        if (r == -2 || (double)v < kd->min || (double)v > int_max(kd)) {
            why_range(kd, why, n);
            return -1;
        }
        if (kd->type == KT_INT)
            *(int *)field(c, kd) = (int)v;
        else
            *(long *)field(c, kd) = (long)v;
        break;
    }
    case KT_U64: {
        long long dummy;
        int r = parse_ll(text, &dummy);
        if (r == -1) {
            snprintf(why, n, "malformed number: expected an integer");
            return -1;
        }
        errno = 0;
        unsigned long long v = strtoull(text, NULL, 10);
        if (text[0] == '-' || errno == ERANGE) {
            /* "-0" is 0; any other negative value is out of range */
            if (!(text[0] == '-' && v == 0 && errno != ERANGE)) {
                why_range(kd, why, n);
                return -1;
            }
        }
        *(uint64_t *)field(c, kd) = (uint64_t)v;
        break;
    }
    case KT_BOOL: {
        bool v;
        if (parse_bool(text, &v)) {
            char allowed[160];
            describe_allowed(kd, allowed, sizeof allowed);
            snprintf(why, n, "expected %s", allowed);
            return -1;
        }
        *(bool *)field(c, kd) = v;
        break;
    }
    case KT_ENUM: {
        int v = -1;
        for (int i = 0; kd->names[i]; i++)
            if (!strcasecmp(text, kd->names[i]))
                v = i;
        if (v < 0) {
            char allowed[160];
            describe_allowed(kd, allowed, sizeof allowed);
            snprintf(why, n, "expected %s", allowed);
            return -1;
        }
        memcpy(field(c, kd), &v, sizeof v);
        break;
    }
    case KT_STATUS:
        if (parse_status_list(kd, text, c, why, n))
            return -1;
        break;
    }
    return check_stored(kd, c, why, n);
}

/* Shortest text that reads back as exactly v: integral values of moderate
 * size without exponent, others with the fewest %g digits that round-trip. */
static void format_double(char *buf, size_t n, double v)
{
    if (v == floor(v) && fabs(v) < 1e15) {
        snprintf(buf, n, "%.0f", v);
        return;
    }
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

/* The stored value of kd in c as written in an INI file. */
static void format_value(const key_def *kd, const config *c, char *buf, size_t n)
{
    switch (kd->type) {
    case KT_STRING:
        snprintf(buf, n, "%.*s", (int)strnlen(cfield(c, kd), kd->size),
                 (const char *)cfield(c, kd));
        break;
    case KT_DOUBLE:
        format_double(buf, n, *(const double *)cfield(c, kd));
        break;
    case KT_INT:
        snprintf(buf, n, "%d", *(const int *)cfield(c, kd));
        break;
    case KT_LONG:
        snprintf(buf, n, "%ld", *(const long *)cfield(c, kd));
        break;
    case KT_U64:
        snprintf(buf, n, "%" PRIu64, *(const uint64_t *)cfield(c, kd));
        break;
    case KT_BOOL:
        snprintf(buf, n, "%s", *(const bool *)cfield(c, kd) ? "yes" : "no");
        break;
    case KT_ENUM: {
        int v = get_enum(c, kd);
        snprintf(buf, n, "%s",
                 v >= 0 && (size_t)v < n_names(kd->names) ? kd->names[v] : "?");
        break;
    }
    case KT_STATUS: {
        int count = get_count(c, kd);
        const int *v = cfield(c, kd);
        buf[0] = '\0';
        for (int i = 0; i < count && (size_t)i < kd->size; i++)
            appendf(buf, n, "%s%d", i ? "," : "", v[i]);
        break;
    }
    }
}

/* True when kd's values in a and b are equal. */
static bool value_equal(const key_def *kd, const config *a, const config *b)
{
    switch (kd->type) {
    case KT_STRING:
        return !strncmp(cfield(a, kd), cfield(b, kd), kd->size);
    case KT_DOUBLE:
        return *(const double *)cfield(a, kd) == *(const double *)cfield(b, kd);
    case KT_INT:
        return *(const int *)cfield(a, kd) == *(const int *)cfield(b, kd);
    case KT_LONG:
        return *(const long *)cfield(a, kd) == *(const long *)cfield(b, kd);
    case KT_U64:
        return *(const uint64_t *)cfield(a, kd) == *(const uint64_t *)cfield(b, kd);
    case KT_BOOL:
        return *(const bool *)cfield(a, kd) == *(const bool *)cfield(b, kd);
    case KT_ENUM:
        return get_enum(a, kd) == get_enum(b, kd);
    case KT_STATUS: {
        int na = get_count(a, kd), nb = get_count(b, kd);
        if (na != nb)
            return false;
        if (na < 0 || (size_t)na > kd->size)
            return true; /* equally broken */
        return !memcmp(cfield(a, kd), cfield(b, kd), (size_t)na * sizeof(int));
    }
    }
    return false;
}

/* Parse value for kd into *c and report a failure at w. */
static int apply(config *c, const key_def *kd, const char *value, const where *w,
                 cfg_error *e)
{
    char why[256];
    if (parse_value(kd, value, c, why, sizeof why)) {
        fail_value(e, w, kd, value, why);
        return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------------- */
/* Public: defaults, equality, names                                       */
/* ---------------------------------------------------------------------- */

/* Fill c with the defaults: the table's default texts, parsed. */
void config_defaults(config *c)
{
    memset(c, 0, sizeof *c);
    for (size_t i = 0; i < N_KEYS; i++) {
        char why[256];
        if (parse_value(&keys[i], keys[i].def, c, why, sizeof why)) {
            fprintf(stderr, "config: bad default for [%s] %s: %s\n",
                    keys[i].section, keys[i].key, why);
            abort();
        }
    }
}

/* True when every key of the table has the same value in a and b. */
bool config_equal(const config *a, const config *b)
{
    for (size_t i = 0; i < N_KEYS; i++)
        if (!value_equal(&keys[i], a, b))
            return false;
    return true;
}

/* names[v], or "?" when v is not a valid index. */
static const char *name_of(const char *const *names, int v)
{
    return v >= 0 && (size_t)v < n_names(names) ? names[v] : "?";
}

const char *config_priority_name(cfg_priority v) { return name_of(priority_names, (int)v); }
const char *config_packing_name(cfg_packing v) { return name_of(packing_names, (int)v); }
const char *config_strategy_name(cfg_strategy v) { return name_of(strategy_names, (int)v); }
const char *config_topology_name(cfg_topology v) { return name_of(topology_names, (int)v); }
const char *config_cpu_demand_name(cfg_cpu_demand v) { return name_of(cpu_demand_names, (int)v); }
const char *config_sched_type_name(cfg_sched_type v) { return name_of(sched_names, (int)v); }
const char *config_interval_name(cfg_interval v) { return name_of(interval_names, (int)v); }
const char *config_rotation_name(cfg_rotation v) { return name_of(rotation_names, (int)v); }
const char *config_mem_release_name(cfg_mem_release v) { return name_of(mem_release_names, (int)v); }
const char *config_estimate_name(cfg_estimate v) { return name_of(estimate_names, (int)v); }
const char *config_backfill_name(cfg_backfill v) { return name_of(backfill_names, (int)v); }

/* ---------------------------------------------------------------------- */
/* Reading a file whole                                                    */
/* ---------------------------------------------------------------------- */

/* Largest configuration file accepted: far more than every key with a full
 * path needs; it stops `-c /dev/zero` and the like from filling memory. */
#define CFG_FILE_MAX (1L << 20)

/* Read path whole into a new NUL-terminated buffer (*text, to free; *len
 * bytes before the NUL), with one pass over the file, so pipes and
 * process substitutions can be parsed after the format is detected.
 * 0, or -1 with e: "cannot open: ...", "is a directory, not a
 * configuration file", "larger than 1 MiB..." or "read error: ...". */
/* Fill e: a problem with the file at path as a whole (line 0). */
static void file_error(cfg_error *e, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void file_error(cfg_error *e, const char *path, const char *fmt, ...)
{
    if (!e)
        return;
    where w = {.file = path};
    error_at(e, &w);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->what, sizeof e->what, fmt, ap);
    va_end(ap);
}

static int read_whole(const char *path, char **text, size_t *len, cfg_error *e)
{
    *text = NULL;
    *len = 0;
    FILE *f = fopen(path, "r");
    struct stat st;
    if (!f) {
        file_error(e, path, "cannot open: %s", strerror(errno));
        return -1;
    }
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        file_error(e, path, "is a directory, not a configuration file");
        fclose(f);
        return -1;
    }
    size_t cap = 4096, n = 0;
    char *buf = xrealloc(NULL, cap);
    for (;;) {
        if (n + 1 >= cap) {
            cap *= 2;
            buf = xrealloc(buf, cap);
        }
        size_t got = fread(buf + n, 1, cap - 1 - n, f);
        n += got;
        if (n > (size_t)CFG_FILE_MAX) {
            file_error(e, path, "larger than 1 MiB: not a configuration file");
            free(buf);
            fclose(f);
            return -1;
        }
        if (got == 0 || feof(f) || ferror(f))
            break;
    }
    if (ferror(f)) {
        int err = errno ? errno : EIO;
        file_error(e, path, "read error: %s", strerror(err));
        free(buf);
        fclose(f);
        return -1;
    }
    fclose(f);
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return 0;
}

/* ---------------------------------------------------------------------- */
/* INI files through inih                                                  */
/* ---------------------------------------------------------------------- */

/* Longest line accepted in an INI file: room for a full trace path. */
#define INI_LINE_MAX 4096

typedef struct ini_state {
    config *c;               /* the scratch copy being filled */
    const char *pos, *end;   /* the rest of the file's text, in memory */
    where w;                 /* file and current line */
    long set_on[N_KEYS];     /* line where each key was set, 0 = not yet */
    bool failed;
    cfg_error *err;
} ini_state;

/* Check a [section] header line: well-formed and naming a known section.
 * Returns 0, or -1 with err filled. Other lines pass. */
static int check_header(ini_state *st, const char *line)
{
    const char *p = line;
    if (st->w.line == 1 && !strncmp(p, "\xEF\xBB\xBF", 3))
        p += 3;
    while (isspace((unsigned char)*p))
        p++;
    if (*p != '[')
        return 0;
    const char *end = strchr(p, ']');
    char name[128];
    if (!end) {
        fail(st->err, &st->w, "malformed section header: expected [SECTION]");
        return -1;
    }
    const char *rest = end + 1;
    while (isspace((unsigned char)*rest))
        rest++;
    if (*rest && *rest != ';' && *rest != '#') {
        fail(st->err, &st->w, "malformed section header: text after ']'");
        return -1;
    }
    if (!trim_copy(name, sizeof name, p + 1, (size_t)(end - p - 1)) ||
        !find_section(name)) {
        char shown[128];
        if (!trim_copy(shown, sizeof shown, p + 1, (size_t)(end - p - 1)))
            snprintf(shown, sizeof shown, "%.*s", 100, p + 1);
        fail_unknown_section(st->err, &st->w, shown);
        return -1;
    }
    return 0;
}

/* inih reader: hand over exactly one file line per call from the text in
 * memory, counting lines. Refuses (stopping the parse) lines that do not fit
 * inih's buffer of num bytes, lines with NUL bytes and bad section headers. */
static char *cfg_ini_reader(char *str, int num, void *stream)
{
    ini_state *st = stream;
    if (st->failed || st->pos >= st->end)
        return NULL;
    const char *nl = memchr(st->pos, '\n', (size_t)(st->end - st->pos));
    size_t n = nl ? (size_t)(nl - st->pos) + 1 : (size_t)(st->end - st->pos);
    const char *line = st->pos;
    st->pos += n;
    st->w.line++;
    if (memchr(line, '\0', n)) {
        fail(st->err, &st->w, "NUL byte in line");
        st->failed = true;
        return NULL;
    }
    if (n + 1 > (size_t)num) {
        fail(st->err, &st->w, "line too long: at most %d characters", num - 2);
        st->failed = true;
        return NULL;
    }
    memcpy(str, line, n);
    str[n] = '\0';
    if (check_header(st, str)) {
        st->failed = true;
        return NULL;
    }
    return str;
}

/* inih handler: one key = value of the current section. */
static int cfg_ini_handler(void *user, const char *section, const char *name,
                       const char *value)
{
    ini_state *st = user;
    char sec[128], key[128];
    if (st->failed)
        return 0;
    st->failed = true; /* until accepted */
    if (!trim_copy(key, sizeof key, name, strlen(name)))
        snprintf(key, sizeof key, "%.100s", name);
    if (!trim_copy(sec, sizeof sec, section, strlen(section)))
        snprintf(sec, sizeof sec, "%.100s", section);
    if (!sec[0]) {
        char q[96];
        quote_value(q, sizeof q, key);
        fail(st->err, &st->w, "key \"%s\" before any [section] header", q);
        return 0;
    }
    const char *canon = find_section(sec);
    if (!canon) {
        fail_unknown_section(st->err, &st->w, sec);
        return 0;
    }
    const key_def *kd = find_key(canon, key);
    if (!kd) {
        fail_unknown_key(st->err, &st->w, canon, key);
        return 0;
    }
    if (!value) {
        fail_value(st->err, &st->w, kd, "", "missing '=' and value");
        return 0;
    }
    size_t i = (size_t)(kd - keys);
    if (st->set_on[i]) {
        fail(st->err, &st->w, "[%s] %s set twice (first on line %ld)", kd->section,
             kd->key, st->set_on[i]);
        return 0;
    }
    if (apply(st->c, kd, value, &st->w, st->err))
        return 0;
    st->set_on[i] = st->w.line;
    st->failed = false;
    return 1;
}

/* inih's settings, saved around a parse. */
typedef struct ini_settings {
    int max_line;
    bool use_stack, multiline, inline_comments, stop_on_first_error, no_value,
        bom, realloc_;
    char *inline_prefixes, *start_prefixes;
} ini_settings;

/* Save inih's current settings. */
static ini_settings ini_settings_get(void)
{
    ini_settings s = {ini_max_line, ini_use_stack, ini_allow_multiline,
                      ini_allow_inline_comments, ini_stop_on_first_error,
                      ini_allow_no_value, ini_allow_bom, ini_allow_realloc,
                      ini_inline_comment_prefixes, ini_start_comment_prefixes};
    return s;
}

/* Install a set of inih settings. */
static void ini_settings_set(const ini_settings *s)
{
    ini_max_line = s->max_line;
    ini_use_stack = s->use_stack;
    ini_allow_multiline = s->multiline;
    ini_allow_inline_comments = s->inline_comments;
    ini_stop_on_first_error = s->stop_on_first_error;
    ini_allow_no_value = s->no_value;
    ini_allow_bom = s->bom;
    ini_allow_realloc = s->realloc_;
    ini_inline_comment_prefixes = s->inline_prefixes;
    ini_start_comment_prefixes = s->start_prefixes;
}

/* Parse INI text (len bytes, NUL-terminated) read from path onto *c; on
 * error *c is unchanged. 0 or -1 + e. */
static int parse_ini_text(config *c, const char *path, const char *text, size_t len,
                          cfg_error *err)
{
    static char inline_prefixes[] = ";";
    static char start_prefixes[] = ";#";
    config scratch = *c;
    ini_state st = {.c = &scratch, .pos = text, .end = text + len, .w = {.file = path},
                    .err = err};
    ini_settings saved = ini_settings_get();
    ini_settings mine = {INI_LINE_MAX, true,  false, true, true, false, true,
                         false,        inline_prefixes, start_prefixes};
    ini_settings_set(&mine);
    int r = ini_parse_stream(cfg_ini_reader, &st, cfg_ini_handler, &st);
    ini_settings_set(&saved);
    if (st.failed)
        return -1;
    if (r != 0) {
        where w = {.file = path, .line = r > 0 ? r : st.w.line};
        fail(err, &w, "malformed line: expected [SECTION], KEY = VALUE or a comment");
        return -1;
    }
    *c = scratch;
    return 0;
}

/* Read an INI file onto *c; on error *c is unchanged. */
int config_load_ini(config *c, const char *path, char err[CFG_ERR_MAX])
{
    char *text;
    size_t len;
    cfg_error e;
    if (read_whole(path, &text, &len, &e) != 0)
        return to_text(&e, err);
    int rc = parse_ini_text(c, path, text, len, &e);
    free(text);
    return rc ? to_text(&e, err) : 0;
}

/* ---------------------------------------------------------------------- */
/* PNRSim's "Name value" files                                             */
/* ---------------------------------------------------------------------- */

/* Parse PNRSim "Name value" text (len bytes, NUL-terminated, modified in
 * place) read from path onto *c; on error *c is unchanged. 0 or -1 + e. */
static int parse_pnrsim_text(config *c, const char *path, char *text, size_t len,
                             cfg_error *err)
{
    config scratch = *c;
    long set_on[N_KEYS] = {0};
    char *pos = text, *text_end = text + len;
    where w = {.file = path};
    int rc = 0;
    while (rc == 0 && pos < text_end) {
        char *line = pos, *nl = memchr(pos, '\n', (size_t)(text_end - pos));
        size_t n = nl ? (size_t)(nl - pos) : (size_t)(text_end - pos);
        pos += n + (nl != NULL);
        line[n] = '\0'; /* the newline, or the terminating NUL */
        w.line++;
        char *p = line;
        if (strlen(line) != n) {
            fail(err, &w, "NUL byte in line");
            rc = -1;
            break;
        }
        if (w.line == 1 && !strncmp(p, "\xEF\xBB\xBF", 3))
            p += 3;
        p[strcspn(p, "#;")] = '\0'; /* comments start anywhere */
        while (isspace((unsigned char)*p))
            p++;
        if (!*p)
            continue;
        char *name = p;
        while (*p && !isspace((unsigned char)*p))
            p++;
        char *value = p;
        if (*p)
            *value++ = '\0';
        while (isspace((unsigned char)*value))
            value++;
        char *end = value + strlen(value);
        while (end > value && isspace((unsigned char)end[-1]))
            *--end = '\0';
        const key_def *kd = find_pnrsim(name);
        if (!kd) {
            fail_unknown_pnrsim(err, &w, name);
            rc = -1;
            break;
        }
        w.alias = name;
        size_t i = (size_t)(kd - keys);
        if (!*value) {
            fail_value(err, &w, kd, value, "missing value");
            rc = -1;
        } else if (value[strcspn(value, " \t\r\n\v\f")]) {
            fail_value(err, &w, kd, value, "expected one value, without whitespace");
            rc = -1;
        } else if (set_on[i]) {
            fail(err, &w, "%s ([%s] %s) set twice (first on line %ld)", name,
                 kd->section, kd->key, set_on[i]);
            rc = -1;
        } else {
            rc = apply(&scratch, kd, value, &w, err);
            set_on[i] = w.line;
        }
        w.alias = NULL;
    }
    if (rc == 0)
        *c = scratch;
    return rc;
}

/* Read a PNRSim file onto *c; on error *c is unchanged. */
int config_load_pnrsim(config *c, const char *path, char err[CFG_ERR_MAX])
{
    char *text;
    size_t len;
    cfg_error e;
    if (read_whole(path, &text, &len, &e) != 0)
        return to_text(&e, err);
    int rc = parse_pnrsim_text(c, path, text, len, &e);
    free(text);
    return rc ? to_text(&e, err) : 0;
}

/* ---------------------------------------------------------------------- */
/* Format detection, --set, validation                                     */
/* ---------------------------------------------------------------------- */

/* Read a file, INI when its first significant line starts with '['. The
 * file is read once, so a pipe (-c /dev/stdin, -c <(...)) is detected and
 * parsed from the same bytes. */
int config_load_e(config *c, const char *path, cfg_error *err)
{
    char *text;
    size_t len;
    if (read_whole(path, &text, &len, err) != 0)
        return -1;
    bool ini = false;
    const char *p = text, *stop = text + len;
    if (len >= 3 && !strncmp(p, "\xEF\xBB\xBF", 3))
        p += 3;
    while (p < stop) {
        while (p < stop && isspace((unsigned char)*p))
            p++;
        if (p < stop && (*p == '#' || *p == ';')) {
            const char *nl = memchr(p, '\n', (size_t)(stop - p));
            p = nl ? nl + 1 : stop;
            continue;
        }
        ini = p < stop && *p == '[';
        break;
    }
    int rc = ini ? parse_ini_text(c, path, text, len, err)
                 : parse_pnrsim_text(c, path, text, len, err);
    free(text);
    return rc;
}

int config_load(config *c, const char *path, char err[CFG_ERR_MAX])
{
    cfg_error e;
    return config_load_e(c, path, &e) ? to_text(&e, err) : 0;
}

/* Apply "section.key=value"; on error *c is unchanged. */
int config_set_e(config *c, const char *assignment, cfg_error *err)
{
    where w = {.arg = assignment};
    const char *eq = strchr(assignment, '=');
    const char *dot = eq ? memchr(assignment, '.', (size_t)(eq - assignment)) : NULL;
    char sec[128], key[128], value[CFG_PATH_MAX + 1];
    if (!eq || !dot || !trim_copy(sec, sizeof sec, assignment, (size_t)(dot - assignment)) ||
        !trim_copy(key, sizeof key, dot + 1, (size_t)(eq - dot - 1)) || !sec[0] ||
        !key[0]) {
        fail(err, &w, "expected SECTION.KEY=VALUE");
        return -1;
    }
    const char *canon = find_section(sec);
    if (!canon) {
        fail_unknown_section(err, &w, sec);
        return -1;
    }
    const key_def *kd = find_key(canon, key);
    if (!kd) {
        fail_unknown_key(err, &w, canon, key);
        return -1;
    }
    if (!trim_copy(value, sizeof value, eq + 1, strlen(eq + 1))) {
        char why[128];
        snprintf(why, sizeof why, "too long: at most %zu characters",
                 kd->type == KT_STRING ? kd->size - 1 : sizeof value - 1);
        fail_value(err, &w, kd, eq + 1, why);
        return -1;
    }
    config scratch = *c;
    if (apply(&scratch, kd, value, &w, err))
        return -1;
    *c = scratch;
    return 0;
}

int config_set(config *c, const char *assignment, char err[CFG_ERR_MAX])
{
    cfg_error e;
    return config_set_e(c, assignment, &e) ? to_text(&e, err) : 0;
}

/* Fill e: a problem of the whole configuration with key (section.key),
 * its value as shown and why, described by fmt. */
static void fail_config(cfg_error *e, const char *key, const char *value,
                        const char *why, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void fail_config(cfg_error *e, const char *key, const char *value,
                        const char *why, const char *fmt, ...)
{
    if (!e)
        return;
    memset(e, 0, sizeof *e);
    e->source = CFG_SRC_VALIDATE;
    snprintf(e->key, sizeof e->key, "%s", key);
    snprintf(e->value, sizeof e->value, "%s", value);
    snprintf(e->why, sizeof e->why, "%s", why);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->what, sizeof e->what, fmt, ap);
    va_end(ap);
}

/* Fill e: a cross-key rule broken, blaming [section] key = value (unit
 * appended in the message), why described by fmt. Returns -1. */
static int fail_cross(cfg_error *e, const char *section, const char *key,
                      const char *value, const char *unit, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static int fail_cross(cfg_error *e, const char *section, const char *key,
                      const char *value, const char *unit, const char *fmt, ...)
{
    char why[CFG_ERR_MAX], k[80];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    snprintf(k, sizeof k, "%s.%s", section, key);
    fail_config(e, k, value, why, "[%s] %s = %s%s %s", section, key, value, unit, why);
    return -1;
}

/* Every stored value within its key's limits, then the cross-key rules. */
int config_validate_e(const config *c, cfg_error *err)
{
    for (size_t i = 0; i < N_KEYS; i++) {
        char why[256], shown[128];
        if (check_stored(&keys[i], c, why, sizeof why)) {
            if (keys[i].type == KT_STRING)
                snprintf(shown, sizeof shown, "%.80s",
                         (const char *)cfield(c, &keys[i]));
            else
                format_value(&keys[i], c, shown, sizeof shown);
            char q[96], key[80];
            quote_value(q, sizeof q, shown);
            snprintf(key, sizeof key, "%s.%s", keys[i].section, keys[i].key);
            fail_config(err, key, q, why, "[%s] %s = \"%s\": %s", keys[i].section,
                        keys[i].key, q, why);
            return -1;
        }
    }
    /* The cross-key rules: each blames its first key, whose value it
     * shows (with the unit, where the message gives one). */
    char v[64];
    if (c->netram.strategy == PNR_BACKBONE && c->netram.managers > c->computer.number) {
        snprintf(v, sizeof v, "%d", c->netram.managers);
        return fail_cross(err, "netram", "managers", v, "",
                          "exceeds [computer] number = %d: the BACKBONE strategy "
                          "needs 1 <= managers <= number", c->computer.number);
    }
    if (c->workload.submit_max > 0 && c->workload.submit_max < c->workload.submit_min) {
        snprintf(v, sizeof v, "%g", c->workload.submit_max);
        return fail_cross(err, "workload", "submit_max", v, "",
                          "is below submit_min = %g: expected submit_max >= "
                          "submit_min (or 0 = no bound)", c->workload.submit_min);
    }
    if (c->workload.window > 0 && c->workload.max_jobs <= 0) {
        snprintf(v, sizeof v, "%ld", c->workload.window);
        return fail_cross(err, "workload", "window", v, "",
                          "%s", "needs max_jobs > 0 (a window is max_jobs jobs "
                          "long): set max_jobs or window = 0");
    }
    if (c->scheduler.pcs >= c->scheduler.quantum) {
        snprintf(v, sizeof v, "%g", c->scheduler.pcs);
        return fail_cross(err, "scheduler", "pcs", v, "",
                          "is not below quantum = %g: a time slice would be all "
                          "context switch", c->scheduler.quantum);
    }
    if (c->netram.enabled && c->netram.server_threshold >= c->computer.ram) {
        snprintf(v, sizeof v, "%g", c->netram.server_threshold);
        return fail_cross(err, "netram", "server_threshold", v, " MB",
                          "is not below [computer] ram = %g MB: no server could "
                          "ever lend RAM", c->computer.ram);
    }
    return 0;
}

int config_validate(const config *c, char err[CFG_ERR_MAX])
{
    cfg_error e;
    return config_validate_e(c, &e) ? to_text(&e, err) : 0;
}

/* ---------------------------------------------------------------------- */
/* Writing                                                                 */
/* ---------------------------------------------------------------------- */

/* The allowed values of kd, tersely, for the comment above it. */
static void describe_terse(const key_def *kd, char *buf, size_t n)
{
    switch (kd->type) {
    case KT_DOUBLE:
        if (kd->max == NOMAX)
            snprintf(buf, n, "%s %g", kd->min_open ? ">" : ">=", kd->min);
        else
            snprintf(buf, n, "%s%g %s x <= %g", kd->zero_off ? "0 or " : "", kd->min,
                     kd->min_open ? "<" : "<=", kd->max);
        break;
    case KT_INT:
    case KT_LONG:
        if (kd->max == NOMAX)
            snprintf(buf, n, "integer >= %.0f", kd->min);
        else
            snprintf(buf, n, "integer %.0f..%.0f", kd->min, kd->max);
        break;
    case KT_U64:
        snprintf(buf, n, "integer >= 0");
        break;
    case KT_BOOL:
        snprintf(buf, n, "yes or no");
        break;
    case KT_STRING:
        snprintf(buf, n, "at most %zu characters", kd->size - 1);
        break;
    case KT_ENUM:
        buf[0] = '\0';
        for (size_t i = 0; kd->names[i]; i++)
            appendf(buf, n, "%s%s", i ? " | " : "", kd->names[i]);
        break;
    case KT_STATUS:
        snprintf(buf, n, "%.0f..%.0f, at most %zu", kd->min, kd->max, kd->size);
        break;
    }
}

/* Every key, by section, each under a comment with its unit and limits. */
void config_write_ini(const config *c, FILE *out)
{
    fprintf(out, "; pnrsim configuration: every key, with its unit and allowed values.\n"
                 "; Units: s = simulated seconds, MB = 2^20 bytes of memory, MB/s =\n"
                 "; 10^6 bytes/s. Section, key and enum names are case-insensitive;\n"
                 "; ';' starts a comment.\n");
    for (size_t s = 0; s < N_SECTIONS; s++) {
        fprintf(out, "\n; %s\n[%s]\n", sections[s].comment, sections[s].name);
        for (size_t i = 0; i < N_KEYS; i++) {
            const key_def *kd = &keys[i];
            if (strcmp(kd->section, sections[s].name))
                continue;
            char allowed[160], value[CFG_PATH_MAX + 64];
            describe_terse(kd, allowed, sizeof allowed);
            format_value(kd, c, value, sizeof value);
            fprintf(out, "; %s [%s%s%s]\n", kd->comment, kd->unit,
                    kd->unit[0] ? "; " : "", allowed);
            fprintf(out, "%s =%s%s\n", kd->key, value[0] ? " " : "", value);
        }
    }
}
