#!/bin/sh
# tools/timed-steps.sh NAME TIMES -- MAKE-COMMAND... -- STEP... : run
# "MAKE-COMMAND STEP" for each STEP in turn (make check's and make
# check-long's steps), stopping at the first that fails, then print how
# long each step and the whole took ("make NAME: 7 min 3 s") and the ten
# slowest test programs of the TIMES files (tools/runtests.sh -t; a
# space-separated list, files that do not exist are left out). Exits with
# the failed step's status, 0 when all passed. POSIX sh.
name=$1 times=$2; shift 2
[ "$1" = -- ] && shift
cmd=
while [ $# -gt 0 ] && [ "$1" != -- ]; do cmd="$cmd '$1'"; shift; done
shift
# mmss S: "M min S s"
mmss() { if [ "$1" -ge 60 ]; then echo "$(($1 / 60)) min $(($1 % 60)) s"; else echo "$1 s"; fi; }
start=$(date +%s); rc=0; report=
for step in "$@"; do
    t0=$(date +%s)
    eval "$cmd \"\$step\""
    rc=$?
    report="$report  $step: $(mmss $(($(date +%s) - t0)))$([ $rc -ne 0 ] && echo ' (FAILED)')
"
    [ $rc -ne 0 ] && break
done
echo "---- make $name: the steps' times"
printf '%s' "$report"
list=
for f in $times; do [ -s "$f" ] && list="$list $f"; done
if [ -n "$list" ]; then
    echo "---- make $name: the ten slowest test programs (wall s, CPU s)"
    for f in $list; do awk -v b="$(dirname "$f")" '{ print $1, $2, (index($3, b "/") == 1 ? $3 : b ": " $3) }' "$f"; done |
        sort -k1,1nr | head -10 | awk '{ w = $1; c = $2; $1 = $2 = ""; sub(/^  /, ""); printf "  %8.1f %8.1f  %s\n", w, c, $0 }'
fi
echo "make $name: $(mmss $(($(date +%s) - start)))$([ $rc -ne 0 ] && echo ", FAILED (status $rc)")"
exit $rc
