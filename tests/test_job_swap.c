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
#include "sched/batch.h"
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

/* ---- a fraction per job (process.dirty_fractions) ------------------------- */

START_TEST(test_dirty_per_thread_rule)
{
    /* Two threads A (f = 0.5) and B (f = 0.25) fault in turn on one disk,
     * A B A B ..., 8 faults each. Per thread (pe_swap_fault_own, each its
     * own count): A's k-th eviction is dirty at k = 2, 4, 6, 8 (4 writes),
     * B's at k = 4, 8 (2 writes): 6 writes, each its job's fraction. The
     * writes alone run back to back on the disk: busy 6 S_D = 0.07949152 s,
     * 6 completions; 16 evictions on the node. With the node's count
     * instead (pe_swap_fault, the same fractions) A's faults are the
     * node's 1st, 3rd, ... 15th: odd n, never dirty at 0.5 (floor(n/2) >
     * floor((n-1)/2) only at even n); B's are the 2nd ... 16th, dirty at
     * n = 4, 8, 12, 16: A writes none of 8 and B half: why the count is
     * per thread when the fractions differ. */
    static const int wa[8] = {0, 1, 0, 1, 0, 1, 0, 1}, wb[8] = {0, 0, 0, 1, 0, 0, 0, 1};
    for (int own = 1; own >= 0; own--) {
        world w;
        world_init(&w, 1, 32, TOPO_KIND_STAR, BW, 1);
        pe_t *pe = &w.cl.pes[0];
        uint64_t na = 0, nb = 0, ka = 0, kb = 0;
        for (int k = 0; k < 8; k++) {
            uint64_t before = pe->swap_writes;
            pe_swap_fault_own(&w.sim, pe, 0.5, own ? &ka : NULL);
            na += pe->swap_writes - before;
            if (own)
                ck_assert_uint_eq(pe->swap_writes - before, (uint64_t)wa[k]);
            before = pe->swap_writes;
            pe_swap_fault_own(&w.sim, pe, 0.25, own ? &kb : NULL);
            nb += pe->swap_writes - before;
            if (own)
                ck_assert_uint_eq(pe->swap_writes - before, (uint64_t)wb[k]);
        }
        ck_assert_uint_eq(na, own ? 4 : 0);
        ck_assert_uint_eq(nb, own ? 2 : 4);
        ck_assert_uint_eq(ka, own ? 8 : 0);
        ck_assert_uint_eq(kb, own ? 8 : 0);
        ck_assert_uint_eq(pe->swap_evictions, 16);
        ck_assert_uint_eq(pe->disk_faults, 16);
        ev_run(&w.sim, INFINITY);
        double busy = (double)(na + nb) * S_DISK;
        ck_assert_double_eq_tol(res_busy_time(&w.sim, &pe->disk), busy, 1e-12);
        if (own)
            ck_assert_double_eq_tol(res_busy_time(&w.sim, &pe->disk), 0.07949152, 1e-6);
        ck_assert_uint_eq(pe->disk.completions, na + nb);
        world_free(&w);
    }
}
END_TEST

static int to_disk(thread_t *th, void *ctx, double *svc)
{
    (void)th;
    (void)ctx;
    (void)svc; /* batched paging: the swap device serves it (batch.c) */
    return -1;
}

/* Jobs 1 (f = 0.5) and 2 (f = 0.25), one thread each on the two cores of
 * one node of 64 MB, 48 MB and 8 CPU s each (they page), R = 1e-5, the
 * counts per thread (cl.dirty_per_thread, as process.dirty_fractions sets
 * it). swap: the disk (c = 0) or an SSD of c servers. */
static void two_jobs(world *w, int c, bool batched, uint64_t seed, job_t *jb[2])
{
    cluster_params p = world_params(1, 64, TOPO_KIND_STAR, BW, seed);
    if (c > 0) {
        p.swap = PE_SWAP_SSD;
        p.ssd_latency = 80e-6;
        p.ssd_bandwidth = 3000;
        p.ssd_parallelism = c;
        p.ssd_write_latency = 20e-6;
        p.ssd_write_bandwidth = 2000;
    }
    p.cores_per_node = 2;
    p.paging = batched ? PAGING_BATCHED : PAGING_EXACT;
    p.dirty_per_thread = true;
    p.dirty_max = 0.5;
    world_init_p(w, &p);
    w->cl.mem_access_rate = 1e-5;
    w->cl.hooks.fault_plan = to_disk;
    static const double f[2] = {0.5, 0.25};
    for (int k = 0; k < 2; k++) {
        jb[k] = make_job(w, k + 1, 1, &k, 8, 48);
        jb[k]->row = 0;
        jb[k]->dirty_fraction = f[k];
        at(w, 0, jb[k], ACT_RUN, 0);
    }
}

START_TEST(test_two_jobs_own_fractions)
{
    /* test_two_jobs' node: each thread's n-th eviction is dirty when
     * floor(n f_job) > floor((n-1) f_job), so with n1, n2 faults (every
     * one on the swap device) the node writes floor(n1 / 2) + floor(n2 /
     * 4) pages, each thread having counted its own faults; every access
     * costs its service whatever the queue: the disk is busy (n1 + n2 +
     * writes) S_D, an SSD's server-seconds are (n1 + n2) S_R + writes S_W,
     * with n1 + n2 + writes completions. Exact on the disk and on an SSD
     * of 1 and 2 servers, batched on the SSD of 1 (batches plan the
     * writes with the same per-thread count; cut by the other core's
     * faults, a few batches only: tests/test_batch_costs.c has a thread
     * mostly batched). Fails with the node's count (the writes are then
     * floor over the node's interleaved faults, not each job's). */
    static const struct { int c; bool batched; } cases[] = {{0, false}, {1, false}, {2, false},
                                                            {1, true}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (uint64_t seed = 1; seed <= 3; seed++) {
            world w;
            job_t *jb[2];
            two_jobs(&w, cases[i].c, cases[i].batched, seed, jb);
            ev_run(&w.sim, INFINITY);
            ck_assert_int_eq(w.jobs_ended, 2);
            pe_t *pe = &w.cl.pes[0];
            uint64_t n1 = jb[0]->faults, n2 = jb[1]->faults;
            uint64_t writes = n1 / 2 + n2 / 4;
            ck_assert_uint_gt(n1, 50);
            ck_assert_uint_gt(n2, 50);
            ck_assert_uint_eq(jb[0]->th[0].evictions, n1);
            ck_assert_uint_eq(jb[1]->th[0].evictions, n2);
            ck_assert_uint_eq(pe->swap_evictions, n1 + n2);
            ck_assert_uint_eq(pe->swap_writes, writes);
            double n = (double)(n1 + n2), nw = (double)writes;
            if (cases[i].c == 0) {
                ck_assert_uint_eq(pe->disk.completions, n1 + n2 + writes);
                ck_assert_near(res_busy_time(&w.sim, &pe->disk), (n + nw) * S_DISK, 1e-6);
            } else {
                ck_assert_uint_eq(pe->ssd.completions, n1 + n2 + writes);
                ck_assert_near(mres_server_time(&w.sim, &pe->ssd), n * S_R + nw * S_W, 1e-6);
            }
            if (cases[i].batched)
                ck_assert_uint_gt(w.cl.batch_faults, 0);
            else
                ck_assert_uint_eq(w.cl.batch_faults, 0);
            world_free(&w);
        }
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
    tcase_add_test(tc, test_dirty_per_thread_rule);
    tcase_add_test(tc, test_two_jobs_own_fractions);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
