/* app/output.c: metric formats (see output.h). */
#include "app/output.h"

#include "pnr/pnr.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The 19 metrics, in the techreport's order. */
typedef struct metric_def {
    const char *key;
    const char *label;
    const char *unit;
} metric_def;

static const metric_def METRICS[19] = {
    {"total_time", "Total simulation time", "s"},
    {"jobs_finished", "Number of processes finished", "jobs"},
    {"throughput", "Throughput", "jobs/s"},
    {"cpu_utilization", "Average CPU utilization", "fraction"},
    {"page_faults_per_pe", "Average page faults per PE", "faults"},
    {"page_fault_time_per_pe", "Average time servicing page faults per PE", "s"},
    {"comm_busy_time", "Cumulative time communication units were in use", "s"},
    {"mem_alloc_mean", "Average memory allocated per PE", "MB"},
    {"mem_alloc_sd", "Std. deviation of memory allocated per PE", "MB"},
    {"disk_alloc_mean", "Average disk space allocated per PE", "MB"},
    {"disk_alloc_sd", "Std. deviation of disk space allocated per PE", "MB"},
    {"response_time_mean", "Average process response time", "s"},
    {"wait_time_mean", "Average process waiting time", "s"},
    {"execution_time_mean", "Average process execution time", "s"},
    {"slowdown_mean", "Average slowdown", ""},
    {"bounded_slowdown_mean", "Average bounded slowdown", ""},
    {"mpl_max", "Highest observed multiprogramming level", "slots"},
    {"mpl_mean", "Average multiprogramming level", "slots"},
    {"pcs_count", "Total number of parallel context switches", "switches"},
};

static void metric_values(const run_metrics *m, double v[19])
{
    double x[19] = {m->total_time,
                    (double)m->jobs_finished,
                    m->throughput,
                    m->cpu_utilization,
                    m->page_faults_per_pe,
                    m->page_fault_time_per_pe,
                    m->comm_busy_time,
                    m->mem_alloc_mean,
                    m->mem_alloc_sd,
                    m->disk_alloc_mean,
                    m->disk_alloc_sd,
                    m->response_time_mean,
                    m->wait_time_mean,
                    m->execution_time_mean,
                    m->slowdown_mean,
                    m->bounded_slowdown_mean,
                    (double)m->mpl_max,
                    m->mpl_mean,
                    (double)m->pcs_count};
    memcpy(v, x, sizeof x);
}


