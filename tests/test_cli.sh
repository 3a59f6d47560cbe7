#!/bin/sh
# tests/test_cli.sh BUILD: the pnrsim command line end to end.
#
# Runs BUILD/pnrsim (from the repository root: sh tests/test_cli.sh build)
# in a temporary directory and checks:
#   - every class of bad input (unknown section or key, malformed number,
#     out of range, unknown enum, bad boolean, bad --set, unknown option,
#     missing config or trace file, malformed trace line, CR-only line
#     endings, -c - with -t -; cross-key errors
#     with where each key was set) gives its own
#     one-line message on stderr, exit status 2, and writes nothing: a new
#     output directory is not left behind, an existing one stays empty, no
#     .tmp files;
#   - SWF through the CLI: duplicate job numbers rejected, fractional
#     processor counts counted and warned about; the MetaCentrum file rejected at line 1, lenient
#     counts, gzip input, standard input (plain and compressed);
#   - reproducibility (same seed = byte-identical files; another seed changes
#     a run that pages), precedence (file < -t/-s < --set), --print-config
#     read back, the config.ini copy in the output directory; keys without
#     effect (TREE-only keys on a STAR, memory servers with network RAM
#     off) warned about and truly without effect;
#   - SIGINT/SIGTERM: status 130/143, files marked partial, PARTIAL on stderr;
#   - progress lines (issue 26): by wall time, their fields, the fraction of
#     the submit span against the trace's last line, gzip and stdin, -q, on
#     a terminal (script(1)) rewritten in place and erased at the end;
#   - --help and --version.
# The hand-worked traces, the output formats on them and the quantum tie
# are tests/test_cli_traces.sh.
# Prints "N passed, N failed" last and exits non-zero when a check failed.
# KEEP=1 keeps the temporary directory.

TEST_NAME=test_cli
. "$(dirname "$0")/lib.sh"    # top, build, P, DEFAULT, PY, check, finish, T, jval, col, jobf, near, lines
TRACES=$top/traces
# The MetaCentrum log is not bundled (2.4 MB): its first 20 lines are, as a
# test fixture (tests/data/README.md).
META=$top/tests/data/metacentrum-wagap-2013-head20.swf
NASA=$TRACES/NASA-iPSC-1993-3.1-cln.swf.gz

# ---- helpers ---------------------------------------------------------------

# One member of the one-line "dropped" object of a metrics.json.
jdrop() { sed -n "s/.*\"dropped\":.*\"$2\": \\([0-9]*\\).*/\\1/p" "$1"; }
# True when directory $1 does not exist.
absent() { [ ! -e "$1" ]; }
# True when directory $1 exists and holds nothing (not even dot files).
empty_dir() { [ -d "$1" ] && [ -z "$(ls -A "$1")" ]; }

# A small valid trace (4 jobs of 1 PE) for the error cases.
GOOD=good.swf
cat > $GOOD <<'EOF'
; a valid trace
1 0 -1 -1 1 10 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
2 5 -1 -1 1 10 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
3 5 -1 -1 1 10 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
4 9 -1 -1 1 10 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
EOF

# ---- bad input: message, status 2, nothing written -------------------------

# err_case NAME 'EXPECTED MESSAGE' ARGS...: runs pnrsim -o new-NAME ARGS,
# expects status 2, exactly one line on stderr containing the message, and
# no output directory; runs it again with an existing empty directory,
# which must stay empty.
err_case() {
    name=$1; msg=$2; shift 2
    "$P" -o "new-$name" "$@" > "$name.out" 2> "$name.err"
    rc=$?
    if [ $rc -ne 2 ]; then
        bad "$name: exit status 2 (got $rc)"
    elif ! grep -qF -- "$msg" "$name.err"; then
        bad "$name: message '$msg' (got: $(head -c 300 "$name.err"))"
    elif [ "$(lines "$name.err")" -ne 1 ]; then
        bad "$name: one line on stderr (got $(lines "$name.err"))"
    elif [ -s "$name.out" ]; then
        bad "$name: nothing on stdout"
    else
        ok "$name: status 2, message '$msg'"
    fi
    mkdir "old-$name"
    "$P" -o "old-$name" "$@" > /dev/null 2>&1
    rc=$?
    if absent "new-$name" && empty_dir "old-$name" && [ $rc -eq 2 ] && [ "$(tmpfiles)" -eq 0 ]; then
        ok "$name: nothing written"
    else
        bad "$name: nothing written (new dir: $(ls -A "new-$name" 2>&1 | tr '\n' ' '); old dir: $(ls -A "old-$name" | tr '\n' ' '); .tmp: $(tmpfiles))"
    fi
}

