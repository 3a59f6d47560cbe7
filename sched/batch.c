/* sched/batch.c: batched paging, the fast path of a thread's faults
 * (process.paging = BATCHED; batch.h, batch_link.h). A layer above the
 * exact job model (sched/job.c): batch_attach installs its entry points in
 * cl->batching, and the thread loop calls them at a fault (on_fault:
 * batch_on_fault, which turns batch_begin's answer into a hold time),
 * when the batch's hold returns (on_hold_end: batch_resume) and when a
 * thread with a batch record is destroyed (on_destroy: batch_release); a
 * batch under way sets its PE's on_batch_end to batch_cut_cb, which a
 * pe_batch_end (hw/pe.h) calls to cut it (batch_cut). Below it in the folder: sched/batch_link.c (the
 * network a batch's remote faults cross) and sched/job.c.
 *
 * Batched paging (cl->paging == PAGING_BATCHED, docs/BATCHING.md): a thread
 * at a fault whose PE's swap device (disk, or every server of an SSD) and
 * whose own core's CPU are idle, with no other batch on its node, works
 * out up to
 * BATCH_MAX successive (fault service, CPU burst to the next fault) steps
 * at once, stopping at its first other clock, and holds once for them all.
 * A fault goes to the disk, or, with network RAM, to the server the PNR
 * layer draws for it exactly as for an exact fault (job_hooks.fault_plan);
 * a remote fault's service is its page out and in on an idle route plus
 * the access time (under RDMA its READ, with its WRITE beside it, plus the
 * latencies), and its messages and their crossings are counted, not
 * sent (job_hooks.fault_count), so they neither wait for nor delay other
 * traffic (docs/BATCHING.md measures what that changes).
 * The steps are recorded, so whatever interacts with the thread or its PE
 * before the batch's end (job_stop, a change of the PE's memory amounts or
 * network RAM, another thread asking for that core's CPU or the PE's swap
 * device, a sample, the
 * end of the run) first ends the batch at that instant (batch_cut): the
 * steps before it are counted, and the thread is left exactly where the
 * exact machinery would have it (in a fault's disk service or in a burst,
 * holding that resource; in a fault's software path, holding its core;
 * behind its own dirty page's write, queued on the device), which then
 * takes over; cut in a remote fault, the thread waits for that fault's
 * planned end as for its page. A step's fault begins with
 * computer.fault_cpu on the thread's core, and a dirty eviction's write
 * (the node's deterministic rule, or the thread's with per-job fractions,
 * hw/swap.h) comes before its read on one server or beside it on a second
 * (docs/BATCHING.md "The new costs in batches"). Under MESSAGES a remote step also sends and receives on the
 * thread's core (netram.message_cpu each) and waits for its server's
 * node's work (2 message_cpu + netram.server_cpu) between its page out
 * and page in; the batch's k faults to one server run there as one work
 * of k times that (sched/job_cost.c cost_on_node) when the batch is
 * counted (docs/BATCHING.md "The messages' CPU costs in batches").
 */
#include "sched/batch.h"
#include "sched/batch_link.h"

#include "core/mem.h"
#include "hw/swap.h"
#include "sched/job_cost.h"
#include "sched/job_curve.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>

/* BATCH_MAX and the batch record, fault_batch, are in batch_link.h. */

/* How a batch ended (thread_t.batch_how), read when its hold returns. */
enum { BCUT_NONE, BCUT_DISK, BCUT_REMOTE, BCUT_CPU, BCUT_DONE, BCUT_FCPU, BCUT_WRITE };

/* The serving nodes' CPU work for counted remote faults (MESSAGES with
 * netram.message_cpu or server_cpu): per server, bt->sw per fault, run as
 * one work per batch and server (serve_flush) once the batch's thread is
 * left where the exact machinery would have it: the work may cut a batch
 * on the serving node, whose own count may send works on. */
typedef struct serve_list {
    int n;
    int srv[BATCH_SERVERS];
    double secs[BATCH_SERVERS];
} serve_list;

static void serve_done(sim_t *sim, cost_work *w)
{
    (void)sim;
    (void)w;
}

