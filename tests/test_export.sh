#!/bin/sh
# tests/test_export.sh BUILD: the evalys export (pnrsim-plot evalys,
# python/pnrsim/export.py) at MPL > 1 and in trace windows (issue 37 item
# 2), on small runs worked out by hand (the export of whole runs:
# tests/test_plots.sh, tests/test_plots.py):
#   - MPL 2: each placed job's metadata has slot=K (jobs.csv's slot) and
#     every row time_sharing=2; a warning on stderr says evalys' utilisation
#     can reach 2 x PEs; at MPL 1 neither (metadata as before issue 37);
#   - a trace window (workload.window, submit_min/submit_max): the records
#     it dropped (dropped:window) are left out by default, counted on
#     stderr; --keep-dropped keeps them as REJECTED rows; other drops stay.
# Skips (saying why) when /usr/bin/python3 cannot import pandas.
# Prints "N passed, N failed" last.
TEST_NAME=test_export
. "$(dirname "$0")/lib.sh"    # top, build, P, PLOT, check, skip_all, finish, T, jobf
/usr/bin/python3 -c 'import pandas' > /dev/null 2>&1 ||
    skip_all "/usr/bin/python3 cannot import pandas (sh tools/deps.sh plot)"
need "$PLOT" "$SWEEP"
export PYTHONWARNINGS=error

B="--set process.comm_rate=0 --set process.sync_rate=0 --set scheduler.pcs=0"
# rec JOB SUBMIT THREADS CPU: one SWF record (1 MB per thread).
rec() { printf '%s %s -1 %s %s %s 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n' "$1" "$2" "$4" "$3" "$4"; }
# meta CSV JOB: the metadata field of a job's row of an export (the last
# column; no field before it holds a comma).
meta() { awk -F, -v j="$2" 'NR > 1 && $1 == j { print $NF }' "$1"; }
# state CSV JOB: its final_state (column 8).
state() { awk -F, -v j="$2" 'NR > 1 && $1 == j { print $8 }' "$1"; }
rows() { echo $(($(wc -l < "$1") - 1)); }
# jsm CSV: "job,final_state,metadata " of every row of an export.
jsm() { tail -n +2 "$1" | awk -F, '{ print $1 "," $8 "," $NF }' | tr '\n' ' '; }
# windrop CSV: the jobs whose metadata is dropped:window.
windrop() { tail -n +2 "$1" | awk -F, '$NF == "dropped:window" { print $1 }' | tr '\n' ' '; }

# ---- MPL 2 --------------------------------------------------------------------------
# 4 PEs, MPL 2, quantum 10 s. Job 1 (4 x 100 s) and job 2 (4 x 50 s) at
# t = 0 share the 4 PEs in two slots: slot 0 (job 1) runs 0-10, slot 1
# (job 2) 10-20, ...; job 2 ends at 100 in slot 1, job 1 at 150 in slot 0
# (tests/test_slowdown_dedicated.sh works the times). Job 3 (8 threads)
# is too wide: dropped, never placed, no slot. Both jobs are busy on PEs
# 0-3 from their start to their finish, so evalys counts 8 busy PEs of 4
# from 10 to 100 s: the warning's 2 x 4 = 8.
{ rec 1 0 4 100; rec 2 0 4 50; rec 3 0 8 10; } > g.swf
for m in 1 2; do
    # shellcheck disable=SC2086
    "$P" -t g.swf --set computer.number=4 --set scheduler.mpl=$m --set scheduler.quantum=10 $B \
        -q -o g$m > /dev/null 2>&1
    "$PLOT" evalys -o g$m.csv g$m 2> g$m.err
    echo $? > g$m.rc
done
check "MPL 2: exit 0, 3 rows (2 jobs, 1 drop)" test "$(cat g2.rc) $(rows g2.csv)" = "0 3"
check "MPL 2: jobs.csv slots as worked out (job 1 in 0, job 2 in 1)" \
    test "$(jobf g2/jobs.csv 1 slot) $(jobf g2/jobs.csv 2 slot)" = "0 1"
