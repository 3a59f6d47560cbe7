/* tests/test_config_set.c: the configuration module (app/config*.c)
 * continued: PNRSim files and their errors, format detection, --set and
 * its errors (one line naming the argument, the key, the value and what is
 * allowed), config_validate's cross-key rules, where each key was set
 * (config_origin) and config_ignored's keys without effect. Defaults, the appendix-A
 * file, writing and INI reading are in tests/test_config.c; helpers in
 * tests/fixture_config.h. Runs from the repository root.
 */
#include "tests/fixture_components.h"
#include "app/config.h"
#include "app/config_notes.h"
#include "tests/testutil.h"

#include <float.h>
#include <ini.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tests/fixture_config.h"

/* ---- PNRSim format ----------------------------------------------------- */

START_TEST(test_pnrsim_syntax)
{
    config c;
    char path[64], err[CFG_ERR_MAX];
    config_defaults(&c);
    int rc = load_text(config_load_pnrsim, &c,
                       "# header\n"
                       "RAM 64#no space before the comment\n"
                       "  number\t8 ; semicolon comment\n"
                       "NETRAM yes\n"
                       "pnrstrategy backbone\n"
                       "Managers 2\n"
                       "SynchRate 3\n"
                       "MemAware On\n"
                       "network Wheel\r\n",
                       path, err);
    ck_assert_msg(rc == 0, "%s", err);
    ck_assert_double_eq(c.computer.ram, 64);
    ck_assert_int_eq(c.computer.number, 8);
    ck_assert(c.netram.enabled);
    ck_assert_int_eq(c.netram.strategy, pnrsim_find(PNRSIM_KIND_STRATEGY, "BACKBONE")->index);
    ck_assert_int_eq(c.netram.managers, 2);
    ck_assert_double_eq(c.process.sync_rate, 3);
    ck_assert(c.scheduler.mem_aware);
    ck_assert_int_eq(c.network.topology, TOPO_KIND_WHEEL);
}
END_TEST

static const err_case pnrsim_errors[] = {
    {"Foo 1\n", 1, "unknown name \"Foo\"; known names: System, Maxtime, MetricsPeriod"},
    {"[computer]\n", 1, "unknown name \"[computer]\""},
    {"ram = 32\n", 1, "[computer] ram): expected one value, without whitespace"},
    {"Number 2.5\n", 1, "Number = \"2.5\" ([computer] number): malformed number: "
                        "expected an integer"},
    {"Seed\n", 1, "Seed = \"\" ([simulation] seed): missing value"},
    {"System two words\n", 1, "expected one value, without whitespace"},
    {"Seek -1\n", 1, "Seek = \"-1\" ([computer] seek): out of range"},
    {"Netram maybe\n", 1, "expected a boolean"},
    {"Network ring\n", 1, "Network = \"ring\" ([network] topology): expected one of "
                          "STAR, BUS, WHEEL, CONNECTED"},
    {"SynchRate 1\n\nsynchrates 2\n", 3, "synchrates ([process] sync_rate) set twice "
                                         "(first on line 3)"}, /* +2 */
};

START_TEST(test_pnrsim_errors)
{
    const err_case *ec = &pnrsim_errors[_i];
    config c, before;
    char path[64], err[CFG_ERR_MAX], text[512], prefix[128];
    snprintf(text, sizeof text, "; preamble\nRAM 48\n%s", ec->text);
    config_defaults(&c);
    before = c;
    int rc = load_text(config_load_pnrsim, &c, text, path, err);
    ck_assert_msg(rc == -1, "case %d accepted", _i);
    ck_assert(config_equal(&c, &before));
    snprintf(prefix, sizeof prefix, "%s:%d: ", path, ec->line + 2);
    ck_assert_msg(!strncmp(err, prefix, strlen(prefix)), "case %d: \"%s\" does not start "
                  "with \"%s\"", _i, err, prefix);
    ck_assert_msg(strstr(err, ec->expect), "case %d: \"%s\" lacks \"%s\"", _i, err,
                  ec->expect);
}
END_TEST

/* ---- format detection -------------------------------------------------- */

START_TEST(test_detect_format)
{
    config c, before;
    char path[64], err[CFG_ERR_MAX];
    config_defaults(&c);
    ck_assert_int_eq(load_text(config_load, &c, "; c\n\n# c\n  [computer]\nram=8\n", path,
                               err), 0);
    ck_assert_double_eq(c.computer.ram, 8);
    ck_assert_int_eq(load_text(config_load, &c, "# c\n; [computer]\n\nRAM 16\n", path, err),
                     0);
    ck_assert_double_eq(c.computer.ram, 16);
    ck_assert_int_eq(load_text(config_load, &c, "\xEF\xBB\xBF[computer]\nram=4\n", path,
                               err), 0);
    ck_assert_double_eq(c.computer.ram, 4);
    before = c;
    ck_assert_int_eq(load_text(config_load, &c, "", path, err), 0);
    ck_assert_int_eq(load_text(config_load, &c, "; only comments\n", path, err), 0);
    ck_assert(config_equal(&c, &before));
    /* a PNRSim-format error is reported as such */
    ck_assert_int_eq(load_text(config_load, &c, "RAM 8 9\n", path, err), -1);
    ck_assert_ptr_nonnull(strstr(err, "expected one value"));
    /* "key = value" before any [section] is an INI file without its header
     * (issue 37 item 6), refused at that line, not read as PNRSim's
     * "Name value" (where it failed as "RAM" with the value "= 8") */
    ck_assert_int_eq(load_text(config_load, &c, "; comment\n\nRAM = 8\n", path, err), -1);
    ck_assert_ptr_nonnull(strstr(err, ":3: key \"RAM\" before any [section] header"));
}
END_TEST

