#!/bin/sh
# tests/test_ssd.sh BUILD: SSD swap (computer.swap = SSD, issue 25 item 3)
# through the program: a whole run's fault time, the hardware report, the
# validation of the SSD keys and the warnings for keys without effect.
#
# Whole run: the HPC2N slice as bench/identical.sh's "disk" scenario (600
# jobs, 64 MB per PE, MPL 2, cut at t = 386,000 s: tens of thousands of
# faults per PE) with an SSD of latency 80 us and 3000 MB/s: a fault alone
# costs S = 80e-6 + 4096 / 3e9 = 81.365333e-6 s. At MPL 2 a PE has at most
# two threads (one per slot), so at most two faults are in service at once:
# with ssd_parallelism = 2 no fault ever waits, and the mean time per fault
# (page_fault_time_per_pe / page_faults_per_pe) is S (to 1e-6: each fault's
# time is now - start at t ~ 3.9e5 s, whose ulp 5.8e-11 s is 7e-7 of S),
# every PE's SSD queue stays empty (queue max 0), and each PE's
# SSD busy time in the hardware report is its faults x S (>= 1 server busy
# whenever a fault is served; never two at once would make it less). With
# parallelism 1 a fault may wait for the other slot's: the mean is >= S.
TEST_NAME=test_ssd
. "$(dirname "$0")/lib.sh"

S=0.000081365333333
RUN="-q -c $DEFAULT --set computer.ram=64 --set workload.max_jobs=600
     --set simulation.max_time=386000 --set computer.swap=SSD
     --set computer.ssd_latency=0.00008 --set computer.ssd_bandwidth=3000"

# rel A B TOL: |A - B| <= TOL * |B|
rel() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b; exit !(a != "" && b != "" && d <= t * m) }'; }

# shellcheck disable=SC2086
$P $RUN --set computer.ssd_parallelism=2 -o c2 --hardware-report > /dev/null 2> hw2.txt
check "c = 2: the run succeeds" test $? -eq 0
f=$(jval c2/metrics.json page_faults_per_pe)
t=$(jval c2/metrics.json page_fault_time_per_pe)
check "c = 2: thousands of faults per PE ($f)" awk -v f="$f" 'BEGIN { exit !(f > 1000) }'
check "c = 2: time per fault = S = 80 us + 4096 B / 3000 MB/s (never queued)" \
    rel "$(awk -v f="$f" -v t="$t" 'BEGIN { printf "%.15g", t / f }')" $S 1e-6
check "c = 2: every fault from the SSD" test "$(jval c2/metrics.json page_faults_remote)" = 0
check "hardware report: SSD service per page" grep -q "SSD 8.13653e-05 s per page: latency 8e-05 s + 4096 B / 3000 MB/s, 2 at once" hw2.txt
# Each PE: ssd busy = faults x S (the busy time counts >= 1 server busy).
bad_pes=$(awk -v s=$S '/ ssd busy / {
    for (i = 1; i <= NF; i++) { if ($i == "busy" && $(i-1) == "ssd") b = $(i+1); if ($i == "faults") n = $(i+1) }
    d = b - n * s; if (d < 0) d = -d; if (d > 1e-5 * n * s + 1e-12) bad++; pes++ }
    END { print (pes == 240 ? bad + 0 : "no PEs") }' hw2.txt)
check "hardware report: each PE's ssd busy = its faults x S (to its 6 digits)" test "$bad_pes" = 0
check "hardware report: no PE's SSD queue ever held a request" \
    test "$(grep -c 'of 2, queue max 0)' hw2.txt)" = 240

# shellcheck disable=SC2086
$P $RUN --set computer.ssd_parallelism=1 -o c1 > /dev/null 2>&1
f1=$(jval c1/metrics.json page_faults_per_pe)
t1=$(jval c1/metrics.json page_fault_time_per_pe)
check "c = 1: time per fault >= S (may wait for the other slot's fault)" \
    awk -v f="$f1" -v t="$t1" -v s=$S 'BEGIN { exit !(t / f >= s * (1 - 1e-12)) }'

