#!/bin/sh
# tests/test_config_layers.sh BUILD: several -c files in layers (issue 25,
# item 5): pnrsim -c machine.ini -c scenario.ini -c tweak.ini --set ...
#
# Checks, on three small hand-written files whose merged values are worked
# out below by hand:
#   - later files override earlier ones key by key, keys a later file does
#     not name keep the earlier file's value, --set overrides every file,
#     and the order of -c matters;
#   - config.ini (and --print-config) says above every key that was set
#     where it came from ("; from FILE:LINE", "; from --set ...", "; from
#     -s ..."), and has no such line for keys at their defaults;
#   - a relative [workload] trace is taken from the directory of the file
#     that sets it, not of a later layer;
#   - a bad value in the SECOND file is refused naming that file and line
#     (exit 2), a key set twice in ONE file is still refused, the same key
#     in two files is not; standard input twice is refused;
#   - replay: pnrsim -c OUT/config.ini gives byte-identical jobs.csv,
#     samples.csv, metrics.json and metrics.dat, and a config.ini equal
#     apart from its '; from' lines; a single hand-merged file gives the
#     same results as the three layers;
#   - pnrsim-sweep: a second [study] base line is refused, saying how to
#     layer (the preset as base, the scenario in [set]), and that works.
# Prints "N passed, N failed" last; KEEP=1 keeps the temporary directory.

TEST_NAME=test_config_layers
. "$(dirname "$0")/lib.sh"    # top, build, P, check, finish, T, jval

# The value of key $2 in section [$3] of INI file $1 (as pnrsim writes it).
ival() {
    awk -v k="$2" -v s="[$3]" '/^\[/ { sec = $0 } sec == s && $1 == k && $2 == "=" {
        sub(/^[^=]*= ?/, ""); print; exit }' "$1"
}
# The '; from' line just above key $2 of section [$3] in $1 ("" if none).
ifrom() {
    awk -v k="$2" -v s="[$3]" '/^\[/ { sec = $0 }
        sec == s && $1 == k && $2 == "=" { if (prev ~ /^; from /) print substr(prev, 8); exit }
        { prev = $0 }' "$1"
}

mkdir machine scen
# A trace of 4 one-PE jobs of 1 MB (hand-checkable, no paging), next to
# the scenario file that names it relatively.
cat > scen/t.swf <<'EOF'
1 0 -1 -1 1 10 1 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
2 5 -1 -1 2 20 1 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
3 5 -1 -1 1 30 1 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
4 9 -1 -1 4 10 1 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
EOF
# Layer 1, the machine (line numbers matter: see the expectations).
cat > machine/m.ini <<'EOF'
; a machine
[computer]
number = 8
ram = 64
[network]
bandwidth = 100
[scheduler]
mpl = 2
EOF
# Layer 2, the scenario: ram and mpl over the machine's, a relative trace.
cat > scen/s.ini <<'EOF'
[computer]
ram = 128
[scheduler]
mpl = 3
[workload]
trace = t.swf
EOF
# Layer 3, a tweak: mpl once more.
cat > tweak.ini <<'EOF'
[scheduler]
mpl = 4
EOF

L="-c machine/m.ini -c scen/s.ini -c tweak.ini"
"$P" $L --set computer.number=4 --print-config > merged.ini 2> merged.err
check "three layers and --set: accepted (exit 0)" test $? -eq 0 -a ! -s merged.err
# By hand: number 8 (m.ini:3) < --set 4; ram 64 (m.ini:4) < 128 (s.ini:2);
# bandwidth only in m.ini:6; mpl 2 (m.ini:8) < 3 (s.ini:4) < 4 (tweak.ini:2).
check "--set overrides every file: number = 4" test "$(ival merged.ini number computer)" = 4
check "later file overrides earlier: ram = 128 (s.ini over m.ini)" \
    test "$(ival merged.ini ram computer)" = 128
check "a key only the first file sets keeps its value: bandwidth = 100" \
    test "$(ival merged.ini bandwidth network)" = 100
check "three layers: the last wins: mpl = 4" test "$(ival merged.ini mpl scheduler)" = 4
check "relative trace taken from the directory of the file that sets it" \
    test "$(ival merged.ini trace workload)" = "$T/scen/t.swf"
check "provenance: number from --set" \
    test "$(ifrom merged.ini number computer)" = "--set computer.number=4"
check "provenance: ram from scen/s.ini:2" test "$(ifrom merged.ini ram computer)" = "scen/s.ini:2"
check "provenance: bandwidth from machine/m.ini:6" \
    test "$(ifrom merged.ini bandwidth network)" = "machine/m.ini:6"
check "provenance: mpl from tweak.ini:2" test "$(ifrom merged.ini mpl scheduler)" = "tweak.ini:2"
check "provenance: trace from scen/s.ini:6" test "$(ifrom merged.ini trace workload)" = "scen/s.ini:6"
check "a key at its default has no '; from' line (computer.rpm)" \
    test -z "$(ifrom merged.ini rpm computer)"
# Five keys were set (number, ram, bandwidth, mpl, trace): five '; from' lines.
check "exactly one '; from' line per key set: 5" test "$(grep -c '^; from ' merged.ini)" -eq 5

