/* app/config_names.c: the names of enum values as written in files (upper
 * case; read case-insensitively), one NULL-terminated list per enum, in
 * the enum's order (checked below), and the config_*_name functions that
 * print them. The lowest file of the configuration module with code: the
 * key table (app/config_keys.c) points its enum keys at these lists. */
#include "app/config_names.h"

#include "core/registry.h"

#include <stddef.h>

const char *const cfg_packing_names[] = {"FIRSTFIT", "BESTFIT", "WORSTFIT", NULL};
const char *const cfg_sched_names[] = {"GANG", NULL};
const char *const cfg_release_names[] = {"EXCESS", "ALL", NULL};
const char *const cfg_selection_names[] = {"RANDOM_WORSTFIT", "WORSTFIT", "BESTFIT",
                                           "RANDOM", NULL};
const char *const cfg_mem_aware_names[] = {"NO", "LOCAL", "GLOBAL", NULL};
const char *const cfg_locality_names[] = {"NONE", "RACK", NULL};
const char *const cfg_transport_names[] = {"MESSAGES", "RDMA", NULL};
const char *const cfg_rdma_read_names[] = {"ONE_WAY", "ROUND_TRIP", NULL};
const char *const cfg_reclaim_names[] = {"NONE", "SWAP", "REPLACE", NULL};
const char *const cfg_placement_names[] = {"SPREAD", "RACKS", NULL};
const char *const cfg_route_names[] = {"HOPS", "WHOLE", NULL};
const char *const cfg_topology_names[] = {"STAR", "BUS", "WHEEL", "CONNECTED", "TREE",
                                          NULL};
const char *const cfg_cpu_demand_names[] = {"CPUTIME", "RUNTIME", "AUTO", NULL};
const char *const cfg_interval_names[] = {"FIXED", "EXPONENTIAL", NULL};
const char *const cfg_rotation_names[] = {"HALF", "FULL", NULL};
const char *const cfg_swap_names[] = {"DISK", "SSD", NULL};
const char *const cfg_mem_release_names[] = {"THREAD", "JOB", NULL};
const char *const cfg_paging_names[] = {"EXACT", "BATCHED", NULL};
const char *const cfg_loop_names[] = {"NONE", "STATIC", "SS", "GSS", "FAC", "WF", "AWF", NULL};
const char *const cfg_fault_model_names[] = {"REPORT", "CURVE", NULL};
const char *const cfg_estimate_names[] = {"REQUESTED", "RUNTIME", NULL};
const char *const cfg_time_limit_names[] = {"IGNORE", "KILL", NULL};
const char *const cfg_mem_profile_names[] = {"CONSTANT", "RAMP", "PHASES", NULL};
const char *const cfg_node_sharing_names[] = {"SHARED", "EXCLUSIVE", NULL};
const char *const cfg_fairshare_by_names[] = {"user", "group", NULL};
const char *const cfg_generator_names[] = {"XOSHIRO256SS", "MT19937", NULL};
const char *const cfg_schedule_names[] = {"no", "yes", "gz", NULL};

/* The name arrays are indexed by the enum values. */
_Static_assert(SCHEDULE_NO == 0 && SCHEDULE_YES == 1 && SCHEDULE_GZ == 2, "");
_Static_assert(CFG_PACK_FIRSTFIT == 0 && CFG_PACK_BESTFIT == 1 && CFG_PACK_WORSTFIT == 2, "");
_Static_assert(SCHED_GANG == 0, "");
_Static_assert(PNR_RELEASE_EXCESS == 0 && PNR_RELEASE_ALL == 1, "");
_Static_assert(PNR_SELECT_RANDOM_WORSTFIT == 0 && PNR_SELECT_WORSTFIT == 1 &&
               PNR_SELECT_BESTFIT == 2 && PNR_SELECT_RANDOM == 3, "");
_Static_assert(TOPO_KIND_STAR == 0 && TOPO_KIND_BUS == 1 && TOPO_KIND_WHEEL == 2 &&
               TOPO_KIND_CONNECTED == 3 && TOPO_KIND_TREE == 4, "");
_Static_assert(MEM_AWARE_NO == 0 && MEM_AWARE_LOCAL == 1 && MEM_AWARE_GLOBAL == 2 &&
               sizeof(cfg_mem_aware) == sizeof(int), "");
_Static_assert(PNR_LOCALITY_NONE == 0 && PNR_LOCALITY_RACK == 1 &&
               sizeof(cfg_locality) == sizeof(int), "");
_Static_assert(PNR_TRANSPORT_MESSAGES == 0 && PNR_TRANSPORT_RDMA == 1 &&
               sizeof(cfg_transport) == sizeof(int), "");
_Static_assert(PNR_RDMA_READ_ONE_WAY == 0 && PNR_RDMA_READ_ROUND_TRIP == 1 &&
               sizeof(cfg_rdma_read) == sizeof(int), "");
_Static_assert(PNR_RECLAIM_NONE == 0 && PNR_RECLAIM_SWAP == 1 && PNR_RECLAIM_REPLACE == 2 &&
               sizeof(cfg_reclaim) == sizeof(int), "");
