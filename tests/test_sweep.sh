#!/bin/sh
# tests/test_sweep.sh BUILD: end-to-end tests of pnrsim-sweep (study/).
#
# Runs BUILD/pnrsim-sweep with the real BUILD/pnrsim on small studies (the
# ten-job LANL CM-5 sample, so every run takes a fraction of a second) in a
# temporary directory, and checks:
#   - the statistics code against hand-computed numbers (--selftest-summary)
#     and, end to end, collect on run directories written by hand with known
#     metrics (mean, SD, 95% CI half-width/low/high, n = 1, missing runs);
#   - bad study files exit 2 with FILE:LINE: KEY;
#   - a 2 x 2 x 3 study gives 12 result rows and 4 summary rows;
#   - one worker, two workers, GNU parallel on the emitted job list + collect
#     and the emitted Slurm script (tasks run by hand) give byte-identical
#     results.csv but for its last column, wall_seconds (csvsame), and
#     byte-identical summary.csv;
#   - options by getopt_long: -j1, --jobs=1, --jobs 1 give -j 2's results,
#     options after the study file; bad options: one line, exit 2;
#     --version; progress lines off a terminal every --progress-interval
#     (runs done / 12, an estimate), in a short sweep one line, at the end
#     of the first run, with the estimate; -q,
#     and the bar on a terminal (script(1));
#   - resume: after deleting two run directories only those two run;
#   - a failing run (a broken trace) is reported with its error, its
#     stderr is kept, the other runs complete, the exit status is 1;
#   - every point's configuration is checked before anything runs: a
#     misspelt key, a bad [set]/[vary]/[baseline] value, a cross-key
#     problem, a missing trace, a missing --pnrsim exit 2 with FILE:LINE:
#     KEY and create nothing; ranges with nan/inf and a too-large seed_base
#     are refused; a key without effect at some points (rack_size with
#     a varied topology) is accepted and warned about once;
#   - hostile study files: a range step below %.10g, k next to 1, a
#     subnormal bound, a NUL byte, trace = /dev/null get messages that say
#     what is wrong (exit 2); 200,002 range values are read in linear time;
#   - --list and collect: interrupted runs (stopped by the runner, exit
#     143 or SIGINT under a job list) are missing, real failures failed;
#   - a metric (list or [plot]) that no run reports: exit 1, named;
#   - SIGKILL of the sweep leaves no pnrsim of it running, and the next
#     invocation can take the lock and run;
#   - SIGINT stops the study with status 130, keeps the finished runs, and
#     the next invocation runs only the rest;
#   - plots (PNG, SVG, CSV) when pnrsim-plot study can draw them; units
#     for the axis labels in study.json (computer.ram MB,
#     response_time_mean s);
#   - baselines: [baseline disk] netram.enabled = no next to two strategies
#     gives 2 x (2 + 1) x 3 = 18 result rows and 6 summary rows, "disk" in
#     the netram.strategy column, run directories named ...=@disk, runs
#     whose config.ini really has netram.enabled = no (the baseline wins
#     over [set]) and no netram.strategy override, one more plot line
#     (study.json marks it a baseline, with its overrides);
#     adding a baseline keeps the runs, changing one is refused; bad
#     baselines exit 2 with FILE:LINE: KEY.
#   - trace windows ([study] windows = 3 of max_jobs = 3 jobs): which jobs
#     each window holds, the window column, summary statistics over windows
#     and seeds against hand numbers, bad windows settings exit 2.
# Prints "N passed, N failed" and exits non-zero when a check failed.
# KEEP=1 keeps the temporary directory.

TEST_NAME=test_sweep
. "$(dirname "$0")/lib.sh"    # top, build, P, SWEEP, check, skip, need, finish, T
need "$SWEEP"
PNRSIM=$P
TRACE=$top/traces/lanl-cm5-techreport-sample10.swf

# The base configuration of every study here: the built-in defaults and a
# machine wide enough for every job of the sample.
printf '[computer]\nnumber = 64\n' > base.ini

# pnrsim-plot with the study subcommand (the Python companion) and pandas?
have_plot=0
"$PLOT" study --help 2>&1 | grep -q '^usage: pnrsim-plot study' &&
    "$PY" -c 'import pandas, matplotlib' 2> /dev/null && have_plot=1

# Number of data rows of a CSV file (lines minus the header).
rows() { echo $(($(wc -l < "$1") - 1)); }
# Field $2 (1-based) of line $3 (1 = header) of CSV file $1.
field() { awk -F, -v f="$2" -v l="$3" 'NR == l { print $f }' "$1"; }

# ---- statistics ----------------------------------------------------------

check "selftest-summary (hand-computed mean, SD, t CI)" \
    sh -c "'$SWEEP' --selftest-summary > selftest.out"

# Run directories written by hand, then collect: x.a = 1 has m = 2, 4, 9
# (mean 5, SD sqrt(13) = 3.605551275, CI half-width t(0.975,2) sqrt(13) /
# sqrt(3) = 4.302652730 * 2.081665999 = 8.956685895); x.a = 2 has one run
# (m = 10: no SD, no CI) and two missing.
cat > hand.ini <<EOF
[study]
name = hand
base = base.ini
replications = 3
metrics = m, dropped.too_wide
[vary]
x.a = 1, 2
EOF
mkrun() { # mkrun POINTDIR SEED M
    mkdir -p "hand-out/runs/$1/seed-$2"
    printf '{"m": %s, "seed": %s, "trace": "t.swf", "partial": false, "dropped": {"too_wide": %s}}\n' \
        "$3" "$2" "$2" > "hand-out/runs/$1/seed-$2/metrics.json"
}
mkrun x.a=1 1 2
mkrun x.a=1 2 4
mkrun x.a=1 3 9
mkrun x.a=2 1 10
# a partial result does not count
mkdir -p hand-out/runs/x.a=2/seed-2
printf '{"m": 99, "partial": true}\n' > hand-out/runs/x.a=2/seed-2/metrics.json
"$SWEEP" collect -o hand-out hand.ini > hand.log 2>&1
check "collect with missing runs exits 1" test $? -eq 1
S=hand-out/summary.csv
R=hand-out/results.csv
check "hand: results.csv has 6 rows" test "$(rows $R)" -eq 6
check "hand: summary.csv has 2 rows" test "$(rows $S)" -eq 2
check "hand: summary header" test "$(head -1 $S)" = \
    "x.a,n,m_mean,m_sd,m_ci95,m_ci95_lo,m_ci95_hi,dropped.too_wide_mean,dropped.too_wide_sd,dropped.too_wide_ci95,dropped.too_wide_ci95_lo,dropped.too_wide_ci95_hi"
