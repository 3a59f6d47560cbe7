#!/bin/sh
# tests/test_study_plots.sh BUILD: a study's pictures, drawn by pnrsim-plot
# study (python/pnrsim/study.py) for pnrsim-sweep, checked by reading them
# (tests/study_plots.py, run with /usr/bin/python3 -W error).
#
# A tiny study on the ten-job LANL CM-5 sample: computer.ram = 16, 32 x
# netram.strategy = central, client + [baseline disk], 2 trace windows x
# 2 seeds = 24 runs of a fraction of a second:
#   - the sweep exits 0 with nothing on stderr; study.json names the
#     varied keys with their units (computer.ram: MB);
#   - each [plot]'s PNG, SVG and CSV exist, and the PNG is not blank: no
#     colour covers more than 95% of it, and the data's colours (saturated
#     pixels) at least 0.1%;
#   - labels from the data: "computer.ram [MB]", and under the metric
#     "mean of 4 runs (2 windows x 2 seeds), 95% CI" (2 x 2 by hand); a
#     [plot] ylabel is kept and the run count still generated;
#   - a categorical x (strategy names) has no Line2D joining two
#     categories; the legend is outside the plot area;
#   - means 1000 * (1 + k 1e-6) (1e-6 relative apart) get y tick labels
#     that all differ;
#   - 16 series (then-and-now.ini's study.json, made-up means): 16 legend
#     entries, outside the plot area, picture not blank;
#   - the page lists the plots before the summary table, the study file
#     folded in <details> after it;
#   - without pnrsim-plot (pnrsim-sweep and pnrsim copied alone to a
#     directory, PATH without it): exit 0, "plots skipped" named on
#     stderr, results.csv, summary.csv, study.json and index.html written,
#     no picture;
#   - pnrsim.study under a python3 without pandas (the first python3 on
#     PATH, when it has none): exit 3 and a message naming pandas.
# Skips the drawing checks when /usr/bin/python3 lacks pandas or
# matplotlib. Prints "N passed, N failed".
TEST_NAME=test_study_plots
. "$(dirname "$0")/lib.sh"    # top, build, P, SWEEP, PLOT, PY, check, skip, need, finish, T
need "$SWEEP"
TRACE=$top/traces/lanl-cm5-techreport-sample10.swf
export PYTHONPATH=$top/python
printf '[computer]\nnumber = 64\n' > base.ini
cat > s.ini <<EOT
[study]
name = tiny
base = base.ini
trace = $TRACE
replications = 2
windows = 2
metrics = total_time, response_time_mean, bounded_slowdown_mean
[set]
workload.max_jobs = 5
netram.enabled = yes
[vary]
computer.ram = 16, 32
netram.strategy = central, client
[baseline disk]
lines = netram.strategy
netram.enabled = no
[plot slowdown]
metric = bounded_slowdown_mean
x = computer.ram
lines = netram.strategy
[plot response]
metric = response_time_mean
x = netram.strategy
lines = computer.ram
ylabel = response time (s)
EOT
if ! "$PY" -c 'import pandas, matplotlib' 2>/dev/null; then
    skip_all "$PY has no pandas or matplotlib (Debian: python3-pandas python3-matplotlib; tools/deps.sh study)"
fi
# pnrsim-plot with the study subcommand (the Python companion's wrapper)?
have_plot=0
"$PLOT" study --help 2>&1 | grep -q '^usage: pnrsim-plot study' && have_plot=1
"$SWEEP" -q -j 2 -o o s.ini > sweep.out 2> sweep.err
rc=$?
check "sweep: exit 0" test $rc -eq 0
if [ $have_plot -eq 1 ]; then
    check "sweep: nothing on stderr$(head -c 300 sweep.err)" test ! -s sweep.err
else
    skip "pnrsim-plot has no 'study' subcommand (build/pnrsim-plot is not the Python companion's wrapper): drawn here by pnrsim.study.main"
    "$PY" -W error "$top/tests/study_plots.py" draw o > draw.out 2> draw.err
    check "pnrsim.study.main: status 0, nothing on stderr" \
        sh -c "grep -qx 'status 0' draw.out && test ! -s draw.err"
