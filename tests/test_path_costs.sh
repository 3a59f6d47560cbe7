#!/bin/sh
# tests/test_path_costs.sh BUILD: the CPU costs on a fault's path (issue
# 33: computer.fault_cpu, netram.message_cpu, netram.server_cpu) through the
# program: validation, the warnings for keys without effect, config.ini
# replay, and CPU time conserved in a whole run's metrics.
#
# Whole runs: the HPC2N slice's first 80 jobs on 64 MB per PE, to the end
# (every job finishes, so cpu_demand_done is all the CPU the threads did).
# Every core's busy time is then a thread's burst, a fault's software path
# or a work of sched/job_cost.c, so with F faults in all (page_faults_per_pe
# x 240 PEs) and R of them remote:
#     cpu_busy_total = cpu_demand_done + F fault_cpu
#                      + R (2 message_cpu)                 (the faulting cores)
#                      + R (2 message_cpu + server_cpu)    (the servers)
# (servers are compute PEs: no memory servers here), to 1e-9 relative; and
# without the keys busy = demand, as before.
TEST_NAME=test_path_costs
. "$(dirname "$0")/lib.sh"

# rel A B TOL: |A - B| <= TOL * |B|
rel() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b; exit !(a != "" && b != "" && d <= t * m) }'; }
RUN="-q -c $DEFAULT --set computer.ram=64 --set workload.max_jobs=80"

# busy OUT FC MC SC: the conservation check of run OUT's metrics.json.
conserved() {
    out=$1; fc=$2; mc=$3; sc=$4
    f=$(jval "$out/metrics.json" page_faults_per_pe)
    r=$(jval "$out/metrics.json" page_faults_remote)
    busy=$(jval "$out/metrics.json" cpu_busy_total)
    dem=$(jval "$out/metrics.json" cpu_demand_done)
    want=$(awk -v d="$dem" -v f="$f" -v r="$r" -v fc="$fc" -v mc="$mc" -v sc="$sc" \
        'BEGIN { printf "%.17g", d + f * 240 * fc + r * 2 * mc + r * (2 * mc + sc) }')
    rel "$busy" "$want" 1e-9
}

# shellcheck disable=SC2086
$P $RUN -o base > /dev/null 2>&1
check "base run: jobs unfinished 0" test "$(jval base/metrics.json jobs_unfinished)" = 0
check "base run: thousands of faults per PE ($(jval base/metrics.json page_faults_per_pe))" \
    awk -v f="$(jval base/metrics.json page_faults_per_pe)" 'BEGIN { exit !(f > 1000) }'
check "base run: busy = demand" conserved base 0 0 0
# shellcheck disable=SC2086
$P $RUN --set computer.fault_cpu=0.00002 -o fc > /dev/null 2>&1
check "fault_cpu 20 us: busy = demand + faults x 20 us" conserved fc 0.00002 0 0
# Each disk fault costs at least fault_cpu + S, S = 0.009 + 30/7200 + 4096/50e6
# = 0.013248587 s: the mean is at least 0.013268587 s (the faults are not
# the same ones as in the base run: memory changes at other instants).
check "fault_cpu 20 us: time per fault >= 20 us + S" awk \
    -v f="$(jval fc/metrics.json page_faults_per_pe)" -v t="$(jval fc/metrics.json page_fault_time_per_pe)" \
    'BEGIN { exit !(t / f >= (0.00002 + 0.009 + 30 / 7200 + 4096 / 50e6) * (1 - 1e-9)) }'
# shellcheck disable=SC2086
$P $RUN --set netram.enabled=yes --set computer.fault_cpu=0.00002 \
    --set netram.message_cpu=0.00003 --set netram.server_cpu=0.00007 -o msg > /dev/null 2> msg.err
check "MESSAGES with the three costs: no warning" test ! -s msg.err
check "MESSAGES: remote faults ($(jval msg/metrics.json page_faults_remote))" \
    awk -v r="$(jval msg/metrics.json page_faults_remote)" 'BEGIN { exit !(r > 1000) }'
check "MESSAGES: busy = demand + F fc + R (4 mc + sc)" conserved msg 0.00002 0.00003 0.00007
# Batched paging plans the three costs (sched/batch.c): the same conservation.
# shellcheck disable=SC2086
$P $RUN --set netram.enabled=yes --set computer.fault_cpu=0.00002 \
    --set netram.message_cpu=0.00003 --set netram.server_cpu=0.00007 \
    --set process.paging=BATCHED -o msgb > /dev/null 2> msgb.err
check "BATCHED MESSAGES with the three costs: no warning" test ! -s msgb.err
check "BATCHED MESSAGES: faults batched (events $(jval msgb/metrics.json events) against $(jval msg/metrics.json events))" \
    awk -v b="$(jval msgb/metrics.json events)" -v e="$(jval msg/metrics.json events)" 'BEGIN { exit !(2 * b < e) }'
