/* app/run_report.c: the hardware report of a run (--hardware-report): the
 * PEs with their RAM, disk or SSD, CPU and paging figures, then the network
 * (net_report). Read through run.h's accessors only; moved out of run.c,
 * which it does not need.
 */
#include "app/run.h"
#include "app/run_check.h"

#include "core/mres.h"
#include "core/res.h"
#include "hw/pe.h"
#include "net/net.h"
#include "sched/cluster.h"

#include <stdio.h>
#include <string.h>

void run_hardware_report(run_t *r, FILE *out)
{
    const config *c = run_config(r);
    const cluster_t *cl = run_cluster(r);
    const sim_t *sim = run_sim(r);
    const pe_t *pe0 = &cl->pes[0];
    char ram[512] = "";
    if (c->computer.n_ram_groups == 0)
        snprintf(ram, sizeof ram, "RAM %g MB", c->computer.ram);
    else
        for (int g = 0; g < c->computer.n_ram_groups; g++) {
            size_t len = strlen(ram);
            snprintf(ram + len, sizeof ram - len, "%s%d with %g MB", g ? " + " : "RAM: ",
                     c->computer.ram_groups[g].count, c->computer.ram_groups[g].mb);
        }
    if (c->computer.swap == SWAP_SSD)
        fprintf(out, "PEs: %d x %s (%s, SSD %.6g s per page: latency %g s + %ld B / %g MB/s, "
                     "%d at once)\n",
                c->computer.number, c->computer.name, ram, pe0->disk_service,
                c->computer.ssd_latency, c->process.page_size, c->computer.ssd_bandwidth,
                c->computer.ssd_parallelism);
    else
        fprintf(out, "PEs: %d x %s (%s, disk %.6g s per page: seek %g s + %d/%g rpm + "
                     "%ld B / %g MB/s)\n",
                c->computer.number, c->computer.name, ram, pe0->disk_service, c->computer.seek,
                c->computer.rotation == ROTATION_FULL ? 60 : 30, c->computer.rpm,
                c->process.page_size, c->computer.transfer);
    const int C = c->computer.cores_per_node, nodes = c->computer.number / C;
    if (C > 1)
        fprintf(out, "Cores per node: %d (%d cores = %d nodes x %d); the PE rows below are "
                     "nodes, cpu busy summed over a node's cores; RAM, disk and link per "
                     "node\n",
                C, c->computer.number, nodes, C);
    if (c->computer.memory_servers > 0)
        fprintf(out, "Memory servers: %d (PEs %d..%d), RAM %g MB each, run no threads, "
                     "lend RAM as network RAM\n",
                c->computer.memory_servers, nodes, cl->npes - 1,
                c->computer.memory_server_ram);
    for (int i = 0; i < cl->npes; i++) {
        const pe_t *pe = &cl->pes[i];
        if (pe->swap == PE_SWAP_SSD)
            /* Busy: at least one server in service; mean busy: the busy
             * server-seconds over the run's time (docs/METRICS.md). */
            fprintf(out, "  %-10s cpu busy %.6g s  ssd busy %.6g s (mean busy %.6g of %d, queue max %g)  "
                         "faults %llu (ssd %llu, remote %llu)",
                    pe->name, pe_cpu_busy(sim, pe), mres_busy_time(sim, &pe->ssd),
                    mres_mean_busy(sim, &pe->ssd), pe->ssd.c, pe->ssd.queue.max,
                    (unsigned long long)pe->faults, (unsigned long long)pe->disk_faults,
                    (unsigned long long)pe->remote_faults);
        else
            fprintf(out, "  %-10s cpu busy %.6g s  disk busy %.6g s  faults %llu (disk %llu, remote %llu)",
                    pe->name, pe_cpu_busy(sim, pe), res_busy_time(sim, &pe->disk),
                    (unsigned long long)pe->faults, (unsigned long long)pe->disk_faults,
                    (unsigned long long)pe->remote_faults);
        if (c->computer.n_ram_groups > 0 || c->computer.memory_servers > 0)
            fprintf(out, "  RAM %g MB%s", pe->ram_mb,
                    i >= nodes ? "  memory server" : "");
        if ((c->computer.n_speed_groups > 0 || c->computer.speed != 1) && i < nodes)
            fprintf(out, "  speed %g", pe->speed); /* computer.speed (issue 35) */
        fputc('\n', out);
    }
    net_report(sim, cl->net, out);
}