# Validation: positive, finite, integer >= 1; exit 2 naming the key.
badval() { # badval NAME EXPECT ARGS...
    name=$1; want=$2; shift 2
    "$P" -q -c "$DEFAULT" -o bad "$@" > /dev/null 2> err.txt
    rc=$?
    if [ $rc -eq 2 ] && grep -q -- "$want" err.txt; then ok "$name"; else
        bad "$name (exit $rc: $(cat err.txt))"; fi
}
badval "ssd_latency = 0 refused" "ssd_latency = \"0\": out of range: expected a number > 0" --set computer.ssd_latency=0
badval "ssd_latency = -1e-6 refused" "\[computer\] ssd_latency" --set computer.ssd_latency=-1e-6
badval "ssd_bandwidth = inf refused" "\[computer\] ssd_bandwidth = \"inf\"" --set computer.ssd_bandwidth=inf
badval "ssd_bandwidth = nan refused" "\[computer\] ssd_bandwidth = \"nan\"" --set computer.ssd_bandwidth=nan
# Regression (issue 25 review): the floor is the disk transfer's 0.01 MB/s; a
# positive 1e-300 MB/s was accepted and made one page take ~4e302 s (a run
# that never ends).
badval "ssd_bandwidth = 1e-300 refused (floor 0.01)" "\[computer\] ssd_bandwidth = \"1e-300\": out of range: expected a number >= 0.01" --set computer.ssd_bandwidth=1e-300
badval "ssd_bandwidth = 0.009 refused (floor 0.01)" "\[computer\] ssd_bandwidth = \"0.009\"" --set computer.ssd_bandwidth=0.009
badval "ssd_parallelism = 0 refused" "ssd_parallelism = \"0\": out of range: expected an integer between 1" --set computer.ssd_parallelism=0
badval "ssd_parallelism = 2.5 refused" "ssd_parallelism = \"2.5\"" --set computer.ssd_parallelism=2.5
badval "swap = NVME refused" "swap = \"NVME\": expected one of DISK, SSD" --set computer.swap=NVME
printf '[computer]\nswap = SSD\nssd_bandwidth = 0\n' > bad.ini
"$P" -q -c bad.ini -o bad > /dev/null 2> err.txt
rc=$?
check "in a file: exit 2, file:line and key" sh -c "[ $rc -eq 2 ] && grep -q 'bad.ini:3: \[computer\] ssd_bandwidth' err.txt"

# Warnings: the keys of the device not chosen; none for BATCHED with SSD.
warns() { # warns ARGS...: the warnings of a run of 10 jobs into w.txt
    "$P" -q -c "$DEFAULT" --set workload.max_jobs=10 -o warn "$@" > /dev/null 2> w.txt
}
warns --set computer.ssd_latency=0.0001 --set computer.ssd_parallelism=4
check "DISK: changed ssd keys warned" sh -c 'grep -q "ssd_latency = 0.0001 has no effect: the swap device is a disk, not an SSD (\[computer\] swap = DISK)" w.txt && grep -q "ssd_parallelism = 4 has no effect" w.txt'
check "DISK: unchanged ssd key not warned" sh -c '! grep -q "ssd_bandwidth" w.txt'
warns --set computer.swap=SSD --set computer.seek=0.005 --set computer.rpm=15000 \
      --set computer.transfer=100 --set computer.rotation=FULL
check "SSD: the 4 changed disk keys warned" test "$(grep -c 'has no effect: the swap device is an SSD, not a disk' w.txt)" = 4
warns --set computer.swap=SSD
check "SSD with disk keys at their defaults: no warning" test ! -s w.txt
warns --set computer.swap=SSD --set process.paging=BATCHED
check "SSD + BATCHED: no warning (batched paging covers SSD swap)" test ! -s w.txt
warns --set process.paging=BATCHED
check "DISK + BATCHED: no warning" test ! -s w.txt
warns --set computer.cores_per_node=2 --set process.paging=BATCHED
check "DISK + BATCHED on nodes of 2 cores warned: every fault exact" grep -q "paging = BATCHED has no effect: with \[computer\] cores_per_node > 1 and swap = DISK every fault runs exactly" w.txt
warns --set computer.cores_per_node=2 --set computer.swap=SSD --set process.paging=BATCHED
check "SSD + BATCHED on nodes of 2 cores: no warning" test ! -s w.txt

finish
