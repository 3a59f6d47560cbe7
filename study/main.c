/* study/main.c: the pnrsim-sweep command line.
 *
 *   pnrsim-sweep [OPTIONS] STUDY.ini           run the study (resuming)
 *   pnrsim-sweep collect [OPTIONS] STUDY.ini   results from the run dirs
 *   pnrsim-sweep --emit-joblist FILE STUDY.ini job list for GNU parallel
 *   pnrsim-sweep --emit-slurm FILE STUDY.ini   Slurm job-array script
 *   pnrsim-sweep --list STUDY.ini              runs and their state
 *   pnrsim-sweep --selftest-summary            check the statistics
 *
 * Every mode takes --set study.KEY=N (replications, windows, seed_base)
 * and --only KEY=VALUE[,VALUE...] (study/cut.c): the study as loaded is
 * cut down (or widened) in memory, its file neither copied nor changed.
 *
 * Exit status: 0 when every run of the study succeeded (or the emit/list
 * step worked), 1 when some run failed (collect: or is still missing) or a
 * metric of the metrics list or of a [plot] is in no finished run, 2
 * for a bad command line or study file (message "FILE:LINE: KEY: ..."), a
 * missing pnrsim or an output directory holding another study's runs, 130
 * when interrupted by SIGINT/SIGTERM (finished runs are kept; running the
 * same command again resumes).
 *
 * The pnrsim binary is, unless --pnrsim says otherwise, the `pnrsim` in
 * the directory of this executable (/proc/self/exe), so build/pnrsim-sweep
 * runs build/pnrsim.
 */
#include "app/output.h"
#include "app/version.h"
#include "study/cut.h"
#include "study/study.h"
#include "study/sweep.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXIT_SOME_FAILED 1
#define EXIT_BAD_INPUT 2
#define EXIT_INTERRUPTED 130

static void usage(FILE *f)
{
    fputs(
        "usage: pnrsim-sweep [OPTIONS] STUDY.ini          run the study "
        "(skipping finished runs)\n"
        "       pnrsim-sweep collect [OPTIONS] STUDY.ini  build results.csv "
        "and summary.csv\n"
        "                                                 from the run "
        "directories\n"
        "options:\n"
        "  -j, --jobs N            pnrsim processes at once (default: the "
        "number of cores)\n"
        "  -o, --out DIR           output directory (default: "
        "out/studies/NAME)\n"
        "      --pnrsim PATH       the pnrsim program (default: pnrsim "
        "beside pnrsim-sweep)\n"
        "      --emit-joblist FILE write one shell command per pending run "
        "(for GNU parallel)\n"
        "      --emit-slurm FILE   write a Slurm job-array script (and "
        "FILE.jobs)\n"
        "      --all               emit every run, not only the pending "
        "ones\n"
        "      --collect           same as the collect subcommand\n"
        "      --list              print every run with its state and exit\n"
        "      --no-plots          do not make the [plot]s\n"
        "      --force             accept an output directory made with "
        "other settings\n"
        "      --set study.KEY=N   replace [study] replications, windows or "
        "seed_base\n"
        "      --only KEY=V[,V...] run only these values of a [vary] key "
        "(repeatable;\n"
        "                          a baseline by its name)\n"
        "  -q, --quiet             no progress line and no final report\n"
        "      --progress-interval S  not on a terminal: a progress line every S\n"
        "                          seconds (default 60; 0 = none); on a terminal\n"
        "                          one line is rewritten in place\n"
        "      --selftest-summary  check mean/SD/CI against hand-computed "
        "values\n"
        "  -h, --help              this text\n"
        "  -V, --version           print the version\n"
        "exit status: 0 all runs succeeded, 1 some failed (or a metric is in "
        "no run), 2 bad\ninput, 130 interrupted\n",
        f);
}

/* The pnrsim beside this executable, or "pnrsim" (looked up on PATH). */
static char *default_pnrsim(const char *argv0)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = '\0';
        char *dir = sweep_dirname(self);
        char *p = xasprintf("%s/pnrsim", dir);
        free(dir);
        return p;
    }
    if (strchr(argv0, '/')) {
        char *dir = sweep_dirname(argv0);
        char *p = xasprintf("%s/pnrsim", dir);
        char *abs = sweep_abspath(p, NULL);
        free(p);
        free(dir);
        return abs;
    }
    return xstrdup("pnrsim");
}

