#!/bin/sh
# bench/identical.sh OLD_PNRSIM NEW_PNRSIM: are two builds' results
# byte-identical?
#
# Exact speed-ups (issue 11) must not change a single output byte. This runs
# the same scenarios with both binaries and compares jobs.csv, samples.csv
# and metrics.json byte for byte (cmp), except metrics.json's count of
# events dispatched, which exact speed-ups may lower (a hold that is the
# next event anyway taken inline, core/ev.h ev_next_is; one process per job,
# sched/job.h): both counts are printed. The scenarios,
# all on the bundled HPC2N slice (configs/default.ini, 600 jobs, 64 MB of
# RAM per PE so that threads page heavily from about t = 380,000 s, cut at
# t = 386,000 s to keep each run to a few million events):
#
#   disk      disk paging, no network RAM
#   central   network RAM, CENTRAL strategy (some faults served remotely,
#   client    requests partly granted and denied), and the same for
#   manager   CLIENT, MANAGER and BACKBONE (8 managers)
#   backbone
#   remote    CENTRAL network RAM on the whole slice with 256 MB per PE, cut
#             at t = 3,900,000 s: 1.6 M faults, all served from network RAM
#             (message walks; about 31 M events)
#   gang      mem-aware gang scheduling, MPL 3, 256 MB of RAM, first 1000
#             jobs (context switches, messages killed by switches)
#
# and, without memory or messages (run times as CPU demand), conservative
# backfilling at MPL 1 (issue 14: the kept reservations must give the
# schedule a rebuild gives):
#   cons-lublin    the Lublin model on 256 PEs, FCFS (exact estimates,
#                  saturated queue: most passes keep their reservations)
#   cons-hpc2n     the HPC2N slice on 240 PEs, SJF (requested times: early
#                  ends, rebuilds; arrivals sorted before reserved jobs)
#   nasa           the whole NASA iPSC/860 trace as bench/bench_trace.sh's
#                  nasa-full runs it (128 PEs, MPL 1, run times, no memory,
#                  no messages: every job one process), samples hourly
#
# and space sharing with memory from the trace (issue 11: jobs that page
# run a process per thread, the others one per job, side by side):
#   space-hpc2n    the first 1500 jobs of the HPC2N slice, 240 PEs of 256
#                  MB, MPL 1, no messages
#
# and the approximations (issue 24: results unchanged in both modes):
#   batched-disk, batched-central, batched-client, batched-manager,
#   batched-backbone   the five paging runs above with process.paging =
#                  BATCHED (docs/BATCHING.md)
#   batched-space  the disk paging run at MPL 1 (space sharing), batched
#                  (the five above are at the default MPL 2)
#   whole-central, whole-backbone   two of them with network.route = WHOLE
#   whole-batched-central   CENTRAL with both approximations
#
# Environment: IDENT_MAX_TIME (default 386000) moves the cut-off of the
# paging runs (later = more faults, much longer runs: at 400000 s a run is
# ~26 M events); IDENT_REMOTE_TIME (default 3900000) that of the remote
# run; IDENT_KEEP=1 keeps the output directories.
#
# Prints one line per scenario ("same" or "DIFFERENT: file ...") and exits
# 0 when every scenario is identical, 1 when one differs or a run fails, 2
# on bad usage. Not part of make check (results change whenever the model
# does, so there is no fixed reference to compare against); run it by hand
# or with `make identical REV=<git rev>`, which builds REV beside the tree.
set -u
OLD=${1:-}
NEW=${2:-}
if [ -z "$OLD" ] || [ -z "$NEW" ] || [ ! -x "$OLD" ] || [ ! -x "$NEW" ]; then
    echo "usage: sh bench/identical.sh OLD_PNRSIM NEW_PNRSIM (both executable)" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")/.." && pwd)
T=${IDENT_MAX_TIME:-386000}
T_REMOTE=${IDENT_REMOTE_TIME:-3900000}
tmp=$(mktemp -d)
if [ "${IDENT_KEEP:-0}" = 1 ]; then
    echo "outputs kept in $tmp"
else
    trap 'rm -rf "$tmp"' EXIT INT TERM
