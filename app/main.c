/* app/main.c: the pnrsim command line.
 *
 *   pnrsim [-c CONFIG]... [-t TRACE] [-s SEED] [--set SECTION.KEY=VALUE]...
 *          [-o DIR] [--format text|json|csv] [--print-config [--changed]]
 *          [--hardware-report] [--kernel-report] [-q] [-v] [-h] [-V]
 *
 * Order of precedence: defaults < configuration files (-c, in the order
 * given: each layer's keys override the earlier ones') < -t/-s < --set.
 * -t, -s and each key of --set are given once (a repeat is refused, exit 2,
 * as a key twice in one file is; issue 32 item 8). Exit status: 0 success,
 * 1 failure during the run (writing results or standard output), 2 bad
 * usage or bad input (also:
 * another pnrsim is writing into the -o directory, or a run stopped by the
 * max_event_rate or max_messages guard, nothing written), 3 the run completed but
 * no job finished (empty trace, every job dropped, ...: results written,
 * means over jobs n/a), 130/143 interrupted by SIGINT/SIGTERM (results so
 * far are written and marked partial). Result files: app/resultset.h.
 */
#include "app/components.h"
#include "app/busiest.h"
#include "app/config.h"
#include "app/config_notes.h"
#include "app/util.h"
#include "app/output.h"
#include "app/plugin.h"
#include "app/predict.h"
#include "app/plot.h"
#include "app/progress.h"
#include "app/resultset.h"
#include "app/run.h"
#include "app/version.h"
#include "core/ev.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>


/* Seconds after the first SIGINT/SIGTERM during which repeats are absorbed
 * (coreutils timeout sends SIGTERM twice at once; an impatient Ctrl-C
 * comes twice): the run stops within an event, so 3 s leaves the results
 * ample time to be written. A repeat later than that, while the run has
 * still not stopped, ends the program at once (leaving its staging
 * directory to the next run). While the results are being written
 * SIGINT/SIGTERM are blocked: only SIGKILL can lose them then. */
#define SIGNAL_GRACE 3.0

static volatile sig_atomic_t got_signal = 0;

/* The result set of the run while it is open (from rset_begin to its
 * commit or abort): a component that breaks its contract mid-run stops
 * the program with exit(2) (e.g. pnr_strategy_broken, sched/gang_alloc.c),
 * and this atexit handler then removes the staging directory and the
 * lock, so nothing is left behind as if complete. */
static rset_t *rs_live;
static rset_file **rs_files;
static int rs_nfiles;

static void rs_cleanup(void)
{
    if (!rs_live)
        return;
    for (int i = 0; i < rs_nfiles; i++)
        rset_file_abort(rs_files[i]);
    rset_abort(rs_live);
    rs_live = NULL;
}
static struct timespec first_signal;

static void on_signal(int sig)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now); /* async-signal-safe */
    if (!got_signal) {
        got_signal = sig;
        first_signal = now;
        ev_stop_flag = 1;
        return;
    }
    double since = (double)(now.tv_sec - first_signal.tv_sec) +
                   (now.tv_nsec - first_signal.tv_nsec) * 1e-9;
    if (since >= SIGNAL_GRACE) {
        signal(sig, SIG_DFL);
        raise(sig);
    }
}

/* Block (true) or unblock SIGINT and SIGTERM. */
static void block_stop_signals(bool block)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigprocmask(block ? SIG_BLOCK : SIG_UNBLOCK, &set, NULL);
}

/* The line that marks a file of partial results (CSV and metrics.dat take
 * it as a '#' comment, config.ini as a ';' comment). */
static void partial_mark(FILE *f, char comment, int sig, double t)
{
    if (f)
        fprintf(f, "%c PARTIAL results: run interrupted by %s at t=%.6g s\n", comment,
                sig == SIGINT ? "SIGINT" : "SIGTERM", t);
}

/* config.ini's leading comment lines (issue 26): the build, the command
 * line, the trace with its SHA-256 and the seed used. Control characters
 * (a newline inside an argument) are shown as '?', so that every line stays
 * a comment and `-c config.ini` still replays the run. */
