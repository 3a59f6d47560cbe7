/* study/html.c: OUT/index.html, the study as a page to read.
 *
 * One self-contained HTML file beside results.csv, in the order a reader
 * wants it: the study's name and run counts, the plots, the distributions
 * (dist-*.png and fairness.png of pnrsim-plot study, those that exist, with
 * a caption naming the slowdown column they used), the summary table
 * (one row per parameter point, class "point": its parameter values, the
 * number of finished runs, then per headline metric the mean and the 95%
 * confidence interval of the mean, "mean [lo, hi]", or the mean alone with
 * one run; the study's other metrics in a second table of the same form,
 * rows of class "rest", folded in <details>; every header with its unit),
 * and last the study file verbatim, folded (<details>, opened by a
 * click). Images are referenced beside the page (plots/NAME.png), only
 * those that exist, so a page never shows a broken image; no script, no
 * style sheet or font from the network. Written atomically
 * (util_write_file). The page is HTML5 that is also well-formed XML (empty
 * elements closed with " />", numeric character references), so that an
 * XML parser checks it strictly; libxml2 2.9's HTML parser (xmllint
 * --html) knows no HTML5 element and says so of <details> and <summary>.
 */
#include "study/points.h"
#include "study/sweep.h"

#include "app/config.h"
#include "app/output.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* s with &, <, >, " and ' escaped (safe in text and in quoted attributes). */
static void esc(sweep_buf *b, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': sweep_buf_puts(b, "&amp;"); break;
        case '<': sweep_buf_puts(b, "&lt;"); break;
        case '>': sweep_buf_puts(b, "&gt;"); break;
        case '"': sweep_buf_puts(b, "&quot;"); break;
        case '\'': sweep_buf_puts(b, "&#39;"); break;
        default: sweep_buf_add(b, s, 1);
        }
    }
}

static void num(sweep_buf *b, double v)
{
    if (isfinite(v))
        sweep_buf_printf(b, "%.6g", v);
    else
        sweep_buf_puts(b, "&#8211;");
}

/* ---- the summary table ------------------------------------------------ */

/* The headline metrics: shown first, the study's others folded. A study
 * shows those of these it has, in its own order; one that has none of
 * them shows all its metrics unfolded. bounded_slowdown_dedicated_mean
 * (the slowdown over the dedicated run time, docs/METRICS.md) is the
 * slowdown of the headline; bounded_slowdown_mean (over the execution as
 * run, paging and descheduled time included) is folded with the rest. */
static const char *const headline[] = {"response_time_mean", "wait_time_mean",
                                       "bounded_slowdown_dedicated_mean", "jobs_finished",
                                       "cpu_utilization"};

static bool is_headline(const char *metric)
{
    for (size_t i = 0; i < sizeof headline / sizeof headline[0]; i++)
        if (!strcmp(headline[i], metric))
            return true;
    return false;
}

/* The unit of a metric: pnrsim's table of metrics (app/output.c
 * out_fields), the table study.json's units come from; "" when it has
 * none there (counts, per-kind and flattened members). */
static const char *table_metric_unit(const char *metric)
{
    for (size_t i = 0; i < out_nfields; i++)
        if (!strcmp(out_fields[i].key, metric))
            return out_fields[i].unit;
    return "";
}

/* A header cell: the name, then " (UNIT)" when it has a unit. */
static void table_th(sweep_buf *b, const char *name, const char *unit)
{
    sweep_buf_puts(b, "<th>");
    esc(b, name);
    if (unit && unit[0]) {
        sweep_buf_puts(b, " (");
        esc(b, unit);
        sweep_buf_puts(b, ")");
    }
    sweep_buf_puts(b, "</th>");
}

/* One table: the parameter columns, n, and the metrics c of t for which
 * pick[c]; its rows of class cls. */
