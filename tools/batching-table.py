#!/usr/bin/env python3
"""tools/batching-table.py: the equivalence table of batched modes
(docs/BATCHING.md) from a pnrsim-sweep summary.csv.

  tools/batching-table.py SUMMARY.csv [SUMMARY.csv ...] [MODE_KEY=REF ...] > table.md

Several summaries (arguments ending in .csv; e.g. batching.ini's and
batching-scarce.ini's) make one table: the scenarios of every summary after
the first are named after its study directory (out/studies/batching-scarce
-> "scarce: ..."), and Holm's correction runs over all their comparisons.

MODE_KEY=REF names a varied key that switches a mode and its reference
(exact) value; default: process.paging=exact. A study may vary several mode
keys (e.g. a network mode beside process.paging): every point whose value
of a mode key differs from REF is compared with the point that has REF
there and the same values of every other key (the same scenario, the same
seeds); a point in several non-exact modes is also compared with the point
in every exact mode.

The issue's rule (issue 11): for every metric, the mean in one mode lies
within the other mode's 95% interval, and the other way round. Metrics
left out: `events` (the simulator's own work, which batching changes on
purpose) and metrics without a value at one of the two points (the pnr_*
counters without network RAM). A metric whose runs all have one value in
both modes (SD 0: job counts, demand done) is counted as equal.

Even two identical modes fail the rule now and then: with n runs each and
equal spread, a mean falls outside the other's 95% interval when the
difference of means exceeds t * s / sqrt(n), i.e. |Z| > t / sqrt(2) = 1.48
for n = 20: about 14% of independent metrics. So for every comparison
outside, the table also gives Welch's two-sample t test (p value) and
whether it stays significant after Holm's correction over all the
comparisons of the table: a difference the test does not call significant
is what chance alone produces at that rate.

Output: Markdown on standard output (one summary row per scenario and
mode, then the key metrics, then every comparison outside).
"""
import csv
import math
import os
import sys

KEY_METRICS = ["response_time_mean", "bounded_slowdown_mean", "wait_time_mean",
               "page_faults_per_pe", "page_fault_time_per_pe", "cpu_utilization",
               "total_time", "mpl_mean"]
SKIP = {"events"}


def betacf(a, b, x):
    """Continued fraction of the incomplete beta function (Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c
        c = c if abs(c) > tiny else tiny
        de = d * c
        h *= de
        if abs(de - 1) < 1e-14:
            break
    return h


def betai(a, b, x):
    """Regularised incomplete beta I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    lbt = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
           + a * math.log(x) + b * math.log(1 - x))
    if x < (a + 1) / (a + b + 2):
        return math.exp(lbt) * betacf(a, b, x) / a
    return 1 - math.exp(lbt) * betacf(b, a, 1 - x) / b


def welch_p(m1, s1, n1, m2, s2, n2):
    """Two-sided p value of Welch's t test (1 when both spreads are 0 and
    the means equal, 0 when they differ)."""
    v1, v2 = s1 * s1 / n1, s2 * s2 / n2
    if v1 + v2 == 0:
        return 1.0 if m1 == m2 else 0.0
    t = (m1 - m2) / math.sqrt(v1 + v2)
    df = (v1 + v2) ** 2 / ((v1 * v1 / (n1 - 1) if n1 > 1 else 0) +
                           (v2 * v2 / (n2 - 1) if n2 > 1 else 0))
    return betai(df / 2, 0.5, df / (df + t * t))


def num(row, key):
    v = row.get(key, "")
    return float(v) if v not in ("", None) else None


def fmt(x):
    if x is None:
        return "-"
    a = abs(x)
    if a != 0 and (a >= 1e6 or a < 1e-3):
        return "%.4g" % x
    return "%.5g" % x


