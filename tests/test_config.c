/* tests/test_config.c: the configuration module (app/config*.c, in the
 * layers app/config.h lists), through its interface app/config.h.
 *
 * What is checked: the defaults and configs/reference.ini are the same
 * configuration; the PNRSim appendix-A file and its INI translation give the
 * same configuration; write -> read gives back exactly what was written;
 * every class of error in INI files, PNRSim files and --set gives one line
 * naming the place (file:line or the --set argument), the key, the value and
 * what is allowed; config_validate's cross-key rules; format detection. Runs
 * from the repository root (it reads configs/).
 *
 * This file: defaults, the appendix-A file, writing and INI reading.
 * PNRSim files, format detection, --set and validation are in
 * tests/test_config_set.c; helpers in tests/fixture_config.h.
 */
#include "tests/fixture_components.h"
#include "app/config.h"
#include "app/dirty.h"
#include "tests/testutil.h"

#include <float.h>
#include <ini.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "tests/fixture_config.h"

/* ---- defaults and reference.ini ---------------------------------------- */

START_TEST(test_defaults)
{
    config c;
    char err[CFG_ERR_MAX];
    config_defaults(&c);
    ck_assert_str_eq(c.simulation.system, "pnrsim");
    ck_assert_double_eq(c.simulation.max_time, 0);
    ck_assert_double_eq(c.simulation.metrics_period, 3600);
    ck_assert_uint_eq(c.simulation.seed, 1);
    ck_assert_double_eq(c.simulation.bsld_tau, 10);
    ck_assert_str_eq(c.workload.trace, "");
    ck_assert_int_eq(c.workload.cpu_demand, CPU_DEMAND_AUTO);
    ck_assert_double_eq(c.workload.memory_scale, 1);
    ck_assert_double_eq(c.workload.load_scale, 1);
    ck_assert_int_eq(c.workload.n_exclude_status, 0);
    ck_assert(!c.workload.lenient);
    ck_assert_str_eq(c.process.name, "Process");
    ck_assert_double_eq(c.process.mem_access_rate, 0.00000024);
    ck_assert_int_eq(c.scheduler.type, SCHED_GANG);
    ck_assert_int_eq(c.scheduler.priority, t_index(PNRSIM_KIND_PRIORITY, "FCFS"));
    ck_assert_int_eq(c.scheduler.packing, t_index(PNRSIM_KIND_PACKING, "FIRSTFIT"));
    ck_assert_int_eq(c.scheduler.mpl, 1);
    ck_assert_double_eq(c.scheduler.pcs, 0.004);
    ck_assert_double_eq(c.scheduler.quantum, 60);
    ck_assert(!c.scheduler.mem_aware);
    ck_assert(c.scheduler.strict_order);
    ck_assert(!c.scheduler.pcs_first_start);
    ck_assert_int_eq(c.process.mem_release, MEM_RELEASE_JOB);
    ck_assert_str_eq(c.computer.name, "Node");
    ck_assert_int_eq(c.computer.number, 64);
    ck_assert_double_eq(c.computer.ram, 32);
    ck_assert_double_eq(c.computer.seek, 0.009);
    ck_assert(!c.netram.enabled);
    ck_assert_int_eq(c.netram.strategy, pnrsim_find(PNRSIM_KIND_STRATEGY, "CENTRAL")->index);
    ck_assert_int_eq(c.netram.managers, 1);
    ck_assert_double_eq(c.netram.server_threshold, 0.1);
    ck_assert_int_eq(c.network.topology, TOPO_KIND_STAR);
    ck_assert_double_eq(c.network.bandwidth, 12.5);
    ck_assert_double_eq(c.network.latency, 0.00000005);
    ck_assert_double_eq(c.network.delay, 0.00008);
    ck_assert_int_eq(c.network.route, NET_ROUTE_HOPS);
    ck_assert_double_eq(c.network.neighbour_msg, 1024);
    ck_assert_double_eq(c.network.sync_msg, 64);
    ck_assert_double_eq(c.network.control_msg, 64);
    ck_assert_msg(config_validate(&c, err) == 0, "%s", err);
}
END_TEST

