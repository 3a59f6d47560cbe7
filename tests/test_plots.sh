#!/bin/sh
# tests/test_plots.sh BUILD: the Python companion (python/pnrsim) and the
# pictures of pnrsim-plot, checked by image statistics.
#
#   - tests/test_plots.py: time texts ("100h" = 360000 s), PE ranges
#     ("0-2 5" = {0,1,2,5}), the rasters on hand-worked cells, loading
#     (old and new jobs.csv, .csv.gz, # PARTIAL), the evalys export of a
#     hand-made 4-job run read back by column names (evalys itself is used
#     when installed; it is not a Debian package);
#   - the pictures of the demo (configs/default.ini, --schedule), of its
#     window 384300 .. 384700 s, of a 200-job run, of a window after
#     the 200-job run's end and of schedule files written for a window
#     (4d..5d: the pictures' default window), drawn with --keep-data (plot-area boxes in
#     data/axes.json) and read back with matplotlib.image.imread by
#     tests/plotcheck.py: in the plot area of the Gantt chart, memory and
#     queue no single colour covers more than 0.9 (a blank picture is
#     1.0 white; the demo's Gantt chart, 41% utilisation at MPL 2 where
#     one slot of two is often empty, is 0.81 white at the whole-run
#     scale: 0.9 leaves room for runs a little emptier while still failing
#     a picture that shows almost nothing), switch marks (black) cover
#     less than 0.1 of the Gantt chart (they must never hide the jobs;
#     issue 26's whole-demo chart was mostly black); a heat map has colour
#     on exactly the PE rows whose data show paging / overallocation in
#     the window; a picture with nothing to show carries its note (all
#     five in the window after the run's end);
#   - issue 37 item 5 (from data/axes.json and memory as SVG): the
#     Gantt chart's y label names its sub-rows (gang slots), titles round
#     the window ("0 .. 59.4 d"), the unit of --from/--to is the axis's,
#     row marks sit between tick labels and the plot, the queue plot's
#     two y axes share their gridlines and zero, memory draws the RAM line
#     and network RAM only when it is on;
#   - the demo's pictures take under 60 s; no warning on stderr (Python
#     runs with PYTHONWARNINGS=error, as -W error);
#   - the evalys export of the 200-job run against its jobs.csv: a row
#     per job, waiting_time = start - submit, finish_time = end,
#     execution_time = end - start for the finished jobs; of a run stopped
#     by max_time: final_state follows jobs.csv's state, the running jobs
#     end at total_time.
# Skips (saying why) when /usr/bin/python3 cannot import pandas and
# matplotlib. Prints "N passed, N failed" last.
TEST_NAME=test_plots
. "$(dirname "$0")/lib.sh"    # top, build, P, PLOT, PY, check, skip, finish, T
/usr/bin/python3 -c 'import pandas, matplotlib' > /dev/null 2>&1 ||
    skip_all "/usr/bin/python3 cannot import pandas and matplotlib (sh tools/deps.sh plot)"
need "$PLOT"
export PYTHONWARNINGS=error
# report: turn "ok/FAIL/skip NAME" lines of a checker into this test's counts.
report() {
    while IFS= read -r l; do
        case $l in
        "ok   "*) ok "${l#ok   }" ;;
        "FAIL "*) bad "${l#FAIL }" ;;
        "skip "*) skip "${l#skip }" ;;
        *) echo "     $l" ;;
        esac
    done
}
/usr/bin/python3 -W error "$top/tests/test_plots.py" "$T" > unit.out 2> unit.err
rc=$?
report < unit.out
check "test_plots.py: exit 0, stderr empty" sh -c "test $rc -eq 0 && test ! -s unit.err"

