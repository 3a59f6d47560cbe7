"""pnrsim.validate: simulated against logged start times (issue 35 item 7).

An SWF log records for each job its submit time (field 2) and how long it
waited (field 3): the logged start is submit + wait. Replaying the log in
pnrsim with a scheduler as close as pnrsim can configure to the one the
machine ran gives a simulated start for the same job; the difference,
job by job, is a figure of fidelity to reality (JuFo reports its start
predictions against the real dispatch times the same way). It is not a
target to tune to: the configurations in configs/validation.ini fit no
knob per trace (docs/VALIDATION.md).

    pnrsim-plot validate [-o OUT] [--pnrsim PROG] [--only TRACE] SPEC
    pnrsim-plot validate --compare TRACE.swf RUNDIR [--logged-start wait|submit]

The first form runs pnrsim once per trace and configuration of SPEC (an
INI file, below) into OUT/TRACE/CONFIG/, writes each run's per-job
errors (errors.csv there), the table OUT/validation.csv, the exact
commands OUT/commands.sh, and prints the table as Markdown. The second
compares one finished run with its trace and prints the same row.

Conventions (docs/VALIDATION.md):
  - error = simulated start - logged start, in seconds. Positive: pnrsim
    starts the job later than the real machine did. The simulated start
    is jobs.csv's start - submit + the logged submit (pnrsim's submit
    times are the trace's, shifted so the first kept job arrives at 0):
    error = simulated wait - logged wait. Every compared job's submit is
    checked to be the logged one shifted by one constant (a run with
    workload.load_scale != 1 is refused, not compared).
  - median: of the signed errors (the bias); the mean of the two middle
    values when their number is even.
  - MAE: mean of |error|.
  - p90: the 90th percentile of |error| by nearest rank: the
    ceil(0.9 n)-th smallest |error| (n >= 1), so that at least 90 % of
    the jobs are within it.
  - within 10 min: the share of jobs with |error| <= 600 s.
  - Jobs not compared are counted, never skipped silently: records whose
    logged wait is unknown (field 3 < 0), records the run dropped (by
    jobs.csv's reason), jobs the run never started (state queued:
    waiting, slot_not_reached, impossible), and records absent from
    jobs.csv (a run stopped by max_jobs or max_time).
  - --logged-start submit: for a log whose submit times are start times
    (NASA iPSC/860: "the given submit times are actually start times"),
    the logged start is field 2 and there is no logged wait; the error
    then measures whether the log's own schedule fits the simulated
    machine (a consistency check, not fidelity).

SPEC (relative paths from SPEC's directory)::

    [validation]
    base    = default.ini            ; the scenario every run starts from
    set     = scheduler.mpl=1 ...    ; --set options of every run
    configs = documented fcfs easy   ; the default rows, in this order

    [config fcfs]                    ; a configuration shared by traces
    set = scheduler.backfill=none

    [trace hpc2n]
    file    = ../traces/hpc2n-seth-first3171.swf
    set     = computer.number=240    ; this trace's options
    config.documented = scheduler.backfill=conservative scheduler.reservations=1
    configs = documented fcfs easy   ; optional, else [validation]'s
    logged_start = wait              ; or submit (see above)

A configuration NAME of a trace is its key config.NAME, else the section
[config NAME]. The options of a run are [validation] set, then the
trace's set, then the configuration's, a later value of a key replacing
an earlier one (pnrsim takes each key once).

Exit status: 0; 1 a run failed or an output could not be written; 2 bad
usage, a bad SPEC, trace or run directory; 3 pandas missing.
"""
import argparse
import configparser
import csv
import gzip
import math
import os
import shlex
import subprocess
import sys

PROG = "pnrsim-plot validate"
WITHIN = 600.0   # s: "within 10 minutes"


class ValidateError(Exception):
    """A bad SPEC, trace or run directory (exit status 2)."""


# ---------------------------------------------------------------- statistics

def median(xs):
    """The median of the numbers xs (the mean of the two middle ones when
    their number is even); NaN for none."""
    s = sorted(xs)
    n = len(s)
    if n == 0:
        return float("nan")
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2.0


def nearest_rank(xs, p):
    """The p-th percentile (0 < p <= 100) of xs by nearest rank: the
    ceil(p/100 n)-th smallest value; NaN for none."""
    s = sorted(xs)
    if not s:
        return float("nan")
    k = max(1, int(math.ceil(p / 100.0 * len(s) - 1e-9)))
    return s[k - 1]


