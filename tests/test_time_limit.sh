#!/bin/sh
# tests/test_time_limit.sh BUILD: time limits (issue 35 item 1,
# scheduler.time_limit = KILL, workload.limit_factor; sched/job_limit.h).
# Every figure below is worked out by hand from the scenario, not read
# back from a run:
#
# 1. Paging past the request. One PE of 32 MB; job 1: one thread of 40 MB
#    (8 MB beyond RAM: it pages from its first fault to its end), 2 s of
#    CPU, requested 10 s; job 2 at t = 100: one thread, 1 s, no memory,
#    requested 5 s (a job that finishes, so the run has means).
#    IGNORE: job 1 finishes, later than its request (paging stretches its
#    2 s of CPU past 10 s: checked as end > 10).
#    KILL, limit_factor 1: its run clock (MPL 1: never descheduled, no
#    PCS at a first start) reaches 1 x 10 s at t = 0 + 10 = 10: end 10,
#    state killed, reason time_limit, lost_core_seconds = 1 core x 10 s
#    = 10. The thread only computes or pages, so the CPU it did plus its
#    fault time is its 10 s: cpu_cut_seconds + fault_time = 10, and
#    killed_cpu_seconds = cpu_cut_seconds (its only thread was cut).
#    CPU busy = job 2's 1 s + job 1's cut CPU: cpu_busy_total =
#    cpu_demand_done (1) + cpu_cut_seconds. jobs_killed 1; jobs_finished 1.
#    KILL, limit_factor 2: the limit is 20 s > its IGNORE run (checked:
#    IGNORE end < 20), so it survives: finished, at the same end as under
#    IGNORE (a job that never reaches its limit runs exactly as without).
# 2. Compute only, exact. Job 3: one thread, 4 s of CPU, no memory,
#    requested 3 s, submitted at 0 on one PE. KILL: killed at 0 + 3 = 3
#    having done 3 s of CPU (killed_cpu_seconds 3, lost_core_seconds 3);
#    limit_factor 2: limit 6 > 4, it finishes at 4.
#    Job 5 (3 s of CPU, requested 3 s, at t = 60) ends exactly at its
#    limit: the kill comes after the instant's model events, so it
#    finishes at 63. Job 6 (20 s of CPU at 70, no requested time) has no
#    limit: finished at 90, and jobs_without_limit = 1.
# 3. Gang slicing is not counted. One PE, MPL 2, quantum 1 s, pcs 0.
#    Job A (4 s CPU, requested 3 s) and job B (10 s CPU, requested 100 s)
#    both at t = 0, one slot each: A runs [0,1], B [1,2], A [2,3], B [3,4],
#    A [4,5]: A's run clock reaches 3 s at t = 5 (not 3): killed, end 5,
#    execution 5, lost_core_seconds 1 x 3 = 3, CPU done 3. B has done 2 s
#    by t = 5 and runs alone from then: 8 s more, it ends at 13.
# 4. Conservation on the default scenario's slice (HPC2N, 900 MB threads
#    on 2 slots; every job ends): with limit_factor 0.5, cpu_busy_total =
#    cpu_demand_done + cpu_cut_seconds; the killed rows of jobs.csv are
#    jobs_killed and their lost_core_seconds sum to killed_core_seconds;
#    at MPL 1 (nothing descheduled) every killed job's execution is
#    0.5 x its requested time and its lost_core_seconds threads x that. The
#    same with network RAM (MESSAGES, RDMA), batched paging, an SSD, and
#    messages with barriers (killed in flight: every mode runs).
# 5. Configuration: limit_factor 0 or a bad name exit 2 naming the key;
#    limit_factor without KILL warns "has no effect".
TEST_NAME=test_time_limit
. "$(dirname "$0")/lib.sh"    # top, build, P, check, finish, T, jval, jobf, near

# jobf gives one field of a job's row by column name.
end_of() { jobf "$1/jobs.csv" "$2" end; }
state_of() { jobf "$1/jobs.csv" "$2" state; }

