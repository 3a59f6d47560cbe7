/* study/study.h: a study: what pnrsim-sweep runs.
 *
 * A study is read from an INI file (format in study/study.c and
 * docs/STUDIES.md): a base configuration, an optional trace, the parameters
 * to vary with their values, a number of replications (seeds), fixed
 * overrides, baselines, the metrics of interest, plots and Slurm options.
 * Its cross product is a list of parameter points; each point is run once
 * per seed. A baseline is one more value of a varied key (after its plain
 * values) that stands for a set of overrides.
 *
 * Points are numbered in the order of the cross product, the first [vary]
 * key outermost and each key's values in the order written; runs are
 * numbered (point * W + window) * replications + replication, W being the
 * number of trace windows ([study] windows, 1 when the trace is not
 * sliced). Every output of the sweep
 * (results.csv, summary.csv, job lists) follows this order, so it does not
 * depend on which run finished first.
 *
 * Implemented by study/study.c (reading, with study/values.c and
 * study/resolve.c), study/points.c (runs by number) and
 * study/fingerprint.c (point directory names, the fingerprint).
 */
#ifndef PNRSIM_STUDY_STUDY_H
#define PNRSIM_STUDY_STUDY_H

#include <stdbool.h>
#include <stddef.h>

#define STUDY_ERR_MAX 1024

/* One key = value line, remembered with its line for messages. */
typedef struct study_kv {
    char *key;
    char *value;
    long line;
} study_kv;

/* One varied parameter: a pnrsim "section.key" and its values (expanded
 * from lists and ranges, in order, without duplicates), followed by the
 * names of the baselines that extend it. baseline[v] is the index in
 * study.baselines of value v, or -1 for a plain value (baseline is NULL
 * when the parameter has no baseline). */
typedef struct study_param {
    char *key;
    char **values;
    size_t nvalues;
    long *baseline;
    long line;
} study_param;

/* A [baseline NAME]: a set of overrides that stands for one more value of
 * a varied key (its `lines` key, e.g. netram.strategy), named NAME, crossed
 * with the other varied keys. A run at that value does not set the key;
 * it gets the overrides instead (which win over [set]). */
typedef struct study_baseline {
    char *name;        /* [A-Za-z0-9._-]; the value shown in the CSV files */
    char *key;         /* the varied key it extends */
    study_kv *set;     /* the overrides, in file order */
    size_t nset;
    long line;         /* of the section header */
} study_baseline;

/* One plot: metric against x, one line per value of lines (or a single
 * line when lines is NULL); every other varied parameter is pinned to one
 * of its values (pin[i] is a value index, for parameter i; -1 for x and
 * lines). */
typedef struct study_plot {
    char *name;        /* file name stem, unique within the study */
    char *x;           /* a varied key */
    char *lines;       /* a varied key or NULL */
    char *metric;
    char *title, *xlabel, *ylabel; /* NULL = derived */
    bool logx, logy;
    long *pin;         /* nvary entries */
    long line;
} study_plot;

typedef struct study {
    char *path;          /* the study file as given */
    char *dir;           /* absolute directory of the study file */
    char *name;          /* [study] name, default the file name stem */
    char *base;          /* absolute path of the base configuration */
    char *trace;         /* absolute path of the trace, or NULL */
    long base_line;      /* lines of base and trace in the study file */
    long trace_line;
    long replications;   /* >= 1 */
    long seed_base;      /* seeds are seed_base .. seed_base+reps-1, all in
                            1 .. INT32_MAX */
    long windows;        /* [study] windows: trace windows per point
                            (workload.window 0 .. windows-1); 0 = the
                            trace is not sliced */
    size_t nrep;         /* runs per point: max(windows, 1) * replications */
    long windows_line;   /* of [study] windows (0 when not given) */
    char **metrics;      /* metrics of interest; nmetrics = 0: all numeric */
    size_t nmetrics;
    study_param *vary;
    size_t nvary;
    study_kv *set;       /* fixed overrides, in file order */
    size_t nset;
    study_baseline *baselines; /* in file order; their values come after */
    size_t nbaselines;         /* the plain ones of their key */
    study_plot *plots;
    size_t nplots;
    study_kv *slurm;     /* [slurm] options, in file order */
    size_t nslurm;
    size_t npoints;      /* product of the value counts (1 with no [vary]) */
    size_t nruns;        /* npoints * nrep */
} study;

/* Read the study file at path into s (which is overwritten). Returns 0, or
 * -1 with a one-line message "FILE:LINE: KEY: problem" in err (s is then
 * empty and need not be freed, though study_free is harmless). */
int study_load(study *s, const char *path, char err[STUDY_ERR_MAX]);

/* Release everything s holds and zero it. */
void study_free(study *s);

/* The value index of parameter param at point (0 <= point < npoints). */
size_t study_value_index(const study *s, size_t point, size_t param);

/* The value of parameter param at point (a baseline's NAME for a
 * baseline value). */
const char *study_value(const study *s, size_t point, size_t param);

/* The baseline that is the value of parameter param at point, or NULL when
 * that value is a plain one. */
const study_baseline *study_value_baseline(const study *s, size_t point,
                                           size_t param);

/* The point that has value index idx[i] for each parameter i. */
size_t study_point_of(const study *s, const size_t *idx);

/* The seed of replication rep (0-based). */
long study_seed(const study *s, size_t rep);

/* Run r of the study: its point (r / nrep), its trace window (0 ..
 * windows-1, or -1 when the study has no windows) and its seed. Runs are
 * ordered by point, then window, then seed. */
size_t study_run_point(const study *s, size_t run);
long study_run_window(const study *s, size_t run);
long study_run_seed(const study *s, size_t run);

/* Index of the varied parameter named key, or -1. */
long study_param_index(const study *s, const char *key);

/* Directory name of a point below runs/: "key=value,key=value" with every
 * byte outside [A-Za-z0-9._+-] written as %XX, a baseline value as @NAME
 * ("base" with no [vary]; a hash when the name would be too long). Newly
 * allocated. */
char *study_point_dirname(const study *s, size_t point);

/* A text that changes whenever anything that affects the outcome of a run
 * changes, except the values of the varied parameters, the seeds and the
 * number of replications (which name the run directories): the base
 * configuration's content, the trace, the [set] overrides and the names of
 * the varied keys, then one line per baseline, "baseline NAME: KEY; k = v;
 * ..." (study_fingerprint_merge compares those by name, so that baselines
 * can be added to a study like values). Newly allocated; NULL when the base
 * cannot be read. */
char *study_fingerprint(const study *s);

/* Compare the fingerprint recorded in a directory (old) with a study's
 * (cur): compatible when the lines other than baselines are the same and no
 * baseline of cur is recorded in old with other settings. Returns true when
 * compatible; *merged then receives (newly allocated) the fingerprint to
 * record: cur plus the baselines recorded in old that cur lacks (so a
 * baseline that is removed and later brought back with other settings is
 * still caught). When not compatible, *merged is NULL and, when the cause
 * is a baseline, *why receives its name (newly allocated; else NULL). */
bool study_fingerprint_merge(const char *old, const char *cur, char **merged,
                             char **why);

#endif
