#!/bin/sh
# tests/test_results.sh BUILD: how pnrsim reads its configuration and
# writes its results, under the conditions that used to lose data
# (issue 12 items 3, 5, 6, 7, 8, 11 and 13):
#   - a configuration read from a pipe (-c /dev/stdin, -c <(...)) is read,
#     not replaced by the defaults; a directory as configuration is a clear
#     error, not "line 0";
#   - --help and -V fail when standard output cannot be written;
#   - non-UTF-8 bytes in [simulation] system leave metrics.json valid JSON;
#   - zero-job runs (empty trace, every job too wide, every line malformed
#     under lenient): exit status 3, a warning, means n/a / null; a slowdown
#     mean over zero-length jobs only is null, not 0;
#   - result sets all or nothing: metrics.json blocked by a directory
#     replaces nothing; a second pnrsim into a busy directory is refused;
#     concurrent runs never leave files from two runs;
#   - debris: a SIGKILLed run's staging directory is removed by the next
#     run, a cut commit is completed, live or foreign ones are left alone;
#   - coreutils timeout (SIGTERM twice): partial results written, every file
#     marked (--schedule's too), earlier complete results replaced only with
#     a word on stderr.
#   - a run without --schedule into a directory holding an earlier run's
#     schedule files removes them (the set is never mixed).
#   - issue 32 item 6: every cap that cuts a file is recorded in
#     metrics.json ("truncated": file, cap, rows kept, rows dropped) and
#     config.ini ("; truncated: ..." comments); nothing cut, no member.
# Prints "N passed, N failed" last and exits non-zero when a check failed.
# KEEP=1 keeps the temporary directory.

TEST_NAME=test_results
. "$(dirname "$0")/lib.sh"    # top, build, P, DEFAULT, PY, check, skip, finish, T, jval
LUBLIN=$top/traces/lublin-256-synthetic.swf

# Valid JSON (strict UTF-8)?
valid_json() { "$PY" -c 'import json,sys; json.loads(open(sys.argv[1], "rb").read())' "$1" 2>/dev/null; }
# Number of hidden staging entries and temporary files under $1.
debris() { find "$1" -name '.*.tmp' -o -name '.*.commit' | wc -l | tr -d ' '; }
# A pid that is provably dead: a finished child's.
dead_pid() { sh -c 'echo $$' ; }
# This machine's name as pnrsim writes it into staging names.
HOST=$(hostname 2>/dev/null | tr -c 'A-Za-z0-9.\n-' '_' | cut -c1-63)
[ -n "$HOST" ] || HOST=localhost

# 4 PEs, no messages, small jobs.
cat > small.ini <<'EOF'
[simulation]
metrics_period = 100000
[process]
comm_rate = 0
sync_rate = 0
[computer]
number = 4
ram = 32
EOF
cat > four.swf <<'EOF'
1 0 -1 -1 1 10 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
2 5 -1 -1 2 10 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
3 5 -1 -1 1 10 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
4 9 -1 -1 4 10 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1
EOF

# ---- item 3: configuration from a pipe ---------------------------------------

printf '; from a pipe\n[computer]\nnumber = 7\n' > seven.ini
cat seven.ini | "$P" -c /dev/stdin --print-config > pipe-ini.out 2> pipe-ini.err
check "INI through a pipe (-c /dev/stdin): number = 7, not the default" \
    sh -c "test $? -eq 0 && grep -qx 'number = 7' pipe-ini.out"
printf '# PNRSim format\nNumber 5\nMPL 3\n' | "$P" -c /dev/stdin --print-config > pipe-cfg.out 2>&1
check "PNRSim format through a pipe: number = 5, mpl = 3" \
    sh -c "grep -qx 'number = 5' pipe-cfg.out && grep -qx 'mpl = 3' pipe-cfg.out"
