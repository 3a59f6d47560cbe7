#!/bin/sh
# tests/test_validate.sh BUILD: pnrsim-plot validate (python/pnrsim/validate.py,
# docs/VALIDATION.md), simulated against logged start times.
#
#   - the arithmetic on a hand-made trace and jobs.csv (below), through the
#     module and through `pnrsim-plot validate --compare`: the errors, their
#     median, MAE, p90 by nearest rank and share within 10 minutes worked
#     out by hand; every job not compared counted under its reason;
#   - nearest rank and the median on their own (odd and even counts);
#   - a run whose submit times are not the trace's (load_scale 2) is refused
#     (exit 2, naming load_scale), not compared;
#   - a smoke run of the whole tool on a 300-job slice of the HPC2N excerpt
#     with a SPEC of two configurations (FCFS and EASY, options from a shared
#     [config] and a trace's own config.NAME): exit 0, one table row per run,
#     compared + not compared = the records, and in every errors.csv row
#     error = sim_wait - logged_wait with logged_wait the trace's field 3
#     and sim_wait jobs.csv's start - submit (read here with awk, not with
#     the tool's code); a configuration pnrsim refuses makes the tool exit 1;
#   - without pandas: --help works, a comparison exits 3 naming it.
# Skips (saying why) when /usr/bin/python3 cannot import pandas. Fast
# (about 2 s). Prints "N passed, N failed" last.
TEST_NAME=test_validate
. "$(dirname "$0")/lib.sh"
/usr/bin/python3 -c 'import pandas' > /dev/null 2>&1 ||
    skip_all "/usr/bin/python3 cannot import pandas (sh tools/deps.sh plot)"
need "$P" "$PLOT"
export PYTHONWARNINGS=error

# The hand-made log: job, submit (field 2), wait (field 3); the other
# fields do not enter the comparison.
#   1  100   50   logged start  150
#   2  200    0                 200
#   3  300 1000                1300
#   4  400   -1   unknown: not compared
#   5  500   20   dropped by the run (too_wide)
#   6  600   30   never started (queued, waiting)
#   7  700  100                 800
#   8  800    5   absent from jobs.csv
# The run's submits are the logged ones - 100 (the first kept job at 0):
#   job  submit start  sim wait  error = sim wait - logged wait
#   1      0     20      20       20 -   50 =  -30
#   2    100    800     700      700 -    0 =  700
#   3    200    200       0        0 - 1000 = -1000
#   7    600   1900    1300     1300 -  100 = 1200
# n = 4; sorted errors -1000 -30 700 1200: median (-30 + 700) / 2 = 335;
# mean signed 870 / 4 = 217.5; |errors| 30 700 1000 1200: MAE 2930 / 4 =
# 732.5; p90 = the ceil(0.9 x 4) = 4th smallest |error| = 1200; within
# 600 s: 30 only, 1 / 4 = 25 %; mean logged wait (50+0+1000+100)/4 =
# 287.5, simulated (20+700+0+1300)/4 = 505.
mkdir -p hand
r() { echo "$1 $2 $3 10 1 -1 -1 1 100 -1 1 1 1 -1 -1 -1 -1 -1"; }
{ echo "; hand-made"; r 1 100 50; r 2 200 0; r 3 300 1000; r 4 400 -1; r 5 500 20
  r 6 600 30; r 7 700 100; r 8 800 5; } > hand.swf
cat > hand/jobs.csv <<'EOT'
job,submit,start,end,threads,state,reason
1,0,20,30,1,finished,
2,100,800,810,1,finished,
3,200,200,210,1,finished,
4,300,300,310,1,finished,
5,400,,,1,dropped,too_wide
6,500,,,1,queued,waiting
7,600,1900,1910,1,finished,
EOT
PYTHONPATH=$top/python $PY -W error - > unit.out 2> unit.err <<'EOT'
from pnrsim import validate as v
st, rows = v.compare(v.read_swf("hand.swf"), v.read_jobs("hand")[0])
def ok(name, cond):
    print(("ok   " if cond else "FAIL ") + name)
ok("errors job by job: -30 700 -1000 1200", [(r[0], r[4]) for r in rows] ==
   [(1, -30.0), (2, 700.0), (3, -1000.0), (7, 1200.0)])
exp = {"compared": 4, "median_error_s": 335.0, "mean_error_s": 217.5, "mae_s": 732.5,
       "p90_abs_error_s": 1200.0, "within_10min": 0.25, "logged_wait_mean_s": 287.5,
       "sim_wait_mean_s": 505.0, "records": 8, "logged_wait_unknown": 1, "dropped": 1,
       "never_started": 1, "not_in_run": 1}