static void provenance_lines(FILE *f, const run_metrics *m, const config *c)
{
    const char *what[3] = {"command: ", "trace: ", NULL};
    const char *text[2] = {m->command_line ? m->command_line : "", c->workload.trace};
    fprintf(f, "; pnrsim %s\n", pnrsim_version());
    for (int k = 0; what[k]; k++) {
        fprintf(f, "; %s", what[k]);
        for (const unsigned char *p = (const unsigned char *)text[k]; *p; p++)
            fputc(*p < 0x20 || *p == 0x7f ? '?' : *p, f);
        if (k == 1)
            fprintf(f, " sha256 %s%s", m->trace_sha256[0] ? m->trace_sha256 : "unknown",
                    m->trace_sha256_partial ? " (of the bytes read: the pipe was not read "
                                              "to its end)" : "");
        fputc('\n', f);
    }
    fprintf(f, "; seed: %llu\n", (unsigned long long)m->seed);
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: pnrsim [options]\n"
            "       pnrsim predict [-o DIR] [-p FILE] SNAPSHOT [options]  (queued jobs'\n"
            "       start times from a running cluster's snapshot: docs/PREDICT.md)\n"
            "Simulate a cluster with gang scheduling and parallel network RAM on an SWF trace.\n\n"
            "  -c, --config FILE        scenario (INI, or PNRSim's 'Name value' format;\n"
            "                           - for stdin) (alias --configfile); repeatable: later\n"
            "                           files override earlier ones key by key\n"
            "  -t, --trace FILE         SWF trace (.swf, .swf.gz, - for stdin) (alias --tracefile)\n"
            "  -s, --seed N             master random seed (0 = from the clock)\n"
            "      --set SEC.KEY=VALUE  override one configuration key (repeatable, each key\n"
            "                           once; -t and -s once too)\n"
            "  -o, --output DIR         directory for result files (default: .)\n"
            "      --format FMT         what goes to standard output: text, json or csv\n"
            "      --schedule[=gz]      also write schedule.csv, pes.csv, memory.csv and\n"
            "                           paging.csv (=gz: gzipped, *.csv.gz) (same as --set\n"
            "                           output.schedule=yes|gz)\n"
            "      --paje[=NAME]        also write the Paje trace: schedule.paje, or NAME in DIR\n"
            "                           (ending .paje, or .paje.gz: gzipped) (output.paje)\n"
            "                           Both within [output] schedule_from/schedule_to.\n"
            "      --plot               --schedule, then pnrsim-plot DIR after the run (DIR/plots/;\n"
            "                           needs Python pandas, matplotlib: checked before the run)\n"
            "      --print-config       print the effective configuration as INI and exit\n"
            "      --changed            with --print-config: only the keys that differ from\n"
            "                           the built-in defaults (with their '; from' lines)\n"
            "      --plugin FILE.so     load a plugin (repeatable; before the -c files, which\n"
            "                           may load more: [plugins] load = a.so, b.so)\n"
            "      --list-components    list every component (built in and plugins'), its\n"
            "                           kind, origin and description, and the plugins' keys\n"
            "      --hardware-report    print PEs, links, switches and routes (stderr)\n"
            "      --kernel-report      print event-kernel statistics (stderr)\n"
            "                           (alias --simpack-report)\n"
            "  -q, --quiet              no progress output (else: on a terminal a line\n"
            "                           rewritten in place; otherwise a line every\n"
            "                           [output] progress_interval s, default 60)\n"
            "  -v, --verbose            the scenario at the start and the kernel report at\n"
            "                           the end, on standard error\n"
            "  -h, --help               this help\n"
            "  -V, --version            version\n\n"
            "Exit status: 0 success, 1 failure during the run, 2 bad usage or input\n"
            "(or another pnrsim writing into DIR, or a configuration the run shows to be\n"
            "infeasible: max_event_rate or max_messages tripped, nothing written),\n"
            "3 no job finished (means n/a),\n"
            "130/143 interrupted (partial results written).\n");
}

enum { OPT_SET = 256, OPT_FORMAT, OPT_PRINT, OPT_HW, OPT_KERNEL, OPT_SCHEDULE, OPT_PLOT,
       OPT_PAJE, OPT_PLUGIN, OPT_LIST, OPT_CHANGED };

typedef struct opts {
    const char **configs; /* -c FILE, in order */
    int nconfigs;
    const char *trace;
    const char *seed;
    const char **sets;
    int nsets;
    const char *outdir;
    int format; /* 0 text, 1 json, 2 csv */
    bool print_config, changed, hw_report, kernel_report, quiet, verbose;
    const char *schedule; /* --schedule[=VALUE]: NULL, "yes" or VALUE */
    const char *paje;     /* --paje[=NAME]: NULL, "yes" or NAME */
    bool plot;            /* --plot (implies --schedule, not --paje) */
    const char **plugins; /* --plugin FILE, in order */
    int nplugins;
    bool list_components; /* --list-components */
} opts;

/* s in double quotes on f, control characters shown as '?'. */
static void print_shown(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        fputc(*p < 0x20 || *p == 0x7f ? '?' : *p, f);
    fputc('"', f);
}

/* -1 when no key is given twice by --set; else 2, said on stderr ("given
 * twice", as a key twice in one file is refused; issue 32 item 8). An
 * assignment naming no key is left to build_config's message. */
