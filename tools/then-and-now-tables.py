#!/usr/bin/env python3
"""tools/then-and-now-tables.py: docs/STUDY-THEN-AND-NOW.md's tables from
the then-and-now studies' results.csv (issue 33 item 4).

  tools/then-and-now-tables.py [--csv DIR] MAIN_OUT [SENS_OUT...]

MAIN_OUT is the output directory of configs/studies/then-and-now.ini (its
results.csv), each SENS_OUT one of then-and-now-r.ini or
then-and-now-cost-*.ini. Prints Markdown:

1. the main table: per pressure level and configuration, n and "mean ±
   h" of each metric, h the half-width of the 95% Student-t interval over
   the runs (windows x seeds);
2. the findings: per level, the paired differences A - B of the
   comparisons in FINDINGS (same level, window and seed: the same jobs and
   random streams), mean ± h, relative to B's mean, '*' when the interval
   excludes 0, and "n/indep" where the pairs hold fewer independent values
   than pairs (both sides equal under every seed of a window: a seed only
   moves the paging streams, so such a window is one value, not several);
   then, per configuration, each level's response minus the first
   level's (L0, where nothing pages: what paging costs);
3. for each SENS_OUT, the same findings against the varied parameter's
   values (one row per finding and value).

--csv DIR also writes the tables as DIR/main.csv, DIR/findings.csv and
DIR/sensitivity.csv (one row per cell: mean, half-width, n), the small
files docs/then-and-now/ commits. MAIN_OUT may be "-" (sensitivity only).

Only runs with status ok count; a comparison with fewer than 2 pairs is
left out. Standard library only.
"""
import csv
import math
import os
import sys

T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262,
        2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101,
        2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052,
        2.048, 2.045, 2.042]

LEVEL = "workload.memory_scale"
CONF = "simulation.system"
LEVEL_NAME = {"0.03733333333": "L0", "1": "L2", "8": "L3"}
SENS_LEVEL = "1"        # L2, the level of every sensitivity finding

# (metric, decimals or None, column title)
MAIN_METRICS = [("response_time_mean", 0, "response (s)"),
                ("bounded_slowdown_mean", 1, "bounded slowdown"),
                ("page_fault_time_per_pe", 1, "paging per node (s)"),
                ("page_faults_disk", 0, "faults to swap"),
                ("page_faults_remote", 0, "remote faults"),
                ("cpu_utilization", 3, "CPU utilisation")]
FIND_METRICS = [("response_time_mean", 0, "response (s)"),
                ("bounded_slowdown_mean", 2, "bounded slowdown"),
                ("page_fault_time_per_pe", 1, "paging per node (s)")]
# The *-c8 files: a small machine's differences are seconds, so one more
# decimal, and the faults per node beside (0 at L0: L2 - L0 is L2's count).
C8_METRICS = [("response_time_mean", 1, "response (s)"),
              ("bounded_slowdown_mean", 3, "bounded slowdown"),
              ("page_fault_time_per_pe", 2, "paging per node (s)"),
              ("page_faults_per_pe", 0, "faults per node")]

# The comparisons the findings rest on: (A, B) in the main study, C in
# {1, 8, 64}; names missing from a results.csv are skipped.
FINDINGS = [("now-c64-ssd", "now-c64-shared-ssd"),
            ("now-c8-ssd", "now-c8-shared-ssd"),
            ("2004-central", "2004-disk")]
for _c in (1, 8, 64):
    FINDINGS += [("now-c%d-ssd" % _c, "2004-disk"),
                 ("now-c%d-msg" % _c, "now-c%d-ssd" % _c),
                 ("now-c%d-rdma" % _c, "now-c%d-ssd" % _c),
                 ("now-c%d-rdma" % _c, "now-c%d-msg" % _c),
                 ("now-c%d-pool" % _c, "now-c%d-rdma" % _c)]
FINDINGS += [("now-c64-shared-rdma", "now-c64-shared-ssd"),
             ("now-c8-shared-rdma", "now-c8-shared-ssd")]