check "hand: n = 3" test "$(field $S 2 2)" = 3
check "hand: mean of 2,4,9 = 5" near "$(field $S 3 2)" 5
check "hand: sd of 2,4,9 = 3.605551275" near "$(field $S 4 2)" 3.605551275
check "hand: ci95 = 8.956685895" near "$(field $S 5 2)" 8.956685895
check "hand: ci95_lo = -3.956685895" near "$(field $S 6 2)" -3.956685895
check "hand: ci95_hi = 13.956685895" near "$(field $S 7 2)" 13.956685895
check "hand: nested dropped.too_wide mean of 1,2,3 = 2" near "$(field $S 8 2)" 2
check "hand: n = 1 at x.a=2" test "$(field $S 2 3)" = 1
check "hand: n = 1 mean = 10" near "$(field $S 3 3)" 10
check "hand: n = 1 sd and CI empty" test "$(field $S 4 3)$(field $S 5 3)$(field $S 6 3)$(field $S 7 3)" = ""
check "hand: results statuses" test "$(cut -d, -f3 $R | tr '\n' ' ')" = "status ok ok ok ok failed missing "
check "hand: results values as written" test "$(cut -d, -f4 $R | tr '\n' ' ')" = "m 2 4 9 10   "
# Without a metrics list: every numeric member, nested ones flattened; the
# seed (a column already), strings and booleans left out.
grep -v '^metrics' hand.ini > hand-all.ini
"$SWEEP" collect -o hand-out hand-all.ini > hand-all.log 2>&1
check "hand: all numeric metrics, then wall_seconds" test "$(head -1 $R)" = \
    "x.a,seed,status,m,dropped.too_wide,wall_seconds"
# Run directories written by hand hold no wall-seconds file (only the
# built-in runner writes one): the column is empty in every row.
lastcells() { awk -F, 'NR > 1 { printf "[%s]", $NF }' "$1"; }
check "hand: wall_seconds empty for runs not made by the built-in runner" \
    test "$(lastcells $R)" = "[][][][][][]"

# A metrics.json whose seed is the string "1" (the message says it is not
# a number, not "seed 1, but this run's seed is 1"), and one with a key
# given twice (refused: readers disagree on which counts): both failed.
printf '[study]\nname = odd\nbase = base.ini\nreplications = 1\n[vary]\nx.a = 1, 2, 3\n' > odd.ini
mkdir -p odd-out/runs/x.a=1/seed-1 odd-out/runs/x.a=2/seed-1
printf '{"m": 2, "seed": "1", "partial": false}\n' > odd-out/runs/x.a=1/seed-1/metrics.json
printf '{"m": 2, "seed": 1, "m": 3, "partial": false}\n' > odd-out/runs/x.a=2/seed-1/metrics.json
mkdir -p odd-out/runs/x.a=3/seed-1
printf '{"m": 2, "seed": 1, "dropped.too_wide": 7, "dropped": {"too_wide": 0}, "partial": false}\n' \
    > odd-out/runs/x.a=3/seed-1/metrics.json
"$SWEEP" collect -o odd-out odd.ini > odd.log 2>&1
check "seed as a string: failed, 'seed is the string \"1\", not a number'" \
    grep -q 'seed is the string "1", not a number (this run.s seed is 1;' odd.log
check "a key twice in metrics.json: failed, the duplicate named" grep -q "duplicate object key" odd.log
check "a flattened clash (dropped.too_wide beside dropped: {too_wide}): failed, named" \
    grep -q "two members are both dropped.too_wide once nested objects are flattened" odd.log
check "all three: status failed in results.csv" test "$(cut -d, -f3 odd-out/results.csv | tr '\n' ' ')" = "status failed failed failed "

# ---- bad study files -----------------------------------------------------

printf '[study]\nbase = base.ini\n[vary]\ncomputer.ram = 16,,32\n' > bad1.ini
"$SWEEP" bad1.ini > bad1.log 2>&1
check "bad list: exit 2" test $? -eq 2
check "bad list: FILE:LINE: KEY message" grep -q 'bad1.ini:4: computer.ram:' bad1.log
printf '[study]\nbase = base.ini\nreplicatons = 3\n' > bad2.ini
"$SWEEP" bad2.ini > bad2.log 2>&1
check "unknown key: exit 2 with FILE:LINE: KEY" \
    sh -c "test $? -eq 2 && grep -q 'bad2.ini:3: replicatons:' bad2.log"
# Each [study] key once (was: the last name, replications, seed_base or
# windows won, silently): exit 2 naming both lines, nothing created.
for k in "name = a" "replications = 2" "seed_base = 3" "windows = 2" "metrics = m"; do
    printf '[study]\nbase = base.ini\n%s\n%s\n[vary]\ncomputer.ram = 16\n' "$k" "$k" > twice.ini
    "$SWEEP" -o twice-out twice.ini > twice.log 2>&1
    rc=$?
    check "[study] ${k%% =*} given twice: exit 2, 'twice.ini:4: ${k%% =*}: given twice (first on line 3)'" \
        sh -c "test $rc -eq 2 && grep -q 'twice.ini:4: ${k%% =*}: given twice (first on line 3)' twice.log && test ! -e twice-out"
done
# Ranges in the key's units (1 GB = 1024 MB, 1 m = 60 s): the values
# written in the key's unit, worked out by hand.
printf '[study]\nbase = base.ini\n[vary]\ncomputer.ram = 256MB:1GB:256MB, 2GB:8GB:*2\nscheduler.quantum = 1m:3m:1m\n' > units.ini
"$SWEEP" --list units.ini > units.out 2> units.err
check "ranges with units: 256MB:1GB:256MB, 2GB:8GB:*2 = 256 512 768 1024 2048 4096 8192; 1m:3m:1m = 60 120 180" \
    test "$(sed -n 's/.*computer.ram=\([0-9]*\) scheduler.quantum=60 .*/\1/p' units.out | tr '\n' ' ')$(sed -n 's/.*computer.ram=256 scheduler.quantum=\([0-9]*\) .*/\1/p' units.out | tr '\n' ' ')" = \
        "256 512 768 1024 2048 4096 8192 60 120 180 "
printf '[study]\nbase = base.ini\n[vary]\ncomputer.ram = 1GB:256MB:-256MB\n' > down.ini
"$SWEEP" --list down.ini > down.out 2>&1
check "a range going down in units: 1GB:256MB:-256MB = 1024 768 512 256" \
    test "$(sed -n 's/.*computer.ram=\([0-9]*\) .*/\1/p' down.out | tr '\n' ' ')" = "1024 768 512 256 "
# A step in units below the key's minimum (max_age >= 1 s) is a step, not
# a value: 1h:3601s:0.5s = 3600 3600.5 3601; a zero step in units is said.
printf '[study]\nbase = base.ini\n[vary]\nscheduler.max_age = 1h:3601s:0.5s\n' > step.ini
"$SWEEP" --list step.ini > step.out 2>&1
check "a step in units below the key's minimum: 1h:3601s:0.5s = 3600 3600.5 3601" \
    test "$(sed -n 's/.*max_age=\([0-9.]*\) .*/\1/p' step.out | tr '\n' ' ')" = "3600 3600.5 3601 "
printf '[study]\nbase = base.ini\n[vary]\ncomputer.ram = 1GB:1GB:0MB\n' > zstep.ini
"$SWEEP" --list zstep.ini > zstep.out 2>&1
check "a zero step in units: exit 2, 'the step must be non-zero'" \
    sh -c "test $? -eq 2 && grep -q \"range '1GB:1GB:0MB': the step must be non-zero\" zstep.out"
