#!/usr/bin/env python3
"""tools/paired.py: paired differences between the values of one varied key
in a pnrsim-sweep results.csv.

  tools/paired.py RESULTS.csv KEY REF METRIC [METRIC...]

For every value V of KEY other than REF and every metric, the runs at V are
paired with the runs at REF that have the same other parameters, trace
window and seed (common random numbers: the same jobs and the same seed),
and the mean of the differences V - REF is printed with the half-width of
its 95% Student-t interval, t(0.975, n-1) * sd / sqrt(n). A '*' marks a
difference whose interval excludes 0. Pairing removes the variation that
both runs share (which slice of the trace, which seed), so it separates
settings whose own intervals in summary.csv overlap.

Only finished runs ("ok") with a value in both are paired. Output: one
line per group of other parameters, value and metric.
"""
import csv
import math
import sys

# t(0.975, df) for df = 1..30; beyond, the normal 1.96 is within 2%.
T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262,
        2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101,
        2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052,
        2.048, 2.045, 2.042]


def t975(df):
    """Two-sided 95% Student-t quantile for df degrees of freedom."""
    return T975[df - 1] if df <= len(T975) else 1.96


def main(argv):
    if len(argv) < 5:
        sys.stderr.write(__doc__)
        return 2
    path, key, ref, metrics = argv[1], argv[2], argv[3], argv[4:]
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows or key not in rows[0]:
        sys.stderr.write("%s: no column %s\n" % (path, key))
        return 2
    for m in metrics:
        if m not in rows[0]:
            sys.stderr.write("%s: no column %s\n" % (path, m))
            return 2
    fixed = ("window", "seed", "status", key)
    cols = list(rows[0].keys())
    others = [c for c in cols[:cols.index("seed")] if c not in fixed]
    runs = {}
    values = []
    for r in rows:
        if r[key] not in values:
            values.append(r[key])
        if r["status"] != "ok":
            continue
        group = tuple(r[c] for c in others)
        runs[(group, r[key], r.get("window", ""), r["seed"])] = r
    groups = []
    for g, _, _, _ in runs:
        if g not in groups:
            groups.append(g)
    for g in groups:
        label = " ".join("%s=%s" % kv for kv in zip(others, g))
        for v in values:
            if v == ref:
                continue
            for m in metrics:
                d = []
                for (g2, v2, w, s), r in runs.items():
                    if g2 != g or v2 != v:
                        continue
                    b = runs.get((g, ref, w, s))
                    if b and r[m] != "" and b[m] != "":
                        d.append(float(r[m]) - float(b[m]))
                if len(d) < 2:
                    continue
                n = len(d)
                mu = sum(d) / n
                sd = math.sqrt(sum((x - mu) ** 2 for x in d) / (n - 1))
                ci = t975(n - 1) * sd / math.sqrt(n)
                print("%s%s%s - %s: %s: %+.6g +- %.3g (n = %d)%s" % (
                    label, " " if label else "", v, ref, m, mu, ci, n,
                    " *" if abs(mu) > ci else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