# Memory that changes over time (the *-phases baselines, C = 64): the
# profile's own effect, and F3/F4 under it.
for _k in ("ssd", "msg", "rdma"):
    FINDINGS.append(("now-c64-%s-phases" % _k, "now-c64-%s" % _k))
FINDINGS += [("now-c64-msg-phases", "now-c64-ssd-phases"),
             ("now-c64-rdma-phases", "now-c64-ssd-phases"),
             ("now-c64-rdma-phases", "now-c64-msg-phases")]
SENS_FINDINGS = [("msg", "ssd"), ("rdma", "ssd"), ("rdma", "msg"),
                 ("pool", "rdma")]


def numeric_first(v):
    """Sort key: numbers in order, then names (baselines) as written;
    "key = value" by its value."""
    if " = " in v:
        v = v.split(" = ", 1)[1]
    try:
        return (0, float(v), "")
    except ValueError:
        return (1, 0.0, v)


def t975(df):
    return T975[df - 1] if df <= len(T975) else 1.96


def stats(xs):
    """(mean, 95% half-width or None)"""
    n = len(xs)
    mu = sum(xs) / n
    if n < 2:
        return mu, None
    sd = math.sqrt(sum((x - mu) ** 2 for x in xs) / (n - 1))
    return mu, t975(n - 1) * sd / math.sqrt(n)


def fmt(x, digits):
    if x is None:
        return "-"
    return "{:,.{}f}".format(x, digits)


def pm(mu, h, digits, sign=False):
    s = ("{:+,.{}f}" if sign else "{:,.{}f}").format(mu, digits)
    return s + " ± " + fmt(h, digits)


def load(outdir):
    path = os.path.join(outdir, "results.csv")
    with open(path, newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["status"] == "ok"]
    for r in rows:
        r[CONF] = r[CONF].lstrip("@")
    return rows


def paired(rows, a, b, metric, fixed):
    """Differences A - B of METRIC over the pairs that agree on FIXED,
    window and seed; also the number of independent values (windows where
    A - B is the same under every seed count once)."""
    idx = {}
    for r in rows:
        key = tuple(r.get(k, "") for k in fixed) + (r.get("window", ""),
                                                    r["seed"])
        idx[(r[CONF], key)] = r
    d, per_window = [], {}
    paired.b = []
    for (conf, key), ra in idx.items():
        if conf != a:
            continue
        rb = idx.get((b, key))
        # a metric the study did not record (a column missing): no pair
        if rb is None or ra.get(metric, "") == "" or rb.get(metric, "") == "":
            continue
        x = float(ra[metric]) - float(rb[metric])
        d.append(x)
        paired.b.append(float(rb[metric]))
        per_window.setdefault(key[:-1], set()).add(round(x, 6))
    indep = sum(len(v) for v in per_window.values())
    return d, indep


def level_rows(rows, ref_level):
    """Per configuration, each level's paired difference from REF_LEVEL
    (the same configuration, window and seed): what paging costs (F2)."""
    out = ["| configuration | level − %s | n | " % LEVEL_NAME.get(ref_level, ref_level) +
           " | ".join("%s (%% of %s)" % (t, LEVEL_NAME.get(ref_level, ref_level))
                      for _, _, t in FIND_METRICS[:1]) + " |",
           "|---|---|---|---|"]
    confs = []
    for r in rows:
        if r[CONF] not in confs:
            confs.append(r[CONF])
    m, dg, _ = FIND_METRICS[0]
    for c in confs:
        base = {(r.get("window", ""), r["seed"]): float(r[m]) for r in rows
                if r[CONF] == c and r[LEVEL] == ref_level and r[m] != ""}
        for lv in sorted({r[LEVEL] for r in rows}, key=numeric_first):
            if lv == ref_level:
                continue
            d = [float(r[m]) - base[(r.get("window", ""), r["seed"])]
                 for r in rows if r[CONF] == c and r[LEVEL] == lv
                 and r[m] != "" and (r.get("window", ""), r["seed"]) in base]
            if len(d) < 2:
                continue
            mu, h = stats(d)
            bm = sum(base.values()) / len(base)
            star = " *" if h is not None and abs(mu) > h else ""
            out.append("| %s | %s | %d | %s%s (%+.2f%%) |" % (
                c, LEVEL_NAME.get(lv, lv), len(d), pm(mu, h, dg, True), star,
                100 * mu / bm if bm else 0))
    return out