static void table_write(sweep_buf *b, const study *s, const sweep_table *t,
                        const size_t *done_per_point, const bool *pick, const char *cls)
{
    sweep_buf_puts(b, "<div class=\"wide\"><table>\n<tr>");
    for (size_t i = 0; i < s->nvary; i++)
        table_th(b, s->vary[i].key, config_key_unit(s->vary[i].key));
    sweep_buf_puts(b, "<th>n</th>");
    for (size_t c = 0; c < t->nmetric; c++)
        if (pick[c])
            table_th(b, t->metric[c], table_metric_unit(t->metric[c]));
    sweep_buf_puts(b, "</tr>\n");
    for (size_t p = 0; p < s->npoints; p++) {
        sweep_buf_printf(b, "<tr class=\"%s\">", cls);
        for (size_t i = 0; i < s->nvary; i++) {
            sweep_buf_puts(b, "<td class=\"p\">");
            esc(b, study_value(s, p, i));
            sweep_buf_puts(b, "</td>");
        }
        sweep_buf_printf(b, "<td>%zu</td>", done_per_point[p]);
        for (size_t c = 0; c < t->nmetric; c++) {
            if (!pick[c])
                continue;
            const sweep_stats *st = &t->st[p * t->nmetric + c];
            sweep_buf_puts(b, "<td>");
            num(b, st->mean);
            if (isfinite(st->lo) && isfinite(st->hi)) {
                sweep_buf_puts(b, " [");
                num(b, st->lo);
                sweep_buf_puts(b, ", ");
                num(b, st->hi);
                sweep_buf_puts(b, "]");
            }
            sweep_buf_puts(b, "</td>");
        }
        sweep_buf_puts(b, "</tr>\n");
    }
    sweep_buf_puts(b, "</table></div>\n");
}

/* Which bounded slowdown is which (docs/METRICS.md, "Two bounded
 * slowdowns"), said once above the tables when the study has either. */
static void slowdown_note(sweep_buf *b, const sweep_table *t)
{
    bool ded = false, run = false;
    for (size_t c = 0; c < t->nmetric; c++) {
        ded |= !strcmp(t->metric[c], "bounded_slowdown_dedicated_mean");
        run |= !strcmp(t->metric[c], "bounded_slowdown_mean");
    }
    if (!ded && !run)
        return;
    sweep_buf_puts(b, "<p class=\"slowdowns\">Bounded slowdowns (response over a time bounded "
                      "below by <code>simulation.bsld_tau</code>, 10 s by default):");
    if (ded)
        sweep_buf_puts(b, " <code>bounded_slowdown_dedicated_mean</code> divides by the job's "
                          "dedicated run time, its CPU demand alone (Feitelson's definition: "
                          "paging and gang descheduling count as slowdown);");
    if (run)
        sweep_buf_puts(b, " <code>bounded_slowdown_mean</code> (PNRSim's) divides by the "
                          "execution as run, paging and descheduled time included, so "
                          "paging can lower it;");
    sweep_buf_puts(b, " docs/METRICS.md, \"Two bounded slowdowns\".</p>\n");
}

/* The summary: the headline metrics' table (rows "point"), then the
 * others' folded (rows "rest"); all metrics in one table when the study
 * has no headline metric or nothing but. */
static void summary_tables(sweep_buf *b, const study *s, const sweep_table *t,
                           const size_t *done_per_point)
{
    bool *head = xcalloc(t->nmetric + 1, sizeof *head);
    bool *rest = xcalloc(t->nmetric + 1, sizeof *rest);
    size_t nhead = 0;
    for (size_t c = 0; c < t->nmetric; c++)
        nhead += head[c] = is_headline(t->metric[c]);
    if (nhead == 0)
        for (size_t c = 0; c < t->nmetric; c++)
            head[c] = true;
    size_t nrest = 0;
    for (size_t c = 0; c < t->nmetric; c++)
        nrest += rest[c] = !head[c];
    sweep_buf_puts(b, "<h2>Summary</h2>\n<p>Per parameter point: the number of finished runs "
                      "<i>n</i> and, per metric, the mean over the runs with the 95% confidence "
                      "interval of the mean in brackets (Student's <i>t</i>; none with one "
                      "run); units in the headers (s = simulated seconds, MB = 2<sup>20</sup> "
                      "bytes; none: a count or a ratio).");
    if (nrest)
        sweep_buf_printf(b, " The headline metrics first; the study's %zu other%s below, "
                            "folded.", nrest, nrest == 1 ? "" : "s");
    sweep_buf_puts(b, "</p>\n");
    slowdown_note(b, t);
    table_write(b, s, t, done_per_point, head, "point");
    if (nrest) {
        sweep_buf_printf(b, "<details class=\"rest\">\n<summary>The other %zu metric%s "
                            "(click to show)</summary>\n", nrest, nrest == 1 ? "" : "s");
        table_write(b, s, t, done_per_point, rest, "rest");
        sweep_buf_puts(b, "</details>\n");
    }
    free(head);
    free(rest);
}

