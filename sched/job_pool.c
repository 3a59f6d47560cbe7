/* sched/job_pool.c: the free pools of job blocks and thread arrays that
 * job_create, job_run and job_destroy (sched/job.c) take from and give back
 * to, so that a replay of many jobs allocates only while the number of jobs
 * alive at once grows. Split out of sched/job.c; below it (it knows blocks
 * and size classes, not jobs).
 */
#include "sched/job_pool.h"

#include "core/mem.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* Jobs and thread arrays are reused (issue 11: a replay creates tens of
 * thousands of jobs and starts hundreds of thousands of threads): a job of
 * n threads is one block, the job then room for its PE ids, and its
 * threads are another; each comes from a pool of free blocks of its size
 * class (room for 2^c threads), linked through their first bytes.
 * Memory: at most twice what is alive at once, per size class. */

/* The size class of n >= 1 threads: the smallest c with 2^c >= n. */
int th_class(int n)
{
    assert(n >= 1);
    return n == 1 ? 0 : 64 - __builtin_clzll((unsigned long long)(n - 1));
}

/* A block of `bytes` (the size of class c) from pool, the first `zero`
 * bytes set to 0. */
void *job_pool_get(void **pool, int c, size_t bytes, size_t zero)
{
    void *b = pool[c];
    if (b)
        memcpy(&pool[c], b, sizeof(void *));
    else
        b = xrealloc(NULL, bytes);
    memset(b, 0, zero);
    return b;
}

/* Give block b of class c back to pool. */
void job_pool_put(void **pool, int c, void *b)
{
    memcpy(b, &pool[c], sizeof(void *));
    pool[c] = b;
}

/* Free every block of pool. */
void job_pool_free(void **pool)
{
    for (int c = 0; c < 32; c++)
        while (pool[c]) {
            void *b = pool[c];
            memcpy(&pool[c], b, sizeof(void *));
            free(b);
        }
}
