# tests/lib.sh: the preamble the shell tests share; sourced, not run.
#
# A test sets TEST_NAME and sources this file with its own arguments:
#     TEST_NAME=test_cli
#     . "$(dirname "$0")/lib.sh"
# which gives it:
#   top        the repository root (absolute);
#   build      BUILD ($1, default build), made absolute from top;
#   P          $build/pnrsim; DEFAULT configs/default.ini; PY python3;
#   pass/fail  counters, with ok NAME, bad NAME, check NAME COMMAND...
#              (passes when COMMAND succeeds), skip NAME (a line, not
#              counted) and finish (prints "TEST_NAME: N passed, N failed"
#              and exits non-zero when a check failed);
#   T          a new temporary directory, the working directory from here
#              on, removed at exit (kept and named with KEEP=1);
#   jval FILE KEY: the value of a top-level scalar of a metrics.json.
# When $P is not built, the test fails at once (finish).

build=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
case $build in /*) ;; *) build=$top/$build ;; esac
P=$build/pnrsim
DEFAULT=$top/configs/default.ini
PY=/usr/bin/python3

pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }
check() { # check NAME COMMAND...: passes when the command succeeds
    name=$1; shift
    if "$@"; then ok "$name"; else bad "$name"; fi
}
skip() { echo "skip $1"; }
finish() {
    echo "$TEST_NAME: $pass passed, $fail failed"
    [ "$fail" -eq 0 ]
    exit $?
}

if [ ! -x "$P" ]; then
    bad "$P exists (build it first)"
    finish
fi

T=$(mktemp -d "${TMPDIR:-/tmp}/$TEST_NAME.XXXXXX") || exit 1
if [ "${KEEP:-0}" = 1 ]; then
    echo "$TEST_NAME: files in $T"
else
    trap 'rm -rf "$T"' EXIT
fi
cd "$T" || exit 1

# Top-level scalar "key": value of a metrics.json (one key per line).
jval() { sed -n "s/^ *\"$2\": \\(.*\\)\$/\\1/p" "$1" | sed 's/,$//' | head -1; }