START_TEST(test_weird_is_valid_and_different)
{
    config w, d;
    char err[CFG_ERR_MAX];
    weird(&w);
    config_defaults(&d);
    ck_assert_msg(config_validate(&w, err) == 0, "%s", err);
    ck_assert(!config_equal(&w, &d));
    ck_assert(config_equal(&w, &w));
}
END_TEST

/* Loading reference.ini onto a configuration that differs from the defaults
 * in every key gives exactly the defaults: the file lists every key, with
 * the default value. */
START_TEST(test_reference_ini_is_defaults)
{
    config c, d;
    char err[CFG_ERR_MAX] = "";
    config_defaults(&d);
    weird(&c);
    ck_assert_msg(config_load_ini(&c, "configs/reference.ini", err) == 0, "%s", err);
    ck_assert(config_equal(&c, &d));
    weird(&c);
    ck_assert_msg(config_load(&c, "configs/reference.ini", err) == 0, "%s", err);
    ck_assert(config_equal(&c, &d));
}
END_TEST

/* process.dirty_fractions read (app/dirty.c): items out of order and with
 * blanks, 7 -> 0.25, 2 -> 1, 0 -> 0; every other number (3, -1: unknown)
 * takes dirty_fraction (0.5); the largest 1; the items' own count. Empty:
 * off, every job dirty_fraction, the largest dirty_fraction. */
START_TEST(test_dirty_by_application)
{
    config c;
    char err[CFG_ERR_MAX];
    config_defaults(&c);
    ck_assert_int_eq(config_set(&c, "process.dirty_fraction=0.5", err), 0);
    ck_assert_msg(config_set(&c, "process.dirty_fractions= 7 : 0.25 ,2:1, 0:0 ", err) == 0,
                  "%s", err);
    dirty_set d;
    dirty_set_load(&d, &c);
    ck_assert(d.on);
    ck_assert_uint_eq(d.n, 3);
    ck_assert_double_eq(d.max, 1);
    ck_assert_double_eq(dirty_set_find(&d, 7), 0.25);
    ck_assert_double_eq(dirty_set_find(&d, 2), 1);
    ck_assert_double_eq(dirty_set_find(&d, 0), 0);
    ck_assert_double_eq(dirty_set_find(&d, 3), 0.5);
    ck_assert_double_eq(dirty_set_find(&d, -1), 0.5);
    config_defaults(&c);
    ck_assert_int_eq(config_set(&c, "process.dirty_fraction=0.125", err), 0);
    dirty_set_load(&d, &c);
    ck_assert(!d.on);
    ck_assert_double_eq(d.max, 0.125);
    ck_assert_double_eq(dirty_set_find(&d, 7), 0.125);
}
END_TEST

/* ---- the appendix-A file and its translation --------------------------- */

START_TEST(test_appendix_cfg_values)
{
    config c;
    char err[CFG_ERR_MAX] = "";
    config_defaults(&c);
    ck_assert_msg(config_load_pnrsim(&c, "configs/pnrsim-appendix.cfg", err) == 0,
                  "%s", err);
    ck_assert_str_eq(c.simulation.system, "YOUR_SYSTEM_NAME_GOES_HERE");
    ck_assert_double_eq(c.simulation.max_time, 10000000);
    ck_assert_double_eq(c.simulation.metrics_period, 50000);
    ck_assert_double_eq(c.process.comm_rate, 10);
    ck_assert_double_eq(c.process.sync_rate, 1); /* "synchrates" */
    ck_assert_int_eq(c.scheduler.packing, t_index(PNRSIM_KIND_PACKING, "BESTFIT"));
    ck_assert_int_eq(c.scheduler.mpl, 2);
    ck_assert(c.netram.enabled);
    ck_assert_int_eq(c.netram.strategy, pnrsim_find(PNRSIM_KIND_STRATEGY, "BACKBONE")->index);
    ck_assert_int_eq(c.netram.managers, 4);
    ck_assert_int_eq(c.network.topology, TOPO_KIND_STAR); /* "star" */
    ck_assert_double_eq(c.network.latency, 0.00000005);
    ck_assert_msg(config_validate(&c, err) == 0, "%s", err);
}
END_TEST

/* Both files onto the defaults, and onto a base where every value differs
 * from both: equal results mean they set the same keys to the same values. */
