/* app/run.c: one simulation run (see run.h).
 *
 * The trace is streamed: one job of look-ahead is held, and an arrival event
 * (class EV_PRIO_ARRIVAL, so completions at the same instant come first)
 * fires at its submit time, submits every job due at that instant in trace
 * order, reads on and re-arms itself. A job lives from its arrival to its
 * end; memory follows the number of jobs in the system.
 *
 * Statistics that need the whole run (per-PE time averages, busy times)
 * are read from the hardware at the end; per-job figures are tallied and
 * written as each job ends.
 *
 * samples.csv gets a row at a multiple of metrics_period only when the row
 * differs from the last one written (time aside), and the sampler jumps
 * over idle stretches (no model event in the period just sampled: nothing
 * can change before the next model event), so the rows are bounded by the
 * model's activity, not by the span of simulated time; at most
 * simulation.max_samples rows are written, later ones are counted.
 *
 * Runaway guard: ev_run pauses every RUN_GUARD_WINDOW events; a window that
 * advanced the clock by less than the window / (max_event_rate * cores)
 * stops the run with an error (a configuration whose simulated work
 * explodes would otherwise run for ever).
 *
 * The run's state (struct run) is in app/run_internal.h, shared with
 * app/run_collect.c, which reads the metrics at the end.
 */
#include "app/run.h"
#include "app/run_check.h"
#include "app/run_internal.h"

#include "app/config_keys.h"
#include "app/jobs_csv.h"
#include "app/output.h"
#include "app/schedule.h"
#include "app/schedule_nodes.h"
#include "app/util.h"

#include "core/mem.h"
#include "core/rng.h"
#include "core/stats.h"
#include "hw/pe.h"
#include "net/net.h"
#include "pnr/pnr.h"
#include "pnr/pnr_check.h"
#include "sched/cluster.h"
#include "sched/gang.h"
#include "sched/gang_check.h"
#include "sched/job.h"

#include <assert.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


/* Events per runaway-guard window: 2^24, about 1-3 s of wall time; large
 * enough that no legitimate burst at one instant (every job of a trace
 * submitted together starts a few events each) fills it. */
#define RUN_GUARD_WINDOW ((uint64_t)1 << 24)

sim_t *run_sim(run_t *r) { return &r->sim; }
struct gang *run_gang(run_t *r) { return r->g; }
const cluster_t *run_cluster(const run_t *r) { return &r->cl; }
const config *run_config(const run_t *r) { return &r->c; }
const char *run_trace_name(const run_t *r) { return r->wl ? workload_name(r->wl) : ""; }

static void run_report_progress(run_t *r);

/* The kernel's on_poll (ev_poll, inside a long event): progress. */
static void run_poll(sim_t *sim, void *ctx)
{
    (void)sim;
    run_report_progress(ctx);
}

void run_set_progress(run_t *r, run_progress_fn fn, void *ctx)
{
    r->on_progress = fn;
    r->progress_ctx = ctx;
    /* Inside long events too (ev_poll: a pass over many jobs, many
     * arrivals at one instant). */
    r->sim.on_poll = fn ? run_poll : NULL;
    r->sim.poll_ctx = r;
}

static void check(run_t *r);

/* After every scheduler action (checking): the matrix invariants, and,
 * unless a pass is due, no queued job that may start fits anywhere. */
static void sched_checked(sim_t *sim, gang_t *g, void *ctx)
{
    run_t *r = ctx;
    (void)g;
    check(r);
    if (!r->check_failure) {
        r->check_failure = gang_check_placement(r->g);
        if (r->check_failure)
            ev_stop(sim);
    }
}

void run_set_checking(run_t *r, bool on)
{
    r->checking = on;
    gang_set_hook(r->g, on ? sched_checked : NULL, r);
    if (r->pnr)
        pnr_set_checking(r->pnr, on);
}

void run_set_thread_processes(run_t *r)
{
    r->cl.solo_ok = false;
}

const char *run_check_failure(const run_t *r)
{
    if (r->check_failure)
        return r->check_failure;
    return r->pnr ? pnr_check_failure(r->pnr) : NULL;
}

