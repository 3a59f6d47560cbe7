/* hw/pe.h: a processing element: CPU, RAM and disk (techreport §4.1).
 *
 * CPU   a core resource: one thread computes at a time, others wait FIFO.
 * RAM   a capacity in MB. Threads allocate their whole size when they start
 *       and free it when they end (static model, §4.3.1); a PNR server's
 *       lent memory counts against it too. What is allocated beyond the
 *       capacity is the PE's overallocation: the memory that must live on
 *       disk or in network RAM.
 * Disk  a core resource: one access at a time, FIFO; a page read or write
 *       costs seek + half a revolution (30/RPM s; a full one, 60/RPM s, with
 *       computer.rotation = FULL) + page size / transfer rate; capacity is
 *       unlimited.
 * SSD   (computer.swap = SSD, instead of the disk; MODEL.md "PE (§4.1)"):
 *       a core/mres.h resource with c servers (ssd_parallelism) and one
 *       FIFO queue; a page access costs latency + page size / bandwidth on
 *       one server. disk_service is that time and disk_faults count its
 *       faults, as for a disk.
 * Writes (issue 33, hw/swap.h): a dirty page evicted at a fault the swap
 *       device serves is written first, write_service seconds of the
 *       device (a disk: as a read; an SSD: its write latency and
 *       bandwidth), FIFO with the reads; nobody waits for it as such.
 *
 * Cores (issue 25, computer.cores_per_node = C): a PE is a node of C cores
 * that share its RAM, disk and network link; each core has its own CPU
 * resource (core 0: `cpu`, cores 1 .. C-1: `cpus`, allocated once by
 * pe_set_cores). With C = 1 (the default) a PE is PNRSim's one-CPU PE.
 *
 * Memory users (the threads on the PE) register a callback that runs when
 * the PE's overallocation changes, so their page-fault rates follow it.
 * The users are a core/list.h list through pe_user.link, in the order they
 * were added; it is short (at most one thread per time slot).
 */
#ifndef PNRSIM_HW_PE_H
#define PNRSIM_HW_PE_H

#include "core/list.h"
#include "core/mres.h"
#include "core/res.h"
#include "core/rng.h"
#include "core/stats.h"

#include <stdbool.h>
#include <stdint.h>

#define PE_PAGE_BYTES 4096.0    /* the report's P (§4.1.5); process.page_size */
#define MB_BYTES 1048576.0      /* memory: 1 MB = 2^20 bytes */
#define MBPS_BYTES 1e6          /* transfer and bandwidth: 1 MB/s = 10^6 B/s */

typedef struct pe pe_t;

/* The swap device of a PE (computer.swap). */
typedef enum { PE_SWAP_DISK, PE_SWAP_SSD } pe_swap_kind;
typedef struct pe_user pe_user;

/* Observer (schedule output, tracing), shared by every PE that points to
 * it: told at the simulated instant a PE's memory amounts change (mem) and
 * when the number of its threads servicing a page fault changes (paging).
 * It must not change the PE. Members may be NULL. */
typedef struct pe_observer {
    void (*mem)(sim_t *sim, const pe_t *pe, void *ctx);
    void (*paging)(sim_t *sim, const pe_t *pe, void *ctx);
    void *ctx;
} pe_observer;
/* Called when pe's overallocation changed (sim->now is the time). */
typedef void (*pe_user_fn)(sim_t *sim, pe_user *u);
struct pe_user {
    list_t link;              /* on the PE's list of users */
    pe_user_fn on_change;
    /* On a PE of several cores, set before pe_add_user and left alone until
     * pe_remove_user: the user's size and an opaque key (the job layer's
     * gang row) that pe_key_size sums it under. */
    int key;
    double size;
};

