#!/bin/sh
# bench/bench_scale.sh BUILD_DIR [JOBS]: a machine beyond the node at scale
# (issue 15): 8,192 compute PEs of 2 GB in 256 racks of 32 (network.topology
# = TREE), 512 memory servers of 8 GB spread over the racks (2 a rack),
# CENTRAL network RAM, GLOBAL memory-aware admission, space sharing (MPL 1),
# no neighbour or synchronisation messages, R = 1 s (a fault every ~4,096 /
# U CPU seconds of an overallocated thread), on a synthetic trace of JOBS
# jobs (default 100,000) written by bench/gen_synth (widths 1-256, run times
# 60 s - 10 h, 64 MB - 4 GB per thread, offered load 0.9; see its header)
# into BUILD_DIR, not kept in the repository.
#
# Prints one line: jobs, simulated time, events, remote faults, PNR
# requests, wall time, events per second and peak memory (maximum resident
# set, from /usr/bin/time). Needs `make benches` (BUILD_DIR/bench/gen_synth).
#
# What scans O(N) (N = 8,704 PEs) per message or decision, and so sets the
# cost per event at this size (measured with perf on 2,000 jobs: ~70% of the
# time in the manager's table lookups of server selection):
#   - server selection (netram.server_selection, every policy): one pass
#     over all N servers per ASK, reading the manager's table (pnr/select.c);
#     inherent in worst fit / best fit over N candidates;
#   - GLOBAL admission: one O(N) sum of available network RAM per placement
#     pass that needs it (sched/admit.c), O(threads) per job tried;
#   - MANAGER broadcasts (not used here): N-1 messages per changing round,
#     each carrying an O(N) table (techreport 5.5.3);
#   - gang placement: O(N) per job tried (lowest-numbered free PEs), as
#     before; quantum switches (MPL > 1) touch every running thread.
# Routes (TREE included), remote faults, grants and frees are O(1) or
# O(pieces) per message.
set -e
B=${1:-build-bench}
JOBS=${2:-100000}
P=$B/pnrsim
G=$B/bench/gen_synth
if [ ! -x "$P" ] || [ ! -x "$G" ]; then
    echo "bench_scale: $P or $G missing: run make benches BUILD=$B first" >&2
    exit 2
fi
T=$B/scale-synthetic-$JOBS.swf
[ -s "$T" ] || "$G" "$JOBS" 8192 1 > "$T"
/usr/bin/time -f "%e %M" -o "$B/scale-time.txt" "$P" -q -o "$B/scale-out" -t "$T" \
    --set simulation.metrics_period=86400 \
    --set computer.number=8192 --set computer.ram=2048 \
    --set computer.memory_servers=512 --set computer.memory_server_ram=8192 \
    --set network.topology=tree --set network.rack_size=32 \
    --set network.memory_server_placement=spread \
    --set netram.enabled=yes --set netram.strategy=central \
    --set scheduler.mpl=1 --set scheduler.mem_aware=global \
    --set process.mem_access_rate=1 --set process.comm_rate=0 --set process.sync_rate=0 \
    > /dev/null
read -r wall rss < "$B/scale-time.txt"
M=$B/scale-out/metrics.json
jv() { sed -n "s/^ *\"$1\": *\\([^,]*\\),*$/\\1/p" "$M" | head -1; }
awk -v j="$(jv jobs_finished)" -v t="$(jv total_time)" -v e="$(jv events)" \
    -v f="$(jv page_faults_remote)" -v w="$wall" -v r="$rss" \
    'BEGIN { printf "scale 8192 PEs + 512 memory servers in 256 racks: jobs=%d sim_s=%.0f events=%.0f remote_faults=%.0f wall_s=%.1f events_per_s=%.0f peak_rss_kb=%d\n", j, t, e, f, w, (w > 0 ? e / w : 0), r }'
