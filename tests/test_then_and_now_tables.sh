#!/bin/sh
# tests/test_then_and_now_tables.sh BUILD: tools/then-and-now-tables.py on
# a hand-made results.csv whose means and intervals are worked by hand.
#
# Two configurations, A = now-c64-ssd and B = now-c64-shared-ssd, levels
# 0.03733333333 (L0) and 1 (L2), windows 0-2, seed 1:
#   response at L0: A 110, 120, 130; B 100, 100, 100
#   response at L2: A 111, 122, 133; B 100, 100, 100
#   paging at L0:   A 5, 6, 7;       B 1, 1, 1      (at L2 the same)
# t(0.975, 2) = 4.303, sqrt(3) = 1.7321:
#   main table, A at L0: mean 120, sd 10, h = 4.303 * 10 / 1.7321 = 24.84
#     -> "120 ± 25";
#   finding A - B at L0: d = 10, 20, 30: +20, h 24.84 -> "+20 ± 25", no
#     star (20 < 24.84), 20 / 100 = +20.0%;
#   paging A - B: d = 4, 5, 6: +5.0, h = 4.303 * 1 / 1.7321 = 2.48 ->
#     "+5.0 ± 2.5 *" (5 > 2.48), 5 / 1 = +500.0%;
#   A - B at L2: d = 11, 22, 33: +22, h = 4.303 * 11 / 1.7321 = 27.33 ->
#     "+22 ± 27 (+22.0%)";
#   A at L2 - L0: d = 1, 2, 3: +2, h 2.48 -> "+2 ± 2", no star,
#     2 / 120 = +1.67%;
#   with seed 2 rows equal to seed 1 (a seed that moves nothing): n = 6,
#     "(3 indep)".
# Prints "N passed, N failed" last; KEEP=1 keeps the temporary directory.

TEST_NAME=test_then_and_now_tables
. "$(dirname "$0")/lib.sh"    # top, PY, check, finish, T

TOOL=$top/tools/then-and-now-tables.py
mkdir -p m
{
    echo "workload.memory_scale,simulation.system,window,seed,status,response_time_mean,bounded_slowdown_mean,page_fault_time_per_pe,page_faults_disk,page_faults_remote,cpu_utilization"
    for w in 0 1 2; do
        echo "0.03733333333,now-c64-ssd,$w,1,ok,$((110 + 10 * w)),1,$((5 + w)),0,0,0.5"
        echo "0.03733333333,@now-c64-shared-ssd,$w,1,ok,100,1,1,0,0,0.5"
        echo "1,now-c64-ssd,$w,1,ok,$((111 + 11 * w)),1,$((5 + w)),0,0,0.5"
        echo "1,@now-c64-shared-ssd,$w,1,ok,100,1,1,0,0,0.5"
    done
    echo "1,now-c64-ssd,9,1,failed,,,,,,"
} > m/results.csv
"$PY" "$TOOL" m > out.md 2> err.txt
check "runs on the hand-made results.csv" test $? -eq 0 -a ! -s err.txt
check "main table: A at L0 is 120 ± 25 over n = 3 (the failed run left out)" \
    grep -q '^| L0 (0.03733333333) | now-c64-ssd | 3 | 120 ± 25 |' out.md
check "finding A - B at L0: +20 ± 25, no star, +20.0% of B" \
    grep -q '^| L0 | now-c64-ssd − now-c64-shared-ssd | 3 | +20 ± 25 (+20.0%) | +0.00 ± 0.00 (+0.0%) | +5.0 ± 2.5 \* (+500.0%) |' out.md
check "finding A - B at L2: +22 ± 27 (+22.0%)" \
    grep -q '^| L2 | now-c64-ssd − now-c64-shared-ssd | 3 | +22 ± 27 (+22.0%) |' out.md
check "level L2 - L0 of A: +2 ± 2, no star, +1.67%" \
    grep -q '^| now-c64-ssd | L2 | 3 | +2 ± 2 (+1.67%) |' out.md
check "level L2 - L0 of B: +0 ± 0" \
    grep -q '^| now-c64-shared-ssd | L2 | 3 | +0 ± 0 (+0.00%) |' out.md

# A second seed that changes nothing: 6 pairs, 3 independent values.
mkdir -p s
{ cat m/results.csv; sed -n 's/^\(0.03733333333,[^,]*,[0-9]\),1,ok/\1,2,ok/p' m/results.csv; } > s/results.csv
"$PY" "$TOOL" s > s.md 2>&1
check "seed 2 equal to seed 1: 6 pairs at L0, said to be 3 independent" \
    grep -q '^| L0 | now-c64-ssd − now-c64-shared-ssd | 6 (3 indep) |' s.md

