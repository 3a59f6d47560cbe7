"""pnrsim.study_dist: distributions of per-job figures over a study's runs.

The study page's means (summary.csv) hide the spread; this module draws,
for every parameter point, the distribution of its jobs' wait, response
and slowdown over all finished runs of the point (issue 37 item 4), and a
fairness figure: slowdown per job-size class.

Data. A finished run r of a point lives in OUT/runs/POINT/seed-S or
OUT/runs/POINT/window-W/seed-S (study/runs.c); POINT is the point's
directory name (study/fingerprint.c study_point_dirname, rebuilt here by
``point_dirname``: "key=value,..." in study order, bytes outside
[A-Za-z0-9._+-] as %XX, a baseline value @NAME, a name over 200 bytes or
starting with '.' as "p-" and its 64-bit FNV-1a hash). The runs are those
of results.csv with status ok. Of each run's jobs.csv only the completed
jobs count: state ``finished`` (killed, queued, running and dropped jobs
have no response or slowdown to count); a jobs.csv without a state column
(older pnrsim) counts every row with an end. The slowdown is
``bounded_slowdown_dedicated`` (over the job's dedicated run time, its CPU
demand; issue 37 item 1) when every run's jobs.csv has that column, else
``bounded_slowdown`` (over its execution time as run); the figures and the
CSV name the column used.

Figures (OUT/plots, as png and svg, and a CSV of the numbers drawn):

dist-wait, dist-response, dist-slowdown
    one box per parameter point, grouped on the x axis by the value of x
    (the first [plot]'s x, else the first varied key; always categorical
    here, in study order), one colour per line (the values of the other
    varied keys; the first [plot]'s lines key first). Box: the quartiles;
    line in it: the median; whiskers: the 5th and 95th percentiles
    (points beyond them are not drawn: with thousands of jobs they would
    hide the boxes); diamond: the mean. Quantiles are numpy's default
    (linear interpolation between order statistics: the q-quantile of n
    sorted values x_0..x_{n-1} is x_i + f (x_{i+1} - x_i) with
    i + f = q (n - 1)). The slowdown's y axis is logarithmic when the
    largest 95th percentile or mean reaches 10 times the smallest 5th
    percentile (a heavy tail: the mean far above the box). CSV columns:
    line, x, the varied keys, runs, jobs, p5, q1, median, q3, p95, mean,
    max.
fairness
    the slowdown per job-size class, threads 1, 2-4, 5-16, 17-64, 65-256,
    257-1024, >1024 (powers of 4: the classes stay few on machines of a
    thousand PEs, and the narrow jobs that backfilling favours are apart
    from the wide ones); per class present a group, in it per series the
    median (marker) and the quartiles (bar). The series: every parameter
    point when the study has at most 12, else the points at x's first
    value (a [plot]'s x: the most constrained end of the range in the
    bundled studies) and the series are the lines. CSV columns: series,
    class, lo, hi (threads), runs, jobs, q1, median, q3, mean; the jobs of
    a series summed over its classes are its completed jobs.
"""
import os

import numpy as np
import pandas as pd

