/* tests/test_job_stop.c: parallel jobs (sched/job.c) stopped and resumed,
 * on small clusters built by hand (tests/fixture_job.h): completion times
 * across descheduling worked out by hand, killed messages sent again, a job
 * ending while stopped, when memory is freed (per thread or per job,
 * process.mem_release), CPU-time conservation under random stops and runs
 * and under gang time slicing, in exact and batched paging mode. The page-fault model is tests/test_job.c's;
 * whole runs are tests/test_job_run.c's.
 */
#include "tests/fixture_components.h"
#include "app/config.h"
#include "app/run.h"
#include "app/run_check.h"
#include "sched/gang.h"
#include "sched/gang_check.h"
#include "sched/job.h"
#include "tests/testcluster.h"
#include "tests/testutil.h"

#include <gsl/gsl_cdf.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "tests/fixture_job.h"

/* ---- descheduling by hand ------------------------------------------------------------------ */

START_TEST(test_switch_mid_burst)
{
    /* One thread, 10 s, no paging or messages.
     * (a) stopped at 3, run again at 5 with a 0.5 s context switch: it
     *     computes 3, waits 2 + 0.5, computes 7: ends at 12.5.
     * (b) as (a), but stopped again at 5.2, during the context switch, and
     *     run at 6 (0.5 again): computes from 6.5 for 7 s: ends at 13.5.
     * (c) stopped and run at the same instant 4 (no delay): ends at 10. */
    struct {
        double ev[4][3]; /* time, kind (0 stop, 1 run), context switch */
        int n;
        double end;
    } cases[] = {
        {{{3, 0, 0}, {5, 1, 0.5}}, 2, 12.5},
        {{{3, 0, 0}, {5, 1, 0.5}, {5.2, 0, 0}, {6, 1, 0.5}}, 4, 13.5},
        {{{4, 0, 0}, {4, 1, 0}}, 2, 10},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        world w;
        world_init(&w, 1, 64, TOPO_KIND_STAR, BW, 9);
        job_t *j = make_job(&w, 1, 1, NULL, 10, 8);
        job_run(&w.sim, j, 0);
        for (int k = 0; k < cases[c].n; k++)
            at(&w, cases[c].ev[k][0], j, cases[c].ev[k][1] ? ACT_RUN : ACT_STOP,
               cases[c].ev[k][2]);
        ev_run(&w.sim, INFINITY);
        ck_assert_int_eq(w.jobs_ended, 1);
        ck_assert_near(j->end, cases[c].end, TOL);
        ck_assert_double_eq(j->th[0].cpu_done, 10);
        ck_assert_near(cpu_busy(&w), 10, TOL);
        ck_assert_ptr_null(w.cl.pes[0].cpu.holder);
        world_free(&w);
    }
}
END_TEST

START_TEST(test_killed_sync_restarted)
{
    /* Two threads on PEs 0 and 1 of a star, 10 s, sync every 4 s. Thread 1's
     * synchronisation message crosses link 1, the switch and link 0:
     * 2 Ls + D = 9.034e-5 s; the master's own arrives at once.
     * Undisturbed: 10 + 2 (2 Ls + D).
     * Stopped at 4 + 1e-5 (thread 1's message is at the switch: killed) and
     * run at 5 with a 0.5 s context switch: the message is sent again at 5
     * and arrives at 5 + 2 Ls + D, which opens the barrier; the threads
     * compute again from 5.5 (the context switch), synchronise at 8 s of
     * CPU (2 Ls + D), and end at 5.5 + 6 + 2 Ls + D. */
    for (int stop = 0; stop < 2; stop++) {
        world w;
        world_init(&w, 2, 64, TOPO_KIND_STAR, BW, 10);
        w.cl.sync_rate = 4;
        job_t *j = make_job(&w, 1, 2, NULL, 10, 8);
        job_run(&w.sim, j, 0);
        if (stop) {
            at(&w, 4 + 1e-5, j, ACT_STOP, 0);
            at(&w, 5, j, ACT_RUN, 0.5);
        }
        ev_run(&w.sim, INFINITY);
        double hop = 2 * LS + DELAY;
        ck_assert_near(hop, 9.034e-5, 1e-15);
        if (stop) {
            ck_assert_near(j->end, 11.5 + hop, TOL);
            ck_assert_uint_eq(w.cl.messages_killed, 1);
            ck_assert_uint_eq(net_restarts(w.cl.net), 1);
        } else {
            ck_assert_near(j->end, 10 + 2 * hop, TOL);
            ck_assert_uint_eq(w.cl.messages_killed, 0);
        }
        ck_assert_uint_eq(w.cl.sync_msgs, 4);
        ck_assert_uint_eq(net_messages_delivered(w.cl.net), 4);
        world_free(&w);
    }
}
END_TEST

