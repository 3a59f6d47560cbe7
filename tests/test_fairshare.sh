#!/bin/sh
# tests/test_fairshare.sh [BUILD]: MULTIFACTOR and the per-user limits
# from the command line (issue 35 item 5): SWF fields 12 (user) and 13
# (group) reach the scheduler, a limit's delay shows in jobs.csv's reason
# and metrics.json's jobs_limit_delayed, and the defaults add nothing.
#
# Trace L on 4 PEs (run times as CPU demand, no memory, no messages),
# FCFS, strict order, no backfilling, MPL 1, max_running_per_user = 1:
#   job 1: user 1, 1 PE, 100 s, submit 0   -> [0, 100)
#   job 2: user 1, 1 PE, 50 s, submit 0    -> held (user 1 runs job 1):
#                                             [100, 150), limit:running_per_user
#   job 3: user 2, 1 PE, 30 s, submit 10   -> [10, 40) (job 2 blocks nothing)
#   job 4: user 2, 1 PE, 10 s, submit 20   -> held by job 3: [40, 50)
# Without the limit: job 2 [0, 50), job 4 [20, 30), reasons empty.
# Trace F on 1 PE, priority MULTIFACTOR with weight_fairshare = 1 only and
# no decay (fairshare_half_life = 0):
#   job 1: user 1, 100 s at 0 -> [0, 100)
#   job 2: user 1, 10 s at 1; job 3: user 2, 10 s at 2
#   at 100: usage 100 core-s for user 1, 0 for user 2, 2 users: F_1 =
#   2^(-(100/100) x 2) = 0.25, F_2 = 2^0 = 1: job 3 [100, 110), job 2
#   [110, 120) (FCFS: job 2 first). With fairshare_by = group and both
#   users in group 7, one account: F = 2^(-1) for both, ties by trace
#   order: job 2 first, as FCFS.
TEST_NAME=test_fairshare
. "$(dirname "$0")/lib.sh"
need "$P"

# job submit wait run procs cpu mem rprocs rtime rmem status user group app queue part prec think
cat > L.swf <<'SWF'
1 0 -1 100 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1
2 0 -1 50 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1
3 10 -1 30 1 -1 -1 1 -1 -1 1 2 2 -1 -1 -1 -1 -1
4 20 -1 10 1 -1 -1 1 -1 -1 1 2 2 -1 -1 -1 -1 -1
SWF
cat > F.swf <<'SWF'
1 0 -1 100 1 -1 -1 1 -1 -1 1 1 7 -1 -1 -1 -1 -1
2 1 -1 10 1 -1 -1 1 -1 -1 1 1 7 -1 -1 -1 -1 -1
3 2 -1 10 1 -1 -1 1 -1 -1 1 2 7 -1 -1 -1 -1 -1
SWF
BASE="-c $DEFAULT -q --set workload.cpu_demand=runtime --set workload.memory_scale=0
      --set process.comm_rate=0 --set process.sync_rate=0 --set scheduler.mpl=1
      --set scheduler.strict_order=yes --set scheduler.backfill=none"
se() { printf '%s,%s' "$(jobf "$1" "$2" start)" "$(jobf "$1" "$2" end)"; }

# shellcheck disable=SC2086 # $BASE: options split on blanks
"$P" $BASE -t L.swf --set computer.number=4 --set scheduler.max_running_per_user=1 -o lim \
    > lim.out 2> lim.err
check "limit: exit 0, stderr empty" test $? -eq 0 -a ! -s lim.err
J=lim/jobs.csv
check "limit: job 1 [0, 100), reason empty" test "$(se $J 1),$(jobf $J 1 reason)" = "0,100,"
check "limit: job 2 held until job 1 ends: [100, 150), limit:running_per_user" \
    test "$(se $J 2),$(jobf $J 2 reason)" = "100,150,limit:running_per_user"
check "limit: job 3 [10, 40), not blocked by the held job 2" \
    test "$(se $J 3),$(jobf $J 3 reason)" = "10,40,"
check "limit: job 4 held by job 3: [40, 50), limit:running_per_user" \
    test "$(se $J 4),$(jobf $J 4 reason)" = "40,50,limit:running_per_user"
check "limit: metrics.json jobs_limit_delayed = 2" test "$(jval lim/metrics.json jobs_limit_delayed)" = 2

# shellcheck disable=SC2086
"$P" $BASE -t L.swf --set computer.number=4 -o free > free.out 2> free.err
J=free/jobs.csv
check "no limit: job 2 [0, 50), job 4 [20, 30), reasons empty" \
    test "$(se $J 2),$(jobf $J 2 reason),$(se $J 4),$(jobf $J 4 reason)" = "0,50,,20,30,"
