#!/bin/sh
# bench/bench_cores.sh BUILD_DIR [JOBS]: today's machine at scale (issue
# 25): 65,536 cores as 1,024 nodes of 64 cores (computer.cores_per_node =
# 64) next to the same 65,536 cores as PNRSim's one-core PEs, on the Lublin
# synthetic trace (traces/lublin-256-synthetic.swf, 256 processors) scaled
# to the machine: every job's processors times 256, written into BUILD_DIR
# (not kept in the repository). configs/default.ini's scheduler and process
# model (gang scheduling, MPL 2, neighbour messages every 600 CPU s,
# synchronisation every 3,600), 512 MB per thread (the trace has no memory
# field), 1,024 MB of RAM per core (65,536 MB per node), disk paging; the
# first JOBS jobs (default 100).
#
# Prints, for each machine, one line: cores, nodes, jobs, simulated time,
# events, wall time, events per second, the resident size right after start
# (a run of one job that ends at once: what the machine's tables cost) and
# the peak resident size of the run (/usr/bin/time). Needs `make benches`.
#
# Where the 64-core node saves: one network endpoint, one RAM, one disk and
# one PNR servent per node (1,024 instead of 65,536), and the neighbour
# messages of threads on one node are delivered through one event without
# crossing the network (docs/MODEL.md, "Nodes of several cores").
set -e
B=${1:-build-bench}
JOBS=${2:-100}
P=$B/pnrsim
if [ ! -x "$P" ]; then
    echo "bench_cores: $P missing: run make benches BUILD=$B first" >&2
    exit 2
fi
here=$(dirname "$0")
T=$B/lublin-65536.swf
[ -s "$T" ] || awk '/^;/ { print; next }
    NF >= 18 { if ($5 > 0) $5 = $5 * 256; if ($8 > 0) $8 = $8 * 256; print }' \
    "$here/../traces/lublin-256-synthetic.swf" > "$T"

run() { # name cores_per_node ram_per_node max_jobs outdir
    /usr/bin/time -f "%e %M" -o "$B/cores-time.txt" "$P" -q -c "$here/../configs/default.ini" \
        -o "$5" -t "$T" --set computer.number=65536 \
        --set computer.cores_per_node="$2" --set computer.ram="$3" \
        --set workload.default_memory=512 --set workload.max_jobs="$4" \
        --set simulation.metrics_period=86400 > /dev/null 2>&1
}
for C in 1 64; do
    ram=$((1024 * C))
    run start "$C" "$ram" 1 "$B/cores-start-$C"
    read -r _ start_rss < "$B/cores-time.txt"
    run full "$C" "$ram" "$JOBS" "$B/cores-out-$C"
    read -r wall rss < "$B/cores-time.txt"
    M=$B/cores-out-$C/metrics.json
    jv() { sed -n "s/^ *\"$1\": *\\([^,]*\\),*$/\\1/p" "$M" | head -1; }
    awk -v c="$C" -v j="$(jv jobs_finished)" -v t="$(jv total_time)" -v e="$(jv events)" \
        -v w="$wall" -v r="$rss" -v s="$start_rss" \
        'BEGIN { printf "cores 65536 cores_per_node=%d nodes=%d jobs=%d sim_s=%.0f events=%.0f wall_s=%.1f events_per_s=%.0f start_rss_kb=%d peak_rss_kb=%d\n", c, 65536 / c, j, t, e, w, (w > 0 ? e / w : 0), s, r }'
done