START_TEST(test_killed_neighbour_restarted)
{
    /* A bus of 2000 B/s: a 1024 B neighbour message holds it for
     * 5e-8 + 0.512 s. Two threads on PEs 0 and 1, 3 s, a neighbour message
     * every 1 s. At 1 both send; one holds the bus, the other queues. Both
     * are killed by a stop at 1.25 and sent again when the job runs at 2
     * (no delay). The threads, 1.25 s done at the stop, end at
     * 2 + 1.75 = 3.75 (messages never hold a thread up). Counts: 2 x 3 = 6
     * neighbour messages and 6 replies (the last ones arrive after the job
     * ended: a reply is still sent), 2 killed, 2 restarted, 12 deliveries. */
    world w;
    world_init(&w, 2, 64, TOPO_KIND_BUS, 2000, 11);
    w.cl.comm_rate = 1;
    w.release_on_end = true;
    job_t *j = make_job(&w, 1, 2, NULL, 3, 8);
    job_run(&w.sim, j, 0);
    at(&w, 1.25, j, ACT_STOP, 0);
    at(&w, 2, j, ACT_RUN, 0);
    ev_run(&w.sim, 3.75);
    ck_assert_int_eq(w.jobs_ended, 1);
    ck_assert_near(j->end, 3.75, TOL);
    ck_assert_uint_eq(w.cl.messages_killed, 2);
    ev_run(&w.sim, INFINITY);
    /* j was released at its end and freed once its messages were done. */
    ck_assert_int_eq(w.cl.jobs_alive, 0);
    ck_assert_uint_eq(w.cl.neighbour_msgs, 6);
    ck_assert_uint_eq(w.cl.neighbour_replies, 6);
    ck_assert_uint_eq(net_restarts(w.cl.net), 2);
    ck_assert_uint_eq(net_messages_sent(w.cl.net), 12);
    ck_assert_uint_eq(net_messages_delivered(w.cl.net), 12);
    ck_assert_int_eq(net_in_flight(w.cl.net), 0);
    world_free(&w);
}
END_TEST

/* A stop at the very instant the last synchronisation message arrives,
 * after the barrier opened but before the released threads run: the
 * threads were done, so they end although the job is stopped, and the
 * neighbour replies the stop killed can never be restarted by a job_run.
 * The probe finds the synchronisation message on its last hop and puts the
 * stop at its arrival time (scheduled after the arrival, before the
 * threads' wake-ups). */
typedef struct probe {
    world *w;
    job_t *j;
    ev_id ev;
    double stop_at;
} probe;

static void probe_cb(sim_t *sim, void *arg)
{
    probe *pr = arg;
    net_t *net = pr->w->cl.net;
    list_for_each(it, &pr->j->msgs) {
        const job_msg *jm = container_of(it, job_msg, m.link);
        const msg_t *m = &jm->m;
        if (jm->kind == MSG_SYNC && m->src != m->dst && m->p.state == PROC_HOLDING &&
            m->hop == net_route_len(net, m->src, m->dst) - 1) {
            pr->stop_at = m->p.wake_at;
            at(pr->w, pr->stop_at, pr->j, ACT_STOP, 0);
            return;
        }
    }
    ev_at(sim, pr->ev, sim->now + 1e-6);
}

