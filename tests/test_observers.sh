#!/bin/sh
# tests/test_observers.sh: an observer never changes a result (issue 32
# item 1). The observers: --schedule (schedule.csv, pes.csv, memory.csv,
# paging.csv: the gang, PE and sampler observers), --paje (the Paje trace:
# the gang, PE and network observers, links and switches included),
# --hardware-report, --kernel-report, progress lines
# (output.progress_interval = 1 ms with standard error not a terminal: a
# line at every pause of the run that comes after 1 ms of wall time), and
# all of them at once. A run with observers must give the same jobs.csv
# and samples.csv byte for byte as the run without, and metrics.json apart
# from its command_line (which names the options), "events" included (an
# event scheduled for an observer would show there), and the same exit
# status (3 when no job finished, a run too).
#
# The configurations: the issue's reproducer (8 PEs, network RAM, route
# WHOLE, priority BESTFIT, two jobs; --paje changed total_time from
# 81.0583538788668 to 81.0628896089994 before the fix), run with each
# observer and all at once, and N random ones drawn from a fixed seed (the
# same every time), each run with all the observers at once and with two
# of them alone (the ten pairs in turn: each observer alone on 4 in 10, 60
# of the default 150). What they vary: nodes of 1, 2 or 4 cores
# (computer.number a multiple of cores_per_node, 4-16 PEs; RAM 16-64 MB per
# core, rack_size, managers and memory servers per node), swap DISK or SSD,
# network RAM off or on with every strategy and, when on, transport
# MESSAGES or RDMA and reclaim NONE, SWAP or REPLACE, route HOPS or WHOLE
# (WHOLE twice as often), paging EXACT or BATCHED, every topology (TREE
# with racks of 2-4 nodes and 0-2 memory servers), MPL 0 (unlimited) to 3,
# four queue orders, mem_aware NO, yes, LOCAL or GLOBAL, backfill NONE,
# EASY or CONSERVATIVE, strict_order and alternative yes or no,
# node_sharing SHARED or (with more than one core per node) EXCLUSIVE,
# neighbour and synchronisation messages or none, links of 1 or 12.5 MB/s,
# in one configuration in two a window of the schedule files
# (output.schedule_from 0, 1, 2 or 10 s, schedule_to 0.5, 5 or 40 s later
# or the end; given only to the runs that write them), and a trace of 4-14
# jobs of 1..PEs threads of 4-100 MB (so that PEs overallocate and page, to
# disk or to network RAM). Every drawn configuration must be accepted (a
# refused one fails the test, it is never skipped) and no key drawn may be
# without effect (no "has no effect" warning, paging's apart); at the end
# the test checks that every value above was drawn at least 3 times, each
# observer alone ran on at least 40 configurations and all at once on all.
#
# Each --paje trace is checked too: lines in time order, every link's and
# switch's states alternating and, without a window, their lengths summing
# to comm_busy_time (under WHOLE the network tells a reservation's
# instants after the fact).
#
# The one documented exception: with process.paging = BATCHED, --schedule
# and --paje, with or without a window (even a short one), make every
# fault of the whole run exact (config.c warns: the schedule files need
# every fault's instant; docs/BATCHING.md), so there those runs and the run
# with all observers must equal the run with paging = EXACT and no
# observer, byte for byte.
#
# Usage: sh tests/test_observers.sh [BUILD] (N=count of random
# configurations, default 150).
TEST_NAME=test_observers
. "$(dirname "$0")/lib.sh"
trap lib_cleanup EXIT
cd "$T" || exit 1

N=${N:-150}

# A linear congruential generator (the same numbers with any POSIX shell):
# rnd K sets r to 0..K-1.
seed=32001
rnd() {
    seed=$(((seed * 1103515245 + 12345) % 2147483648))
    r=$(((seed / 65536) % $1))
}
pick() { # pick WORD...: w = one of them
    rnd $#
    shift "$r"
    w=$1
}

# run DIR CONFIG TRACE OPTION...: one run into DIR; stderr kept in DIR.err.
run() {
    run_d=$1 run_c=$2 run_t=$3
    shift 3
    rm -rf "$run_d"
    "$P" -c "$run_c" -t "$run_t" -o "$run_d" "$@" > "$run_d.out" 2> "$run_d.err"
}

# same A B: the results of runs A and B are the same.
same() {
    [ -f "$1/jobs.csv" ] && [ -f "$2/jobs.csv" ] && rsame "$1" "$2" jobs.csv samples.csv metrics.json
}

