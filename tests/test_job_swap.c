/* tests/test_job_swap.c: dirty write-backs on the swap device (issue 33
 * item 1, process.dirty_fraction, computer.ssd_write_latency and
 * _bandwidth; hw/swap.h, docs/MODEL.md "Device costs on a fault's path").
 *
 * Figures (worked by hand):
 *   SSD read  S_R = 80 us + 4096 B / 3000 MB/s = 80e-6 + 1.365333e-6
 *                 = 81.365333e-6 s (as tests/test_job_ssd.c);
 *   SSD write S_W = 20 us + 4096 B / 2000 MB/s = 20e-6 + 2.048e-6
 *                 = 22.048e-6 s;
 *   disk      S_D = 9 ms + 30 / 7200 s + 4096 B / 50 MB/s
 *                 = 0.009 + 0.0041666... + 0.00008192 = 0.01324858667 s,
 *             a write costing what a read costs.
 * The write of a dirty eviction is queued on the device at the fault's
 * instant, before the fault's read, FIFO; nobody waits for it as such.
 */
#include "hw/swap.h"
#include "tests/fixture_job.h"

#define S_R (80e-6 + 4096.0 / 3000e6)
#define S_W (20e-6 + 4096.0 / 2000e6)

/* ---- which evictions are dirty -------------------------------------------- */

START_TEST(test_dirty_rule)
{
    /* The n-th eviction is dirty when floor(n f) > floor((n - 1) f).
     * f = 0.5: n = 1: floor(.5) = 0 = floor(0): clean; n = 2: 1 > 0: dirty;
     * so 2, 4, 6, 8. f = 0.3: 0.3, 0.6, 0.9 (3 x 0.3 = 0.8999...), 1.2:
     * dirty at n = 4; 1.5, 1.8, 2.1: n = 7; 2.4, 2.7, 3.0: n = 10. f = 1:
     * every one; f = 0: none. */
    static const int half[8] = {0, 1, 0, 1, 0, 1, 0, 1};
    static const int three[10] = {0, 0, 0, 1, 0, 0, 1, 0, 0, 1};
    pe_t a = {0}, b = {0}, c = {0}, d = {0};
    for (int n = 0; n < 8; n++)
        ck_assert_int_eq(pe_evict_dirty(&a, 0.5), half[n]);
    for (int n = 0; n < 10; n++)
        ck_assert_int_eq(pe_evict_dirty(&b, 0.3), three[n]);
    for (int n = 0; n < 5; n++) {
        ck_assert(pe_evict_dirty(&c, 1.0));
        ck_assert(!pe_evict_dirty(&d, 0.0));
    }
    ck_assert_uint_eq(a.swap_evictions, 8);
    ck_assert_uint_eq(b.swap_evictions, 10);
}
END_TEST

/* ---- the device: a write, then reads, FIFO -------------------------------- */

/* A fault's read: it asks for the PE's swap device at its start, holds it
 * disk_service and records when it is over. */
typedef struct reader {
    proc_t p;
    pe_t *pe;
    double done;
} reader;

static void reader_body(sim_t *sim, proc_t *p)
{
    reader *r = (reader *)p;
    PROC_BEGIN(p);
    if (r->pe->swap == PE_SWAP_SSD)
        PROC_MREQUEST(sim, p, &r->pe->ssd);
    else
        PROC_REQUEST(sim, p, &r->pe->disk);
    PROC_HOLD(sim, p, r->pe->disk_service);
    if (r->pe->swap == PE_SWAP_SSD)
        mres_release(sim, &r->pe->ssd);
    else
        res_release(sim, &r->pe->disk, p);
    r->done = sim->now;
    PROC_END(sim, p);
}

/* At t = 0 a fault with a dirty eviction (pe_swap_fault, f = 1) then its
 * read (r[0]), and a second fault's read (r[1]) at the same instant with a
 * clean eviction (f = 0), on PE 0 of w. */
static void write_then_two_reads(world *w, reader r[2])
{
    pe_t *pe = &w->cl.pes[0];
    pe_swap_fault(&w->sim, pe, 1.0);
    for (int k = 0; k < 2; k++) {
        r[k] = (reader){.pe = pe, .done = -1};
        proc_init(&w->sim, &r[k].p, reader_body);
        proc_start(&w->sim, &r[k].p, 0);
    }
    pe_swap_fault(&w->sim, pe, 0.0); /* the second fault's: clean */
    ev_run(&w->sim, INFINITY);
    for (int k = 0; k < 2; k++)
        proc_destroy(&w->sim, &r[k].p);
}