START_TEST(test_end_while_stopped)
{
    /* Two threads on PEs 0 and 1, 4 s, a neighbour message and a
     * synchronisation at 4 s (the last one). The 1024 B neighbour messages
     * and their replies take longer than the 64 B synchronisation message,
     * so replies are in flight when the stop comes. */
    world w;
    world_init(&w, 2, 64, TOPO_KIND_STAR, BW, 13);
    w.cl.comm_rate = 4;
    w.cl.sync_rate = 4;
    w.release_on_end = true;
    job_t *j = make_job(&w, 1, 2, NULL, 4, 8);
    job_run(&w.sim, j, 0);
    probe pr = {.w = &w, .j = j, .stop_at = -1};
    pr.ev = ev_new(&w.sim, probe_cb, &pr);
    ev_at(&w.sim, pr.ev, 4);
    ev_run(&w.sim, INFINITY);
    ck_assert(pr.stop_at > 4);
    ck_assert_int_eq(w.jobs_ended, 1);
    ck_assert_double_eq(thread_end_time(&w, 1, 0), pr.stop_at);
    ck_assert_double_eq(thread_end_time(&w, 1, 1), pr.stop_at);
    ck_assert_uint_gt(w.cl.messages_killed, 0);
    ck_assert_uint_eq(net_restarts(w.cl.net), w.cl.messages_killed);
    ck_assert_uint_eq(w.cl.neighbour_replies, 2);
    ck_assert_uint_eq(net_messages_sent(w.cl.net), 6);
    ck_assert_uint_eq(net_messages_delivered(w.cl.net), 6);
    ck_assert_int_eq(net_in_flight(w.cl.net), 0);
    ck_assert_int_eq(w.cl.jobs_alive, 0);
    ev_free(&w.sim, pr.ev);
    world_free(&w);
}
END_TEST

/* ---- when memory is freed: per thread or per job (process.mem_release) ---------------------------- */

static double mem_probe[2];

static void mem_probe_cb(sim_t *sim, void *arg)
{
    (void)sim;
    world *w = arg;
    mem_probe[0] = w->cl.pes[0].alloc_mb;
    mem_probe[1] = w->cl.pes[1].alloc_mb;
}

/* Job A (1 thread, 60 MB, PE 0) starts at 0 and is stopped at 0.5: its
 * memory stays on PE 0. Job B (2 threads, 60 MB, 10 s, PEs 0 and 1) runs
 * from 1: PE 0 holds 120 MB of 100 (20 MB out, R = 1e-5: B's thread 0
 * pages); PE 1 holds 60 MB (no paging), so B's thread 1 ends at exactly 11
 * and thread 0 later, by the time its faults took. Probe at 11.001. */
static void mem_release_case(sched_mem_release mode, double *b_end, double *t1_hook,
                             double *t0_hook)
{
    world w;
    world_init(&w, 2, 100, TOPO_KIND_STAR, BW, 41);
    w.cl.mem_access_rate = 1e-5;
    w.cl.mem_release = mode;
    job_t *a = make_job(&w, 1, 1, NULL, 1000, 60);
    int pes_b[] = {0, 1};
    job_t *b = make_job(&w, 2, 2, pes_b, 10, 60);
    at(&w, 0, a, ACT_RUN, 0);
    at(&w, 0.5, a, ACT_STOP, 0);
    at(&w, 1, b, ACT_RUN, 0);
    ev_once(&w.sim, 11.001, mem_probe_cb, &w);
    ck_assert_int_eq(ev_run(&w.sim, INFINITY), EV_RUN_EMPTY);
    ck_assert(b->ended);
    ck_assert_uint_eq(b->th[1].faults, 0);
    ck_assert_uint_gt(b->th[0].faults, 0);
    /* Thread 0's faults took at least one disk access: it ends after the
     * probe, so the probe sees B with one thread done, one running. */
    ck_assert(b->end >= 11 + S_DISK - TOL);
    *b_end = b->end;
    *t1_hook = thread_end_time(&w, 2, 1);
    *t0_hook = thread_end_time(&w, 2, 0);
    /* After B's end PE 0 holds A's 60 MB again, PE 1 nothing: nothing
     * leaked and nothing freed twice, whatever the mode. */
    ck_assert_double_eq(w.cl.pes[0].alloc_mb, 60);
    ck_assert_double_eq(w.cl.pes[1].alloc_mb, 0);
    ck_assert(b->th[0].mem_freed && b->th[1].mem_freed);
    ck_assert(!a->th[0].mem_freed);
    world_free(&w);
}