_Static_assert(NET_SERVERS_SPREAD == 0 && NET_SERVERS_RACKS == 1 &&
               sizeof(cfg_server_placement) == sizeof(int), "");
_Static_assert(NET_ROUTE_HOPS == 0 && NET_ROUTE_WHOLE == 1 && sizeof(cfg_route) == sizeof(int), "");
_Static_assert(CPU_DEMAND_CPUTIME == 0 && CPU_DEMAND_RUNTIME == 1 &&
               CPU_DEMAND_AUTO == 2, "");
_Static_assert(INTERVAL_FIXED == 0 && INTERVAL_EXPONENTIAL == 1, "");
_Static_assert(ROTATION_HALF == 0 && ROTATION_FULL == 1, "");
_Static_assert(SWAP_DISK == 0 && SWAP_SSD == 1 && sizeof(cfg_swap) == sizeof(int), "");
_Static_assert(sizeof(cfg_interval) == sizeof(int) &&
               sizeof(cfg_rotation) == sizeof(int), "enums must be int-sized");
_Static_assert(MEM_RELEASE_THREAD == 0 && MEM_RELEASE_JOB == 1, "");
_Static_assert(PAGING_EXACT == 0 && PAGING_BATCHED == 1 && sizeof(cfg_paging) == sizeof(int),
               "");
_Static_assert(LOOP_NONE == 0 && LOOP_STATIC == 1 && LOOP_SS == 2 && LOOP_GSS == 3 &&
                   LOOP_FAC == 4 && LOOP_WF == 5 && LOOP_AWF == 6 && sizeof(sched_loop) == sizeof(int),
               "");
_Static_assert(FAULT_MODEL_REPORT == 0 && FAULT_MODEL_CURVE == 1 &&
               sizeof(cfg_fault_model) == sizeof(int), "");
_Static_assert(ESTIMATE_REQUESTED == 0 && ESTIMATE_RUNTIME == 1, "");
_Static_assert(MEM_PROFILE_CONSTANT == 0 && MEM_PROFILE_RAMP == 1 && MEM_PROFILE_PHASES == 2 &&
               sizeof(mem_profile_kind) == sizeof(int), "");
_Static_assert(RNG_XOSHIRO256SS == 0 && RNG_MT19937 == 1 && sizeof(rng_gen) == sizeof(int),
               "");
_Static_assert(NODE_SHARED == 0 && NODE_EXCLUSIVE == 1 &&
               sizeof(cfg_node_sharing) == sizeof(int), "enums must be int-sized");
_Static_assert(sizeof(cfg_estimate) == sizeof(int) && sizeof(cfg_backfill) == sizeof(int),
               "enums must be int-sized");
_Static_assert(sizeof(cfg_mem_release) == sizeof(int), "enums must be int-sized");
_Static_assert(FAIRSHARE_BY_USER == 0 && FAIRSHARE_BY_GROUP == 1 &&
               sizeof(cfg_fairshare_by) == sizeof(int), "enums must be int-sized");
/* Enums are read and written as int. */
_Static_assert(sizeof(cfg_priority) == sizeof(int) &&
               sizeof(cfg_packing) == sizeof(int) &&
               sizeof(cfg_sched_type) == sizeof(int) &&
               sizeof(cfg_strategy) == sizeof(int) &&
               sizeof(cfg_topology) == sizeof(int) &&
               sizeof(cfg_cpu_demand) == sizeof(int), "enums must be int-sized");

/* Number of names in a NULL-terminated list. */
size_t cfg_n_names(const char *const *names)
{
    size_t n = 0;
    while (names[n])
        n++;
    return n;
}

/* names[v], or "?" when v is not a valid index. */
static const char *name_of(const char *const *names, int v)
{
    return v >= 0 && (size_t)v < cfg_n_names(names) ? names[v] : "?";
}

/* scheduler.priority / scheduler.packing: the registry's names. */
const char *config_priority_name(cfg_priority v)
{
    const pnrsim_component *c = pnrsim_at(PNRSIM_KIND_PRIORITY, v);
    return c ? c->name : "?";
}
const char *config_packing_name(int v)
{
    const pnrsim_component *c = pnrsim_at(PNRSIM_KIND_PACKING, v);
    return c ? c->name : "?";
}
const char *config_strategy_name(cfg_strategy v)
{
    const pnrsim_component *s = pnrsim_at(PNRSIM_KIND_STRATEGY, v);
    return s ? s->name : "?";
}
const char *config_reclaim_name(cfg_reclaim v) { return name_of(cfg_reclaim_names, (int)v); }
const char *config_topology_name(cfg_topology v) { return name_of(cfg_topology_names, (int)v); }
const char *config_cpu_demand_name(cfg_cpu_demand v) { return name_of(cfg_cpu_demand_names, (int)v); }
const char *config_sched_type_name(cfg_sched_type v) { return name_of(cfg_sched_names, (int)v); }
const char *config_mem_release_name(cfg_mem_release v) { return name_of(cfg_mem_release_names, (int)v); }
