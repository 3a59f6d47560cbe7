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
# and the machines of later issues, exact (session 13, for issue 34's
# "exact, batched, WHOLE, nodes, RDMA, reclaim"; keys that exist at
# e150d94 and later):
#   nodes     CENTRAL on 30 nodes of 8 cores (240 PEs), 512 MB a node, SSD swap,
#             whole-node allocation (5.7 M SSD and 1.6 M remote faults)
#   rdma      CENTRAL with pages moved by one-sided RDMA
#   reclaim   CENTRAL at 96 MB a PE with lenders taking memory back
#             (netram.reclaim = SWAP: 19 reclaims)
#
# Environment: IDENT_MAX_TIME (default 386000) moves the cut-off of the
# paging runs (later = more faults, much longer runs: at 400000 s a run is
# ~26 M events); IDENT_REMOTE_TIME (default 3900000) that of the remote
# run; IDENT_KEEP=1 keeps the output directories.
#
# Provenance (issue 26): metrics.json's pnrsim_version and command_line
# differ between two builds by design (the version; argv[0] and -o in the
# command line) and are left out of the comparison; nothing else is. When
# OLD predates issue 26, its jobs.csv rows are compared with NEW's rows of
# finished jobs cut to OLD's columns, and metrics.json without NEW's
# trace_path and trace_sha256; the line then says what NEW adds. Between
# two builds that both have them, every byte counts again.
# When OLD predates issue 32 (queued rows of jobs.csv without a reason),
# NEW's reasons waiting and slot_not_reached are blanked before the
# comparison and counted on the line.
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
    note=""
    cmp -s "$tmp/$name/old/samples.csv" "$tmp/$name/new/samples.csv" || diff="$diff samples.csv"
    # jobs.csv: byte for byte; but when OLD predates issue 26 (its header
    # lacks the column `state`), only its rows are compared, with NEW's
    # rows of finished jobs cut to OLD's columns, and what NEW adds is
    # counted (its new columns, its rows of unfinished and dropped jobs).
    oldj=$tmp/$name/old/jobs.csv newj=$tmp/$name/new/jobs.csv
    # OLD predating issue 37: NEW's jobs.csv has one more column, last in
    # every row, bounded_slowdown_dedicated, and metrics.json one more
    # member, bounded_slowdown_dedicated_mean. Both are left out of the
    # comparison (everything else counts), and the line says so.
    new37=0
    if ! head -1 "$oldj" | grep -q ',bounded_slowdown_dedicated$' &&
        head -1 "$newj" | grep -q ',bounded_slowdown_dedicated$'; then
        new37=$(awk -F, 'NR > 1 && $NF != ""' "$newj" | wc -l | tr -d ' ')
        sed 's/,[^,]*$//' "$newj" > "$tmp/$name/new.jobs37"
        newj=$tmp/$name/new.jobs37
        note=" [jobs.csv: NEW's last column bounded_slowdown_dedicated (issue 37, $new37 values) left out]"
    fi
    if head -1 "$oldj" | grep -q ',state,' || ! head -1 "$newj" | grep -q ',state,'; then
        if ! cmp -s "$oldj" "$newj"; then
            # OLD predating issue 32 leaves the reason of queued rows
            # empty; NEW says waiting or slot_not_reached there. Compared
            # with those reasons blanked, and counted, when OLD has none.
            st=$(head -1 "$newj" | awk -F, '{for (i = 1; i <= NF; i++) if ($i == "state") print i}')
            if ! grep -q -e ',queued,waiting,' -e ',queued,slot_not_reached,' "$oldj" &&
                awk -F, -v OFS=, -v st="$st" '$st == "queued" && ($(st + 1) == "waiting" ||
                    $(st + 1) == "slot_not_reached") { $(st + 1) = ""; n++ } { print }
                    END { print n + 0 > "/dev/stderr" }' "$newj" > "$tmp/$name/new.jobs" \
                    2> "$tmp/$name/new.nreason" &&
                cmp -s "$oldj" "$tmp/$name/new.jobs"; then
                note="$note [jobs.csv: the same but the reason of $(cat "$tmp/$name/new.nreason") queued rows, empty in OLD (issue 32: waiting, slot_not_reached)]"
            else
                diff="$diff jobs.csv"
            fi
        fi
    else
        ncol=$(head -1 "$oldj" | awk -F, '{print NF}')
        st=$(head -1 "$newj" | awk -F, '{for (i = 1; i <= NF; i++) if ($i == "state") print i}')
        awk -F, -v n="$ncol" -v st="$st" 'NR == 1 || $st == "finished" {
            s = $1; for (i = 2; i <= n; i++) s = s "," $i; print s }' "$newj" > "$tmp/$name/new.jobs"
        if cmp -s "$oldj" "$tmp/$name/new.jobs"; then
            added=$(awk -F, -v st="$st" 'NR > 1 && $st != "finished"' "$newj" | wc -l)
            cols=$(head -1 "$newj" | cut -d, -f$((ncol + 1))-)
            note="$note [jobs.csv: OLD's rows and columns the same; NEW adds columns $cols and $((added)) rows of jobs not finished]"
        else
            diff="$diff jobs.csv"
        fi
    fi
    # metrics.json without its "events" line: an exact speed-up may
    # dispatch fewer events (a hold that is the next event anyway is taken
    # inline), which changes nothing else. Both counts are printed. Nor
    # the provenance lines that differ between two builds by design: the
    # version and the command line (its argv[0] and -o differ). The trace's
    # path and SHA-256 are compared. Members OLD does not have at all
    # (issue 26's provenance, when OLD predates it) are named, not compared.
    for side in old new; do
        grep -v -e '"events":' -e '^  "pnrsim_version": ' -e '^  "command_line": ' \
            "$tmp/$name/$side/metrics.json" > "$tmp/$name/$side.metrics"
    done
    if ! grep -q '"trace_sha256":' "$tmp/$name/old.metrics" &&
        grep -q '"trace_sha256":' "$tmp/$name/new.metrics"; then
        note="$note [metrics.json: NEW adds$(grep -o -e '"pnrsim_version"' -e '"command_line"' \
            -e '"trace_path"' -e '"trace_sha256"' "$tmp/$name/new/metrics.json" | tr '\n' ' ' |
            sed 's/^/ /')]"
        grep -v -e '^  "trace_path": ' -e '^  "trace_sha256": ' "$tmp/$name/new.metrics" \
            > "$tmp/$name/new.metrics2" && mv "$tmp/$name/new.metrics2" "$tmp/$name/new.metrics"
    fi
    if ! grep -q '"bounded_slowdown_dedicated_mean":' "$tmp/$name/old.metrics" &&
        grep -q '"bounded_slowdown_dedicated_mean":' "$tmp/$name/new.metrics"; then
        note="$note [metrics.json: NEW adds bounded_slowdown_dedicated_mean $(sed -n 's/^  "bounded_slowdown_dedicated_mean": \(.*\),$/\1/p' "$tmp/$name/new.metrics") (issue 37), left out]"
        grep -v '^  "bounded_slowdown_dedicated_mean": ' "$tmp/$name/new.metrics" \
            > "$tmp/$name/new.metrics2" && mv "$tmp/$name/new.metrics2" "$tmp/$name/new.metrics"
    fi
    cmp -s "$tmp/$name/old.metrics" "$tmp/$name/new.metrics" || diff="$diff metrics.json"
    ev0=$(sed -n 's/.*"events": *\([0-9]*\).*/\1/p' "$tmp/$name/old/metrics.json")
    ev=$(sed -n 's/.*"events": *\([0-9]*\).*/\1/p' "$tmp/$name/new/metrics.json")
    if [ -z "$diff" ]; then
        echo "identical $name: same (events $ev0 -> $ev)$note"
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
LATER="--set workload.max_jobs=600 --set simulation.max_time=$T $NET --set netram.strategy=central"
run nodes $LATER --set computer.ram=512 --set computer.cores_per_node=8 --set computer.swap=SSD \
    --set scheduler.node_sharing=EXCLUSIVE
run rdma $PAGING $NET --set netram.strategy=central --set netram.transport=RDMA
run reclaim $LATER --set computer.ram=96 --set netram.reclaim=SWAP
if [ $status = 0 ]; then
    echo "identical: all scenarios byte-identical (the event count aside)"
else
    echo "identical: DIFFERENCES FOUND"
fi
exit $status
