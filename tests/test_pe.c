/* tests/test_pe.c: the processing element (hw/): disk service time from
 * its three parameters, worked out by hand; RAM allocation, overallocation
 * and free memory, with their time averages; memory users notified exactly
 * when the overallocation changes; and the disk as a queue: Poisson page
 * accesses with the PE's deterministic service time against the M/D/1
 * (Pollaczek-Khinchine) mean wait.
 */
#include "hw/pe.h"
#include "tests/testutil.h"

#include <gsl/gsl_cdf.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

/* Let the clock reach t (a no-op event at t). */
static void noop(sim_t *sim, void *arg)
{
    (void)sim;
    (void)arg;
}
static void advance(sim_t *sim, double t)
{
    ev_once(sim, t, noop, NULL);
    ev_run(sim, t);
    ck_assert_double_eq(sim->now, t);
}

/* ---- disk service time --------------------------------------------------- */

START_TEST(test_disk_service_time)
{
    /* seek + half a revolution (30 / rpm s) + 4096 B / (transfer * 1e6 B/s):
     * reference.ini:  0.009  + 30/7200 = 0.0041666...  + 4096/50e6   = 0.00008192
     *                 = 0.0132485866...
     * slow disk:      0.0085 + 30/5400 = 0.0055555...  + 4096/12.5e6 = 0.00032768
     *                 = 0.0143832355...
     * seek 0, 15000 rpm, 100 MB/s: 0 + 0.002 + 0.00004096 = 0.00204096 */
    ck_assert_near(pe_disk_service_time(0.009, 7200, 50), 0.009 + 1.0 / 240 + 0.00008192, 1e-15);
    ck_assert_near(pe_disk_service_time(0.009, 7200, 50), 0.01324858666667, 1e-13);
    ck_assert_near(pe_disk_service_time(0.0085, 5400, 12.5), 0.01438323555556, 1e-13);
    ck_assert_near(pe_disk_service_time(0, 15000, 100), 0.00204096, 1e-15);
    /* A full revolution (computer.rotation = FULL) and other page sizes:
     *   0.009 + 60/7200 + 4096/50e6    = 0.0174152533...
     *   0.009 + 30/7200 + 65536/50e6   = 0.0144773866...
     *   0 + 60/15000 + 512/100e6       = 0.00400512 */
    ck_assert_near(pe_disk_access_time(0.009, 7200, 50, 4096, 1), 0.01741525333333, 1e-13);
    ck_assert_near(pe_disk_access_time(0.009, 7200, 50, 65536, 0.5), 0.01447738666667, 1e-13);
    ck_assert_near(pe_disk_access_time(0, 15000, 100, 512, 1), 0.00400512, 1e-15);
    ck_assert_double_eq(pe_disk_access_time(0.009, 7200, 50, 4096, 0.5),
                        pe_disk_service_time(0.009, 7200, 50));

    /* pe_init stores it. */
    sim_t sim;
    ev_init(&sim);
    pe_t pe;
    pe_init(&sim, &pe, 3, "node", 32, 0.0085, 5400, 12.5);
    ck_assert_near(pe.disk_service, 0.01438323555556, 1e-13);
    ck_assert_str_eq(pe.name, "node3");
    ck_assert_int_eq(pe.id, 3);
    ck_assert_double_eq(pe.ram_mb, 32);
    ck_assert_double_eq(pe_free_mb(&pe), 32);
    ck_assert_double_eq(pe_overalloc_mb(&pe), 0);
    ev_destroy(&sim);
}
END_TEST

/* ---- memory arithmetic -------------------------------------------------- */