struct pe {
    /* The fields every thread start and end reads or writes come first,
     * within the first cache lines (issue 11: a replay starts and ends
     * hundreds of thousands of threads); the order changes nothing else. */
    int id;
    int nusers;
    int paging;               /* threads servicing a page fault now */
    uint64_t *touch_map;      /* bit id set by every memory change; NULL: none */
    const pe_observer *obs;   /* NULL when nobody observes */
    list_t users;             /* memory users (pe_user.link), oldest first */
    double ram_mb;            /* installed RAM */
    double alloc_mb;          /* allocated by threads running or suspended here */
    double lent_mb;           /* lent to other PEs as network RAM (PNR server) */
    double remote_mb;         /* overallocation of local threads held in network RAM */
    /* Batched paging (process.paging = BATCHED, sched/batch.c): the thread
     * running a batch of faults on this PE, or NULL, and how to end that
     * batch at the current instant; every change of the PE's memory
     * amounts ends it first. */
    void *batch;
    void (*on_batch_end)(sim_t *sim, pe_t *pe);
    /* On a node of several cores: how many steps the node's next batch
     * plans at most (0: the most, BATCH_MAX), and how many of the node's
     * next faults run exactly without trying a batch (and the backoff that
     * set it); sched/batch.c adapts them to how long the node's batches
     * last before others' faults cut them. */
    int batch_steps, batch_skip, batch_backoff;
    res_t cpu;                /* core 0's CPU */
    res_t disk;
    char name[32];
    double disk_service;      /* seconds per page access */
    timeavg_t mem;            /* alloc_mb + lent_mb over time */
    timeavg_t disk_use;       /* MB of overallocation held on disk over time */
    timeavg_t lent_use;       /* MB lent as network RAM over time */
    uint64_t faults;          /* page faults of threads on this PE */
    uint64_t disk_faults;     /* ... served by the disk */
    uint64_t remote_faults;   /* ... served by network RAM */
    double fault_time;        /* seconds threads spent servicing faults */
    /* Called when the PE gets lent memory back (RAM may have room again);
     * the scheduler's, NULL when nobody listens. */
    void (*on_unlend)(sim_t *sim, pe_t *pe, void *ctx);
    void *unlend_ctx;
    /* The swap device: DISK (the res_t disk above) or SSD (ssd, which is
     * initialised only then, by pe_set_ssd). */
    pe_swap_kind swap;
    mres_t ssd;
    int ncores;               /* C >= 1 (pe_init: 1) */
    uint32_t users_gen;       /* changes at every pe_add_user and
                               * pe_remove_user (cached sums over users) */
    struct pe_keysum *keysums;/* C > 1: the users' sizes summed by key
                               * (pe_key_size); nkeysums in use, room for
                               * capkeysums, never shrunk */
    int nkeysums, capkeysums;
    res_t *cpus;              /* CPUs of cores 1 .. C-1; NULL when C = 1 */
    /* The swap device's writes (hw/swap.h, process.dirty_fraction): seconds
     * one page write occupies it (pe_init, pe_set_disk, pe_set_ssd: the
     * read's disk_service; pe_set_write), the node's evictions at faults
     * served by it and the writes of dirty ones posted, and its writers
     * (NULL until the first write). */
    double write_service;
    uint64_t swap_evictions, swap_writes;
    struct pe_writers *wb;
    /* CPU speed of the node's cores relative to the trace's machine
     * (computer.speed, issue 35; pe_init: 1): a thread here needs
     * demand / speed s of CPU (sched/job.c). */
    double speed;
};

/* The users of one key on a PE of several cores: n of them, nonint of whose
 * sizes are no whole number below 2^53; sum, the others' sizes, exact
 * unless big (it reached 2^53 once); walk, the sum added up over the users
 * in their order when users_gen was walk_gen (used when inexact). */
typedef struct pe_keysum {
    int key;
    int n, nonint;
    bool big;
    uint32_t walk_gen;
    double sum, walk;
} pe_keysum;

/* Initialise PE id with ram MB, disk seek s, rpm, transfer MB/s. */
void pe_init(sim_t *sim, pe_t *pe, int id, const char *base_name, double ram_mb,
             double seek, double rpm, double transfer);
/* Give pe C >= 1 cores (after pe_init, before any use): cores 1 .. C-1 get
 * CPU resources of their own (freed by pe_free). */
void pe_set_cores(sim_t *sim, pe_t *pe, int ncores);
/* Free what pe_set_cores allocated. */
void pe_free(pe_t *pe);
/* The CPU of core c (0 .. ncores-1) of pe. */
static inline res_t *pe_cpu(pe_t *pe, int c)
{
    return c == 0 ? &pe->cpu : &pe->cpus[c - 1];
}
/* Busy seconds of all of pe's cores up to now (core 0's alone when C = 1). */
double pe_cpu_busy(const sim_t *sim, const pe_t *pe);
/* Seconds one page access takes on a disk with these parameters (page of
 * PE_PAGE_BYTES, half a revolution of rotational delay). */
double pe_disk_service_time(double seek, double rpm, double transfer);
/* Seconds one access of page_bytes takes: seek + revolutions * 60 / rpm +
 * page_bytes / (transfer MB/s). revolutions is 0.5 (the report's average
 * rotational delay) or 1 (a full revolution). */
double pe_disk_access_time(double seek, double rpm, double transfer, double page_bytes,
                           double revolutions);
/* Set the PE's disk service time per page (after pe_init, which assumes
 * PE_PAGE_BYTES and half a revolution). */
void pe_set_disk(pe_t *pe, double seek, double rpm, double transfer, double page_bytes,
                 double revolutions);
/* Seconds one SSD access of page_bytes takes on an idle server: latency +
 * page_bytes / (bandwidth MB/s). */
double pe_ssd_access_time(double latency, double bandwidth, double page_bytes);
/* A page write's seconds on that SSD: pe_ssd_access_time with the write's
 * latency and bandwidth, each 0 meaning the read's. */
