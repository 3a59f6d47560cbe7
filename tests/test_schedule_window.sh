#!/bin/sh
# tests/test_schedule_window.sh BUILD: schedule output sized by the user
# (issue 26): --schedule writes the CSV files only (schedule.csv, pes.csv,
# memory.csv, paging.csv), --paje the Paje trace; gz; the window
# output.schedule_from/schedule_to; bad values refused.
#
#   - memory.csv of a hand-worked run (tests/data/schedule-memory.swf:
#     thread starts and ends, MB per node worked out on paper), whole and
#     in a window (rows in it plus a row at schedule_from per node not all
#     zero); schedule.csv in the window (stretches overlapping it);
#   - paging.csv of a run whose one thread pages from its first fault to its
#     end (tests/data/schedule-paging.swf): one burst, from its first fault
#     (< 1 s after the start) to its last fault's end + 1 s (within
#     (end, end + 1] of the job), with the job's faults and fault time
#     (jobs.csv); a window after the burst keeps no row;
#   - the Paje trace of the window: containers at schedule_from with the
#     states then, everything closed at schedule_to; pj_dump reads it (and
#     the demo prefix windowed, gzipped then zcat'ed), its states lie in the
#     window;
#   - --schedule=gz, --paje=NAME.paje.gz: zcat (an independent tool) gives
#     the plain run's bytes; a later plain run replaces the .gz files (one
#     set);
#   - --schedule alone writes no Paje trace, --paje alone no CSV file;
#   - bad values of the new keys and options: exit 2, the key or option
#     named, nothing written.
# pj_dump checks skip with a message when pajeng is missing. Prints
# "N passed, N failed" last.
TEST_NAME=test_schedule_window
. "$(dirname "$0")/lib.sh"    # top, build, P, PY, check, skip, finish, T
have_pj=0; command -v pj_dump >/dev/null 2>&1 && have_pj=1
MEM="-t $top/tests/data/schedule-memory.swf --set computer.number=4 --set computer.ram=100"
PG="-t $top/tests/data/schedule-paging.swf --set computer.number=2"

# ---- memory.csv by hand ----------------------------------------------------------
# Job 1: 20 MB on PEs 0, 1 at 0, freed at 10; job 2: 40 MB on PE 2 at 5,
# freed at 15; job 3: 10 MB on PEs 0, 1, 3 at 12, freed at 17. No paging, no
# network RAM: overalloc, lent, held stay 0.
"$P" $MEM -q -o m --schedule > /dev/null 2> m.err
check "hand-worked memory run: exit 0, stderr empty" test $? -eq 0 -a ! -s m.err
cat > m.expect <<'EOF'
time,pe,mem_alloc_mb,overalloc_mb,netram_lent_mb,netram_held_mb
0,0,20,0,0,0
0,1,20,0,0,0
5,2,40,0,0,0
10,0,0,0,0,0
10,1,0,0,0,0
12,0,10,0,0,0
12,1,10,0,0,0
12,3,10,0,0,0
15,2,0,0,0,0
17,0,0,0,0,0
17,1,0,0,0,0
17,3,0,0,0,0
EOF
check "memory.csv: exactly the worked-out rows (one per change per node, in time order)" cmp -s m.expect m/memory.csv
check "paging.csv: the header only (nothing pages)" \
    test "$(cat m/paging.csv)" = "pe,start,end,page_faults,paging_time"
check "--schedule writes no Paje trace" test ! -e m/schedule.paje

# Window [11, 16] (schedule_to in the unit form 16s): at 11 only PE 2 is
# not all zero (job 2's 40 MB; PEs 0, 1 freed at 10), so one row at 11;
# then the rows of 12 and 15; those of 0, 5, 10, 17 are outside.
"$P" $MEM -q -o w --schedule --paje --set output.schedule_from=11 --set output.schedule_to=16s > /dev/null 2> w.err
check "window [11, 16]: exit 0, stderr empty" test $? -eq 0 -a ! -s w.err
cat > w.expect <<'EOF'
time,pe,mem_alloc_mb,overalloc_mb,netram_lent_mb,netram_held_mb
11,2,40,0,0,0
12,0,10,0,0,0
12,1,10,0,0,0
12,3,10,0,0,0
15,2,0,0,0,0
EOF
check "window: memory.csv = a row at 11 for PE 2, then the rows of 12 and 15" cmp -s w.expect w/memory.csv
# Stretches overlapping (11, 16): job 2 [5, 15], job 3 [12, 17] (PEs 0-1
# and PE 3: two rows); job 1 [0, 10] is out. Values not clipped.
cat > ws.expect <<'EOF'
job,slot,start,end,first_pe,pes,pcs
2,0,5,15,2,1,0
3,0,12,17,0,2,0
3,0,12,17,3,1,0
EOF
check "window: schedule.csv = the stretches overlapping it, unclipped" cmp -s ws.expect w/schedule.csv
check "window: the results (jobs.csv, metrics.json) as without it" \
    rsame m w jobs.csv metrics.json
