"""Unit tests of the Python companion (run by tests/test_plots.sh).

    /usr/bin/python3 -W error tests/test_plots.py WORKDIR

Prints one line per check, "ok NAME", "FAIL NAME: why" or "skip NAME:
why"; every expected value is worked out by hand in the comment beside
it. WORKDIR is a scratch directory (hand-made run directories go there).
"""
import gzip
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pandas as pd

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from pnrsim import expand_ranges, format_ranges, load_run, parse_ranges, parse_time  # noqa: E402
from pnrsim import raster  # noqa: E402
from pnrsim.export import to_evalys  # noqa: E402

results = []


def check(name, cond, why=""):
    results.append(bool(cond))
    print(("ok   %s" % name) if cond else ("FAIL %s%s" % (name, ": " + why if why else "")))


def raises(f, *a):
    try:
        f(*a)
    except ValueError:
        return True
    return False


# ---- time texts and PE ranges (hand values) ---------------------------------------------
check("parse_time 100h = 100 x 3600 = 360000 s", parse_time("100h") == 360000.0)
check("parse_time 2d = 2 x 86400 = 172800 s", parse_time("2d") == 172800.0)
check("parse_time 384300s = 384300 s; 384300 = 384300 s",
      parse_time("384300s") == 384300.0 and parse_time("384300") == 384300.0)
check("parse_time 90m = 5400 s; 1.5h = 5400 s", parse_time("90m") == 5400.0 == parse_time("1.5h"))
check("parse_time refuses -5, x, 5w, 1e309, empty, 1-2",
      all(raises(parse_time, t) for t in ("-5", "x", "5w", "1e309", "", "1-2")))
check('parse_ranges "0-2 5" = [(0,2),(5,5)]; expand = {0,1,2,5}',
      parse_ranges("0-2 5") == [(0, 2), (5, 5)] and expand_ranges("0-2 5") == {0, 1, 2, 5})
check('format_ranges {0,1,2,5,7,8} = "0-2 5 7-8"; empty text = []',
      format_ranges({8, 0, 1, 2, 5, 7}) == "0-2 5 7-8" and parse_ranges("") == []
      and parse_ranges(float("nan")) == [])
check('parse_ranges refuses "3-1", "a", "1-"',
      all(raises(parse_ranges, t) for t in ("3-1", "a", "1-")))

# ---- rasters (hand-worked cells) -------------------------------------------------------------
# Paging bursts, window 0..100 s in 10 columns of 10 s: PE 0 paged 2 s over
# [0,10] and 5 s over [70,80] -> column 0 = 2, column 7 = 5; a burst of 10 s
# over [5,15] on PE 1 -> 5 in column 0, 5 in column 1; a burst of length 0 at
# 33 (3 s) -> column 3.
a = raster.spread_sum(np.array([0, 0, 1, 1]), np.array([0., 70., 5., 33.]),
                      np.array([10., 80., 15., 33.]), np.array([2., 5., 10., 3.]), 2, 0, 100, 10)
want = np.zeros((2, 10))
want[0, 0], want[0, 7], want[1, 0], want[1, 1], want[1, 3] = 2, 5, 5, 5, 3
check("spread_sum: bursts spread over their columns (hand cells)", np.allclose(a, want), str(a))
# A step function (memory.csv): PE 0 -> 3 at 20, 7 at 45, 1 at 46; at 60
# two rows, 9 then 2 (the last is the state after the instant: 9 never
# held). Columns of 10 s: 0,1 -> 0; 2,3 -> 3; 4 -> max(3, 7, 1) = 7; 5 -> 1;
# 6 -> max(1, 2) = 2; 7..9 -> 2.
m = raster.step_max(np.zeros(5, dtype=np.int64), np.array([20., 45., 46., 60., 60.]),
                    np.array([3., 7., 1., 9., 2.]), 1, 0, 100, 10)[0]
check("step_max: maximum per column, the last row of an instant (hand cells)",
      np.allclose(m, [0, 0, 3, 3, 7, 1, 2, 2, 2, 2]), str(m))