# paje_net TRACE: "ok SUM" (SUM: the link and switch states' total length)
# when every timed line is in time order and each element's states
# alternate (pushed, popped, none left open), else what is wrong.
paje_net() {
    awk '$1 ~ /^[5-9]$|^1[01]$/ {
            t = $2 + 0
            if (t < last) { print "line " NR " goes back in time"; bad = 1; exit }
            last = t
            if (($1 == 8 || $1 == 9) && ($3 == "LS" || $3 == "SS")) {
                if ($1 == 8) {
                    if ($4 in since) { print "line " NR " pushes twice"; bad = 1; exit }
                    since[$4] = t
                } else {
                    if (!($4 in since)) { print "line " NR " pops idle"; bad = 1; exit }
                    sum += t - since[$4]; delete since[$4]
                }
            }
        }
        END { if (bad) exit; for (k in since) { print k " left open"; exit }
              printf "ok %.17g\n", sum }' "$1"
}

progress_seen=0
none_finished=0
whole_netram=0
batched=0

# observe NAME CONFIG TRACE BATCHED OBSERVERS [WINDOW...]: the base run and
# the run with each of OBSERVERS (a list of schedule paje hardware kernel
# progress all); WINDOW: options (--set output.schedule_from=...) given to
# the runs that write schedule files (schedule, paje, all). A base run that
# pnrsim refuses is a failure, never a configuration skipped.
observe() {
    ob_n=$1 ob_c=$2 ob_t=$3 ob_b=$4 ob_list=$5
    shift 5
    ob_win="$*"
    rm -rf o_schedule o_paje o_hardware o_kernel o_progress o_all
    # Exit 3 (no job finished: mem_aware refuses a job that can never fit)
    # is a run too, with its files; every other run must then exit 3 too.
    run base "$ob_c" "$ob_t" -q
    ob_rc=$?
    if [ "$ob_rc" != 0 ] && [ "$ob_rc" != 3 ]; then
        bad "$ob_n: base run refused or failed (exit $ob_rc: $(head -c 300 base.err))"
        return
    fi
    [ "$ob_rc" = 3 ] && none_finished=$((none_finished + 1))
    # Every key drawn means something: no "has no effect" warning, but
    # paging's (BATCHED made exact by nodes of several cores, SSD, RDMA...).
    if grep 'has no effect' base.err | grep -v '\[process\] paging = BATCHED' | grep -q .; then
        bad "$ob_n: a key without effect ($(grep 'has no effect' base.err | head -1))"
    fi
    # The schedule observers under BATCHED run every fault exactly: their
    # reference is the run with paging = EXACT.
    ref=base
    if [ "$ob_b" = 1 ]; then
        run exact "$ob_c" "$ob_t" -q --set process.paging=EXACT
        rc=$?
        [ "$rc" = "$ob_rc" ] || bad "$ob_n: EXACT run (exit $rc, base $ob_rc)"
        ref=exact
    fi
    all_ok=1
    for ob in $ob_list; do
        eval "n_$ob=\$((n_$ob + 1))"
        # $ob_win is a list of words without blanks inside (split on purpose).
        # shellcheck disable=SC2086
        case $ob in
            schedule) set -- -q --schedule $ob_win; r0=$ref ;;
            paje) set -- -q --paje $ob_win; r0=$ref ;;
            hardware) set -- -q --hardware-report; r0=base ;;
            kernel) set -- -q --kernel-report; r0=base ;;
            progress) set -- --set output.progress_interval=0.001; r0=base ;;
            all) set -- --schedule --paje --hardware-report --kernel-report \
                     --set output.progress_interval=0.001 $ob_win; r0=$ref ;;
        esac
        run "o_$ob" "$ob_c" "$ob_t" "$@"
        rc=$?
        if [ "$rc" != "$ob_rc" ]; then
            bad "$ob_n: run with $ob (exit $rc, base $ob_rc: $(head -c 300 "o_$ob.err"))"
            all_ok=0
            continue
        fi
        if ! same "$r0" "o_$ob"; then
            differ=
            for f in jobs.csv samples.csv; do
                cmp -s "$r0/$f" "o_$ob/$f" || differ="$differ $f"
            done
            jsame "$r0/metrics.json" "o_$ob/metrics.json" || differ="$differ metrics.json ($(diff \
                "$r0/metrics.json.nocmd" "o_$ob/metrics.json.nocmd" | grep '^[<>]' | head -2 | tr '\n' ' '))"
            bad "$ob_n: $ob changes the results (vs $r0:$differ)"
            all_ok=0
        fi
    done
    for f in o_progress.err o_all.err; do
        [ -f "$f" ] && grep -q 'elapsed' "$f" && progress_seen=$((progress_seen + 1))
    done
    # The trace the network observer wrote (its busy and idle instants are
    # told after the fact under WHOLE) is still in time order, each link's
    # and switch's states alternate, and they sum to comm_busy_time.
    # (With a window the trace keeps only part of the states: order and
    # alternation are checked, not the sum.)
    pjf=o_paje/schedule.paje
    [ -f "$pjf" ] || pjf=o_all/schedule.paje
    if [ -f "$pjf" ]; then
        pj=$(paje_net "$pjf")
        cb=$(jval "$ref/metrics.json" comm_busy_time)
        if [ "${pj%% *}" != ok ] || { [ -z "$ob_win" ] && ! awk -v a="${pj#ok }" -v b="$cb" \
            'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-9 * (b + 1)) }'; }; then
            bad "$ob_n: Paje network states ($pj; comm_busy_time $cb)"
            all_ok=0
        fi
    fi
    [ "$all_ok" = 1 ] && ok "$ob_n: the same with every observer"
}