/* One work of secs on server PE s's node, as the exact page_out_arrived
 * runs one per request (pnr/server.c): an interrupt on its lowest idle
 * core, else preempting its lowest busy one (sched/job_cost.c). */
static void serve_run(sim_t *sim, cluster_t *cl, int s, double secs)
{
    if (secs > 0)
        cost_on_node(sim, cl, &cl->pes[s], secs, COST_SERVER, serve_done);
}

static void serve_flush(sim_t *sim, cluster_t *cl, const serve_list *sv)
{
    for (int x = 0; x < sv->n; x++)
        serve_run(sim, cl, sv->srv[x], sv->secs[x]);
}

/* Count the faults of steps [a, b) as done and the bursts of steps [a, c)
 * as computed (c <= b): thread, job, PE and resource counters (a fault's
 * software path and a remote fault's two message ends on its core, a
 * dirty page's write on the device), the remote faults' messages by
 * server (fault_count), and their servers' work into sv (serve_flush). */
static void batch_count(thread_t *th, const fault_batch *bt, int a, int b, int c,
                        serve_list *sv)
{
    job_t *j = th->job;
    pe_t *pe = th->pe;
    uint64_t nr = 0; /* remote faults: each sends and receives on the core */
    if (b > a) {
        uint64_t n = (uint64_t)(b - a), nd = 0, nw = 0;
        double t = 0, td = 0;
        /* The servers of the remote faults (few: the node's pieces), with
         * their counts and last fault's start. */
        int srv[BATCH_MAX], ns = 0;
        uint64_t cnt[BATCH_MAX];
        double last[BATCH_MAX];
        for (int k = a; k < b; k++) {
            t += bt->svc[k];
            if (bt->srv[k] < 0) {
                nd++;
                nw += bt->wr[k];
                td += bt->svc[k] - bt->fc; /* the device's part (write, read) */
                continue;
            }
            int x = 0;
            while (x < ns && srv[x] != bt->srv[k])
                x++;
            if (x == ns) {
                srv[ns++] = bt->srv[k];
                cnt[x] = 0;
            }
            cnt[x]++;
            last[x] = bt->f[k] + bt->fc + bt->mc; /* its PAGE_OUT leaves */
        }
        th->faults += n;
        j->faults += n;
        th->fault_time += t;
        j->fault_time += t;
        pe_faults_add(pe, n, t);
        j->cl->batch_faults += n;
        if (nd) {
            pe->disk_faults += nd;
            if (thread_dirty(th) > 0) {
                pe->swap_evictions += nd;
                th->evictions += j->cl->dirty_per_thread ? nd : 0;
            }
            pe->swap_writes += nw;
            /* One server, nobody else: each write before its read on it
             * (serial), or beside the read on a second server. */
            uint64_t ns1 = nd + (bt->serial ? nw : 0);
            if (pe->swap == PE_SWAP_SSD) {
                mres_account(&pe->ssd, ns1, td);
                if (!bt->serial)
                    mres_account_beside(&pe->ssd, nw, (double)nw * bt->ws);
            } else {
                res_account(&pe->disk, ns1, td);
            }
        }
        nr = n - nd;
        pe->remote_faults += nr;
        for (int x = 0; x < ns; x++) {
            j->cl->hooks.fault_count(th, srv[x], cnt[x], last[x], j->cl->hooks.pnr_ctx);
            if (bt->sw > 0) {
                assert(sv->n < BATCH_SERVERS);
                sv->srv[sv->n] = srv[x];
                sv->secs[sv->n++] = (double)cnt[x] * bt->sw;
            }
        }
    }
    uint64_t bursts = 0;
    double busy = 0;
    if (bt->fc > 0 && b > a) { /* the faults' software paths on the core */
        bursts += (uint64_t)(b - a);
        busy += (double)(b - a) * bt->fc;
    }
    if (nr && bt->mc > 0) {
        bursts += 2 * nr;
        busy += (double)(2 * nr) * bt->mc;
        j->cl->cost_cpu[COST_MESSAGE] += (double)(2 * nr) * bt->mc;
    }
    for (int k = a; k < c; k++) {
        double from = k ? bt->tgt[k - 1] : bt->cpu0;
        if (bt->tgt[k] > from) {
            bursts++;
            busy += (bt->tgt[k] - from) / th->speed; /* its seconds held */
        }
    }
    if (bursts)
        res_account(th->core_cpu, bursts, busy);
}