/* One PE of 32 MB with an SSD of c servers, writes at 20 us and 2000 MB/s. */
static void ssd_world(world *w, int c, uint64_t seed)
{
    cluster_params p = world_params(1, 32, TOPO_KIND_STAR, BW, seed);
    p.swap = PE_SWAP_SSD;
    p.ssd_latency = 80e-6;
    p.ssd_bandwidth = 3000;
    p.ssd_parallelism = c;
    p.ssd_write_latency = 20e-6;
    p.ssd_write_bandwidth = 2000;
    world_init_p(w, &p);
}

START_TEST(test_ssd_write_c1)
{
    /* c = 1: the write holds the one server [0, S_W]; the first read waits
     * behind it: [S_W, S_W + S_R] = [22.048, 103.413333] us; the second
     * read waits behind both: [S_W + S_R, S_W + 2 S_R] = 184.778667 us.
     * The server was busy S_W + 2 S_R without a break. */
    world w;
    ssd_world(&w, 1, 1);
    pe_t *pe = &w.cl.pes[0];
    ck_assert_double_eq_tol(pe->write_service, 22.048e-6, 1e-18);
    ck_assert_double_eq_tol(pe->disk_service, 81.365333333e-6, 1e-15);
    reader r[2];
    write_then_two_reads(&w, r);
    ck_assert_double_eq_tol(r[0].done, S_W + S_R, 1e-18);
    ck_assert_double_eq_tol(r[0].done, 103.413333333e-6, 1e-15);
    ck_assert_double_eq_tol(r[1].done, S_W + 2 * S_R, 1e-18);
    ck_assert_double_eq_tol(r[1].done, 184.778666667e-6, 1e-15);
    ck_assert_uint_eq(pe->swap_writes, 1);
    ck_assert_uint_eq(pe->swap_evictions, 1); /* f = 0 counts none (hw/swap.h) */
    ck_assert_uint_eq(pe->disk_faults, 2);
    ck_assert_uint_eq(pe->ssd.completions, 3);
    ck_assert_double_eq_tol(mres_busy_time(&w.sim, &pe->ssd), S_W + 2 * S_R, 1e-18);
    ck_assert_double_eq(pe->ssd.queue.max, 2);
    world_free(&w);
}
END_TEST

START_TEST(test_ssd_write_c2)
{
    /* c = 2: the write holds one server [0, S_W], the first read the other
     * [0, S_R]: it does not wait (81.365333 us); the second read waits for
     * the first server to free, at S_W, and holds it [S_W, S_W + S_R] =
     * 103.413333 us. Server-seconds S_W + 2 S_R; at least one busy over
     * [0, S_W + S_R]. */
    world w;
    ssd_world(&w, 2, 1);
    pe_t *pe = &w.cl.pes[0];
    reader r[2];
    write_then_two_reads(&w, r);
    ck_assert_double_eq_tol(r[0].done, S_R, 1e-18);
    ck_assert_double_eq_tol(r[1].done, S_W + S_R, 1e-18);
    ck_assert_double_eq_tol(mres_server_time(&w.sim, &pe->ssd), S_W + 2 * S_R, 1e-15);
    ck_assert_double_eq_tol(mres_busy_time(&w.sim, &pe->ssd), S_W + S_R, 1e-18);
    world_free(&w);
}
END_TEST

START_TEST(test_disk_write)
{
    /* The disk: the write [0, S_D], the first read [S_D, 2 S_D] =
     * 0.02649717333 s, the second [2 S_D, 3 S_D] = 0.03974576 s; the disk
     * was busy 3 S_D, three completions. */
    world w;
    world_init(&w, 1, 32, TOPO_KIND_STAR, BW, 1);
    pe_t *pe = &w.cl.pes[0];
    ck_assert_double_eq(pe->write_service, pe->disk_service);
    ck_assert_double_eq_tol(pe->disk_service, S_DISK, 1e-15);
    reader r[2];
    write_then_two_reads(&w, r);
    ck_assert_double_eq_tol(r[0].done, 2 * S_DISK, 1e-15);
    ck_assert_double_eq_tol(r[0].done, 0.02649717333, 1e-10);
    ck_assert_double_eq_tol(r[1].done, 3 * S_DISK, 1e-15);
    ck_assert_double_eq_tol(r[1].done, 0.03974576, 1e-10);
    ck_assert_double_eq_tol(res_busy_time(&w.sim, &pe->disk), 3 * S_DISK, 1e-15);
    ck_assert_uint_eq(pe->disk.completions, 3);
    ck_assert_uint_eq(pe->swap_writes, 1);
    world_free(&w);
}
END_TEST

/* ---- a thread's faults ---------------------------------------------------- */

/* Job 1 alone on PE 0: one thread of 40 MB on 32 MB (it faults), `cpu` s,
 * R = 1e-5, dirty fraction f. */
