/* study/types.h: the study model's types, and nothing else (no .c).
 *
 * What a loaded study holds (see study/study.h for what a study is and how
 * its points and runs are numbered): its varied parameters, baselines,
 * plots, [set] and [slurm] lines. Every file of study/ that handles a
 * study includes this header for the types alone, so that the files below
 * the reader (study/points.c, study/fingerprint.c, the parser's parts)
 * need not include study/study.h, the header of the reader above them.
 */
#ifndef PNRSIM_STUDY_TYPES_H
#define PNRSIM_STUDY_TYPES_H

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
    char **plugins;      /* the study file's [plugins] load: absolute paths
                            (relative ones taken from the study file's
                            directory), in order; every run gets
                            --plugin PATH for each (issue 34) */
    size_t nplugins;
    long plugins_line;   /* of [plugins] load (0 when not given) */
    char **plugin_sums;  /* "FILE.so SHA256" of every plugin loaded (the
                            study file's and the base's), in load order,
                            for the fingerprint */
    size_t nplugin_sums;
    size_t npoints;      /* product of the value counts (1 with no [vary]) */
    size_t nruns;        /* npoints * nrep */
} study;

#endif