# No rows at all (a header-only memory.csv, e.g. a run interrupted at once): zeros.
z = np.zeros(0)
check("step_max, step_mean_total, spread_sum of no rows: zeros",
      not raster.step_max(z.astype(np.int64), z, z, 2, 0, 10, 5).any()
      and not raster.step_mean_total(z.astype(np.int64), z, z, 0, 10, 5).any()
      and not raster.spread_sum(z.astype(np.int64), z, z, z, 2, 0, 10, 5).any())
# Sum over PEs, time-averaged: PE 0 at 10 MB from 0, PE 1 at 20 MB from 50;
# 2 columns of 50 s -> 10 and 30; with PE 0 dropping to 0 at 75: 10, 20.
s = raster.step_mean_total(np.array([0, 1, 0]), np.array([0., 50., 75.]), np.array([10., 20., 0.]),
                           0, 100, 2)
check("step_mean_total: time average of the sum over PEs: 10; 20 + 10 x 25/50 = 25",
      np.allclose(s, [10, 20 + 10 * 25 / 50]), str(s))
# Gang matrix, 2 PEs, MPL 2, window 0..10 s in 10 columns of 1 s:
#   job 1, slot 0, PEs 0-1, 0..4                      -> slot 0 columns 0-3 = 1
#   job 2, slot 1, PEs 0-1, 4.5..10, pcs 0.5 (< 1 column: the job's time)
#                                                     -> slot 1 columns 4-9 = 2; a switch in column 4
#   job 3, slot 0, PE 0, 6..10, pcs 2 (>= 1 column: drawn) -> slot 0 PE 0: 4,5 SWITCH; 6-9 = 3
#   job 4, slot 0, PE 1, 5.2..5.4 and job 5, 5.5..5.9 -> column 5: 0.2, 0.4, idle 0.4 -> 5
#   job 6, slot 0, PE 1, 7.0..7.3                     -> column 7: idle 0.7 > 0.3 -> idle
cells, sw = raster.gantt_raster(np.array([1, 2, 3, 4, 5, 6]), np.array([0, 1, 0, 0, 0, 0]),
                                np.array([0, 4.5, 6, 5.2, 5.5, 7.0]),
                                np.array([4, 10, 10, 5.4, 5.9, 7.3]), np.array([0, 0, 0, 1, 1, 1]),
                                np.array([2, 2, 1, 1, 1, 1]), np.array([0, 0.5, 2, 0, 0, 0]),
                                n_pes=2, mpl=2, t0=0, t1=10, width=10)
I, S = raster.IDLE, raster.SWITCH
w0 = [[1, 1, 1, 1, S, S, 3, 3, 3, 3], [1, 1, 1, 1, I, 5, I, I, I, I]]
w1 = [[I, I, I, I, 2, 2, 2, 2, 2, 2], [I, I, I, I, 2, 2, 2, 2, 2, 2]]
check("gantt_raster: the job covering most of each pixel, wide switches, idle (hand cells)",
      cells[0].tolist() == w0 and cells[1].tolist() == w1, str(cells.tolist()))
# switches counted per column: job 2 switched in at 4.0 (column 4), job 3 at 4.0
# -> 2 in column 4, none elsewhere.
check("gantt_raster: context switches per column (2 in column 4)",
      sw.tolist() == [0, 0, 0, 0, 2, 0, 0, 0, 0, 0], str(sw.tolist()))
# Rows grouped 4 at a time: [1,1,2,idle] -> 1 (most frequent); [idle x3, 3] -> 3
# (idle only where every PE of the group is idle).
g = raster.group_rows(np.array([[[1], [1], [2], [I], [I], [I], [I], [3]]]), 4)
check("group_rows: most frequent job of a group; idle only when all idle",
      g[:, :, 0].tolist() == [[1, 3]], str(g.tolist()))

# ---- loading and the evalys export (a hand-made run) -------------------------------------------
work = sys.argv[1]
d = os.path.join(work, "tiny")
os.makedirs(d, exist_ok=True)
head = ("job,submit,start,end,threads,wait,response,execution,slowdown,bounded_slowdown,"
        "cpu_demand,memory_mb,page_faults,fault_time")
rows = ["1,0,10,110,4,10,110,100,1.1,1.1,100,64,0,0,200,finished,,0,0-3",
        "2,5,,,2,,,,,,50,64,0,0,,queued,,,",
        "3,7,,,500,,,,,,50,64,0,0,60,dropped,too_wide,,",
        "4,20,30,,2,,,,,,500,64,0,0,,running,,1,0-1 5"]