/* True when prog can be executed (a path, or a name on PATH). */
static bool executable(const char *prog)
{
    if (strchr(prog, '/'))
        return access(prog, X_OK) == 0 && sweep_is_file(prog);
    const char *path = getenv("PATH");
    char *copy = xstrdup(path ? path : "/usr/bin:/bin");
    bool found = false;
    char *save = NULL;
    for (char *d = strtok_r(copy, ":", &save); d && !found;
         d = strtok_r(NULL, ":", &save)) {
        char *f = xasprintf("%s/%s", *d ? d : ".", prog);
        found = access(f, X_OK) == 0 && sweep_is_file(f);
        free(f);
    }
    free(copy);
    return found;
}

typedef struct options {
    const char *study;
    const char *out;
    const char *pnrsim;
    const char *joblist;
    const char *slurm;
    long jobs;
    double progress_interval; /* s between progress lines off a terminal */
    bool collect, list, all, no_plots, force, quiet, selftest;
    study_cut cut;           /* --set study.KEY=N, --only KEY=V,... */
} options;

enum { OPT_PNRSIM = 256, OPT_JOBLIST, OPT_SLURM, OPT_ALL, OPT_COLLECT, OPT_LIST,
       OPT_NO_PLOTS, OPT_FORCE, OPT_SELFTEST, OPT_PROGRESS, OPT_SET, OPT_ONLY };

static const struct option longopts[] = {
    {"jobs", required_argument, 0, 'j'},
    {"out", required_argument, 0, 'o'},
    {"pnrsim", required_argument, 0, OPT_PNRSIM},
    {"emit-joblist", required_argument, 0, OPT_JOBLIST},
    {"emit-slurm", required_argument, 0, OPT_SLURM},
    {"all", no_argument, 0, OPT_ALL},
    {"collect", no_argument, 0, OPT_COLLECT},
    {"list", no_argument, 0, OPT_LIST},
    {"no-plots", no_argument, 0, OPT_NO_PLOTS},
    {"force", no_argument, 0, OPT_FORCE},
    {"quiet", no_argument, 0, 'q'},
    {"progress-interval", required_argument, 0, OPT_PROGRESS},
    {"set", required_argument, 0, OPT_SET},
    {"only", required_argument, 0, OPT_ONLY},
    {"selftest-summary", no_argument, 0, OPT_SELFTEST},
    {"help", no_argument, 0, 'h'},
    {"version", no_argument, 0, 'V'},
    {0, 0, 0, 0}};

/* The option at argv[word] that getopt_long refused (unknown, ambiguous, a
 * value it does not take, or a missing value: ch ':'), in words. */
static void bad_option(char **argv, int word, int ch)
{
    const char *a = argv[word];
    if (strncmp(a, "--", 2) != 0) {
        if (ch == ':')
            fprintf(stderr, "pnrsim-sweep: option -%c needs a value (see --help)\n", optopt);
        else
            fprintf(stderr, "pnrsim-sweep: unknown option -%c (see --help)\n", optopt);
        return;
    }
    const char *name = a + 2, *eq = strchr(name, '=');
    size_t n = eq ? (size_t)(eq - name) : strlen(name);
    if (ch == ':') {
        fprintf(stderr, "pnrsim-sweep: option --%.*s needs a value (see --help)\n", (int)n,
                name);
        return;
    }
    int prefixed = 0;
    bool exact = false;
    for (const struct option *lo = longopts; lo->name; lo++)
        if (strncmp(lo->name, name, n) == 0) {
            prefixed++;
            exact |= strlen(lo->name) == n;
        }
    if (exact || (eq && prefixed == 1))
        fprintf(stderr, "pnrsim-sweep: option --%.*s takes no value (see --help)\n", (int)n,
                name);
    else if (prefixed > 1)
        fprintf(stderr, "pnrsim-sweep: ambiguous option --%.*s (see --help)\n", (int)n, name);
    else
        fprintf(stderr, "pnrsim-sweep: unknown option --%.*s (see --help)\n", (int)n, name);
}

/* Parse the command line into o (getopt_long: -j1, -j 1, --jobs=1 and
 * --jobs 1 alike; options and operands in any order; "collect" among the
 * operands is the subcommand). 0, 1 for --help or --version (printed), or
 * -1 (reported). */
