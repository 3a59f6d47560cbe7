"""tests/study_plots.py: checks of a study's pictures (python/pnrsim/study.py),
run by tests/test_study_plots.sh with /usr/bin/python3 -W error.

    study_plots.py draw DIR        pnrsim.study.main([DIR]); prints its status
    study_plots.py files DIR       every [plot]'s PNG, SVG and CSV exist; the
                                   PNG is not blank
    study_plots.py small DIR       the checks of the small study (labels,
                                   near-equal ticks, categorical axis, legend)
    study_plots.py many DIR        a study with 16 series (then-and-now's
                                   study.json, summary.csv filled here)

Each check prints "ok NAME" or "FAIL NAME: why"; the shell test counts them.
"""
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.image as mimage  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402

from pnrsim import study  # noqa: E402


def report(name, good, why=""):
    print(("ok   %s" % name) if good else ("FAIL %s: %s" % (name, why)))


def blank_stats(path):
    """(largest share of one colour, share of saturated pixels) of a PNG.
    Saturated: max - min of R, G, B above 0.3 (the data's colours; text,
    axes, grid and background are greys)."""
    a = mimage.imread(path)[:, :, :3]
    px = a.reshape(-1, 3)
    _, counts = np.unique(px, axis=0, return_counts=True)
    sat = ((px.max(axis=1) - px.min(axis=1)) > 0.3).mean()
    return counts.max() / len(px), sat


def check_files(d):
    s = study.load(d)
    for pl in s.info["plots"]:
        base = os.path.join(d, "plots", pl["name"])
        have = all(os.path.isfile(base + e) and os.path.getsize(base + e) > 0
                   for e in (".png", ".svg", ".csv"))
        report("plot %s: PNG, SVG and CSV written" % pl["name"], have,
               "missing under %s/plots" % d)
        if not have:
            continue
        # Not blank: no colour covers more than 95% of the picture, and the
        # data's colours cover at least 0.1% of it (a picture with axes but
        # no data has none).
        top, sat = blank_stats(base + ".png")
        report("plot %s: not blank (one colour %.3f <= 0.95, data colours "
               "%.4f >= 0.001)" % (pl["name"], top, sat),
               top <= 0.95 and sat >= 0.001)


def drawn(fig):
    FigureCanvasAgg(fig)
    fig.canvas.draw()
    return fig.axes[0]


def visible_ytick_texts(ax):
    lo, hi = sorted(ax.get_ylim())
    texts = [t.get_text() for t, v in zip(ax.get_yticklabels(), ax.get_yticks())
             if lo <= v <= hi]
    return texts, ax.yaxis.get_offset_text().get_text()