/* Nodes of several cores: the steps a batch plans adapt to how many it
 * completes. There every other thread of the node that pages cuts the
 * node's batch at its next swap request, often after a step or two, and
 * the draws planned beyond are discarded: planning 64 steps each time
 * made a 64-core node's run slower than the exact one. So after a batch
 * that completed k steps (cut in step k, or ended after k), the node's
 * next batch plans at most 2k (at least 2, at most BATCH_MAX); and a
 * batch that completed at most 2 steps makes the node's next `backoff`
 * faults run exactly without trying (16, doubled at each such batch in a
 * row up to 1024, cleared by a longer one): where the other cores page
 * all the time a batch is not worth its set-up. Which faults are batched
 * and how far depends only on what happened before, not on the draws to
 * come, so the draws used keep their law (docs/BATCHING.md, item 2).
 * One-core PEs always plan up to BATCH_MAX and never back off (their
 * batched runs are unchanged). */
static void batch_learn(const cluster_t *cl, pe_t *pe, int k)
{
    if (cl->cores_per_node <= 1)
        return;
    pe->batch_steps = 2 * k < 2 ? 2 : 2 * k > BATCH_MAX ? BATCH_MAX : 2 * k;
    if (k <= 2) {
        pe->batch_backoff = pe->batch_backoff ? 2 * pe->batch_backoff : 16;
        if (pe->batch_backoff > 1024)
            pe->batch_backoff = 1024;
        pe->batch_skip = pe->batch_backoff;
    } else {
        pe->batch_backoff = 0;
    }
}

/* Take bt off its links and its list, to the spares. */
static void record_free(cluster_t *cl, fault_batch *bt)
{
    batch_vrate_drop(bt);
    for (int k = 0; k < bt->nv; k++)
        net_vuser_del(&bt->v[k].u);
    bt->nv = 0;
    list_del(&bt->link);
    list_add_head(&cl->batch_spare, &bt->link);
}

/* Give th's batch records (the batch under way, or the one cut in a remote
 * fault) back to the cluster's spares (no counting). */
static void batch_release(cluster_t *cl, thread_t *th)
{
    if (th->batch) {
        record_free(cl, th->batch);
        th->pe->batch = NULL;
        th->batch = NULL;
    }
    if (th->batch_tail) {
        record_free(cl, th->batch_tail);
        th->batch_tail = NULL;
    }
}

/* batch_cut at t in step i's device service (from fs, its software path
 * done), a disk-side fault: the device left as the exact fault would have
 * it. Its eviction is counted; a dirty page's write still under way at t
 * becomes a real writer holding a server since fs, th queued behind it
 * (serial: returns true, th waits for the device; its grant then holds
 * the read, BCUT_WRITE) or holding a second server beside it; a write
 * done is counted as done. Else th holds the device since its read began
 * (returns false; the caller holds it to the fault's end, BCUT_DISK). */
static bool cut_in_device(sim_t *sim, thread_t *th, const fault_batch *bt, int i, double t,
                          double fs)
{
    pe_t *pe = th->pe;
    bool ssd = pe->swap == PE_SWAP_SSD;
    pe->disk_faults++;
    if (thread_dirty(th) > 0) {
        pe->swap_evictions++;
        th->evictions += th->job->cl->dirty_per_thread ? 1 : 0;
    }
    if (bt->wr[i] && t < fs + bt->ws) {
        pe_swap_write_since(sim, pe, fs); /* counts it in swap_writes */
        if (bt->serial) {
            proc_cancel(sim, &th->p);
            bool now = ssd ? mres_request(sim, &pe->ssd, &th->p)
                           : res_request(sim, &pe->disk, &th->p);
            assert(!now);
            (void)now;
            th->batch_how = BCUT_WRITE;
            return true;
        }
    } else if (bt->wr[i]) {
        pe->swap_writes++;
        if (!bt->serial) {
            mres_account_beside(&pe->ssd, 1, bt->ws);
        } else {
            if (ssd)
                mres_account(&pe->ssd, 1, bt->ws);
            else
                res_account(&pe->disk, 1, bt->ws);
            fs += bt->ws; /* its read began when the write ended */
        }
    }
    if (ssd)
        mres_take_since(sim, &pe->ssd, fs);
    else
        res_take_since(sim, &pe->disk, &th->p, fs);
    return false;
}