# pictures RUNDIR OUT LABEL [plot options]: draw, check stderr, run plotcheck.
pictures() {
    d=$1 o=$2 label=$3; shift 3
    "$PLOT" --keep-data --format png -o "$o" "$@" "$d" > "$o.out" 2> "$o.err"
    rc=$?
    check "$label: pnrsim-plot exit 0, 6 PNGs, stderr empty" \
        sh -c "test $rc -eq 0 && test \$(ls '$o'/*.png | wc -l) -eq 6 && test ! -s '$o.err'"
    /usr/bin/python3 -W error "$top/tests/plotcheck.py" "$d" "$o" 0.9 0.1 > "$o.check" 2>&1
    sed "s/^ok   /ok   $label: /; s/^FAIL /FAIL $label: /" "$o.check" | report
    check "$label: image statistics (gantt/memory/queue <= 0.9 one colour, < 0.1 black; heat-map rows = data; notes)" \
        test $? -eq 0 -a -z "$(grep FAIL "$o.check")"
}
"$P" -c "$DEFAULT" -q --schedule -o demo > /dev/null 2> demo.err
check "demo run with --schedule: exit 0" test $? -eq 0
rm -f demo/schedule.paje demo/schedule.paje.gz
t0=$(date +%s)
pictures demo demo-plots "demo"
t1=$(date +%s)
check "demo pictures in under 60 s ($((t1 - t0)) s)" test $((t1 - t0)) -lt 60
pictures demo win-plots "demo 384300s..384700s" --from 384300s --to 384700s
# Issue 37 item 5, read from data/axes.json of the demo's pictures and of
# the window 384300s..384700s: the Gantt chart's y label names its
# sub-rows (gang slots, MPL 2); its title rounds the window: the demo's
# total_time (metrics.json) in days to one decimal, "0 .. D d" (59.4 d
# long: a hundredth is 0.594 d, one decimal); the window's title
# "384300 .. 384700 s" and its unit s (what --from/--to wrote, where 400 s
# would give s anyway); the paging and overallocation row marks lie left
# of the plot area and right of every y tick label (pixel boxes); the
# queue plot's two y axes put their ticks at the same pixel heights, the
# first at the plot's bottom (zero); memory draws the RAM line and no
# network-RAM series (the demo has [netram] enabled = no).
$PY - > glance.check 2>&1 <<'PYEOF'
import json, pathlib
def load(p):
    return json.loads(pathlib.Path(p).read_text())
a = load("demo-plots/data/axes.json")
w = load("win-plots/data/axes.json")
end = load("demo/metrics.json")["total_time"]
def out(name, cond, why=""):
    print(("ok   " if cond else "FAIL ") + name + ("" if cond else ": " + str(why)))
g = a["gantt"]
out("gantt y label says what a sub-row is", g["ylabel"] == "PE (sub-rows: gang slots 0-1, slot 0 lowest)", g["ylabel"])
want = "0 .. %s d" % ("%.1f" % (end / 86400.0)).rstrip("0").rstrip(".")
out("gantt title rounds the window: '%s'" % want, any(want + " (" in t for t in g["titles"]), g["titles"])
out("window: title '384300 .. 384700 s', unit s",
    any("384300 .. 384700 s (" in t for t in w["gantt"]["titles"]) and w["gantt"]["unit"] == "s",
    w["gantt"]["titles"])
for h in ("paging", "overalloc"):
    m, plot = a[h]["marks"], a[h]["boxes"]["plot"]
    out("%s: row marks between the y tick labels and the plot area" % h,
        m is not None and m["labels"] is not None and m["labels"][2] < m["marks"][0]
        and m["marks"][2] <= plot[0], (m, plot))
q = a["queue"]["twin"]
plot = a["queue"]["boxes"]["plot"]
out("queue: both y axes' ticks at the same pixel heights, zero at the bottom",
    q and len(q["left"]) == len(q["right"]) >= 3
    and all(abs(x - y) < 0.5 for x, y in zip(q["left"], q["right"]))
    and abs(a["queue"]["size"][1] - q["left"][0] - plot[3]) < 0.5, (q, plot))
s = a["memory"]["series"]
out("memory (netram off): memory in use and the RAM line, no network RAM series", s == ["memory in use", "RAM"], s)
PYEOF
report < glance.check
check "pictures at a glance: sub-rows, rounded titles, unit, marks, twin axes, memory series" \
    test -z "$(grep FAIL glance.check)" -a -s glance.check
# memory as SVG (its text as the SVG's comments): the netram-off demo has
# "RAM of a PE (1024 MB)" and no "network RAM lent"; the 100-job slice of
# the demo with network RAM on (netram.enabled = yes) has it; --from 2d
# --to 5d (3 days: h by length) draws in d, --from 100h --to 105h
# (5 h: min by length) in h.
$PY - "$top/python" > mem.check 2>&1 <<'PYEOF'
import sys
sys.path.insert(0, sys.argv[1])
from pnrsim import load_run, plots
def out(name, cond, why=""):
    print(("ok   " if cond else "FAIL ") + name + ("" if cond else ": " + str(why)))
r = load_run("demo")
ax = plots.memory(r)
ax.figure.savefig("mem-off.svg")
with open("mem-off.svg") as f:
    t = f.read()
