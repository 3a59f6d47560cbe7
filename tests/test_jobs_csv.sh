#!/bin/sh
# tests/test_jobs_csv.sh [BUILD]: jobs.csv lists every job the trace
# offered (issue 26, docs/METRICS.md), and the run records its provenance.
#
# tests/data/jobs-states.swf on 4 PEs, run times as CPU demand, no memory,
# no messages, FCFS with strict order, lenient (worked out by hand):
#   job 1: 2 PEs, 100 s, submit 0  -> PEs 0-1 at 0, ends 100
#   job 2: 2 PEs, 300 s, submit 0  -> PEs 2-3 at 0, ends 300
#   job 3: 1 PE, 50 s, submit 10   -> waits for job 1: PE 0 at 100, ends 150
#   job 4: 3 PEs, 100 s, submit 20 -> 3 PEs free only when job 2 ends (300)
#   job 5: 8 PEs                    -> dropped too_wide (when read, t = 20)
#   job 6: no run time              -> dropped no_cpu
#   job 7: submit -5                -> dropped malformed (its number known)
#   a line with no job number       -> counted malformed, not listed
#   jobs 8, 9, 10: submit 400, 500 (16 PEs), 600
# Cut at max_time = 250 at MPL 1: 1 and 3 finished, 2 running (slot 0,
# PEs 2-3), 4 queued (never placed: reason waiting, slot and PEs empty), 8 read ahead and 9,
# 10 read after the end: unsubmitted (9 too, though it would be dropped:
# the run never read it, so the drop counts stay those of the run).
# At MPL 2 without a cut: job 3 opens slot 1 (PE 0), job 4 joins it (PEs
# 1-3), nothing can move (no PE of theirs is idle in the other slot while
# they run), so 1 and 2 end in slot 0, 3 and 4 in slot 1.
# With submit_max = 450: job 9 is the first record after it, a window drop
# (listed), and reading stops there: job 10 is not listed.
# Provenance: trace_sha256 equals sha256sum's, also for -t - (a pipe), and
# config.ini's comment lines, which -c replays.
TEST_NAME=test_jobs_csv
. "$(dirname "$0")/lib.sh"

TR=$top/tests/data/jobs-states.swf
BASE="-c $DEFAULT -q --set computer.number=4 --set workload.cpu_demand=runtime
      --set workload.memory_scale=0 --set process.comm_rate=0 --set process.sync_rate=0
      --set workload.lenient=yes --set scheduler.priority=fcfs --set scheduler.strict_order=yes
      --set scheduler.backfill=none"
row() { awk -F, -v j="$2" 'NR > 1 && $1 == j' "$1"; }
nstate() { # rows of jobs.csv $1 in state $2 (reason $3 when given)
    s=$(col "$1" state); r=$(col "$1" reason)
    awk -F, -v s="$s" -v r="$r" -v st="$2" -v why="${3-}" \
        'NR > 1 && $s == st && (why == "" || $r == why)' "$1" | wc -l | tr -d ' '
}
drop() { sed -n "s/.*\"$2\": \\([0-9]*\\).*/\\1/p" "$1" | head -1; }

# shellcheck disable=SC2086 # $BASE: options split on blanks
"$P" $BASE -t "$TR" --set scheduler.mpl=1 --set simulation.max_time=250 -o cut > cut.out 2> cut.err
check "cut: exit 0" test $? -eq 0
check "cut: stderr empty" test ! -s cut.err
J=cut/jobs.csv
check "header: the 14 columns, then requested_time,state,reason,slot,pes,bounded_slowdown_dedicated" \
    test "$(head -1 $J)" = "job,submit,start,end,threads,wait,response,execution,slowdown,bounded_slowdown,cpu_demand,memory_mb,page_faults,fault_time,requested_time,state,reason,slot,pes,bounded_slowdown_dedicated"
# bounded_slowdown_dedicated (the last column, finished rows only):
# max(1, response / max(cpu_demand, 10)): job 1 100/100 = 1, job 3
# 140/50 = 2.8 (no paging, MPL 1: the same as bounded_slowdown).
# 10 job numbers in the trace, the line without one not listed: 10 rows.
check "cut: one row per job with a number (10)" test "$(($(lines $J) - 1))" -eq 10
check "every row has 20 fields" test "$(awk -F, '{print NF}' $J | sort -u)" = 20
check "job 1 finished 0..100, slot 0, PEs 0-1, requested 150" \
    test "$(row $J 1)" = "1,0,0,100,2,0,100,100,1,1,100,0,0,0,150,finished,,0,0-1,1"
check "job 3 finished 100..150 on PE 0 (wait 90, slowdown 140/50)" \
    test "$(row $J 3)" = "3,10,100,150,1,90,140,50,2.8,2.8,50,0,0,0,60,finished,,0,0,2.8"
check "job 2 running: start 0, no end/wait, slot 0, PEs 2-3, requested unknown" \
    test "$(row $J 2)" = "2,0,0,,2,,,,,,300,0,0,0,,running,,0,2-3,"
