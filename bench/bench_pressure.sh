#!/bin/sh
# bench/bench_pressure.sh BUILD_DIR: speed where pnrsim earns its keep
# (issue 11): memory-pressure runs, and startup of a large machine.
#
# Memory pressure, on the bundled HPC2N slice (configs/default.ini, 3,170
# jobs, 240 PEs, gang MPL 2), one line per run:
#   pressure NAME cpu_s=... wall_s=... events=... faults=... events_per_fault=... peak_rss_kb=...
# cpu_s is user + system time of the whole process (the figure compared
# with bench/baseline.txt: less sensitive than wall time to other load on
# the machine); events and events per fault come from --kernel-report.
#   disk-1024      1024 MB per PE, disk paging (1.05 M faults)
#   central-1024   the same with CENTRAL network RAM
#   disk-256-cut   256 MB per PE, disk paging, cut at t = 3,900,000 s
#   central-256-cut 256 MB, CENTRAL, cut at t = 3,900,000 s: 1.6 M faults,
#                  all from network RAM (the message walk)
# With BENCH_FULL=1 also the whole slice at 256 and 128 MB, disk and
# CENTRAL (minutes each; 128 MB CENTRAL took over 600 s before issue 11).
#
# Startup: 8,192 and 65,536 PEs, one job, no network RAM and CENTRAL:
#   startup NAME wall_s=... peak_rss_kb=...
#
# PNRSIM=path overrides BUILD_DIR/pnrsim (to measure another build).
set -e
B=${1:-build}
P=${PNRSIM:-$B/pnrsim}
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

pressure() { # NAME args...
    name=$1; shift
    /usr/bin/time -f "%U %S %e %M" -o "$tmp/time" \
        "$P" -c "$here/configs/default.ini" -q --kernel-report -o "$tmp/out" "$@" \
        > /dev/null 2> "$tmp/kernel"
    read -r u s w rss < "$tmp/time"
    ev=$(sed -n 's/.*"events": *\([0-9]*\).*/\1/p' "$tmp/out/metrics.json")
    fd=$(sed -n 's/.*"page_faults_disk": *\([0-9]*\).*/\1/p' "$tmp/out/metrics.json")
    fr=$(sed -n 's/.*"page_faults_remote": *\([0-9]*\).*/\1/p' "$tmp/out/metrics.json")
    awk -v n="$name" -v u="$u" -v s="$s" -v w="$w" -v r="$rss" -v ev="$ev" -v f="$((fd + fr))" \
        'BEGIN { printf "pressure %s cpu_s=%.2f wall_s=%.2f events=%d faults=%d events_per_fault=%s peak_rss_kb=%d\n",
                 n, u + s, w, ev, f, (f > 0 ? sprintf("%.2f", ev / f) : "-"), r }'
}
pressure disk-1024
pressure central-1024 --set netram.enabled=yes
pressure disk-256-cut --set computer.ram=256 --set simulation.max_time=3900000
pressure central-256-cut --set computer.ram=256 --set netram.enabled=yes --set simulation.max_time=3900000
if [ "${BENCH_FULL:-0}" = 1 ]; then
    for ram in 256 128; do
        pressure disk-$ram --set computer.ram=$ram
        pressure central-$ram --set computer.ram=$ram --set netram.enabled=yes
    done
fi

startup() { # NAME PES netram
    /usr/bin/time -f "%e %M" -o "$tmp/time" \
        "$P" -c "$here/configs/default.ini" -q -o "$tmp/out" --set computer.number=$2 \
        --set netram.enabled=$3 --set workload.max_jobs=1 > /dev/null
    read -r w rss < "$tmp/time"
    echo "startup $1 wall_s=$w peak_rss_kb=$rss"
}
startup pes-8192 8192 no
startup pes-65536 65536 no
startup pes-65536-central 65536 yes
