#!/bin/sh
# tools/batching.sh [-j N]: the equivalence table of the batched modes, in
# one command (issue 11; docs/BATCHING.md).
#
# Builds pnrsim and pnrsim-sweep as release builds under build-bench/, runs
# the studies configs/studies/batching.ini (960 runs) and
# configs/studies/batching-scarce.ini (320 runs: scarce network RAM) into
# out/studies/batching/ and out/studies/batching-scarce/ (runs already made
# are kept, so an interrupted sweep resumes; delete those directories after
# a change to the model or to a batched mode, since the fingerprint does not
# cover the program), and writes one table of both (tools/batching-table.py)
# into docs/BATCHING.md between its "table begins" and "table ends" lines.
#
# BATCHING_MODES: the mode keys and their exact values, as
# tools/batching-table.py takes them (default "process.paging=exact
# network.route=hops"); a new mode key goes into the study's [vary] and here.
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
jobs=
if [ "$1" = -j ] && [ -n "$2" ]; then
    jobs="-j $2"
fi
make --no-print-directory BUILD=build-bench CFLAGS="-O2 -g -DNDEBUG" \
    build-bench/pnrsim build-bench/pnrsim-sweep
# shellcheck disable=SC2086
build-bench/pnrsim-sweep -q $jobs --no-plots configs/studies/batching.ini
# shellcheck disable=SC2086
build-bench/pnrsim-sweep -q $jobs --no-plots configs/studies/batching-scarce.ini
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.doc"' EXIT INT TERM
# shellcheck disable=SC2086
python3 tools/batching-table.py out/studies/batching/summary.csv \
    out/studies/batching-scarce/summary.csv \
    ${BATCHING_MODES:-process.paging=exact network.route=hops} > "$tmp"
awk -v t="$tmp" '
    /^<!-- table begins/ { print; while ((getline l < t) > 0) print l; skip = 1; next }
    /^<!-- table ends/   { skip = 0 }
    !skip' docs/BATCHING.md > "$tmp.doc"
grep -q '^<!-- table ends' "$tmp.doc" || { echo "tools/batching.sh: docs/BATCHING.md has no table markers" >&2; exit 1; }
mv "$tmp.doc" docs/BATCHING.md
echo "tools/batching.sh: table written to docs/BATCHING.md"