with open(os.path.join(d, "jobs.csv"), "w") as f:
    f.write(head + ",requested_time,state,reason,slot,pes\n" + "\n".join(rows) + "\n")
with open(os.path.join(d, "metrics.json"), "w") as f:
    json.dump({"total_time": 130, "trace": "traces/tiny.swf"}, f)
r = load_run(d)
check("load_run: 4 jobs, pes as text, empty fields NaN, absent files None, units",
      len(r.jobs) == 4 and r.jobs.pes.iloc[3] == "0-1 5" and np.isnan(r.jobs.start.iloc[1])
      and r.schedule is None and r.memory is None and r.units["jobs"]["submit"] == "s"
      and r.units["memory"]["overalloc_mb"] == "MB")
out = os.path.join(work, "tiny-evalys.csv")
ev = subprocess.run([sys.executable, "-W", "error", "-m", "pnrsim", "evalys", "-o", out, d],
                    env=dict(os.environ, PYTHONPATH=os.path.join(os.path.dirname(
                        os.path.abspath(__file__)), "..", "python")), capture_output=True, text=True)
rc = ev.returncode
# No config.ini, job 4 in slot 1: the one warning is the time-sharing one,
# the MPL at least 2 from jobs.csv's slots, the PEs 6 from its placements.
check("evalys export without config.ini: one warning, MPL at least 2 from jobs.csv's slots, 2 x 6 PEs",
      ev.stderr.count("\n") == 1 and "scheduler.mpl not in config.ini, at least 2: jobs.csv's slots"
      in ev.stderr and "can reach 2 x 6 = 12 of 6 PEs" in ev.stderr, ev.stderr)
e = pd.read_csv(out, keep_default_na=False, na_values=[""]).set_index("job_id")
# The Batsim jobs.csv columns in Batsim's documented order (oar-team/batsim
# docs/output-jobs.rst lists job_id, workload_name, submission_time,
# requested_number_of_resources, requested_time, success, starting_time,
# execution_time, finish_time, turnaround_time, stretch,
# allocated_resources, consumed_energy, metadata: allocated_resources
# BEFORE consumed_energy), with the three columns Batsim writes beyond
# that list (profile, final_state, waiting_time) where its jobs.csv has
# them (issue 32 item 8: the export had consumed_energy first).
batsim = ["job_id", "workload_name", "profile", "submission_time", "requested_number_of_resources",
          "requested_time", "success", "final_state", "starting_time", "execution_time",
          "finish_time", "waiting_time", "turnaround_time", "stretch", "allocated_resources",
          "consumed_energy", "metadata"]
documented = ["job_id", "workload_name", "submission_time", "requested_number_of_resources",
              "requested_time", "success", "starting_time", "execution_time", "finish_time",
              "turnaround_time", "stretch", "allocated_resources", "consumed_energy", "metadata"]
header = list(pd.read_csv(out, nrows=0).columns)
check("evalys export: exit 0, Batsim's 17 columns by name", rc == 0 and
      sorted(header) == sorted(batsim))
check("evalys export: the columns in Batsim's order (the 14 of output-jobs.rst in its order: "
      "allocated_resources before consumed_energy)",
      header == batsim and [c for c in header if c in documented] == documented, str(header))
j1 = e.loc[1]
# job 1: submitted 0, started 10, ended 110: waiting 10 - 0 = 10, execution
# 110 - 10 = 100, turnaround 110 - 0 = 110, stretch 110 / 100 = 1.1.
check("evalys job 1 (finished): COMPLETED_SUCCESSFULLY, success 1, times 10/100/110/10/110, stretch 1.1",
      j1.final_state == "COMPLETED_SUCCESSFULLY" and j1.success == 1 and j1.starting_time == 10
      and j1.execution_time == 100 and j1.finish_time == 110 and j1.waiting_time == 10
      and j1.turnaround_time == 110 and abs(j1.stretch - 1.1) < 1e-12
      and j1.allocated_resources == "0-3" and j1.requested_time == 200
      and j1.requested_number_of_resources == 4 and j1.workload_name == "tiny", str(j1.to_dict()))
