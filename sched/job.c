/* sched/job.c: the behaviour of a parallel job's threads (see job.h).
 *
 * Each thread is a stackless process. Its body is a loop of CPU bursts: a
 * burst runs until the earliest of the thread's clocks (end of work, next
 * fault, next neighbour message, next synchronisation), all kept in CPU
 * seconds done (cpu_done), so a burst's work is target - cpu_done and
 * nothing but computing moves them. Burst ends are assigned exactly
 * (cpu_done = target), which keeps counts such as floor(demand / rate)
 * exact when the numbers are.
 * The clocks count work at the trace's speed (issue 35): on a node of
 * speed s a burst of w holds w / s s, one cut after d s did d * s (exact
 * at s = 1: defaults unchanged bit for bit; docs/MODEL.md).
 *
 * Interruptions from outside the thread:
 *   job_stop        credits a computing burst's CPU time done, releases
 *                   the CPU and interrupts the thread's hold with
 *                   PROC_STOPPED (proc_interrupt); the hold returns that
 *                   signal, and the thread loops to its one wait for the
 *                   job to run (resume_q);
 *   memory change   recomputes the fault clock and moves the burst's end
 *                   (proc_hold on the same wake-up event).
 *
 * Batched paging (cl->paging == PAGING_BATCHED, docs/BATCHING.md) is a
 * layer above, sched/batch.c, reached only through cl->batching (job.h)
 * and pe_batch_end; the pools of job blocks and thread arrays, below, are
 * sched/job_pool.c.
 *
 * One process per job (job.h): a job whose threads nothing can tell apart
 * (solo_eligible) runs as the process job_body, which steps every thread
 * through the same code as thread_body (thread_begin, solo_step, solo_wake)
 * in thread order. Why that is exact: the per-thread processes of such a
 * job are started by one loop in job_run (consecutive sequence numbers at
 * one instant), so their start events run back to back; each then
 * schedules only its own hold, all of the same length (same demand, same
 * start, no clock but the end of work), so the hold ends also run back to
 * back, and nothing else can run between two of them (a new event at the
 * same instant sorts after them). One event in the place of each such run
 * therefore leaves every other event's order unchanged, and inside it the
 * threads change the same state in the same order.
 */
#include "sched/job.h"
#include "sched/job_clock.h"
#include "sched/job_loop.h"
#include "sched/job_pool.h"

#include "core/mem.h"
#include "hw/swap.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- messages -------------------------------------------------------------- */

/* Put m at the head of j's in-flight messages (newest first). */
static void job_msg_link(job_t *j, job_msg *m)
{
    list_add_head(&j->msgs, &m->m.link);
}

/* Take m off the list it is on (in flight or killed). */
static void job_msg_unlink(job_msg *m)
{
    list_del(&m->m.link);
}

/* The first message of list l, or NULL. */
static job_msg *job_msg_first(list_t *l)
{
    list_t *n = list_first(l);
    return n ? container_of(n, job_msg, m.link) : NULL;
}

static void maybe_destroy(sim_t *sim, job_t *j);
static void sync_arrived(sim_t *sim, job_t *j);

static void msg_arrived(sim_t *sim, msg_t *mm)
{
    job_msg *m = container_of(mm, job_msg, m);
    job_t *j = m->j;
    cluster_t *cl = j->cl;
    job_msg_unlink(m);
    if (m->kind == MSG_NEIGHBOUR) {
        /* The neighbour answers at once (§4.3.2), even when the job has
         * just ended (the message was sent before): every neighbour
         * message gets its reply. */
        int s = mm->src;
        mm->src = mm->dst;
        mm->dst = s;
        m->kind = MSG_NEIGHBOUR_REPLY;
        cl->neighbour_replies++;
        job_msg_link(j, m);
        net_send(sim, cl->net, mm);
        return;
    }
    int kind = m->kind;
    net_msg_free(cl->net, mm);
    if (kind == MSG_SYNC)
        sync_arrived(sim, j);
    maybe_destroy(sim, j);
}