START_TEST(test_mem_release_thread_or_job)
{
    double end_t, t1_t, t0_t, end_j, t1_j, t0_j;
    /* THREAD (the default): thread 1's 60 MB leave PE 1 at 11, when it
     * ends; the PNR hook (thread_ended) runs then. */
    mem_release_case(MEM_RELEASE_THREAD, &end_t, &t1_t, &t0_t);
    ck_assert_double_eq(mem_probe[0], 120);
    ck_assert_double_eq(mem_probe[1], 0);
    ck_assert_near(t1_t, 11, TOL);
    ck_assert_double_eq(t0_t, end_t);
    /* JOB: PE 1 keeps thread 1's 60 MB until B's last thread ends; both
     * hooks run at B's end. */
    mem_release_case(MEM_RELEASE_JOB, &end_j, &t1_j, &t0_j);
    ck_assert_double_eq(mem_probe[0], 120);
    ck_assert_double_eq(mem_probe[1], 60);
    ck_assert_double_eq(t1_j, end_j);
    ck_assert_double_eq(t0_j, end_j);
    /* PE 1's memory never changes PE 0's paging: the same fault draws give
     * the same end in both modes. */
    ck_assert_double_eq(end_t, end_j);
}
END_TEST

/* ---- CPU time conservation under random stops and runs ------------------------------------------ */

typedef struct toggler {
    world *w;
    job_t *jobs[2];
    rng_t *r;
    ev_id ev;
    long toggles;
} toggler;

static void toggle(sim_t *sim, void *arg)
{
    toggler *t = arg;
    if (t->jobs[0]->ended && t->jobs[1]->ended)
        return;
    job_t *j = t->jobs[rng_index(t->r, 2)];
    if (!j->ended) {
        if (j->running)
            job_stop(sim, j);
        else
            job_run(sim, j, 0.01);
        t->toggles++;
    }
    /* One time in five the next toggle is at the same instant. */
    double dt = rng_uniform01(t->r) < 0.2 ? 0 : rng_exp(t->r, 1.5);
    ev_at(sim, t->ev, sim->now + dt);
}

/* Batched paging in the test worlds: faults go to the disk (on_fault). */
static int to_disk(thread_t *th, void *ctx, double *svc)
{
    (void)th;
    (void)ctx;
    (void)svc; /* the disk's service, batch.c fills it in */
    return -1;
}

/* Paging mode _i (loop tests): EXACT or BATCHED. */
static void set_paging(world *w, int mode)
{
    w->cl.paging = mode ? PAGING_BATCHED : PAGING_EXACT;
    w->cl.hooks.fault_plan = to_disk;
}

/* Every fault was one disk service of S_DISK: on every PE, faults = disk
 * completions, disk busy = faults * S_DISK <= fault time; in batched mode
 * some faults ran in batches. */
