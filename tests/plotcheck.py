"""Image statistics of pnrsim-plot's pictures (run by tests/test_plots.sh).

    plotcheck.py PLOTDIR MAXFRAC MAXBLACK

PLOTDIR is a plot directory drawn with --keep-data (data/axes.json holds
each picture's plot-area box in image pixels). For every PNG it prints
one line: name, the share of the plot area covered by its most common
colour, that colour, the share of black pixels (Gantt chart), and the
note drawn when there was nothing to show; then checks:
  - a picture with a note: the note's text is in axes.json and the plot
    area is not blank (dark text pixels exist in its middle third);
  - otherwise: no colour covers more than MAXFRAC of the plot area;
  - gantt: black (context switches) covers less than MAXBLACK of it.
Exit status 0 when every check holds, 1 otherwise (each failure printed).
"""
import json
import os
import sys

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


def main(argv):
    d, maxfrac, maxblack = argv[0], float(argv[1]), float(argv[2])
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
        elif top > maxfrac:
            print("FAIL %s: %s covers %.3f > %.2f of the plot area" % (name, colour, top, maxfrac))
            bad += 1
        if name == "gantt" and black >= maxblack:
            print("FAIL gantt: black (switches) covers %.3f >= %.2f" % (black, maxblack))
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