static void send_msg(sim_t *sim, job_t *j, int src_pe, int dst_pe, double bytes, int kind)
{
    cluster_t *cl = j->cl;
    if (!cl->msg_pool)
        cl->msg_pool = NET_POOL_FOR(cl->net, job_msg, m);
    job_msg *m = container_of(net_pool_alloc(sim, cl->msg_pool), job_msg, m);
    m->m.src = src_pe;
    m->m.dst = dst_pe;
    m->m.bytes = bytes;
    m->m.job = true; /* counted apart from network RAM's (net_elem.job_bytes) */
    m->m.done = msg_arrived;
    m->j = j;
    m->kind = kind;
    job_msg_link(j, m);
    net_send(sim, cl->net, &m->m);
}

/* Send j's killed messages again, from the start (§4.4.2), oldest
 * first (the order job_stop leaves them in). */
static void resend_killed(sim_t *sim, job_t *j)
{
    for (job_msg *m; (m = job_msg_first(&j->killed));) {
        job_msg_unlink(m);
        job_msg_link(j, m);
        net_restart(sim, j->cl->net, &m->m);
    }
}

/* The master received one synchronisation message; with all of them the
 * barrier opens. */
static void sync_arrived(sim_t *sim, job_t *j)
{
    j->sync_received++;
    if (j->sync_received == j->threads) {
        j->sync_received = 0;
        barrier_release(sim, &j->sync);
    }
}

/* ---- the thread process ------------------------------------------------------ */

static void thread_end(sim_t *sim, thread_t *th);

/* Thread start: allocate its memory (static model, §4.3.1), become a
 * memory user of its PE and set its clocks. */
static void thread_begin(sim_t *sim, thread_t *th)
{
    job_t *j = th->job;
    th->started = true;
    j->cl->threads_running++;
    if (th->pe->ncores > 1) {
        /* A user first: the others, told of the new O, count th (thread_node_share). */
        th->mem_user.key = j->row;
        th->mem_user.size = th->size_bytes;
        pe_add_user(th->pe, &th->mem_user, thread_mem_changed_cb);
        pe_alloc(sim, th->pe, th->mem_mb);
    } else {
        pe_alloc(sim, th->pe, th->mem_mb);
        pe_add_user(th->pe, &th->mem_user, thread_mem_changed_cb);
    }
    th->comm_k = th->sync_k = 1;
    th->comm_at = thread_next_comm_at(th, 0);
    th->sync_at = thread_next_sync_at(th);
    thread_fault_redraw(th);
    if (j->loop) {
        /* Loop scheduling: sync_at is its chunk's end (job_loop.h). */
        th->loop_next = th->sync_at;
        if (loop_begin(sim, th) != LOOP_MORE)
            th->sync_at = th->cpu_done; /* nothing for it: at the first check */
    }
}

