#!/bin/sh
# tests/test_sweep_cut.sh BUILD: a study cut down from the command line
# (issue 37 item 3): pnrsim-sweep --set study.KEY=N and --only KEY=V,...,
# the placeholders of [plot] titles, results.csv's wall_seconds and the
# first estimate of the time left.
#
# The study file lives in st/, its base in conf/ and its trace in tr/,
# named by relative paths (../conf/base.ini, ../tr/sample.swf), and the
# sweep runs from the directory above, so every path is resolved against
# the study file's directory and never the working directory's. The study
# is 2 RAM sizes x (2 strategies + the disk baseline) x 3 windows x 3
# seeds = 54 runs; the cut-down runs are a few of them, on the ten-job
# LANL CM-5 sample (a fraction of a second each). Checks:
#   - --set study.replications=1 --set study.windows=2 --only
#     netram.strategy=central,disk --only computer.ram=16: 1 x 2 x 2 x 1
#     = 4 runs, the rows in study order (central before the baseline disk,
#     window 0 then 1, seed 1), the notice "4 of the study file's 54";
#   - study.json's titles filled from what ran: "{windows} x {jobs} jobs,
#     {replications} seed(s), {runs} runs per point" reads "2 x 3 jobs, 1
#     seed(s), 2 runs per point"; an unknown {bogus} is kept and warned
#     about; a plot pinned to a value --only leaves out is dropped (warned);
#   - the runs' trace is tr/sample.swf (resolved from st/), no copy of the
#     study file is made but OUT/study.ini, the default OUT is
#     out/studies/NAME as for the whole study;
#   - reuse: replications 2 then runs only the 4 new seeds (skipped 4);
#     --list of the whole study in the same OUT: 8 done, 46 missing (the
#     fingerprint does not change); collect of the whole study: 54 rows,
#     exit 1 (runs missing); --set study.seed_base=2 (seeds 2-4) reuses
#     the seed-2 runs and makes 4;
#   - --only by @NAME and by number (16.0 for 16), a key given twice keeps
#     the union; values as pnrsim reads them (16MB, 0.015625GB, CENTRAL);
#   - --emit-joblist of the cut: 4 commands, and the collect it suggests
#     carries the same options;
#   - wall_seconds: the last column, a number >= 0 in every ok row, read
#     from seed-S/wall-seconds; empty when that file is removed;
#   - progress off a terminal (-j 1, interval 60 s): one line, at the end
#     of the first run, "1/4 runs done, 1 running, 0 failed, ..., about T
#     left";
#   - refused with exit 2 and nothing created: an unknown [vary] key (the
#     keys named), a value not in the list (the values named, the baseline
#     marked), an empty --only, an empty item (16,,32 and 16,), a value
#     named twice (16,16; 16 and 16MB), --set study.replications twice,
#     --set of another key, replications 0,
#     seeds past 2^31-1, windows in a study without windows.
# Prints "N passed, N failed" and exits non-zero when a check failed.

TEST_NAME=test_sweep_cut
. "$(dirname "$0")/lib.sh"    # top, build, P, SWEEP, check, need, finish, T
need "$SWEEP"

mkdir st conf tr
cp "$top/traces/lanl-cm5-techreport-sample10.swf" tr/sample.swf
printf '[computer]\nnumber = 64\n' > conf/base.ini
cat > st/cut.ini <<'EOF'
[study]
name = cut
base = ../conf/base.ini
trace = ../tr/sample.swf
replications = 3
windows = 3
metrics = jobs_finished, response_time_mean
[set]
workload.max_jobs = 3
netram.enabled = yes
[vary]
computer.ram = 16, 32
netram.strategy = central, client
[baseline disk]
netram.enabled = no
[plot resp]
metric = response_time_mean
x = computer.ram
lines = netram.strategy
title = cut ({windows} x {jobs} jobs, {replications} seed(s), {runs} runs per point)
xlabel = RAM {bogus}
[plot at32]
metric = response_time_mean
x = netram.strategy
computer.ram = 32
EOF

rows() { echo $(($(wc -l < "$1") - 1)); }
CUT="--set study.replications=1 --set study.windows=2 --only netram.strategy=central,disk --only computer.ram=16"
O=out/studies/cut

# shellcheck disable=SC2086 # $CUT: several words
"$SWEEP" -j 1 --no-plots $CUT st/cut.ini > cut.log 2>&1
rc=$?
check "cut: exit 0" test $rc -eq 0
[ $rc -eq 0 ] || cat cut.log
check "cut: the default OUT, out/studies/cut (the whole study's)" test -s $O/results.csv
check "cut: 1 RAM x 2 strategies x 2 windows x 1 seed = 4 rows" test "$(rows $O/results.csv)" -eq 4
check "cut: every run ok" test "$(grep -c ',ok,' $O/results.csv)" -eq 4
check "cut: rows in study order (central, then the baseline disk; windows 0, 1; seed 1)" \
    test "$(awk -F, 'NR > 1 { printf "%s:%s:%s:%s ", $1, $2, $3, $4 }' $O/results.csv)" = \
    "16:central:0:1 16:central:1:1 16:disk:0:1 16:disk:1:1 "
