#!/bin/sh
# tests/test_busiest.sh BUILD: workload.busiest (issue 36 item 3): the
# trace's busiest window by offered load, worked by hand on a 5-job trace,
# written to config.ini as submit_min/submit_max, replayed from it; the
# window kept inside a given submit range; ties to the earliest; durations
# with units; errors. Offered load of [s, s + D] = sum of procs x runtime
# of the records submitted in it / (computer.number x D).
TEST_NAME=test_busiest
. "$(dirname "$0")/lib.sh"
need "$P"

# Work (procs x runtime) per job, submit times 0, 1000, 1500, 5000, 5500:
#   1: 1 x 100 = 100;  2: 2 x 500 = 1000;  3: 4 x 250 = 1000;
#   4: 1 x 3000 = 3000;  5: 8 x 10 = 80.
# D = 1000 s, windows start at a job's submit, both ends inclusive:
#   [0, 1000]: jobs 1, 2 = 1100;  [1000, 2000]: 2, 3 = 2000;
#   [1500, 2500]: 3 = 1000;  [5000, 6000]: 4, 5 = 3080 (the busiest);
#   [5500, 6500]: 5 = 80.
# Offered load on 8 PEs: 3080 / (8 x 1000) = 0.385.
cat > t.swf <<'SWF'
; MaxProcs: 8
1 0 -1 100 1 -1 -1 1 200 -1 1 1 1 -1 1 -1 -1 -1
2 1000 -1 500 2 -1 -1 2 600 -1 1 1 1 -1 1 -1 -1 -1
3 1500 -1 250 4 -1 -1 4 300 -1 1 1 1 -1 1 -1 -1 -1
4 5000 -1 3000 1 -1 -1 1 3600 -1 1 1 1 -1 1 -1 -1 -1
5 5500 -1 10 8 -1 -1 8 20 -1 1 1 1 -1 1 -1 -1 -1
SWF
RUN="$P -c $DEFAULT -t t.swf --set computer.number=8"
$RUN --set workload.busiest=1000 -o r1 > r1.out 2> r1.err
check "busiest 1000 s: runs" test $? -eq 0
check "busiest: submit_min = 5000 in config.ini" grep -q '^submit_min = 5000$' r1/config.ini
check "busiest: submit_max = 6000 in config.ini" grep -q '^submit_max = 6000$' r1/config.ini
check "busiest: config.ini says where they came from, load 0.3850" \
    test "$(grep -c '^; from workload.busiest = 1000 s: the busiest window \[5000, 6000\] s, offered load 0.3850$' r1/config.ini)" = 2
check "busiest: stderr names the window" grep -q 'window \[5000, 6000\] s of the trace, offered load 0.3850' r1.err
check "busiest: jobs 4 and 5 submitted" test "$(jval r1/metrics.json jobs_submitted)" = 2
# jobs.csv: jobs 1-3 dropped as outside the window; 4 and 5 finished,
# submit times relative to the window's first job (5000 -> 0, 5500 -> 500).
check "busiest: jobs 1-3 dropped (window), 4 and 5 at 0 and 500" \
    test "$(awk -F, 'NR > 1 { print $1 ":" $2 ":" $16 ":" $17 }' r1/jobs.csv | sort | tr '\n' ' ')" = "1::dropped:window 2::dropped:window 3::dropped:window 4:0:finished: 5:500:finished: "
# Replaying config.ini: the same window (searched again inside it), the same run.
$P -c r1/config.ini -o r2 > /dev/null 2>&1
check "replay from config.ini: runs" test $? -eq 0
check "replay: same submit_min/max" sh -c "grep -q '^submit_min = 5000$' r2/config.ini && grep -q '^submit_max = 6000$' r2/config.ini"
check "replay: metrics identical" rsame r1 r2

# Inside a range: submit_max = 4000 leaves [1000, 2000] (2000 / 8000 = 0.25).
$RUN --set workload.busiest=1000 --set workload.submit_max=4000 -o r3 > /dev/null 2> r3.err
check "inside submit_max 4000: [1000, 2000], load 0.2500" \
    sh -c "grep -q '^submit_min = 1000$' r3/config.ini && grep -q '^submit_max = 2000$' r3/config.ini && grep -q 'offered load 0.2500' r3.err"
# With a unit: 2h = 7200 s: [0, 7200] holds all five, 5180 / (8 x 7200).
$RUN --set workload.busiest=2h -o r4 > /dev/null 2> r4.err
check "busiest 2h: [0, 7200], load 0.0899" \
    sh -c "grep -q '^submit_min = 0$' r4/config.ini && grep -q '^submit_max = 7200$' r4/config.ini && grep -q 'offered load 0.0899' r4.err"
# A tie: D = 500: [1000, 1500] = 2000 and nothing else reaches it
# ([1500, 2000] = 1000, [5000, 5500] = 3080 -> the largest). Equal loads:
# two identical jobs 10000 s apart, D = 100: both windows 50 -> the earlier.
printf '1 0 -1 50 1 -1 -1 1 60 -1 1 1 1 -1 1 -1 -1 -1\n2 10000 -1 50 1 -1 -1 1 60 -1 1 1 1 -1 1 -1 -1 -1\n' > tie.swf
$P -c "$DEFAULT" -t tie.swf --set computer.number=8 --set workload.busiest=100 -o r5 > /dev/null 2>&1
check "tie: the earlier window [0, 100]" sh -c "grep -q '^submit_min = 0$' r5/config.ini && grep -q '^submit_max = 100$' r5/config.ini"

# Errors: no job inside the range; out of submit order; default unchanged.
$RUN --set workload.busiest=1000 --set workload.submit_min=7000 -o r6 > /dev/null 2> r6.err
check "no job in range: exit 2" sh -c "test $? -eq 2 && grep -q 'no window of that length' r6.err"
printf '1 500 -1 50 1 -1 -1 1 60 -1 1 1 1 -1 1 -1 -1 -1\n2 100 -1 50 1 -1 -1 1 60 -1 1 1 1 -1 1 -1 -1 -1\n' > ooo.swf
$P -c "$DEFAULT" -t ooo.swf --set workload.busiest=100 -o r7 > /dev/null 2> r7.err
check "out of submit order: exit 2 naming line 2" sh -c "test $? -eq 2 && grep -q 'ooo.swf:2: workload.busiest' r7.err"
$P -c "$DEFAULT" -t - --set workload.busiest=1000 -o r10 < t.swf > /dev/null 2> r10.err
check "busiest on standard input: exit 2" sh -c "test $? -eq 2 && grep -q 'not standard input' r10.err"
$P -c "$DEFAULT" -t t.swf --set workload.busiest=-5 -o r8 > /dev/null 2> r8.err
check "busiest = -5: exit 2" test $? -eq 2
$RUN -o r9 > /dev/null 2>&1
check "busiest = 0 (default): every job" test "$(jval r9/metrics.json jobs_submitted)" = 5
finish