/* The slowdown column the distribution figures used: the first field of
 * plots/dist-slowdown.csv's first data row ("column"), or NULL. */
static char *dist_slowdown_column(const sweep_layout *L)
{
    char *path = xasprintf("%s/plots/dist-slowdown.csv", L->out);
    char *text = util_read_file(path, 0, NULL, NULL);
    free(path);
    if (!text)
        return NULL;
    char *row = strchr(text, '\n');
    char *out = NULL;
    if (row && !strncmp(text, "column,", 7)) {
        row++;
        size_t n = strcspn(row, ",\n");
        if (n > 0 && n < 64)
            out = xasprintf("%.*s", (int)n, row);
    }
    free(text);
    return out;
}

/* The distribution figures (study_dist.py: dist-wait, dist-response,
 * dist-slowdown, fairness), those that exist, with their caption; nothing
 * when none exists. */
static void html_dists(sweep_buf *b, const sweep_layout *L)
{
    static const char *const names[] = {"dist-wait", "dist-response", "dist-slowdown",
                                        "fairness"};
    static const char *const alts[] = {
        "per-job wait per parameter point (box plots)",
        "per-job response per parameter point (box plots)",
        "per-job bounded slowdown per parameter point (box plots)",
        "bounded slowdown per job-size class (median and quartiles)"};
    bool have[4];
    size_t n = 0;
    for (size_t i = 0; i < 4; i++) {
        char *png = xasprintf("%s/plots/%s.png", L->out, names[i]);
        have[i] = sweep_is_file(png);
        free(png);
        n += have[i];
    }
    if (!n)
        return;
    char *col = dist_slowdown_column(L);
    sweep_buf_puts(b, "<h2>Distributions</h2>\n<p>Per parameter point, the distribution of "
                      "the per-job figures over all finished runs of the point (each run's "
                      "jobs.csv; <b>completed jobs only</b>, state <code>finished</code>): one "
                      "box per point, the quartiles, the median as a line, whiskers at the "
                      "5th and 95th percentiles, the mean as a diamond. Slowdown: ");
    if (col && !strcmp(col, "bounded_slowdown_dedicated"))
        sweep_buf_puts(b, "<code>bounded_slowdown_dedicated</code>, over the job's dedicated "
                          "run time (its CPU demand alone, bounded below by "
                          "<code>simulation.bsld_tau</code>, 10 s by default)");
    else if (col)
        sweep_buf_puts(b, "<code>bounded_slowdown</code>, over the execution time as run "
                          "(paging and descheduled time included, bounded below by "
                          "<code>simulation.bsld_tau</code>, 10 s by default)");
    else
        sweep_buf_puts(b, "see the figure");
    free(col);
    sweep_buf_puts(b, ". Fairness: the slowdown per job-size class (threads 1, 2&#8211;4, "
                      "5&#8211;16, 17&#8211;64, 65&#8211;256, 257&#8211;1024, &gt;1024), "
                      "median and quartiles per point (per line at the first value of x when the "
                      "study has more than 12 points; the title says so). The numbers drawn "
                      "are in the "
                      "figures' CSV files.</p>\n");
    for (size_t i = 0; i < 4; i++) {
        if (!have[i])
            continue;
        sweep_buf_printf(b, "<div class=\"fig\"><img src=\"plots/%s.png\" alt=\"%s\" "
                            "/><br />%s (<a href=\"plots/%s.svg\">SVG</a>, "
                            "<a href=\"plots/%s.csv\">CSV</a>)</div>\n",
                         names[i], alts[i], names[i], names[i], names[i]);
    }
}