START_TEST(test_memory_arithmetic)
{
    sim_t sim;
    ev_init(&sim);
    pe_t pe;
    pe_init(&sim, &pe, 0, "pe", 1024, 0.009, 7200, 50);

    /* t = 0: a 512 MB thread: 512 free, not overallocated. */
    pe_alloc(&sim, &pe, 512);
    ck_assert_double_eq(pe_free_mb(&pe), 512);
    ck_assert_double_eq(pe_overalloc_mb(&pe), 0);

    /* t = 10: another of 1024 MB: 1536 allocated, 512 beyond RAM. */
    advance(&sim, 10);
    pe_alloc(&sim, &pe, 1024);
    ck_assert_double_eq(pe.alloc_mb, 1536);
    ck_assert_double_eq(pe_overalloc_mb(&pe), 512);
    ck_assert_double_eq(pe_free_mb(&pe), 0);

    /* t = 20: 200 MB of the overallocation go to network RAM: 312 on disk.
     * Lending 100 MB to another PE adds to the overallocation (612). */
    advance(&sim, 20);
    pe_remote(&sim, &pe, 200);
    ck_assert_double_eq(pe.disk_use.value, 312);
    pe_lend(&sim, &pe, 100);
    ck_assert_double_eq(pe_overalloc_mb(&pe), 612);
    ck_assert_double_eq(pe.disk_use.value, 412);
    pe_lend(&sim, &pe, -100);
    ck_assert_double_eq(pe_overalloc_mb(&pe), 512);

    /* t = 30: everything is freed. */
    advance(&sim, 30);
    pe_remote(&sim, &pe, -200);
    pe_alloc(&sim, &pe, -1536);
    ck_assert_double_eq(pe.alloc_mb, 0);
    ck_assert_double_eq(pe_free_mb(&pe), 1024);
    ck_assert_double_eq(pe_overalloc_mb(&pe), 0);
    ck_assert_double_eq(pe.disk_use.value, 0);

    /* Time averages over [0, 40]:
     *   memory  (512*10 + 1536*20 + 0*10) / 40 = 35840 / 40 = 896 MB
     *   disk    (0*10 + 512*10 + 312*10 + 0*10) / 40 = 8240 / 40 = 206 MB
     *   (the lend at t = 20 lasted no time). */
    advance(&sim, 40);
    ck_assert_near(timeavg_mean(&pe.mem, 40), 896, 1e-9);
    ck_assert_near(timeavg_mean(&pe.disk_use, 40), 206, 1e-9);
    ck_assert_double_eq(pe.mem.max, 1636);

    /* Lending with free RAM: free memory shrinks, no overallocation. */
    pe_lend(&sim, &pe, 1000);
    ck_assert_double_eq(pe_free_mb(&pe), 24);
    ck_assert_double_eq(pe_overalloc_mb(&pe), 0);
    pe_lend(&sim, &pe, -1000);

    /* Rounding: three 0.1 MB threads come and go; the PE ends exactly
     * empty (0.1 + 0.1 + 0.1 - 0.1 - 0.1 - 0.1 is not 0 in binary). */
    for (int i = 0; i < 3; i++)
        pe_alloc(&sim, &pe, 0.1);
    for (int i = 0; i < 3; i++)
        pe_alloc(&sim, &pe, -0.1);
    ck_assert_double_eq(pe.alloc_mb, 0);
    ck_assert_double_eq(pe_free_mb(&pe), 1024);
    ev_destroy(&sim);
}
END_TEST

START_TEST(test_free_too_much)
{
    /* Freeing more than was allocated is a caller's bug: it aborts instead
     * of being rounded away to 0. */
    sim_t sim;
    ev_init(&sim);
    pe_t pe;
    pe_init(&sim, &pe, 0, "pe", 64, 0.009, 7200, 50);
    pe_alloc(&sim, &pe, 10);
    /* The test runs in its own process: keep assert's message out of the log. */
    ck_assert_ptr_nonnull(freopen("/dev/null", "w", stderr));
    pe_alloc(&sim, &pe, -11);
    ev_destroy(&sim);
}
END_TEST

/* ---- touch map ------------------------------------------------------------- */

START_TEST(test_touch_map)
{
    /* PEs 3, 64 and 129 of 130 share a 3-word map: each memory change sets
     * exactly its PE's bit (word id / 64, bit id % 64), whatever the amount
     * (0 MB too, as a thread of a job without memory allocates), and giving
     * everything back leaves the bit set; a PE without a map marks nothing. */
    sim_t sim;
    ev_init(&sim);
    uint64_t map[3] = {0, 0, 0};
    pe_t a, b, c, d;
    pe_init(&sim, &a, 3, "pe", 64, 0.009, 7200, 50);
    pe_init(&sim, &b, 64, "pe", 64, 0.009, 7200, 50);
    pe_init(&sim, &c, 129, "pe", 64, 0.009, 7200, 50);
    pe_init(&sim, &d, 5, "pe", 64, 0.009, 7200, 50);
    pe_set_touch_map(&a, map);
    pe_set_touch_map(&b, map);
    pe_set_touch_map(&c, map);
    pe_alloc(&sim, &a, 0);
    ck_assert_uint_eq(map[0], UINT64_C(1) << 3);
    ck_assert_uint_eq(map[1] | map[2], 0);
    pe_lend(&sim, &b, 10);
    pe_lend(&sim, &b, -10);
    ck_assert_uint_eq(map[1], 1);
    pe_remote(&sim, &c, 2);
    ck_assert_uint_eq(map[2], 2);
    pe_alloc(&sim, &d, 8);
    ck_assert_uint_eq(map[0], UINT64_C(1) << 3);
    ev_destroy(&sim);
}
END_TEST