def error_stats(errors):
    """The table's figures for a list of signed errors (s): n, median,
    mean (signed), mae, p90 (of |error|, nearest rank), within (share of
    |error| <= 600 s)."""
    a = [abs(e) for e in errors]
    n = len(errors)
    return {
        "compared": n,
        "median_error_s": median(errors),
        "mean_error_s": sum(errors) / n if n else float("nan"),
        "mae_s": sum(a) / n if n else float("nan"),
        "p90_abs_error_s": nearest_rank(a, 90),
        "within_10min": sum(1 for x in a if x <= WITHIN) / n if n else float("nan"),
    }


# ---------------------------------------------------------------- inputs

def read_swf(path, header=None):
    """The records of an SWF file (.swf or .swf.gz) as a list of
    (job, submit, wait, line, runtime, procs): fields 1, 2, 3, the line
    number, fields 4 and 5. Comment lines (;) are skipped; the leading
    ones "; Key: value" go into the dict header when one is given; a data
    line must have 18 numbers."""
    try:
        with open(path, "rb") as f:
            gz = f.read(2) == b"\x1f\x8b"
        f = gzip.open(path, "rt", encoding="latin-1") if gz else \
            open(path, "r", encoding="latin-1")
    except OSError as e:
        raise ValidateError("%s: %s" % (path, e.strerror or e))
    recs, seen = [], set()
    with f:
        for i, line in enumerate(f, 1):
            if header is not None and not recs and line.startswith(";") and ":" in line:
                k, val = line[1:].split(":", 1)
                header.setdefault(k.strip().lower(), val.strip())
            line = line.split(";", 1)[0].strip()
            if not line:
                continue
            fs = line.split()
            if len(fs) != 18:
                raise ValidateError("%s:%d: %d fields (an SWF record has 18)" % (path, i, len(fs)))
            try:
                job, submit, wait = int(round(float(fs[0]))), float(fs[1]), float(fs[2])
                runtime, procs = float(fs[3]), float(fs[4])
            except ValueError:
                raise ValidateError("%s:%d: fields 1-3 are not numbers" % (path, i))
            if job in seen:
                raise ValidateError("%s:%d: job %d appears twice" % (path, i, job))
            seen.add(job)
            recs.append((job, submit, wait, i, runtime, procs))
    return recs


def read_jobs(rundir):
    """jobs.csv (or .csv.gz) of a run as a DataFrame, and the run's
    "# PARTIAL" note (None for a complete run)."""
    from .run import RunError, _find, _partial_line, _read_csv
    p = _find(rundir, "jobs")
    if p is None:
        raise ValidateError("%s: no jobs.csv (not a pnrsim run directory?)" % rundir)
    try:
        df = _read_csv(p, "jobs")
    except RunError as e:
        raise ValidateError(str(e))
    if "state" not in df.columns:
        raise ValidateError("%s: jobs.csv has no state column (a run of pnrsim before 0.20?)" % p)
    return df, _partial_line(p)


# ---------------------------------------------------------------- comparison

