#!/bin/sh
# bench/run.sh BUILD_DIR: run the benchmarks built in BUILD_DIR/bench and
# compare the C M/M/1 with SimPy 2.
#
#   BUILD_DIR/bench/bench_hold     hold model: kernel vs plain 4-ary heaps
#   BUILD_DIR/bench/bench_mm1      M/M/1 (tests/mm1.h), rho 0.9, 10^6 customers
#   bench/mm1_simpy.py             the same M/M/1 in SimPy 2 (/usr/bin/python3)
#
# Then prints the ratios of C over SimPy, computed with awk (target >= 50):
#   mm1 ratio customers c/simpy=...   customers per second: like for like,
#                                     the same model work on both sides
#   mm1 ratio events c/simpy=...      scheduler dispatches per second, each
#                                     kernel counting its own (sim.dispatched,
#                                     3.9 per customer, vs SimPy event notices
#                                     dispatched, 5 per customer)
#   mm1 ratio events-vs-arrdep ...    C dispatches/s over SimPy arrivals +
#                                     departures/s (2 per customer), the unit
#                                     SimPy is quoted in by peers.md; mixed
#                                     units, for reference only, no target
#
# With CIMBA=/path/to/MM1_single (Cimba's benchmark, built outside the
# project), the same M/M/1 against Cimba in CPU time of whole programs:
#   mm1 cimba customers=1000000 runs=5 ... ratio=R target=1.5 met=yes|no
# (R = Cimba's CPU seconds over pnrsim's: > 1 when pnrsim is faster);
# without it, "mm1 cimba skipped" (not a failure).
#
# Last, for every figure listed in bench/baseline.txt (the previous
# release's), a line
#   ratio PREFIX KEY baseline=B now=N speedup=S
# with S > 1 when today's figure is better (lower time, higher rate).
# bench/identical.sh is not run here (make identical).
#
# Environment: SIMPY_CUSTOMERS (default 1000000), SIMPY_REPS (default 3),
# HOLD_REPS and MM1_REPS (default 3), PYTHON (default /usr/bin/python3),
# CIMBA (Cimba's MM1_single, one or more paths; unset: that comparison is
# skipped, which is not a failure) and CIMBA_REPS (default 5).
# Every figure is the best of its repetitions. Other benchmarks (any other
# BUILD_DIR/bench/* executable, then every other bench/*.sh script, given
# BUILD_DIR) run after these.
set -e
B=${1:?usage: sh bench/run.sh BUILD_DIR}
PY=${PYTHON:-/usr/bin/python3}
SIMPY_CUSTOMERS=${SIMPY_CUSTOMERS:-1000000}
SIMPY_REPS=${SIMPY_REPS:-3}
HOLD_REPS=${HOLD_REPS:-3}
MM1_REPS=${MM1_REPS:-3}
CIMBA_REPS=${CIMBA_REPS:-5}
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# Everything below also goes to $tmp/all, from which the ratios against
# bench/baseline.txt are computed at the end.
if [ -z "${BENCH_RUN_INNER:-}" ]; then
    { BENCH_RUN_INNER=1 sh "$0" "$@" && echo 0 > "$tmp/status" || echo $? > "$tmp/status"; } |
        tee "$tmp/all"
    st=$(cat "$tmp/status" 2>/dev/null || echo 1)
    echo "== ratios against bench/baseline.txt (speedup > 1 = better than then)"
    awk -F'|' '
        FNR == NR { if ($0 !~ /^#/ && NF == 4) { n++; pre[n] = $1; key[n] = $2; base[n] = $3; dir[n] = $4 } next }
        { for (i = 1; i <= n; i++)
              if (!(i in now) && index($0, pre[i] " ") == 1) {
                  m = split($0, f, " ")
                  for (k = 1; k <= m; k++)
                      if (index(f[k], key[i] "=") == 1) { now[i] = substr(f[k], length(key[i]) + 2) }
              } }
        END { for (i = 1; i <= n; i++) {
                  if (!(i in now)) { printf "ratio %s %s baseline=%s now=missing\n", pre[i], key[i], base[i]; continue }
                  if (now[i] + 0 <= 0) { printf "ratio %s %s baseline=%s now=%s (below the measure'"'"'s resolution)\n", pre[i], key[i], base[i], now[i]; continue }
                  r = dir[i] == "higher" ? now[i] / base[i] : base[i] / now[i]
                  printf "ratio %s %s baseline=%s now=%s speedup=%.2f\n", pre[i], key[i], base[i], now[i], r } }
    ' "$here/baseline.txt" "$tmp/all"
    exit "$st"
fi

for x in bench_hold bench_mm1 cputime; do
    if [ ! -x "$B/bench/$x" ]; then
        echo "bench/run.sh: $B/bench/$x is missing (make bench builds it)" >&2
        exit 1
    fi
done

echo "== machine: $(nproc) CPU, $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), load $(cut -d' ' -f1-3 /proc/loadavg)"

echo "== hold model (best of $HOLD_REPS)"
"$B/bench/bench_hold" -r "$HOLD_REPS"

echo "== M/M/1 in C (best of $MM1_REPS)"
"$B/bench/bench_mm1" -r "$MM1_REPS" | tee "$tmp/c"

echo "== M/M/1 in SimPy 2 (best of $SIMPY_REPS)"
if "$PY" -c 'import SimPy.Simulation' >/dev/null 2>&1; then
    "$PY" "$here/mm1_simpy.py" "$SIMPY_CUSTOMERS" --reps "$SIMPY_REPS" | tee "$tmp/py"
    awk '
        # value of field "key=value" on the current line
        function val(key,   i, n, kv) {
            for (i = 1; i <= NF; i++) {
                n = split($i, kv, "=")
                if (n == 2 && kv[1] == key) return kv[2]
            }
            return ""
        }
        FILENAME ~ /\/c$/  && $3 == "events"    { ce = val("Mevents/s") }
        FILENAME ~ /\/c$/  && $3 == "customers" { cc = val("Mcustomers/s") }
        FILENAME ~ /\/py$/ && $3 == "events"    { pe = val("Mevents/s") }
        FILENAME ~ /\/py$/ && $3 == "customers" { pc = val("Mcustomers/s") }
        FILENAME ~ /\/py$/ && $3 == "arrdep"    { pa = val("Marrdep/s") }
        END {
            if (ce == "" || pe + 0 == 0 || pc + 0 == 0 || pa + 0 == 0) {
                print "mm1 ratio unavailable (missing figures)"; exit 1
            }
            r = cc / pc
            printf "mm1 ratio customers c/simpy=%.1f c_Mcustomers/s=%s simpy_Mcustomers/s=%s target=50 met=%s\n", \
                r, cc, pc, (r >= 50 ? "yes" : "no")
            r = ce / pe
            printf "mm1 ratio events c/simpy=%.1f c_Mevents/s=%s simpy_Mevents/s=%s target=50 met=%s\n", \
                r, ce, pe, (r >= 50 ? "yes" : "no")
            printf "mm1 ratio events-vs-arrdep c/simpy=%.1f c_Mevents/s=%s simpy_Marrdep/s=%s (mixed units, reference only)\n", \
                ce / pa, ce, pa
        }' "$tmp/c" "$tmp/py"
else
    echo "mm1 simpy skipped: $PY has no SimPy 2 (install python3-simpy)"
fi

# Cimba (github ambonvik/cimba, built outside the project; issue 11 goal 2):
# its benchmark/MM1_single (10^6 customers, rho 0.9) and bench_mm1 with the
# same customers, alternating, each whole program's CPU time (user +
# system, bench/cputime); the best of CIMBA_REPS runs of each. CIMBA may
# name several builds (e.g. the PGO and the release build), separated by
# blanks; each gets its line. Without CIMBA the comparison is skipped.
echo "== M/M/1 against Cimba (best of $CIMBA_REPS, CPU time, alternating)"
if [ -z "${CIMBA:-}" ]; then
    echo "mm1 cimba skipped: set CIMBA=/path/to/cimba-build/benchmark/MM1_single"
else
    for c in $CIMBA; do
        if [ ! -x "$c" ]; then
            echo "bench/run.sh: CIMBA: $c is not an executable" >&2
            exit 1
        fi
    done
    : > "$tmp/cimba"
    i=0
    while [ "$i" -lt "$CIMBA_REPS" ]; do
        i=$((i + 1))
        k=0
        for c in $CIMBA; do
            k=$((k + 1))
            echo "cimba$k $("$B/bench/cputime" "$c")" >> "$tmp/cimba"
        done
        echo "pnrsim $("$B/bench/cputime" "$B/bench/bench_mm1" -n 1000000 -r 1)" >> "$tmp/cimba"
    done
    k=0
    for c in $CIMBA; do
        k=$((k + 1))
        awk -v who="cimba$k" -v path="$c" -v n="$CIMBA_REPS" '
            $1 == who && (c == "" || $2 < c) { c = $2 }
            $1 == "pnrsim" && (p == "" || $2 < p) { p = $2 }
            END {
                r = c / p
                printf "mm1 cimba customers=1000000 runs=%d cimba=%s cimba_cpu_s=%.4f pnrsim_cpu_s=%.4f cimba_Mcustomers_per_cpu_s=%.3f pnrsim_Mcustomers_per_cpu_s=%.3f ratio=%.2f target=1.5 met=%s\n", \
                    n, path, c, p, 1 / c, 1 / p, r, (r >= 1.5 ? "yes" : "no")
            }' "$tmp/cimba"
    done
fi

# Any other benchmark: executables built from other bench/*.c, then the
# other bench/*.sh scripts (each given BUILD_DIR). One that fails is
# reported and the rest still run; the exit status is then 1.
failed=""
for x in "$B"/bench/*; do
    case $x in
    # gen_synth (bench_scale.sh's trace maker) and cputime are tools, not
    # benchmarks.
    *.d | *.o | */bench_hold | */bench_mm1 | */cputime | */gen_synth) continue ;;
    esac
    if [ -f "$x" ] && [ -x "$x" ]; then
        echo "== $(basename "$x")"
        "$x" || { st=$?; echo "bench FAILED $(basename "$x") status=$st"; failed="$failed $(basename "$x")"; }
    fi
done
for x in "$here"/*.sh; do
    case $x in
    */run.sh | */identical.sh) continue ;; # identical.sh: make identical
    esac
    if [ -f "$x" ]; then
        echo "== $(basename "$x")"
        sh "$x" "$B" || { st=$?; echo "bench FAILED $(basename "$x") status=$st"; failed="$failed $(basename "$x")"; }
    fi
done
if [ -n "$failed" ]; then
    echo "bench/run.sh: failed:$failed" >&2
    exit 1
fi
