#!/bin/sh
# tests/test_interrupt_pass.sh [BUILD]: SIGINT in a run whose first instant
# is a placement pass over many jobs (issue 32 item 5). 28,000 jobs of 100
# threads arrive at t = 0 on 100 PEs with scheduler.mpl = 0 (unlimited):
# the pass of that instant, one event, opens 28,000 slots. Before the fix
# that pass alone took minutes (keep_out walked every slot x core per
# placement, and place() looked at every slot per job: ~120 s here, release
# build, idle machine) and the stop flag was looked at only between
# events, so the SIGINT took effect minutes late. Now the pass takes a
# fraction of a second and looks at the flag at every job (ev_poll,
# core/ev.h; the stop inside the pass itself is worked by hand in
# tests/test_gang_stop.c); the run then goes on for 28,000 quanta of 60 s.
#
# Expected, from the rules, not from a run:
#   - SIGINT 1 s after the start: exit 130 within 20 s of it (generous for
#     a loaded 2-core machine; before the fix: minutes);
#   - results marked partial: metrics.json "partial": true, the last line
#     of jobs.csv "# PARTIAL results: run interrupted by SIGINT ...".
# (No check of progress lines: after t = 0 this run has few events, each
# a long slot switch, and ev_run reports progress every 2^14 events.)
TEST_NAME=test_interrupt_pass
. "$(dirname "$0")/lib.sh"

awk 'BEGIN { for (i = 1; i <= 28000; i++)
    printf "%d 0 -1 100 100 100 1024 100 100 -1 1 1 1 1 1 1 -1 -1\n", i }' > many.swf

"$P" -q -t many.swf -o out --set computer.number=100 --set scheduler.mpl=0 \
    > run.out 2> run.err &
pid=$!
sleep 1
kill -INT $pid
i=0
while kill -0 $pid 2>/dev/null && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
if kill -0 $pid 2>/dev/null; then
    kill -KILL $pid
    wait $pid
    bad "SIGINT 1 s into a run of 28000 jobs at t=0: still running 20 s after the signal"
else
    wait $pid
    rc=$?
    check "SIGINT 1 s into a run of 28000 jobs at t=0: exit 130 within 20 s (status $rc)" test "$rc" -eq 130
    check "interrupted run: metrics.json says partial" test "$(jval out/metrics.json partial)" = true
    check "interrupted run: jobs.csv ends with its PARTIAL mark" \
        sh -c "tail -1 out/jobs.csv | grep -q '^# PARTIAL results: run interrupted by SIGINT'"
fi
finish