/* End th's batch now: count the steps done and leave th where the exact
 * machinery would have it (see the top of the file); the servers' work of
 * the faults counted into sv. */
static void batch_cut_steps(sim_t *sim, thread_t *th, serve_list *sv)
{
    fault_batch *bt = th->batch;
    cluster_t *cl = th->job->cl;
    pe_t *pe = th->pe;
    double t = sim->now;
    assert(bt && bt->f[0] <= t);
    if (t > bt->end)
        t = bt->end; /* the hold's wake-up, due now, rounded past the end */
    /* The step under way: the last to have begun (a step beginning now
     * has begun: the thread's own event comes first). */
    int i = batch_step_at(bt, t);
    batch_learn(cl, pe, i + 1);
    batch_vrate_drop(bt); /* its pages stop crossing switches (as a rate) */
    double e = bt->f[i] + bt->svc[i];
    double cpu_i = i ? bt->tgt[i - 1] : bt->cpu0;
    double c_i = i + 1 < bt->n ? bt->f[i + 1] : bt->end;
    if (t < e) {
        /* In fault i's service: faults before it done, it has begun. */
        batch_count(th, bt, 0, i, i, sv);
        th->D = i ? bt->D[i - 1] : bt->D0;
        th->fault_at = i ? bt->fa[i - 1] : bt->fa0;
        th->cpu_done = th->target = cpu_i;
        th->fault_start = bt->f[i];
        th->faults++;
        pe_fault_begin(sim, pe);
        double fs = bt->f[i] + bt->fc; /* its software path's end */
        if (t < fs) {
            /* In its software path, holding its core since f: the rest of
             * the fault (its destination drawn again) goes the exact way
             * at fs (BATCH_FAULT_DEVICE). */
            res_take_since(sim, th->core_cpu, &th->p, bt->f[i]);
            proc_hold(sim, &th->p, fs - t);
            th->batch_how = BCUT_FCPU;
            batch_release(cl, th);
            return;
        }
        if (bt->fc > 0)
            res_account(th->core_cpu, 1, bt->fc);
        if (bt->srv[i] >= 0 && bt->mc > 0) {
            /* Its two message ends on the core, counted now (the page in's
             * receive, at the fault's end, is under a microsecond ahead):
             * the core is not held in them (docs/BATCHING.md). */
            res_account(th->core_cpu, 2, 2 * bt->mc);
            cl->cost_cpu[COST_MESSAGE] += 2 * bt->mc;
        }
        if (bt->srv[i] < 0) {
            if (cut_in_device(sim, th, bt, i, t, fs)) {
                batch_release(cl, th); /* waiting behind its write */
                return;
            }
            th->batch_how = BCUT_DISK;
        } else {
            /* Its page comes back at e (counted then, batch_resume); its
             * crossings stay visible to messages until then: the record
             * stays registered, as the thread's tail, with step i last. */
            pe->remote_faults++;
            th->batch_how = BCUT_REMOTE;
        }
        proc_hold(sim, &th->p, e - t);
        if (bt->srv[i] >= 0) {
            bt->n = i + 1;
            list_del(&bt->link);
            list_add_tail(&cl->batch_tails, &bt->link);
            th->batch_tail = bt;
            th->batch = NULL;
            pe->batch = NULL;
            return;
        }
    } else if (bt->tgt[i] > cpu_i && t < c_i) {
        /* In step i's burst. */
        batch_count(th, bt, 0, i + 1, i, sv);
        th->D = bt->D[i];
        th->fault_at = bt->fa[i];
        th->cpu_done = cpu_i;
        th->target = bt->tgt[i];
        th->computing = true;
        th->burst_start = e;
        res_take_since(sim, th->core_cpu, &th->p, e);
        proc_hold(sim, &th->p, c_i - t);
        th->batch_how = BCUT_CPU;
    } else {
        /* The batch ends now (its wake-up is due at this instant). */
        assert(i == bt->n - 1);
        batch_count(th, bt, 0, bt->n, bt->n, sv);
        th->D = bt->D[i];
        th->fault_at = bt->fa[i];
        th->cpu_done = th->target = bt->tgt[i];
        th->batch_how = BCUT_DONE;
    }
    batch_release(cl, th);
}