for k, x in exp.items():
    ok("%s = %g (got %r)" % (k, x, st[k]), abs(st[k] - x) < 1e-9)
ok("dropped by reason: too_wide 1", st["dropped_by_reason"] == {"too_wide": 1})
ok("never started by reason: waiting 1", st["never_started_by_reason"] == {"waiting": 1})
# Nearest rank: ceil(0.9 x 10) = 9th of 1..10; ceil(0.9 x 11) = 10th of 1..11;
# ceil(0.9 x 1) = 1st of one value.
ok("p90 of 1..10 is 9", v.nearest_rank(range(1, 11), 90) == 9)
ok("p90 of 1..11 is 10", v.nearest_rank(range(1, 12), 90) == 10)
ok("p90 of [7] is 7", v.nearest_rank([7], 90) == 7)
ok("median of 5 3 1 is 3, of 4 1 3 2 is 2.5",
   v.median([5, 3, 1]) == 3 and v.median([4, 1, 3, 2]) == 2.5)
# logged_start = submit: the logged start is field 2, the error the simulated wait.
st2, rows2 = v.compare(v.read_swf("hand.swf"), v.read_jobs("hand")[0], "submit")
ok("start = submit: errors are the simulated waits 20 700 0 0 1300 (job 4 now compared)",
   [r[4] for r in rows2] == [20.0, 700.0, 0.0, 0.0, 1300.0] and st2["logged_wait_unknown"] == 0)
# The log's own schedule (log_facts), on 2 PEs: A submit 0, wait 0, 2 PEs
# for 1000 s; B submit 10, wait 990 (starts 1000 as A ends), 1 PE, 10 s;
# C submit 1500, wait 700, 1 PE, 5 s. Peak 2 (A's end at 1000 counts
# before B's start); area 2 x 1000 + 10 + 5 = 2015 over 0 .. 2205; two
# waits > 600 s, and at B's submit no PE is free (A holds both), at C's
# two are: 1 of 2 with room.
f = v.log_facts([(1, 0, 0, 1, 1000, 2), (2, 10, 990, 2, 10, 1), (3, 1500, 700, 3, 5, 1)], 2)
ok("log_facts: peak 2, mean busy 2015/2205, 2 waited, 1 with room (got %r)" % f,
   f["peak_procs"] == 2 and abs(f["mean_busy_procs"] - 2015 / 2205) < 1e-12 and f["jobs"] == 3
   and f["waited"] == 2 and f["waited_room"] == 1)
f = v.log_facts([(1, 0, 0, 1, 1000, 2), (2, 10, 990, 2, 10, 1)], 2, "submit")
ok("log_facts, start = submit: both start at submit, peak 3, no wait figures",
   f["peak_procs"] == 3 and f["waited"] is None)
EOT
rc=$?
while IFS= read -r l; do
    case $l in "ok   "*) ok "${l#ok   }" ;; "FAIL "*) bad "${l#FAIL }" ;; *) echo "     $l" ;; esac
done < unit.out
check "the module's checks: exit 0, stderr empty" sh -c "test $rc -eq 0 && test ! -s unit.err"
[ -s unit.err ] && sed 's/^/     /' unit.err

# The same through the command line: the row's figures, rounded to seconds.
"$PLOT" validate --compare hand.swf hand > cmp.out 2> cmp.err
check "--compare: exit 0" test $? -eq 0
check "--compare: 4 of 8 compared, median 335, MAE 732 (732.5 rounds to even), p90 1200, 25.0 %" \
    grep -q '| 4 of 8 | 335 | 732 | 1200 | 25.0 % | 288 / 505 |' cmp.out
check "--compare: the jobs not compared, by reason" \
    grep -q '1 dropped (too_wide); 1 never started (waiting); 1 logged wait unknown; 1 not in jobs.csv' cmp.out

# Submit times that are not the trace's (load_scale 2: gaps halved) are refused.
mkdir -p scaled
sed 's/^2,100,/2,50,/' hand/jobs.csv > scaled/jobs.csv
"$PLOT" validate --compare hand.swf scaled > sc.out 2> sc.err
check "submits not the trace's: exit 2" test $? -eq 2
check "... naming job 2 and load_scale" grep -q 'job 2 .*load_scale' sc.err