printf '[computer]\nnumber = x\n' | "$P" -c /dev/stdin --print-config > /dev/null 2> pipe-bad.err
check "a bad value through a pipe: exit 2 naming /dev/stdin:2" \
    sh -c "test $? -eq 2 && grep -q '/dev/stdin:2: \\[computer\\] number' pipe-bad.err"
if command -v bash > /dev/null 2>&1; then
    bash -c "'$P' -c <(cat seven.ini) --print-config" > procsub.out 2>&1
    check "-c <(...) (process substitution): number = 7" grep -qx 'number = 7' procsub.out
else
    skip "-c <(...): no bash"
fi
# A whole run with the scenario from a pipe equals the run from the file.
"$P" -c small.ini -t four.swf -q -o from-file > /dev/null 2>&1
cat small.ini | "$P" -c /dev/stdin -t four.swf -q -o from-pipe > /dev/null 2>&1
check "a run configured through a pipe: same jobs.csv as from the file" \
    cmp -s from-file/jobs.csv from-pipe/jobs.csv

# ---- item 13: directory as config, --help/-V on a full stdout, JSON bytes ----

mkdir cfgdir
"$P" -c cfgdir -t four.swf -o dir-cfg > /dev/null 2> dir-cfg.err
rc=$?
check "directory as config: exit 2, 'is a directory', no 'line 0', nothing written" \
    sh -c "test $rc -eq 2 && grep -q 'cfgdir: is a directory' dir-cfg.err && ! grep -q ':0:' dir-cfg.err && test ! -e dir-cfg"
if [ -w /dev/full ]; then
    "$P" --help > /dev/full 2> full-help.err
    check "--help >/dev/full: non-zero exit and a message" \
        sh -c "test $? -ne 0 && grep -q 'standard output' full-help.err"
    "$P" -V > /dev/full 2> /dev/null
    check "-V >/dev/full: non-zero exit" test $? -ne 0
    "$P" --print-config > /dev/full 2> /dev/null
    check "--print-config >/dev/full: non-zero exit" test $? -ne 0
else
    skip "--help/-V on a full stdout: no /dev/full"
fi
"$P" --help > /dev/null 2>&1
check "--help to a writable stdout: exit 0" test $? -eq 0

# Bytes that are not UTF-8 (a lone 0xFF, a truncated sequence, an overlong
# '/', a UTF-16 surrogate) and valid ones (e-acute, a 4-byte emoji).
sys=$(printf 'a\377b\303c\300\257d\355\240\200e-\303\251-\360\237\230\200')
"$P" -c small.ini -t four.swf --set "simulation.system=$sys" -q --format json -o utf > utf.json 2> utf.err
check "non-UTF-8 system: run succeeds" test $? -eq 0
check "non-UTF-8 system: metrics.json is valid JSON" valid_json utf/metrics.json
check "non-UTF-8 system: --format json on stdout is valid JSON" valid_json utf.json
check "non-UTF-8 system: bad bytes become U+FFFD, good UTF-8 is kept" "$PY" -c '
import json, sys
d = json.loads(open(sys.argv[1], "rb").read())
want = "a\ufffdb\ufffdc\ufffd\ufffdd\ufffd\ufffd\ufffde-\u00e9-\U0001F600"
sys.exit(0 if d["system"] == want else 1)' utf/metrics.json

# ---- item 11: zero-job runs ---------------------------------------------------

