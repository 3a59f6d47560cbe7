#!/bin/sh
# tools/runtests.sh BUILD PROGRAM... : run each test program (Check suites
# and shell test scripts), add up the checks they report, print
# "BUILD: N passed, N failed" and exit non-zero when anything failed.
build=$1; shift
pass=0; fail=0; failed=""
log=$(mktemp)
for t in "$@"; do
    case "$t" in
        *.sh) sh "$t" "$build" >"$log" 2>&1; rc=$? ;;
        *) CK_FORK=yes "$t" >"$log" 2>&1; rc=$? ;;
    esac
    cat "$log"
    # Check: "100%: Checks: 6, Failures: 0, Errors: 0"; scripts: "N passed, N failed"
    counts=$(sed -n -e 's/.*Checks: \([0-9]*\), Failures: \([0-9]*\), Errors: \([0-9]*\).*/\1 \2 \3/p' \
                    -e 's/^\(.*[^0-9]\)\{0,1\}\([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed.*$/S \2 \3/p' "$log" | tail -1)
    set -- $counts "$@"
    if [ "$1" = S ]; then p=$2; f=$3; shift 3
    elif [ -n "$counts" ]; then p=$(($1 - $2 - $3)); f=$(($2 + $3)); shift 3
    else p=0; f=0; fi
    if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
    pass=$((pass + p)); fail=$((fail + f))
    [ $rc -ne 0 ] && failed="$failed $t"
done
rm -f "$log"
[ -n "$failed" ] && echo "failed programs:$failed"
echo "$build: $pass passed, $fail failed"
[ -z "$failed" ]
