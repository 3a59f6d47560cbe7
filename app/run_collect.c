/* app/run_collect.c: the metrics of a run, read at its end
 * (run_metrics_get, declared in run.h): from the hardware (per-PE time
 * averages, busy times, fault counters), the tallies app/run.c kept as
 * jobs ended, the scheduler, the network and network RAM. Reads the run's
 * state (app/run_internal.h) and changes nothing.
 */
#include "app/run.h"
#include "app/run_internal.h"

#include "app/schedule.h"
#include "app/schedule_nodes.h"

#include "hw/pe.h"
#include "net/net.h"
#include "pnr/pnr.h"
#include "sched/backfill.h"
#include "sched/cluster.h"
#include "sched/gang.h"
#include "sched/gang_alloc.h"
#include "sched/job.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

/* Mean and population SD over PEs of the time average over [0, t] of the
 * per-PE quantity at byte offset `field` of pe_t (a timeavg_t). */
static void pe_spread(const run_t *r, int n, size_t field, double t, double *mean,
                      double *sd)
{
    double s = 0, s2 = 0;
    for (int i = 0; i < n; i++) {
        const pe_t *pe = &r->cl.pes[i];
        double v = timeavg_mean((const timeavg_t *)((const char *)pe + field), t);
        s += v;
        s2 += v * v;
    }
    *mean = s / n;
    double var = s2 / n - (*mean) * (*mean);
    *sd = var > 0 ? sqrt(var) : 0;
}

