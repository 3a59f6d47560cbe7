#!/bin/sh
# tests/test_study_dist.sh BUILD: a study's distribution figures
# (python/pnrsim/study_dist.py, issue 37 item 4) and their section of the
# study page (study/html.c).
#
# A tiny study: the first 8 jobs of the LANL CM-5 sample at MPL 1 on
# computer.number = 36, 64 PEs (2 points; on 36 jobs of 32 threads wait
# for each other) x 2 seeds
# = 4 runs of a fraction of a second. Checks, each against numbers
# computed here from the runs' jobs.csv with awk and sort (not with the
# plotter's code):
#   - dist-wait.csv, dist-response.csv, dist-slowdown.csv: per point the
#     number of completed jobs (state finished, over its 2 runs) and the
#     5th, 25th, 50th, 75th, 95th percentiles, the mean and the maximum
#     (quantile q of n sorted values v_0..v_{n-1}: v_i + f (v_{i+1} - v_i),
#     i + f = q (n - 1)), within 1e-6 relative;
#   - the slowdown is bounded_slowdown_dedicated (pnrsim's jobs.csv has
#     it since issue 37 item 1), named in the CSV and on the page;
#   - fairness.csv: per point the jobs of its size classes (threads 1,
#     2-4, 5-16, 17-64, 65-256, 257-1024, >1024) sum to its completed jobs,
#     and each class's count is awk's;
#   - index.html: a Distributions section between the Plots and the
#     Summary, referencing plots/dist-wait.png, dist-response.png,
#     dist-slowdown.png, fairness.png (each exists) with their SVG and CSV;
#   - a copy of the study with one row marked killed: the killed job is
#     left out; when one run lacks the dedicated column (removed from a
#     copy), bounded_slowdown is used;
#   - pnrsim-plot study --no-dist draws no dist-* file; a page without the figures has no Distributions section.
# Skips when /usr/bin/python3 lacks pandas or matplotlib.
TEST_NAME=test_study_dist
. "$(dirname "$0")/lib.sh"
need "$SWEEP" "$PLOT"
if ! "$PY" -c 'import pandas, matplotlib' 2>/dev/null; then
    skip_all "$PY has no pandas or matplotlib (Debian: python3-pandas python3-matplotlib)"
fi
export PYTHONPATH=$top/python
printf '[scheduler]\nmpl = 1\n' > base.ini
cat > s.ini <<EOT
[study]
name = dist
base = base.ini
trace = $top/traces/lanl-cm5-techreport-sample10.swf
replications = 2
metrics = response_time_mean, bounded_slowdown_mean
[set]
workload.max_jobs = 8
netram.enabled = yes
[vary]
computer.number = 36, 64
[plot response]
metric = response_time_mean
x = computer.number
EOT
"$SWEEP" -q -j 2 -o o s.ini > sweep.out 2> sweep.err
check "sweep: exit 0, nothing on stderr$(head -c 300 sweep.err)" \
    sh -c "test $? -eq 0 && test ! -s sweep.err"
for f in dist-wait dist-response dist-slowdown fairness; do
    check "plots/$f.png, .svg, .csv written" test -s o/plots/$f.png -a -s o/plots/$f.svg -a -s o/plots/$f.csv
done