static void check_disk(world *w, int mode)
{
    uint64_t batched = 0;
    for (int i = 0; i < w->cl.npes; i++) {
        pe_t *pe = &w->cl.pes[i];
        ck_assert_uint_eq(pe->faults, pe->disk_faults);
        ck_assert_uint_eq(pe->disk.completions, pe->faults);
        ck_assert_uint_eq(pe->disk.requests, pe->faults);
        ck_assert_ptr_null(pe->disk.holder);
        ck_assert_int_eq(pe->paging, 0);
        ck_assert_near(res_busy_time(&w->sim, &pe->disk), (double)pe->faults * S_DISK,
                       1e-9 * (1 + (double)pe->faults));
        /* A fault's time includes its wait for the disk. */
        ck_assert(pe->fault_time >= (double)pe->faults * S_DISK * (1 - 1e-12));
        ck_assert_ptr_null(pe->batch);
    }
    batched = w->cl.batch_faults;
    if (mode)
        ck_assert_uint_gt(batched, 0);
    else
        ck_assert_uint_eq(batched, 0);
}

START_TEST(test_cpu_conserved_stop_run)
{
    /* (_i = 1: the same in batched paging mode, process.paging = BATCHED.) */
    /* Job X: 3 threads on PEs 0-2, 30 s; job Y: 2 threads on PEs 1-2, 20 s;
     * 20 MB threads on 32 MB PEs, so PEs 1 and 2 are 8 MB overallocated
     * once both jobs started (R = 1e-5); neighbour messages every 1.5 s,
     * synchronisation every 4 s, on a slow star (1e4 B/s: a neighbour
     * message spends 0.2 s on links) so that stops often catch messages in
     * flight. A random scheduler stops and runs the two
     * jobs (0.01 s context switch), sometimes twice at one instant. Whatever
     * the interleaving: CPU busy time summed over PEs = CPU demand done =
     * 3*30 + 2*20 = 130 s; every thread did exactly its demand; messages:
     * 3*floor(30/1.5) + 2*floor(20/1.5) = 60 + 26 = 86 neighbour messages
     * and as many replies, 3*floor(30/4) + 2*floor(20/4) = 21 + 10 = 31
     * synchronisation messages; every killed message was sent again. */
    long killed = 0;
    for (int rep = 0; rep < 20; rep++) {
        world w;
        world_init(&w, 3, 32, TOPO_KIND_STAR, 1e4, 200 + (uint64_t)rep);
        w.cl.mem_access_rate = 1e-5;
        w.cl.comm_rate = 1.5;
        w.cl.sync_rate = 4;
        set_paging(&w, _i);
        int px[] = {0, 1, 2}, py[] = {1, 2};
        toggler t = {.w = &w};
        t.jobs[0] = make_job(&w, 1, 3, px, 30, 20);
        t.jobs[1] = make_job(&w, 2, 2, py, 20, 20);
        t.r = rng_stream(300 + (uint64_t)rep, "toggle", 0);
        t.ev = ev_new(&w.sim, toggle, &t);
        ev_at(&w.sim, t.ev, 0);
        ev_run(&w.sim, INFINITY);
        ck_assert_int_eq(w.jobs_ended, 2);
        ck_assert_near(w.cl.cpu_demand_done, 130, TOL);
        ck_assert_near(cpu_busy(&w), 130, TOL);
        for (int k = 0; k < 2; k++)
            for (int i = 0; i < t.jobs[k]->threads; i++)
                ck_assert_double_eq(t.jobs[k]->th[i].cpu_done, t.jobs[k]->cpu);
        ck_assert_uint_eq(w.cl.neighbour_msgs, 86);
        ck_assert_uint_eq(w.cl.neighbour_replies, 86);
        ck_assert_uint_eq(w.cl.sync_msgs, 31);
        ck_assert_uint_eq(net_restarts(w.cl.net), w.cl.messages_killed);
        ck_assert_uint_eq(net_messages_delivered(w.cl.net), net_messages_sent(w.cl.net));
        ck_assert_int_eq(net_in_flight(w.cl.net), 0);
        ck_assert_int_eq(w.cl.threads_running, 0);
        ck_assert_uint_gt(w.cl.pes[1].faults, 0);
        ck_assert_uint_gt(t.toggles, 4);
        check_disk(&w, _i);
        killed += (long)w.cl.messages_killed;
        ev_free(&w.sim, t.ev);
        rng_free(t.r);
        world_free(&w);
    }
    ck_assert_int_gt(killed, 0); /* the kill path was exercised */
}
END_TEST

