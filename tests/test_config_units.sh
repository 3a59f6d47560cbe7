#!/bin/sh
# tests/test_config_units.sh BUILD: units and typos on pnrsim's command line
# (issue 37 item 6); the parsing itself is checked value by value in
# tests/test_config_units.c.
#
# Checks:
#   - a run written with units (ram = 0.5GB, quantum = 2m, metrics_period =
#     1h, --set workload.default_memory=0.0625GB) gives byte-identical
#     results to the same run in plain MB and seconds (512, 120, 3600, 64:
#     0.0625 x 1024 = 64);
#   - exit 2 with FILE:LINE for a wrong unit (naming the key's units), a
#     misspelt key (suggesting the right one), a misspelt --set section,
#     and a file whose "key = value" comes before any [section];
#   - an inline "# comment" is accepted in a scenario file;
#   - a machine preset under a scenario: the preset's keys for features the
#     scenario leaves off are one warning line, not one each. Worked out
#     from configs/machines/epyc-hdr-2022.ini and the defaults
#     (configs/reference.ini) under a scenario with topology STAR and
#     network RAM off (the default): rack_size 20 (default 32) and
#     uplink_bandwidth 500000 (default 0) need TREE; memory_servers 4 and
#     transport RDMA need network RAM; rdma_latency 1.645e-6 (default 2e-6)
#     and rdma_read ROUND_TRIP (default ONE_WAY) need RDMA with network
#     RAM; memory_server_placement SPREAD and uplink_latency 5e-8 are the
#     defaults (no warning). So 6 keys on one line, plus the scenario's own
#     schedule_from (no schedule written) on its own line: 2 lines; with -v
#     7; the preset alone (the last layer: the scenario itself) 4.
# Prints "N passed, N failed" last; KEEP=1 keeps the temporary directory.

TEST_NAME=test_config_units
. "$(dirname "$0")/lib.sh"    # top, build, P, check, finish, T, DEFAULT, SLICE, rsame

# --- units give the same run -----------------------------------------------
printf '[computer]\nram = 0.5GB   # per PE\n[scheduler]\nquantum = 2m\n[simulation]\nmetrics_period = 1h\n' > units.ini
printf '[computer]\nram = 512\n[scheduler]\nquantum = 120\n[simulation]\nmetrics_period = 3600\n' > plain.ini
"$P" -q -c "$DEFAULT" -c units.ini $SLICE --set workload.default_memory=0.0625GB -o u > u.log 2>&1
ru=$?
"$P" -q -c "$DEFAULT" -c plain.ini $SLICE --set workload.default_memory=64 -o p > p.log 2>&1
rp=$?
check "a run with units and inline # comments runs (exit 0)" test $ru -eq 0 -a $rp -eq 0
check "with units = in MB and s: jobs.csv, samples.csv, metrics.json byte-identical" \
    rsame u p jobs.csv samples.csv metrics.json
# Not vacuous: the default scenario's own values (1024 MB, 60 s, 86400 s)
# give another run.
"$P" -q -c "$DEFAULT" $SLICE --set workload.default_memory=64 -o d > d.log 2>&1
check "... and they are not the defaults' run (jobs.csv differs)" \
    sh -c '! cmp -s u/jobs.csv d/jobs.csv'

# --- errors: exit 2, FILE:LINE, and what is allowed or meant ----------------
err() { # err NAME EXPECTED(fixed string) ARGS...: exit 2 and EXPECTED in stderr
    name=$1 want=$2
    shift 2
    "$P" --print-config "$@" > /dev/null 2> err.txt
    rc=$?
    if [ $rc -eq 2 ] && grep -qF -- "$want" err.txt; then ok "$name"
    else bad "$name (exit $rc: $(head -c 300 err.txt))"; fi
}
printf '[scheduler]\n; the slot length\nquantum = 60sec\n' > bad-unit.ini
err "wrong time unit: FILE:LINE, the key's units" \
    'bad-unit.ini:3: [scheduler] quantum = "60sec": malformed number: expected a decimal number such as 12.5 or 2.4e-07 (s), or a time with a unit s, m, h or d' \
    -c bad-unit.ini
printf '[computer]\nram = 256GiB\n' > bad-mem.ini
err "wrong memory unit: FILE:LINE, MB/GB/TB named" \
    'bad-mem.ini:2: [computer] ram = "256GiB": malformed number: expected a decimal number such as 32 (MB), or a size with a unit MB, GB or TB' \
    -c bad-mem.ini
printf '[computer]\nrma = 256GB\n' > typo.ini
err "misspelt key: did you mean ram?" \
    'typo.ini:2: unknown key "rma" in [computer] (did you mean ram?); known keys:' -c typo.ini
err "misspelt --set section: did you mean [netram]?" \
    '--set netrm.enabled=yes: unknown section [netrm] (did you mean [netram]?)' \
    --set netrm.enabled=yes
printf '; a scenario\n\nnumber = 64\nram = 256\n' > nosection.ini
err "key = value before any [section]: refused as INI at its line" \
    'nosection.ini:3: key "number" before any [section] header: an INI scenario gives each key under its section' \
    -c nosection.ini

# --- a preset's warnings ---------------------------------------------------
PRESET=$top/configs/machines/epyc-hdr-2022.ini
printf '[computer]\nnumber = 128\n[network]\ntopology = STAR\n[output]\nschedule_from = 1h\n' > scen.ini
"$P" -c "$PRESET" -c scen.ini --print-config > /dev/null 2> w.txt
check "preset under a scenario: 2 warning lines (the preset's 6 keys on one)" \
    test "$(grep -c 'warning' w.txt)" -eq 2
check "preset's line names its 6 keys" grep -qF \
    "epyc-hdr-2022.ini: 6 keys it sets have no effect in this configuration (features a later layer leaves off): network.rack_size, network.uplink_bandwidth, computer.memory_servers, netram.transport, netram.rdma_latency, netram.rdma_read (-v: each, and why)" w.txt
check "the scenario's own key keeps its line" \
    grep -qF "scen.ini:6: [output] schedule_from = 3600 has no effect" w.txt
"$P" -v -c "$PRESET" -c scen.ini --print-config > /dev/null 2> wv.txt
check "-v: one line per key (7)" test "$(grep -c 'has no effect' wv.txt)" -eq 7
"$P" -c "$PRESET" --print-config > /dev/null 2> wp.txt
check "the preset alone, as the scenario: one line per key (4)" \
    test "$(grep -c 'has no effect' wp.txt)" -eq 4
finish
