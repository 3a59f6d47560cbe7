/* study/plot.c: the study described for the plotter, and the plots drawn
 * by pnrsim-plot (the Python companion, python/pnrsim/study.py).
 *
 * OUT/study.json (written by every run and collect, plots or not) is what
 * a reader of results.csv and summary.csv cannot know from them alone: the
 * study's name and file, replications, windows and runs per point; each
 * varied key with its unit (the configuration's key table:
 * "computer.ram" -> "MB"), its values in study order, which of them are
 * baselines and whether they are all numbers; each baseline's overrides;
 * each metric column with its unit (pnrsim's table of metrics); and each
 * [plot]: name, metric, x, lines, the values the other keys are pinned to,
 * title, xlabel, ylabel (null = the plotter derives them), logx, logy.
 * Strings are JSON strings (control characters, which study values never
 * hold, as \u00XX).
 *
 * sweep_plots then runs `pnrsim-plot study OUT`, which draws
 * OUT/plots/NAME.png and NAME.svg (and NAME.csv, the points drawn) for
 * each [plot] from summary.csv and study.json. pnrsim-plot is looked for
 * as pnrsim --plot looks for it (app/plot.c): beside this executable
 * (build/ or $(PREFIX)/bin), then on PATH. When it is missing, or fails
 * (no pandas or matplotlib for /usr/bin/python3), the sweep says so and
 * goes on: results.csv, summary.csv, study.json and index.html are
 * written all the same, and the exit status does not change.
 */
#include "study/points.h"
#include "study/sweep.h"
#include "study/text.h"

#include "app/config.h"
#include "app/output.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* The unit of a metric from pnrsim's table of metrics (app/output.c
 * out_fields), "" when it has none there (counts, flattened members). */
static const char *metric_unit(const char *metric)
{
    for (size_t i = 0; i < out_nfields; i++)
        if (!strcmp(out_fields[i].key, metric))
            return out_fields[i].unit;
    return "";
}

/* s as a JSON string ("null" for NULL). */
static void json_str(sweep_buf *b, const char *s)
{
    if (!s) {
        sweep_buf_puts(b, "null");
        return;
    }
    sweep_buf_puts(b, "\"");
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            sweep_buf_printf(b, "\\%c", *p);
        else if (*p < 0x20 || *p == 0x7f)
            sweep_buf_printf(b, "\\u%04x", *p);
        else
            sweep_buf_add(b, (const char *)p, 1);
    }
    sweep_buf_puts(b, "\"");
}

/* True when every value of p is a finite number. */
static bool all_numeric(const study_param *p)
{
    for (size_t i = 0; i < p->nvalues; i++) {
        double v;
        if (!study_parse_num(p->values[i], &v))
            return false;
    }
    return true;
}

/* The "parameters" member: one object per varied key. */
static void json_params(sweep_buf *b, const study *s)
{
    sweep_buf_puts(b, "  \"parameters\": [");
    for (size_t i = 0; i < s->nvary; i++) {
        const study_param *p = &s->vary[i];
        sweep_buf_puts(b, i ? ",\n    {\"key\": " : "\n    {\"key\": ");
        json_str(b, p->key);
        sweep_buf_puts(b, ", \"unit\": ");
        json_str(b, config_key_unit(p->key) ? config_key_unit(p->key) : "");
        sweep_buf_printf(b, ", \"numeric\": %s,\n     \"values\": [",
                         all_numeric(p) ? "true" : "false");
        for (size_t v = 0; v < p->nvalues; v++) {
            sweep_buf_puts(b, v ? ", " : "");
            json_str(b, p->values[v]);
        }
        sweep_buf_puts(b, "],\n     \"baseline\": [");
        for (size_t v = 0; v < p->nvalues; v++)
            sweep_buf_printf(b, "%s%s", v ? ", " : "",
                             p->baseline && p->baseline[v] >= 0 ? "true"
                                                                : "false");
        sweep_buf_puts(b, "]}");
    }
    sweep_buf_puts(b, "\n  ],\n");
}

/* The "baselines" member: name, key and overrides (in file order). */
static void json_baselines(sweep_buf *b, const study *s)
{
    sweep_buf_puts(b, "  \"baselines\": [");
    for (size_t i = 0; i < s->nbaselines; i++) {
        const study_baseline *bl = &s->baselines[i];
        sweep_buf_puts(b, i ? ",\n    {\"name\": " : "\n    {\"name\": ");
        json_str(b, bl->name);
        sweep_buf_puts(b, ", \"key\": ");
        json_str(b, bl->key);
        sweep_buf_puts(b, ", \"set\": [");
        for (size_t j = 0; j < bl->nset; j++) {
            sweep_buf_puts(b, j ? ", [" : "[");
            json_str(b, bl->set[j].key);
            sweep_buf_puts(b, ", ");
            json_str(b, bl->set[j].value);
            sweep_buf_puts(b, "]");
        }
        sweep_buf_puts(b, "]}");
    }
    sweep_buf_puts(b, s->nbaselines ? "\n  ],\n" : "],\n");
}

