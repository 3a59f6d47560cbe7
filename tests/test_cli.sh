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
#   - two hand-worked six-job traces on 4 PEs in space sharing (MPL 1):
#     start, end, wait, response, slowdown and bounded slowdown of every job
#     and the metrics.json totals, under FCFS with strict_order yes and no,
#     and BESTFIT / WORSTFIT queue order;
#   - reproducibility (same seed = byte-identical files; another seed changes
#     a run that pages), precedence (file < -t/-s < --set), --print-config
#     read back, the config.ini copy in the output directory; keys without
#     effect (TREE-only keys on a STAR, memory servers with network RAM
#     off) warned about and truly without effect;
#   - --format json/csv, metrics.dat, progress and --quiet, aliases;
#   - SIGINT/SIGTERM: status 130/143, files marked partial, PARTIAL on stderr;
#   - --help and --version.
# Prints "N passed, N failed" last and exits non-zero when a check failed.
# KEEP=1 keeps the temporary directory.

TEST_NAME=test_cli
. "$(dirname "$0")/lib.sh"    # top, build, P, DEFAULT, PY, check, finish, T, jval
TRACES=$top/traces
# The MetaCentrum log is not bundled (2.4 MB): its first 20 lines are, as a
# test fixture (tests/data/README.md).
META=$top/tests/data/metacentrum-wagap-2013-head20.swf
NASA=$TRACES/NASA-iPSC-1993-3.1-cln.swf.gz

# ---- helpers ---------------------------------------------------------------

# |$1 - $2| <= 1e-6 (both non-empty numbers)
near() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && b != "" && d <= 1e-6) }'; }
# One member of the one-line "dropped" object of a metrics.json.
jdrop() { sed -n "s/.*\"dropped\":.*\"$2\": \\([0-9]*\\).*/\\1/p" "$1"; }
# Column number of header name $2 in CSV file $1.
col() { awk -F, -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) print i }' "$1"; }
# Value of column $3 (by header name) in the row of job $2 of jobs.csv $1.
jobf() {
    c=$(col "$1" "$3")
    [ -n "$c" ] && awk -F, -v j="$2" -v c="$c" 'NR > 1 && $1 == j { print $c }' "$1"
}
# Number of lines of a file.
lines() { wc -l < "$1" | tr -d ' '; }
# True when directory $1 does not exist.
absent() { [ ! -e "$1" ]; }
# True when directory $1 exists and holds nothing (not even dot files).
empty_dir() { [ -d "$1" ] && [ -z "$(ls -A "$1")" ]; }
# Number of .tmp files anywhere under the working directory.
tmpfiles() { find . -name '*.tmp' | wc -l | tr -d ' '; }

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
err_case bad-seed '-s abc: [simulation] seed = "abc": malformed number' -s abc -t $GOOD
err_case unknown-long-option 'unknown option --bogus' --bogus -t $GOOD
err_case unknown-short-option 'unknown option -x' -qx -t $GOOD
err_case missing-value 'option --set needs a value' -t $GOOD --set
err_case bad-format '--format "xml": expected one of text, json, csv' --format xml -t $GOOD
err_case extra-argument 'unexpected argument "extra"' -t $GOOD extra
err_case missing-config 'nope.ini: cannot open' -c nope.ini -t $GOOD
err_case no-trace 'no trace' --set computer.number=4
err_case missing-trace 'nonexistent.swf: cannot open' -t nonexistent.swf
# -t goes through the same validation as [workload] trace, named as -t.
err_case trace-option-invalid '-t a;b.swf: [workload] trace = "a;b.swf"' -t 'a;b.swf'
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

# ---- end to end: hand-worked traces ----------------------------------------

# 4 PEs, MPL 1 (space sharing), no messages, 1 MB per thread in 32 MB of
# RAM (no paging); bounded slowdown tau = 10 s; metrics_period longer than
# the runs.
cat > e2e.ini <<'EOF'
[simulation]
metrics_period = 100000
bsld_tau = 10
[process]
comm_rate = 0
sync_rate = 0
[scheduler]
mpl = 1
priority = FCFS
strict_order = yes
[computer]
number = 4
ram = 32
EOF

