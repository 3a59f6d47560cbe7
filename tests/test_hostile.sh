#!/bin/sh
# tests/test_hostile.sh BUILD: hostile names and inputs for the tools
# (issue 23, part 4): pnrsim --plot, pnrsim-plot, pnrsim-sweep.
#
# Checks:
#   - names with quotes, a newline, $(...), backquotes, spaces, semicolons,
#     backslashes, "x=y" and a leading '-' as pnrsim's -o directory (with
#     --plot) and as pnrsim-plot's OUTDIR and -o: no command runs (no
#     marker file appears), the 5 plots are drawn, exit 0;
#   - pnrsim-plot's inputs: random bytes for pes.csv, a truncated
#     schedule.csv, start and end swapped under the right header, a
#     non-numeric job number, a non-numeric metrics_period, --to 1e309:
#     exit 2 with a message naming the file (and line), and no image
#     written; columns in another order under their own names (the header
#     says which is which) draw;
#   - pnrsim-sweep: trace names and a [plot] title with backquotes,
#     $(...) and quotes reach study.json as JSON strings and the plot
#     (Python, no shell: no command runs, the plot is drawn); index.html
#     escapes them;
#   - the seed: simulation.seed in [set], [vary] or a [baseline] exits 2
#     saying the sweep owns it; results.csv gives the seeds the runs used
#     (1, 2 for replications = 2), and a run whose metrics.json says
#     another seed is counted as failed;
#   - values that are one setting once parsed (central, CENTRAL, Central;
#     128, 128.0) exit 2 naming them; workload.trace = - exits 2 before
#     anything is written;
#   - Slurm: array, a single letter (J), wrap and a repeated key in
#     [slurm] exit 2; an -o directory with a space and a quote gives an
#     #SBATCH --output line in double quotes that bash reads, and task 1 of
#     the script runs; an -o directory with a line break exits 2 and
#     writes nothing;
#   - messages: an estimate just over 1e12 is shown with the digits that
#     make it differ from the limit; estimate_scale = 1e-320 does not offer
#     0 (refused for that key).
# Skips the drawing checks when /usr/bin/python3 lacks pandas or matplotlib.
TEST_NAME=test_hostile
. "$(dirname "$0")/lib.sh"    # top, build, P, SWEEP, PLOT, check, skip, finish, T
TRACE=$top/traces/lanl-cm5-techreport-sample10.swf
have_gp=0
/usr/bin/python3 -c 'import pandas, matplotlib' >/dev/null 2>&1 && have_gp=1

# The names. Each would run "touch PWNED..." if pasted unquoted into a
# script or a shell command.
nl='
'
n1="b'; system \"touch PWNED1\"; print '"
n2='q"u`touch PWNED2`$(touch PWNED3) x;y'
n3="new${nl}line' \"lone"
n4='back\slash'
n5='x=y'
n6='-dash'
nplots() { # nplots DIR: how many of the 5 plots are there as PNG and SVG
    k=0
    for p in gantt paging overalloc memory queue; do
        test -s "$1/$p.png" -a -s "$1/$p.svg" && k=$((k + 1))
    done
    echo $k
}
pwned() { find . -name 'PWNED[0-9]' | wc -l; }

"$P" -q -t "$TRACE" --schedule -o run1 > /dev/null 2>&1
if [ $have_gp = 0 ] || [ ! -x "$PLOT" ]; then
    skip "Python pandas/matplotlib (python3-pandas, python3-matplotlib) or pnrsim-plot missing: no drawing checks"