/* ---- --set ------------------------------------------------------------- */

START_TEST(test_set_ok)
{
    config c;
    char err[CFG_ERR_MAX];
    config_defaults(&c);
    ck_assert_int_eq(config_set(&c, "computer.ram=64", err), 0);
    ck_assert_double_eq(c.computer.ram, 64);
    ck_assert_int_eq(config_set(&c, " Computer . NUMBER = 16 ", err), 0);
    ck_assert_int_eq(c.computer.number, 16);
    ck_assert_int_eq(config_set(&c, "workload.trace=a=b.swf", err), 0);
    ck_assert_str_eq(c.workload.trace, "a=b.swf");
    ck_assert_int_eq(config_set(&c, "workload.trace=", err), 0);
    ck_assert_str_eq(c.workload.trace, "");
    ck_assert_int_eq(config_set(&c, "workload.exclude_status=0, 5", err), 0);
    ck_assert_int_eq(c.workload.n_exclude_status, 2);
    ck_assert_int_eq(config_set(&c, "simulation.seed=18446744073709551615", err), 0);
    ck_assert_uint_eq(c.simulation.seed, UINT64_MAX);
    ck_assert_int_eq(config_set(&c, "simulation.seed=0", err), 0);
    ck_assert_uint_eq(c.simulation.seed, 0);
    ck_assert_int_eq(config_set(&c, "network.latency=+1.5E-3", err), 0);
    ck_assert_double_eq(c.network.latency, 1.5e-3);
    ck_assert_int_eq(config_set(&c, "network.latency=.5", err), 0);
    ck_assert_double_eq(c.network.latency, 0.5);
}
END_TEST

START_TEST(test_set_booleans)
{
    static const char *const yes[] = {"yes", "YES", "true", "True", "1", "on", "ON"};
    static const char *const no[] = {"no", "No", "false", "FALSE", "0", "off", "Off"};
    config c;
    char err[CFG_ERR_MAX], arg[64];
    config_defaults(&c);
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
        c.workload.lenient = false;
        snprintf(arg, sizeof arg, "workload.lenient=%s", yes[i]);
        ck_assert_msg(config_set(&c, arg, err) == 0, "%s", err);
        ck_assert(c.workload.lenient);
        snprintf(arg, sizeof arg, "workload.lenient=%s", no[i]);
        ck_assert_msg(config_set(&c, arg, err) == 0, "%s", err);
        ck_assert(!c.workload.lenient);
    }
}
END_TEST

START_TEST(test_set_errors)
{
    config c, before;
    char err[CFG_ERR_MAX];
    config_defaults(&c);
    before = c;
    ck_assert_int_eq(config_set(&c, "ram=32", err), -1);
    ck_assert_str_eq(err, "--set ram=32: expected SECTION.KEY=VALUE (did you mean "
                          "computer.ram=32?)");
    ck_assert_int_eq(config_set(&c, "computer.ram", err), -1);
    ck_assert_str_eq(err, "--set computer.ram: expected SECTION.KEY=VALUE");
    ck_assert_int_eq(config_set(&c, ".ram=3", err), -1);
    ck_assert_str_eq(err, "--set .ram=3: expected SECTION.KEY=VALUE");
    ck_assert_int_eq(config_set(&c, "computer.ram=-1", err), -1);
    ck_assert_str_eq(err, "--set computer.ram=-1: [computer] ram = \"-1\": out of range: "
                          "expected a number >= 0.01 and <= 1e+08 MB");
    ck_assert_int_eq(config_set(&c, "foo.bar=1", err), -1);
    ck_assert_ptr_nonnull(strstr(err, "--set foo.bar=1: unknown section [foo]"));
    ck_assert_int_eq(config_set(&c, "computer.ramm=1", err), -1);
    ck_assert_ptr_nonnull(strstr(err, "--set computer.ramm=1: unknown key \"ramm\" in "
                                      "[computer]"));
    ck_assert_int_eq(config_set(&c, "scheduler.priority=FIFO", err), -1);
    ck_assert_ptr_nonnull(strstr(err, "expected one of FCFS, BESTFIT, WORSTFIT"));
    ck_assert_int_eq(config_set(&c, "computer.number=2.5", err), -1);
    ck_assert_ptr_nonnull(strstr(err, "malformed number"));
    ck_assert_int_eq(config_set(&c, "netram.enabled=nope", err), -1);
    ck_assert_ptr_nonnull(strstr(err, "expected a boolean"));
    ck_assert(config_equal(&c, &before));
}
END_TEST

/* The issue-10 knobs of the scheduler and the process model: names, values
 * and the errors for bad ones. */