# ---- 1. paging past the request ---------------------------------------------
printf '1 0 0 2 1 2 40960 1 10 -1 1 1 1 1 1 1 -1 -1\n2 100 0 1 1 1 -1 1 5 -1 1 1 1 1 1 1 -1 -1\n' > pg.swf
ONE="-q -t pg.swf -s 7 --set computer.number=1 --set computer.ram=32"
"$P" $ONE -o ign > /dev/null 2>&1
"$P" $ONE --set scheduler.time_limit=KILL -o k1 > /dev/null 2>&1
"$P" $ONE --set scheduler.time_limit=KILL --set workload.limit_factor=2 -o k2 > /dev/null 2>&1
e=$(end_of ign 1)
check "IGNORE: job 1 finishes ($(state_of ign 1)) after its request of 10 s (end $e)" \
    awk -v e="$e" -v s="$(state_of ign 1)" 'BEGIN { exit !(s == "finished" && e > 10) }'
check "IGNORE: no kill metric, no lost_core_seconds column" \
    eval "! grep -q jobs_killed ign/metrics.json && ! head -1 ign/jobs.csv | grep -q lost_core"
check "KILL: job 1 killed at 0 + 1 x 10 = 10 (end $(end_of k1 1), $(state_of k1 1))" \
    eval "near '$(end_of k1 1)' 10 && [ '$(state_of k1 1)' = killed ] && [ '$(jobf k1/jobs.csv 1 reason)' = time_limit ]"
check "KILL: lost_core_seconds = 1 x 10 = 10 ($(jobf k1/jobs.csv 1 lost_core_seconds))" \
    near "$(jobf k1/jobs.csv 1 lost_core_seconds)" 10
cut1=$(jval k1/metrics.json cpu_cut_seconds)
ft1=$(jobf k1/jobs.csv 1 fault_time)
check "KILL: CPU done + fault time = 10 ($cut1 + $ft1)" \
    near "$(awk -v a="$cut1" -v b="$ft1" 'BEGIN { printf "%.17g", a + b }')" 10
check "KILL: killed_cpu_seconds = cpu_cut_seconds ($(jval k1/metrics.json killed_cpu_seconds))" \
    near "$(jval k1/metrics.json killed_cpu_seconds)" "$cut1"
check "KILL: cpu_busy_total = 1 + cpu_cut_seconds" \
    near "$(jval k1/metrics.json cpu_busy_total)" "$(awk -v a="$cut1" 'BEGIN { printf "%.17g", 1 + a }')"
check "KILL: jobs_killed 1, jobs_finished 1, killed_core_seconds 10, jobs_unfinished 0" \
    eval "[ '$(jval k1/metrics.json jobs_killed)' = 1 ] && [ '$(jval k1/metrics.json jobs_finished)' = 1 ] && near '$(jval k1/metrics.json killed_core_seconds)' 10 && [ '$(jval k1/metrics.json jobs_unfinished)' = 0 ]"
check "KILL: job 2 (1 s, requested 5 s) finishes at 101 ($(end_of k1 2))" \
    eval "near '$(end_of k1 2)' 101 && [ '$(state_of k1 2)' = finished ]"
check "IGNORE's run fits limit_factor 2's 20 s (end $e < 20)" awk -v e="$e" 'BEGIN { exit !(e < 20) }'
check "limit_factor 2: job 1 survives, finished at IGNORE's end ($(end_of k2 1) = $e)" \
    eval "[ '$(state_of k2 1)' = finished ] && [ '$(end_of k2 1)' = '$e' ] && [ '$(jval k2/metrics.json jobs_killed)' = 0 ]"

# Network RAM: the same job on 2 PEs of 32 MB, the second lending (every
# fault remote), requested 3 s: killed at its limit, its thread ending when
# the remote fault in flight at 3 s is over, one page's round trip later
# (under 10 ms: a page of 4096 B at 12.5 MB/s is 0.33 ms each way).
"$P" -q -t pg.swf -s 7 --set computer.number=2 --set computer.ram=32 --set netram.enabled=yes \
    --set scheduler.time_limit=KILL --set workload.limit_factor=0.3 -o nr > /dev/null 2>&1
check "network RAM: killed at 0.3 x 10 = 3 s, ending within a fault's round trip ($(end_of nr 1))" \
    eval "[ '$(state_of nr 1)' = killed ] && awk -v e='$(end_of nr 1)' 'BEGIN { exit !(e >= 3 && e < 3.01) }'"

# The run stops (max_time 3) while the killed job's last remote fault is
# still in flight (access latency 0.5 s): it has not ended, so its row is
# running, its reason time_limit (reached), no lost_core_seconds, and it is
# not counted killed but unfinished (rows and metrics agree).
"$P" -q -t pg.swf -s 7 --set computer.number=2 --set computer.ram=32 --set netram.enabled=yes \
    --set netram.access_latency=0.5 --set scheduler.time_limit=KILL --set workload.limit_factor=0.3 \
    --set simulation.max_time=3 -o nrcut > /dev/null 2>&1
