#!/bin/sh
# tests/test_guards.sh BUILD: the guards that keep a run's memory and
# outputs bounded (issue 23 part 4), counted per core (issue 32 item 4).
#
# Saturated network (simulation.max_messages; docs/MODEL.md "Ranges and
# runaway runs"): threads never wait for neighbour messages (report
# 4.3.2), so a network slower than they send them queues them without
# bound. HPC2N on 240 PEs of 1024 MB, 64 MB per thread, MPL 2, a neighbour
# message every 1e-4 CPU s: the first job's 30 threads send 3e5 messages
# per CPU second (the second job comes at t = 8 s), the star's switch
# passes one per 8e-5 s (12,500 a second), so nearly every message queues
# at the switch. Worked out from the key: the cap is max_messages per core,
# 1000 x 240 = 240000, so the run stops when the 240001st message is on
# the network (about 0.8 s: 3e5 a second), exit 2, nothing written, the
# switch named with a queue above 200,000. Before the guard the same run
# held 331 MB at 5 simulated s; with max_time = 3 a run without the guard
# ends normally (exit 0), which this test would catch. The same on a TREE
# whose uplinks carry 1000 B/s: the neighbour messages between racks queue
# at an uplink.
#
# The cap counts cores, not nodes (issue 32 item 4): the same machine as
# 60 nodes of 4 cores (4096 MB each: 1024 per core as above) still has
# 240 cores, so the cap is still 240000 (it was 60 x 1000 = 60000 when it
# counted nodes); only the messages between nodes use the network, so it
# trips later (about 3 s), at the same count. And the issue's case, which
# validation accepts and which could never run: one node of 4096 cores,
# one job of 2000 threads of 1 MB (2000 MB on a 32 MB node), network RAM
# CENTRAL: at t = 0 each thread's client sends one request to the server
# on its own node, 2000 messages, far under 1000 x 4096; it ran into a cap
# of 1000 x 1 node ("1001 messages ... x 1 PEs") before. It runs (exit 0,
# its job finished).
#
# Outputs bounded by max_samples: 2000 jobs of 0.01 s on 4 PEs, a job
# every 0.004 s, metrics_period 0.001 s, --schedule, max_samples = 100:
# samples.csv 100 rows, pes.csv 100 samples of 4 rows (one per PE), no
# progress line (issue 26: they follow wall time), and a warning naming
# each of samples.csv and pes.csv; with max_samples = 0, pes.csv has every sample
# (about 8000: one per 0.001 s of the 8 s the jobs take).
TEST_NAME=test_guards
. "$(dirname "$0")/lib.sh"

HP="-t $top/traces/hpc2n-seth-first3171.swf --set computer.number=240
    --set computer.ram=1024 --set workload.default_memory=64 --set scheduler.mpl=2"
TIME=/usr/bin/time

# Peak resident size (KB) of a command's run into $rss_kb, its exit status
# into $rc (/usr/bin/time -f; rss_kb empty without it).
run_rss() {
    out=$1; shift
    if [ -x $TIME ]; then
        $TIME -f '%M' -o rss.txt "$@" > /dev/null 2> "$out"
        rc=$?
        rss_kb=$(tail -1 rss.txt)
    else
        "$@" > /dev/null 2> "$out"
        rc=$?
        rss_kb=
    fi
}

# shellcheck disable=SC2086 # $HP: options split on blanks
run_rss sat.err "$P" $HP --set process.comm_rate=0.0001 --set simulation.max_time=3 -q -o sat
check "saturated star: exit 2, nothing written" sh -c "test $rc -eq 2 && test ! -e sat"
check "saturated star: the message names the count, key, switch and queue" \
    grep -q 'saturated network, run stopped at t=0\.[0-9]* s: 240001 messages on the network at once exceed the cap of 240000 = \[simulation\] max_messages = 1000 per core x 240 cores (computer.number); the longest queue is [2-9][0-9][0-9][0-9][0-9][0-9] messages, at switch (element 240)' sat.err
if [ -n "$rss_kb" ]; then
    check "saturated star: stopped in bounded memory (peak $rss_kb KB < 150 MB)" \
        test "$rss_kb" -lt 150000
else
    skip "saturated star: peak memory ($TIME not found)"
fi
# shellcheck disable=SC2086
"$P" $HP --set process.comm_rate=0.1 --set network.topology=TREE \
    --set network.uplink_bandwidth=0.001 --set simulation.max_messages=10 \
    --set simulation.max_time=200 -q -o up \
    > /dev/null 2> up.err
