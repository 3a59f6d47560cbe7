#!/bin/sh
# tests/test_broken_cli.sh BUILD: a plugin component that breaks its
# contract in the middle of a run (a queue order whose key is NaN, caught
# by sched/priority.c) stops pnrsim with exit status 2 and a message naming
# the component, and leaves nothing in the output directory: no staging
# directory, no lock, no results (app/main.c's atexit handler removes the
# result set; tests/test_broken_components.c covers the other kinds'
# checks in process). The plugin is built from the source tree's headers
# (as the sanitizer build, with its flags).
TEST_NAME=test_broken_cli
. "$(dirname "$0")/lib.sh"    # top, build, P, check, skip, skip_all, finish, T
command -v cc >/dev/null || skip_all "no C compiler"
san=""
case $(basename "$build") in *asan*) san="-fsanitize=address,undefined -fno-omit-frame-pointer" ;; esac
cat > nan.c <<'C'
#include "core/registry.h"
#include "sched/order.h"
#include <math.h>
static double key(void *s, const sched_job_info *j, double now)
{
    (void)s;
    return j->id == 3 && now > 0 ? NAN : (double)j->order; /* NaN for job 3 once it waits */
}
static const sched_order_ops ops = {.key = key, .bucket = SCHED_BUCKET_NONE};
PNRSIM_PLUGIN_DECLARE;
int pnrsim_plugin_init(pnrsim_registry *r, int v);
int pnrsim_plugin_init(pnrsim_registry *r, int v)
{
    return v != PNRSIM_API_VERSION || pnrsim_register(r, PNRSIM_KIND_PRIORITY, "NAN_LATER", "t", &ops);
}
C
cc -std=c11 -shared -fPIC $san -I"$top" nan.c -o nan.so 2> cc.err
check "the plugin builds ($(head -c 200 cc.err))" test -s nan.so
# 4 PEs: jobs 1 and 2 fill them at t = 0 (FCFS keys: their order), job 3
# arrives at 1 and waits: its key at the pass at 1 is NaN.
cat > t.swf <<'SWF'
1 0 0 100 2 100 -1 2 -1 -1 1 1 1 1 1 1 -1 -1
2 0 0 100 2 100 -1 2 -1 -1 1 1 1 1 1 1 -1 -1
3 1 0 100 2 100 -1 2 -1 -1 1 1 1 1 1 1 -1 -1
SWF
printf '[workload]\ntrace = t.swf\n[computer]\nnumber = 4\n[scheduler]\npriority = NAN_LATER\n' > c.ini
mkdir out
"$P" --plugin ./nan.so -c c.ini -q -o out/r > r.out 2> r.err
rc=$?
check "a NaN key mid-run: exit 2 ($rc: $(head -c 200 r.err))" test $rc -eq 2
check "... the message names the order and the job" \
    grep -q 'scheduler.priority NAN_LATER: key of job 3 at t = 1 is NaN' r.err
check "... nothing left in the output directory ($(ls -A out/r 2>/dev/null | tr '\n' ' '))" \
    test -z "$(ls -A out/r 2>/dev/null)"
check "... no results on stdout" test ! -s r.out
finish