static int sets_once(const opts *o)
{
    char ki[160], kj[160];
    for (int i = 1; i < o->nsets; i++) {
        if (config_assignment_key(o->sets[i], ki, sizeof ki) != 0)
            continue;
        for (int j = 0; j < i; j++) {
            if (config_assignment_key(o->sets[j], kj, sizeof kj) != 0 || strcmp(ki, kj))
                continue;
            fprintf(stderr, "pnrsim: --set ");
            print_shown(stderr, o->sets[i]);
            fprintf(stderr, ": %s given twice (first --set ", ki);
            print_shown(stderr, o->sets[j]);
            fprintf(stderr, "): give each key once\n");
            return 2;
        }
    }
    return -1;
}

static int parse_args(int argc, char **argv, opts *o)
{
    static const struct option longopts[] = {
        {"config", required_argument, 0, 'c'},    {"configfile", required_argument, 0, 'c'},
        {"trace", required_argument, 0, 't'},     {"tracefile", required_argument, 0, 't'},
        {"seed", required_argument, 0, 's'},      {"set", required_argument, 0, OPT_SET},
        {"output", required_argument, 0, 'o'},    {"format", required_argument, 0, OPT_FORMAT},
        {"print-config", no_argument, 0, OPT_PRINT},
        {"changed", no_argument, 0, OPT_CHANGED},
        {"hardware-report", no_argument, 0, OPT_HW},
        {"kernel-report", no_argument, 0, OPT_KERNEL},
        {"schedule", optional_argument, 0, OPT_SCHEDULE},
        {"paje", optional_argument, 0, OPT_PAJE},
        {"plot", no_argument, 0, OPT_PLOT},
        {"plugin", required_argument, 0, OPT_PLUGIN},
        {"list-components", no_argument, 0, OPT_LIST},
        {"simpack-report", no_argument, 0, OPT_KERNEL},
        {"quiet", no_argument, 0, 'q'},           {"verbose", no_argument, 0, 'v'},
        {"help", no_argument, 0, 'h'},            {"version", no_argument, 0, 'V'},
        {0, 0, 0, 0}};
    memset(o, 0, sizeof *o);
    o->outdir = ".";
    o->sets = calloc((size_t)argc, sizeof *o->sets);
    o->configs = calloc((size_t)argc, sizeof *o->configs);
    o->plugins = calloc((size_t)argc, sizeof *o->plugins);
    if (!o->sets || !o->configs || !o->plugins)
        abort();
    /* "+": no argument permutation (the first operand ends the options and
     * is reported); ":": missing values reported as ':'. word is the
     * argument being read, to name a bad option in messages: a long option
     * by its word, a short one (possibly inside a cluster) by its letter. */
    opterr = 0;
    for (;;) {
        int word = optind;
        int ch = getopt_long(argc, argv, "+:c:t:s:o:qvhV", longopts, NULL);
        if (ch == -1)
            break;
        bool is_long = word < argc && strncmp(argv[word], "--", 2) == 0;
        switch (ch) {
        case 'c': o->configs[o->nconfigs++] = optarg; break;
        case 't':
        case 's':
            /* Once each, as a key once in a file (issue 32 item 8). */
            if (ch == 't' ? o->trace : o->seed) {
                fprintf(stderr, "pnrsim: -%c given twice (", ch);
                print_shown(stderr, ch == 't' ? o->trace : o->seed);
                fputs(", then ", stderr);
                print_shown(stderr, optarg);
                fputs("): give it once\n", stderr);
                return 2;
            }
            *(ch == 't' ? &o->trace : &o->seed) = optarg;
            break;
        case 'o': o->outdir = optarg; break;
        case OPT_SET: o->sets[o->nsets++] = optarg; break;
        case OPT_FORMAT:
            if (strcmp(optarg, "text") == 0)
                o->format = 0;
            else if (strcmp(optarg, "json") == 0)
                o->format = 1;
            else if (strcmp(optarg, "csv") == 0)
                o->format = 2;
            else {
                fprintf(stderr, "pnrsim: --format \"%s\": expected one of text, json, csv\n", optarg);
                return 2;
            }
            break;
        case OPT_PRINT: o->print_config = true; break;
        case OPT_CHANGED: o->changed = true; break;
        case OPT_HW: o->hw_report = true; break;
        case OPT_KERNEL: o->kernel_report = true; break;
        case OPT_SCHEDULE: o->schedule = optarg ? optarg : "yes"; break;
        case OPT_PAJE: o->paje = optarg ? optarg : "yes"; break;
        case OPT_PLOT: o->plot = true; break;
        case OPT_PLUGIN: o->plugins[o->nplugins++] = optarg; break;
        case OPT_LIST: o->list_components = true; break;
        case 'q': o->quiet = true; break;
        case 'v': o->verbose = true; break;
        case 'h': usage(stdout); return 0;
        case 'V': printf("pnrsim %s\n", pnrsim_version()); return 0;
        case ':':
            if (is_long)
                fprintf(stderr, "pnrsim: option %s needs a value (see --help)\n", argv[word]);
            else
                fprintf(stderr, "pnrsim: option -%c needs a value (see --help)\n", optopt);
            return 2;
        default:
            if (is_long) {
                /* unknown, ambiguous, or given a value it does not take */
                const char *name = argv[word] + 2, *eq = strchr(name, '=');
                size_t n = eq ? (size_t)(eq - name) : strlen(name);
                int prefixed = 0;
                bool exact = false;
                for (const struct option *lo = longopts; lo->name; lo++) {
                    if (strncmp(lo->name, name, n) == 0) {
                        prefixed++;
                        exact |= strlen(lo->name) == n;
                    }
                }
                if (exact || (eq && prefixed == 1))
                    fprintf(stderr, "pnrsim: option --%.*s takes no value (see --help)\n", (int)n,
                            name);
                else if (prefixed > 1)
                    fprintf(stderr, "pnrsim: ambiguous option --%.*s (see --help)\n", (int)n, name);
                else
                    fprintf(stderr, "pnrsim: unknown option --%.*s (see --help)\n", (int)n, name);
            } else {
                fprintf(stderr, "pnrsim: unknown option -%c (see --help)\n", optopt);
            }
            return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "pnrsim: unexpected argument \"%s\" (see --help)\n", argv[optind]);
        return 2;
    }
    if (o->changed && !o->print_config) {
        fprintf(stderr, "pnrsim: --changed goes with --print-config (see --help)\n");
        return 2;
    }
    if (o->plot && !o->schedule)
        o->schedule = "yes"; /* the plots read the CSV files */
    return sets_once(o);
}