START_TEST(test_set_release_and_first_pcs)
{
    config c, before;
    char err[CFG_ERR_MAX];
    config_defaults(&c);
    ck_assert_int_eq(config_set(&c, "process.mem_release=job", err), 0);
    ck_assert_int_eq(c.process.mem_release, MEM_RELEASE_JOB);
    ck_assert_int_eq(config_set(&c, "process.mem_release=Thread", err), 0);
    ck_assert_int_eq(c.process.mem_release, MEM_RELEASE_THREAD);
    ck_assert_int_eq(config_set(&c, "scheduler.pcs_first_start=yes", err), 0);
    ck_assert(c.scheduler.pcs_first_start);
    before = c;
    ck_assert_int_eq(config_set(&c, "process.mem_release=never", err), -1);
    ck_assert_ptr_nonnull(strstr(err, "[process] mem_release = \"never\""));
    ck_assert_ptr_nonnull(strstr(err, "expected one of THREAD, JOB"));
    ck_assert_int_eq(config_set(&c, "scheduler.pcs_first_start=2", err), -1);
    ck_assert_ptr_nonnull(strstr(err, "pcs_first_start"));
    ck_assert_ptr_nonnull(strstr(err, "expected a boolean"));
    ck_assert(config_equal(&c, &before));
    ck_assert_str_eq(config_mem_release_name(MEM_RELEASE_JOB), "JOB");
}
END_TEST

/* ---- validation -------------------------------------------------------- */

START_TEST(test_validate_cross_keys)
{
    config c;
    char err[CFG_ERR_MAX];
    config_defaults(&c);
    c.computer.number = 64;
    c.netram.managers = 65;
    ck_assert_int_eq(config_validate(&c, err), 0); /* CENTRAL: managers unused */
    c.netram.strategy = pnrsim_find(PNRSIM_KIND_STRATEGY, "BACKBONE")->index;
    ck_assert_int_eq(config_validate(&c, err), -1);
    ck_assert_ptr_nonnull(strstr(err, "[netram] managers = 65 exceeds [computer] number = 64"));
    c.netram.managers = 64;
    ck_assert_int_eq(config_validate(&c, err), 0);

    config_defaults(&c);
    c.workload.submit_min = 10;
    c.workload.submit_max = 0;
    ck_assert_int_eq(config_validate(&c, err), 0);
    c.workload.submit_max = 5;
    ck_assert_int_eq(config_validate(&c, err), -1);
    ck_assert_ptr_nonnull(strstr(err, "submit_max"));

    config_defaults(&c);
    c.scheduler.pcs = c.scheduler.quantum;
    ck_assert_int_eq(config_validate(&c, err), -1);
    ck_assert_ptr_nonnull(strstr(err, "[scheduler] pcs"));

    config_defaults(&c);
    c.netram.server_threshold = 32;
    ck_assert_int_eq(config_validate(&c, err), 0); /* network RAM off */
    c.netram.enabled = true;
    ck_assert_int_eq(config_validate(&c, err), -1);
    ck_assert_ptr_nonnull(strstr(err, "server_threshold"));

    /* Rack locality needs racks. */
    config_defaults(&c);
    ck_assert_int_eq(config_set(&c, "netram.locality=rack", err), 0);
    ck_assert_int_eq(config_validate(&c, err), -1);
    ck_assert_ptr_nonnull(strstr(err, "[netram] locality = RACK needs racks"));
    ck_assert_int_eq(config_set(&c, "network.topology=tree", err), 0);
    ck_assert_int_eq(config_validate(&c, err), 0);
}
END_TEST

/* Keys set away from their default that have no effect are listed (and
 * only those): TREE-only keys without TREE, memory servers without network
 * RAM, memory_server_ram without memory servers. */
