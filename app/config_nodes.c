/* app/config_nodes.c: what the configuration gives each node (see
 * app/config_nodes.h): its RAM (computer.ram, its groups COUNTxMB in node order,
 * memory_server_ram for memory servers) and its CPU speed (computer.speed,
 * groups COUNTxSPEED, issue 35). Split from app/config.c; it reads a
 * configuration already validated (the groups' counts add up to the
 * nodes: config_validate) and knows nothing of files or keys.
 */
#include "app/config_nodes.h"

#include <assert.h>

double config_pe_ram(const config *c, int i)
{
    int nodes = c->computer.number / c->computer.cores_per_node;
    assert(i >= 0 && i < nodes + c->computer.memory_servers);
    if (i >= nodes)
        return c->computer.memory_server_ram;
    if (c->computer.n_ram_groups == 0)
        return c->computer.ram;
    for (int g = 0; g < c->computer.n_ram_groups; g++) {
        if (i < c->computer.ram_groups[g].count)
            return c->computer.ram_groups[g].mb;
        i -= c->computer.ram_groups[g].count;
    }
    return c->computer.ram_groups[c->computer.n_ram_groups - 1].mb; /* not validated */
}

double config_ram_min(const config *c)
{
    double m = c->computer.ram;
    for (int g = 0; g < c->computer.n_ram_groups; g++)
        if (c->computer.ram_groups[g].mb < m)
            m = c->computer.ram_groups[g].mb;
    return m;
}

double config_pe_speed(const config *c, int i)
{
    int nodes = c->computer.number / c->computer.cores_per_node;
    assert(i >= 0 && i < nodes + c->computer.memory_servers);
    if (i >= nodes)
        return 1; /* memory servers run no threads */
    if (c->computer.n_speed_groups == 0)
        return c->computer.speed;
    for (int g = 0; g < c->computer.n_speed_groups; g++) {
        if (i < c->computer.speed_groups[g].count)
            return c->computer.speed_groups[g].speed;
        i -= c->computer.speed_groups[g].count;
    }
    return c->computer.speed_groups[c->computer.n_speed_groups - 1].speed; /* not validated */
}