# ---- the issue's reproducer -------------------------------------------------
printf '%s\n' '4 43 -1 10 3 10 150000 3 10 -1 1 1 1 1 1 1 -1 -1' \
    '5 43 -1 5 8 5 32768 8 5 -1 1 1 1 1 1 1 -1 -1' > repro.swf
cat > repro.ini <<EOF
[computer]
number = 8
[netram]
enabled = yes
[network]
route = WHOLE
[scheduler]
priority = BESTFIT
EOF
observe "reproducer (issue 32)" repro.ini repro.swf 0 "schedule paje hardware kernel progress all"
# It pages to network RAM over contended links: the case is not vacuous.
check "reproducer: pages to network RAM" [ "$(jval base/metrics.json page_faults_remote)" -gt 0 ]
check "reproducer: a --paje trace with links written" grep -q ' LS n' o_paje/schedule.paje

# ---- random configurations ----------------------------------------------------
# Each runs with all the observers at once and with two of them alone, the
# ten pairs in turn (each observer alone on 4 in 10 configurations).
pairs="schedule,paje schedule,hardware schedule,kernel schedule,progress paje,hardware
paje,kernel paje,progress hardware,kernel hardware,progress kernel,progress"
# Runs with each observer (n_schedule ... n_all, counted by observe).
# shellcheck disable=SC2034
n_schedule=0 n_paje=0 n_hardware=0 n_kernel=0 n_progress=0 n_all=0
drawn= # the values drawn, a word each (checked at the end: the draw covers them)
i=0
while [ "$i" -lt "$N" ]; do
    i=$((i + 1))
    # Nodes of 1, 2 or 4 cores (number a multiple of cores_per_node); RAM,
    # racks and managers are per node.
    pick 1 1 2 4; cpn=$w
    case $cpn in
        1) rnd 13; nodes=$((4 + r)) ;;
        2) rnd 7; nodes=$((2 + r)) ;;
        4) rnd 3; nodes=$((2 + r)) ;;
    esac
    npes=$((nodes * cpn))
    rnd 4; ram=$((16 * (r + 1) * cpn))
    pick yes yes yes no; netram=$w
    pick CENTRAL CLIENT MANAGER BACKBONE; strategy=$w
    rnd "$nodes"; managers=$((1 + r))
    pick WHOLE WHOLE HOPS; route=$w
    pick EXACT BATCHED; paging=$w
    pick STAR BUS WHEEL CONNECTED TREE TREE; topo=$w
    rnd 3; rack=$((2 + r))
    rnd 3; servers=$r
    [ "$topo" = TREE ] && [ "$netram" = yes ] || servers=0
    rnd 4; mpl=$r # 0 = unlimited
    pick FCFS BESTFIT WORSTFIT SJF; prio=$w
    pick 0 0.5 2; comm=$w
    pick 0 0 3; sync=$w
    pick 1 12.5; bw=$w
    rnd 5; period=$((1 + r))
    pick NO yes LOCAL GLOBAL; memaware=$w
    pick NONE EASY CONSERVATIVE; backfill=$w
    pick yes no; strict=$w
    pick yes no; alt=$w
    sharing=SHARED # EXCLUSIVE means something with cores_per_node > 1 only
    [ "$cpn" -gt 1 ] && pick SHARED EXCLUSIVE && sharing=$w
    pick DISK DISK SSD; swap=$w
    transport=MESSAGES reclaim=NONE # they need network RAM on
    if [ "$netram" = yes ]; then
        pick MESSAGES RDMA; transport=$w
        pick NONE SWAP REPLACE; reclaim=$w
    fi
    # A window of the schedule files in one configuration in two (given to
    # the runs that write them): from 0, 1 or 10 s, to 0.5, 5 or 40 s later
    # or to the end of the run.
    win=
    rnd 2
    if [ "$r" = 1 ]; then
        pick 0 1 10; wfrom=$w
        pick 0.5 5 40 end; wlen=$w
        if [ "$wlen" = end ]; then
            [ "$wfrom" = 0 ] && wfrom=2
            win="--set output.schedule_from=$wfrom"
        else
            win="--set output.schedule_from=$wfrom --set output.schedule_to=$(awk \
                -v a="$wfrom" -v b="$wlen" 'BEGIN { print a + b }')"
        fi
    fi
    {
        echo "[simulation]"
        echo "metrics_period = $period"
        rnd 1000; echo "seed = $((r + 1))"
        echo "[process]"
        echo "mem_access_rate = 0.00003"
        echo "comm_rate = $comm"
        echo "sync_rate = $sync"
        echo "paging = $paging"
        echo "[scheduler]"
        echo "mpl = $mpl"
        echo "priority = $prio"
        echo "quantum = 2"
        echo "mem_aware = $memaware"
        echo "backfill = $backfill"
        echo "strict_order = $strict"
        echo "alternative = $alt"
        echo "node_sharing = $sharing"
        echo "[computer]"
        echo "number = $npes"
        echo "cores_per_node = $cpn"
        echo "ram = $ram"
        echo "swap = $swap"
        echo "memory_servers = $servers"
        [ "$servers" -gt 0 ] && echo "memory_server_ram = 64"
        echo "[netram]"
        echo "enabled = $netram"
        echo "strategy = $strategy"
        echo "managers = $managers"
        echo "transport = $transport"
        echo "reclaim = $reclaim"
        echo "[network]"
        echo "topology = $topo"
        echo "route = $route"
        echo "bandwidth = $bw"
        if [ "$topo" = TREE ]; then
            echo "rack_size = $rack"
            echo "uplink_bandwidth = 0.5"
        fi
    } > "c$i.ini"
    rnd 11; njobs=$((4 + r))
    submit=0
    : > "c$i.swf"
    j=0
    while [ "$j" -lt "$njobs" ]; do
        j=$((j + 1))
        rnd "$npes"; procs=$((1 + r))
        rnd 20; cpu=$((1 + r))
        rnd 97; mem=$(((4 + r) * 1024))
        echo "$j $submit -1 $cpu $procs $cpu $mem $procs $cpu -1 1 1 1 1 1 1 -1 -1" >> "c$i.swf"
        rnd 6; submit=$((submit + r))
    done
    b=0
    [ "$paging" = BATCHED ] && b=1 && batched=$((batched + 1))
    [ "$route" = WHOLE ] && [ "$netram" = yes ] && whole_netram=$((whole_netram + 1))
    wname=
    [ -n "$win" ] && wname=window && [ "$b" = 1 ] && wname="$wname window_batched"
    drawn="$drawn cpn$cpn mpl$mpl mem_aware_$memaware backfill_$backfill alternative_$alt
        $sharing swap_$swap transport_$transport reclaim_$reclaim $wname"
    pair=$(echo "$pairs" | tr '\n' ' ' | cut -d' ' -f$(((i - 1) % 10 + 1)) | tr , ' ')
    observe "config $i ($npes PEs of $cpn per node, $topo, $route, $paging, netram $netram \
$strategy $transport reclaim $reclaim, MPL $mpl, $prio, mem_aware $memaware, backfill $backfill, \
alternative $alt, $sharing, $swap${win:+, window${win#--set output.schedule}})" \
        "c$i.ini" "c$i.swf" "$b" "$pair all" $win # split on purpose
