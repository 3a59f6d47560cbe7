#!/bin/sh
# tools/runtests.sh [-j N] [-t TIMES] BUILD PROGRAM... : run each test
# program (Check suites and shell test scripts), add up the checks they
# report, print "BUILD: N passed, N failed" and exit non-zero when
# anything failed.
#
# -j N runs up to N programs at once (default 1). Each program's output
# goes to a log of its own, printed whole and in the order given, as soon
# as it and every program before it have finished; the counts are the same
# as with -j 1. When TIMES (default BUILD/test-times.txt) lists an earlier
# run's times, the programs that took longest then start first; without
# one, those named in -f "NAME..." (base names: test_sweep) start first.
#
# Each program's wall and CPU time (user + sys of it and its children, from
# the shell's `times`) is measured; the end prints the ten slowest (by wall
# time, which under -j includes waiting for the other core) and the sums,
# and TIMES gets every program's line "WALL CPU PROGRAM" (seconds), slowest
# first.
jobs=1; timesfile=; first=
while :; do
    case $1 in
        -j) jobs=$2; shift 2 ;;
        -t) timesfile=$2; shift 2 ;;
        -f) first=$2; shift 2 ;;
        *) break ;;
    esac
done
case $jobs in ''|*[!0-9]*|0) echo "runtests.sh: -j wants a positive count, not '$jobs'" >&2; exit 2 ;; esac
build=$1; shift
timesfile=${timesfile:-$build/test-times.txt}
pass=0; fail=0; failed=""
dir=$(mktemp -d "${TMPDIR:-/tmp}/runtests.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
# Interrupted: stop the workers and the programs under way (programs run in
# the background ignore SIGINT, so ^C alone would leave them running).
stop() {
    trap '' INT TERM
    for f in "$dir"/*.pid "$dir"/worker.*; do
        [ -f "$f" ] && kill -TERM "$(cat "$f")" 2>/dev/null
    done
    exit 130
}
trap stop INT TERM
n=0; : > "$dir/times"
for t in "$@"; do n=$((n + 1)); printf '%s\n' "$t" > "$dir/$n.name"; done

# now: seconds since the epoch, with decimals where date has %N (GNU)
now() { s=$(date +%s.%N); case $s in *N*|*.) date +%s ;; *) echo "$s" ;; esac; }
# cpusum FILE: the children's user + sys seconds, from `times`' second line
# ("0m1.25s 0m0.10s" in dash and bash) in FILE
cpusum() { sed -n 2p "$1" | awk '{ s = 0; for (i = 1; i <= 2; i++) { split($i, a, "m");
                                       sub("s", "", a[2]); s += a[1] * 60 + a[2] } printf "%.2f", s }'; }
# runone K: run program K into K.log, then K.time ("WALL CPU") and K.rc;
# K.done last (the printer waits for it). In a subshell: `times` counts
# only this program.
runone() (
    t=$(cat "$dir/$1.name")
    t0=$(now)
    # started in the background and waited for, so that its pid is known
    # (K.pid: an interrupted run stops the programs under way)
    case "$t" in
        *.sh) sh "$t" "$build" >"$dir/$1.log" 2>&1 & ;;
        *) CK_FORK=yes "$t" >"$dir/$1.log" 2>&1 & ;;
    esac
    echo $! > "$dir/$1.pid"
    wait $!; rc=$?
    t1=$(now)
    times > "$dir/$1.times"
    echo "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') $(cpusum "$dir/$1.times")" > "$dir/$1.time"
    echo $rc > "$dir/$1.rc"
    : > "$dir/$1.done"
)
# count K: add program K's checks to pass/fail, as its log reports them
count() {
    k=$1; t=$(cat "$dir/$k.name"); rc=$(cat "$dir/$k.rc")
    # Check: "100%: Checks: 6, Failures: 0, Errors: 0"; scripts: "N passed, N failed"
    counts=$(sed -n -e 's/.*Checks: \([0-9]*\), Failures: \([0-9]*\), Errors: \([0-9]*\).*/\1 \2 \3/p' \
                    -e 's/^\(.*[^0-9]\)\{0,1\}\([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed.*$/S \2 \3/p' "$dir/$k.log" | tail -1)
    set -- $counts
    if [ "$1" = S ]; then p=$2; f=$3
    elif [ -n "$counts" ]; then p=$(($1 - $2 - $3)); f=$(($2 + $3))
    else p=0; f=0; fi
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
    pass=$((pass + p)); fail=$((fail + f))
    [ "$rc" -ne 0 ] && failed="$failed $t"
    echo "$(cat "$dir/$k.time") $t" >> "$dir/times"
}

if [ "$jobs" -eq 1 ]; then
    K=0
    while [ $K -lt $n ]; do
        K=$((K + 1)); runone $K; cat "$dir/$K.log"; count $K
    done
else
    # The order to start them in: by the earlier run's wall time, longest
    # first (programs it did not list first of all: -f's, then the others,
    # in the order given).
    old=$timesfile
    K=0
    while [ $K -lt $n ]; do
        K=$((K + 1))
        t=$(cat "$dir/$K.name")
        w=$( [ -f "$old" ] && awk -v t="$t" '$3 == t { print $1; exit }' "$old")
        if [ -z "$w" ]; then
            b=${t##*/}; b=${b%.*}
            case " $first " in *" $b "*) w=1000000000 ;; *) w=999999999 ;; esac
        fi
        echo "$w $K"
    done | sort -k1,1nr -k2,2n | awk '{ print $2 }' > "$dir/order"
    # N workers; each takes the next program not yet taken (mkdir is atomic)
    w=0
    while [ $w -lt "$jobs" ]; do
        w=$((w + 1))
        ( while read -r k; do mkdir "$dir/$k.taken" 2>/dev/null && runone "$k"; done < "$dir/order" ) &
        echo $! > "$dir/worker.$w"
    done
    K=0
    while [ $K -lt $n ]; do
        K=$((K + 1))
        while [ ! -e "$dir/$K.done" ]; do sleep 0.2 2>/dev/null || sleep 1; done
        cat "$dir/$K.log"; count $K
    done
    wait
fi

sort -k1,1nr "$dir/times" > "$timesfile" 2>/dev/null
echo "$build: the ten slowest test programs (wall s, CPU s):"
sort -k1,1nr "$dir/times" | head -10 | awk '{ printf "  %8.1f %8.1f  %s\n", $1, $2, $3 }'
awk '{ w += $1; c += $2 } END { printf "  all %d programs: %.0f s wall, %.0f s CPU\n", NR, w, c }' "$dir/times"
[ -n "$failed" ] && echo "failed programs:$failed"
echo "$build: $pass passed, $fail failed"
[ -z "$failed" ]