# zero_case NAME ARGS...: exit 3, a warning on stderr, means null in
# metrics.json (valid JSON), n/a in the text summary and in metrics.dat.
zero_case() {
    zn=$1; shift
    "$P" -c small.ini "$@" -o "$zn" > "$zn.out" 2> "$zn.err"
    rc=$?
    check "$zn: exit status 3" test $rc -eq 3
    check "$zn: warning on stderr" grep -q 'warning: no job finished' "$zn.err"
    check "$zn: metrics.json valid JSON" valid_json "$zn/metrics.json"
    check "$zn: the five job means are null" sh -c "
        for k in response_time_mean wait_time_mean execution_time_mean slowdown_mean bounded_slowdown_mean; do
            test \"\$(sed -n \"s/^ *\\\"\$k\\\": \\(.*\\),\\\$/\\1/p\" '$zn/metrics.json')\" = null || exit 1
        done"
    check "$zn: text summary says n/a for the response time, not 0" \
        grep -q 'Average process response time  *n/a' "$zn.out"
    check "$zn: metrics.dat has n/a, no nan" \
        sh -c "grep -q 'n/a' '$zn/metrics.dat' && ! grep -qi 'nan' '$zn/metrics.dat'"
}
printf '; no jobs at all\n' > empty.swf
zero_case zero-empty -t empty.swf
printf '1 0 -1 -1 8 10 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n2 1 -1 -1 9 10 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n' > wide.swf
zero_case zero-too-wide -t wide.swf
printf '1 0 -1 -1 1 10\n2 x -1 -1 1 10 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n' > malformed.swf
zero_case zero-malformed -t malformed.swf --set workload.lenient=yes
# Only zero-length jobs (CPU time 0): they finish, the slowdown of each is
# undefined, so their mean is too (the bounded slowdown is defined).
printf '1 0 -1 -1 1 0 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n2 0 -1 -1 2 0 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n' > zerolen.swf
"$P" -c small.ini -t zerolen.swf -o zerolen -q > zerolen.out 2>&1
check "zero-length jobs only: exit 0 (jobs finished)" test $? -eq 0
check "zero-length jobs only: slowdown_mean null, not 0" test "$(jval zerolen/metrics.json slowdown_mean)" = null
check "zero-length jobs only: 2 excluded, bounded slowdown 1" \
    test "$(jval zerolen/metrics.json slowdown_excluded) $(jval zerolen/metrics.json bounded_slowdown_mean)" = "2 1"

# ---- item 5: all or nothing ----------------------------------------------------

# metrics.json blocked by a directory: nothing of an earlier run replaced.
mkdir -p blocked/metrics.json
echo "earlier jobs" > blocked/jobs.csv
echo "earlier samples" > blocked/samples.csv
"$P" -c small.ini -t four.swf -q -o blocked > /dev/null 2> blocked.err
rc=$?
check "metrics.json is a directory: run fails (exit $rc), naming it" \
    sh -c "test $rc -ne 0 && grep -q 'metrics.json' blocked.err"
check "metrics.json is a directory: jobs.csv and samples.csv not replaced" \
    sh -c "test \"\$(cat blocked/jobs.csv)\" = 'earlier jobs' && test \"\$(cat blocked/samples.csv)\" = 'earlier samples'"
check "metrics.json is a directory: no config.ini, metrics.dat, debris" \
    sh -c "test ! -e blocked/config.ini && test ! -e blocked/metrics.dat && test $(debris blocked) -eq 0 && test ! -e blocked/.pnrsim.lock"

# A slow run: the default scenario with a neighbour message every CPU
# second; started in the background, it writes a progress line to $1.err
# every 0.01 s of wall time.
slow_start() {
    "$P" -c "$DEFAULT" --set process.comm_rate=1 --set output.progress_interval=0.01 \
        -o "$1" > "$1.out" 2> "$1.err" &
    slow_pid=$!
    i=0
    while [ ! -s "$1.err" ] && [ $i -lt 100 ] && kill -0 $slow_pid 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
}
slow_wait() {
    i=0
    while kill -0 $slow_pid 2>/dev/null && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
    kill -0 $slow_pid 2>/dev/null && kill -KILL $slow_pid 2>/dev/null
    wait $slow_pid
}

# The same block appearing while the run goes: still nothing replaced.
mkdir late
echo "earlier jobs" > late/jobs.csv
slow_start late
mkdir late/metrics.json
kill -INT $slow_pid
slow_wait
check "metrics.json blocked during the run: jobs.csv not replaced, no debris" \
    sh -c "test \"\$(cat late/jobs.csv)\" = 'earlier jobs' && test $(debris late) -eq 0"