check "MPL 2: job 1 metadata slot=0;time_sharing=2" test "$(meta g2.csv 1)" = "slot=0;time_sharing=2"
check "MPL 2: job 2 metadata slot=1;time_sharing=2" test "$(meta g2.csv 2)" = "slot=1;time_sharing=2"
check "MPL 2: the dropped job (no slot) dropped:too_wide;time_sharing=2, REJECTED" \
    test "$(meta g2.csv 3) $(state g2.csv 3)" = "dropped:too_wide;time_sharing=2 REJECTED"
check "MPL 2: one warning line: time-sharing, MPL 2, 2 slots used, utilisation up to 2 x 4 = 8 of 4 PEs" \
    sh -c "test \$(wc -l < g2.err) -eq 1 && grep -q 'pnrsim-plot evalys: warning: g2: time-sharing (scheduler.mpl = 2, 2 slots at most in this run)' g2.err && grep -q 'can reach 2 x 4 = 8 of 4 PEs' g2.err"
# Without config.ini (a run directory copied in part): the MPL from
# metrics.json's mpl_max (2 slots used), said to be a lower bound; the PEs
# from jobs.csv's placements (0-3: 4); without mpl_max either, from
# jobs.csv's slots (highest 1: 2).
cp -r g2 nc && rm nc/config.ini
"$PLOT" evalys -o nc.csv nc 2> nc.err
check "no config.ini: job 2 metadata slot=1;time_sharing=2 (mpl_max)" test "$(meta nc.csv 2)" = "slot=1;time_sharing=2"
check "no config.ini: the warning says the MPL is at least 2, from mpl_max, 2 x 4 = 8 of 4 PEs" \
    sh -c "grep -q 'time-sharing (scheduler.mpl not in config.ini, at least 2: the run.s mpl_max)' nc.err && grep -q 'can reach 2 x 4 = 8 of 4 PEs' nc.err"
/usr/bin/python3 -c '
import json, sys
with open(sys.argv[1]) as f:
    d = json.load(f)
del d["mpl_max"]
with open(sys.argv[1], "w") as f:
    json.dump(d, f)' nc/metrics.json
"$PLOT" evalys -o nc2.csv nc 2> nc2.err
check "no config.ini, no mpl_max: job 1 metadata slot=0;time_sharing=2 from jobs.csv's slots" \
    test "$(meta nc2.csv 1)" = "slot=0;time_sharing=2"
check "no config.ini, no mpl_max: the warning says so" grep -q "at least 2: jobs.csv's slots" nc2.err
# Nodes of 2 cores: computer.number counts cores (4 PEs, 2 nodes), so the
# warning's reach is 2 x 4 = 8 of 4 PEs (it said 16 of 8: x cores_per_node).
# shellcheck disable=SC2086
"$P" -t g.swf --set computer.number=4 --set computer.cores_per_node=2 --set scheduler.mpl=2 \
    --set scheduler.quantum=10 $B -q -o gc > /dev/null 2>&1
"$PLOT" evalys -o gc.csv gc 2> gc.err
check "2-core nodes, MPL 2: the warning says 2 x 4 = 8 of 4 PEs" grep -q 'can reach 2 x 4 = 8 of 4 PEs' gc.err
PYTHONPATH="$top/python" /usr/bin/python3 -c 'import sys; from pnrsim import load_run; r = load_run("gc"); print(r.num_pes(), r.num_nodes())' > gc.n 2>&1
check "2-core nodes: Run.num_pes() 4, num_nodes() 2" test "$(cat gc.n)" = "4 2"
check "MPL 1: exit 0, stderr empty, 3 rows" \
    test "$(cat g1.rc) $(wc -c < g1.err) $(rows g1.csv)" = "0 0 3"
check "MPL 1: metadata as before: empty for finished jobs, dropped:too_wide for job 3" \
    test "[$(meta g1.csv 1)] [$(meta g1.csv 2)] [$(meta g1.csv 3)]" = "[] [] [dropped:too_wide]"