CSV = {"main": [], "findings": [], "sensitivity": [], "c8runs": []}


def l0_rows(srows, main_rows, key, study):
    """Per value of KEY and configuration of a sensitivity file, the paired
    difference of the response from the main study's now-c64-ssd at L0 in
    the same window (the same jobs; nothing pages there, and every C = 64
    EXCLUSIVE configuration has the same L0 response): what paging costs
    under that parameter (F2)."""
    m = "response_time_mean"
    base = {r.get("window", ""): float(r[m]) for r in main_rows
            if r[CONF] == "now-c64-ssd" and r[LEVEL] == "0.03733333333"
            and r[m] != ""}
    out = []
    for g in sorted({r["_param"] for r in srows}, key=numeric_first):
        for c in sorted({r[CONF] for r in srows}):
            d = [float(r[m]) - base[r.get("window", "")] for r in srows
                 if r["_param"] == g and r[CONF] == c and r[m] != ""
                 and r.get("window", "") in base]
            if len(d) < 2:
                continue
            mu, h = stats(d)
            bm = sum(base[r.get("window", "")] for r in srows
                     if r["_param"] == g and r[CONF] == c and r[m] != ""
                     and r.get("window", "") in base) / len(d)
            star = " *" if h is not None and abs(mu) > h else ""
            out.append("| %s | %s | %d | %s%s (%+.3f%%) |" % (
                g, c, len(d), pm(mu, h, 1, True), star, 100 * mu / bm))
            CSV["sensitivity"].append((study, key, g, c, "now-c64-ssd@L0", m,
                                       len(d), len(d), "%.6g" % mu,
                                       "" if h is None else "%.6g" % h,
                                       "%.6g" % bm, "yes" if star else "no"))
    return out


def own_l0_rows(srows, key, study):
    """For a sensitivity file that varies the level too (the *-c8 files):
    per value of KEY and configuration, the paired difference of each
    finding metric between L2 and the same configuration at L0 in the same
    window (nothing pages at L0): what paging costs under that parameter
    (F2), on that file's own machine."""
    lv0 = min({r[LEVEL] for r in srows}, key=numeric_first)
    out = []
    for g in sorted({r["_param"] for r in srows}, key=numeric_first):
        for c in sorted({r[CONF] for r in srows}):
            base = {r.get("window", ""): r for r in srows
                    if r["_param"] == g and r[CONF] == c and r[LEVEL] == lv0}
            cells = []
            n = 0
            for m, dg, _ in C8_METRICS:
                pairs = [(float(r[m]), float(base[r.get("window", "")][m]))
                         for r in srows
                         if r["_param"] == g and r[CONF] == c
                         and r[LEVEL] == SENS_LEVEL and r[m] != ""
                         and r.get("window", "") in base
                         and base[r.get("window", "")][m] != ""]
                if len(pairs) < 2:
                    cells.append("-")
                    continue
                d = [a - b for a, b in pairs]
                mu, h = stats(d)
                bm = sum(b for _, b in pairs) / len(pairs)
                star = " *" if h is not None and abs(mu) > h else ""
                rel = " (%+.2f%%)" % (100 * mu / bm) if bm else ""
                cells.append(pm(mu, h, dg, True) + star + rel)
                n = len(d)
                CSV["sensitivity"].append((study, key, g, c, c + "@L0", m,
                                           len(d), len(d), "%.6g" % mu,
                                           "" if h is None else "%.6g" % h,
                                           "%.6g" % bm,
                                           "yes" if star else "no"))
            if n:
                out.append("| %s | %s | %d | %s |" % (g, c, n,
                                                      " | ".join(cells)))
    return out


