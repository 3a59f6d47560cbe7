/* tests/test_plugin_rack_compact.c: the example allocation policy
 * examples/plugins/rack_compact.c (issue 34), compiled into the test and
 * registered by its own pnrsim_plugin_init after components_init().
 *
 * Hand-worked: a TREE of 4 racks x 4 nodes (16 PEs, one core each), MPL 1,
 * no memory. Job 1: 2 threads, 100 s; job 2: 4 threads, 10 s; both at
 * t = 0, FCFS. Job 1 takes PEs 0-1 either way (RACK_COMPACT: every rack has
 * 4 free, best fit ties to rack 0). Job 2, FIRSTFREE: PEs 2-5, racks 0
 * and 1 (2 racks; mean over the two jobs 1.5). RACK_COMPACT: racks of
 * capacity 2, 4, 4, 4: the least that holds 4 is rack 1 (ties lowest):
 * PEs 4-7, one rack; mean 1, max 1. Neighbour messages (comm_rate 1 s)
 * stay inside racks: 0 uplink bytes.
 */
#include "core/registry_host.h"
#include "app/components.h"
#include "app/config.h"
#include "app/run.h"
#include "app/run_metrics.h"
#include "tests/testutil.h"

#include "examples/plugins/rack_compact.c"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char trace_path[] = "/tmp/pnrsim-test-rc-XXXXXX";

static void set(config *c, const char *kv)
{
    char err[CFG_ERR_MAX];
    ck_assert_msg(config_set(c, kv, err) == 0, "%s: %s", kv, err);
}

static void run_one(const char *alloc, run_metrics *m)
{
    config c;
    config_defaults(&c);
    char err[CFG_ERR_MAX], kv[CFG_PATH_MAX + 32];
    set(&c, "computer.number=16");
    set(&c, "network.topology=TREE");
    set(&c, "network.rack_size=4");
    set(&c, "process.comm_rate=1");
    if (alloc) { /* NULL: the key left unset */
        snprintf(kv, sizeof kv, "scheduler.allocation=%s", alloc);
        set(&c, kv);
    }
    snprintf(kv, sizeof kv, "workload.trace=%s", trace_path);
    set(&c, kv);
    ck_assert_msg(config_validate(&c, err) == 0, "%s", err);
    run_t *r = run_create(&c, NULL, NULL, err);
    ck_assert_msg(r != NULL, "%s", err);
    ck_assert_msg(run_execute(r, err) == 0, "%s", err);
    run_metrics_get(r, m);
    run_destroy(r);
}

START_TEST(test_rack_compact_one_rack)
{
    int fd = mkstemp(trace_path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "1 0 0 100 2 100 -1 2 -1 -1 1 1 1 1 1 1 -1 -1\n");
    fprintf(f, "2 0 0 10 4 10 -1 4 -1 -1 1 1 1 1 1 1 -1 -1\n");
    fclose(f);
    components_init();
    pnrsim_registry_open(); /* as the loader does around an init */
    ck_assert_int_eq(pnrsim_plugin_init(pnrsim_registry_get(), PNRSIM_API_VERSION), 0);
    ck_assert_int_ne(pnrsim_plugin_init(pnrsim_registry_get(), PNRSIM_API_VERSION + 1), 0);
    run_metrics m;
    run_one("RACK_COMPACT", &m);
    ck_assert(m.alloc_racks);
    ck_assert_double_eq_tol(m.alloc_racks_spanned_mean, 1.0, 1e-12);
    ck_assert_int_eq(m.alloc_racks_spanned_max, 1);
    ck_assert(m.neighbour_msgs > 0);
    ck_assert_double_eq(m.net_uplink_bytes, 0);
    /* LOWEST (FIRSTFREE's placement under the name a study's baseline
     * uses, issue 35) reports them too: job 1 on PEs 0-1 (rack 0), job 2
     * on 2-5 (racks 0 and 1): mean 1.5, max 2, and job 2's ring of
     * messages crosses the uplinks. */
    run_one("LOWEST", &m);
    ck_assert(m.alloc_racks);
    ck_assert_double_eq_tol(m.alloc_racks_spanned_mean, 1.5, 1e-12);
    ck_assert_int_eq(m.alloc_racks_spanned_max, 2);
    ck_assert(m.net_uplink_bytes > 0);
    run_one(NULL, &m);
    ck_assert(!m.alloc_racks); /* unset: the default's metrics.json is unchanged */
    run_one("FIRSTFREE", &m);
    ck_assert(!m.alloc_racks); /* so is the default named (a replayed config.ini) */
    unlink(trace_path);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("plugin_rack_compact");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_rack_compact_one_rack);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