/* ---- memory users ------------------------------------------------------------ */

struct counting_user {
    pe_user u;
    pe_t *pe;
    int calls;
    double seen_over;   /* overallocation when last called */
    double seen_at;
};

static void count_cb(sim_t *sim, pe_user *u)
{
    struct counting_user *c = (struct counting_user *)u;
    c->calls++;
    c->seen_over = pe_overalloc_mb(c->pe);
    c->seen_at = sim->now;
}

START_TEST(test_users_notified)
{
    sim_t sim;
    ev_init(&sim);
    pe_t pe;
    pe_init(&sim, &pe, 0, "pe", 100, 0.009, 7200, 50);
    struct counting_user a = {.pe = &pe}, b = {.pe = &pe};
    pe_add_user(&pe, &a.u, count_cb);
    pe_add_user(&pe, &b.u, count_cb);
    ck_assert_int_eq(pe.nusers, 2);
    /* Walked in the order added, either way; a third added and removed
     * from the middle leaves a, b. */
    struct counting_user m = {.pe = &pe};
    pe_add_user(&pe, &m.u, count_cb);
    pe_remove_user(&pe, &b.u);
    pe_add_user(&pe, &b.u, count_cb);
    pe_remove_user(&pe, &m.u);
    ck_assert_ptr_eq(pe_user_first(&pe), &a.u);
    ck_assert_ptr_eq(pe_user_next(&pe, &a.u), &b.u);
    ck_assert_ptr_null(pe_user_next(&pe, &b.u));
    ck_assert_ptr_eq(pe_user_last(&pe), &b.u);
    ck_assert_ptr_eq(pe_user_prev(&pe, &b.u), &a.u);
    ck_assert_ptr_null(pe_user_prev(&pe, &a.u));
    ck_assert_int_eq(pe.nusers, 2);

    /* Within RAM the overallocation stays 0: nobody is told. */
    pe_alloc(&sim, &pe, 60);
    pe_alloc(&sim, &pe, 40);
    ck_assert_int_eq(a.calls, 0);
    ck_assert_int_eq(b.calls, 0);

    /* Beyond RAM: both are told once, and see the new value. */
    advance(&sim, 5);
    pe_alloc(&sim, &pe, 30);
    ck_assert_int_eq(a.calls, 1);
    ck_assert_int_eq(b.calls, 1);
    ck_assert_double_eq(a.seen_over, 30);
    ck_assert_double_eq(a.seen_at, 5);

    /* Lending changes it too. */
    pe_lend(&sim, &pe, 10);
    ck_assert_int_eq(a.calls, 2);
    ck_assert_double_eq(b.seen_over, 40);

    /* Moving overallocation to network RAM does not change it. */
    pe_remote(&sim, &pe, 20);
    ck_assert_int_eq(a.calls, 2);

    /* A removed user hears nothing more. */
    pe_remove_user(&pe, &a.u);
    ck_assert_int_eq(pe.nusers, 1);
    pe_lend(&sim, &pe, -10);
    ck_assert_int_eq(a.calls, 2);
    ck_assert_int_eq(b.calls, 3);
    ck_assert_double_eq(b.seen_over, 30);

    /* Back within RAM: told once more (30 -> 0); then silence. */
    pe_alloc(&sim, &pe, -50);
    ck_assert_int_eq(b.calls, 4);
    ck_assert_double_eq(b.seen_over, 0);
    pe_alloc(&sim, &pe, -50);
    ck_assert_int_eq(b.calls, 4);
    pe_remove_user(&pe, &b.u);
    ck_assert_int_eq(pe.nusers, 0);
    ck_assert_ptr_null(pe_user_first(&pe));
    ck_assert_ptr_null(pe_user_last(&pe));
    ev_destroy(&sim);
}
END_TEST

/* A node of several cores sums its users' sizes by key (pe_key_size), as
 * adding them up in the users' order would. */