START_TEST(test_ignored_keys)
{
    config c;
    char err[CFG_ERR_MAX];
    cfg_note notes[8];
    config_defaults(&c);
    ck_assert_uint_eq(config_ignored(&c, notes, 8), 0);
    /* Defaults of the TREE-only keys say nothing, even on a STAR. */
    ck_assert_int_eq(config_set(&c, "network.rack_size=32", err), 0);
    ck_assert_uint_eq(config_ignored(&c, notes, 8), 0);
    const char *tree[] = {"network.rack_size=8", "network.memory_server_placement=racks",
                          "network.uplink_bandwidth=2", "network.uplink_latency=0.5"};
    for (size_t i = 0; i < 4; i++)
        ck_assert_int_eq(config_set(&c, tree[i], err), 0);
    ck_assert_uint_eq(config_ignored(&c, notes, 8), 4);
    ck_assert_str_eq(notes[0].key, "network.rack_size");
    ck_assert_str_eq(notes[0].what, "[network] rack_size = 8 has no effect: only a TREE "
                     "topology has racks and uplinks ([network] topology = STAR)");
    ck_assert_str_eq(notes[1].key, "network.memory_server_placement");
    ck_assert_str_eq(notes[2].key, "network.uplink_bandwidth");
    ck_assert_str_eq(notes[3].key, "network.uplink_latency");
    /* At most max are written; the count is all of them. */
    ck_assert_uint_eq(config_ignored(&c, notes, 1), 4);
    ck_assert_int_eq(config_set(&c, "network.topology=wheel", err), 0);
    ck_assert_uint_eq(config_ignored(&c, notes, 8), 4);
    ck_assert_ptr_nonnull(strstr(notes[3].what, "topology = WHEEL"));
    ck_assert_int_eq(config_set(&c, "network.topology=tree", err), 0);
    ck_assert_uint_eq(config_ignored(&c, notes, 8), 0);

    config_defaults(&c);
    ck_assert_int_eq(config_set(&c, "computer.memory_servers=3", err), 0);
    ck_assert_uint_eq(config_ignored(&c, notes, 8), 1);
    ck_assert_str_eq(notes[0].key, "computer.memory_servers");
    ck_assert_ptr_nonnull(strstr(notes[0].what, "memory_servers = 3 has no effect: "
                                 "network RAM is off"));
    ck_assert_int_eq(config_set(&c, "netram.enabled=yes", err), 0);
    ck_assert_uint_eq(config_ignored(&c, notes, 8), 0);
    ck_assert_int_eq(config_set(&c, "computer.memory_server_ram=512", err), 0);
    ck_assert_uint_eq(config_ignored(&c, notes, 8), 0);
    ck_assert_int_eq(config_set(&c, "computer.memory_servers=0", err), 0);
    ck_assert_uint_eq(config_ignored(&c, notes, 8), 1);
    ck_assert_str_eq(notes[0].what, "[computer] memory_server_ram = 512 has no effect: "
                     "there are no memory servers ([computer] memory_servers = 0)");
    /* Batched paging under schedule output runs exactly: said, not silent. */
    ck_assert_int_eq(config_set(&c, "computer.memory_server_ram=1024", err), 0);
    ck_assert_int_eq(config_set(&c, "process.paging=batched", err), 0);
    ck_assert_uint_eq(config_ignored(&c, notes, 8), 0);
    ck_assert_int_eq(config_set(&c, "output.schedule=yes", err), 0);
    ck_assert_uint_eq(config_ignored(&c, notes, 8), 1);
    ck_assert_ptr_nonnull(strstr(notes[0].what, "[process] paging = BATCHED has no effect: "
                                 "schedule output is on"));
    ck_assert_int_eq(config_set(&c, "process.paging=exact", err), 0);
    ck_assert_uint_eq(config_ignored(&c, notes, 8), 0);
    /* So does batched paging with network RAM on a bus. */
    ck_assert_int_eq(config_set(&c, "output.schedule=no", err), 0);
    /* issue 26: schedule = no|yes|gz (booleans as before), paje = no|yes|NAME,
     * times with units: 2d = 172800 s, 90m = 5400 s, 1.5h = 5400 s. */
    ck_assert_int_eq(config_set(&c, "output.schedule=true", err), 0);
    ck_assert_int_eq(c.output.schedule, SCHEDULE_YES);
    ck_assert_int_eq(config_set(&c, "output.schedule=GZ", err), 0);
    ck_assert_int_eq(c.output.schedule, SCHEDULE_GZ);
    ck_assert_int_eq(config_set(&c, "output.schedule=off", err), 0);
    ck_assert_int_eq(c.output.schedule, SCHEDULE_NO);
    ck_assert_ptr_null(config_paje_name(&c));
    ck_assert_int_eq(config_set(&c, "output.paje=yes", err), 0);
    ck_assert_str_eq(config_paje_name(&c), "schedule.paje");
    ck_assert_int_eq(config_set(&c, "output.paje=run 1.paje.gz", err), 0);
    ck_assert_str_eq(config_paje_name(&c), "run 1.paje.gz");
    ck_assert_int_eq(config_set(&c, "output.paje=no", err), 0);
    ck_assert_int_eq(config_set(&c, "output.schedule_from=2d", err), 0);
    ck_assert_double_eq(c.output.schedule_from, 172800);
    ck_assert_int_eq(config_set(&c, "output.schedule_from=90m", err), 0);
    ck_assert_double_eq(c.output.schedule_from, 5400);
    ck_assert_int_eq(config_set(&c, "output.schedule_to=1.5h", err), 0);
    ck_assert_double_eq(c.output.schedule_to, 5400);
    ck_assert_int_eq(config_validate(&c, err), -1); /* from = to */
    ck_assert_msg(strstr(err, "[output] schedule_from = 5400 s is not before schedule_to = "
                              "5400 s"), "%s", err);
    ck_assert_int_eq(config_set(&c, "output.schedule_to=384300s", err), 0);
    ck_assert_double_eq(c.output.schedule_to, 384300);
    ck_assert_int_eq(config_validate(&c, err), 0);
    ck_assert_int_eq(config_set(&c, "output.schedule_from=0", err), 0);
    ck_assert_int_eq(config_set(&c, "output.schedule_to=0", err), 0);
    ck_assert_int_eq(config_set(&c, "process.paging=batched", err), 0);
    ck_assert_int_eq(config_set(&c, "network.topology=bus", err), 0);
    ck_assert_int_eq(config_set(&c, "netram.enabled=yes", err), 0);
    ck_assert_uint_eq(config_ignored(&c, notes, 8), 1);
    ck_assert_ptr_nonnull(strstr(notes[0].what, "[process] paging = BATCHED has no effect: "
                                 "with network RAM on a BUS network"));
    ck_assert_int_eq(config_set(&c, "netram.enabled=no", err), 0);
    ck_assert_uint_eq(config_ignored(&c, notes, 8), 0);
    ck_assert_int_eq(config_set(&c, "network.topology=star", err), 0);
    ck_assert_int_eq(config_set(&c, "netram.enabled=yes", err), 0);
    ck_assert_uint_eq(config_ignored(&c, notes, 8), 0);
}
END_TEST

