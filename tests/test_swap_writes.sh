#!/bin/sh
# tests/test_swap_writes.sh BUILD: dirty write-backs on the swap device
# through the program (issue 33 item 1: process.dirty_fraction,
# computer.ssd_write_latency, computer.ssd_write_bandwidth; hw/swap.h).
#
# Whole runs: tests/test_ssd.sh's (the HPC2N slice, 600 jobs, 64 MB per
# PE, MPL 2, cut at t = 386,000 s) with an SSD read of S_R = 80 us + 4096 B
# / 3000 MB/s = 81.365333e-6 s and a write of S_W = 20 us + 4096 B / 2000
# MB/s = 22.048e-6 s.
#   - ssd_parallelism = 4, dirty_fraction = 1: at MPL 2 at most two faults
#     are in service on a PE, each with its write: at most 4 requests at
#     once, so nothing ever waits and each fault costs S_R, as with no
#     writes: the run's metrics equal the dirty_fraction = 0 run's (the
#     rule draws no random number: the streams do not shift).
#   - ssd_parallelism = 1, dirty_fraction = 1: a fault's read waits behind
#     its write: the mean time per fault is at least S_R + S_W =
#     103.413333e-6 s.
#   - the disk, dirty_fraction = 1: each fault writes then reads, 2 S_D at
#     least; the mean time per fault is at least 2 x the f = 0 run's
#     single-access S_D = 0.01324858667 s.
# Then validation (exit 2), warnings for keys without effect and the
# replay of config.ini.
# Then process.dirty_fractions (a fraction per job by SWF field 14, the
# rule counted per thread): three 1-thread jobs of 96 MB and 10 CPU s on
# three disk nodes of 64 MB, MPL 1, one job a node, applications 1, 2 and
# 3 with dirty_fractions = 1:0.5, 2:0.25 and dirty_fraction = 1 (job 3,
# not mapped). Alone on its disk a job's fault costs S_D and a dirty one
# S_D more (the write, then the read), so with n faults job k's fault
# time is (n + floor(n f_k)) S_D, to the microsecond: 5767 + 2883,
# 5788 + 1447 and 5809 + 5809 accesses (seed 1), and its node's disk was
# busy that long; without dirty_fractions job 1 would take 2 x 5767.
TEST_NAME=test_swap_writes
. "$(dirname "$0")/lib.sh"

SR=0.000081365333333
SRW=0.000103413333333
SD=0.01324858667
RUN="-q -c $DEFAULT --set computer.ram=64 --set workload.max_jobs=600
     --set simulation.max_time=386000 --set computer.swap=SSD
     --set computer.ssd_latency=0.00008 --set computer.ssd_bandwidth=3000
     --set computer.ssd_write_latency=0.00002 --set computer.ssd_write_bandwidth=2000"
rel() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b; exit !(a != "" && b != "" && d <= t * m) }'; }
per() { awk -v f="$(jval "$1" page_faults_per_pe)" -v t="$(jval "$1" page_fault_time_per_pe)" 'BEGIN { printf "%.15g", t / f }'; }

# shellcheck disable=SC2086
$P $RUN --set computer.ssd_parallelism=4 --set process.dirty_fraction=1 -o w4 > /dev/null 2>&1
check "c = 4, f = 1: the run succeeds" test $? -eq 0
# shellcheck disable=SC2086
$P $RUN --set computer.ssd_parallelism=4 -o n4 > /dev/null 2> n4.err
check "c = 4, f = 0: the write keys warned (no page is written)" \
    grep -q "ssd_write_latency = 2e-05 has no effect: no evicted page is written back" n4.err
check "c = 4, f = 1: time per fault = S_R (never queued)" rel "$(per w4/metrics.json)" $SR 1e-6
for k in page_faults_per_pe page_fault_time_per_pe mean_response_time; do
    check "c = 4: $k the same with f = 1 as with f = 0" \
        test "$(jval w4/metrics.json $k)" = "$(jval n4/metrics.json $k)"
done

# shellcheck disable=SC2086
$P $RUN --set computer.ssd_parallelism=1 --set process.dirty_fraction=1 -o w1 > /dev/null 2>&1
check "c = 1, f = 1: time per fault >= S_R + S_W" \
    awk -v x="$(per w1/metrics.json)" -v s=$SRW 'BEGIN { exit !(x >= s * (1 - 1e-9)) }'

DISK="-q -c $DEFAULT --set computer.ram=64 --set workload.max_jobs=600 --set simulation.max_time=386000"
# shellcheck disable=SC2086
$P $DISK --set process.dirty_fraction=1 -o d1 > /dev/null 2>&1
check "disk, f = 1: time per fault >= 2 S_D (a write, then the read)" \
    awk -v x="$(per d1/metrics.json)" -v s=$SD 'BEGIN { exit !(x >= 2 * s * (1 - 1e-9)) }'