# The order of -c matters: the machine last puts its ram and mpl back.
"$P" -c scen/s.ini -c machine/m.ini --print-config > rev.ini 2> /dev/null
check "order matters: -c s.ini -c m.ini gives ram = 64 from machine/m.ini:4" \
    test "$(ival rev.ini ram computer)" = 64 -a "$(ifrom rev.ini ram computer)" = machine/m.ini:4
check "order matters: mpl = 2" test "$(ival rev.ini mpl scheduler)" = 2

# Errors: the second file's bad value names it and its line.
printf '[scheduler]\nmpl = 3\n[computer]\nram = lots\n' > bad.ini
"$P" -c machine/m.ini -c bad.ini --print-config > /dev/null 2> bad.err
rc=$?
check "bad value in the second file: exit 2" test $rc -eq 2
check "bad value in the second file: the message names bad.ini:4 and the key" \
    grep -q '^pnrsim: bad.ini:4: \[computer\] ram = "lots"' bad.err
"$P" -c bad.ini -c machine/m.ini --print-config > /dev/null 2> bad1.err
check "bad value in the first file: named too, the later file does not hide it" \
    grep -q '^pnrsim: bad.ini:4:' bad1.err
printf '[scheduler]\nmpl = 3\nmpl = 5\n' > twice.ini
"$P" -c machine/m.ini -c twice.ini --print-config > /dev/null 2> twice.err
check "a key set twice in ONE file is still refused (twice.ini:3)" \
    grep -q '^pnrsim: twice.ini:3: \[scheduler\] mpl set twice (first on line 2)' twice.err
"$P" -c - -c - --print-config < /dev/null > /dev/null 2> stdin2.err
rc=$?
check "standard input twice: exit 2 with a message" \
    sh -c "test $rc -eq 2 && grep -q 'standard input given twice' stdin2.err"
# A cross-key rule broken by two layers names both files.
printf '[netram]\nstrategy = BACKBONE\nmanagers = 6\n' > bb.ini
"$P" -c bb.ini -c machine/m.ini --set computer.number=4 --print-config > /dev/null 2> cross.err
check "cross-key error names where each key came from (bb.ini:3, --set)" \
    grep -q 'netram.managers from bb.ini:3; computer.number from --set computer.number=4' cross.err

# Runs: the layered run, its replay from config.ini, and one hand-merged file.
"$P" $L --set computer.number=4 -s 3 -q -o run1 > /dev/null 2> run1.err
check "layered run: exit 0" test $? -eq 0
check "layered run: 4 jobs finished" test "$(jval run1/metrics.json jobs_finished)" = 4
check "config.ini records -s 3" test "$(ifrom run1/config.ini seed simulation)" = "-s 3"
(cd run1 && "$P" -c config.ini -q -o ../run2 > /dev/null 2>&1)
same() { # metrics.json's command_line aside (it names -o, issue 26)
    for f in jobs.csv samples.csv metrics.dat; do cmp -s "$1/$f" "$2/$f" || return 1; done
    jsame "$1/metrics.json" "$2/metrics.json"
}
check "replay of config.ini: jobs.csv, samples.csv, metrics.json, metrics.dat byte-identical" \
    same run1 run2
grep -v -e '^; from ' -e '^; command: ' run1/config.ini > c1.ini
grep -v -e '^; from ' -e '^; command: ' run2/config.ini > c2.ini
check "replay: config.ini identical apart from its '; from' lines and the command" cmp -s c1.ini c2.ini
check "replay: every key the layers set now comes from config.ini" \
    test "$(ifrom run2/config.ini ram computer)" = "$(sed -n '/^ram = /=' run1/config.ini | \
        sed 's/^/config.ini:/')"
cat > one.ini <<EOF
[computer]
number = 4
ram = 128
[network]
bandwidth = 100
[scheduler]
mpl = 4
[workload]
trace = $T/scen/t.swf
[simulation]
seed = 3
EOF
"$P" -c one.ini -q -o run3 > /dev/null 2>&1
check "one hand-merged file gives the layered run's results byte for byte" same run1 run3

# pnrsim-sweep: a study has one base (pnrsim -c); a second base line is
# refused with a message saying how to layer (preset as base, scenario in
# [set]), and that way works: the runs' configurations are built and checked.
if [ -x "$SWEEP" ]; then
    mkdir st
    printf '[study]\nbase = ../machine/m.ini\nbase = ../scen/s.ini\n[vary]\ncomputer.ram = 16, 32\n' \
        > st/two.ini
    "$SWEEP" -o st/out2 --list st/two.ini > /dev/null 2> st/two.err
    rc=$?
    check "study with two base lines: exit 2 naming line 3 and how to layer" \
        sh -c "test $rc -eq 2 && grep -q 'st/two.ini:3: base: given twice (first on line 2): a study has one base configuration' st/two.err"
    printf '[study]\nbase = ../machine/m.ini\ntrace = ../scen/t.swf\n[set]\nscheduler.mpl = 3\n[vary]\ncomputer.ram = 16, 32\n' \
        > st/one.ini
    "$SWEEP" -o st/out1 --list st/one.ini > st/one.out 2> st/one.err
    check "study with a machine preset as base and the scenario in [set]: accepted" test $? -eq 0
else
    skip "pnrsim-sweep not built: the study checks"
fi
finish
