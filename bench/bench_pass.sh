#!/bin/sh
# bench/bench_pass.sh BUILD_DIR: the placement pass of one instant over
# many jobs (issue 32 item 5). n jobs of 10,000 threads (1 MB each, 100 s)
# all submitted at t = 0 on 10,000 PEs (computer.number = 10000, the
# reference defaults otherwise), scheduler.mpl = 0 (unlimited: the pass
# opens n slots) and, for reference, mpl = 2 (2 slots: the pass places 2
# jobs); simulation.max_time = 1, so the run is that instant's arrivals and
# pass (then one simulated second). Then the same at MPL 0 with
# scheduler.backfill = CONSERVATIVE at n = 250 / 500 / 1000 / 2000 (the
# pass opens a slot per job; before the fix each opening rebuilt every
# slot's profile: 0.9 / 3.2 / 13.4 s at n = 250 / 500 / 1000 on the machine
# of the fix, 0.07 / 0.10 / 0.19 / 0.38 s after; sched/backfill.c,
# lazy_open). Traces written into BUILD_DIR.
#
# Prints one line per case: n, MPL, wall time (best of PASS_REPS runs,
# default 1) and peak resident size. Before issue 32 the pass was quadratic
# in n (keep_out walked every slot x core per placement: 1.0 / 3.6 / 15 s
# at n = 250 / 500 / 1000 in the issue); it is linear now (the wall time
# roughly doubles with n).
set -e
B=${1:-build-bench}
P=$B/pnrsim
REPS=${PASS_REPS:-1}
if [ ! -x "$P" ]; then
    echo "bench_pass: $P missing: run make benches BUILD=$B first" >&2
    exit 2
fi
for n in 250 500 1000 2000; do
    T=$B/pass-$n.swf
    [ -s "$T" ] || awk -v n="$n" 'BEGIN { for (i = 1; i <= n; i++)
        printf "%d 0 -1 100 10000 100 1024 10000 100 -1 1 1 1 1 1 1 -1 -1\n", i }' > "$T"
done
for mode in 0 2 cons; do
    mpl=$mode bf=""
    ns="250 500 1000"
    if [ "$mode" = cons ]; then
        mpl=0 bf="--set scheduler.backfill=CONSERVATIVE" ns="250 500 1000 2000"
    fi
    for n in $ns; do
        best="" rss=""
        i=0
        while [ "$i" -lt "$REPS" ]; do
            i=$((i + 1))
            # exit status 3: no job finished by max_time (expected here)
            /usr/bin/time -f "%e %M" -o "$B/pass-time.txt" "$P" -q -t "$B/pass-$n.swf" \
                -o "$B/pass-out" --set computer.number=10000 --set scheduler.mpl="$mpl" \
                --set simulation.max_time=1 $bf > /dev/null 2>&1 || [ $? -eq 3 ]
            read -r w r <<TIME
$(tail -1 "$B/pass-time.txt")
TIME
            if [ -z "$best" ] || awk -v a="$w" -v b="$best" 'BEGIN { exit !(a < b) }'; then
                best=$w rss=$r
            fi
        done
        echo "pass jobs=$n threads=10000 pes=10000 mpl=$mpl${bf:+ backfill=CONSERVATIVE} wall_s=$best peak_rss_kb=$rss"
    done
done
