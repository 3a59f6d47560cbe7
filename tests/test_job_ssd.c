/* tests/test_job_ssd.c: page faults on an SSD (computer.swap = SSD,
 * hw/pe.h, sched/job.c): a fault alone on an idle SSD costs exactly
 * latency + page / bandwidth, the SSD's counters and busy time add up to
 * that per fault, and the disk is never touched. Batched paging on an
 * SSD (issue 33) is tests/test_batch_nodes.c's.
 * The SSD's queue itself (c servers, FIFO, M/D/c numbers) is
 * tests/test_mres.c's. */
#include "tests/fixture_job.h"

#define SSD_LAT 80e-6
#define SSD_BW 3000.0                          /* MB/s = 3e9 B/s */
#define S_SSD (80e-6 + 4096.0 / 3000e6)        /* 80 us + 1.365333 us = 81.365333 us */

/* The world's faults go to the swap device, planned without drawing (as
 * tests/test_job_batch.c). */
static int to_disk(thread_t *th, void *ctx, double *svc)
{
    (void)th;
    (void)ctx;
    (void)svc;
    return -1;
}

/* One PE of 32 MB with an SSD of c servers; job 1: one thread of 40 MB
 * (L = 8 MB overallocated: it faults) and `cpu` s, R = 1e-5, no messages. */
static job_t *alone_ssd(world *w, int c, uint64_t seed, double cpu)
{
    cluster_params p = world_params(1, 32, TOPO_KIND_STAR, BW, seed);
    p.swap = PE_SWAP_SSD;
    p.ssd_latency = SSD_LAT;
    p.ssd_bandwidth = SSD_BW;
    p.ssd_parallelism = c;
    world_init_p(w, &p);
    w->cl.mem_access_rate = 1e-5;
    w->cl.hooks.fault_plan = to_disk;
    return make_job(w, 1, 1, NULL, cpu, 40);
}

START_TEST(test_service_time)
{
    /* 81.365333 us, computed as the PE computes it. */
    ck_assert_double_eq_tol(pe_ssd_access_time(SSD_LAT, SSD_BW, 4096), 81.365333333e-6, 1e-15);
    world w;
    alone_ssd(&w, 4, 1, 1);
    ck_assert_int_eq(w.cl.pes[0].swap, PE_SWAP_SSD);
    ck_assert_int_eq(w.cl.pes[0].ssd.c, 4);
    ck_assert_double_eq_tol(w.cl.pes[0].disk_service, S_SSD, 1e-15);
    world_free(&w);
}
END_TEST

START_TEST(test_alone_on_idle_ssd)
{
    /* A thread alone: its PE's SSD is idle at each of its faults, so each
     * fault costs S_SSD exactly and the thread ends at cpu + faults *
     * S_SSD; the SSD was busy faults * S_SSD s with one server at a time
     * (server-seconds the same), the disk never. Any fault that cost more
     * than S_SSD would make the sums larger. */
    for (int c = 1; c <= 3; c += 2) {
        world w;
        job_t *j = alone_ssd(&w, c, 7, 30);
        job_run(&w.sim, j, 0);
        ev_run(&w.sim, INFINITY);
        ck_assert_int_eq(w.jobs_ended, 1);
        pe_t *pe = &w.cl.pes[0];
        double n = (double)j->faults;
        ck_assert_uint_gt(j->faults, 300);
        ck_assert_uint_eq(pe->disk_faults, j->faults);
        ck_assert_uint_eq(pe->ssd.completions, j->faults);
        ck_assert_uint_eq(pe->disk.requests, 0);
        ck_assert_near(j->fault_time, n * S_SSD, 1e-12 * n);
        ck_assert_near(pe->fault_time, n * S_SSD, 1e-12 * n);
        ck_assert_near(mres_busy_time(&w.sim, &pe->ssd), n * S_SSD, 1e-12 * n);
        ck_assert_near(pe_swap_busy_time(&w.sim, pe), n * S_SSD, 1e-12 * n);
        ck_assert_near(mres_server_time(&w.sim, &pe->ssd), n * S_SSD, 1e-12 * n);
        ck_assert_double_eq(pe->ssd.queue.max, 0);
        ck_assert_near(j->end, 30 + n * S_SSD, 1e-9 * j->end);
        world_free(&w);
    }
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("job_ssd");
    TCase *tc = tcase_create("ssd");
    tcase_add_test(tc, test_service_time);
    tcase_add_test(tc, test_alone_on_idle_ssd);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
