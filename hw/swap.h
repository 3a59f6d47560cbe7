/* hw/swap.h: the swap device's writes (issue 33 item 1): the write-back of
 * a dirty page evicted at a fault that goes to the swap device.
 *
 * The report's fault (§4.1.5) is one read of the swap device; nothing is
 * written (a reading of the report: its disk is a paging device that
 * always holds a copy of every page, so an evicted page costs nothing).
 * With process.dirty_fraction = f > 0 a fraction f of the pages evicted at
 * faults served by the swap device were written since they came in, and
 * each costs one write of the device before the fault's own read:
 *
 * - Which evictions are dirty: deterministic, per node: the n-th fault of
 *   the node's swap device (n = 1, 2, ...) evicts a dirty page exactly
 *   when floor(n f) > floor((n - 1) f). Over any run of faults the count
 *   of write-backs is within one of f times the faults (f = 1/k: every
 *   k-th fault; f = 1: every fault), no random stream is drawn (the
 *   existing streams are untouched), and a hand-worked test can name
 *   which faults write. The fault instants are random already, so the
 *   regular spacing cannot beat against anything in the model.
 *   With process.dirty_fractions (a fraction per job, by application
 *   number) the same rule runs per thread instead (pe_swap_fault_own):
 *   n counts the thread's own evictions and f is its job's, so each job
 *   writes its own fraction whatever the others on the node do.
 * - The write is asynchronous, as Linux's pageout() of an anonymous page
 *   is (kswapd and direct reclaim alike submit the swap write and go on;
 *   reclaim does not wait for it): the thread does not wait for its own
 *   write-back as such. But the write is queued on the device first, at
 *   the fault's instant, before the fault's read (reclaim frees the frame
 *   the swap-in's page allocation asks for, before the read is issued),
 *   FIFO with every other request: on a disk (one server) or an SSD with
 *   every server busy the read waits behind it; on an SSD with a free
 *   server the two overlap.
 * - A write costs pe->write_service seconds of the device: a disk's write
 *   costs what its read costs (seek + rotation + transfer: the report
 *   gives one figure for both); an SSD's costs ssd_write_latency + page /
 *   ssd_write_bandwidth (computer.ssd_write_*; 0 = the read's value).
 *
 * The writes run as small processes of their own (pe_writer), one per
 * write in flight, kept per node for reuse: after the most writes a node
 * ever had in flight at once, posting one allocates nothing.
 * Below: hw/pe.h (the device and its fields); core/ (processes,
 * resources).
 */
#ifndef PNRSIM_HW_SWAP_H
#define PNRSIM_HW_SWAP_H

#include "hw/pe.h"

/* Set the seconds one write of a page occupies pe's swap device (after
 * pe_set_disk / pe_set_ssd). */
void pe_set_write(pe_t *pe, double write_service);
/* A fault of a thread on pe goes to the swap device now (sched/job.c):
 * counts it (disk_faults), ends a batch under way (pe_batch_end), and,
 * when the page it evicts is dirty (dirty_fraction f in [0, 1], the rule
 * above), queues that page's write on the device before the caller asks
 * for its read. f = 0: only the count and the batch's end, as before (no
 * eviction is counted in swap_evictions). */
void pe_swap_fault(sim_t *sim, pe_t *pe, double dirty_fraction);
/* pe_swap_fault with the rule's n counted in *own (a thread's evictions,
 * process.dirty_fractions) instead of the node's; the node's
 * swap_evictions still counts every eviction (f > 0). own NULL: exactly
 * pe_swap_fault. */
void pe_swap_fault_own(sim_t *sim, pe_t *pe, double dirty_fraction, uint64_t *own);
/* True when the next eviction of pe (its swap_evictions + 1-th) is dirty
 * under fraction f; counts the eviction. */
bool pe_evict_dirty(pe_t *pe, double f);
/* Whether the n-th eviction (n >= 1) of a node is dirty under fraction f:
 * floor(n f) > floor((n - 1) f) (pe_evict_dirty's rule, counting nothing;
 * batched paging plans a batch's writes with it). */
bool swap_eviction_dirty(uint64_t n, double f);
/* Batched paging: one page write on pe's swap device that began at
 * `since` (<= now, its write_service not yet over) on a device server
 * nobody else held, made real: a writer holds the device (a server of
 * an SSD; the disk) since then and gives it back at since +
 * write_service. The device must have a server idle and nobody queued.
 * Counts it in pe->swap_writes. */
void pe_swap_write_since(sim_t *sim, pe_t *pe, double since);
/* Queue one page write on pe's swap device now (FIFO with the reads; the
 * caller waits for nothing). Counts it in pe->swap_writes. */
void pe_swap_write(sim_t *sim, pe_t *pe);
/* Release pe's writers (at the end, with the sim still alive: a write in
 * flight is dropped). */
void pe_swap_free(sim_t *sim, pe_t *pe);

#endif