START_TEST(test_key_sizes)
{
    sim_t sim;
    ev_init(&sim);
    pe_t pe;
    pe_init(&sim, &pe, 0, "pe", 100, 0.009, 7200, 50);
    pe_set_cores(&sim, &pe, 4);
    /* Whole bytes: rows 0 and 2; 700 MB = 734003200 bytes. */
    struct counting_user u[8];
    memset(u, 0, sizeof u);
    const int key[5] = {0, 2, 0, 0, 2};
    const double size[5] = {734003200, 1024, 734003200, 734003200, 4096};
    for (int i = 0; i < 5; i++) {
        u[i].u.key = key[i];
        u[i].u.size = size[i];
        pe_add_user(&pe, &u[i].u, count_cb);
    }
    ck_assert_double_eq(pe_key_size(&pe, 0), 3 * 734003200.0); /* 2202009600 */
    ck_assert_double_eq(pe_key_size(&pe, 2), 5120);             /* 1024 + 4096 */
    ck_assert_double_eq(pe_key_size(&pe, 7), 0);                /* nobody */
    ck_assert_int_eq(pe.nkeysums, 2);
    pe_remove_user(&pe, &u[2].u);
    ck_assert_double_eq(pe_key_size(&pe, 0), 2 * 734003200.0);
    pe_remove_user(&pe, &u[1].u);
    pe_remove_user(&pe, &u[4].u);
    ck_assert_double_eq(pe_key_size(&pe, 2), 0); /* its last user gone */
    ck_assert_int_eq(pe.nkeysums, 1);            /* ... and its entry */
    /* Sizes of no whole number: the users' order decides the last bit.
     * Key 5 with 0.1, 0.2, 0.3 in that order: (0.1 + 0.2) + 0.3 =
     * 0.6000000000000001; with 0.1 removed and added again the order is
     * 0.2, 0.3, 0.1: (0.2 + 0.3) + 0.1 = 0.6 exactly, another double. */
    const double frac[3] = {0.1, 0.2, 0.3};
    for (int i = 0; i < 3; i++) {
        u[5 + i].u.key = 5;
        u[5 + i].u.size = frac[i];
        pe_add_user(&pe, &u[5 + i].u, count_cb);
    }
    volatile double x = 0.1, y = 0.2, z = 0.3;
    ck_assert(pe_key_size(&pe, 5) == (x + y) + z);
    ck_assert(pe_key_size(&pe, 5) == (x + y) + z); /* cached: same */
    pe_remove_user(&pe, &u[5].u);
    pe_add_user(&pe, &u[5].u, count_cb);
    ck_assert(pe_key_size(&pe, 5) == (y + z) + x);
    ck_assert((y + z) + x != (x + y) + z);
    /* Key 0 is unaffected: still the two 700 MB threads. */
    ck_assert_double_eq(pe_key_size(&pe, 0), 2 * 734003200.0);
    ck_assert_int_eq(pe.nkeysums, 2);
    /* Five keys at once: the array grows past its first 4 entries. */
    for (int i = 0; i < 3; i++)
        pe_remove_user(&pe, &u[5 + i].u);
    pe_remove_user(&pe, &u[0].u);
    pe_remove_user(&pe, &u[3].u);
    for (int i = 0; i < 5; i++) {
        u[i].u.key = 10 + i;
        u[i].u.size = 1;
    }
    for (int i = 0; i < 5; i++)
        pe_add_user(&pe, &u[i].u, count_cb);
    ck_assert_int_eq(pe.nkeysums, 5);
    for (int i = 0; i < 5; i++)
        ck_assert_double_eq(pe_key_size(&pe, 10 + i), 1);
    for (int i = 0; i < 5; i++)
        pe_remove_user(&pe, &u[i].u);
    ck_assert_int_eq(pe.nkeysums, 0);
    pe_free(&pe);
    ev_destroy(&sim);
}
END_TEST

/* ---- the disk as an M/D/1 queue ---------------------------------------------- */
/* Page accesses arrive at the PE's disk as a Poisson process of rate lambda
 * (each is a process that requests pe->disk, holds it for pe->disk_service
 * and releases it). With S deterministic the Pollaczek-Khinchine formula
 * gives the mean wait in queue
 *     Wq = rho * S / (2 (1 - rho)),   rho = lambda * S;
 * rho 0.5: Wq = S / 2;  rho 0.8: Wq = 2 S.
 * R independent replications of n accesses (first 10% dropped as warm-up)
 * give R means; theory must lie in their Student-t 99.9% interval, and the
 * interval must be narrow enough (< 5% of Wq) for the test to have teeth. */