j4 = e.loc[4]
# job 4, running at the end (130): started 30 -> execution 130 - 30 = 100,
# waiting 30 - 20 = 10, turnaround 130 - 20 = 110. It is in slot 1 on PEs
# job 1 holds (0-1): time-sharing, and without config.ini the export takes
# the MPL from jobs.csv's slots (no mpl_max in metrics.json): at least 2.
check("evalys job 4 (running at the end): COMPLETED_KILLED, success 0, finish = run end 130, 100/10/110",
      j4.final_state == "COMPLETED_KILLED" and j4.success == 0 and j4.finish_time == 130
      and j4.execution_time == 100 and j4.waiting_time == 10 and j4.turnaround_time == 110
      and j4.allocated_resources == "0-1 5" and j4.metadata == "running;slot=1;time_sharing=2",
      str(j4.to_dict()))
check("evalys jobs 2, 3: SUBMITTED (queued), REJECTED (metadata dropped:too_wide), no times",
      e.loc[2].final_state == "SUBMITTED" and e.loc[3].final_state == "REJECTED"
      and e.loc[3].metadata == "dropped:too_wide;time_sharing=2" and np.isnan(e.loc[3].starting_time)
      and np.isnan(e.loc[2].finish_time) and e.loc[3].success == 0)
check("evalys --started (to_evalys started_only): jobs 1 and 4",
      to_evalys(r, started_only=True).job_id.tolist() == [1, 4])
# ---- issue 32 item 7: a record dropped for no_procs (SWF field 5 unknown) --------------------
# pnrsim writes its row with threads empty (docs/METRICS.md: "threads empty
# when field 5 is unknown"): the export had IntCastingNaNError. Expected:
# REJECTED, success 0, metadata dropped:no_procs, requested_number_of_resources
# and allocated_resources empty; job 2 as usual (2 threads).
d = os.path.join(work, "noprocs")
os.makedirs(d, exist_ok=True)
with open(os.path.join(d, "jobs.csv"), "w") as f:
    f.write(head + ",requested_time,state,reason,slot,pes\n"
            "1,,,,,,,,,,100,64,,,150,dropped,no_procs,,\n"
            "2,0,0,100,2,0,100,100,1,1,100,64,0,0,150,finished,,0,0-1\n")
with open(os.path.join(d, "metrics.json"), "w") as f:
    json.dump({"total_time": 100, "trace": "np.swf"}, f)
out = os.path.join(work, "noprocs-evalys.csv")
p = subprocess.run([sys.executable, "-W", "error", "-m", "pnrsim", "evalys", "-o", out, d],
                   env=dict(os.environ, PYTHONPATH=os.path.join(os.path.dirname(
                       os.path.abspath(__file__)), "..", "python")), capture_output=True, text=True)
ok = p.returncode == 0 and p.stderr == ""
if ok:
    e = pd.read_csv(out, keep_default_na=False, na_values=[""]).set_index("job_id")
    r1, r2 = e.loc[1], e.loc[2]
    ok = (r1.final_state == "REJECTED" and r1.success == 0 and r1.metadata == "dropped:no_procs"
          and np.isnan(r1.requested_number_of_resources) and np.isnan(r1.allocated_resources)
          and np.isnan(r1.starting_time) and r2.requested_number_of_resources == 2
          and r2.final_state == "COMPLETED_SUCCESSFULLY")
check("evalys: a no_procs drop (threads empty) is REJECTED with no resources, exit 0, no traceback",
      ok, (p.stderr.strip().splitlines() or [""])[-1])

# ---- issue 32 item 6: partial (interrupted) and cut results say so ----------------------------
# A hand-made interrupted run: jobs.csv ends with pnrsim's "# PARTIAL"
# line, metrics.json has "partial": true. Every picture's title must say
# "partial"; every export row's metadata too ("partial" after the state,
# ";"-separated); pnrsim-plot evalys warns on stderr.
from pnrsim import plots  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402


def titles(run):
    """{picture: [the titles of its figure's axes]} of every picture."""
    out = {}
    for name, fn in plots.PICTURES:
        ax = fn(run)
        out[name] = [a.get_title() for a in ax.figure.axes]
        plt.close(ax.figure)
    return out


