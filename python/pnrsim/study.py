"""pnrsim.study: a pnrsim-sweep study's results in pandas, and its plots.

A study's output directory (pnrsim-sweep -o OUT, default out/studies/NAME)
holds, after every run or ``pnrsim-sweep collect``:

  results.csv  one row per run: the varied keys, [window], seed, status
               (ok, failed, missing), one column per metric and last
               wall_seconds (the built-in runner's wall time of the run,
               empty for runs made elsewhere; the one column that varies
               between identical runs);
  summary.csv  one row per parameter point: the varied keys, n (finished
               runs) and per metric M_mean, M_sd, M_ci95, M_ci95_lo,
               M_ci95_hi (Student-t 95% interval of the mean);
  study.json   the study as pnrsim-sweep read it: the varied keys with
               their units, values (in study order) and baselines, the
               metrics with their units, the [plot] sections.

In a notebook::

    from pnrsim import study
    s = study.load("out/studies/memory-pressure")
    s.runs          # DataFrame, one row per run
    s.points        # DataFrame, one row per parameter point
    s.units         # {"computer.ram": "MB", "response_time_mean": "s", ...}
    fig = s.plot("response-time")            # a [plot] of the study
    fig = s.plot_metric("wait_time_mean", x="computer.ram",
                        lines="netram.strategy")

Each DataFrame also carries its units in ``df.attrs["units"]``. A varied key
whose values are all numbers is a float column; any other is an ordered
categorical in the study's order (baselines last), so groupby and sort keep
the study's order.

The pictures (``pnrsim-plot study OUT``, run by pnrsim-sweep): for each
[plot], OUT/plots/NAME.png and NAME.svg, and NAME.csv, the points drawn
(line, x, mean, ci95_lo, ci95_hi, n). The mean of the metric against x,
with its 95% confidence interval as an error bar, one series per value of
the plot's ``lines`` key (a baseline is one more series, dashed, named with
its overrides when they are short). A numeric x is joined by lines; a
categorical x (e.g. strategy names) is drawn as grouped points, side by
side, never joined. Series are shifted sideways a little so that equal
values do not hide each other's bars. The legend sits outside the axes, on
the right, so that many series (the then-and-now study has 13) hide no
data. Axis labels come from the data: "KEY [unit]" for x, "METRIC [unit]"
for y with "mean of N runs (W windows x R seeds), 95% CI" from the finished
run counts of the points drawn; a [plot]'s xlabel/ylabel replace the names,
the run-count line is always generated. Y tick labels use matplotlib's
default formatter with an offset, so values that differ in their sixth
digit still get tick labels that read differently.

Beside the [plot]s, main draws (unless --plot or --no-dist) the
distributions of the per-job figures from the runs' jobs.csv
(pnrsim.study_dist: dist-wait, dist-response, dist-slowdown, one box per
parameter point, and fairness, the slowdown per job-size class), each
with a CSV of the numbers drawn; draw_dist(study) does it from a notebook.

Exit status of main: 0 every plot drawn; 1 some plot not drawn (no data
for its metric: said on stderr); 2 bad usage or a missing or unreadable
file of the study directory; 3 numpy, pandas or matplotlib missing.
"""

import json
import math
import os
import sys

try:
    import numpy as np
    import pandas as pd
    import matplotlib

    matplotlib.use("Agg")
    # A fixed salt for SVG ids (random by default): byte-identical SVGs.
    matplotlib.rcParams["svg.hashsalt"] = "pnrsim"
    from matplotlib.figure import Figure

    _IMPORT_ERROR = None
except ImportError as _e:  # reported by main() and by load()
    np = pd = matplotlib = Figure = None
    _IMPORT_ERROR = _e

PROG = "pnrsim-plot study"
EXIT_NOPLOT = 1
EXIT_BAD = 2
EXIT_NOLIBS = 3

_STATS = ("mean", "sd", "ci95", "ci95_lo", "ci95_hi")
_MARKERS = "osD^vP<X>hp*"


class StudyError(Exception):
    """A study directory that cannot be read: missing or malformed file."""