printf '; a comment\n[bogus]\nx = 1\n' > bad-section.ini
err_case unknown-section 'bad-section.ini:2: unknown section [bogus]' -c bad-section.ini -t $GOOD
printf '[simulation]\nseed = 1\nsede = 2\n' > bad-key.ini
err_case unknown-key 'bad-key.ini:3: unknown key "sede" in [simulation]' -c bad-key.ini -t $GOOD
printf '[computer]\nnumber = 4x\n' > bad-number.ini
err_case malformed-number 'bad-number.ini:2: [computer] number = "4x": malformed number' -c bad-number.ini -t $GOOD
printf '[computer]\nram = -1\n' > bad-range.ini
err_case out-of-range 'bad-range.ini:2: [computer] ram = "-1": out of range' -c bad-range.ini -t $GOOD
printf '[computer]\nnumber = 8\nram = 4x64, 0x128\n' > bad-ram-group.ini
err_case ram-group-zero 'bad-ram-group.ini:3: [computer] ram = "4x64, 0x128": group 2: count 0' -c bad-ram-group.ini -t $GOOD
printf '[computer]\nnumber = 8\nram = 4x64, 3x128\n' > bad-ram-sum.ini
err_case ram-group-sum '[computer] ram = 4x64, 3x128 has group counts that add up to 7 PEs, but [computer] number = 8' -c bad-ram-sum.ini -t $GOOD
err_case ram-group-sum-where '(computer.ram from bad-ram-sum.ini:3; computer.number from bad-ram-sum.ini:2)' -c bad-ram-sum.ini -t $GOOD
err_case ram-group-sum-set '(computer.ram from bad-ram-sum.ini:3; computer.number from --set computer.number=6)' -c bad-ram-sum.ini -t $GOOD --set computer.number=6
printf '[netram]\nlocality = rack\n' > bad-locality.ini
err_case rack-locality-where 'needs racks: set [network] topology = TREE (it is BUS) (netram.locality from bad-locality.ini:2; network.topology from --set network.topology=bus)' -c bad-locality.ini -t $GOOD --set network.topology=bus
printf '1 0 -1 10 1 10 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n1 5 -1 10 1 10 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n' > dup.swf
err_case duplicate-job-number 'dup.swf:2: field 1 (job number) is 1, not above 1 of the job on line 1: job numbers must be unique and ascending' -t dup.swf
printf '[computer]\rnumber = 4\r' > cr-only.ini
err_case cr-only-lines "cr-only.ini: lines end in CR alone (classic Mac OS line endings): expected LF or CRLF; convert with tr '\\r' '\\n'" -c cr-only.ini -t $GOOD
printf '[computer]\r\nnumber = 4\r\n' > crlf.ini
check "CRLF line endings are read (number = 4)" \
    sh -c "'$P' -c crlf.ini --print-config | grep -qx 'number = 4'"
# -c -: the configuration from standard input ("stdin" in messages); not
# together with a trace from standard input.
check "-c - reads the configuration from standard input" \
    sh -c "printf '[computer]\nnumber = 3\n' | '$P' -c - --print-config | grep -qx 'number = 3'"
check "-c - in PNRSim's format too" \
    sh -c "printf 'Number 5\n' | '$P' -c - --print-config | grep -qx 'number = 5'"
printf '[computer]\nnumbr = 3\n' | "$P" -c - -t $GOOD -o stdin-bad > stdin-bad.out 2> stdin-bad.err
check "-c -: errors name stdin and the line, exit 2, nothing written" \
    sh -c "test $? -eq 2 && grep -qF 'stdin:2: unknown key \"numbr\" in [computer]' stdin-bad.err && test ! -e stdin-bad"
printf '[computer]\nnumber = 3\n' | "$P" -c - -t - -o stdin-both > /dev/null 2> stdin-both.err
check "-c - with -t -: refused (exit 2), naming both, nothing written" \
    sh -c "test $? -eq 2 && grep -qF 'stdin: the configuration (-c -) and the trace ([workload] trace = -, from -t -) cannot both be read from standard input' stdin-both.err && test ! -e stdin-both"
printf '[computer]\nnumber = 1\n' | "$P" -c - -t $GOOD -o stdin-run -q > /dev/null 2>&1
check "-c - runs: exit 0, 4 jobs finish" test $? -eq 0 -a "$(jval stdin-run/metrics.json jobs_finished)" = 4
printf '[scheduler]\npriority = SRPT\n' > bad-enum.ini
err_case unknown-enum 'bad-enum.ini:2: [scheduler] priority = "SRPT": expected one of FCFS, BESTFIT, WORSTFIT, SJF, LJF, SAF, LAF, WFP3, UNICEP, F1' -c bad-enum.ini -t $GOOD
printf '[scheduler]\nstrict_order = maybe\n' > bad-bool.ini
err_case bad-boolean 'bad-bool.ini:2: [scheduler] strict_order = "maybe": expected a boolean' -c bad-bool.ini -t $GOOD
printf 'NumberOfComputers 4\n' > bad-name.cfg
err_case pnrsim-format-unknown-name 'bad-name.cfg:1: unknown name "NumberOfComputers"' -c bad-name.cfg -t $GOOD
err_case set-no-equals '--set computer.number: expected SECTION.KEY=VALUE' --set computer.number -t $GOOD
err_case set-no-dot '--set computernumber=4: expected SECTION.KEY=VALUE' --set computernumber=4 -t $GOOD
err_case set-unknown-key '--set computer.nmber=4: unknown key "nmber" in [computer]' --set computer.nmber=4 -t $GOOD
err_case set-out-of-range '--set Computer.Number=0: [computer] number = "0": out of range' --set Computer.Number=0 -t $GOOD
err_case bad-seed '-s "abc": [simulation] seed = "abc": malformed number' -s abc -t $GOOD
err_case unknown-long-option 'unknown option --bogus' --bogus -t $GOOD
err_case unknown-short-option 'unknown option -x' -qx -t $GOOD
err_case missing-value 'option --set needs a value' -t $GOOD --set
err_case bad-format '--format "xml": expected one of text, json, csv' --format xml -t $GOOD
err_case extra-argument 'unexpected argument "extra"' -t $GOOD extra
err_case missing-config 'nope.ini: cannot open' -c nope.ini -t $GOOD
err_case no-trace 'no trace' --set computer.number=4
err_case missing-trace 'nonexistent.swf: cannot open' -t nonexistent.swf
# -t goes through the same validation as [workload] trace, named as -t.
err_case trace-option-invalid '-t "a;b.swf": [workload] trace = "a;b.swf"' -t 'a;b.swf'
# A bad line after good ones: found while the run streams the trace.
{ sed -n 2,3p $GOOD; echo '3 7 -1 -1 1 10 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1'; } > short-line.swf
err_case trace-field-count 'short-line.swf:3: expected 18 numeric fields, found 17' -t short-line.swf
{ sed -n 2p $GOOD; echo '2 5 -1 -1 abc 10 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1'; } > text-field.swf
err_case trace-text-field 'text-field.swf:2: field 5 (allocated processors) is "abc"' -t text-field.swf
# The MetaCentrum log (extra columns from field 19 on, no header): a
# one-line error naming line 1, not a crash.
err_case metacentrum "metacentrum-wagap-2013-head20.swf:1: expected 18 numeric fields" -t "$META"
# The output directory's parents created for the run are removed too.
"$P" -t nonexistent.swf -o deep/er/out > /dev/null 2>&1
check "failed run leaves no new parent directories (deep/er/out)" absent deep