static void check(run_t *r)
{
    if (!r->checking || r->check_failure)
        return;
    r->check_failure = gang_check(r->g);
    if (r->check_failure)
        ev_stop(&r->sim);
}

/* ---- workload feeding ----------------------------------------------------- */

/* Fault model CURVE: the next job has no curve (docs/MODEL.md). */
static void run_no_curve_error(run_t *r)
{
    char app[64], shown[120];
    if (r->next.app < 0)
        snprintf(app, sizeof app, "no application number (SWF field 14 = -1)");
    else
        snprintf(app, sizeof app, "application number %.15g", r->next.app);
    util_path_shown(shown, sizeof shown, workload_name(r->wl));
    snprintf(r->wl_err, CFG_ERR_MAX,
             "%s:%ld: job %ld has %s and no fault curve: [process] fault_model = CURVE needs "
             "one for every job: map its number in [process] fault_curves (APP:FILE) or set "
             "fault_curve (the curve of every job not mapped)",
             shown, r->next.line, r->next.id, app);
}

static void fetch_next(run_t *r)
{
    int rc = workload_next(r->wl, &r->next, r->wl_err);
    if (rc == 1 && r->curves.on && !(r->next_curve = curve_set_find(&r->curves, r->next.app))) {
        run_no_curve_error(r);
        rc = -1;
    }
    if (rc < 0) {
        r->wl_failed = true;
        r->have_next = false;
        ev_stop(&r->sim);
        return;
    }
    r->have_next = rc == 1;
}

static void arrival(sim_t *sim, void *arg)
{
    run_t *r = arg;
    while (r->have_next && r->next.submit <= sim->now) {
        wl_job *w = &r->next;
        if (ev_poll(sim, (uint64_t)w->threads + 64)) {
            check(r); /* interrupted: the run ends here, results partial */
            return;
        }
        job_t *j = job_create(&r->cl, w->id, r->order++, sim->now, w->threads, w->cpu, w->mem_mb);
        j->estimate = w->estimate;
        j->requested = isnan(w->requested) ? -1 : w->requested;
        if (r->cl.time_kill) {
            /* Its limit on the run clock (sched/job_limit.h); none without
             * a requested time (field 9 unknown or 0). */
            if (j->requested > 0)
                j->limit = r->c.workload.limit_factor * j->requested;
            else
                r->no_limit++;
        }
        j->user = w->user;
        j->group = w->group;
        j->curve = r->next_curve; /* NULL under REPORT */
        if (r->dirty.on)
            j->dirty_fraction = dirty_set_find(&r->dirty, w->app);
        r->submitted++;
        gang_submit(sim, r->g, j);
        fetch_next(r);
    }
    if (r->have_next)
        ev_at_prio(sim, r->arrival_ev, r->next.submit, EV_PRIO_ARRIVAL);
    check(r);
}

/* ---- job ends ------------------------------------------------------------------ */


static void on_job_end(sim_t *sim, job_t *j, void *ctx)
{
    run_t *r = ctx;
    if (j->killing) {
        /* Killed at its limit (sched/job_limit.h): not finished; its row
         * says so, the metrics count it (cl->jobs_killed). */
        if (r->jobs)
            jobs_csv_killed(r->jobs, j);
        job_release(sim, j);
        check(r);
        return;
    }
    r->finished++;
    double wait = j->start - j->submit;
    double response = j->end - j->submit;
    double exec = j->end - j->start;
    double tau = r->c.simulation.bsld_tau;
    double bsld = response / (exec > tau ? exec : tau);
    if (bsld < 1)
        bsld = 1;
    /* Over the dedicated run time instead of the execution as run (issue
     * 37; docs/METRICS.md): paging, switching and waiting count in the
     * slowdown, not in its denominator. */
    double ded = job_dedicated_time(j);
    double bsld_ded = response / (ded > tau ? ded : tau);
    if (bsld_ded < 1)
        bsld_ded = 1;
    tally_add(&r->bsld_ded, bsld_ded);
    tally_add(&r->response, response);
    tally_add(&r->wait, wait);
    tally_add(&r->exec, exec);
    tally_add(&r->bsld, bsld);
    double sld = NAN;
    if (exec > 0) {
        sld = response / exec;
        tally_add(&r->slowdown, sld);
    } else {
        r->slowdown_excluded++;
    }
    if (r->jobs)
        jobs_csv_finished(r->jobs, j, wait, response, exec, sld, bsld, bsld_ded);
    job_release(sim, j);
    check(r);
}