# A second pnrsim into a directory being written: refused at once, exit 2,
# nothing of it in the directory; the first run's files are its own.
slow_start busy
"$P" -c small.ini -t four.swf -q -s 99 -o busy > busy2.out 2> busy2.err
rc=$?
kill -INT $slow_pid
slow_wait
check "second writer into a busy directory: exit 2, 'another pnrsim'" \
    sh -c "test $rc -eq 2 && grep -q 'another pnrsim' busy2.err"
check "busy directory: the files are the first run's (seed 1 in metrics.json and config.ini)" \
    sh -c "test '$(jval busy/metrics.json seed)' = 1 && grep -qx 'seed = 1' busy/config.ini"
check "busy directory: no lock or staging left" \
    sh -c "test ! -e busy/.pnrsim.lock && test $(debris busy) -eq 0"
check "busy directory: the message names the holder's pid@host" \
    grep -Eq 'another pnrsim \([0-9]+@[^)]+\) is writing' busy2.err

# A lock held by a process that wrote no pid@host (here flock(1) on an
# empty lock file): refused, naming the lock file, never "(unknown)".
if command -v flock > /dev/null 2>&1; then
    mkdir nopid
    : > nopid/.pnrsim.lock
    flock nopid/.pnrsim.lock sleep 5 &
    fl_pid=$!
    n=0
    while [ $n -lt 50 ] && flock -n nopid/.pnrsim.lock true; do sleep 0.1; n=$((n + 1)); done
    "$P" -c small.ini -t four.swf -q -o nopid > nopid.out 2> nopid.err
    rc=$?
    kill $fl_pid 2> /dev/null
    wait $fl_pid 2> /dev/null
    check "lock held without a pid: exit 2, names the lock file, no '(unknown)'" \
        sh -c "test $rc -eq 2 && grep -qF 'nopid: another process holds the lock nopid/.pnrsim.lock (it has not written its pid@host there)' nopid.err && ! grep -q unknown nopid.err"
else
    skip "lock held without a pid: flock(1) not installed (util-linux)"
fi

# Concurrent runs into one directory, each with its own max_jobs: whoever
# commits, jobs.csv rows = jobs_finished in metrics.json = max_jobs in
# config.ini = the metrics.dat column.
for round in 1 2 3; do
    for k in 1 2 3 4 5 6 7 8; do
        "$P" -t "$LUBLIN" --set computer.number=256 --set workload.max_jobs=$((k * 5)) \
            -q -o conc > /dev/null 2>&1 &
    done
    wait
    rows=$(($(grep -vc '^#' conc/jobs.csv) - 1))
    fin=$(jval conc/metrics.json jobs_finished)
    mj=$(sed -n 's/^max_jobs = //p' conc/config.ini)
    dat=$(awk 'NR == 2 { print $2 }' conc/metrics.dat)
    check "concurrent runs, round $round: one run's files ($rows rows, $fin finished, max_jobs $mj, dat $dat)" \
        sh -c "test -n '$fin' && test '$rows' = '$fin' && test '$fin' = '$mj' && test '$dat' = '$fin' && test $(debris conc) -eq 0"
done

# An earlier run's --schedule files do not stay beside a later run's files.
"$P" -c small.ini -t four.swf --schedule --paje -q -o mixed > /dev/null 2>&1
"$P" -c small.ini -t four.swf -q -o mixed > /dev/null 2>&1
check "schedule files of an earlier run removed by a run without --schedule" \
    sh -c "test -s mixed/metrics.json && for f in schedule.csv pes.csv memory.csv paging.csv schedule.paje; do test ! -e mixed/\$f || exit 1; done"

# ---- item 6: debris of dead runs ----------------------------------------------