# Keys without their section and misspelt sections: what was meant is said.
sugg() { # sugg NAME BODY EXPECTED
    printf '[study]\nbase = base.ini\n%b\n' "$2" > sugg.ini
    "$SWEEP" -o sugg-out sugg.ini > sugg.log 2>&1
    rc=$?
    check "suggestion: $1: exit 2, '$3'" sh -c "test $rc -eq 2 && grep -qF -- \"$3\" sugg.log && test ! -e sugg-out"
}
sugg "[vary] ram" '[vary]\nram = 16' "sugg.ini:4: ram: not a pnrsim key (section.key); did you mean computer.ram?"
sugg "[set] strategy" '[set]\nstrategy = central' "sugg.ini:4: strategy: not a pnrsim key (section.key); did you mean netram.strategy?"
sugg "[vary] rma (misspelt)" '[vary]\nrma = 16' "did you mean computer.ram?"
sugg "[vray]" '[vray]\ncomputer.ram = 16' "sugg.ini:3: vray: unknown section (study, vary, set, baseline, plot, slurm, plugins); did you mean [vary]?"
sugg "[computer]" '[computer]\nram = 16' "sugg.ini:3: computer: a section of pnrsim's configuration, not of a study file: write its keys as computer.KEY = VALUE in [set]"
printf '[study]\nbase = missing.ini\n' > bad3.ini
"$SWEEP" bad3.ini > bad3.log 2>&1
check "missing base: exit 2 with FILE:LINE: KEY" \
    sh -c "test $? -eq 2 && grep -q 'bad3.ini:2: base:' bad3.log"

# ---- the 2 x 2 x 3 study -------------------------------------------------

cat > s.ini <<EOF
; two parameters, three seeds
[study]
name = small
base = base.ini
trace = $TRACE
replications = 3
metrics = total_time, jobs_finished, response_time_mean, bounded_slowdown_mean, page_faults_per_pe
[set]
workload.max_jobs = 10
netram.enabled = yes
[vary]
computer.ram = 16, 32
netram.strategy = central, client
[plot]
metric = bounded_slowdown_mean
x = computer.ram
lines = netram.strategy
[plot]
metric = response_time_mean
x = netram.strategy
lines = computer.ram
EOF

"$SWEEP" -j 1 -o j1 s.ini > j1.log 2>&1
check "2x2x3, one worker: exit 0" test $? -eq 0
check "2x2x3: results.csv has 12 rows" test "$(rows j1/results.csv)" -eq 12
check "2x2x3: summary.csv has 4 rows" test "$(rows j1/summary.csv)" -eq 4
check "2x2x3: every run ok" test "$(grep -c ',ok,' j1/results.csv)" -eq 12
tt=$(col j1/results.csv total_time)
check "2x2x3: total_time reported" \
    test -n "$tt" -a -n "$(field j1/results.csv "${tt:-1}" 2)"
check "2x2x3: rows in parameter/seed order" test \
    "$(cut -d, -f1-3 j1/results.csv | tr '\n' ' ')" = \
    "computer.ram,netram.strategy,seed 16,central,1 16,central,2 16,central,3 16,client,1 16,client,2 16,client,3 32,central,1 32,central,2 32,central,3 32,client,1 32,client,2 32,client,3 "
check "2x2x3: summary n = 3 everywhere" \
    test "$(cut -d, -f3 j1/summary.csv | tr '\n' ' ')" = "n 3 3 3 3 "
if [ $have_plot -eq 1 ]; then
    check "plot: PNG, SVG and the points drawn (CSV)" test -s j1/plots/bounded_slowdown_mean.png \
        -a -s j1/plots/bounded_slowdown_mean.svg -a -s j1/plots/bounded_slowdown_mean.csv
else
    skip "plot: pnrsim-plot has no study subcommand or /usr/bin/python3 lacks pandas/matplotlib"
fi
# Units for the axis labels (study.json; the labels drawn from them are
# checked in test_study_plots): the x key's from the configuration's
# table, the metric's from pnrsim's table of metrics; none where there is
# none.
check "study.json: computer.ram with its unit (MB)" \
    grep -q '{"key": "computer.ram", "unit": "MB", "numeric": true,' j1/study.json
check "study.json: a metric without a unit has \"\" (bounded_slowdown_mean)" \
    grep -q '{"name": "bounded_slowdown_mean", "unit": ""}' j1/study.json
check "study.json: response_time_mean in s" \
    grep -q '{"name": "response_time_mean", "unit": "s"}' j1/study.json
check "study.json: a key without a unit (a name): netram.strategy, not numeric" \
    grep -q '{"key": "netram.strategy", "unit": "", "numeric": false,' j1/study.json

"$SWEEP" -j 2 -o j2 s.ini > j2.log 2>&1
check "two workers: exit 0" test $? -eq 0
check "one and two workers: identical results.csv (but wall_seconds)" csvsame j1/results.csv j2/results.csv
check "one and two workers: identical summary.csv" cmp -s j1/summary.csv j2/summary.csv

# ---- options (getopt_long), --version, progress (issue 26) ---------------

# -j1, --jobs=1, --jobs 1 are all -j 1: the same results as two workers.
for form in -j1 --jobs=1 "--jobs 1"; do
    d=jform$(echo "$form" | tr -cd 'a-z0-9')
    # shellcheck disable=SC2086 # $form: one or two words
    "$SWEEP" $form --no-plots -o $d s.ini > $d.log 2>&1
    rc=$?
    check "'$form': exit 0, summary.csv identical to -j 2's" \
        sh -c "test $rc -eq 0 && cmp -s $d/summary.csv j2/summary.csv"
    check "'$form': results.csv identical to -j 2's (but wall_seconds)" csvsame $d/results.csv j2/results.csv
done
# Options after the study file (argument permutation), the short -o glued.
"$SWEEP" s.ini --no-plots -ojperm -j 1 > jperm.log 2>&1
rc=$?
check "options after the study file, -oDIR: exit 0" test $rc -eq 0
check "options after the study file, -oDIR: same results.csv (but wall_seconds)" \
    csvsame jperm/results.csv j2/results.csv
# Bad options: one line naming the option, exit 2, nothing created.
sweep_bad() { # NAME EXPECTED-MESSAGE ARGS...
    name=$1; want=$2; shift 2
    "$SWEEP" "$@" > bad-opt.out 2> bad-opt.err
    rc=$?
    check "bad option $name: exit 2, '$want'" \
        sh -c "test $rc -eq 2 && grep -qF -- '$want' bad-opt.err && test \$(wc -l < bad-opt.err) -eq 1 && test ! -e badopt"
}
sweep_bad "-j0" "-j 0: need an integer from 1 to 4096" -j0 -o badopt s.ini
sweep_bad "--jobs=x" "--jobs x: need an integer from 1 to 4096" --jobs=x -o badopt s.ini
sweep_bad "-j 4097" "-j 4097: need an integer from 1 to 4096" -j 4097 -o badopt s.ini
sweep_bad "-j (no value)" "option -j needs a value" -o badopt s.ini -j
sweep_bad "--out (no value)" "option --out needs a value" s.ini --out
sweep_bad "--bogus" "unknown option --bogus" --bogus -o badopt s.ini
sweep_bad "-x" "unknown option -x" -x -o badopt s.ini
sweep_bad "--all=1" "option --all takes no value" --all=1 -o badopt s.ini
sweep_bad "--progress-interval=-1" "--progress-interval -1: need seconds" --progress-interval=-1 -o badopt s.ini
sweep_bad "two study files" "more than one study file (s.ini, t.ini)" -o badopt s.ini t.ini
"$SWEEP" --version > ver.out 2> ver.err
check "--version: exit 0, 'pnrsim-sweep VERSION', the same VERSION as pnrsim's" \
    sh -c "test $? -eq 0 && test ! -s ver.err && test \"\$(cat ver.out)\" = \"pnrsim-sweep \$('$P' --version | sed 's/^pnrsim //')\""