/* ---- samples ----------------------------------------------------------------------- */

/* samples.csv: a time column, then these (computed in sample()), and its
 * header, from this one list (see CSV_* in app/output.h). A row is written
 * only when this part differs from the previous row's. */
#define SAMPLES_CSV(FIRST, X)                                                  \
    FIRST("running_jobs", "%ld", gang_running(r->g))                           \
    X("queued_jobs", "%ld", gang_queued(r->g))                                 \
    X("placed_jobs", "%ld", gang_placed(r->g))                                 \
    X("mpl", "%d", gang_slots(r->g))                                           \
    X("cpu_utilization", "%.6g", busy / (ncores * span))                       \
    X("mem_alloc_mean", "%.6g", mean)                                          \
    X("mem_alloc_sd", "%.6g", var > 0 ? sqrt(var) : 0)                         \
    X("disk_alloc_mean", "%.6g", disk_sum / n)                                 \
    X("messages_in_flight", "%ld", net_in_flight(r->net))                      \
    X("jobs_finished", "%ld", r->finished)                                     \
    X("page_faults", "%llu", (unsigned long long)faults)

#ifndef NDEBUG
/* Every PE not marked in r->touched is as pe_init left it (checked in
 * debug builds only: it visits every PE). */
static bool untouched_are_idle(const run_t *r)
{
    for (int i = 0; i < r->cl.npes; i++) {
        const pe_t *pe = &r->cl.pes[i];
        if (r->touched[i / 64] & (UINT64_C(1) << (i % 64)))
            continue;
        if (pe_cpu_busy(&r->sim, pe) != 0 || r->last_busy[i] != 0 || pe->alloc_mb != 0 ||
            pe->lent_mb != 0 || pe->disk_use.value != 0 || pe->faults != 0)
            return false;
    }
    return true;
}
#endif

