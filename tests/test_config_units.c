/* tests/test_config_units.c: units and typos in the scenario reader (issue
 * 37 item 6), through app/config.h.
 *
 * What is checked, every expected value worked out by hand:
 *   - time keys (unit s: KT_TIME and KT_DOUBLE keys in s or "s CPU") take
 *     s, m, h, d, in files and --set alike: 60s = 60, 1.5h = 1.5 x 3600 =
 *     5400, 2d = 2 x 86400 = 172800, 10m = 600, "1.5 h" (a blank before the
 *     unit) = 5400;
 *   - memory keys (unit MB, "MB per thread", computer.ram) take MB, GB,
 *     TB, with 1 GB = 1024 MB (pnrsim's MB is 2^20 bytes, docs/MODEL.md):
 *     256GB = 256 x 1024 = 262144, 1TB = 1024 x 1024 = 1048576, 0.5GB =
 *     512, 64MB = 64; computer.ram groups 120x256GB,120x512 = 120 nodes of
 *     262144 MB and 120 of 512;
 *   - a key of another dimension takes no unit (a bandwidth in MB/s, an
 *     integer), a wrong unit is "malformed number" naming the key's units,
 *     and a value out of range in a unit is refused against the bounds in
 *     s (1.5h = 5400 s > scheduler.pcs's 3600 s);
 *   - the dimension of every key comes from its unit (cfg_key_dim): the
 *     lists below are written out by hand, so a key whose unit changes
 *     fails here;
 *   - the edit distance (hand-counted: ramm/ram 1, sede/seed 1 by
 *     transposition, kitten/sitting 3) and the suggestions: a close key
 *     of the section, the same key in another section, a close section,
 *     none for a name far from every known one; --set KEY=VALUE without
 *     its section names the sections that have KEY;
 *   - a file with "key = value" before any [section] is refused as INI at
 *     that line, not read as PNRSim's format; an inline "# comment" after
 *     a blank is a comment, a '#' inside a word is kept; a text value with
 *     " #" is refused (config.ini could not read it back).
 * Runs from the repository root.
 */
#include "tests/fixture_components.h"
#include "app/config.h"
#include "app/config_lookup.h"
#include "tests/testutil.h"

#include <stdio.h>
#include <string.h>
#include "tests/fixture_config.h"

/* Set one key with --set's parser and return the message (or ""). */
static int set1(config *c, const char *assign, char err[CFG_ERR_MAX])
{
    err[0] = '\0';
    return config_set(c, assign, err);
}

START_TEST(test_time_units)
{
    config c;
    char err[CFG_ERR_MAX], path[64];
    config_defaults(&c);
    ck_assert_int_eq(load_text(config_load, &c,
                               "[scheduler]\nquantum = 60s\npcs = 0.5m\n"
                               "[simulation]\nmax_time = 2d\nmetrics_period = 1.5h\n"
                               "[process]\ncomm_rate = 10m\n"
                               "[output]\nschedule_from = 1.5 h\n", path, err), 0);
    ck_assert_double_eq(c.scheduler.quantum, 60);             /* 60 x 1 */
    ck_assert_double_eq(c.scheduler.pcs, 30);                 /* 0.5 x 60 */
    ck_assert_double_eq(c.simulation.max_time, 172800);       /* 2 x 86400 */
    ck_assert_double_eq(c.simulation.metrics_period, 5400);   /* 1.5 x 3600 */
    ck_assert_double_eq(c.process.comm_rate, 600);            /* "s CPU": 10 x 60 */
    ck_assert_double_eq(c.output.schedule_from, 5400);        /* K_TIME, a blank */
    /* --set goes through the same parser */
    ck_assert_int_eq(set1(&c, "scheduler.quantum=2m", err), 0);
    ck_assert_double_eq(c.scheduler.quantum, 120);
    ck_assert_int_eq(set1(&c, "network.delay=0.00008s", err), 0);
    ck_assert_double_eq(c.network.delay, 0.00008);
    ck_assert_int_eq(set1(&c, "simulation.max_time=2D", err), 0); /* case-insensitive */
    ck_assert_double_eq(c.simulation.max_time, 172800);
    /* a wrong unit names the key's units */
    ck_assert_int_eq(set1(&c, "scheduler.quantum=60x", err), -1);
    ck_assert_str_eq(err, "--set scheduler.quantum=60x: [scheduler] quantum = \"60x\": "
                          "malformed number: expected a decimal number such as 12.5 or "
                          "2.4e-07 (s), or a time with a unit s, m, h or d (60s, 1.5h, 2d)");
    ck_assert_int_eq(set1(&c, "scheduler.quantum=60GB", err), -1);
    ck_assert_ptr_nonnull(strstr(err, "malformed number"));
    /* in range after the unit: 1.5h = 5400 s > 3600 s */
    ck_assert_int_eq(set1(&c, "scheduler.pcs=1.5h", err), -1);
    ck_assert_str_eq(err, "--set scheduler.pcs=1.5h: [scheduler] pcs = \"1.5h\": out of range: "
                          "expected a number >= 0 and <= 3600 s");
    /* in a file: exit 2's message with FILE:LINE */
    ck_assert_int_eq(load_text(config_load, &c, "[scheduler]\n\nquantum = 1w\n", path, err), -1);
    char want[CFG_ERR_MAX + 64];
    snprintf(want, sizeof want, "%s:3: [scheduler] quantum = \"1w\": malformed number", path);
    ck_assert_msg(!strncmp(err, want, strlen(want)), "%s", err);
}
END_TEST

