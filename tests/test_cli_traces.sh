#!/bin/sh
# tests/test_cli_traces.sh BUILD: pnrsim end to end on traces worked out by
# hand (split out of tests/test_cli.sh, which checks the rest of the
# command line):
#   - two hand-worked six-job traces on 4 PEs in space sharing (MPL 1):
#     start, end, wait, response, slowdown and bounded slowdown of every job
#     and the metrics.json totals, under FCFS with strict_order yes and no,
#     and BESTFIT / WORSTFIT queue order;
#   - on the first of them: --format json/csv, metrics.dat, progress and
#     --quiet, aliases, the hardware report;
#   - a burst ending exactly at a quantum end behaves like a quantum a hair
#     longer.
# Prints "N passed, N failed" last and exits non-zero when a check failed.
# KEEP=1 keeps the temporary directory.

TEST_NAME=test_cli_traces
. "$(dirname "$0")/lib.sh"    # top, build, P, DEFAULT, PY, check, finish, T, jval, col, jobf, near, lines
TRACES=$top/traces

# ---- end to end: hand-worked traces ----------------------------------------

# 4 PEs, MPL 1 (space sharing), no messages, 1 MB per thread in 32 MB of
# RAM (no paging); bounded slowdown tau = 10 s; metrics_period longer than
# the runs.
cat > e2e.ini <<'EOF'
[simulation]
metrics_period = 100000
bsld_tau = 10
[process]
comm_rate = 0
sync_rate = 0
[scheduler]
mpl = 1
priority = FCFS
strict_order = yes
[computer]
number = 4
ram = 32
EOF

# Trace A: job, submit, threads, CPU per thread (field 7 = 1024 KB = 1 MB).
#   J1  0  3 100     J2 10  2  50     J3 20  1  30
#   J4 30  4   0 (zero CPU)           J5 40  1  10     J6 100 2  20
cat > a.swf <<'EOF'
; trace A
1   0 -1 -1 3 100 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
2  10 -1 -1 2  50 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
3  20 -1 -1 1  30 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
4  30 -1 -1 4   0 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
5  40 -1 -1 1  10 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
6 100 -1 -1 2  20 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
EOF

# expect_jobs NAME JOBS.CSV: reads "job submit start end wait response
# slowdown bsld" lines on stdin ("-" as slowdown: zero-length job, slowdown
# undefined: nan or empty) and checks each job's row.
expect_jobs() {
    name=$1; csv=$2
    while read -r j sub st en wt rs sd bs; do
        case $j in ''|'#'*) continue ;; esac
        got="$(jobf "$csv" "$j" submit) $(jobf "$csv" "$j" start) $(jobf "$csv" "$j" end) $(jobf "$csv" "$j" wait) $(jobf "$csv" "$j" response) $(jobf "$csv" "$j" slowdown) $(jobf "$csv" "$j" bounded_slowdown)"
        set -- $got
        good=1
        near "$1" "$sub" && near "$2" "$st" && near "$3" "$en" && near "$4" "$wt" &&
            near "$5" "$rs" && near "$7" "$bs" || good=0
        if [ "$sd" = - ]; then
            case $6 in nan|NaN|-nan|'') ;; *) good=0 ;; esac
        else
            near "$6" "$sd" || good=0
        fi
        if [ $good = 1 ]; then
            ok "$name: job $j submit $sub start $st end $en wait $wt response $rs slowdown $sd bsld $bs"
        else
            bad "$name: job $j expected submit $sub start $st end $en wait $wt response $rs slowdown $sd bsld $bs; got $got"
        fi
    done
}
# expect_metric NAME METRICS.JSON KEY VALUE
expect_metric() {
    v=$(jval "$2" "$3")
    if near "$v" "$4"; then ok "$1: $3 = $4"; else bad "$1: $3 = $4 (got '$v')"; fi
}