QUANTS = (("p5", 0.05), ("q1", 0.25), ("median", 0.5), ("q3", 0.75), ("p95", 0.95))
CLASSES = ((1, 1), (2, 4), (5, 16), (17, 64), (65, 256), (257, 1024), (1025, None))
FIGURES = (("wait", "wait", "s"), ("response", "response", "s"), ("slowdown", None, ""))
MAX_SERIES = 12
_OK = set(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-")


def _fnv1a(data):
    h = 14695981039346656037
    for ch in data:
        h ^= ch
        h = (h * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h


def point_dirname(info, values):
    """The directory name of the point whose varied keys have the texts
    values (in study order), as study_point_dirname writes it."""
    params = info["parameters"]
    if not params:
        return "base"
    parts = []
    for p, v in zip(params, values):
        bl = dict(zip(p["values"], p["baseline"])).get(v, False)
        if bl:
            parts.append("%s=@%s" % (p["key"], v))
            continue
        esc = "".join(chr(c) if c in _OK else "%%%02X" % c for c in v.encode("utf-8"))
        parts.append("%s=%s" % (p["key"], esc))
    name = ",".join(parts)
    raw = name.encode("utf-8")
    if len(raw) > 200 or name.startswith("."):
        return "p-%016x" % _fnv1a(raw)
    return name


def run_dirs(outdir, info):
    """[(point values tuple, run directory)] of the finished runs
    (results.csv status ok), in results.csv order."""
    keys = [p["key"] for p in info["parameters"]]
    df = pd.read_csv(os.path.join(outdir, "results.csv"), dtype=str,
                     keep_default_na=False)
    out = []
    for _, r in df.iterrows():
        if r.get("status") != "ok":
            continue
        vals = tuple(r[k] for k in keys)
        d = os.path.join(outdir, "runs", point_dirname(info, vals))
        if "window" in df.columns and r["window"] != "":
            d = os.path.join(d, "window-%s" % r["window"])
        out.append((vals, os.path.join(d, "seed-%s" % r["seed"])))
    return out


def _jobs_file(d):
    for n in ("jobs.csv", "jobs.csv.gz"):
        if os.path.isfile(os.path.join(d, n)):
            return os.path.join(d, n)
    return None


def load_jobs(outdir, info):
    """(jobs, slowdown column, runs per point): the completed jobs of every
    finished run, one row each with the varied keys (texts), run, wait,
    response, slowdown, threads; runs per point {values: count}."""
    runs = run_dirs(outdir, info)
    keys = [p["key"] for p in info["parameters"]]
    frames, cols, nruns = [], [], {}
    for i, (vals, d) in enumerate(runs):
        f = _jobs_file(d)
        if f is None:
            continue
        j = pd.read_csv(f, comment="#", keep_default_na=False, na_values=[""],
                        dtype={"state": str})
        cols.append(set(j.columns))
        if "state" in j.columns:
            j = j[j["state"] == "finished"]
        else:
            j = j[j["end"].notna()]
        j = j.copy()
        for k, v in zip(keys, vals):
            j[k] = v
        j["run"] = i
        frames.append(j)
        nruns[vals] = nruns.get(vals, 0) + 1
    sd = "bounded_slowdown"
    if cols and all("bounded_slowdown_dedicated" in c for c in cols):
        sd = "bounded_slowdown_dedicated"
    if not frames:
        return pd.DataFrame(columns=keys + ["run", "wait", "response", "slowdown",
                                            "threads"]), sd, nruns
    jobs = pd.concat(frames, ignore_index=True)
    jobs["slowdown"] = jobs[sd].astype(float)
    return jobs[keys + ["run", "wait", "response", "slowdown", "threads"]], sd, nruns


def layout(info):
    """(x key, [line keys]): the first [plot]'s x and lines, else the first
    and the other varied keys; the line keys are every varied key but x."""
    keys = [p["key"] for p in info["parameters"]]
    if not keys:
        return None, []
    x, first = keys[0], None
    if info.get("plots"):
        x = info["plots"][0]["x"]
        first = info["plots"][0].get("lines")
    rest = [k for k in keys if k != x]
    if first in rest:
        rest = [first] + [k for k in rest if k != first]
    return x, rest


def _points(info):
    """Every point's values (tuple of texts, study order) as the sweep
    enumerates them: the product of the varied keys' values."""
    import itertools
    return list(itertools.product(*[p["values"] for p in info["parameters"]]))


def _line_label(info, lkeys, vals):
    keys = [p["key"] for p in info["parameters"]]
    v = dict(zip(keys, vals))
    if len(lkeys) == 1:
        return v[lkeys[0]]
    return ", ".join("%s=%s" % (k, v[k]) for k in lkeys)


def _groups(jobs, keys):
    """{point values tuple: its rows of jobs}."""
    if not len(jobs):
        return {}
    key = pd.Series(list(zip(*(jobs[k] for k in keys))) if keys else [()] * len(jobs),
                    index=jobs.index)
    return {k: jobs.loc[idx] for k, idx in key.groupby(key, sort=False).groups.items()}


def quantiles(values):
    """{p5, q1, median, q3, p95, mean, max} of an array (numpy's linear
    quantiles); NaN when it is empty."""
    a = np.asarray(values, dtype=float)
    if not len(a):
        return {k: np.nan for k in [q[0] for q in QUANTS] + ["mean", "max"]}
    out = {k: float(np.quantile(a, q)) for k, q in QUANTS}
    out["mean"] = float(a.mean())
    out["max"] = float(a.max())
    return out


def dist_table(info, jobs, nruns, column):
    """The quantiles of column per point: DataFrame line, x, keys..., runs,
    jobs, p5 .. max, in x then line order (study order); points without a
    completed job left out."""
    keys = [p["key"] for p in info["parameters"]]
    xk, lkeys = layout(info)
    rows = []
    groups = _groups(jobs, keys)
    for vals in _points(info):
        g = groups.get(vals)
        if g is None or not len(g):
            continue
        v = dict(zip(keys, vals))
        row = {"line": _line_label(info, lkeys, vals) if lkeys else column,
               "x": v[xk] if xk else ""}
        row.update(v)
        row["runs"] = nruns.get(vals, 0)
        row["jobs"] = len(g)
        row.update(quantiles(g[column].to_numpy(dtype=float)))
        rows.append(row)
    cols = ["line", "x"] + keys + ["runs", "jobs"] + [q[0] for q in QUANTS] + ["mean", "max"]
    return pd.DataFrame(rows, columns=cols)


def size_class(threads):
    """The index in CLASSES of a job of that many threads."""
    for i, (lo, hi) in enumerate(CLASSES):
        if hi is None or threads <= hi:
            return i
    return len(CLASSES) - 1


def _class_name(i):
    lo, hi = CLASSES[i]
    if hi is None:
        return ">%d" % (lo - 1)
    return "%d" % lo if lo == hi else "%d-%d" % (lo, hi)


def fairness_points(info):
    """The points of the fairness figure and the series label of each:
    [(values, label)]."""
    pts = _points(info)
    xk, lkeys = layout(info)
    keys = [p["key"] for p in info["parameters"]]
    if len(pts) <= MAX_SERIES or xk is None:
        multi = [k for k in keys if len(info["parameters"][keys.index(k)]["values"]) > 1]
        out = []
        for vals in pts:
            v = dict(zip(keys, vals))
            lab = ", ".join("%s=%s" % (k, v[k]) for k in multi) if multi else "all runs"
            out.append((vals, lab))
        return out
    x0 = info["parameters"][keys.index(xk)]["values"][0]
    return [(vals, _line_label(info, lkeys, vals)) for vals in pts
            if dict(zip(keys, vals))[xk] == x0]


def fairness_table(info, jobs, nruns):
    """Slowdown per job-size class per series: DataFrame series, class, lo,
    hi, runs, jobs, q1, median, q3, mean (classes without jobs left out)."""
    keys = [p["key"] for p in info["parameters"]]
    groups = _groups(jobs, keys)
    rows = []
    for vals, label in fairness_points(info):
        g = groups.get(vals)
        if g is None or not len(g):
            continue
        cls = np.array([size_class(int(t)) for t in g["threads"]])
        sd = g["slowdown"].to_numpy(dtype=float)
        for i in range(len(CLASSES)):
            a = sd[cls == i]
            if not len(a):
                continue
            q = quantiles(a)
            rows.append({"series": label, "class": _class_name(i), "lo": CLASSES[i][0],
                         "hi": CLASSES[i][1] if CLASSES[i][1] is not None else "",
                         "runs": nruns.get(vals, 0), "jobs": len(a), "q1": q["q1"],
                         "median": q["median"], "q3": q["q3"], "mean": q["mean"]})
    return pd.DataFrame(rows, columns=["series", "class", "lo", "hi", "runs", "jobs", "q1",
                                       "median", "q3", "mean"])


# ---- drawing ----------------------------------------------------------------------


def _st():
    from . import study
    return study


def _log_y(ax):
    """A logarithmic y axis labelled with plain numbers ("%g": 1, 10,
    100): matplotlib's default 10^k labels go through its mathtext parser,
    which warns under python3 -W error with Debian's pyparsing."""
    import matplotlib.ticker as mt
    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(mt.FuncFormatter(lambda v, _: "%g" % v))
    ax.yaxis.set_minor_formatter(mt.NullFormatter())


CAPTION = ("completed jobs only (state finished), all finished runs of each point pooled; "
           "box: quartiles, line: median, whiskers: 5th-95th percentile, diamond: mean")


def draw_dist(study, what, jobs, sdcol, nruns, ax=None):
    """The box plot of per-job `what` (wait, response or slowdown) per
    point; returns (Figure, the quantile table drawn). Raises ValueError
    when no point has a completed job."""
    S = _st()
    from matplotlib.figure import Figure
    info = study.info
    table = dist_table(info, jobs, nruns, what)
    if table.empty:
        raise ValueError("dist-%s: no completed job in any finished run" % what)
    xk, lkeys = layout(info)
    if xk is None:  # a study without [vary]: one box
        xvals = [""]
    else:
        xvals = [v for v in study.param(xk)["values"] if (table["x"] == v).any()]
    lines = list(dict.fromkeys(table["line"]))
    nl = len(lines)
    width = min(0.8 / nl, 0.35)
    colours = S._colours(nl)
    if ax is None:
        fig = Figure(figsize=(max(8.0, min(16.0, 1.0 + 0.35 * len(table))), 5.0), dpi=120)
        ax = fig.add_subplot()
    else:
        fig = ax.figure
    for li, name in enumerate(lines):
        d = table[table["line"] == name]
        stats, pos = [], []
        for _, r in d.iterrows():
            pos.append(xvals.index(r["x"]) + (li - (nl - 1) / 2.0) * width)
            stats.append({"whislo": r["p5"], "q1": r["q1"], "med": r["median"],
                          "q3": r["q3"], "whishi": r["p95"], "mean": r["mean"],
                          "fliers": [], "label": ""})
        ax.bxp(stats, positions=pos, widths=width * 0.85, showmeans=True,
               showfliers=False, patch_artist=True, manage_ticks=False,
               boxprops={"facecolor": colours[li], "alpha": 0.8, "linewidth": 0.8},
               medianprops={"color": "black", "linewidth": 1.2},
               meanprops={"marker": "D", "markerfacecolor": "white",
                          "markeredgecolor": "black", "markersize": 4},
               whiskerprops={"color": colours[li]}, capprops={"color": colours[li]})
        ax.plot([], [], color=colours[li], linewidth=6, label=S._tex(name))
    ax.set_xticks(range(len(xvals)))
    ax.set_xticklabels([S._tex(v) for v in xvals])
    ax.set_xlim(-0.5, len(xvals) - 0.5)
    top = max(table["p95"].max(), table["mean"].max())
    if what == "slowdown" and (table["p5"] > 0).all() and top >= 10 * table["p5"].min():
        _log_y(ax)
    ax.set_facecolor("#eeeeee")
    ax.grid(True, axis="y", color="white", linewidth=0.9)
    ax.set_axisbelow(True)
    if xk is not None:
        ax.set_xlabel(S._tex(S._with_unit(xk, study.param(xk)["unit"])))
    ylabel = {"wait": "wait [s]", "response": "response [s]",
              "slowdown": sdcol + ("\n(over the dedicated run time)"
                                   if sdcol == "bounded_slowdown_dedicated"
                                   else "\n(over the execution time as run)")}[what]
    ax.set_ylabel(S._tex("per-job " + ylabel))
    ns = sorted(set(int(n) for n in table["runs"]))
    runs = ("%d run%s per point" % (ns[0], "" if ns[0] == 1 else "s")) if len(ns) == 1 else \
        ("%d-%d runs per point" % (ns[0], ns[-1]))
    ax.set_title(S._tex("%s: per-job %s, one box per point (%s)\n%s"
                        % (study.name, what, runs, CAPTION)), fontsize=9)
    if nl > 1:
        leg = ax.legend(title=S._tex(", ".join(lkeys) if len(lkeys) > 1 else lkeys[0]),
                        loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0,
                        fontsize=8, title_fontsize=8, frameon=False,
                        ncol=1 if nl <= 22 else 2)
        leg.set_in_layout(True)
    return fig, table


def draw_fairness(study, jobs, sdcol, nruns, ax=None):
    """The slowdown per job-size class, one series per point (or per line
    at x's first value); returns (Figure, table). Raises ValueError when
    no point has a completed job."""
    S = _st()
    from matplotlib.figure import Figure
    info = study.info
    table = fairness_table(info, jobs, nruns)
    if table.empty:
        raise ValueError("fairness: no completed job in any finished run")
    classes = [_class_name(i) for i in range(len(CLASSES))
               if (table["class"] == _class_name(i)).any()]
    series = list(dict.fromkeys(table["series"]))
    ns = len(series)
    step = min(0.8 / ns, 0.2)
    colours = S._colours(ns)
    if ax is None:
        fig = Figure(figsize=(9.0, 5.0), dpi=120)
        ax = fig.add_subplot()
    else:
        fig = ax.figure
    for si, name in enumerate(series):
        d = table[table["series"] == name]
        x = np.array([classes.index(c) for c in d["class"]], dtype=float)
        x += (si - (ns - 1) / 2.0) * step
        m = d["median"].to_numpy(dtype=float)
        err = np.vstack([m - d["q1"].to_numpy(dtype=float), d["q3"].to_numpy(dtype=float) - m])
        ax.errorbar(x, m, yerr=np.clip(err, 0, None), color=colours[si],
                    marker=S._MARKERS[si % len(S._MARKERS)], markersize=5, capsize=3,
                    linestyle="none", label=S._tex(name))
    ax.set_xticks(range(len(classes)))
    def count(c):
        n = table[table["class"] == c]["jobs"]
        if n.nunique() == 1 and ns > 1:
            return "%d jobs each" % n.iloc[0]
        return "%d jobs" % n.sum()
    ax.set_xticklabels(["%s\n(%s)" % (c, count(c)) for c in classes])
    ax.set_xlim(-0.5, len(classes) - 0.5)
    if (table["q1"] > 0).all() and table["q3"].max() >= 20 * table["q1"].min():
        _log_y(ax)
    ax.set_facecolor("#eeeeee")
    ax.grid(True, axis="y", color="white", linewidth=0.9)
    ax.set_axisbelow(True)
    ax.set_xlabel("job size class (threads)")
    ax.set_ylabel(S._tex("per-job %s: median, quartiles" % sdcol))
    pts = fairness_points(info)
    xk, _ = layout(info)
    sub = "" if len(pts) == len(_points(info)) else " at %s=%s" % (
        xk, info["parameters"][[p["key"] for p in info["parameters"]].index(xk)]["values"][0])
    ax.set_title(S._tex("%s: fairness, slowdown by job size%s\ncompleted jobs only (state "
                        "finished), all finished runs of each point pooled"
                        % (study.name, sub)), fontsize=9)
    if ns > 1:
        leg = ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0,
                        fontsize=8, frameon=False, ncol=1 if ns <= 22 else 2)
        leg.set_in_layout(True)
    return fig, table


def draw_all(study, plotdir, formats=("png", "svg"), err=None):
    """dist-wait, dist-response, dist-slowdown and fairness into plotdir
    (.png/.svg and .csv). Returns (drawn, not drawn); a figure without data
    is named on err."""
    S = _st()
    import sys
    err = err or sys.stderr
    try:
        jobs, sdcol, nruns = load_jobs(study.outdir, study.info)
    except (OSError, ValueError, KeyError, pd.errors.ParserError) as e:
        print("%s: distribution figures not drawn: a run's jobs.csv or results.csv "
              "could not be read: %s" % (S.PROG, e), file=err)
        return 0, len(FIGURES) + 1
    drawn = failed = 0
    todo = [("dist-" + w, lambda w=w: draw_dist(study, w, jobs, sdcol, nruns))
            for w, _, _ in FIGURES]
    todo.append(("fairness", lambda: draw_fairness(study, jobs, sdcol, nruns)))
    for name, fn in todo:
        base = os.path.join(plotdir, name)
        try:
            fig, table = fn()
        except ValueError as e:
            print("%s: %s; not drawn" % (S.PROG, e), file=err)
            failed += 1
            continue
        S.save(fig, base, formats)
        if name == "dist-slowdown" or name == "fairness":
            table.insert(0, "column", sdcol)
        part = base + ".csv.part"
        table.to_csv(part, index=False, float_format="%.10g")
        os.replace(part, base + ".csv")
        drawn += 1
    return drawn, failed