check "saturated uplink: exit 2 naming an uplink" sh -c "test $? -eq 2 && test ! -e up &&
    grep -q '2401 messages on the network at once exceed the cap of 2400 = \[simulation\] max_messages = 10 per core x 240 cores (computer.number); the longest queue is [0-9]* messages, at uplink [0-9]* (element 24[0-9])' up.err"
# Nodes of 4 cores: the cap still counts 240 cores (not 60 nodes).
# shellcheck disable=SC2086
"$P" -t "$top/traces/hpc2n-seth-first3171.swf" --set computer.number=240 \
    --set computer.cores_per_node=4 --set computer.ram=4096 --set workload.default_memory=64 \
    --set scheduler.mpl=2 --set process.comm_rate=0.0001 --set simulation.max_time=20 \
    -q -o sat4 > /dev/null 2> sat4.err
check "saturated star, 60 nodes of 4 cores: exit 2, cap 1000 per core x 240 cores" sh -c "
    test $? -eq 2 && test ! -e sat4 &&
    grep -q ': 240001 messages on the network at once exceed the cap of 240000 = \[simulation\] max_messages = 1000 per core x 240 cores (computer.number); the longest queue is [0-9]* messages, at switch (element 60)' sat4.err"
# Memory servers count as one core each: 240 + 10 = 250 cores, cap 2500.
# shellcheck disable=SC2086
"$P" $HP --set process.comm_rate=0.1 --set network.topology=TREE \
    --set network.uplink_bandwidth=0.001 --set simulation.max_messages=10 \
    --set computer.memory_servers=10 --set simulation.max_time=200 -q -o upm \
    > /dev/null 2> upm.err
check "saturated uplink with 10 memory servers: cap 10 x (240 + 10) cores, said so" sh -c "
    test $? -eq 2 && test ! -e upm &&
    grep -q ': 2501 messages on the network at once exceed the cap of 2500 = \[simulation\] max_messages = 10 per core x 250 cores (computer.number + memory_servers); ' upm.err"
# The issue's case: one node of 4096 cores, 2000 threads, CENTRAL: runs.
echo "1 0 -1 1 2000 1 1024 2000 1 -1 1 1 1 1 1 1 -1 -1" > wide.swf
"$P" -t wide.swf --set computer.number=4096 --set computer.cores_per_node=4096 \
    --set netram.enabled=yes --set netram.strategy=CENTRAL -q -o wide > /dev/null 2> wide.err
rc=$?
check "one node of 4096 cores, 2000 threads under CENTRAL: runs (exit 0), not stopped by max_messages" \
    sh -c "test $rc -eq 0 && ! grep -q saturated wide.err"
check "one node of 4096 cores: its one job finished" test "$(jval wide/metrics.json jobs_finished)" = 1
# The runaway guard (max_event_rate) counts cores too: one node of 4 cores,
# a 4-thread job of 100 s with neighbour and sync messages every 1e-4 CPU
# s makes about 2e5 events per simulated second (2e7 events in its 100 s,
# --kernel-report), 5e4 per core. max_event_rate = 1e5 per core allows
# 4e5 a second: it runs (it allowed 1e5 for the node before, and stopped
# at the first 2^24-event window, t = 83.9 s); 1e4 per core allows 4e4:
# stopped there, the message giving the rate per core and the cores.
printf '1 0 -1 100 4 100 1024 4 -1 -1 1 1 1 1 1 1 -1 -1\n' > chat.swf
CHAT="-t chat.swf --set computer.number=4 --set computer.cores_per_node=4
    --set process.comm_rate=0.0001 --set process.sync_rate=0.0001"
# shellcheck disable=SC2086
"$P" $CHAT --set simulation.max_event_rate=100000 -q -o chat > /dev/null 2> chat.err
check "max_event_rate per core: 1 node of 4 cores at 5e4 events/s/core runs under 1e5" \
    sh -c "test $? -eq 0 && ! grep -q runaway chat.err"
# shellcheck disable=SC2086
"$P" $CHAT --set simulation.max_event_rate=10000 -q -o chat1 > /dev/null 2> chat1.err
check "max_event_rate per core: stopped under 1e4, the rate given per core over 4 cores" \
    sh -c "test $? -eq 2 && test ! -e chat1 && grep -q 'runaway run stopped at t=83.88[0-9]* s: 16777216 events in the last 83.9 simulated s (5e+04 events per simulated second per core, over 4 cores: computer.number) exceed \[simulation\] max_event_rate = 10000 per core' chat1.err"