# The Python interface: the same rows and metadata as the command.
PYTHONPATH="$top/python" /usr/bin/python3 -W error -c '
import sys
from pnrsim import load_run, to_evalys
e = to_evalys(load_run("g2")).set_index("job_id").metadata
sys.exit(not (e.loc[1] == "slot=0;time_sharing=2" and e.loc[2] == "slot=1;time_sharing=2"))' 2> py.err
check "to_evalys: the same metadata" sh -c "test $? -eq 0 && test ! -s py.err"

# ---- trace windows --------------------------------------------------------------------
# 1 PE, MPL 1; ten 1-thread jobs of 5 s submitted at 0, 10, ..., 90 s.
# workload.window = 1, max_jobs = 3: the first 3 jobs (1-3) are dropped
# (window), jobs 4-6 kept, and reading stops after job 6 (jobs 7-10 are
# not read: no row). Default export: 3 rows (4, 5, 6); 3 left out.
{ for k in 1 2 3 4 5 6 7 8 9 10; do rec $k $(((k - 1) * 10)) 1 5; done; } > w.swf
# shellcheck disable=SC2086
"$P" -t w.swf --set computer.number=1 --set scheduler.mpl=1 $B --set workload.window=1 \
    --set workload.max_jobs=3 -q -o w > /dev/null 2>&1
check "window 1 of 3 jobs: jobs.csv has jobs 1-3 dropped:window, 4-6 finished" \
    test "$(awk -F, 'NR > 1 { print $1 ":" $16 ":" $17 }' w/jobs.csv | sort -n | tr '\n' ' ')" = \
        "1:dropped:window 2:dropped:window 3:dropped:window 4:finished: 5:finished: 6:finished: "
"$PLOT" evalys -o w.csv w 2> w.err
check "window: exit 0, 3 rows (jobs 4 5 6), all COMPLETED_SUCCESSFULLY" \
    sh -c "test $? -eq 0 && test \"\$(tail -n +2 w.csv | cut -d, -f1,8 | tr '\n' ' ')\" = '4,COMPLETED_SUCCESSFULLY 5,COMPLETED_SUCCESSFULLY 6,COMPLETED_SUCCESSFULLY '"
check "window: stderr says 3 records outside the trace window left out, names --keep-dropped" \
    sh -c "test \$(wc -l < w.err) -eq 1 && grep -q 'w: 3 records outside the trace window (dropped:window) left out; --keep-dropped keeps them' w.err"
"$PLOT" evalys --keep-dropped -o wk.csv w 2> wk.err
check "window --keep-dropped: exit 0, stderr empty, 6 rows" \
    sh -c "test $? -eq 0 && test ! -s wk.err && test $(rows wk.csv) -eq 6"
check "window --keep-dropped: jobs 1-3 REJECTED with metadata dropped:window" \
    test "$(state wk.csv 1)/$(meta wk.csv 1) $(state wk.csv 2)/$(meta wk.csv 2) $(state wk.csv 3)/$(meta wk.csv 3)" = \
        "REJECTED/dropped:window REJECTED/dropped:window REJECTED/dropped:window"

# submit_min = 30, submit_max = 50 on the same trace, job 5 made 2 threads
# wide (too_wide on 1 PE): jobs 1-3 (submits 0, 10, 20) dropped window, 4
# (30) kept, 5 (40) dropped too_wide, 6 (50) kept, 7 (60) after the window:
# dropped window, and reading stops. Left out: 1, 2, 3, 7 = 4; kept by
# default: 4, 5 (REJECTED, dropped:too_wide: not a window drop), 6.
{ for k in 1 2 3 4 5 6 7 8 9 10; do
      if [ $k = 5 ]; then rec $k 40 2 5; else rec $k $(((k - 1) * 10)) 1 5; fi
  done; } > s.swf
# shellcheck disable=SC2086
"$P" -t s.swf --set computer.number=1 --set scheduler.mpl=1 $B --set workload.submit_min=30 \
    --set workload.submit_max=50 -q -o s > /dev/null 2>&1
