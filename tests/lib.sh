# tests/lib.sh: the preamble the shell tests share; sourced, not run.
#
# A test sets TEST_NAME and sources this file with its own arguments:
#     TEST_NAME=test_cli
#     . "$(dirname "$0")/lib.sh"
# which gives it:
#   top        the repository root (absolute);
#   build      BUILD ($1, default build), made absolute from top;
#   P          $build/pnrsim; SWEEP $build/pnrsim-sweep; PLOT
#              $build/pnrsim-plot; DEFAULT configs/default.ini; PY python3;
#   SLICE      options making "$P -c $DEFAULT $SLICE" a short run (100
#              jobs, well under a second) of the default scenario where
#              jobs page: the HPC2N jobs from t = 3,900,000 s on include
#              900 MB threads sharing PEs across 2 slots;
#   pass/fail  counters, with ok NAME, bad NAME, check NAME COMMAND...
#              (passes when COMMAND succeeds), skip NAME (a line "skip
#              NAME", not a pass: counted apart in nskip), skip_all WHY
#              (the whole test cannot run here: prints "TEST_NAME:
#              SKIPPED: WHY" and exits 0, with no counts), need PROGRAM...
#              (fails the test at once, through finish, when a program is
#              not built) and finish (prints "TEST_NAME: N passed, N
#              failed", with " (N skipped)" after it when something was
#              skipped, and exits non-zero when a check failed);
#   T          a new temporary directory, the working directory from here
#              on, removed at exit by lib_cleanup (kept and named with
#              KEEP=1; a test that sets its own EXIT trap calls
#              lib_cleanup from it);
#   jval FILE KEY: the value of a top-level scalar of a metrics.json;
#   col CSV NAME: the column number of a header name; jobf JOBS_CSV JOB
#              NAME: one field of a job's row of jobs.csv; near A B:
#              |A - B| <= 1e-6, both non-empty; lines FILE: its line count;
#              tmpfiles: how many *.tmp files lie under the working directory;
#   nocmd FILE / jsame A B: a metrics.json without its command_line, and
#              whether two are the same apart from it; rsame DIR1 DIR2
#              FILE...: files of two runs the same (metrics.json by jsame); noprov CONFIG_INI:
#              config.ini without its leading provenance comments.
# When $P is not built, the test fails at once (finish).

build=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
case $build in /*) ;; *) build=$top/$build ;; esac
P=$build/pnrsim
SWEEP=$build/pnrsim-sweep
PLOT=$build/pnrsim-plot
DEFAULT=$top/configs/default.ini
PY=/usr/bin/python3
SLICE="--set workload.submit_min=3900000 --set workload.max_jobs=100 --set simulation.metrics_period=3600"

pass=0
fail=0
nskip=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }
check() { # check NAME COMMAND...: passes when the command succeeds
    name=$1; shift
    if "$@"; then ok "$name"; else bad "$name"; fi
}
skip() { nskip=$((nskip + 1)); echo "skip $1"; }
skip_all() { # skip_all WHY: the whole test cannot run here
    echo "$TEST_NAME: SKIPPED: $*"
    exit 0
}
finish() {
    if [ "$nskip" -gt 0 ]; then
        echo "$TEST_NAME: $pass passed, $fail failed ($nskip skipped)"
    else
        echo "$TEST_NAME: $pass passed, $fail failed"
    fi
    [ "$fail" -eq 0 ]
    exit $?
}
need() { # need PROGRAM...: fail at once when one is not built
    for lib_prog in "$@"; do
        if [ ! -x "$lib_prog" ]; then
            bad "$lib_prog exists (build it first)"
            finish
        fi
    done
}

need "$P"

T=$(mktemp -d "${TMPDIR:-/tmp}/$TEST_NAME.XXXXXX") || exit 1
lib_cleanup() { [ "${KEEP:-0}" = 1 ] || rm -rf "$T"; }
[ "${KEEP:-0}" = 1 ] && echo "$TEST_NAME: files in $T"
trap lib_cleanup EXIT
cd "$T" || exit 1

# Top-level scalar "key": value of a metrics.json (one key per line).
jval() { sed -n "s/^ *\"$2\": \\(.*\\)\$/\\1/p" "$1" | sed 's/,$//' | head -1; }
# Column number of header name $2 in CSV file $1.
col() { awk -F, -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) print i }' "$1"; }
# Value of column $3 (by header name) in the row of job $2 of jobs.csv $1.
jobf() {
    c=$(col "$1" "$3")
    [ -n "$c" ] && awk -F, -v j="$2" -v c="$c" 'NR > 1 && $1 == j { print $c }' "$1"
}
# |$1 - $2| <= 1e-6 (both non-empty numbers)
near() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && b != "" && d <= 1e-6) }'; }
# metrics.json $1 without its command_line member, which names argv[0]
# and -o and so differs between runs that are otherwise the same (issue 26).
nocmd() { grep -v '^  "command_line": ' "$1"; }
# Are metrics.json files $1 and $2 the same, command_line aside?
jsame() { nocmd "$1" > "$1.nocmd" && nocmd "$2" > "$2.nocmd" && cmp -s "$1.nocmd" "$2.nocmd"; }
# rsame DIR1 DIR2 FILE...: each FILE the same in both run directories
# (metrics.json by jsame).
rsame() {
    rs_a=$1 rs_b=$2; shift 2
    for rs_f in "$@"; do
        if [ "$rs_f" = metrics.json ]; then jsame "$rs_a/$rs_f" "$rs_b/$rs_f" || return 1
        else cmp -s "$rs_a/$rs_f" "$rs_b/$rs_f" || return 1; fi
    done
}
# config.ini $1 without its leading provenance comments ("; pnrsim ...",
# "; command: ...", "; trace: ...", "; seed: ...", issue 26).
noprov() {
    awk 'NR <= 4 && /^; (pnrsim [^ ]*$|command: |trace: |seed: )/ { next } { print }' "$1"
}
# Number of lines of a file.
lines() { wc -l < "$1" | tr -d ' '; }
# csvsame A B: two pnrsim-sweep results.csv files are the same but for
# their last column, wall_seconds (each run's wall time, the one column
# that differs between identical sweeps); both must end with it.
nowall() { sed 's/,[^,]*$//' "$1"; }
csvsame() {
    head -1 "$1" | grep -q ',wall_seconds$' && head -1 "$2" | grep -q ',wall_seconds$' &&
        nowall "$1" > "$1.nowall" && nowall "$2" > "$2.nowall" && cmp -s "$1.nowall" "$2.nowall"
}
# Number of .tmp files anywhere under the working directory.
tmpfiles() { find . -name '*.tmp' | wc -l | tr -d ' '; }