d = os.path.join(work, "part")
os.makedirs(d, exist_ok=True)
with open(os.path.join(d, "jobs.csv"), "w") as f:
    f.write(head + ",requested_time,state,reason,slot,pes\n" + "\n".join(rows) + "\n"
            "# PARTIAL results: run interrupted by SIGINT at t=130 s\n")
with open(os.path.join(d, "metrics.json"), "w") as f:
    json.dump({"total_time": 130, "trace": "traces/tiny.swf", "partial": True}, f)
pr = load_run(d)
t = titles(pr)
check("partial run: Run.partial, its note from the # PARTIAL line",
      getattr(pr, "partial", False) and getattr(pr, "partial_note", None) == "PARTIAL results: run interrupted by SIGINT at t=130 s",
      str(getattr(pr, "partial_note", None)))
check("partial run: each of the 6 pictures has 'partial' (and 'SIGINT at t=130 s') in a title",
      len(t) == 6 and all(any("partial" in x and "SIGINT at t=130 s" in x for x in v)
                          for v in t.values()), str(t))
check("complete run: no picture title says partial (the tiny run)",
      not any("partial" in x for v in titles(r).values() for x in v))
pe = to_evalys(pr).set_index("job_id").metadata
check("partial run: export metadata partial, running;partial, dropped:too_wide;partial",
      pe.loc[1] == "slot=0;time_sharing=2;partial" and pe.loc[4] == "running;slot=1;time_sharing=2;partial"
      and pe.loc[3] == "dropped:too_wide;time_sharing=2;partial"
      and pe.loc[2] == "queued;time_sharing=2;partial", str(pe.to_dict()))
p = subprocess.run([sys.executable, "-W", "error", "-m", "pnrsim", "evalys", d],
                   env=dict(os.environ, PYTHONPATH=os.path.join(os.path.dirname(
                       os.path.abspath(__file__)), "..", "python")), capture_output=True, text=True)
check("partial run: pnrsim-plot evalys exit 0, a warning naming the PARTIAL results on stderr",
      p.returncode == 0 and "warning" in p.stderr and "PARTIAL results: run interrupted by SIGINT"
      in p.stderr and p.stdout.count("partial") == 4, p.stderr)
# Without metrics.json the # PARTIAL line alone marks it.
os.unlink(os.path.join(d, "metrics.json"))
check("partial run without metrics.json: the # PARTIAL line alone makes Run.partial",
      getattr(load_run(d), "partial", False))
# A run whose metrics.json lists a file cut by a cap: the titles name it,
# the export warns.
d = os.path.join(work, "cut")
shutil.copytree(os.path.join(work, "tiny"), d, dirs_exist_ok=True)
with open(os.path.join(d, "metrics.json"), "w") as f:
    json.dump({"total_time": 130, "trace": "traces/tiny.swf", "partial": False,
               "truncated": [{"file": "samples.csv", "cap": "simulation.max_samples",
                              "rows_kept": 5, "rows_dropped": 13}]}, f)
t = titles(load_run(d))
check("cut run without samples.csv: no picture is drawn from samples.csv, none says cut or partial",
      len(t) == 6 and not any("cut by a cap" in x or "partial" in x for v in t.values() for x in v),
      str(t))
# With a samples.csv (the cut file), the pictures drawn from it (memory:
# samples.csv without memory.csv; queue: the MPL from samples.csv without
# schedule.csv) say so, and only those.
with open(os.path.join(d, "samples.csv"), "w") as f:
    f.write("time,running_jobs,queued_jobs,placed_jobs,mpl,cpu_utilization,mem_alloc_mean,"
            "mem_alloc_sd,disk_alloc_mean,messages_in_flight,jobs_finished,page_faults\n"
            "0,1,0,1,1,0.5,64,0,0,0,0,0\n60,1,0,1,1,0.5,64,0,0,0,0,0\n")
t = titles(load_run(d))
cutmarked = sorted(k for k, v in t.items() if any("cut by a cap: samples.csv" in x for x in v))
check("cut run: the memory and queue pictures (drawn from samples.csv) say 'cut by a cap: "
      "samples.csv', the gantt, paging and overalloc ones do not; none 'partial'",
      cutmarked == ["memory", "queue"]
      and not any("partial" in x for v in t.values() for x in v), str(t))