check "job 4 queued: never placed, reason waiting, slot and PEs empty" \
    test "$(row $J 4)" = "4,20,,,3,,,,,,100,0,0,0,200,queued,waiting,,,"
check "job 5 dropped too_wide (8 threads)" \
    test "$(row $J 5)" = "5,30,,,8,,,,,,100,0,,,100,dropped,too_wide,,,"
check "job 6 dropped no_cpu (no demand: empty)" \
    test "$(row $J 6)" = "6,40,,,1,,,,,,,0,,,100,dropped,no_cpu,,,"
check "job 7 dropped malformed (submit unknown: empty)" \
    test "$(row $J 7)" = "7,,,,1,,,,,,10,0,,,100,dropped,malformed,,,"
check "job 8 unsubmitted, submit 400" test "$(jobf $J 8 state),$(jobf $J 8 submit)" = "unsubmitted,400"
check "job 9 unsubmitted (after the end, not counted as dropped)" test "$(jobf $J 9 state)" = unsubmitted
check "job 10 unsubmitted, submit 600" test "$(jobf $J 10 state),$(jobf $J 10 submit)" = "unsubmitted,600"
check "rows in job number order after the finished ones (2 4 8 9 10)" \
    test "$(tail -5 $J | cut -d, -f1 | tr '\n' ' ')" = "2 4 8 9 10 "
# Rows per state = the counts pnrsim reports.
M=cut/metrics.json
check "finished rows = jobs_finished (2)" test "$(nstate $J finished)" = "$(jval $M jobs_finished)"
check "every queued row has a reason (waiting): issue 32 item 2" \
    test "$(nstate $J queued waiting)" = "$(nstate $J queued)"
check "queued rows = jobs_never_started (1)" test "$(nstate $J queued)" = "$(jval $M jobs_never_started)"
check "running + queued rows - impossible = jobs_unfinished (2)" \
    test "$(($(nstate $J running) + $(nstate $J queued) - $(jval $M jobs_impossible)))" = "$(jval $M jobs_unfinished)"
check "finished + running + queued = jobs_submitted (4)" \
    test "$(($(nstate $J finished) + $(nstate $J running) + $(nstate $J queued)))" = "$(jval $M jobs_submitted)"
for why in too_wide no_cpu no_procs status window; do
    check "dropped $why rows = dropped.$why" test "$(nstate $J dropped $why)" = "$(drop $M $why)"
done
check "dropped malformed rows (1) = dropped.malformed (2) - 1 line without a job number" \
    test "$(nstate $J dropped malformed)" -eq "$(($(drop $M malformed) - 1))"

# MPL 2, no cut: slots.
# shellcheck disable=SC2086
"$P" $BASE -t "$TR" --set scheduler.mpl=2 -o gang > /dev/null 2> gang.err
J=gang/jobs.csv
check "gang: slots and PEs 1:0:0-1 2:0:2-3 3:1:0 4:1:1-3" \
    test "$(for j in 1 2 3 4; do printf '%s:%s:%s ' $j "$(jobf $J $j slot)" "$(jobf $J $j pes)"; done)" = \
    "1:0:0-1 2:0:2-3 3:1:0 4:1:1-3 "
check "gang: jobs 1-4, 8 and 10 finished (6)" test "$(nstate $J finished)" -eq 6
check "gang: job 9 (16 PEs) dropped too_wide this time (the run read it)" \
    test "$(jobf $J 9 state),$(jobf $J 9 reason)" = "dropped,too_wide"

# A never-placeable job (issue 32 item 2): mem_aware, 4 PEs of 100 MB, job
# 1 of 2 threads of 200 MB can never fit; job 2 (1 thread, 50 MB) runs.
# Job 1 is left queued (jobs_impossible 1) and its row says why.
printf '1 0 -1 10 2 10 204800 2 10 -1 1 1 1 1 1 1 -1 -1\n2 0 -1 10 1 10 51200 1 10 -1 1 1 1 1 1 1 -1 -1\n' > imp.swf
# shellcheck disable=SC2086
"$P" $(echo "$BASE" | sed 's/memory_scale=0/memory_scale=1/') -t imp.swf --set computer.ram=100 \
    --set scheduler.mem_aware=yes --set scheduler.mpl=1 -o imp > /dev/null 2> imp.err
J=imp/jobs.csv
check "impossible: jobs_impossible = 1" test "$(jval imp/metrics.json jobs_impossible)" = 1
check "impossible: job 1 queued, reason impossible, slot and PEs empty" \
    test "$(jobf $J 1 state),$(jobf $J 1 reason),$(jobf $J 1 slot),$(jobf $J 1 pes)" = "queued,impossible,,"
check "impossible: job 2 finished, reason empty" test "$(jobf $J 2 state),$(jobf $J 2 reason)" = "finished,"
check "impossible: every queued row has a reason" test "$(nstate $J queued impossible)" = "$(nstate $J queued)"