def _need_libs():
    if _IMPORT_ERROR is not None:
        raise ImportError(
            "pnrsim.study needs numpy, pandas and matplotlib (Debian: apt-get "
            "install python3-pandas python3-matplotlib, for /usr/bin/python3): "
            + str(_IMPORT_ERROR))


def _read_info(outdir):
    path = os.path.join(outdir, "study.json")
    try:
        with open(path, encoding="utf-8") as f:
            info = json.load(f)
    except OSError as e:
        raise StudyError("%s: %s (written by pnrsim-sweep 0.26 or later: run "
                         "pnrsim-sweep collect STUDY.ini -o %s)"
                         % (path, e.strerror or e, outdir)) from None
    except ValueError as e:
        raise StudyError("%s: not JSON: %s" % (path, e)) from None
    for k in ("name", "parameters", "metrics", "plots", "runs_per_point"):
        if k not in info:
            raise StudyError("%s: no member '%s' (not a pnrsim-sweep "
                             "study.json)" % (path, k))
    return info


def _typed_params(df, info, path):
    """Make each varied key's column a float (numeric keys) or an ordered
    categorical in study order; check every value is one of the study's."""
    for p in info["parameters"]:
        key = p["key"]
        if key not in df.columns:
            raise StudyError("%s: no column '%s' (the study varies it)"
                             % (path, key))
        col = df[key].astype(str)
        bad = sorted(set(col) - set(p["values"]))
        if bad:
            raise StudyError("%s: column '%s' has %r, not a value of the "
                             "study (%s)" % (path, key, bad[0],
                                             ", ".join(p["values"])))
        if p["numeric"]:
            df[key] = col.astype(float)
        else:
            df[key] = pd.Categorical(col, categories=p["values"], ordered=True)
    return df


def _read_csv(path, info):
    keys = [p["key"] for p in info["parameters"]]
    dtypes = {k: str for k in keys}
    dtypes["status"] = str
    try:
        # Only an empty field is missing: "none" or "NA" are values.
        df = pd.read_csv(path, dtype=dtypes, keep_default_na=False,
                         na_values=[""])
    except OSError as e:
        raise StudyError("%s: %s" % (path, e.strerror or e)) from None
    except (ValueError, pd.errors.ParserError) as e:
        raise StudyError("%s: %s" % (path, e)) from None
    return _typed_params(df, info, path)


def _units(info):
    u = {p["key"]: p["unit"] for p in info["parameters"]}
    for m in info["metrics"]:
        u[m["name"]] = m["unit"]
    return u


def load_runs(outdir, info=None):
    """results.csv of the study in outdir as a DataFrame, one row per run;
    df.attrs["units"] maps columns to units ("" for none)."""
    _need_libs()
    info = info or _read_info(outdir)
    df = _read_csv(os.path.join(outdir, "results.csv"), info)
    u = _units(info)
    df.attrs["units"] = {c: u.get(c, "") for c in df.columns}
    if "wall_seconds" in df.columns:  # the runner's wall time per run
        df.attrs["units"]["wall_seconds"] = "s"
    return df


def load_points(outdir, info=None):
    """summary.csv of the study in outdir as a DataFrame, one row per
    parameter point; M_mean, M_sd, M_ci95, M_ci95_lo, M_ci95_hi carry the
    unit of metric M in df.attrs["units"], n is "runs"."""
    _need_libs()
    info = info or _read_info(outdir)
    df = _read_csv(os.path.join(outdir, "summary.csv"), info)
    u = _units(info)
    units = {}
    for c in df.columns:
        base = c.rsplit("_", 1)[0]
        if c.endswith("_ci95_lo") or c.endswith("_ci95_hi"):
            base = c[:-len("_ci95_lo")]
        units[c] = u.get(c, u.get(base, ""))
    units["n"] = "runs"
    df.attrs["units"] = units
    return df


