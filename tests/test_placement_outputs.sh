#!/bin/sh
# tests/test_placement_outputs.sh BUILD: the placement figures of issue 35 in the
# outputs (docs/METRICS.md "Placement"), by hand.
#
# A TREE of 4 racks x 4 PEs (one core each; hops 3 within a rack, 7
# across), MPL 1, no memory, neighbour messages (comm_rate 1 s). Job 1:
# 2 threads, 100 s; job 2: 4 threads, 10 s; both at t = 0, FCFS.
#   LOWEST: job 1 on PEs 0-1 (rack 0: 1 rack, 1 pair, 3 hops: mean 3);
#     job 2 on 2-5 (racks 0 and 1: 2 racks; pairs (2,3) 3, (4,5) 3 and
#     4 pairs across 7: 34 / 6 = 5.66666666667). metrics.json:
#     alloc_hops_mean = (3 + 34/6) / 2 = 4.33333333333, racks spanned mean
#     1.5; its ring of messages crosses the uplinks (bytes > 0).
#   RACK: job 1 on 0-1 (every rack holds 2: the least is any, ties rack
#     0); job 2: capacities 2, 4, 4, 4: the least that holds 4 is rack 1:
#     PEs 4-7 (1 rack, 6 pairs of 3: mean 3); alloc_hops_mean 3, racks
#     1, uplink bytes 0.
#   FIRSTFREE (set or not): no placement columns, no alloc_* members.
# jobs.csv: `racks,hops_mean` after fault_time, before requested_time (pes
# stays last); a replay of each run's config.ini gives the same jobs.csv
# and metrics.json (the value decides, not where it was set).
# Prints "N passed, N failed" last; KEEP=1 keeps the temporary directory.

TEST_NAME=test_placement_outputs
. "$(dirname "$0")/lib.sh"

cat > t.swf <<'SWF'
1 0 0 100 2 100 -1 2 -1 -1 1 1 1 1 1 1 -1 -1
2 0 0 10 4 10 -1 4 -1 -1 1 1 1 1 1 1 -1 -1
SWF
BASE="-t t.swf --set computer.number=16 --set network.topology=TREE --set network.rack_size=4 --set process.comm_rate=1"
for a in LOWEST RACK FIRSTFREE; do
    # shellcheck disable=SC2086
    "$P" $BASE --set scheduler.allocation=$a -q -o out-$a > /dev/null 2> err-$a.txt
    check "$a: runs (exit 0)" test $? -eq 0
done
# shellcheck disable=SC2086
"$P" $BASE -q -o out-unset > /dev/null 2>&1
hdr="job,submit,start,end,threads,wait,response,execution,slowdown,bounded_slowdown,cpu_demand,memory_mb,page_faults,fault_time"
check "LOWEST: jobs.csv header has racks,hops_mean before requested_time" \
    test "$(head -1 out-LOWEST/jobs.csv)" = "$hdr,racks,hops_mean,requested_time,state,reason,slot,pes,bounded_slowdown_dedicated"
check "FIRSTFREE set: jobs.csv header unchanged" \
    test "$(head -1 out-FIRSTFREE/jobs.csv)" = "$hdr,requested_time,state,reason,slot,pes,bounded_slowdown_dedicated"
check "FIRSTFREE set: jobs.csv and metrics.json as unset" rsame out-FIRSTFREE out-unset jobs.csv metrics.json
check "FIRSTFREE: no placement members in metrics.json" sh -c '! grep -Eq "\"(alloc_racks|alloc_hops|net_uplink_bytes)" out-FIRSTFREE/metrics.json'
# (pes is the last column but one: bounded_slowdown_dedicated is last)
row() { awk -F, -v j="$2" '$1 == j { print $15 "|" $16 "|" $(NF - 1) }' "$1/jobs.csv"; }
check "LOWEST job 1: 1 rack, 3 hops, PEs 0-1" test "$(row out-LOWEST 1)" = "1|3|0-1"
check "LOWEST job 2: 2 racks, 34/6 hops, PEs 2-5" test "$(row out-LOWEST 2)" = "2|5.66666666667|2-5"
check "RACK job 1: 1 rack, 3 hops, PEs 0-1" test "$(row out-RACK 1)" = "1|3|0-1"
check "RACK job 2: 1 rack, 3 hops, PEs 4-7" test "$(row out-RACK 2)" = "1|3|4-7"
check "LOWEST: alloc_hops_mean (3 + 34/6) / 2" near "$(jval out-LOWEST/metrics.json alloc_hops_mean)" 4.333333333333
check "LOWEST: alloc_racks_spanned_mean 1.5" near "$(jval out-LOWEST/metrics.json alloc_racks_spanned_mean)" 1.5
check "LOWEST: uplink bytes > 0" awk -v u="$(jval out-LOWEST/metrics.json net_uplink_bytes)" 'BEGIN { exit !(u > 0) }'
check "RACK: alloc_hops_mean 3" near "$(jval out-RACK/metrics.json alloc_hops_mean)" 3
check "RACK: alloc_racks_spanned_mean 1" near "$(jval out-RACK/metrics.json alloc_racks_spanned_mean)" 1
check "RACK: uplink bytes 0" near "$(jval out-RACK/metrics.json net_uplink_bytes)" 0
# The split of the uplink bytes (METRICS.md "Placement"): network RAM is
# off here, so every uplink byte is the ring's messages'.
check "LOWEST: uplink bytes = messages' (> 0), network RAM's 0" \
    eval "near '$(jval out-LOWEST/metrics.json net_uplink_bytes_messages)' '$(jval out-LOWEST/metrics.json net_uplink_bytes)' && near '$(jval out-LOWEST/metrics.json net_uplink_bytes_netram)' 0"
# No messages, network RAM on: a 4-thread job of 40 MB per thread on
# rack 0's four 32 MB PEs (LOWEST) pages to lenders, all in other racks:
# every uplink byte is network RAM's, and there are some.
printf '1 0 0 20 4 20 40960 4 -1 -1 1 1 1 1 1 1 -1 -1\n' > nr.swf
"$P" -t nr.swf --set computer.number=16 --set network.topology=TREE --set network.rack_size=4 \
    --set computer.ram=32 --set netram.enabled=yes --set process.comm_rate=0 \
    --set process.sync_rate=0 --set scheduler.allocation=LOWEST -s 3 -q -o out-nr > /dev/null 2>&1
check "network RAM only: uplink bytes = network RAM's (> 0), messages' 0" \
    eval "near '$(jval out-nr/metrics.json net_uplink_bytes_netram)' '$(jval out-nr/metrics.json net_uplink_bytes)' && near '$(jval out-nr/metrics.json net_uplink_bytes_messages)' 0 && awk -v u='$(jval out-nr/metrics.json net_uplink_bytes)' 'BEGIN { exit !(u > 0) }'"
for a in LOWEST RACK FIRSTFREE; do
    "$P" -c out-$a/config.ini -q -o replay-$a > /dev/null 2>&1
    check "$a: config.ini replays (jobs.csv, metrics.json the same)" rsame out-$a replay-$a jobs.csv metrics.json
done
finish