START_TEST(test_appendix_cfg_equals_ini)
{
    config a, b;
    char err[CFG_ERR_MAX] = "";
    for (int base = 0; base < 2; base++) {
        if (base == 0) {
            config_defaults(&a);
        } else {
            weird(&a);
            a.netram.enabled = false; /* the appendix sets it to yes */
        }
        b = a;
        ck_assert_msg(config_load(&a, "configs/pnrsim-appendix.cfg", err) == 0, "%s", err);
        ck_assert_msg(config_load(&b, "configs/pnrsim-appendix.ini", err) == 0, "%s", err);
        ck_assert_msg(config_equal(&a, &b), "base %d", base);
    }
}
END_TEST

/* ---- writing ----------------------------------------------------------- */

START_TEST(test_write_read_back)
{
    config c, back, d;
    weird(&c);
    config_defaults(&back);
    round_trip(&c, &back);
    ck_assert(config_equal(&c, &back));
    ck_assert_double_eq(back.simulation.metrics_period, 0.1 + 0.2);
    ck_assert_double_eq(back.computer.ram, 1e8);
    ck_assert_str_eq(back.workload.trace, "traces/a b=c:d#e.swf");

    config_defaults(&d);
    weird(&back);
    round_trip(&d, &back);
    ck_assert(config_equal(&d, &back));
}
END_TEST

/* A long trace path (longer than inih's default line buffer of 200 bytes)
 * and a full exclude_status list survive writing and reading. */
START_TEST(test_write_long_values)
{
    config c, back;
    config_defaults(&c);
    memset(c.workload.trace, 'p', CFG_PATH_MAX - 1);
    c.workload.trace[0] = '/';
    c.workload.trace[CFG_PATH_MAX - 1] = '\0';
    for (int i = 0; i < CFG_MAX_STATUS; i++)
        c.workload.exclude_status[i] = i % 7 - 1;
    c.workload.n_exclude_status = CFG_MAX_STATUS;
    config_defaults(&back);
    round_trip(&c, &back);
    ck_assert(config_equal(&c, &back));
    ck_assert_uint_eq(strlen(back.workload.trace), CFG_PATH_MAX - 1);
}
END_TEST

START_TEST(test_write_lists_every_key)
{
    config c;
    config_defaults(&c);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    config_write_ini(&c, f);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(buf, "\n[scheduler]\n"));
    ck_assert_ptr_nonnull(strstr(buf, "\ntype = GANG\n"));
    ck_assert_ptr_nonnull(strstr(buf, "\nexclude_status =\n"));
    ck_assert_ptr_nonnull(strstr(buf, "\nram = 32\n"));
    ck_assert_ptr_nonnull(strstr(buf, "[MB; 0.01 <= x <= 1e+08, or groups COUNTxMB, ...; "
                                      "or with a unit MB, GB, TB]\nram = 32\n"));
    ck_assert_ptr_nonnull(strstr(buf, "[s CPU; 0 or 0.0001 <= x <= 1e+07; or with a unit "
                                      "s, m, h, d]\ncomm_rate = 0\n"));
    ck_assert_ptr_nonnull(strstr(buf, "[bytes; integer 512..1073741824]\npage_size = 4096\n"));
    /* stable: writing twice gives the same text */
    char *buf2 = NULL;
    size_t len2 = 0;
    f = open_memstream(&buf2, &len2);
    config_write_ini(&c, f);
    fclose(f);
    ck_assert_str_eq(buf, buf2);
    free(buf);
    free(buf2);
}
END_TEST

/* ---- INI reading ------------------------------------------------------- */

START_TEST(test_ini_case_comments_indent)
{
    config c;
    char path[64], err[CFG_ERR_MAX];
    config_defaults(&c);
    int rc = load_text(config_load_ini, &c,
                       "\xEF\xBB\xBF; comment\n"
                       "# another\n"
                       "[ SCHEDULER ]   ; inline after a header\n"
                       "PRIORITY = bestFit\n"
                       "  Mem_Aware = TRUE\n"
                       "\tmpl = 0\r\n"
                       "[Computer]\n"
                       "ram = 48 ; MB\n"
                       "name: big node\n",
                       path, err);
    ck_assert_msg(rc == 0, "%s", err);
    ck_assert_int_eq(c.scheduler.priority, t_index(PNRSIM_KIND_PRIORITY, "BESTFIT"));
    ck_assert(c.scheduler.mem_aware);
    ck_assert_int_eq(c.scheduler.mpl, 0);
    ck_assert_double_eq(c.computer.ram, 48);
    ck_assert_str_eq(c.computer.name, "big node");
}
END_TEST