done

# The draw covers what it must (not vacuous): WHOLE with network RAM, batched
# paging, progress lines actually written, every value of each varied key,
# and each observer alone on at least 40 configurations (all at once: all).
check "random: at least a quarter WHOLE with network RAM ($whole_netram of $N)" \
    [ $((whole_netram * 4)) -ge "$N" ]
check "random: some BATCHED ($batched of $N)" [ "$batched" -gt 0 ]
check "progress lines written in some runs ($progress_seen)" [ "$progress_seen" -gt 0 ]
check "random: most runs finish a job ($none_finished of $N finished none)" \
    [ $((none_finished * 10)) -le "$N" ]
for v in cpn1 cpn2 cpn4 mpl0 mpl1 mpl2 mpl3 mem_aware_NO mem_aware_yes mem_aware_LOCAL \
    mem_aware_GLOBAL backfill_NONE backfill_EASY backfill_CONSERVATIVE alternative_yes \
    alternative_no SHARED EXCLUSIVE swap_DISK swap_SSD transport_MESSAGES transport_RDMA \
    reclaim_NONE reclaim_SWAP reclaim_REPLACE window window_batched; do
    c=$(printf '%s\n' $drawn | grep -c -x "$v")
    check "random: $v drawn in at least 3 configurations ($c of $N)" [ "$c" -ge 3 ]
done
for ob in schedule paje hardware kernel progress; do
    eval "c=\$n_$ob"
    check "random: $ob alone on at least 40 configurations ($c)" [ "$c" -ge 40 ]
done
check "random: all observers at once on every configuration ($n_all of $N)" [ "$n_all" = "$N" ]
finish
