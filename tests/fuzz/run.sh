#!/bin/sh
# tests/fuzz/run.sh: run the libFuzzer targets of tests/fuzz/.
#
#   sh tests/fuzz/run.sh probe                 exit 0 when clang can build a
#                                              libFuzzer + ASan + UBSan program
#   sh tests/fuzz/run.sh BUILD SECONDS [smoke] run each BUILD/fuzz/fuzz_* for
#                                              SECONDS, one after the other
#
# Seeds are cut from the repository each time (so they follow it): the INI
# and PNRSim-format files of configs/, one --set line per key of
# configs/reference.ini, the first 12 lines of each trace in traces/ (plain,
# and gzip-compressed for fuzz_swf_gz) and the studies of configs/studies/.
# New inputs go to BUILD/fuzz/corpus/TARGET, anything that fails a property
# or crashes to BUILD/fuzz/findings/ (libFuzzer prints how to replay it).
# Each target prints "TARGET: N runs in S s (R/s), corpus C"; the last line
# is "fuzz: P passed, F failed" (with smoke: "fuzz-smoke: ...", the summary
# line tools/runtests.sh and make check read). Runs under nice.
top=$(cd "$(dirname "$0")/../.." && pwd)

if [ "$1" = probe ]; then
    command -v clang >/dev/null 2>&1 || exit 1
    d=$(mktemp -d)
    printf '%s\n' '#include <stdint.h>' '#include <stddef.h>' \
        'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);' \
        'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }' > "$d/p.c"
    clang -fsanitize=fuzzer,address,undefined -o "$d/p" "$d/p.c" >/dev/null 2>&1
    rc=$?
    rm -rf "$d"
    exit $rc
fi

B=${1:?usage: sh tests/fuzz/run.sh BUILD SECONDS [smoke] | probe}
T=${2:?usage: sh tests/fuzz/run.sh BUILD SECONDS [smoke] | probe}
label=fuzz
[ "$3" = smoke ] && label=fuzz-smoke
case $B in /*) ;; *) B=$top/$B ;; esac
seeds=$B/fuzz/seeds
rm -rf "$seeds"
mkdir -p "$seeds/fuzz_ini" "$seeds/fuzz_pnrsim" "$seeds/fuzz_set" \
    "$seeds/fuzz_swf" "$seeds/fuzz_swf_gz" "$seeds/fuzz_study" \
    "$B/fuzz/findings"
cp "$top"/configs/*.ini "$seeds/fuzz_ini/"
cp "$top"/configs/*.cfg "$seeds/fuzz_pnrsim/"
cp "$top"/configs/studies/*.ini "$seeds/fuzz_study/"
# reference.ini: "[section]" then "key = value": one "section.key=value" each.
awk '/^\[/ { s = substr($0, 2, index($0, "]") - 2); next }
     /^[ \t]*[A-Za-z_]+[ \t]*=/ && s != "" {
         split($0, kv, "="); k = kv[1]; v = substr($0, index($0, "=") + 1)
         sub(/[ \t]*;.*$/, "", v); gsub(/[ \t]/, "", k); gsub(/^[ \t]+|[ \t]+$/, "", v)
         n++; print s "." k "=" v > (dir "/" n)
     }' dir="$seeds/fuzz_set" "$top/configs/reference.ini"
for t in "$top"/traces/*; do
    [ -f "$t" ] || continue   # traces/curves/: fault curves, not SWF
    name=$(basename "$t")
    case $t in
        *.gz) gzip -dc "$t" | head -n 12 > "$seeds/fuzz_swf/${name%.gz}" ;;
        *) head -n 12 "$t" > "$seeds/fuzz_swf/$name" ;;
    esac
done
for t in "$seeds"/fuzz_swf/*; do
    gzip -c "$t" > "$seeds/fuzz_swf_gz/$(basename "$t").gz"
done

pass=0; fail=0
for f in "$B"/fuzz/fuzz_*; do
    [ -x "$f" ] || continue
    name=$(basename "$f")
    corpus=$B/fuzz/corpus/$name
    mkdir -p "$corpus"
    log=$B/fuzz/$name.log
    # -timeout: an input taking 10 s is a finding; -rss_limit_mb: so is
    # one needing 2 GB.
    nice "$f" -max_total_time="$T" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$B/fuzz/findings/$name-" \
        "$corpus" "$seeds/$name" > "$log" 2>&1
    rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    secs=$(sed -n 's/^stat::.*//; s/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)
    size=$(ls "$corpus" | wc -l)
    rate=$(sed -n "s/^stat::average_exec_per_sec: *//p" "$log" | tail -1)
    if [ $rc -eq 0 ]; then
        pass=$((pass + 1))
        echo "ok   $name: ${runs:-?} runs in ${secs:-?} s (${rate}/s), corpus $size"
    else
        fail=$((fail + 1))
        echo "FAIL $name (status $rc; log $log):"
        grep -E 'ERROR|property failed|SUMMARY|Test unit written' "$log" | head -8
    fi
done
echo "$label: $pass passed, $fail failed"
[ $fail -eq 0 ]