check "cut while ending: row running, reason time_limit, lost empty; jobs_killed 0, jobs_unfinished 1" \
    eval "[ '$(state_of nrcut 1)' = running ] && [ '$(jobf nrcut/jobs.csv 1 reason)' = time_limit ] && [ -z '$(jobf nrcut/jobs.csv 1 lost_core_seconds)' ] && [ '$(jval nrcut/metrics.json jobs_killed)' = 0 ] && [ '$(jval nrcut/metrics.json jobs_unfinished)' = 1 ]"

# Held by a per-user limit, then killed: both reasons, the limit's first.
# User 7's job 2 (requested 5 s) waits for job 1 (30 s) to end at 30, then
# runs 5 s of its 10 s: killed at 35.
printf '1 0 0 30 1 30 -1 1 30 -1 1 7 1 1 1 1 -1 -1\n2 5 0 10 1 10 -1 1 5 -1 1 7 1 1 1 1 -1 -1\n' > lim.swf
"$P" -q -t lim.swf --set computer.number=4 --set scheduler.max_running_per_user=1 \
    --set scheduler.time_limit=KILL -o lk > /dev/null 2>&1
check "held, then killed at 35 ($(end_of lk 2)): reason limit:running_per_user;time_limit ($(jobf lk/jobs.csv 2 reason))" \
    eval "near '$(end_of lk 2)' 35 && [ '$(state_of lk 2)' = killed ] && [ '$(jobf lk/jobs.csv 2 reason)' = 'limit:running_per_user;time_limit' ]"

# ---- 2. compute only ------------------------------------------------------------
printf '3 0 0 4 1 4 -1 1 3 -1 1 1 1 1 1 1 -1 -1\n4 50 0 1 1 1 -1 1 5 -1 1 1 1 1 1 1 -1 -1\n5 60 0 3 1 3 -1 1 3 -1 1 1 1 1 1 1 -1 -1\n6 70 0 20 1 20 -1 1 -1 -1 1 1 1 1 1 1 -1 -1\n' > cpu.swf
C="-q -t cpu.swf --set computer.number=1 --set scheduler.time_limit=KILL"
"$P" $C -o c1 > /dev/null 2>&1
"$P" $C --set workload.limit_factor=2 -o c2 > /dev/null 2>&1
check "compute only: killed at 3 with 3 s of CPU done and 3 core-seconds lost" \
    eval "near '$(end_of c1 3)' 3 && [ '$(state_of c1 3)' = killed ] && near '$(jval c1/metrics.json killed_cpu_seconds)' 3 && near '$(jobf c1/jobs.csv 3 lost_core_seconds)' 3"
check "compute only, limit_factor 2 (6 s > 4 s): finished at 4" \
    eval "near '$(end_of c2 3)' 4 && [ '$(state_of c2 3)' = finished ]"
check "a job ending exactly at its limit (3 s of CPU, requested 3 s, at 60) finishes at 63" \
    eval "near '$(end_of c1 5)' 63 && [ '$(state_of c1 5)' = finished ]"
check "no requested time: never killed (20 s from 70: finished at 90), counted in jobs_without_limit = 1" \
    eval "near '$(end_of c1 6)' 90 && [ '$(state_of c1 6)' = finished ] && [ '$(jval c1/metrics.json jobs_without_limit)' = 1 ]"

# Node speed (computer.speed): the clock and the limit are wall seconds,
# the CPU done is work at the trace's speed. Job 20 (4 s of work,
# requested 1.5 s) on a node of speed 2 would end at 4 / 2 = 2 s: killed
# at 1.5 with 1.5 x 2 = 3 s of work done and 1 x 1.5 = 1.5 core-seconds
# lost. Job 21 (1 s, requested 10) at 10 ends at 10.5, 1 s of work.
# cpu_lost_share = killed work / all work = 3 / (1 + 3) = 0.75.
printf '20 0 0 4 1 4 -1 1 1.5 -1 1 1 1 1 1 1 -1 -1\n21 10 0 1 1 1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n' > spd.swf
"$P" -q -t spd.swf --set computer.number=1 --set computer.speed=2 \
    --set scheduler.time_limit=KILL -o sp > /dev/null 2>&1