class Study:
    """A study's results: info (study.json as a dict), runs (results.csv),
    points (summary.csv), units, and its plots."""

    def __init__(self, outdir):
        _need_libs()
        self.outdir = outdir
        self.info = _read_info(outdir)
        self.name = self.info["name"]
        self.runs = load_runs(outdir, self.info)
        self.points = load_points(outdir, self.info)
        self.units = _units(self.info)

    def __repr__(self):
        return "<pnrsim study %s: %d points, %d runs>" % (
            self.name, len(self.points), len(self.runs))

    def param(self, key):
        """The study.json description of varied key (KeyError if none)."""
        for p in self.info["parameters"]:
            if p["key"] == key:
                return p
        raise KeyError("%s is not a varied key of study %s (varied: %s)" % (
            key, self.name,
            ", ".join(p["key"] for p in self.info["parameters"])))

    def plot_spec(self, name):
        """The [plot NAME] of the study as a dict (KeyError if none)."""
        for pl in self.info["plots"]:
            if pl["name"] == name:
                return pl
        raise KeyError("study %s has no plot %s (plots: %s)" % (
            self.name, name, ", ".join(p["name"] for p in self.info["plots"])))

    def plot(self, name, ax=None):
        """Draw the study's [plot NAME]; returns the Figure."""
        return draw(self, self.plot_spec(name), ax=ax)

    def plot_metric(self, metric, x, lines=None, pin=None, logx=False,
                    logy=False, title=None, ax=None):
        """Draw metric's mean (95% CI) against varied key x, one series per
        value of lines; pin maps the other varied keys to a value (default
        their first). Returns the Figure."""
        pin = dict(pin or {})
        for p in self.info["parameters"]:
            if p["key"] not in (x, lines) and p["key"] not in pin:
                pin[p["key"]] = p["values"][0]
        spec = {"name": metric, "metric": metric, "x": x, "lines": lines,
                "pin": {k: str(v) for k, v in pin.items()}, "title": title,
                "xlabel": None, "ylabel": None, "logx": logx, "logy": logy}
        return draw(self, spec, ax=ax)


def load(outdir):
    """The study whose pnrsim-sweep output directory is outdir (a Study)."""
    return Study(outdir)


def _match(df, key, text, param):
    if param["numeric"]:
        return df[key] == float(text)
    return df[key].astype(str) == text


def _tex(s):
    """s shown as it is: matplotlib reads $...$ as mathematics."""
    return str(s).replace("$", r"\$")


def _baseline_label(study, name):
    for b in study.info.get("baselines", []):
        if b["name"] == name:
            sets = ", ".join("%s=%s" % (k, v) for k, v in b["set"])
            full = "%s (%s)" % (name, sets)
            return full if len(full) <= 48 else name
    return name


def _runs_text(info, ns):
    """'mean of N runs (W windows x R seeds), 95% CI' from the finished run
    counts ns of the points drawn."""
    ns = sorted(set(int(n) for n in ns))
    rpp = int(info["runs_per_point"])
    windows = int(info.get("windows", 0) or 0)
    reps = int(info.get("replications", rpp))
    if ns == [1]:
        return "one run per point (no CI)"
    if len(ns) == 1:
        n = ns[0]
        if n == rpp and windows > 0:
            what = "mean of %d runs (%d windows \u00d7 %d seeds)" % (
                n, windows, reps)
        elif n == rpp:
            what = "mean of %d replications" % n
        else:
            what = "mean of %d of %d runs" % (n, rpp)
    else:
        what = "mean of %d\u2013%d runs" % (ns[0], ns[-1])
    return what + ", 95% CI"


def _with_unit(name, unit):
    return "%s [%s]" % (name, unit) if unit else name