out("memory.svg, netram off: a RAM line of 1024 MB, no network RAM lent",
    "RAM of a PE (1024 MB)" in t and "network RAM lent" not in t)
out("--from 2d --to 5d: time axis in d", plots.gantt(r, t0="2d", t1="5d").get_xlabel() == "time (d)")
out("--from 100h --to 105h: time axis in h", plots.queue(r, t0="100h", t1="105h").get_xlabel() == "time (h)")
PYEOF
report < mem.check
"$P" -c "$DEFAULT" -q --schedule $SLICE --set netram.enabled=yes -o nr > /dev/null 2>&1
$PY - "$top/python" > nr.check 2>&1 <<'PYEOF'
import sys
sys.path.insert(0, sys.argv[1])
from pnrsim import load_run, plots
ax = plots.memory(load_run("nr"))
ax.figure.savefig("mem-on.svg")
with open("mem-on.svg") as f:
    ok = "network RAM lent" in f.read() and ax.pnrsim_series[1] == "network RAM lent"
print(("ok   " if ok else "FAIL ") + "memory.svg, netram on: the network RAM lent series is drawn")
PYEOF
report < nr.check
check "memory and units: netram series only when on, the unit asked" \
    test -z "$(grep FAIL mem.check nr.check)" -a -s mem.check -a -s nr.check
"$P" -c "$DEFAULT" -q --schedule --set workload.max_jobs=200 -o j200 > /dev/null 2>&1
rm -f j200/schedule.paje j200/schedule.paje.gz
pictures j200 j200-plots "200 jobs"
pictures j200 after-plots "after the run's end" --from 1000d --to 1001d
check "after the run's end: all 5 pictures carry their note" \
    test "$(grep -c "note '" after-plots.check)" -eq 5

# Schedule files of a window ([output] schedule_from = 4d, schedule_to =
# 5d): the pictures default to that window, 4 x 86400 = 345600 ..
# 5 x 86400 = 432000 s.
"$P" -c "$DEFAULT" -q --schedule --set output.schedule_from=4d --set output.schedule_to=5d -o day > /dev/null 2>&1
pictures day day-plots "schedule files of 4d..5d"
check "schedule files of 4d..5d: the pictures' window is 345600 .. 432000 s" \
    $PY -c 'import json,sys,pathlib; sys.exit(json.loads(pathlib.Path("day-plots/data/axes.json").read_text())["gantt"]["window"] != [345600.0, 432000.0])'

# The evalys export against jobs.csv. configs/default.ini has MPL 2: the
# export warns that evalys counts a time-shared PE once per job (issue 37;
# tests/test_export.sh checks it and the metadata): ts_only FILE, FILE has
# no other line.
ts_only() { ! grep -qv '^pnrsim-plot evalys: warning: [^ ]*: time-sharing (scheduler.mpl = 2' "$1"; }
"$PLOT" evalys -o j200-evalys.csv j200 2> ev.err
check "evalys export: exit 0, stderr only the time-sharing warning (MPL 2)" eval "test $? -eq 0 && test -s ev.err && ts_only ev.err"
/usr/bin/python3 -W error - > ev.check 2>&1 <<'PYEOF'
import numpy as np, pandas as pd
j = pd.read_csv("j200/jobs.csv", comment="#").set_index("job").sort_index()
e = pd.read_csv("j200-evalys.csv").set_index("job_id").sort_index()
f = e.final_state == "COMPLETED_SUCCESSFULLY"
jf = j.loc[e.index[f]]
ok = (len(e) == len(j) and list(e.index) == list(j.index) and f.sum() > 0
      and np.allclose(e.waiting_time[f], jf.start - jf.submit)
      and np.allclose(e.finish_time[f], jf.end)
      and np.allclose(e.execution_time[f], jf.end - jf.start)
      and (e.submission_time == j.submit).all()
      and (e.requested_number_of_resources == j.threads).all())
print("rows", len(e), "finished", int(f.sum()), "ok" if ok else "MISMATCH")
PYEOF
check "evalys export of 200 jobs: a row per job of jobs.csv; waiting = start - submit, finish = end, execution = end - start ($(cat ev.check))" \
    grep -q ' ok$' ev.check