# config.ini replays the run (the new keys in it, with their origins).
check "config.ini names dirty_fraction" grep -q "^dirty_fraction = 1$" w4/config.ini
check "config.ini names ssd_write_latency" grep -q "^ssd_write_latency = 2e-05$" w4/config.ini
"$P" -q -c w4/config.ini -o w4r > /dev/null 2>&1
check "config.ini replays the run" jsame w4/metrics.json w4r/metrics.json

badval() { # badval NAME EXPECT ARGS...
    name=$1; want=$2; shift 2
    "$P" -q -c "$DEFAULT" -o bad "$@" > /dev/null 2> err.txt
    rc=$?
    if [ $rc -eq 2 ] && grep -q -- "$want" err.txt; then ok "$name"; else
        bad "$name (exit $rc: $(cat err.txt))"; fi
}
badval "dirty_fraction = 1.5 refused" "\[process\] dirty_fraction = \"1.5\": out of range" --set process.dirty_fraction=1.5
badval "dirty_fraction = -0.1 refused" "\[process\] dirty_fraction = \"-0.1\"" --set process.dirty_fraction=-0.1
badval "dirty_fraction = nan refused" "\[process\] dirty_fraction = \"nan\"" --set process.dirty_fraction=nan
badval "ssd_write_latency = -1 refused" "\[computer\] ssd_write_latency" --set computer.ssd_write_latency=-1
badval "ssd_write_bandwidth = 0.001 refused" "\[computer\] ssd_write_bandwidth = \"0.001\"" --set computer.ssd_write_bandwidth=0.001
badval "rdma_read = TWO_WAY refused" "rdma_read = \"TWO_WAY\": expected one of ONE_WAY, ROUND_TRIP" --set netram.rdma_read=TWO_WAY

warns() { "$P" -q -c "$DEFAULT" --set workload.max_jobs=10 -o warn "$@" > /dev/null 2> w.txt; }
warns --set computer.ssd_write_latency=0.00002 --set process.dirty_fraction=0.5
check "DISK: ssd_write_latency warned (the device is a disk)" \
    grep -q "ssd_write_latency = 2e-05 has no effect: the swap device is a disk" w.txt
# Batches plan dirty writes on a disk and on an SSD whose write ends
# within its read; on an SSD of several servers whose write is longer
# (40 us + 4096 B / 3500 MB/s against 20 us + 4096 B / 3500 MB/s) they
# do not: warned.
warns --set process.dirty_fraction=0.5 --set process.paging=BATCHED
check "BATCHED with dirty write-backs on a disk: no warning" test ! -s w.txt
warns --set process.dirty_fraction=0.5 --set process.paging=BATCHED --set computer.swap=SSD \
    --set computer.ssd_parallelism=4 --set computer.ssd_latency=0.00002 \
    --set computer.ssd_bandwidth=3500 --set computer.ssd_write_latency=0.00004
check "BATCHED, SSD of 4, write longer than read: warned, every fault exact" \
    grep -q "paging = BATCHED has no effect: with dirty write-backs (\[process\] dirty_fraction, or a fraction of dirty_fractions, > 0) on an SSD of several servers" w.txt
warns --set process.dirty_fraction=0.5 --set process.paging=BATCHED --set computer.swap=SSD \
    --set computer.ssd_parallelism=4 --set computer.ssd_latency=0.00004 \
    --set computer.ssd_bandwidth=3500 --set computer.ssd_write_latency=0.00002
check "BATCHED, SSD of 4, write shorter than read: no warning" test ! -s w.txt
warns --set process.dirty_fraction=0.5
check "dirty_fraction on a disk: no warning" test ! -s w.txt

# ---- process.dirty_fractions: a fraction per job --------------------------

cat > apps.swf <<'EOF'
; three jobs: applications 1, 2 and 3 (field 14), 96 MB, 10 CPU s
1 0 -1 10 1 10 98304 -1 -1 -1 1 -1 -1 1 -1 -1 -1 -1
2 0 -1 10 1 10 98304 -1 -1 -1 1 -1 -1 2 -1 -1 -1 -1
3 0 -1 10 1 10 98304 -1 -1 -1 1 -1 -1 3 -1 -1 -1 -1
EOF
APPS="-q -t apps.swf --set computer.number=3 --set computer.ram=64"
# shellcheck disable=SC2086
"$P" $APPS --set process.dirty_fraction=1 --set "process.dirty_fractions=1:0.5, 2:0.25" \
    -o fj --hardware-report > /dev/null 2> fj.err
check "dirty_fractions: the run succeeds, no warning" \
    sh -c "test $? -eq 0 && ! grep -q warning fj.err"