static void sample(sim_t *sim, void *arg)
{
    run_t *r = arg;
    int n = cluster_compute_pes(&r->cl); /* memory servers have no threads */
    int ncores = cluster_cores(&r->cl);  /* n x cores per node */
    /* Batched paging: end the batches under way, so the counters are those
     * of now (always, so that the sample path does not depend on which
     * outputs are written). */
    batch_settle(sim, &r->cl);
    /* Model events since the previous sample (this sampler event aside),
     * and the periods it spans (more than one after a jump). */
    uint64_t model_events = sim->dispatched - r->sample_events - 1;
    double span = r->c.simulation.metrics_period * (double)(r->sampler.k - r->sample_k);
    r->sample_k = r->sampler.k;
    if (r->samples_out) {
        double busy = 0, mem_sum = 0, mem_sq = 0, disk_sum = 0;
        uint64_t faults = 0;
        /* Only the compute PEs whose memory ever changed, in index order: any
         * other adds an exact 0 to every sum (see pe_set_touch_map), so
         * the sums are bit for bit those over all n PEs, at a cost that
         * grows with the PEs used rather than the machine's size. */
        assert(untouched_are_idle(r));
        for (int w = 0; w < (n + 63) / 64; w++) {
            for (uint64_t bits = r->touched[w]; bits; bits &= bits - 1) {
                int i = w * 64 + __builtin_ctzll(bits);
                if (i >= n)
                    break; /* a memory server (after the compute PEs) */
                pe_t *pe = &r->cl.pes[i];
                double b = pe_cpu_busy(sim, pe); /* all its cores */
                busy += b - r->last_busy[i];
                r->last_busy[i] = b;
                double m = pe->alloc_mb + pe->lent_mb;
                mem_sum += m;
                mem_sq += m * m;
                disk_sum += pe->disk_use.value;
                faults += pe->faults;
            }
        }
        double mean = mem_sum / n;
        double var = mem_sq / n - mean * mean;
        char row[sizeof r->last_row];
        snprintf(row, sizeof row, SAMPLES_CSV(CSV_FMT1, CSV_FMT) SAMPLES_CSV(CSV_ARG, CSV_ARG));
        if (!r->have_row || strcmp(row, r->last_row)) {
            long cap = r->c.simulation.max_samples;
            if (cap > 0 && r->samples_written >= cap) {
                if (!r->samples_dropped)
                    r->samples_capped_at = sim->now;
                r->samples_dropped++;
            } else {
                fprintf(r->samples_out, "%.12g,%s\n", sim->now, row);
                r->samples_written++;
            }
            /* Dropped rows are compared with the last row too, so that
             * samples_dropped is exactly the rows an uncapped run would
             * have written beyond the cap (metrics.json "truncated"). */
            memcpy(r->last_row, row, sizeof row);
            r->have_row = true;
        }
    }
    if (r->sched_out) {
        /* pes.csv: at most max_samples samples (of at most
         * SCHEDULE_PE_ROWS rows each); later ones are counted. */
        long cap = r->c.simulation.max_samples;
        double to = r->c.output.schedule_to > 0 ? r->c.output.schedule_to : HUGE_VAL;
        bool in = sim->now >= r->c.output.schedule_from && sim->now <= to;
        if (cap > 0 && r->pes_samples_written >= cap) {
            /* Only the samples the window would have written count. */
            if (in && !r->pes_samples_dropped)
                r->pes_capped_at = sim->now;
            r->pes_samples_dropped += in;
        } else {
            if (schedule_sample(r->sched_out, sim, span))
                r->pes_samples_written++; /* in the window */
        }
    }
    /* A period without model events: the state stays as it is until the
     * next model event, so every row before it would repeat this one. */
    if (model_events == 0)
        sampler_skip_before(&r->sampler, ev_next_time(sim));
    r->sample_events = sim->dispatched;
}

/* ---- life cycle ------------------------------------------------------------------------ */

void run_pnr_params(const config *c, pnr_params *p)
{
    p->strategy = pnrsim_at(PNRSIM_KIND_STRATEGY, c->netram.strategy);
    p->global_knowledge = c->netram.global_knowledge;
    p->managers = c->netram.managers;
    p->server_threshold = c->netram.server_threshold;
    p->control_bytes = c->network.control_msg;
    p->release = c->netram.release;
    p->selection = c->netram.server_selection;
    p->access_latency = c->netram.access_latency;
    p->message_cpu = c->netram.message_cpu;
    p->server_cpu = c->netram.server_cpu;
    p->locality = c->netram.locality;
    p->transport = c->netram.transport;
    p->rdma_latency = c->netram.rdma_latency;
    p->rdma_read = c->netram.rdma_read;
    p->reclaim = c->netram.reclaim;
    p->ctx = (pnrsim_ctx){.values = c->plugin_values,
                          .seed = c->simulation.seed, /* run_create: the resolved one */
                          .generator = c->simulation.generator};
}

