#!/bin/sh
# tests/test_presets.sh BUILD: the machine presets in configs/machines/
# (issue 25, item 5).
#
# Checks:
#   - configs/machines/pnrsim-2004.ini holds exactly today's defaults (the
#     values of configs/reference.ini): --print-config with it equals
#     --print-config without it apart from the '; from' provenance lines,
#     and a run that pages gives byte-identical jobs.csv, samples.csv,
#     metrics.json and metrics.dat with and without it (alone and under a
#     scenario file);
#   - every preset loads (exit 0), and every key line in it, enabled or
#     commented for a later merge, sits right under a comment line (its
#     source), as docs/SOURCES.md promises;
#   - configs/machines/epyc-hdr-2022.ini gives the values its comments
#     derive by hand: 200 Gb/s = 25000 MB/s, 20 uplinks x 25000 = 500000
#     MB/s, 2 x 8 x 16 GB = 262144 MB, 130 ns switches; a scenario layered
#     on it overrides its size.
# Prints "N passed, N failed" last; KEEP=1 keeps the temporary directory.

TEST_NAME=test_presets
. "$(dirname "$0")/lib.sh"    # top, build, P, check, finish, T, DEFAULT

M=$top/configs/machines
OLD=$M/pnrsim-2004.ini
NEW=$M/epyc-hdr-2022.ini
TRACE=$top/traces/hpc2n-seth-first3171.swf

# The value of key $2 in section [$3] of INI file $1.
ival() {
    awk -v k="$2" -v s="[$3]" '/^\[/ { sec = $0 } sec == s && $1 == k && $2 == "=" {
        sub(/^[^=]*= ?/, ""); print; exit }' "$1"
}

# --- pnrsim-2004.ini = the defaults ---------------------------------------
"$P" -c "$OLD" --print-config 2> old.err | grep -v '^; from ' > old.ini
"$P" --print-config | grep -v '^; from ' > def.ini
check "pnrsim-2004.ini loads without a warning" test ! -s old.err
check "pnrsim-2004.ini: every value equals the default (--print-config, '; from' aside)" \
    cmp -s old.ini def.ini
# It does set the machine keys (so the comparison above is not vacuous):
# 14 keys = 7 [computer] + 4 [network] + 2 [process] + 1 [scheduler].
n=$("$P" -c "$OLD" --print-config | grep -c "^; from .*pnrsim-2004.ini:")
check "pnrsim-2004.ini sets 14 keys (7 computer, 4 network, 2 process, 1 scheduler)" \
    test "$n" -eq 14

# A run that pages (64 PEs of 32 MB, 64 MB per thread): with and without.
RUN="-t $TRACE --set workload.max_jobs=5 --set workload.default_memory=64 -s 5 -q"
"$P" -c "$OLD" $RUN -o with > /dev/null 2>&1
"$P" $RUN -o without > /dev/null 2>&1
same() { # metrics.json's command_line aside (it names the options, issue 26)
    for f in jobs.csv samples.csv metrics.dat; do cmp -s "$1/$f" "$2/$f" || return 1; done
    jsame "$1/metrics.json" "$2/metrics.json"
}
check "a paging run pages (page faults > 0)" \
    sh -c "grep -q '\"page_faults_disk\": [1-9]' without/metrics.json"
check "pnrsim-2004.ini alone: outputs byte-identical to no preset" same with without
"$P" -c "$OLD" -c "$DEFAULT" --set workload.max_jobs=60 --set computer.ram=64 -s 5 -q \
    -o with2 > /dev/null 2>&1
"$P" -c "$DEFAULT" --set workload.max_jobs=60 --set computer.ram=64 -s 5 -q \
    -o without2 > /dev/null 2>&1
check "pnrsim-2004.ini under configs/default.ini: outputs byte-identical" same with2 without2

# --- every preset: loads, and every key has its source above it -----------
for f in "$M"/*.ini; do
    b=$(basename "$f")
    check "$b loads (exit 0)" sh -c "'$P' -c '$f' --print-config > /dev/null 2>&1"
    # Key lines, enabled ("key = v") or for a later merge (";key = v"): the
    # line above must be a comment line ("; ...").
    orphans=$(awk '/^;?[a-z_]+ *=/ && prev !~ /^; / { print FILENAME ":" NR }
                   { prev = $0 }' "$f")
    check "$b: every key line sits under its source comment${orphans:+ (not: $orphans)}" \
        test -z "$orphans"
done

# --- epyc-hdr-2022.ini: the hand-derived values ------------------------------
"$P" -c "$NEW" --print-config > new.ini 2> /dev/null
check "epyc: HDR link 200 Gb/s = 25000 MB/s" test "$(ival new.ini bandwidth network)" = 25000
check "epyc: uplink 20 x 25000 = 500000 MB/s" test "$(ival new.ini uplink_bandwidth network)" = 500000
check "epyc: RAM 2 x 8 x 16 GB = 262144 MB" test "$(ival new.ini ram computer)" = 262144
check "epyc: switch delay 130 ns" test "$(ival new.ini delay network)" = 1.3e-07
# 2 racks x 20 nodes x 64 cores = 2560 cores; rack_size counts nodes.
check "epyc: TREE of 2 racks: 2560 cores = 40 nodes of 64, racks of 20 nodes" \
    test "$(ival new.ini number computer)" = 2560 -a "$(ival new.ini rack_size network)" = 20 \
    -a "$(ival new.ini cores_per_node computer)" = 64
# A scenario on top: 4 nodes (256 cores) in one rack, network RAM on.
printf '[computer]\nnumber = 256\nmemory_servers = 1\n[network]\nrack_size = 4\n[netram]\nenabled = yes\n' > scen.ini
"$P" -c "$NEW" -c scen.ini --print-config > layered.ini 2> layered.err
check "epyc + scenario: the scenario's number wins (256, from scen.ini:2)" \
    sh -c "test '$(ival layered.ini number computer)' = 256 && grep -qx '; from scen.ini:2' layered.ini"
check "epyc + scenario: the machine's bandwidth stays (25000)" \
    test "$(ival layered.ini bandwidth network)" = 25000
check "epyc + scenario: no warning (memory servers now lend)" test ! -s layered.err
finish
