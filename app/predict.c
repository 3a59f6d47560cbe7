/* app/predict.c: `pnrsim predict` (see predict.h for the contract and
 * docs/PREDICT.md for the snapshot's format and what is assumed).
 *
 * Three steps around the ordinary run: predict_read parses the snapshot
 * (every error names the file and line), predict_trace writes it as an
 * SWF trace on the simulator's clock (t0 = 0), and after the run
 * predict_answer reads the run's jobs.csv back and writes one row per
 * queued job. The run itself is pnrsim's own, called through the callback
 * main gives, with its standard output (the metrics text) sent to
 * /dev/null: the predictions are the output.
 */
#include "app/predict.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A limit the snapshot gives as -1 or UNLIMITED: 1e9 s (31 years), far
 * beyond any queue and below the workload's WL_ESTIMATE_MAX. */
#define PREDICT_UNLIMITED 1e9
/* Queued jobs arrive this long after the running ones (s): the running
 * jobs are placed first whatever the queue order; predicted starts are
 * rounded to the millisecond, which takes it out again. */
#define PREDICT_DELTA 1e-6

typedef struct pjob {
    long id;
    int pes;
    bool running;
    double t;        /* running: start; queued: submit */
    double limit;    /* s */
    double priority; /* queued only */
    long line;
} pjob;

typedef struct snapshot {
    double now;
    int pes;
    bool have_now, have_pes;
    double resolution; /* -r: plan times rounded down to multiples; 0 = none */
    pjob *jobs;
    int n, cap;
} snapshot;

static int bad(const char *path, long line, const char *what)
{
    fprintf(stderr, "pnrsim predict: %s:%ld: %s (format: docs/PREDICT.md)\n", path, line, what);
    return 2;
}

/* A number of the snapshot: a decimal, or for a limit -1 / UNLIMITED. */
static bool num(const char *s, double *v, bool limit)
{
    if (limit && (strcmp(s, "UNLIMITED") == 0 || strcmp(s, "-1") == 0)) {
        *v = PREDICT_UNLIMITED;
        return true;
    }
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return end != s && *end == '\0' && errno == 0 && isfinite(*v);
}