/* Build the effective configuration (app/config_build.c). 0 or 2 (message
 * printed, naming the option that gave the refused input). */
static int build_config(const opts *o, config *c)
{
    config_args a = {o->configs, (size_t)o->nconfigs, o->trace,   o->seed,
                     o->sets,    (size_t)o->nsets,    o->schedule, o->paje};
    cfg_error e;
    if (config_build(c, &a, &e) == 0) {
        /* Keys that have no effect: accepted (a sweep may vary the
         * topology with rack_size fixed), but said. */
        cfg_note notes[CFG_IGNORED_MAX];
        size_t n = config_ignored(c, notes, CFG_IGNORED_MAX);
        /* A preset's keys for features the scenario leaves off: one line
         * per preset (-v: every key with its reason). */
        if (!o->verbose)
            n = config_fold_notes(notes, n, &a);
        for (size_t i = 0; i < n && i < CFG_IGNORED_MAX; i++)
            fprintf(stderr, "pnrsim: warning: %s%s%s\n", notes[i].origin,
                    notes[i].origin[0] ? ": " : "", notes[i].what);
        if (n > CFG_IGNORED_MAX)
            fprintf(stderr, "pnrsim: warning: and %zu more keys without effect\n",
                    n - CFG_IGNORED_MAX);
        return 0;
    }
    if (e.source == CFG_SRC_TRACE || e.source == CFG_SRC_SEED) {
        fprintf(stderr, "pnrsim: %s ", e.source == CFG_SRC_TRACE ? "-t" : "-s");
        print_shown(stderr, e.source == CFG_SRC_TRACE ? o->trace : o->seed);
        fprintf(stderr, ": %s\n", e.what);
    } else {
        static char msg[CFG_MESSAGE_MAX]; /* all of it (config.h) */
        config_error_message(&e, msg, sizeof msg);
        fprintf(stderr, "pnrsim: %s\n", msg);
    }
    return 2;
}

static void kernel_report(run_t *r, const run_metrics *m)
{
    sim_t *sim = run_sim(r);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    fprintf(stderr,
            "kernel: %llu events dispatched, %llu scheduled, %llu cancelled, peak %zu pending,\n"
            "        %llu holds taken inline (the next event anyway, not dispatched),\n"
            "        %.3f s wall, %.3g events/s, peak memory %ld KB\n",
            (unsigned long long)sim->dispatched, (unsigned long long)sim->scheduled,
            (unsigned long long)sim->cancelled, sim->peak_pending,
            (unsigned long long)sim->skipped, m->wall_seconds,
            m->wall_seconds > 0 ? sim->dispatched / m->wall_seconds : 0, ru.ru_maxrss);
    /* Per unit of model work (issue 11): all events over all faults (disk
     * and remote) and over jobs finished; "-" when there are none. */
    uint64_t faults = m->page_faults_disk + m->page_faults_remote;
    fprintf(stderr, "        events per page fault ");
    if (faults)
        fprintf(stderr, "%.2f", (double)sim->dispatched / (double)faults);
    else
        fprintf(stderr, "-");
    fprintf(stderr, ", events per job ");
    if (m->jobs_finished > 0)
        fprintf(stderr, "%.1f\n", (double)sim->dispatched / (double)m->jobs_finished);
    else
        fprintf(stderr, "-\n");
}

