#!/usr/bin/python3
"""Compare pnrsim with the reference models of tests/oracle on random
tie-heavy traces (issue 23, part 5), job for job (jobs.csv start and end)
and stretch for stretch (schedule.csv rows).

    python3 tests/oracle/compare.py --pnrsim build/pnrsim [--seed N]
        [--traces K] [--setting NAME ...] [--list] [--keep DIR] [--quiet]

Each setting draws its traces from its own seeds (setting index * 100000 +
seed + k), so settings never share a trace and --seed shifts all of them.
Exit status 0 when everything agreed, 1 on a disagreement, 2 on bad usage.
On a disagreement it prints the first diverging instant and a command that
reproduces the run (--only-seed).
"""

import argparse
import csv
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import swfgen  # noqa: E402
import space  # noqa: E402
import gang  # noqa: E402

# The scenario every run uses: CPU demand = run time (SWF field 4), no
# memory (field 7 = -1 and workload.default_memory = 0: nothing pages), no
# neighbour or synchronisation messages, no network RAM; samples off.
BASE = {
    "workload.cpu_demand": "RUNTIME",
    "workload.default_memory": "0",
    "workload.estimate": "REQUESTED",
    "process.comm_rate": "0",
    "process.sync_rate": "0",
    "computer.ram": "1000",
    "netram.enabled": "no",
    "simulation.metrics_period": "1e12",
    "scheduler.mem_aware": "NO",
}

# name -> (model, its options, pnrsim keys)
SETTINGS = [
    ("fcfs", "space", dict(policy="FCFS"), {}),
    ("fcfs-nonstrict", "space", dict(policy="FCFS", strict=False),
     {"scheduler.strict_order": "no"}),
    ("sjf", "space", dict(policy="SJF"), {"scheduler.priority": "SJF"}),
    ("sjf-nonstrict", "space", dict(policy="SJF", strict=False),
     {"scheduler.priority": "SJF", "scheduler.strict_order": "no"}),
    ("saf", "space", dict(policy="SAF"), {"scheduler.priority": "SAF"}),
    ("bestfit", "space", dict(policy="BESTFIT"),
     {"scheduler.priority": "BESTFIT"}),
    ("easy-fcfs", "space", dict(backfill="EASY"),
     {"scheduler.backfill": "EASY"}),
    ("easy-sjf", "space", dict(policy="SJF", backfill="EASY"),
     {"scheduler.backfill": "EASY", "scheduler.priority": "SJF"}),
    ("cons-fcfs", "space", dict(backfill="CONSERVATIVE"),
     {"scheduler.backfill": "CONSERVATIVE"}),
    ("cons-sjf", "space", dict(policy="SJF", backfill="CONSERVATIVE"),
     {"scheduler.backfill": "CONSERVATIVE", "scheduler.priority": "SJF"}),
]
for mpl in (1, 2, 3):
    for alt in ("yes", "no"):
        for pack in ("FIRSTFIT", "BESTFIT", "WORSTFIT"):
            if pack != "FIRSTFIT" and mpl == 1:
                continue
            SETTINGS.append((
                "gang-mpl%d-alt%s-%s" % (mpl, alt, pack.lower()), "gang",
                dict(mpl=mpl, alternative=(alt == "yes"), packing=pack,
                     quantum=10, pcs=1),
                {"scheduler.mpl": str(mpl), "scheduler.alternative": alt,
                 "scheduler.packing": pack, "scheduler.quantum": "10",
                 "scheduler.pcs": "1"}))
for mpl in (2, 3):
    SETTINGS.append((
        "gang-mpl%d-pcsfirst" % mpl, "gang",
        dict(mpl=mpl, alternative=True, packing="FIRSTFIT", quantum=10,
             pcs=1, pcs_first_start=True),
        {"scheduler.mpl": str(mpl), "scheduler.alternative": "yes",
         "scheduler.quantum": "10", "scheduler.pcs": "1",
         "scheduler.pcs_first_start": "yes"}))
    SETTINGS.append((
        "gang-mpl%d-pcs0" % mpl, "gang",
        dict(mpl=mpl, alternative=True, packing="FIRSTFIT", quantum=10,
             pcs=0),
        {"scheduler.mpl": str(mpl), "scheduler.alternative": "yes",
         "scheduler.quantum": "10", "scheduler.pcs": "0"}))
