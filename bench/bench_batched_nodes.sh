#!/bin/sh
# bench/bench_batched_nodes.sh BUILD_DIR: batched paging on nodes of 64
# cores (issue 33 item 5; docs/BATCHING.md "SSD swap and nodes of several
# cores"): the CPU time of one memory-pressure run of today's machine
# preset (configs/machines/epyc-hdr-2022.ini: 64-core nodes, NVMe SSD swap
# of 78 servers) in each paging mode, exact and batched.
#
# The scenario: configs/default.ini's trace and process model (the bundled
# HPC2N slice, gang MPL 2, neighbour messages every 600 CPU s), then the
# preset, cut to 4 nodes (computer.number = 256 cores), no memory servers
# and no network RAM (batched paging refuses one-sided RDMA), RAM of
# RAM_MB per node (default 2048: 32 MB per core, so the jobs of jobs
# 2101-2200 of the slice page: about 3e7 faults per node), the window of
# 100 jobs docs/BATCHING.md uses (workload.window = 21).
#
# One line per mode:
#   batched_nodes MODE cpu_s=... events=... faults=... response_s=...
# then the ratio exact / batched CPU time. Needs BUILD_DIR/pnrsim (a
# release build: make benches BUILD=build-bench).
set -e
B=${1:-build-bench}
P=${PNRSIM:-$B/pnrsim}
RAM=${RAM_MB:-2048}
here=$(cd "$(dirname "$0")/.." && pwd)
if [ ! -x "$P" ]; then
    echo "bench_batched_nodes: $P missing: run make benches BUILD=$B first" >&2
    exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
for m in exact batched; do
    /usr/bin/time -f "%U %S" -o "$tmp/time" "$P" -q -c "$here/configs/default.ini" \
        -c "$here/configs/machines/epyc-hdr-2022.ini" -o "$tmp/$m" \
        --set computer.number=256 --set computer.ram="$RAM" \
        --set computer.memory_servers=0 --set computer.memory_server_ram=262144 \
        --set netram.transport=messages --set netram.rdma_latency=0 \
        --set workload.max_jobs=100 --set workload.window=21 \
        --set process.paging="$m" > /dev/null 2> "$tmp/$m.err"
    read -r u s < "$tmp/time"
    ev=$(sed -n 's/.*"events": *\([0-9]*\).*/\1/p' "$tmp/$m/metrics.json")
    fd=$(sed -n 's/.*"page_faults_disk": *\([0-9]*\).*/\1/p' "$tmp/$m/metrics.json")
    rt=$(sed -n 's/.*"response_time_mean": *\([0-9.e+]*\).*/\1/p' "$tmp/$m/metrics.json")
    awk -v m="$m" -v u="$u" -v s="$s" -v ev="$ev" -v f="$fd" -v r="$rt" \
        'BEGIN { printf "batched_nodes %s cpu_s=%.2f events=%d faults=%d response_s=%.1f\n", m, u + s, ev, f, r }'
    echo "$u $s" > "$tmp/$m.cpu"
done
read -r eu es < "$tmp/exact.cpu"
read -r bu bs < "$tmp/batched.cpu"
awk -v e="$eu" -v f="$es" -v b="$bu" -v c="$bs" \
    'BEGIN { printf "batched_nodes ratio exact/batched=%.2f\n", (e + f) / (b + c) }'