# A, FCFS, strict_order = yes (queue order J2 J3 J4 J5 J6; the head blocks):
#   t=0   J1 on PE0-2, ends 100. PE3 free.
#   t=10  J2 (2 PEs) cannot start: 1 free. t=20 J3 (1) would fit but waits
#         behind J2 (strict). t=30 J4, t=40 J5 queue.
#   t=100 J1 ends and J6 arrives at the same instant (completion first):
#         4 free. J2 on PE0,1 (100-150), J3 on PE2 (100-130); J4 needs 4,
#         1 free: blocks J5 and J6.
#   t=130 J3 ends: 2 free; J4 (4) still blocks - J5 (1 PE) could run but
#         the zero-CPU job is in its way.
#   t=150 J2 ends: J4 on PE0-3, holds them for an instant, ends at 150;
#         then at the same instant J5 on PE0 (150-160), J6 on PE1,2 (150-170).
#   job  submit start end  wait response          slowdown         bsld
#   1    0      0     100  0    100               100/100 = 1      1
#   2    10     100   150  90   140               140/50  = 2.8    2.8
#   3    20     100   130  80   110               110/30  = 3.6667 3.6667
#   4    30     150   150  120  120               undefined (exec 0) 120/max(0,10) = 12
#   5    40     150   160  110  120               120/10  = 12     12
#   6    100    150   170  50   70                70/20   = 3.5    3.5
#   total_time 170; response mean 660/6 = 110; wait mean 450/6 = 75;
#   execution mean (100+50+30+0+10+20)/6 = 35; slowdown mean over the 5
#   jobs with execution > 0: (1+2.8+3.666667+12+3.5)/5 = 4.593333;
#   bounded slowdown mean (1+2.8+3.666667+12+12+3.5)/6 = 5.827778;
#   CPU utilisation sum(threads*cpu)/(PEs*T) = (300+100+30+0+10+40)/(4*170)
#   = 480/680 = 0.705882; throughput 6/170 = 0.035294.
"$P" -c e2e.ini -t a.swf -o A-strict -q > /dev/null 2> A-strict.err
check "A strict: exit 0, nothing on stderr with -q" sh -c "test $? -eq 0 && test ! -s A-strict.err"
check "A strict: jobs.csv header starts job,submit,start,end,threads" \
    test "$(head -1 A-strict/jobs.csv | cut -d, -f1-5)" = "job,submit,start,end,threads"
expect_jobs "A strict" A-strict/jobs.csv <<'EOF'
1   0   0 100   0 100 1         1
2  10 100 150  90 140 2.8       2.8
3  20 100 130  80 110 3.6666667 3.6666667
4  30 150 150 120 120 -         12
5  40 150 160 110 120 12        12
6 100 150 170  50  70 3.5       3.5
EOF
M=A-strict/metrics.json
expect_metric "A strict" $M jobs_finished 6
expect_metric "A strict" $M total_time 170
expect_metric "A strict" $M response_time_mean 110
expect_metric "A strict" $M wait_time_mean 75
expect_metric "A strict" $M execution_time_mean 35
expect_metric "A strict" $M slowdown_mean 4.5933333
expect_metric "A strict" $M bounded_slowdown_mean 5.8277778
expect_metric "A strict" $M cpu_utilization 0.70588235
expect_metric "A strict" $M throughput 0.035294118
expect_metric "A strict" $M mpl_max 1
expect_metric "A strict" $M mpl_mean 1
expect_metric "A strict" $M pcs_count 0
expect_metric "A strict" $M page_faults_per_pe 0
expect_metric "A strict" $M comm_busy_time 0
check "A strict: not partial" test "$(jval $M partial)" = false