static void thread_body(sim_t *sim, proc_t *p)
{
    thread_t *th = (thread_t *)p;
    job_t *j = th->job;
    cluster_t *cl = j->cl;
    double hold; /* a batch's, each value used before the next yield */
    PROC_BEGIN(p);
    thread_begin(sim, th);
    /* th->at: where it waits (TH_AT_*): what a kill undoes (sched/job_limit.c);
     * at TH_AT_DRAIN a kill waits for it to come back (j->killing). */
    th->at = TH_AT_DRAIN;
    if (cl->hooks.thread_starting && cl->hooks.thread_starting(sim, th, cl->hooks.pnr_ctx))
        PROC_YIELD(p); /* woken by thread_proceed */
    th->target = thread_next_target(th);
    for (;;) {
        if (j->killing)
            goto killed; /* back from a network-RAM exchange or a batch */
        /* A stopped job's threads wait here, whatever their next step: a
         * burst that ended at the very instant its job was stopped leaves
         * what the clocks call for (fault, message, synchronisation, the
         * end) until the job runs again. */
        th->at = TH_AT_PARKED;
        PROC_WAIT_UNTIL(sim, p, &j->resume_q, j->running);
        th->at = TH_AT_HOLD;
        if (j->cpu <= 0 && j->resume_at > sim->now) {
            /* A zero-length job switched in with a PCS to pay (a first
             * start under pcs_first_start, or a resumption) ends after it,
             * as it would after any computation (MODEL.md). */
            PROC_HOLD(sim, p, j->resume_at - sim->now);
            continue;
        }
        if (th->cpu_done < th->target) {
            /* One piece of the burst; job_stop may cut it short. */
            if (j->resume_at > sim->now) {
                /* Parallel context switch: the PE does no useful work. */
                PROC_HOLD(sim, p, j->resume_at - sim->now);
                continue;
            }
            job_batch_cpu_end(sim, th); /* a batch on th's core ends first */
            th->at = TH_AT_CPU;
            PROC_REQUEST(sim, p, th->core_cpu);
            if (!j->running) {
                res_release(sim, th->core_cpu, p);
                continue;
            }
            th->computing = true;
            th->burst_start = sim->now;
            PROC_HOLD(sim, p, thread_burst_wall(th, th->target - th->cpu_done));
            if (p->sig == PROC_STOPPED)
                continue; /* job_stop credited the CPU time and took the CPU */
            assert(p->sig == PROC_OK);
            th->computing = false;
            res_release(sim, th->core_cpu, p);
            th->cpu_done = th->target;
            continue;
        }
        if (th->cpu_done >= th->mem_at) /* memory profile: first, MODEL.md */
            cl->resize(sim, th);
        if (th->cpu_done >= th->fault_at) {
            /* Batched paging only (an exact run makes no call here). */
            if (cl->paging == PAGING_BATCHED && cl->batching &&
                (hold = cl->batching->on_fault(sim, th)) >= 0) {
                th->at = TH_AT_DRAIN;
                do
                    PROC_HOLD(sim, p, hold);
                while ((hold = cl->batching->on_hold_end(sim, th, p->sig)) >= 0);
                if (hold == BATCH_GO_ON)
                    continue;
                if (hold == BATCH_FAULT_DEVICE)
                    goto fault_device; /* cut in its software path (batch.c) */
                /* Cut in a fault's service, which ends now. */
            } else {
                th->fault_start = sim->now;
                th->faults++;
                pe_fault_begin(sim, th->pe);
                if (cl->fault_cpu > 0) { /* its software path on its core (issue 33) */
                    job_batch_cpu_end(sim, th); /* a batch owns that core */
                    th->at = TH_AT_FCPU;
                    PROC_REQUEST(sim, p, th->core_cpu);
                    PROC_HOLD(sim, p, cl->fault_cpu);
                    res_release(sim, th->core_cpu, p);
                }
            fault_device:
                if (j->killing) {
                    /* Cut in a batch's software path by its job's kill:
                     * the fault ends here (job_limit.h). */
                } else if (cl->hooks.fault && (th->at = TH_AT_DRAIN, cl->hooks.fault(sim, th, cl->hooks.pnr_ctx))) {
                    th->pe->remote_faults++;
                    PROC_YIELD(p); /* woken by thread_fault_done */
                } else if (th->pe->swap == PE_SWAP_SSD) {
                    /* One of the SSD's c servers, FIFO (MODEL.md "PE");
                     * pe_swap_fault ends a batch under way on the PE. */
                    pe_swap_fault_own(sim, th->pe, thread_dirty(th), /* hw/swap.h */
                                      cl->dirty_per_thread ? &th->evictions : NULL);
                    th->at = TH_AT_SSD;
                    PROC_MREQUEST(sim, p, &th->pe->ssd);
                    PROC_HOLD(sim, p, th->pe->disk_service);
                    mres_release(sim, &th->pe->ssd);
                } else {
                    pe_swap_fault_own(sim, th->pe, thread_dirty(th),
                                      cl->dirty_per_thread ? &th->evictions : NULL);
                    th->at = TH_AT_DISK;
                    PROC_REQUEST(sim, p, &th->pe->disk);
                    PROC_HOLD(sim, p, th->pe->disk_service);
                    res_release(sim, &th->pe->disk, p);
                }
            }
            th->fault_time += sim->now - th->fault_start;
            pe_fault_end(sim, th->pe, th->fault_start);
            j->faults++;
            j->fault_time += sim->now - th->fault_start;
            th->D += job_page_bytes(cl);
            thread_fault_redraw(th);
            if (j->killing)
                goto killed; /* its last fault, in service at the kill, is over */
        }
        if (th->cpu_done >= th->comm_at) {
            th->comm_k++;
            th->comm_at = thread_next_comm_at(th, th->comm_at);
            cl->neighbour_msgs++;
            {
                thread_t *succ = &j->th[(th->idx + 1) % j->threads];
                send_msg(sim, j, th->pe->id, succ->pe->id, cl->neighbour_bytes, MSG_NEIGHBOUR);
            }
        }
        if (th->cpu_done >= th->sync_at) {
            if (j->loop) {
                /* Its chunk's end: the next chunk, else the barrier or
                 * the end of its work (job_loop.h). */
                int r = loop_take(sim, th); /* again, after an empty one: empty */
                if (r == LOOP_END)
                    break;
                if (r == LOOP_MORE)
                    goto next_burst;
                th->sync_k++;
                th->loop_next = thread_next_sync_at(th);
            } else {
                th->sync_k++;
                th->sync_at = thread_next_sync_at(th);
            }
            if (barrier_arrive(&j->sync)) {
                /* All ready: each thread sends its message to the master. */
                for (int k = 0; k < j->threads; k++) {
                    cl->sync_msgs++;
                    send_msg(sim, j, j->th[k].pe->id, j->th[0].pe->id, cl->sync_bytes, MSG_SYNC);
                }
            }
            th->at = TH_AT_BARRIER;
            PROC_WAIT(sim, p, &j->sync.q);
            if (j->loop) {
                int r = loop_begin(sim, th);
                if (r == LOOP_END)
                    break;
                if (r == LOOP_BARRIER)
                    th->sync_at = th->cpu_done; /* nothing left for it: at the next check */
                goto next_burst;
            }
        }
        if (!j->loop && th->cpu_done >= j->cpu)
            break; /* loop scheduling: its last chunk's end (above) */
    next_burst:
        th->target = thread_next_target(th);
    }
    thread_end(sim, th);
    if (0) {
    killed:
        th->at = TH_AT_NONE; /* killed: its job's limit (sched/job_limit.c) */
        th->finished = true;
        job_thread_ended(sim, j, th->idx);
    }
    PROC_END(sim, p);
}