# Trace A: job, submit, threads, CPU per thread (field 7 = 1024 KB = 1 MB).
#   J1  0  3 100     J2 10  2  50     J3 20  1  30
#   J4 30  4   0 (zero CPU)           J5 40  1  10     J6 100 2  20
cat > a.swf <<'EOF'
; trace A
1   0 -1 -1 3 100 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
2  10 -1 -1 2  50 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
3  20 -1 -1 1  30 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
4  30 -1 -1 4   0 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
5  40 -1 -1 1  10 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
6 100 -1 -1 2  20 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
EOF

# expect_jobs NAME JOBS.CSV: reads "job submit start end wait response
# slowdown bsld" lines on stdin ("-" as slowdown: zero-length job, slowdown
# undefined: nan or empty) and checks each job's row.
expect_jobs() {
    name=$1; csv=$2
    while read -r j sub st en wt rs sd bs; do
        case $j in ''|'#'*) continue ;; esac
        got="$(jobf "$csv" "$j" submit) $(jobf "$csv" "$j" start) $(jobf "$csv" "$j" end) $(jobf "$csv" "$j" wait) $(jobf "$csv" "$j" response) $(jobf "$csv" "$j" slowdown) $(jobf "$csv" "$j" bounded_slowdown)"
        set -- $got
        good=1
        near "$1" "$sub" && near "$2" "$st" && near "$3" "$en" && near "$4" "$wt" &&
            near "$5" "$rs" && near "$7" "$bs" || good=0
        if [ "$sd" = - ]; then
            case $6 in nan|NaN|-nan|'') ;; *) good=0 ;; esac
        else
            near "$6" "$sd" || good=0
        fi
        if [ $good = 1 ]; then
            ok "$name: job $j submit $sub start $st end $en wait $wt response $rs slowdown $sd bsld $bs"
        else
            bad "$name: job $j expected submit $sub start $st end $en wait $wt response $rs slowdown $sd bsld $bs; got $got"
        fi
    done
}
# expect_metric NAME METRICS.JSON KEY VALUE
expect_metric() {
    v=$(jval "$2" "$3")
    if near "$v" "$4"; then ok "$1: $3 = $4"; else bad "$1: $3 = $4 (got '$v')"; fi
}

# A, FCFS, strict_order = yes (queue order J2 J3 J4 J5 J6; the head blocks):
#   t=0   J1 on PE0-2, ends 100. PE3 free.
#   t=10  J2 (2 PEs) cannot start: 1 free. t=20 J3 (1) would fit but waits
#         behind J2 (strict). t=30 J4, t=40 J5 queue.
#   t=100 J1 ends and J6 arrives at the same instant (completion first):
#         4 free. J2 on PE0,1 (100-150), J3 on PE2 (100-130); J4 needs 4,
#         1 free: blocks J5 and J6.
#   t=130 J3 ends: 2 free; J4 (4) still blocks - J5 (1 PE) could run but
#         the zero-CPU job is in its way.
#   t=150 J2 ends: J4 on PE0-3, holds them for an instant, ends at 150;
#         then at the same instant J5 on PE0 (150-160), J6 on PE1,2 (150-170).
#   job  submit start end  wait response          slowdown         bsld
#   1    0      0     100  0    100               100/100 = 1      1
#   2    10     100   150  90   140               140/50  = 2.8    2.8
#   3    20     100   130  80   110               110/30  = 3.6667 3.6667
#   4    30     150   150  120  120               undefined (exec 0) 120/max(0,10) = 12
#   5    40     150   160  110  120               120/10  = 12     12
#   6    100    150   170  50   70                70/20   = 3.5    3.5
#   total_time 170; response mean 660/6 = 110; wait mean 450/6 = 75;
#   execution mean (100+50+30+0+10+20)/6 = 35; slowdown mean over the 5
#   jobs with execution > 0: (1+2.8+3.666667+12+3.5)/5 = 4.593333;
#   bounded slowdown mean (1+2.8+3.666667+12+12+3.5)/6 = 5.827778;
#   CPU utilisation sum(threads*cpu)/(PEs*T) = (300+100+30+0+10+40)/(4*170)
#   = 480/680 = 0.705882; throughput 6/170 = 0.035294.
"$P" -c e2e.ini -t a.swf -o A-strict -q > /dev/null 2> A-strict.err
check "A strict: exit 0, nothing on stderr with -q" sh -c "test $? -eq 0 && test ! -s A-strict.err"
check "A strict: jobs.csv header starts job,submit,start,end,threads" \
    test "$(head -1 A-strict/jobs.csv | cut -d, -f1-5)" = "job,submit,start,end,threads"