else
    i=0
    for n in "$n1" "$n2" "$n3" "$n4" "$n5" "$n6"; do
        i=$((i + 1))
        # pnrsim -o NAME --plot (the issue's case), then pnrsim-plot on a
        # copy named NAME and into -o NAME/out.
        "$P" -q -t "$TRACE" --plot -o "./$n" > /dev/null 2> plot$i.err
        rc=$?
        check "pnrsim --plot -o <hostile name $i>: exit 0, 5 plots, nothing run" \
            test $rc -eq 0 -a "$(nplots "./$n/plots")" -eq 5 -a "$(pwned)" -eq 0
        rm -rf -- "./$n"
        cp -r run1 "./$n"
        "$PLOT" --keep-data -o "./$n/o$n" -- "$n" > /dev/null 2> plot$i.err
        rc=$?
        check "pnrsim-plot <hostile name $i> -o <hostile name>: exit 0, 5 plots, nothing run" \
            test $rc -eq 0 -a "$(nplots "./$n/o$n")" -eq 5 -a "$(pwned)" -eq 0
        rm -rf -- "./$n"
    done
    # --keep-data: the plot-area boxes of every picture in DIR/data/axes.json.
    "$PLOT" --keep-data --format svg -o kd run1 > /dev/null 2>&1
    check "pnrsim-plot --keep-data: DIR/data/axes.json has the 6 pictures" \
        /usr/bin/python3 -c 'import json,sys; sys.exit(sorted(json.load(open("kd/data/axes.json"))) != sorted("gantt paging overalloc memory queue utilisation".split()))'
fi

# ---- pnrsim-plot: bad input files ----------------------------------------------------------
# badcase NAME WANT: pnrsim-plot on NAME (a spoilt copy of run1): exit 2,
# a message containing WANT (which names the file and line), no image.
badcase() {
    "$PLOT" -o "$1.out" "$1" > /dev/null 2> "$1.err"
    rc=$?
    check "pnrsim-plot $1: exit 2, '$2' in the message, nothing drawn" \
        sh -c "test $rc -eq 2 && grep -q -F -- \"\$1\" $1.err && test -z \"\$(ls $1.out 2>/dev/null)\"" sh "$2"
}
if [ -x "$PLOT" ] && [ $have_gp = 1 ]; then
    cp -r run1 rnd; head -c 4000 /dev/urandom | tr -d '\n' > rnd/pes.csv; echo >> rnd/pes.csv
    badcase rnd "rnd/pes.csv"
    cp -r run1 cut; head -c 100 run1/schedule.csv > cut/schedule.csv
    badcase cut "cut/schedule.csv: the last line has no end of line"
    cp -r run1 cut2; head -n 3 run1/schedule.csv > cut2/schedule.csv; printf '9,0,5\n' >> cut2/schedule.csv
    badcase cut2 "cut2/schedule.csv:4: end: a field is empty, missing or not finite (expected 7 comma-separated fields"
    # start and end swapped with their header: the same file (read by name).
    cp -r run1 swap; awk -F, -v OFS=, '{ t = $3; $3 = $4; $4 = t; print }' run1/schedule.csv > swap/schedule.csv
    "$PLOT" --format png -o swap.out swap > /dev/null 2> swap.err
    check "pnrsim-plot: columns in another order under their names draw (exit 0, 6 PNGs, stderr empty)" \
        sh -c "test $? -eq 0 && test \$(ls swap.out/*.png | wc -l) -eq 6 && test ! -s swap.err"
    cp -r run1 swap2; awk -F, -v OFS=, 'NR > 1 { t = $3; $3 = $4; $4 = t } { print }' run1/schedule.csv > swap2/schedule.csv
    badcase swap2 "swap2/schedule.csv:2: start 954 after end 465"
    cp -r run1 job; sed '3s/^[0-9]*,/3"; system "touch PWNED4",/' run1/schedule.csv > job/schedule.csv
    badcase job "job/schedule.csv:3: job"
    cp -r run1 per; sed 's/^metrics_period = .*/metrics_period = `touch PWNED5`/' run1/config.ini > per/config.ini
    badcase per "per/config.ini: [simulation] metrics_period"
    cp -r run1 smp; sed '2s/^\([0-9]*,[0-9]*\),[0-9]*,/\1,x,/' run1/samples.csv > smp/samples.csv
    badcase smp "smp/samples.csv:2: queued_jobs \"x\": expected a finite number"
    "$PLOT" --to 1e309 -o big run1 > /dev/null 2> big.err
    rc=$?
    check "pnrsim-plot --to 1e309: exit 2, 'finite' in the message, nothing written" \
        sh -c "test $rc -eq 2 && grep -q finite big.err && test ! -e big"
    check "pnrsim-plot bad inputs: nothing run" test "$(pwned)" -eq 0
fi

