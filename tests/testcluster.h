/* tests/testcluster.h: the small machine of the hand-built test cases.
 *
 * Every PE has a disk of 9 ms seek, 7200 rpm and 50 MB/s (a page of 4096
 * bytes costs 0.009 + 30/7200 + 4096/50e6 s); the network is a star of
 * 12.5e6 bytes/s (100 Mbit/s) with 50 ns latency and an 80 us switch delay.
 * Nothing else is set: no paging (mem_access_rate 0), no neighbour or
 * synchronisation messages, no scheduler. A test changes what its case
 * needs in the returned parameters, builds the cluster with cluster_init
 * (sched/cluster.h) and tears it down with test_cluster_free.
 */
#ifndef PNRSIM_TESTS_TESTCLUSTER_H
#define PNRSIM_TESTS_TESTCLUSTER_H

#include "sched/cluster.h"

#include <check.h>
#include <stdint.h>

#define TEST_BW 12.5e6    /* bytes/s */
#define TEST_LAT 5e-8     /* s */
#define TEST_DELAY 8e-5   /* s */
#define TEST_SEEK 0.009   /* s */
#define TEST_RPM 7200.0
#define TEST_XFER 50.0    /* MB/s */

/* npes PEs of ram_mb MB each, the streams under master seed `seed`. */
static inline cluster_params test_cluster_params(int npes, double ram_mb, uint64_t seed)
{
    cluster_params p = {
        .npes = npes,
        .pe_name = "pe",
        .ram_mb = ram_mb,
        .seek = TEST_SEEK,
        .rpm = TEST_RPM,
        .transfer = TEST_XFER,
        .topology = TOPO_KIND_STAR,
        .bandwidth = TEST_BW,
        .latency = TEST_LAT,
        .delay = TEST_DELAY,
        .seed = seed,
    };
    return p;
}

/* Tear down a hand-built world: cl (cluster_destroy), then check that every
 * event record was given back (threads, messages, the scheduler's) and
 * free the kernel. */
static inline void test_cluster_free(sim_t *sim, cluster_t *cl)
{
    cluster_destroy(sim, cl);
    ck_assert_uint_eq(sim->live_records, 0);
    ev_destroy(sim);
}

#endif