SETTINGS.append((
    "gang-mpl0-unlimited", "gang",
    dict(mpl=0, alternative=True, packing="FIRSTFIT", quantum=10, pcs=1),
    {"scheduler.mpl": "0", "scheduler.quantum": "10", "scheduler.pcs": "1"}))
SETTINGS.append((
    "gang-mpl2-nonstrict", "gang",
    dict(mpl=2, alternative=True, packing="FIRSTFIT", quantum=10, pcs=1,
         strict=False),
    {"scheduler.mpl": "2", "scheduler.quantum": "10", "scheduler.pcs": "1",
     "scheduler.strict_order": "no"}))

for n in (1, 2, 3):
    SETTINGS.append(("cons-fcfs-depth%d" % n, "space",
                     dict(backfill="CONSERVATIVE", depth=n),
                     {"scheduler.backfill": "CONSERVATIVE",
                      "scheduler.reservations": str(n)}))
SETTINGS.append(("cons-sjf-depth2", "space",
                 dict(policy="SJF", backfill="CONSERVATIVE", depth=2),
                 {"scheduler.backfill": "CONSERVATIVE", "scheduler.priority": "SJF",
                  "scheduler.reservations": "2"}))
SETTINGS.append(("cons-fcfs-long", "space", dict(backfill="CONSERVATIVE"),
                 {"scheduler.backfill": "CONSERVATIVE"}))
for mpl in (2, 3):
    SETTINGS.append((
        "gang-mpl%d-pcsfirst-nozero" % mpl, "gang",
        dict(mpl=mpl, alternative=True, packing="FIRSTFIT", quantum=10,
             pcs=1, pcs_first_start=True),
        {"scheduler.mpl": str(mpl), "scheduler.alternative": "yes",
         "scheduler.quantum": "10", "scheduler.pcs": "1",
         "scheduler.pcs_first_start": "yes"}))

# Issue 35 item 5: MULTIFACTOR and the per-user limits (docs/SCHEDULING.md
# "MULTIFACTOR", "Per-user limits"), on traces of 3 users without
# zero-length jobs. The weights make every factor count on these short
# traces (waits of tens of seconds, usage decaying with a half-life of 30 s).
MF = dict(w_age=10, w_size=3, w_fs=20, w_wait=5, max_age=50, half_life=30)
MF_KEYS = {"scheduler.priority": "MULTIFACTOR", "scheduler.weight_age": "10",
           "scheduler.weight_size": "3", "scheduler.weight_fairshare": "20",
           "scheduler.weight_wait": "5", "scheduler.max_age": "50",
           "scheduler.fairshare_half_life": "30"}
for bf, short in (("NONE", "none"), ("EASY", "easy"), ("CONSERVATIVE", "cons")):
    k = dict(MF_KEYS)
    k["scheduler.backfill"] = bf
    SETTINGS.append(("mf-%s" % short, "space",
                     dict(policy="MULTIFACTOR", backfill=bf, mf=MF), k))
for bf, short in (("NONE", "none"), ("EASY", "easy"), ("CONSERVATIVE", "cons")):
    SETTINGS.append(("limit-run1-%s" % short, "space",
                     dict(backfill=bf, max_running=1),
                     {"scheduler.backfill": bf,
                      "scheduler.max_running_per_user": "1"}))
    SETTINGS.append(("limit-cores-%s" % short, "space",
                     dict(backfill=bf, max_cores=4),
                     {"scheduler.backfill": bf,
                      "scheduler.max_cores_per_user": "4"}))
SETTINGS.append(("limit-run1-nonstrict", "space",
                 dict(strict=False, max_running=1),
                 {"scheduler.strict_order": "no",
                  "scheduler.max_running_per_user": "1"}))
k = dict(MF_KEYS)
k.update({"scheduler.backfill": "EASY", "scheduler.max_running_per_user": "2",
          "scheduler.max_cores_per_user": "4"})