"$PLOT" evalys -o s.csv s 2> s.err
check "submit window: 3 rows: 4 COMPLETED, 5 REJECTED dropped:too_wide, 6 COMPLETED" \
    test "$(jsm s.csv)" = \
        "4,COMPLETED_SUCCESSFULLY, 5,REJECTED,dropped:too_wide 6,COMPLETED_SUCCESSFULLY, "
check "submit window: 4 records left out (jobs 1, 2, 3 and 7)" grep -q 's: 4 records outside the trace window' s.err
"$PLOT" evalys --keep-dropped s > sk.csv 2> sk.err
check "submit window --keep-dropped: 7 rows, jobs 1 2 3 7 REJECTED dropped:window" \
    test "$(rows sk.csv) $(windrop sk.csv)" = "7 1 2 3 7 "

# Where -o writes (as pnrsim's own files, app/util.c util_write_file): a
# FIFO, also through a symlink, is written in place, and stays a FIFO; a
# symlink to a regular file is itself replaced (the rename), its target
# untouched; a new file is 0644 less the umask, no temporary left behind.
"$PLOT" evalys s > ref.csv 2> /dev/null
mkfifo ff
ln -s ff ffl
timeout 60 cat ff > ff.got &   # bounded: a writer that never opens the FIFO fails, not hangs
catpid=$!
timeout 50 "$PLOT" evalys -o ffl s 2> ff.err
rc=$?
wait $catpid
check "-o through a symlink to a FIFO: exit 0, the FIFO read the whole CSV, still a FIFO" \
    sh -c "test $rc -eq 0 && cmp -s ff.got ref.csv && test -p ff && test -L ffl"
echo keep > target.csv
ln -s target.csv tl.csv
"$PLOT" evalys -o tl.csv s 2> tl.err
check "-o on a symlink to a regular file: followed (the target holds the CSV), the link kept" \
    sh -c "test $? -eq 0 && test -L tl.csv && cmp -s target.csv ref.csv"
# /dev/stdout's way: a link to /proc/self/fd/1 with standard output sent to
# a file: the CSV lands in that file, the link stays (renaming over it
# would, as root, replace /dev/stdout).
if [ -e /proc/self/fd/1 ]; then
    ln -s /proc/self/fd/1 so
    "$PLOT" evalys -o so s > so.csv 2> so.err
    check "-o through a link to /proc/self/fd/1, stdout a file: the file holds the CSV, the link kept" \
        sh -c "test $? -eq 0 && test -L so && cmp -s so.csv ref.csv"
else
    skip "no /proc/self/fd: the /dev/stdout-style link not tried"
fi
(umask 027; "$PLOT" evalys -o mode.csv s 2> /dev/null)
check "-o a new file: mode 640 under umask 027 (0644 less the umask), no .evalys.* temporary left" \
    sh -c "test \"\$(ls -l mode.csv | cut -c1-10)\" = -rw-r----- && ! ls .evalys.* > /dev/null 2>&1"
# pnrsim's own files (app/util.c util_write_file, here pnrsim-sweep
# --emit-joblist) follow links the same way.
printf '[study]\nbase = g2/config.ini\n[vary]\nscheduler.mpl = 1, 2\n' > em.ini
echo keep > jl-target.txt
ln -s jl-target.txt jl.txt
ln -s /proc/self/fd/1 jso
"$SWEEP" --emit-joblist jl.txt -o em em.ini > /dev/null 2> em.err
check "--emit-joblist onto a symlink: followed (2 commands in its target), the link kept" \
    sh -c "test $? -eq 0 && test -L jl.txt && test \$(grep -c pnrsim jl-target.txt) -eq 2"
if [ -e /proc/self/fd/1 ]; then
    "$SWEEP" --emit-joblist jso -o em em.ini > jso.txt 2> jso.err
    check "--emit-joblist through a link to /proc/self/fd/1, stdout a file: 2 commands there, the link kept" \
        sh -c "test $? -eq 0 && test -L jso && test \$(grep -c pnrsim jso.txt) -eq 2"
fi

finish