expect_jobs "A strict" A-strict/jobs.csv <<'EOF'
1   0   0 100   0 100 1         1
2  10 100 150  90 140 2.8       2.8
3  20 100 130  80 110 3.6666667 3.6666667
4  30 150 150 120 120 -         12
5  40 150 160 110 120 12        12
6 100 150 170  50  70 3.5       3.5
EOF
M=A-strict/metrics.json
expect_metric "A strict" $M jobs_finished 6
expect_metric "A strict" $M total_time 170
expect_metric "A strict" $M response_time_mean 110
expect_metric "A strict" $M wait_time_mean 75
expect_metric "A strict" $M execution_time_mean 35
expect_metric "A strict" $M slowdown_mean 4.5933333
expect_metric "A strict" $M bounded_slowdown_mean 5.8277778
expect_metric "A strict" $M cpu_utilization 0.70588235
expect_metric "A strict" $M throughput 0.035294118
expect_metric "A strict" $M mpl_max 1
expect_metric "A strict" $M mpl_mean 1
expect_metric "A strict" $M pcs_count 0
expect_metric "A strict" $M page_faults_per_pe 0
expect_metric "A strict" $M comm_busy_time 0
check "A strict: not partial" test "$(jval $M partial)" = false

# A, FCFS, strict_order = no (later jobs that fit start), read from stdin:
#   t=0   J1 on PE0-2 (0-100).  t=10 J2 (2) waits: 1 free.
#   t=20  J3 (1) passes J2: PE3, 20-50.  t=30 J4 (4) waits; t=40 J5 (1)
#         waits: no PE free.
#   t=50  J3 ends: PE3 free; J2, J4 too wide, J5 fits: PE3, 50-60.
#   t=60  J5 ends: 1 free, nothing fits.
#   t=100 J1 ends, J6 arrives: 4 free; J2 first (FCFS) on PE0,1 (100-150);
#         J4 needs 4, 2 free: skipped; J6 arrives exactly as PEs free up
#         and starts at once on PE2,3 (100-120).
#   t=120 J6 ends: 2 free, J4 waits.  t=150 J2 ends: J4 on PE0-3, 150-150.
#   job  submit start end  wait response slowdown  bsld
#   1    0      0     100  0    100      1         1
#   2    10     100   150  90   140      2.8       2.8
#   3    20     20    50   0    30       1         1
#   4    30     150   150  120  120      -         12
#   5    40     50    60   10   20       2         2
#   6    100    100   120  0    20       1         1
#   total_time 150; response mean 430/6 = 71.666667; wait mean 220/6 =
#   36.666667; execution mean 35; slowdown mean (1+2.8+1+2+1)/5 = 1.56;
#   bsld mean (1+2.8+1+12+2+1)/6 = 3.3; utilisation 480/(4*150) = 0.8.
"$P" -c e2e.ini -t - --set scheduler.strict_order=no -o A-loose -q < a.swf > /dev/null 2>&1
check "A loose (stdin): exit 0" test $? -eq 0
expect_jobs "A loose" A-loose/jobs.csv <<'EOF'
1   0   0 100   0 100 1   1
2  10 100 150  90 140 2.8 2.8
3  20  20  50   0  30 1   1
4  30 150 150 120 120 -   12
5  40  50  60  10  20 2   2
6 100 100 120   0  20 1   1
EOF
M=A-loose/metrics.json
expect_metric "A loose" $M jobs_finished 6
expect_metric "A loose" $M total_time 150
expect_metric "A loose" $M response_time_mean 71.666667
expect_metric "A loose" $M wait_time_mean 36.666667
expect_metric "A loose" $M execution_time_mean 35
expect_metric "A loose" $M slowdown_mean 1.56
expect_metric "A loose" $M bounded_slowdown_mean 3.3
expect_metric "A loose" $M cpu_utilization 0.8
expect_metric "A loose" $M mpl_max 1
expect_metric "A loose" $M pcs_count 0