# ---- SWF through the command line ------------------------------------------

# Lenient: a trace of 4 good lines and 2 malformed ones (a short line, a
# word where a number belongs). Strict: error at the first, line 3.
cat > lenient.swf <<'EOF'
; two malformed lines among four jobs
1 0 -1 -1 1 10 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
2 5 -1 -1 1 10 1024 -1 -1 -1 1 -1 -1 -1 -1 -1
3 6 -1 -1 1 10 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
4 7 -1 -1 two 10 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
5 8 -1 -1 1 10 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
6 9 -1 -1 1 10 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
EOF
"$P" -t lenient.swf -o len-strict -q > /dev/null 2> len-strict.err
check "strict: malformed line 3 rejected with status 2" \
    sh -c "test $? -eq 2 && grep -qF 'lenient.swf:3:' len-strict.err"
"$P" -t lenient.swf --set workload.lenient=yes -o len -q > /dev/null 2> len.err
rc=$?
check "lenient: exit 0" test $rc -eq 0
check "lenient: 2 malformed lines counted in metrics.json dropped" test "$(jdrop len/metrics.json malformed)" = 2
check "lenient: the 4 good jobs finish" test "$(jval len/metrics.json jobs_finished)" = 4
check "lenient: jobs.csv has the 4 good jobs (1 3 5 6)" \
    test "$(cut -d, -f1 len/jobs.csv | sed 1d | sort -n | tr '\n' ' ')" = "1 3 5 6 "
# A fractional processor count (field 5) is rounded, counted and said:
# jobs 2 (2.6 -> 3) and 3 (1.5 -> 2) of four, the first on line 3.
cat > frac.swf <<'EOF'
; two fractional processor counts
1 0 -1 -1 1 10 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
2 5 -1 -1 2.6 10 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
3 6 -1 -1 1.5 10 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
4 7 -1 -1 4.0 10 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
EOF
"$P" -t frac.swf -o frac -q > /dev/null 2> frac.err
check "fractional processors: exit 0, one warning with the count and the first line" \
    sh -c "test $? -eq 0 && test \$(grep -c warning frac.err) -eq 1 &&
           grep -qF 'frac.swf: 2 jobs had a fractional processor count (field 5), rounded to the nearest whole number (the first on line 3)' frac.err"
check "fractional processors: rounded to 3 and 2 threads in jobs.csv" \
    test "$(jobf frac/jobs.csv 2 threads) $(jobf frac/jobs.csv 3 threads)" = "3 2"
"$P" -t lenient.swf --set workload.lenient=yes -o len2 -q > /dev/null 2> len2.err
check "whole processor counts: no rounding warning" sh -c "! grep -q fractional len2.err"
# Every data line of the MetaCentrum file is malformed (21+ fields);
# lenient skips and counts them all: as many as its non-comment lines (20).
# No job is left: exit status 3 (results written, means n/a).
nmeta=$(grep -vc '^[[:space:]]*;' "$META")
"$P" -t "$META" --set workload.lenient=yes -o meta-len -q > /dev/null 2>&1
check "metacentrum lenient: exit 3 (no job), all $nmeta lines counted malformed" \
    sh -c "test $? -eq 3 && test $nmeta -eq 20 && test \"\$(sed -n 's/.*\"malformed\": \\([0-9]*\\).*/\\1/p' meta-len/metrics.json)\" = $nmeta"

# The first SIGINT stops a run that is still reading its header: here an
# endless one (yes repeats "; Note: x" for ever, through a pipe that is never
# empty). Exit 130, nothing written; a watchdog kills it after 10 s.
yes '; Note: x' | "$P" -t - -q -o hdr-int > /dev/null 2> hdr-int.err &
pid=$!
sleep 1
kill -INT $pid
i=0
while kill -0 $pid 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
if kill -0 $pid 2>/dev/null; then
    kill -KILL $pid; wait $pid
    bad "SIGINT during header parsing: still running 10 s after the signal"
else
    wait $pid
    check "SIGINT during header parsing: exit 130, nothing written" \
        sh -c "test $? -eq 130 && test ! -e hdr-int"
fi

# An endless line (/dev/zero) is an input error, not an out-of-memory abort
# (the old unbounded line buffer grew until it failed; timeout guards that).
timeout 60 "$P" -t /dev/zero -o zero-out -q > zero.out 2> zero.err
check "endless trace line: exit 2 naming line 1, nothing written" \
    sh -c "test $? -eq 2 && grep -q '/dev/zero:1: line longer than' zero.err && test ! -e zero-out"