/* Parse the snapshot at path into sn. 0, or 2 with a message. */
static int predict_read(const char *path, snapshot *sn)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    if (!f) {
        fprintf(stderr, "pnrsim predict: %s: cannot open: %s\n", path, strerror(errno));
        return 2;
    }
    char buf[1024];
    long line = 0;
    bool magic = false;
    int rc = 0;
    while (rc == 0 && fgets(buf, sizeof buf, f)) {
        line++;
        size_t len = strlen(buf);
        if (len == sizeof buf - 1 && buf[len - 1] != '\n') {
            rc = bad(path, line, "line longer than 1022 characters");
            break;
        }
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = '\0';
        char *w[8];
        int nw = 0;
        for (char *tok = strtok(buf, " \t\r\n"); tok; tok = strtok(NULL, " \t\r\n"))
            w[nw < 8 ? nw++ : 7] = tok;
        if (nw == 0)
            continue;
        if (!magic) {
            if (nw != 2 || strcmp(w[0], "pnrsim-snapshot") != 0 || strcmp(w[1], "1") != 0)
                rc = bad(path, line, "the first line must be \"pnrsim-snapshot 1\"");
            magic = true;
            continue;
        }
        double v[5];
        if (strcmp(w[0], "now") == 0) {
            if (nw != 2 || !num(w[1], &v[0], false))
                rc = bad(path, line, "expected \"now TIME\" (seconds)");
            else if (sn->have_now)
                rc = bad(path, line, "\"now\" given twice");
            sn->now = v[0];
            sn->have_now = true;
        } else if (strcmp(w[0], "pes") == 0) {
            if (nw != 2 || !num(w[1], &v[0], false) || v[0] < 1 || v[0] > 100000 ||
                v[0] != floor(v[0]))
                rc = bad(path, line, "expected \"pes N\", a whole number 1..100000");
            else if (sn->have_pes)
                rc = bad(path, line, "\"pes\" given twice");
            sn->pes = (int)v[0];
            sn->have_pes = true;
        } else if (strcmp(w[0], "running") == 0 || strcmp(w[0], "queued") == 0) {
            bool run = w[0][0] == 'r';
            int want = run ? 5 : 6;
            bool ok = nw == want;
            for (int k = 1; ok && k < want; k++)
                ok = num(w[k], &v[k - 1], k == 4);
            if (ok)
                ok = v[0] >= 1 && v[0] <= 1e15 && v[0] == floor(v[0]) && v[1] >= 1 &&
                     v[1] <= 1e9 && v[1] == floor(v[1]) && v[3] > 0 &&
                     (v[3] <= 1e12 || v[3] == PREDICT_UNLIMITED);
            if (!ok) {
                rc = bad(path, line, run ? "expected \"running JOB PES START LIMIT\" (JOB, PES "
                                           "whole numbers >= 1; LIMIT in (0, 1e12] s, -1 or UNLIMITED)"
                                         : "expected \"queued JOB PES SUBMIT LIMIT PRIORITY\" "
                                           "(JOB, PES whole numbers >= 1; LIMIT in (0, 1e12] s, "
                                           "-1 or UNLIMITED)");
                break;
            }
            for (int i = 0; i < sn->n; i++)
                if (sn->jobs[i].id == (long)v[0]) {
                    char msg[96];
                    snprintf(msg, sizeof msg, "job %ld given twice (line %ld)", (long)v[0],
                             sn->jobs[i].line);
                    rc = bad(path, line, msg);
                }
            if (sn->n == sn->cap) {
                sn->cap = sn->cap ? 2 * sn->cap : 64;
                sn->jobs = realloc(sn->jobs, (size_t)sn->cap * sizeof *sn->jobs);
                if (!sn->jobs)
                    abort();
            }
            sn->jobs[sn->n++] = (pjob){(long)v[0], (int)v[1], run, v[2], v[3],
                                       run ? 0 : v[4], line};
        } else {
            rc = bad(path, line, "expected now, pes, running or queued");
        }
    }
    if (rc == 0 && ferror(f)) {
        fprintf(stderr, "pnrsim predict: %s: read error: %s\n", path, strerror(errno));
        rc = 2;
    }
    if (f != stdin)
        fclose(f);
    if (rc)
        return rc;
    if (!magic)
        return bad(path, line, "empty snapshot");
    if (!sn->have_now || !sn->have_pes)
        return bad(path, line, "\"now\" and \"pes\" are both required");
    long used = 0;
    for (int i = 0; i < sn->n; i++) {
        const pjob *j = &sn->jobs[i];
        if (j->running && j->t > sn->now)
            return bad(path, j->line, "a running job starts after \"now\"");
        if (!j->running && j->t > sn->now)
            return bad(path, j->line, "a queued job is submitted after \"now\"");
        if (j->running)
            used += j->pes;
    }
    if (used > sn->pes) {
        char msg[96];
        snprintf(msg, sizeof msg, "the running jobs hold %ld PEs of %d", used, sn->pes);
        return bad(path, line, msg);
    }
    return 0;
}

/* Running jobs first (by start, then job number), then the queue: highest
 * priority first, then earliest submit, then job number. */
static int pjob_cmp(const void *a, const void *b)
{
    const pjob *x = a, *y = b;
    if (x->running != y->running)
        return x->running ? -1 : 1;
    if (!x->running && x->priority != y->priority)
        return x->priority > y->priority ? -1 : 1;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}

/* A running job's time left: its limit from its start, at least 1 s (a job
 * past its limit is about to be killed; 0 s would drop it as one without
 * CPU demand). */
static double left(const snapshot *sn, const pjob *j)
{
    double end = j->t + j->limit, R = sn->resolution;
    if (R > 0 && j->limit < PREDICT_UNLIMITED)
        end = floor(end / R) * R; /* Slurm's bf_resolution: the plan's ends rounded down */
    double r = end - sn->now;
    return r < 1 ? 1 : r;
}

/* A queued job's limit as planned: with -r R rounded down to a multiple of
 * R, at least R (Slurm rounds a reservation's start and end down to
 * bf_resolution; on that grid its length is the limit rounded down). */
