/* sched/job_pool.h: free pools of blocks by size class, from which
 * sched/job.c takes its job blocks and thread arrays (sched/job_pool.c).
 * The lowest file of the job layer: it knows no job type, only blocks.
 */
#ifndef PNRSIM_SCHED_JOB_POOL_H
#define PNRSIM_SCHED_JOB_POOL_H

#include <stddef.h>

/* The size class of n >= 1 threads: the smallest c with 2^c >= n. */
int th_class(int n);

/* A block of `bytes` (the size of class c) from pool, its first `zero`
 * bytes 0; never NULL (allocation failure exits). */
void *job_pool_get(void **pool, int c, size_t bytes, size_t zero);

/* Give block b of class c back to pool. */
void job_pool_put(void **pool, int c, void *b);

/* Free every block of pool (32 classes). */
void job_pool_free(void **pool);

#endif
