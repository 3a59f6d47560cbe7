#!/bin/sh
# tools/runtests.sh BUILD TEST... : run each Check test program, print a
# summary line "BUILD: N passed, N failed" and exit non-zero on any failure.
build=$1; shift
pass=0; fail=0; failed=""
for t in "$@"; do
    if CK_FORK=yes "$t"; then pass=$((pass+1)); else fail=$((fail+1)); failed="$failed $t"; fi
done
[ -n "$failed" ] && echo "failed programs:$failed"
echo "$build: $pass passed, $fail failed"
[ $fail -eq 0 ]