# values DIR COLUMN: COLUMN of the finished jobs of every run under DIR
# (jobs.csv files found by find), one a line, sorted as numbers.
values() {
    find "$1" -name jobs.csv | sort | while read -r f; do
        awk -F, -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == c) k = i; if ($i == "state") s = i } next }
            $s == "finished" { print $k }' "$f"
    done | sort -g
}
# stats: "n p5 q1 median q3 p95 mean max" of sorted numbers on stdin.
stats() {
    awk '{ v[NR] = $1; s += $1 }
        function q(p,   h, i, f) { h = (NR - 1) * p; i = int(h); f = h - i
            return (i + 2 <= NR) ? v[i + 1] + f * (v[i + 2] - v[i + 1]) : v[NR] }
        END { printf "%d %.10g %.10g %.10g %.10g %.10g %.10g %.10g\n", NR, q(0.05), q(0.25), q(0.5), q(0.75), q(0.95), s / NR, v[NR] }'
}
# csvrow CSV MPL: "jobs p5 q1 median q3 p95 mean max" of the point's row.
csvrow() {
    awk -F, -v m="$2" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
        $h["computer.number"] == m { print $h["jobs"], $h["p5"], $h["q1"], $h["median"], $h["q3"], $h["p95"], $h["mean"], $h["max"] }' "$1"
}
# same A B: the same count and every number within 1e-6 relative.
same() {
    awk -v a="$1" -v b="$2" 'BEGIN { na = split(a, x, " "); nb = split(b, y, " ")
        if (na != 8 || nb != 8 || x[1] != y[1]) exit 1
        for (i = 2; i <= 8; i++) { d = x[i] - y[i]; if (d < 0) d = -d
            m = y[i] < 0 ? -y[i] : y[i]; if (d > 1e-6 * m + 1e-9) exit 1 }
        exit 0 }'
}
for m in 36 64; do
    for pair in wait:wait response:response slowdown:bounded_slowdown_dedicated; do
        fig=${pair%%:*} c=${pair#*:}
        want=$(values "o/runs/computer.number=$m" "$c" | stats)
        got=$(csvrow o/plots/dist-$fig.csv $m)
        check "dist-$fig, $m PEs: n and quantiles = awk's ($want; csv: $got)" same "$got" "$want"
    done
done
check "dist-slowdown.csv names bounded_slowdown_dedicated (the runs' jobs.csv have it)" \
    sh -c "test \"\$(sed -n 2p o/plots/dist-slowdown.csv | cut -d, -f1)\" = bounded_slowdown_dedicated"
check "36 PEs make jobs wait (the test's data are not all zero): awk's max wait > 0" \
    test "$(values 'o/runs/computer.number=36' wait | tail -1)" != 0

# Fairness: per point, the counts per class (awk) and their sum.
classes() { # classes DIR: "1:n 2-4:n ..." of the finished jobs (threads classes)
    find "$1" -name jobs.csv | sort | while read -r f; do
        awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "threads") t = i; if ($i == "state") s = i } next }
            $s == "finished" { print $t }' "$f"
    done | awk '{ n = $1; c = n <= 1 ? "1" : n <= 4 ? "2-4" : n <= 16 ? "5-16" : n <= 64 ? "17-64" : n <= 256 ? "65-256" : n <= 1024 ? "257-1024" : ">1024"; k[c]++ }
        END { split("1 2-4 5-16 17-64 65-256 257-1024 >1024", o, " "); s = ""
              for (i = 1; i <= 7; i++) if (o[i] in k) s = s o[i] ":" k[o[i]] " "; print s }'
}
for m in 36 64; do
    want=$(classes "o/runs/computer.number=$m")
    got=$(awk -F, -v s="computer.number=$m" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
        $h["series"] == s { printf "%s:%s ", $h["class"], $h["jobs"] } END { print "" }' o/plots/fairness.csv)
    check "fairness, $m PEs: jobs per size class = awk's ($want)" test "$got" = "$want"
    total=$(awk -F, -v s="computer.number=$m" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
        $h["series"] == s { t += $h["jobs"] } END { print t + 0 }' o/plots/fairness.csv)
    done_jobs=$(values "o/runs/computer.number=$m" wait | wc -l)
    check "fairness, $m PEs: the classes' jobs sum to the completed jobs ($total = $done_jobs)" \
        test "$total" -eq "$done_jobs" -a "$done_jobs" -gt 0
done

H=o/index.html
ln() { grep -n "$1" $H | head -1 | cut -d: -f1; }
check "page: Distributions after Plots, before Summary" \
    sh -c "test \"$(ln '<h2>Plots</h2>')\" -lt \"$(ln '<h2>Distributions</h2>')\" -a \"$(ln '<h2>Distributions</h2>')\" -lt \"$(ln '<h2>Summary</h2>')\""
for f in dist-wait dist-response dist-slowdown fairness; do
    check "page: img plots/$f.png and links to its SVG and CSV" \
        sh -c "grep -q '<img src=\"plots/$f.png\"' $H && grep -q 'href=\"plots/$f.svg\"' $H && grep -q 'href=\"plots/$f.csv\"' $H"
done
check "page: says completed jobs only and names bounded_slowdown_dedicated" \
    sh -c "grep -q 'completed jobs only' $H && grep -q 'Slowdown: <code>bounded_slowdown_dedicated</code>, over the job.s dedicated' $H"
check "page: well-formed XML" "$PY" -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' $H

# A killed row left out (the dedicated slowdown, which every run has).
cp -r o d
rm -rf d/plots
one=$(find 'd/runs/computer.number=36' -name jobs.csv | sort | head -1)
# its first finished row becomes killed (its slowdown emptied, as pnrsim writes it)
awk -F, 'BEGIN { OFS = "," } NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "state") s = i; if ($i ~ /slowdown/) sl[i] = 1 } print; next }
    !done && $s == "finished" { $s = "killed"; for (i in sl) $i = ""; done = 1 } { print }' "$one" > "$one.new" && mv "$one.new" "$one"
"$PLOT" study d > d.out 2> d.err
check "dedicated: pnrsim-plot study exit 0, nothing on stderr$(head -c 300 d.err)" \
    sh -c "test $? -eq 0 && test ! -s d.err"
check "dedicated: dist-slowdown.csv and fairness.csv name bounded_slowdown_dedicated" \
    sh -c "sed -n 2p d/plots/dist-slowdown.csv | grep -q '^bounded_slowdown_dedicated,' && sed -n 2p d/plots/fairness.csv | grep -q '^bounded_slowdown_dedicated,'"
for m in 36 64; do
    want=$(values "d/runs/computer.number=$m" bounded_slowdown_dedicated | stats)
    got=$(csvrow d/plots/dist-slowdown.csv $m)
    check "dedicated, $m PEs: n and quantiles of the dedicated column = awk's ($want)" same "$got" "$want"
done
n1=$(csvrow d/plots/dist-slowdown.csv 36 | cut -d' ' -f1)
n0=$(csvrow o/plots/dist-slowdown.csv 36 | cut -d' ' -f1)
check "the killed row is not counted: 36 PEs has one job less ($n1 = $n0 - 1)" test "$n1" -eq $((n0 - 1))
mkdir -p d2 && cp -r d/. d2/ && rm -rf d2/plots
check "bounded_slowdown_dedicated is jobs.csv's last column (removed below)" \
    sh -c "head -1 '$one' | grep -q ',bounded_slowdown_dedicated\$'"
awk -F, 'BEGIN { OFS = "," } { NF = NF - 1; print }' "$one" > x.csv && cp x.csv "$(echo "$one" | sed 's|^d/|d2/|')"
"$PLOT" study d2 > d2.out 2> d2.err
check "one run without the dedicated column: bounded_slowdown used" \
    sh -c "test $? -eq 0 && sed -n 2p d2/plots/dist-slowdown.csv | grep -q '^bounded_slowdown,'"

"$PLOT" study --no-dist -o nd o > nd.out 2> nd.err
check "--no-dist: exit 0, the [plot] drawn, no dist-* or fairness file" \
    sh -c "test $? -eq 0 && test -s nd/response.png && ! ls nd/dist-* nd/fairness* > /dev/null 2>&1"
rm -f o/plots/dist-* o/plots/fairness.*
"$SWEEP" collect --no-plots -o o s.ini > c.out 2> c.err
check "a page without the figures has no Distributions section" \
    sh -c "! grep -q '<h2>Distributions</h2>' o/index.html && grep -q '<h2>Summary</h2>' o/index.html"
finish