def ratio_rows(srows, key, study,
               pairs=(("msg", "ssd"), ("rdma", "ssd"), ("rdma", "msg"))):
    """For a *-c8 file at L2: per value of KEY, network RAM's paging time
    as a share of the SSD's in the same window, over the windows where the
    SSD pages (B > 0; and RDMA as a share of messages where messages
    page): mean ± 95% half-width, min and max. The windows
    differ by orders of magnitude in how much they page, so the paired
    differences' intervals are wide; the share is what F4 states."""
    m = "page_fault_time_per_pe"
    l2 = [r for r in srows if r[LEVEL] == SENS_LEVEL]
    out = []
    for g in sorted({r["_param"] for r in l2}, key=numeric_first):
        by = {(r[CONF], r.get("window", "")): r for r in l2
              if r["_param"] == g and r[m] != ""}
        for a, b in pairs:
            q = [float(by[(a, w)][m]) / float(by[(b, w)][m])
                 for (c, w) in sorted(by) if c == b
                 and (a, w) in by and float(by[(b, w)][m]) > 0]
            if len(q) < 2:
                continue
            mu, h = stats(q)
            out.append("| %s | %s / %s | %d | %.4f ± %.4f | %.4f | %.4f |"
                       % (g, a, b, len(q), mu, h, min(q), max(q)))
            CSV["sensitivity"].append((study, key, g, a, b,
                                       m + "_share", len(q), len(q),
                                       "%.6g" % mu, "%.6g" % h, "",
                                       "yes" if abs(mu - 1) > h else "no"))
    return out


def c8_run_rows(srows, key):
    """The *-c8 files' L2 runs one per line (the per-window values behind
    the intervals): the parameter, window, configuration, the faults to
    the SSD and to network RAM, paging per node, the response and the same
    configuration's L0 response in that window. CSV rows; the Markdown
    lists the windows where any configuration pages."""
    m = "response_time_mean"
    l0 = {(r["_param"], r[CONF], r.get("window", "")): r[m] for r in srows
          if r[LEVEL] != SENS_LEVEL}
    rows = []
    for r in sorted((r for r in srows if r[LEVEL] == SENS_LEVEL),
                    key=lambda r: (numeric_first(r["_param"]),
                                   int(r.get("window", "0") or 0), r[CONF])):
        w = r.get("window", "")
        rows.append((r["_param"].split(" = ", 1)[1], w, r[CONF],
                     r["page_faults_disk"], r["page_faults_remote"],
                     r["page_fault_time_per_pe"], r[m],
                     l0.get((r["_param"], r[CONF], w), "")))
    CSV["c8runs"].extend(rows)
    paging = {(x[0], x[1]) for x in rows
              if float(x[3] or 0) + float(x[4] or 0) > 0}
    out = []
    for x in rows:
        if (x[0], x[1]) not in paging:
            continue
        d = (float(x[6]) - float(x[7])) if x[7] != "" else None
        out.append("| %s | %s | %s | %s | %s | %.2f | %s |" % (
            x[0], x[1], x[2], "{:,}".format(int(float(x[3] or 0))),
            "{:,}".format(int(float(x[4] or 0))), float(x[5] or 0),
            "-" if d is None else "%+.2f" % d))
    return out