# A SIGKILLed run leaves its staging directory; the next run removes it.
slow_start killed
kill -KILL $slow_pid
wait $slow_pid 2>/dev/null
left=$(debris killed)
"$P" -c small.ini -t four.swf -q -o killed > /dev/null 2>&1
check "SIGKILLed run: its temporary files ($left) removed by the next run" \
    sh -c "test $left -gt 0 && test $(debris killed) -eq 0 && test -s killed/metrics.json"
# Hand-made debris: a dead pid's staging (removed), a live pid's and
# another machine's (kept), a dead pid's cut commit (completed).
mkdir -p deb
dead=$(dead_pid)
sleep 60 &
live=$!
mkdir "deb/.pnrsim-$dead@$HOST.tmp" "deb/.pnrsim-$live@$HOST.tmp" "deb/.pnrsim-$dead@elsewhere.example.tmp"
head -c 100000 /dev/zero > "deb/.pnrsim-$dead@$HOST.tmp/jobs.csv"
"$P" -c small.ini -t four.swf -q -o deb > /dev/null 2> deb.err
check "dead run's staging directory removed" test ! -e "deb/.pnrsim-$dead@$HOST.tmp"
check "live run's and another host's staging directories kept" \
    sh -c "test -d 'deb/.pnrsim-$live@$HOST.tmp' && test -d 'deb/.pnrsim-$dead@elsewhere.example.tmp'"
kill $live 2>/dev/null
wait $live 2>/dev/null
mkdir -p cut "cut/.pnrsim-$dead@$HOST.commit"
echo '{ "partial": false }' > "cut/.pnrsim-$dead@$HOST.commit/metrics.json"
echo 'cut dat' > "cut/.pnrsim-$dead@$HOST.commit/metrics.dat"
"$P" -c small.ini -t nonexistent.swf -q -o cut > /dev/null 2> cut.err
check "a cut commit is completed by the next run (metrics.dat, metrics.json moved in)" \
    sh -c "test \"\$(cat cut/metrics.dat)\" = 'cut dat' && test -s cut/metrics.json && test ! -e 'cut/.pnrsim-$dead@$HOST.commit' && grep -q 'completed the commit' cut.err"
# Files of an older pnrsim (no pid in the name): left, with a word.
mkdir -p legacy
echo x > legacy/.jobs.csv.AbC123.tmp
"$P" -c small.ini -t four.swf -q -o legacy > /dev/null 2> legacy.err
check "older pnrsim's temporary file: left alone, mentioned on stderr" \
    sh -c "test -e legacy/.jobs.csv.AbC123.tmp && grep -q 'older pnrsim' legacy.err"

# ---- items 7 and 8: coreutils timeout, partial marks ------------------------