static int parse_args(int argc, char **argv, options *o)
{
    o->progress_interval = 60;
    const char **operands = calloc((size_t)argc + 1, sizeof *operands);
    o->cut.set = calloc((size_t)argc + 1, sizeof *o->cut.set);
    o->cut.only = calloc((size_t)argc + 1, sizeof *o->cut.only);
    if (!operands || !o->cut.set || !o->cut.only)
        abort();
    int nops = 0, rc = 0;
    /* "+": getopt_long stops at each operand, which is taken here and the
     * parse goes on after it, so that argv[word] is always the option word
     * being read (to name it in messages); after "--" everything is an
     * operand. */
    opterr = 0;
    for (;;) {
        int word = optind;
        int ch = getopt_long(argc, argv, "+:j:o:qhV", longopts, NULL);
        if (ch == -1) {
            if (optind > word && strcmp(argv[optind - 1], "--") == 0) {
                while (optind < argc)
                    operands[nops++] = argv[optind++];
                break;
            }
            if (optind >= argc)
                break;
            operands[nops++] = argv[optind++];
            continue;
        }
        const char *opt = word < argc ? argv[word] : "";
        switch (ch) {
        case 'j': {
            char *end;
            errno = 0;
            o->jobs = strtol(optarg, &end, 10);
            if (end == optarg || *end || errno || o->jobs < 1 || o->jobs > 4096) {
                fprintf(stderr, "pnrsim-sweep: %s %s: need an integer from 1 to 4096\n",
                        strncmp(opt, "--", 2) == 0 ? "--jobs" : "-j", optarg);
                rc = -1;
            }
            break;
        }
        case OPT_PROGRESS: {
            char *end;
            errno = 0;
            o->progress_interval = strtod(optarg, &end);
            if (end == optarg || *end || errno || !(o->progress_interval == 0 ||
                (o->progress_interval >= 1e-3 && o->progress_interval <= 1e6))) {
                fprintf(stderr, "pnrsim-sweep: --progress-interval %s: need seconds, 0 "
                                "(none) or from 0.001 to 1e6\n", optarg);
                rc = -1;
            }
            break;
        }
        case OPT_SET: o->cut.set[o->cut.nset++] = optarg; break;
        case OPT_ONLY: o->cut.only[o->cut.nonly++] = optarg; break;
        case 'o': o->out = optarg; break;
        case OPT_PNRSIM: o->pnrsim = optarg; break;
        case OPT_JOBLIST: o->joblist = optarg; break;
        case OPT_SLURM: o->slurm = optarg; break;
        case OPT_ALL: o->all = true; break;
        case OPT_COLLECT: o->collect = true; break;
        case OPT_LIST: o->list = true; break;
        case OPT_NO_PLOTS: o->no_plots = true; break;
        case OPT_FORCE: o->force = true; break;
        case 'q': o->quiet = true; break;
        case OPT_SELFTEST: o->selftest = true; break;
        case 'h': usage(stdout); rc = 1; break;
        case 'V': printf("pnrsim-sweep %s\n", pnrsim_version()); rc = 1; break;
        default: bad_option(argv, word, ch); rc = -1; break;
        }
        if (rc != 0)
            break;
    }
    for (int i = 0; i < nops && rc == 0; i++) {
        const char *a = operands[i];
        if (!strcmp(a, "collect")) {
            o->collect = true;
        } else if (o->study) {
            fprintf(stderr, "pnrsim-sweep: more than one study file (%s, "
                            "%s)\n", o->study, a);
            rc = -1;
        } else {
            o->study = a;
        }
    }
    free(operands);
    if (rc != 0)
        return rc;
    if (o->selftest)
        return 0;
    if (!o->study) {
        fputs("pnrsim-sweep: no study file (see --help)\n", stderr);
        return -1;
    }
    int modes = o->collect + o->list + (o->joblist || o->slurm);
    if (modes > 1) {
        fputs("pnrsim-sweep: choose one of collect, --list and --emit-*\n",
              stderr);
        return -1;
    }
    return 0;
}

static const char *state_name(sweep_run_state st)
{
    return st == SWEEP_RUN_DONE ? "done" : st == SWEEP_RUN_FAILED ? "failed"
                                                                  : "missing";
}

/* Warn, before anything runs, about each metric of the [study] metrics
 * list or of a [plot] that is not a key pnrsim writes (app/output.c's
 * table): most likely a misspelt name, which would otherwise show only
 * after every run, as a metric in no run. A warning, not an error: collect
 * also reads metrics.json files written by other programs. */
static void warn_unknown_metrics(const study *s)
{
    for (size_t i = 0; i < s->nmetrics; i++)
        if (!out_is_key(s->metrics[i]))
            fprintf(stderr, "pnrsim-sweep: warning: %s: metrics: '%s' is not a metric "
                            "pnrsim writes (docs/METRICS.md lists them)\n",
                    s->path, s->metrics[i]);
    for (size_t i = 0; !s->nmetrics && i < s->nplots; i++)
        if (!out_is_key(s->plots[i].metric))
            fprintf(stderr, "pnrsim-sweep: warning: %s:%ld: metric: '%s' is not a "
                            "metric pnrsim writes (docs/METRICS.md lists them)\n",
                    s->path, s->plots[i].line, s->plots[i].metric);
}