# Not saturated: one message per CPU s runs to max_time (exit 3: no job
# finished by then) under the default guard.
# shellcheck disable=SC2086
"$P" $HP --set process.comm_rate=1 --set simulation.max_time=20 -q -o calm > /dev/null 2>&1
check "not saturated: runs to max_time under the guard" sh -c "test $? -eq 3 &&
    grep -q '\"time_limited\": true' calm/metrics.json"
# The guard off: the saturated run goes on to max_time (a short one).
# shellcheck disable=SC2086
"$P" $HP --set process.comm_rate=0.0001 --set simulation.max_time=0.5 \
    --set simulation.max_messages=0 -q -o off > /dev/null 2>&1
check "max_messages = 0: no guard" sh -c "test $? -eq 3 && test -s off/metrics.json"
"$P" $HP --set simulation.max_messages=-1 -q -o bad > /dev/null 2> bad.err
check "max_messages = -1: exit 2 naming the key" sh -c "test $? -eq 2 &&
    grep -q 'max_messages' bad.err && test ! -e bad"

# Outputs bounded by max_samples.
awk 'BEGIN { for (i = 1; i <= 2000; i++)
    printf "%d %.3f -1 0.01 1 0.01 -1 1 -1 -1 1 1 1 1 1 1 -1 -1\n", i, i * 0.004 }' > tiny.swf
TINY="-t tiny.swf --set computer.number=4 --schedule --set simulation.metrics_period=0.001"
# shellcheck disable=SC2086
"$P" $TINY --set simulation.max_samples=100 -o cap > /dev/null 2> cap.err
check "max_samples: the run succeeds" test $? -eq 0
check "max_samples: samples.csv 100 rows" test "$(wc -l < cap/samples.csv)" -eq 101
check "max_samples: pes.csv 100 samples of 4 rows" sh -c "test \$(wc -l < cap/pes.csv) -eq 401 &&
    test \$(sed 1d cap/pes.csv | cut -d, -f1 | uniq | wc -l) -eq 100"
check "max_samples: the warning names samples.csv" \
    grep -q 'warning: samples.csv reached \[simulation\] max_samples = 100 rows at t=' cap.err
check "max_samples: the warning names pes.csv" \
    grep -q 'warning: pes.csv reached \[simulation\] max_samples = 100 samples at t=[0-9.]* s; [0-9]* later samples were not written' cap.err
# Progress lines follow wall time (progress_interval), not the samples: none
# in this sub-second run, whatever metrics_period and max_samples are.
check "max_samples: no progress line (they follow wall time, not samples)" \
    sh -c "! grep -q 'elapsed' cap.err"
# shellcheck disable=SC2086
"$P" $TINY --set simulation.max_samples=0 -q -o nocap > /dev/null 2> nocap.err
n=$(sed 1d nocap/pes.csv | cut -d, -f1 | uniq | wc -l)
check "max_samples = 0: pes.csv has every sample ($n, about 8000), no warning" sh -c "
    test $n -gt 7000 && test $n -lt 9000 && ! grep -q warning nocap.err"

# schedule.paje's link and switch states: at most 256 x max_samples (issue
# 23: 3 jobs with a neighbour message every 0.01 CPU s gave 911 MB). With
# max_samples = 10: 2560 pushes, each popped, the trace still read by
# pj_dump where it is installed, and a warning naming schedule.paje.
"$P" -t "$top/traces/lanl-cm5-techreport-sample10.swf" --set workload.max_jobs=3 \
    --set process.comm_rate=0.01 --set simulation.max_samples=10 --schedule --paje -q -o pj > /dev/null 2> pj.err
check "max_samples: a message-heavy --schedule run succeeds" test $? -eq 0
check "max_samples: schedule.paje has 2560 network pushes and as many pops" sh -c "
    test \$(grep -c '^8 [^ ]* [LS]S ' pj/schedule.paje) -eq 2560 &&
    test \$(grep -c '^9 [^ ]* [LS]S ' pj/schedule.paje) -eq 2560"
check "max_samples: the warning names schedule.paje" \
    grep -q 'warning: schedule.paje reached 256 x \[simulation\] max_samples = 2560 network states at t=[0-9.]* s; [0-9]* later link and switch states were not written' pj.err
if command -v pj_dump > /dev/null 2>&1; then
    check "max_samples: the cut schedule.paje is well formed (pj_dump)" sh -c "pj_dump pj/schedule.paje > /dev/null"
else
    skip "pj_dump check: pj_dump (pajeng) not installed"
fi

finish