# A smoke run of the tool: 300 jobs of the HPC2N excerpt, FCFS and EASY.
{ grep '^;' "$top/traces/hpc2n-seth-first3171.swf"; grep -v '^;' "$top/traces/hpc2n-seth-first3171.swf" | head -300; } > slice.swf
cat > spec.ini <<EOT
[validation]
base = $top/configs/default.ini
set = scheduler.mpl=1 workload.cpu_demand=runtime workload.memory_scale=0
      process.comm_rate=0 process.sync_rate=0
configs = fcfs easy
[config fcfs]
set = scheduler.backfill=none
[trace slice]
file = slice.swf
set = computer.number=240
config.easy = scheduler.backfill=easy
EOT
"$PLOT" validate --pnrsim "$P" -o val spec.ini > val.out 2> val.err
check "smoke run: exit 0, stderr empty" sh -c "test $? -eq 0 && test ! -s val.err"
check "smoke run: validation.csv has the 2 rows" test "$(lines val/validation.csv)" -eq 3
check "smoke run: compared + not compared = 300 records in each row" sh -c '
    tail -n +2 val/validation.csv | awk -F, "{ if (\$4 != 300 || \$5 + \$13 + \$14 + \$15 + \$16 != 300) bad = 1 } END { exit bad }"'
check "smoke run: the two rows differ (FCFS is not EASY on this slice)" \
    sh -c 'test "$(sed -n 2p val/validation.csv | cut -d, -f5-10)" != "$(sed -n 3p val/validation.csv | cut -d, -f5-10)"'
check "smoke run: commands.sh sets the trace's own option" grep -q 'computer.number=240' val/commands.sh
check "smoke run: logs.csv, one row for the trace, 240 PEs" \
    sh -c 'test "$(wc -l < val/logs.csv)" -eq 2 && sed -n 2p val/logs.csv | grep -q "^slice,240,240,wait,"' 
for c in fcfs easy; do
    # The trace's field 3 and the run's start - submit, joined by job number.
    awk 'NR == FNR { if ($1 !~ /^;/) w[$1] = $3; next }
         FNR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
         $h["state"] == "finished" { print $1, $h["start"] - $h["submit"], w[$1] }' \
        slice.swf FS=, "val/slice/$c/jobs.csv" | sort -n > "$c.expect"
    tail -n +2 "val/slice/$c/errors.csv" | awk -F, '
        { if ($5 != $4 - $3) print "bad"; print $1, $4, $3 }' | sort -n > "$c.got"
    check "smoke run $c: errors.csv error = sim_wait - logged_wait, both from the trace and jobs.csv" \
        sh -c "cmp -s $c.expect $c.got && test -s $c.got"
done

# A configuration pnrsim refuses: the tool says which run and exits 1.
cat >> spec.ini <<EOT
config.bad = scheduler.backfill=sideways
configs = fcfs bad
EOT
"$PLOT" validate --pnrsim "$P" -o val2 spec.ini > bad.out 2> bad.err
check "a run pnrsim refuses: exit 1, naming the run" sh -c "test $? -eq 1 && grep -q 'slice bad: pnrsim exited 2' bad.err"
# A spec that scales the load cannot be compared with the log: refused
# before any run (exit 2, nothing written).
sed 's/^configs = fcfs bad$/configs = fcfs scaled/' spec.ini > spec-ls.ini
echo 'config.scaled = workload.load_scale=2' >> spec-ls.ini
"$PLOT" validate --pnrsim "$P" -o val3 spec-ls.ini > ls.out 2> ls.err
check "load_scale 2 in a spec: exit 2 before any run, nothing written" \
    sh -c "test $? -eq 2 && grep -q 'load_scale = 2' ls.err && test ! -e val3"
# Without pandas (a fake package first on PYTHONPATH): --help still works,
# a comparison exits 3 with one line naming pandas, no traceback.
mkdir -p nopd/pandas
echo 'raise ImportError("pandas blocked by test_validate.sh")' > nopd/pandas/__init__.py
PYTHONPATH="$PWD/nopd" "$PLOT" validate --help > nopd-help.out 2> nopd-help.err
check "pandas blocked: validate --help exit 0, stderr empty" \
    sh -c "test $? -eq 0 && grep -q 'usage: pnrsim-plot validate' nopd-help.out && test ! -s nopd-help.err"
PYTHONPATH="$PWD/nopd" "$PLOT" validate --compare hand.swf hand > /dev/null 2> nopd.err
check "pandas blocked: validate exit 3, one line naming pandas, no traceback" \
    sh -c "test $? -eq 3 && test \$(wc -l < nopd.err) -eq 1 && grep -q pandas nopd.err && ! grep -q Traceback nopd.err"
finish