START_TEST(test_memory_units)
{
    config c;
    char err[CFG_ERR_MAX], path[64];
    config_defaults(&c);
    ck_assert_int_eq(load_text(config_load, &c,
                               "[computer]\nram = 256GB\nmemory_server_ram = 1TB\n"
                               "[workload]\ndefault_memory = 0.5GB\n"
                               "[netram]\nserver_threshold = 64MB\n", path, err), 0);
    ck_assert_double_eq(c.computer.ram, 262144);              /* 256 x 1024 */
    ck_assert_double_eq(c.computer.memory_server_ram, 1048576); /* 1024 x 1024 */
    ck_assert_double_eq(c.workload.default_memory, 512);      /* 0.5 x 1024 */
    ck_assert_double_eq(c.netram.server_threshold, 64);
    ck_assert_int_eq(set1(&c, "computer.ram=120x256GB, 120x512", err), 0);
    ck_assert_int_eq(c.computer.n_ram_groups, 2);
    ck_assert_int_eq(c.computer.ram_groups[0].count, 120);
    ck_assert_double_eq(c.computer.ram_groups[0].mb, 262144);
    ck_assert_int_eq(c.computer.ram_groups[1].count, 120);
    ck_assert_double_eq(c.computer.ram_groups[1].mb, 512);
    ck_assert_int_eq(set1(&c, "computer.ram=2 gb", err), 0);  /* a blank, lower case */
    ck_assert_double_eq(c.computer.ram, 2048);
    /* wrong units */
    ck_assert_int_eq(set1(&c, "computer.ram=256GiB", err), -1);
    ck_assert_str_eq(err, "--set computer.ram=256GiB: [computer] ram = \"256GiB\": malformed "
                          "number: expected a decimal number such as 32 (MB), or a size with a "
                          "unit MB, GB or TB (256GB; 1 GB = 1024 MB), or groups COUNTxMB such "
                          "as 200x1024, 40x4096 (or 200x1GB, 40x4GB)");
    ck_assert_int_eq(set1(&c, "computer.ram=4x1PB", err), -1);
    ck_assert_str_eq(err, "--set computer.ram=4x1PB: [computer] ram = \"4x1PB\": malformed "
                          "group 1: expected COUNTxMB such as 200x1024 (MB), or with a unit "
                          "MB, GB or TB such as 200x1GB");
    ck_assert_int_eq(set1(&c, "workload.default_memory=3h", err), -1);
    ck_assert_ptr_nonnull(strstr(err, "malformed number: expected a decimal number such as "
                                      "12.5 or 2.4e-07 (MB), or a size with a unit MB, GB or TB"));
    /* 1e8 MB is the most: 1e5 TB = 1e5 x 1048576 MB is above it */
    ck_assert_int_eq(set1(&c, "computer.ram=100000TB", err), -1);
    ck_assert_ptr_nonnull(strstr(err, "out of range: expected a number >= 0.01 and <= 1e+08 MB"));
    /* other dimensions take no unit: MB/s is a bandwidth, not a size */
    ck_assert_int_eq(set1(&c, "network.bandwidth=12.5MB", err), -1);
    ck_assert_str_eq(err, "--set network.bandwidth=12.5MB: [network] bandwidth = \"12.5MB\": "
                          "malformed number: expected a decimal number such as 12.5 or 2.4e-07");
    ck_assert_int_eq(set1(&c, "computer.number=64s", err), -1);
    ck_assert_ptr_nonnull(strstr(err, "malformed number: expected an integer"));
}
END_TEST