def series(study, spec):
    """The points a plot draws: a DataFrame with columns line (the lines
    value, or the metric's name), baseline (bool), x (the value's text),
    xpos (its position: the number, or 0, 1, ... for a categorical x),
    mean, ci95_lo, ci95_hi, n, in line then x order (study order); points
    without a finished run left out. Raises KeyError for an unknown key."""
    pts = study.points
    metric = spec["metric"]
    xp = study.param(spec["x"])
    lp = study.param(spec["lines"]) if spec.get("lines") else None
    sel = pd.Series(True, index=pts.index)
    for key, val in (spec.get("pin") or {}).items():
        sel &= _match(pts, key, val, study.param(key))
    sub = pts[sel]
    mcol = metric + "_mean"
    rows = []
    if mcol not in sub.columns:
        return pd.DataFrame(columns=["line", "baseline", "x", "xpos", "mean",
                                     "ci95_lo", "ci95_hi", "n"])
    lvals = list(zip(lp["values"], lp["baseline"])) if lp else [(metric, False)]
    for lv, is_bl in lvals:
        ls = sub[_match(sub, lp["key"], lv, lp)] if lp else sub
        for i, xv in enumerate(xp["values"]):
            r = ls[_match(ls, xp["key"], xv, xp)]
            if r.empty:
                continue
            r = r.iloc[0]
            m = r[mcol]
            if not np.isfinite(m):
                continue
            lo = r.get(metric + "_ci95_lo", np.nan)
            hi = r.get(metric + "_ci95_hi", np.nan)
            rows.append({"line": lv, "baseline": bool(is_bl), "x": xv,
                         "xpos": float(xv) if xp["numeric"] else float(i),
                         "mean": float(m),
                         "ci95_lo": float(lo) if np.isfinite(lo) else float(m),
                         "ci95_hi": float(hi) if np.isfinite(hi) else float(m),
                         "n": int(r["n"])})
    return pd.DataFrame(rows, columns=["line", "baseline", "x", "xpos", "mean",
                                       "ci95_lo", "ci95_hi", "n"])


def _colours(n):
    if n <= 10:
        cmap = matplotlib.colormaps["tab10"]
        return [cmap(i) for i in range(n)]
    cmap = matplotlib.colormaps["tab20"]
    return [cmap(i % 20) for i in range(n)]


