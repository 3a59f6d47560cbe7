/* net/topology.h: the interconnect topologies (techreport §4.2), shared by
 * net/ and the configuration (which names them in files). What each one
 * is, and its routes, are described in net/elem.h and net/elem.c. Kept apart
 * from net.h so that the configuration can name a topology without
 * pulling in the whole network layer. */
#ifndef PNRSIM_NET_TOPOLOGY_H
#define PNRSIM_NET_TOPOLOGY_H

typedef enum {
    TOPO_KIND_STAR,
    TOPO_KIND_BUS,
    TOPO_KIND_WHEEL,
    TOPO_KIND_CONNECTED,
    TOPO_KIND_TREE /* racks: top-of-rack switches joined by a core switch (issue 15) */
} net_topology;

/* Where memory servers go in a TREE: spread over the compute racks, or in
 * racks of their own after them. */
typedef enum { NET_SERVERS_SPREAD, NET_SERVERS_RACKS } net_server_placement;

/* How a message crosses its route (issue 11): HOPS, element by element
 * (the report's model, exact); WHOLE, an uncontended route taken as one
 * step with each element reserved for its interval (net.h). */
typedef enum { NET_ROUTE_HOPS, NET_ROUTE_WHOLE } net_route_mode;

#endif
