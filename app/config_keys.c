/* app/config_keys.c: the table of every configuration key, and lookup in
 * it by section and key.
 *
 * One table, cfg_keys, describes every parameter: its INI section and key,
 * its C type and place in struct config, the allowed range or names (the
 * lists of app/config_names.c), its default (as text, exactly as
 * configs/reference.ini writes it), its unit, a one-line comment and its
 * PNRSim name(s). Everything else is driven by it: config_defaults parses
 * the default texts, the three readers (INI files, PNRSim "Name value"
 * files, --set) look keys up in it and parse values with one function
 * (app/config_value.c), config_validate re-checks stored values against it,
 * and config_write_ini (--print-config) writes it back with units and
 * comments. So reference.ini, the parsers and the printed configuration
 * cannot disagree about names, ranges or units; the tests check that
 * configs/reference.ini loads to exactly config_defaults.
 *
 * In the configuration module's layers (app/config.h) this file is above
 * app/config_names.c only.
 */
#include "app/config_keys.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define FIELD(f) (((config *)0)->f)
/* Offsets, checked against the field's type at compile time. */
#define OFF_T(f, T) _Generic(FIELD(f), T: offsetof(config, f))
#define OFF_ENUM(f)                                                            \
    (offsetof(config, f) + 0 * sizeof(char[sizeof(FIELD(f)) == sizeof(int) ? 1 : -1]))

#define K_STR(sec, k, f, minlen, def, unit, pnr, text)                         \
    {sec, k, KT_STRING, OFF_T(f, char *), sizeof(FIELD(f)), 0, minlen, NOMAX,   \
     false, NULL, def, unit, text, pnr, false, NULL, NULL, 0, false}
/* Numbers: every one has a finite range [lo, hi] ((lo, hi] when open), so
 * that nonsense (denormals, 1e300) is refused; reference.ini gives each
 * range's rationale. K_DBL0 also accepts exactly 0, meaning "off". */
#define K_DBL(sec, k, f, lo, open, hi, def, unit, pnr, text)                   \
    {sec, k, KT_DOUBLE, OFF_T(f, double), 0, 0, lo, hi, open, NULL, def,       \
     unit, text, pnr, false, NULL, NULL, 0, false}
#define K_DBL0(sec, k, f, lo, hi, def, unit, pnr, text)                        \
    {sec, k, KT_DOUBLE, OFF_T(f, double), 0, 0, lo, hi, false, NULL, def,      \
     unit, text, pnr, true, NULL, NULL, 0, false}
/* A string with its own check (key_def.validate) and description. */
#define K_STRX(sec, k, f, minlen, def, unit, validate, allowed, text)             \
    {sec, k, KT_STRING, OFF_T(f, char *), sizeof(FIELD(f)), 0, minlen, NOMAX,   \
     false, NULL, def, unit, text, NULL, false, validate, allowed, 0, false}
/* A time (KT_TIME): seconds, or a number with a unit s, m, h, d. */
#define K_TIME(sec, k, f, lo, hi, def, text)                                   \
    {sec, k, KT_TIME, OFF_T(f, double), 0, 0, lo, hi, false, NULL, def, "s",   \
     text, NULL, false, NULL, NULL, 0, false}
#define K_INT(sec, k, f, lo, hi, def, unit, pnr, text)                         \
    {sec, k, KT_INT, OFF_T(f, int), 0, 0, lo, hi, false, NULL, def, unit,      \
     text, pnr, false, NULL, NULL, 0, false}
#define K_LONG(sec, k, f, lo, hi, def, unit, pnr, text)                        \
    {sec, k, KT_LONG, OFF_T(f, long), 0, 0, lo, hi, false, NULL, def, unit,    \
     text, pnr, false, NULL, NULL, 0, false}
#define K_U64(sec, k, f, def, unit, pnr, text)                                 \
    {sec, k, KT_U64, OFF_T(f, uint64_t), 0, 0, 0, NOMAX, false, NULL, def,     \
     unit, text, pnr, false, NULL, NULL, 0, false}
#define K_BOOL(sec, k, f, def, pnr, text)                                      \
    {sec, k, KT_BOOL, OFF_T(f, bool), 0, 0, 0, 1, false, NULL, def, "",        \
     text, pnr, false, NULL, NULL, 0, false}
#define K_ENUM(sec, k, f, names, def, pnr, text)                               \
    {sec, k, KT_ENUM, OFF_ENUM(f), 0, 0, 0, NOMAX, false, names, def, "",      \
     text, pnr, false, NULL, NULL, 0, false}
/* A component of the registry (core/registry.h): stored as its index in
 * its kind (an int), read and written by name; the names are the
 * registry's, built-in and plugins' alike. */
#define K_COMP(sec, k, f, kind, def, pnr, text)                                \
    {sec, k, KT_ENUM, OFF_T(f, int), 0, 0, 0, NOMAX, false, NULL, def, "",      \
     text, pnr, false, NULL, NULL, 1 + (kind), false}

const char *const *key_names(const key_def *kd)
{
    return kd->component ? pnrsim_names((pnrsim_kind)(kd->component - 1)) : kd->names;
}

const cfg_section cfg_sections[] = {
    {"simulation", "Run control: length, sampling, randomness."},
    {"workload", "The SWF trace and how its records become jobs."},
    {"process", "Behaviour of every thread of every job."},
    {"scheduler", "The gang scheduler."},
    {"computer", "Each of the identical PEs: CPU, RAM, disk."},
    {"netram", "Parallel network RAM (PNR)."},
    {"network", "Links, switches and message sizes."},
    {"output", "Optional result files (besides metrics, jobs.csv and samples.csv)."},
};
const size_t cfg_nsections = sizeof cfg_sections / sizeof cfg_sections[0];