static void batch_cut(sim_t *sim, thread_t *th)
{
    serve_list sv;
    sv.n = 0;
    batch_cut_steps(sim, th, &sv);
    serve_flush(sim, th->job->cl, &sv);
}

static void batch_cut_cb(sim_t *sim, pe_t *pe)
{
    batch_cut(sim, (thread_t *)pe->batch);
}

/* Where th's fault now goes: -1 the disk (*svc its service), a server PE
 * (*svc the remote service), or -2: not batched (nothing drawn). */
static int plan(cluster_t *cl, thread_t *th, double *svc)
{
    if (!cl->hooks.fault) {
        *svc = th->pe->disk_service;
        return -1;
    }
    if (!cl->hooks.fault_plan)
        return -2;
    int to = cl->hooks.fault_plan(th, cl->hooks.pnr_ctx, svc);
    if (to == -1)
        *svc = th->pe->disk_service;
    return to;
}

/* Whether nobody uses pe's swap device: the disk has no holder (and so
 * nobody queued), or no server of the SSD is busy (and nobody queued).
 * Whoever asks for it while a batch runs cuts the batch first (job.c), so
 * a batch's disk-side faults each find it idle, as an exact fault of a
 * thread alone on it would: on an SSD of c servers that is one server of
 * c, the others idle, which is what the exact mode gives a thread whose
 * faults are sequential while nobody else pages there. */
static bool swap_idle(const pe_t *pe)
{
    if (pe->swap == PE_SWAP_SSD)
        return pe->ssd.nbusy == 0 && pe->ssd.q.n == 0;
    return !pe->disk.holder;
}

/* Whether every cost on th's next faults is one a batch models: the
 * swap device's service, a dirty page's write-back on it (hw/swap.h), a
 * fault's software path on the faulting core (computer.fault_cpu), a
 * remote fault's messages (pnr_fault_plan, which says -2 itself for what
 * it cannot plan: an observed network, one-sided RDMA), the CPU bursts.
 * A cost a batch does not plan must send the fault the exact way: extend
 * this test with it. What it tests must not change during a batch
 * (batch_begin asserts plan's answer stays). */
static bool batch_costs_ok(const cluster_t *cl, const thread_t *th)
{
    /* The PNR layer's CPU costs under MESSAGES (netram.message_cpu,
     * server_cpu: cl->msg_cpu, cl->serve_cpu) are planned: a remote step
     * sends and receives on the thread's core and waits for its server's
     * work, which runs on the server's node as one work per batch and
     * server (serve_flush). Under fault model CURVE each step's gap
     * is the curve's (job_curve_next), as the exact thread_fault_redraw's. */
    /* Dirty writes on an SSD of several servers (any job's fraction > 0:
     * the largest, as config.c's note): planned when each write
     * ends within its fault's read (the next fault then finds every
     * server idle); a longer write would still hold a server at the next
     * fault, which is not planned. */
    const pe_t *pe = th->pe;
    if ((cl->dirty_fraction > 0 || cl->dirty_max > 0) && pe->swap == PE_SWAP_SSD &&
        pe->ssd.c > 1 && pe->write_service > pe->disk_service)
        return false;
    return true;
}

/* At a fault of th (cpu_done >= fault_at): start a batch when batched
 * paging is on and nothing can interfere with its first step: the PE's
 * disk and CPU are idle, no observer watches the PE (or, for remote
 * faults, the network) and no context switch is under way. Works out the
 * steps (drawing each fault's destination and clock as the exact
 * machinery would, one after the other) and leaves the thread's D and
 * fault clock at their values after the last step. Returns true when the
 * thread must now hold until bt->end. */