START_TEST(test_ini_restores_inih_settings)
{
    config c;
    char path[64], err[CFG_ERR_MAX];
    int max_line = ini_max_line;
    bool multiline = ini_allow_multiline, inl = ini_allow_inline_comments;
    char *prefixes = ini_inline_comment_prefixes;
    config_defaults(&c);
    ck_assert_int_eq(load_text(config_load_ini, &c, "[computer]\nram = 8\n", path, err), 0);
    ck_assert_int_eq(load_text(config_load_ini, &c, "[computer]\nram = x\n", path, err), -1);
    ck_assert_int_eq(ini_max_line, max_line);
    ck_assert(ini_allow_multiline == multiline);
    ck_assert(ini_allow_inline_comments == inl);
    ck_assert_ptr_eq(ini_inline_comment_prefixes, prefixes);
}
END_TEST

START_TEST(test_ini_empty_values)
{
    config c;
    char path[64], err[CFG_ERR_MAX];
    weird(&c);
    int rc = load_text(config_load_ini, &c,
                       "[workload]\ntrace =\nexclude_status = \n", path, err);
    ck_assert_msg(rc == 0, "%s", err);
    ck_assert_str_eq(c.workload.trace, "");
    ck_assert_int_eq(c.workload.n_exclude_status, 0);
    rc = load_text(config_load_ini, &c, "[workload]\nexclude_status = 1, 0 ,5\n", path,
                   err);
    ck_assert_msg(rc == 0, "%s", err);
    ck_assert_int_eq(c.workload.n_exclude_status, 3);
    ck_assert_int_eq(c.workload.exclude_status[0], 1);
    ck_assert_int_eq(c.workload.exclude_status[1], 0);
    ck_assert_int_eq(c.workload.exclude_status[2], 5);
}
END_TEST

/* A failed load leaves the configuration as it was. */
START_TEST(test_ini_error_leaves_config)
{
    config c, before;
    char path[64], err[CFG_ERR_MAX];
    config_defaults(&c);
    before = c;
    int rc = load_text(config_load_ini, &c,
                       "[computer]\nram = 99\nnumber = 8\n[network]\nbandwidth = fast\n",
                       path, err);
    ck_assert_int_eq(rc, -1);
    ck_assert(config_equal(&c, &before));
}
END_TEST