SETTINGS.append(("mf-limits-easy", "space",
                 dict(policy="MULTIFACTOR", backfill="EASY", mf=MF,
                      max_running=2, max_cores=4), k))
k = dict(k)
k["scheduler.backfill"] = "CONSERVATIVE"
SETTINGS.append(("mf-limits-cons", "space",
                 dict(policy="MULTIFACTOR", backfill="CONSERVATIVE", mf=MF,
                      max_running=2, max_cores=4), k))
# Reservations that hold memory (issue 35 item 3; docs/SCHEDULING.md):
# mem_aware LOCAL on PEs of two RAM sizes (swfgen.ram_of), MPL 1
# (appended last: the settings before keep their seeds).
for bf in ("EASY", "CONSERVATIVE"):
    SETTINGS.append(("%s-fcfs-mem" % ("easy" if bf == "EASY" else "cons"), "space",
                     dict(backfill=bf, mem=True),
                     {"scheduler.backfill": bf, "scheduler.mem_aware": "LOCAL"}))

# Trace generator options per setting (default: swfgen.generate's).
# Conservative and EASY get more jobs that outlive their estimates; the
# -nozero settings have no zero-length job (so that a disagreement on
# zero-length jobs does not hide others).
GEN = {
    "cons-fcfs": dict(under=0.5), "cons-sjf": dict(under=0.5),
    "easy-fcfs": dict(under=0.5), "easy-sjf": dict(under=0.5),
    "cons-fcfs-long": dict(under=0.6, njobs=120, pes=8),
    "cons-fcfs-depth1": dict(under=0.5), "cons-fcfs-depth2": dict(under=0.5),
    "cons-fcfs-depth3": dict(under=0.5), "cons-sjf-depth2": dict(under=0.5),
    "easy-fcfs-mem": dict(mem=True, zero=False, under=0),
    "cons-fcfs-mem": dict(mem=True, zero=False, under=0),
    "gang-mpl2-pcsfirst-nozero": dict(zero=False),
    **{n: dict(users=3, zero=False, under=0.5)
       for n in ("mf-none", "mf-easy", "mf-cons", "limit-run1-none",
                 "limit-run1-easy", "limit-run1-cons", "limit-cores-none",
                 "limit-cores-easy", "limit-cores-cons",
                 "limit-run1-nonstrict", "mf-limits-easy", "mf-limits-cons")},
    "gang-mpl3-pcsfirst-nozero": dict(zero=False),
}

NAMES = [s[0] for s in SETTINGS]


def run_model(kind, opts, npes, jobs):
    if kind == "space":
        return space.simulate(npes, jobs, **opts)
    return gang.simulate(npes, jobs, **opts)


def num(s):
    """A CSV time as an exact number (integral floats become ints)."""
    x = float(s)
    return int(x) if x == int(x) else x