# Trace B, submit times from 1000 in the file: jobs arrive relative to the
# first (K1 at 0). K1 takes all 4 PEs for 100 s; the others queue behind
# it and their order at t=100 depends on the priority.
#   K1 0 4x100   K2 10 1x40   K3 20 3x20   K4 30 2x10   K5 40 1x10   K6 50 3x10
cat > b.swf <<'EOF'
1 1000 -1 -1 4 100 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
2 1010 -1 -1 1  40 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
3 1020 -1 -1 3  20 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
4 1030 -1 -1 2  10 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
5 1040 -1 -1 1  10 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
6 1050 -1 -1 3  10 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
EOF
# expect_se NAME JOBS.CSV "job:start:end ...": start and end of each job.
expect_se() {
    got=""; want=""
    for e in $3; do
        j=${e%%:*}
        got="$got $j:$(jobf "$2" "$j" start):$(jobf "$2" "$j" end)"
        want="$want $e"
    done
    if [ "$got" = "$want" ]; then ok "$1: start:end$want"; else bad "$1: start:end expected$want, got$got"; fi
}
# BESTFIT (widest first, ties by trace order), strict: order K3 K6 K4 K2 K5.
#   t=100 K3 on PE0-2 (100-120); head K6 (3) > 1 free: blocks.
#   t=120 K6 on PE0-2 (120-130); head K4 (2) > 1 free: blocks.
#   t=130 K4 on PE0,1 (130-140), K2 on PE2 (130-170), K5 on PE3 (130-140).
"$P" -c e2e.ini -t b.swf --set scheduler.priority=BESTFIT -o B-best -q > /dev/null 2>&1
check "B: submit times relative to the first job (0 10 20 30 40 50)" \
    test "$(for j in 1 2 3 4 5 6; do printf '%s ' "$(jobf B-best/jobs.csv $j submit)"; done)" = "0 10 20 30 40 50 "
expect_se "B BESTFIT strict" B-best/jobs.csv "1:0:100 2:130:170 3:100:120 4:130:140 5:130:140 6:120:130"
check "B BESTFIT strict: total_time 170" near "$(jval B-best/metrics.json total_time)" 170
# BESTFIT, not strict: t=100 K3 on PE0-2 (100-120), then the widest that
# fits 1 PE: K2 on PE3 (100-140). t=120 K6 on PE0-2 (120-130). t=130 K4
# on PE0,1 and K5 on PE2 (130-140).
"$P" -c e2e.ini -t b.swf --set scheduler.priority=bestfit --set scheduler.strict_order=no -o B-best-loose -q > /dev/null 2>&1
expect_se "B BESTFIT loose" B-best-loose/jobs.csv "1:0:100 2:100:140 3:100:120 4:130:140 5:130:140 6:120:130"
# WORSTFIT (narrowest first), strict: order K2 K5 K4 K3 K6.
#   t=100 K2 on PE0 (100-140), K5 on PE1 (100-110), K4 on PE2,3 (100-110);
#         head K3 (3): 0 free.
#   t=110 K3 on PE1-3 (110-130).  t=130 K6 on PE1-3 (130-140).
"$P" -c e2e.ini -t b.swf --set scheduler.priority=WorstFit -o B-worst -q > /dev/null 2>&1
expect_se "B WORSTFIT strict" B-worst/jobs.csv "1:0:100 2:100:140 3:110:130 4:100:110 5:100:110 6:130:140"
# FCFS, strict, for contrast: t=100 K2 on PE0 (100-140), K3 on PE1-3
# (100-120); K4 blocks. t=120 K4 on PE1,2, K5 on PE3 (120-130); K6 blocks.
# t=130 K6 on PE1-3 (130-140).
"$P" -c e2e.ini -t b.swf -o B-fcfs -q > /dev/null 2>&1
expect_se "B FCFS strict" B-fcfs/jobs.csv "1:0:100 2:100:140 3:100:120 4:120:130 5:120:130 6:130:140"

# ---- reproducibility, precedence, the configuration written back -----------

# A slice of the default scenario where jobs page (the HPC2N jobs from
# t = 3,900,000 s on include 900 MB threads sharing PEs across 2 slots).
SLICE="--set workload.submit_min=3900000 --set workload.max_jobs=100 --set simulation.metrics_period=3600"
"$P" -c "$DEFAULT" $SLICE -o rep1 -q > /dev/null 2>&1
r1=$?
"$P" -c "$DEFAULT" $SLICE -o rep2 -q > /dev/null 2>&1
check "same seed twice: exit 0" test $r1 -eq 0 -a $? -eq 0
check "same seed: jobs.csv byte-identical" cmp -s rep1/jobs.csv rep2/jobs.csv
check "same seed: samples.csv byte-identical" cmp -s rep1/samples.csv rep2/samples.csv
check "same seed: metrics.json byte-identical" cmp -s rep1/metrics.json rep2/metrics.json
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
    sh -c 'cmp -s rep1/jobs.csv rep-set/jobs.csv && cmp -s rep1/metrics.json rep-set/metrics.json'
