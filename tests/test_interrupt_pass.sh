#!/bin/sh
# tests/test_interrupt_pass.sh [BUILD]: SIGINT and progress inside one long
# event (issue 32 item 5). 28,000 jobs of 100 threads arrive at t = 0 on
# 100 PEs with scheduler.mpl = 0 (unlimited): the arrivals and the
# placement pass of that instant, each one event, open 28,000 slots. Before
# the fix that pass alone took minutes (keep_out walked every slot x core
# per placement: ~120 s here, release build, idle machine) and the stop
# flag was looked at only between events, so a SIGINT took effect minutes
# late, with no progress line meanwhile. Now the pass looks at the flag at
# every job (ev_poll, core/ev.h) and stops there, and progress is reported
# from inside it.
#
# Expected, worked out from the rules, not from a run:
#   - SIGINT 1 s after the start: exit 130 within 20 s of it (generous for
#     a loaded 2-core machine; before the fix: minutes);
#   - results marked partial: metrics.json "partial": true, the last line
#     of jobs.csv "# PARTIAL results: run interrupted by SIGINT ...";
#   - the signal took effect at t = 0: the work at t = 0 lasts seconds even
#     now (arrivals, a pass over 28,000 jobs), and the run goes on for
#     28,000 quanta of 60 s after it, so "at t=0 s" shows the stop came
#     from inside that work;
#   - with [output] progress_interval = 0.5 a progress line at t=0 is
#     printed before the results (from inside the pass or the arrivals:
#     ev_run reports progress only between events, and up to the stop only
#     a few events are dispatched, far fewer than its 2^14-event window).
TEST_NAME=test_interrupt_pass
. "$(dirname "$0")/lib.sh"

awk 'BEGIN { for (i = 1; i <= 28000; i++)
    printf "%d 0 -1 100 100 100 1024 100 100 -1 1 1 1 1 1 1 -1 -1\n", i }' > many.swf

"$P" -t many.swf -o out --set computer.number=100 --set scheduler.mpl=0 \
    --set output.progress_interval=0.5 > run.out 2> run.err &
pid=$!
sleep 1
kill -INT $pid
i=0
while kill -0 $pid 2>/dev/null && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
if kill -0 $pid 2>/dev/null; then
    kill -KILL $pid
    wait $pid
    bad "SIGINT inside a pass of 28000 jobs: still running 20 s after the signal"
else
    wait $pid
    rc=$?
    check "SIGINT inside a pass of 28000 jobs: exit 130 within 20 s (status $rc)" test "$rc" -eq 130
    check "interrupted run: metrics.json says partial" test "$(jval out/metrics.json partial)" = true
    check "interrupted run: jobs.csv ends with its PARTIAL mark" \
        sh -c "tail -1 out/jobs.csv | grep -q '^# PARTIAL results: run interrupted by SIGINT'"
    check "interrupted at t=0 (inside the work of the first instant)" \
        grep -q 'interrupted by SIGINT at t=0 s' run.err
    check "a progress line at t=0 before the results (reported from inside the long event)" \
        sh -c "sed '/PARTIAL/q' run.err | grep -q 'elapsed, .* t=0 s,'"
fi
finish