check "cut: the notice says 4 of the study file's 54 runs" \
    grep -q 'cut: with --set/--only: 4 runs (the study file has 54); the results in ' cut.log
check "cut: summary.csv has the 2 points" test "$(rows $O/summary.csv)" -eq 2

# Titles from what ran: 2 windows of max_jobs = 3 jobs, 1 seed, 2 x 1 = 2
# runs per point.
check "titles: study.json's title filled in (2 x 3 jobs, 1 seed(s), 2 runs per point)" \
    grep -qF '"title": "cut (2 x 3 jobs, 1 seed(s), 2 runs per point)"' $O/study.json
check "titles: an unknown placeholder is kept ..." grep -qF '"xlabel": "RAM {bogus}"' $O/study.json
check "... and warned about" grep -q "warning: st/cut.ini:[0-9]*: xlabel: '{bogus}' is not a placeholder" cut.log
check "titles: the plot pinned to computer.ram = 32 is dropped, with a warning" \
    sh -c "! grep -q '\"name\": \"at32\"' $O/study.json && grep -q 'plot at32 is not drawn' cut.log"

# Paths: the trace and base from st/'s point of view; no copy of the file.
cfgi=$O/runs/computer.ram=16,netram.strategy=central/window-0/seed-1/config.ini
check "paths: the run's trace is tr/sample.swf (relative to the study file)" \
    grep -q "^trace *= *$T/tr/sample.swf" "$cfgi"
check "paths: no copy of the study file but OUT/study.ini" \
    test "$(find . -name '*.ini' ! -path './conf/*' ! -path './st/*' ! -path '*/runs/*' | sort | tr '\n' ' ')" = "./$O/study.ini "

# wall_seconds: the last column, from the runs' wall-seconds files.
check "wall_seconds: the last column of results.csv" \
    test "$(head -1 $O/results.csv)" = "computer.ram,netram.strategy,window,seed,status,jobs_finished,response_time_mean,wall_seconds"
# walls CSV: per row of results.csv "-" when its last cell (wall_seconds)
# is empty, "n" when it is a decimal number, "?" otherwise.
walls() { awk -F, 'NR > 1 { w = $NF; printf "%s ", (w == "" ? "-" : w ~ /^[0-9]+\.[0-9]+$/ ? "n" : "?") }' "$1"; }
check "wall_seconds: a number >= 0 in every row" test "$(walls $O/results.csv)" = "n n n n "
check "wall_seconds: seed-S/wall-seconds beside metrics.json" test -s "${cfgi%/config.ini}/wall-seconds"

# Progress: -j 1, the default interval (60 s): the one line is printed when
# the first run has ended and the second started.
check "progress: one line, at the first run's end, with the estimate" \
    sh -c "test \$(grep -c 'runs done' cut.log) -eq 1 && grep -Eq '^pnrsim-sweep: 1/4 runs done, 1 running, 0 failed, [0-9:]+ elapsed, about [0-9:]+ left$' cut.log"

# A job list of the cut: its 4 runs (--all: they are done), and the collect
# to run afterwards repeats the cut.
# shellcheck disable=SC2086 # $CUT: several words
"$SWEEP" --emit-joblist jl.txt --all $CUT st/cut.ini > jl.log 2>&1
check "emit: the cut's 4 runs, and 'afterwards: pnrsim-sweep collect' with the same --set/--only" \
    sh -c "test \$(wc -l < jl.txt) -eq 4 && grep -qF 'afterwards: pnrsim-sweep collect --set study.replications=1 --set study.windows=2 --only netram.strategy=central,disk --only computer.ram=16 st/cut.ini' jl.log"

# Reuse: one more seed runs only the 4 new runs; the whole study sees 8.
"$SWEEP" -q -j 2 --no-plots --set study.replications=2 --set study.windows=2 \
    --only netram.strategy=@disk,central --only computer.ram=16.0 st/cut.ini > reuse.log 2>&1
check "reuse: replications 2, exit 0" test $? -eq 0
"$SWEEP" -j 2 --no-plots --set study.replications=2 --set study.windows=2 \
    --only netram.strategy=disk --only netram.strategy=central --only computer.ram=16 st/cut.ini > again.log 2>&1
check "reuse: @disk, 16.0, --only twice name the same 8 runs: ran 0, skipped 8" \
    grep -q 'ran 0, skipped 8, failed 0 (8 runs, 8 done)' again.log
"$SWEEP" --list st/cut.ini > list.out 2> list.err
check "whole study's --list in the same OUT: exit 0 (same fingerprint)" test $? -eq 0
check "... 8 done, 46 missing" \
    test "$(grep -c '^done' list.out):$(grep -c '^missing' list.out)" = "8:46"
"$SWEEP" -j 1 --no-plots --set study.seed_base=2 --set study.windows=2 \
    --only netram.strategy=central --only computer.ram=16 st/cut.ini > seed.log 2>&1