p = subprocess.run([sys.executable, "-W", "error", "-m", "pnrsim", "evalys", d],
                   env=dict(os.environ, PYTHONPATH=os.path.join(os.path.dirname(
                       os.path.abspath(__file__)), "..", "python")), capture_output=True, text=True)
check("cut run: evalys warns 'samples.csv was cut by simulation.max_samples (5 rows kept, 13 dropped)'",
      p.returncode == 0 and "samples.csv was cut by simulation.max_samples (5 rows kept, 13 "
      "dropped)" in p.stderr, p.stderr)

# Values against jobs.csv for a real run: every finished job's waiting_time =
# start - submit, finish_time = end, execution_time = end - start.
try:
    import evalys  # noqa: F401
    from evalys.jobset import JobSet
    started = os.path.join(work, "tiny-started.csv")
    to_evalys(r, started_only=True).to_csv(started, index=False)
    js = JobSet.from_csv(started)
    check("evalys JobSet.from_csv reads the export (2 jobs)", len(js.df) == 2)
except ImportError:
    print("skip evalys itself is not installed (not a Debian package): the column convention "
          "and values only are checked")
# pes.csv alone (no memory.csv, paging.csv): a hand-made run, metrics_period
# 10 s, samples at 10, 20 and (after an idle stretch the sampler jumped over)
# 80, run end 100. PE 0 paged 2 s in (0,10] and 5 s in (70,80]; it is
# overallocated 3 MB from the sample at 20 on; PE 1 nothing. Columns of
# 10 s over 0..100: paging 2 in column 0 and 5 in column 7 (not 25..35, as
# evenly spaced samples would put it); overallocation 3 in columns 2..9
# (held over the idle stretch: nothing changed there).
d3 = os.path.join(work, "gap")
os.makedirs(d3, exist_ok=True)
with open(os.path.join(d3, "config.ini"), "w") as f:
    f.write("[simulation]\nmetrics_period = 10\n")
with open(os.path.join(d3, "metrics.json"), "w") as f:
    f.write('{"total_time": 100, "jobs_finished": 0}\n')
with open(os.path.join(d3, "samples.csv"), "w") as f:
    f.write("time,running_jobs,queued_jobs,placed_jobs,mpl,cpu_utilization,mem_alloc_mean,"
            "mem_alloc_sd,disk_alloc_mean,messages_in_flight,jobs_finished,page_faults\n"
            "10,1,2,1,1,1,50,0,0,0,0,7\n80,0,0,0,0,0,0,0,0,0,1,9\n")
with open(os.path.join(d3, "pes.csv"), "w") as f:
    f.write("time,first_pe,last_pe,mem_alloc_mb,overalloc_mb,netram_lent_mb,netram_held_mb,"
            "page_faults,paging_time,cpu_busy\n10,0,0,100,0,0,0,4,2,1\n10,1,1,0,0,0,0,0,0,0\n"
            "20,0,0,103,3,0,0,0,0,1\n20,1,1,0,0,0,0,0,0,0\n80,0,0,103,3,0,0,9,5,1\n"
            "80,1,1,0,0,0,0,0,0,0\n")
from pnrsim import plots  # noqa: E402
r3 = load_run(d3)
row, t, prev, p = plots._pes_rows(r3, events=True)
pg = raster.spread_sum(row, prev, t, p.paging_time.to_numpy(), 2, 0, 100, 10)
oa = raster.step_max(row, t, p.overalloc_mb.to_numpy(), 2, 0, 100, 10)
check("pes.csv fallback: paging at its true times across an idle stretch (columns 0 and 7)",
      pg[0].tolist() == [2, 0, 0, 0, 0, 0, 0, 5, 0, 0] and not pg[1].any(), str(pg.tolist()))
check("pes.csv fallback: overallocation held over the idle stretch (3 in columns 2..9)",
      oa[0].tolist() == [0, 0, 3, 3, 3, 3, 3, 3, 3, 3] and not oa[1].any(), str(oa.tolist()))
# An older jobs.csv (14 columns, finished jobs only), gzip-compressed.
d2 = os.path.join(work, "old")
os.makedirs(d2, exist_ok=True)
with gzip.open(os.path.join(d2, "jobs.csv.gz"), "wt") as f:
    f.write(head + "\n1,0,10,110,4,10,110,100,1.1,1.1,100,64,0,0\n"
            "# PARTIAL results: run interrupted by SIGINT at t=120 s\n")