check "-V: the same" sh -c "test \"\$('$SWEEP' -V)\" = \"\$(cat ver.out)\""
# Progress off a terminal: a line every --progress-interval s (default 60),
# runs done / total and an estimate, and one line as soon as the first run
# of the invocation has ended (issue 37: the estimate then, not after an
# interval); so these sub-second sweeps print that one line: with -j 1,
# after the first run ended and the second started, "1/12 runs done, 1
# running, ..., about T left".
check "progress: a short sweep (-j 1) prints one line, at the first run's end, with an estimate" \
    sh -c "test \$(grep -c 'runs done' j1.log) -eq 1 && grep -Eq '^pnrsim-sweep: 1/12 runs done, 1 running, 0 failed, [0-9:]+ elapsed, about [0-9:]+ left$' j1.log"
check "progress: -j 2 also one line, with an estimate" \
    sh -c "test \$(grep -c 'runs done' j2.log) -eq 1 && grep -Eq 'runs done, [0-9] running, 0 failed, [0-9:]+ elapsed, about [0-9:]+ left$' j2.log"
"$SWEEP" -j 1 --progress-interval 0.001 --no-plots -o jprog s.ini > jprog.log 2>&1
SWEEP_RE='^pnrsim-sweep: [0-9]+/12 runs done, [0-9]+ running, [0-9]+ failed, [0-9:]+ elapsed, (about [0-9:]+ left|time left not known yet)$'
np=$(grep -c 'runs done' jprog.log)
check "progress: $np lines at --progress-interval 0.001, each runs done/12, running, failed, elapsed, estimate" \
    sh -c "test $np -ge 2 && test \$(grep -Ec '$SWEEP_RE' jprog.log) -eq $np"
# Runs done never decrease and never exceed 12; -j 1: at most 1 running;
# once a run has finished (done > 0) the estimate is a time.
check "progress: runs done non-decreasing, at most 1 running, an estimate once a run is done" \
    awk '/runs done/ { split($2, a, "/"); d = a[1] + 0; r = $5 + 0
           if (d < pd || d > 12 || r > 1) bad = 1; pd = d
           if (d > 0 && !/about [0-9:]+ left$/) bad = 1; if (d > 0) seen = 1 }
         END { exit bad || !seen }' jprog.log
"$SWEEP" -q -j 1 --progress-interval 0.001 --no-plots -o jprogq s.ini > jprogq.log 2>&1
check "progress: -q prints nothing" test ! -s jprogq.log
if command -v script > /dev/null 2>&1; then
    script -qfc "'$SWEEP' -j 2 --no-plots -o jtty s.ini" /dev/null > jtty.out 2>&1
    check "progress on a terminal: a bar rewritten in place, ending at 12/12" \
        sh -c "grep -q \"\$(printf '\\r')\\[#\" jtty.out && grep -q '12/12 runs done, 0 running, 0 failed' jtty.out"
else
    skip "progress on a terminal: script(1) (util-linux) not installed"
fi

# ---- GNU parallel and Slurm ----------------------------------------------

"$SWEEP" --emit-joblist jobs.txt -o par s.ini > emit.log 2>&1
check "emit-joblist: exit 0, 12 lines" \
    sh -c "test $? -eq 0 && test \$(wc -l < jobs.txt) -eq 12"
if command -v parallel > /dev/null 2>&1; then
    parallel --will-cite -j2 < jobs.txt > par.log 2>&1
    check "GNU parallel runs the job list" test $? -eq 0
    "$SWEEP" collect -o par s.ini > collect.log 2>&1
    check "collect after parallel: exit 0" test $? -eq 0
    check "parallel + collect: identical results.csv (but wall_seconds)" csvsame j1/results.csv par/results.csv
    check "parallel + collect: identical summary.csv" cmp -s j1/summary.csv par/summary.csv
else
    bad "GNU parallel installed (Debian: parallel; tools/deps.sh should install it)"
fi

"$SWEEP" --emit-slurm slurm.sh -o slu s.ini > slurm.log 2>&1
check "emit-slurm: a 12-task array" grep -q '^#SBATCH --array=1-12$' slurm.sh
i=1
while [ $i -le 12 ]; do
    SLURM_ARRAY_TASK_ID=$i bash slurm.sh > /dev/null 2>&1 || break
    i=$((i + 1))
done
check "slurm tasks 1..12 run" test $i -eq 13
"$SWEEP" collect -o slu s.ini > slu.log 2>&1
check "slurm + collect: identical results.csv (but wall_seconds)" csvsame j1/results.csv slu/results.csv

# ---- resume --------------------------------------------------------------

rm -rf "j2/runs/computer.ram=16,netram.strategy=client/seed-2" \
       "j2/runs/computer.ram=32,netram.strategy=central/seed-3"
"$SWEEP" -j 2 -o j2 s.ini > resume.log 2>&1
check "resume: exit 0" test $? -eq 0
check "resume: only the 2 missing runs ran" grep -q 'ran 2, skipped 10, failed 0' resume.log
check "resume: identical results.csv (but wall_seconds)" csvsame j1/results.csv j2/results.csv
"$SWEEP" -j 2 -o j2 s.ini > again.log 2>&1
check "nothing left: ran 0" grep -q 'ran 0, skipped 12' again.log

# ---- a failing run -------------------------------------------------------

# A bad value is refused before anything runs (below); a trace that pnrsim
# cannot read fails at run time. Relative workload.trace values are taken
# from the study file's directory.
cp "$TRACE" ok.swf
printf '1 0 0 10 4 -1 -1 4 10 -1 1 1 1 1 1 1 -1 -1\nnot an SWF line\n' > broken.swf
cat > f.ini <<EOF
[study]
name = failing
base = base.ini
metrics = total_time
[set]
workload.max_jobs = 10
[vary]
workload.trace = broken.swf, ok.swf
computer.ram = 32, 64
EOF
"$SWEEP" -j 2 -o fo f.ini > f.log 2>&1
check "failing runs: exit 1" test $? -eq 1
check "failing run reported with its values" \
    grep -q 'run failed: workload.trace=broken.swf computer.ram=32 seed=1' f.log
check "failing run: its stderr kept" \
    grep -q 'broken.swf:2' "fo/runs/workload.trace=broken.swf,computer.ram=32/seed-1.part/stderr.txt"
check "the other runs complete" test "$(grep -c ',ok,' fo/results.csv)" -eq 2
check "failing run listed as failed" grep -q '^broken.swf,32,1,failed,' fo/results.csv

# ---- configurations checked before anything runs -------------------------