static const err_case ini_errors[] = {
    /* unknown section, also with no key in it */
    {"[foo]\nx = 1\n", 1, "unknown section [foo]; known sections: simulation, workload, "
                          "process, scheduler, computer, netram, network"},
    {"[simulation]\nseed = 2\n[bogus]\n", 3, "unknown section [bogus]"},
    /* unknown key */
    {"[computer]\nramm = 3\n", 2, "unknown key \"ramm\" in [computer] (did you mean ram?); known keys: "
                                  "name, number, cores_per_node, cpu, fault_cpu, ram, rpm, seek, transfer"},
    {"[netram]\nram = 3\n", 2, "unknown key \"ram\" in [netram]"},
    /* malformed numbers */
    {"[computer]\nnumber = 2.5\n", 2, "[computer] number = \"2.5\": malformed number: "
                                      "expected an integer"},
    {"[computer]\nnumber = 1e3\n", 2, "malformed number"},
    {"[computer]\nram = 12abc\n", 2, "[computer] ram = \"12abc\": malformed number"},
    {"[computer]\nram =\n", 2, "[computer] ram = \"\": malformed number"},
    {"[computer]\nram = nan\n", 2, "malformed number"},
    {"[computer]\nram = inf\n", 2, "malformed number"},
    {"[computer]\nram = 0x10\n", 2, "group 1: count 0"}, /* not hex: 0 PEs */
    {"[computer]\nram = 32;MB\n", 2, "malformed number"},
    {"[simulation]\nseed = 1.0\n", 2, "malformed number"},
    {"[workload]\nexclude_status = 1,,2\n", 2, "malformed number"},
    {"[workload]\nexclude_status = 1,x\n", 2, "malformed number"},
    {"[workload]\nexclude_status = 1,\n", 2, "malformed number"},
    /* out of range */
    {"[computer]\nnumber = 0\n", 2, "[computer] number = \"0\": out of range: expected "
                                    "an integer between 1 and 100000"},
    {"[computer]\nnumber = 99999999999\n", 2, "out of range"},
    {"[computer]\nram = 0\n", 2, "[computer] ram = \"0\": out of range: expected a "
                                 "number >= 0.01 and <= 1e+08"},
    {"[computer]\nram = -1\n", 2, "out of range"},
    {"[computer]\nram = 1e999\n", 2, "out of range"},
    {"[computer]\nseek = -0.001\n", 2, "out of range: expected a number >= 0"},
    {"[process]\ncomm_rate = -0.5\n", 2, "out of range"},
    {"[process]\nmem_access_rate = 0\n", 2, "out of range"},
    {"[scheduler]\nquantum = 0\n", 2, "out of range"},
    {"[scheduler]\nmpl = -1\n", 2, "out of range"},
    {"[simulation]\nmetrics_period = 0\n", 2, "out of range"},
    {"[simulation]\nseed = -1\n", 2, "out of range"},
    {"[simulation]\nseed = 18446744073709551616\n", 2, "out of range"},
    {"[workload]\nload_scale = 0\n", 2, "out of range"},
    {"[workload]\nmemory_scale = -1\n", 2, "out of range"},
    {"[workload]\nmax_jobs = -1\n", 2, "out of range"},
    {"[workload]\nexclude_status = 7\n", 2, "out of range"},
    {"[workload]\nexclude_status = 0,1,2,3,4,5,0,1,2,3,4,5,0,1,2,3,4\n", 2,
     "out of range: expected at most 16 comma-separated integers"},
    {"[netram]\nmanagers = 0\n", 2, "out of range"},
    {"[network]\nbandwidth = 0\n", 2, "out of range"},
    /* issue 12 item 9: nonsense that used to be accepted and made endless
     * runs or unbounded output; each names the key, the value and the range */
    {"[computer]\nrpm = 1e300\n", 2, "[computer] rpm = \"1e300\": out of range: expected "
                                     "a number >= 100 and <= 100000"},
    {"[computer]\nrpm = 1e-320\n", 2, "[computer] rpm = \"1e-320\": out of range"},
    {"[computer]\nseek = 1e-320\n", 2, "[computer] seek = \"1e-320\": subnormal"},
    {"[computer]\ntransfer = 1e-9\n", 2, "[computer] transfer = \"1e-9\": out of range: "
                                         "expected a number >= 0.01 and <= 100000"},
    {"[network]\nbandwidth = 1e-300\n", 2, "[network] bandwidth = \"1e-300\": out of range"},
    {"[network]\nlatency = 5\n", 2, "[network] latency = \"5\": out of range: expected "
                                    "a number >= 0 and <= 1"},
    {"[network]\ndelay = 1e-310\n", 2, "[network] delay = \"1e-310\": subnormal"},
    {"[network]\nneighbour_msg = 1e12\n", 2, "[network] neighbour_msg = \"1e12\": out of "
                                             "range: expected a number >= 0 and <= 1e+09"},
    {"[network]\ncontrol_msg = 1e300\n", 2, "[network] control_msg = \"1e300\": out of range"},
    {"[workload]\nload_scale = 1e-9\n", 2, "[workload] load_scale = \"1e-9\": out of range: "
                                          "expected a number >= 0.001 and <= 1000"},
    {"[workload]\nload_scale = 1e9\n", 2, "out of range"},
    {"[scheduler]\nquantum = 1e-9\n", 2, "[scheduler] quantum = \"1e-9\": out of range: "
                                         "expected a number >= 0.001 and <= 1e+06"},
    {"[process]\ncomm_rate = 1e-9\n", 2, "[process] comm_rate = \"1e-9\": out of range: "
                                         "expected 0 or a number >= 0.0001 and <= 1e+07"},
    {"[process]\nsync_rate = 1e-9\n", 2, "[process] sync_rate = \"1e-9\": out of range"},
    {"[process]\nmem_access_rate = 1e-300\n", 2, "out of range"},
    {"[process]\npage_size = 4095.5\n", 2, "malformed number"},
    {"[process]\npage_size = 100\n", 2, "[process] page_size = \"100\": out of range: "
                                        "expected an integer between 512 and 1073741824"},
    {"[process]\ninterval = poisson\n", 2, "expected one of FIXED, EXPONENTIAL"},
    {"[computer]\nrotation = quarter\n", 2, "expected one of HALF, FULL"},
    {"[simulation]\nmetrics_period = 0.0001\n", 2, "[simulation] metrics_period = "
                                                   "\"0.0001\": out of range"},
    {"[simulation]\nmax_time = 1e300\n", 2, "out of range"},
    {"[simulation]\nmax_event_rate = 10\n", 2, "[simulation] max_event_rate = \"10\": out "
                                               "of range: expected 0 or a number >= 1000"},
    {"[simulation]\nmax_samples = -1\n", 2, "out of range"},
    {"[computer]\nram = 1e300\n", 2, "out of range"},
    {"[workload]\ndefault_memory = 1e300\n", 2, "out of range"},
    {"[workload]\nmemory_scale = 1e300\n", 2, "out of range"},
    {"[simulation]\nbsld_tau = 1e300\n", 2, "out of range"},
    /* unknown enum value */
    {"[scheduler]\npriority = FIFO\n", 2, "[scheduler] priority = \"FIFO\": expected "
                                          "one of FCFS, BESTFIT, WORSTFIT"},
    {"[workload]\ncpu_demand = WALL\n", 2, "expected one of CPUTIME, RUNTIME, AUTO"},
    {"[network]\ntopology = RING\n", 2, "expected one of STAR, BUS, WHEEL, CONNECTED, TREE"},
    {"[scheduler]\ntype = EASY\n", 2, "expected one of GANG"},
    {"[netram]\nrelease = SOME\n", 2, "expected one of EXCESS, ALL"},
    {"[netram]\nserver_selection = FIRSTFIT\n", 2,
     "expected one of RANDOM_WORSTFIT, WORSTFIT, BESTFIT, RANDOM"},
    /* bad boolean */
    {"[output]\nschedule = maybe\n", 2, "[output] schedule = \"maybe\": expected "
                                        "one of no, yes, gz (true, on, 1 = yes; false, off, "
                                        "0 = no)"},
    /* issue 26: the window's times and the Paje trace's name */
    {"[output]\nschedule_from = 2 days\n", 2, "[output] schedule_from = \"2 days\": "
                                             "malformed time: expected seconds, or a number "
                                             "with a unit s, m, h or d"},
    {"[output]\nschedule_to = -1h\n", 2, "[output] schedule_to = \"-1h\": out of range: "
                                         "expected a time >= 0 and <= 1e+12 s"},
    {"[output]\npaje = out/x.paje\n", 2, "[output] paje = \"out/x.paje\": a file name "
                                         "with '/'"},
    {"[scheduler]\nmem_aware = maybe\n", 2, "[scheduler] mem_aware = \"maybe\": expected "
                                           "one of NO, LOCAL, GLOBAL, or a boolean (yes = LOCAL, "
                                           "no = NO)"},
    {"[netram]\nenabled = 2\n", 2, "expected a boolean"},
    /* strings */
    {"[simulation]\nsystem = 0123456789012345678901234567890123456789012345678901234567890123\n",
     2, "too long: at most 63 characters"},
    {"[computer]\nname =\n", 2, "empty: expected a non-empty name"},
    {"[computer]\nname = a;b\n", 2, "must not contain ';'"},
    /* issue 33: process.dirty_fractions, APP:F items */
    {"[process]\ndirty_fractions = 1:0.5, 1:0.25\n", 2, "[process] dirty_fractions = "
     "\"1:0.5, 1:0.25\": application 1 mapped twice: expected one fraction per application "
     "number"},
    {"[process]\ndirty_fractions = 1:1.5\n", 2, "[process] dirty_fractions = \"1:1.5\": item "
     "\"1:1.5\": fraction out of range: expected a number >= 0 and <= 1"},
    {"[process]\ndirty_fractions = 2:0.5, 3:-0.25\n", 2, "item \"3:-0.25\": fraction out of "
     "range"},
    {"[process]\ndirty_fractions = 1:1e-320\n", 2, "fraction subnormal"},
    {"[process]\ndirty_fractions = 1:half\n", 2, "item \"1:half\": malformed fraction: "
     "expected APP:F, F a number in [0, 1]"},
    {"[process]\ndirty_fractions = 1:0.5x\n", 2, "malformed fraction"},
    {"[process]\ndirty_fractions = x:0.5\n", 2, "item \"x:0.5\": expected APP:F, APP an "
     "application number (SWF field 14: a whole number 0..1e15), F a fraction in [0, 1]"},
    {"[process]\ndirty_fractions = -1:0.5\n", 2, "expected APP:F"},
    {"[process]\ndirty_fractions = 0.5\n", 2, "expected APP:F"},
    {"[process]\ndirty_fractions = 2:\n", 2, "item \"2:\": no fraction after ':'"},
    {"[process]\ndirty_fractions = 1:0.5,\n", 2, "a comma with no item after it: expected "
     "APP:F after each comma"},
    {"[process]\ndirty_fractions = 1:0.5,,2:1\n", 2, "expected APP:F"},
    /* structure */
    {"ram = 3\n", 1, "key \"ram\" before any [section] header"},
    {"[computer]\nram 32\n", 2, "malformed line: expected [SECTION], KEY = VALUE or a comment"},
    {"[computer\nram = 32\n", 1, "malformed section header: expected [SECTION]"},
    {"[computer] ram = 32\n", 1, "malformed section header: text after ']'"},
    {"[computer]\nram = 32\nnumber = 3\nRAM = 64\n", 4,
     "[computer] ram set twice (first on line 4)"}, /* +2 */
};