# feed FILE: FILE into the FIFO feed.fifo, then the FIFO held open 5 s
# (the run is still reading its trace when it is signalled); the run reads
# it as standard input. unfeed ends the writer, so that the check goes on
# as soon as pnrsim has ended (a pipeline would wait out the 5 s).
feed() {
    rm -f feed.fifo
    mkfifo feed.fifo
    (cat "$1"; exec sleep 5) > feed.fifo 2> /dev/null &
    feed_pid=$!
}
unfeed() { kill "$feed_pid" 2> /dev/null; wait "$feed_pid" 2> /dev/null; }
if command -v timeout > /dev/null 2>&1; then
    head -n 3000 "$LUBLIN" > part.swf
    # A complete run first, then the same trace through a pipe kept open
    # and `timeout 2` (SIGTERM to pnrsim, then to its process group).
    "$P" -t part.swf --set computer.number=256 -q -o to > /dev/null 2>&1
    check "complete run before: exit 0, not partial" test "$(jval to/metrics.json partial)" = false
    feed part.swf
    timeout 2 "$P" -t - --set computer.number=256 -q -o to \
        > to.out 2> to.err < feed.fifo
    rc=$?
    check "timeout (SIGTERM twice): timeout's status 124, not killed by the signal" test $rc -eq 124
    unfeed
    check "timeout: partial results written (metrics.json partial true)" \
        test "$(jval to/metrics.json partial)" = true
    check "timeout: metrics.json valid JSON" valid_json to/metrics.json
    check "timeout: no debris" test "$(debris to)" -eq 0
    check "timeout: jobs.csv, samples.csv, metrics.dat end with a # PARTIAL line" \
        sh -c "tail -1 to/jobs.csv | grep -q '^# PARTIAL' && tail -1 to/samples.csv | grep -q '^# PARTIAL' && tail -1 to/metrics.dat | grep -q '^# PARTIAL'"
    check "timeout: config.ini says ; PARTIAL and still loads" \
        sh -c "grep -q '^; PARTIAL' to/config.ini && '$P' -c to/config.ini --print-config > /dev/null"
    check "timeout: stderr says earlier complete results were replaced by PARTIAL ones" \
        grep -q 'complete results of an earlier run there were replaced by these PARTIAL' to.err
    feed part.swf
    timeout --preserve-status -s INT 2 "$P" -t - \
        --set computer.number=256 -q -o to-int > /dev/null 2>&1 < feed.fifo
    check "timeout -s INT --preserve-status: exit 130, partial results" \
        test "$? $(jval to-int/metrics.json partial)" = "130 true"
    unfeed
    # timeout's two SIGTERMs usually arrive together (one pending signal);
    # when the run has already taken the first, the second must be
    # absorbed too: send them 0.1 s apart.
    for sig in TERM INT; do
        feed part.swf
        "$P" -t - --set computer.number=256 -q -o twice-$sig \
            > /dev/null 2> twice-$sig.err < feed.fifo &
        pid=$!  # pnrsim
        sleep 1.5
        kill -$sig "$pid"; sleep 0.1; kill -$sig "$pid" 2>/dev/null
        wait "$pid"
        unfeed
        check "$sig twice, 0.1 s apart: partial results written, no debris" \
            sh -c "test -n '$pid' && test '$(jval twice-$sig/metrics.json partial)' = true && test $(debris twice-$sig) -eq 0 && grep -q PARTIAL twice-$sig.err"
    done
    # The same while the run is still busy before its first event (a long
    # SWF header: 30,000 "; Key: value" lines): the second signal must not
    # kill it; it says it was interrupted and leaves no debris.
    awk 'BEGIN { for (i = 0; i < 30000; i++) printf "; Key%d: value\n", i
                 print "1 0 -1 -1 1 10 1024 -1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1" }' > hdr.swf
    feed hdr.swf
    "$P" -t - -q -o hdr > /dev/null 2> hdr.err < feed.fifo &
    pid=$!
    sleep 0.5
    kill -TERM "$pid"; sleep 0.1; kill -TERM "$pid" 2>/dev/null
    wait "$pid"
    unfeed
    hd=0
    [ -d hdr ] && hd=$(debris hdr)
    check "TERM twice during a long SWF header: not killed (says interrupted), no debris" \
        sh -c "grep -q 'interrupted' hdr.err && test ! -e hdr/.pnrsim.lock && test $hd -eq 0"
    # With --schedule the three extra files are marked too, and still read
    # by pj_dump and pnrsim-plot (when installed).
    feed part.swf
    timeout 2 "$P" -t - --set computer.number=256 --schedule --paje -q \
        -o to-sched > /dev/null 2>&1 < feed.fifo
    check "timeout --schedule --paje: schedule.csv, pes.csv, memory.csv, paging.csv, schedule.paje end with # PARTIAL" \
        sh -c "for f in schedule.csv pes.csv memory.csv paging.csv schedule.paje; do tail -1 to-sched/\$f | grep -q '^# PARTIAL' || exit 1; done"
    unfeed
    if command -v pj_dump > /dev/null 2>&1; then
        check "timeout --schedule: the partial schedule.paje passes pj_dump" \
            sh -c "pj_dump to-sched/schedule.paje > /dev/null 2>&1"
    else
        skip "pj_dump not installed"
    fi
    if [ -x "$build/pnrsim-plot" ] && /usr/bin/python3 -c 'import pandas, matplotlib' > /dev/null 2>&1; then
        "$build/pnrsim-plot" to-sched > plot.out 2> plot.err
        check "timeout --schedule: pnrsim-plot draws the partial run (stderr empty)" \
            sh -c "test $? -eq 0 && test ! -s plot.err"
    else
        skip "pnrsim-plot or Python pandas/matplotlib missing"
    fi
    # A partial run replacing partial results: no "replaced complete" line.
    feed part.swf
    timeout 2 "$P" -t - --set computer.number=256 -q -o to \
        > /dev/null 2> to2.err < feed.fifo
    check "partial over partial: no 'replaced complete' message" \
        sh -c "! grep -q 'complete results of an earlier run' to2.err"
    unfeed