static int do_list(const sweep_layout *L)
{
    for (size_t r = 0; r < L->s->nruns; r++) {
        char *why = NULL;
        sweep_run_state st = sweep_run_state_of(L, r, &why);
        char *label = sweep_run_label(L->s, r);
        printf("%-7s %s%s%s\n", state_name(st), label, why ? ": " : "",
               why ? why : "");
        free(label);
        free(why);
    }
    return 0;
}

static int do_collect(const sweep_layout *L, const options *o)
{
    sweep_collect_counts cc;
    if (sweep_collect(L, o->no_plots, true, stderr, &cc) != 0)
        return EXIT_SOME_FAILED;
    if (!o->quiet)
        fprintf(stderr,
                "pnrsim-sweep: %s: collected %zu of %zu runs (%zu failed, "
                "%zu missing) into %s/results.csv and summary.csv\n",
                L->s->name, cc.done, L->s->nruns, cc.failed, cc.missing,
                L->out);
    return cc.done == L->s->nruns && !cc.unknown_metrics ? 0
                                                         : EXIT_SOME_FAILED;
}

/* sweep_emit_check with the absolute names do_emit writes. */
static int emit_check(const sweep_layout *L, const options *o, const char *pnrsim,
                      char *err, size_t errlen)
{
    char *prog = strchr(pnrsim, '/') ? sweep_abspath(pnrsim, NULL) : xstrdup(pnrsim);
    char *file = sweep_abspath(o->joblist ? o->joblist : o->slurm, NULL);
    int rc = sweep_emit_check(L, prog, file, err, errlen);
    free(prog);
    free(file);
    return rc;
}

static int do_emit(const sweep_layout *L, const options *o,
                   const char *pnrsim)
{
    char err[1024];
    char *prog = strchr(pnrsim, '/') ? sweep_abspath(pnrsim, NULL)
                                     : xstrdup(pnrsim);
    if (!executable(prog))
        fprintf(stderr, "pnrsim-sweep: warning: %s is not executable here; "
                        "the job list names it anyway (--pnrsim PATH to "
                        "change)\n", prog);
    long n;
    const char *file = o->joblist ? o->joblist : o->slurm;
    if (o->joblist)
        n = sweep_emit_joblist(L, prog, o->all, o->joblist, err, sizeof err);
    else
        n = sweep_emit_slurm(L, prog, o->all, o->slurm, err, sizeof err);
    free(prog);
    if (n < 0) {
        fprintf(stderr, "pnrsim-sweep: %s\n", err);
        return EXIT_BAD_INPUT;
    }
    if (!o->quiet) {
        /* The collect to run afterwards takes the same cut. */
        sweep_buf cut = {0};
        sweep_buf_puts(&cut, "");
        for (size_t i = 0; i < o->cut.nset; i++) {
            char *q = sweep_shell_quote(o->cut.set[i]);
            sweep_buf_printf(&cut, " --set %s", q);
            free(q);
        }
        for (size_t i = 0; i < o->cut.nonly; i++) {
            char *q = sweep_shell_quote(o->cut.only[i]);
            sweep_buf_printf(&cut, " --only %s", q);
            free(q);
        }
        fprintf(stderr,
                "pnrsim-sweep: %s: wrote %s: %ld of %zu runs%s; afterwards: "
                "pnrsim-sweep collect%s %s -o %s\n",
                L->s->name, file, n, L->s->nruns,
                o->all ? "" : " (those not done)", cut.p, L->s->path, L->out);
        sweep_buf_free(&cut);
    }
    return 0;
}

static int do_run(const sweep_layout *L, const options *o, const char *pnrsim)
{
    long jobs = o->jobs;
    if (jobs <= 0) {
        jobs = sysconf(_SC_NPROCESSORS_ONLN);
        if (jobs < 1)
            jobs = 1;
    }
    sweep_run_opts ro = {pnrsim, (int)jobs, o->quiet, o->progress_interval};
    sweep_run_counts rc;
    double t0 = util_now();
    if (sweep_run(L, &ro, &rc) != 0)
        return EXIT_BAD_INPUT;
    if (rc.interrupted) {
        fprintf(stderr,
                "pnrsim-sweep: %s: interrupted: ran %zu (%zu failed), "
                "skipped %zu; finished runs are kept in %s/runs; run the same "
                "command again to resume\n",
                L->s->name, rc.ran, rc.failed, rc.skipped, L->out);
        return EXIT_INTERRUPTED;
    }
    sweep_collect_counts cc;
    int crc = sweep_collect(L, o->no_plots, false, stderr, &cc);
    if (!o->quiet)
        fprintf(stderr,
                "pnrsim-sweep: %s: ran %zu, skipped %zu, failed %zu "
                "(%zu runs, %zu done) in %.1f s; results in %s\n",
                L->s->name, rc.ran, rc.skipped, rc.failed, L->s->nruns,
                cc.done, util_now() - t0, L->out);
    if (crc != 0 || cc.unknown_metrics)
        return EXIT_SOME_FAILED;
    return cc.done == L->s->nruns ? 0 : EXIT_SOME_FAILED;
}