def main_table(rows):
    levels = sorted({r[LEVEL] for r in rows}, key=numeric_first)
    confs = []
    for r in rows:
        if r[CONF] not in confs:
            confs.append(r[CONF])
    out = ["| level | configuration | n | " +
           " | ".join(t for _, _, t in MAIN_METRICS) + " |",
           "|---|---|---|" + "---|" * len(MAIN_METRICS)]
    for lv in levels:
        for c in confs:
            rs = [r for r in rows if r[LEVEL] == lv and r[CONF] == c]
            if not rs:
                continue
            cells = []
            for m, dg, _ in MAIN_METRICS:
                xs = [float(r[m]) for r in rs if r.get(m, "") != ""]
                cells.append(pm(*stats(xs), dg) if xs else "-")
                if xs:
                    mu, h = stats(xs)
                    CSV["main"].append((LEVEL_NAME.get(lv, lv), c, m, len(xs),
                                        "%.6g" % mu,
                                        "" if h is None else "%.6g" % h))
            out.append("| %s (%s) | %s | %d | %s |" % (
                LEVEL_NAME.get(lv, lv), lv, c, len(rs), " | ".join(cells)))
    return out


def finding_rows(rows, pairs, group_key, group_name, sink=None,
                 tag=(), metrics=FIND_METRICS):
    groups = sorted({r[group_key].lstrip("@") for r in rows},
                    key=numeric_first)
    names = {r[CONF] for r in rows}
    out = ["| %s | A − B | n | " % group_name +
           " | ".join("%s (%% of B)" % t for _, _, t in metrics) + " |",
           "|---|---|---|" + "---|" * len(metrics)]
    for g in groups:
        sub = [r for r in rows if r[group_key].lstrip("@") == g]
        for a, b in pairs:
            if a not in names or b not in names:
                continue
            cells, n, note = [], 0, ""
            for m, dg, _ in metrics:
                d, indep = paired(sub, a, b, m, ())
                if len(d) < 2:
                    cells.append("-")
                    continue
                mu, h = stats(d)
                base = paired.b     # B over the same pairs
                bm = sum(base) / len(base) if base else 0
                rel = " (%+.1f%%)" % (100 * mu / bm) if bm else ""
                star = " *" if h is not None and abs(mu) > h else ""
                cells.append(pm(mu, h, dg, True) + star + rel)
                n = len(d)
                if sink is not None:
                    sink.append(tuple(tag) + (LEVEL_NAME.get(g, g), a, b, m,
                                n, indep, "%.6g" % mu,
                                "" if h is None else "%.6g" % h,
                                "%.6g" % bm, "yes" if star else "no"))
                if indep < n:
                    note = " (%d indep)" % indep
            if n:
                out.append("| %s | %s − %s | %d%s | %s |" % (
                    LEVEL_NAME.get(g, g), a, b, n, note, " | ".join(cells)))
    return out