/* ---- gang time slicing ------------------------------------------------------------------------------ */

/* A world (star, BW) with a gang scheduler of FCFS, first fit, the MPL,
 * quantum and PCS given; job ends reach on_job_ended through it. */
static gang_t *world_init_gang(world *w, int npes, double ram_mb, uint64_t seed, int mpl,
                               double quantum, double pcs)
{
    gang_params gp = {.priority = PRIO_FCFS,
                      .backfill = BF_NONE,
                      .packing = PACK_FIRSTFIT,
                      .mpl = mpl,
                      .pcs = pcs,
                      .quantum = quantum,
                      .mem_aware = false,
                      .strict_order = false};
    cluster_params p = world_params(npes, ram_mb, TOPO_KIND_STAR, BW, seed);
    p.gang = &gp;
    p.on_end = on_job_ended;
    p.end_ctx = w;
    world_init_p(w, &p);
    return w->g;
}

START_TEST(test_gang_switch_by_hand)
{
    /* One PE, MPL 2, quantum 1 s, context switch 0.01 s. A and B (one
     * thread, 2.5 s each) arrive at 0: A in slot 0 runs at once, B opens
     * slot 1.
     *   [0, 1]       A computes 1
     *   [1, 2]       B starts (a first start costs no switch), computes 1
     *   [2, 3]       A resumes at 2.01, computes 0.99 (1.99 done)
     *   [3, 4]       B resumes at 3.01, computes 0.99 (1.99 done)
     *   [4, ...]     A resumes at 4.01, needs 0.51: ends at 4.52
     *                = 2.5 demand + 2 descheduled + 2 switches of 0.01.
     *   slot 0 goes; B resumes at 4.53, needs 0.51: ends at 5.04
     *                = 1 (start) + 2.5 + 1.52 descheduled + 0.02. */
    world w;
    gang_t *g = world_init_gang(&w, 1, 64, 12, 2, 1, 0.01);
    job_t *a = job_create(&w.cl, 1, 1, 0, 1, 2.5, 8);
    job_t *b = job_create(&w.cl, 2, 2, 0, 1, 2.5, 8);
    gang_submit(&w.sim, g, a);
    gang_submit(&w.sim, g, b);
    ev_run(&w.sim, INFINITY);
    ck_assert_int_eq(w.jobs_ended, 2);
    ck_assert_near(a->end, 4.52, TOL);
    ck_assert_near(b->start, 1, TOL);
    ck_assert_near(b->end, 5.04, TOL);
    ck_assert_near(cpu_busy(&w), 5, TOL);
    ck_assert_ptr_null(gang_check(g));
    ck_assert_int_eq(gang_placed(g), 0);
    ck_assert_int_eq(gang_running(g), 0);
    world_free(&w);
}
END_TEST

typedef struct arrivals {
    world *w;
    rng_t *r;
    int left;
    long next_id;
    double demand;          /* summed CPU demand submitted */
    long nb, sy;            /* expected message counts */
    ev_id ev;
} arrivals;

static void arrive(sim_t *sim, void *arg)
{
    arrivals *a = arg;
    world *w = a->w;
    int threads = 1 + (int)rng_index(a->r, (unsigned long)w->cl.npes);
    double cpu = rng_uniform(a->r, 0.5, 15);
    double mem = rng_uniform(a->r, 2, 24);
    job_t *j = job_create(&w->cl, a->next_id, a->next_id, sim->now, threads, cpu, mem);
    a->next_id++;
    a->demand += threads * cpu;
    a->nb += threads * firings(cpu, w->cl.comm_rate);
    a->sy += threads * firings(cpu, w->cl.sync_rate);
    gang_submit(sim, w->g, j);
    if (--a->left > 0)
        ev_at(sim, a->ev, sim->now + rng_exp(a->r, 2));
}