# A run stopped by simulation.max_time = 2,000,000 s (jobs.csv with every
# state): final_state follows state (finished -> COMPLETED_SUCCESSFULLY,
# running -> COMPLETED_KILLED with finish_time = total_time, queued ->
# SUBMITTED, unsubmitted -> NOT_SUBMITTED, dropped -> REJECTED), a row each.
"$P" -c "$DEFAULT" -q --set simulation.max_time=2000000 -o stop > /dev/null 2>&1
"$PLOT" evalys -o stop-evalys.csv stop 2> stop.err
/usr/bin/python3 -W error - > stop.check 2>&1 <<'PYEOF'
import json
import numpy as np, pandas as pd
j = pd.read_csv("stop/jobs.csv", comment="#").set_index("job").sort_index()
e = pd.read_csv("stop-evalys.csv").set_index("job_id").sort_index()
with open("stop/metrics.json") as f:
    end = json.load(f)["total_time"]
m = {"finished": "COMPLETED_SUCCESSFULLY", "running": "COMPLETED_KILLED", "queued": "SUBMITTED",
     "unsubmitted": "NOT_SUBMITTED", "dropped": "REJECTED"}
run = e.final_state == "COMPLETED_KILLED"
ok = ("state" in j and list(e.index) == list(j.index)
      and (e.final_state == j.state.map(m)).all() and run.any()
      and np.allclose(e.finish_time[run], end)
      and np.allclose(e.starting_time[run], j.start[run]))
print(" ".join("%s %d" % kv for kv in e.final_state.value_counts().sort_index().items()),
      "ok" if ok else "MISMATCH")
PYEOF
check "evalys export of a max_time run: final_state from state, running ones end at total_time ($(cat stop.check))" \
    eval "grep -q ' ok$' stop.check && ts_only stop.err"

# Reviewer's findings (issue 26). A trace whose first record is dropped
# (999 threads on 240 PEs: too_wide) gives a jobs.csv row with empty
# submit (docs/METRICS.md); --plot and the export must take it: 1 row
# REJECTED, 1 COMPLETED_SUCCESSFULLY.
printf '1 0 -1 100 999 -1 -1 999 150 -1 1 -1 -1 -1 -1 -1 -1 -1\n2 5 -1 100 2 -1 -1 2 150 -1 1 -1 -1 -1 -1 -1 -1 -1\n' > wide.swf
"$P" -c "$DEFAULT" -q --plot -t wide.swf -o wide > /dev/null 2> wide.err
check "a dropped first record (empty submit): --plot exit 0, 6 PNGs, stderr empty" \
    sh -c "test $? -eq 0 && test ! -s wide.err && test \$(ls wide/plots/*.png | wc -l) -eq 6"
"$PLOT" evalys wide > wide-ev.csv 2> wide-ev.err
check "a dropped first record: the export has it REJECTED and job 2 COMPLETED_SUCCESSFULLY" \
    eval "ts_only wide-ev.err && grep -q '^1,.*,REJECTED,' wide-ev.csv && grep -q '^2,.*,COMPLETED_SUCCESSFULLY,' wide-ev.csv"
# An empty window (--to 0: 0 .. 0) is refused before anything is made.
"$PLOT" --to 0 -o empty-win demo > /dev/null 2> ew.err
check "--to 0: exit 2, one line naming the window, no directory made" \
    sh -c "test $? -eq 2 && test \$(wc -l < ew.err) -eq 1 && grep -q 'window' ew.err && test ! -e empty-win"
# Schedule files of 4d..5d cannot show 0..1d: refused, not drawn as empty.
"$PLOT" --from 0 --to 1d -o out-win day > /dev/null 2> ow.err
check "a window outside the schedule files' (0..1d vs 4d..5d): exit 2, says what they cover" \
    sh -c "test $? -eq 2 && grep -q '345600 .. 432000' ow.err && test ! -e out-win"
# Issue 32 item 6: an interrupted run (SIGINT during the run, as in
# tests/test_results.sh) writes # PARTIAL lines; the pictures' titles
# (data/axes.json "titles") must say "partial", the export's metadata
# too, with a warning on stderr, and both still exit 0.
"$P" -c "$DEFAULT" --schedule --set process.comm_rate=1 --set output.progress_interval=0.01 \
    -o intr > intr.out 2> intr.err &
intr_pid=$!
i=0
while [ ! -s intr.err ] && [ $i -lt 100 ] && kill -0 $intr_pid 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
kill -INT $intr_pid
wait $intr_pid
check "interrupted run: metrics.json partial true, jobs.csv ends with # PARTIAL" \
    sh -c "grep -q '\"partial\": true' intr/metrics.json && tail -1 intr/jobs.csv | grep -q '^# PARTIAL'"