run_t *run_create(const config *c, FILE *jobs_out, FILE *samples_out, char err[CFG_ERR_MAX])
{
    run_t *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, CFG_ERR_MAX, "out of memory");
        return NULL;
    }
    r->c = *c;
    r->seed = rng_resolve_seed(c->simulation.seed);
    if (ev_init(&r->sim) != 0) {
        free(r);
        snprintf(err, CFG_ERR_MAX, "out of memory");
        return NULL;
    }
    /* Nodes (cl->pes): compute nodes of cores_per_node cores, then the
     * memory servers; the trace's processors are cores (computer.number). */
    const int nodes = c->computer.number / c->computer.cores_per_node;
    int n = nodes + c->computer.memory_servers;
    r->wl = workload_open(c->workload.trace, c, c->computer.number, err);
    dirty_set_load(&r->dirty, c);
    if (!r->wl || curve_set_load(&r->curves, c, err) != 0) {
        workload_close(r->wl);
        ev_destroy(&r->sim);
        free(r);
        return NULL;
    }
    r->last_busy = xcalloc((size_t)n, sizeof *r->last_busy);
    gang_params gp = {
        .priority = pnrsim_at(PNRSIM_KIND_PRIORITY, c->scheduler.priority)->ops,
        .packing = pnrsim_at(PNRSIM_KIND_PACKING, c->scheduler.packing)->ops,
        .mpl = c->scheduler.mpl,
        .pcs = c->scheduler.pcs,
        .quantum = c->scheduler.quantum,
        .mem_aware = c->scheduler.mem_aware != MEM_AWARE_NO,
        .mem_global = c->scheduler.mem_aware == MEM_AWARE_GLOBAL,
        .netram = c->netram.enabled,
        .netram_threshold = c->netram.server_threshold,
        .strict_order = c->scheduler.strict_order,
        .pcs_first_start = c->scheduler.pcs_first_start,
        .no_alternative = !c->scheduler.alternative,
        .backfill = pnrsim_at(PNRSIM_KIND_BACKFILL, c->scheduler.backfill)->ops,
        .reservations = cfg_reservations(c->scheduler.reservations),
        .exclusive = c->scheduler.node_sharing == NODE_EXCLUSIVE,
        .ctx = {.values = c->plugin_values, .seed = r->seed, .generator = c->simulation.generator},
        .allocation = pnrsim_at(PNRSIM_KIND_ALLOCATION, c->scheduler.allocation)->ops,
        .mf = {.w_age = c->scheduler.weight_age,
               .w_size = c->scheduler.weight_size,
               .w_fairshare = c->scheduler.weight_fairshare,
               .w_wait = c->scheduler.weight_wait,
               .max_age = c->scheduler.max_age,
               .half_life = c->scheduler.fairshare_half_life,
               .by_group = c->scheduler.fairshare_by == FAIRSHARE_BY_GROUP},
        .max_running_per_user = c->scheduler.max_running_per_user,
        .max_cores_per_user = c->scheduler.max_cores_per_user,
        .alloc_metrics = run_alloc_explicit(c),
    };
    double *ram = xcalloc((size_t)n, sizeof *ram);
    for (int i = 0; i < n; i++)
        ram[i] = config_pe_ram(c, i); /* groups, then memory servers */
    /* CPU speeds (issue 35): none at the default (every node 1). */
    double *speed = NULL;
    if (c->computer.n_speed_groups > 0 || c->computer.speed != 1) {
        speed = xcalloc((size_t)n, sizeof *speed);
        for (int i = 0; i < n; i++)
            speed[i] = config_pe_speed(c, i);
    }
    net_tree tree = {
        .ncompute = nodes,
        .rack_size = c->network.rack_size,
        .servers = c->network.memory_server_placement,
        .uplink_bandwidth = (c->network.uplink_bandwidth > 0 ? c->network.uplink_bandwidth
                                                             : c->network.bandwidth) *
                            MBPS_BYTES,
        .uplink_latency = c->network.uplink_latency,
    };
    cluster_params cp = {
        .npes = n,
        .ncompute = nodes,
        .cores_per_node = c->computer.cores_per_node,
        .pe_name = c->computer.name,
        .ram_mb = c->computer.ram,
        .pe_ram_mb = ram,
        .pe_speed = speed,
        .seek = c->computer.seek,
        .rpm = c->computer.rpm,
        .transfer = c->computer.transfer,
        .full_rotation = c->computer.rotation == ROTATION_FULL,
        .swap = c->computer.swap == SWAP_SSD ? PE_SWAP_SSD : PE_SWAP_DISK,
        .ssd_latency = c->computer.ssd_latency,
        .ssd_bandwidth = c->computer.ssd_bandwidth,
        .ssd_parallelism = c->computer.ssd_parallelism,
        .ssd_write_latency = c->computer.ssd_write_latency,
        .ssd_write_bandwidth = c->computer.ssd_write_bandwidth,
        .dirty_fraction = c->process.dirty_fraction,
        .dirty_per_thread = r->dirty.on,
        .dirty_max = r->dirty.max,
        .page_bytes = (double)c->process.page_size,
        .topology = c->network.topology,
        .tree = &tree,
        .bandwidth = c->network.bandwidth * MBPS_BYTES,
        .latency = c->network.latency,
        .delay = c->network.delay,
        .route = c->network.route,
        .mem_access_rate = c->process.mem_access_rate,
        .comm_rate = c->process.comm_rate,
        .sync_rate = c->process.sync_rate,
        .neighbour_bytes = c->network.neighbour_msg,
        .sync_bytes = c->network.sync_msg,
        .mem_release = c->process.mem_release,
        .interval_exp = c->process.interval == INTERVAL_EXPONENTIAL,
        .paging = c->process.paging,
        .loop_sched = c->process.loop_schedule,
        .imbalance = c->process.imbalance,
        .chunk_overhead = c->process.chunk_overhead,
        .loop_n = c->process.loop_iterations,
        .profile = {.kind = c->workload.memory_profile,
                    .start = c->workload.memory_start,
                    .steps = c->workload.memory_steps,
                    .ramp_share = c->workload.ramp_share,
                    .low = c->workload.memory_low,
                    .peak_share = c->workload.peak_share,
                    .period = c->workload.memory_period},
        .fault_cpu = c->computer.fault_cpu,
        .time_kill = c->scheduler.time_limit == TIME_LIMIT_KILL,
        .seed = r->seed,
        .gen = c->simulation.generator,
        .gang = &gp,
        .on_end = on_job_end,
        .end_ctx = r,
    };
    cluster_t *cl = &r->cl;
    cluster_init(&r->sim, cl, &cp);
    free(ram);
    free(speed);
    r->net = cl->net;
    r->g = cl->gang;
    r->touched = xcalloc((size_t)(n + 63) / 64, sizeof *r->touched);
    for (int i = 0; i < n; i++)
        pe_set_touch_map(&cl->pes[i], r->touched);
    if (c->netram.enabled) {
        pnr_params pp;
        run_pnr_params(c, &pp);
        pp.ctx.seed = r->seed;
        r->pnr = pnr_create(&r->sim, cl, &pp, r->seed);
    }
    r->samples_out = samples_out;
    tally_init(&r->response);
    tally_init(&r->wait);
    tally_init(&r->exec);
    tally_init(&r->slowdown);
    tally_init(&r->bsld);
    tally_init(&r->bsld_ded);
    r->arrival_ev = ev_new(&r->sim, arrival, r);
    if (jobs_out) {
        r->jobs = jobs_csv_open_placed(jobs_out, cl, r->g, run_exclusive(r),
                                       run_alloc_explicit(&r->c));
        workload_on_drop(r->wl, jobs_csv_dropped, r->jobs);
    }
    if (samples_out)
        fputs("time," SAMPLES_CSV(CSV_NAME1, CSV_NAME) "\n", samples_out);
    return r;
}