# A, FCFS, strict_order = no (later jobs that fit start), read from stdin:
#   t=0   J1 on PE0-2 (0-100).  t=10 J2 (2) waits: 1 free.
#   t=20  J3 (1) passes J2: PE3, 20-50.  t=30 J4 (4) waits; t=40 J5 (1)
#         waits: no PE free.
#   t=50  J3 ends: PE3 free; J2, J4 too wide, J5 fits: PE3, 50-60.
#   t=60  J5 ends: 1 free, nothing fits.
#   t=100 J1 ends, J6 arrives: 4 free; J2 first (FCFS) on PE0,1 (100-150);
#         J4 needs 4, 2 free: skipped; J6 arrives exactly as PEs free up
#         and starts at once on PE2,3 (100-120).
#   t=120 J6 ends: 2 free, J4 waits.  t=150 J2 ends: J4 on PE0-3, 150-150.
#   job  submit start end  wait response slowdown  bsld
#   1    0      0     100  0    100      1         1
#   2    10     100   150  90   140      2.8       2.8
#   3    20     20    50   0    30       1         1
#   4    30     150   150  120  120      -         12
#   5    40     50    60   10   20       2         2
#   6    100    100   120  0    20       1         1
#   total_time 150; response mean 430/6 = 71.666667; wait mean 220/6 =
#   36.666667; execution mean 35; slowdown mean (1+2.8+1+2+1)/5 = 1.56;
#   bsld mean (1+2.8+1+12+2+1)/6 = 3.3; utilisation 480/(4*150) = 0.8.
"$P" -c e2e.ini -t - --set scheduler.strict_order=no -o A-loose -q < a.swf > /dev/null 2>&1
check "A loose (stdin): exit 0" test $? -eq 0
expect_jobs "A loose" A-loose/jobs.csv <<'EOF'
1   0   0 100   0 100 1   1
2  10 100 150  90 140 2.8 2.8
3  20  20  50   0  30 1   1
4  30 150 150 120 120 -   12
5  40  50  60  10  20 2   2
6 100 100 120   0  20 1   1
EOF
M=A-loose/metrics.json
expect_metric "A loose" $M jobs_finished 6
expect_metric "A loose" $M total_time 150
expect_metric "A loose" $M response_time_mean 71.666667
expect_metric "A loose" $M wait_time_mean 36.666667
expect_metric "A loose" $M execution_time_mean 35
expect_metric "A loose" $M slowdown_mean 1.56
expect_metric "A loose" $M bounded_slowdown_mean 3.3
expect_metric "A loose" $M cpu_utilization 0.8
expect_metric "A loose" $M mpl_max 1
expect_metric "A loose" $M pcs_count 0

# Trace B, submit times from 1000 in the file: jobs arrive relative to the
# first (K1 at 0). K1 takes all 4 PEs for 100 s; the others queue behind
# it and their order at t=100 depends on the priority.
#   K1 0 4x100   K2 10 1x40   K3 20 3x20   K4 30 2x10   K5 40 1x10   K6 50 3x10
cat > b.swf <<'EOF'
1 1000 -1 -1 4 100 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
2 1010 -1 -1 1  40 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
3 1020 -1 -1 3  20 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
4 1030 -1 -1 2  10 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
5 1040 -1 -1 1  10 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
6 1050 -1 -1 3  10 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
EOF
# expect_se NAME JOBS.CSV "job:start:end ...": start and end of each job.
expect_se() {
    got=""; want=""
    for e in $3; do
        j=${e%%:*}
        got="$got $j:$(jobf "$2" "$j" start):$(jobf "$2" "$j" end)"
        want="$want $e"
    done
    if [ "$got" = "$want" ]; then ok "$1: start:end$want"; else bad "$1: start:end expected$want, got$got"; fi
}
# BESTFIT (widest first, ties by trace order), strict: order K3 K6 K4 K2 K5.
#   t=100 K3 on PE0-2 (100-120); head K6 (3) > 1 free: blocks.
#   t=120 K6 on PE0-2 (120-130); head K4 (2) > 1 free: blocks.
#   t=130 K4 on PE0,1 (130-140), K2 on PE2 (130-170), K5 on PE3 (130-140).
"$P" -c e2e.ini -t b.swf --set scheduler.priority=BESTFIT -o B-best -q > /dev/null 2>&1
check "B: submit times relative to the first job (0 10 20 30 40 50)" \
    test "$(for j in 1 2 3 4 5 6; do printf '%s ' "$(jobf B-best/jobs.csv $j submit)"; done)" = "0 10 20 30 40 50 "
