#!/usr/bin/env python3
"""tools/batching-runs.py: compare two sets of pnrsim runs metric by metric
(docs/BATCHING.md "The full trace": exact against batched runs made one by
one rather than as a pnrsim-sweep study).

  tools/batching-runs.py 'EXACT_GLOB' 'BATCHED_GLOB' [LABEL1 LABEL2] > table.md

Each glob names run directories (pnrsim -o DIR), each holding a complete
metrics.json (not "partial"); runs are paired by their "seed", and only
seeds present in both sets are used. For every numeric metric except
`seed` and `events`: mean ± 95% half-width (Student t, n - 1 degrees of
freedom) in each set, the relative difference, Welch's t and its
two-sided p value, and whether each mean lies within the other's
interval (issue 11's rule). Metrics constant in both sets are counted, not
listed; the last line names the metrics outside the rule and those
significant after Holm's correction over the non-constant ones.
LABEL1 and LABEL2 head the two columns (default: exact, batched).
Exit status: 0, 1 if fewer than 2 seeds are in both sets, 2 usage.
"""
import glob
import importlib.util
import json
import math
import os
import statistics as st
import sys

_spec = importlib.util.spec_from_file_location(
    "batching_table", os.path.join(os.path.dirname(os.path.abspath(__file__)), "batching-table.py"))
_bt = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_bt)


def t975(df):
    """Two-sided 95% Student t quantile, by bisection on Welch's p."""
    lo, hi = 0.0, 100.0
    for _ in range(100):
        mid = (lo + hi) / 2
        # p of t = mid with df degrees of freedom: betai(df/2, 1/2, df/(df+t^2))
        p = _bt.betai(df / 2, 0.5, df / (df + mid * mid))
        lo, hi = (mid, hi) if p > 0.05 else (lo, mid)
    return (lo + hi) / 2


def load(pattern):
    runs = {}
    for d in sorted(glob.glob(pattern)):
        try:
            with open(os.path.join(d, "metrics.json")) as f:
                m = json.load(f)
        except (OSError, ValueError):
            continue
        if not m.get("partial"):
            runs[m["seed"]] = m
    return runs


def main(argv):
    if len(argv) not in (3, 5):
        sys.stderr.write(__doc__)
        return 2
    labels = argv[3:5] if len(argv) == 5 else ["exact", "batched"]
    a, b = load(argv[1]), load(argv[2])
    seeds = sorted(set(a) & set(b))
    n = len(seeds)
    if n < 2:
        sys.stderr.write("batching-runs: %d seed(s) in both sets, need 2\n" % n)
        return 1
    t = t975(n - 1)
    res, const = [], 0
    for k, v in a[seeds[0]].items():
        if isinstance(v, bool) or not isinstance(v, (int, float)) or k in ("seed", "events"):
            continue
        xa = [a[s][k] for s in seeds]
        xb = [b[s][k] for s in seeds]
        ma, mb, sa, sb = st.mean(xa), st.mean(xb), st.stdev(xa), st.stdev(xb)
        if sa == 0 and sb == 0 and ma == mb:
            const += 1
            continue
        ha, hb = t * sa / math.sqrt(n), t * sb / math.sqrt(n)
        tw = (mb - ma) / math.sqrt((sa * sa + sb * sb) / n) if sa or sb else float("inf")
        p = _bt.welch_p(ma, sa, n, mb, sb, n)
        inside = ma - ha <= mb <= ma + ha and mb - hb <= ma <= mb + hb
        res.append((k, ma, ha, mb, hb, tw, p, inside))
    ps = sorted(r[6] for r in res)
    holm = 0.0
    for i, p in enumerate(ps):
        if p <= 0.05 / (len(ps) - i):
            holm = p
        else:
            break
    fmt = _bt.fmt
    ev = (st.mean(a[s].get("events", 0) for s in seeds), st.mean(b[s].get("events", 0) for s in seeds))
    print("Seeds %s (%d per set); mean ± 95%% half-width; events per run %.3g → %.3g.\n"
          % (", ".join(str(s) for s in seeds), n, ev[0], ev[1]))
    print("| metric | %s | %s | difference | Welch t | p | within both ways |" % tuple(labels))
    print("|---|---|---|---|---|---|---|")
    for k, ma, ha, mb, hb, tw, p, inside in res:
        d = "%+.2f%%" % ((mb / ma - 1) * 100) if ma else "-"
        print("| %s | %s ± %s | %s ± %s | %s | %+.2f | %.2g | %s |"
              % (k, fmt(ma), fmt(ha), fmt(mb), fmt(hb), d, tw, p, "✓" if inside else "✗"))
    out = [r[0] for r in res if not r[7]]
    sig = [r[0] for r in res if r[6] <= holm and r[6] < 0.05]
    print("\n%d metrics constant in both sets; of the %d others, %d outside (%s); "
          "significant after Holm over these %d: %s." % (const, len(res), len(out), ", ".join(out) or "none",
                                                        len(res), ", ".join(sig) or "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