static job_t *alone(world *w, double f, double cpu)
{
    w->cl.mem_access_rate = 1e-5;
    w->cl.dirty_fraction = f;
    return make_job(w, 1, 1, NULL, cpu, 40);
}

START_TEST(test_thread_ssd_c1)
{
    /* c = 1, f = 1: every fault writes first and reads behind the write,
     * on an otherwise idle device (the thread's previous write was over
     * before its previous read): each fault costs S_W + S_R = 103.413333
     * us, so n faults cost n (S_W + S_R); 2n completions; the device was
     * busy n (S_W + S_R). f = 0.5: faults 2, 4, ... write: floor(n / 2)
     * writes, the fault time n S_R + floor(n / 2) S_W. */
    for (int half = 0; half < 2; half++) {
        world w;
        ssd_world(&w, 1, 7);
        job_t *j = alone(&w, half ? 0.5 : 1.0, 20);
        job_run(&w.sim, j, 0);
        ev_run(&w.sim, INFINITY);
        pe_t *pe = &w.cl.pes[0];
        double n = (double)j->faults;
        double writes = half ? floor(n / 2) : n;
        ck_assert_uint_gt(j->faults, 200);
        ck_assert_uint_eq(pe->swap_writes, (uint64_t)writes);
        ck_assert_uint_eq(pe->ssd.completions, j->faults + (uint64_t)writes);
        ck_assert_near(j->fault_time, n * S_R + writes * S_W, 1e-12 * n);
        ck_assert_near(mres_busy_time(&w.sim, &pe->ssd), n * S_R + writes * S_W, 1e-12 * n);
        ck_assert_near(j->end, 20 + n * S_R + writes * S_W, 1e-9 * j->end);
        world_free(&w);
    }
}
END_TEST

START_TEST(test_thread_ssd_c2_same_run)
{
    /* c = 2, f = 1: the write takes the other server, so each fault costs
     * S_R as with f = 0: the run is the f = 0 run bit for bit (same faults,
     * fault time and end: the rule draws no random number), but the SSD
     * served n writes more: server-seconds n (S_W + S_R). */
    double end[2], ft[2];
    uint64_t faults[2];
    for (int dirty = 0; dirty < 2; dirty++) {
        world w;
        ssd_world(&w, 2, 3);
        job_t *j = alone(&w, dirty ? 1.0 : 0.0, 20);
        job_run(&w.sim, j, 0);
        ev_run(&w.sim, INFINITY);
        pe_t *pe = &w.cl.pes[0];
        double n = (double)j->faults;
        end[dirty] = j->end;
        ft[dirty] = j->fault_time;
        faults[dirty] = j->faults;
        ck_assert_uint_eq(pe->swap_writes, (dirty ? j->faults : 0));
        ck_assert_near(mres_server_time(&w.sim, &pe->ssd), n * (S_R + (dirty ? S_W : 0)),
                       1e-12 * n);
        ck_assert_near(j->fault_time, n * S_R, 1e-12 * n);
        world_free(&w);
    }
    ck_assert_uint_gt(faults[0], 200);
    ck_assert_uint_eq(faults[1], faults[0]);
    ck_assert_double_eq(ft[1], ft[0]);
    ck_assert_double_eq(end[1], end[0]);
}
END_TEST

START_TEST(test_thread_disk)
{
    /* The disk, f = 1: each fault is a write and a read of S_D each, in
     * turn: 2 S_D = 0.0264971733 s a fault, 2n disk completions, the disk
     * busy 2n S_D. */
    world w;
    world_init(&w, 1, 32, TOPO_KIND_STAR, BW, 5);
    job_t *j = alone(&w, 1.0, 20);
    job_run(&w.sim, j, 0);
    ev_run(&w.sim, INFINITY);
    pe_t *pe = &w.cl.pes[0];
    double n = (double)j->faults;
    ck_assert_uint_gt(j->faults, 100);
    ck_assert_uint_eq(pe->swap_writes, j->faults);
    ck_assert_uint_eq(pe->disk.completions, 2 * j->faults);
    ck_assert_near(j->fault_time, 2 * n * S_DISK, 1e-12 * n);
    ck_assert_near(res_busy_time(&w.sim, &pe->disk), 2 * n * S_DISK, 1e-12 * n);
    world_free(&w);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("job_swap");
    TCase *tc = tcase_create("swap");
    tcase_add_test(tc, test_dirty_rule);
    tcase_add_test(tc, test_ssd_write_c1);
    tcase_add_test(tc, test_ssd_write_c2);
    tcase_add_test(tc, test_disk_write);
    tcase_add_test(tc, test_thread_ssd_c1);
    tcase_add_test(tc, test_thread_ssd_c2_same_run);
    tcase_add_test(tc, test_thread_disk);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
