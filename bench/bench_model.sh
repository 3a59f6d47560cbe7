#!/bin/sh
# bench/bench_model.sh BUILD_DIR: the whole model's speed.
#
# The techreport's appendix-A configuration (64 PEs made 240 to fit the
# trace, star network, gang MPL 2, BACKBONE network RAM off) on the first
# jobs of the HPC2N trace, 32 MB of RAM per PE and 24 MB per thread where
# the trace gives none, so threads sharing PEs page: model events per second
# from --kernel-report. Then a smaller slice under callgrind (12 jobs, 16 MB
# of RAM so that every thread pages from the start, cut at 8000 s): the
# share of instructions spent in the event kernel (core/ev, core/proc),
# in random-number generation, and in the model (everything else).
set -e
B=${1:-build}
P=$B/pnrsim
ARGS="-c configs/pnrsim-appendix.cfg -t traces/hpc2n-seth-first3171.swf
      --set netram.enabled=no --set computer.number=240 --set workload.default_memory=24 -q"
$P $ARGS --set workload.max_jobs=40 -o "$B/bench-model" --kernel-report --format csv 2> "$B/kernel.txt" > /dev/null
awk '/events dispatched/ { ev = $2 } /events\/s/ { for (i = 1; i <= NF; i++) if ($i == "events/s,") r = $(i-1); w = $1 }
     END { printf "model appendix-A+hpc2n events=%d wall_s=%s model_events_per_s=%s\n", ev, w, r }' "$B/kernel.txt"
if command -v valgrind >/dev/null 2>&1 && command -v callgrind_annotate >/dev/null 2>&1; then
    rm -f "$B"/callgrind.out.*
    # Cut at 8000 s, the slice ends before any job does: pnrsim's status
    # is then 3 ("no job finished"), which is expected here.
    st=0
    valgrind --tool=callgrind --callgrind-out-file="$B/callgrind.out.model" \
        $P $ARGS --set workload.max_jobs=12 --set computer.ram=16 --set simulation.max_time=8000 \
        -o "$B/bench-model-cg" > /dev/null 2>&1 || st=$?
    if [ "$st" != 0 ] && [ "$st" != 3 ]; then
        echo "bench_model.sh: the callgrind run failed (status $st)" >&2
        exit 1
    fi
    callgrind_annotate --inclusive=no --threshold=100 "$B/callgrind.out.model" 2>/dev/null |
        awk '/PROGRAM TOTALS/ { gsub(",", "", $1); total = $1 + 0; next }
             /file:function/ { fn = 1; next }
             fn && /^$/ { fn = 0 }
             fn && /^ *[0-9,]+ .*[:]/ { gsub(",", "", $1); n = $1 + 0;
                 if ($0 ~ /core\/(ev|proc)\.[ch]/) k += n;
                 else if ($0 ~ /libgsl|libm[.-]|rng\.[ch]/) r += n; }
             END { if (total > 0) printf "model instruction share: kernel (core/ev, core/proc) %.1f%%, random numbers (GSL, libm, core/rng.c and rng.h) %.1f%%, model and rest %.1f%%\n", 100 * k / total, 100 * r / total, 100 * (total - k - r) / total }'
    callgrind_annotate --inclusive=no "$B/callgrind.out.model" 2>/dev/null | sed -n '/^--*$/,$p' | grep -E '^ *[0-9,]+ ' | head -12
fi