static double planned(const snapshot *sn, const pjob *j)
{
    double R = sn->resolution;
    if (R <= 0 || j->limit >= PREDICT_UNLIMITED)
        return j->limit;
    double l = floor(j->limit / R) * R;
    return l < R ? R : l;
}

/* The snapshot as SWF (sorted already) at path, its jobs numbered 1..n in
 * that order (SWF's job numbers ascend; the snapshot's are Slurm's, in any
 * order). 0 or -1 with errno. */
static int predict_trace(const snapshot *sn, const char *path, const char *from)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "; Version: 2.2\n; Note: written by pnrsim predict from the snapshot %s\n"
               "; Note: t = 0 is the snapshot's now = %.17g\n; MaxProcs: %d\n",
            from, sn->now, sn->pes);
    for (int i = 0; i < sn->n; i++) {
        const pjob *j = &sn->jobs[i];
        double run = j->running ? left(sn, j) : planned(sn, j);
        /* job submit wait runtime procs cpu mem reqprocs reqtime reqmem
         * status user group app queue partition preceding think */
        fprintf(f, "%d %.15g -1 %.15g %d -1 -1 %d %.15g -1 1 -1 -1 -1 -1 -1 -1 -1\n", i + 1,
                j->running ? 0.0 : PREDICT_DELTA, run, j->pes, j->pes, run);
    }
    return fclose(f) == 0 ? 0 : -1;
}

/* The index of column name in the CSV header hdr (modified), or -1. */
static int column(char *hdr, const char *name)
{
    int k = 0;
    for (char *p = hdr; p; k++) {
        char *c = strchr(p, ',');
        size_t n = c ? (size_t)(c - p) : strcspn(p, "\r\n");
        if (n == strlen(name) && strncmp(p, name, n) == 0)
            return k;
        p = c ? c + 1 : NULL;
    }
    return -1;
}

/* Field k of a CSV row (no quoting in jobs.csv's columns), into out. */
static void field(const char *row, int k, char *out, size_t n)
{
    const char *p = row;
    for (int i = 0; i < k && p; i++) {
        p = strchr(p, ',');
        if (p)
            p++;
    }
    out[0] = '\0';
    if (!p)
        return;
    size_t len = strcspn(p, ",\r\n");
    if (len >= n)
        len = n - 1;
    memcpy(out, p, len);
    out[len] = '\0';
}

/* Seconds t rounded to the millisecond, as the shortest text. */
static void put_time(FILE *out, double t)
{
    fprintf(out, "%.15g", round(t * 1000) / 1000);
}

typedef struct pres {
    double start, end;
    char pes[256];
    bool done;
} pres;

/* The predictions from dir/jobs.csv to out. 0, or 1 with a message. */
static int predict_answer(const snapshot *sn, const char *dir, FILE *out)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/jobs.csv", dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "pnrsim predict: %s: cannot read: %s\n", path, strerror(errno));
        return 1;
    }
    pres *res = calloc((size_t)sn->n + 1, sizeof *res);
    if (!res)
        abort();
    int cj = -1, cs = -1, ce = -1, cp = -1;
    bool header = true;
    ssize_t got;
    char *line = NULL;
    size_t lcap = 0;
    while ((got = getline(&line, &lcap, f)) > 0) {
        if (line[0] == '#')
            continue;
        if (header) {
            char *h = strdup(line);
            if (!h)
                abort();
            cj = column(h, "job");
            cs = column(h, "start");
            ce = column(h, "end");
            cp = column(h, "pes");
            free(h);
            header = false;
            continue;
        }
        char v[256];
        field(line, cj, v, sizeof v);
        /* The trace numbers the jobs 1..n in the sorted order (SWF wants
         * them ascending): row k + 1 is sn->jobs[k]. */
        long k = strtol(v, NULL, 10) - 1;
        if (k < 0 || k >= sn->n || sn->jobs[k].running)
            continue;
        field(line, cs, v, sizeof v);
        if (v[0]) {
            res[k].start = strtod(v, NULL);
            field(line, ce, v, sizeof v);
            res[k].end = v[0] ? strtod(v, NULL) : NAN;
            field(line, cp, res[k].pes, sizeof res[k].pes);
            res[k].done = true;
        }
    }
    free(line);
    fclose(f);
    if (cj < 0 || cs < 0 || ce < 0 || cp < 0) {
        fprintf(stderr, "pnrsim predict: %s: no job, start, end or pes column\n", path);
        free(res);
        return 1;
    }
    fputs("job,predicted_start,predicted_end,pes,cores\n", out);
    long never = 0;
    for (int i = 0; i < sn->n; i++) {
        const pjob *j = &sn->jobs[i];
        if (j->running)
            continue;
        fprintf(out, "%ld,", j->id);
        if (res[i].done) {
            put_time(out, sn->now + res[i].start);
            fputc(',', out);
            /* The end as planned: the start plus the limit. */
            put_time(out, sn->now + res[i].start + j->limit);
            fprintf(out, ",%d,%s\n", j->pes, res[i].pes);
        } else {
            fprintf(out, ",,%d,\n", j->pes);
            never++;
        }
    }
    if (never)
        fprintf(stderr, "pnrsim predict: warning: %ld queued job%s never start%s in the "
                        "simulation (wider than the machine, or held): predicted_start empty\n",
                never, never > 1 ? "s" : "", never > 1 ? "" : "s");
    free(res);
    return 0;
}

