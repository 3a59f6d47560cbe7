/* app/output.h: the metrics in text, JSON and CSV (result files:
 * app/resultset.h).
 *
 * Every value pnrsim reports about a run is one row of a table (out_fields):
 * its metrics.json key, for the 19 metrics of techreport §2.2.2 a label and
 * a unit, its type and where it lives in run_metrics (an offsetof, or for
 * the system's name and the trace an accessor). The text report's numbered
 * lines, metrics.json, metrics.dat and --format csv are written by walking
 * that table, and pnrsim-sweep checks the metric names of a study against
 * it (out_is_key), so a value added to the table appears everywhere at
 * once. The order of the rows is the order of metrics.json.
 */
#ifndef PNRSIM_APP_OUTPUT_H
#define PNRSIM_APP_OUTPUT_H

#include "app/config.h"
#include "app/run_metrics.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* How a row's value is stored and written. Numbers are written as doubles
 * (%.15g in JSON and metrics.dat, %16.6f in the text report); a value that
 * is not finite is null in JSON and n/a elsewhere. */
typedef enum out_type {
    OUT_F64,      /* double */
    OUT_LONG,     /* long */
    OUT_INT,      /* int */
    OUT_U64,      /* uint64_t */
    OUT_SEED,     /* uint64_t written exactly (%llu), not as a double */
    OUT_BOOL,     /* bool: true or false */
    OUT_TEXT,     /* a string from the row's accessor, JSON-escaped */
    OUT_DROPS     /* long[WL_DROP_N]: {"reason": count, ...} */
} out_type;

/* Row flags. */
enum {
    OUT_METRIC = 1,    /* one of the 19 (text report, metrics.dat, csv) */
    OUT_NETRAM = 2,    /* in metrics.json only when network RAM is on */
    OUT_TREE = 8,      /* in metrics.json only on a tree network (racks):
                        * the others have no rack links or uplinks */
    OUT_RDMA = 16,     /* in metrics.json only with netram.transport = RDMA */
    OUT_RECLAIM = 32,  /* in metrics.json only with netram.reclaim != NONE */
    OUT_EXCL = 64,     /* in metrics.json only with node_sharing EXCLUSIVE
                        * on nodes of several cores (issue 25) */
    OUT_ALLOC = 128,   /* in metrics.json only on a tree network with a
                        * scheduler.allocation other than FIRSTFREE (issue 34) */
    OUT_STRAT = 256,   /* in metrics.json only when the strategy sent
                        * messages of its own (pnr_host_send, issue 34) */
    OUT_KILL = 512,    /* in metrics.json only with scheduler.time_limit
                        * = KILL (issue 35) */
    OUT_LIMITS = 1024, /* in metrics.json only with a per-user limit set
                        * (scheduler.max_*_per_user, issue 35) */
    OUT_PLACE = 2048,  /* in metrics.json only with scheduler.allocation
                        * set, any topology (issue 35) */
    OUT_LOOP = 4096,   /* in metrics.json only when jobs' threads took
                        * chunks (process.loop_schedule, issue 36) */
    OUT_PER_KIND = 4   /* an array over PNR message kinds: one member
                        * KEY_<kind> per kind; consecutive per-kind rows
                        * are written kind by kind */
};

typedef struct out_field {
    const char *key;     /* metrics.json member (prefix for per-kind rows) */
    const char *label;   /* the text report's line (OUT_METRIC rows) */
    const char *unit;    /* its unit, "" when none */
    out_type type;
    size_t off;          /* offsetof(run_metrics, ...) (not OUT_TEXT) */
    /* OUT_TEXT: the value, from the configuration, the metrics (their
     * provenance strings) and the trace's name */
    const char *(*text)(const config *c, const run_metrics *m, const char *trace);
    unsigned flags;
} out_field;

/* The table, in metrics.json order; out_nfields rows. */
extern const out_field out_fields[];
extern const size_t out_nfields;

/* True when key is one pnrsim writes into metrics.json, as pnrsim-sweep
 * names it: a row's key, KEY_<kind> for a per-kind row, dropped.<reason>
 * for the drop counts. */
bool out_is_key(const char *key);

/* The 19 metrics of techreport §2.2.2 for people, with units, then the
 * job counts, drops and message counts in sentences. */
void out_metrics_text(FILE *f, const run_metrics *m, const config *c, const char *trace);
/* metrics.json: every row of the table (the network RAM rows only when
 * network RAM is on). */
void out_metrics_json(FILE *f, const run_metrics *m, const config *c, const char *trace);
/* The files a cap cut (simulation.max_samples: samples.csv, pes.csv; 256 x
 * max_samples: the Paje trace's network states), one entry each: which
 * file, the cap, rows kept and rows dropped. json: the metrics.json member
 * "truncated" (an array; the member before it ends with a comma); otherwise one
 * config.ini comment line "; truncated: ..." each. Writes nothing and
 * returns 0 when nothing was cut; returns the number of entries. */
int out_truncations(FILE *f, const run_metrics *m, const config *c, bool json);
/* metrics.dat / --format csv: a header line and one line of values of the
 * 19 metrics, separated by sep (' ' or ','). */
void out_metrics_table(FILE *f, const run_metrics *m, char sep);

/* ---- CSV files: the header written from the same list as the rows ----
 *
 * A CSV file's columns are listed once, as a macro LIST(FIRST, X) that
 * applies FIRST to the first column and X to every other, each as
 * (name, how, value): how is a printf conversion ("%ld") for rows written
 * with printf, or a function char *put(char *p, value) for rows built by
 * hand. These turn such a list into the header line (a string literal),
 * a printf format and its arguments, or the statements that build a row at
 * p; so a column cannot be added to the rows and not to the header.
 *
 *   fputs(LIST(CSV_NAME1, CSV_NAME) "\n", f);
 *   fprintf(f, LIST(CSV_FMT1, CSV_FMT) "\n" LIST(CSV_ARG, CSV_ARG));
 *   LIST(CSV_PUT1, CSV_PUT)
 */
#define CSV_NAME1(name, how, value) name
#define CSV_NAME(name, how, value) "," name
#define CSV_FMT1(name, how, value) how
#define CSV_FMT(name, how, value) "," how
#define CSV_ARG(name, how, value) , value
#define CSV_PUT1(name, how, value) p = how(p, value);
#define CSV_PUT(name, how, value) *p++ = ','; p = how(p, value);

#endif