expect_se "B BESTFIT strict" B-best/jobs.csv "1:0:100 2:130:170 3:100:120 4:130:140 5:130:140 6:120:130"
check "B BESTFIT strict: total_time 170" near "$(jval B-best/metrics.json total_time)" 170
# BESTFIT, not strict: t=100 K3 on PE0-2 (100-120), then the widest that
# fits 1 PE: K2 on PE3 (100-140). t=120 K6 on PE0-2 (120-130). t=130 K4
# on PE0,1 and K5 on PE2 (130-140).
"$P" -c e2e.ini -t b.swf --set scheduler.priority=bestfit --set scheduler.strict_order=no -o B-best-loose -q > /dev/null 2>&1
expect_se "B BESTFIT loose" B-best-loose/jobs.csv "1:0:100 2:100:140 3:100:120 4:130:140 5:130:140 6:120:130"
# WORSTFIT (narrowest first), strict: order K2 K5 K4 K3 K6.
#   t=100 K2 on PE0 (100-140), K5 on PE1 (100-110), K4 on PE2,3 (100-110);
#         head K3 (3): 0 free.
#   t=110 K3 on PE1-3 (110-130).  t=130 K6 on PE1-3 (130-140).
"$P" -c e2e.ini -t b.swf --set scheduler.priority=WorstFit -o B-worst -q > /dev/null 2>&1
expect_se "B WORSTFIT strict" B-worst/jobs.csv "1:0:100 2:100:140 3:110:130 4:100:110 5:100:110 6:130:140"
# FCFS, strict, for contrast: t=100 K2 on PE0 (100-140), K3 on PE1-3
# (100-120); K4 blocks. t=120 K4 on PE1,2, K5 on PE3 (120-130); K6 blocks.
# t=130 K6 on PE1-3 (130-140).
"$P" -c e2e.ini -t b.swf -o B-fcfs -q > /dev/null 2>&1
expect_se "B FCFS strict" B-fcfs/jobs.csv "1:0:100 2:100:140 3:100:120 4:120:130 5:120:130 6:130:140"

# ---- output formats --------------------------------------------------------

"$P" -c e2e.ini -t a.swf -o fmt --format json -q > fmt.json 2>/dev/null
rc=$?
check "--format json: exit 0, valid JSON on stdout" sh -c "test $rc -eq 0 && '$PY' -c 'import json,sys; json.load(sys.stdin)' < fmt.json"
check "metrics.json: valid JSON" sh -c "'$PY' -c 'import json,sys; json.load(sys.stdin)' < fmt/metrics.json"
check "--format json equals metrics.json" cmp -s fmt.json fmt/metrics.json
check "metrics.json: the 19 metrics, seed, trace, dropped, partial" "$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
keys = """total_time jobs_finished throughput cpu_utilization page_faults_per_pe
page_fault_time_per_pe comm_busy_time mem_alloc_mean mem_alloc_sd disk_alloc_mean
disk_alloc_sd response_time_mean wait_time_mean execution_time_mean slowdown_mean
bounded_slowdown_mean mpl_max mpl_mean pcs_count seed trace dropped partial""".split()
missing = [k for k in keys if k not in d]
sys.exit(1 if missing or not isinstance(d["dropped"], dict) else 0)' fmt/metrics.json
"$P" -c e2e.ini -t a.swf -o fmt2 --format csv -q > fmt.csv 2>/dev/null
check "--format csv: two lines of 19 comma-separated columns" \
    awk -F, 'NF != 19 { bad = 1 } END { exit !(NR == 2 && !bad) }' fmt.csv
check "--format csv: header starts total_time, jobs_finished; values match (6 jobs, 170 s)" \
    awk -F, 'NR == 1 { ok1 = ($1 == "total_time" && $2 == "jobs_finished" && $19 == "pcs_count") }
             NR == 2 { ok2 = ($1 == 170 && $2 == 6) } END { exit !(ok1 && ok2) }' fmt.csv
