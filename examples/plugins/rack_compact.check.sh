#!/bin/sh
# examples/plugins/rack_compact.check.sh PNRSIM RACK_COMPACT.so: the
# rack_compact example loaded out of tree ([plugins] load), by hand.
# Run it in an empty directory of its own: it writes its files there.
#
# A TREE of 4 racks x 4 nodes (16 PEs, one core each), MPL 1, neighbour
# messages every second of CPU. Job 1: 2 threads, 100 s; job 2: 4 threads,
# 10 s; both at t = 0, FCFS. Job 1 takes PEs 0-1 either way. Job 2:
#   FIRSTFREE:    PEs 2-5, racks 0 and 1: its messages cross uplinks;
#   RACK_COMPACT: free capacities 2, 4, 4, 4; the least rack that holds 4
#                 is rack 1 (ties lowest): PEs 4-7, one rack, no uplink.
# Racks spanned (metrics.json, RACK_COMPACT only): mean over the two jobs
# (1 + 1) / 2 = 1, max 1; uplink bytes 0. The uplinks' busy time (reported
# for every TREE run) is 0 under RACK_COMPACT and > 0 under FIRSTFREE.
# (FIRSTFREE is the default: unset, metrics.json has no racks members.)
set -u
P=$1 SO=$2
cat > t.swf <<'SWF'
1 0 0 100 2 100 -1 2 -1 -1 1 1 1 1 1 1 -1 -1
2 0 0 10 4 10 -1 4 -1 -1 1 1 1 1 1 1 -1 -1
SWF
fail=0
for a in FIRSTFREE RACK_COMPACT; do
    cat > $a.ini <<INI
[plugins]
load = $SO
[workload]
trace = t.swf
[computer]
number = 16
[process]
comm_rate = 1
[network]
topology = TREE
rack_size = 4
[scheduler]
$([ $a = FIRSTFREE ] || echo "allocation = $a")
INI
    "$P" -c $a.ini -o out-$a > run-$a.log 2>&1 || { echo "$a: pnrsim failed"; cat run-$a.log; fail=1; continue; }
    pes=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "pes") k = i; next } $1 == 2 { print $k }' out-$a/jobs.csv)
    up=$(sed -n 's/.*"net_busy_uplinks": *\([0-9.e+-]*\).*/\1/p' out-$a/metrics.json)
    if [ $a = FIRSTFREE ]; then
        [ "$pes" = 2-5 ] && echo "ok   $a: job 2 on PEs $pes" || { echo "FAIL $a: job 2 on PEs $pes, want 2-5"; fail=1; }
        awk -v u="$up" 'BEGIN { exit !(u > 0) }' && echo "ok   $a: uplinks busy $up s > 0" || { echo "FAIL $a: uplinks busy '$up'"; fail=1; }
        grep -q alloc_racks_spanned out-$a/metrics.json && { echo "FAIL $a: metrics.json has the racks members"; fail=1; }
    else
        [ "$pes" = 4-7 ] && echo "ok   $a: job 2 on PEs $pes" || { echo "FAIL $a: job 2 on PEs $pes, want 4-7"; fail=1; }
        awk -v u="$up" 'BEGIN { exit !(u == 0) }' && echo "ok   $a: uplinks busy $up s" || { echo "FAIL $a: uplinks busy '$up', want 0"; fail=1; }
        grep -q '"alloc_racks_spanned_mean": 1,' out-$a/metrics.json && grep -q '"alloc_racks_spanned_max": 1,' out-$a/metrics.json &&
            grep -q '"net_uplink_bytes": 0,' out-$a/metrics.json && echo "ok   $a: racks spanned mean 1, max 1, uplink bytes 0" ||
            { echo "FAIL $a: racks/uplink members"; grep -E 'alloc_racks|uplink' out-$a/metrics.json; fail=1; }
    fi
done

# Best fit and the spill, without messages: 4 racks x 4 PEs, MPL 1, four
# jobs of 100 s at t = 0 in order (FCFS):
#   J1 2 threads: every rack holds 4: the lowest, rack 0: PEs 0-1 (rack 0
#     keeps 2).
#   J2 3 threads: racks 1-3 hold it (4 each), rack 0 (2) not: rack 1,
#     PEs 4-6 (rack 1 keeps 1).
#   J3 1 thread: capacities 2, 1, 4, 4: the least that holds 1 is rack 1:
#     PE 7 (a first fit would give PE 2, a worst fit PE 8).
#   J4 6 threads: capacities 2, 0, 4, 4: no rack holds 6, so racks by
#     decreasing capacity, 2 then 3 (8 >= 6): PEs 8-13 (taking rack 0's 2
#     first would give 2-3,8-11).
# Racks spanned 1, 1, 1, 2: mean 1.25, max 2. LOWEST (FIRSTFREE's placement
# under the name that reports the racks, issue 35): 0-1, 2-4, 5, 6-11,
# racks spanned 1, 2, 1, 2: mean 1.5, max 2.
cat > f.swf <<'SWF'
1 0 0 100 2 100 -1 2 -1 -1 1 1 1 1 1 1 -1 -1
2 0 0 100 3 100 -1 3 -1 -1 1 1 1 1 1 1 -1 -1
3 0 0 100 1 100 -1 1 -1 -1 1 1 1 1 1 1 -1 -1
4 0 0 100 6 100 -1 6 -1 -1 1 1 1 1 1 1 -1 -1
SWF
for a in LOWEST RACK_COMPACT; do
    cat > fit-$a.ini <<INI
[plugins]
load = $SO
[workload]
trace = f.swf
[computer]
number = 16
[network]
topology = TREE
rack_size = 4
[scheduler]
allocation = $a
INI
    "$P" -c fit-$a.ini -q -o fit-$a > run-fit-$a.log 2>&1 || { echo "fit $a: pnrsim failed"; cat run-fit-$a.log; fail=1; continue; }
    got=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "pes") k = i; next } { printf "%s%s:%s", sep, $1, $k; sep = " " }' fit-$a/jobs.csv)
    if [ $a = LOWEST ]; then want="1:0-1 2:2-4 3:5 4:6-11" mean=1.5; else want="1:0-1 2:4-6 3:7 4:8-13" mean=1.25; fi
    [ "$got" = "$want" ] && echo "ok   fit $a: $got" || { echo "FAIL fit $a: $got, want $want"; fail=1; }
    grep -q "\"alloc_racks_spanned_mean\": $mean," fit-$a/metrics.json && grep -q '"alloc_racks_spanned_max": 2,' fit-$a/metrics.json &&
        echo "ok   fit $a: racks spanned mean $mean, max 2" ||
        { echo "FAIL fit $a: racks members"; grep -E 'alloc_racks' fit-$a/metrics.json; fail=1; }
done
exit $fail
