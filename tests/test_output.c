/* tests/test_output.c: the metric formats written from the one table of
 * app/output.c. The text report, metrics.json and metrics.dat must agree
 * with each other and with the techreport's list of metrics (§2.2.2, in
 * its order, as docs/METRICS.md gives it), and pnrsim-sweep's check of
 * metric names (out_is_key) must accept every key written and nothing
 * else. */
#include "app/output.h"
#include "tests/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The 19 metrics of techreport §2.2.2, in its order (docs/METRICS.md). */
static const char *const REPORT_KEYS[19] = {
    "total_time", "jobs_finished", "throughput", "cpu_utilization",
    "page_faults_per_pe", "page_fault_time_per_pe", "comm_busy_time",
    "mem_alloc_mean", "mem_alloc_sd", "disk_alloc_mean", "disk_alloc_sd",
    "response_time_mean", "wait_time_mean", "execution_time_mean",
    "slowdown_mean", "bounded_slowdown_mean", "mpl_max", "mpl_mean",
    "pcs_count"};

typedef struct capture {
    char *buf;
    size_t len;
    FILE *f;
} capture;

static FILE *cap_open(capture *k)
{
    k->f = open_memstream(&k->buf, &k->len);
    ck_assert_ptr_nonnull(k->f);
    return k->f;
}

static char *cap_close(capture *k)
{
    fclose(k->f);
    return k->buf;
}

static void fill(run_metrics *m, bool netram, bool tree)
{
    memset(m, 0, sizeof *m);
    m->total_time = 1000;
    m->jobs_finished = 4;
    m->throughput = 0.004;
    m->mpl_max = 3;
    m->pcs_count = 17;
    m->slowdown_mean = NAN;      /* undefined: null / n/a */
    m->seed = (1ull << 60) + 1;  /* no double holds it: written exactly */
    m->dropped[WL_DROP_WIDE] = 5;
    m->netram = netram;
    m->pnr_msgs[0] = 9;
    m->pnr_alloc_rounds_changed = 31;
    m->pnr_dealloc_rounds_changed = 32;
    m->tree = tree;
    m->net_busy_uplinks = 0.25;
}

/* The member names of a metrics.json text in order, nested ones as
 * outer.inner, into keys (at most max); returns the count. */
static int json_keys(const char *t, char keys[][160], int max)
{
    int n = 0;
    char outer[64] = "";
    for (const char *p = t; *p && n < max; p++) {
        if (*p == '}' && outer[0]) {
            outer[0] = '\0';
            continue;
        }
        if (*p != '"')
            continue;
        const char *e = strchr(p + 1, '"');
        ck_assert_ptr_nonnull(e);
        if (e[1] == ':') {
            char k[64];
            snprintf(k, sizeof k, "%.*s", (int)(e - p - 1), p + 1);
            if (e[2] == ' ' && e[3] == '{')
                snprintf(outer, sizeof outer, "%s", k);
            else if (outer[0])
                snprintf(keys[n++], 160, "%s.%s", outer, k);
            else
                snprintf(keys[n++], 160, "%s", k);
        }
        p = e;
    }
    return n;
}

START_TEST(test_table_and_text)
{
    config c;
    config_defaults(&c);
    run_metrics m;
    fill(&m, false, false);
    capture k;
    out_metrics_table(cap_open(&k), &m, ' ');
    char *dat = cap_close(&k);
    /* Header: the 19 keys in the report's order. */
    char *save = NULL, *line = strtok_r(dat, "\n", &save);
    char *values = strtok_r(NULL, "\n", &save);
    ck_assert_ptr_nonnull(values);
    ck_assert_ptr_null(strtok_r(NULL, "\n", &save));
    char *s2 = NULL, *v2 = NULL;
    char *key = strtok_r(line, " ", &s2), *val = strtok_r(values, " ", &v2);
    for (int i = 0; i < 19; i++) {
        ck_assert_ptr_nonnull(key);
        ck_assert_ptr_nonnull(val);
        ck_assert_str_eq(key, REPORT_KEYS[i]);
        if (i == 0)
            ck_assert_str_eq(val, "1000");
        if (i == 14)
            ck_assert_str_eq(val, "n/a");
        if (i == 16)
            ck_assert_str_eq(val, "3");
        if (i == 18)
            ck_assert_str_eq(val, "17");
        key = strtok_r(NULL, " ", &s2);
        val = strtok_r(NULL, " ", &v2);
    }
    ck_assert_ptr_null(key);
    ck_assert_ptr_null(val);
    free(dat);

    /* The text report: 19 numbered lines, the 15th n/a, then prose. */
    out_metrics_text(cap_open(&k), &m, &c, "trace.swf");
    char *text = cap_close(&k);
    int numbered = 0;
    for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        int no;
        if (sscanf(l, "%2d ", &no) == 1) {
            numbered++;
            ck_assert_int_eq(no, numbered);
            if (no == 15)
                ck_assert_ptr_nonnull(strstr(l, " n/a"));
            if (no == 17)
                ck_assert_ptr_nonnull(strstr(l, " 3.000000 slots"));
        }
    }
    ck_assert_int_eq(numbered, 19);
    free(text);
}
END_TEST

