#!/bin/sh
# tests/test_slowdown_dedicated.sh BUILD: the bounded slowdown over the
# dedicated run time (issue 37 item 1; docs/METRICS.md): jobs.csv's last
# column bounded_slowdown_dedicated = max(1, response / max(T_ded, tau)),
# T_ded = CPU demand per thread / the slowest speed of the job's nodes,
# and metrics.json's bounded_slowdown_dedicated_mean (mean over the
# finished jobs), on runs worked out by hand, beside the old
# bounded_slowdown (over the execution as run):
#   - gang descheduling at MPL 2: two 4-thread jobs time-share 4 PEs;
#   - a job stretched from 100 s of demand to 300 s of execution (a chunk
#     overhead of 200 s, deterministic) that waits 50 s: old 350/300,
#     new 350/100;
#   - a 1 s job waiting 200 s: new = old = 201/10; a job on nodes of
#     speeds 1 and 0.5: T_ded = 100 / 0.5, or under a dynamic loop
#     schedule 2 x 100 / 1.5;
#   - disk paging (random fault times): exec = demand + fault_time for a
#     thread alone on its PE, so new = (wait + demand + fault_time) /
#     demand, above the old;
#   - a job killed at its time limit has no value and is not in the mean.
# Prints "N passed, N failed" last.
TEST_NAME=test_slowdown_dedicated
. "$(dirname "$0")/lib.sh"    # top, build, P, check, finish, T, jval, jobf, near

# No messages, no context-switch cost, bsld_tau 10 s (the default, said).
B="--set process.comm_rate=0 --set process.sync_rate=0 --set scheduler.pcs=0 --set simulation.bsld_tau=10"
# rec JOB SUBMIT THREADS CPU [MEM_KB [REQ]]: one SWF record.
rec() { printf '%s %s -1 %s %s %s %s 1 %s -1 1 -1 -1 -1 -1 -1 -1 -1\n' "$1" "$2" "$4" "$3" "$4" "${5:-1024}" "${6:--1}"; }
# got DIR JOB: "bounded_slowdown bounded_slowdown_dedicated" of a job.
got() { echo "$(jobf "$1/jobs.csv" "$2" bounded_slowdown) $(jobf "$1/jobs.csv" "$2" bounded_slowdown_dedicated)"; }
# last2 CSV: the header's last two names, "A,B"; nfields CSV: how many
# distinct field counts its rows have (1 when every row has the header's).
last2() { head -1 "$1" | awk -F, '{ print $(NF - 1) "," $NF }'; }
nfields() { awk -F, '{ print NF }' "$1" | sort -u | wc -l | tr -d ' '; }
# pair "A B" "C D": A near C and B near D.
pair() { set -- $1 $2; near "$1" "$3" && near "$2" "$4"; }

# ---- gang descheduling at MPL 2 ------------------------------------------------
# 4 PEs, MPL 2, quantum 10 s, PCS 0. Job 1: 4 threads x 100 s, job 2: 4 x
# 50 s, both at t = 0. Slot 0 (job 1) runs 0-10, slot 1 (job 2) 10-20, ...
# job 2 runs [10,20], [30,40], [50,60], [70,80], [90,100]: ends at 100,
# in slot 1; job 1 has then done 50 s (its 5 quanta from 0 to 90) and runs
# alone 100-150.
#   job 1: wait 0, response 150, execution 150: old 150/150 = 1;
#          new 150/max(100, 10) = 1.5
#   job 2: wait 10, response 100, execution 90: old 100/90 = 1.111111;
#          new 100/50 = 2
#   means: old (1 + 1.111111)/2 = 1.055556, new (1.5 + 2)/2 = 1.75
{ rec 1 0 4 100; rec 2 0 4 50; } > gang.swf
# shellcheck disable=SC2086
"$P" -t gang.swf --set computer.number=4 --set scheduler.mpl=2 --set scheduler.quantum=10 $B \
    -q -o gang > /dev/null 2>&1
check "MPL 2: jobs.csv's last column is bounded_slowdown_dedicated" \
    test "$(last2 gang/jobs.csv)" = pes,bounded_slowdown_dedicated
check "MPL 2: job 2 ends at 100 in slot 1, job 1 at 150" \
    test "$(jobf gang/jobs.csv 2 end) $(jobf gang/jobs.csv 2 slot) $(jobf gang/jobs.csv 1 end)" = "100 1 150"
check "MPL 2, job 1 (descheduled half the time): old 1, new 150/100 = 1.5" pair "$(got gang 1)" "1 1.5"
check "MPL 2, job 2: old 100/90, new 100/50 = 2" pair "$(got gang 2)" "1.111111111 2"
check "MPL 2: bounded_slowdown_dedicated_mean 1.75, bounded_slowdown_mean 1.055556" \
    pair "$(jval gang/metrics.json bounded_slowdown_mean) $(jval gang/metrics.json bounded_slowdown_dedicated_mean)" \
    "1.055555556 1.75"