void out_metrics_text(FILE *f, const run_metrics *m, const config *c, const char *trace)
{
    double v[19];
    metric_values(m, v);
    fprintf(f, "%s: %s, seed %llu, trace %s\n", c->simulation.system,
            m->partial ? "PARTIAL results (interrupted)" : "results",
            (unsigned long long)m->seed, trace);
    for (int i = 0; i < 19; i++) {
        if (isfinite(v[i]))
            fprintf(f, "%2d  %-50s %16.6f %s\n", i + 1, METRICS[i].label, v[i], METRICS[i].unit);
        else /* undefined: a mean over no jobs, a rate over no time */
            fprintf(f, "%2d  %-50s %16s %s\n", i + 1, METRICS[i].label, "n/a", METRICS[i].unit);
    }
    fprintf(f, "jobs: %ld submitted, %ld finished, %ld unfinished, %ld never started",
            m->jobs_submitted, m->jobs_finished, m->jobs_unfinished, m->jobs_never_started);
    if (m->jobs_impossible)
        fprintf(f, " (%ld can never fit in RAM)", m->jobs_impossible);
    fprintf(f, "%s\n", m->time_limited ? "; stopped at max_time" : "");
    long dropped = 0;
    for (int k = 0; k < WL_DROP_N; k++)
        dropped += m->dropped[k];
    fprintf(f, "trace records dropped: %ld", dropped);
    for (int k = 0; k < WL_DROP_N; k++)
        if (m->dropped[k])
            fprintf(f, ", %s %ld", workload_drop_name((wl_drop_reason)k), m->dropped[k]);
    fprintf(f, "\n");
    if (m->trace_stopped_at)
        fprintf(f, "trace read to line %ld only: no later record could be kept "
                   "(max_jobs or submit_max)\n", m->trace_stopped_at);
    if (m->slowdown_excluded)
        fprintf(f, "slowdown: %ld zero-length jobs excluded from the mean%s\n",
                m->slowdown_excluded,
                m->jobs_finished == m->slowdown_excluded ? " (all of them: n/a)" : "");
    fprintf(f, "page faults: %llu from disk, %llu from network RAM; messages: %llu neighbour, "
               "%llu replies, %llu sync, %llu killed by context switches\n",
            (unsigned long long)m->page_faults_disk, (unsigned long long)m->page_faults_remote,
            (unsigned long long)m->neighbour_msgs, (unsigned long long)m->neighbour_replies,
            (unsigned long long)m->sync_msgs, (unsigned long long)m->messages_killed);
    if (m->netram) {
        fprintf(f, "network RAM (%s): lent per PE %.3f MB mean, %.3f MB SD; %llu requests: "
                   "%llu satisfied, %llu partly, %llu denied; %.1f of %.1f MB asked granted; "
                   "threads waited %.6g s for allocation\n",
                config_strategy_name(c->netram.strategy), m->netram_lent_mean,
                m->netram_lent_sd, (unsigned long long)m->pnr_requests,
                (unsigned long long)m->pnr_satisfied, (unsigned long long)m->pnr_partial,
                (unsigned long long)m->pnr_denied, m->pnr_granted_mb, m->pnr_asked_mb,
                m->pnr_alloc_wait);
        fprintf(f, "PNR messages:");
        for (int k = 0; k < PNR_NKINDS; k++)
            fprintf(f, " %s %llu (%.0f B)%s", pnr_kind_name(PNR_MSG_REQUEST + k),
                    (unsigned long long)m->pnr_msgs[k], m->pnr_bytes[k],
                    k + 1 < PNR_NKINDS ? "," : "\n");
    }
}

static void json_num(FILE *f, const char *key, double v, bool comma)
{
    if (isfinite(v))
        fprintf(f, "  \"%s\": %.15g%s\n", key, v, comma ? "," : "");
    else
        fprintf(f, "  \"%s\": null%s\n", key, comma ? "," : "");
}

/* Length of the well-formed UTF-8 sequence at s (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF), or 0 when the byte at s
 * does not start one. */
static int utf8_len(const unsigned char *s)
{
    unsigned char c = s[0];
    if (c < 0x80)
        return 1;
    int n;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0)
            lo = 0xA0;
        else if (c == 0xED)
            hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0)
            lo = 0x90;
        else if (c == 0xF4)
            hi = 0x8F;
    } else
        return 0;
    if (s[1] < lo || s[1] > hi)
        return 0;
    for (int i = 2; i < n; i++)
        if (s[i] < 0x80 || s[i] > 0xBF)
            return 0;
    return n;
}

/* s as a JSON string: quotes, backslashes and control characters escaped,
 * every byte that is not part of well-formed UTF-8 replaced by U+FFFD, so
 * the output is always valid JSON (RFC 8259 requires UTF-8). */
static void json_str(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    fputc('"', f);
    while (*p) {
        int n = utf8_len(p);
        if (n == 0) {
            fputs("\\ufffd", f);
            p++;
        } else if (*p == '"' || *p == '\\') {
            fprintf(f, "\\%c", *p++);
        } else if (*p < 0x20) {
            fprintf(f, "\\u%04x", *p++);
        } else {
            fwrite(p, 1, (size_t)n, f);
            p += n;
        }
    }
    fputc('"', f);
}