/* ---- one process per job ------------------------------------------------------ */

/* True when j's threads, about to start on their PEs, can run as one
 * process: the scheduler runs jobs alone on their PEs (solo_ok: so every
 * PE of j is free, with no memory user and its CPU idle, and no two
 * threads share a PE; debug builds check it), there are no messages, no
 * network RAM hooks, and no thread can page (the test of thread_fault_redraw on
 * the overallocation each PE will have once its thread has allocated,
 * computed the same way as pe_alloc and pe_overalloc_mb compute it; a
 * thread of no memory never pages). Nothing can then make one thread's
 * course differ from another's. */
static bool solo_eligible(const job_t *j)
{
    const cluster_t *cl = j->cl;
    if (!cl->solo_ok || cl->time_kill || cl->comm_rate > 0 || cl->sync_rate > 0 || j->loop ||
        cl->hooks.thread_starting ||
        cl->hooks.fault || cl->hooks.thread_ended || cl->resize)
        return false;
    for (int i = 1; cl->speeds_differ && i < j->threads; i++) /* one end for all */
        if (cl->pes[cluster_node_id(cl, j->pe_ids[i])].speed !=
            cl->pes[cluster_node_id(cl, j->pe_ids[0])].speed)
            return false;
    const double P = job_page_bytes(cl);
    const double size = j->mem_mb * MB_BYTES;
    if (cluster_cpn(cl) > 1) /* others' memory could make it page, unseen (MODEL.md) */
        return (cl->mem_access_rate <= 0 && !j->curve) || !(size > 0);
#ifndef NDEBUG
    for (int i = 0; i < j->threads; i++) {
        const pe_t *pe = &cl->pes[j->pe_ids[i]];
        assert(pe->nusers == 0 && !pe->cpu.holder && pe->cpu.q.n == 0);
    }
#endif
    if ((cl->mem_access_rate <= 0 && !j->curve) || !(size > 0))
        return true; /* L = min(overallocation, size) = 0 < P */
    for (int i = 0; i < j->threads; i++) {
        const pe_t *pe = &cl->pes[j->pe_ids[i]];
        double alloc = pe->alloc_mb + j->mem_mb;
        if (alloc < 1e-9)
            alloc = 0;
        double over = alloc + pe->lent_mb - pe->ram_mb;
        over = (over > 0 ? over : 0) * MB_BYTES;
        double L = over < size ? over : size;
        if (!(L < P))
            return false;
    }
    return true;
}