# ---- stretched to 300 s, waiting 50 s --------------------------------------------
# 1 PE; process.loop_schedule = STATIC with imbalance 0 and chunk_overhead
# 200 s: without synchronisation a job's one interval is one chunk per
# thread, its demand + 200 s of CPU (docs/MODEL.md "Load imbalance inside
# jobs"). The overhead is not the trace's demand, so T_ded stays 100 s.
#   job 1 (t = 0, 100 s): runs 0-300: old 300/300 = 1, new 300/100 = 3
#   job 2 (t = 250, 100 s): waits 50 s, runs 300-600, response 350:
#          old 350/300 = 1.166667, new 350/100 = 3.5
#   means: old (1 + 1.166667)/2 = 1.083333, new (3 + 3.5)/2 = 3.25
{ rec 1 0 1 100; rec 2 250 1 100; } > ovh.swf
# shellcheck disable=SC2086
"$P" -t ovh.swf --set computer.number=1 --set scheduler.mpl=1 $B --set process.loop_schedule=STATIC \
    --set process.chunk_overhead=200 -q -o ovh > /dev/null 2>&1
check "300 s for 100 s of demand: job 2 waits 50, runs 300 s" \
    test "$(jobf ovh/jobs.csv 2 wait) $(jobf ovh/jobs.csv 2 execution)" = "50 300"
check "300 s for 100 s, job 1: old 1, new 3" pair "$(got ovh 1)" "1 3"
check "300 s for 100 s after a 50 s wait, job 2: old 350/300, new 350/100 = 3.5" pair "$(got ovh 2)" "1.166666667 3.5"
check "300 s for 100 s: means old 1.083333, new 3.25" \
    pair "$(jval ovh/metrics.json bounded_slowdown_mean) $(jval ovh/metrics.json bounded_slowdown_dedicated_mean)" \
    "1.083333333 3.25"

# ---- a short job waiting; nodes of different speeds ---------------------------------
# 2 PEs of speeds 1 and 0.5 (computer.speed = 1x1.0, 1x0.5), MPL 1. Job 1:
# 2 threads x 100 s at t = 0: its thread on the slow node needs 200 s, so
# it ends at 200 and T_ded = 100 / 0.5 = 200. Job 2 (1 thread x 1 s, t =
# 0) waits for both PEs' job, starts at 200 on PE 0 (speed 1), ends 201.
#   job 1: response 200, execution 200: old 1, new 200/200 = 1 (not 2:
#          the slow node is its dedicated machine)
#   job 2: response 201, execution 1, T_ded 1: old = new = 201/max(1, 10)
#          = 20.1
#   means: (1 + 20.1)/2 = 10.55 both
{ rec 1 0 2 100; rec 2 0 1 1; } > spd.swf
# shellcheck disable=SC2086
"$P" -t spd.swf --set computer.number=2 --set "computer.speed=1x1.0, 1x0.5" --set scheduler.mpl=1 $B \
    -q -o spd > /dev/null 2>&1
check "speeds 1, 0.5: job 1 ends at 200, job 2 runs 200-201 on PE 0" \
    test "$(jobf spd/jobs.csv 1 end) $(jobf spd/jobs.csv 2 start) $(jobf spd/jobs.csv 2 end) $(jobf spd/jobs.csv 2 pes)" = "200 200 201 0"
check "speeds 1, 0.5, job 1: old 1, new 200/(100/0.5) = 1" pair "$(got spd 1)" "1 1"
check "a 1 s job waiting 200 s: old = new = 201/10" pair "$(got spd 2)" "20.1 20.1"
check "speeds: both means 10.55" \
    pair "$(jval spd/metrics.json bounded_slowdown_mean) $(jval spd/metrics.json bounded_slowdown_dedicated_mean)" \
    "10.55 10.55"

# ---- a dynamic loop schedule on nodes of different speeds ---------------------------
# The same 2 PEs of speeds 1 and 0.5, one job of 2 threads x 100 s under
# process.loop_schedule = SS (self-scheduling: one iteration per chunk,
# no overhead, no imbalance, 100 iterations per thread). On a dedicated
# machine the threads share the 200 s of work at 1 + 0.5 work/s: T_ded =
# 2 x 100 / 1.5 = 133.33 s (docs/MODEL.md "Dedicated run time"), not
# the slowest node's 200 s. As run, the fast thread takes about twice
# the iterations; the job ends within one slow iteration (1 / 0.5 = 2 s)
# of 133.33 s. Alone at t = 0: response = execution, so new =
# execution / 133.33 (>= 1), and response / new = 133.33 exactly.
rec 1 0 2 100 > dyn.swf
# shellcheck disable=SC2086
"$P" -t dyn.swf --set computer.number=2 --set "computer.speed=1x1.0, 1x0.5" --set scheduler.mpl=1 $B \
    --set process.loop_schedule=SS -q -o dyn > /dev/null 2>&1