# Every point's configuration is built as pnrsim builds it and validated:
# a problem exits 2 with FILE:LINE: KEY and creates nothing.
badcfg() { # badcfg NAME EXPECTED-REGEX STUDY-LINES [SWEEP-OPTIONS]
    printf '[study]\nbase = base.ini\ntrace = %s\n%b\n' "$TRACE" "$3" > cfg.ini
    rm -rf cfgout
    "$SWEEP" $4 -o cfgout cfg.ini > cfg.log 2>&1
    st=$?
    if [ $st -eq 2 ] && grep -q "$2" cfg.log && [ ! -e cfgout ]; then
        ok "checked config: $1"
    else
        bad "checked config: $1 (status $st, out $(ls cfgout 2>&1): $(cat cfg.log))"
    fi
}
badcfg "misspelt [vary] key" 'cfg.ini:5: computer.rma: unknown key' \
    '[vary]\ncomputer.rma = 64, 128'
badcfg "bad [set] value" 'cfg.ini:5: computer.ram: .*out of range' \
    '[set]\ncomputer.ram = -5'
badcfg "bad [vary] value among good ones" 'cfg.ini:6: scheduler.mpl: .*"x"' \
    '[vary]\ncomputer.ram = 16, 32\nscheduler.mpl = 1, x'
badcfg "bad [baseline] value" 'cfg.ini:8: netram.enabled:' \
    '[vary]\nnetram.strategy = central, client\n[baseline disk]\nlines = netram.strategy\nnetram.enabled = maybe'
badcfg "cross-key check blames the varied value" \
    "cfg.ini:8: computer.ram: '4': .*server_threshold.*(at computer.ram=4)" \
    '[set]\nnetram.enabled = yes\nnetram.server_threshold = 6\n[vary]\ncomputer.ram = 8, 4'
badcfg "missing workload.trace file" "cfg.ini:5: workload.trace: 'nope.swf'" \
    '[vary]\nworkload.trace = ok.swf, nope.swf'
badcfg "emit refuses too, writes no job list" 'cfg.ini:5: computer.rma:' \
    '[vary]\ncomputer.rma = 64' '--emit-joblist cfgout/jobs.txt'
# A key with no effect at some points (rack_size without TREE) is not a
# problem: the study is accepted and the key is warned about once.
printf '[study]\nbase = base.ini\ntrace = %s\n[set]\nnetwork.rack_size = 4\n[vary]\nnetwork.topology = star, tree, bus\n' \
    "$TRACE" > ign.ini
"$SWEEP" --emit-joblist ign-jobs.txt -o ignout ign.ini > ign.log 2>&1
check "key without effect: accepted (exit 0), job list written" \
    sh -c "test $? -eq 0 && test -s ign-jobs.txt"
check "key without effect: warned about once, at its first point" \
    sh -c "test \$(grep -c 'warning: ign.ini: \[network\] rack_size = 4 has no effect: only a TREE topology' ign.log) -eq 1 &&
           grep -q 'first at network.topology=star' ign.log"
printf '[study]\nbase = base.ini\n' > notrace.ini
"$SWEEP" -o notrace-out notrace.ini > notrace.log 2>&1
check "no trace anywhere: exit 2, nothing created" \
    sh -c "test $? -eq 2 && grep -q 'notrace.ini:2: trace: no trace' notrace.log && test ! -e notrace-out"
"$SWEEP" --pnrsim /nonexist -o nopn s.ini > nopn.log 2>&1
check "--pnrsim /nonexist: exit 2, nothing created" \
    sh -c "test $? -eq 2 && grep -q '/nonexist: not found' nopn.log && test ! -e nopn"

# Ranges with non-finite numbers and the seed range.
badcfg "range with nan" "cfg.ini:5: computer.ram: range '1:nan:1'" \
    '[vary]\ncomputer.ram = 1:nan:1'
badcfg "range with inf" "cfg.ini:5: computer.ram: range '1:inf'" \
    '[vary]\ncomputer.ram = 1:inf'
badcfg "seed_base too large names the real limit" \
    'cfg.ini:5: seed_base: .*need an integer from 1 to 2147483645' \
    'replications = 3\nseed_base = 2147483647'

# ---- the study-file reader: hostile values -------------------------------

# A step finer than the 10 significant digits values are written with: the
# range itself is blamed, not a "value given twice".
badcfg "range step below %.10g: named as such" \
    "cfg.ini:5: network.latency: range '1000000:1000000.0001:0.00001': its step is too fine" \
    '[vary]\nnetwork.latency = 1000000:1000000.0001:0.00001'
badcfg "a:b:*k with k next to 1: too many values, not a duplicate" \
    "cfg.ini:5: network.latency: range '1:2:\\*1.0000000001': too many values .*k is too close to 1" \
    '[vary]\nnetwork.latency = 1:2:*1.0000000001'
badcfg "a subnormal bound is not called infinite" \
    "cfg.ini:5: network.latency: range '1e-320:1:\\*2': bound '1e-320' is too close to zero" \
    '[vary]\nnetwork.latency = 1e-320:1:*2'
badcfg "a duplicate across items still says given twice" \
    "cfg.ini:5: scheduler.mpl: value '1' (of range '1:2') given twice" \
    '[vary]\nscheduler.mpl = 1, 1:2'
# A NUL byte would have ended the value there ("1, 2" read as "1").
printf '[study]\nbase = base.ini\ntrace = %s\n[vary]\nscheduler.mpl = 1\000, 2\n' "$TRACE" > nul.ini
"$SWEEP" --list -o nulout nul.ini > nul.log 2>&1
check "a NUL byte in a study file: exit 2, line and column" \
    sh -c "test $? -eq 2 && grep -q 'nul.ini:5: a NUL byte (column 18)' nul.log"
# /dev/null exists: it is refused as a device, not as "no such file".
printf '[study]\nbase = base.ini\ntrace = /dev/null\n' > devnull.ini
"$SWEEP" --list -o dnout devnull.ini > devnull.log 2>&1
check "trace = /dev/null: exit 2, a device, not 'no such file'" \
    sh -c "test $? -eq 2 && grep -q \"devnull.ini:3: trace: '/dev/null' (/dev/null): a device, not a regular file\" devnull.log && ! grep -q 'no such file' devnull.log"
printf '[study]\nbase = base.ini\n[set]\nworkload.trace = /dev/null\n' > devnull2.ini
"$SWEEP" -o dnout devnull2.ini > devnull2.log 2>&1
check "workload.trace = /dev/null: exit 2, a device" \
    sh -c "test $? -eq 2 && grep -q \"devnull2.ini:4: workload.trace: '/dev/null' (/dev/null): a device\" devnull2.log"
# Duplicate checks in constant time: two ranges of 100,001 values each
# (quadratic checking took 23 s for one of them, about 90 s for both; now
# well under a second). The bound is a watchdog against that quadratic
# loop, 60 times the linear reader's time here, not a speed measurement.
printf '[study]\nbase = base.ini\ntrace = %s\n[vary]\nnetwork.latency = 1:2:1e-5, 3:4:1e-5\n' "$TRACE" > big.ini
timeout 60 "$SWEEP" --list -o bigout big.ini > big.log 2>&1
check "200,002 range values: --list within the 60 s watchdog, one line per run" \
    sh -c "test $? -eq 0 && test \$(wc -l < big.log) -eq 200002"

# ---- metrics that no run reports -----------------------------------------

cat > m.ini <<EOF
[study]
base = base.ini
trace = $TRACE
metrics = total_time, foo_bar
[set]
workload.max_jobs = 10
EOF
"$SWEEP" -o mo m.ini > m.log 2>&1
check "unknown metric: exit 1 with an error naming it" \
    sh -c "test $? -eq 1 && grep -q \"error: metric 'foo_bar'\" m.log"