/* Thread i of a solo job j, on PE pe, from the top of thread_body's loop to
 * its next hold or its end, as thread_body would run it (cpu: its core's
 * CPU): returns the length
 * of the hold, or -1 when the thread ended. The thread's state is the
 * job's: j->solo_done CPU seconds done (its cpu_done), j->cpu its only
 * clock (target), j->solo_computing while it holds its PE's CPU; speed,
 * its node's (every thread's: solo_eligible). */
static double solo_step(sim_t *sim, job_t *j, int i, res_t *cpu, double speed)
{
    assert(j->running);
    if (j->cpu <= 0 && j->resume_at > sim->now)
        return j->resume_at - sim->now; /* zero length: ends after the PCS */
    if (j->solo_done < j->cpu) {
        if (j->resume_at > sim->now)
            return j->resume_at - sim->now; /* parallel context switch */
        bool got = res_request(sim, cpu, &j->proc);
        assert(got); /* its PE is its own */
        (void)got;
        j->solo_computing = true;
        return (j->cpu - j->solo_done) / speed; /* thread_burst_wall */
    }
    /* No clock but the end of work (solo_eligible): the thread ends. */
    job_thread_ended(sim, j, i);
    return -1;
}

/* The process of a solo job: each step of every thread, in thread order,
 * as thread_body would make it. A thread's start (thread_begin): it
 * allocates its memory; it is no memory user of its PE (nothing can change
 * the PE's overallocation while it runs), and its neighbour,
 * synchronisation and fault clocks never run (solo_eligible). All threads
 * make the same steps, so they are in the same hold (its length kept in
 * j->solo_hold) and end in the same event. */
static void job_body(sim_t *sim, proc_t *p)
{
    job_t *j = container_of(p, job_t, proc);
    cluster_t *cl = j->cl;
    PROC_BEGIN(p);
    for (int i = 0; i < j->threads; i++) {
        if (i + 4 < j->threads)
            pe_prefetch(&cl->pes[cluster_node_id(cl, j->pe_ids[i + 4])]);
        pe_t *pe = &cl->pes[cluster_node_id(cl, j->pe_ids[i])];
        cl->threads_running++;
        pe_alloc(sim, pe, j->mem_mb);
        double d = solo_step(sim, j, i, cluster_core_cpu(cl, j->pe_ids[i]), pe->speed);
        assert(i == 0 || d == j->solo_hold);
        j->solo_hold = d;
    }
    while (j->solo_hold >= 0) {
        PROC_HOLD(sim, p, j->solo_hold);
        assert(p->sig == PROC_OK); /* never stopped (solo_ok) */
        {
            /* After the hold, as thread_body after its PROC_HOLDs: a burst
             * gives the CPU back and counts as done. */
            bool computed = j->solo_computing;
            j->solo_computing = false;
            if (computed)
                j->solo_done = j->cpu;
            for (int i = 0; i < j->threads; i++) {
                if (i + 4 < j->threads)
                    pe_prefetch(&cl->pes[cluster_node_id(cl, j->pe_ids[i + 4])]);
                res_t *cpu = cluster_core_cpu(cl, j->pe_ids[i]);
                if (computed)
                    res_release(sim, cpu, &j->proc);
                double d = solo_step(sim, j, i, cpu,
                                     cl->pes[cluster_node_id(cl, j->pe_ids[i])].speed);
                assert(i == 0 || d == j->solo_hold);
                j->solo_hold = d;
            }
        }
    }
    PROC_END(sim, p);
}