dex=$(jobf dyn/jobs.csv 1 execution) dnew=$(jobf dyn/jobs.csv 1 bounded_slowdown_dedicated)
check "SS on speeds 1, 0.5: the job ends within 2 s of 200/1.5 = 133.33 s (ran $dex s)" \
    awk -v e="$dex" 'BEGIN { exit !(e >= 133.333 - 2 && e <= 133.334 + 2) }'
check "SS on speeds 1, 0.5: T_ded = response / new = 2 x 100 / 1.5 = 133.33 (new $dnew)" \
    awk -v e="$dex" -v n="$dnew" 'BEGIN { d = e / n - 400 / 3; if (d < 0) d = -d; exit !(d < 1e-6) }'

# ---- disk paging ----------------------------------------------------------------------
# 1 PE of 32 MB, two 1-thread jobs of 40 MB and 100 s at t = 0, MPL 1:
# each pages to the local disk alone on the PE, so its execution is its
# demand plus its fault time (jobs.csv's fault_time; random, read from the
# row), and new = (wait + 100 + fault_time) / 100, old = (wait +
# execution) / execution, new > old.
{ rec 1 0 1 100 40960; rec 2 0 1 100 40960; } > pg.swf
# shellcheck disable=SC2086
"$P" -t pg.swf --set computer.number=1 --set computer.ram=32 --set scheduler.mpl=1 $B -q -o pg > /dev/null 2>&1
for j in 1 2; do
    ft=$(jobf pg/jobs.csv $j fault_time) wt=$(jobf pg/jobs.csv $j wait) ex=$(jobf pg/jobs.csv $j execution)
    check "disk paging, job $j (fault time $ft s): execution = 100 + fault_time" \
        awk -v e="$ex" -v f="$ft" 'BEGIN { d = e - 100 - f; if (d < 0) d = -d; exit !(f > 1 && d < 1e-6) }'
    check "disk paging, job $j: new = (wait + 100 + fault_time)/100, above the old" \
        awk -v n="$(jobf pg/jobs.csv $j bounded_slowdown_dedicated)" -v o="$(jobf pg/jobs.csv $j bounded_slowdown)" \
            -v w="$wt" -v f="$ft" 'BEGIN { d = n - (w + 100 + f) / 100; if (d < 0) d = -d; exit !(d < 1e-9 && n > o) }'
done
check "disk paging: the mean is the two rows' mean" \
    awk -v m="$(jval pg/metrics.json bounded_slowdown_dedicated_mean)" \
        -v a="$(jobf pg/jobs.csv 1 bounded_slowdown_dedicated)" -v b="$(jobf pg/jobs.csv 2 bounded_slowdown_dedicated)" \
        'BEGIN { d = m - (a + b) / 2; if (d < 0) d = -d; exit !(d < 1e-9) }'

# ---- killed at its time limit: no value, not in the mean -----------------------------
# scheduler.time_limit = KILL, 1 PE. Job 1 (100 s, requested 50 s) is
# killed at 50; job 2 (20 s, requested 100 s, t = 0) runs 50-70: response
# 70, T_ded 20: 70/20 = 3.5, the mean of the finished jobs.
{ rec 1 0 1 100 1024 50; rec 2 0 1 20 1024 100; } > kl.swf
# shellcheck disable=SC2086
"$P" -t kl.swf --set computer.number=1 --set scheduler.mpl=1 --set scheduler.time_limit=KILL $B \
    -q -o kl > /dev/null 2>&1
check "KILL: last column after lost_core_seconds, empty for the killed job" \
    test "$(last2 kl/jobs.csv),$(jobf kl/jobs.csv 1 state),$(jobf kl/jobs.csv 1 bounded_slowdown_dedicated)" \
        = "lost_core_seconds,bounded_slowdown_dedicated,killed,"
check "KILL: job 2 70/20 = 3.5, the mean over the finished job only" \
    eval "near '$(jobf kl/jobs.csv 2 bounded_slowdown_dedicated)' 3.5 && near '$(jval kl/metrics.json bounded_slowdown_dedicated_mean)' 3.5"
check "every row has the header's number of fields (KILL and MPL 2 runs)" \
    test "$(nfields kl/jobs.csv) $(nfields gang/jobs.csv)" = "1 1"

finish