def compare(recs, jobs, logged_start="wait"):
    """Compare a run's jobs (DataFrame of jobs.csv) with the trace records
    recs (read_swf). Returns (stats, rows): stats = error_stats plus the
    counts of jobs not compared and the mean logged and simulated waits;
    rows = per compared job (job, logged_submit, logged_wait, sim_wait,
    error)."""
    by_id = {}
    for r in jobs.itertuples(index=False):
        by_id[int(r.job)] = r
    rows, dropped, never, absent, unknown = [], {}, {}, 0, 0
    offsets = []
    for job, submit, wait, line in (rec[:4] for rec in recs):
        known = wait >= 0 if logged_start == "wait" else True
        r = by_id.get(job)
        if not known:
            unknown += 1
            continue
        if r is None:
            absent += 1
            continue
        state = str(r.state)
        reason = getattr(r, "reason", None)
        if state == "dropped":
            why = reason if isinstance(reason, str) and reason else "?"
            dropped[why] = dropped.get(why, 0) + 1
            continue
        if not math.isfinite(float(r.start)):
            why = reason if isinstance(reason, str) and reason else state
            never[why] = never.get(why, 0) + 1
            continue
        sim_wait = float(r.start) - float(r.submit)
        logged_wait = wait if logged_start == "wait" else 0.0
        offsets.append((submit - float(r.submit), job, line))
        rows.append((job, submit, logged_wait, sim_wait, sim_wait - logged_wait))
    # One shift for every compared job: pnrsim's submit = the logged one
    # minus the first kept job's (load_scale 1). jobs.csv has 12
    # significant digits: 1e-9 relative, and 0.01 s.
    if offsets:
        off0 = offsets[0][0]
        for off, job, line in offsets:
            if abs(off - off0) > 0.01 + 1e-9 * abs(off):
                raise ValidateError(
                    "job %d (trace line %d): its simulated submit is the logged one shifted by "
                    "%.6g s, the first compared job's by %.6g s: the run's submit times are not "
                    "the trace's (workload.load_scale must be 1 for a comparison)"
                    % (job, line, off, off0))
    st = error_stats([row[4] for row in rows])
    n = len(rows)
    st.update({
        "records": len(recs),
        "logged_wait_unknown": unknown,
        "dropped": sum(dropped.values()),
        "dropped_by_reason": dropped,
        "never_started": sum(never.values()),
        "never_started_by_reason": never,
        "not_in_run": absent,
        "logged_wait_mean_s": sum(row[2] for row in rows) / n if n else float("nan"),
        "sim_wait_mean_s": sum(row[3] for row in rows) / n if n else float("nan"),
    })
    return st, rows


def log_facts(recs, pes, logged_start="wait"):
    """What the log's own schedule says (no simulation): its jobs start at
    the logged start (submit + wait, or submit) and hold their processors
    (field 5) for their run time (field 4); records with either unknown
    are left out. Returns a dict: jobs (in that schedule), peak_procs (the
    most processors in use at once: above pes, the logged schedule does
    not fit the simulated machine), mean_busy_procs (time average from the
    first start to the last end), waited (jobs whose logged wait exceeds
    10 minutes) and waited_room (those of them that had their width free
    at their submit time in the log's schedule, with pes processors:
    waits that the logged jobs' occupancy does not explain). For a log
    without waits (logged_start submit) waited and waited_room are None."""
    ev, jobs = [], []
    for job, submit, wait, line, runtime, procs in recs:
        if runtime < 0 or procs < 0.5 or (logged_start == "wait" and wait < 0):
            continue
        start = submit + (wait if logged_start == "wait" else 0.0)
        p = int(round(procs))
        ev.append((start, p))
        ev.append((start + runtime, -p))
        jobs.append((submit, wait, p))
    ev.sort()                       # at one instant, ends (negative) first
    times, use, u = [], [], 0
    peak, area = 0, 0.0
    for i, (t, d) in enumerate(ev):
        if i and t > ev[i - 1][0]:
            area += u * (t - ev[i - 1][0])
        u += d
        peak = max(peak, u)
        if times and times[-1] == t:
            use[-1] = u
        else:
            times.append(t)
            use.append(u)
    span = ev[-1][0] - ev[0][0] if ev else 0.0
    out = {"jobs": len(jobs), "peak_procs": peak,
           "mean_busy_procs": area / span if span > 0 else float("nan"),
           "waited": None, "waited_room": None}
    if logged_start == "wait":
        import bisect
        waited = room = 0
        for submit, wait, p in jobs:
            if wait > WITHIN:
                waited += 1
                i = bisect.bisect_right(times, submit) - 1
                if pes - (use[i] if i >= 0 else 0) >= p:
                    room += 1
        out.update({"waited": waited, "waited_room": room})
    return out


# ---------------------------------------------------------------- SPEC

def _opts(text, where):
    """--set options "k=v k=v" (shell words) as an ordered dict."""
    out = {}
    try:
        words = shlex.split(text or "", comments=False)
    except ValueError as e:
        raise ValidateError("%s: %s" % (where, e))
    for w in words:
        if "=" not in w or w.startswith("="):
            raise ValidateError("%s: %r is not SECTION.KEY=VALUE" % (where, w))
        k, v = w.split("=", 1)
        out[k.strip().lower()] = v.strip()
    return out