/* What the guards (simulation.max_event_rate, max_messages) count per:
 * cores, computer.number, plus one for each memory server (a node of one
 * core), and how, for their messages. The messages and events come from
 * threads, one per core at a time, and PNR servents: per node, one node of
 * 4096 cores could do no more than one of a single core (issue 32 item 4;
 * docs/MODEL.md "Ranges and runaway runs"). */
static long run_guard_cores(const run_t *r, const char **how)
{
    *how = r->c.computer.memory_servers > 0 ? "computer.number + memory_servers"
                                            : "computer.number";
    return (long)r->c.computer.number + r->c.computer.memory_servers;
}

/* The saturation guard's error (simulation.max_messages): when, how many
 * messages against which cap and how the cap is computed, and the element
 * with the longest queue. */
static void run_saturated_error(run_t *r, char err[CFG_ERR_MAX])
{
    const net_elem *e = net_longest_queue(r->net);
    char where[96];
    if (e)
        snprintf(where, sizeof where, "the longest queue is %lu messages, at %s (element %ld)",
                 (unsigned long)e->res.q.n, e->name, e->index);
    else
        snprintf(where, sizeof where, "no message waits in a queue");
    const char *how;
    long cores = run_guard_cores(r, &how), per = r->c.simulation.max_messages;
    snprintf(err, CFG_ERR_MAX,
             "saturated network, run stopped at t=%.9g s: %ld messages on the network at once "
             "exceed the cap of %ld = [simulation] max_messages = %ld per core x %ld cores "
             "(%s); %s. Senders never wait for them (report 4.3.2), so queues grow without "
             "bound: send less often (process.comm_rate, sync_rate), use a faster network, or "
             "raise max_messages (0 = no guard)",
             r->sim.now, net_in_flight(r->net), per * cores, per, cores, how, where);
}