def check_small(d):
    s = study.load(d)
    # The study: computer.ram = 16, 32 (MB) x netram.strategy = central,
    # client + baseline disk; windows = 2, replications = 2: 4 runs a
    # point, all finished.
    ax = drawn(s.plot("slowdown"))
    report("x label from the key and its unit: 'computer.ram [MB]'",
           ax.get_xlabel() == "computer.ram [MB]", ax.get_xlabel())
    want = "bounded_slowdown_mean\nmean of 4 runs (2 windows \u00d7 2 seeds), 95% CI"
    report("y label: metric, then the run count from the data (2 windows x 2 seeds = 4)",
           ax.get_ylabel() == want, repr(ax.get_ylabel()))
    ax = drawn(s.plot("response"))
    # a [plot] ylabel replaces the name; the run count is still generated
    want = "response time (s)\nmean of 4 runs (2 windows \u00d7 2 seeds), 95% CI"
    report("y label given in the study: kept, run count generated",
           ax.get_ylabel() == want, repr(ax.get_ylabel()))
    report("response: x label of a key without a unit: 'netram.strategy'",
           ax.get_xlabel() == "netram.strategy", ax.get_xlabel())
    # Categorical x (strategy names): grouped points, no line joining two
    # categories: every Line2D with a visible line style has a single x.
    joined = [ln for ln in ax.get_lines()
              if ln.get_linestyle() not in ("None", "", " ", "none")
              and len(set(np.asarray(ln.get_xdata(), dtype=float))) > 1]
    report("categorical x: no line between categories (%d joined)" % len(joined),
           not joined)
    # (the error bars' caps are Line2D objects too, with markers _ or |)
    series = [ln for ln in ax.get_lines() if ln.get_marker() not in ("_", "|")]
    # 2 series (computer.ram 16, 32), 3 categories each (central, client, disk)
    report("categorical x: 2 series of 3 points",
           [len(ln.get_xdata()) for ln in series] == [3, 3],
           "%s" % [len(ln.get_xdata()) for ln in series])
    report("categorical x: tick labels central, client, disk",
           [t.get_text() for t in ax.get_xticklabels()] == ["central", "client", "disk"],
           str([t.get_text() for t in ax.get_xticklabels()]))
    # The legend sits outside the axes (right of them).
    leg = ax.get_legend()
    r = ax.figure.canvas.get_renderer()
    report("legend outside the plot area",
           leg is not None and leg.get_window_extent(r).x0 >= ax.get_window_extent(r).x1,
           "legend inside or missing")
    # Near-equal values: means 1000 * (1 + k * 1e-6), k = 0, 1, 2, ... (they
    # differ by 1e-6 relative): the tick labels must still read differently.
    pts = s.points
    col = "bounded_slowdown_mean"
    k = np.arange(len(pts), dtype=float)
    pts[col + "_mean"] = 1000.0 * (1.0 + k * 1e-6)
    pts[col + "_ci95_lo"] = pts[col + "_mean"] - 1e-4
    pts[col + "_ci95_hi"] = pts[col + "_mean"] + 1e-4
    ax = drawn(s.plot("slowdown"))
    texts, offset = visible_ytick_texts(ax)
    report("near-equal values: >= 3 y ticks whose labels all differ (%s, offset '%s')"
           % (texts, offset), len(texts) >= 3 and len(set(texts)) == len(texts))
    # and the axis says where they are: the offset, or enough digits
    report("near-equal values: labels and offset place the values near 1000",
           "1000" in offset or "1e3" in offset or "+1" in offset
           or all(t.replace("\u2212", "-").startswith("1000") for t in texts),
           "offset '%s', labels %s" % (offset, texts))


def check_many(d):
    """then-and-now's study.json (16 series: 2004-disk and 15 baselines), a
    summary.csv filled with made-up means (value = level + series / 10)."""
    s = study.load(d)
    pts = s.points
    p = s.param("simulation.system")
    lvl = s.param("workload.memory_scale")
    for i, row in pts.iterrows():
        li = p["values"].index(str(row["simulation.system"]))
        xi = [float(v) for v in lvl["values"]].index(float(row["workload.memory_scale"]))
        for m in ("response_time_mean", "page_fault_time_per_pe"):
            pts.loc[i, m + "_mean"] = 100.0 * (xi + 1) + li * 10.0
            pts.loc[i, m + "_ci95_lo"] = 100.0 * (xi + 1) + li * 10.0 - 3
            pts.loc[i, m + "_ci95_hi"] = 100.0 * (xi + 1) + li * 10.0 + 3
        pts.loc[i, "n"] = 4
    fig = s.plot("response-time")
    ax = drawn(fig)
    leg = ax.get_legend()
    r = fig.canvas.get_renderer()
    n = len(leg.get_texts()) if leg else 0
    report("16 series: 16 legend entries", n == 16, "%d" % n)
    report("16 series: legend right of the plot area, hiding no data",
           leg is not None and leg.get_window_extent(r).x0 >= ax.get_window_extent(r).x1)
    names = [t.get_text() for t in leg.get_texts()] if leg else []
    report("16 series: baselines with long overrides named alone "
           "(now-c64-pool)", "now-c64-pool" in names, str(names[:6]))
    out = os.path.join(d, "many.png")
    study.save(fig, os.path.join(d, "many"), ("png",))
    top, sat = blank_stats(out)
    report("16 series: picture not blank (one colour %.3f <= 0.95, data %.4f >= 0.001)"
           % (top, sat), top <= 0.95 and sat >= 0.001)


def main(argv):
    mode, d = argv[1], argv[2]
    if mode == "draw":
        print("status %d" % study.main([d]))
    elif mode == "files":
        check_files(d)
    elif mode == "small":
        check_small(d)
    elif mode == "many":
        check_many(d)
    else:
        raise SystemExit("unknown mode " + mode)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