static bool batch_begin(sim_t *sim, thread_t *th)
{
    job_t *j = th->job;
    cluster_t *cl = j->cl;
    pe_t *pe = th->pe;
    /* One batch per node at a time, on a swap device nobody else uses
     * (disk: no holder; SSD: no server busy), and the thread's core idle
     * (on a node of several cores the other cores' CPUs are theirs). */
    if (cl->paging != PAGING_BATCHED || pe->obs || pe->batch || !swap_idle(pe) ||
        th->core_cpu->holder || j->resume_at > sim->now || !batch_costs_ok(cl, th))
        return false;
    /* A disk shared by the cores of a node: no batches (every fault exact;
     * config.c says so). 60 seed pairs at C = 8 gave disk faults +6.3% +-
     * 5.6% (paired 95%) and no fewer events (docs/BATCHING.md). */
    if (cl->cores_per_node > 1 && pe->swap == PE_SWAP_DISK)
        return false;
    /* The messages' CPU costs on nodes of several cores: no batches either.
     * Batches there are equivalent (docs/BATCHING.md msg8, msg8x) but save
     * no events and cost more CPU (msg8: 3.16 -> 3.31 s a run; config.c
     * says so); on one-core nodes they save 3.9x. */
    if (cl->cores_per_node > 1 && (cl->msg_cpu > 0 || cl->serve_cpu > 0))
        return false;
    if (pe->batch_skip > 0) {
        pe->batch_skip--; /* backing off (batch_learn; nodes of several cores) */
        return false;
    }
    /* With network RAM on a bus every fault runs exactly: every message
     * and batch would share its one link, where the contention model is
     * biased (docs/BATCHING.md "Other topologies"; config.c says so). */
    if (cl->hooks.fault && net_topology_kind(cl->net) == TOPO_KIND_BUS)
        return false;
    double svc;
    int to = plan(cl, th, &svc);
    if (to == -2)
        return false;
    fault_batch *bt;
    list_t *spare = list_first(&cl->batch_spare);
    if (spare) {
        list_del(spare);
        bt = container_of(spare, fault_batch, link);
    } else {
        bt = xmalloc(sizeof *bt);
    }
    list_add_tail(&cl->batches, &bt->link);
    bt->th = th;
    bt->nv = 0;
    bt->nrt = 0;
    bt->nvr = 0;
    bt->n = 0; /* the steps count once planned (others' link_gap reads them) */
    bt->cpu0 = th->cpu_done;
    bt->D0 = th->D;
    bt->fa0 = th->fault_at;
    bt->fc = cl->fault_cpu;
    bt->mc = cl->msg_cpu;
    bt->sw = cl->serve_cpu;
    bt->ws = pe->write_service;
    bt->serial = pe->swap != PE_SWAP_SSD || pe->ssd.c == 1;
    /* The node's evictions so far (or the thread's own, per-job fractions):
     * the rule marks the batch's dirty ones (nobody else evicts on the node
     * while it lasts: pe_swap_fault cuts). */
    const double dirty = thread_dirty(th);
    uint64_t ev = cl->dirty_per_thread ? th->evictions : pe->swap_evictions;
    /* Nothing else changes while the batch lasts: L (the PE's memory), the
     * other clocks and the streams; each step is the fault's destination
     * (plan) and thread_fault_redraw's arithmetic with them hoisted (the same
     * draws, in the same order). */
    const double P = job_page_bytes(cl), L = th->L, R = cl->mem_access_rate;
    const double ram_bytes = pe->ram_mb * MB_BYTES;
    const fault_curve *curve = j->curve; /* CURVE: its gaps (job_curve.h) */
    assert(L >= P && (R > 0 || curve)); /* a fault came due */
    double other = j->loop ? INFINITY : j->cpu; /* loop scheduling: sync_at */
    if (th->comm_at < other)
        other = th->comm_at;
    if (th->sync_at < other)
        other = th->sync_at;
    if (th->mem_at < other)
        other = th->mem_at; /* a memory change (profile) ends the batch */
    rng_t *rg = rng_set_get(&cl->fault_rng, (size_t)pe->id);
    const int nmax = pe->batch_steps > 0 ? pe->batch_steps : BATCH_MAX;
    double t = sim->now, cpu = th->cpu_done, D = th->D, fa = th->fault_at;
    int n = 0;
    for (;;) {
        bt->f[n] = t;
        bt->srv[n] = to;
        bt->ri[n] = -1;
        bt->wr[n] = 0;
        if (to >= 0) {
            int ri = batch_route_of(cl->net, P, bt, pe->id, to, svc, cl->hooks.fault_rdma);
            if (ri < 0) {
                /* Too many servers or links: the batch ends before this
                 * fault, which goes the exact way (its draw discarded). */
                assert(n > 0);
                break;
            }
            bt->ri[n] = (signed char)ri;
            svc = batch_plan_crossings(bt, n, &bt->rt[ri], t + bt->fc);
            if (svc < 0) {
                /* A congested element on the way: this fault goes the
                 * exact way (its draw discarded), its messages meeting
                 * the real queues; no batch if it is the first. */
                if (n == 0) {
                    record_free(cl, bt);
                    return false;
                }
                break;
            }
        }
        if (to < 0 && dirty > 0 && swap_eviction_dirty(++ev, dirty)) {
            bt->wr[n] = 1;
            if (bt->serial)
                svc += bt->ws; /* the write, then the read */
        }
        svc += bt->fc; /* its software path first */
        bt->svc[n] = svc;
        D += P;
        if (curve) {
            /* thread_fault_redraw under CURVE: D unclamped, the curve's gap at
             * the thread's (unchanging) local fraction, the same stream. */
            fa = job_curve_next(curve, &cl->fault_rng, pe->id, cpu, L, th->size_bytes, P);
        } else {
            if (D > L)
                D = L;
            double O = L - D;
            if (O <= 0) {
                O = job_fault_reset(rg, L, ram_bytes, th->size_bytes, P);
                D = L - O;
            }
            double U = O / L;
            fa = cpu + rng_exp(rg, R * P / U);
        }
        double tgt = fa < other ? fa : other;
        bt->D[n] = D;
        bt->fa[n] = fa;
        bt->tgt[n] = tgt;
        t = t + svc;                  /* as proc_hold(svc) then proc_hold(burst) */
        if (tgt > cpu)
            t = t + (tgt - cpu) / th->speed; /* job_clock.h's thread_burst_wall */
        cpu = tgt;
        n++;
        /* Go on only to a fault that comes before every other clock. */
        if (n == nmax || !(fa < other))
            break;
        to = plan(cl, th, &svc);
        assert(to != -2); /* what decides -2 does not change in a batch */
    }
    th->D = D;
    th->fault_at = fa;
    bt->n = n;
    bt->end = sim->now + (t - sim->now); /* the instant proc_hold will wake at */
    batch_vrate_add(bt, sim->now);
    th->batch = bt;
    th->batch_how = BCUT_NONE;
    pe->batch = th;
    pe->on_batch_end = batch_cut_cb;
    return true;
}