# writes JOB F: floor(n F) for job JOB's n faults
writes() { awk -v n="$(jobf fj/jobs.csv "$1" page_faults)" -v f="$2" 'BEGIN { printf "%d", int(n * f) }'; }
for jf in 1:0.5 2:0.25 3:1; do
    j=${jf%%:*} f=${jf#*:}
    n=$(jobf fj/jobs.csv "$j" page_faults)
    w=$(writes "$j" "$f")
    want=$(awk -v n="$n" -v w="$w" -v s=$SD 'BEGIN { printf "%.9f", (n + w) * s }')
    check "job $j (F = $f): fault_time = ($n + $w) S_D = $want" \
        near "$(jobf fj/jobs.csv "$j" fault_time)" "$want"
    pe=$((j - 1))
    check "job $j: its node's disk busy as long (hardware report, 6 digits)" \
        awk -v b="$(sed -n "s/^  Node$pe .*disk busy \([0-9.e+]*\) s.*/\1/p" fj.err)" -v w="$want" \
            'BEGIN { d = b - w; if (d < 0) d = -d; exit !(b != "" && d <= 1e-5 * w) }'
done
check "seed 1: 5767, 5788, 5809 faults (the hand-worked figures above)" \
    test "$(jobf fj/jobs.csv 1 page_faults) $(jobf fj/jobs.csv 2 page_faults) $(jobf fj/jobs.csv 3 page_faults)" = "5767 5788 5809"
check "job 1: fault_time 8650 S_D = 114.600274667 s" near "$(jobf fj/jobs.csv 1 fault_time)" 114.600274667
check "job 2: fault_time 7235 S_D = 95.8535245333 s" near "$(jobf fj/jobs.csv 2 fault_time)" 95.8535245333
check "config.ini names dirty_fractions" grep -q "^dirty_fractions = 1:0.5, 2:0.25$" fj/config.ini
"$P" -q -c fj/config.ini -o fjr > /dev/null 2>&1
check "config.ini replays the run: jobs.csv the same" cmp -s fj/jobs.csv fjr/jobs.csv
check "config.ini replays the run: metrics.json the same" jsame fj/metrics.json fjr/metrics.json
# shellcheck disable=SC2086
"$P" $APPS --set process.dirty_fraction=1 -o f1 > /dev/null 2>&1
check "without dirty_fractions job 1 writes every page: fault_time 2 x 5767 S_D" \
    near "$(jobf f1/jobs.csv 1 fault_time)" "$(awk -v s=$SD 'BEGIN { printf "%.9f", 2 * 5767 * s }')"
# shellcheck disable=SC2086
"$P" $APPS -o f0 > /dev/null 2>&1
# shellcheck disable=SC2086
"$P" $APPS --set "process.dirty_fractions=1:0, 2:0" -o fz > /dev/null 2> fz.err
check "dirty_fractions all 0: warned, and without effect (jobs.csv the same)" \
    sh -c "grep -q 'dirty_fractions = 1:0, 2:0 has no effect: every fraction in it is 0' fz.err && cmp -s f0/jobs.csv fz/jobs.csv"

badval "dirty_fractions: an application twice refused" \
    'dirty_fractions = "1:0.5, 1:0.25": application 1 mapped twice' --set "process.dirty_fractions=1:0.5, 1:0.25"
badval "dirty_fractions: F = 1.5 refused" 'item "1:1.5": fraction out of range: expected a number >= 0 and <= 1' \
    --set process.dirty_fractions=1:1.5
badval "dirty_fractions: F = -0.1 refused" 'item "2:-0.1": fraction out of range' --set process.dirty_fractions=2:-0.1
badval "dirty_fractions: F = nan refused" 'item "1:nan": malformed fraction' --set process.dirty_fractions=1:nan
badval "dirty_fractions: an item without ':' refused" 'item "0.5": expected APP:F' --set process.dirty_fractions=0.5
badval "dirty_fractions: no F refused" "no fraction after ':'" --set process.dirty_fractions=1:
badval "dirty_fractions: a trailing comma refused" "a comma with no item after it" --set process.dirty_fractions=1:0.5,
printf '[process]\n; two lines\n\ndirty_fractions = 7:1, 7:0\n' > dup.ini
"$P" -q -c dup.ini -o bad > /dev/null 2> err.txt
rc=$?
check "dirty_fractions in a file: exit 2, FILE:LINE, key and what is expected" \
    sh -c "test $rc -eq 2 && grep -q 'dup.ini:4: \[process\] dirty_fractions = \"7:1, 7:0\": application 7 mapped twice: expected one fraction per application number' err.txt"
warns --set "process.dirty_fractions=1:0.5" --set computer.swap=SSD --set computer.ssd_write_latency=0.00002
check "dirty_fraction 0 but dirty_fractions 1:0.5: the write keys not warned" test ! -s w.txt
warns --set "process.dirty_fractions=3:0.5" --set process.paging=BATCHED --set computer.swap=SSD \
    --set computer.ssd_parallelism=4 --set computer.ssd_latency=0.00002 \
    --set computer.ssd_bandwidth=3500 --set computer.ssd_write_latency=0.00004
check "BATCHED, SSD of 4, long write, a job's fraction > 0: warned (the largest fraction)" \
    grep -q "paging = BATCHED has no effect: with dirty write-backs" w.txt

finish