/* computer.ram: one value for every PE, or COUNTxMB groups in PE order
 * whose counts add up to computer.number; memory servers after them. */
START_TEST(test_ram_groups)
{
    config c, back;
    char err[CFG_ERR_MAX];
    config_defaults(&c);
    ck_assert_int_eq(c.computer.n_ram_groups, 0);
    ck_assert_int_eq(config_set(&c, "computer.number=7", err), 0);
    ck_assert_msg(config_set(&c, "computer.ram= 3x64 ,2X512.5,2x100", err) == 0, "%s", err);
    ck_assert_int_eq(c.computer.n_ram_groups, 3);
    ck_assert_int_eq(config_validate(&c, err), 0);
    static const double want[] = {64, 64, 64, 512.5, 512.5, 100, 100};
    for (int i = 0; i < 7; i++)
        ck_assert_double_eq(config_pe_ram(&c, i), want[i]);
    ck_assert_double_eq(config_ram_min(&c), 64);
    /* Memory servers come after the compute PEs with their own RAM. */
    ck_assert_int_eq(config_set(&c, "computer.memory_servers=2", err), 0);
    ck_assert_int_eq(config_set(&c, "computer.memory_server_ram=4096", err), 0);
    ck_assert_double_eq(config_pe_ram(&c, 7), 4096);
    ck_assert_double_eq(config_pe_ram(&c, 8), 4096);
    /* Written as groups, read back equal. */
    config_defaults(&back);
    round_trip(&c, &back);
    ck_assert(config_equal(&c, &back));
    ck_assert_int_eq(back.computer.n_ram_groups, 3);
    ck_assert_double_eq(config_pe_ram(&back, 4), 512.5);
    /* A single value is today's machine: no groups. */
    ck_assert_int_eq(config_set(&c, "computer.ram=48", err), 0);
    ck_assert_int_eq(c.computer.n_ram_groups, 0);
    ck_assert_double_eq(config_pe_ram(&c, 6), 48);
    ck_assert(!config_equal(&c, &back));
    /* Counts that do not add up to number: a validation error. */
    ck_assert_int_eq(config_set(&c, "computer.ram=3x64, 3x128", err), 0);
    ck_assert_int_eq(config_validate(&c, err), -1);
    ck_assert_ptr_nonnull(strstr(err, "add up to 6 PEs, but [computer] number = 7"));
    /* Junk: each names the key, the value and what is expected. */
    static const char *const bad[][2] = {
        {"computer.ram=3x64, 0x128", "group 2: count 0"},
        {"computer.ram=3x64, -1x128", "group 2: count -1"},
        {"computer.ram=99999999999x1", "group 1: count 99999999999 exceeds the most PEs"},
        {"computer.ram=3x0, 4x128", "group 1: 0 MB out of range"},
        {"computer.ram=3x64,", "malformed group 2"},
        {"computer.ram=3x64, 4", "malformed group 2"},
        {"computer.ram=3y64", "malformed number"},
        {"computer.ram=x64", "malformed group 1"},
        {"computer.ram=3x", "malformed group 1"},
        {"computer.ram=2.5x64", "malformed group 1"},
        {"computer.ram=0", "out of range"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        config_defaults(&c);
        ck_assert_int_eq(config_set(&c, bad[i][0], err), -1);
        ck_assert_msg(strstr(err, bad[i][1]) && strstr(err, "[computer] ram"),
                      "%s: %s", bad[i][0], err);
        ck_assert_int_eq(c.computer.n_ram_groups, 0); /* left unchanged */
    }
    /* The threshold must be below the smallest RAM of any PE. */
    config_defaults(&c);
    ck_assert_int_eq(config_set(&c, "computer.number=2", err), 0);
    ck_assert_int_eq(config_set(&c, "computer.ram=1x8, 1x64", err), 0);
    ck_assert_int_eq(config_set(&c, "netram.enabled=yes", err), 0);
    ck_assert_int_eq(config_set(&c, "netram.server_threshold=10", err), 0);
    ck_assert_int_eq(config_validate(&c, err), -1);
    ck_assert_ptr_nonnull(strstr(err, "server_threshold"));
    ck_assert_msg(strstr(err, "not below [computer] ram = 8 MB"), "%s", err);
    /* A memory server smaller than every compute PE: the error names the
     * key that set its RAM, not [computer] ram. */
    ck_assert_int_eq(config_set(&c, "computer.ram=1024", err), 0);
    ck_assert_int_eq(config_set(&c, "computer.memory_servers=1", err), 0);
    ck_assert_int_eq(config_set(&c, "computer.memory_server_ram=10", err), 0);
    ck_assert_int_eq(config_set(&c, "netram.server_threshold=100", err), 0);
    ck_assert_int_eq(config_validate(&c, err), -1);
    ck_assert_msg(strstr(err, "not below [computer] memory_server_ram = 10 MB"), "%s", err);
}
END_TEST

/* Where each key was set: FILE:LINE for INI and PNRSim files, --set ARG,
 * -t, -s and --schedule through config_build, "" for defaults; a later
 * setting replaces an earlier one; a refused value leaves it. Cross-key
 * errors and notes on keys without effect name both origins. */
START_TEST(test_origins)
{
    config c;
    cfg_error e;
    char path[64], msg[CFG_ERR_MAX], want[256];
    write_tmp(path, "; a comment\n[computer]\nnumber = 6\nram = 2x64, 2x128\n"
                    "[network]\nrack_size = 8\n");
    const char *sets[] = {"network.rack_size=4", "netram.locality=none"};
    const char *files[] = {path};
    config_args a = {files, 1, "-", "7", sets, 2, "yes", NULL};
    ck_assert_int_eq(config_build(&c, &a, &e), -1); /* 4 PEs in groups, number 6 */
    ck_assert_int_eq(e.source, CFG_SRC_VALIDATE);
    config_error_message(&e, msg, sizeof msg);
    snprintf(want, sizeof want, "(computer.ram from %s:4; computer.number from %s:3)", path,
             path);
    ck_assert_msg(strstr(msg, want), "%s", msg);
    ck_assert_msg(strstr(e.why, want), "%s", e.why);

    const char *sets2[] = {"network.rack_size=4", "computer.number=4", "netram.locality=none"};
    a.sets = sets2;
    a.nsets = 3;
    ck_assert_int_eq(config_build(&c, &a, &e), 0);
    snprintf(want, sizeof want, "%s:4", path);
    ck_assert_str_eq(config_origin(&c, "computer.ram"), want);
    ck_assert_str_eq(config_origin(&c, "computer.number"), "--set computer.number=4");
    ck_assert_str_eq(config_origin(&c, "network.rack_size"), "--set network.rack_size=4");
    ck_assert_str_eq(config_origin(&c, "workload.trace"), "-t -");
    ck_assert_str_eq(config_origin(&c, "simulation.seed"), "-s 7");
    ck_assert_str_eq(config_origin(&c, "output.schedule"), "--schedule");
    ck_assert_str_eq(config_origin(&c, "computer.disk"), "");   /* no such key */
    ck_assert_str_eq(config_origin(&c, "computer.rpm"), "");    /* default */
    ck_assert_str_eq(config_origin(&c, "nodot"), "");
    /* The note on rack_size (STAR) carries where it was set. */
    cfg_note notes[8];
    ck_assert_uint_eq(config_ignored(&c, notes, 8), 1);
    ck_assert_str_eq(notes[0].origin, "--set network.rack_size=4");

    /* Rack locality without TREE: both keys' origins, one a default. */
    const char *sets3[] = {"computer.number=4", "netram.locality=rack"};
    a.sets = sets3;
    a.nsets = 2;
    ck_assert_int_eq(config_build(&c, &a, &e), -1);
    config_error_message(&e, msg, sizeof msg);
    ck_assert_msg(strstr(msg, "[netram] locality = RACK needs racks: set [network] topology = "
                              "TREE (it is STAR) (netram.locality from --set "
                              "netram.locality=rack; network.topology by default)"),
                  "%s", msg);
    unlink(path);

    /* A refused value keeps the earlier origin; a PNRSim file gives its
     * line; a long path keeps its end and the line number. */
    config_defaults(&c);
    char err[CFG_ERR_MAX];
    ck_assert_int_eq(config_set(&c, "computer.number=9", err), 0);
    ck_assert_int_eq(config_set(&c, "computer.number=x", err), -1);
    ck_assert_str_eq(config_origin(&c, "computer.number"), "--set computer.number=9");
    write_tmp(path, "# PNRSim\nNumber 12\n");
    ck_assert_int_eq(config_load_pnrsim(&c, path, err), 0);
    snprintf(want, sizeof want, "%s:2", path);
    ck_assert_str_eq(config_origin(&c, "computer.number"), want);
    unlink(path);
    char dir[200], file[300];
    snprintf(dir, sizeof dir, "/tmp/pnrsim-test-origin-%ld-"
             "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
             (long)getpid());
    ck_assert_int_eq(mkdir(dir, 0700), 0);
    snprintf(file, sizeof file, "%s/long-name.ini", dir);
    FILE *f = fopen(file, "w");
    ck_assert_ptr_nonnull(f);
    fputs("[computer]\n\nnumber = 3\n", f);
    fclose(f);
    ck_assert_int_eq(config_load_ini(&c, file, err), 0);
    const char *o = config_origin(&c, "computer.number");
    ck_assert_uint_eq(strlen(o), CFG_ORIGIN_MAX - 1);
    ck_assert_msg(!strncmp(o, "...", 3), "%s", o);
    ck_assert_msg(strstr(o, "aaa/long-name.ini:3") && o[strlen(o) - 1] == '3', "%s", o);
    unlink(file);
    rmdir(dir);
}
END_TEST

/* config_build: pnrsim's order of precedence (file < -t < -s < --set in
 * order), and a refused input named in parts (which input, key, value,
 * why), with the message pnrsim prints made from them. */
START_TEST(test_build_precedence_and_errors)
{
    config c;
    cfg_error e;
    char path[64], msg[CFG_ERR_MAX];
    write_tmp(path, "[computer]\nnumber = 16\n[simulation]\nseed = 5\n"
                    "[network]\ntopology = BUS\n");
    const char *sets[] = {"computer.number=8", "network.topology=wheel",
                          "computer.number=32"};
    const char *files[] = {path};
    config_args a = {files, 1, "-", "7", sets, 3, "yes", NULL};
    ck_assert_int_eq(config_build(&c, &a, &e), 0);
    ck_assert_int_eq(c.computer.number, 32);            /* the last --set wins */
    ck_assert_int_eq(c.network.topology, TOPO_KIND_WHEEL); /* --set over file */
    ck_assert_uint_eq(c.simulation.seed, 7);            /* -s over the file */
    ck_assert_str_eq(c.workload.trace, "-");
    ck_assert(c.output.schedule);
    config_args only_file = {files, 1, NULL, NULL, NULL, 0, NULL, NULL};
    ck_assert_int_eq(config_build(&c, &only_file, &e), 0);
    ck_assert_uint_eq(c.simulation.seed, 5);
    ck_assert_int_eq(c.network.topology, TOPO_KIND_BUS);

    /* The second --set is refused: its index, key, value and why. */
    const char *bad[] = {"computer.number=8", "network.topology=ring"};
    config_args b = {files, 1, NULL, NULL, bad, 2, NULL, NULL};
    ck_assert_int_eq(config_build(&c, &b, &e), -1);
    ck_assert_int_eq(e.source, CFG_SRC_SET);
    ck_assert_uint_eq(e.index, 1);
    ck_assert_str_eq(e.key, "network.topology");
    ck_assert_str_eq(e.value, "ring");
    ck_assert_str_eq(e.why, "expected one of STAR, BUS, WHEEL, CONNECTED, TREE");
    config_error_message(&e, msg, sizeof msg);
    ck_assert_str_eq(msg, "--set network.topology=ring: [network] topology = \"ring\": "
                          "expected one of STAR, BUS, WHEEL, CONNECTED, TREE");

    /* -s and -t are told apart from --set. */
    config_args s_bad = {NULL, 0, NULL, "x1", NULL, 0, NULL, NULL};
    ck_assert_int_eq(config_build(&c, &s_bad, &e), -1);
    ck_assert_int_eq(e.source, CFG_SRC_SEED);
    ck_assert_str_eq(e.key, "simulation.seed");
    ck_assert_str_eq(e.what, "[simulation] seed = \"x1\": malformed number: expected an integer");

    /* Valid key by key, invalid as a whole: blamed on the first key of the rule. */
    const char *cross[] = {"netram.strategy=backbone", "netram.managers=20"};
    config_args x = {files, 1, NULL, NULL, cross, 2, NULL, NULL};
    ck_assert_int_eq(config_build(&c, &x, &e), -1);
    ck_assert_int_eq(e.source, CFG_SRC_VALIDATE);
    ck_assert_str_eq(e.key, "netram.managers");
    ck_assert_str_eq(e.value, "20");
    ck_assert_ptr_nonnull(strstr(e.why, "exceeds [computer] number = 16"));
    config_error_message(&e, msg, sizeof msg);
    ck_assert_ptr_nonnull(strstr(msg, "configuration: [netram] managers = 20 exceeds"));
    unlink(path);

    /* A bad file line: the file, its line, the key. */
    write_tmp(path, "[computer]\n\nnumber = 0\n");
    ck_assert_int_eq(config_build(&c, &only_file, &e), -1);
    ck_assert_int_eq(e.source, CFG_SRC_FILE);
    ck_assert_str_eq(e.file, path);
    ck_assert_int_eq(e.line, 3);
    ck_assert_str_eq(e.key, "computer.number");
    ck_assert_str_eq(e.value, "0");
    unlink(path);
    /* A missing file: the file as a whole (line 0), no key. */
    ck_assert_int_eq(config_build(&c, &only_file, &e), -1);
    ck_assert_int_eq(e.source, CFG_SRC_FILE);
    ck_assert_int_eq(e.line, 0);
    ck_assert_str_eq(e.key, "");
    config_error_message(&e, msg, sizeof msg);
    ck_assert_ptr_nonnull(strstr(msg, ": cannot open: "));
}
END_TEST

/* config_error_message never cuts the explanation for a long location
 * (issue 32 item 8: a -c path of 700 characters filled the message): the
 * location is cut in its middle to fit; with CFG_MESSAGE_MAX all of it is
 * kept. And config_assignment_key, which pnrsim uses to refuse a key given
 * twice by --set, names keys in the table's spelling. */
START_TEST(test_error_message_long_location)
{
    static cfg_error e;
    static char msg[CFG_MESSAGE_MAX];
    char small[CFG_ERR_MAX], key[80];
    memset(&e, 0, sizeof e);
    e.source = CFG_SRC_FILE;
    memset(e.file, 'a', 1000);
    e.file[0] = '/';
    memcpy(e.file + 995, "z.ini", 6);
    e.line = 3;
    snprintf(e.what, sizeof e.what, "[computer] ram = \"lots\": malformed");
    config_error_message(&e, small, sizeof small);
    size_t n = strlen(small), w = strlen(e.what);
    ck_assert_uint_lt(n, sizeof small);
    ck_assert_msg(n > w && !strcmp(small + n - w, e.what), "%s", small);
    ck_assert_msg(!strncmp(small, "/aaa", 4), "%s", small);   /* the head */
    ck_assert_ptr_nonnull(strstr(small, "aaa...aaa"));         /* cut in the middle */
    ck_assert_ptr_nonnull(strstr(small, "z.ini:3: [computer]")); /* the tail and line */
    config_error_message(&e, msg, sizeof msg);
    ck_assert_uint_eq(strlen(msg), 1000 + strlen(":3: ") + w); /* all of it */
    ck_assert_ptr_null(strstr(msg, "..."));

    e.source = CFG_SRC_SET;
    memset(e.arg, 'b', 3000);
    memcpy(e.arg, "workload.trace=", 15);
    e.arg[3000] = '\0';
    snprintf(e.what, sizeof e.what, "[workload] trace: too long");
    config_error_message(&e, small, sizeof small);
    n = strlen(small);
    w = strlen(e.what);
    ck_assert_msg(!strcmp(small + n - w, e.what), "%s", small);
    ck_assert_msg(!strncmp(small, "--set workload.trace=bbb", 24), "%s", small);

    ck_assert_int_eq(config_assignment_key("Scheduler.MPL=3", key, sizeof key), 0);
    ck_assert_str_eq(key, "scheduler.mpl");
    ck_assert_int_eq(config_assignment_key(" computer . number = 4", key, sizeof key), 0);
    ck_assert_str_eq(key, "computer.number");
    ck_assert_int_eq(config_assignment_key("computer.nmber=4", key, sizeof key), -1);
    ck_assert_int_eq(config_assignment_key("computer.number", key, sizeof key), -1);
    ck_assert_int_eq(config_assignment_key("number=4", key, sizeof key), -1);
}
END_TEST

/* A configuration filled in by code is checked key by key too. */
START_TEST(test_validate_stored_values)
{
    config c;
    char err[CFG_ERR_MAX];
    config_defaults(&c);
    c.computer.ram = -1;
    ck_assert_int_eq(config_validate(&c, err), -1);
    ck_assert_str_eq(err, "configuration: [computer] ram = \"-1\": out of range: "
                          "expected a number >= 0.01 and <= 1e+08 MB");
    config_defaults(&c);
    c.scheduler.priority = (cfg_priority)11; /* one past MULTIFACTOR */
    ck_assert_int_eq(config_validate(&c, err), -1);
    ck_assert_ptr_nonnull(strstr(err, "expected one of FCFS"));
    config_defaults(&c);
    c.simulation.max_time = NAN;
    ck_assert_int_eq(config_validate(&c, err), -1);
    ck_assert_ptr_nonnull(strstr(err, "[simulation] max_time"));
    config_defaults(&c);
    memset(c.computer.name, 'x', sizeof c.computer.name);
    ck_assert_int_eq(config_validate(&c, err), -1);
    ck_assert_ptr_nonnull(strstr(err, "too long"));
    config_defaults(&c);
    c.workload.n_exclude_status = CFG_MAX_STATUS + 1;
    ck_assert_int_eq(config_validate(&c, err), -1);
    ck_assert_ptr_nonnull(strstr(err, "exclude_status"));
}
END_TEST

START_TEST(test_enum_names)
{
    ck_assert_str_eq(config_priority_name(t_index(PNRSIM_KIND_PRIORITY, "BESTFIT")), "BESTFIT");
    ck_assert_str_eq(config_packing_name(t_index(PNRSIM_KIND_PACKING, "WORSTFIT")), "WORSTFIT");
    ck_assert_str_eq(config_strategy_name(pnrsim_find(PNRSIM_KIND_STRATEGY, "BACKBONE")->index),
                     "BACKBONE");
    ck_assert_str_eq(config_topology_name(TOPO_KIND_CONNECTED), "CONNECTED");
    ck_assert_str_eq(config_cpu_demand_name(CPU_DEMAND_AUTO), "AUTO");
    ck_assert_str_eq(config_sched_type_name(SCHED_GANG), "GANG");
    ck_assert_str_eq(config_topology_name((cfg_topology)9), "?");
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("config_set");
    TCase *t = tcase_create("defaults");
    tcase_add_test(t, test_enum_names);
    suite_add_tcase(s, t);

    t = tcase_create("pnrsim");
    tcase_add_test(t, test_pnrsim_syntax);
    tcase_add_loop_test(t, test_pnrsim_errors, 0,
                        (int)(sizeof pnrsim_errors / sizeof pnrsim_errors[0]));
    tcase_add_test(t, test_detect_format);
    suite_add_tcase(s, t);

    t = tcase_create("set+validate");
    tcase_add_test(t, test_set_ok);
    tcase_add_test(t, test_set_booleans);
    tcase_add_test(t, test_set_errors);
    tcase_add_test(t, test_set_release_and_first_pcs);
    tcase_add_test(t, test_validate_cross_keys);
    tcase_add_test(t, test_ignored_keys);
    tcase_add_test(t, test_origins);
    tcase_add_test(t, test_ram_groups);
    tcase_add_test(t, test_build_precedence_and_errors);
    tcase_add_test(t, test_validate_stored_values);
    tcase_add_test(t, test_error_message_long_location);
    suite_add_tcase(s, t);
    return s;
}

TEST_MAIN()
