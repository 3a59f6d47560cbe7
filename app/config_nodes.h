/* app/config_nodes.h: what the configuration gives each node
 * (app/config_nodes.c); reached through app/config.h. */
#ifndef PNRSIM_APP_CONFIG_NODES_H
#define PNRSIM_APP_CONFIG_NODES_H

#include "app/config_types.h"

/* RAM in MB of node i (0 .. number / cores_per_node + memory_servers - 1):
 * its group's, or memory_server_ram for a memory server. */
double config_pe_ram(const config *c, int i);
/* Smallest RAM of any compute PE, MB. */
double config_ram_min(const config *c);
/* The CPU speed of node i (0 .. nodes-1: computer.speed, its groups in
 * node order), relative to the trace's machine; 1 for a memory server
 * (nodes .. nodes + memory_servers - 1, which run no threads). */
double config_pe_speed(const config *c, int i);

#endif