"$P" -c "$DEFAULT" $SLICE --set simulation.seed=7 -o rep-7 -q > /dev/null 2>&1
check "--set simulation.seed=7 beats the file's seed = 1" test "$(jval rep-7/metrics.json seed)" = 7
check "-t beats the file's trace" \
    sh -c "'$P' -c '$DEFAULT' -t '$T/a.swf' --print-config | grep -qx 'trace = .*/a.swf'"
"$P" -c "$DEFAULT" --set scheduler.mpl=3 --set Computer.Number=16 --print-config > pc1.ini
check "--set beats the file (mpl = 3 over 2, number = 16 over 240)" \
    sh -c 'grep -qx "mpl = 3" pc1.ini && grep -qx "number = 16" pc1.ini'
check "later --set wins" \
    sh -c "'$P' --set computer.number=5 --set computer.number=6 --print-config | grep -qx 'number = 6'"
"$P" -c pc1.ini --print-config > pc2.ini
check "--print-config read back gives identical text" cmp -s pc1.ini pc2.ini
"$P" -c "$DEFAULT" $SLICE --print-config > rep-printed.ini
check "output directory's config.ini equals --print-config" cmp -s rep1/config.ini rep-printed.ini
"$P" -c rep1/config.ini -o rep-again -q > /dev/null 2>&1
check "rerun from the output's config.ini reproduces jobs.csv and metrics.json" \
    sh -c 'cmp -s rep1/jobs.csv rep-again/jobs.csv && cmp -s rep1/metrics.json rep-again/metrics.json'
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
    sh -c "'$P' -c '$top/configs/pnrsim-appendix.cfg' --print-config > app-cfg.ini &&
           '$P' -c '$top/configs/pnrsim-appendix.ini' --print-config > app-ini.ini && cmp -s app-cfg.ini app-ini.ini"

# ---- output formats --------------------------------------------------------

"$P" -c e2e.ini -t a.swf -o fmt --format json -q > fmt.json 2>/dev/null
rc=$?
check "--format json: exit 0, valid JSON on stdout" sh -c "test $rc -eq 0 && '$PY' -c 'import json,sys; json.load(sys.stdin)' < fmt.json"
check "metrics.json: valid JSON" sh -c "'$PY' -c 'import json,sys; json.load(sys.stdin)' < fmt/metrics.json"
check "--format json equals metrics.json" cmp -s fmt.json fmt/metrics.json
check "metrics.json: the 19 metrics, seed, trace, dropped, partial" "$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
keys = """total_time jobs_finished throughput cpu_utilization page_faults_per_pe
page_fault_time_per_pe comm_busy_time mem_alloc_mean mem_alloc_sd disk_alloc_mean
disk_alloc_sd response_time_mean wait_time_mean execution_time_mean slowdown_mean
bounded_slowdown_mean mpl_max mpl_mean pcs_count seed trace dropped partial""".split()
missing = [k for k in keys if k not in d]
sys.exit(1 if missing or not isinstance(d["dropped"], dict) else 0)' fmt/metrics.json
"$P" -c e2e.ini -t a.swf -o fmt2 --format csv -q > fmt.csv 2>/dev/null
check "--format csv: two lines of 19 comma-separated columns" \
    awk -F, 'NF != 19 { bad = 1 } END { exit !(NR == 2 && !bad) }' fmt.csv
check "--format csv: header starts total_time, jobs_finished; values match (6 jobs, 170 s)" \
    awk -F, 'NR == 1 { ok1 = ($1 == "total_time" && $2 == "jobs_finished" && $19 == "pcs_count") }
             NR == 2 { ok2 = ($1 == 170 && $2 == 6) } END { exit !(ok1 && ok2) }' fmt.csv
check "metrics.dat: a header and one line of 19 space-separated values" \
    awk 'NF != 19 { bad = 1 } NR == 2 { for (i = 1; i <= NF; i++) if ($i !~ /^-?[0-9.e+-]+$/) bad = 1 }
         END { exit !(NR == 2 && !bad) }' fmt/metrics.dat