double pe_ssd_write_time(double latency, double bandwidth, double write_latency,
                         double write_bandwidth, double page_bytes);
/* Make the PE's swap device an SSD (after pe_init, before any use): c >= 1
 * servers, each access pe_ssd_access_time(latency, bandwidth, page_bytes)
 * seconds (disk_service). */
void pe_set_ssd(sim_t *sim, pe_t *pe, double latency, double bandwidth, int c,
                double page_bytes);
/* Busy time of the PE's swap device up to now: the disk's, or the time at
 * least one of the SSD's servers was busy. */
double pe_swap_busy_time(const sim_t *sim, const pe_t *pe);
/* MB allocated beyond installed RAM (0 when not overallocated). */
double pe_overalloc_mb(const pe_t *pe);
/* MB of RAM neither allocated nor lent (0 when overallocated). */
double pe_free_mb(const pe_t *pe);
/* From now on, set bit pe->id of map (word id / 64, bit id % 64) at every
 * change of the PE's memory amounts (pe_alloc, pe_lend, pe_remote); NULL
 * stops it. A thread allocates its memory (pe_alloc, also of 0 MB) before
 * it uses the CPU, pages or faults, so a PE whose bit is still clear has
 * had no thread and lent nothing: its CPU busy time, amounts, time
 * averages and fault counters are all as pe_init left them. The samples
 * (app/run.c) visit only the marked PEs. */
void pe_set_touch_map(pe_t *pe, uint64_t *map);
/* Batched paging: end the batch under way on pe, if any, at the current
 * instant. Whatever changes the course of a fault on pe calls it first
 * (every change of the PE's memory amounts does). */
static inline void pe_batch_end(sim_t *sim, pe_t *pe)
{
    if (pe->batch)
        pe->on_batch_end(sim, pe);
}
/* Start loading the lines of pe that a thread's start or end touches (its
 * memory amounts and its CPU, the first fields above): the PEs of a wide
 * job are far apart in memory, and a loop over its threads (sched/job.c's
 * solo jobs) would wait for each. */
static inline void pe_prefetch(const pe_t *pe)
{
    __builtin_prefetch(pe);
    __builtin_prefetch((const char *)pe + 64);
    __builtin_prefetch((const char *)pe + 128);
}
/* Change the memory allocated by threads (+/- mb) and tell the users. */
void pe_alloc(sim_t *sim, pe_t *pe, double mb);
/* Change the memory lent as network RAM (+/- mb) and tell the users; when
 * mb < 0, also call on_unlend. */
void pe_lend(sim_t *sim, pe_t *pe, double mb);
/* Change the overallocation of local threads held remotely (+/- mb). */
void pe_remote(sim_t *sim, pe_t *pe, double mb);
/* A thread on pe starts servicing a page fault now (counts the fault). */
void pe_fault_begin(sim_t *sim, pe_t *pe);
/* ... and has finished it; it began at `started` (adds to fault_time). */
void pe_fault_end(sim_t *sim, pe_t *pe, double started);
/* n page faults of `time` seconds in all that began and ended unobserved
 * (batched paging): counted as pe_fault_begin + pe_fault_end would. The PE
 * must have no observer. */
void pe_faults_add(pe_t *pe, uint64_t n, double time);
/* Install the observer (NULL for none). */
void pe_set_observer(pe_t *pe, const pe_observer *o);
/* Add u at the end of pe's users; `on_change` is called at every change of
 * pe's overallocation until pe_remove_user. On a PE of several cores u's
 * size is added to its key's sum (u->key, u->size set before); allocates
 * only when the PE has more keys at once than ever before. */
void pe_add_user(pe_t *pe, pe_user *u, pe_user_fn on_change);
void pe_remove_user(pe_t *pe, pe_user *u);
/* u (a user of pe) now has `size` (a thread whose memory changes over
 * time, sched/job_resize.c): on a PE of several cores its key's sum
 * follows; call it before the pe_alloc of the change, so that the users
 * told of it see the new sizes. Allocates nothing. */
void pe_user_resize(pe_t *pe, pe_user *u, double size);
/* On a PE of several cores: the total size of the users of key (0 when
 * none), the same double as adding their sizes up in the users' order: the
 * sum kept as they come and go when every size is a whole number (any order
 * of adding then gives that double), else a walk over the users cached
 * until the next user change. */
double pe_key_size(pe_t *pe, int key);
/* The users in the order they were added: the first, the one after u, the
 * last and the one before u; NULL past either end. */
pe_user *pe_user_first(const pe_t *pe);
pe_user *pe_user_next(const pe_t *pe, const pe_user *u);
pe_user *pe_user_last(const pe_t *pe);
pe_user *pe_user_prev(const pe_t *pe, const pe_user *u);

#endif
