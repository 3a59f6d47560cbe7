/* study/plot.c: plots of a study's summary with gnuplot.
 *
 * For each [plot] of the study this writes, into OUT/plots/:
 *   NAME.dat  the data: one gnuplot data block (index) per value of the
 *             `lines` parameter (a single block without one), each row
 *             "x  mean  ci95_lo  ci95_hi  n" for one point, tab-separated;
 *             a point with one run gets a zero-height error bar, a point
 *             without finished runs is left out;
 *   NAME.gp   a gnuplot script that draws the metric's mean against x with
 *             95% confidence-interval error bars, one line per value of
 *             `lines`, into NAME.png (pngcairo, or png when gnuplot lacks
 *             cairo) and NAME.svg;
 * then runs `gnuplot NAME.gp` in that directory when gnuplot is on PATH
 * (Debian: gnuplot-nox). The images are drawn under temporary names and
 * renamed when gnuplot succeeded. Without gnuplot the scripts stay, to be
 * run later with `cd OUT/plots && gnuplot NAME.gp`.
 *
 * With a `lines` parameter the key is titled with its name and each line
 * with its value; a baseline value is one more line, black and dashed,
 * labelled with the baseline's name and overrides ("disk
 * (netram.enabled=no)"). Lines are shifted sideways by a little (1.2% of
 * the x span, of its logarithm with logx, per line; 0.06 between
 * categories) so that equal values do not hide each other's error bars;
 * NAME.dat holds the true x values.
 *
 * Axis labels (unless the [plot] gives xlabel/ylabel) carry units: the x
 * key's from the configuration's key table ("computer.ram [MB]"), the
 * metric's from pnrsim's table of metrics ("mean_response_time [s] (mean,
 * 95% CI)"); a key or metric without a unit is named alone.
 *
 * An x parameter whose values are all numbers is plotted on a numeric axis
 * (logx = yes for a log scale); other values (e.g. strategy names) are
 * placed at 0, 1, 2, ... with their names as tic labels.
 */
#include "study/points.h"
#include "study/sweep.h"
#include "study/text.h"

#include "app/config.h"
#include "app/output.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* "name [unit]", or name alone when unit is NULL or "" (new string). */
static char *with_unit(const char *name, const char *unit)
{
    return unit && unit[0] ? xasprintf("%s [%s]", name, unit) : xstrdup(name);
}

/* The unit of a metric from pnrsim's table of metrics (app/output.c
 * out_fields), "" when it has none there (counts, flattened members). */
static const char *metric_unit(const char *metric)
{
    for (size_t i = 0; i < out_nfields; i++)
        if (!strcmp(out_fields[i].key, metric))
            return out_fields[i].unit;
    return "";
}

/* The value quoted as a gnuplot single-quoted string: ' doubled, nothing
 * else interpreted. (gnuplot runs `command` inside double-quoted strings,
 * and reads backslash escapes there; a single-quoted string has neither.)
 * A line break would end the command: study values have no control
 * characters (study/sections.c), and any here are written as '?'. */
static void gp_str(sweep_buf *b, const char *s)
{
    sweep_buf_puts(b, "'");
    for (const char *p = s; *p; p++) {
        if (*p == '\'')
            sweep_buf_puts(b, "''");
        else if ((unsigned char)*p < 0x20 || *p == 0x7f)
            sweep_buf_puts(b, "?");
        else
            sweep_buf_add(b, p, 1);
    }
    sweep_buf_puts(b, "'");
}

/* s in a gnuplot comment: control characters (a line break would end the
 * comment) written as '?'. */
static void gp_comment(sweep_buf *b, const char *s)
{
    for (const char *p = s; *p; p++)
        sweep_buf_add(b, (unsigned char)*p < 0x20 || *p == 0x7f ? "?" : p, 1);
}

/* True when every value of p is a finite number (then written to the
 * script and the data as parsed, %.17g, never as the text given). */
static bool all_numeric(const study_param *p)
{
    for (size_t i = 0; i < p->nvalues; i++) {
        double v;
        if (!study_parse_num(p->values[i], &v))
            return false;
    }
    return true;
}