fi

PAGING="--set computer.ram=64 --set workload.max_jobs=600 --set simulation.max_time=$T"
NET="--set netram.enabled=yes --set netram.managers=8"
status=0
run() { # name, extra args...
    name=$1; shift
    for side in old new; do
        if [ $side = old ]; then bin=$OLD; extra=""; else bin=$NEW; extra=${IDENT_NEW_ARGS:-}; fi
        mkdir -p "$tmp/$name/$side"
        # shellcheck disable=SC2086 # $extra: options split on blanks
        if ! "$bin" -c "$here/configs/default.ini" -q -o "$tmp/$name/$side" "$@" $extra \
                > "$tmp/$name/$side.stdout" 2> "$tmp/$name/$side.stderr"; then
            echo "identical $name: FAILED ($side binary, see stderr below)"
            sed 's/^/    /' "$tmp/$name/$side.stderr" | head -5
            status=1
            return
        fi
    done
    diff=""
    for f in jobs.csv samples.csv; do
        cmp -s "$tmp/$name/old/$f" "$tmp/$name/new/$f" || diff="$diff $f"
    done
    # metrics.json without its "events" line: an exact speed-up may
    # dispatch fewer events (a hold that is the next event anyway is taken
    # inline), which changes nothing else. Both counts are printed.
    for side in old new; do
        grep -v '"events":' "$tmp/$name/$side/metrics.json" > "$tmp/$name/$side.metrics"
    done
    cmp -s "$tmp/$name/old.metrics" "$tmp/$name/new.metrics" || diff="$diff metrics.json"
    ev0=$(sed -n 's/.*"events": *\([0-9]*\).*/\1/p' "$tmp/$name/old/metrics.json")
    ev=$(sed -n 's/.*"events": *\([0-9]*\).*/\1/p' "$tmp/$name/new/metrics.json")
    if [ -z "$diff" ]; then
        echo "identical $name: same (events $ev0 -> $ev)"
    else
        echo "identical $name: DIFFERENT:$diff"
        status=1
    fi
}
run disk $PAGING
for s in central client manager backbone; do
    run "$s" $PAGING $NET --set netram.strategy=$s
done
run remote --set computer.ram=256 --set netram.enabled=yes --set simulation.max_time=$T_REMOTE
run gang --set scheduler.mpl=3 --set scheduler.mem_aware=yes --set computer.ram=256 \
    --set workload.max_jobs=1000
SPACE="--set workload.cpu_demand=runtime --set workload.memory_scale=0 --set process.comm_rate=0
       --set process.sync_rate=0 --set scheduler.mpl=1 --set scheduler.backfill=conservative"
run cons-lublin $SPACE -t "$here/traces/lublin-256-synthetic.swf" --set computer.number=256
run cons-hpc2n $SPACE -t "$here/traces/hpc2n-seth-first3171.swf" --set computer.number=240 \
    --set scheduler.priority=sjf
run nasa -t "$here/traces/NASA-iPSC-1993-3.1-cln.swf.gz" --set workload.cpu_demand=runtime \
    --set computer.number=128 --set scheduler.mpl=1 --set process.comm_rate=0 \
    --set process.sync_rate=0 --set workload.default_memory=0 \
    --set simulation.metrics_period=3600
run space-hpc2n --set scheduler.mpl=1 --set process.comm_rate=0 --set process.sync_rate=0 \
    --set computer.ram=256 --set workload.max_jobs=1500
B="--set process.paging=BATCHED"
W="--set network.route=WHOLE"
run batched-disk $PAGING $B
for s in central client manager backbone; do
    run "batched-$s" $PAGING $NET --set netram.strategy=$s $B
done
run batched-space $PAGING --set scheduler.mpl=1 $B
for s in central backbone; do
    run "whole-$s" $PAGING $NET --set netram.strategy=$s $W
done
run whole-batched-central $PAGING $NET --set netram.strategy=central $W $B
if [ $status = 0 ]; then
    echo "identical: all scenarios byte-identical (the event count aside)"
else
    echo "identical: DIFFERENCES FOUND"
fi
exit $status