# The Paje trace begins at 11 with the states then: PE 2 runs job 2 (40 MB),
# the others idle; every container is destroyed at 16.
check "window: the Paje trace's containers are created at 11 and destroyed at 16, nothing else outside" \
    sh -c "awk '\$1 ~ /^[5-9]\$|^1[01]\$/ && (\$2 < 11 || \$2 > 16) { exit 1 } \$1 == 5 && \$2 != 11 { exit 1 } \$1 == 6 && \$2 != 16 { exit 1 }' w/schedule.paje"
check "window: at 11, PE 2's state is job 2 and its memory 40 MB, PE 0's idle" \
    sh -c "grep -qx '7 11 RUN p2 \"job 2\"' w/schedule.paje && grep -qx '11 11 MEM p2 40' w/schedule.paje && grep -qx '7 11 RUN p0 idle' w/schedule.paje"
if [ $have_pj = 1 ]; then
    pj_dump w/schedule.paje > w.dump 2> w.pjerr
    check "window: pj_dump accepts the trace" test $? -eq 0 -a ! -s w.pjerr
    # Job 3 on PEs 0, 1, 3 from 12 to the window's end 16: 4 s each; job 2
    # on PE 2 from 11 to 15: 4 s.
    check "window: pj_dump's job states: job 3 4 s on 3 PEs, job 2 4 s on Node2" \
        test "$(awk -F', ' '$1 == "State" && $8 ~ /^job / { printf "%s %s %g\n", $2, $8, $6 }' w.dump | sort | tr '\n' ' ')" = "Node0 job 3 4 Node1 job 3 4 Node2 job 2 4 Node3 job 3 4 "
else
    skip "pj_dump not installed (Debian pajeng): windowed trace not checked with pj_dump"
fi

# ---- paging.csv by hand ----------------------------------------------------------
"$P" $PG -q -o p --schedule > /dev/null 2> p.err
check "paging run: exit 0, stderr empty" test $? -eq 0 -a ! -s p.err
# jobs.csv columns: end 4, page_faults 13, fault_time 14 (job 1's row).
jend=$(jobf p/jobs.csv 1 end); jf=$(jobf p/jobs.csv 1 page_faults); jt=$(jobf p/jobs.csv 1 fault_time)
check "paging.csv: one burst, on PE 0" test "$(awk -F, 'NR > 1 { print $1 }' p/paging.csv | tr '\n' ' ')" = "0 "
check "paging.csv: it starts at the first fault (0 < start < 1 s) and ends 1 s after the last fault's end (job end $jend < end <= job end + 1)" \
    awk -F, -v e="$jend" 'NR == 2 { ok = $2 > 0 && $2 < 1 && $3 > e && $3 <= e + 1 + 1e-9 } END { exit !ok }' p/paging.csv
check "paging.csv: its faults and fault time are the job's (jobs.csv: $jf faults, $jt s)" \
    awk -F, -v f="$jf" -v t="$jt" 'NR == 2 { ok = f > 0 && $4 == f && ($5 - t < 1e-9 && t - $5 < 1e-9) } END { exit !ok }' p/paging.csv
# memory.csv: 40 MB (8 beyond the 32 MB of RAM) at 0, all 0 at the job's end.
check "paging run: memory.csv = 40 MB, 8 over at 0; 0 at the job's end" \
    test "$(awk -F, 'NR > 1 { printf "%s,%s,%s,%s;", $1, $2, $3, $4 }' p/memory.csv)" = "0,0,40,8;$jend,0,0,0;"
"$P" $PG -q -o p2 --schedule --set output.schedule_from=50 > /dev/null
check "paging: a window from 50 s (after the burst) keeps no burst and no memory row" \
    test "$(wc -l < p2/paging.csv) $(wc -l < p2/memory.csv)" = "1 1"
"$P" $PG -q -o p3 --schedule --paje --set output.schedule_from=1 --set output.schedule_to=2 > /dev/null
check "paging: a window [1, 2] inside the burst keeps it whole, and memory.csv's row at 1 (40 MB, 8 over)" \
    sh -c "cmp -s p/paging.csv p3/paging.csv && test \"\$(sed -n 2p p3/memory.csv)\" = '1,0,40,8,0,0'"
check "paging: that window's Paje trace pushes Paging at 1 on p0 and pops it at 2" \
    sh -c "grep -qx '8 1 PG p0 paging' p3/schedule.paje && grep -qx '9 2 PG p0' p3/schedule.paje"