def draw(study, spec, ax=None):
    """Draw one plot (a dict as in study.json's plots) of study on ax (a new
    Figure when None); returns the Figure. Raises ValueError when there is
    nothing to draw."""
    _need_libs()
    data = series(study, spec)
    if data.empty:
        raise ValueError("plot %s: no finished run reports metric '%s'"
                         % (spec["name"], spec["metric"]))
    xp = study.param(spec["x"])
    numeric = bool(xp["numeric"])
    logx = bool(spec.get("logx")) and numeric and (data["xpos"] > 0).all()
    lines = list(dict.fromkeys(data["line"]))
    nl = len(lines)
    if ax is None:
        fig = Figure(figsize=(8.0, 5.0), dpi=120)
        ax = fig.add_subplot()
    else:
        fig = ax.figure
    # Sideways shift of series l: (l - (nl-1)/2) steps, so that equal
    # values do not hide each other's error bars: 1.2% of the x span (of
    # its logarithm with logx) per series, all of them within 30% of the
    # gap between the closest x values; up to 0.15 of a category.
    if numeric:
        xs = np.unique(data["xpos"].to_numpy(dtype=float))
        t = np.log(xs) if logx else xs
        span = float(t[-1] - t[0])
        step = 0.012 * span
        # all the series together within 30% of the closest two x values
        if nl > 1 and len(t) > 1:
            step = min(step, 0.3 * float(np.diff(t).min()) / (nl - 1))
    else:
        step = min(0.8 / nl, 0.15) if nl > 1 else 0.0
    colours = _colours(nl)
    for li, name in enumerate(lines):
        d = data[data["line"] == name]
        off = (li - (nl - 1) / 2.0) * step if nl > 1 else 0.0
        x = d["xpos"].to_numpy(dtype=float)
        x = x * math.exp(off) if logx else x + off
        y = d["mean"].to_numpy(dtype=float)
        yerr = np.vstack([y - d["ci95_lo"].to_numpy(dtype=float),
                          d["ci95_hi"].to_numpy(dtype=float) - y])
        yerr = np.clip(yerr, 0.0, None)
        is_bl = bool(d["baseline"].iloc[0])
        label = _baseline_label(study, name) if is_bl else name
        ax.errorbar(x, y, yerr=yerr, color=colours[li],
                    marker=_MARKERS[li % len(_MARKERS)],
                    markersize=5, capsize=3, linewidth=1.4,
                    linestyle=("--" if is_bl else "-") if numeric else "none",
                    markerfacecolor="white" if is_bl else colours[li],
                    label=_tex(label))
    if logx:
        ax.set_xscale("log", base=2)
    if spec.get("logy") and (data["ci95_lo"] > 0).all():
        ax.set_yscale("log")
    if numeric:
        vals = sorted(set(float(v) for v in xp["values"]))
        if len(vals) <= 12:
            ax.set_xticks(vals)
            ax.set_xticklabels([_tex("%g" % v) for v in vals])
            if logx:
                ax.minorticks_off()
    else:
        pos = range(len(xp["values"]))
        ax.set_xticks(list(pos))
        ax.set_xticklabels([_tex(v) for v in xp["values"]],
                           rotation=30 if len(xp["values"]) > 6 else 0,
                           ha="right" if len(xp["values"]) > 6 else "center")
        ax.set_xlim(-0.5, len(xp["values"]) - 0.5)
    # A light grey plot area with white grid lines: the data stand out,
    # and the area is never mistaken for the page.
    ax.set_facecolor("#eeeeee")
    ax.grid(True, color="white", linewidth=0.9)
    ax.set_axisbelow(True)
    xl = spec.get("xlabel") or _with_unit(xp["key"], xp["unit"])
    yl = spec.get("ylabel") or _with_unit(spec["metric"],
                                          study.units.get(spec["metric"], ""))
    ax.set_xlabel(_tex(xl))
    ax.set_ylabel(_tex(yl) + "\n" + _runs_text(study.info, data["n"]))
    title = spec.get("title")
    if not title:
        pins = ["%s=%s" % (k, v) for k, v in (spec.get("pin") or {}).items()
                if len(study.param(k)["values"]) > 1]
        title = "%s: %s" % (study.name, spec["metric"])
        if pins:
            title += " (" + ", ".join(pins) + ")"
    ax.set_title(_tex(title), fontsize=10)
    if nl > 1:
        leg = ax.legend(title=_tex(spec["lines"]), loc="upper left",
                        bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0,
                        fontsize=8, title_fontsize=8,
                        ncol=1 if nl <= 22 else 2, frameon=False)
        leg.set_in_layout(True)
    return fig


def save(fig, base, formats=("png", "svg")):
    """Write fig as base.FORMAT for each format, each under a temporary name
    renamed when complete. Returns the paths written."""
    out = []
    for fmt in formats:
        final = "%s.%s" % (base, fmt)
        part = final + ".part"
        meta = {"Date": None} if fmt == "svg" else {"Software": None}
        fig.savefig(part, format=fmt, bbox_inches="tight", metadata=meta)
        os.replace(part, final)
        out.append(final)
    return out


def draw_all(study, plotdir=None, formats=("png", "svg"), err=None):
    """Draw every [plot] of study into plotdir (default OUT/plots) as
    NAME.FORMAT and NAME.csv (the points drawn). Returns (drawn, not drawn)
    counts; plots without data are named on err (default stderr)."""
    err = err or sys.stderr
    plotdir = plotdir or os.path.join(study.outdir, "plots")
    os.makedirs(plotdir, exist_ok=True)
    drawn = failed = 0
    for spec in study.info["plots"]:
        base = os.path.join(plotdir, spec["name"])
        try:
            fig = draw(study, spec)
        except ValueError as e:
            print("%s: %s; not drawn" % (PROG, e), file=err)
            failed += 1
            continue
        save(fig, base, formats)
        data = series(study, spec)
        part = base + ".csv.part"
        data.drop(columns=["xpos"]).to_csv(part, index=False)
        os.replace(part, base + ".csv")
        drawn += 1
    return drawn, failed