# submit_max: the first record after it is a window drop; reading stops.
# shellcheck disable=SC2086
"$P" $BASE -t "$TR" --set scheduler.mpl=1 --set workload.submit_max=450 -o win > /dev/null 2>&1
J=win/jobs.csv
check "window: job 9 dropped window" test "$(jobf $J 9 state),$(jobf $J 9 reason)" = "dropped,window"
check "window: dropped window rows = dropped.window (1)" \
    test "$(nstate $J dropped window)" = "$(drop win/metrics.json window)"
check "window: job 10 (not read) not listed" test -z "$(row $J 10)"

# Provenance.
if command -v sha256sum > /dev/null 2>&1; then
    want=$(sha256sum "$TR" | cut -c1-64)
    check "trace_sha256 = sha256sum of the file" test "$(jval cut/metrics.json trace_sha256)" = "\"$want\""
    # shellcheck disable=SC2086
    cat "$TR" | "$P" $BASE -t - --set scheduler.mpl=1 -o pipe > /dev/null 2>&1
    check "-t - (a pipe): trace_sha256 of the bytes read = sha256sum" \
        test "$(jval pipe/metrics.json trace_sha256)" = "\"$want\""
    check "-t -: trace_path \"-\"" test "$(jval pipe/metrics.json trace_path)" = '"-"'
    check "-t - read to its end: config.ini's trace line has no 'not read to its end'" \
        sh -c "sed -n 3p pipe/config.ini | grep -q 'sha256 $want\$'"
    # The run stops reading after 2 jobs (max_jobs): the pipe's checksum is
    # of the bytes read only, and config.ini says so.
    # shellcheck disable=SC2086
    cat "$TR" | "$P" $BASE -t - --set workload.max_jobs=2 -o pipe2 > /dev/null 2>&1
    check "-t - not read to its end (max_jobs 2): config.ini says the checksum is of the bytes read" \
        sh -c "sed -n 3p pipe2/config.ini | grep -q '(of the bytes read: the pipe was not read to its end)\$'"
    check "config.ini: '; trace: PATH sha256 HEX'" \
        test "$(sed -n 3p cut/config.ini)" = "; trace: $TR sha256 $want"
else
    skip "sha256sum not installed: the checksum is not checked against it"
fi
check "trace_path as given" test "$(jval cut/metrics.json trace_path)" = "\"$TR\""
check "pnrsim_version = pnrsim --version's" \
    test "pnrsim $(jval cut/metrics.json pnrsim_version | tr -d '"')" = "$("$P" --version)"
check "command_line: argv[0] first, -o cut in it" \
    sh -c "grep -q '^  \"command_line\": \"$P -c .* -o cut\",\$' cut/metrics.json"
check "config.ini line 1: '; pnrsim VERSION'" test "$(sed -n 1p cut/config.ini)" = "$("$P" --version | sed 's/^/; /')"
check "config.ini line 2: '; command: ...'" sh -c "sed -n 2p cut/config.ini | grep -q '^; command: $P '"
check "config.ini line 4: '; seed: 1' (metrics.json's seed)" \
    test "$(sed -n 4p cut/config.ini)" = "; seed: $(jval cut/metrics.json seed)"
# An argument with a quote and a newline (the output directory's name):
# quoted in metrics.json's command_line; config.ini's comment line shows
# the newline as '?' and stays one line, and -c replays the run.
Q="it's
dir"
# shellcheck disable=SC2086
"$P" $BASE -t "$TR" --set scheduler.mpl=1 --set simulation.max_time=250 -o "$Q" > /dev/null 2>&1
q="'" bs='\'
# metrics.json (JSON text, the newline as \u000a), then config.ini (as ?)
check "command_line shell-quotes the argument: 'it'\\''s<newline>dir'" \
    grep -q -F -e "-o ${q}it${q}${bs}${bs}${q}${q}s${bs}u000adir${q}\"" "$Q/metrics.json"
check "config.ini: the command on one comment line, the newline as ?" \
    sh -c 'sed -n 2p "$1/config.ini" | grep -q -F -e "$2"' sh "$Q" "-o ${q}it${q}${bs}${q}${q}s?dir${q}"
# A -c name with a newline is refused (issue 32 item 8: the replay's own
# config.ini would name it in a comment line, which the newline breaks);
# through a plain name the file replays the run.
"$P" -c "$Q/config.ini" -q -o replay > /dev/null 2> replay.err
check "-c with the newline in its name: refused (exit 2), shown as ?" \
    sh -c "test $? -eq 2 && test ! -e replay && grep -q \"^pnrsim: it's?dir/config.ini: \" replay.err"
ln -s "$Q" plain-dir
"$P" -c plain-dir/config.ini -q -o replay > /dev/null 2> replay.err
check "-c config.ini replays the run (jobs.csv identical)" cmp -s "$Q/jobs.csv" replay/jobs.csv
check "replay: stderr empty" test ! -s replay.err
finish