r2 = load_run(d2)
e2 = to_evalys(r2)
check("old jobs.csv.gz (no state column, a # PARTIAL line): loads, 1 job COMPLETED_SUCCESSFULLY",
      len(r2.jobs) == 1 and e2.final_state.tolist() == ["COMPLETED_SUCCESSFULLY"]
      and e2.allocated_resources.tolist() == [""])
shutil.rmtree(d2)

# ---- issue 37 item 5: pictures that answer at a glance (hand values) ---------------------
from pnrsim.run import time_unit_of  # noqa: E402
# The unit written in --from/--to: 384300s -> s, 2d -> d, 5h -> h, 90m ->
# min, plain numbers none; --to's first, else --from's.
check("time_unit_of: 384300s s, 2d d, 5h h, 90m min, 100 none",
      [time_unit_of(t) for t in ("384300s", "2d", "5h", "90m", "100", 100.0)]
      == ["s", "d", "h", "min", None, None])
check("asked_unit: (0, 2d) d; (5h, 300000) h; (None, None) none; (100h, 5d) d (--to first)",
      plots.asked_unit("0", "2d")[0] == "d" and plots.asked_unit("5h", "300000")[0] == "h"
      and plots.asked_unit(None, None) is None and plots.asked_unit("100h", "5d")[0] == "d")
# Rounded windows: as many decimals as a hundredth of the length needs.
#   0 .. 5132160 s in d: 59.4 d long, a hundredth 0.594 -> 1 decimal: "0 .. 59.4 d";
#   384300 .. 384700 s in s: 400 long, a hundredth 4 -> 0 decimals;
#   370000 .. 440000 s in h: 102.78 .. 122.22 h, 19.4 long -> 1 decimal.
check('span_text: "0 .. 59.4 d", "384300 .. 384700 s", "102.8 .. 122.2 h"',
      plots.span_text(0, 59.4 * 86400, "d") == "0 .. 59.4 d"
      and plots.span_text(384300, 384700, "s") == "384300 .. 384700 s"
      and plots.span_text(370000, 440000, "h") == "102.8 .. 122.2 h",
      plots.span_text(0, 59.4 * 86400, "d"))
check('gantt_ylabel: MPL 1 "PE"; MPL 2 names the sub-rows as gang slots 0-1',
      plots.gantt_ylabel(1, 1) == "PE"
      and plots.gantt_ylabel(1, 2) == "PE (sub-rows: gang slots 0-1, slot 0 lowest)"
      and "groups of 4 PEs" in plots.gantt_ylabel(4, 3) and "gang slots 0-2" in plots.gantt_ylabel(4, 3))
# Twin axes sharing gridlines: queue top 10.8, MPL top 2.1. Left step:
# the smallest of 1, 2, 2.5, 5, 10, ... giving at most 8 steps to 10.8: 1
# gives 10.8, 2 gives 5.4 -> 2. Queue top 18.36: 2 gives 9.18, 2.5 gives
# 7.34 -> 2.5. Right: in the same proportion the axis reaches
# 10.8 x s2 / 2 = 5.4 s2 >= 2.1 with s2 = 1 -> top 5.4 (ticks 0..5 at the
# heights of the left's 0, 2, .., 10). Queue top 1.08, MPL 2.1: s1 = 1,
# 1.08 s2 >= 2.1 -> s2 = 2 (1.08 x 1 = 1.08 < 2.1), top 2.16.
check("twin_scales(10.8, 2.1) = (2, 1, 5.4); (1.08, 2.1) = (1, 2, 2.16); (18.36, 2.1) step 2.5",
      plots.twin_scales(10.8, 2.1) == (2, 1, 5.4) and plots.twin_scales(18.36, 2.1)[:2] == (2.5, 1)
      and plots.twin_scales(1.08, 2.1)[:2] == (1, 2)
      and abs(plots.twin_scales(1.08, 2.1)[2] - 2.16) < 1e-12,
      str((plots.twin_scales(10.8, 2.1), plots.twin_scales(1.08, 2.1))))
sys.exit(0 if all(results) else 1)