static void usage(FILE *f, const char *prog)
{
    fprintf(f, "usage: %s predict [-o DIR] [-p FILE] [-r S] SNAPSHOT [OPTION]...\n"
               "Predict the start of every queued job of a running cluster's snapshot\n"
               "(format: docs/PREDICT.md) with the configured scheduler; CSV\n"
               "job,predicted_start,predicted_end,pes,cores to FILE (default: standard\n"
               "output). -o DIR keeps the run's results there (default: a temporary\n"
               "directory, removed). -r S: plan on a grid of S seconds, as Slurm's\n"
               "bf_resolution does (limits and running jobs' ends rounded down).\n"
               "OPTION: pnrsim's own (-c, --set, -s, --plugin),\n"
               "not -t or -o; computer.number is the snapshot's pes.\n",
            prog);
}

/* Copy file from to to (rename's fallback across file systems). 0 or -1. */
static int copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out = in ? fopen(to, "wb") : NULL;
    char buf[8192];
    size_t n;
    int rc = in && out ? 0 : -1;
    while (rc == 0 && (n = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, n, out) != n)
            rc = -1;
    if (in && ferror(in))
        rc = -1;
    if (in)
        fclose(in);
    if (out && fclose(out) != 0)
        rc = -1;
    return rc;
}

static void rm_dir(const char *dir)
{
    static const char *const names[] = {"jobs.csv", "samples.csv", "metrics.json",
                                        "metrics.dat", "config.ini", "snapshot.swf"};
    char p[4200];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        unlink(p);
    }
    rmdir(dir);
}

