#!/bin/sh
# tools/sched-table.sh [BUILD_DIR]: the scheduling table of docs/SCHEDULING.md.
#
# Replays the bundled traces (HPC2N first 3,171 jobs on 240 PEs, NASA iPSC
# on 128, the Lublin model on 256) with the run time as CPU demand
# (workload.cpu_demand = RUNTIME), no memory (memory_scale 0: no paging),
# no messages, estimates = SWF field 9 where the trace has it (HPC2N; NASA
# and Lublin have none, so their estimates are exact), for
#   fcfs, sjf, wfp3 x none, easy, conservative at MPL 1 (strict_order yes,
#   which backfilling ignores), and
#   fcfs x none, easy, conservative with gang scheduling at MPL 2
#   (quantum 60 s, PCS 0.004 s), with alternative scheduling (the default)
#   and without it (scheduler.alternative = no, "2, no alt." in the table:
#   the condition of the gang-aware backfilling guarantee).
# Prints a Markdown table: mean wait (s), mean bounded slowdown (tau 10 s)
# and CPU utilisation from each run's metrics.json. Runs under nice; the
# results go to a temporary directory that is removed.
set -e
B=${1:-build}
P=$B/pnrsim
[ -x "$P" ] || { echo "sched-table: $P missing (make first)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
COMMON="--set workload.cpu_demand=runtime --set workload.memory_scale=0
        --set process.comm_rate=0 --set process.sync_rate=0
        --set simulation.metrics_period=1e12 -q"
get() { # metrics.json key
    sed -n "s/^ *\"$2\": *\([^,]*\),*$/\1/p" "$1/metrics.json" | head -1
}
echo "| trace | MPL | order | backfill | mean wait (s) | mean bounded slowdown | utilisation |"
echo "|---|---|---|---|---:|---:|---:|"
for t in "HPC2N traces/hpc2n-seth-first3171.swf 240" \
         "NASA traces/NASA-iPSC-1993-3.1-cln.swf.gz 128" \
         "Lublin traces/lublin-256-synthetic.swf 256"; do
    set -- $t
    name=$1 trace=$2 pes=$3
    for run in "1 fcfs yes" "1 sjf yes" "1 wfp3 yes" "2 fcfs yes" "2 fcfs no"; do
        set -- $run
        mpl=$1 prio=$2 alt=$3
        label=$mpl
        [ "$alt" = no ] && label="$mpl, no alt."
        for bf in none easy conservative; do
            out=$tmp/$name-$mpl-$prio-$bf-$alt
            nice "$P" $COMMON -t "$trace" --set computer.number="$pes" \
                --set scheduler.mpl="$mpl" --set scheduler.priority="$prio" \
                --set scheduler.alternative="$alt" \
                --set scheduler.backfill="$bf" -o "$out" > /dev/null
            printf '| %s | %s | %s | %s | %.0f | %.2f | %.3f |\n' "$name" "$label" "$prio" "$bf" \
                "$(get "$out" wait_time_mean)" "$(get "$out" bounded_slowdown_mean)" \
                "$(get "$out" cpu_utilization)"
        done
    done
done
