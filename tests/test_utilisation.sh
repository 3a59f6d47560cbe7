#!/bin/sh
# tests/test_utilisation.sh BUILD: a run's utilisation picture
# (python/pnrsim/util_plot.py, issue 37 item 4): busy cores over time,
# stacked per gang slot, from schedule.csv.
#
# The hand-worked gang run of tests/test_schedule.sh (jobs 1, 25 s CPU,
# and 2, 12 s, 4 threads each on 4 PEs, MPL 2, quantum 10, pcs 1):
#   slot 0 (job 1): 0..10, 21..30, 34..40 = 25 s x 4 cores = 100 core-s
#   slot 1 (job 2): 10..20, 31..33        = 12 s x 4 cores =  48 core-s
#   total 148 core-s = cpu_busy_total (37 s per PE x 4 PEs; no paging,
#   no message CPU cost, so every held second computes);
#   at 20..21 (the context switch) no core is busy, at 0..10 four.
# Checks: the picture's column means x the column length summed (1000
# columns, and 7 columns, whose edges fall inside stretches) give 100, 48
# and 148; awk's sum of pes x (end - start) over schedule.csv = 148 =
# metrics.json cpu_busy_total; pnrsim-plot draws utilisation.png.
# The same integral on the ten-job LANL CM-5 sample on 64 PEs, MPL 2
# (no paging): equal to cpu_busy_total within 1e-6 relative. A paging run
# (tests/data/schedule-paging.swf): the cores held while paging count, so
# the integral is sum of threads x execution (MPL 1), above
# cpu_busy_total.
# Skips when /usr/bin/python3 lacks pandas or matplotlib.
TEST_NAME=test_utilisation
. "$(dirname "$0")/lib.sh"
need "$P" "$PLOT"
if ! "$PY" -c 'import pandas, matplotlib' 2>/dev/null; then
    skip_all "$PY has no pandas or matplotlib (Debian: python3-pandas python3-matplotlib)"
fi
export PYTHONPATH=$top/python
cat > gang.swf <<'EOF'
1 0 0 25 4 25 -1 4 -1 -1 1 1 1 1 1 1 -1 -1
2 0 0 12 4 12 -1 4 -1 -1 1 1 1 1 1 1 -1 -1
EOF
cat > gang.ini <<'EOF'
[simulation]
metrics_period = 5
[workload]
trace = gang.swf
[scheduler]
mpl = 2
quantum = 10
pcs = 1
packing = FIRSTFIT
[computer]
number = 4
ram = 1000
EOF
"$P" -c gang.ini -q -o g --schedule > /dev/null
check "gang run: exit 0" test $? -eq 0
held=$(awk -F, 'NR > 1 { s += $6 * ($4 - $3) } END { printf "%.6f", s }' g/schedule.csv)
check "awk: sum of pes x (end - start) over schedule.csv = 148 (hand-worked), got $held" \
    test "$held" = "148.000000"
check "metrics.json cpu_busy_total = 148" test "$(jval g/metrics.json cpu_busy_total)" = 148

# integ DIR WIDTH: "slot0 slot1 ... total" integrals of the picture's data.
integ() {
    "$PY" -W error - "$1" "$2" <<'EOF'
import sys
from pnrsim.run import load_run
from pnrsim.util_plot import busy_cores
r = load_run(sys.argv[1])
d = busy_cores(r, 0.0, r.end_time(), int(sys.argv[2]))
print(" ".join("%.6f" % (v.sum() * d["dt"]) for v in list(d["slots"]) + [d["total"]]))
EOF
}
for w in 1000 7; do
    got=$(integ g $w)
    check "picture's data, $w columns: slots 100, 48 core-s, total 148 (got $got)" \
        test "$got" = "100.000000 48.000000 148.000000"
done
pts=$("$PY" -W error - <<'EOF'
from pnrsim.run import load_run
from pnrsim.util_plot import busy_cores
d = busy_cores(load_run("g"), 0.0, 40.0, 40)   # 1-s columns
print("%g %g %g %g" % (d["total"][5], d["slots"][1][15], d["total"][20], d["total"][32]))
EOF
)
check "busy cores at 5-6 s: 4, slot 1 at 15-16 s: 4, at 20-21 s (switch): 0, at 32-33 s: 4 (got $pts)" \
    test "$pts" = "4 4 0 4"
"$PLOT" g > plot.out 2> plot.err
check "pnrsim-plot: exit 0, utilisation.png and .svg drawn, nothing on stderr" \
    sh -c "test $? -eq 0 && test -s g/plots/utilisation.png && test -s g/plots/utilisation.svg && test ! -s plot.err"