# Seed 0 takes the seed from the clock; config.ini must record the seed
# actually used (not 0), so that running it again replays the run.
"$P" -t "$top/tests/data/issue10-placement.swf" -s 0 -q -o seed0 > /dev/null 2>&1
s0=$(sed -n 's/^seed = //p' seed0/config.ini)
check "seed 0: config.ini records the clock seed metrics.json reports" \
    sh -c "test -n '$s0' && test '$s0' != 0 && grep -q '\"seed\": $s0,' seed0/metrics.json"

# gzip: the NASA iPSC log (18,239 jobs, 128 nodes, no CPU time: run time
# as CPU demand); the first 200 jobs run, and reading stops there (the
# 200th job is on line 232, after 32 header lines): nothing else is read or
# counted.
NASA_ARGS="--set workload.cpu_demand=runtime --set computer.number=128 --set workload.max_jobs=200"
"$P" -t "$NASA" $NASA_ARGS -o nasa -q > nasa.out 2> nasa.err
check "gzip trace: exit 0" test $? -eq 0
check "gzip trace: 200 jobs finished" test "$(jval nasa/metrics.json jobs_finished)" = 200
check "gzip trace: jobs.csv has 200 rows" test "$(lines nasa/jobs.csv)" -eq 201
check "gzip trace: max_jobs stops reading: none dropped by the window" test "$(jdrop nasa/metrics.json window)" = 0
check "gzip trace: the summary names the line where reading stopped" \
    grep -q '^trace read to line 232 only' nasa.out
check "gzip trace: trace name in metrics.json" \
    test "$(jval nasa/metrics.json trace)" = '"NASA-iPSC-1993-3.1-cln.swf.gz"'
# Standard input: the decompressed log through a pipe, and the compressed
# file redirected, give the same jobs as the file.
gzip -dc "$NASA" | "$P" -t - $NASA_ARGS -o nasa-pipe -q > /dev/null 2>&1
check "stdin (pipe): exit 0 and jobs.csv identical to the file's" \
    sh -c "test $? -eq 0 && cmp -s nasa/jobs.csv nasa-pipe/jobs.csv"
check "stdin: trace named stdin" test "$(jval nasa-pipe/metrics.json trace)" = '"stdin"'
"$P" -t - $NASA_ARGS -o nasa-gzin -q < "$NASA" > /dev/null 2>&1
check "stdin (gzip data redirected): jobs.csv identical" \
    sh -c "test $? -eq 0 && cmp -s nasa/jobs.csv nasa-gzin/jobs.csv"

# ---- reproducibility, precedence, the configuration written back -----------

# SLICE (lib.sh): a slice of the default scenario where jobs page.
"$P" -c "$DEFAULT" $SLICE -o rep1 -q > /dev/null 2>&1
r1=$?
"$P" -c "$DEFAULT" $SLICE -o rep2 -q > /dev/null 2>&1
check "same seed twice: exit 0" test $r1 -eq 0 -a $? -eq 0
check "same seed: jobs.csv byte-identical" cmp -s rep1/jobs.csv rep2/jobs.csv
check "same seed: samples.csv byte-identical" cmp -s rep1/samples.csv rep2/samples.csv
# Two runs' jobs.csv and metrics.json the same (command_line aside).
runs_same() { cmp -s "$1/jobs.csv" "$2/jobs.csv" && jsame "$1/metrics.json" "$2/metrics.json"; }
check "same seed: metrics.json byte-identical (command_line aside: -o differs)" \
    jsame rep1/metrics.json rep2/metrics.json
check "same seed: metrics.dat byte-identical" cmp -s rep1/metrics.dat rep2/metrics.dat
check "the slice pages (page_faults_per_pe > 0)" \
    awk -v v="$(jval rep1/metrics.json page_faults_per_pe)" 'BEGIN { exit !(v > 0) }'
tt=$(jval rep1/metrics.json total_time)
# samples: rows at multiples of 3600 s, in increasing time, at most one per
# period up to the end, none repeating the row before it (time aside), and
# some rows (the slice is busy).
check "samples.csv: rows at multiples of metrics_period, only when they change" \
    awk -F, -v T="$tt" -v p=3600 '
    NR > 1 { n++; if ($1 % p != 0 || $1 <= t) bad = 1; t = $1
             r = $0; sub(/^[^,]*,/, "", r); if (r == prev) bad = 1; prev = r }
    END { k = int(T / p); exit !(!bad && n >= 10 && n <= k + 1) }' rep1/samples.csv
"$P" -c "$DEFAULT" $SLICE -s 2 -o rep-s2 -q > /dev/null 2>&1
check "-s 2: seed 2 in metrics.json" test "$(jval rep-s2/metrics.json seed)" = 2
check "another seed changes a run that pages (jobs.csv differs)" \
    sh -c '! cmp -s rep1/jobs.csv rep-s2/jobs.csv'
"$P" -c "$DEFAULT" $SLICE -s 2 --set simulation.seed=1 -o rep-set -q > /dev/null 2>&1
check "--set simulation.seed=1 beats -s 2: identical to seed 1" \
    runs_same rep1 rep-set
"$P" -c "$DEFAULT" $SLICE --set simulation.seed=7 -o rep-7 -q > /dev/null 2>&1
check "--set simulation.seed=7 beats the file's seed = 1" test "$(jval rep-7/metrics.json seed)" = 7
check "-t beats the file's trace" \
    sh -c "'$P' -c '$DEFAULT' -t '$T/a.swf' --print-config | grep -qx 'trace = .*/a.swf'"
"$P" -c "$DEFAULT" --set scheduler.mpl=3 --set Computer.Number=16 --print-config > pc1.ini
check "--set beats the file (mpl = 3 over 2, number = 16 over 240)" \
    sh -c 'grep -qx "mpl = 3" pc1.ini && grep -qx "number = 16" pc1.ini'