/* The keys in s and in MB, written out by hand from configs/reference.ini
 * ([s; ...], [s CPU; ...], [MB; ...], [MB per thread; ...]). */
START_TEST(test_dimensions_from_units)
{
    static const char *const times[] = {
        "simulation.max_time", "simulation.metrics_period", "simulation.bsld_tau",
        "workload.submit_min", "workload.submit_max", "workload.busiest",
        "workload.memory_period", "process.mem_access_rate", "process.comm_rate",
        "process.sync_rate",
        "process.chunk_overhead", "scheduler.pcs", "scheduler.quantum", "scheduler.max_age",
        "scheduler.fairshare_half_life", "computer.fault_cpu", "computer.seek",
        "computer.ssd_latency", "computer.ssd_write_latency", "netram.access_latency",
        "netram.message_cpu", "netram.server_cpu", "netram.rdma_latency",
        "network.uplink_latency", "network.latency", "network.delay", "output.schedule_from",
        "output.schedule_to", "output.progress_interval"};
    static const char *const sizes[] = {"workload.default_memory", "computer.ram",
                                        "computer.memory_server_ram", "netram.server_threshold"};
    size_t nt = 0, nm = 0;
    for (size_t i = 0; i < cfg_nkeys; i++) {
        const key_def *kd = &cfg_keys[i];
        char name[160];
        snprintf(name, sizeof name, "%s.%s", kd->section, kd->key);
        bool t = false, m = false;
        for (size_t k = 0; k < sizeof times / sizeof times[0]; k++)
            t |= !strcmp(name, times[k]);
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
            m |= !strcmp(name, sizes[k]);
        key_dim d = cfg_key_dim(kd);
        ck_assert_msg(d == (t ? KEY_TIME : m ? KEY_MEMORY : KEY_PLAIN), "%s: dimension %d",
                      name, (int)d);
        nt += t;
        nm += m;
    }
    ck_assert_uint_eq(nt, sizeof times / sizeof times[0]); /* every listed key exists */
    ck_assert_uint_eq(nm, sizeof sizes / sizeof sizes[0]);
}
END_TEST

START_TEST(test_suggestions)
{
    ck_assert_uint_eq(cfg_edit_distance("ramm", "ram"), 1);
    ck_assert_uint_eq(cfg_edit_distance("sede", "seed"), 1);     /* one transposition */
    ck_assert_uint_eq(cfg_edit_distance("kitten", "sitting"), 3); /* k->s, e->i, +g */
    ck_assert_uint_eq(cfg_edit_distance("RAM", "ram"), 0);
    ck_assert_uint_eq(cfg_edit_distance("", "mpl"), 3);
    ck_assert(cfg_is_close(1, 4) && !cfg_is_close(2, 5) && cfg_is_close(2, 6) &&
              !cfg_is_close(3, 8) && cfg_is_close(3, 9) && !cfg_is_close(0, 3));
    config c;
    char err[CFG_ERR_MAX], path[64];
    config_defaults(&c);
    ck_assert_int_eq(set1(&c, "computer.rma=256", err), -1);
    ck_assert_ptr_nonnull(strstr(err, "--set computer.rma=256: unknown key \"rma\" in "
                                      "[computer] (did you mean ram?); known keys: name,"));
    ck_assert_int_eq(set1(&c, "scheduler.quantm=60", err), -1);
    ck_assert_ptr_nonnull(strstr(err, "(did you mean quantum?)"));
    ck_assert_int_eq(set1(&c, "computer.quantum=60", err), -1);
    ck_assert_ptr_nonnull(strstr(err, "(did you mean scheduler.quantum?)"));
    ck_assert_int_eq(set1(&c, "sheduler.mpl=2", err), -1);
    ck_assert_ptr_nonnull(strstr(err, "unknown section [sheduler] (did you mean [scheduler]?); "
                                      "known sections:"));
    ck_assert_int_eq(set1(&c, "computer.wibble=1", err), -1); /* far from every key */
    ck_assert_ptr_null(strstr(err, "did you mean"));
    ck_assert_int_eq(set1(&c, "flux.wibble=1", err), -1);
    ck_assert_ptr_null(strstr(err, "did you mean"));
    /* --set without a section: the sections that have the key */
    ck_assert_int_eq(set1(&c, "ram=256GB", err), -1);
    ck_assert_str_eq(err, "--set ram=256GB: expected SECTION.KEY=VALUE (did you mean "
                          "computer.ram=256GB?)");
    ck_assert_int_eq(set1(&c, "packing=BESTFIT", err), -1);
    ck_assert_str_eq(err, "--set packing=BESTFIT: expected SECTION.KEY=VALUE (did you mean "
                          "scheduler.packing=BESTFIT or netram.packing=BESTFIT?)");
    ck_assert_int_eq(set1(&c, "rma=1", err), -1);
    ck_assert_str_eq(err, "--set rma=1: expected SECTION.KEY=VALUE");
    /* in files: [computer] quantum names its section as a file writes it */
    ck_assert_int_eq(load_text(config_load, &c, "[computer]\nquantum = 60\n", path, err), -1);
    ck_assert_ptr_nonnull(strstr(err, ":2: unknown key \"quantum\" in [computer] (did you "
                                      "mean [scheduler] quantum?)"));
    ck_assert_int_eq(load_text(config_load, &c, "[simulation]\nsede = 2\n", path, err), -1);
    ck_assert_ptr_nonnull(strstr(err, ":2: unknown key \"sede\" in [simulation] (did you mean "
                                      "seed?)"));
    ck_assert_int_eq(load_text(config_load, &c, "[netwrk]\n", path, err), -1);
    ck_assert_ptr_nonnull(strstr(err, ":1: unknown section [netwrk] (did you mean [network]?)"));
    /* PNRSim's names too */
    ck_assert_int_eq(load_text(config_load, &c, "Bandwith 12.5\n", path, err), -1);
    ck_assert_ptr_nonnull(strstr(err, ":1: unknown name \"Bandwith\" (did you mean Bandwidth?); "
                                      "known names:"));
}
END_TEST