START_TEST(test_ini_errors)
{
    const err_case *ec = &ini_errors[_i];
    config c;
    char path[64], err[CFG_ERR_MAX], text[512], prefix[128];
    /* two lines of preamble, so line numbers are not trivially small */
    snprintf(text, sizeof text, "; test case\n\n%s", ec->text);
    config_defaults(&c);
    int rc = load_text(config_load_ini, &c, text, path, err);
    ck_assert_msg(rc == -1, "case %d accepted", _i);
    snprintf(prefix, sizeof prefix, "%s:%d: ", path, ec->line + 2);
    ck_assert_msg(!strncmp(err, prefix, strlen(prefix)), "case %d: \"%s\" does not start "
                  "with \"%s\"", _i, err, prefix);
    ck_assert_msg(strstr(err, ec->expect), "case %d: \"%s\" lacks \"%s\"", _i, err,
                  ec->expect);
    ck_assert_msg(!strchr(err, '\n'), "case %d: message on several lines", _i);
}
END_TEST

/* The exact messages of the brief's examples. */
START_TEST(test_ini_exact_messages)
{
    config c;
    char path[64], err[CFG_ERR_MAX], want[CFG_ERR_MAX];
    config_defaults(&c);
    load_text(config_load_ini, &c, "[scheduler]\n\n\n\n\n\n\n\n\n\n\npriority = FIFO\n",
              path, err);
    snprintf(want, sizeof want, "%s:12: [scheduler] priority = \"FIFO\": expected one "
             "of FCFS, BESTFIT, WORSTFIT, SJF, LJF, SAF, LAF, WFP3, UNICEP, F1, MULTIFACTOR", path);
    ck_assert_str_eq(err, want);
    load_text(config_load_ini, &c, "\n[computer]\nramm = 32\n", path, err);
    snprintf(want, sizeof want, "%s:3: unknown key \"ramm\" in [computer] (did you mean ram?); known keys: "
             "name, number, cores_per_node, cpu, fault_cpu, ram, rpm, seek, transfer, rotation, swap, "
             "ssd_latency, ssd_bandwidth, ssd_parallelism, ssd_write_latency, ssd_write_bandwidth, "
             "memory_servers, memory_server_ram, speed", path);
    ck_assert_str_eq(err, want);
}
END_TEST