/* jobs.csv at the end of the run: the jobs still in the system, then
 * those the run never submitted (the look-ahead job and the rest of the
 * trace, unless a signal stopped the run: its results are partial). */
static void run_jobs_at_end(run_t *r)
{
    workload_on_drop(r->wl, NULL, NULL); /* nothing more is counted */
    jobs_csv_alive(r->jobs);
    if (ev_stop_flag)
        return;
    if (r->have_next)
        jobs_csv_unsubmitted(r->jobs, &r->next);
    wl_job w;
    while (workload_rest(r->wl, &w) == 1)
        jobs_csv_unsubmitted(r->jobs, &w);
}

int run_trace_sha256(const run_t *r, char hex[65])
{
    return workload_sha256(r->wl, hex);
}

/* Call on_progress with where the run is (see run_progress in run.h). */
static void run_report_progress(run_t *r)
{
    run_progress p = {.now = r->sim.now, .wall = util_now() - r->wall0,
                      .events = r->sim.dispatched, .submitted = r->submitted,
                      .left = r->submitted - r->finished - gang_impossible(r->g)};
    /* The run ends at the last submit (then its jobs' ends), at max_time
     * or after max_jobs jobs, whichever comes first: the measure that is
     * furthest on. */
    double max_time = r->c.simulation.max_time, span = workload_last_submit(r->wl);
    long max_jobs = r->c.workload.max_jobs;
    workload_progress(r->wl, &p.fraction);
    p.kind = p.fraction < 0 ? RUN_PROGRESS_NONE : RUN_PROGRESS_BYTES;
    if (p.fraction < 0)
        p.fraction = 0;
    if (isfinite(span) && !(max_time > 0 && max_time < span)) {
        p.kind = RUN_PROGRESS_SPAN; /* only without max_jobs (workload.h) */
        p.fraction = span > 0 ? r->sim.now / span : 1;
    } else if (max_time > 0 || max_jobs > 0) {
        double ft = max_time > 0 ? r->sim.now / max_time : 0;
        double fj = max_jobs > 0 ? (double)r->submitted / (double)max_jobs : 0;
        p.kind = ft >= fj ? RUN_PROGRESS_TIME : RUN_PROGRESS_JOBS;
        p.fraction = ft >= fj ? ft : fj;
    }
    p.all_submitted = !r->have_next;
    if (p.all_submitted || p.fraction > 1)
        p.fraction = 1;
    r->on_progress(r, &p, r->progress_ctx);
}