/* metrics.json holds the 19 first, in order, then the extras; every key
 * once; out_is_key accepts each one. */
static void check_json(bool netram, bool tree)
{
    config c;
    config_defaults(&c);
    run_metrics m;
    fill(&m, netram, tree);
    m.command_line = "pnrsim -t 'a b'";
    strcpy(m.trace_sha256, "00ff");
    capture k;
    out_metrics_json(cap_open(&k), &m, &c, "trace.swf");
    char *json = cap_close(&k);
    char keys[200][160];
    int n = json_keys(json, keys, 200);
    for (int i = 0; i < 19; i++)
        ck_assert_str_eq(keys[i], REPORT_KEYS[i]);
    ck_assert_str_eq(keys[19], "bounded_slowdown_dedicated_mean"); /* the first extra */
    for (int i = 0; i < n; i++) {
        ck_assert_msg(out_is_key(keys[i]), "%s written but refused", keys[i]);
        for (int j = 0; j < i; j++)
            ck_assert_str_ne(keys[i], keys[j]);
    }
    /* 19 + bounded_slowdown_dedicated_mean (issue 37) + seed, system,
     * trace + 4 provenance strings (pnrsim_version,
     * command_line, trace_path, trace_sha256) + 16 counts + 2 flags + 7 drop reasons +
     * partial; with network RAM 11 more (lent mean and SD, 6 request
     * counts and sums, the wait, 2 round counts) and two per message kind;
     * on a tree network the 4 busy times by kind of element. */
    int expect = 19 + 1 + 3 + 4 + 16 + 2 + WL_DROP_N + 1 + (netram ? 11 + 2 * PNR_NKINDS : 0) +
                 (tree ? 4 : 0);
    ck_assert_int_eq(n, expect);
    ck_assert_str_eq(keys[n - 1], "partial");
    ck_assert_ptr_nonnull(strstr(json, "\"seed\": 1152921504606846977,\n"));
    ck_assert_ptr_nonnull(strstr(json, "\"slowdown_mean\": null,\n"));
    ck_assert_ptr_nonnull(strstr(json, "\"too_wide\": 5"));
    /* Provenance: the command line as given to the metrics;
     * the trace's path from the configuration; the checksum as given. */
    ck_assert_ptr_nonnull(strstr(json, "\"command_line\": \"pnrsim -t 'a b'\",\n"));
    ck_assert_ptr_nonnull(strstr(json, "\"trace_path\": \"\",\n"));
    ck_assert_ptr_nonnull(strstr(json, "\"trace_sha256\": \"00ff\",\n"));
    ck_assert_ptr_nonnull(strstr(json, "\"partial\": false\n}\n"));
    ck_assert_int_eq(strstr(json, "\"pnr_msgs_request\": 9,\n") != NULL, netram);
    ck_assert_int_eq(strstr(json, "\"pnr_alloc_rounds_changed\": 31,\n") != NULL, netram);
    ck_assert_int_eq(strstr(json, "\"pnr_dealloc_rounds_changed\": 32,\n") != NULL, netram);
    ck_assert_int_eq(strstr(json, "\"net_busy_uplinks\": 0.25,\n") != NULL, tree);
    ck_assert_int_eq(strstr(json, "\"net_busy_rack_links\": 0,\n") != NULL, tree);
    free(json);
}

START_TEST(test_json)
{
    check_json(false, false);
    check_json(true, false);
    check_json(false, true);
    check_json(true, true);
}
END_TEST

START_TEST(test_is_key)
{
    ck_assert(out_is_key("total_time"));
    ck_assert(out_is_key("pnr_requests"));
    ck_assert(out_is_key("pnr_msgs_request"));
    ck_assert(out_is_key("pnr_bytes_ack"));
    ck_assert(out_is_key("dropped.too_wide"));
    ck_assert(out_is_key("net_busy_uplinks"));
    ck_assert(out_is_key("net_busy_rack_links"));
    ck_assert(!out_is_key("foo_bar"));
    ck_assert(!out_is_key("total_time_mean"));
    ck_assert(!out_is_key("pnr_msgs"));
    ck_assert(!out_is_key("pnr_msgs_"));
    ck_assert(!out_is_key("pnr_msgs_nosuchkind"));
    ck_assert(!out_is_key("dropped"));
    ck_assert(!out_is_key("dropped.nosuchreason"));
    ck_assert(!out_is_key(""));
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("output");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_table_and_text);
    tcase_add_test(tc, test_json);
    tcase_add_test(tc, test_is_key);
    suite_add_tcase(s, tc);
    return s;
}

TEST_MAIN()
