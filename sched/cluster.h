/* sched/cluster.h: building and tearing down a cluster (techreport §4):
 * N PEs (§4.1) with their disks, the network (§4.2), the job layer's
 * parameters and random streams (§4.3), and the gang scheduler (§4.4),
 * which installs its own hooks in the cluster (gang_create).
 *
 * The layers above attach themselves to a built cluster in the same way:
 * PNR with pnr_create(sim, cl, ...), which installs its hooks. pnr/ sits
 * above sched/ (core <- hw, net <- sched <- pnr <- app), so this
 * constructor cannot create it; whoever creates PNR destroys it before
 * cluster_destroy.
 *
 * Observers (schedule output) attach here too, for every layer at once
 * (cluster_observe).
 *
 * The parameter fields of cluster_t (rates, sizes, mem_release) are plain
 * data: a test may change them after cluster_init, before the run.
 */
#ifndef PNRSIM_SCHED_CLUSTER_H
#define PNRSIM_SCHED_CLUSTER_H

#include "net/net.h"
#include "sched/backfill.h"
#include "sched/batch.h"
#include "sched/gang.h"
#include "sched/job.h"

#include <stdint.h>

typedef struct cluster_params {
    /* PEs (§4.1) */
    int npes;                  /* >= 1: compute PEs, then memory servers */
    int ncompute;              /* PEs that run threads (cl->ncompute); 0 = all */
    int cores_per_node;        /* C: cores of each PE (node), memory servers too; 0 = 1 */
    const char *pe_name;       /* PE i is named pe_name + i; NULL: "pe" */
    double ram_mb;             /* RAM of every PE, MB */
    const double *pe_ram_mb;   /* NULL, or npes entries that replace ram_mb */
    const double *pe_speed;    /* NULL (every node 1), or npes CPU speeds > 0 (issue 35) */
    double seek, rpm, transfer; /* disk: s, revolutions per minute, MB/s */
    bool full_rotation;        /* a disk access waits a full revolution, not half */
    pe_swap_kind swap;         /* DISK (0: the fields above) or SSD (those below) */
    double ssd_latency;        /* SSD: s per access, > 0 */
    double ssd_bandwidth;      /* SSD: MB/s, > 0 */
    int ssd_parallelism;       /* SSD: requests served at once, >= 1 */
    double ssd_write_latency;  /* SSD: s per page write; 0 = ssd_latency */
    double ssd_write_bandwidth; /* SSD: MB/s of writes; 0 = ssd_bandwidth */
    double dirty_fraction;     /* hw/swap.h: evicted pages written, [0, 1] */
    bool dirty_per_thread;     /* per-job fractions (process.dirty_fractions):
                                * the rule counts per thread (cluster_t) */
    double dirty_max;          /* the largest of them (0 without) */
    double page_bytes;         /* P (§4.1.5); 0 = PE_PAGE_BYTES */
    /* the network (§4.2) */
    net_topology topology;
    const net_tree *tree;      /* TREE: its shape (net_create_tree) */
    double bandwidth;          /* bytes per second */
    double latency, delay;     /* s */
    net_route_mode route;      /* how messages cross routes (0: HOPS) */
    /* processes (§4.3); see the fields of cluster_t */
    double mem_access_rate;
    double comm_rate, sync_rate;
    double neighbour_bytes, sync_bytes;
    sched_mem_release mem_release;
    bool interval_exp;
    /* loop scheduling inside jobs (issue 36, sched/job_loop.h; 0: NONE) */
    sched_loop loop_sched;
    double imbalance;          /* CV of the iterations' demands, >= 0 */
    double chunk_overhead;     /* CPU s per chunk taken */
    long loop_n;               /* iterations per thread in an interval (>= 1) */
    sched_paging paging;       /* EXACT or BATCHED (docs/BATCHING.md) */
    mem_profile profile;       /* threads' memory over time (0: CONSTANT) */
    double fault_cpu;          /* s of a fault's software path on its core (issue 33) */
    bool time_kill;            /* jobs with a limit are killed at it (job_limit.h) */
    uint64_t seed;             /* master seed of the "fault" and "interval" streams */
    rng_gen gen;               /* their generator (and PNR's: cl->rng_gen) */
    /* the scheduler (§4.4): NULL for none (the test drives job_run and
     * job_stop itself and sets the hooks' scheduler half) */
    const gang_params *gang;
    gang_end_fn on_end;        /* gang_create's on_end and ctx */
    void *end_ctx;
} cluster_params;

/* The observers of a cluster (schedule output, tracing), one per layer:
 * the scheduler's (gang.h; copied), the PEs' (pe.h) and the network's
 * (net.h), the last two not copied (they must outlive their
 * installation). A NULL member installs none for that layer. */
typedef struct cluster_observer {
    const gang_observer *gang;
    const pe_observer *pe;
    const net_observer *net;
} cluster_observer;

/* Build the cluster in *cl (overwritten) from p: PEs, disks, network,
 * streams, and the scheduler when p->gang (cl->gang). Aborts when out of
 * memory. */
void cluster_init(sim_t *sim, cluster_t *cl, const cluster_params *p);
/* Install o's observers on the scheduler (when cl has one), every PE and
 * the network, replacing those installed before; o NULL removes them. */
void cluster_observe(cluster_t *cl, const cluster_observer *o);
/* Free every job still alive, the scheduler, the network, the streams and
 * the PEs. Layers attached above (PNR) must be destroyed first. */
void cluster_destroy(sim_t *sim, cluster_t *cl);

#endif