# Drawn again, the same run gives byte-identical pictures (matplotlib's
# SVG ids hash with a random salt unless one is set).
cp g/plots/utilisation.svg u1.svg
rm g/plots/utilisation.svg
"$PLOT" g > plot2.out 2> plot2.err
check "pnrsim-plot twice: exit 0, nothing on stderr, utilisation.svg drawn again byte-identical" \
    sh -c "test $? -eq 0 && test ! -s plot2.err && cmp -s u1.svg g/plots/utilisation.svg"

printf '[computer]\nnumber = 64\n[scheduler]\nmpl = 2\n' > lanl.ini
"$P" -c lanl.ini -t "$top/traces/lanl-cm5-techreport-sample10.swf" -q -o l --schedule > /dev/null
check "LANL sample run: exit 0" test $? -eq 0
busy=$(jval l/metrics.json cpu_busy_total)
tot=$(integ l 1000 | awk '{ print $NF }')
check "LANL sample: the picture's integral $tot = cpu_busy_total $busy within 1e-6 relative" \
    awk -v a="$tot" -v b="$busy" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= 1e-6 * b) }'

# With paging (tests/data/schedule-paging.swf on 2 PEs of 32 MB: a 40-MB
# thread of 2 s CPU pages until its end): a stretch holds its core while
# the thread pages, so the stack's integral is, at MPL 1 without
# switches, sum over jobs of threads x execution (awk over jobs.csv), and
# lies above cpu_busy_total (3 s of CPU: 2 + 1).
"$P" -c "$DEFAULT" -t "$top/tests/data/schedule-paging.swf" --set computer.number=2 \
    --set computer.ram=32 -q -o pg --schedule > /dev/null
check "paging run: exit 0, it pages" \
    sh -c "test $? -eq 0 && test \"\$(jval pg/metrics.json page_faults_per_pe)\" != 0"
held=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "threads") t = i; if ($i == "execution") e = i } next }
    { s += $t * $e } END { printf "%.6f", s }' pg/jobs.csv)
tot=$(integ pg 1000 | awk '{ printf "%.6f", $NF }')
busy=$(jval pg/metrics.json cpu_busy_total)
check "paging run: the stack's integral $tot = sum of threads x execution $held (awk), above cpu_busy_total $busy" \
    awk -v a="$tot" -v b="$held" -v c="$busy" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-6 * b && a > c + 1) }'

# The computing line (pes.csv's cpu_busy) on nodes of 2 cores, with the
# sampler skipping: 2 nodes x 2 cores (computer.number = 4 cores), no
# messages, metrics_period 10. Job 1: 4 threads x 1000 s at 0 (every
# core, no event until its end at 1000, so the sampler skips from 20 to
# 990: the row at 990 covers 970 s); job 2: 2 threads x 100 s at 1500
# (node 0's two cores, to 1600). cpu_busy is a node's busy cores (0..2),
# so the line is 4 over 0..1000, 0 over 1000..1500, 2 from 1500; pes.csv's
# last sample is at 1590 (none at the run's end), so the line's integral
# is 4 x 1000 + 2 x 90 = 4180 core-s (cpu_busy_total is 4200: the last
# 10 s are after the last sample).
printf '1 0 0 1000 4 1000 -1 4 -1 -1 1 1 1 1 1 1 -1 -1\n2 1500 0 100 2 100 -1 2 -1 -1 1 1 1 1 1 1 -1 -1\n' > c2.swf
"$P" -t c2.swf --set computer.number=4 --set computer.cores_per_node=2 --set computer.ram=1000 \
    --set process.comm_rate=0 --set process.sync_rate=0 --set simulation.metrics_period=10 \
    -q -o c2 --schedule > /dev/null
check "2-core nodes: exit 0" test $? -eq 0
check "2-core nodes: cpu_busy_total 4200" test "$(jval c2/metrics.json cpu_busy_total)" = 4200
check "2-core nodes: pes.csv's rows of node 0 skip from 20 to 990" \
    test "$(awk -F, '$2 == 0 { print $1 }' c2/pes.csv | sed -n 2,3p | tr '\n' ' ')" = "20 990 "
comp=$("$PY" -W error - <<'EOF'
import numpy as np
from pnrsim.run import load_run
from pnrsim.util_plot import busy_cores
d = busy_cores(load_run("c2"), 0.0, 1600.0, 1600)   # 1-s columns
c = d["computing"]
print("%.6f %g %g %g" % (np.nansum(c) * d["dt"], c[500], c[1200], c[1550]))
EOF
)
check "computing line: integral 4180 core-s, 4 cores at 500 s (inside the skip), 0 at 1200, 2 at 1550 (got $comp)" \
    test "$comp" = "4180.000000 4 0 2"
finish