/* The "plots" member. */
static void json_plots(sweep_buf *b, const study *s)
{
    sweep_buf_puts(b, "  \"plots\": [");
    for (size_t i = 0; i < s->nplots; i++) {
        const study_plot *pl = &s->plots[i];
        sweep_buf_puts(b, i ? ",\n    {\"name\": " : "\n    {\"name\": ");
        json_str(b, pl->name);
        sweep_buf_puts(b, ", \"metric\": ");
        json_str(b, pl->metric);
        sweep_buf_puts(b, ", \"x\": ");
        json_str(b, pl->x);
        sweep_buf_puts(b, ", \"lines\": ");
        json_str(b, pl->lines);
        sweep_buf_puts(b, ",\n     \"pin\": {");
        bool first = true;
        for (size_t k = 0; k < s->nvary; k++) {
            if (pl->pin[k] < 0)
                continue;
            sweep_buf_puts(b, first ? "" : ", ");
            json_str(b, s->vary[k].key);
            sweep_buf_puts(b, ": ");
            json_str(b, s->vary[k].values[pl->pin[k]]);
            first = false;
        }
        sweep_buf_puts(b, "},\n     \"title\": ");
        json_str(b, pl->title);
        sweep_buf_puts(b, ", \"xlabel\": ");
        json_str(b, pl->xlabel);
        sweep_buf_puts(b, ", \"ylabel\": ");
        json_str(b, pl->ylabel);
        sweep_buf_printf(b, ",\n     \"logx\": %s, \"logy\": %s, \"line\": %ld}",
                         pl->logx ? "true" : "false",
                         pl->logy ? "true" : "false", pl->line);
    }
    sweep_buf_puts(b, s->nplots ? "\n  ]\n" : "]\n");
}

int sweep_study_json(const sweep_layout *L, const sweep_table *t)
{
    const study *s = L->s;
    sweep_buf b = {0};
    sweep_buf_puts(&b, "{\n  \"format\": \"pnrsim-study 1\",\n  \"name\": ");
    json_str(&b, s->name);
    sweep_buf_puts(&b, ",\n  \"study_file\": ");
    char *abs = sweep_abspath(s->path, NULL);
    json_str(&b, abs);
    free(abs);
    sweep_buf_printf(&b, ",\n  \"replications\": %ld,\n  \"windows\": %ld,\n"
                         "  \"runs_per_point\": %zu,\n  \"seed_base\": %ld,\n"
                         "  \"points\": %zu,\n  \"runs\": %zu,\n",
                     s->replications, s->windows, s->nrep, s->seed_base,
                     s->npoints, s->nruns);
    json_params(&b, s);
    json_baselines(&b, s);
    sweep_buf_puts(&b, "  \"metrics\": [");
    for (size_t c = 0; c < t->nmetric; c++) {
        sweep_buf_puts(&b, c ? ",\n    {\"name\": " : "\n    {\"name\": ");
        json_str(&b, t->metric[c]);
        sweep_buf_puts(&b, ", \"unit\": ");
        json_str(&b, metric_unit(t->metric[c]));
        sweep_buf_puts(&b, "}");
    }
    sweep_buf_puts(&b, t->nmetric ? "\n  ],\n" : "],\n");
    json_plots(&b, s);
    sweep_buf_puts(&b, "}\n");
    return sweep_write_buf(L->out, "study.json", &b);
}

/* dir/name when it is an executable regular file (newly allocated), or
 * NULL. */
static char *exec_in(const char *dir, size_t dlen, const char *name)
{
    char *f = xasprintf("%.*s/%s", (int)dlen, dir, name);
    if (access(f, X_OK) == 0 && sweep_is_file(f))
        return f;
    free(f);
    return NULL;
}

char *sweep_plot_find(void)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = '\0';
        const char *slash = strrchr(self, '/');
        char *f = slash ? exec_in(self, (size_t)(slash - self), "pnrsim-plot")
                        : NULL;
        if (f)
            return f;
    }
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    for (;;) {
        const char *e = strchr(path, ':');
        size_t len = e ? (size_t)(e - path) : strlen(path);
        char *f = exec_in(len ? path : ".", len ? len : 1, "pnrsim-plot");
        if (f || !e)
            return f;
        path = e + 1;
    }
}

/* Run `prog study outdir` and wait: its exit status, 128 + N when killed
 * by signal N, or -1 when it could not be started. */
static int run_plotter(const char *prog, const char *outdir)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        execl(prog, prog, "study", "--", outdir, (char *)NULL);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int sweep_plots(const sweep_layout *L, FILE *err_out)
{
    char *prog = sweep_plot_find();
    if (!prog) {
        fprintf(err_out,
                "pnrsim-sweep: plots skipped: pnrsim-plot is neither beside "
                "pnrsim-sweep nor on PATH (make builds build/pnrsim-plot; "
                "make install installs it); results.csv, summary.csv and "
                "index.html are complete\n");
        return -1;
    }
    int st = run_plotter(prog, L->out);
    free(prog);
    if (st == 0)
        return 0;
    if (st == 1)
        fprintf(err_out, "pnrsim-sweep: some plots were not drawn (see "
                         "above); results.csv, summary.csv and index.html "
                         "are complete\n");
    else
        fprintf(err_out,
                "pnrsim-sweep: plots skipped: pnrsim-plot study failed "
                "(status %d%s); results.csv, summary.csv and index.html are "
                "complete\n",
                st, st == 3 ? ": no pandas or matplotlib for /usr/bin/python3"
                            : st == 127 ? ": could not be run" : "");
    return -1;
}