# The same key twice is refused, as in a file (issue 32 item 8;
# tests/test_cli_names.sh has the cases).
check "the same key in two --set: refused (exit 2, given twice)" \
    sh -c "'$P' --set computer.number=5 --set computer.number=6 --print-config > /dev/null 2> set2.err;
           test \$? -eq 2 && grep -q 'computer.number given twice' set2.err"
"$P" -c pc1.ini --print-config > pc2.ini
# Read back, the values are the same; only the provenance lines ("; from
# WHERE") differ: pc2's keys come from pc1.ini.
grep -v '^; from ' pc1.ini > pc1-values.ini
grep -v '^; from ' pc2.ini > pc2-values.ini
check "--print-config read back gives identical text apart from '; from' lines" \
    cmp -s pc1-values.ini pc2-values.ini
check "--print-config read back: its keys come from the printed file" \
    grep -qx '; from pc1.ini:[0-9]*' pc2.ini
"$P" -c "$DEFAULT" $SLICE --print-config > rep-printed.ini
noprov rep1/config.ini > rep1-noprov.ini
check "output directory's config.ini equals --print-config (after its provenance lines)" \
    cmp -s rep1-noprov.ini rep-printed.ini
"$P" -c rep1/config.ini -o rep-again -q > /dev/null 2>&1
check "rerun from the output's config.ini reproduces jobs.csv and metrics.json" \
    runs_same rep1 rep-again
