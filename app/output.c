/* app/output.c: metric formats, all written from one table (see
 * output.h).
 *
 * out_fields below is the only list of what a run reports: a row per
 * metrics.json member, in metrics.json order. The 19 metrics of techreport
 * §2.2.2 come first, in the report's order, with the label and unit of the
 * text report; then the extras (the tree rows only on a tree network), the
 * network RAM rows (written only when network RAM is on; the RDMA rows
 * only with netram.transport = RDMA, the reclaim rows only with
 * netram.reclaim != NONE), the drop counts and the partial flag. A row's type is
 * taken from the run_metrics field itself (_Generic), so a row cannot read
 * a field as the wrong type. The sentences of the text report after the
 * numbered metrics (job counts, drops, messages) are prose, not rows.
 *
 * In app/'s layers this file sits below app/run.c: it knows the metrics
 * only as a struct (app/run_metrics.h, types only), never the run; run.c
 * and app/schedule.c (which uses the CSV macros of output.h) are above it.
 */
#include "app/output.h"
#include "app/plugin.h"
#include "app/version.h"

#include "pnr/pnr.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The out_type of run_metrics field f (not evaluated). */
#define OUT_TYPE_OF(f)                                                        \
    _Generic(((run_metrics *)0)->f, double: OUT_F64, long: OUT_LONG,          \
             int: OUT_INT, uint64_t: OUT_U64, bool: OUT_BOOL)
/* One of the 19 metrics; an extra; an extra only with network RAM; a
 * per-kind array (network RAM only). */
#define METRIC(key, field, label, unit)                                       \
    {key, label, unit, OUT_TYPE_OF(field), offsetof(run_metrics, field), NULL, OUT_METRIC}
#define EXTRA(key, field)                                                     \
    {key, NULL, "", OUT_TYPE_OF(field), offsetof(run_metrics, field), NULL, 0}
#define NETRAM(key, field)                                                    \
    {key, NULL, "", OUT_TYPE_OF(field), offsetof(run_metrics, field), NULL, OUT_NETRAM}
#define TREE(key, field)                                                      \
    {key, NULL, "", OUT_TYPE_OF(field), offsetof(run_metrics, field), NULL, OUT_TREE}
#define RDMA(key, field)                                                      \
    {key, NULL, "", OUT_TYPE_OF(field), offsetof(run_metrics, field), NULL, OUT_RDMA}
#define RECLAIM(key, field)                                                   \
    {key, NULL, "", OUT_TYPE_OF(field), offsetof(run_metrics, field), NULL, OUT_RECLAIM}
#define ALLOC(key, field)                                                     \
    {key, NULL, "", OUT_TYPE_OF(field), offsetof(run_metrics, field), NULL, OUT_ALLOC}
#define PLACE(key, field)                                                     \
    {key, NULL, "", OUT_TYPE_OF(field), offsetof(run_metrics, field), NULL, OUT_PLACE}
#define STRAT(key, field)                                                     \
    {key, NULL, "", OUT_TYPE_OF(field), offsetof(run_metrics, field), NULL, OUT_STRAT}
#define KILL(key, field)                                                      \
    {key, NULL, "", OUT_TYPE_OF(field), offsetof(run_metrics, field), NULL, OUT_KILL}
#define LIMITS(key, field)                                                    \
    {key, NULL, "", OUT_TYPE_OF(field), offsetof(run_metrics, field), NULL, OUT_LIMITS}
#define LOOPM(key, field)                                                     \
    {key, NULL, "", OUT_TYPE_OF(field), offsetof(run_metrics, field), NULL, OUT_LOOP}
#define EXCL(key, field)                                                      \
    {key, NULL, "", OUT_TYPE_OF(field), offsetof(run_metrics, field), NULL, OUT_EXCL}
#define PER_KIND(key, field)                                                  \
    {key, NULL, "", OUT_TYPE_OF(field[0]), offsetof(run_metrics, field), NULL,            \
     OUT_NETRAM | OUT_PER_KIND}

static const char *system_name(const config *c, const run_metrics *m, const char *trace)
{
    (void)m;
    (void)trace;
    return c->simulation.system;
}