bool job_thread_mem_freed(const job_t *j, int i)
{
    if (j->solo)
        return i < j->solo_freed;
    return j->th && j->th[i].mem_freed;
}

/* Give the memory of thread i of j back to its PE (§4.3.1) and tell the
 * scheduler and the PNR layer. A finished thread stays a memory user of its
 * PE until then, so the PNR layer still finds the network RAM it holds. */
static void thread_free_mem(sim_t *sim, job_t *j, int i)
{
    cluster_t *cl = j->cl;
    pe_t *pe = &cl->pes[cluster_node_id(cl, j->pe_ids[i])];
    if (j->solo) {
        assert(j->solo_freed == i); /* in thread order (no memory user) */
        pe_alloc(sim, pe, -j->mem_mb);
        j->solo_freed++;
    } else {
        thread_t *th = &j->th[i];
        assert(th->finished && !th->mem_freed && th->pe == pe);
        pe_remove_user(pe, &th->mem_user);
        pe_alloc(sim, pe, -th->mem_mb);
        th->mem_freed = true;
    }
    if (cl->hooks.on_mem_freed)
        cl->hooks.on_mem_freed(sim, j, pe->id, cl->hooks.sched_ctx);
    if (cl->hooks.thread_ended) {
        assert(!j->solo); /* solo_eligible */
        cl->hooks.thread_ended(sim, &j->th[i], cl->hooks.pnr_ctx);
    }
}

static void thread_end(sim_t *sim, thread_t *th)
{
    th->finished = true;
    job_thread_ended(sim, th->job, th->idx);
}

/* Thread i of j has done its work (thread_end, or a solo job's step), or
 * was killed (j->killing, sched/job_limit.c). */
void job_thread_ended(sim_t *sim, job_t *j, int i)
{
    cluster_t *cl = j->cl;
    cl->threads_running--;
    if (j->killing)
        cl->cpu_cut += j->th[i].cpu_done; /* killed: what it had done */
    else if (j->loop)
        cl->cpu_demand_done += j->th[i].cpu_done; /* its share and overheads */
    else
        cl->cpu_demand_done += j->cpu;
    if (cl->mem_release == MEM_RELEASE_THREAD)
        thread_free_mem(sim, j, i);
    j->finished_threads++;
    if (j->finished_threads == j->threads) {
        if (cl->mem_release == MEM_RELEASE_JOB)
            for (int k = 0; k < j->threads; k++)
                thread_free_mem(sim, j, k);
        j->end = sim->now;
        j->ended = true;
        if (j->killing) {
            /* Killed, and now ended (a thread in a network-RAM exchange or
             * a batch ends a moment after the kill): counted as such only
             * now, as its jobs.csv row says (a run cut off before leaves it
             * running). */
            cl->jobs_killed++;
            cl->killed_cpu += j->lost_cpu;
            cl->killed_core_seconds += j->lost_core_s;
        }
        if (j->kill_armed)
            j->cl->limiting->clock_stop(sim, j); /* it ended before its limit */
        /* A stop at the very instant the last barrier opened (before the
         * threads woke) leaves killed messages that no job_run will send
         * again: send them now, so every message sent is delivered. */
        resend_killed(sim, j);
        /* The scheduler's hook still sees the job as running (it counts
         * running jobs); the hook must not free j (job_release defers). */
        if (cl->hooks.on_job_ended)
            cl->hooks.on_job_ended(sim, j, cl->hooks.sched_ctx);
        j->running = false;
    }
}

