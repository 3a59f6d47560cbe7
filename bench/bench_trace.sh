#!/bin/sh
# bench/bench_trace.sh BUILD_DIR: whole-trace speed and memory.
#
# 1. The complete NASA iPSC/860 trace (18,239 jobs, 128 PEs) in space
#    sharing (MPL 1), run time as CPU demand, no paging and no messages:
#    wall time and jobs per second; then its CPU time (user + system, the
#    best of 5 rounds of 10 runs, per run: a machine shared with other
#    work slows the wall clock, the CPU time much less) and peak memory.
# 2. A one-million-job trace made of the NASA trace repeated 55 times with
#    shifted submit times (written to BUILD_DIR, not kept in the repository):
#    peak memory (maximum resident set) for the first 100,000 jobs and for
#    all of them; streaming means the two are about equal.
# 3. Backfilling (issue 14): the complete NASA trace with EASY and with
#    conservative backfilling (estimates: NASA has no requested times, so
#    the exact run times), then HPC2N (first 3,171 jobs, 240 PEs, requested
#    times) and the Lublin model (10,000 jobs, 256 PEs) with none, EASY and
#    conservative (memory_scale 0: no paging, so the figures are the
#    scheduler's): wall time and jobs per second.
set -e
B=${1:-build}
P=$B/pnrsim
NASA=traces/NASA-iPSC-1993-3.1-cln.swf.gz
# The machine size is given per trace (pnrsim refuses a key given twice).
N128="--set computer.number=128"
OPTS="--set workload.cpu_demand=runtime --set scheduler.mpl=1
      --set process.comm_rate=0 --set process.sync_rate=0 --set workload.default_memory=0
      --set simulation.metrics_period=1e12 -q --format csv"
measure() { # label, extra args...
    label=$1; shift
    /usr/bin/time -f "%e %M" -o "$B/time.txt" $P $OPTS -o "$B/bench-out" "$@" > "$B/bench-metrics.csv"
    read -r wall rss < "$B/time.txt"
    jobs=$(tail -1 "$B/bench-metrics.csv" | cut -d, -f2)
    awk -v l="$label" -v w="$wall" -v r="$rss" -v j="$jobs" \
        'BEGIN { printf "trace %-28s jobs=%d wall_s=%.3f jobs_per_s=%.0f peak_rss_kb=%d\n", l, j, w, (w > 0 ? j / w : 0), r }'
}
measure "nasa-full" -t $NASA $N128
# CPU time per run, best of 5 rounds of 10 runs (/usr/bin/time counts in
# hundredths of a second, a run takes a few of them).
best=""
for round in 1 2 3 4 5; do
    /usr/bin/time -f "%U %S %M" -o "$B/time.txt" sh -c '
        for i in 1 2 3 4 5 6 7 8 9 10; do "$@" > /dev/null || exit 1; done' sh \
        $P $OPTS $N128 -o "$B/bench-out" -t $NASA
    read -r u s rss < "$B/time.txt"
    best=$(awk -v u="$u" -v s="$s" -v b="$best" 'BEGIN { c = (u + s) / 10; print (b == "" || c < b) ? c : b }')
done
awk -v c="$best" -v r="$rss" 'BEGIN { printf "trace %-28s cpu_s=%.4f peak_rss_kb=%d\n", "nasa-full-cpu", c, r }'
measure "nasa-full-easy" -t $NASA $N128 --set scheduler.backfill=easy
measure "nasa-full-conservative" -t $NASA $N128 --set scheduler.backfill=conservative
for bf in none easy conservative; do
    measure "hpc2n-$bf" -t traces/hpc2n-seth-first3171.swf --set computer.number=240 \
        --set workload.memory_scale=0 \
        --set scheduler.backfill=$bf
    measure "lublin-$bf" -t traces/lublin-256-synthetic.swf --set computer.number=256 \
        --set workload.memory_scale=0 \
        --set scheduler.backfill=$bf
done
BIG=$B/million.swf
if [ ! -s "$BIG" ]; then
    zcat $NASA | awk '!/^;/ && NF >= 18 { n++; line[n] = $0; if ($2 > last) last = $2 }
        END { for (rep = 0; rep < 55; rep++) for (i = 1; i <= n; i++) {
                  split(line[i], f, " "); f[1] = rep * n + i; f[2] = f[2] + rep * (last + 3600);
                  s = f[1]; for (k = 2; k <= 18; k++) s = s " " f[k]; print s } }' > "$BIG"
fi
measure "million-first-100k" -t "$BIG" $N128 --set workload.max_jobs=100000
measure "million-all" -t "$BIG" $N128