def read_spec(path):
    """The runs of SPEC: a list of dicts (trace, config, file, base,
    options, logged_start), in the file's order."""
    cp = configparser.ConfigParser(inline_comment_prefixes=(";",), comment_prefixes=(";", "#"),
                                   interpolation=None)
    cp.optionxform = str
    try:
        with open(path, encoding="utf-8") as f:
            cp.read_file(f)
    except (OSError, configparser.Error) as e:
        raise ValidateError("%s: %s" % (path, getattr(e, "strerror", None) or e))
    here = os.path.dirname(os.path.abspath(path))
    if not cp.has_section("validation"):
        raise ValidateError("%s: no [validation] section" % path)
    v = cp["validation"]
    base = os.path.join(here, v.get("base", "default.ini"))
    common = _opts(v.get("set", ""), "%s: [validation] set" % path)
    default_configs = v.get("configs", "").replace(",", " ").split()
    runs = []
    traces = [s for s in cp.sections() if s.startswith("trace ")]
    if not traces:
        raise ValidateError("%s: no [trace NAME] section" % path)
    for s in traces:
        name = s[len("trace "):].strip()
        t = cp[s]
        if "file" not in t:
            raise ValidateError("%s: [%s] has no file" % (path, s))
        ls = t.get("logged_start", "wait").strip().lower()
        if ls not in ("wait", "submit"):
            raise ValidateError("%s: [%s] logged_start = %s: expected wait or submit" % (path, s, ls))
        topts = _opts(t.get("set", ""), "%s: [%s] set" % (path, s))
        for c in t.get("configs", " ".join(default_configs)).replace(",", " ").split():
            if ("config." + c) in t:
                copts = _opts(t["config." + c], "%s: [%s] config.%s" % (path, s, c))
            elif cp.has_section("config " + c):
                copts = _opts(cp["config " + c].get("set", ""), "%s: [config %s] set" % (path, c))
            else:
                raise ValidateError("%s: [%s]: configuration %s is neither config.%s there nor a "
                                    "[config %s] section" % (path, s, c, c, c))
            opts = dict(common)
            opts.update(topts)
            opts.update(copts)
            runs.append({"trace": name, "config": c, "file": os.path.join(here, t["file"]),
                         "base": base, "options": opts, "logged_start": ls})
    return runs


def command(prog, run, outdir):
    """The pnrsim command line of a run (a list)."""
    cmd = [prog, "-q", "-c", run["base"], "-t", run["file"]]
    for k, v in run["options"].items():
        cmd += ["--set", "%s=%s" % (k, v)]
    return cmd + ["-o", outdir]


# ---------------------------------------------------------------- output

FIELDS = ["trace", "config", "logged_start", "records", "compared", "median_error_s",
          "mean_error_s", "mae_s", "p90_abs_error_s", "within_10min", "logged_wait_mean_s",
          "sim_wait_mean_s", "logged_wait_unknown", "dropped", "never_started", "not_in_run",
          "not_compared_detail", "partial"]


def _detail(st):
    parts = []
    for k, what in (("dropped_by_reason", "dropped"), ("never_started_by_reason", "never started")):
        for why, n in sorted(st[k].items()):
            parts.append("%d %s (%s)" % (n, what, why))
    if st["logged_wait_unknown"]:
        parts.append("%d logged wait unknown" % st["logged_wait_unknown"])
    if st["not_in_run"]:
        parts.append("%d not in jobs.csv" % st["not_in_run"])
    return "; ".join(parts)


def _num(x, fmt="%.0f"):
    return "" if x is None or (isinstance(x, float) and math.isnan(x)) else fmt % x


def row_of(trace, config, st, logged_start, partial):
    r = {k: st.get(k) for k in FIELDS}
    r.update({"trace": trace, "config": config, "logged_start": logged_start,
              "not_compared_detail": _detail(st), "partial": partial or ""})
    return r