/* ---- job control ---------------------------------------------------------------- */

job_t *job_create(cluster_t *cl, long id, long order, double submit, int threads,
                  double cpu, double mem_mb)
{
    assert(threads >= 1);
    int c = th_class(threads);
    job_t *j = job_pool_get(cl->job_pool, c, sizeof *j + ((size_t)1 << c) * sizeof(int),
                        sizeof *j + (size_t)threads * sizeof(int));
    j->id = id;
    j->order = order;
    j->submit = submit;
    j->start = j->end = -1;
    j->threads = threads;
    j->width = threads;
    j->cpu = cpu;
    j->estimate = cpu; /* exact unless the workload sets one */
    j->bf_first_res = -1;
    j->bf_head_res = -1;
    j->bf_end = -1; /* until placed (sched_job_expected_end) */
    j->mem_mb = mem_mb;
    j->cl = cl;
    j->pe_ids = (int *)(j + 1); /* the block's room after the job */
    j->th = NULL;
    j->slot = j->home_slot = j->row = j->last_slot = -1;
    j->requested = -1;
    j->limit = -1;
    j->run_used = j->run_since = 0;
    j->kill_armed = j->killing = false;
    j->lost_core_s = j->lost_cpu = 0;
    j->user = j->group = -1;
    j->dirty_fraction = cl->dirty_fraction;
    list_init(&j->qlink);
    list_init(&j->blink);
    barrier_init(&j->sync, (uint32_t)threads);
    waitq_init(&j->resume_q);
    list_init(&j->msgs);
    list_init(&j->killed);
    list_add_head(&cl->jobs, &j->alink);
    cl->jobs_alive++;
    return j;
}

void job_bind(job_t *j, int i, int pe_id)
{
    j->pe_ids[i] = pe_id;
}

static void destroy_cb(sim_t *sim, void *arg)
{
    job_destroy(sim, arg);
}

/* Free a released job once none of its messages is still in flight; always
 * through an event, never from inside one of its own threads' bodies. */
static void maybe_destroy(sim_t *sim, job_t *j)
{
    if (j->released && !j->destroy_scheduled && list_empty(&j->msgs)) {
        j->destroy_scheduled = true;
        ev_once(sim, sim->now, destroy_cb, j);
    }
}

void job_release(sim_t *sim, job_t *j)
{
    assert(j->ended || !j->started);
    j->released = true;
    maybe_destroy(sim, j);
}

void job_destroy(sim_t *sim, job_t *j)
{
    if (j->kill_armed)
        j->cl->limiting->clock_stop(sim, j);
    for (job_msg *m; (m = job_msg_first(&j->msgs));) {
        job_msg_unlink(m);
        net_kill(sim, j->cl->net, &m->m);
        net_msg_free(j->cl->net, &m->m);
    }
    for (job_msg *m; (m = job_msg_first(&j->killed));) {
        job_msg_unlink(m);
        net_msg_free(j->cl->net, &m->m);
    }
    if (j->solo) {
        /* Its threads are no processes and no memory users. */
        proc_destroy(sim, &j->proc);
    } else if (j->th) {
        for (int i = 0; i < j->threads; i++) {
            thread_t *th = &j->th[i];
            if (th->batch || th->batch_tail)
                j->cl->batching->on_destroy(j->cl, th);
            if (th->started && !th->mem_freed)
                pe_remove_user(th->pe, &th->mem_user);
            proc_destroy(sim, &th->p);
        }
        job_pool_put(j->cl->th_pool, th_class(j->threads), j->th);
    }
    cluster_t *cl = j->cl;
    loop_free(j);
    list_del(&j->alink);
    cl->jobs_alive--;
    job_pool_put(cl->job_pool, th_class(j->threads), j);
}

/* The job whose alink is n, or NULL at the head (past the end). */
static job_t *alive_at(const cluster_t *cl, const list_t *n)
{
    return n == &cl->jobs ? NULL : container_of(n, job_t, alink);
}