void run_metrics_get(run_t *r, run_metrics *m)
{
    memset(m, 0, sizeof *m);
    sim_t *sim = &r->sim;
    int n = cluster_compute_pes(&r->cl); /* CPU and memory metrics: compute PEs */
    double T = sim->now;
    m->total_time = T;
    m->jobs_finished = r->finished;
    m->throughput = T > 0 ? r->finished / T : 0;
    double busy = 0, ftime = 0;
    uint64_t faults = 0;
    for (int i = 0; i < n; i++) {
        pe_t *pe = &r->cl.pes[i];
        busy += pe_cpu_busy(sim, pe); /* all its cores */
        ftime += pe->fault_time;
        faults += pe->faults;
        m->page_faults_disk += pe->disk_faults;
        m->page_faults_remote += pe->remote_faults;
    }
    m->cpu_busy_total = busy;
    /* Over cores: busy time of all cores / (cores x time); memory and
     * faults per node (METRICS.md). */
    m->cpu_utilization = T > 0 ? busy / (cluster_cores(&r->cl) * T) : 0;
    m->page_faults_per_pe = (double)faults / n;
    m->page_fault_time_per_pe = ftime / n;
    m->comm_busy_time = net_busy_time(sim, r->net);
    net_tree_busy tb;
    m->tree = net_tree_busy_time(sim, r->net, &tb) == 0;
    m->net_busy_rack_links = tb.rack_links;
    m->net_busy_uplinks = tb.uplinks;
    m->net_busy_tor_switches = tb.tor_switches;
    m->net_busy_core_switch = tb.core_switch;
    /* With an allocation policy other than the default FIRSTFREE (LOWEST
     * for the default's placement with the figures): what it did with the
     * racks and the hops (issues 34, 35). With the default nothing is
     * added (the outputs stay those of before the issues). */
    m->alloc_set = run_alloc_explicit(&r->c);
    m->alloc_racks = m->tree && m->alloc_set;
    if (m->alloc_set)
        gang_hops_mean(r->cl.gang, &m->alloc_hops_mean);
    if (m->alloc_racks) {
        gang_racks_spanned(r->cl.gang, &m->alloc_racks_spanned_mean, &m->alloc_racks_spanned_max);
        m->net_uplink_bytes = m->net_uplink_bytes_messages = 0;
        for (int k = 0; k < net_rack_count(r->net); k++) {
            const net_elem *u = net_elem_at(r->net, net_uplink_index(r->net, k));
            m->net_uplink_bytes += u->bytes;
            m->net_uplink_bytes_messages += u->job_bytes;
        }
        m->net_uplink_bytes_netram = m->net_uplink_bytes - m->net_uplink_bytes_messages;
    }
    pe_spread(r, n, offsetof(pe_t, mem), T, &m->mem_alloc_mean, &m->mem_alloc_sd);
    pe_spread(r, n, offsetof(pe_t, disk_use), T, &m->disk_alloc_mean, &m->disk_alloc_sd);
    /* A mean over no jobs is undefined, not 0: NAN, written as "n/a" (text,
     * tables) or null (JSON). So is a rate over no time. */
    m->response_time_mean = r->response.n ? r->response.mean : NAN;
    m->wait_time_mean = r->wait.n ? r->wait.mean : NAN;
    m->execution_time_mean = r->exec.n ? r->exec.mean : NAN;
    m->slowdown_mean = r->slowdown.n ? r->slowdown.mean : NAN;
    m->bounded_slowdown_mean = r->bsld.n ? r->bsld.mean : NAN;
    m->bounded_slowdown_dedicated_mean = r->bsld_ded.n ? r->bsld_ded.mean : NAN;
    if (T <= 0) {
        m->throughput = NAN;
        m->cpu_utilization = NAN;
    }
    m->mpl_max = gang_mpl_max(r->g);
    m->mpl_mean = r->submitted ? gang_mpl_mean(r->g, T) : NAN;
    m->pcs_count = (long)gang_pcs_count(r->g);
    m->seed = r->seed;
    m->jobs_submitted = r->submitted;
    m->jobs_unfinished = r->submitted - r->finished - r->cl.jobs_killed - gang_impossible(r->g);
    long unstarted = 0; /* queued, or placed in a slot that never came round */
    for (job_t *j = job_first(&r->cl); j; j = job_next(&r->cl, j))
        if (!j->started && !j->ended)
            unstarted++;
    m->jobs_never_started = unstarted; /* includes the impossible ones */
    m->jobs_impossible = gang_impossible(r->g);
    m->limits = r->c.scheduler.max_running_per_user > 0 || r->c.scheduler.max_cores_per_user > 0;
    m->jobs_limit_delayed = bf_limit_delayed(bf_of(r->g));
    m->slowdown_excluded = r->slowdown_excluded;
    for (int k = 0; k < WL_DROP_N; k++)
        m->dropped[k] = workload_dropped(r->wl, (wl_drop_reason)k);
    m->trace_stopped_at = workload_stopped_at(r->wl);
    m->procs_rounded = workload_rounded(r->wl, &m->procs_rounded_line);
    m->neighbour_msgs = r->cl.neighbour_msgs;
    m->neighbour_replies = r->cl.neighbour_replies;
    m->sync_msgs = r->cl.sync_msgs;
    m->messages_killed = r->cl.messages_killed;
    m->net_messages = net_messages_sent(r->net);
    m->net_restarts = net_restarts(r->net);
    m->net_bytes = net_bytes_sent(r->net);
    m->cpu_demand_done = r->cl.cpu_demand_done;
    m->loop_chunks = r->cl.loop_chunks;
    m->time_kill = r->cl.time_kill;
    if (m->time_kill) {
        m->jobs_killed = r->cl.jobs_killed;
        m->jobs_without_limit = r->no_limit;
        m->killed_core_seconds = r->cl.killed_core_seconds;
        m->killed_cpu_seconds = r->cl.killed_cpu;
        /* Work over work (trace seconds: with computer.speed, wall CPU
         * seconds held differ from the work done in them). */
        double work = r->cl.cpu_demand_done + r->cl.cpu_cut;
        m->cpu_lost_share = work > 0 ? r->cl.killed_cpu / work : NAN;
        m->cpu_cut_seconds = r->cl.cpu_cut;
    }
    m->exclusive = run_exclusive(r);
    m->idle_core_seconds = gang_idle_core_seconds(r->g, T);
    m->events = sim->dispatched;
    m->peak_pending = sim->peak_pending;
    m->wall_seconds = r->wall_run;
    m->time_limited = r->time_limited;
    m->samples_written = r->samples_written;
    m->samples_dropped = r->samples_dropped;
    m->samples_capped_at = r->samples_capped_at;
    m->pes_samples_written = r->pes_samples_written;
    m->pes_samples_dropped = r->pes_samples_dropped;
    m->pes_capped_at = r->pes_capped_at;
    if (r->sched_out) {
        m->paje_net_dropped = schedule_net_dropped(r->sched_out, &m->paje_net_capped_at);
        m->paje_net_kept = schedule_net_kept(r->sched_out);
    }
    /* pes.csv's rows per sample: ceil(N / group), group = ceil(N / 256)
     * consecutive nodes (app/schedule_nodes.c). */
    long npes = r->cl.npes, group = (npes + SCHEDULE_PE_ROWS - 1) / SCHEDULE_PE_ROWS;
    m->pes_rows_per_sample = group > 0 ? (npes + group - 1) / group : 0;
    if (r->pnr) {
        const pnr_stats *ps = pnr_get_stats(r->pnr);
        m->netram = true;
        /* Network RAM lent: over every servent, memory servers included. */
        pe_spread(r, r->cl.npes, offsetof(pe_t, lent_use), T, &m->netram_lent_mean,
                  &m->netram_lent_sd);
        m->pnr_requests = ps->requests;
        m->pnr_denied = ps->denied;
        m->pnr_partial = ps->partial;
        m->pnr_satisfied = ps->satisfied;
        m->pnr_asked_mb = ps->asked_mb;
        m->pnr_granted_mb = ps->granted_mb;
        m->pnr_alloc_wait = ps->alloc_wait;
        m->pnr_alloc_rounds_changed = ps->alloc_rounds_changed;
        m->pnr_dealloc_rounds_changed = ps->dealloc_rounds_changed;
        for (int k = 0; k < PNR_NKINDS; k++) {
            m->pnr_msgs[k] = ps->msgs[k];
            m->pnr_bytes[k] = ps->bytes[k];
        }
        m->pnr_strategy_msgs = ps->strategy_msgs;
        m->pnr_strategy_bytes = ps->strategy_bytes;
        m->rdma = r->c.netram.transport == PNR_TRANSPORT_RDMA;
        m->pnr_rdma_reads = ps->rdma_reads;
        m->pnr_rdma_writes = ps->rdma_writes;
        m->pnr_rdma_read_bytes = ps->rdma_read_bytes;
        m->pnr_rdma_write_bytes = ps->rdma_write_bytes;
        m->reclaim = r->c.netram.reclaim != PNR_RECLAIM_NONE;
        m->reclaim_events = ps->reclaim_events;
        m->reclaim_mb = ps->reclaim_mb;
        m->reclaim_pages = ps->reclaim_pages;
        m->reclaim_replaced_mb = ps->reclaim_replaced_mb;
    }
}
