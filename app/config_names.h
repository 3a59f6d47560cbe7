/* app/config_names.h: the names of enum values, as written in files (see
 * app/config_names.c). Part of app/config.h's interface (the
 * config_*_name functions); the lists themselves are for the key table
 * (app/config_keys.c) and the value parser (app/config_value.c). */
#ifndef PNRSIM_APP_CONFIG_NAMES_H
#define PNRSIM_APP_CONFIG_NAMES_H

#include "app/config_types.h"

#include <stddef.h>

/* The names of each enum, by value, NULL-terminated. scheduler.mem_aware's
 * (cfg_mem_aware_names) accept yes/no for LOCAL/NO too (config_value.c). */
extern const char *const cfg_packing_names[];
extern const char *const cfg_sched_names[];
extern const char *const cfg_release_names[];
extern const char *const cfg_selection_names[];
extern const char *const cfg_mem_aware_names[];
extern const char *const cfg_locality_names[];
extern const char *const cfg_transport_names[];
extern const char *const cfg_rdma_read_names[];
extern const char *const cfg_reclaim_names[];
extern const char *const cfg_placement_names[];
extern const char *const cfg_route_names[];
extern const char *const cfg_topology_names[];
extern const char *const cfg_cpu_demand_names[];
extern const char *const cfg_interval_names[];
extern const char *const cfg_rotation_names[];
extern const char *const cfg_swap_names[];
extern const char *const cfg_mem_release_names[];
extern const char *const cfg_paging_names[];
extern const char *const cfg_loop_names[];
extern const char *const cfg_fault_model_names[];
extern const char *const cfg_estimate_names[];
extern const char *const cfg_time_limit_names[];
extern const char *const cfg_mem_profile_names[];
extern const char *const cfg_node_sharing_names[];
extern const char *const cfg_fairshare_by_names[];
extern const char *const cfg_generator_names[];
/* output.schedule: lower case (no, yes, gz), and booleans accepted too
 * (config_value.c): the key was a boolean before issue 26. */
extern const char *const cfg_schedule_names[];

/* Number of names in a NULL-terminated list. */
size_t cfg_n_names(const char *const *names);

/* Names of enum values, as written in files (upper case); "?" for a value
 * out of range. */
const char *config_priority_name(cfg_priority v);
const char *config_packing_name(int v); /* scheduler.packing's index */
const char *config_strategy_name(cfg_strategy v);
const char *config_reclaim_name(cfg_reclaim v);
const char *config_topology_name(cfg_topology v);
const char *config_cpu_demand_name(cfg_cpu_demand v);
const char *config_sched_type_name(cfg_sched_type v);
const char *config_mem_release_name(cfg_mem_release v);

#endif