def comparisons(path, modes, prefix):
    """The comparisons of one summary: (scenario, mode label, ref row, row)
    for every point off a mode's reference value, and the metrics it has;
    (None, message) on error."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        return None, "batching-table: %s has no rows\n" % path
    cols = list(rows[0].keys())
    keys = cols[:cols.index("n")]
    for k in modes:
        if k not in keys:
            return None, "batching-table: %s is not a varied key of %s\n" % (k, path)
    metrics = [c[:-5] for c in cols
               if c.endswith("_mean") and c[:-5] + "_ci95_lo" in rows[0]
               and c[:-5] not in SKIP]
    index = {tuple(r[k] for k in keys): r for r in rows}
    scen_keys = [k for k in keys if k not in modes]

    def scen_of(r):
        return prefix + ", ".join("%s=%s" % (x.split(".")[-1], r[x]) for x in scen_keys)

    comps = []  # (scenario, mode label, ref row, row)
    for r in rows:
        for k, ref in modes.items():
            if r[k] == ref:
                continue
            other = dict(r)
            other[k] = ref
            rr = index.get(tuple(other[x] for x in keys))
            if rr is None:
                continue
            label = "%s: %s → %s" % (k, ref, r[k])
            at = ["%s=%s" % (k2, r[k2]) for k2, ref2 in modes.items()
                  if k2 != k and r[k2] != ref2]
            if at:
                label += " (at %s)" % ", ".join(at)
            comps.append((scen_of(r), label, rr, r))
        # A point in more than one non-exact mode: also against all-exact.
        off = [k for k, ref in modes.items() if r[k] != ref]
        if len(off) > 1:
            other = dict(r)
            for k in off:
                other[k] = modes[k]
            rr = index.get(tuple(other[x] for x in keys))
            if rr is not None:
                comps.append((scen_of(r), "all exact → " +
                              ", ".join("%s=%s" % (k, r[k]) for k in off), rr, r))
    return (comps, metrics), None


def main(argv):
    paths = [a for a in argv[1:] if a.endswith(".csv")]
    args = [a for a in argv[1:] if not a.endswith(".csv")]
    if not paths:
        sys.stderr.write(__doc__)
        return 2
    modes = {"process.paging": "exact"}
    if args:
        modes = {}
        for a in args:
            k, _, v = a.partition("=")
            if not v:
                sys.stderr.write("batching-table: expected MODE_KEY=REF, got %r\n" % a)
                return 2
            modes[k] = v
    comps, metrics_of = [], []
    for i, path in enumerate(paths):
        prefix = ""
        if i > 0:
            name = os.path.basename(os.path.dirname(os.path.abspath(path)))
            prefix = (name[len("batching-"):] if name.startswith("batching-") else name) + ": "
        got, err = comparisons(path, modes, prefix)
        if err:
            sys.stderr.write(err)
            return 1
        comps += got[0]
        metrics_of += [got[1]] * len(got[0])

    results = []  # per comparison: list of (metric, in, p, values)
    for (scen, label, a, b), metrics in zip(comps, metrics_of):
        res = []
        for m in metrics:
            ma, mb = num(a, m + "_mean"), num(b, m + "_mean")
            if ma is None or mb is None:
                continue
            lo_a, hi_a = num(a, m + "_ci95_lo"), num(a, m + "_ci95_hi")
            lo_b, hi_b = num(b, m + "_ci95_lo"), num(b, m + "_ci95_hi")
            sa, sb = num(a, m + "_sd") or 0.0, num(b, m + "_sd") or 0.0
            na, nb = int(a["n"]), int(b["n"])
            inside = lo_a <= mb <= hi_a and lo_b <= ma <= hi_b
            if sa == 0 and sb == 0:
                inside = ma == mb
            p = welch_p(ma, sa, na, mb, sb, nb)
            res.append((m, inside, p, (ma, hi_a - ma, mb, hi_b - mb, na, nb)))
        results.append(res)

    # Holm over every comparison of the table.
    ps = sorted(p for res in results for (_, _, p, _) in res)
    total = len(ps)
    holm_cut = 0.0  # p values below this are significant at 5% after Holm
    for i, p in enumerate(ps):
        if p <= 0.05 / (total - i):
            holm_cut = p
        else:
            break

    out = sys.stdout.write
    out("| scenario | mode | runs | metrics | within both ways | outside | "
        "significant (Holm, 5%) | events per run, exact → mode |\n")
    out("|---|---|---|---|---|---|---|---|\n")
    for (scen, label, a, b), res in zip(comps, results):
        n_in = sum(1 for r in res if r[1])
        outside = [r for r in res if not r[1]]
        sig = [r[0] for r in outside if r[2] <= holm_cut and r[2] < 0.05]
        ev = "%s → %s" % (fmt(num(a, "events_mean")), fmt(num(b, "events_mean")))
        out("| %s | %s | %s + %s | %d | %d | %d | %s | %s |\n" %
            (scen, label, a["n"], b["n"], len(res), n_in, len(outside),
             ", ".join(sig) if sig else "none", ev))
    out("\nKey metrics: mean ± 95% half-width, reference mode → other mode "
        "(✓ each mean within the other's interval).\n\n")
    out("| scenario | mode | " + " | ".join(KEY_METRICS) + " |\n")
    out("|---|---|" + "---|" * len(KEY_METRICS) + "\n")
    for (scen, label, a, b), res in zip(comps, results):
        by = {r[0]: r for r in res}
        cells = []
        for m in KEY_METRICS:
            if m not in by:
                cells.append("-")
                continue
            _, inside, _, (ma, ha, mb, hb, _, _) = by[m]
            cells.append("%s ± %s → %s ± %s %s" % (fmt(ma), fmt(ha), fmt(mb), fmt(hb),
                                                  "✓" if inside else "✗"))
        out("| %s | %s | %s |\n" % (scen, label, " | ".join(cells)))
    out("\nEvery comparison outside (Welch p; * = significant after Holm over "
        "all %d comparisons):\n\n" % total)
    out("| scenario | mode | metric | reference | other | p |\n|---|---|---|---|---|---|\n")
    for (scen, label, a, b), res in zip(comps, results):
        for m, inside, p, (ma, ha, mb, hb, _, _) in res:
            if inside:
                continue
            star = " *" if (p <= holm_cut and p < 0.05) else ""
            out("| %s | %s | %s | %s ± %s | %s ± %s | %.3g%s |\n" %
                (scen, label, m, fmt(ma), fmt(ha), fmt(mb), fmt(hb), p, star))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