/* Lines longer than inih's default buffer are neither cut nor miscounted;
 * lines longer than the reader's limit are refused, unless they are
 * comments (config.ini's "; command:" line may be longer than any limit:
 * issue 32 item 8), which are skipped and still counted. */
START_TEST(test_ini_long_lines)
{
    config c;
    char path[64], err[CFG_ERR_MAX];
    char *text = malloc(8192);
    char path300[301];
    memset(path300, 'x', 300);
    path300[300] = '\0';
    snprintf(text, 8192, "[workload]\ntrace = %s\nlenient = maybe\n", path300);
    config_defaults(&c);
    ck_assert_int_eq(load_text(config_load_ini, &c, text, path, err), -1);
    char prefix[128];
    snprintf(prefix, sizeof prefix, "%s:3: [workload] lenient", path);
    ck_assert_msg(!strncmp(err, prefix, strlen(prefix)), "%s", err);

    snprintf(text, 8192, "[workload]\ntrace = %s\n", path300);
    ck_assert_int_eq(load_text(config_load_ini, &c, text, path, err), 0);
    ck_assert_str_eq(c.workload.trace, path300);

    strcpy(text, "[workload]\n; ");
    memset(text + strlen(text), 'c', 5000);
    strcpy(text + strlen("[workload]\n; ") + 5000, "\nlenient = maybe\n");
    ck_assert_int_eq(load_text(config_load_ini, &c, text, path, err), -1);
    snprintf(prefix, sizeof prefix, "%s:3: [workload] lenient", path); /* counted */
    ck_assert_msg(!strncmp(err, prefix, strlen(prefix)), "%s", err);
    strcpy(text, "[workload]\n  # ");
    memset(text + strlen(text), 'c', 5000);
    strcpy(text + strlen("[workload]\n  # ") + 5000, "\nlenient = yes\n");
    ck_assert_msg(load_text(config_load_ini, &c, text, path, err) == 0, "%s", err);
    ck_assert(c.workload.lenient);

    strcpy(text, "[workload]\ntrace = ");
    memset(text + strlen(text), 'p', 5000);
    strcpy(text + strlen("[workload]\ntrace = ") + 5000, "\n");
    ck_assert_int_eq(load_text(config_load_ini, &c, text, path, err), -1);
    ck_assert_msg(strstr(err, ":2: line too long"), "%s", err);
    free(text);
}
END_TEST