check "BATCHED MESSAGES: busy = demand + F fc + R (4 mc + sc)" conserved msgb 0.00002 0.00003 0.00007

# Replay: config.ini carries the keys and where they were set; -c it gives
# the same results (metrics.json but its command line and version).
check "config.ini: message_cpu set by --set" sh -c \
    "grep -B1 '^message_cpu = 3e-05' msg/config.ini | grep -q '; from --set netram.message_cpu=0.00003'"
check "config.ini: fault_cpu and server_cpu" sh -c \
    "grep -q '^fault_cpu = 2e-05' msg/config.ini && grep -q '^server_cpu = 7e-05' msg/config.ini"
"$P" -q -c msg/config.ini -o replay > /dev/null 2>&1
check "replay of config.ini: the same jobs.csv" cmp -s msg/jobs.csv replay/jobs.csv
check "replay: the same cpu_busy_total" \
    test "$(jval replay/metrics.json cpu_busy_total)" = "$(jval msg/metrics.json cpu_busy_total)"

# Validation: a number from 0 to 1 s; exit 2 naming the key.
badval() { # badval NAME EXPECT ARGS...
    name=$1; want=$2; shift 2
    "$P" -q -c "$DEFAULT" -o bad "$@" > /dev/null 2> err.txt
    rc=$?
    if [ $rc -eq 2 ] && grep -q -- "$want" err.txt; then ok "$name"; else
        bad "$name (exit $rc: $(cat err.txt))"; fi
}
badval "fault_cpu = -1e-6 refused" "\[computer\] fault_cpu = \"-1e-6\": out of range" --set computer.fault_cpu=-1e-6
badval "fault_cpu = 2 refused (at most 1 s)" "\[computer\] fault_cpu = \"2\"" --set computer.fault_cpu=2
badval "message_cpu = nan refused" "\[netram\] message_cpu = \"nan\"" --set netram.message_cpu=nan
badval "server_cpu = x refused" "\[netram\] server_cpu = \"x\"" --set netram.server_cpu=x

# Warnings: the keys without effect, and BATCHED with a cost.
warns() { "$P" -q -c "$DEFAULT" --set workload.max_jobs=10 -o warn "$@" > /dev/null 2> w.txt; }
warns --set netram.message_cpu=1e-6 --set netram.server_cpu=1e-6
check "network RAM off: both keys warned" test "$(grep -c 'has no effect: network RAM is off' w.txt)" = 2
warns --set netram.enabled=yes --set netram.transport=RDMA --set netram.server_cpu=1e-6
check "RDMA: server_cpu warned" grep -q "server_cpu = 1e-06 has no effect: pages move by one-sided RDMA" w.txt
warns --set netram.enabled=yes --set netram.server_cpu=1e-6
check "MESSAGES: server_cpu not warned" test ! -s w.txt
# fault_cpu and the messages' CPU costs are planned by batches
# (sched/batch.c): no warning.
warns --set computer.fault_cpu=1e-6 --set process.paging=BATCHED
check "BATCHED + fault_cpu: no warning (batches plan it)" test ! -s w.txt
warns --set netram.enabled=yes --set netram.message_cpu=1e-6 --set process.paging=BATCHED
check "BATCHED + message_cpu: no warning (batches plan it)" test ! -s w.txt
# ... but not on nodes of several cores, where batches save no events and
# cost more CPU (docs/BATCHING.md msg8): warned, and every fault runs
# exactly, so the run equals the EXACT one byte for byte.
C8MSG="--set computer.number=64 --set computer.cores_per_node=8 --set computer.ram=1024
       --set computer.swap=SSD --set netram.enabled=yes --set netram.message_cpu=1e-6
       --set netram.server_cpu=1e-6 --set workload.max_jobs=10 --set workload.default_memory=96
       --set process.mem_access_rate=0.0001"
"$P" -q -c "$DEFAULT" $C8MSG --set process.paging=BATCHED -o c8b > /dev/null 2> w.txt
check "BATCHED + message_cpu at C = 8: warned (every fault exact)" \
    grep -q "paging = BATCHED has no effect: with the messages' CPU costs on nodes of several cores" w.txt
"$P" -q -c "$DEFAULT" $C8MSG -o c8e > /dev/null 2>&1
check "... and its jobs.csv is the EXACT run's" cmp -s c8b/jobs.csv c8e/jobs.csv
"$P" -q -c "$DEFAULT" $C8MSG > c8e.txt 2>&1 -o c8e2
check "... which pages over the network (the check can fail)" \
    grep -q 'page faults: [0-9]* from disk, [1-9][0-9]* from network RAM' c8e.txt
warns --set computer.fault_cpu=1e-6
check "fault_cpu alone: no warning" test ! -s w.txt

finish
