/* tests/fixture_config.h: helpers of tests/test_config*.c: temporary files
 * with given text, loading a configuration from text through a loader,
 * a configuration with every key away from its default (weird), and the
 * write -> read round trip.
 */
#ifndef PNRSIM_TESTS_FIXTURE_CONFIG_H
#define PNRSIM_TESTS_FIXTURE_CONFIG_H

#include "tests/fixture_components.h"
#include "app/config.h"
#include "tests/testutil.h"

#include <float.h>
#include <ini.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>


/* ---- helpers ---------------------------------------------------------- */

typedef int (*loader)(config *, const char *, char[CFG_ERR_MAX]);

/* Write text to a new temporary file; its path goes to path (size 64). */
static inline void write_tmp(char path[64], const char *text)
{
    snprintf(path, 64, "/tmp/pnrsim-test-config-XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

/* Load text with fn onto c; the temporary file's path is left in path. */
static inline int load_text(loader fn, config *c, const char *text, char path[64],
                            char err[CFG_ERR_MAX])
{
    write_tmp(path, text);
    err[0] = '\0';
    int rc = fn(c, path, err);
    unlink(path);
    return rc;
}

/* A valid configuration whose every value differs from the default (except
 * scheduler.type, which has a single possible value). */
static inline void weird(config *c)
{
    config_defaults(c);
    snprintf(c->simulation.system, CFG_NAME_MAX, "weird system#1");
    c->simulation.max_time = 12345.5;
    c->simulation.metrics_period = 0.1 + 0.2;
    c->simulation.seed = UINT64_MAX;
    c->simulation.bsld_tau = 1.0 / 3.0;
    snprintf(c->workload.trace, CFG_PATH_MAX, "traces/a b=c:d#e.swf");
    c->workload.cpu_demand = CPU_DEMAND_RUNTIME;
    c->workload.default_memory = 3.5;
    c->workload.memory_scale = 0;
    c->workload.load_scale = 2.75;
    c->workload.max_jobs = 1000000;
    c->workload.window = 3;
    c->workload.submit_min = 5;
    c->workload.submit_max = 1e9;
    c->workload.exclude_status[0] = 0;
    c->workload.exclude_status[1] = 5;
    c->workload.exclude_status[2] = -1;
    c->workload.n_exclude_status = 3;
    c->workload.lenient = true;
    snprintf(c->process.name, CFG_NAME_MAX, "P");
    c->process.mem_access_rate = 1e-9;
    c->process.comm_rate = 1e-4; /* smallest allowed */
    c->process.sync_rate = 123.456;
    c->process.page_size = 65536;
    c->process.interval = INTERVAL_EXPONENTIAL;
    c->simulation.max_samples = 0;
    c->simulation.max_event_rate = 0;
    c->process.mem_release = MEM_RELEASE_THREAD;
    c->scheduler.priority = t_index(PNRSIM_KIND_PRIORITY, "WORSTFIT");
    c->scheduler.packing = t_index(PNRSIM_KIND_PACKING, "WORSTFIT");
    c->scheduler.mpl = 0;
    c->scheduler.pcs = 0;
    c->scheduler.quantum = 1e-3;
    c->scheduler.mem_aware = MEM_AWARE_GLOBAL;
    c->scheduler.strict_order = false;
    c->scheduler.pcs_first_start = true;
    snprintf(c->computer.name, CFG_NAME_MAX, "n");
    c->computer.number = 9;
    c->computer.cpu = 0;
    c->computer.ram = 1e8; /* the largest allowed */
    c->computer.speed = 0.5; /* groups 3x0.5, 6x1.75 (issue 35): the first's */
    c->computer.n_speed_groups = 2;
    c->computer.speed_groups[0] = (cfg_speed_group){3, 0.5};
    c->computer.speed_groups[1] = (cfg_speed_group){6, 1.75};
    c->computer.rpm = 15000;
    c->computer.seek = 0;
    c->computer.transfer = 1.5;
    c->computer.rotation = ROTATION_FULL;
    c->computer.swap = SWAP_SSD;
    c->computer.ssd_latency = 1; /* the largest allowed */
    c->computer.ssd_bandwidth = 0.5;
    c->computer.ssd_parallelism = 7;
    c->computer.memory_servers = 3;
    c->computer.memory_server_ram = 7.5;
    c->netram.enabled = true;
    c->netram.strategy = pnrsim_find(PNRSIM_KIND_STRATEGY, "CLIENT")->index;
    c->netram.global_knowledge = true;
    c->netram.managers = 7;
    c->netram.server_threshold = 0;
    c->netram.packing = CFG_PACK_BESTFIT;
    c->netram.access_latency = 0.5;
    c->network.topology = TOPO_KIND_CONNECTED;
    c->network.rack_size = 5;
    c->network.memory_server_placement = NET_SERVERS_RACKS;
    c->network.uplink_bandwidth = 3;
    c->network.uplink_latency = 0.25;
    c->network.bandwidth = 1e-3;
    c->network.latency = 0;
    c->network.delay = 0;
    c->network.route = NET_ROUTE_WHOLE;
    c->network.neighbour_msg = 0;
    c->network.sync_msg = 1e9;
    c->network.control_msg = 3;
    c->process.dirty_fraction = 0.75;
    snprintf(c->process.dirty_fractions, CFG_PATH_MAX, "3:0.5, 1:1, 0:0");
}

/* Write c with config_write_ini and read it back onto base. */
static inline void round_trip(const config *c, config *base)
{
    char path[64], err[CFG_ERR_MAX] = "";
    write_tmp(path, "");
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    config_write_ini(c, f);
    fclose(f);
    int rc = config_load(base, path, err);
    unlink(path);
    ck_assert_msg(rc == 0, "reading back failed: %s", err);
}


/* One error case: file text, the line reported, and a piece of the message
 * after "FILE:LINE: " (the class of error). */
typedef struct err_case {
    const char *text;
    int line;
    const char *expect;
} err_case;

#endif