int predict_main(int argc, char **argv, const char *prog, predict_run_fn run)
{
    const char *outdir = NULL, *pfile = NULL;
    double resolution = 0;
    int i = 1;
    for (; i < argc; i++) {
        if ((strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "-p") == 0) && i + 1 < argc) {
            *(argv[i][1] == 'o' ? &outdir : &pfile) = argv[i + 1];
            i++;
        } else if (strcmp(argv[i], "-r") == 0 && i + 1 < argc) {
            char *end;
            resolution = strtod(argv[i + 1], &end);
            if (end == argv[i + 1] || *end || !(resolution >= 1 && resolution <= 3600)) {
                fprintf(stderr, "pnrsim predict: -r %s: expected seconds from 1 to 3600 "
                                "(Slurm's bf_resolution)\n", argv[i + 1]);
                return 2;
            }
            i++;
        } else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            usage(stdout, prog);
            return 0;
        } else
            break;
    }
    if (i >= argc || (argv[i][0] == '-' && argv[i][1] != '\0')) {
        usage(stderr, prog);
        return 2;
    }
    const char *snap_path = argv[i++];
    for (int k = i; k < argc; k++)
        if (strcmp(argv[k], "-t") == 0 || strcmp(argv[k], "-o") == 0 ||
            strncmp(argv[k], "--trace", 7) == 0 || strncmp(argv[k], "--output", 8) == 0 ||
            strncmp(argv[k], "--set=computer.number", 21) == 0 ||
            strncmp(argv[k], "--set=workload.trace", 20) == 0 ||
            (k > i && strcmp(argv[k - 1], "--set") == 0 &&
             (strncmp(argv[k], "computer.number=", 16) == 0 ||
              strncmp(argv[k], "workload.trace=", 15) == 0))) {
            fprintf(stderr, "pnrsim predict: %s: set by predict (the snapshot's trace, PEs; "
                            "-o before SNAPSHOT)\n", argv[k]);
            return 2;
        }
    snapshot sn;
    memset(&sn, 0, sizeof sn);
    sn.resolution = resolution;
    int rc = predict_read(snap_path, &sn);
    if (rc) {
        free(sn.jobs);
        return rc;
    }
    if (sn.n > 0)
        qsort(sn.jobs, (size_t)sn.n, sizeof *sn.jobs, pjob_cmp);
    const char *tmp = getenv("TMPDIR");
    char tdir[4096];
    snprintf(tdir, sizeof tdir, "%s/pnrsim-predict.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(tdir)) {
        fprintf(stderr, "pnrsim predict: %s: cannot create: %s\n", tdir, strerror(errno));
        free(sn.jobs);
        return 1;
    }
    char trace[4200];
    snprintf(trace, sizeof trace, "%s/snapshot.swf", tdir);
    if (predict_trace(&sn, trace, snap_path) != 0) {
        fprintf(stderr, "pnrsim predict: %s: cannot write: %s\n", trace, strerror(errno));
        rm_dir(tdir);
        free(sn.jobs);
        return 1;
    }
    char number[48];
    snprintf(number, sizeof number, "computer.number=%d", sn.pes);
    const char *dir = outdir ? outdir : tdir;
    int nargc = 0;
    char **nargv = calloc((size_t)argc + 12, sizeof *nargv);
    if (!nargv)
        abort();
    nargv[nargc++] = (char *)prog;
    nargv[nargc++] = "-q";
    nargv[nargc++] = "-t";
    nargv[nargc++] = trace;
    nargv[nargc++] = "--set";
    nargv[nargc++] = number;
    nargv[nargc++] = "-o";
    nargv[nargc++] = (char *)dir;
    for (int k = i; k < argc; k++)
        nargv[nargc++] = argv[k];
    /* The run's metrics text would mix with the predictions: stdout to
     * /dev/null during the run. */
    fflush(stdout);
    int saved = dup(STDOUT_FILENO), devnull = open("/dev/null", O_WRONLY);
    if (saved >= 0 && devnull >= 0)
        dup2(devnull, STDOUT_FILENO);
    if (devnull >= 0)
        close(devnull);
    rc = run(nargc, nargv);
    fflush(stdout);
    if (saved >= 0) {
        dup2(saved, STDOUT_FILENO);
        close(saved);
    }
    free(nargv);
    /* 3: no job finished (a snapshot without jobs): the answer is empty. */
    if (rc == 0 || rc == 3) {
        rc = 0;
        FILE *out = pfile ? fopen(pfile, "w") : stdout;
        if (!out) {
            fprintf(stderr, "pnrsim predict: %s: cannot write: %s\n", pfile, strerror(errno));
            rc = 1;
        } else {
            rc = predict_answer(&sn, dir, out);
            if ((pfile ? fclose(out) : fflush(out)) != 0 || (!pfile && ferror(out))) {
                fprintf(stderr, "pnrsim predict: writing the predictions failed: %s\n",
                        strerror(errno));
                rc = 1;
            }
        }
    }
    if (outdir) { /* the trace stays beside the results when they are kept */
        char kept[4200];
        snprintf(kept, sizeof kept, "%s/snapshot.swf", outdir);
        if (rename(trace, kept) != 0 && copy_file(trace, kept) != 0)
            fprintf(stderr, "pnrsim predict: warning: %s: cannot write: %s\n", kept,
                    strerror(errno));
    }
    rm_dir(tdir);
    free(sn.jobs);
    return rc;
}
