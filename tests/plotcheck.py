"""Image statistics of pnrsim-plot's pictures (run by tests/test_plots.sh).

    plotcheck.py RUNDIR PLOTDIR MAXFRAC MAXBLACK

PLOTDIR is a plot directory drawn with --keep-data (data/axes.json holds
each picture's plot-area box in image pixels). For every PNG it prints
one line: name, the share of the plot area covered by its most common
colour, that colour, the share of black pixels (Gantt chart), and the
note drawn when there was nothing to show; then checks:
  - a picture with a note: the note's text is in axes.json and the plot
    area is not blank (dark text pixels exist in its middle third);
  - otherwise, gantt, memory and queue: no colour covers more than MAXFRAC
    of the plot area;
  - paging and overalloc (heat maps: a run that paged on 6 of 240 PEs
    for 2 days of 59 is rightly more than 99% white, so the share of one
    colour says nothing there): the PE rows with colour are exactly
    those whose data (read here with pandas from RUNDIR's paging.csv /
    memory.csv, else pes.csv) shows paging / overallocation in the window;
  - gantt: black (context switches) covers less than MAXBLACK of it.
Exit status 0 when every check holds, 1 otherwise (each failure printed).
"""
import configparser
import json
import os
import sys

import pandas as pd

import matplotlib

matplotlib.use("Agg")
import matplotlib.image as mimage  # noqa: E402
import numpy as np  # noqa: E402


def stats(png, box):
    """(top share, top colour, black share, dark pixels in the middle) of box."""
    img = mimage.imread(png)[:, :, :3]
    x0, y0, x1, y1 = box
    a = img[y0 + 2:y1 - 2, x0 + 2:x1 - 2]
    q = np.round(a * 255).astype(np.int64)
    key = (q[..., 0] << 16) | (q[..., 1] << 8) | q[..., 2]
    vals, counts = np.unique(key, return_counts=True)
    k = counts.argmax()
    top = counts[k] / key.size
    black = (key == 0).sum() / key.size
    h, w = key.shape
    mid = q[h // 3:2 * h // 3, w // 4:3 * w // 4].sum(axis=2)
    return top, "#%06x" % vals[k], black, int((mid < 200).sum())


def _csv(rundir, name):
    for p in (name + ".csv", name + ".csv.gz"):
        if os.path.isfile(os.path.join(rundir, p)):
            return pd.read_csv(os.path.join(rundir, p), comment="#")
    return None


def expected_rows(rundir, name, t0, t1):
    """The set of PE rows that must show colour in heat map `name`."""
    if name == "paging":
        p = _csv(rundir, "paging")
        if p is not None:
            p = p[(p.paging_time > 0) & (p.start < t1) & (p.end >= t0)]
            return set(p.pe.astype(int))
    else:
        m = _csv(rundir, "memory")
        if m is not None:
            m = m.reset_index().sort_values(["pe", "time", "index"])
            held = m[m.time <= t0].groupby("pe").overalloc_mb.last()
            inwin = m[(m.time >= t0) & (m.time < t1)].groupby("pe").overalloc_mb.max()
            return set(held[held > 0].index.astype(int)) | set(inwin[inwin > 0].index.astype(int))
    e = _csv(rundir, "pes")
    cp = configparser.ConfigParser(interpolation=None, strict=False)
    cp.read(os.path.join(rundir, "config.ini"))
    period = float(cp.get("simulation", "metrics_period", fallback="0"))
    e["row"] = e.first_pe.rank(method="dense").astype(int) - 1
    if name == "paging":
        e = e[(e.paging_time > 0) & (e.time > t0) & (e.time - period < t1)]
        return set(e.row)
    e = e.sort_values(["row", "time"])
    held = e[e.time <= t0].groupby("row").overalloc_mb.last()
    inwin = e[(e.time >= t0) & (e.time < t1)].groupby("row").overalloc_mb.max()
    return set(held[held > 0].index) | set(inwin[inwin > 0].index)


def coloured_rows(png, box, nrows):
    """The heat map rows (0 = lowest) with a coloured pixel on their middle
    line (max - min channel > 0.15: the axes' black or grey spines, which the
    edge rows touch, are not colour; the heat colours are saturated)."""
    img = mimage.imread(png)[:, :, :3]
    x0, y0, x1, y1 = box
    hpx = (y1 - y0) / nrows
    out = set()
    for k in range(nrows):
        y = int(y1 - (k + 0.5) * hpx)
        px = img[y, x0 + 3:x1 - 3]
        if ((px.max(axis=1) - px.min(axis=1)) > 0.15).any():
            out.add(k)
    return out


def main(argv):
    rundir, d, maxfrac, maxblack = argv[0], argv[1], float(argv[2]), float(argv[3])
    with open(os.path.join(d, "data", "axes.json")) as f:
        info = json.load(f)
    bad = 0
    for name in ("gantt", "paging", "overalloc", "memory", "queue"):
        png = os.path.join(d, name + ".png")
        if name not in info or not os.path.isfile(png):
            print("FAIL %s: no picture or no axes box" % name)
            bad += 1
            continue
        i = info[name]
        img = mimage.imread(png)
        if list(img.shape[1::-1]) != i["size"]:
            print("FAIL %s: image %s, axes.json says %s" % (name, img.shape[1::-1], i["size"]))
            bad += 1
        top, colour, black, dark = stats(png, i["boxes"]["plot"])
        print("%s: top colour %s covers %.3f of the plot area, black %.4f, note %r"
              % (name, colour, top, black, i["note"]))
        if i["note"]:
            if dark < 50:
                print("FAIL %s: a note is recorded but the middle of the plot is blank" % name)
                bad += 1
        elif name in ("paging", "overalloc"):
            nrows, g = i["rows"]
            want = expected_rows(rundir, name, *i["window"])
            want = {r // g for r in want}
            got = coloured_rows(png, i["boxes"]["plot"], nrows)
            print("  %s: %d rows with colour, %d expected from the data" % (name, len(got), len(want)))
            if got != want:
                print("FAIL %s: rows with colour %s, expected %s" % (name, sorted(got)[:20],
                                                                     sorted(want)[:20]))
                bad += 1
        elif top > maxfrac:
            print("FAIL %s: %s covers %.3f > %.2f of the plot area" % (name, colour, top, maxfrac))
            bad += 1
        if name == "gantt" and black >= maxblack:
            print("FAIL gantt: black (switches) covers %.3f >= %.2f" % (black, maxblack))
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