static const char *trace_name(const config *c, const run_metrics *m, const char *trace)
{
    (void)c;
    (void)m;
    return trace;
}

/* Provenance (issue 26): the build, the command line, the trace as given
 * ("-" for standard input) and its SHA-256. */
static const char *version_text(const config *c, const run_metrics *m, const char *trace)
{
    (void)c;
    (void)m;
    (void)trace;
    return pnrsim_version();
}

static const char *command_text(const config *c, const run_metrics *m, const char *trace)
{
    (void)c;
    (void)trace;
    return m->command_line ? m->command_line : "";
}

static const char *trace_path_text(const config *c, const run_metrics *m, const char *trace)
{
    (void)m;
    (void)trace;
    return c->workload.trace;
}

static const char *sha256_text(const config *c, const run_metrics *m, const char *trace)
{
    (void)c;
    (void)trace;
    return m->trace_sha256;
}

const out_field out_fields[] = {
    METRIC("total_time", total_time, "Total simulation time", "s"),
    METRIC("jobs_finished", jobs_finished, "Number of processes finished", "jobs"),
    METRIC("throughput", throughput, "Throughput", "jobs/s"),
    METRIC("cpu_utilization", cpu_utilization, "Average CPU utilization", "fraction"),
    METRIC("page_faults_per_pe", page_faults_per_pe, "Average page faults per PE", "faults"),
    METRIC("page_fault_time_per_pe", page_fault_time_per_pe,
           "Average time servicing page faults per PE", "s"),
    METRIC("comm_busy_time", comm_busy_time,
           "Cumulative time communication units were in use", "s"),
    METRIC("mem_alloc_mean", mem_alloc_mean, "Average memory allocated per PE", "MB"),
    METRIC("mem_alloc_sd", mem_alloc_sd, "Std. deviation of memory allocated per PE", "MB"),
    METRIC("disk_alloc_mean", disk_alloc_mean, "Average disk space allocated per PE", "MB"),
    METRIC("disk_alloc_sd", disk_alloc_sd, "Std. deviation of disk space allocated per PE",
           "MB"),
    METRIC("response_time_mean", response_time_mean, "Average process response time", "s"),
    METRIC("wait_time_mean", wait_time_mean, "Average process waiting time", "s"),
    METRIC("execution_time_mean", execution_time_mean, "Average process execution time", "s"),
    METRIC("slowdown_mean", slowdown_mean, "Average slowdown", ""),
    METRIC("bounded_slowdown_mean", bounded_slowdown_mean, "Average bounded slowdown", ""),
    METRIC("mpl_max", mpl_max, "Highest observed multiprogramming level", "slots"),
    METRIC("mpl_mean", mpl_mean, "Average multiprogramming level", "slots"),
    METRIC("pcs_count", pcs_count, "Total number of parallel context switches", "switches"),
    /* The first extra (issue 37): not one of the report's 19, so in
     * metrics.json only; its unit "" as bounded_slowdown_mean's (a ratio). */
    {"bounded_slowdown_dedicated_mean", NULL, "", OUT_TYPE_OF(bounded_slowdown_dedicated_mean),
     offsetof(run_metrics, bounded_slowdown_dedicated_mean), NULL, 0},
    {"seed", NULL, "", OUT_SEED, offsetof(run_metrics, seed), NULL, 0},
    {"system", NULL, "", OUT_TEXT, 0, system_name, 0},
    {"trace", NULL, "", OUT_TEXT, 0, trace_name, 0},
    {"pnrsim_version", NULL, "", OUT_TEXT, 0, version_text, 0},
    {"command_line", NULL, "", OUT_TEXT, 0, command_text, 0},
    {"trace_path", NULL, "", OUT_TEXT, 0, trace_path_text, 0},
    {"trace_sha256", NULL, "", OUT_TEXT, 0, sha256_text, 0},
    EXTRA("jobs_submitted", jobs_submitted),
    EXTRA("jobs_unfinished", jobs_unfinished),
    EXTRA("jobs_never_started", jobs_never_started),
    EXTRA("jobs_impossible", jobs_impossible),
    LIMITS("jobs_limit_delayed", jobs_limit_delayed),
    EXTRA("slowdown_excluded", slowdown_excluded),
    EXTRA("page_faults_disk", page_faults_disk),
    EXTRA("page_faults_remote", page_faults_remote),
    EXTRA("neighbour_msgs", neighbour_msgs),
    EXTRA("neighbour_replies", neighbour_replies),
    EXTRA("sync_msgs", sync_msgs),
    EXTRA("messages_killed", messages_killed),
    EXTRA("net_messages", net_messages),
    EXTRA("net_bytes", net_bytes),
    TREE("net_busy_rack_links", net_busy_rack_links),
    TREE("net_busy_uplinks", net_busy_uplinks),
    TREE("net_busy_tor_switches", net_busy_tor_switches),
    TREE("net_busy_core_switch", net_busy_core_switch),
    ALLOC("alloc_racks_spanned_mean", alloc_racks_spanned_mean),
    ALLOC("alloc_racks_spanned_max", alloc_racks_spanned_max),
    ALLOC("net_uplink_bytes", net_uplink_bytes),
    ALLOC("net_uplink_bytes_messages", net_uplink_bytes_messages),
    ALLOC("net_uplink_bytes_netram", net_uplink_bytes_netram),
    PLACE("alloc_hops_mean", alloc_hops_mean),
    EXTRA("cpu_busy_total", cpu_busy_total),
    EXCL("idle_core_seconds", idle_core_seconds),
    EXTRA("cpu_demand_done", cpu_demand_done),
    LOOPM("loop_chunks", loop_chunks),
    KILL("jobs_killed", jobs_killed),
    KILL("killed_core_seconds", killed_core_seconds),
    KILL("killed_cpu_seconds", killed_cpu_seconds),
    KILL("cpu_lost_share", cpu_lost_share),
    KILL("cpu_cut_seconds", cpu_cut_seconds),
    KILL("jobs_without_limit", jobs_without_limit),
    EXTRA("events", events),
    EXTRA("time_limited", time_limited),
    EXTRA("netram", netram),
    NETRAM("netram_lent_mean", netram_lent_mean),
    NETRAM("netram_lent_sd", netram_lent_sd),
    NETRAM("pnr_requests", pnr_requests),
    NETRAM("pnr_satisfied", pnr_satisfied),
    NETRAM("pnr_partial", pnr_partial),
    NETRAM("pnr_denied", pnr_denied),
    NETRAM("pnr_asked_mb", pnr_asked_mb),
    NETRAM("pnr_granted_mb", pnr_granted_mb),
    NETRAM("pnr_alloc_wait", pnr_alloc_wait),
    NETRAM("pnr_alloc_rounds_changed", pnr_alloc_rounds_changed),
    NETRAM("pnr_dealloc_rounds_changed", pnr_dealloc_rounds_changed),
    PER_KIND("pnr_msgs", pnr_msgs),
    PER_KIND("pnr_bytes", pnr_bytes),
    STRAT("pnr_strategy_msgs", pnr_strategy_msgs),
    STRAT("pnr_strategy_bytes", pnr_strategy_bytes),
    RDMA("pnr_rdma_reads", pnr_rdma_reads),
    RDMA("pnr_rdma_read_bytes", pnr_rdma_read_bytes),
    RDMA("pnr_rdma_writes", pnr_rdma_writes),
    RDMA("pnr_rdma_write_bytes", pnr_rdma_write_bytes),
    RECLAIM("reclaim_events", reclaim_events),
    RECLAIM("reclaim_mb", reclaim_mb),
    RECLAIM("reclaim_pages", reclaim_pages),
    RECLAIM("reclaim_replaced_mb", reclaim_replaced_mb),
    {"dropped", NULL, "", OUT_DROPS, offsetof(run_metrics, dropped), NULL, 0},
    EXTRA("partial", partial),
};
const size_t out_nfields = sizeof out_fields / sizeof out_fields[0];