check "seed_base 2 (seeds 2, 3, 4) x 2 windows: the 2 runs of seed 2 reused, 4 run" \
    grep -q 'ran 4, skipped 2, failed 0 (6 runs, 6 done)' seed.log
check "... results.csv has seeds 2 3 4, all ok" \
    test "$(grep -c ',ok,' $O/results.csv):$(awk -F, 'NR > 1 { print $4 }' $O/results.csv | sort -u | tr '\n' ' ')" = "6:2 3 4 "
"$SWEEP" collect --no-plots st/cut.ini > all.log 2>&1
check "collect of the whole study: exit 1 (runs missing), 54 rows" \
    sh -c "test $? -eq 1 && test \$(( \$(wc -l < $O/results.csv) - 1 )) -eq 54"
check "... the 10 of its runs made are ok (8, and seed 3 of central)" test "$(grep -c ',ok,' $O/results.csv)" -eq 10
rm "${cfgi%/config.ini}/wall-seconds"
# shellcheck disable=SC2086 # $CUT: several words
"$SWEEP" collect -q --no-plots $CUT st/cut.ini > col.log 2>&1
check "collect of the cut: exit 0, 4 rows" sh -c "test $? -eq 0 && test \$(( \$(wc -l < $O/results.csv) - 1 )) -eq 4"
check "wall_seconds empty for the run whose wall-seconds is gone, kept for the others" \
    test "$(walls $O/results.csv)" = "- n n n "

# Values as pnrsim reads them: 16MB and 0.015625GB are computer.ram's 16,
# CENTRAL is central: the same 8 runs.
# shellcheck disable=SC2086
"$SWEEP" -j 2 --no-plots --set study.replications=2 --set study.windows=2 \
    --only netram.strategy=CENTRAL,disk --only computer.ram=16MB st/cut.ini > units.log 2>&1
check "--only in units and upper case: 16MB, CENTRAL name the same 8 runs: ran 0, skipped 8" \
    sh -c "test $? -eq 0 && grep -q 'ran 0, skipped 8' units.log"
"$SWEEP" -j 2 --no-plots --set study.replications=2 --set study.windows=2 \
    --only netram.strategy=central,disk --only computer.ram=0.015625GB st/cut.ini > gb.log 2>&1
check "--only computer.ram=0.015625GB (1 GB = 1024 MB): ran 0, skipped 8" \
    sh -c "test $? -eq 0 && grep -q 'ran 0, skipped 8' gb.log"

# Refusals: exit 2, the allowed keys or values named, nothing created.
refuse() { # refuse NAME EXPECTED ARGS...
    name=$1 want=$2; shift 2
    "$SWEEP" -o nothing "$@" st/cut.ini > r.out 2> r.err
    rc=$?
    check "refused: $name: exit 2, '$want'" \
        sh -c "test $rc -eq 2 && grep -qF -- \"$want\" r.err && test ! -e nothing"
}
refuse "unknown key" "'computer.rm' is not a [vary] key of st/cut.ini (its keys: computer.ram, netram.strategy)" \
    --only computer.rm=16
refuse "value not in the list" "'manager' is not a value of netram.strategy in st/cut.ini:13 (its values: central, client, disk (a baseline))" \
    --only netram.strategy=central,manager
refuse "no value" "--only computer.ram=: no value given (the values of computer.ram: 16, 32)" --only computer.ram=
refuse "an empty item" "--only computer.ram=16,,32: an empty item in the list" --only computer.ram=16,,32
refuse "a trailing comma" "--only computer.ram=16,: an empty item in the list" --only computer.ram=16,
refuse "a value twice" "--only computer.ram=16,16: '16' names computer.ram's value '16', which an --only already named" \
    --only computer.ram=16,16
refuse "a value twice over two --only, in other words" "--only computer.ram=16MB: '16MB' names computer.ram's value '16'" \
    --only computer.ram=16 --only computer.ram=16MB
refuse "--set study.replications twice" "--set study.replications=2: study.replications is set twice on the command line" \
    --set study.replications=1 --set study.replications=2
refuse "--set of another key" "--set study.name=x: the command line sets study.replications, study.windows and study.seed_base" \
    --set study.name=x
refuse "--set of a scenario key" "--set computer.ram=8: the command line sets" --set computer.ram=8
refuse "replications 0" "--set study.replications=0: need an integer from 1 to 100000" --set study.replications=0
refuse "seeds past 2^31-1" "the seeds would go up to 2147483649" --set study.seed_base=2147483647
printf '[study]\nbase = ../conf/base.ini\ntrace = ../tr/sample.swf\n[vary]\ncomputer.ram = 16\n' > st/nowin.ini
"$SWEEP" -o nothing --set study.windows=2 st/nowin.ini > r.out 2> r.err
check "refused: windows in a study without windows: exit 2, said why" \
    sh -c "test $? -eq 2 && grep -q 'has no \[study\] windows' r.err && test ! -e nothing"

finish