else
    skip "coreutils timeout not installed"
fi

# ---- issue 32 item 6: caps that cut a file, in metrics.json and config.ini ----
# One PE, ten 1-thread jobs of 5 s submitted at 0, 10, ..., 90 (each runs
# at once: [10k, 10k + 5]), metrics_period = 5. Samples are taken at the
# multiples of 5 while model events remain: 5, 10, ..., 90 (the last
# job's end at 95 is the last event: no sample there), 18 samples. Each
# differs from the one before (running 0 at 5, 15, ..., 85 and 1 at 10,
# 20, ..., 90; jobs_finished goes up at every second), so samples.csv has
# 18 rows uncapped and pes.csv 18 rows (1 PE: 1 row per sample). With
# max_samples = 5: 5 rows kept in each (t = 5 .. 25), 18 - 5 = 13 dropped,
# the first dropped at t = 30.
i=0
: > ten.swf
while [ $i -lt 10 ]; do
    echo "$((i + 1)) $((i * 10)) -1 5 1 5 1024 1 5 -1 1 1 1 1 1 1 -1 -1" >> ten.swf
    i=$((i + 1))
done
TEN="-c $DEFAULT -q -t ten.swf --set computer.number=1 --set simulation.metrics_period=5 --schedule"
# shellcheck disable=SC2086
"$P" $TEN -o ten-full > /dev/null 2>&1
# shellcheck disable=SC2086
"$P" $TEN --set simulation.max_samples=5 -o ten-cut > /dev/null 2> ten-cut.err
check "uncapped: samples.csv and pes.csv have the 18 rows worked out by hand, no truncated member, no '; truncated' line" \
    sh -c "test \$(grep -vc '^[#t]' ten-full/samples.csv) -eq 18 && test \$(grep -vc '^[#t]' ten-full/pes.csv) -eq 18 && ! grep -q truncated ten-full/metrics.json ten-full/config.ini"
check "max_samples = 5: the files keep 5 rows each" \
    sh -c "test \$(grep -vc '^[#t]' ten-cut/samples.csv) -eq 5 && test \$(grep -vc '^[#t]' ten-cut/pes.csv) -eq 5"
cat > trunc.py <<'PYEOF'
import json, sys
m = json.load(open(sys.argv[1]))
want = {(e[0], e[1], int(e[2]), int(e[3]), float(e[4])) for e in
        (x.split(":") for x in sys.argv[2:])}
got = {(e["file"], e["cap"], e["rows_kept"], e["rows_dropped"], e["first_dropped_at"])
       for e in m.get("truncated", [])}
print(sorted(got))
sys.exit(got != want or len(m.get("truncated", [])) != len(want))
PYEOF
check "max_samples = 5: metrics.json truncated = samples.csv and pes.csv, each 5 kept, 13 dropped, from t = 30" \
    "$PY" trunc.py ten-cut/metrics.json "samples.csv:simulation.max_samples:5:13:30" \
    "pes.csv:simulation.max_samples:5:13:30"
