#!/bin/sh
# tests/test_hostile.sh BUILD: hostile names and inputs for the tools
# (issue 23, part 4): pnrsim --plot, pnrsim-plot, pnrsim-sweep.
#
# Checks:
#   - names with quotes, a newline, $(...), backquotes, spaces, semicolons,
#     backslashes, "x=y" and a leading '-' as pnrsim's -o directory (with
#     --plot) and as pnrsim-plot's OUTDIR and -o: no command runs (no
#     marker file appears), the 5 plots are drawn, exit 0;
#   - pnrsim-plot's inputs: random bytes for pes.csv, a truncated or
#     column-swapped schedule.csv, start and end swapped under the right
#     header, a non-numeric job number, a non-numeric metrics_period,
#     --to 1e309: exit 2 with a message naming the file (and line), and no
#     image written;
#   - pnrsim-sweep: a [vary] value with backquotes, $(...) and quotes
#     reaches the gnuplot script only inside single quotes (no command
#     runs); index.html escapes it; a study path and -o directory with a
#     newline are refused for emit (a job list is one run per line).
# Skips the drawing checks when gnuplot is not installed.
TEST_NAME=test_hostile
. "$(dirname "$0")/lib.sh"
PLOT=$build/pnrsim-plot
SWEEP=$build/pnrsim-sweep
TRACE=$top/traces/lanl-cm5-techreport-sample10.swf
have_gp=0
command -v gnuplot >/dev/null 2>&1 && have_gp=1

# The names. Each would run "touch PWNED..." if pasted unquoted into a
# gnuplot script or a shell command.
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
pwned() { ls | grep -c '^PWNED[0-9]$'; }

"$P" -q -t "$TRACE" --schedule -o run1 > /dev/null 2>&1
if [ $have_gp = 0 ] || [ ! -x "$PLOT" ]; then
    skip "gnuplot or pnrsim-plot missing: no drawing checks"
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
    # The kept scripts name their data relatively: they draw again in data/.
    "$PLOT" --keep-data --format svg -o kd run1 > /dev/null 2>&1
    (cd kd/data && rm -f gantt.svg && gnuplot gantt.svg.gp 2> /dev/null)
    check "pnrsim-plot --keep-data: a kept script draws again in DIR/data" test -s kd/data/gantt.svg
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
    badcase rnd "rnd/pes.csv:1: expected the header"
    cp -r run1 cut; head -c 100 run1/schedule.csv > cut/schedule.csv
    badcase cut "cut/schedule.csv: the last line has no end of line"
    cp -r run1 cut2; head -n 3 run1/schedule.csv > cut2/schedule.csv; printf '9,0,5\n' >> cut2/schedule.csv
    badcase cut2 "cut2/schedule.csv:4: expected 7 comma-separated fields, found 3"
    cp -r run1 swap; awk -F, -v OFS=, '{ t = $3; $3 = $4; $4 = t; print }' run1/schedule.csv > swap/schedule.csv
    badcase swap "swap/schedule.csv:1: expected the header"
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
finish