def run_pnrsim(binary, keys, npes, jobs, workdir, schedule=True):
    """Run pnrsim on the jobs; return (jobs dict, stretch rows or None
    without schedule) or raise RuntimeError when it fails."""
    trace = os.path.join(workdir, "t.swf")
    with open(trace, "w") as f:
        f.write(swfgen.swf_text(jobs))
    ini = os.path.join(workdir, "t.ini")
    allkeys = dict(BASE)
    allkeys["computer.number"] = str(npes)
    if keys.get("scheduler.mem_aware", "NO") != "NO":
        allkeys["computer.ram"] = swfgen.ram_groups(npes)
    allkeys["workload.trace"] = trace
    allkeys.update(keys)
    sections = {}
    for k, v in allkeys.items():
        sec, key = k.split(".")
        sections.setdefault(sec, []).append((key, v))
    with open(ini, "w") as f:
        for sec, kv in sections.items():
            f.write("[%s]\n" % sec)
            for key, v in kv:
                f.write("%s = %s\n" % (key, v))
    out = os.path.join(workdir, "out")
    if os.path.isdir(out):
        shutil.rmtree(out)
    p = subprocess.run([binary, "-c", ini, "-q", "-o", out] +
                       (["--schedule"] if schedule else []),
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if p.returncode != 0:
        raise RuntimeError("pnrsim exit %d: %s" % (
            p.returncode, p.stderr.decode(errors="replace").strip()[-400:]))
    res = {}
    with open(os.path.join(out, "jobs.csv")) as f:
        for row in csv.DictReader(f):
            if row["state"] == "queued" and "cores_per_user" in row["reason"]:
                continue  # wider than max_cores_per_user: never starts
            res[int(row["job"])] = (num(row["start"]), num(row["end"]))
    if not schedule:
        return res, None
    rows = []
    with open(os.path.join(out, "schedule.csv")) as f:
        for row in csv.DictReader(f):
            rows.append((int(row["job"]), int(row["slot"]), num(row["start"]),
                         num(row["end"]), int(row["first_pe"]),
                         int(row["pes"]), num(row["pcs"])))
    return res, rows


def first_divergence(mjobs, mrows, pjobs, prows):
    """The earliest instant at which the two runs differ, with a line
    saying what differs there; None when they agree."""
    diffs = []
    for jid in sorted(set(mjobs) | set(pjobs)):
        m, p = mjobs.get(jid), pjobs.get(jid)
        if m != p:
            if m is None or p is None:
                t = min((m or p)[0], float("inf"))
            elif m[0] != p[0]:
                t = min(m[0], p[0])     # the start differs: from there
            else:
                t = min(m[1], p[1])     # same start, the end differs
            diffs.append((t, "job %d: model start,end %s, pnrsim %s" % (
                jid, m, p)))
    ms, ps = sorted(mrows), sorted(prows if prows is not None else mrows)
    if ms != ps:
        mset, pset = set(ms), set(ps)
        for r in ms:
            if r not in pset:
                diffs.append((r[2], "stretch only in the model: %s" % (r,)))
        for r in ps:
            if r not in mset:
                diffs.append((r[2], "stretch only in pnrsim:    %s" % (r,)))
        if not diffs:
            diffs.append((0, "stretch rows differ in multiplicity"))
    if not diffs:
        return None
    diffs.sort(key=lambda d: d[0])
    t0 = diffs[0][0]
    return t0, [d[1] for d in diffs if d[0] == t0][:6], len(diffs)


def differs(binary, idx, npes, jobs, workdir):
    """None when the model and pnrsim agree, "crash" when pnrsim fails,
    "diff" when their schedules differ."""
    name, kind, opts, keys = SETTINGS[idx]
    if not jobs:
        return None
    t0 = jobs[0].submit
    jobs = [j.moved(t0) for j in jobs]
    mjobs, mrows = run_model(kind, opts, npes, jobs)
    try:
        pjobs, prows = run_pnrsim(binary, keys, npes, jobs, workdir)
    except RuntimeError:
        return "crash"
    if first_divergence(mjobs, mrows, pjobs, prows) is None:
        return None
    return "diff"


def reduce_trace(binary, idx, npes, jobs, workdir):
    """Greedy reduction: drop jobs one at a time while the runs still
    disagree; returns the smallest trace found (submits from 0)."""
    cur = list(jobs)
    want = differs(binary, idx, npes, cur, workdir)
    changed = True
    while changed:
        changed = False
        for i in range(len(cur)):
            trial = cur[:i] + cur[i + 1:]
            if differs(binary, idx, npes, trial, workdir) == want:
                cur = trial
                changed = True
                break
    t0 = cur[0].submit
    return [j.moved(t0) for j in cur]


# pnrsim's behaviour on main where issue 23 parts 1-2 say it is wrong,
# as model options: a disagreement that vanishes with one of them is
# explained by that bug (--attribute).
MAIN_BUGS = [
    ("space", dict(keep_moment=True),
     "issue 23 part 1 (a reservation from an instant after now ends at now + e)"),
    ("space", dict(merge_zero=True),
     "new (not in issue 23): a zero-length job started in the pass is "
     "expected to end at the outlived jobs' instant after now, not at the "
     "next pass at now"),
    ("space", dict(merge_zero=True, keep_moment=True),
     "issue 23 part 1 and the new zero-length/outlived merge"),
    ("gang", dict(return_rule="free_now"),
     "issue 23 part 2 (a moved job comes home although a job was placed on its PEs)"),
    ("gang", dict(index_at_move=True),
     "issue 23 part 2 (moved-in jobs started during alternative scheduling "
     "at a switch: their schedule.csv slot is the index before the slot "
     "they emptied is removed)"),
    ("gang", dict(index_at_move=True, return_rule="free_now"),
     "issue 23 part 2 (both of the above)"),
    ("gang", dict(zero_no_pcs=True),
     "issue 23 part 2 (pcs_first_start: a zero-length job ends at its "
     "start)"),
    ("gang", dict(zero_no_pcs=True, return_rule="free_now",
                  index_at_move=True),
     "issue 23 part 2 (pcs_first_start and a zero-length job, with the "
     "moves back and slot index of main)"),
]


def attribute(idx, npes, jobs, pjobs, prows):
    """Which known pnrsim bug explains a disagreement, or None."""
    name, kind, opts, keys = SETTINGS[idx]
    for k, extra, what in MAIN_BUGS:
        if k != kind:
            continue
        o = dict(opts)
        o.update(extra)
        mj, mr = run_model(kind, o, npes, jobs)
        if first_divergence(mj, mr, pjobs, prows) is None:
            return what
    return None


def trace_seed(idx, base, k):
    return idx * 100000 + base + k


def check_one(binary, idx, seed, workdir, quiet, given=None,
              attrib=False):
    name, kind, opts, keys = SETTINGS[idx]
    if given is not None:
        npes, jobs = given
    else:
        npes, jobs = swfgen.generate(seed, **GEN.get(name, {}))
    mjobs, mrows = run_model(kind, opts, npes, jobs)
    try:
        pjobs, prows = run_pnrsim(binary, keys, npes, jobs, workdir)
    except RuntimeError as e:
        # compare the job times of a run without --schedule all the same
        pjobs, prows = run_pnrsim(binary, keys, npes, jobs, workdir,
                                  schedule=False)
        d = first_divergence(mjobs, mrows, pjobs, None)
        if d is not None and attrib:
            w = attribute(idx, npes, jobs, pjobs, None)
            d = (d[0], d[1] + ["explained by: %s" % (w or "none known")], 0)
        return False, len(jobs), 0, "pnrsim --schedule failed: %s%s" % (
            e, "; job times without --schedule: " + (
                "agree" if d is None else "first divergence at t = %s: %s" %
                (d[0], "; ".join(d[1]))))
    d = first_divergence(mjobs, mrows, pjobs, prows)
    if d is None:
        return True, len(jobs), len(mrows), ""
    t0, lines, n = d
    msg = "first divergence at t = %s (%d differences in all):\n    %s" % (
        t0, n, "\n    ".join(lines))
    if attrib:
        w = attribute(idx, npes, jobs, pjobs, prows)
        msg += "\n    explained by: %s" % (
            w or "none of the known pnrsim bugs (MAIN_BUGS)")
    return False, len(jobs), len(mrows), msg


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pnrsim", default="build/pnrsim")
    ap.add_argument("--seed", type=int,
                    default=int(os.environ.get("ORACLE_SEED", "0")))
    ap.add_argument("--traces", type=int, default=20)
    ap.add_argument("--setting", action="append", default=[])
    ap.add_argument("--only-seed", type=int, default=None,
                    help="run just this trace seed (reproduce)")
    ap.add_argument("--trace", default=None,
                    help="compare on this SWF file (fields 1, 2, 4, 5, 9) "
                    "instead of random traces; needs --pes")
    ap.add_argument("--pes", type=int, default=None)
    ap.add_argument("--attribute", action="store_true",
                    help="on a disagreement, say whether a known pnrsim "
                    "bug of issue 23 (MAIN_BUGS) explains it")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--print-trace", action="store_true")
    ap.add_argument("--keep", default=None)
    ap.add_argument("--reduce", action="store_true",
                    help="with --only-seed: shrink the trace while the "
                    "runs still disagree and print it")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--all-failures", action="store_true",
                    help="go on after a setting's first failing trace")
    a = ap.parse_args(argv)
    if a.list:
        print("\n".join(NAMES))
        return 0
    sel = a.setting or NAMES
    for s in sel:
        if s not in NAMES:
            print("compare.py: unknown setting %r (see --list)" % s,
                  file=sys.stderr)
            return 2
    if a.print_trace and a.only_seed is not None:
        npes, jobs = swfgen.generate(a.only_seed, **GEN.get(sel[0], {}))
        print("; %d PEs" % npes)
        sys.stdout.write(swfgen.swf_text(jobs))
        return 0
    if not os.access(a.pnrsim, os.X_OK):
        print("compare.py: %s is not an executable" % a.pnrsim,
              file=sys.stderr)
        return 2
    work = a.keep or tempfile.mkdtemp(prefix="oracle.")
    os.makedirs(work, exist_ok=True)
    if a.reduce and a.only_seed is not None and len(sel) == 1:
        npes, jobs = swfgen.generate(a.only_seed, **GEN.get(sel[0], {}))
        small = reduce_trace(a.pnrsim, NAMES.index(sel[0]), npes, jobs, work)
        print("; %d PEs, setting %s, %d of %d jobs" % (
            npes, sel[0], len(small), len(jobs)))
        sys.stdout.write(swfgen.swf_text(small))
        idx = NAMES.index(sel[0])
        mj, mr = run_model(SETTINGS[idx][1], SETTINGS[idx][2], npes, small)
        try:
            pj, pr = run_pnrsim(a.pnrsim, SETTINGS[idx][3], npes, small,
                                work)
        except RuntimeError as e:
            print("; %s" % e)
            pj, pr = run_pnrsim(a.pnrsim, SETTINGS[idx][3], npes, small,
                                work, schedule=False)
        d = first_divergence(mj, mr, pj, pr)
        if d:
            print("; first divergence at t = %s:\n;   %s" % (
                d[0], "\n;   ".join(d[1])))
        print("; model : %s" % sorted(mj.items()))
        print("; pnrsim: %s" % sorted(pj.items()))
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)
        return 0
    tot_jobs = tot_rows = tot_runs = 0
    failed = []
    try:
        for s in sel:
            idx = NAMES.index(s)
            seeds = ([a.only_seed] if a.only_seed is not None else
                     [trace_seed(idx, a.seed, k) for k in range(a.traces)])
            given = None
            if a.trace:
                if not a.pes:
                    print("compare.py: --trace needs --pes", file=sys.stderr)
                    return 2
                with open(a.trace) as f:
                    given = (a.pes, swfgen.parse_swf(f.read()))
                seeds = [0]
            nok = 0
            for seed in seeds:
                ok, nj, nr, msg = check_one(a.pnrsim, idx, seed, work,
                                            a.quiet, given, a.attribute)
                tot_runs += 1
                tot_jobs += nj
                tot_rows += nr
                if ok:
                    nok += 1
                    continue
                print("DIFF %s, trace seed %d: %s" % (s, seed, msg))
                if a.trace:
                    print("    reproduce: python3 %s --pnrsim %s --setting "
                          "%s --trace %s --pes %d" % (
                              os.path.abspath(__file__), a.pnrsim, s,
                              a.trace, a.pes))
                else:
                    print("    reproduce: python3 %s --pnrsim %s --setting "
                          "%s --only-seed %d   (the trace: add "
                          "--print-trace; the smallest: --reduce)" % (
                              os.path.abspath(__file__), a.pnrsim, s, seed))
                failed.append(s)
                if not a.all_failures:
                    break
            if not a.quiet:
                print("%-28s %s (%d of %d traces agree)" % (
                    s, "ok" if s not in failed else "DIFFERS", nok,
                    len(seeds)))
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)
    print("compared %d runs: %d jobs (start and end), %d schedule.csv "
          "stretches; %d settings differ: %s" % (
              tot_runs, tot_jobs, tot_rows, len(set(failed)),
              " ".join(sorted(set(failed), key=NAMES.index)) or "none"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
