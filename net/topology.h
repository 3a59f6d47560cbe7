/* net/topology.h: the interconnect topologies (techreport §4.2), shared by
 * net/ and the configuration (which names them in files). What each one
 * is, and its routes, are described in net/net.h and net/net.c. Kept apart
 * from net.h so that the configuration can name a topology without
 * pulling in the whole network layer. */
#ifndef PNRSIM_NET_TOPOLOGY_H
#define PNRSIM_NET_TOPOLOGY_H

typedef enum { TOPO_KIND_STAR, TOPO_KIND_BUS, TOPO_KIND_WHEEL, TOPO_KIND_CONNECTED } net_topology;

#endif