/* The value of row d in m, element k for a per-kind row, as a double. */
static double out_num(const out_field *d, const run_metrics *m, int k)
{
    const char *p = (const char *)m + d->off;
    switch (d->type) {
    case OUT_F64: return ((const double *)p)[k];
    case OUT_LONG: return (double)((const long *)p)[k];
    case OUT_INT: return (double)((const int *)p)[k];
    case OUT_U64:
    case OUT_SEED: return (double)((const uint64_t *)p)[k];
    case OUT_BOOL: return *(const bool *)p;
    case OUT_TEXT:
    case OUT_DROPS: break;
    }
    assert(!"not a number");
    return NAN;
}

bool out_is_key(const char *key)
{
    for (size_t i = 0; i < out_nfields; i++) {
        const out_field *d = &out_fields[i];
        size_t n = strlen(d->key);
        if (d->flags & OUT_PER_KIND) {
            if (strncmp(key, d->key, n) != 0 || key[n] != '_')
                continue;
            for (int k = 0; k < PNR_NKINDS; k++)
                if (!strcmp(key + n + 1, pnr_kind_name(PNR_MSG_REQUEST + k)))
                    return true;
        } else if (d->type == OUT_DROPS) {
            if (strncmp(key, d->key, n) != 0 || key[n] != '.')
                continue;
            for (int k = 0; k < WL_DROP_N; k++)
                if (!strcmp(key + n + 1, workload_drop_name((wl_drop_reason)k)))
                    return true;
        } else if (!strcmp(key, d->key)) {
            return true;
        }
    }
    return false;
}

