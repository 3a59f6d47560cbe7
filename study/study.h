/* study/study.h: a study: what pnrsim-sweep runs.
 *
 * A study is read from an INI file (format in study/study.c and
 * docs/STUDIES.md): a base configuration, an optional trace, the parameters
 * to vary with their values, a number of replications (seeds), fixed
 * overrides, the metrics of interest, plots and Slurm options. Its cross
 * product is a list of parameter points; each point is run once per seed.
 *
 * Points are numbered in the order of the cross product, the first [vary]
 * key outermost and each key's values in the order written; runs are
 * numbered point * replications + replication. Every output of the sweep
 * (results.csv, summary.csv, job lists) follows this order, so it does not
 * depend on which run finished first.
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
 * from lists and ranges, in order, without duplicates). */
typedef struct study_param {
    char *key;
    char **values;
    size_t nvalues;
    long line;
} study_param;

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
    long replications;   /* >= 1 */
    long seed_base;      /* >= 1; seeds are seed_base .. seed_base+reps-1 */
    char **metrics;      /* metrics of interest; nmetrics = 0: all numeric */
    size_t nmetrics;
    study_param *vary;
    size_t nvary;
    study_kv *set;       /* fixed overrides, in file order */
    size_t nset;
    study_plot *plots;
    size_t nplots;
    study_kv *slurm;     /* [slurm] options, in file order */
    size_t nslurm;
    size_t npoints;      /* product of the value counts (1 with no [vary]) */
    size_t nruns;        /* npoints * replications */
} study;

/* Read the study file at path into s (which is overwritten). Returns 0, or
 * -1 with a one-line message "FILE:LINE: KEY: problem" in err (s is then
 * empty and need not be freed, though study_free is harmless). */
int study_load(study *s, const char *path, char err[STUDY_ERR_MAX]);

/* Release everything s holds and zero it. */
void study_free(study *s);

/* The value index of parameter param at point (0 <= point < npoints). */
size_t study_value_index(const study *s, size_t point, size_t param);

/* The value of parameter param at point. */
const char *study_value(const study *s, size_t point, size_t param);

/* The point that has value index idx[i] for each parameter i. */
size_t study_point_of(const study *s, const size_t *idx);

/* The seed of replication rep (0-based). */
long study_seed(const study *s, size_t rep);

/* Index of the varied parameter named key, or -1. */
long study_param_index(const study *s, const char *key);

/* Directory name of a point below runs/: "key=value,key=value" with every
 * byte outside [A-Za-z0-9._+-] written as %XX ("base" with no [vary]; a
 * hash when the name would be too long). Newly allocated. */
char *study_point_dirname(const study *s, size_t point);

/* A text that changes whenever anything that affects the outcome of a run
 * changes, except the values of the varied parameters, the seeds and the
 * number of replications (which name the run directories): the base
 * configuration's content, the trace, the [set] overrides and the names of
 * the varied keys. Newly allocated; NULL when the base cannot be read. */
char *study_fingerprint(const study *s);

#endif