# ---- pnrsim-sweep ----------------------------------------------------------------------------
# study NAME [SECTIONS...]: write NAME.ini: the sample trace, 5 jobs, and
# the lines given.
study() {
    f=$1.ini; shift
    { printf '[study]\nbase = %s\ntrace = %s\n' "$DEFAULT" "$TRACE"
      for l in "$@"; do printf '%s\n' "$l"; done; } > "$f"
}
# refused NAME WANT: pnrsim-sweep on NAME.ini exits 2 with WANT in the
# message and writes nothing.
refused() {
    "$SWEEP" -o "$1.out" "$1.ini" > /dev/null 2> "$1.err"
    rc=$?
    check "pnrsim-sweep $1: exit 2, '$2', nothing written" \
        sh -c "test $rc -eq 2 && grep -q -F -- \"\$1\" $1.err && test ! -e $1.out" sh "$2"
}
t1='t`touch PWNED6`.swf' t2="t\$(touch PWNED7)'\"x.swf"
cp "$TRACE" "./$t1"; cp "$TRACE" "./$t2"
study gp "replications = 1" "[set]" "workload.max_jobs = 5" "[vary]" "workload.trace = $t1, $t2" \
    "[plot resp]" "metric = response_time_mean" "x = workload.trace" "title = a\`touch PWNED8\`'\"b"
"$SWEEP" -o gpout gp.ini > /dev/null 2> gp.err
rc=$?
check "sweep: hostile trace names and plot title: exit 0, nothing run" test $rc -eq 0 -a "$(pwned)" -eq 0
if "$PLOT" study --help 2>&1 | grep -q '^usage: pnrsim-plot study' &&
    "$PY" -c 'import pandas, matplotlib' 2> /dev/null; then
    # (and the progress line printed when the first run ends, issue 37)
    check "sweep: the plot is drawn (pnrsim-plot study), stderr only the sweep's report" \
        test -s gpout/plots/resp.png -a -s gpout/plots/resp.svg -a "$(grep -v '^pnrsim-sweep: [0-9]*/2 runs done, ' gp.err | grep -vc '^pnrsim-sweep: gp: ran ')" -eq 0
else
    skip "sweep: pnrsim-plot has no study subcommand or no pandas: plot not drawn"
fi
check "sweep: the title reaches study.json as a JSON string (\" escaped)" \
    grep -qF "\"title\": \"a\`touch PWNED8\`'\\\"b\"" gpout/study.json
check "sweep: index.html escapes quotes and backquotes stay text" \
    sh -c "grep -qF 't\$(touch PWNED7)&#39;&quot;x.swf' gpout/index.html && ! grep -qF \"t\\\$(touch PWNED7)'\" gpout/index.html"

study seedset "replications = 3" "[set]" "simulation.seed = 5"
refused seedset "simulation.seed: the sweep sets each run's seed"
study seedvary "[vary]" "simulation.seed = 0, 1"
refused seedvary "simulation.seed: the sweep sets each run's seed"
study seedbase "[vary]" "netram.strategy = central" "[baseline disk]" "netram.enabled = no" \
    "simulation.seed = 4" "lines = netram.strategy"
refused seedbase "simulation.seed: the sweep sets each run's seed"
study seeds "replications = 2" "seed_base = 7" "[set]" "workload.max_jobs = 5"
"$SWEEP" -o seeds.out seeds.ini > /dev/null 2>&1
check "sweep: results.csv gives the seeds 7, 8 (read back from metrics.json)" \
    test "$(cut -d, -f1,2 seeds.out/results.csv | tr '\n' ' ')" = "seed,status 7,ok 8,ok "
sed -i 's/"seed": 8,/"seed": 5,/' seeds.out/runs/base/seed-8/metrics.json
"$SWEEP" collect -o seeds.out seeds.ini > /dev/null 2> seeds.err
rc=$?
check "sweep collect: a run whose metrics.json says seed 5 for seed 8 is failed, named" \
    sh -c "test $rc -eq 1 && grep -q 'seed 5, but this run.s seed is 8' seeds.err && test \"\$(sed -n 3p seeds.out/results.csv | cut -d, -f1,2)\" = 8,failed"