check "metrics.dat: a header and one line of 19 space-separated values" \
    awk 'NF != 19 { bad = 1 } NR == 2 { for (i = 1; i <= NF; i++) if ($i !~ /^-?[0-9.e+-]+$/) bad = 1 }
         END { exit !(NR == 2 && !bad) }' fmt/metrics.dat
check "metrics.dat header = --format csv header" \
    test "$(head -1 fmt/metrics.dat | tr ' ' ,)" = "$(head -1 fmt.csv)"
"$P" -c e2e.ini -t a.swf -o fmt3 -q > fmt.txt 2>/dev/null
check "text format: the 19 numbered metrics" \
    sh -c "test \$(grep -c '^ *[0-9][0-9]*  ' fmt.txt) -eq 19"
# Default output directory: the current one.
mkdir cwd && (cd cwd && "$P" -c ../e2e.ini -t ../a.swf -q > /dev/null 2>&1)
check "no -o: files in the current directory" \
    sh -c 'for f in jobs.csv samples.csv metrics.json metrics.dat config.ini; do test -s cwd/$f || exit 1; done'
check "no .tmp files left anywhere" test "$(tmpfiles)" -eq 0
# Progress lines on stderr (not a terminal) every [output] progress_interval
# wall seconds (default 60), never per metrics_period: this run takes well
# under a second, so none (test_cli.sh checks the lines themselves).
"$P" -c "$DEFAULT" $SLICE -o prog > /dev/null 2> prog.err
check "a run shorter than progress_interval: nothing on stderr" test ! -s prog.err
"$P" -c "$DEFAULT" $SLICE -o quiet -q > /dev/null 2> quiet.err
check "-q: nothing on stderr" test ! -s quiet.err
# Aliases of PNRSim's options; reports.
"$P" --configfile e2e.ini --tracefile a.swf -o alias -q > /dev/null 2> alias.err
check "--configfile/--tracefile aliases: same jobs.csv" cmp -s A-strict/jobs.csv alias/jobs.csv
"$P" -c e2e.ini -t a.swf -o kr -q --simpack-report --hardware-report > /dev/null 2> kr.err
check "--simpack-report and --hardware-report: exit 0, reports on stderr" \
    sh -c "test $? -eq 0 && grep -q 'events dispatched' kr.err && grep -q '^PEs: 4' kr.err"
# Racks, memory servers and RAM groups in the hardware report (issue 15):
# 4 compute PEs in racks of 2, 2 memory servers in a rack of their own.
"$P" -c e2e.ini -t a.swf -o hwt -q --hardware-report --set network.topology=tree \
    --set network.rack_size=2 --set computer.memory_servers=2 \
    --set network.memory_server_placement=racks --set "computer.ram=2x64, 2x128" \
    --set computer.memory_server_ram=512 --set process.comm_rate=1 > /dev/null 2> hwt.err
check "--hardware-report: tree of 3 racks, memory servers, RAM groups" \
    sh -c "test $? -eq 0 && grep -q '^PEs: 4 x .*RAM: 2 with 64 MB + 2 with 128 MB' hwt.err &&
           grep -q '^Memory servers: 2 (PEs 4..5), RAM 512 MB' hwt.err &&
           grep -q 'tree: 3 racks of up to 2 PEs' hwt.err &&
           grep -q 'memory servers 4..5 in racks 2..2 of their own' hwt.err &&
           grep -q 'routes: 30 ordered pairs; 6 of 3 hops, 24 of 7 hops' hwt.err &&
           grep -q 'route 0->5 (7 hops): link 0, tor 0, uplink 0, core, uplink 2, tor 2, link 5' hwt.err"
# -v names every RAM group and the memory servers, not only the first group.
"$P" -c e2e.ini -t a.swf -o vgr -v --set network.topology=tree --set network.rack_size=2 \
    --set computer.memory_servers=2 --set computer.memory_server_ram=512 \
    --set "computer.ram=1x64, 2x128, 1x96" > /dev/null 2> vgr.err