def draw_dist(study, plotdir=None, formats=("png", "svg"), err=None):
    """The distribution figures of study (pnrsim.study_dist: dist-wait,
    dist-response, dist-slowdown, fairness, from the runs' jobs.csv) into
    plotdir (default OUT/plots). Returns (drawn, not drawn)."""
    from . import study_dist
    plotdir = plotdir or os.path.join(study.outdir, "plots")
    os.makedirs(plotdir, exist_ok=True)
    return study_dist.draw_all(study, plotdir, formats, err)


def _usage(f):
    print("usage: pnrsim-plot study [--format png|svg|both] [-o DIR] "
          "[--plot NAME]... [--no-dist] OUTDIR\n"
          "Draw the [plot]s of the pnrsim-sweep study in OUTDIR (its "
          "summary.csv and study.json)\ninto DIR (default OUTDIR/plots): "
          "NAME.png, NAME.svg and NAME.csv (the points drawn);\n"
          "without --plot or --no-dist also the per-job distributions "
          "(dist-wait, dist-response,\ndist-slowdown) and fairness, "
          "from the runs' jobs.csv.\n"
          "exit status: 0 all drawn, 1 some plot without data, 2 bad usage "
          "or input,\n3 numpy, pandas or matplotlib missing", file=f)


def main(argv):
    """pnrsim-plot study [--format png|svg|both] [-o DIR] [--plot NAME]...
    [--no-dist] OUTDIR: draw a study's plots (and, without --plot or
    --no-dist, its distribution figures). Returns the exit status."""
    fmt, plotdir, only, outdir, dist = "both", None, [], None, True
    args = list(argv)
    while args:
        a = args.pop(0)
        if a in ("-h", "--help"):
            _usage(sys.stdout)
            return 0
        if a == "--no-dist":
            dist = False
            continue
        if a in ("--format", "-o", "--output", "--plot"):
            if not args:
                print("%s: %s needs a value" % (PROG, a), file=sys.stderr)
                _usage(sys.stderr)
                return EXIT_BAD
            v = args.pop(0)
            if a == "--format":
                fmt = v
            elif a == "--plot":
                only.append(v)
            else:
                plotdir = v
        elif a == "--":
            if len(args) != 1 or outdir is not None:
                _usage(sys.stderr)
                return EXIT_BAD
            outdir = args.pop(0)
        elif a.startswith("-") and a != "-":
            print("%s: unknown option %s" % (PROG, a), file=sys.stderr)
            _usage(sys.stderr)
            return EXIT_BAD
        elif outdir is None:
            outdir = a
        else:
            print("%s: one study directory only" % PROG, file=sys.stderr)
            return EXIT_BAD
    if outdir is None:
        _usage(sys.stderr)
        return EXIT_BAD
    formats = {"png": ("png",), "svg": ("svg",), "both": ("png", "svg")}.get(fmt)
    if formats is None:
        print("%s: --format %s: expected png, svg or both" % (PROG, fmt),
              file=sys.stderr)
        return EXIT_BAD
    if _IMPORT_ERROR is not None:
        print("%s: needs numpy, pandas and matplotlib for %s (Debian: apt-get "
              "install python3-pandas python3-matplotlib): %s"
              % (PROG, sys.executable, _IMPORT_ERROR), file=sys.stderr)
        return EXIT_NOLIBS
    if not os.path.isdir(outdir):
        print("%s: %s: no such directory" % (PROG, outdir), file=sys.stderr)
        return EXIT_BAD
    try:
        s = Study(outdir)
        if only:
            names = [p["name"] for p in s.info["plots"]]
            for n in only:
                if n not in names:
                    print("%s: study %s has no plot %s (plots: %s)"
                          % (PROG, s.name, n, ", ".join(names)),
                          file=sys.stderr)
                    return EXIT_BAD
            s.info["plots"] = [p for p in s.info["plots"] if p["name"] in only]
        drawn, failed = draw_all(s, plotdir, formats)
        if dist and not only:
            _, d_failed = draw_dist(s, plotdir, formats)
            failed += d_failed
    except (StudyError, KeyError) as e:
        print("%s: %s" % (PROG, e.args[0] if e.args else e), file=sys.stderr)
        return EXIT_BAD
    return EXIT_NOPLOT if failed else 0
