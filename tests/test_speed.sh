#!/bin/sh
# tests/test_speed.sh [BUILD]: computer.speed, nodes of different CPU
# speeds (issue 35 item 6; docs/MODEL.md "Nodes of different speeds"),
# through whole runs: the key and its groups, the one-process-per-job path
# of space sharing, nodes of several cores, the defaults unchanged, and the
# errors. The thread model's own figures are tests/test_speed.c's.
#
# A trace of four jobs on 4 PEs, run times as CPU demand, no memory, no
# messages, FCFS with strict order, no backfilling, MPL 1, speed
# "2x2.0, 2x1.0" (PEs 0-1 at 2, PEs 2-3 at 1), lowest PEs first (worked
# out by hand):
#   job 1: 2 PEs, 100 s, submit 0 -> PEs 0-1 at 0: 100 / 2 = 50 s, ends 50
#   job 2: 2 PEs, 100 s, submit 0 -> PEs 2-3 at 0: ends 100
#   job 3: 4 PEs, 100 s, submit 1 -> all PEs free at 100; its threads on
#          PEs 0-1 end at 150, those on 2-3 at 200: the job ends at 200
#          (the slowest node's pace)
#   job 4: 1 PE, 60 s, submit 2   -> behind job 3 (strict order): PE 0 at
#          200, 60 / 2 = 30 s, ends 230
# CPU busy (seconds held): 2x50 + 2x100 + (2x50 + 2x100) + 30 = 630 s;
# demand done (work, reference seconds): 200 + 200 + 400 + 60 = 860 s.
# Two nodes of 2 cores ("1x2.0, 1x1.0", the counts are nodes): the same
# trace gives the same times (jobs 1, 2 on one node each; 3 over both; 4
# on core 0 of node 0).
TEST_NAME=test_speed
. "$(dirname "$0")/lib.sh"

cat > sp.swf <<'EOF'
; four jobs for tests/test_speed.sh
1 0 -1 100 2 -1 -1 2 100 -1 1 1 1 -1 -1 -1 -1 -1
2 0 -1 100 2 -1 -1 2 100 -1 1 1 1 -1 -1 -1 -1 -1
3 1 -1 100 4 -1 -1 4 100 -1 1 1 1 -1 -1 -1 -1 -1
4 2 -1 60 1 -1 -1 1 100 -1 1 1 1 -1 -1 -1 -1 -1
EOF
BASE="-c $DEFAULT -q -t sp.swf --set computer.number=4 --set workload.cpu_demand=runtime
      --set workload.memory_scale=0 --set process.comm_rate=0 --set process.sync_rate=0
      --set scheduler.priority=fcfs --set scheduler.strict_order=yes
      --set scheduler.backfill=none --set scheduler.mpl=1"
jobtimes() { # job,start,end of every row of jobs.csv $1
    awk -F, 'NR > 1 {print $1 "," $3 "," $4}' "$1" | tr '\n' ' '
}
WANT="1,0,50 2,0,100 3,100,200 4,200,230 "

# shellcheck disable=SC2086 # $BASE: options split on blanks
"$P" $BASE --set "computer.speed=2x2.0, 2x1.0" -o g > /dev/null 2> g.err
check "groups: exit 0, stderr empty" test $? -eq 0 -a ! -s g.err
check "groups: 50, 100, 200 (slowest), 230 as worked out" test "$(jobtimes g/jobs.csv)" = "$WANT"
check "groups: cpu_busy_total 630 s held" test "$(jval g/metrics.json cpu_busy_total)" = 630
check "groups: cpu_demand_done 860 s of work" test "$(jval g/metrics.json cpu_demand_done)" = 860
check "groups: config.ini writes the groups back" grep -qx "speed = 2x2, 2x1" g/config.ini
# shellcheck disable=SC2086
"$P" -c g/config.ini -q -o g2 > /dev/null 2>&1
check "config.ini replays the groups" test "$(jobtimes g2/jobs.csv)" = "$WANT"