check "speed 2: killed at 1.5 with 3 s of work and 1.5 core-seconds lost ($(end_of sp 20), $(jval sp/metrics.json killed_cpu_seconds), $(jobf sp/jobs.csv 20 lost_core_seconds))" \
    eval "near '$(end_of sp 20)' 1.5 && [ '$(state_of sp 20)' = killed ] && near '$(jval sp/metrics.json killed_cpu_seconds)' 3 && near '$(jobf sp/jobs.csv 20 lost_core_seconds)' 1.5"
check "speed 2: job 21 ends at 10.5; cpu_lost_share = 3 / (1 + 3) = 0.75 ($(jval sp/metrics.json cpu_lost_share))" \
    eval "near '$(end_of sp 21)' 10.5 && near '$(jval sp/metrics.json cpu_lost_share)' 0.75"

# With the placement columns (scheduler.allocation not FIRSTFREE: racks,
# hops_mean) and cores (EXCLUSIVE), a killed row has every column of the
# header, as a finished one: one field count in the whole file.
"$P" -q -t cpu.swf --set computer.number=4 --set computer.cores_per_node=2 \
    --set scheduler.node_sharing=EXCLUSIVE --set scheduler.allocation=LOWEST \
    --set network.topology=TREE --set scheduler.time_limit=KILL -o pl > /dev/null 2>&1
check "KILL with placement columns: killed row present, every row has the header's $(head -1 pl/jobs.csv | awk -F, '{print NF}') fields" \
    eval "[ '$(state_of pl 3)' = killed ] && [ \"\$(awk -F, '{print NF}' pl/jobs.csv | sort -u | wc -l)\" = 1 ]"

# ---- 3. descheduled time is not counted -----------------------------------------------
printf '10 0 0 4 1 4 -1 1 3 -1 1 1 1 1 1 1 -1 -1\n11 0 0 10 1 10 -1 1 100 -1 1 1 1 1 1 1 -1 -1\n' > gang.swf
"$P" -q -t gang.swf --set computer.number=1 --set scheduler.mpl=2 --set scheduler.quantum=1 \
    --set scheduler.pcs=0 --set scheduler.time_limit=KILL -o g > /dev/null 2>&1
check "MPL 2: job A killed at t = 5, not 3 (end $(end_of g 10)), after 3 s of CPU" \
    eval "near '$(end_of g 10)' 5 && [ '$(state_of g 10)' = killed ] && near '$(jval g/metrics.json killed_cpu_seconds)' 3 && near '$(jobf g/jobs.csv 10 lost_core_seconds)' 3"
check "MPL 2: job B ends at 13 ($(end_of g 11))" \
    eval "near '$(end_of g 11)' 13 && [ '$(state_of g 11)' = finished ]"

# A quantum not exact in binary (0.3): job A's tenth slice ends at its
# limit, 3 s of run clock: [0, 0.3], [0.6, 0.9], ..., [5.4, 5.7]: killed at
# 5.7 = 2 x 3 - 0.3, not a round later (the slices' sum may fall an ulp
# short of 3: LIMIT_ROUNDING); B then runs alone: 100 + 3 = 103.
printf '10 0 0 100 1 100 -1 1 3 -1 1 1 1 1 1 1 -1 -1\n11 0 0 100 1 100 -1 1 1000 -1 1 1 1 1 1 1 -1 -1\n' > gq.swf
"$P" -q -t gq.swf --set computer.number=1 --set scheduler.mpl=2 --set scheduler.quantum=0.3 \
    --set scheduler.pcs=0 --set scheduler.time_limit=KILL -o gq > /dev/null 2>&1
check "quantum 0.3: A killed at the end of its tenth slice, 5.7 ($(end_of gq 10)); B ends at 103 ($(end_of gq 11))" \
    eval "near '$(end_of gq 10)' 5.7 && [ '$(state_of gq 10)' = killed ] && near '$(end_of gq 11)' 103"

