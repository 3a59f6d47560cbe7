/* app/output.h: the metrics in text, JSON and CSV (result files:
 * app/resultset.h).
 */
#ifndef PNRSIM_APP_OUTPUT_H
#define PNRSIM_APP_OUTPUT_H

#include "app/config.h"
#include "app/run.h"

#include <stdbool.h>
#include <stdio.h>

/* The 19 metrics of techreport §2.2.2 for people, with units. */
void out_metrics_text(FILE *f, const run_metrics *m, const config *c, const char *trace);
/* metrics.json: the metrics plus seed, trace, drop counts, partial flag. */
void out_metrics_json(FILE *f, const run_metrics *m, const config *c, const char *trace);
/* metrics.dat / --format csv: a header line and one line of values,
 * separated by sep (' ' or ','). */
void out_metrics_table(FILE *f, const run_metrics *m, char sep);

#endif