study dup1 "[vary]" "netram.strategy = central, CENTRAL, client, Central"
refused dup1 "values 'central', 'CENTRAL' and 'Central' are the same setting (CENTRAL)"
study dup2 "[vary]" "computer.ram = 64, 128, 128.0"
refused dup2 "values '128' and '128.0' are the same setting (128)"
study stdin "[set]" "workload.trace = -"
refused stdin "standard input cannot be shared by the runs"

# Slurm.
study sla "[slurm]" "array = 1-6"
refused sla "array: written by pnrsim-sweep"
study slj "[slurm]" "J = y"
refused slj "j: a single-letter sbatch option: give its long name, job-name (-J)"
study slw "[slurm]" "wrap = true"
refused slw "wrap: would replace the script"
study sld "[slurm]" "time = 00:10:00" "time = 00:20:00"
refused sld "time: given twice (first on line 5)"
study slq "[set]" "workload.max_jobs = 3" "[slurm]" "comment = it's \"q\""
sq="o ut'x"
"$SWEEP" --emit-slurm "./$sq.sh" -o "./$sq" slq.ini > /dev/null 2> slq.err
rc=$?
lines_ok=0
grep -qxF "#SBATCH --output=\"$T/$sq/slurm/%A_%a.out\"" "./$sq.sh" &&
    grep -qxF '#SBATCH --comment="it'"'"'s \"q\""' "./$sq.sh" && bash -n "./$sq.sh" && lines_ok=1
check "emit-slurm -o with a space and a quote: exit 0, quoted #SBATCH lines, bash reads it" \
    test $rc -eq 0 -a $lines_ok -eq 1
SLURM_ARRAY_TASK_ID=1 bash "./$sq.sh" > /dev/null 2>&1
check "emit-slurm: task 1 runs into the quoted directory" test -s "./$sq/runs/base/seed-1/metrics.json"
"$SWEEP" --emit-joblist jl -o "./a${nl}b" slq.ini > /dev/null 2> nl.err
rc=$?
check "emit with a line break in -o: exit 2, named, nothing written" \
    sh -c "test $rc -eq 2 && grep -q 'line break' nl.err && test ! -e jl && test -z \"\$(ls -d a?b 2>/dev/null)\""
# A device or FIFO as the target is written in place, never replaced by
# the atomic rename (as root that once replaced /dev/null itself).
mkfifo jl.fifo
cat jl.fifo > jl.got &
reader=$!
"$SWEEP" --emit-joblist jl.fifo -o fo slq.ini > /dev/null 2> fifo.err
rc=$?
# a reader left blocked (the FIFO replaced, or never opened) is stopped
{ test $rc -eq 0 && test -p jl.fifo; } || kill $reader 2>/dev/null
wait $reader
check "emit-joblist into a FIFO: exit 0, the list read through it, still a FIFO" \
    sh -c "test $rc -eq 0 && test -p jl.fifo && test -s jl.got && ! ls jl.fifo.tmp.* > /dev/null 2>&1"
check "pnrsim-sweep: nothing run" test "$(pwned)" -eq 0

# ---- messages --------------------------------------------------------------------------------
echo "1 0 0 100 1 -1 -1 1 1000000000000 -1 1 1 1 1 1 1 -1 -1" > est.swf
"$P" -q -t est.swf -o est --set workload.estimate=REQUESTED --set workload.estimate_scale=1.000001 > /dev/null 2> est.err
rc=$?
check "estimate 1.000001e12: exit 2, shown with the digits that differ from 1e+12" \
    sh -c "test $rc -eq 2 && grep -q 'estimate 1000000999999.9999 s .* out of range (at most 1e+12 s)' est.err"
"$P" -q -t est.swf -o est --set workload.estimate_scale=1e-320 > /dev/null 2> sc.err
rc=$?
check "estimate_scale = 1e-320: exit 2, says 0 is not accepted" \
    sh -c "test $rc -eq 2 && grep -q 'subnormal number: expected a number > 0 .*(0 is not accepted)' sc.err && ! grep -q 'expected 0 or' sc.err"
"$P" -q -t est.swf -o est --set computer.seek=1e-320 > /dev/null 2> sk.err
check "computer.seek = 1e-320 (0 allowed): offers 0" grep -q 'expected 0 or a magnitude of at least 2.2250738585072014e-308' sk.err
finish
