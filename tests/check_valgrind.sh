#!/bin/sh
# tests/check_valgrind.sh BUILD: the unit tests and two whole runs under
# valgrind (memcheck), for `make check-valgrind`.
#
# Each unit-test program of BUILD/tests runs in Check's fork mode (the
# default: valgrind follows each test's child, and a child with an error
# exits 99, which Check reports as an error of that test), then two runs of
# BUILD/pnrsim:
#   - the default scenario (configs/default.ini) cut to its first 150 jobs,
#     disk paging only;
#   - the same with network RAM (the central strategy, 256 MB per PE so
#     that memory is lent over the network) on the connected topology
#     (whose links are created on first use).
# Every one runs under valgrind --leak-check=full --error-exitcode=99 with
# definite, indirect and possible leaks counted as errors: an invalid
# access, a use of an uninitialised value, a leak or a non-zero exit of the
# program itself fails it. (Still-reachable blocks are not errors: glibc
# and Check keep some. A test that expects a signal, such as an abort(),
# may leave a leak report of its child in the logs; its exit status is
# what Check checks.) Two programs run at a time. Valgrind's reports go to
# BUILD/valgrind/NAME.PID.log, shown when a program fails. Prints "N
# passed, N failed"; without valgrind it says so and fails (tools/deps.sh
# valgrind installs it).

TEST_NAME=check_valgrind
. "$(dirname "$0")/lib.sh"    # top, build, P, bad, finish, T (here: out)
if ! command -v valgrind >/dev/null 2>&1; then
    bad "valgrind installed (Debian: valgrind; tools/deps.sh valgrind)"
    finish
fi
# Valgrind runs code 20-50 times slower: stretch Check's per-test timeouts.
CK_TIMEOUT_MULTIPLIER=${CK_TIMEOUT_MULTIPLIER:-50}
export CK_TIMEOUT_MULTIPLIER
logs=$build/valgrind
rm -rf "$logs"
mkdir -p "$logs"
out=$T
# The unit tests read configs/ and traces/ from the repository root.
cd "$top" || exit 1

# One line per program: NAME COMMAND... (no blanks inside arguments).
for t in "$build"/tests/test_*; do
    case $t in *.d|*.o) continue ;; esac
    [ -x "$t" ] && echo "$(basename "$t") $t"
done >"$out/list"
echo "run-default $P -c $top/configs/default.ini -q -o $out/default" \
     "--set workload.max_jobs=150" >>"$out/list"
echo "run-netram $P -c $top/configs/default.ini -q -o $out/netram" \
     "--set workload.max_jobs=150 --set computer.ram=256" \
     "--set netram.enabled=yes --set netram.strategy=central" \
     "--set network.topology=connected" >>"$out/list"

# $out/vg LOGS NAME COMMAND...: run COMMAND under valgrind; print
# "ok   NAME" or "FAIL NAME" followed by the reports.
cat >"$out/vg" <<'VG'
logs=$1; name=$2; shift 2
start=$(date +%s)
valgrind -q --leak-check=full \
    --show-leak-kinds=definite,indirect,possible \
    --errors-for-leak-kinds=definite,indirect,possible \
    --error-exitcode=99 --log-file="$logs/$name.%p.log" "$@" \
    >"$logs/$name.out" 2>&1
rc=$?
t=$(($(date +%s) - start))
if [ $rc -eq 0 ]; then
    echo "ok   $name (${t} s)"
else
    echo "FAIL $name: exit $rc (${t} s); valgrind says:
$(cat "$logs/$name".*.log | head -n 60)
$(tail -n 5 "$logs/$name.out")"
fi
VG
xargs -P 2 -L 1 sh "$out/vg" "$logs" <"$out/list" >"$out/res"
cat "$out/res"
find "$logs" -name '*.log' -size 0 -exec rm -f {} + # one per test child
pass=$(grep -c '^ok   ' "$out/res")
n=$(wc -l <"$out/list")
fail=$((n - pass))
finish