check "metrics.dat header = --format csv header" \
    test "$(head -1 fmt/metrics.dat | tr ' ' ,)" = "$(head -1 fmt.csv)"
"$P" -c e2e.ini -t a.swf -o fmt3 -q > fmt.txt 2>/dev/null
check "text format: the 19 numbered metrics" \
    sh -c "test \$(grep -c '^ *[0-9][0-9]*  ' fmt.txt) -eq 19"
# Default output directory: the current one.
mkdir cwd && (cd cwd && "$P" -c ../e2e.ini -t ../a.swf -q > /dev/null 2>&1)
check "no -o: files in the current directory" \
    sh -c 'for f in jobs.csv samples.csv metrics.json metrics.dat config.ini; do test -s cwd/$f || exit 1; done'
check "no .tmp files left anywhere" test "$(tmpfiles)" -eq 0
# Progress lines on stderr (not a terminal) every metrics_period, none with -q.
"$P" -c "$DEFAULT" $SLICE -o prog > /dev/null 2> prog.err
check "progress lines on stderr without -q" grep -q '^pnrsim: t=' prog.err
"$P" -c "$DEFAULT" $SLICE -o quiet -q > /dev/null 2> quiet.err
check "-q: nothing on stderr" test ! -s quiet.err
# Aliases of PNRSim's options; reports.
"$P" --configfile e2e.ini --tracefile a.swf -o alias -q > /dev/null 2> alias.err
check "--configfile/--tracefile aliases: same jobs.csv" cmp -s A-strict/jobs.csv alias/jobs.csv
"$P" -c e2e.ini -t a.swf -o kr -q --simpack-report --hardware-report > /dev/null 2> kr.err
check "--simpack-report and --hardware-report: exit 0, reports on stderr" \
    sh -c "test $? -eq 0 && grep -q 'events dispatched' kr.err && grep -q '^PEs: 4' kr.err"
# Racks, memory servers and RAM groups in the hardware report (issue 15):
# 4 compute PEs in racks of 2, 2 memory servers in a rack of their own.
"$P" -c e2e.ini -t a.swf -o hwt -q --hardware-report --set network.topology=tree \
    --set network.rack_size=2 --set computer.memory_servers=2 \
    --set network.memory_server_placement=racks --set "computer.ram=2x64, 2x128" \
    --set computer.memory_server_ram=512 --set process.comm_rate=1 > /dev/null 2> hwt.err
check "--hardware-report: tree of 3 racks, memory servers, RAM groups" \
    sh -c "test $? -eq 0 && grep -q '^PEs: 4 x .*RAM: 2 with 64 MB + 2 with 128 MB' hwt.err &&
           grep -q '^Memory servers: 2 (PEs 4..5), RAM 512 MB' hwt.err &&
           grep -q 'tree: 3 racks of up to 2 PEs' hwt.err &&
           grep -q 'memory servers 4..5 in racks 2..2 of their own' hwt.err &&
           grep -q 'routes: 30 ordered pairs; 6 of 3 hops, 24 of 7 hops' hwt.err &&
           grep -q 'route 0->5 (7 hops): link 0, tor 0, uplink 0, core, uplink 2, tor 2, link 5' hwt.err"
# -v names every RAM group and the memory servers, not only the first group.
"$P" -c e2e.ini -t a.swf -o vgr -v --set network.topology=tree --set network.rack_size=2 \
    --set computer.memory_servers=2 --set computer.memory_server_ram=512 \
    --set "computer.ram=1x64, 2x128, 1x96" > /dev/null 2> vgr.err
check "-v: every RAM group, the memory servers and the racks" \
    grep -q '4 PEs of 1x64 + 2x128 + 1x96 MB and 2 memory servers of 512 MB, TREE network (racks of 2)' vgr.err