check "no limit: no jobs_limit_delayed in metrics.json" \
    test -z "$(grep jobs_limit_delayed free/metrics.json)"

# shellcheck disable=SC2086
"$P" $BASE -t L.swf --set computer.number=4 --set scheduler.max_cores_per_user=1 -o cores \
    > cores.out 2> cores.err
J=cores/jobs.csv
check "max_cores_per_user = 1: the same schedule, reason limit:cores_per_user" \
    test "$(se $J 2),$(jobf $J 2 reason),$(se $J 4),$(jobf $J 4 reason)" = "100,150,limit:cores_per_user,40,50,limit:cores_per_user"

MF="--set computer.number=1 --set scheduler.priority=MULTIFACTOR --set scheduler.weight_fairshare=1
    --set scheduler.fairshare_half_life=0"
# shellcheck disable=SC2086
"$P" $BASE -t F.swf $MF -o mf > mf.out 2> mf.err
check "MULTIFACTOR: exit 0, stderr empty" test $? -eq 0 -a ! -s mf.err
J=mf/jobs.csv
check "MULTIFACTOR: user 2's job 3 before user 1's job 2: [100, 110), [110, 120)" \
    test "$(se $J 3),$(se $J 2)" = "100,110,110,120"
# shellcheck disable=SC2086
"$P" $BASE -t F.swf $MF --set scheduler.fairshare_by=group -o mfg > mfg.out 2> mfg.err
J=mfg/jobs.csv
check "MULTIFACTOR by group (one group): trace order, job 2 [100, 110), job 3 [110, 120)" \
    test "$(se $J 2),$(se $J 3)" = "100,110,110,120"
# shellcheck disable=SC2086
"$P" $BASE -t F.swf --set computer.number=1 -o fcfs > fcfs.out 2> fcfs.err
J=fcfs/jobs.csv
check "FCFS: job 2 [100, 110), job 3 [110, 120)" test "$(se $J 2),$(se $J 3)" = "100,110,110,120"

# A limit that never binds gives the default's schedule: the keyed pass it
# switches to (held jobs skipped) agrees with the width buckets of FCFS,
# here on the default scenario's paging slice (MPL 2, memory), strict order
# and not.
for so in yes no; do
    # shellcheck disable=SC2086
    "$P" -c "$DEFAULT" -q $SLICE --set scheduler.strict_order=$so -o "d$so" > /dev/null 2>&1
    # shellcheck disable=SC2086
    "$P" -c "$DEFAULT" -q $SLICE --set scheduler.strict_order=$so \
        --set scheduler.max_running_per_user=1000000 --set scheduler.max_cores_per_user=100000000 \
        -o "n$so" > /dev/null 2>&1
    check "strict_order = $so: limits that never bind: jobs.csv byte-identical to no limit" \
        cmp -s "d$so/jobs.csv" "n$so/jobs.csv"
    check "strict_order = $so: jobs_limit_delayed = 0" test "$(jval "n$so/metrics.json" jobs_limit_delayed)" = 0
done

# Warnings and refusals.
# shellcheck disable=SC2086
"$P" $BASE -t F.swf --set computer.number=1 --set scheduler.weight_age=5 -o w1 > w1.out 2> w1.err
check "weight_age without MULTIFACTOR: 'has no effect'" grep -q "weight_age = 5 has no effect" w1.err
# shellcheck disable=SC2086
"$P" $BASE -t F.swf --set computer.number=1 --set scheduler.priority=MULTIFACTOR -o w2 > w2.out 2> w2.err
check "MULTIFACTOR with every weight 0: a warning (FCFS)" grep -q "every weight 0" w2.err
# shellcheck disable=SC2086
"$P" $BASE -t F.swf --set computer.number=1 --set scheduler.priority=MULTIFACTOR \
    --set scheduler.weight_age=1 --set scheduler.fairshare_by=group -o w3 > w3.out 2> w3.err
check "fairshare_by with weight_fairshare 0: 'has no effect'" grep -q "fairshare_by = group has no effect" w3.err
# shellcheck disable=SC2086
"$P" $BASE -t F.swf --set scheduler.max_running_per_user=-1 -o bad > bad.out 2> bad.err
rc=$?
check "max_running_per_user = -1: exit 2" test $rc -eq 2
check "max_running_per_user = -1: the message names the key" grep -q max_running_per_user bad.err
# shellcheck disable=SC2086
"$P" $BASE -t F.swf --set scheduler.fairshare_by=account -o bad2 > bad2.out 2> bad2.err
rc=$?
check "fairshare_by = account: exit 2" test $rc -eq 2
check "fairshare_by = account: the message names the key and user | group" grep -q "fairshare_by.*user" bad2.err

finish
