/* sched/cluster.c: the cluster's constructor and destructor (see
 * cluster.h). The parts are made in the order the program always made
 * them (PEs, network, scheduler), so event records and stream names are
 * what they were. */
#include "sched/cluster.h"
#include "sched/job_cost.h"
#include "sched/job_limit.h"

#include "sched/job_resize.h"

#include "core/mem.h"
#include "hw/swap.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

void cluster_init(sim_t *sim, cluster_t *cl, const cluster_params *p)
{
    assert(p->npes >= 1);
    int n = p->npes;
    memset(cl, 0, sizeof *cl);
    list_init(&cl->jobs);
    list_init(&cl->cost_free);
    list_init(&cl->cost_busy);
    cl->npes = n;
    cl->ncompute = p->ncompute;
    cl->cores_per_node = p->cores_per_node > 1 ? p->cores_per_node : 1;
    cl->pes = xcalloc((size_t)n, sizeof *cl->pes);
    cl->rng_gen = p->gen;
    rng_set_init(&cl->fault_rng, p->gen, p->seed, "fault", (size_t)n);
    double page = p->page_bytes > 0 ? p->page_bytes : PE_PAGE_BYTES;
    for (int i = 0; i < n; i++) {
        pe_t *pe = &cl->pes[i];
        pe_init(sim, pe, i, p->pe_name ? p->pe_name : "pe",
                p->pe_ram_mb ? p->pe_ram_mb[i] : p->ram_mb, p->seek, p->rpm, p->transfer);
        pe_set_disk(pe, p->seek, p->rpm, p->transfer, page, p->full_rotation ? 1.0 : 0.5);
        if (p->swap == PE_SWAP_SSD)
            pe_set_ssd(sim, pe, p->ssd_latency, p->ssd_bandwidth, p->ssd_parallelism, page);
        if (p->swap == PE_SWAP_SSD && (p->ssd_write_latency > 0 || p->ssd_write_bandwidth > 0))
            pe_set_write(pe, pe_ssd_write_time(p->ssd_latency, p->ssd_bandwidth,
                                               p->ssd_write_latency, p->ssd_write_bandwidth,
                                               page));
        /* Memory servers too: nodes like the others (run no threads; their
         * cores serve page requests under MESSAGES, sched/job_cost.c). */
        if (cl->cores_per_node > 1)
            pe_set_cores(sim, pe, cl->cores_per_node);
        if (p->pe_speed) {
            assert(p->pe_speed[i] > 0);
            pe->speed = p->pe_speed[i];
            if (pe->speed != p->pe_speed[0])
                cl->speeds_differ = true;
        }
    }
    cl->page_bytes = p->page_bytes;
    /* Exponential intervals draw from streams of their own, created only
     * when used, so the other streams' sequences do not depend on it. */
    cl->interval_exp = p->interval_exp;
    if (cl->interval_exp)
        rng_set_init(&cl->interval_rng, p->gen, p->seed, "interval", (size_t)n);
    if (p->topology == TOPO_KIND_TREE) {
        assert(p->tree);
        cl->net = net_create_tree(sim, p->tree, n, p->bandwidth, p->latency, p->delay);
    } else {
        cl->net = net_create(sim, p->topology, n, p->bandwidth, p->latency, p->delay);
    }
    if (!cl->net)
        abort(); /* net_create fails only when out of memory */
    net_set_route_mode(cl->net, p->route);
    cl->mem_access_rate = p->mem_access_rate;
    cl->dirty_fraction = p->dirty_fraction;
    cl->dirty_per_thread = p->dirty_per_thread;
    cl->dirty_max = p->dirty_max;
    cl->comm_rate = p->comm_rate;
    cl->sync_rate = p->sync_rate;
    cl->neighbour_bytes = p->neighbour_bytes;
    cl->sync_bytes = p->sync_bytes;
    cl->mem_release = p->mem_release;
    cl->fault_cpu = p->fault_cpu;
    if (p->time_kill)
        job_limit_attach(cl); /* cl->time_kill, cl->limiting */
    cl->msg_cpu = cl->serve_cpu = 0; /* pnr_create sets them (MESSAGES) */
    cl->paging = p->paging;
    cl->loop_sched = p->loop_sched;
    if (cl->loop_sched != LOOP_NONE) {
        cl->imbalance = p->imbalance;
        cl->chunk_overhead = p->chunk_overhead;
        cl->loop_n = p->loop_n;
        /* The demands' own streams: no other stream shifts. */
        if (cl->imbalance > 0)
            rng_set_init(&cl->imb_rng, p->gen, p->seed, "imbalance", (size_t)n);
    }
    if (cl->paging == PAGING_BATCHED) {
        cl->vrng = rng_stream_gen(p->gen, p->seed, "net-virtual", 0);
        net_set_virtual_rng(cl->net, cl->vrng);
    }
    batch_attach(cl);
    cl->profile = p->profile;
    job_resize_attach(cl);
    if (p->gang) {
        /* the scheduler's components (sched/order.h, packing.h, reserve.h) */
        assert(p->gang->priority && p->gang->packing && p->gang->backfill);
        cl->gang = gang_create(sim, cl, p->gang, p->on_end, p->end_ctx);
        bf_attach(cl->gang); /* the priority functions and backfilling, when set */
    }
}

void cluster_observe(cluster_t *cl, const cluster_observer *o)
{
    static const cluster_observer none;
    if (!o)
        o = &none;
    if (cl->gang)
        gang_set_observer(cl->gang, o->gang);
    for (int i = 0; i < cl->npes; i++)
        pe_set_observer(&cl->pes[i], o->pe);
    net_set_observer(cl->net, o->net);
}

void cluster_destroy(sim_t *sim, cluster_t *cl)
{
    job_destroy_all(sim, cl);
    cost_free_all(sim, cl);
    batch_free_all(cl);
    if (cl->gang)
        gang_destroy(sim, cl->gang);
    cl->gang = NULL;
    if (cl->net)
        net_destroy(sim, cl->net);
    cl->net = NULL;
    cl->msg_pool = NULL; /* went with the net */
    rng_set_free(&cl->fault_rng);
    rng_set_free(&cl->interval_rng);
    rng_set_free(&cl->imb_rng);
    rng_free(cl->vrng);
    cl->vrng = NULL;
    for (int i = 0; i < cl->npes; i++) {
        pe_swap_free(sim, &cl->pes[i]);
        pe_free(&cl->pes[i]);
    }
    free(cl->pes);
    cl->pes = NULL;
    cl->npes = 0;
}