/* th's batch hold returned with signal sig (or its wait behind its own
 * write, the device's grant). Returns BATCH_FAULT_ENDS when the thread
 * was cut in a fault's disk service, which ends now (the caller finishes
 * that fault as an exact one); BATCH_FAULT_DEVICE when it was cut in a
 * fault's software path, which ends now; the read's service when it was
 * waiting behind its write (granted now: it holds, then asks again);
 * BATCH_GO_ON when the caller goes on to the top of its loop (all steps
 * done, or the burst it was cut in is over). */
static double batch_resume(sim_t *sim, thread_t *th, int sig)
{
    int how = th->batch_how;
    th->batch_how = BCUT_NONE;
    switch (how) {
    case BCUT_NONE: {
        fault_batch *bt = th->batch;
        assert(bt && sig == PROC_OK);
        serve_list sv;
        sv.n = 0;
        batch_learn(th->job->cl, th->pe, bt->n);
        batch_count(th, bt, 0, bt->n, bt->n, &sv);
        th->cpu_done = th->target = bt->tgt[bt->n - 1];
        batch_release(th->job->cl, th);
        serve_flush(sim, th->job->cl, &sv);
        return BATCH_GO_ON;
    }
    case BCUT_FCPU:
        assert(sig == PROC_OK);
        res_release(sim, th->core_cpu, &th->p);
        return BATCH_FAULT_DEVICE;
    case BCUT_WRITE:
        assert(sig == PROC_OK);
        th->batch_how = BCUT_DISK; /* granted the device: its read */
        return th->pe->disk_service;
    case BCUT_DISK:
        assert(sig == PROC_OK);
        if (th->pe->swap == PE_SWAP_SSD)
            mres_release(sim, &th->pe->ssd);
        else
            res_release(sim, &th->pe->disk, &th->p);
        return BATCH_FAULT_ENDS;
    case BCUT_REMOTE: {
        cluster_t *cl = th->job->cl;
        fault_batch *bt = th->batch_tail;
        assert(sig == PROC_OK && bt && !th->batch);
        int s = bt->srv[bt->n - 1];
        double sw = bt->sw;
        cl->hooks.fault_count(th, s, 1, bt->f[bt->n - 1] + bt->fc + bt->mc, cl->hooks.pnr_ctx);
        batch_release(cl, th);
        serve_run(sim, cl, s, sw); /* its server's work */
        return BATCH_FAULT_ENDS;
    }
    case BCUT_CPU:
        if (sig == PROC_STOPPED)
            return BATCH_GO_ON; /* job_stop credited the CPU time and took the CPU */
        assert(sig == PROC_OK);
        th->computing = false;
        res_release(sim, th->core_cpu, &th->p);
        th->cpu_done = th->target;
        return BATCH_GO_ON;
    default:
        assert(how == BCUT_DONE);
        return BATCH_GO_ON;
    }
}

