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
    grep -q "paging = BATCHED has no effect: with dirty write-backs (\[process\] dirty_fraction > 0) on an SSD of several servers" w.txt
warns --set process.dirty_fraction=0.5 --set process.paging=BATCHED --set computer.swap=SSD \
    --set computer.ssd_parallelism=4 --set computer.ssd_latency=0.00004 \
    --set computer.ssd_bandwidth=3500 --set computer.ssd_write_latency=0.00002
check "BATCHED, SSD of 4, write shorter than read: no warning" test ! -s w.txt
warns --set process.dirty_fraction=0.5
check "dirty_fraction on a disk: no warning" test ! -s w.txt

finish
