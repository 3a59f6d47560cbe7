/* app/run_metrics.h: the metrics of one run (struct run_metrics), a
 * types-only header. app/run.c fills it (run_metrics_get); app/output.c
 * writes it (text report, metrics.json, metrics.dat) and sits below run.c
 * in app/'s layers, so the type lives here, where both can see it without
 * output.c naming the run. Means over no jobs (and rates over no time) are
 * NAN: undefined, written as n/a or null.
 */
#ifndef PNRSIM_APP_RUN_METRICS_H
#define PNRSIM_APP_RUN_METRICS_H

#include "app/workload.h"
#include "pnr/pnr.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The metrics of techreport §2.2.2 (in its order), then extras. */
typedef struct run_metrics {
    double total_time;            /* s */
    long jobs_finished;
    double throughput;            /* jobs/s */
    double cpu_utilization;       /* 0..1, mean over PEs */
    double page_faults_per_pe;
    double page_fault_time_per_pe;/* s */
    double comm_busy_time;        /* s, summed over links and switches */
    double mem_alloc_mean, mem_alloc_sd;   /* MB, over PEs of time averages */
    double disk_alloc_mean, disk_alloc_sd; /* MB */
    double response_time_mean, wait_time_mean, execution_time_mean; /* s */
    double slowdown_mean, bounded_slowdown_mean;
    int mpl_max;
    double mpl_mean;
    long pcs_count;
    /* extras */
    /* mean over finished jobs of max(1, response / max(T_ded, bsld_tau)),
     * T_ded the dedicated run time (issue 37, docs/METRICS.md) */
    double bounded_slowdown_dedicated_mean;
    uint64_t seed;
    /* provenance, filled by the caller (app/main.c), not by run_metrics_get:
     * the command line (NULL: written as ""), the trace's SHA-256 ("" when
     * unknown) */
    const char *command_line;
    char trace_sha256[65];
    bool trace_sha256_partial; /* of the bytes read from a pipe only */
    long jobs_submitted, jobs_unfinished, jobs_never_started, jobs_impossible;
    long slowdown_excluded;       /* jobs with execution time 0 */
    long dropped[WL_DROP_N];
    long trace_stopped_at;     /* workload_stopped_at: 0 = read to the end */
    long procs_rounded;        /* workload_rounded: jobs with a fractional field 5 */
    long procs_rounded_line;   /* ... the first one's line */
    uint64_t page_faults_disk, page_faults_remote;
    uint64_t neighbour_msgs, neighbour_replies, sync_msgs, messages_killed;
    uint64_t net_messages, net_restarts;
    double net_bytes;
    /* network.topology = tree only (issue 15): busy time (s) of the PE
     * links (PE or memory server to its ToR: rack links), the uplinks (ToR
     * to core) and the switches; they sum to comm_busy_time */
    bool tree;
    double net_busy_rack_links, net_busy_uplinks, net_busy_tor_switches, net_busy_core_switch;
    /* tree with a scheduler.allocation other than FIRSTFREE only (issue
     * 34): racks spanned by the placed jobs' cores, mean and largest, and
     * the bytes that crossed uplinks (summed over uplinks: a message
     * between racks counts twice, once per uplink) */
    bool alloc_racks;
    /* scheduler.allocation set, any topology (issue 35): the mean over the
     * placements of jobs of two threads or more of their mean pairwise hop
     * distance (docs/METRICS.md "Placement"; NAN when none) */
    bool alloc_set;
    double alloc_hops_mean;
    double alloc_racks_spanned_mean;
    int alloc_racks_spanned_max;
    double net_uplink_bytes;
    double net_uplink_bytes_messages, net_uplink_bytes_netram; /* its split */
    double cpu_busy_total, cpu_demand_done;
    /* loop scheduling inside jobs (issue 36, process.loop_schedule): chunks
     * of iterations the threads took (metrics.json only when non-zero) */
    uint64_t loop_chunks;
    /* scheduler.time_limit = KILL only (issue 35, sched/job_limit.h): jobs
     * killed at their limit, the core-seconds they held (cores x run clock
     * at the kill), the CPU seconds their threads had done, that over
     * cpu_busy_total, the CPU seconds of the threads cut short
     * (cpu_demand_done + cpu_cut_seconds = every thread's CPU once every
     * job has ended), and the jobs submitted without a requested time */
    bool time_kill;
    long jobs_killed, jobs_without_limit;
    double killed_core_seconds, killed_cpu_seconds, cpu_lost_share, cpu_cut_seconds;
    /* scheduler.node_sharing = EXCLUSIVE with cores_per_node > 1 only
     * (issue 25): core-seconds of cores held by running jobs without a
     * thread on them (whole nodes rounded up) */
    bool exclusive;
    double idle_core_seconds;
    /* a per-user limit set only (issue 35): jobs a limit held back at a
     * pass at least once (jobs.csv reason limit:...) */
    bool limits;
    long jobs_limit_delayed;
    uint64_t events;
    size_t peak_pending;
    double wall_seconds;
    /* network RAM (when enabled) */
    bool netram;
    double netram_lent_mean, netram_lent_sd;  /* MB per PE, time averages */
    uint64_t pnr_requests, pnr_denied, pnr_partial, pnr_satisfied;
    double pnr_asked_mb, pnr_granted_mb, pnr_alloc_wait;
    uint64_t pnr_alloc_rounds_changed, pnr_dealloc_rounds_changed;
    uint64_t pnr_msgs[PNR_NKINDS];
    double pnr_bytes[PNR_NKINDS];
    /* netram.transport = RDMA only (issue 25): one-sided operations, apart
     * from the message kinds */
    bool rdma;
    uint64_t pnr_strategy_msgs;  /* the strategy's own messages (pnr_host_send) */
    double pnr_strategy_bytes;
    uint64_t pnr_rdma_reads, pnr_rdma_writes;
    double pnr_rdma_read_bytes, pnr_rdma_write_bytes;
    /* netram.reclaim != NONE only (issue 25): donors taking memory back */
    bool reclaim;
    uint64_t reclaim_events;
    double reclaim_mb, reclaim_pages, reclaim_replaced_mb;
    bool partial;
    bool time_limited;
    /* samples.csv: rows written, rows not written once simulation.max_samples
     * was reached, and the time of the first such row */
    long samples_written, samples_dropped;
    /* --schedule's pes.csv, counted in samples (rows per PE group each):
     * written, not written (max_samples reached), and when it was */
    long pes_samples_written, pes_samples_dropped;
    double pes_capped_at;
    long pes_rows_per_sample;   /* rows of pes.csv per sample (PE groups) */
    long paje_net_kept;         /* schedule.paje network states written */
    long paje_net_dropped;      /* schedule.paje network states not written */
    double paje_net_capped_at;
    double samples_capped_at;
    /* The names under which pes.csv and the Paje trace were written (set
     * by the caller before the metrics are written; NULL = not written):
     * out_truncations names them. */
    const char *pes_file, *paje_file;
} run_metrics;

#endif