void out_metrics_text(FILE *f, const run_metrics *m, const config *c, const char *trace)
{
    fprintf(f, "%s: %s, seed %llu, trace %s\n", c->simulation.system,
            m->partial ? "PARTIAL results (interrupted)" : "results",
            (unsigned long long)m->seed, trace);
    int no = 0;
    for (size_t i = 0; i < out_nfields; i++) {
        const out_field *d = &out_fields[i];
        if (!(d->flags & OUT_METRIC))
            continue;
        double v = out_num(d, m, 0);
        if (isfinite(v))
            fprintf(f, "%2d  %-50s %16.6f %s\n", ++no, d->label, v, d->unit);
        else /* undefined: a mean over no jobs, a rate over no time */
            fprintf(f, "%2d  %-50s %16s %s\n", ++no, d->label, "n/a", d->unit);
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
    if (m->tree)
        fprintf(f, "network busy time (tree): rack links %.6g s, uplinks %.6g s, ToR switches "
                   "%.6g s, core switch %.6g s\n",
                m->net_busy_rack_links, m->net_busy_uplinks, m->net_busy_tor_switches,
                m->net_busy_core_switch);
    if (m->time_kill)
        fprintf(f, "time limits (KILL): %ld jobs killed, %.6g core-seconds held and %.6g CPU "
                   "seconds done by them lost (%.3g%% of the work done); %ld jobs without "
                   "a requested time, never killed\n",
                m->jobs_killed, m->killed_core_seconds, m->killed_cpu_seconds,
                100 * m->cpu_lost_share, m->jobs_without_limit);
    if (m->exclusive)
        fprintf(f, "whole nodes (node_sharing EXCLUSIVE): %.6g idle core-seconds on cores "
                   "held without a thread\n",
                m->idle_core_seconds);
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
        if (m->rdma)
            fprintf(f, "RDMA operations (pages, no server agent): %llu reads (%.0f B), "
                       "%llu writes (%.0f B)\n",
                    (unsigned long long)m->pnr_rdma_reads, m->pnr_rdma_read_bytes,
                    (unsigned long long)m->pnr_rdma_writes, m->pnr_rdma_write_bytes);
        if (m->reclaim)
            fprintf(f, "memory taken back by lenders (%s): %llu times, %.3f MB, %.0f pages "
                       "sent back, %.3f MB placed again\n",
                    config_reclaim_name(c->netram.reclaim),
                    (unsigned long long)m->reclaim_events, m->reclaim_mb, m->reclaim_pages,
                    m->reclaim_replaced_mb);
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

/* Member key of row d (element k of a per-kind row) of metrics.json, with
 * the comma that follows unless it is the last. */
static void json_member(FILE *f, const out_field *d, const char *key, int k,
                        const run_metrics *m, const config *c, const char *trace, bool comma)
{
    switch (d->type) {
    case OUT_SEED:
        fprintf(f, "  \"%s\": %llu%s\n", key,
                (unsigned long long)*(const uint64_t *)((const char *)m + d->off),
                comma ? "," : "");
        return;
    case OUT_TEXT:
        fprintf(f, "  \"%s\": ", key);
        json_str(f, d->text(c, m, trace));
        fprintf(f, "%s\n", comma ? "," : "");
        return;
    case OUT_BOOL:
        fprintf(f, "  \"%s\": %s%s\n", key, out_num(d, m, 0) != 0 ? "true" : "false",
                comma ? "," : "");
        return;
    case OUT_DROPS: {
        const long *n = (const long *)((const char *)m + d->off);
        fprintf(f, "  \"%s\": {", key);
        for (int r = 0; r < WL_DROP_N; r++)
            fprintf(f, "%s\"%s\": %ld", r ? ", " : "", workload_drop_name((wl_drop_reason)r),
                    n[r]);
        fprintf(f, "}%s\n", comma ? "," : "");
        return;
    }
    case OUT_F64:
    case OUT_LONG:
    case OUT_INT:
    case OUT_U64:
        json_num(f, key, out_num(d, m, k), comma);
        return;
    }
}

/* One cap's cut: its file, cap (key), limit, the unit of a row, rows
 * kept and dropped, the first dropped row's time. */
typedef struct {
    const char *file, *cap, *unit;
    long limit, kept, dropped;
    double at;
} out_cut;

/* The caps that cut a file in m, into cut[3]; returns how many. */
static int out_cuts(const run_metrics *m, const config *c, out_cut cut[3])
{
    int n = 0;
    long cap = c->simulation.max_samples;
    if (m->samples_dropped > 0)
        cut[n++] = (out_cut){"samples.csv", "simulation.max_samples", "rows", cap,
                             m->samples_written, m->samples_dropped, m->samples_capped_at};
    if (m->pes_samples_dropped > 0)
        cut[n++] = (out_cut){m->pes_file ? m->pes_file : "pes.csv", "simulation.max_samples",
                             "rows", cap * m->pes_rows_per_sample,
                             m->pes_samples_written * m->pes_rows_per_sample,
                             m->pes_samples_dropped * m->pes_rows_per_sample, m->pes_capped_at};
    if (m->paje_net_dropped > 0)
        cut[n++] = (out_cut){m->paje_file ? m->paje_file : "schedule.paje",
                             "256 x simulation.max_samples", "network states", 256 * cap,
                             m->paje_net_kept, m->paje_net_dropped, m->paje_net_capped_at};
    return n;
}

int out_truncations(FILE *f, const run_metrics *m, const config *c, bool json)
{
    out_cut cut[3];
    int n = out_cuts(m, c, cut);
    if (n == 0)
        return 0;
    if (json)
        fprintf(f, "  \"truncated\": [");
    for (int i = 0; i < n; i++) {
        if (json) {
            fprintf(f, "%s\n    {\"file\": ", i ? "," : "");
            json_str(f, cut[i].file);
            fprintf(f, ", \"cap\": \"%s\", \"limit\": %ld, \"unit\": \"%s\", "
                       "\"rows_kept\": %ld, \"rows_dropped\": %ld, \"first_dropped_at\": %.15g}",
                    cut[i].cap, cut[i].limit, cut[i].unit, cut[i].kept, cut[i].dropped, cut[i].at);
        } else {
            fprintf(f, "; truncated: ");
            for (const unsigned char *p = (const unsigned char *)cut[i].file; *p; p++)
                fputc(*p < 0x20 || *p == 0x7f ? '?' : *p, f);
            fprintf(f, " cut by %s = %ld %s: %ld %s kept, %ld dropped from t=%.6g s\n",
                    cut[i].cap, cut[i].limit, cut[i].unit, cut[i].kept, cut[i].unit,
                    cut[i].dropped, cut[i].at);
        }
    }
    if (json)
        fprintf(f, "\n  ]\n");
    return n;
}

/* metrics.json's "plugins": each plugin loaded (app/plugin.h), in order,
 * with its path, SHA-256 and what it registered; a comma after it when
 * comma. Absent without plugins, so that those runs' files are as before. */
static void json_plugins(FILE *f, bool comma)
{
    fprintf(f, "  \"plugins\": [");
    for (size_t i = 0; i < plugin_count(); i++) {
        const plugin_info *p = plugin_at(i);
        fprintf(f, "%s\n    {\"path\": ", i ? "," : "");
        json_str(f, p->path);
        fprintf(f, ", \"sha256\": \"%s\", \"registered\": [", p->sha256);
        const char *s = p->names;
        for (int n = 0; *s; n++) {
            const char *e = strstr(s, ", ");
            size_t len = e ? (size_t)(e - s) : strlen(s);
            char item[128]; /* a kind and a name, or a section and a key */
            snprintf(item, sizeof item, "%.*s", (int)len, s);
            fprintf(f, "%s", n ? ", " : "");
            json_str(f, item);
            s += len + (e ? 2 : 0);
        }
        fprintf(f, "]}");
    }
    fprintf(f, "\n  ]%s\n", comma ? "," : "");
}

void out_metrics_json(FILE *f, const run_metrics *m, const config *c, const char *trace)
{
    out_cut cut[3];
    bool cuts = out_cuts(m, c, cut) > 0; /* "truncated" follows the table */
    bool plugins = plugin_count() > 0;   /* and "plugins" before it */
    fprintf(f, "{\n");
    for (size_t i = 0; i < out_nfields; i++) {
        const out_field *d = &out_fields[i];
        bool comma = i + 1 < out_nfields || cuts || plugins;
        if ((d->flags & OUT_NETRAM) && !m->netram)
            continue;
        if ((d->flags & OUT_TREE) && !m->tree)
            continue;
        if ((d->flags & OUT_RDMA) && !m->rdma)
            continue;
        if ((d->flags & OUT_RECLAIM) && !m->reclaim)
            continue;
        if ((d->flags & OUT_EXCL) && !m->exclusive)
            continue;
        if ((d->flags & OUT_ALLOC) && !m->alloc_racks)
            continue;
        if ((d->flags & OUT_KILL) && !m->time_kill)
            continue;
        if ((d->flags & OUT_PLACE) && !m->alloc_set)
            continue;
        if ((d->flags & OUT_STRAT) && !m->pnr_strategy_msgs)
            continue;
        if ((d->flags & OUT_LOOP) && !m->loop_chunks)
            continue;
        if ((d->flags & OUT_LIMITS) && !m->limits)
            continue;
        if (!(d->flags & OUT_PER_KIND)) {
            json_member(f, d, d->key, 0, m, c, trace, comma);
            continue;
        }
        /* A group of per-kind rows: kind by kind, each row of the group. */
        size_t end = i;
        while (end < out_nfields && (out_fields[end].flags & OUT_PER_KIND))
            end++;
        char key[64];
        for (int k = 0; k < PNR_NKINDS; k++)
            for (size_t j = i; j < end; j++) {
                snprintf(key, sizeof key, "%s_%s", out_fields[j].key,
                         pnr_kind_name(PNR_MSG_REQUEST + k));
                json_member(f, &out_fields[j], key, k, m, c, trace, end < out_nfields);
            }
        i = end - 1;
    }
    if (plugins)
        json_plugins(f, cuts);
    out_truncations(f, m, c, true);
    fprintf(f, "}\n");
}

void out_metrics_table(FILE *f, const run_metrics *m, char sep)
{
    bool first = true;
    for (size_t i = 0; i < out_nfields; i++) {
        if (!(out_fields[i].flags & OUT_METRIC))
            continue;
        if (!first)
            fputc(sep, f);
        first = false;
        fputs(out_fields[i].key, f);
    }
    fputc('\n', f);
    first = true;
    for (size_t i = 0; i < out_nfields; i++) {
        const out_field *d = &out_fields[i];
        if (!(d->flags & OUT_METRIC))
            continue;
        if (!first)
            fputc(sep, f);
        first = false;
        double v = out_num(d, m, 0);
        if (isfinite(v))
            fprintf(f, "%.15g", v);
        else
            fputs("n/a", f);
    }
    fputc('\n', f);
}