# shellcheck disable=SC2086
"$P" $BASE --set computer.cores_per_node=2 --set "computer.speed=1x2.0, 1x1.0" -o n \
    > /dev/null 2> n.err
check "nodes of 2 cores: groups count nodes, same times" \
    test "$(jobtimes n/jobs.csv)" = "$WANT"

# One speed for every node: every time halves (MPL 1 and MPL 2).
# shellcheck disable=SC2086
"$P" $BASE --set computer.speed=2 -o a > /dev/null 2>&1
check "speed 2 everywhere: 50, 50, 100..150, 150..180" \
    test "$(jobtimes a/jobs.csv)" = "1,0,50 2,0,50 3,50,100 4,100,130 "
# shellcheck disable=SC2086
"$P" $BASE --set computer.speed=0.5 -o h > /dev/null 2>&1
check "speed 0.5 everywhere: 200, 200, 200..400, 400..520" \
    test "$(jobtimes h/jobs.csv)" = "1,0,200 2,0,200 3,200,400 4,400,520 "

# The defaults: speed 1 written out, or as groups of 1, changes nothing,
# on the paging slice (gang scheduling at MPL 2, disk paging, messages).
# shellcheck disable=SC2086 # $SLICE: options split on blanks, here and below
"$P" -c "$DEFAULT" $SLICE -q -o d0 > /dev/null 2>&1
# shellcheck disable=SC2086
"$P" -c "$DEFAULT" $SLICE -q -o d1 --set computer.speed=1 > /dev/null 2>&1
n=$(sed -n 's/^number = //p' d0/config.ini)
# shellcheck disable=SC2086
"$P" -c "$DEFAULT" $SLICE -q -o d3 --set "computer.speed=1x1.0, $((n - 1))x1" > /dev/null 2>&1
check "speed = 1 written out: byte-identical" rsame d0 d1 jobs.csv samples.csv metrics.json
check "speed = 1x1.0, $((n - 1))x1 (groups of 1): byte-identical" \
    rsame d0 d3 jobs.csv samples.csv metrics.json
# Conservation on the paging slice (gang scheduling at MPL 2, disk
# paging, messages), PEs 0-119 at 1 and 120-239 at 2: the CPU busy time
# of the run is the sum over finished jobs' threads of demand / speed of
# the thread's PE (jobs.csv's pes), exactly as held; the demand done is
# the work, as at speed 1; exact and batched paging.
held() { # the sum of demand / speed over the finished rows of jobs.csv $1
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
        $h["state"] == "finished" {
            n = split($h["pes"], r, " "); d = $h["cpu_demand"]
            for (k = 1; k <= n; k++) {
                m = split(r[k], ab, "-"); b = m > 1 ? ab[2] : ab[1]
                for (p = ab[1]; p <= b; p++) t += p < 120 ? d : d / 2
            }
        }
        END { printf "%.12g", t }' "$1"
}
for mode in EXACT BATCHED; do
    # shellcheck disable=SC2086
    "$P" -c "$DEFAULT" $SLICE -q -o c$mode --set process.paging=$mode \
        --set "computer.speed=120x1.0, 120x2.0" > /dev/null 2>&1
    check "$mode slice: all 100 jobs finish" test "$(jval c$mode/metrics.json jobs_finished)" = 100
    check "$mode slice: cpu_busy_total = sum of demand / speed ($(held c$mode/jobs.csv))" \
        near "$(jval c$mode/metrics.json cpu_busy_total)" "$(held c$mode/jobs.csv)"
    check "$mode slice: cpu_demand_done as at speed 1" \
        test "$(jval c$mode/metrics.json cpu_demand_done)" = "$(jval d0/metrics.json cpu_demand_done)"
done