check "max_samples = 5: config.ini says so in two comment lines, and still replays" \
    sh -c "grep -q '^; truncated: samples.csv cut by simulation.max_samples = 5 rows: 5 rows kept, 13 dropped from t=30 s' ten-cut/config.ini && grep -q '^; truncated: pes.csv cut by simulation.max_samples = 5 rows: 5 rows kept, 13 dropped from t=30 s' ten-cut/config.ini && '$P' -c ten-cut/config.ini --print-config > /dev/null"
check "max_samples = 5: metrics.json stays valid JSON" valid_json ten-cut/metrics.json
# --schedule=gz: the entry names pes.csv.gz.
# shellcheck disable=SC2086
"$P" $TEN=gz --set simulation.max_samples=5 -o ten-gz > /dev/null 2>&1
check "--schedule=gz: the entry names pes.csv.gz" \
    "$PY" trunc.py ten-gz/metrics.json "samples.csv:simulation.max_samples:5:13:30" \
    "pes.csv.gz:simulation.max_samples:5:13:30"
# A window (schedule_from = 40): pes.csv holds the samples of 40 .. 90 only,
# 11 of them uncapped; max_samples = 5 keeps 40 .. 60 and drops the 6 of
# 65 .. 90 (samples before the window were never to be written: not
# counted); samples.csv as before (5 kept, 13 dropped).
# shellcheck disable=SC2086
"$P" $TEN --set output.schedule_from=40 --set simulation.max_samples=5 -o ten-win > /dev/null 2>&1
check "window 40..end: pes.csv 5 kept, 6 dropped (65 .. 90), from t = 65" \
    "$PY" trunc.py ten-win/metrics.json "samples.csv:simulation.max_samples:5:13:30" \
    "pes.csv:simulation.max_samples:5:6:65"
# The Paje trace's network states, capped at 256 x max_samples: 2 PEs, one
# job of 2 threads sending a neighbour message every CPU second. The
# uncapped trace's network states (its "8 ... LS|SS" lines) are counted;
# with max_samples = 1 the trace keeps exactly 256 of them and the entry
# says 256 kept, (uncapped - 256) dropped.
echo "1 0 -1 1000 2 1000 1024 2 1000 -1 1 1 1 1 1 1 -1 -1" > two.swf
PJ="-c $DEFAULT -q -t two.swf --set computer.number=2 --set process.comm_rate=1 --set simulation.metrics_period=100000 --paje"
# shellcheck disable=SC2086
"$P" $PJ --set simulation.max_samples=0 -o pj-full > /dev/null 2>&1
# shellcheck disable=SC2086
"$P" $PJ --set simulation.max_samples=1 -o pj-cut > /dev/null 2>&1
full=$(grep -cE '^8 [^ ]+ (LS|SS) ' pj-full/schedule.paje)
kept=$(grep -cE '^8 [^ ]+ (LS|SS) ' pj-cut/schedule.paje)
check "Paje cap: uncapped $full network states (> 256); capped: 256 in the trace" \
    test "$full" -gt 256 -a "$kept" -eq 256
check "Paje cap: metrics.json truncated = schedule.paje, 256 kept, $full - 256 dropped; nothing cut uncapped" \
    sh -c "\"$PY\" -c 'import json,sys; e=json.load(open(\"pj-cut/metrics.json\"))[\"truncated\"]; sys.exit(not (len(e) == 1 and e[0][\"file\"] == \"schedule.paje\" and e[0][\"cap\"] == \"256 x simulation.max_samples\" and e[0][\"rows_kept\"] == 256 and e[0][\"rows_dropped\"] == $full - 256))' && ! grep -q truncated pj-full/metrics.json"
check "Paje cap: config.ini comment names schedule.paje" \
    grep -q "^; truncated: schedule.paje cut by 256 x simulation.max_samples = 256 network states: 256 network states kept, $((full - 256)) dropped" pj-cut/config.ini

finish