static const key_def builtin_keys[] = {
    K_STR("simulation", "system", simulation.system, 1, "pnrsim", "text",
          "System", "Name of the simulated system, used in output only."),
    K_DBL("simulation", "max_time", simulation.max_time, 0, false, 1e12, "0", "s",
          "Maxtime", "Simulated time at which the run stops; 0 = no limit."),
    K_DBL("simulation", "metrics_period", simulation.metrics_period, 1e-3, false,
          1e12, "3600", "s", "MetricsPeriod",
          "Simulated time between metric samples (progress lines follow wall time: "
          "[output] progress_interval)."),
    K_U64("simulation", "seed", simulation.seed, "1", "", "Seed",
          "Master random seed; 0 = seeded from the clock (not reproducible)."),
    K_ENUM("simulation", "generator", simulation.generator, cfg_generator_names, "XOSHIRO256SS",
           NULL,
           "Random-number generator of every stream: XOSHIRO256SS (xoshiro256**, "
           "ziggurat exponentials; fast, 48 bytes a stream) or MT19937 (GSL's Mersenne "
           "Twister and distributions: the results of releases before this key)."),
    K_DBL("simulation", "bsld_tau", simulation.bsld_tau, 0, true, 1e7, "10", "s",
          NULL, "Bounded-slowdown threshold: shorter runtimes count as this long."),
    K_LONG("simulation", "max_samples", simulation.max_samples, 0, 1e9, "1000000",
           "rows", NULL,
           "Most rows samples.csv gets, most samples pes.csv gets (--schedule; a row per PE or "
           "group of PEs each); later ones are counted, not written; "
           "0 = no cap."),
    K_DBL0("simulation", "max_event_rate", simulation.max_event_rate, 1e3, 1e12,
           "1000000", "events/s/core", NULL,
           "Stop a run whose events per simulated second exceed this many per core "
           "(x computer.number + memory_servers: a memory server counts as one core); "
           "0 = no guard."),
    K_LONG("simulation", "max_messages", simulation.max_messages, 0, 1e6, "1000",
           "messages/core", NULL,
           "Stop a run (saturated network) when more than this many messages per core are on "
           "the network at once (sent, not yet arrived): the cap is max_messages x "
           "(computer.number + memory_servers), cores, not nodes; 0 = no guard."),

    K_STR("workload", "trace", workload.trace, 0, "", "path", NULL,
          "SWF trace (.swf or .swf.gz); empty = none, - = standard input."),
    K_ENUM("workload", "cpu_demand", workload.cpu_demand, cfg_cpu_demand_names,
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
    K_TIME("workload", "busiest", workload.busiest, 0, 1e12, "0",
          "Replay the trace's busiest window of this length by offered load (sum of "
          "procs x runtime submitted in it / (PEs x length)), inside submit_min..submit_max: "
          "sets submit_min and submit_max to it (config.ini keeps them); 0 = off."),
    {"workload", "exclude_status", KT_STATUS,
     offsetof(config, workload.exclude_status) +
         0 * sizeof(char[_Generic(FIELD(workload.exclude_status), int *: 1)]),
     CFG_MAX_STATUS, OFF_T(workload.n_exclude_status, int), -1, 5, false, NULL,
     "", "SWF status codes", "Drop jobs with these statuses (field 11), "
     "comma-separated; empty = keep all.", NULL, false, NULL, NULL, 0, false},
    K_BOOL("workload", "lenient", workload.lenient, "no", NULL,
           "Skip (and count) malformed trace lines instead of stopping."),
    K_ENUM("workload", "estimate", workload.estimate, cfg_estimate_names, "REQUESTED", NULL,
           "A job's run-time estimate (backfilling, SJF...): REQUESTED = SWF field 9 when "
           "> 0, else the job's CPU demand; RUNTIME = its CPU demand (exact estimates)."),
    K_DBL("workload", "estimate_scale", workload.estimate_scale, 0, true, 1e6, "1", "factor", NULL,
          "Multiplies every estimate (never how long a job runs)."),
    K_DBL("workload", "limit_factor", workload.limit_factor, 0, true, 1e6, "1", "factor", NULL,
          "scheduler.time_limit = KILL: a job is killed when its run clock reaches this "
          "times its requested time (SWF field 9; grace as a factor, 1 = none)."),
    K_ENUM("workload", "memory_profile", workload.memory_profile, cfg_mem_profile_names,
           "CONSTANT", NULL,
           "How a thread's memory changes while it runs: CONSTANT = its whole size from its "
           "start to its end (the report); RAMP = grows from memory_start to it; PHASES = "
           "alternates memory_low and it. Admission charges the whole size."),
    K_DBL("workload", "memory_start", workload.memory_start, 0, false, 1, "0.1",
          "fraction of the size", NULL,
          "RAMP: a thread's memory at its start, as a fraction of its size."),
    K_INT("workload", "memory_steps", workload.memory_steps, 1, 1000000, "10", "steps", NULL,
          "RAMP: equal steps from memory_start up to the whole size."),
    K_DBL("workload", "ramp_share", workload.ramp_share, 0, true, 1, "0.5",
          "fraction of the CPU demand", NULL,
          "RAMP: the steps span this first part of a thread's CPU demand."),
    K_DBL("workload", "memory_low", workload.memory_low, 0, false, 1, "0.35",
          "fraction of the size", NULL,
          "PHASES: a thread's memory outside its peaks, as a fraction of its size."),
    K_DBL("workload", "peak_share", workload.peak_share, 0, true, 1, "0.1",
          "fraction of the period", NULL,
          "PHASES: the last peak_share of every memory_period is at the whole size."),
    K_TIME("workload", "memory_period", workload.memory_period, 1e-3, 1e9, "600",
           "PHASES: CPU seconds of one low + peak cycle of a thread's memory."),

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
    K_ENUM("process", "interval", process.interval, cfg_interval_names, "FIXED", NULL,
           "Neighbour and synchronisation intervals: FIXED = exactly comm_rate / "
           "sync_rate CPU s, EXPONENTIAL = exponential with that mean."),
    K_ENUM("process", "mem_release", process.mem_release, cfg_mem_release_names,
           "JOB", NULL,
           "When a thread's memory is freed: THREAD = when it ends, JOB = when its "
           "job's last thread ends."),
    K_ENUM("process", "paging", process.paging, cfg_paging_names, "EXACT", NULL,
           "Page faults: EXACT = each fault its own events (a disk service or a page "
           "out and in over the network, then a CPU burst); BATCHED = a thread's "
           "consecutive faults, disk or network RAM, run as one step up to its next "
           "interaction, with batched page messages counted, not sent, and their "
           "contention with other traffic modelled (faster; what differs and the "
           "evidence: docs/BATCHING.md)."),
    K_ENUM("process", "fault_model", process.fault_model, cfg_fault_model_names, "REPORT", NULL,
           "A thread's fault rate (issue 33): REPORT = the report's model (mem_access_rate, "
           "techreport 4.1.5); CURVE = a measured LRU miss curve per job (fault_curve, "
           "fault_curves): faults per CPU second misses(f x F) / cpu_seconds at local "
           "fraction f (docs/MODEL.md \"Fault model CURVE\")."),
    K_STR("process", "fault_curve", process.fault_curve, 0, "", "path", NULL,
          "fault_model = CURVE: the curve file (format: docs/MODEL.md \"Measured fault "
          "curves\") of every job that fault_curves does not map; relative to the file "
          "that sets it; empty = none (then every job must be mapped)."),
    K_STRX("process", "fault_curves", process.fault_curves, 0, "", "APP:FILE, ...",
           cfg_check_curves, "empty, or APP:FILE items separated by commas",
           "fault_model = CURVE: curves by application number (SWF field 14), APP:FILE "
           "separated by commas (e.g. 1:hpcc.curve, 7:sort.curve); each FILE relative to "
           "the file that sets the key; empty = none."),
    K_DBL("process", "dirty_fraction", process.dirty_fraction, 0, false, 1, "0", "", NULL,
          "Fraction of the pages evicted at faults served by the swap device that are "
          "dirty and written back first (the n-th fault of a node writes when floor(n f) "
          "> floor((n-1) f); of a thread, with dirty_fractions), FIFO on the device before "
          "the read, nobody waiting for it as such; 0 = none (the report)."),
    K_STRX("process", "dirty_fractions", process.dirty_fractions, 0, "", "APP:F, ...",
           cfg_check_dirty, "empty, or APP:F items separated by commas",
           "Dirty fractions by application number (SWF field 14), APP:F separated by commas "
           "(e.g. 1:0.5, 7:0.25), F in [0, 1]; jobs not mapped take dirty_fraction. When set, "
           "each thread counts its own evictions (its n-th is dirty when floor(n F) > "
           "floor((n-1) F)); empty = none (the node's count)."),
    K_ENUM("process", "loop_schedule", process.loop_schedule, cfg_loop_names, "NONE", NULL,
           "How each interval's work (between synchronisations; the whole demand without "
           "them) is divided among a job's threads as loop_iterations iterations per thread "
           "(issue 36, docs/MODEL.md \"Load imbalance inside jobs\"): NONE = every thread "
           "does its demand (the report's model); STATIC = n consecutive iterations each; "
           "SS = one at a time from a shared queue; GSS = ceil(left / threads); FAC = "
           "factoring (FAC2: batches of one chunk per thread, each left / (2 threads)); WF = "
           "FAC weighted by the nodes' speeds; AWF = weights from each thread's measured "
           "rate in the last interval."),
    K_DBL("process", "imbalance", process.imbalance, 0, false, 100, "0", "CV", NULL,
          "Coefficient of variation of a thread's demand between synchronisations (its "
          "STATIC share: the iterations are gamma of mean 1 and CV imbalance x "
          "sqrt(loop_iterations); each interval's total kept at threads x its length); "
          "0 = all equal. Needs loop_schedule."),
    K_DBL("process", "chunk_overhead", process.chunk_overhead, 0, false, 1e6, "0", "s CPU",
          NULL, "CPU seconds a thread spends taking each chunk of iterations (the "
          "scheduling overhead h); with loop_schedule."),
    K_LONG("process", "loop_iterations", process.loop_iterations, 1, 100000, "100",
           "per thread", NULL,
           "Iterations per thread in an interval (with loop_schedule): an interval of a job "
           "of p threads has loop_iterations x p."),

    K_ENUM("scheduler", "type", scheduler.type, cfg_sched_names, "GANG",
           "Scheduler", "Scheduler: GANG (time and space sharing) is the only one."),
    K_COMP("scheduler", "priority", scheduler.priority, PNRSIM_KIND_PRIORITY, "FCFS",
           "Priority",
           "Queue order: FCFS = arrival, BESTFIT = widest job first, "
           "WORSTFIT = narrowest first, SJF/LJF = shortest/longest estimate, "
           "SAF/LAF = smallest/largest threads x estimate, WFP3, UNICEP, F1, "
           "MULTIFACTOR = weighted age, size, fair share and wait (weight_* keys) "
           "(docs/SCHEDULING.md); ties by trace order."),
    K_COMP("scheduler", "packing", scheduler.packing, PNRSIM_KIND_PACKING, "FIRSTFIT",
           "Packing",
           "Slot for a new job: FIRSTFIT = first that fits, BESTFIT = fewest "
           "free PEs, WORSTFIT = most free PEs."),
    K_INT("scheduler", "mpl", scheduler.mpl, 0, 10000, "1", "slots", "MPL",
          "Multiprogramming level (time slots); 0 = unlimited, 1 = space sharing only."),
    K_DBL("scheduler", "pcs", scheduler.pcs, 0, false, 3600, "0.004", "s", "PCS",
          "Overhead of one parallel context switch."),
    K_DBL("scheduler", "quantum", scheduler.quantum, 1e-3, false, 1e6, "60", "s",
          "Quantum", "Length of a time slice."),
    K_ENUM("scheduler", "mem_aware", scheduler.mem_aware, cfg_mem_aware_names, "NO", "MemAware",
           "Queue a job whose memory does not fit, even if PEs are free: NO; LOCAL (or "
           "yes) = each thread must fit its PE's free RAM; GLOBAL = or what its threads "
           "would overallocate fits the network RAM still available in the cluster."),
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
    K_COMP("scheduler", "backfill", scheduler.backfill, PNRSIM_KIND_BACKFILL, "NONE", NULL,
           "Backfilling: NONE, EASY (reservation for the first job that does not fit), "
           "CONSERVATIVE (a reservation for every job); docs/SCHEDULING.md."),
    K_STRX("scheduler", "reservations", scheduler.reservations, 1, "all", "jobs",
           cfg_check_reservations, "all, or a whole number from 1 to 1000000",
           "backfill = CONSERVATIVE: how many of the queued jobs that cannot start get a "
           "reservation at each pass, the first N in queue order (Maui's RESERVATIONDEPTH, "
           "JuFo's top dogs); later jobs start only where they fit for their whole "
           "estimate beside those; all = every one (conservative backfilling), 1 = EASY's "
           "rule; docs/SCHEDULING.md."),
    K_ENUM("scheduler", "node_sharing", scheduler.node_sharing, cfg_node_sharing_names,
           "SHARED", NULL,
           "Node allocation (issue 25): SHARED = a job gets cores, other jobs may use the "
           "other cores of its nodes; EXCLUSIVE = a job gets whole nodes in its slot, "
           "ceil(threads / cores_per_node) of them, the unused cores idle (counted)."),
    K_COMP("scheduler", "allocation", scheduler.allocation, PNRSIM_KIND_ALLOCATION,
           "FIRSTFREE", NULL,
           "Cores a job gets in its slot (issue 34, sched/allocation.h): FIRSTFREE (or "
           "LOWEST) = the lowest-numbered free cores (whole nodes under EXCLUSIVE) that "
           "mem_aware allows; CONTIGUOUS = the first run of consecutive free cores (nodes); "
           "RACK = the fewest racks of a TREE network, the tightest first; MC1X1 = PReMAS's "
           "MC1x1, the nearest cores in hops from the best centre (docs/SCHEDULING.md "
           "\"Placement\"); plugins add others (docs/PLUGINS.md). With any but FIRSTFREE, "
           "jobs.csv and metrics.json report racks spanned, mean pairwise hops and uplink "
           "bytes (docs/METRICS.md \"Placement\")."),
    K_ENUM("scheduler", "time_limit", scheduler.time_limit, cfg_time_limit_names, "IGNORE", NULL,
           "A job that reaches its requested time (SWF field 9) x workload.limit_factor: "
           "IGNORE = runs on (the report); KILL = is killed then, its cores, RAM and "
           "network RAM freed (jobs.csv state killed; its run clock leaves out the time "
           "gang slicing had it descheduled; jobs without field 9 are never killed; "
           "docs/SCHEDULING.md)."),
    K_DBL("scheduler", "weight_age", scheduler.weight_age, 0, false, 1e9, "0", "", NULL,
           "priority = MULTIFACTOR: weight of the age factor, min(wait so far, max_age) / "
           "max_age (Slurm's PriorityWeightAge); docs/SCHEDULING.md."),
    K_DBL("scheduler", "weight_size", scheduler.weight_size, 0, false, 1e9, "0", "", NULL,
           "priority = MULTIFACTOR: weight of the size factor, cores / the machine's cores "
           "(Slurm's PriorityWeightJobSize, wide jobs first)."),
    K_DBL("scheduler", "weight_fairshare", scheduler.weight_fairshare, 0, false, 1e9, "0", "",
           NULL,
           "priority = MULTIFACTOR: weight of the fair-share factor 2^(-U/S), U the "
           "account's share of the decayed usage, S = 1 / accounts seen (Slurm's "
           "PriorityWeightFairshare, classic formula)."),
    K_DBL("scheduler", "weight_wait", scheduler.weight_wait, 0, false, 1e9, "0", "", NULL,
           "priority = MULTIFACTOR: weight of the wait factor w / (w + estimate), w the "
           "wait so far (1 - 1 / Maui's expansion factor: short jobs that waited long rise)."),
    K_TIME("scheduler", "max_age", scheduler.max_age, 1, 1e12, "604800",
           "priority = MULTIFACTOR: the wait at which the age factor reaches 1 (Slurm's "
           "PriorityMaxAge; default 7 days)."),
    K_TIME("scheduler", "fairshare_half_life", scheduler.fairshare_half_life, 0, 1e12,
           "604800",
           "priority = MULTIFACTOR: half-life of the usage decay (Slurm's "
           "PriorityDecayHalfLife; default 7 days); 0 = usage never decays."),
    K_ENUM("scheduler", "fairshare_by", scheduler.fairshare_by, cfg_fairshare_by_names,
           "user", NULL,
           "priority = MULTIFACTOR: fair-share accounts by SWF user (field 12) or group "
           "(field 13); -1 (unknown) is one account."),
    K_INT("scheduler", "max_running_per_user", scheduler.max_running_per_user, 0, 1000000,
          "0", "jobs", NULL,
          "Per-user limit (SWF field 12): at most this many placed jobs per user; a job "
          "over it waits, skipped by the pass, with jobs.csv reason limit:running_per_user "
          "(Slurm's MaxJobsPerUser); 0 = no limit."),
    K_INT("scheduler", "max_cores_per_user", scheduler.max_cores_per_user, 0, 100000000, "0",
          "cores", NULL,
          "Per-user limit: at most this many cores held by a user's placed jobs; a job "
          "that would exceed it waits (reason limit:cores_per_user; Slurm's "
          "MaxTRESPerUser=cpu); 0 = no limit."),

    K_STR("computer", "name", computer.name, 1, "Node", "text", "Computer",
          "Base name of the PEs (a number is appended), used in output only."),
    K_INT("computer", "number", computer.number, 1, 100000, "64", "PEs", "Number",
          "Number of PEs (identical computers): cores, a trace's processors; a "
          "multiple of cores_per_node."),
    K_INT("computer", "cores_per_node", computer.cores_per_node, 1, 4096, "1", "cores", NULL,
          "Cores per node (issue 25): the C cores of a node share its RAM, disk and "
          "network link; each core runs one thread at a time. Node of core k: k / C. "
          "1 = PNRSim's PE (one core per node)."),
    K_DBL("computer", "cpu", computer.cpu, 0, false, 1e12, "1000", "unused", "CPU",
          "CPU speed; unused, as in PNRSim."),
    K_DBL("computer", "fault_cpu", computer.fault_cpu, 0, false, 1, "0", "s", NULL,
          "Software path of every page fault (trap, swap-in path, wake-up): CPU time of "
          "the faulting thread's core, before the disk, SSD or network RAM serves it; "
          "counted in the fault's service time; 0 = none (issue 33)."),
    {"computer", "ram", KT_RAM, OFF_T(computer.ram, double), 0, 0, 0.01, 1e8, false,
     NULL, "32", "MB", "Physical RAM of each node (per node, shared by its cores_per_node "
     "cores; a PE with 1 core per node); or groups in node order, COUNTxMB separated by "
     "commas (e.g. 200x1024, 40x4096), whose counts (nodes) add up to number / cores_per_node.",
     "RAM", false, NULL, NULL, 0, false},
    K_DBL("computer", "rpm", computer.rpm, 100, false, 1e5, "7200", "rev/min", "RPM",
          "Disk rotation speed (one swap disk per node)."),
    K_DBL("computer", "seek", computer.seek, 0, false, 1, "0.009", "s", "Seek",
          "Average disk seek time (one swap disk per node)."),
    K_DBL("computer", "transfer", computer.transfer, 0.01, false, 1e5, "50", "MB/s",
          "Transfer", "Disk transfer rate (MB = 10^6 bytes here; one swap disk per node)."),
    K_ENUM("computer", "rotation", computer.rotation, cfg_rotation_names, "HALF", NULL,
           "Rotational delay of a disk access: HALF = half a revolution "
           "(30/rpm s), FULL = a whole one (60/rpm s)."),
    K_ENUM("computer", "swap", computer.swap, cfg_swap_names, "DISK", NULL,
           "Swap device of each node (shared by its cores): DISK = seek + rotation + "
           "transfer (seek, rpm, transfer, rotation), one access at a time; SSD = ssd_latency + page / "
           "ssd_bandwidth, ssd_parallelism accesses at once, FIFO."),
    K_DBL("computer", "ssd_latency", computer.ssd_latency, 0, true, 1, "0.000085", "s", NULL,
          "SSD: fixed access latency of a page (one SSD per node; swap = SSD)."),
    K_DBL("computer", "ssd_bandwidth", computer.ssd_bandwidth, 0.01, false, 1e7, "3200", "MB/s",
          NULL, "SSD: transfer bandwidth (MB = 10^6 bytes here; one SSD per node; swap = SSD)."),
    K_INT("computer", "ssd_parallelism", computer.ssd_parallelism, 1, 100000, "24",
          "requests", NULL, "SSD: page accesses served at once per node; more wait FIFO (swap = SSD)."),
    K_DBL0("computer", "ssd_write_latency", computer.ssd_write_latency, 1e-9, 1, "0", "s",
           NULL, "SSD: fixed latency of a page write (a dirty page's write-back, "
           "process.dirty_fraction); 0 = ssd_latency (swap = SSD)."),
    K_DBL0("computer", "ssd_write_bandwidth", computer.ssd_write_bandwidth, 0.01, 1e7, "0",
           "MB/s", NULL, "SSD: write bandwidth (MB = 10^6 bytes here); 0 = ssd_bandwidth "
           "(swap = SSD)."),
K_INT("computer", "memory_servers", computer.memory_servers, 0, 100000, "0", "nodes",
          NULL, "Memory servers: nodes numbered after the compute nodes that run no "
          "threads and only lend their RAM as network RAM; 0 = none."),
    K_DBL("computer", "memory_server_ram", computer.memory_server_ram, 0.01, false, 1e8,
          "1024", "MB", NULL, "RAM of each memory server (per server node)."),
    {"computer", "speed", KT_SPEED, OFF_T(computer.speed, double), 0, 0, 1e-3, 1000, false,
     NULL, "1", "factor", "CPU speed of each node relative to the trace's machine (issue 35): "
     "a thread needs demand / speed s of CPU on it (disk, network and fault service times "
     "unchanged); or groups in node order, COUNTxSPEED separated by commas (e.g. 120x1.0, "
     "120x2.0), whose counts (nodes) add up to number / cores_per_node. 1 = the trace's speed; "
     "at least 0.001 (a thousand times slower: below, a trace's seconds overflow any run).",
     NULL, false, NULL, NULL, 0, false},

    K_BOOL("netram", "enabled", netram.enabled, "no", "Netram",
           "Use parallel network RAM."),
    K_COMP("netram", "strategy", netram.strategy, PNRSIM_KIND_STRATEGY, "CENTRAL",
           "PNRStrategy",
           "CENTRAL = one manager, CLIENT = no manager, MANAGER = elected local "
           "managers, BACKBONE = a fixed set of managers."),
    K_BOOL("netram", "global_knowledge", netram.global_knowledge, "no",
           "GlobalKnowledge", "Servers see every PE's current memory load."),
    K_INT("netram", "managers", netram.managers, 1, 100000, "1", "managers", "Managers",
          "Number of managers of the BACKBONE strategy (at most the number of nodes, computer.number / cores_per_node)."),
    K_DBL("netram", "server_threshold", netram.server_threshold, 0, false,
          1e8, "0.1", "MB", "ServerThreshold",
          "Free RAM a server keeps: it lends only what is above this."),
    K_ENUM("netram", "packing", netram.packing, cfg_packing_names, "FIRSTFIT",
           "NetRamPacking", "Network RAM packing; unused, as in PNRSim."),
    K_ENUM("netram", "release", netram.release, cfg_release_names, "EXCESS", NULL,
           "At a thread's end its node frees: EXCESS = only network RAM beyond its "
           "remaining overallocation (report 5.1.3), ALL = the thread's whole grant."),
    K_ENUM("netram", "server_selection", netram.server_selection, cfg_selection_names,
           "RANDOM_WORSTFIT", NULL,
           "Server a manager asks next (report 5.2.2): RANDOM_WORSTFIT = most free RAM, "
           "ties at random; WORSTFIT = most free, ties to the lowest PE; BESTFIT = least "
           "free that covers the rest of the request (else most free), ties to the lowest "
           "PE; RANDOM = any with room."),
K_DBL("netram", "access_latency", netram.access_latency, 0, false, 1, "0", "s", NULL,
          "Fixed extra time of every remote page access (a device behind the network: "
          "CXL pool, RDMA NIC), added when the page is back; 0 = none."),
    K_DBL("netram", "message_cpu", netram.message_cpu, 0, false, 1, "0", "s", NULL,
          "transport = MESSAGES: CPU time of one page message at each end: the faulting "
          "core sends its PAGE_OUT and receives its PAGE_IN, the server's node receives "
          "the one and sends the other; 0 = none (issue 33)."),
    K_DBL("netram", "server_cpu", netram.server_cpu, 0, false, 1, "0", "s", NULL,
          "transport = MESSAGES: CPU time of the server's node per page request, taken "
          "from a core of that node like an interrupt (an idle core first, else it "
          "delays the thread computing there); 0 = none (issue 33)."),
    K_ENUM("netram", "locality", netram.locality, cfg_locality_names, "NONE", NULL,
           "NONE = servers anywhere; RACK = a manager asks servers in the racks of the "
           "requesting threads first, then the others (needs network.topology = TREE)."),
    K_ENUM("netram", "transport", netram.transport, cfg_transport_names, "MESSAGES", NULL,
           "How pages move to network RAM: MESSAGES = PAGE_OUT/PAGE_IN messages the "
           "server's agent answers (report 5.4); RDMA = one-sided RDMA READ of the page "
           "(the thread waits) and WRITE of the evicted page (nobody waits), no server agent."),
    K_DBL("netram", "rdma_latency", netram.rdma_latency, 0, false, 1, "2e-6", "s", NULL,
          "transport = RDMA: NIC-to-NIC latency of one operation (wire and NIC "
          "processing), added once at its end; the default is illustrative."),
    K_ENUM("netram", "rdma_read", netram.rdma_read, cfg_rdma_read_names, "ONE_WAY", NULL,
           "transport = RDMA: ONE_WAY = a READ is its page crossing server -> client "
           "(the request inside rdma_latency); ROUND_TRIP = a control_msg-sized request "
           "client -> server, then the page back; rdma_latency is added at its end in "
           "both."),
    K_ENUM("netram", "reclaim", netram.reclaim, cfg_reclaim_names, "NONE", NULL,
           "A lender whose own threads overallocate it takes its memory back: NONE = "
           "never (PNRSim); SWAP = the borrowers' pages go to their swap devices; "
           "REPLACE = the borrowers ask for it again elsewhere (on swap until granted)."),


    K_ENUM("network", "topology", network.topology, cfg_topology_names, "STAR",
           "Network",
           "STAR = N links + 1 switch, BUS = 1 link, WHEEL = N + N/2 links + "
           "1 switch, CONNECTED = N(N-1) links, TREE = racks of rack_size nodes on "
           "top-of-rack switches joined by a core switch over uplinks."),
    K_INT("network", "rack_size", network.rack_size, 1, 100000, "32", "nodes", NULL,
          "TREE: nodes per rack (compute node p is in rack p / rack_size; with one "
          "core per node a node is a PE); a rack_size of number / cores_per_node or "
          "more puts every compute node in one rack (accepted)."),
    K_ENUM("network", "memory_server_placement", network.memory_server_placement,
           cfg_placement_names, "SPREAD", NULL,
           "TREE: memory servers SPREAD over the compute racks (server k in rack k mod "
           "compute racks) or in RACKS of their own after them."),
    K_DBL0("network", "uplink_bandwidth", network.uplink_bandwidth, 1e-3, 1e6, "0",
           "MB/s", NULL, "TREE: bandwidth of each rack's uplink to the core switch; "
           "0 = the link bandwidth."),
    K_DBL("network", "uplink_latency", network.uplink_latency, 0, false, 1, "0.00000005",
          "s", NULL, "TREE: time for data to cross an uplink."),
    K_DBL("network", "bandwidth", network.bandwidth, 1e-3, false, 1e6, "12.5", "MB/s",
          "Bandwidth", "Bandwidth of each link (one link per node; MB = 10^6 bytes here)."),
    K_DBL("network", "latency", network.latency, 0, false, 1, "0.00000005", "s",
          "Latency", "Time for data to cross one link (one link per node)."),
    K_DBL("network", "delay", network.delay, 0, false, 1, "0.00008", "s", "Delay",
          "Time a switch takes to pass a packet on."),
    K_ENUM("network", "route", network.route, cfg_route_names, "HOPS", NULL,
           "How a message crosses its route (issue 11): HOPS = element by element, "
           "the report's model (exact); WHOLE = a message whose route is idle when "
           "sent takes it as one step, each element reserved for its busy "
           "interval, and a later message reaching a reserved element waits "
           "behind it (docs/MODEL.md: where it differs, and the equivalence table)."),
    K_DBL("network", "neighbour_msg", network.neighbour_msg, 0, false, 1e9, "1024",
          "bytes", NULL, "Size of a neighbour (local communication) message."),
    K_DBL("network", "sync_msg", network.sync_msg, 0, false, 1e9, "64", "bytes",
          NULL, "Size of a synchronisation message."),
    K_DBL("network", "control_msg", network.control_msg, 0, false, 1e9, "64",
          "bytes", NULL, "Size of a PNR control message."),

    K_ENUM("output", "schedule", output.schedule, cfg_schedule_names, "no", NULL,
           "Also write schedule.csv, pes.csv, memory.csv and paging.csv (same as "
           "--schedule); gz = gzipped, named *.csv.gz (--schedule=gz); no Paje trace "
           "(see paje)."),
    K_BOOL("output", "schedule_network", output.schedule_network, "yes", NULL,
           "With paje: put every link and switch into the Paje trace (a container "
           "each, busy while a message holds it); no = PEs, jobs and memory only."),
    K_STRX("output", "paje", output.paje, 1, "no", "file name", cfg_check_paje,
           "no, yes or NAME.paje[.gz]",
           "Write the Paje trace (same as --paje[=NAME]): no; yes = schedule.paje; or a "
           "file name in the output directory ending in .paje, or .paje.gz (gzipped)."),
    K_TIME("output", "schedule_from", output.schedule_from, 0, 1e12, "0",
           "Start of the window of the schedule files and the Paje trace (simulated "
           "time: seconds, or a number with a unit s, m, h or d: 384300, 100h, 2d)."),
    K_TIME("output", "schedule_to", output.schedule_to, 0, 1e12, "0",
           "End of that window (a time as schedule_from; after it); 0 = the end of "
           "the run."),
    K_DBL0("output", "progress_interval", output.progress_interval, 1e-3, 1e6, "60", "s",
           NULL, "When standard error is not a terminal: wall seconds between two progress "
           "lines (elapsed time, share of the trace's submit span done, events/s, time "
           "left); 0 = none. On a terminal one line is rewritten in place instead; -q: "
           "nothing."),
};
#define NBUILTIN (sizeof builtin_keys / sizeof builtin_keys[0])
_Static_assert(NBUILTIN + PNRSIM_MAX_KEYS <= CFG_MAX_KEYS, "raise CFG_MAX_KEYS");

/* The table in use: the built-in keys alone, or (once a plugin declared
 * keys) plugin_table, the built-in keys followed by the plugins' in
 * registration order. A key's index (kd - cfg_keys, the index of
 * struct config's origin arrays) is the same in both. */
const key_def *cfg_keys = builtin_keys;
size_t cfg_nkeys = NBUILTIN;
size_t cfg_nbuiltin = NBUILTIN;
static key_def plugin_table[NBUILTIN + PNRSIM_MAX_KEYS];
static char plugin_defaults[PNRSIM_MAX_KEYS][32];

/* v as the shortest %g text that reads back as v, into buf (n bytes). */
static void shortest_g(char *buf, size_t n, double v)
{
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

void cfg_keys_sync(void)
{
    int nk = pnrsim_nkeys();
    if (nk == 0) {
        cfg_keys = builtin_keys;
        cfg_nkeys = NBUILTIN;
        return;
    }
    memcpy(plugin_table, builtin_keys, sizeof builtin_keys);
    for (int h = 0; h < nk; h++) {
        const pnrsim_key *k = pnrsim_key_at(h);
        key_def *kd = &plugin_table[NBUILTIN + (size_t)h];
        memset(kd, 0, sizeof *kd);
        shortest_g(plugin_defaults[h], sizeof plugin_defaults[h], k->def);
        kd->section = k->section;
        kd->key = k->key;
        kd->type = KT_DOUBLE;
        kd->offset = offsetof(config, plugin_values) + (size_t)h * sizeof(double);
        kd->min = k->min;
        kd->max = k->max;
        kd->def = plugin_defaults[h];
        kd->unit = k->unit;
        kd->comment = k->comment;
        kd->whole = k->type == PNRSIM_KEY_INT;
    }
    cfg_keys = plugin_table;
    cfg_nkeys = NBUILTIN + (size_t)nk;
}

int cfg_check_paje(const char *text, char *why, size_t n)
{
    static const char *const words[] = {"no", "yes", "true", "false", "on", "off", "1", "0"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (!strcasecmp(text, words[i]))
            return 0;
    size_t len = strlen(text);
    const char *end = len >= 8 && !strcmp(text + len - 8, ".paje.gz") ? text + len - 8
                      : len >= 5 && !strcmp(text + len - 5, ".paje")   ? text + len - 5
                                                                       : NULL;
    if (strchr(text, '/'))
        snprintf(why, n, "a file name with '/': expected no, yes, or a plain file name "
                         "in the output directory ending in .paje or .paje.gz");
    else if (!end)
        snprintf(why, n, "expected no, yes, or a file name ending in .paje or .paje.gz "
                         "(gzipped)");
    else if (end == text)
        snprintf(why, n, "no name before %s: expected no, yes, or a file name such as "
                         "run%s", text, text);
    else
        return 0;
    return -1;
}

/* The item of an APP:... list at s (blanks before it skipped, *s not NUL)
 * up to the next comma (*end): its application number *app (a whole
 * number 0..1e15) and its ':' (*colon, blanks allowed before it); 0, or
 * -1 when it does not start so. */
static int app_item(const char *s, const char **end, const char **colon, long *app)
{
    *end = strchr(s, ',');
    if (!*end)
        *end = s + strlen(s);
    *colon = memchr(s, ':', (size_t)(*end - s));
    const char *d = s;
    long v = 0;
    while (d < *end && *d >= '0' && *d <= '9' && v <= 1000000000000000L)
        v = v * 10 + (*d++ - '0');
    const char *q = d;
    while (q < *end && (*q == ' ' || *q == '\t'))
        q++;
    if (d == s || !*colon || q != *colon || v > 1000000000000000L)
        return -1;
    *app = v;
    return 0;
}

/* Past an item ending at end: *p moved after its comma; -1 (why) when
 * only blanks follow that comma (what: the item's form). */
static int past_item(const char **p, const char *end, const char *what, char *why, size_t wn)
{
    *p = *end ? end + 1 : end;
    if (*end && !end[1 + strspn(end + 1, " \t")]) {
        snprintf(why, wn, "a comma with no item after it: expected %s after each comma", what);
        return -1;
    }
    return 1;
}

/* Blanks skipped at *p: the item's start, or NULL at the end. */
static const char *item_start(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return *p ? p : NULL;
}

int cfg_curves_next(const char **p, long *app, char *file, size_t n, char *why, size_t wn)
{
    const char *s = item_start(*p), *end, *colon;
    if (!s)
        return 0;
    long v;
    if (app_item(s, &end, &colon, &v) != 0) {
        snprintf(why, wn, "item \"%.*s\": expected APP:FILE, APP an application number "
                 "(SWF field 14: a whole number 0..1e15)", (int)(end - s > 60 ? 60 : end - s), s);
        return -1;
    }
    const char *f = colon + 1, *fe = end;
    while (f < fe && (*f == ' ' || *f == '\t'))
        f++;
    while (fe > f && (fe[-1] == ' ' || fe[-1] == '\t'))
        fe--;
    if (fe == f || (size_t)(fe - f) >= n) {
        snprintf(why, wn, "item \"%.*s\": %s", (int)(end - s > 60 ? 60 : end - s), s,
                 fe == f ? "no file after ':': expected APP:FILE" : "file name too long");
        return -1;
    }
    memcpy(file, f, (size_t)(fe - f));
    file[fe - f] = '\0';
    *app = v;
    return past_item(p, end, "APP:FILE", why, wn);
}

int cfg_dirty_next(const char **p, long *app, double *f, char *why, size_t wn)
{
    const char *s = item_start(*p), *end, *colon;
    if (!s)
        return 0;
    long v;
    size_t il = strcspn(s, ",");
    int len = (int)(il > 60 ? 60 : il);
    if (app_item(s, &end, &colon, &v) != 0) {
        snprintf(why, wn, "item \"%.*s\": expected APP:F, APP an application number (SWF "
                 "field 14: a whole number 0..1e15), F a fraction in [0, 1]", len, s);
        return -1;
    }
    /* F: a plain decimal number (strtod's hex, inf and nan refused), in
     * [0, 1], blanks around it. */
    char num[64];
    const char *a = colon + 1, *b = end;
    while (a < b && (*a == ' ' || *a == '\t'))
        a++;
    while (b > a && (b[-1] == ' ' || b[-1] == '\t'))
        b--;
    size_t nl = (size_t)(b - a);
    char *stop = num;
    double x = -1;
    if (nl > 0 && nl < sizeof num && strspn(a, "0123456789.eE+-") >= nl) {
        memcpy(num, a, nl);
        num[nl] = '\0';
        x = strtod(num, &stop);
    }
    if (nl == 0 || stop != num + nl) {
        snprintf(why, wn, "item \"%.*s\": %s", len, s,
                 nl == 0 ? "no fraction after ':': expected APP:F, F a number in [0, 1]"
                 : nl >= sizeof num ? "fraction too long: expected a number in [0, 1] of "
                                      "at most 63 characters"
                                    : "malformed fraction: expected APP:F, F a number in [0, 1]");
        return -1;
    }
    if (!(x >= 0 && x <= 1) || (x > 0 && x < DBL_MIN)) {
        snprintf(why, wn, "item \"%.*s\": fraction %s: expected a number >= 0 and <= 1",
                 len, s, x > 0 && x < DBL_MIN ? "subnormal" : "out of range");
        return -1;
    }
    *app = v;
    *f = x;
    return past_item(p, end, "APP:F", why, wn);
}

int cfg_check_curves(const char *text, char *why, size_t n)
{
    char file[CFG_PATH_MAX];
    long apps[CFG_CURVES_MAX], a;
    int napps = 0, r;
    const char *p = text;
    while ((r = cfg_curves_next(&p, &a, file, sizeof file, why, n)) == 1) {
        for (int i = 0; i < napps; i++)
            if (apps[i] == a) {
                snprintf(why, n, "application %ld mapped twice: expected one curve per "
                         "application number", a);
                return -1;
            }
        if (napps == CFG_CURVES_MAX) {
            snprintf(why, n, "more than %d items", CFG_CURVES_MAX);
            return -1;
        }
        apps[napps++] = a;
    }
    return r;
}

int cfg_reservations(const char *text)
{
    if (!strcasecmp(text, "all"))
        return 0;
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < 1 || v > 1000000 || !isdigit((unsigned char)text[0]))
        return -1;
    return (int)v;
}

int cfg_check_reservations(const char *text, char *why, size_t n)
{
    if (cfg_reservations(text) >= 0)
        return 0;
    snprintf(why, n, "expected all, or a whole number from 1 to 1000000");
    return -1;
}

int cfg_check_dirty(const char *text, char *why, size_t n)
{
    long apps[CFG_DIRTY_MAX], a;
    double f;
    int napps = 0, r;
    const char *p = text;
    while ((r = cfg_dirty_next(&p, &a, &f, why, n)) == 1) {
        for (int i = 0; i < napps; i++)
            if (apps[i] == a) {
                snprintf(why, n, "application %ld mapped twice: expected one fraction per "
                         "application number", a);
                return -1;
            }
        if (napps == CFG_DIRTY_MAX) {
            snprintf(why, n, "more than %d items: expected at most %d APP:F items "
                     "(one per application number)", CFG_DIRTY_MAX, CFG_DIRTY_MAX);
            return -1;
        }
        apps[napps++] = a;
    }
    return r;
}

double cfg_dirty_max(const char *text, double dflt)
{
    double m = dflt, f;
    long a;
    char why[CFG_ERR_MAX];
    for (const char *p = text; cfg_dirty_next(&p, &a, &f, why, sizeof why) == 1;)
        if (f > m)
            m = f;
    return m;
}

/* The key named key in section (case-insensitive), or NULL. */
const key_def *cfg_find_key(const char *section, const char *key)
{
    for (size_t i = 0; i < cfg_nkeys; i++)
        if (!strcasecmp(cfg_keys[i].section, section) && !strcasecmp(cfg_keys[i].key, key))
            return &cfg_keys[i];
    return NULL;
}

/* The canonical (lower-case) spelling of a section name, or NULL. */
const char *cfg_find_section(const char *section)
{
    for (size_t i = 0; i < cfg_nsections; i++)
        if (!strcasecmp(cfg_sections[i].name, section))
            return cfg_sections[i].name;
    if (!strcasecmp(section, CFG_PLUGINS_SECTION))
        return CFG_PLUGINS_SECTION;
    for (size_t i = NBUILTIN; i < cfg_nkeys; i++)
        if (!strcasecmp(cfg_keys[i].section, section))
            return cfg_keys[i].section;
    return NULL;
}