# A *-c8 file (then-and-now-curve-c8.ini's columns: the level varied beside
# the key). One curve, rdma and ssd, windows 0-2, seed 1:
#   L0: response 100, paging 0, faults 0 everywhere;
#   L2 ssd: response 110, 120, 130; paging 10, 20, 0; faults 100, 200, 0 (disk)
#   L2 rdma: response 101 each; paging 0.5, 1.5, 0; faults 10, 20, 0 (remote)
# By hand (t(0.975, 2) = 4.303, t(0.975, 1) = 12.706):
#   ssd L2 - L0 response: d = 10, 20, 30 -> "+20.0 ± 24.8", 20/100 = +20.00%;
#   rdma L2 - L0: d = 1, 1, 1 -> "+1.0 ± 0.0 *" (h = 0 < 1);
#   rdma - ssd at L2: d = -9, -19, -29 -> "-19.0 ± 24.8", -19/120 = -15.8%;
#   share rdma / ssd over the windows where ssd pages (0, 1): 0.05, 0.075 ->
#     mean 0.0625, sd 0.017678, h = 12.706 x 0.017678 / sqrt 2 = 0.1588,
#     min 0.0500, max 0.0750;
#   run by run: windows 0 and 1 listed (window 2 pages nothing), e.g.
#     "| x.curve | 1 | ssd | 200 | 0 | 20.00 | +20.00 |".
mkdir -p c8
{
    echo "simulation.system,process.fault_curve,workload.memory_scale,window,seed,status,response_time_mean,bounded_slowdown_mean,page_fault_time_per_pe,page_faults_per_pe,page_faults_disk,page_faults_remote"
    for w in 0 1 2; do
        for c in rdma @ssd; do
            echo "$c,../../traces/curves/x.curve,0.03733333333,$w,1,ok,100,1,0,0,0,0"
        done
        pg=$(echo "10 20 0" | cut -d' ' -f$((w + 1))); f=$(echo "100 200 0" | cut -d' ' -f$((w + 1)))
        pr=$(echo "0.5 1.5 0" | cut -d' ' -f$((w + 1))); fr=$(echo "10 20 0" | cut -d' ' -f$((w + 1)))
        echo "@ssd,../../traces/curves/x.curve,1,$w,1,ok,$((110 + 10 * w)),1,$pg,$f,$f,0"
        echo "rdma,../../traces/curves/x.curve,1,$w,1,ok,101,1,$pr,$fr,0,$fr"
    done
} > c8/results.csv
"$PY" "$TOOL" --csv c8csv - c8 > c8.md 2> c8err.txt
check "c8: runs on a *-c8 style results.csv" test $? -eq 0 -a ! -s c8err.txt
check "c8: ssd L2 - L0 response +20.0 ± 24.8 (+20.00%)" \
    grep -q '^| fault_curve = x.curve | ssd | 3 | +20.0 ± 24.8 (+20.00%) |' c8.md
check "c8: rdma L2 - L0 response +1.0 ± 0.0, starred (h = 0 < 1)" \
    grep -q '^| fault_curve = x.curve | rdma | 3 | +1.0 ± 0.0 \* (+1.00%) |' c8.md
check "c8: rdma - ssd at L2 only: -19.0 ± 24.8 (-15.8%)" \
    grep -q '^| fault_curve = x.curve | rdma − ssd | 3 | -19.0 ± 24.8 (-15.8%) |' c8.md
check "c8: the share rdma / ssd over the 2 windows that page: 0.0625 ± 0.1588, 0.0500, 0.0750" \
    grep -q '^| fault_curve = x.curve | rdma / ssd | 2 | 0.0625 ± 0.1588 | 0.0500 | 0.0750 |' c8.md
check "c8: run by run, window 1's ssd run" \
    grep -q '^| x.curve | 1 | ssd | 200 | 0 | 20.00 | +20.00 |' c8.md
check "c8: ... and no row for window 2 (nothing pages)" \
    sh -c "! grep -q '^| x.curve | 2 |' c8.md"
check "c8: c8runs.csv has all 6 L2 runs" test "$(($(wc -l < c8csv/c8runs.csv) - 1))" -eq 6

# A sensitivity study (then-and-now-r.ini's columns): rdma - ssd at each R.
# R = 2.4e-07: rdma 90, 95, 100 against ssd 100: d = -10, -5, 0: -5, sd 5,
# h = 4.303 * 5 / 1.7321 = 12.42 -> "-5 ± 12 (-5.0%)"; R = 2.4e-06: rdma =
# ssd = 100: "+0 ± 0 (+0.0%)". Paging per node 1 against 2 in every pair:
# "-1.0 ± 0.0 * (-50.0%)"; no bounded slowdown column in r: "-" (the tool
# once raised KeyError there).
mkdir -p r
{
    echo "simulation.system,process.mem_access_rate,window,seed,status,response_time_mean,page_fault_time_per_pe"
    for w in 0 1 2; do
        echo "rdma,0.00000024,$w,1,ok,$((90 + 5 * w)),1"
        echo "@ssd,0.00000024,$w,1,ok,100,2"
        echo "rdma,0.0000024,$w,1,ok,100,1"
        echo "@ssd,0.0000024,$w,1,ok,100,2"
    done
} > r/results.csv
"$PY" "$TOOL" m r > r.md 2> r.err
check "with a sensitivity directory: a sensitivity table, r's runs under their parameter" \
    sh -c "[ -s r.md ] && [ ! -s r.err ] && grep -q '^### Sensitivity (C = 64, L2' r.md"
check "... rdma - ssd at R = 2.4e-07: -5 ± 12 (-5.0%)" \
    grep -q '^| mem_access_rate = 0.00000024 | rdma − ssd | 3 | -5 ± 12 (-5.0%) | - | -1.0 ± 0.0 \* (-50.0%) |' r.md
check "... and at 2.4e-06: +0 ± 0 (+0.0%)" \
    grep -q '^| mem_access_rate = 0.0000024 | rdma − ssd | 3 | +0 ± 0 (+0.0%) | - | -1.0 ± 0.0 \* (-50.0%) |' r.md

"$PY" "$TOOL" nonexistent > /dev/null 2> miss.err
check "a directory without results.csv: exit 2, named" \
    sh -c "test $? -eq 2 && grep -q nonexistent miss.err"
finish