check "unknown metric: results written, the run ok" grep -q ',ok,' mo/results.csv
check "unknown metric: warned about before the runs, as not a key pnrsim writes" \
    sh -c "head -1 m.log | grep -q \"warning: m.ini: metrics: 'foo_bar' is not a metric pnrsim writes\""
check "unknown metric: no warning for a key pnrsim writes" \
    sh -c "! grep -q \"'total_time' is not\" m.log"
printf '[study]\nbase = base.ini\ntrace = %s\n[set]\nworkload.max_jobs = 10\n[vary]\ncomputer.ram = 16, 32\n[plot]\nmetric = foo_bar\nx = computer.ram\n' \
    "$TRACE" > mp.ini
"$SWEEP" --no-plots -o mpo mp.ini > mp.log 2>&1
check "unknown plot metric: exit 1 with an error naming it" \
    sh -c "test $? -eq 1 && grep -q \"plot foo_bar: no finished run reports metric 'foo_bar'\" mp.log"
check "unknown plot metric: warned about before the runs, with its [plot] line" \
    sh -c "head -1 mp.log | grep -q \"warning: mp.ini:8: metric: 'foo_bar' is not a metric pnrsim writes\""

# ---- baselines -----------------------------------------------------------

cat > bl.ini <<EOF
[study]
name = baseline
base = base.ini
trace = $TRACE
replications = 3
metrics = total_time, bounded_slowdown_mean, page_faults_remote, pnr_msgs_request
[set]
workload.max_jobs = 10
netram.enabled = yes
[vary]
computer.ram = 16, 32
netram.strategy = central, client
[baseline disk]
netram.enabled = no
[plot]
metric = bounded_slowdown_mean
x = computer.ram
lines = netram.strategy
EOF
"$SWEEP" -j 2 -o blo bl.ini > bl.log 2>&1
check "baseline: exit 0" test $? -eq 0
check "baseline: 2 x (2 + 1) x 3 = 18 result rows" test "$(rows blo/results.csv)" -eq 18
check "baseline: 6 summary rows" test "$(rows blo/summary.csv)" -eq 6
check "baseline: every run ok" test "$(grep -c ',ok,' blo/results.csv)" -eq 18
check "baseline: rows in order, disk after the strategies" test \
    "$(cut -d, -f1-3 blo/results.csv | sed -n '5,10p;14,16p' | tr '\n' ' ')" = \
    "16,client,1 16,client,2 16,client,3 16,disk,1 16,disk,2 16,disk,3 32,client,1 32,client,2 32,client,3 "
check "baseline: summary rows" test \
    "$(cut -d, -f1-3 blo/summary.csv | tr '\n' ' ')" = \
    "computer.ram,netram.strategy,n 16,central,3 16,client,3 16,disk,3 32,central,3 32,client,3 32,disk,3 "
# The value of enabled in the [netram] section of a run's config.ini.
netram_enabled() {
    awk '/^\[/ { sec = $0 } sec == "[netram]" && $1 == "enabled" { print $3 }' "$1" 2> /dev/null
}
nd=0
for r in 16 32; do
    for k in 1 2 3; do
        c="blo/runs/computer.ram=$r,netram.strategy=@disk/seed-$k/config.ini"
        [ "$(netram_enabled "$c")" = no ] && nd=$((nd + 1))
    done
done
check "baseline: its 6 runs have netram.enabled = no in config.ini" test $nd -eq 6
check "baseline: the strategies' runs have netram.enabled = yes" test \
    "$(netram_enabled "blo/runs/computer.ram=16,netram.strategy=client/seed-1/config.ini")" = yes
pf=$(col blo/results.csv page_faults_remote)
pm=$(col blo/results.csv pnr_msgs_request)
check "baseline: no remote faults and no PNR counters in the disk rows" test \
    "$(grep ',disk,' blo/results.csv | cut -d, -f"${pf:-1}","${pm:-1}" | sort -u)" = "0,"
"$SWEEP" --emit-joblist bljobs.txt --all -o blo bl.ini > blemit.log 2>&1
grep -F 'netram.strategy=@disk/seed-1.part' bljobs.txt | head -1 > bldisk.txt
check "baseline: its pnrsim command sets netram.enabled=no, not yes, no strategy" \
    sh -c "grep -q -- '--set netram.enabled=no' bldisk.txt &&
           ! grep -q -e '--set netram.enabled=yes' -e '--set netram.strategy=' bldisk.txt"
"$SWEEP" --list -o blo bl.ini > bllist.txt 2>&1
check "baseline: --list names it @disk" \
    grep -q '^done    computer.ram=32 netram.strategy=@disk seed=3$' bllist.txt
check "baseline: study.json marks disk as the baseline value of netram.strategy" \
    grep -A1 '"values": \["central", "client", "disk"\],' blo/study.json | grep -q '"baseline": \[false, false, true\]'
check "baseline: study.json has its overrides" \
    grep -q '{"name": "disk", "key": "netram.strategy", "set": \[\["netram.enabled", "no"\]\]}' blo/study.json
if [ $have_plot -eq 1 ]; then
    check "baseline: plot PNG and SVG" test -s blo/plots/bounded_slowdown_mean.png \
        -a -s blo/plots/bounded_slowdown_mean.svg
    # line,baseline,x,...: 2 strategies + disk, 2 RAM sizes each
    check "baseline: a third plot line, marked as the baseline" \
        test "$(cut -d, -f1,2 blo/plots/bounded_slowdown_mean.csv | sort | uniq -c | awk '{ printf "%s %s;", $1, $2 }')" = \
        "2 central,False;2 client,False;2 disk,True;1 line,baseline;"
fi
# Adding a baseline keeps the runs made; changing one is refused.
cp bl.ini bl2.ini
printf '[baseline mpl1]\nnetram.enabled = no\nscheduler.mpl = 1\n' >> bl2.ini
"$SWEEP" -j 2 -o blo bl2.ini > bl2.log 2>&1
check "baseline added: only its 6 runs ran" grep -q 'ran 6, skipped 18, failed 0' bl2.log
check "baseline added: 24 result rows" test "$(rows blo/results.csv)" -eq 24
sed 's/^netram.enabled = no$/netram.enabled = no\nworkload.load_scale = 2/' bl.ini > bl3.ini
"$SWEEP" -j 2 -o blo bl3.ini > bl3.log 2>&1
st=$?
check "baseline changed: exit 2" test $st -eq 2
check "baseline changed: named in the message" \
    grep -q "runs of baseline 'disk' made with other settings" bl3.log

# Bad baselines: FILE:LINE: KEY, exit 2.
badbl() { # badbl NAME EXPECTED-REGEX SECTION-TEXT [PLOT-LINES-KEY]
    {
        printf '[study]\nbase = base.ini\n[vary]\ncomputer.ram = 16, 32\n'
        printf 'netram.strategy = central, client\n'
        printf '%b\n' "$3"
        printf '[plot]\nmetric = total_time\nx = computer.ram\n'
        [ -n "$4" ] && printf 'lines = %s\n' "$4"
    } > blbad.ini
    "$SWEEP" -o blbad blbad.ini > blbad.log 2>&1
    st=$?
    if [ $st -eq 2 ] && grep -q "$2" blbad.log; then
        ok "bad baseline: $1"
    else
        bad "bad baseline: $1 (status $st: $(cat blbad.log))"
    fi
}
badbl "unknown lines key" 'blbad.ini:7: lines:' \
    '[baseline disk]\nlines = netram.strategi\nnetram.enabled = no' netram.strategy