/* True when an executable named prog is on PATH. */
static bool on_path(const char *prog)
{
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/bin:/bin";
    char *copy = xstrdup(path);
    bool found = false;
    char *save = NULL;
    for (char *d = strtok_r(copy, ":", &save); d && !found;
         d = strtok_r(NULL, ":", &save)) {
        char *f = xasprintf("%s/%s", *d ? d : ".", prog);
        found = access(f, X_OK) == 0;
        free(f);
    }
    free(copy);
    return found;
}

/* Run gnuplot on script inside dir; its exit status, or -1. */
static int run_gnuplot(const char *dir, const char *script)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        if (chdir(dir) != 0)
            _exit(127);
        execlp("gnuplot", "gnuplot", script, (char *)NULL);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static long metric_index(const sweep_table *t, const char *m)
{
    for (size_t i = 0; i < t->nmetric; i++)
        if (!strcmp(t->metric[i], m))
            return (long)i;
    return -1;
}

/* Write NAME.dat and NAME.gp for plot pl; 0 or -1 (reported). */
static int write_plot_files(const sweep_layout *L, const sweep_table *t,
                            const study_plot *pl, const char *dir,
                            FILE *err_out)
{
    const study *s = L->s;
    long mi = metric_index(t, pl->metric);
    if (mi < 0) {
        fprintf(err_out,
                "pnrsim-sweep: plot %s: no run reports metric '%s'; "
                "skipped\n", pl->name, pl->metric);
        return -1;
    }
    size_t xi = (size_t)study_param_index(s, pl->x);
    long li = pl->lines ? study_param_index(s, pl->lines) : -1;
    const study_param *xp = &s->vary[xi];
    bool numeric = all_numeric(xp);
    size_t nlines = li >= 0 ? s->vary[li].nvalues : 1;
    size_t *idx = xmalloc((s->nvary + 1) * sizeof *idx);
    for (size_t i = 0; i < s->nvary; i++)
        idx[i] = pl->pin[i] >= 0 ? (size_t)pl->pin[i] : 0;

    sweep_buf dat = {0};
    sweep_buf_printf(&dat, "# %s: %s against %s", s->name, pl->metric,
                     pl->x);
    if (li >= 0)
        sweep_buf_printf(&dat, ", one block per %s", pl->lines);
    sweep_buf_puts(&dat, "\n# x\tmean\tci95_lo\tci95_hi\tn\n");
    size_t points = 0;
    for (size_t l = 0; l < nlines; l++) {
        if (li >= 0)
            idx[li] = l;
        if (l)
            sweep_buf_puts(&dat, "\n\n");
        sweep_buf_printf(&dat, "# %s\n",
                         li >= 0 ? s->vary[li].values[l] : pl->metric);
        for (size_t xv = 0; xv < xp->nvalues; xv++) {
            idx[xi] = xv;
            const sweep_stats *st =
                &t->st[study_point_of(s, idx) * t->nmetric + (size_t)mi];
            if (!isfinite(st->mean))
                continue;
            double lo = isfinite(st->lo) ? st->lo : st->mean;
            double hi = isfinite(st->hi) ? st->hi : st->mean;
            if (numeric)
                sweep_buf_printf(&dat, "%.17g", strtod(xp->values[xv], NULL));
            else
                sweep_buf_printf(&dat, "%zu", xv);
            sweep_buf_printf(&dat, "\t%.10g\t%.10g\t%.10g\t%zu\n", st->mean,
                             lo, hi, st->n);
            points++;
        }
    }

    sweep_buf gp = {0};
    sweep_buf_printf(&gp, "# %s.gp: written by pnrsim-sweep for study %s (",
                     pl->name, s->name);
    gp_comment(&gp, s->path);
    sweep_buf_printf(&gp, "); run: gnuplot %s.gp\n", pl->name);
    sweep_buf_puts(&gp, "set datafile separator \"\\t\"\n"
                        "set grid\nset key below");
    if (li >= 0) { /* entries are the values; the key is the title */
        sweep_buf_puts(&gp, " title ");
        gp_str(&gp, pl->lines);
    }
    sweep_buf_puts(&gp, "\nset offsets graph 0.03, graph 0.03, graph 0.05, "
                        "graph 0.05\n");
    sweep_buf title = {0};
    if (pl->title) {
        sweep_buf_puts(&title, pl->title);
    } else {
        sweep_buf_printf(&title, "%s: %s", s->name, pl->metric);
        bool first = true;
        for (size_t i = 0; i < s->nvary; i++) {
            if (pl->pin[i] < 0 || s->vary[i].nvalues < 2)
                continue;
            sweep_buf_printf(&title, "%s%s=%s", first ? " (" : ", ",
                             s->vary[i].key, s->vary[i].values[pl->pin[i]]);
            first = false;
        }
        if (!first)
            sweep_buf_puts(&title, ")");
    }
    sweep_buf_puts(&gp, "set title ");
    gp_str(&gp, title.p);
    sweep_buf_free(&title);
    sweep_buf_puts(&gp, "\nset xlabel ");
    if (pl->xlabel) {
        gp_str(&gp, pl->xlabel);
    } else {
        char *xl = with_unit(pl->x, config_key_unit(pl->x));
        gp_str(&gp, xl);
        free(xl);
    }
    sweep_buf_puts(&gp, "\nset ylabel ");
    if (pl->ylabel) {
        gp_str(&gp, pl->ylabel);
    } else {
        char *m = with_unit(pl->metric, metric_unit(pl->metric));
        char *yl = xasprintf("%s (mean, 95%% CI)", m);
        gp_str(&gp, yl);
        free(yl);
        free(m);
    }
    sweep_buf_puts(&gp, "\n");
    if (numeric) {
        if (pl->logx)
            sweep_buf_puts(&gp, "set logscale x 2\n");
        /* the data's range (plus the offsets), not rounded out to tics */
        sweep_buf_puts(&gp, "set autoscale xfix\n");
        /* tics at the swept values when there are few of them */
        if (xp->nvalues <= 12) {
            sweep_buf_puts(&gp, "set xtics (");
            for (size_t v = 0; v < xp->nvalues; v++)
                sweep_buf_printf(&gp, "%s%.17g", v ? ", " : "",
                                 strtod(xp->values[v], NULL));
            sweep_buf_puts(&gp, ")\n");
        }
    } else {
        sweep_buf_puts(&gp, "set xtics (");
        for (size_t v = 0; v < xp->nvalues; v++) {
            if (v)
                sweep_buf_puts(&gp, ", ");
            gp_str(&gp, xp->values[v]);
            sweep_buf_printf(&gp, " %zu", v);
        }
        sweep_buf_printf(&gp, ")\nset xrange [-0.5:%zu.5]\n",
                         xp->nvalues - 1);
    }
    if (pl->logy)
        sweep_buf_puts(&gp, "set logscale y\n");
    sweep_buf_printf(&gp,
                     "if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) {\n"
                     "    set terminal pngcairo noenhanced size 960,600 "
                     "font \"sans,10\"\n"
                     "} else {\n"
                     "    set terminal png noenhanced size 960,600\n"
                     "}\n"
                     "set output \"%s.png.part\"\n",
                     pl->name);
    /* Sideways shift of line l, so that lines with (nearly) equal values do
     * not hide each other's error bars: (l - (nlines - 1) / 2) steps of
     * 1.2% of the x span (of its logarithm with logx; 0.06 between
     * categories). */
    double xmin = 0, xmax = 0;
    for (size_t v = 0; numeric && v < xp->nvalues; v++) {
        double xv = strtod(xp->values[v], NULL);
        if (!v || xv < xmin)
            xmin = xv;
        if (!v || xv > xmax)
            xmax = xv;
    }
    bool logshift = numeric && pl->logx && xmin > 0;
    double step = !numeric  ? 0.06
                  : logshift ? 0.012 * log(xmax / xmin)
                             : 0.012 * (xmax - xmin);
    /* Colours that read on white; a baseline is black and dashed. */
    static const char *const colour[] = {"#1b9e77", "#d95f02", "#7570b3",
                                         "#e7298a", "#66a61e", "#a6761d",
                                         "#1f78b4", "#e6ab02"};
    static const int ptype[] = {7, 5, 9, 11, 13, 6, 8, 10};
    sweep_buf_puts(&gp, "plot ");
    for (size_t l = 0; l < nlines; l++) {
        long bi = li >= 0 && s->vary[li].baseline ? s->vary[li].baseline[l]
                                                   : -1;
        double off = nlines > 1 ? ((double)l - (double)(nlines - 1) / 2) * step
                                : 0;
        char using[64];
        if (off == 0)
            snprintf(using, sizeof using, "1:2:3:4");
        else if (logshift)
            snprintf(using, sizeof using, "($1*%.6g):2:3:4", exp(off));
        else
            snprintf(using, sizeof using, "($1+%.6g):2:3:4", off);
        sweep_buf_printf(&gp, "%s\"%s.dat\" index %zu using %s with "
                              "yerrorlines linewidth 1.5 pointsize 1 ",
                         l ? ", \\\n     " : "", pl->name, l, using);
        if (bi >= 0)
            sweep_buf_printf(&gp, "linecolor rgb \"#000000\" dashtype 2 "
                                  "pointtype %d title ", 4 + 2 * (int)(bi % 4));
        else
            sweep_buf_printf(&gp, "linecolor rgb \"%s\" pointtype %d title ",
                             colour[l % 8], ptype[l % 8]);
        if (bi >= 0) {
            /* a baseline: its name and its overrides */
            const study_baseline *bl = &s->baselines[bi];
            sweep_buf lt = {0};
            sweep_buf_printf(&lt, "%s (", bl->name);
            for (size_t j = 0; j < bl->nset; j++)
                sweep_buf_printf(&lt, "%s%s=%s", j ? ", " : "",
                                 bl->set[j].key, bl->set[j].value);
            sweep_buf_puts(&lt, ")");
            gp_str(&gp, lt.p);
            sweep_buf_free(&lt);
        } else if (li >= 0) {
            gp_str(&gp, s->vary[li].values[l]);
        } else {
            gp_str(&gp, pl->metric);
        }
    }
    sweep_buf_printf(&gp,
                     "\nset terminal svg noenhanced size 960,600 dynamic "
                     "font \"sans,10\"\n"
                     "set output \"%s.svg.part\"\nreplot\nunset output\n",
                     pl->name);

    char err[512];
    char *dpath = xasprintf("%s/%s.dat", dir, pl->name);
    char *gpath = xasprintf("%s/%s.gp", dir, pl->name);
    int rc = util_write_file(dpath, dat.p, dat.n, err, sizeof err);
    if (!rc)
        rc = util_write_file(gpath, gp.p, gp.n, err, sizeof err);
    if (rc)
        fprintf(err_out, "pnrsim-sweep: plot %s: %s\n", pl->name, err);
    if (!rc && !points) {
        fprintf(err_out, "pnrsim-sweep: plot %s: no finished run reports "
                         "%s; nothing to plot\n", pl->name, pl->metric);
        rc = -1;
    }
    free(dpath);
    free(gpath);
    sweep_buf_free(&dat);
    sweep_buf_free(&gp);
    free(idx);
    return rc;
}