int sweep_html(const sweep_layout *L, const sweep_table *t, const size_t *done_per_point,
               const sweep_collect_counts *counts)
{
    const study *s = L->s;
    sweep_buf b = {0};
    sweep_buf_puts(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\" />\n"
                       "<title>pnrsim study ");
    esc(&b, s->name);
    sweep_buf_puts(&b, "</title>\n<style>\n"
                       "body { font-family: sans-serif; margin: 1.5em; color: #222; }\n"
                       "pre { background: #f4f4f4; padding: 0.8em; overflow-x: auto; }\n"
                       "table { border-collapse: collapse; font-size: 0.85em; }\n"
                       "th, td { border: 1px solid #bbb; padding: 0.2em 0.5em; text-align: right; "
                       "white-space: nowrap; }\n"
                       "th { background: #eee; } td.p { text-align: left; }\n"
                       ".wide { overflow-x: auto; }\n"
                       "div.fig { display: inline-block; margin: 0.5em; }\n"
                       "img { max-width: 100%; border: 1px solid #ddd; }\n"
                       "summary { cursor: pointer; }\n"
                       "</style>\n</head>\n<body>\n<h1>Study ");
    esc(&b, s->name);
    sweep_buf_printf(&b, "</h1>\n<p>%zu parameter point%s &#215; %zu run%s", s->npoints,
                     s->npoints == 1 ? "" : "s", s->nrep, s->nrep == 1 ? "" : "s");
    if (s->windows > 0)
        sweep_buf_printf(&b, " (%ld trace windows &#215; %ld seeds)", s->windows,
                         s->replications);
    else
        sweep_buf_puts(&b, " (seeds)");
    sweep_buf_printf(&b, " = %zu runs: %zu finished, %zu failed, %zu missing. Files: "
                         "<a href=\"results.csv\">results.csv</a> (one row per run), "
                         "<a href=\"summary.csv\">summary.csv</a> (one row per point), "
                         "<a href=\"study.json\">study.json</a> (the study: keys, units, "
                         "plots).</p>\n",
                     s->nruns, counts->done, counts->failed, counts->missing);

    if (s->nplots) {
        sweep_buf_puts(&b, "<h2>Plots</h2>\n");
        size_t shown = 0;
        for (size_t i = 0; i < s->nplots; i++) {
            const study_plot *pl = &s->plots[i];
            char *png = xasprintf("%s/plots/%s.png", L->out, pl->name);
            bool have = sweep_is_file(png);
            free(png);
            if (!have)
                continue;
            shown++;
            sweep_buf_puts(&b, "<div class=\"fig\"><img src=\"plots/");
            esc(&b, pl->name);
            sweep_buf_puts(&b, ".png\" alt=\"");
            esc(&b, pl->metric);
            sweep_buf_puts(&b, " against ");
            esc(&b, pl->x);
            sweep_buf_puts(&b, "\" /><br />");
            esc(&b, pl->name);
            sweep_buf_puts(&b, " (<a href=\"plots/");
            esc(&b, pl->name);
            sweep_buf_puts(&b, ".svg\">SVG</a>)</div>\n");
        }
        if (shown < s->nplots)
            sweep_buf_printf(&b, "<p>%zu of %zu plots were not drawn (--no-plots, no "
                                 "data, or pnrsim-plot, Python's pandas or "
                                 "matplotlib missing).</p>\n",
                             s->nplots - shown, s->nplots);
    }
    html_dists(&b, L);
    summary_tables(&b, s, t, done_per_point);

    sweep_buf_puts(&b, "<h2>Study file</h2>\n<details>\n<summary><code>");
    esc(&b, s->path);
    sweep_buf_puts(&b, "</code> (click to show)</summary>\n<pre>");
    size_t len = 0;
    char *text = util_read_file(s->path, 0, &len, NULL);
    if (text) {
        /* NUL bytes (rejected by the reader anyway) would cut the text. */
        for (size_t i = 0; i < len; i++)
            if (!text[i])
                text[i] = ' ';
        esc(&b, text);
        free(text);
    } else {
        sweep_buf_puts(&b, "(could not be read again)");
    }
    sweep_buf_puts(&b, "</pre>\n</details>\n");

    sweep_buf_puts(&b, "</body>\n</html>\n");

    return sweep_write_buf(L->out, "index.html", &b);
}