def markdown(rows):
    """The table as Markdown lines."""
    out = ["| trace | configuration | jobs compared | median error (s) | MAE (s) | "
           "p90 abs. error (s) | within 10 min | mean wait logged / sim. (s) | not compared |",
           "|---|---|---:|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        w = r["within_10min"]
        out.append("| %s | %s | %d of %d | %s | %s | %s | %s | %s / %s | %s |" % (
            r["trace"] + (" (start = submit)" if r["logged_start"] == "submit" else ""),
            r["config"], r["compared"], r["records"], _num(r["median_error_s"]),
            _num(r["mae_s"]), _num(r["p90_abs_error_s"]),
            "" if w is None or math.isnan(w) else "%.1f %%" % (100 * w),
            _num(r["logged_wait_mean_s"]), _num(r["sim_wait_mean_s"]),
            (r["not_compared_detail"] or "none") + (" [PARTIAL]" if r["partial"] else "")))
    return out


LOG_FIELDS = ["trace", "pes", "header_maxprocs", "logged_start", "jobs", "peak_procs",
              "mean_busy_procs", "waited", "waited_room"]


def markdown_logs(logs):
    """The logs' own schedules (log_facts) as Markdown lines."""
    out = ["| trace | PEs | jobs in the logged schedule | peak PEs in use | mean PEs in use | "
           "waited > 10 min | of which their width was free at submit |",
           "|---|---:|---:|---:|---:|---:|---:|"]
    for f in logs:
        w = f["waited"]
        out.append("| %s | %d | %d | %d | %s | %s | %s |" % (
            f["trace"], f["pes"], f["jobs"], f["peak_procs"], _num(f["mean_busy_procs"], "%.1f"),
            "no waits logged" if w is None else str(w),
            "" if w is None else "%d (%.1f %%)" % (f["waited_room"],
                                                  100.0 * f["waited_room"] / w if w else 0)))
    return out


def write_csv(path, fields, rows):
    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(fields)
        for r in rows:
            vals = [r[k] for k in fields] if isinstance(r, dict) else list(r)
            w.writerow(["%.12g" % x if isinstance(x, float) else x for x in vals])
    os.replace(tmp, path)


def compare_run(trace_file, rundir, logged_start, trace=None, config=None):
    """Compare one run directory with its trace: (row, per-job rows)."""
    recs = read_swf(trace_file)
    jobs, partial = read_jobs(rundir)
    st, rows = compare(recs, jobs, logged_start)
    return row_of(trace or os.path.basename(trace_file), config or os.path.basename(
        os.path.normpath(rundir)), st, logged_start, partial), rows


# ---------------------------------------------------------------- main

class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        sys.stderr.write("%s: %s\n" % (PROG, message))
        sys.exit(2)


def main(argv):
    ap = _Parser(prog=PROG, description="Simulated against logged start times, per trace and "
                 "configuration (docs/VALIDATION.md).",
                 epilog="error = simulated start - logged start (s): positive when pnrsim starts "
                 "a job later than the machine did. p90 of |error| by nearest rank; within 10 min: "
                 "|error| <= 600 s. The table holds the runs made (--only: those traces).")
    ap.add_argument("spec", nargs="?", metavar="SPEC", help="the runs (configs/validation.ini)")
    ap.add_argument("-o", "--output", metavar="OUT", default="out/validation",
                    help="where the runs and the table go (default out/validation)")
    ap.add_argument("--pnrsim", metavar="PROG",
                    default=os.environ.get("PNRSIM", "pnrsim"),
                    help="the pnrsim program (default $PNRSIM, else pnrsim on PATH)")
    ap.add_argument("--only", metavar="TRACE", action="append",
                    help="only this trace of SPEC (repeatable)")
    ap.add_argument("--compare", nargs=2, metavar=("TRACE", "RUNDIR"),
                    help="compare one finished run with its trace, run nothing")
    ap.add_argument("--logged-start", choices=("wait", "submit"), default="wait",
                    help="with --compare: logged start = submit + wait (default) or submit")
    a = ap.parse_args(argv)
    from .cli import need
    rc = need("numpy", "pandas")
    if rc:
        return rc
    try:
        if a.compare:
            if a.spec:
                ap.error("--compare takes no SPEC")
            row, _ = compare_run(a.compare[0], a.compare[1], a.logged_start)
            print("\n".join(markdown([row])))
            return 0
        if not a.spec:
            ap.error("a SPEC is needed (or --compare TRACE RUNDIR)")
        runs = read_spec(a.spec)
        if a.only:
            unknown = set(a.only) - {r["trace"] for r in runs}
            if unknown:
                raise ValidateError("--only %s: no such trace in %s" % (", ".join(sorted(unknown)),
                                                                       a.spec))
            runs = [r for r in runs if r["trace"] in a.only]
        for r in runs:  # refused before any run, as after (compare)
            ls = r["options"].get("workload.load_scale", "1")
            try:
                ok = float(ls) == 1
            except ValueError:
                ok = False
            if not ok:
                raise ValidateError("%s %s: workload.load_scale = %s: a comparison with the log "
                                    "needs the trace's own submit times (load_scale 1)"
                                    % (r["trace"], r["config"], ls))
    except ValidateError as e:
        sys.stderr.write("%s: %s\n" % (PROG, e))
        return 2
    logs, seen_traces = [], set()
    for run in runs:
        if run["trace"] in seen_traces:
            continue
        seen_traces.add(run["trace"])
        hdr = {}
        try:
            recs = read_swf(run["file"], hdr)
        except ValidateError as e:
            sys.stderr.write("%s: %s\n" % (PROG, e))
            return 2
        maxprocs = hdr.get("maxprocs") or hdr.get("maxnodes")
        pes = run["options"].get("computer.number", maxprocs)
        try:
            pes = int(pes)
        except (TypeError, ValueError):
            sys.stderr.write("%s: %s: no computer.number in SPEC and no MaxProcs in the trace's "
                             "header: the machine's size is unknown\n" % (PROG, run["trace"]))
            return 2
        if maxprocs is not None and str(pes) != maxprocs.split()[0]:
            sys.stderr.write("%s: %s: warning: computer.number = %d, the trace's header says "
                             "MaxProcs %s\n" % (PROG, run["trace"], pes, maxprocs))
        f = log_facts(recs, pes, run["logged_start"])
        f.update({"trace": run["trace"], "pes": pes, "header_maxprocs": maxprocs or "",
                  "logged_start": run["logged_start"]})
        logs.append(f)
    table, cmds, failed = [], ["#!/bin/sh", "# written by pnrsim-plot validate %s" % a.spec,
                               "set -e"], 0
    recs_of = {}
    for run in runs:
        d = os.path.join(a.output, run["trace"], run["config"])
        os.makedirs(d, exist_ok=True)
        cmd = command(a.pnrsim, run, d)
        cmds.append(" ".join(shlex.quote(c) for c in cmd))
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               universal_newlines=True)
        except OSError as e:
            sys.stderr.write("%s: cannot run %s: %s\n" % (PROG, a.pnrsim, e.strerror or e))
            return 1
        # 3 = no job finished: still compared (every job then counts as not started).
        if p.returncode not in (0, 3):
            sys.stderr.write("%s: %s %s: pnrsim exited %d:\n%s" % (PROG, run["trace"], run["config"],
                                                                  p.returncode, p.stderr))
            failed += 1
            continue
        if p.stderr.strip():
            for l in p.stderr.strip().split("\n"):
                sys.stderr.write("%s: %s %s: %s\n" % (PROG, run["trace"], run["config"], l))
        try:
            if run["file"] not in recs_of:
                recs_of[run["file"]] = read_swf(run["file"])
            jobs, partial = read_jobs(d)
            st, rows = compare(recs_of[run["file"]], jobs, run["logged_start"])
        except ValidateError as e:
            sys.stderr.write("%s: %s %s: %s\n" % (PROG, run["trace"], run["config"], e))
            failed += 1
            continue
        write_csv(os.path.join(d, "errors.csv"),
                  ["job", "logged_submit", "logged_wait", "sim_wait", "error"], rows)
        table.append(row_of(run["trace"], run["config"], st, run["logged_start"], partial))
    try:
        write_csv(os.path.join(a.output, "validation.csv"), FIELDS, table)
        write_csv(os.path.join(a.output, "logs.csv"), LOG_FIELDS, logs)
        with open(os.path.join(a.output, "commands.sh"), "w") as f:
            f.write("\n".join(cmds) + "\n")
    except OSError as e:
        sys.stderr.write("%s: cannot write in %s: %s\n" % (PROG, a.output, e.strerror or e))
        return 1
    print("\n".join(markdown(table)))
    print("")
    print("\n".join(markdown_logs(logs)))
    print("\n%s: %d runs, tables in %s and logs.csv, commands in %s" % (
        PROG, len(table), os.path.join(a.output, "validation.csv"),
        os.path.join(a.output, "commands.sh")))
    return 1 if failed else 0