int main(int argc, char **argv)
{
    options o = {0};
    int pr = parse_args(argc, argv, &o);
    if (pr != 0) {
        /* --help and --version succeed only when their text got out. */
        if (pr > 0 && (fflush(stdout) != 0 || ferror(stdout))) {
            fprintf(stderr, "pnrsim-sweep: writing to standard output failed: %s\n",
                    strerror(errno));
            return EXIT_SOME_FAILED;
        }
        free(o.cut.set);
        free(o.cut.only);
        return pr > 0 ? 0 : EXIT_BAD_INPUT;
    }
    if (o.selftest) {
        free(o.cut.set);
        free(o.cut.only);
        return sweep_stats_selftest(stdout) ? EXIT_SOME_FAILED : 0;
    }

    study s;
    char err[STUDY_ERR_MAX];
    if (study_load(&s, o.study, err) != 0) {
        fprintf(stderr, "pnrsim-sweep: %s\n", err);
        free(o.cut.set);
        free(o.cut.only);
        return EXIT_BAD_INPUT;
    }
    size_t file_runs = s.nruns;
    int cr = study_cut_apply(&s, &o.cut, stderr, err, sizeof err);
    if (cr != 0) {
        fprintf(stderr, "pnrsim-sweep: %s\n", err);
        study_free(&s);
        free(o.cut.set);
        free(o.cut.only);
        return EXIT_BAD_INPUT;
    }
    study_titles(&s, stderr);
    warn_unknown_metrics(&s);
    char *out = o.out ? xstrdup(o.out)
                      : xasprintf("out/studies/%s", s.name);
    char *pnrsim = o.pnrsim ? xstrdup(o.pnrsim)
                            : default_pnrsim(argv[0]);
    sweep_layout L;
    sweep_layout_init(&L, &s, out);
    /* A cut-down study shares the full study's output directory (its runs
     * are named by values and seeds): say what results.csv will cover. */
    if (study_cut_any(&o.cut) && !o.quiet)
        fprintf(stderr, "pnrsim-sweep: %s: with --set/--only: %zu runs (the study file "
                        "has %zu); the results in %s cover these (collect without "
                        "--set/--only covers the whole study)\n",
                s.name, s.nruns, file_runs, L.out);

    int status;
    bool record = !(o.collect || o.list);
    bool running = record && !(o.joblist || o.slurm);
    if (record && sweep_check_configs(&s, err, sizeof err) != 0) {
        /* Before anything is written: a study whose runs would all fail
         * (a misspelt key, a value pnrsim refuses) creates nothing. */
        fprintf(stderr, "pnrsim-sweep: %s\n", err);
        status = EXIT_BAD_INPUT;
    } else if ((o.joblist || o.slurm) && emit_check(&L, &o, pnrsim, err, sizeof err)) {
        fprintf(stderr, "pnrsim-sweep: %s\n", err);
        status = EXIT_BAD_INPUT;
    } else if (running && !executable(pnrsim)) {
        fprintf(stderr, "pnrsim-sweep: %s: not found or not executable (use "
                        "--pnrsim PATH)\n", pnrsim);
        status = EXIT_BAD_INPUT;
    } else if (o.collect && !sweep_is_dir(L.out)) {
        fprintf(stderr, "pnrsim-sweep: %s: no such directory (the study's "
                        "output; -o DIR names another)\n", L.out);
        status = EXIT_BAD_INPUT;
    } else if (sweep_prepare_out(&L, o.force, record, err, sizeof err) != 0) {
        fprintf(stderr, "pnrsim-sweep: %s\n", err);
        status = EXIT_BAD_INPUT;
    } else if (o.list) {
        status = do_list(&L);
    } else if (o.collect) {
        status = do_collect(&L, &o);
    } else if (o.joblist || o.slurm) {
        status = do_emit(&L, &o, pnrsim);
    } else {
        status = do_run(&L, &o, pnrsim);
    }
    sweep_layout_free(&L);
    free(pnrsim);
    free(out);
    study_free(&s);
    free(o.cut.set);
    free(o.cut.only);
    return status;
}