# pnr_alloc/dealloc_rounds_changed in metrics.json: MANAGER and BACKBONE
# broadcast after each such round (§5.2.6) to N - 1 PEs or managers - 1
# managers, so the broadcast count is their sum times that; CENTRAL never
# broadcasts. (900 MB PEs: some threads still need network RAM.)
for st in manager:239 backbone:3 central:0; do
    s=${st%%:*}; k=${st#*:}
    "$P" -c "$DEFAULT" $SLICE --set computer.ram=900 --set netram.enabled=yes \
        --set netram.strategy=$s --set netram.managers=4 -o rounds-$s -q > /dev/null 2>&1
    a=$(jval rounds-$s/metrics.json pnr_alloc_rounds_changed)
    d=$(jval rounds-$s/metrics.json pnr_dealloc_rounds_changed)
    b=$(jval rounds-$s/metrics.json pnr_msgs_broadcast)
    check "$s: pnr_msgs_broadcast $b = (alloc $a + dealloc $d rounds changed) x $k, rounds > 0" \
        sh -c "test -n '$a' -a -n '$d' && test \$(( ${a:-0} + ${d:-0} )) -gt 0 && test '$b' = \$(( (${a:-0} + ${d:-0}) * $k ))"
done
check "disk paging run: no rounds_changed in metrics.json" \
    sh -c "! grep -q rounds_changed rep1/metrics.json"

# TREE-only keys on a STAR, memory servers without network RAM: accepted
# with one warning each, and truly without effect (same jobs and metrics).
"$P" -c "$DEFAULT" $SLICE --set network.rack_size=4 --set network.uplink_latency=0.001 \
    --set network.uplink_bandwidth=1 --set network.memory_server_placement=racks \
    --set computer.memory_servers=2 -o rep-ign -q > /dev/null 2> rep-ign.err
check "keys without effect: exit 0, one warning per key" \
    sh -c "test $? -eq 0 && test \$(grep -c '^pnrsim: warning: .* has no effect: ' rep-ign.err) -eq 5"
check "keys without effect: the warning names where, key, value and why" \
    sh -c "grep -q 'warning: --set network.rack_size=4: \[network\] rack_size = 4 has no effect: only a TREE topology has racks and uplinks (\[network\] topology = STAR)' rep-ign.err &&
           grep -q 'warning: --set computer.memory_servers=2: \[computer\] memory_servers = 2 has no effect: network RAM is off' rep-ign.err"
check "keys without effect: jobs.csv and samples.csv as without them" \
    sh -c 'cmp -s rep1/jobs.csv rep-ign/jobs.csv && cmp -s rep1/samples.csv rep-ign/samples.csv'
"$P" -c "$DEFAULT" $SLICE --set network.topology=tree --set network.rack_size=4 \
    --print-config > /dev/null 2> rep-tree.err
check "rack_size with TREE: no warning" test ! -s rep-tree.err
"$P" -c "$DEFAULT" $SLICE --set process.paging=batched --schedule --print-config \
    > /dev/null 2> rep-batch.err
check "batched paging with --schedule: a warning that every fault runs exactly" \
    grep -q 'warning: .*\[process\] paging = BATCHED has no effect: schedule output is on' rep-batch.err
BUS="--set network.topology=bus --set netram.enabled=yes --set computer.ram=900"
"$P" -c "$DEFAULT" $SLICE $BUS -o rep-bus-e -q > /dev/null 2> rep-bus-e.err
"$P" -c "$DEFAULT" $SLICE $BUS --set process.paging=batched -o rep-bus-b -q > /dev/null 2> rep-bus-b.err
check "batched paging with network RAM on a bus: a warning that every fault runs exactly" \
    grep -q 'warning: .*\[process\] paging = BATCHED has no effect: with network RAM on a BUS network' rep-bus-b.err
check "batched paging with network RAM on a bus: jobs.csv and samples.csv as exact" \
    sh -c 'grep -q "\"page_faults_remote\": [1-9]" rep-bus-e/metrics.json &&
           cmp -s rep-bus-e/jobs.csv rep-bus-b/jobs.csv && cmp -s rep-bus-e/samples.csv rep-bus-b/samples.csv'
check "PNRSim-format appendix file gives the same configuration as its INI translation" \
    sh -c "'$P' -c '$top/configs/pnrsim-appendix.cfg' --print-config | grep -v '^; from ' > app-cfg.ini &&
           '$P' -c '$top/configs/pnrsim-appendix.ini' --print-config | grep -v '^; from ' > app-ini.ini && cmp -s app-cfg.ini app-ini.ini"

# ---- signals ---------------------------------------------------------------

# sigtest SIG STATUS FORMAT: the default scenario made slow (a neighbour
# message every CPU second), a progress line every 0.01 s of wall time so
# stderr shows when the run is under way; the signal is sent then, and the run must stop soon.
sigtest() {
    sig=$1; want=$2; fmt=$3; d=sig-$sig
    "$P" -c "$DEFAULT" --set process.comm_rate=1 --set output.progress_interval=0.01 \
        --format "$fmt" -o $d > $d.out 2> $d.err &
    pid=$!
    i=0
    while [ ! -s $d.err ] && [ $i -lt 100 ] && kill -0 $pid 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
    kill -$sig $pid 2>/dev/null
    i=0
    while kill -0 $pid 2>/dev/null && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
    kill -0 $pid 2>/dev/null && kill -KILL $pid 2>/dev/null
    wait $pid
    rc=$?
    check "$sig: exit status $want" test $rc -eq $want
    check "$sig: metrics.json says \"partial\": true" test "$(jval $d/metrics.json partial)" = true
    check "$sig: stderr says PARTIAL" grep -q PARTIAL $d.err
    check "$sig: the other files written whole" \
        sh -c "test -s $d/jobs.csv && test -s $d/samples.csv && test -s $d/metrics.dat && test -s $d/config.ini && test \$(find $d -name '*.tmp' | wc -l) -eq 0"
}
sigtest INT 130 text
sigtest TERM 143 json

# ---- hostile values, failed writes, interrupted stdin, replay ---------------
# Memory so large it would overflow to infinity, a submit time past 10^12 s:
# clear errors naming line and field, exit 2, nothing written.
printf '1 0 -1 10 1 10 1e308 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n' > hugemem.swf
"$P" -t hugemem.swf -q -o hm > /dev/null 2> hm.err
check "huge memory: exit 2 naming line 1 and field 7" \
    sh -c "test $? -eq 2 && grep -q 'hugemem.swf:1: field 7' hm.err && test ! -e hm"
printf '1 1e13 -1 10 1 10 100 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n' > hugetime.swf
"$P" -t hugetime.swf -q -o ht > /dev/null 2> ht.err
check "submit time beyond 1e12 s: exit 2 naming field 2" \
    sh -c "test $? -eq 2 && grep -q 'hugetime.swf:1: field 2' ht.err && test ! -e ht"
# A write that fails part way (file size limit) leaves no result file at all:
# the five files are renamed into place only when all are complete.
mkdir -p wf
(trap '' XFSZ; ulimit -f 20; "$P" -q -c "$top/configs/default.ini" -o wf \
    --set workload.max_jobs=60 --set simulation.metrics_period=100 > /dev/null 2> wf.err)
check "failed write: exit 1, no result file and no temporary file left" \
    sh -c "test $? -eq 1 && test -z \"\$(ls -A wf)\""
# SIGINT while the trace is read from a pipe that stays open: partial results.
( (head -c 200000 "$top/traces/lublin-256-synthetic.swf"; sleep 4) |
  "$P" -t - --set computer.number=256 -q -o pipe > /dev/null 2> pipe.err &
  pid=$!; sleep 1.5; kill -INT $pid; wait $pid; echo $? > pipe.rc )
check "SIGINT during a blocking stdin read: exit 130, partial results written" \
    sh -c "test \$(cat pipe.rc) -eq 130 && grep -q '\"partial\": true' pipe/metrics.json"
# The config.ini of a run with a relative -t replays from another directory.
"$P" -c "$top/configs/default.ini" -t "$top/traces/lanl-cm5-techreport-sample10.swf" -q -o rp1 > /dev/null
( cd rp1 && "$P" -c config.ini -q -o ../rp2 > /dev/null )
check "config.ini replays from elsewhere with identical jobs.csv" cmp -s rp1/jobs.csv rp2/jobs.csv

# ---- bounded output and runs (issue 12 item 9) -----------------------------
# Samples only while something changes. Three 1-thread jobs (100 s at 0, 100 s
# at 1e6 s, 10000 s at 1007200 s) on 4 PEs, period 3600 s. By hand (cpu
# utilisation = busy CPU s in the period / (4 PEs * 3600 s)):
#   3600     job 1 done: 100/14400 = 0.00694444, 1 finished
#   7200     idle: 0, 1 finished
#   (nothing changes until 1e6: the 275 rows that repeated 7200 are gone)
#   1000800  job 2 ran 100 s of this period: 0.00694444, 2 finished
#   1004400  0, 2 finished
#   1008000  job 3 since 1007200: 800/14400 = 0.0555556, 1 running
#   1011600  3600/14400 = 0.25, 1 running
#   (1015200 repeats 1011600; no sample after the last event, at 1017200)
printf '%s\n' '1 0 -1 100 1 100 -1 1 -1 -1 1 1 1 1 1 1 -1 -1' \
    '2 1000000 -1 100 1 100 -1 1 -1 -1 1 1 1 1 1 1 -1 -1' \
    '3 1007200 -1 10000 1 10000 -1 1 -1 -1 1 1 1 1 1 1 -1 -1' > gaps.swf
"$P" -t gaps.swf --set computer.number=4 -q -o gaps > /dev/null 2>&1
cut -d, -f1,2,6,11 gaps/samples.csv > gaps.rows
printf '%s\n' time,running_jobs,cpu_utilization,jobs_finished 3600,0,0.00694444,1 \
    7200,0,0,1 1000800,0,0.00694444,2 1004400,0,0,2 1008000,1,0.0555556,2 \
    1011600,1,0.25,2 > gaps.want
check "samples: rows only while something changes (hand-worked gaps trace)" \
    cmp -s gaps.rows gaps.want
# The issue's case: submits 0 and 1e12 wrote ~2.8e8 rows (GBs) and ran for
# ever; now 2 rows, at once.
printf '%s\n' '1 0 -1 100 1 100 -1 1 -1 -1 1 1 1 1 1 1 -1 -1' \
    '2 1000000000000 -1 100 1 100 -1 1 -1 -1 1 1 1 1 1 1 -1 -1' > far.swf
timeout 60 "$P" -t far.swf --set computer.number=4 -q -o far > /dev/null 2>&1
check "samples: submits 0 and 1e12 give 2 rows, both jobs finish" \
    sh -c "test $? -eq 0 && test \$(wc -l < far/samples.csv) -eq 3 &&
           test \"\$(sed -n 's/^ *\"jobs_finished\": \\([0-9]*\\).*/\\1/p' far/metrics.json)\" = 2"
# The cap: a paging job changes every row; max_samples = 10 keeps 10 rows and
# says on stderr how many were not written.
printf '1 0 -1 100 1 100 66560 1 -1 -1 1 1 1 1 1 1 -1 -1\n' > pg.swf
"$P" -t pg.swf --set computer.number=1 --set computer.ram=64 \
    --set simulation.metrics_period=0.5 --set simulation.max_samples=10 -q -o cap \
    > /dev/null 2> cap.err
check "samples: max_samples = 10 writes 10 rows and warns with the count" \
    sh -c "test $? -eq 0 && test \$(wc -l < cap/samples.csv) -eq 11 &&
           grep -q 'max_samples = 10 rows at t=5.5 s; [0-9]* later rows were not written' cap.err"
# Runaway guard: neighbour and synchronisation messages every 1e-4 CPU s on
# 4 PEs make about 1e4 events per simulated second per PE; with
# max_event_rate = 1000 the run stops at the first 2^24-event window (exit 2,
# message naming the key, nothing written); without the guard it runs.
printf '1 0 -1 100 4 100 1024 4 -1 -1 1 1 1 1 1 1 -1 -1\n' > chat.swf
CHAT="-t chat.swf --set computer.number=4 --set process.comm_rate=0.0001 --set process.sync_rate=0.0001"
"$P" $CHAT --set simulation.max_event_rate=1000 -q -o chat > /dev/null 2> chat.err
check "runaway: exit 2 naming max_event_rate, nothing written" \
    sh -c "test $? -eq 2 && grep -q 'runaway run stopped at t=.*max_event_rate = 1000' chat.err &&
           test ! -e chat"
"$P" $CHAT --set simulation.max_event_rate=0 --set simulation.max_time=1 -q -o chat0 \
    > /dev/null 2>&1
# (exit status 3: max_time = 1 s ends the run before the 100 s job finishes)
check "runaway: the same run without the guard goes on (to max_time)" \
    sh -c "test $? -eq 3 && grep -q '\"time_limited\": true' chat0/metrics.json"
# Nonsense values: exit 2 naming key, value and range.
for kv in computer.rpm=1e300 scheduler.quantum=1e-9 process.comm_rate=1e-9 \
          workload.load_scale=1e-9 network.sync_msg=1e300 computer.seek=1e-320; do
    "$P" -t chat.swf --set "$kv" -q -o nonsense > /dev/null 2> nonsense.err
    rc=$? key=${kv%%=*}
    check "range: --set $kv is exit 2 naming the key and range" \
        sh -c "test $rc -eq 2 && grep -q \"\\[${key%%.*}\\] ${key#*.} = \" nonsense.err &&
               grep -Eq 'out of range: expected|subnormal' nonsense.err && test ! -e nonsense"
done

# ---- scale: connected networks ---------------------------------------------

# CONNECTED with 50,000 PEs aborted (N(N-1) links did not fit an int; 3,000
# PEs took 1.7 GB): links now come on first use.
"$P" -c "$top/configs/default.ini" -q -o conn50k --set computer.number=50000 \
    --set network.topology=connected --set workload.max_jobs=20 > /dev/null 2> conn50k.err
check "connected with 50,000 PEs runs (exit 0, 20 jobs)" \
    sh -c "test $? -eq 0 && grep -q '\"jobs_finished\": 20' conn50k/metrics.json"

# ---- progress (issue 26) ---------------------------------------------------
# Progress follows wall time, never metrics_period: off a terminal a line
# every [output] progress_interval s (0.001 here: a line at nearly every
# check, every 2^14 events), on a terminal one line rewritten in place and
# erased at the end; -q nothing. The scenario: the demo on jobs 101-900 of
# the HPC2N slice (the first submitted at 523,932 s, not 0), a plain file
# whose last record gives the end of the submit span: span = its field 2 -
# the first job's field 2 (submit times are relative to the first job,
# load_scale 1).
awk '/^;/ { print; next } { n++ } n > 100 && n <= 900' "$TRACES/hpc2n-seth-first3171.swf" > p800.swf
span=$(awk '!/^;/ && NF { if (first == "") first = $2; last = $2 } END { print last - first }' p800.swf)
PROG="-c $DEFAULT -t p800.swf"
# shellcheck disable=SC2086
"$P" $PROG -o prog0 > /dev/null 2> prog0.err
check "progress: a default run shorter than progress_interval (60 s): stderr empty" \
    test ! -s prog0.err
# shellcheck disable=SC2086
"$P" $PROG --set output.progress_interval=0.001 -o prog > /dev/null 2> prog.err
LINE_RE='^pnrsim: [0-9:]+ elapsed, [0-9]+\.[0-9]% of submit span(, [0-9]+ jobs? left)?, t=[0-9]+ s, [0-9]+\.[0-9][0-9] M events/s, (about [0-9:]+ left|time left not known yet)$'
nprog=$(grep -c . prog.err)
check "progress: lines at interval 0.001 s ($nprog), each with elapsed, % of submit span, t, events/s, an estimate" \
    sh -c "test $nprog -ge 2 && test \$(grep -Ec '$LINE_RE' prog.err) -eq $nprog"
# Fraction and t never decrease; the fraction lies in [0, 100]%.
check "progress: fraction in [0, 100]% and non-decreasing, t non-decreasing" \
    awk '{ f = $4; sub(/%/, "", f); f += 0; t = $0; sub(/.*t=/, "", t); t += 0
           if (f < 0 || f > 100 || f < pf || t < pt) bad = 1; pf = f; pt = t }
         END { exit bad }' prog.err