# ---- 4. conservation ---------------------------------------------------------------------
K="-q -c $DEFAULT $SLICE --set scheduler.time_limit=KILL --set workload.limit_factor=0.5"
conserve() { # conserve DIR: the invariants of 4 on run DIR
    d=$1
    b=$(jval $d/metrics.json cpu_busy_total)
    s=$(awk -v a="$(jval $d/metrics.json cpu_demand_done)" -v c="$(jval $d/metrics.json cpu_cut_seconds)" 'BEGIN { printf "%.17g", a + c }')
    lc=$(col $d/jobs.csv lost_core_seconds)
    st=$(col $d/jobs.csv state)
    nk=$(awk -F, -v c="$st" 'NR > 1 && $c == "killed"' $d/jobs.csv | wc -l | tr -d ' ')
    sum=$(awk -F, -v c="$lc" 'NR > 1 { s += $c } END { printf "%.17g", s }' $d/jobs.csv)
    check "$d: cpu_busy_total $b = cpu_demand_done + cpu_cut_seconds $s" \
        awk -v a="$b" -v b="$s" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-9 * a) }'
    check "$d: $nk killed rows = jobs_killed, lost core-seconds sum to killed_core_seconds, all jobs ended" \
        eval "[ '$nk' = '$(jval $d/metrics.json jobs_killed)' ] && [ '$nk' -gt 0 ] && [ '$(jval $d/metrics.json jobs_unfinished)' = 0 ] && awk -v a='$sum' -v b='$(jval $d/metrics.json killed_core_seconds)' 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-9 * b) }'"
}
"$P" $K -o s2 > /dev/null 2>&1
conserve s2
for m in "mpl1 --set scheduler.mpl=1" "nr1 --set scheduler.mpl=1 --set netram.enabled=yes"; do
    set -- $m
    n=$1
    shift
    "$P" $K "$@" -o $n > /dev/null 2>&1
    conserve $n
    ex=$(col $n/jobs.csv execution)
    rq=$(col $n/jobs.csv requested_time)
    st=$(col $n/jobs.csv state)
    th=$(col $n/jobs.csv threads)
    lc=$(col $n/jobs.csv lost_core_seconds)
    check "$n: every killed job ran 0.5 x its request and lost threads x that" \
        awk -F, -v e="$ex" -v r="$rq" -v s="$st" -v t="$th" -v l="$lc" '
            NR > 1 && $s == "killed" { d = $e - 0.5 * $r; if (d < 0) d = -d; if (d > 1e-6) bad++
                                       d = $l - $t * 0.5 * $r; if (d < 0) d = -d; if (d > 1e-6) bad++ }
            END { exit bad > 0 }' $n/jobs.csv
done
for m in "nr --set netram.enabled=yes" "nrb --set netram.enabled=yes --set process.paging=BATCHED" \
         "bat --set process.paging=BATCHED" "ssd --set computer.swap=SSD --set computer.fault_cpu=0" \
         "rdma --set netram.enabled=yes --set netram.transport=RDMA" \
         "msg --set process.comm_rate=60 --set process.sync_rate=300 --set process.mem_release=JOB"; do
    set -- $m
    n=$1
    shift
    "$P" $K "$@" -o $n > /dev/null 2>&1
    check "$n: the run ends (exit 0)" test $? -eq 0
    conserve $n
done

# ---- 5. configuration ---------------------------------------------------------------------
"$P" -q -t pg.swf --set workload.limit_factor=0 -o e0 > /dev/null 2> e0.err
check "limit_factor = 0 refused (exit 2, names the key)" eval "[ $? -eq 2 ] && grep -q limit_factor e0.err"
"$P" -q -t pg.swf --set scheduler.time_limit=SOMETIMES -o e1 > /dev/null 2> e1.err
check "time_limit = SOMETIMES refused (exit 2, names the key)" eval "[ $? -eq 2 ] && grep -q time_limit e1.err"
"$P" -q -t pg.swf --set computer.number=1 --set computer.ram=32 --set workload.limit_factor=2 -o w > /dev/null 2> w.err
check "limit_factor without KILL: has no effect" grep -q 'limit_factor = 2 has no effect' w.err

# ---- the evalys export ----------------------------------------------------------------------
if $PY -c 'import pandas' 2>/dev/null; then
    PYTHONPATH=$top/python $PY -c '
import sys
from pnrsim.run import Run
from pnrsim.export import to_evalys
e = to_evalys(Run(sys.argv[1]))
r = e[e.job_id == 1].iloc[0]
assert r.final_state == "COMPLETED_WALLTIME_REACHED", r.final_state
assert r.success == 0 and abs(r.finish_time - 10) < 1e-9 and abs(r.execution_time - 10) < 1e-9
assert r.metadata == "killed:time_limit", r.metadata
' k1 > ev.out 2>&1
    check "evalys export: killed -> COMPLETED_WALLTIME_REACHED, finish 10$(head -c 300 ev.out)" test $? -eq 0
else
    skip "evalys export: pandas not installed"
fi
finish