START_TEST(test_missing_file)
{
    config c;
    char err[CFG_ERR_MAX];
    config_defaults(&c);
    ck_assert_int_eq(config_load_ini(&c, "/nonexistent/x.ini", err), -1);
    ck_assert_ptr_nonnull(strstr(err, "/nonexistent/x.ini: cannot open"));
    ck_assert_int_eq(config_load_pnrsim(&c, "/nonexistent/x.cfg", err), -1);
    ck_assert_int_eq(config_load(&c, "/nonexistent/x", err), -1);
    ck_assert_ptr_nonnull(strstr(err, "/nonexistent/x: cannot open"));
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("config");
    TCase *t = tcase_create("defaults");
    tcase_add_test(t, test_defaults);
    tcase_add_test(t, test_weird_is_valid_and_different);
    tcase_add_test(t, test_reference_ini_is_defaults);
    suite_add_tcase(s, t);

    t = tcase_create("appendix");
    tcase_add_test(t, test_appendix_cfg_values);
    tcase_add_test(t, test_appendix_cfg_equals_ini);
    suite_add_tcase(s, t);

    t = tcase_create("write");
    tcase_add_test(t, test_write_read_back);
    tcase_add_test(t, test_write_long_values);
    tcase_add_test(t, test_write_lists_every_key);
    suite_add_tcase(s, t);

    t = tcase_create("ini");
    tcase_add_test(t, test_ini_case_comments_indent);
    tcase_add_test(t, test_ini_restores_inih_settings);
    tcase_add_test(t, test_ini_empty_values);
    tcase_add_test(t, test_ini_error_leaves_config);
    tcase_add_loop_test(t, test_ini_errors, 0,
                        (int)(sizeof ini_errors / sizeof ini_errors[0]));
    tcase_add_test(t, test_ini_exact_messages);
    tcase_add_test(t, test_ini_long_lines);
    tcase_add_test(t, test_missing_file);
    tcase_add_test(t, test_dirty_by_application);
    suite_add_tcase(s, t);
    return s;
}

TEST_MAIN()