# Before the last submit the fraction is t / span (t printed to the
# second, the fraction to 0.1%): |fraction - 100 t / span| <= 0.05 + rounding.
check "progress: fraction = t / submit span (span $span s from the trace's last line)" \
    awk -v span="$span" '!/jobs? left/ { f = $4; sub(/%/, "", f); t = $0; sub(/.*t=/, "", t)
           d = f - 100 * t / span; if (d < 0) d = -d; if (d > 0.06 + 50 / span) bad = 1 }
         END { exit bad }' prog.err
check "progress: the last line has an estimate of time left" \
    sh -c "tail -n 1 prog.err | grep -Eq 'about [0-9:]+ left\$'"
# Results do not depend on progress (the pauses change nothing).
# shellcheck disable=SC2086
"$P" $PROG -q -o progq > /dev/null 2> progq.err
check "progress: -q prints nothing" test ! -s progq.err
# (metrics.json's command_line differs: rsame leaves it aside)
check "progress: results byte-identical with and without progress lines" \
    rsame prog progq jobs.csv samples.csv metrics.json
# gzip and standard input: no cheap tail, so the share of the trace read.
gzip -c p800.swf > p800.swf.gz
"$P" -c "$DEFAULT" -t p800.swf.gz --set output.progress_interval=0.001 -o proggz > /dev/null 2> proggz.err
check "progress: .gz trace: '% of trace read'" \
    sh -c "grep -q '% of trace read' proggz.err && ! grep -q 'submit span' proggz.err"