/* cl->batching's on_fault: batch_begin, and the hold it calls for. */
static double batch_on_fault(sim_t *sim, thread_t *th)
{
    return batch_begin(sim, th) ? th->batch->end - sim->now : -1;
}

void batch_attach(cluster_t *cl)
{
    static const job_batching ops = {
        .on_fault = batch_on_fault,
        .on_hold_end = batch_resume,
        .on_destroy = batch_release,
    };
    cl->batching = &ops;
    list_init(&cl->batches);
    list_init(&cl->batch_spare);
    list_init(&cl->batch_tails);
}

void batch_settle(sim_t *sim, cluster_t *cl)
{
    if (cl->paging != PAGING_BATCHED)
        return;
    for (list_t *n; (n = list_first(&cl->batches));)
        batch_cut(sim, container_of(n, fault_batch, link)->th);
}

void batch_settle_end(sim_t *sim, cluster_t *cl)
{
    batch_settle(sim, cl);
    if (cl->paging != PAGING_BATCHED)
        return;
    /* Remote faults cut and still under way when the run ends: their page
     * messages count now (the exact mode counts a page out when it is
     * sent, at the fault's start); no event will end them. */
    for (list_t *n = cl->batch_tails.next; n != &cl->batch_tails; n = n->next) {
        fault_batch *bt = container_of(n, fault_batch, link);
        int i = bt->n - 1;
        cl->hooks.fault_count(bt->th, bt->srv[i], 1, bt->f[i] + bt->fc + bt->mc,
                              cl->hooks.pnr_ctx);
    }
}

void batch_free_all(cluster_t *cl)
{
    if (cl->paging != PAGING_BATCHED)
        return;
    for (list_t *n; (n = list_first(&cl->batches));) {
        list_del(n);
        free(container_of(n, fault_batch, link));
    }
    for (list_t *n; (n = list_first(&cl->batch_tails));) {
        list_del(n);
        free(container_of(n, fault_batch, link));
    }
    for (list_t *n; (n = list_first(&cl->batch_spare));) {
        list_del(n);
        free(container_of(n, fault_batch, link));
    }
}