check "-v: every RAM group, the memory servers and the racks" \
    grep -q '4 PEs of 1x64 + 2x128 + 1x96 MB and 2 memory servers of 512 MB, TREE network (racks of 2)' vgr.err
# The busy time by kind of element in metrics.json (tree only), from the
# hardware report's rows: each message through the core crosses two uplinks
# (5e-8 s latency + bytes / 1.25e7 B/s each), the rack links are the sum of
# the link rows, and the four kinds add up to comm_busy_time; a star run has
# none of these members.
check "tree: net_busy_* in metrics.json match the report's rows and sum to comm_busy_time" \
    awk -v up="$(jval hwt/metrics.json net_busy_uplinks)" -v rl="$(jval hwt/metrics.json net_busy_rack_links)" \
        -v ts="$(jval hwt/metrics.json net_busy_tor_switches)" -v cs="$(jval hwt/metrics.json net_busy_core_switch)" \
        -v all="$(jval hwt/metrics.json comm_busy_time)" '
        $1 == "core" && NF == 7 { u = 2 * ($2 * 5e-8 + $3 / 1.25e7) } $1 == "link" && NF == 8 { l += $5 }
        END { d = up - u; if (d < 0) d = -d; e = rl - l; if (e < 0) e = -e
              s = up + rl + ts + cs - all; if (s < 0) s = -s
              exit !(up > 0 && d <= 1e-5 * up && e <= 1e-5 * rl && s <= 1e-9 * all) }' hwt.err
check "star: no net_busy_* members in metrics.json" sh -c "! grep -q net_busy_ A-strict/metrics.json"
# Events per page fault and per job: dispatched / (disk + remote faults) and
# dispatched / jobs finished, recomputed here from metrics.json.
"$P" -c "$DEFAULT" $SLICE --set computer.ram=64 -o krf -q --kernel-report > /dev/null 2> krf.err
check "--kernel-report: events per page fault and per job match metrics.json" \
    awk -v ev="$(jval krf/metrics.json events)" -v fd="$(jval krf/metrics.json page_faults_disk)" \
        -v fr="$(jval krf/metrics.json page_faults_remote)" -v jobs="$(jval krf/metrics.json jobs_finished)" '
        /events per page fault/ { line = $0 }
        END { if (fd + fr == 0 || jobs == 0) exit 1
              want = sprintf("events per page fault %.2f, events per job %.1f", ev / (fd + fr), ev / jobs)
              exit index(line, want) == 0 }' krf.err

# ---- a burst ending exactly at a quantum end ----------------------------------
# Two 4-thread jobs of 100 CPU s on 4 PEs, MPL 2, PCS 0, neighbour messages
# every 10 CPU s, synchronisation every 20: with a quantum of exactly 10 s
# every burst ends at the very instant of a switch. Completions come before
# the scheduler at an instant, so the tie must behave like a quantum a hair
# longer (10.000001 s): the same kills and end times within 1e-4 s, never a
# synchronisation absorbed while the job is descheduled (which moved job 1's
# end by 10 s before this was fixed).
printf '1 0 -1 100 4 100 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n2 0 -1 100 4 100 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n' > tie.swf
for q in 10 10.000001; do
    "$P" -t tie.swf --set computer.number=4 --set scheduler.mpl=2 --set scheduler.pcs=0 \
        --set process.comm_rate=10 --set process.sync_rate=20 --set scheduler.quantum=$q \
        -q -o tie$q > /dev/null 2>&1
done
e1=$(awk -F, '$1 == 1 { print $4 }' tie10/jobs.csv)
e2=$(awk -F, '$1 == 1 { print $4 }' tie10.000001/jobs.csv)
check "quantum tie: job 1 ends as with a slightly longer quantum ($e1 vs $e2)" \
    awk -v a="$e1" -v b="$e2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && d < 1e-4) }'
check "quantum tie: same number of killed messages" \
    test "$(jval tie10/metrics.json messages_killed)" = "$(jval tie10.000001/metrics.json messages_killed)"

finish