struct access {
    proc_t p;
    struct md1 *q;
    double arrival;
    struct access *next_free;
};

struct md1 {
    proc_t source;       /* first member */
    pe_t *pe;
    rng_t *arr;
    double mean_iat;
    long n, created, warmup;
    tally_t wait;
    struct access *free, **all;
    long nall;
};

static void access_body(sim_t *sim, proc_t *p)
{
    struct access *a = (struct access *)p;
    struct md1 *q = a->q;
    PROC_BEGIN(p);
    a->arrival = sim->now;
    PROC_REQUEST(sim, p, &q->pe->disk);
    if (q->created > q->warmup)
        tally_add(&q->wait, sim->now - a->arrival);
    PROC_HOLD(sim, p, q->pe->disk_service);
    res_release(sim, &q->pe->disk, p);
    a->next_free = q->free;
    q->free = a;
    PROC_END(sim, p);
}

static void md1_source(sim_t *sim, proc_t *p)
{
    struct md1 *q = (struct md1 *)p;
    PROC_BEGIN(p);
    while (q->created < q->n) {
        PROC_HOLD(sim, p, rng_exp(q->arr, q->mean_iat));
        {
            struct access *a = q->free;
            if (a) {
                q->free = a->next_free;
            } else {
                a = calloc(1, sizeof *a);
                a->q = q;
                proc_init(sim, &a->p, access_body);
                q->all = realloc(q->all, (size_t)(q->nall + 1) * sizeof *q->all);
                q->all[q->nall++] = a;
            }
            q->created++;
            proc_start(sim, &a->p, 0);
        }
    }
    PROC_END(sim, p);
}

static void check_md1(double rho, long n, int reps)
{
    double S = pe_disk_service_time(0.009, 7200, 50);
    double wq = rho * S / (2 * (1 - rho));
    tally_t means, utils;
    tally_init(&means);
    tally_init(&utils);
    for (int k = 0; k < reps; k++) {
        sim_t sim;
        ev_init(&sim);
        pe_t pe;
        pe_init(&sim, &pe, 0, "pe", 32, 0.009, 7200, 50);
        struct md1 q = {.pe = &pe, .mean_iat = S / rho, .n = n, .warmup = n / 10};
        q.arr = rng_stream(77, "md1", (uint64_t)k);
        tally_init(&q.wait);
        proc_init(&sim, &q.source, md1_source);
        proc_start(&sim, &q.source, 0);
        ev_run(&sim, INFINITY);
        ck_assert_uint_eq(pe.disk.completions, (uint64_t)n);
        tally_add(&means, q.wait.mean);
        tally_add(&utils, res_utilization(&sim, &pe.disk));
        for (long i = 0; i < q.nall; i++) {
            proc_destroy(&sim, &q.all[i]->p);
            free(q.all[i]);
        }
        free(q.all);
        proc_destroy(&sim, &q.source);
        rng_free(q.arr);
        ev_destroy(&sim);
    }
    double t = gsl_cdf_tdist_Pinv(0.9995, reps - 1);
    double half = t * tally_sd(&means) / sqrt(reps);
    ck_assert_msg(fabs(means.mean - wq) <= half, "rho %.2f: Wq %.6g +- %.3g, theory %.6g", rho,
                  means.mean, half, wq);
    ck_assert_msg(half < 0.05 * wq, "rho %.2f: interval %.3g too wide for Wq %.3g", rho, half, wq);
    double uhalf = t * tally_sd(&utils) / sqrt(reps);
    ck_assert_msg(fabs(utils.mean - rho) <= uhalf + 1e-3, "rho %.2f: utilisation %.4f +- %.4f",
                  rho, utils.mean, uhalf);
}

START_TEST(test_disk_md1_rho05) { check_md1(0.5, 100000, 10); }
END_TEST
START_TEST(test_disk_md1_rho08) { check_md1(0.8, 200000, 20); }
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("pe");
    TCase *tc = tcase_create("pe");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_disk_service_time);
    tcase_add_test(tc, test_memory_arithmetic);
    tcase_add_test_raise_signal(tc, test_free_too_much, SIGABRT);
    tcase_add_test(tc, test_touch_map);
    tcase_add_test(tc, test_users_notified);
    tcase_add_test(tc, test_key_sizes);
    tcase_add_test(tc, test_disk_md1_rho05);
    tcase_add_test(tc, test_disk_md1_rho08);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