int sweep_plots(const sweep_layout *L, const sweep_table *t, FILE *err_out)
{
    const study *s = L->s;
    char *dir = xasprintf("%s/plots", L->out);
    if (util_mkdirs(dir, NULL) != 0) {
        fprintf(err_out, "pnrsim-sweep: %s: %s\n", dir, strerror(errno));
        free(dir);
        return 0;
    }
    bool have = on_path("gnuplot");
    int made = 0;
    for (size_t i = 0; i < s->nplots; i++) {
        const study_plot *pl = &s->plots[i];
        if (write_plot_files(L, t, pl, dir, err_out) != 0 || !have)
            continue;
        char *script = xasprintf("%s.gp", pl->name);
        int st = run_gnuplot(dir, script);
        free(script);
        bool ok = st == 0;
        static const char *const ext[] = {"png", "svg"};
        for (int k = 0; k < 2; k++) {
            char *part = xasprintf("%s/%s.%s.part", dir, pl->name,
                                         ext[k]);
            char *fin = xasprintf("%s/%s.%s", dir, pl->name, ext[k]);
            if (ok && rename(part, fin) != 0)
                ok = false;
            unlink(part);
            free(part);
            free(fin);
        }
        if (ok)
            made++;
        else
            fprintf(err_out, "pnrsim-sweep: plot %s: gnuplot failed (status "
                             "%d); see %s/%s.gp\n", pl->name, st, dir,
                    pl->name);
    }
    if (!have && s->nplots)
        fprintf(err_out,
                "pnrsim-sweep: gnuplot not found (Debian: apt-get install "
                "gnuplot-nox): scripts left in %s; run gnuplot on them\n",
                dir);
    free(dir);
    return made;
}