int run_execute(run_t *r, char err[CFG_ERR_MAX])
{
    r->wall0 = util_now();
    fetch_next(r);
    if (r->wl_failed) {
        snprintf(err, CFG_ERR_MAX, "%s", r->wl_err);
        return -1;
    }
    if (r->have_next)
        ev_at_prio(&r->sim, r->arrival_ev, r->next.submit, EV_PRIO_ARRIVAL);
    sampler_start(&r->sim, &r->sampler, r->c.simulation.metrics_period, sample, r);
    r->sampling = true;
    r->sample_events = r->sim.dispatched;
    r->sample_k = r->sampler.k;
    double until = r->c.simulation.max_time > 0 ? r->c.simulation.max_time : INFINITY;
    /* Events per simulated second the whole cluster may take, and the
     * messages the network may hold at once: per core (0: no guard). */
    const char *how;
    long cores = run_guard_cores(r, &how);
    double limit = r->c.simulation.max_event_rate * (double)cores;
    net_set_flight_cap(r->net, r->c.simulation.max_messages * cores);
    ev_run_result rr;
    /* ev_run pauses at the next guard window's end and, with progress
     * reporting, every RUN_PROGRESS_WINDOW events: a pause only returns to
     * this loop, which changes nothing in the run. */
    double t0 = r->sim.now;
    uint64_t guard_at = limit > 0 ? r->sim.dispatched + RUN_GUARD_WINDOW : UINT64_MAX;
    for (;;) {
        uint64_t at = guard_at;
        if (r->on_progress && r->sim.dispatched + RUN_PROGRESS_WINDOW < at)
            at = r->sim.dispatched + RUN_PROGRESS_WINDOW;
        r->sim.pause_at = at;
        rr = ev_run(&r->sim, until);
        if (rr != EV_RUN_PAUSED)
            break;
        if (r->on_progress)
            run_report_progress(r);
        if (r->sim.dispatched < guard_at)
            continue;
        guard_at = r->sim.dispatched + RUN_GUARD_WINDOW;
        double dt = r->sim.now - t0;
        t0 = r->sim.now;
        if ((double)RUN_GUARD_WINDOW > limit * dt) {
            r->wall_run = util_now() - r->wall0;
            snprintf(err, CFG_ERR_MAX,
                     "runaway run stopped at t=%.9g s: %llu events in the last %.3g simulated s "
                     "(%.3g events per simulated second per core, over %ld cores: %s) exceed "
                     "[simulation] max_event_rate = %g per core; the configuration makes the "
                     "simulated work explode (tiny intervals, rates or sizes?); raise "
                     "max_event_rate (0 = no guard) if this is intended",
                     r->sim.now, (unsigned long long)RUN_GUARD_WINDOW, dt,
                     dt > 0 ? (double)RUN_GUARD_WINDOW / dt / (double)cores : INFINITY, cores,
                     how, r->c.simulation.max_event_rate);
            return -1;
        }
    }
    r->sim.pause_at = UINT64_MAX;
    if (net_saturated(r->net)) {
        r->wall_run = util_now() - r->wall0;
        run_saturated_error(r, err);
        return -1;
    }
    batch_settle_end(&r->sim, &r->cl); /* batched paging: counters as of now */
    r->wall_run = util_now() - r->wall0;
    r->time_limited = rr == EV_RUN_LIMIT;
    if (r->sched_out)
        schedule_finish(r->sched_out, &r->sim);
    if (r->wl_failed) {
        snprintf(err, CFG_ERR_MAX, "%s", r->wl_err);
        return -1;
    }
    if (r->jobs)
        run_jobs_at_end(r);
    return 0;
}

void run_set_schedule(run_t *r, const schedule_files *f)
{
    assert(!r->sched_out);
    r->sched_out = schedule_open(&r->sim, &r->cl, r->c.output.schedule_network, f,
                                 r->c.output.schedule_from, r->c.output.schedule_to);
    /* schedule.paje's network states: bounded like pes.csv's rows (issue
     * 23: messages that outrun nothing still make the trace grow with the
     * run, 911 MB for 3 jobs at comm_rate 0.01). */
    if (r->c.simulation.max_samples > 0)
        schedule_set_net_cap(r->sched_out, 256 * r->c.simulation.max_samples);
}

void run_destroy(run_t *r)
{
    if (!r)
        return;
    schedule_close(r->sched_out);
    if (r->pnr)
        pnr_destroy(&r->sim, r->pnr);
    if (r->sampling)
        sampler_stop(&r->sim, &r->sampler);
    if (r->cl.pes)
        cluster_destroy(&r->sim, &r->cl);
    free(r->last_busy);
    free(r->touched);
    jobs_csv_close(r->jobs);
    workload_close(r->wl);
    curve_set_free(&r->curves); /* after the jobs that point to them */
    ev_destroy(&r->sim);
    free(r);
}
