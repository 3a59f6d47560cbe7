#!/usr/bin/env python3
"""tools/paired-runs.py: paired comparison of two sets of pnrsim runs, metric
by metric (issue 23 part 3; docs/BATCHING.md "128 MB per PE, 20 seed pairs").

  tools/paired-runs.py 'REF_GLOB' 'OTHER_GLOB' [LABEL1 LABEL2] > table.md

Each glob names run directories (pnrsim -o DIR) holding a complete
metrics.json (not "partial"). Runs are paired by their "seed": run i of the
reference set and run i of the other set used the same seed (the same jobs,
the same trace; their random streams are not shared, so pairing removes
what the seeds share, e.g. the trace, and nothing is assumed beyond that).

For every numeric metric except `seed` and `events` (and the nested counts
of `dropped`), with n pairs and d_i = other_i - ref_i:
  mean of each set; the mean paired difference d̄ and its 95% interval
  d̄ ± t(0.975, n-1) * sd(d) / sqrt(n); the relative difference d̄ / mean(ref);
  the paired t = d̄ / (sd(d) / sqrt(n)) and its two-sided p (Student, n-1
  degrees of freedom); and Holm's adjusted p over all non-constant metrics
  of the table: p_(i) adjusted = max over j <= i of min(1, (m - j + 1) p_(j)).
A metric whose differences are all 0 is counted as equal (no test).
The last line names the metrics significant at 5% after Holm.
Exit status: 0; 1 if fewer than 2 seeds are in both sets; 2 usage.
"""
import importlib.util
import math
import os
import statistics as st
import sys

_spec = importlib.util.spec_from_file_location(
    "batching_table", os.path.join(os.path.dirname(os.path.abspath(__file__)), "batching-table.py"))
_bt = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_bt)
# load() (run directories by seed) and t975() are batching-runs.py's.
_rspec = importlib.util.spec_from_file_location(
    "batching_runs", os.path.join(os.path.dirname(os.path.abspath(__file__)), "batching-runs.py"))
_br = importlib.util.module_from_spec(_rspec)
_rspec.loader.exec_module(_br)
load, t975 = _br.load, _br.t975


def t_p(t, df):
    """Two-sided p of Student's t with df degrees of freedom."""
    if math.isinf(t):
        return 0.0
    return _bt.betai(df / 2, 0.5, df / (df + t * t))


def holm(ps):
    """Holm's step-down adjusted p values, in the order of ps."""
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    adj, run = [0.0] * len(ps), 0.0
    for rank, i in enumerate(order):
        run = max(run, min(1.0, (len(ps) - rank) * ps[i]))
        adj[i] = run
    return adj


def main(argv):
    if len(argv) not in (3, 5):
        sys.stderr.write(__doc__)
        return 2
    labels = argv[3:5] if len(argv) == 5 else ["exact", "batched"]
    a, b = load(argv[1]), load(argv[2])
    seeds = sorted(set(a) & set(b))
    n = len(seeds)
    if n < 2:
        sys.stderr.write("paired-runs: %d seed(s) in both sets, need 2\n" % n)
        return 1
    t = t975(n - 1)
    res, const = [], 0
    for k, v in a[seeds[0]].items():
        if isinstance(v, bool) or not isinstance(v, (int, float)) or k in ("seed", "events"):
            continue
        if not all(isinstance(b[s].get(k), (int, float)) for s in seeds):
            continue
        xa = [a[s][k] for s in seeds]
        xb = [b[s][k] for s in seeds]
        d = [y - x for x, y in zip(xa, xb)]
        if all(x == 0 for x in d):
            const += 1
            continue
        dm, sd = st.mean(d), st.stdev(d)
        h = t * sd / math.sqrt(n)
        tt = dm / (sd / math.sqrt(n)) if sd > 0 else math.copysign(float("inf"), dm)
        res.append([k, st.mean(xa), st.mean(xb), dm, h, tt, t_p(abs(tt), n - 1)])
    adj = holm([r[6] for r in res])
    fmt = _bt.fmt
    ev = (st.mean(a[s].get("events", 0) for s in seeds), st.mean(b[s].get("events", 0) for s in seeds))
    print("%d seed pairs (%s); events per run %.3g → %.3g.\n"
          % (n, ", ".join(str(s) for s in seeds), ev[0], ev[1]))
    print("| metric | %s mean | %s mean | paired difference ± 95%% | relative | paired t | p | Holm p |"
          % tuple(labels))
    print("|---|---|---|---|---|---|---|---|")
    for (k, ma, mb, dm, h, tt, p), ph in zip(res, adj):
        rel = "%+.2f%%" % (dm / ma * 100) if ma else "-"
        print("| %s | %s | %s | %s ± %s | %s | %+.2f | %.2g | %.2g%s |"
              % (k, fmt(ma), fmt(mb), fmt(dm), fmt(h), rel, tt, p, ph, " **" if ph < 0.05 else ""))
    sig = [r[0] for r, ph in zip(res, adj) if ph < 0.05]
    print("\n%d metrics equal in every pair; of the %d others, significant at 5%% after Holm: %s."
          % (const, len(res), ", ".join(sig) or "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