# ---- gz, --paje=NAME --------------------------------------------------------------
DEMO="-c $top/configs/default.ini --set workload.max_jobs=200 --set output.schedule_from=3d --set output.schedule_to=108h"
"$P" $DEMO -q -o dp --schedule --paje > /dev/null 2> dp.err
check "demo prefix, window [3d, 108h]: exit 0, stderr empty" test $? -eq 0 -a ! -s dp.err
"$P" $DEMO -q -o dz --schedule=gz --paje=win.paje.gz > /dev/null 2> dz.err
rc=$?
check "--schedule=gz --paje=win.paje.gz: exit 0, the .gz schedule files and no plain one" \
    sh -c "test $rc -eq 0 -a ! -s dz.err && test \"\$(cd dz && ls *.csv* *.paje* | tr '\n' ' ')\" = 'jobs.csv memory.csv.gz paging.csv.gz pes.csv.gz samples.csv schedule.csv.gz win.paje.gz '"
n=0
for f in schedule.csv pes.csv memory.csv paging.csv; do
    zcat "dz/$f.gz" | cmp -s - "dp/$f" && n=$((n + 1))
done
check "gz: zcat gives the plain run's bytes for the 4 CSV files" test $n -eq 4
check "gz: zcat win.paje.gz = the plain schedule.paje" sh -c "zcat dz/win.paje.gz | cmp -s - dp/schedule.paje"
# 3d = 259200 s, 108h = 388800 s.
check "window: schedule.csv rows all overlap [259200, 388800] s" \
    awk -F, 'NR > 1 && !($4 > 259200 && $3 < 388800) { n++ } END { exit !(NR > 1 && n == 0) }' dp/schedule.csv
check "window: memory.csv's rows all lie in [259200, 388800] s" \
    awk -F, 'NR > 1 && ($1 < 259200 || $1 > 388800) { n++ } END { exit !(NR > 1 && n == 0) }' dp/memory.csv
# Samples every 86400 s (metrics_period): in the window only 259200 and
# 345600, each with a row per PE (240).
check "window: pes.csv = the samples at 259200 and 345600 s, 240 rows each" \
    test "$(awk -F, 'NR > 1 { n[$1]++ } END { for (t in n) print t, n[t] }' dp/pes.csv | sort -n | tr '\n' ' ')" = "259200 240 345600 240 "
if [ $have_pj = 1 ]; then
    zcat dz/win.paje.gz > dz.paje
    pj_dump dz.paje > dz.dump 2> dz.pjerr
    check "gz: pj_dump accepts the demo's windowed trace after zcat" test $? -eq 0 -a ! -s dz.pjerr
    check "window: every state in pj_dump's output lies in [259200, 388800]" \
        awk -F', ' '$1 == "State" && ($4 < 259200 || $5 > 388800) { n++ } END { exit !(NR > 0 && n == 0) }' dz.dump
else
    skip "pj_dump not installed: gzipped windowed trace not checked with pj_dump"
fi
# One set: a plain run into dz replaces the .gz files (and win.paje.gz stays:
# a name of the user's is not part of a later run's set).
"$P" $MEM -q -o dz --schedule > /dev/null
check "a plain --schedule run into dz removes the earlier run's .gz schedule files" \
    sh -c "test -s dz/memory.csv && ! ls dz/*.csv.gz 2>/dev/null && test -e dz/win.paje.gz"
"$P" $MEM -q -o pj --paje > /dev/null
check "--paje alone: schedule.paje and no schedule CSV file" \
    sh -c "test -s pj/schedule.paje && ! ls pj/schedule.csv pj/pes.csv pj/memory.csv pj/paging.csv 2>/dev/null"

# ---- bad values: exit 2, key or option named, nothing written -----------------------
bad() { # NAME PATTERN ARGS...: exit 2, stderr matches PATTERN, no output directory
    name=$1 pat=$2; shift 2
    rm -rf bad
    "$P" $MEM -q -o bad "$@" > /dev/null 2> bad.err
    rc=$?
    check "$name: exit 2, names it, nothing written" \
        sh -c "test $rc -eq 2 && grep -q -- '$pat' bad.err && test ! -e bad"
}
bad "schedule_from = -5" "schedule_from" --schedule --set output.schedule_from=-5
bad "schedule_from = 2x" "schedule_from.*malformed time" --schedule --set output.schedule_from=2x
bad "schedule_to = 1e400" "schedule_to" --schedule --set output.schedule_to=1e400
bad "schedule_from >= schedule_to" "schedule_from = 20 s is not before schedule_to = 10" \
    --schedule --set output.schedule_from=20 --set output.schedule_to=10
bad "paje = dir/x.paje" "paje.*'/'" --set output.paje=dir/x.paje
bad "paje = run.txt" "paje.*ending in .paje" --set output.paje=run.txt
bad "--paje=a/b.paje" "^pnrsim: --paje=a/b.paje: " --paje=a/b.paje
bad "--paje=.paje" "no name before" --paje=.paje
bad "--schedule=zip" "^pnrsim: --schedule=zip: .*expected one of no, yes, gz" --schedule=zip
"$P" $MEM -q -o warn --set output.schedule_from=5 > /dev/null 2> warn.err
check "a window without --schedule or --paje: a warning that it has no effect" \
    grep -q 'schedule_from = 5 has no effect' warn.err

finish
