#!/bin/sh
# tests/test_job_loop.sh [BUILD]: loop scheduling inside jobs (issue 36
# item 2, docs/MODEL.md "Load imbalance inside jobs") in whole runs.
#
# STATIC with imbalance 0 and no chunk overhead gives every thread its
# demand in one chunk per interval, each clock at the report's model's
# value bit for bit (sched/job_loop.h): jobs.csv, samples.csv and
# metrics.json (command line and event count aside: NONE runs some jobs as
# one process) equal NONE's, on the first 60 jobs of HPC2N with MPL 2
# gang slicing, neighbour and synchronisation messages and disk paging
# (700 MB a thread on 1 GB nodes, R = 1 ms so the run stays short), with
# FIXED and EXPONENTIAL intervals, EXACT and BATCHED paging, and without
# messages under space sharing. With imbalance 0.3 and an overhead of 0.01 s
# a chunk (every schedule, no paging): every job finishes, with the same
# synchronisations as NONE (the same intervals), CPU conserved (the CPU done
# is the trace's demand plus loop_chunks x 0.01, and equals the time cores
# were held computing), STATIC slower than NONE and SS faster than STATIC.
# Bad values exit 2; loop keys under NONE warn.
TEST_NAME=test_job_loop
. "$(dirname "$0")/lib.sh"

head -62 "$top/traces/hpc2n-seth-first3171.swf" > t60.swf
BASE="-c $DEFAULT -t t60.swf -q --set process.mem_access_rate=0.001"
nometa() { grep -v '^  "command_line": \|^  "events": \|^  "loop_chunks": ' "$1"; }
same_runs() { # same_runs NAME ARGS...: NONE and STATIC (c = 0) alike
    name=$1; shift
    rm -rf none static
    $P $BASE -o none "$@" > /dev/null 2>&1 &&
        $P $BASE -o static "$@" --set process.loop_schedule=STATIC > /dev/null 2>&1 &&
        cmp -s none/jobs.csv static/jobs.csv && cmp -s none/samples.csv static/samples.csv &&
        nometa none/metrics.json > n.json && nometa static/metrics.json > s.json &&
        cmp -s n.json s.json
    check "STATIC, imbalance 0 = NONE: $name" test $? -eq 0
}
same_runs "fixed intervals, exact paging" --set workload.default_memory=700
f=$(jval static/metrics.json page_faults_disk)
check "  ... and it pages ($f faults)" test "${f:-0}" -gt 1000
same_runs "exponential intervals" --set workload.default_memory=700 --set process.interval=EXPONENTIAL
same_runs "batched paging" --set workload.default_memory=700 --set process.paging=BATCHED
same_runs "space sharing, no messages" --set scheduler.mpl=1 --set process.sync_rate=0 \
    --set process.comm_rate=0

# Imbalance moves the run times, not the number of synchronisations.
$P $BASE -o none > /dev/null 2>&1
for s in STATIC SS GSS FAC WF AWF; do
    $P $BASE -o $s --set process.loop_schedule=$s --set process.imbalance=0.3 \
        --set process.chunk_overhead=0.01 > /dev/null 2>&1
    check "$s, imbalance 0.3: runs" test $? -eq 0
    check "$s: every job finishes" test "$(jval $s/metrics.json jobs_finished)" = "$(jval none/metrics.json jobs_finished)"
    check "$s: no paging appears" test "$(jval $s/metrics.json page_faults_disk)" = 0
    check "$s: the same synchronisations" test "$(jval $s/metrics.json sync_msgs)" = "$(jval none/metrics.json sync_msgs)"
    # Conservation: the CPU done is the trace's demand plus one overhead per
    # chunk, and is what the cores were held computing (speed 1).
    check "$s: CPU done = the trace's + loop_chunks x 0.01" awk -v a="$(jval $s/metrics.json cpu_demand_done)" \
        -v b="$(jval none/metrics.json cpu_demand_done)" -v n="$(jval $s/metrics.json loop_chunks)" \
        'BEGIN { d = a - b - 0.01 * n; if (d < 0) d = -d; exit !(n > 0 && d <= 1e-9 * a) }'
    check "$s: cores held computing = CPU done" awk -v a="$(jval $s/metrics.json cpu_demand_done)" \
        -v b="$(jval $s/metrics.json cpu_busy_total)" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-9 * a) }'
done
check "STATIC with imbalance 0.3 runs longer than NONE" awk -v a="$(jval STATIC/metrics.json execution_time_mean)" \
    -v b="$(jval none/metrics.json execution_time_mean)" 'BEGIN { exit !(a > b) }'
check "SS with imbalance 0.3 beats STATIC" awk -v a="$(jval SS/metrics.json execution_time_mean)" \
    -v b="$(jval STATIC/metrics.json execution_time_mean)" 'BEGIN { exit !(a < b) }'

# Errors and warnings.
$P $BASE -o e --set process.loop_schedule=BOGUS > /dev/null 2> err.txt
check "loop_schedule = BOGUS exits 2" test $? -eq 2
check "  ... naming the key" grep -q "loop_schedule" err.txt
$P $BASE -o e --set process.imbalance=-1 > /dev/null 2> err.txt
check "imbalance = -1 exits 2" test $? -eq 2
$P $BASE -o e --set process.loop_iterations=0 > /dev/null 2> err.txt
check "loop_iterations = 0 exits 2" test $? -eq 2
$P $BASE -o e --set process.imbalance=0.5 > /dev/null 2> err.txt
check "imbalance under NONE: has no effect" grep -q "imbalance = 0.5 has no effect" err.txt
finish