fi
check "study.json: computer.ram with its unit MB" \
    grep -q '{"key": "computer.ram", "unit": "MB", "numeric": true,' o/study.json
# pyrun MODE DIR: the Python checks, counted here.
pyrun() {
    "$PY" -W error "$top/tests/study_plots.py" "$1" "$2" > py.out 2> py.err
    prc=$?
    while IFS= read -r l; do
        case $l in "ok   "*) ok "${l#ok   }" ;; "FAIL "*) bad "${l#FAIL }" ;; esac
    done < py.out
    check "study_plots.py $1: exit 0, nothing on stderr$(head -c 300 py.err)" test $prc -eq 0 -a ! -s py.err
}
pyrun files o
# Drawn again, the study's SVGs are byte-identical (a fixed SVG hash salt).
if [ $have_plot -eq 1 ]; then
    cp -r o/plots first-plots
    rm o/plots/*.svg
    "$PLOT" study --format svg o > again.out 2> again.err
    arc=$?
    nsvg=$(ls first-plots/*.svg 2>/dev/null | wc -l)
    same=1
    for f in first-plots/*.svg; do cmp -s "$f" "o/plots/${f##*/}" || same=0; done
    check "pnrsim-plot study twice: exit 0, nothing on stderr, $nsvg SVGs drawn again byte-identical" \
        test $arc -eq 0 -a ! -s again.err -a $nsvg -gt 0 -a $same -eq 1
fi
pyrun small o
H=o/index.html
check "page: plots before the summary table" \
    test "$(grep -n '<h2>Plots</h2>' $H | cut -d: -f1)" -lt "$(grep -n '<h2>Summary</h2>' $H | cut -d: -f1)"
check "page: the study file last, folded in <details>" \
    sh -c "grep -A1 '<h2>Study file</h2>' $H | grep -qx '<details>' && test \$(grep -n '<h2>Study file</h2>' $H | cut -d: -f1) -gt \$(grep -n '<h2>Summary</h2>' $H | cut -d: -f1)"

# 16 series: the then-and-now study's description, no runs.
mkdir tan
"$SWEEP" collect --no-plots -o tan "$top/configs/studies/then-and-now.ini" > tan.out 2> tan.err
check "then-and-now collect without runs: study.json written" test -s tan/study.json
pyrun many tan

# Without pnrsim-plot: copies of pnrsim-sweep and pnrsim alone.
mkdir bin
cp "$SWEEP" "$P" bin/
PATH=/nonexistent bin/pnrsim-sweep -q -j 2 -o np s.ini > np.out 2> np.err
rc=$?
check "without pnrsim-plot: exit 0 (the runs succeeded)" test $rc -eq 0
check "without pnrsim-plot: 'plots skipped' said on stderr" grep -q 'plots skipped: pnrsim-plot is neither beside' np.err
check "without pnrsim-plot: results.csv, summary.csv, study.json, index.html written" \
    test -s np/results.csv -a -s np/summary.csv -a -s np/study.json -a -s np/index.html
check "without pnrsim-plot: no picture, the page says so" \
    sh -c "! ls np/plots/*.png > /dev/null 2>&1 && grep -q '2 of 2 plots were not drawn' np/index.html"

# A python3 without pandas (a pyenv one first on PATH here).
OTHER=$(command -v python3)
if [ -n "$OTHER" ] && [ "$OTHER" != "$PY" ] && ! "$OTHER" -c 'import pandas' 2>/dev/null; then
    "$OTHER" -c 'import sys; from pnrsim import study; sys.exit(study.main(sys.argv[1:]))' o > nopd.out 2> nopd.err
    rc=$?
    check "python3 without pandas: exit 3, message names pandas" \
        sh -c "test $rc -eq 3 && grep -q 'needs numpy, pandas and matplotlib' nopd.err"
else
    skip "no python3 without pandas on PATH to try"
fi
finish