START_TEST(test_sectionless_and_comments)
{
    config c, before;
    char err[CFG_ERR_MAX], path[64], want[CFG_ERR_MAX + 64];
    config_defaults(&c);
    before = c;
    ck_assert_int_eq(load_text(config_load, &c, "# a scenario\n\nram = 256\n[computer]\n",
                               path, err), -1);
    snprintf(want, sizeof want, "%s:3: key \"ram\" before any [section] header: an INI "
             "scenario gives each key under its section", path);
    ck_assert_msg(!strncmp(err, want, strlen(want)), "%s", err);
    ck_assert(config_equal(&c, &before));
    ck_assert_int_eq(load_text(config_load, &c, "mpl=2\n", path, err), -1);
    ck_assert_ptr_nonnull(strstr(err, ":1: key \"mpl\" before any [section] header"));
    /* PNRSim's format is still read */
    ck_assert_int_eq(load_text(config_load, &c, "; PNRSim\nMPL 3\n", path, err), 0);
    ck_assert_int_eq(c.scheduler.mpl, 3);
    /* inline '#' comments after a blank, as ';' */
    ck_assert_int_eq(load_text(config_load, &c,
                               "[scheduler]\nquantum = 60s   # a minute\nmpl = 2\t# two\n"
                               "[simulation]\nsystem = run#3 # the third\n"
                               "[computer] # the PEs\nram = 256GB ; per node\n",
                               path, err), 0);
    ck_assert_double_eq(c.scheduler.quantum, 60);
    ck_assert_int_eq(c.scheduler.mpl, 2);
    ck_assert_str_eq(c.simulation.system, "run#3");
    ck_assert_double_eq(c.computer.ram, 262144);
    /* a text value holding " #" would not read back from config.ini */
    ck_assert_int_eq(set1(&c, "simulation.system=a #b", err), -1);
    ck_assert_ptr_nonnull(strstr(err, "must not contain ';' or a '#' after a blank"));
    ck_assert_int_eq(set1(&c, "simulation.system=a#b", err), 0);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("config_units");
    TCase *t = tcase_create("units");
    tcase_add_test(t, test_time_units);
    tcase_add_test(t, test_memory_units);
    tcase_add_test(t, test_dimensions_from_units);
    suite_add_tcase(s, t);
    t = tcase_create("typos");
    tcase_add_test(t, test_suggestions);
    tcase_add_test(t, test_sectionless_and_comments);
    suite_add_tcase(s, t);
    return s;
}

TEST_MAIN()