# Paging on a fast node, whole runs: one job of 100 s, 65 MB on one PE of
# 64 MB, no messages, the same seed. Faults are drawn per unit of work, so
# at speed 2 the job faults as often, at the same points of its demand, for
# the same service time (the disk does not scale); alone it never queues,
# so end = 100 / speed + fault_time: end(1) - end(2) = 50 exactly, and the
# fault counts and fault times are equal. The same in batched paging.
printf '1 0 -1 100 1 100 66560 1 -1 -1 1 1 1 1 1 1 -1 -1\n' > pg.swf
PG="-q -t pg.swf --set computer.number=1 --set computer.ram=64 --set process.comm_rate=0
    --set process.sync_rate=0"
plus() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.12g", a + b }'; }
for mode in EXACT BATCHED; do
    # shellcheck disable=SC2086 # $PG: options split on blanks
    "$P" $PG --set process.paging=$mode -o p1 > /dev/null 2>&1
    # shellcheck disable=SC2086
    "$P" $PG --set process.paging=$mode --set computer.speed=2 -o p2 > /dev/null 2>&1
    f1=$(jobf p1/jobs.csv 1 page_faults) f2=$(jobf p2/jobs.csv 1 page_faults)
    t1=$(jobf p1/jobs.csv 1 fault_time) t2=$(jobf p2/jobs.csv 1 fault_time)
    e1=$(jobf p1/jobs.csv 1 end) e2=$(jobf p2/jobs.csv 1 end)
    check "$mode: the job pages ($f1 faults)" test "${f1:-0}" -gt 100
    check "$mode: speed 2, the same faults ($f2) and fault time ($t2 s)" \
        test "$f2" = "$f1" -a "$t2" = "$t1"
    check "$mode: speed 1 ends at 100 + fault time ($e1 s)" near "$e1" "$(plus 100 "$t1")"
    check "$mode: speed 2 ends at 50 + fault time ($e2 s)" near "$e2" "$(plus 50 "$t2")"
done

# Errors: exit 2, naming the key and what is expected.
bad_value() { # bad_value NAME PATTERN ARGS...: exit 2 and stderr matching PATTERN
    b_name=$1 b_pat=$2
    shift 2
    # shellcheck disable=SC2086
    "$P" $BASE "$@" -o bad > /dev/null 2> bad.err
    b_rc=$?
    check "$b_name: exit 2" test "$b_rc" -eq 2
    check "$b_name: says why" grep -q -- "$b_pat" bad.err
}
bad_value "speed 0" "speed.*0.*out of range: expected a number >= 0.001 and <= 1000" --set computer.speed=0
bad_value "speed -1" "speed.*-1.*out of range" --set computer.speed=-1
bad_value "speed abc" "speed.*malformed number: expected a decimal number such as 1, or groups COUNTxSPEED" \
    --set computer.speed=abc
bad_value "group of speed 0" "speed.*group 2: 0 out of range: expected >= 0.001" \
    --set "computer.speed=2x2.0, 2x0"
bad_value "group of negative speed" "speed.*group 1: -2 out of range" --set "computer.speed=4x-2"
bad_value "malformed group" "speed.*malformed group 1: expected COUNTxSPEED such as 120x1.0" \
    --set "computer.speed=2x"
bad_value "counts short of number" "speed.*add up to 3 PEs, but \[computer\] number = 4" \
    --set "computer.speed=1x2.0, 2x1.0"
bad_value "counts are nodes with cores_per_node" \
    "speed.*add up to 4 nodes, but there are 2 nodes" \
    --set computer.cores_per_node=2 --set "computer.speed=2x2.0, 2x1.0"
bad_value "speed 0.0005 (below 0.001)" "speed.*out of range: expected a number >= 0.001" \
    --set computer.speed=0.0005
bad_value "a group of 1e-300" "speed.*group 1: 1e-300 out of range" --set "computer.speed=4x1e-300"
bad_value "count 0" "speed.*group 1: count 0: expected an integer >= 1" --set "computer.speed=0x2, 4x1"

finish