job_t *job_first(const cluster_t *cl) { return alive_at(cl, cl->jobs.next); }
job_t *job_next(const cluster_t *cl, const job_t *j) { return alive_at(cl, j->alink.next); }

void job_destroy_all(sim_t *sim, cluster_t *cl)
{
    job_t *j;
    while ((j = job_first(cl)))
        job_destroy(sim, j);
    job_pool_free(cl->th_pool);
    job_pool_free(cl->job_pool);
}

void job_run(sim_t *sim, job_t *j, double delay)
{
    cluster_t *cl = j->cl;
    assert(!j->ended);
    j->running = true;
    if (!j->started) {
        j->started = true;
        j->start = sim->now;
        j->resume_at = sim->now + delay;
        if (cl->loop_sched != LOOP_NONE && j->cpu > 0)
            loop_attach(j); /* before solo_eligible, which it rules out */
        j->solo = solo_eligible(j);
        if (j->solo) {
            /* One start event where the threads' would run back to back;
             * no thread_t: the threads' state is the job's (job_body). */
            proc_init(sim, &j->proc, job_body);
            proc_start(sim, &j->proc, 0);
            return;
        }
        int c = th_class(j->threads);
        j->th = job_pool_get(cl->th_pool, c, ((size_t)1 << c) * sizeof(thread_t),
                             (size_t)j->threads * sizeof(thread_t));
        for (int i = 0; i < j->threads; i++) {
            thread_t *th = &j->th[i];
            th->job = j;
            th->idx = i;
            th->pe = &cl->pes[cluster_node_id(cl, j->pe_ids[i])];
            th->core_cpu = cluster_core_cpu(cl, j->pe_ids[i]);
            th->speed = th->pe->speed;
            th->size_bytes = j->mem_mb * MB_BYTES;
            th->mem_mb = j->mem_mb;
            th->fault_at = th->comm_at = th->sync_at = th->mem_at = INFINITY;
            if (cl->resize)
                cl->resize(sim, th); /* its size at the start (memory profile) */
            proc_init(sim, &th->p, thread_body);
            proc_start(sim, &th->p, 0);
        }
        if (cl->time_kill)
            cl->limiting->clock_run(sim, j); /* its run clock runs */
        return;
    }
    j->resume_at = sim->now + delay;
    if (cl->time_kill)
        cl->limiting->clock_run(sim, j);
    waitq_broadcast(sim, &j->resume_q);
    /* Killed messages start again from the beginning (§4.4.2). */
    resend_killed(sim, j);
}

void job_stop(sim_t *sim, job_t *j)
{
    cluster_t *cl = j->cl;
    j->running = false;
    if (j->kill_armed)
        j->cl->limiting->clock_stop(sim, j); /* its run clock stops (job_limit.h) */
    assert(!j->solo); /* solo_ok: the scheduler never stops a job */
    if (!j->th)
        return;
    for (int i = 0; i < j->threads; i++) {
        thread_t *th = &j->th[i];
        if (th->batch)
            pe_batch_end(sim, th->pe); /* th's batch is its PE's */
        if (!th->computing)
            continue;
        /* The CPU time done so far counts now (the PE's memory may change
         * before the thread runs again), the CPU goes to its next waiter,
         * and the thread's hold returns PROC_STOPPED. */
        thread_burst_credit(sim, th);
        th->computing = false;
        res_give_up(sim, th->core_cpu, &th->p); /* also when preempted (job_cost.c) */
        th->preempted_by = NULL;
        bool was_holding = proc_interrupt(sim, &th->p, PROC_STOPPED);
        assert(was_holding);
        (void)was_holding;
    }
    /* Newest first, each to the head of killed: killed ends up oldest
     * first, the order in which they are sent again. */
    for (job_msg *m; (m = job_msg_first(&j->msgs));) {
        job_msg_unlink(m);
        net_kill(sim, cl->net, &m->m);
        cl->messages_killed++;
        list_add_head(&j->killed, &m->m.link);
    }
}

thread_t *job_thread_of(proc_t *p) { return p->body == thread_body ? (thread_t *)p : NULL; }