START_TEST(test_cpu_conserved_gang)
{
    /* 40 random jobs (1-4 threads, 0.5-15 s, 2-24 MB per thread) arriving
     * every 2 s on average at 4 PEs of 32 MB, gang scheduled with MPL 2,
     * a 1 s quantum and 0.01 s context switches: jobs sharing a PE across
     * the two slots overallocate it and page (R = 1e-5); neighbour messages
     * every 2 s, synchronisation every 5 s. At the end: every job ended and
     * was freed, CPU busy time = CPU demand done = demand submitted, message
     * counts as the formulas say, every killed message sent again, and the
     * scheduler's counters back at zero. _i = 1: the same in batched paging
     * mode; in both, every fault is one disk service (check_disk). */
    for (int rep = 0; rep < 5; rep++) {
        world w;
        gang_t *g = world_init_gang(&w, 4, 32, 400 + (uint64_t)rep, 2, 1, 0.01);
        w.cl.mem_access_rate = 1e-5;
        w.cl.comm_rate = 2;
        w.cl.sync_rate = 5;
        set_paging(&w, _i);
        w.release_on_end = true;
        arrivals a = {.w = &w, .left = 40, .next_id = 1};
        a.r = rng_stream(500 + (uint64_t)rep, "arrivals", 0);
        a.ev = ev_new(&w.sim, arrive, &a);
        ev_at(&w.sim, a.ev, 0);
        ev_run(&w.sim, INFINITY);
        ck_assert_int_eq(w.jobs_ended, 40);
        ck_assert_int_eq(w.cl.jobs_alive, 0);
        ck_assert_near(w.cl.cpu_demand_done, a.demand, 1e-9 * a.demand);
        ck_assert_near(cpu_busy(&w), a.demand, 1e-9 * a.demand);
        ck_assert_uint_eq(w.cl.neighbour_msgs, (uint64_t)a.nb);
        ck_assert_uint_eq(w.cl.neighbour_replies, (uint64_t)a.nb);
        ck_assert_uint_eq(w.cl.sync_msgs, (uint64_t)a.sy);
        ck_assert_uint_eq(net_restarts(w.cl.net), w.cl.messages_killed);
        ck_assert_uint_eq(net_messages_delivered(w.cl.net), net_messages_sent(w.cl.net));
        ck_assert_ptr_null(gang_check(g));
        ck_assert_int_eq(gang_placed(g), 0);
        ck_assert_int_eq(gang_queued(g), 0);
        ck_assert_int_eq(gang_running(g), 0);
        ck_assert_int_ge(gang_mpl_max(g), 2);
        ck_assert_uint_gt(gang_pcs_count(g), 0);
        uint64_t faults = 0;
        for (int i = 0; i < 4; i++) {
            faults += w.cl.pes[i].faults;
            ck_assert_double_eq(w.cl.pes[i].alloc_mb, 0);
        }
        ck_assert_uint_gt(faults, 0);
        check_disk(&w, _i);
        ev_free(&w.sim, a.ev);
        rng_free(a.r);
        world_free(&w);
    }
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("job_stop");
    TCase *tc = tcase_create("job");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_switch_mid_burst);
    tcase_add_test(tc, test_killed_sync_restarted);
    tcase_add_test(tc, test_killed_neighbour_restarted);
    tcase_add_test(tc, test_end_while_stopped);
    tcase_add_test(tc, test_mem_release_thread_or_job);
    tcase_add_loop_test(tc, test_cpu_conserved_stop_run, 0, 2);
    tcase_add_test(tc, test_gang_switch_by_hand);
    tcase_add_loop_test(tc, test_cpu_conserved_gang, 0, 2);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