# The busy time by kind of element in metrics.json (tree only), from the
# hardware report's rows: each message through the core crosses two uplinks
# (5e-8 s latency + bytes / 1.25e7 B/s each), the rack links are the sum of
# the link rows, and the four kinds add up to comm_busy_time; a star run has
# none of these members.
check "tree: net_busy_* in metrics.json match the report's rows and sum to comm_busy_time" \
    awk -v up="$(jval hwt/metrics.json net_busy_uplinks)" -v rl="$(jval hwt/metrics.json net_busy_rack_links)" \
        -v ts="$(jval hwt/metrics.json net_busy_tor_switches)" -v cs="$(jval hwt/metrics.json net_busy_core_switch)" \
        -v all="$(jval hwt/metrics.json comm_busy_time)" '
        $1 == "core" && NF == 7 { u = 2 * ($2 * 5e-8 + $3 / 1.25e7) } $1 == "link" && NF == 8 { l += $5 }
        END { d = up - u; if (d < 0) d = -d; e = rl - l; if (e < 0) e = -e
              s = up + rl + ts + cs - all; if (s < 0) s = -s
              exit !(up > 0 && d <= 1e-5 * up && e <= 1e-5 * rl && s <= 1e-9 * all) }' hwt.err
check "star: no net_busy_* members in metrics.json" sh -c "! grep -q net_busy_ A-strict/metrics.json"
# Events per page fault and per job: dispatched / (disk + remote faults) and
# dispatched / jobs finished, recomputed here from metrics.json.
"$P" -c "$DEFAULT" $SLICE --set computer.ram=64 -o krf -q --kernel-report > /dev/null 2> krf.err
check "--kernel-report: events per page fault and per job match metrics.json" \
    awk -v ev="$(jval krf/metrics.json events)" -v fd="$(jval krf/metrics.json page_faults_disk)" \
        -v fr="$(jval krf/metrics.json page_faults_remote)" -v jobs="$(jval krf/metrics.json jobs_finished)" '
        /events per page fault/ { line = $0 }
        END { if (fd + fr == 0 || jobs == 0) exit 1
              want = sprintf("events per page fault %.2f, events per job %.1f", ev / (fd + fr), ev / jobs)
              exit index(line, want) == 0 }' krf.err

# ---- signals ---------------------------------------------------------------

# sigtest SIG STATUS FORMAT: the default scenario made slow (a neighbour
# message every CPU second), progress every 600 s so stderr shows when the
# run is under way; the signal is sent then, and the run must stop soon.
sigtest() {
    sig=$1; want=$2; fmt=$3; d=sig-$sig
    "$P" -c "$DEFAULT" --set process.comm_rate=1 --set simulation.metrics_period=600 \
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

# ---- a burst ending exactly at a quantum end ----------------------------------
# Two 4-thread jobs of 100 CPU s on 4 PEs, MPL 2, PCS 0, neighbour messages
# every 10 CPU s, synchronisation every 20: with a quantum of exactly 10 s
# every burst ends at the very instant of a switch. Completions come before
# the scheduler at an instant, so the tie must behave like a quantum a hair
# longer (10.000001 s): the same kills and end times within 1e-4 s, never a
# synchronisation absorbed while the job is descheduled (which moved job 1's
# end by 10 s before this was fixed).
printf '1 0 -1 100 4 100 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n2 0 -1 100 4 100 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n' > tie.swf
for q in 10 10.000001; do
    "$P" -t tie.swf --set computer.number=4 --set scheduler.mpl=2 --set scheduler.pcs=0 \
        --set process.comm_rate=10 --set process.sync_rate=20 --set scheduler.quantum=$q \
        -q -o tie$q > /dev/null 2>&1
done
e1=$(awk -F, '$1 == 1 { print $4 }' tie10/jobs.csv)
e2=$(awk -F, '$1 == 1 { print $4 }' tie10.000001/jobs.csv)
check "quantum tie: job 1 ends as with a slightly longer quantum ($e1 vs $e2)" \
    awk -v a="$e1" -v b="$e2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && d < 1e-4) }'
check "quantum tie: same number of killed messages" \
    test "$(jval tie10/metrics.json messages_killed)" = "$(jval tie10.000001/metrics.json messages_killed)"

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

# ---- help and version ------------------------------------------------------

"$P" --help > help.out 2>&1
check "--help: exit 0 with usage" sh -c "test $? -eq 0 && grep -q '^usage: pnrsim' help.out"
"$P" -h > /dev/null 2>&1
check "-h: exit 0" test $? -eq 0
check "-V prints a version" sh -c "'$P' -V | grep -Eq '^pnrsim [0-9]+\\.[0-9]+\\.[0-9]+'"
check "--version prints a version" sh -c "'$P' --version | grep -Eq '^pnrsim [0-9]+\\.[0-9]+'"

finish
