#!/bin/sh
# bench/bench_batched_nodes.sh BUILD_DIR: batched paging on nodes of 64
# cores (issue 33 item 5; docs/BATCHING.md "SSD swap, RDMA and nodes of
# several cores"): the CPU time of memory-pressure runs of today's machine
# preset (configs/machines/epyc-hdr-2022.ini: 64-core nodes, NVMe SSD swap
# of 78 servers, HDR InfiniBand with one-sided RDMA) in each paging mode,
# exact and batched, with the preset's costs on a fault's path on
# (computer.fault_cpu = 1.3 us, process.dirty_fraction = 1, SSD page writes
# of 21 us + 4096 B / 3500 MB/s, within the read's 92 us + 4096 B / 3500
# MB/s: batches plan them, the write beside the read, sched/batch.c).
#
# The scenario: configs/default.ini's trace and process model (the bundled
# HPC2N slice, gang MPL 2, neighbour messages every 600 CPU s), then the
# preset, cut to 4 nodes (computer.number = 256 cores), RAM of RAM_MB per
# node (default 2048: 32 MB per core, so that jobs 2101-2200 of the slice
# page: about 1.2e8 faults), the window of 100 jobs docs/BATCHING.md uses
# (workload.window = 21). Two machines:
#   ssd   no network RAM, no memory servers: every fault on the node's SSD;
#   rdma  CENTRAL network RAM by the preset's RDMA and its 4 memory
#         servers of 256 GB: (nearly) every fault remote (RDMA is not
#         batched: both modes run every fault exactly).
# MACHINES (default "ssd rdma") picks which.
#
# One line per machine and mode:
#   batched_nodes MACHINE MODE cpu_s=... events=... faults=... response_s=...
# then the ratio exact / batched CPU time per machine. Needs BUILD_DIR/pnrsim
# (a release build: make benches BUILD=build-bench). Minutes of CPU.
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
for machine in ${MACHINES:-ssd rdma}; do
    if [ "$machine" = ssd ]; then
        set -- --set computer.memory_servers=0 --set computer.memory_server_ram=262144 \
            --set netram.transport=messages --set netram.rdma_latency=0
    else
        set -- --set netram.enabled=yes --set netram.strategy=central
    fi
    for m in exact batched; do
        /usr/bin/time -f "%U %S" -o "$tmp/time" "$P" -q -c "$here/configs/default.ini" \
            -c "$here/configs/machines/epyc-hdr-2022.ini" -o "$tmp/$m" \
            --set computer.number=256 --set computer.ram="$RAM" \
            --set workload.max_jobs=100 --set workload.window=21 "$@" \
            --set process.paging="$m" > /dev/null 2> "$tmp/$m.err"
        read -r u s < "$tmp/time"
        ev=$(sed -n 's/.*"events": *\([0-9]*\).*/\1/p' "$tmp/$m/metrics.json")
        fd=$(sed -n 's/.*"page_faults_disk": *\([0-9]*\).*/\1/p' "$tmp/$m/metrics.json")
        fr=$(sed -n 's/.*"page_faults_remote": *\([0-9]*\).*/\1/p' "$tmp/$m/metrics.json")
        rt=$(sed -n 's/.*"response_time_mean": *\([0-9.e+]*\).*/\1/p' "$tmp/$m/metrics.json")
        awk -v x="$machine" -v m="$m" -v u="$u" -v s="$s" -v ev="$ev" -v f="$((fd + ${fr:-0}))" \
            -v r="$rt" 'BEGIN { printf "batched_nodes %s %s cpu_s=%.2f events=%d faults=%d response_s=%.1f\n",
                                x, m, u + s, ev, f, r }'
        echo "$u $s" > "$tmp/$m.cpu"
    done
    read -r eu es < "$tmp/exact.cpu"
    read -r bu bs < "$tmp/batched.cpu"
    awk -v x="$machine" -v e="$eu" -v f="$es" -v b="$bu" -v c="$bs" \
        'BEGIN { printf "batched_nodes %s ratio exact/batched=%.2f\n", x, (e + f) / (b + c) }'
done