void out_metrics_json(FILE *f, const run_metrics *m, const config *c, const char *trace)
{
    double v[19];
    metric_values(m, v);
    fprintf(f, "{\n");
    for (int i = 0; i < 19; i++)
        json_num(f, METRICS[i].key, v[i], true);
    fprintf(f, "  \"seed\": %llu,\n", (unsigned long long)m->seed);
    fprintf(f, "  \"system\": ");
    json_str(f, c->simulation.system);
    fprintf(f, ",\n  \"trace\": ");
    json_str(f, trace);
    fprintf(f, ",\n");
    json_num(f, "jobs_submitted", (double)m->jobs_submitted, true);
    json_num(f, "jobs_unfinished", (double)m->jobs_unfinished, true);
    json_num(f, "jobs_never_started", (double)m->jobs_never_started, true);
    json_num(f, "jobs_impossible", (double)m->jobs_impossible, true);
    json_num(f, "slowdown_excluded", (double)m->slowdown_excluded, true);
    json_num(f, "page_faults_disk", (double)m->page_faults_disk, true);
    json_num(f, "page_faults_remote", (double)m->page_faults_remote, true);
    json_num(f, "neighbour_msgs", (double)m->neighbour_msgs, true);
    json_num(f, "neighbour_replies", (double)m->neighbour_replies, true);
    json_num(f, "sync_msgs", (double)m->sync_msgs, true);
    json_num(f, "messages_killed", (double)m->messages_killed, true);
    json_num(f, "net_messages", (double)m->net_messages, true);
    json_num(f, "net_bytes", m->net_bytes, true);
    json_num(f, "cpu_busy_total", m->cpu_busy_total, true);
    json_num(f, "cpu_demand_done", m->cpu_demand_done, true);
    json_num(f, "events", (double)m->events, true);
    fprintf(f, "  \"time_limited\": %s,\n", m->time_limited ? "true" : "false");
    fprintf(f, "  \"netram\": %s,\n", m->netram ? "true" : "false");
    if (m->netram) {
        json_num(f, "netram_lent_mean", m->netram_lent_mean, true);
        json_num(f, "netram_lent_sd", m->netram_lent_sd, true);
        json_num(f, "pnr_requests", (double)m->pnr_requests, true);
        json_num(f, "pnr_satisfied", (double)m->pnr_satisfied, true);
        json_num(f, "pnr_partial", (double)m->pnr_partial, true);
        json_num(f, "pnr_denied", (double)m->pnr_denied, true);
        json_num(f, "pnr_asked_mb", m->pnr_asked_mb, true);
        json_num(f, "pnr_granted_mb", m->pnr_granted_mb, true);
        json_num(f, "pnr_alloc_wait", m->pnr_alloc_wait, true);
        char key[64];
        for (int k = 0; k < PNR_NKINDS; k++) {
            snprintf(key, sizeof key, "pnr_msgs_%s", pnr_kind_name(PNR_MSG_REQUEST + k));
            json_num(f, key, (double)m->pnr_msgs[k], true);
            snprintf(key, sizeof key, "pnr_bytes_%s", pnr_kind_name(PNR_MSG_REQUEST + k));
            json_num(f, key, m->pnr_bytes[k], true);
        }
    }
    fprintf(f, "  \"dropped\": {");
    for (int k = 0; k < WL_DROP_N; k++)
        fprintf(f, "%s\"%s\": %ld", k ? ", " : "", workload_drop_name((wl_drop_reason)k),
                m->dropped[k]);
    fprintf(f, "},\n");
    fprintf(f, "  \"partial\": %s\n}\n", m->partial ? "true" : "false");
}

void out_metrics_table(FILE *f, const run_metrics *m, char sep)
{
    double v[19];
    metric_values(m, v);
    for (int i = 0; i < 19; i++)
        fprintf(f, "%s%c", METRICS[i].key, i < 18 ? sep : '\n');
    for (int i = 0; i < 19; i++) {
        if (isfinite(v[i]))
            fprintf(f, "%.15g%c", v[i], i < 18 ? sep : '\n');
        else
            fprintf(f, "n/a%c", i < 18 ? sep : '\n');
    }
}