"$PLOT" --keep-data --format png -o intr-plots intr > intr-plots.out 2> intr-plots.err
rc=$?
check "interrupted run: pnrsim-plot exit 0, 6 PNGs" \
    sh -c "test $rc -eq 0 && test \$(ls intr-plots/*.png | wc -l) -eq 6"
check "interrupted run: every picture's title says partial (interrupted by SIGINT)" \
    $PY -c 'import json,sys; a=json.load(open("intr-plots/data/axes.json")); sys.exit(not (len(a) == 6 and all(any("[partial: run interrupted by SIGINT at t=" in t for t in v["titles"]) for v in a.values())))'
check "a complete run: no picture title says partial (j200)" \
    $PY -c 'import json,sys; a=json.load(open("j200-plots/data/axes.json")); sys.exit(not (len(a) == 6 and all(v["titles"] and not any("partial" in t for t in v["titles"]) for v in a.values())))'
"$PLOT" evalys -o intr-evalys.csv intr 2> intr-ev.err
rc=$?
check "interrupted run: evalys exit 0, a warning on stderr, every row's metadata ends 'partial'" \
    sh -c "test $rc -eq 0 && grep -q 'warning: intr: PARTIAL results: run interrupted by SIGINT' intr-ev.err && test \$(tail -n +2 intr-evalys.csv | grep -vc 'partial\$') -eq 0 && test \$(tail -n +2 intr-evalys.csv | wc -l) -gt 0"
# Issue 32 item 7: a record dropped for no_procs (SWF field 5 = -1): the
# export had IntCastingNaNError; now REJECTED, no resources.
printf '1 0 -1 100 -1 -1 -1 -1 150 -1 1 -1 -1 -1 -1 -1 -1 -1\n2 5 -1 100 2 -1 -1 2 150 -1 1 -1 -1 -1 -1 -1 -1 -1\n' > np.swf
"$P" -c "$DEFAULT" -q -t np.swf -o np > /dev/null 2>&1
"$PLOT" evalys np > np-ev.csv 2> np-ev.err
rc=$?
check "no_procs drop: evalys exit 0, stderr empty, job 1 REJECTED dropped:no_procs (time_sharing=2: MPL 2) with empty resources" \
    sh -c "test $rc -eq 0 && test ! -s np-ev.err && grep -q '^1,np,,,,150,0,REJECTED,,,,,,,,,dropped:no_procs;time_sharing=2\$' np-ev.csv"
# --help and evalys never import matplotlib: a matplotlib that cannot be
# imported (a fake package first on PYTHONPATH) changes nothing for them;
# the pictures then exit 3 with a message, no traceback.
mkdir -p nompl/matplotlib
echo 'raise ImportError("matplotlib blocked by test_plots.sh")' > nompl/matplotlib/__init__.py
PYTHONPATH="$PWD/nompl" "$PLOT" --help > nompl-help.out 2> nompl-help.err
check "matplotlib blocked: pnrsim-plot --help exit 0, usage printed, stderr empty" \
    sh -c "test $? -eq 0 && grep -q '^usage: pnrsim-plot' nompl-help.out && test ! -s nompl-help.err"
PYTHONPATH="$PWD/nompl" "$PLOT" evalys --help > /dev/null 2> nompl-eh.err
check "matplotlib blocked: pnrsim-plot evalys --help exit 0" sh -c "test $? -eq 0 && test ! -s nompl-eh.err"
PYTHONPATH="$PWD/nompl" "$PLOT" evalys np > nompl-ev.csv 2> nompl-ev.err
check "matplotlib blocked: pnrsim-plot evalys exit 0, the same CSV" \
    sh -c "test $? -eq 0 && test ! -s nompl-ev.err && cmp -s nompl-ev.csv np-ev.csv"
PYTHONPATH="$PWD/nompl" "$PLOT" -o nompl-plots np > /dev/null 2> nompl-plot.err
check "matplotlib blocked: pnrsim-plot (pictures) exit 3, one line naming matplotlib, no traceback" \
    sh -c "test $? -eq 3 && test \$(wc -l < nompl-plot.err) -eq 1 && grep -q matplotlib nompl-plot.err && ! grep -q Traceback nompl-plot.err"
# The export into a directory: exit 1 and no temporary file left.
mkdir -p evdir
"$PLOT" evalys -o evdir wide > /dev/null 2> evd.err
check "evalys -o DIRECTORY: exit 1, message, no .evalys.* left" \
    sh -c "test $? -eq 1 && test -s evd.err && test -z \"\$(ls -a . | grep '^\\.evalys')\""
finish
