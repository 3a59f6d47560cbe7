#!/bin/sh
# bench/bench_schedule.sh BUILD_DIR: what --schedule costs, and that its
# memory stays flat (the schedule files are streamed).
#
# For each scenario, a quarter of the trace and the whole trace, each
# without and with --schedule --paje: wall time, peak memory (ru_maxrss from the
# -v kernel report) and the size of schedule.csv, pes.csv, memory.csv, paging.csv and
# schedule.paje. Flat memory = the peak with --schedule does not grow from
# the quarter to the whole trace more than it does without.
#   nasa     NASA iPSC/860 (18,239 jobs) on 128 PEs, MPL 2
#   synth8k  the Lublin synthetic trace (10,000 jobs) on 8,192 PEs, MPL 2
#            (pes.csv is then in rows of 32 PEs)
# Figures only: no pass/fail.
B=${1:?usage: sh bench/bench_schedule.sh BUILD_DIR}
case $B in /*) ;; *) B=$(pwd)/$B ;; esac
top=$(cd "$(dirname "$0")/.." && pwd)
P=$B/pnrsim
T=$(mktemp -d "${TMPDIR:-/tmp}/bench_schedule.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
one() { # NAME JOBS ARGS...
    name=$1 jobs=$2; shift 2
    for s in no yes; do
        o=$T/$name-$jobs-$s
        flag=""; [ $s = yes ] && flag="--schedule --paje"
        "$P" "$@" --set workload.max_jobs=$jobs $flag -q -v -o "$o" > /dev/null 2> "$o.err"
        w=$(sed -n 's/.* \([0-9.]*\) s wall.*/\1/p' "$o.err")
        m=$(sed -n 's/.*peak memory \([0-9]*\) KB.*/\1/p' "$o.err")
        sz=""
        [ $s = yes ] && sz=$(for f in schedule.csv pes.csv memory.csv paging.csv schedule.paje; do printf ' %s=%sB' $f $(wc -c < "$o/$f"); done)
        echo "schedule $name jobs=$jobs schedule=$s wall=${w}s peak_rss=${m}KB$sz"
    done
}
NASA="-t $top/traces/NASA-iPSC-1993-3.1-cln.swf.gz --set computer.number=128 --set scheduler.mpl=2"
one nasa 4560 $NASA
one nasa 18239 $NASA
SYN="-t $top/traces/lublin-256-synthetic.swf --set computer.number=8192 --set scheduler.mpl=2 --set simulation.metrics_period=86400"
one synth8k 2500 $SYN
one synth8k 10000 $SYN
