#!/usr/bin/env python3
"""tools/study-table.py: a Markdown table of a pnrsim-sweep summary.csv.

  tools/study-table.py SUMMARY.csv METRIC[:DIGITS] [METRIC[:DIGITS]...]

One row per parameter point (in the file's order): the varied parameters,
n, then for each METRIC "mean ± ci95" (the 95% Student-t half-width of
summary.csv), with DIGITS decimals (default: 0 for values of 100 or more,
else 3 significant digits). An empty statistic (n = 1 has no interval, a
metric the point's runs do not report) is written as "-". Thousands are
separated by commas.
"""
import csv
import math
import sys


def fmt(x, digits):
    """x with DIGITS decimals, or the default rule when DIGITS is None."""
    if digits is None:
        if abs(x) >= 100 or x == 0:
            digits = 0
        else:
            digits = max(0, 2 - int(math.floor(math.log10(abs(x)))))
    return "{:,.{}f}".format(x, digits)


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    path, specs = argv[1], argv[2:]
    metrics = []
    for s in specs:
        name, _, d = s.partition(":")
        metrics.append((name, int(d) if d else None))
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.stderr.write("%s: no rows\n" % path)
        return 2
    cols = list(rows[0].keys())
    params = cols[:cols.index("n")]
    for m, _ in metrics:
        if m + "_mean" not in rows[0]:
            sys.stderr.write("%s: no metric %s\n" % (path, m))
            return 2
    print("| " + " | ".join(params + ["n"] + [m for m, _ in metrics]) + " |")
    print("|" + "---|" * (len(params) + 1 + len(metrics)))
    for r in rows:
        cells = [r[p] for p in params] + [r["n"]]
        for m, d in metrics:
            mean, ci = r[m + "_mean"], r[m + "_ci95"]
            if mean == "":
                cells.append("-")
            elif ci == "":
                cells.append(fmt(float(mean), d))
            else:
                cells.append("%s ± %s" % (fmt(float(mean), d), fmt(float(ci), d)))
        print("| " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