def write_csv(d):
    heads = {"main": ("level", "configuration", "metric", "n", "mean",
                      "half_width_95"),
             "findings": ("level", "A", "B", "metric", "n", "independent",
                          "mean_A_minus_B", "half_width_95", "mean_B",
                          "excludes_0"),
             "sensitivity": ("study", "key", "parameter", "A", "B", "metric",
                             "n", "independent", "mean_A_minus_B",
                             "half_width_95", "mean_B", "excludes_0"),
             "c8runs": ("parameter", "window", "configuration",
                        "page_faults_disk", "page_faults_remote",
                        "page_fault_time_per_pe", "response_time_mean",
                        "response_L0_same_configuration")}
    os.makedirs(d, exist_ok=True)
    for name, rows in CSV.items():
        if not rows:
            continue
        with open(os.path.join(d, name + ".csv"), "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(heads[name])
            w.writerows(rows)


def main(argv):
    argv = list(argv)
    csvdir = None
    if len(argv) > 2 and argv[1] == "--csv":
        csvdir = argv[2]
        del argv[1:3]
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    if argv[1] != "-":
        try:
            rows = load(argv[1])
        except (OSError, KeyError) as e:
            sys.stderr.write("then-and-now-tables: %s: %s\n" % (argv[1], e))
            return 2
        print("### Main table (%s)\n" % argv[1])
        print("\n".join(main_table(rows)))
        print("\n### Findings: paired differences\n")
        print("\n".join(finding_rows(rows, FINDINGS, LEVEL, "level",
                                      CSV["findings"])))
        levels = sorted({r[LEVEL] for r in rows}, key=numeric_first)
        if len(levels) > 1:
            print("\n### What paging costs: each level against %s\n"
                  % LEVEL_NAME.get(levels[0], levels[0]))
            print("\n".join(level_rows(rows, levels[0])))
    sens_all, l0_all, c8_sens, c8_l0, c8_ratio, c8_runs = [], [], [], [], [], []
    main_rows = rows if argv[1] != "-" else None
    for sdir in argv[2:]:
        try:
            srows = load(sdir)
        except (OSError, KeyError) as e:
            sys.stderr.write("then-and-now-tables: %s: %s\n" % (sdir, e))
            return 2
        cols = list(srows[0].keys()) if srows else []
        varied = [c for c in cols[:cols.index("seed")]
                  if c not in (CONF, "window", "seed", "status", "point",
                               LEVEL)
                  and "." in c]
        own_levels = LEVEL in cols[:cols.index("seed")]
        if not varied:
            sys.stderr.write("then-and-now-tables: %s: no varied key\n" % sdir)
            return 2
        key = varied[0]
        for r in srows:     # one column for every file: "key = value"
            r["_param"] = "%s = %s" % (key.split(".", 1)[1],
                                       os.path.basename(r[key]))
        study = os.path.basename(os.path.normpath(sdir))
        if own_levels:      # a *-c8 file: findings at L2, paging against L0
            l2 = [r for r in srows if r[LEVEL] == SENS_LEVEL]
            lines = finding_rows(l2, SENS_FINDINGS, "_param", "parameter",
                                 CSV["sensitivity"], (study, key),
                                 C8_METRICS)
            c8_sens.extend(lines if not c8_sens else lines[2:])
            c8_l0.extend(own_l0_rows(srows, key, study))
            c8_ratio.extend(ratio_rows(srows, key, study))
            c8_runs.extend(c8_run_rows(srows, key))
            continue
        lines = finding_rows(srows, SENS_FINDINGS, "_param", "parameter",
                             CSV["sensitivity"], (study, key))
        sens_all.extend(lines if not sens_all else lines[2:])
        if main_rows and key in ("process.mem_access_rate",
                                 "process.fault_curve"):
            l0_all.extend(l0_rows(srows, main_rows, key,
                                  os.path.basename(os.path.normpath(sdir))))
    if sens_all:
        print("\n### Sensitivity (C = 64, L2; paired over the windows of "
              "each file)\n")
        print("\n".join(sens_all))
    if l0_all:
        print("\n### What paging costs under each parameter: the run's "
              "response − now-c64-ssd at L0 (main study, same window)\n")
        print("| parameter | configuration | n | response − L0 (s) (% of L0) |")
        print("|---|---|---|---|")
        print("\n".join(l0_all))
    if c8_sens:
        print("\n### Sensitivity on a machine of Seth's size (256 cores, "
              "C = 8, L2; paired over the windows of each file)\n")
        print("\n".join(c8_sens))
    if c8_l0:
        print("\n### What paging costs on that machine: L2 − L0, the same "
              "configuration and window\n")
        print("| parameter | configuration | n | " +
              " | ".join("%s (%% of L0)" % t for _, _, t in C8_METRICS) +
              " |")
        print("|---|---|---|" + "---|" * len(C8_METRICS))
        print("\n".join(c8_l0))
    if c8_ratio:
        print("\n### Network RAM's paging as a share of the SSD's, in the "
              "windows where the SSD pages (same machine, L2)\n")
        print("| parameter | A / B | windows | mean ± 95% | min | max |")
        print("|---|---|---|---|---|---|")
        print("\n".join(c8_ratio))
    if c8_runs:
        print("\n### The windows that page on that machine, run by run (L2; "
              "every run in c8runs.csv, --csv)\n")
        print("| parameter | window | configuration | faults to the SSD | "
              "remote faults | paging per node (s) | response − L0 (s) |")
        print("|---|---|---|---|---|---|---|")
        print("\n".join(c8_runs))
    if csvdir:
        write_csv(csvdir)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