badbl "the plots' lines key not varied" 'blbad.ini:11: lines:.*not a \[vary\] key' \
    '[baseline disk]\nnetram.enabled = no' computer.rom
badbl "no lines key anywhere" 'blbad.ini:6: lines:' \
    '[baseline disk]\nnetram.enabled = no'
badbl "baseline key also varied" 'blbad.ini:8: computer.ram:.*also varied' \
    '[baseline disk]\nnetram.enabled = no\ncomputer.ram = 8' netram.strategy
badbl "the lines key itself" 'blbad.ini:7: netram.strategy:.*also varied' \
    '[baseline disk]\nnetram.strategy = central' netram.strategy
badbl "no name" 'blbad.ini:6: baseline:' '[baseline]\nnetram.enabled = no' \
    netram.strategy
badbl "name is a value" "blbad.ini:6: baseline: 'client' is also a value" \
    '[baseline client]\nnetram.enabled = no' netram.strategy
badbl "same name twice" 'blbad.ini:8: baseline:.*second baseline' \
    '[baseline disk]\nnetram.enabled = no\n[baseline disk]\nnetram.enabled = no' \
    netram.strategy
badbl "no override" "blbad.ini:6: baseline: 'disk'" '[baseline disk]' \
    netram.strategy
badbl "not a pnrsim key" 'blbad.ini:7: enabled:' \
    '[baseline disk]\nenabled = no' netram.strategy

# ---- interruption --------------------------------------------------------

# A pnrsim that takes a second per run, to have time to interrupt.
cat > slow-pnrsim <<EOF
#!/bin/sh
sleep 1
exec "$PNRSIM" "\$@"
EOF
chmod +x slow-pnrsim
"$SWEEP" -j 2 --pnrsim "$T/slow-pnrsim" -o int s.ini > int.log 2>&1 &
pid=$!
n=0
tries=0
while [ $tries -lt 300 ]; do # wait (up to 30 s) for two finished runs
    n=$(ls -d int/runs/*/seed-? 2> /dev/null | wc -l)
    [ "$n" -ge 2 ] && break
    sleep 0.1
    tries=$((tries + 1))
done
kill -INT $pid
wait $pid
st=$?
check "SIGINT: exit 130" test $st -eq 130
kept=$(ls -d int/runs/*/seed-? 2> /dev/null | wc -l)
check "SIGINT: finished runs kept ($kept)" test "$kept" -ge 2 -a "$kept" -lt 12
"$SWEEP" -j 2 -o int s.ini > int2.log 2>&1
check "after SIGINT: the rest runs" grep -q "ran $((12 - kept)), skipped $kept, failed 0" int2.log
check "after SIGINT: identical results.csv (but wall_seconds)" csvsame j1/results.csv int/results.csv

# ---- --list: interrupted runs are missing, not failed -----------------------

# Run directories as runners leave them: a run the built-in runner stopped
# (pnrsim said so on stderr, no exit-status), one stopped by SIGTERM under
# GNU parallel or Slurm (the job-list command wrote "exit 143"), one
# killed by SIGINT, and a real failure.
cat > li.ini <<EOF
[study]
base = base.ini
trace = $TRACE
replications = 4
[vary]
scheduler.mpl = 1
EOF
mkdir -p li-out/runs/scheduler.mpl=1/seed-1.part li-out/runs/scheduler.mpl=1/seed-2.part \
         li-out/runs/scheduler.mpl=1/seed-3.part li-out/runs/scheduler.mpl=1/seed-4.part
echo 'pnrsim: interrupted by SIGTERM at t=12 s: PARTIAL results' > li-out/runs/scheduler.mpl=1/seed-1.part/stderr.txt
echo 'pnrsim: interrupted by SIGTERM at t=12 s: PARTIAL results' > li-out/runs/scheduler.mpl=1/seed-2.part/stderr.txt
echo 'exit 143' > li-out/runs/scheduler.mpl=1/seed-2.part/exit-status
echo 'killed by signal 2' > li-out/runs/scheduler.mpl=1/seed-3.part/exit-status
echo 'pnrsim: t.swf:2: expected 18 numeric fields' > li-out/runs/scheduler.mpl=1/seed-4.part/stderr.txt
echo 'exit 2' > li-out/runs/scheduler.mpl=1/seed-4.part/exit-status
"$SWEEP" --list -o li-out li.ini > li.log 2>&1
check "--list: a run stopped by the runner is missing (interrupted)" \
    grep -q '^missing scheduler.mpl=1 seed=1: interrupted: pnrsim: interrupted by SIGTERM' li.log
check "--list: exit 143 (job list under Slurm/parallel) is missing" \
    grep -q '^missing scheduler.mpl=1 seed=2: interrupted, exit 143' li.log
check "--list: killed by SIGINT is missing" grep -q '^missing scheduler.mpl=1 seed=3: interrupted' li.log
check "--list: a real failure is failed" grep -q '^failed  scheduler.mpl=1 seed=4: exit 2: pnrsim: t.swf:2' li.log
"$SWEEP" collect --no-plots -o li-out li.ini > licol.log 2>&1
# (each row ends with wall_seconds, empty for a run not done)
check "collect: 3 missing, 1 failed" \
    sh -c "test \$(grep -c ',missing,\$' li-out/results.csv) -eq 3 && test \$(grep -c ',failed,\$' li-out/results.csv) -eq 1"

# ---- trace windows ----------------------------------------------------------

# [study] windows = 3 with max_jobs = 3 on the LANL sample (64 PEs, all ten
# jobs fit at once, no memory pressure: response = CPU demand, field 6, or
# field 4 for job 9 whose field 6 is 0): window 0 holds jobs 1-3 (CPU 3436,
# 489, 516: mean response 1480.333333), window 1 jobs 4-6 (484, 2605, 476:
# 1188.333333), window 2 jobs 7-9 (64, 534, 25: 207.6666667). Two seeds per
# window: n = 6, mean 958.7777778, SD over the six (each window twice)
# computed below from these hand numbers.
cat > win.ini <<EOF
[study]
name = win
base = base.ini
trace = $TRACE
replications = 2
windows = 3
metrics = jobs_finished, response_time_mean
[set]
workload.max_jobs = 3
[vary]
computer.ram = 32, 64
EOF
"$SWEEP" -q -j 2 -o win win.ini > win.log 2>&1
check "windows: 2 points x 3 windows x 2 seeds run" test $? -eq 0
check "windows: 12 result rows" test "$(rows win/results.csv)" -eq 12
check "windows: results.csv has a window column before seed" \
    test "$(sed -n 1p win/results.csv)" = "computer.ram,window,seed,status,jobs_finished,response_time_mean,wall_seconds"
check "windows: rows in point, window, seed order" \
    test "$(awk -F, 'NR > 1 && NR < 8 { printf "%s:%s ", $2, $3 }' win/results.csv)" = "0:1 0:2 1:1 1:2 2:1 2:2 "