cat p800.swf | "$P" -c "$DEFAULT" -t - --set output.progress_interval=0.001 -o progin > /dev/null 2> progin.err
# A pipe has no size: its lines count the jobs submitted (rising), never a
# share of the bytes (which would read 0.0% until the end).
check "progress: trace on a pipe: 'N jobs submitted', no 0.0%" \
    sh -c "grep -q ' jobs submitted (trace on a pipe' progin.err && ! grep -q ' 0.0% of trace read' progin.err && \
           awk '/jobs submitted/ { n = \$4 + 0; if (n < last) exit 1; last = n } END { exit !(last > 0) }' progin.err"
# max_time (1,000,000 s) before the last submit (1,805,962 s): the share of it.
"$P" $PROG --set simulation.max_time=1000000 --set output.progress_interval=0.001 -o progmt \
    > /dev/null 2> progmt.err
check "progress: max_time before the last submit: '% of max_time'" grep -q '% of max_time' progmt.err
check "progress: progress_interval = -1 refused (exit 2, names the key)" \
    sh -c "'$P' $PROG --set output.progress_interval=-1 -o bad-pi > /dev/null 2> bad-pi.err;
           test \$? -eq 2 && grep -q 'progress_interval' bad-pi.err && test ! -e bad-pi"
# On a terminal (a pty from script(1)): the line rewritten in place, '\r'
# before each, ESC [ K after, no newline, and erased ('\r' ESC [ K) at the end.
if command -v script > /dev/null 2>&1; then
    script -qfc "'$P' $PROG -o progtty > /dev/null" /dev/null > tty.out 2>&1
    check "progress on a terminal: lines rewritten in place with '\\r'" \
        sh -c "test \$(tr -cd '\\r' < tty.out | wc -c) -ge 2 && grep -q 'elapsed, .*% of submit span' tty.out"
    check "progress on a terminal: no newline, the line erased at the end" \
        sh -c "test \$(tr -cd '\\n' < tty.out | wc -c) -eq 0 && test \"\$(tail -c 4 tty.out | od -An -c | tr -d ' ')\" = '\\r033[K'"
    script -qfc "'$P' $PROG -q -o progttyq > /dev/null" /dev/null > ttyq.out 2>&1
    check "progress on a terminal: -q prints nothing" test ! -s ttyq.out
else
    skip "progress on a terminal: script(1) (util-linux) not installed"
fi

# ---- help and version ------------------------------------------------------

"$P" --help > help.out 2>&1
check "--help: exit 0 with usage" sh -c "test $? -eq 0 && grep -q '^usage: pnrsim' help.out"
"$P" -h > /dev/null 2>&1
check "-h: exit 0" test $? -eq 0
check "-V prints a version" sh -c "'$P' -V | grep -Eq '^pnrsim [0-9]+\\.[0-9]+\\.[0-9]+'"
check "--version prints a version" sh -c "'$P' --version | grep -Eq '^pnrsim [0-9]+\\.[0-9]+'"

finish