static int run_main(int argc, char **argv)
{
    opts o;
    int rc = parse_args(argc, argv, &o);
    /* The command line as given (provenance: metrics.json, config.ini);
     * static, so it lives until the exit. */
    static char *cmdline;
    if (rc < 0)
        cmdline = util_shell_join(argc, argv);
    if (rc >= 0) {
        free(o.sets);
        free(o.configs);
        free(o.plugins);
        /* --help and --version succeed only when their text got out. */
        if (rc == 0 && (fflush(stdout) != 0 || ferror(stdout))) {
            fprintf(stderr, "pnrsim: writing to standard output failed: %s\n", strerror(errno));
            return 1;
        }
        return rc;
    }
    /* The plugins first (app/plugin.h: the order of reading). */
    for (int i = 0; i < o.nplugins && rc < 0; i++) {
        cfg_error pe;
        char from[CFG_ORIGIN_MAX];
        snprintf(from, sizeof from, "--plugin %s", o.plugins[i]);
        if (plugin_load(o.plugins[i], from, NULL, 0, &pe) != 0) {
            static char msg[CFG_MESSAGE_MAX];
            config_error_message(&pe, msg, sizeof msg);
            fprintf(stderr, "pnrsim: %s\n", msg);
            rc = 2;
        }
    }
    config c;
    if (rc < 0 && (!o.list_components || o.nconfigs > 0))
        rc = build_config(&o, &c); /* with -c, --list-components sees their [plugins] */
    free(o.sets);
    free(o.configs);
    free(o.plugins);
    if (rc > 0)
        return rc;
    if (o.list_components) {
        components_init();
        plugin_list_components(stdout);
        if (fflush(stdout) != 0 || ferror(stdout)) {
            fprintf(stderr, "pnrsim: writing to standard output failed: %s\n", strerror(errno));
            return 1;
        }
        return 0;
    }
    if (o.print_config) {
        if (!o.changed)
            config_write_ini(&c, stdout);
        else if (config_write_changed(&c, stdout) != 0) {
            fprintf(stderr, "pnrsim: out of memory\n");
            return 1;
        }
        if (fflush(stdout) != 0 || ferror(stdout)) {
            fprintf(stderr, "pnrsim: writing to standard output failed: %s\n", strerror(errno));
            return 1;
        }
        return 0;
    }
    if (!c.workload.trace[0]) {
        fprintf(stderr, "pnrsim: no trace: give -t FILE or set [workload] trace\n");
        return 2;
    }
    /* --plot: pnrsim-plot and Python's pandas are found now, not after the run. */
    char plot_path[PATH_MAX];
    if (o.plot) {
        char perr[PATH_MAX + 200];
        if (plot_find(argv[0], plot_path, sizeof plot_path, perr, sizeof perr) != 0) {
            fprintf(stderr, "pnrsim: %s\n", perr);
            return 2;
        }
    }
    /* From here on SIGINT/SIGTERM stop the run at the next event (no
     * SA_RESTART: a blocking read of the trace returns EINTR and the trace
     * ends there; no SA_RESETHAND: see SIGNAL_GRACE). */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask); /* the handler never interrupts itself */
    sigaddset(&sa.sa_mask, SIGINT);
    sigaddset(&sa.sa_mask, SIGTERM);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    /* The result set (app/resultset.h): lock, staging directory. Nothing is
     * left behind on bad input: the staging directory and directories
     * created here are removed again on every failure below. */
    char err[CFG_ERR_MAX];
    static rset_t set; /* static: rs_cleanup may run after main returns */
    if (rset_begin(&set, o.outdir, err, sizeof err) != 0) {
        fprintf(stderr, "pnrsim: %s\n", err);
        return 2;
    }
    /* All zeroed: rset_file_abort must be safe on files never opened. */
    static rset_file jobs, samples, metrics_json, metrics_dat, cfg_out;
    memset(&jobs, 0, sizeof jobs);
    memset(&samples, 0, sizeof samples);
    memset(&metrics_json, 0, sizeof metrics_json);
    memset(&metrics_dat, 0, sizeof metrics_dat);
    memset(&cfg_out, 0, sizeof cfg_out);
    /* --schedule: schedule.csv, pes.csv, memory.csv, paging.csv (.gz with
     * gz); --paje: the Paje trace (committed with the rest). */
    enum { NSCHED = 5 };
    static rset_file sched[NSCHED];
    memset(sched, 0, sizeof sched);
    static rset_file *all[] = {&cfg_out, &jobs,     &samples,  &metrics_dat,
                        &sched[0], &sched[1], &sched[2], &sched[3],
                        &sched[4], &metrics_json};
    enum { NALL = sizeof all / sizeof all[0] };
    rs_live = &set;
    rs_files = all;
    rs_nfiles = NALL;
    atexit(rs_cleanup);
    if (rset_open(&set, &jobs, "jobs.csv") != 0 ||
        rset_open(&set, &samples, "samples.csv") != 0) {
        fprintf(stderr, "pnrsim: %s: cannot write: %s\n", o.outdir, strerror(errno));
        for (int i = 0; i < NALL; i++)
            rset_file_abort(all[i]);
        rset_abort(&set);
        rs_live = NULL;
        return 2;
    }
    /* workload.busiest (issue 36): the window becomes submit_min/max. */
    double busy_load;
    if (busiest_resolve(&c, &busy_load, err) != 0) {
        fprintf(stderr, "pnrsim: %s\n", err);
        for (int i = 0; i < NALL; i++)
            rset_file_abort(all[i]);
        rset_abort(&set);
        rs_live = NULL;
        return 2;
    }
    if (busy_load > 0 && !o.quiet)
        fprintf(stderr, "pnrsim: workload.busiest: window [%.0f, %.0f] s of the trace, offered "
                "load %.4f\n", c.workload.submit_min, c.workload.submit_max, busy_load);
    run_t *r = run_create(&c, jobs.f, samples.f, err);
    const char *paje_name = config_paje_name(&c);
    if (r && (c.output.schedule || paje_name)) {
        static const char *const names[NSCHED - 1] = {"schedule.csv", "pes.csv", "memory.csv",
                                                      "paging.csv"};
        bool gz = c.output.schedule == SCHEDULE_GZ;
        for (int i = 0; i < NSCHED && r; i++) {
            char name[CFG_NAME_MAX + 8];
            if (i < NSCHED - 1 && !c.output.schedule)
                continue;
            if (i == NSCHED - 1 && !paje_name)
                continue;
            snprintf(name, sizeof name, "%s%s", i < NSCHED - 1 ? names[i] : paje_name,
                     i < NSCHED - 1 && gz ? ".gz" : "");
            size_t len = strlen(name);
            int orc = len > 3 && !strcmp(name + len - 3, ".gz") ? rset_open_gz(&set, &sched[i], name)
                                                               : rset_open(&set, &sched[i], name);
            if (orc != 0) {
                snprintf(err, sizeof err, "%s: cannot write %s: %s", o.outdir, name,
                         strerror(errno));
                run_destroy(r);
                r = NULL;
            }
        }
        if (r)
            run_set_schedule(r, &(schedule_files){sched[0].f, sched[1].f, sched[2].f,
                                                  sched[3].f, sched[4].f});
    }
    if (!r || got_signal) {
        if (!r)
            fprintf(stderr, "pnrsim: %s\n", err);
        else /* interrupted before anything was simulated: nothing to write */
            fprintf(stderr, "pnrsim: interrupted before the run started; nothing written\n");
        for (int i = 0; i < NALL; i++)
            rset_file_abort(all[i]);
        rset_abort(&set);
        rs_live = NULL;
        if (r)
            run_destroy(r);
        return r ? 128 + got_signal : 2;
    }
    run_metrics m;
    bool clock_seed = c.simulation.seed == 0;
    if (clock_seed) {
        run_metrics_get(r, &m);
        if (!o.quiet)
            fprintf(stderr, "pnrsim: seed 0: using seed %llu\n", (unsigned long long)m.seed);
        /* config.ini records the seed actually used, so it replays the run,
         * and says where it came from. */
        c.simulation.seed = m.seed;
        char from[CFG_ORIGIN_MAX];
        const char *was = config_origin(&c, "simulation.seed");
        snprintf(from, sizeof from, "the clock (seed 0%s%.60s)", was[0] ? " from " : "",
                 was);
        config_set_origin(&c, "simulation.seed", from);
    }
    /* Progress (app/progress.c): a line rewritten in place on a terminal,
     * else one every [output] progress_interval wall seconds. */
    progress_t prog;
    progress_init(&prog, stderr, isatty(STDERR_FILENO) != 0, c.output.progress_interval);
    if (o.verbose) {
        /* -v: the scenario in one paragraph, then the kernel report at the
         * end. */
        /* Every RAM group (issue 15), in PE order: "2x64 + 2x128 MB". */
        char ram[CFG_MAX_RAM_GROUPS * 32 + 8];
        int used = 0;
        if (c.computer.n_ram_groups == 0)
            used = snprintf(ram, sizeof ram, "%g", c.computer.ram);
        for (int g = 0; g < c.computer.n_ram_groups && used < (int)sizeof ram; g++)
            used += snprintf(ram + used, sizeof ram - (size_t)used, "%s%dx%g", g ? " + " : "",
                             c.computer.ram_groups[g].count, c.computer.ram_groups[g].mb);
        char servers[64] = "", racks[48] = "";
        if (c.computer.memory_servers > 0)
            snprintf(servers, sizeof servers, " and %d memory server%s of %g MB",
                     c.computer.memory_servers, c.computer.memory_servers == 1 ? "" : "s",
                     c.computer.memory_server_ram);
        if (c.network.topology == TOPO_KIND_TREE)
            snprintf(racks, sizeof racks, " (racks of %d)", c.network.rack_size);
        fprintf(stderr,
                "pnrsim: %s: %d PEs of %s MB%s, %s network%s; gang scheduler %s/%s, MPL %d, "
                "quantum %g s, PCS %g s%s%s; network RAM %s%s; trace %s; seed %llu%s\n",
                c.simulation.system, c.computer.number, ram, servers,
                config_topology_name(c.network.topology), racks,
                config_priority_name(c.scheduler.priority),
                config_packing_name(c.scheduler.packing), c.scheduler.mpl, c.scheduler.quantum,
                c.scheduler.pcs,
                c.scheduler.mem_aware == MEM_AWARE_GLOBAL  ? ", memory aware (global)"
                : c.scheduler.mem_aware == MEM_AWARE_LOCAL ? ", memory aware"
                                                           : "",
                c.scheduler.strict_order ? ", strict order" : "",
                c.netram.enabled ? config_strategy_name(c.netram.strategy) : "off",
                c.netram.enabled && c.netram.global_knowledge ? " (global knowledge)" : "",
                c.workload.trace, (unsigned long long)c.simulation.seed,
                clock_seed ? " (from the clock)" : "");
        o.kernel_report = true;
    }
    if (!o.quiet && progress_active(&prog))
        run_set_progress(r, progress_show, &prog);

    if (run_execute(r, err) != 0) {
        progress_clear(&prog);
        fprintf(stderr, "pnrsim: %s\n", err);
        for (int i = 0; i < NALL; i++)
            rset_file_abort(all[i]);
        rset_abort(&set);
        rs_live = NULL;
        run_destroy(r);
        return 2;
    }
    /* From here to the exit, SIGINT/SIGTERM wait: the results get written. */
    block_stop_signals(true);
    progress_clear(&prog);
    run_metrics_get(r, &m);
    m.partial = got_signal != 0;
    /* The names the caps' entries give (metrics.json "truncated"). */
    m.pes_file = sched[1].f ? (c.output.schedule == SCHEDULE_GZ ? "pes.csv.gz" : "pes.csv") : NULL;
    m.paje_file = sched[NSCHED - 1].f ? paje_name : NULL;
    m.command_line = cmdline;
    int hashed = run_trace_sha256(r, m.trace_sha256);
    m.trace_sha256_partial = hashed == 1;
    if (hashed < 0)
        fprintf(stderr, "pnrsim: warning: %s: cannot read the trace again for its SHA-256: %s\n",
                c.workload.trace, strerror(errno));
    const char *trace = run_trace_name(r);

    int status = 0;
    if (rset_open(&set, &metrics_json, "metrics.json") != 0 ||
        rset_open(&set, &metrics_dat, "metrics.dat") != 0 ||
        rset_open(&set, &cfg_out, "config.ini") != 0) {
        fprintf(stderr, "pnrsim: %s: cannot write: %s\n", o.outdir, strerror(errno));
        for (int i = 0; i < NALL; i++)
            rset_file_abort(all[i]);
        rset_abort(&set);
        rs_live = NULL;
        status = 1;
    } else {
        provenance_lines(cfg_out.f, &m, &c);
        out_truncations(cfg_out.f, &m, &c, false); /* comments: the file replays */
        if (m.partial) {
            /* Every file says it is partial (metrics.json by its key). */
            partial_mark(jobs.f, '#', got_signal, m.total_time);
            partial_mark(samples.f, '#', got_signal, m.total_time);
            partial_mark(cfg_out.f, ';', got_signal, m.total_time);
        }
        out_metrics_json(metrics_json.f, &m, &c, trace);
        out_metrics_table(metrics_dat.f, &m, ' ');
        if (m.partial) {
            partial_mark(metrics_dat.f, '#', got_signal, m.total_time);
            for (int i = 0; i < NSCHED; i++) /* the schedule files: '#' comments too */
                partial_mark(sched[i].f, '#', got_signal, m.total_time);
        }
        config_write_ini(&c, cfg_out.f);
        bool replacing = m.partial && rset_has_complete(o.outdir);
        /* Files never opened (no --schedule) are not part of the set. */
        int crc = rset_commit(&set, all, NALL, err, sizeof err);
        rs_live = NULL;
        if (crc != 0) {
            fprintf(stderr, "pnrsim: %s\n", err);
            status = 1;
        } else if (replacing) {
            fprintf(stderr, "pnrsim: %s: the complete results of an earlier run there were "
                            "replaced by these PARTIAL ones\n", o.outdir);
        }
    }
    FILE *res = m.partial ? stderr : stdout;
    if (o.format == 1)
        out_metrics_json(res, &m, &c, trace);
    else if (o.format == 2)
        out_metrics_table(res, &m, ',');
    else
        out_metrics_text(res, &m, &c, trace);
    if (o.hw_report)
        run_hardware_report(r, stderr);
    if (o.kernel_report)
        kernel_report(r, &m);
    if (m.samples_dropped > 0)
        fprintf(stderr, "pnrsim: warning: samples.csv reached [simulation] max_samples = %ld "
                        "rows at t=%.6g s; %ld later rows were not written (raise "
                        "metrics_period or max_samples; 0 = no cap)\n",
                c.simulation.max_samples, m.samples_capped_at, m.samples_dropped);
    if (m.pes_samples_dropped > 0)
        fprintf(stderr, "pnrsim: warning: pes.csv reached [simulation] max_samples = %ld "
                        "samples at t=%.6g s; %ld later samples were not written (raise "
                        "metrics_period or max_samples; 0 = no cap)\n",
                c.simulation.max_samples, m.pes_capped_at, m.pes_samples_dropped);
    if (m.paje_net_dropped > 0)
        fprintf(stderr, "pnrsim: warning: %s reached 256 x [simulation] max_samples "
                        "= %ld network states at t=%.6g s; %ld later link and switch states "
                        "were not written (raise max_samples, 0 = no cap, or set [output] "
                        "schedule_network = no)\n",
                paje_name, 256 * c.simulation.max_samples, m.paje_net_capped_at,
                m.paje_net_dropped);
    if (m.procs_rounded > 0)
        fprintf(stderr, "pnrsim: warning: %s: %ld job%s had a fractional processor count "
                        "(field 5), rounded to the nearest whole number (the first on line "
                        "%ld)\n", trace, m.procs_rounded, m.procs_rounded > 1 ? "s" : "",
                m.procs_rounded_line);
    if (got_signal)
        /* Whatever --format is, stderr says in words that the run was cut. */
        fprintf(stderr, "pnrsim: interrupted by %s at t=%.6g s: PARTIAL results%s%s\n",
                got_signal == SIGINT ? "SIGINT" : "SIGTERM", m.total_time,
                status ? "" : ", files written to ", status ? "" : o.outdir);
    if (m.jobs_finished == 0) {
        long dropped = 0;
        for (int k = 0; k < WL_DROP_N; k++)
            dropped += m.dropped[k];
        fprintf(stderr, "pnrsim: warning: no job finished (%ld submitted, %ld trace records "
                        "dropped): the means over jobs are n/a%s\n",
                m.jobs_submitted, dropped, got_signal || status ? "" : "; exit status 3");
        if (!status)
            status = 3;
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "pnrsim: writing to standard output failed: %s\n", strerror(errno));
        if (!status || status == 3)
            status = 1;
    }
    run_destroy(r);
    if (got_signal)
        return 128 + got_signal;
    /* --plot: the results are committed; draw them. A failure to draw is
     * a failure of the run (exit 1; the results stay); Ctrl-C or SIGTERM
     * stops pnrsim-plot (pnrsim, still blocking them, exits as it does). */
    if (o.plot && (status == 0 || status == 3)) {
        int prc = plot_run(plot_path, o.outdir, o.quiet);
        if (prc == 128 + SIGINT || prc == 128 + SIGTERM) {
            fprintf(stderr, "pnrsim: --plot: interrupted; the results are written, the plots "
                            "are not\n");
            return prc;
        }
        if (prc != 0) {
            if (prc < 0)
                fprintf(stderr, "pnrsim: --plot: cannot run %s: %s\n", plot_path, strerror(errno));
            else
                fprintf(stderr, "pnrsim: --plot: pnrsim-plot %s failed (status %d); the results "
                                "are written\n", o.outdir, prc);
            status = 1;
        }
    }
    return status;
}

/* `pnrsim predict ...` (app/predict.h) runs the ordinary command on the
 * trace it writes; anything else is the ordinary command. */
int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "predict") == 0)
        return predict_main(argc - 1, argv + 1, argv[0], run_main);
    return run_main(argc, argv);
}