# The jobs a window ran (finished rows: jobs.csv also lists the jobs the
# window skipped, as dropped by reason window, issue 26).
jobs_of() {
    awk -F, -v s="$(col "$1/jobs.csv" state)" 'NR > 1 && $s == "finished" { print $1 }' \
        "$1/jobs.csv" | sort -n | tr '\n' ' '
}
check "windows: window 0 holds jobs 1 2 3" test "$(jobs_of win/runs/computer.ram=32/window-0/seed-1)" = "1 2 3 "
check "windows: window 1 holds jobs 4 5 6" test "$(jobs_of win/runs/computer.ram=32/window-1/seed-2)" = "4 5 6 "
check "windows: window 1 lists the skipped jobs 1 2 3 as dropped, reason window" \
    test "$(awk -F, 'NR > 1 && $0 ~ /,dropped,window,/ { print $1 }' \
        win/runs/computer.ram=32/window-1/seed-2/jobs.csv | tr '\n' ' ')" = "1 2 3 "
check "windows: window 2 holds jobs 7 8 9" test "$(jobs_of win/runs/computer.ram=64/window-2/seed-1)" = "7 8 9 "
c=$(col win/results.csv response_time_mean)
check "windows: window 1 mean response (484 + 2605 + 476) / 3" near "$(field win/results.csv "$c" 4)" 1188.333333
c=$(col win/summary.csv n)
check "windows: summary n = 6 (3 windows x 2 seeds)" test "$(field win/summary.csv "$c" 2)" = 6
sd=$(awk 'BEGIN { a = 4441 / 3; b = 3565 / 3; c = 623 / 3; m = (a + b + c) / 3;
       printf "%.9f", sqrt(2 * ((a-m)^2 + (b-m)^2 + (c-m)^2) / 5) }')
c=$(col win/summary.csv response_time_mean_mean)
check "windows: summary mean over windows and seeds (958.7777778)" near "$(field win/summary.csv "$c" 2)" 958.7777778
c=$(col win/summary.csv response_time_mean_sd)
check "windows: summary SD over windows and seeds ($sd)" \
    awk -v a="$(field win/summary.csv "$c" 3)" -v b="$sd" 'BEGIN { d = a - b; exit !(a != "" && d < 1e-6 && d > -1e-6) }'
"$SWEEP" --list -o win win.ini > winlist.log 2>&1
check "windows: --list names the window" grep -q 'computer.ram=64 window=2 seed=2' winlist.log
"$SWEEP" --emit-joblist winjobs.txt --all -o win win.ini > /dev/null 2>&1
check "windows: the job list passes workload.window" \
    sh -c "grep -c 'workload.window=2 ' winjobs.txt | grep -qx 4"
sed 's/^replications = 2/replications = 3/' win.ini > win3.ini
"$SWEEP" -j 2 -o win win3.ini > win3.log 2>&1
check "windows: a third seed keeps the runs made (ran 6)" grep -q 'ran 6, skipped 12, failed 0' win3.log
# Ten jobs make three windows of 3, not four.
sed 's/^windows = 3/windows = 4/' win.ini > win4.ini
"$SWEEP" -o win4 win4.ini > win4.log 2>&1
check "windows: 4 windows of 3 jobs in a 10-job trace exit 2" test $? -eq 2
check "windows: ... naming the line and the job count" grep -q 'win4.ini:6: windows: .*need 12 jobs, but only 10' win4.log
check "windows: ... and nothing is written" test ! -e win4
sed '/^workload.max_jobs/d' win.ini > win0.ini
"$SWEEP" -o win0 win0.ini > win0.log 2>&1
check "windows without max_jobs exit 2 naming the line" \
    sh -c "test $? -eq 2 && grep -q 'win0.ini:6: windows: .*max_jobs' win0.log"
printf 'workload.window = 1\n' >> win.ini
"$SWEEP" -o winw win.ini > winw.log 2>&1
check "windows and workload.window both set: exit 2" \
    sh -c "test $? -eq 2 && grep -q 'win.ini:12: workload.window: set by \[study\] windows (line 6)' winw.log"
printf '[study]\nbase = base.ini\ntrace = %s\nwindows = 0\n' "$TRACE" > winbad.ini
"$SWEEP" -o winbad winbad.ini > winbad.log 2>&1
check "windows = 0 exit 2" sh -c "test $? -eq 2 && grep -q 'winbad.ini:4: windows:' winbad.log"

# tools/paired.py: differences paired by window and seed. By hand: a = 2
# minus a = 1 is 3 - 2, 7 - 4, 9 - 9 = 1, 3, 0: mean 4/3, SD sqrt(7/3),
# half-width t(0.975, 2) sqrt(7/3) / sqrt(3) = 4.303 * 0.8819171 = 3.795.
if command -v python3 > /dev/null 2>&1; then
    printf 'a,window,seed,status,m\n1,0,1,ok,2\n1,0,2,ok,4\n1,1,1,ok,9\n1,1,2,failed,\n2,0,1,ok,3\n2,0,2,ok,7\n2,1,1,ok,9\n2,1,2,ok,100\n' > paired.csv
    python3 "$top/tools/paired.py" paired.csv a 1 m > paired.out 2>&1
    check "paired.py: mean and half-width by hand (failed run unpaired)" \
        grep -qx '2 - 1: m: +1.33333 +- 3.79 (n = 3)' paired.out
else
    skip "paired.py: python3 not installed"
fi

# ---- SIGKILL -------------------------------------------------------------

# Killing the sweep with SIGKILL must not leave its runs going on: each
# child gets SIGTERM when the sweep dies (here a pnrsim that waits, and
# stops on SIGTERM), and the lock is free once they are gone.
cat > sleepy-pnrsim <<EOF
#!/bin/sh
trap 'kill \$! 2> /dev/null; exit 143' TERM
sleep 60 &
wait
EOF
chmod +x sleepy-pnrsim
if command -v pgrep > /dev/null 2>&1; then
    "$SWEEP" -j 2 --pnrsim "$T/sleepy-pnrsim" -o k9 s.ini > k9.log 2>&1 &
    pid=$!
    tries=0
    while [ $tries -lt 100 ] && [ "$(pgrep -f "$T/k9/runs" | wc -l)" -lt 2 ]; do
        sleep 0.1
        tries=$((tries + 1))
    done
    check "SIGKILL: two runs were going" test "$(pgrep -f "$T/k9/runs" | wc -l)" -eq 2
    kill -9 $pid
    wait $pid 2> /dev/null
    tries=0
    while [ $tries -lt 30 ] && pgrep -f "$T/k9/runs" > /dev/null; do
        sleep 0.1
        tries=$((tries + 1))
    done
    pgrep -f "$T/k9/runs" > /dev/null # (not in sh -c: it would match that)
    check "SIGKILL: no run of the sweep left within 3 s" test $? -ne 0
    pkids=$(pgrep -f "$T/k9/runs")
    [ -n "$pkids" ] && kill $pkids 2> /dev/null
    "$SWEEP" -j 4 -o k9 s.ini > k9b.log 2>&1
    check "after SIGKILL: the resumed sweep runs everything" \
        sh -c "test $? -eq 0 && grep -q 'ran 12, skipped 0, failed 0' k9b.log"
else
    skip "SIGKILL: pgrep not installed"
fi

finish
