#!/bin/sh
# tests/test_schedule.sh BUILD: the schedule files (--schedule) and
# pnrsim-plot, end to end.
#
#   - a hand-worked gang run (2 jobs of 4 threads on 4 PEs, MPL 2, quantum
#     10 s, PCS 1 s, no paging or messages): every schedule.csv row, the
#     Paje trace's job and context-switch states per PE and its slot-switch
#     events, worked out on paper (see the comments below);
#   - a job on non-contiguous PEs gets one row per run of PEs (hand-worked);
#   - a prefix of the demo trace: schedule rows reproduce jobs.csv (first
#     start, last end; without messages or paging the running time per job
#     equals its CPU demand, and execution - running time = the time it was
#     switched out, PCS included), rows never overlap on a PE, the Paje
#     trace passes pj_dump and its job states per PE sum to the CPU busy
#     time pnrsim reports per PE (--hardware-report); with
#     output.schedule_network = no the trace has no link or switch (it is
#     the default trace without its network lines) and passes pj_dump;
#   - a paging 1-job run: paging states in the Paje trace cover the job's
#     fault time;
#   - MPL 3 with jobs moved in from a third slot at a switch (issue 23):
#     no abort, every stretch kept (the 5-job case and the demo prefix);
#   - --schedule changes no other file; only asked for; [output] schedule;
#   - pnrsim-plot draws every plot (PNG and SVG) for the demo prefix and the
#     1-job run; a window with units; the Gantt key lists the jobs of the
#     window; bad windows exit 2; without pandas it writes nothing;
#   - pnrsim --plot runs it after the run, and without pandas refuses
#     before the run (exit 2, nothing written);
#   - large runs (NASA on 128 PEs, 8,192 PEs synthetic): the peak memory
#     --schedule adds does not grow with the trace.
# pj_dump (Debian pajeng) and plot checks skip with a message when the
# program (or Python's pandas and matplotlib) is missing. Prints "N passed, N failed" last.
TEST_NAME=test_schedule
. "$(dirname "$0")/lib.sh"    # top, build, P, PLOT, PY, check, skip, finish, T
have_pj=0; command -v pj_dump >/dev/null 2>&1 && have_pj=1
have_gp=0; /usr/bin/python3 -c 'import pandas, matplotlib' >/dev/null 2>&1 && have_gp=1

# ---- hand-worked gang run ------------------------------------------------------
# Jobs 1 (25 s CPU) and 2 (12 s), 4 threads each, both submitted at 0.
#   0..10   job 1 (slot 0), first start: no PCS
#   10..20  job 2 (slot 1), first start: no PCS
#   20..21  PCS; 21..30 job 1 (19 s done)
#   30..31  PCS; 31..33 job 2 ends (12 s done); its slot is removed and
#   33..34  PCS; 34..40 job 1 ends (25 s done).
# Slot switches at 10, 20, 30, 33. CPU busy per PE: 25 + 12 = 37 s.
cat > gang.swf <<'EOF'
1 0 0 25 4 25 -1 4 -1 -1 1 1 1 1 1 1 -1 -1
2 0 0 12 4 12 -1 4 -1 -1 1 1 1 1 1 1 -1 -1
EOF
cat > gang.ini <<'EOF'
[simulation]
metrics_period = 5
[workload]
trace = gang.swf
[scheduler]
mpl = 2
quantum = 10
pcs = 1
packing = FIRSTFIT
[computer]
number = 4
ram = 1000
EOF
"$P" -c gang.ini -q -o g --schedule --paje --hardware-report > /dev/null 2> g.hw
check "hand-worked run: exit 0" test $? -eq 0
cat > g.expect <<'EOF'
job,slot,start,end,first_pe,pes,pcs
1,0,0,10,0,4,0
2,1,10,20,0,4,0
1,0,21,30,0,4,1
2,1,31,33,0,4,1
1,0,34,40,0,4,1
EOF
check "hand-worked run: schedule.csv is exactly the worked-out rows" cmp -s g.expect g/schedule.csv
# Samples at 5, 10, ..., 35 (none at 40: the run ends then).
check "pes.csv: header and one row per PE per sample (7 samples x 4 PEs)" \
    test "$(sed -n 1p g/pes.csv)" = "time,first_pe,last_pe,mem_alloc_mb,overalloc_mb,netram_lent_mb,netram_held_mb,page_faults,paging_time,cpu_busy" -a "$(wc -l < g/pes.csv)" -eq 29
# CPU busy in (5, 10]: job 1 computes 5..10 on every PE -> 1; in (20, 25]: PCS 20..21 -> 0.8
check "pes.csv: CPU busy fractions of two periods (1 and 0.8, worked out)" \
    test "$(awk -F, '$1 == 10 && $2 == 2 { print $10 }' g/pes.csv) $(awk -F, '$1 == 25 && $2 == 3 { print $10 }' g/pes.csv)" = "1 0.8"

# Link and switch states of a pj_dump -l 12 output against metrics.json:
# prints what is wrong (nothing when right). Times are written with 15
# significant digits, so each state may be off by one unit of the 15th
# digit of its time: the bound allowed (plus 1e-12 per printed duration).
net_check() { # DUMP METRICS.JSON CONTAINERS(expected link + switch containers)
    $PY - "$1" "$2" "$3" <<'EOF'
import sys, json, math
dump, met, want = sys.argv[1], sys.argv[2], int(sys.argv[3])
busy = json.load(open(met))["comm_busy_time"]
tot = bound = 0.0; n = 0; cont = 0
for l in open(dump):
    f = l.rstrip("\n").split(", ")
    if f[0] == "Container" and f[2] in ("Link", "Switch"):
        cont += 1
    if f[0] == "State" and f[2] in ("Transfer", "Forwarding"):
        t, d = float(f[3]), float(f[5])
        tot += d; n += 1
        bound += 10 ** (math.floor(math.log10(max(t, 1))) + 1 - 15) + 1e-12
bad = []
if cont != want: bad.append("%d containers, expected %d" % (cont, want))
if n == 0 or busy <= 0: bad.append("no busy state or no communication")
if abs(tot - busy) > bound: bad.append("states sum to %.12g, comm_busy_time %.12g (bound %.3g)" % (tot, busy, bound))
print("; ".join(bad), end="")
EOF
}

# Per-PE totals of one Paje state value from pj_dump output.
pj_sum() { # FILE STATE-TYPE VALUE-REGEX -> "container total" lines
    awk -F', ' -v t="$2" -v v="$3" '$1 == "State" && $3 == t && $8 ~ v { s[$2] += $6 } END { for (c in s) printf "%s %.9f\n", c, s[c] }' "$1" | sort
}
if [ $have_pj = 1 ]; then
    pj_dump g/schedule.paje > g.dump 2> g.pjerr
    check "hand-worked run: pj_dump accepts schedule.paje" test $? -eq 0 -a ! -s g.pjerr
    check "hand-worked run: job 1 ran 25 s on each of the 4 PEs" \
        test "$(pj_sum g.dump Job '^job 1$' | awk '$2 == 25' | wc -l)" -eq 4
    check "hand-worked run: job 2 ran 12 s on each of the 4 PEs" \
        test "$(pj_sum g.dump Job '^job 2$' | awk '$2 == 12' | wc -l)" -eq 4
    check "hand-worked run: 3 context switches of 1 s per PE" \
        test "$(pj_sum g.dump Job '^context switch$' | awk '$2 == 3' | wc -l)" -eq 4
    check "hand-worked run: slot switches at 10, 20, 30, 33" \
        test "$(awk -F', ' '$1 == "Event" { printf "%g ", $4 }' g.dump)" = "10 20 30 33 "
    # --hardware-report: "Node0  cpu busy 37 s ..."
    check "hand-worked run: job states per PE = CPU busy per PE (37 s) from --hardware-report" \
        test "$(awk '/cpu busy/ { print $4 }' g.hw | sort -u)" = 37
else
    skip "pj_dump not installed (Debian pajeng; tools/deps.sh schedule installs it): Paje checks of the hand-worked run"
fi

# ---- non-contiguous PEs --------------------------------------------------------
# MPL 1, 4 PEs: jobs 1-3 (1 thread) on PEs 0, 1, 2 at 0; job 4 (2 threads,
# submitted at 1) waits for job 2's end at 10 and gets PEs 1 and 3: two rows.
cat > nc.swf <<'EOF'
1 0 0 100 1 100 -1 1 -1 -1 1 1 1 1 1 1 -1 -1
2 0 0 10 1 10 -1 1 -1 -1 1 1 1 1 1 1 -1 -1
3 0 0 100 1 100 -1 1 -1 -1 1 1 1 1 1 1 -1 -1
4 1 0 5 2 5 -1 2 -1 -1 1 1 1 1 1 1 -1 -1
EOF
"$P" -t nc.swf -q -o nc --schedule --paje --set computer.number=4 --set scheduler.mpl=1 > /dev/null
check "non-contiguous job: rows 4,0,10,15,1,1,0 and 4,0,10,15,3,1,0" \
    test "$(grep '^4,' nc/schedule.csv | tr '\n' ' ')" = "4,0,10,15,1,1,0 4,0,10,15,3,1,0 "

# ---- demo prefix -------------------------------------------------------------------
DEMO="-c $top/configs/default.ini --set workload.max_jobs=200"
"$P" $DEMO -q -o d0 > /dev/null
"$P" $DEMO -q -o d1 --schedule --paje > /dev/null
check "--schedule changes no other file (jobs.csv, samples.csv, metrics.json, metrics.dat)" \
    rsame d0 d1 jobs.csv samples.csv metrics.json metrics.dat # command_line aside (issue 26)
check "without --schedule no schedule file is written" \
    sh -c '! ls d0/schedule.csv d0/pes.csv d0/schedule.paje 2>/dev/null'
check "no temporary file left" test -z "$(find d0 d1 -name '*.tmp')"
printf '[output]\nschedule = yes\n' > sched.ini
"$P" $DEMO -c sched.ini -q -o d2 > /dev/null 2>&1 || "$P" -c sched.ini -t "$top/traces/lanl-cm5-techreport-sample10.swf" -q -o d2 > /dev/null
# Issue 26: schedule = yes is the CSV files only (the Paje trace is [output] paje).
check "[output] schedule = yes writes the four CSV files and no Paje trace" \
    sh -c 'test -s d2/schedule.csv -a -s d2/pes.csv -a -s d2/memory.csv -a -s d2/paging.csv -a ! -e d2/schedule.paje'
"$P" -c "$top/configs/default.ini" --set output.schedule=maybe -q -o d3 > /dev/null 2> d3.err
check "output.schedule=maybe: exit 2 naming the key" sh -c "test $? -eq 2 && grep -q schedule d3.err"

# Schedule rows against jobs.csv; overlap per PE. Checked in Python: prints
# one line per violated property (none expected).
verify() { # DIR EXACT(1: running time == CPU demand)
    $PY - "$1" "$2" <<'EOF'
import csv, sys, collections
d, exact = sys.argv[1], sys.argv[2] == "1"
jobs = {int(r["job"]): r for r in csv.DictReader(open(d + "/jobs.csv"))}
rows = list(csv.DictReader(open(d + "/schedule.csv")))
st = collections.defaultdict(dict)          # job -> {(start,end): pcs}
pes = collections.defaultdict(list)         # PE -> [(start,end,pcs,job)]
for r in rows:
    j, s, e, p = int(r["job"]), float(r["start"]), float(r["end"]), float(r["pcs"])
    st[j][(s, e)] = p
    for pe in range(int(r["first_pe"]), int(r["first_pe"]) + int(r["pes"])):
        pes[pe].append((s, e, p, j))
bad = []
for j, r in jobs.items():
    if float(r["cpu_demand"]) == 0:
        # A zero-length job has no row (METRICS.md): its stretch is empty.
        if j in st: bad.append("zero-length job %d has rows" % j)
        continue
    if j not in st:
        bad.append("job %d has no row" % j); continue
    ss = sorted(st[j])
    start, end, ex, cpu = float(r["start"]), float(r["end"]), float(r["execution"]), float(r["cpu_demand"])
    p0 = st[j][ss[0]]  # the first row's PCS: 0 unless pcs_first_start
    if abs(ss[0][0] - p0 - start) > 1e-6: bad.append("job %d first start %r - pcs %r != %r" % (j, ss[0][0], p0, start))
    if abs(max(e for s, e in ss) - end) > 1e-6: bad.append("job %d last end != %r" % (j, end))
    run = sum(e - s for s, e in ss)
    gaps = p0 + sum(ss[k + 1][0] - ss[k][1] for k in range(len(ss) - 1))
    if abs(ex - run - gaps) > 1e-6 * max(1, ex): bad.append("job %d: execution %r != running %r + switched out %r" % (j, ex, run, gaps))
    for k in range(1, len(ss)):
        if ss[k][0] - ss[k - 1][1] < st[j][ss[k]] - 1e-9: bad.append("job %d: gap shorter than its PCS" % j)
    if exact and abs(run - cpu) > 1e-6 * max(1, cpu): bad.append("job %d: running %r != CPU demand %r" % (j, run, cpu))
    if not exact and run < cpu - 1e-6: bad.append("job %d: running %r < CPU demand %r" % (j, run, cpu))
for pe, iv in pes.items():
    iv.sort()
    for a, b in zip(iv, iv[1:]):
        if b[0] - b[2] < a[1] - 1e-9: bad.append("PE %d: rows of jobs %d and %d overlap" % (pe, a[3], b[3]))
print("\n".join(bad[:10]))
EOF
}
out=$(verify d1 0)
check "demo prefix: rows reproduce jobs.csv (first start, last end, execution = running + switched out), no overlap on a PE${out:+: $out}" test -z "$out"
"$P" $DEMO --set process.comm_rate=0 --set process.sync_rate=0 -q -o d4 --schedule --paje --hardware-report > /dev/null 2> d4.hw
out=$(verify d4 1)
check "demo prefix without messages: running time per job = CPU demand${out:+: $out}" test -z "$out"
check "demo prefix: schedule.csv rows are in order of their end" \
    sh -c "awk -F, 'NR > 2 && \$4 + 0 < last { exit 1 } NR > 1 { last = \$4 + 0 }' d4/schedule.csv"
# Issue 23: at a switch, jobs moved in from a third slot start only after
# the outgoing slot's jobs are stopped (before, two jobs ran on one PE at
# t = 20 and schedule.csv asserted, or lost job 4's rows without asserts).
# 5 x (0, 100 s, 2 PEs) on 4 PEs, MPL 3, quantum 10, PCS 1, no messages.
i=1; : > g5.swf
while [ $i -le 5 ]; do echo "$i 0 -1 100 2 -1 -1 2 -1 -1 1 -1 -1 -1 -1 -1 -1 -1" >> g5.swf; i=$((i + 1)); done
printf '[workload]\ncpu_demand = RUNTIME\n[process]\ncomm_rate = 0\nsync_rate = 0\n[computer]\nnumber = 4\n[scheduler]\nmpl = 3\nquantum = 10\npcs = 1\n' > g5.ini
"$P" -c g5.ini -t g5.swf -q -o g5 --schedule --paje > /dev/null 2> g5.err
check "MPL 3, jobs moved in from a third slot at a switch: exit 0" test $? -eq 0 -a ! -s g5.err
out=$(verify g5 1)
check "MPL 3 moved-in jobs: every stretch kept (rows span start to end, running = CPU demand, no overlap)${out:+: $out}" test -z "$out"
# pcs_first_start with a zero-length job (issue 23), 1 PE, MPL 2: J1 (0 s)
# starts at 0, pays its PCS and ends at 1 (no schedule row: an empty
# stretch); J2 (5 s) is switched in at 1, pays its PCS and computes [2, 7).
printf '1 0 -1 0 1 -1 -1 1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n2 0 -1 5 1 -1 -1 1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\n' > z.swf
"$P" -c g5.ini -t z.swf --set computer.number=1 --set scheduler.mpl=2 --set scheduler.pcs_first_start=yes -q -o z --schedule --paje > /dev/null 2>&1
check "pcs_first_start, zero-length job: it ends at the PCS (1 s), the next job runs [2, 7)" \
    test "$(cut -d, -f1,3,4 z/jobs.csv | sort | tr '\n' ' ')" = "1,0,1 2,1,7 job,start,end "
printf 'job,slot,start,end,first_pe,pes,pcs\n2,0,2,7,0,1,1\n' > z.expect
check "pcs_first_start, zero-length job: no schedule row for it, one for the next" cmp -s z.expect z/schedule.csv
out=$(verify z 1)
check "zero-length job: rows checked against jobs.csv${out:+: $out}" test -z "$out"
"$P" $DEMO --set scheduler.mpl=3 -q -o d5 --schedule --paje > /dev/null 2> d5.err
check "demo prefix at MPL 3 with --schedule: exit 0" test $? -eq 0 -a ! -s d5.err
out=$(verify d5 0)
check "demo prefix at MPL 3: rows reproduce jobs.csv, no overlap${out:+: $out}" test -z "$out"
if [ $have_pj = 1 ]; then
    pj_dump -l 12 d1/schedule.paje > d1.dump 2> d1.pjerr
    check "demo prefix: pj_dump accepts schedule.paje" test $? -eq 0 -a ! -s d1.pjerr
    # Links and switches: one container each (star: 240 links + 1 switch),
    # and their busy states sum to comm_busy_time (metrics.json), which the
    # network sums from its resources' busy times.
    out=$(net_check d1.dump d1/metrics.json 241)
    check "demo prefix: 241 link and switch containers; their busy states sum to comm_busy_time${out:+: $out}" \
        test -z "$out"
    pj_dump d4/schedule.paje > d4.dump 2> /dev/null
    pj_sum d4.dump Job '^job ' > d4.pj
    awk '/cpu busy/ { printf "%s %.9f\n", $1, $4 }' d4.hw | sort > d4.busy
    out=$($PY - d4.pj d4.busy <<'EOF'
import sys
a = dict(l.split() for l in open(sys.argv[1]))
b = dict(l.split() for l in open(sys.argv[2]))
# --hardware-report prints 6 significant digits
bad = [pe for pe in b if abs(float(a.get(pe, 0)) - float(b[pe])) > 5e-6 * max(1, float(b[pe]))]
print(" ".join(bad[:5]) if bad or not b else "", end="")
print("" if b else "no PEs", end="")
EOF
)
    check "demo prefix: Paje job states per PE sum to the CPU busy time per PE (--hardware-report)${out:+: $out}" test -z "$out"
    tot=$(awk '{ s += $2 } END { printf "%.6f", s }' d4.pj)
    busy=$(sed -n 's/^ *"cpu_busy_total": \(.*\),$/\1/p' d4/metrics.json)
    check "demo prefix: Paje job states of all PEs sum to cpu_busy_total of metrics.json ($tot, $busy)" \
        awk -v a="$tot" -v b="$busy" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= 1e-6 * b) }'
else
    skip "pj_dump not installed: Paje checks of the demo prefix"
fi
# output.schedule_network = no: the same trace without the links and
# switches: exactly the lines of d1's trace that name no network element
# (alias n<index>), schedule.csv and pes.csv unchanged.
"$P" $DEMO -q -o d5 --schedule --paje --set output.schedule_network=no > /dev/null
check "schedule_network = no: no link or switch container in schedule.paje" \
    sh -c "test -s d5/schedule.paje && ! grep -Eq '^5 [^ ]+ n[0-9]+ (LK|SWT) ' d5/schedule.paje"
check "schedule_network = yes (default): the demo trace has link and switch containers" \
    grep -Eq '^5 [^ ]+ n[0-9]+ (LK|SWT) ' d1/schedule.paje
check "schedule_network = no: the trace is the default one without its network lines" \
    sh -c "grep -Ev '^[0-9]+ [^ ]+ ([A-Z]+ )?n[0-9]+( |\$)' d1/schedule.paje | cmp -s - d5/schedule.paje"
check "schedule_network = no: schedule.csv, pes.csv and the results unchanged" \
    rsame d1 d5 schedule.csv pes.csv jobs.csv metrics.json # command_line aside (issue 26)
if [ $have_pj = 1 ]; then
    pj_dump d5/schedule.paje > d5.dump 2> d5.pjerr
    st=$?
    kinds=$(awk -F', *' '$1 == "Container" || $1 == "State" { n[$1 "/" $3]++ }
        END { printf "%d %d %d %d", n["Container/PE"], n["Container/Link"] + n["Container/Switch"],
              (n["State/Job"] > 0), n["State/Transfer"] + n["State/Forwarding"] }' d5.dump)
    check "schedule_network = no: pj_dump accepts it: 240 PE containers, no Link or Switch, job states, no network states (got $kinds)" \
        test $st -eq 0 -a ! -s d5.pjerr -a "$kinds" = "240 0 1 0"
else
    skip "pj_dump not installed: schedule_network = no trace not checked with pj_dump"
fi

# ---- links and switches, worked out from message counts --------------------------
# MPL 1 (no job is switched out, so no message is killed mid-crossing;
# "restarted 0" is checked): a message holds a link for latency +
# bytes / bandwidth and the switch for its delay, so the trace's busy time
# per element must be messages * latency + bytes / bandwidth (a link) or
# messages * delay (the switch), from the counts of --hardware-report
# (integers, printed exactly); an element it does not list is idle. Every
# topology, each element a container (CONNECTED: each link created, on
# first use).
if [ $have_pj = 1 ]; then
    for topo in star bus wheel connected; do
        "$P" -c "$top/configs/default.ini" --set workload.max_jobs=40 --set scheduler.mpl=1 \
            --set network.topology=$topo --set network.bandwidth=12.5 --set network.latency=0.00000005 \
            --set network.delay=0.00008 -q -o n-$topo --schedule --paje --hardware-report > /dev/null 2> n-$topo.hw
        pj_dump -l 12 n-$topo/schedule.paje > n-$topo.dump 2> n-$topo.pjerr
        rc=$?
        out=$($PY - n-$topo.dump n-$topo.hw <<'EOF'
import sys, math, collections
dump, hw = sys.argv[1], sys.argv[2]
LAT, BW, DELAY = 0.00000005, 12.5e6, 0.00008
want, rows, restarted, nelem = {}, False, None, None
for l in open(hw):
    if l.startswith("network: "):   # "network: star, 240 PEs, 240 links, 1 switch"
        f = l.replace(",", "").split()
        if f[1] != "connected": nelem = int(f[4]) + int(f[6])
    if l.startswith("  element "): rows = True; continue
    if not l.startswith("  ") or l.startswith("  total busy") or l.startswith("  ("):
        rows = False
    if l.startswith("  total busy") and "restarted 0;" in l: restarted = 0
    if rows:
        f = l.split(); name = " ".join(f[:-6]); msgs, byts = int(f[-6]), float(f[-5])
        want[name] = msgs * DELAY if name == "switch" else msgs * LAT + byts / BW
got, bound, cont = collections.defaultdict(float), collections.defaultdict(float), set()
for l in open(dump):
    f = l.rstrip("\n").split(", ")
    if f[0] == "Container" and f[2] in ("Link", "Switch"): cont.add(f[-1])
    if f[0] == "State" and f[2] in ("Transfer", "Forwarding"):
        got[f[1]] += float(f[5])
        bound[f[1]] += 10 ** (math.floor(math.log10(max(float(f[3]), 1))) + 1 - 15) + 1e-12
bad = []
if restarted != 0: bad.append("messages were restarted (or no summary line)")
if not want or sum(want.values()) <= 0: bad.append("no element or no communication")
# Elements not listed are idle: (STAR, BUS, WHEEL) all have a container,
# CONNECTED links those created; every listed one has a container.
if nelem is not None and len(cont) != nelem: bad.append("%d containers, %d elements" % (len(cont), nelem))
if not set(want) <= cont: bad.append("elements without a container: %s" % sorted(set(want) - cont)[:3])
for e in cont - set(want): want[e] = 0.0
for e in sorted(want):
    if abs(got[e] - want[e]) > bound[e] + 1e-12 * want[e]:
        bad.append("%s: states %.12g s, worked out %.12g s" % (e, got[e], want[e]))
print("; ".join(bad[:4]), end="")
EOF
)
        check "$topo, MPL 1: pj_dump accepts the trace; busy states per link/switch = messages x latency + bytes / bandwidth (x delay for the switch)${out:+: $out}" \
            test $rc -eq 0 -a ! -s n-$topo.pjerr -a -z "$out"
    done
else
    skip "pj_dump not installed: link and switch states"
fi

# ---- a paging 1-job run ------------------------------------------------------------------
# One thread of 40 MB (SWF field 7 is in KB) on 32 MB of RAM for 2 s of
# CPU: it pages.
echo "1 0 0 2 1 2 40960 1 -1 -1 1 1 1 1 1 1 -1 -1" > one.swf
"$P" -t one.swf -q -o one --schedule --paje --set computer.number=2 --set simulation.metrics_period=0.5 > /dev/null
check "1-job run: one row, PE 0, slot 0" test "$(awk -F, 'NR > 1 { print $1, $2, $5, $6 }' one/schedule.csv)" = "1 0 0 1"
if [ $have_pj = 1 ]; then
    pj_dump one/schedule.paje > one.dump 2> one.pjerr
    check "1-job run: pj_dump accepts schedule.paje" test $? -eq 0 -a ! -s one.pjerr
    ft=$(awk -F, 'NR > 1 { print $14 }' one/jobs.csv)
    pg=$(pj_sum one.dump Paging paging | awk '{ print $2 }')
    check "1-job run: paging states cover the job's fault time ($pg >= $ft > 0)" \
        awk -v a="$pg" -v b="$ft" 'BEGIN { exit !(b > 0 && a + 1e-9 >= b) }'
else
    skip "pj_dump not installed: Paje checks of the 1-job run"
fi

# ---- large runs: memory stays flat with --schedule -------------------------------------
# NASA iPSC/860 (18,239 jobs) on 128 PEs and the Lublin synthetic trace
# (10,000 jobs) on 8,192 PEs, MPL 2: a quarter of the trace and the whole,
# each without and with --schedule; peak RSS is the kernel's (getrusage
# ru_maxrss, printed by -v). The writer's cost = peak with - peak without;
# flat = that cost grows by less than 512 KB from the quarter to the whole
# trace while the schedule files grow by megabytes (a writer that kept its
# rows would grow with them). Sanitizer builds skip this: their RSS is the
# sanitizer's.
if grep -q __asan_init "$P" 2>/dev/null || grep -q __ubsan_handle "$P" 2>/dev/null; then
    skip "large runs: peak memory is not measured on a sanitizer build"
else
    peak() { # ARGS...: peak RSS (KB) of a run, its output in $T/mem
        rm -rf "$T/mem"
        "$P" "$@" -q -v -o "$T/mem" 2>&1 > /dev/null | sed -n 's/.*peak memory \([0-9]*\) KB.*/\1/p'
    }
    flat() { # NAME QUARTER WHOLE ARGS...
        name=$1 q=$2 w=$3; shift 3
        a=$(peak "$@" --set workload.max_jobs=$q); b=$(peak "$@" --set workload.max_jobs=$q --schedule --paje)
        qs=$(cat "$T/mem/schedule.csv" "$T/mem/pes.csv" "$T/mem/schedule.paje" | wc -c)
        c=$(peak "$@" --set workload.max_jobs=$w); d=$(peak "$@" --set workload.max_jobs=$w --schedule --paje)
        ws=$(cat "$T/mem/schedule.csv" "$T/mem/pes.csv" "$T/mem/schedule.paje" | wc -c)
        check "$name: --schedule costs ${b:-?}-${a:-?} KB on $q jobs, ${d:-?}-${c:-?} KB on $w (files $((qs / 1024)) -> $((ws / 1024)) KB): grows < 512 KB" \
            test -n "$a" -a -n "$b" -a -n "$c" -a -n "$d" -a $((d - c - (b - a))) -lt 512 -a $((ws - qs)) -gt $((4 * 1024 * 1024))
    }
    flat "NASA, 128 PEs" 4560 18239 -t "$top/traces/NASA-iPSC-1993-3.1-cln.swf.gz" \
        --set computer.number=128 --set scheduler.mpl=2
    flat "synthetic, 8,192 PEs" 2500 10000 -t "$top/traces/lublin-256-synthetic.swf" \
        --set computer.number=8192 --set scheduler.mpl=2 --set simulation.metrics_period=86400
fi

# ---- pnrsim-plot ------------------------------------------------------------------------------
# (The pictures' contents are checked in tests/test_plots.sh; here: the
# command, its files and its errors.)
if [ ! -x "$PLOT" ]; then
    bad "$PLOT exists"
elif [ $have_gp = 0 ]; then
    skip "/usr/bin/python3 cannot import pandas and matplotlib (Debian python3-pandas, python3-matplotlib): plots not drawn"
else
    for d in d1 one; do
        "$PLOT" "$d" > /dev/null 2> $d.plot.err
        n=0
        for p in gantt paging overalloc memory queue; do
            head -c 8 "$d/plots/$p.png" 2>/dev/null | od -An -c | grep -q 'P   N   G' && grep -q '<svg' "$d/plots/$p.svg" 2>/dev/null && n=$((n + 1))
        done
        check "pnrsim-plot $d: the 5 plots as PNG and SVG, stderr empty" test $n -eq 5 -a ! -s $d.plot.err
    done
    # pnrsim --plot: --schedule, then pnrsim-plot on the output directory
    # (its summary line on stderr: standard output keeps the metrics only).
    "$P" -t one.swf --set computer.number=2 --set simulation.metrics_period=0.5 --plot --format json -o pl > pl.out 2> pl.err
    rc=$?
    n=0
    for p in gantt paging overalloc memory queue; do
        test -s "pl/plots/$p.png" -a -s "pl/plots/$p.svg" && n=$((n + 1))
    done
    check "pnrsim --plot: exit 0, the schedule CSV files (no Paje trace: issue 26) and the 5 plots in DIR/plots, JSON alone on stdout" \
        sh -c "test $rc -eq 0 -a $n -eq 5 -a -s pl/schedule.csv -a -s pl/memory.csv -a ! -e pl/schedule.paje && $PY -c 'import json,sys; json.load(open(\"pl.out\"))' && grep -q 'images in' pl.err"
    "$PLOT" --format svg -o dd -- d1 > /dev/null 2>&1
    check "pnrsim-plot -- OUTDIR" test -s dd/gantt.svg
    "$PLOT" plot --from 384300s --to 384700s --format png -o win d1 > /dev/null 2>&1
    check "pnrsim-plot plot --from/--to with units -o: windowed plots written" test -s win/gantt.png
    check "pnrsim-plot: no temporary directory left" test -z "$(find d1/plots one/plots win -name '.plot.*')"
    check "pnrsim-plot --version: pnrsim-plot VERSION" \
        sh -c "\"$PLOT\" --version | grep -q '^pnrsim-plot [0-9][0-9.]*'"
    # Gantt legend: with at most 20 jobs shown in the window, a key entry
    # per job, the jobs being those with a stretch in the window (from
    # schedule.csv; 400 s over 960 pixels: every stretch is wider than a pixel).
    "$PLOT" --keep-data --from 384300 --to 384700 --format png -o keyw d1 > /dev/null 2>&1
    want=$(awk -F, 'NR > 1 && $4 > 384300 && $3 - $7 < 384700 { print $1 }' d1/schedule.csv | sort -un | tr '\n' ' ')
    got=$($PY -c 'import json,pathlib; print(" ".join(str(j) for j in json.loads(pathlib.Path("keyw/data/axes.json").read_text())["gantt"]["jobs"]) + " ")')
    check "pnrsim-plot Gantt: a key entry per job in the window ($(echo $want | wc -w) jobs)" test -n "$want" -a "$want" = "$got"
    # --from/--to: times with units, --from below --to; exit 2, nothing written.
    for w in "--from 100 --to 50" "--from 50 --to 50" "--from 1-2" "--to 1e" "--from -5" "--to x" "--to 5w" "--from 2h --to 100m"; do
        "$PLOT" $w -o badwin d1 > /dev/null 2> badwin.err
        rc=$?
        check "pnrsim-plot $w: exit 2 with a message, nothing written" \
            sh -c "test $rc -eq 2 && grep -q -e 'expected a time' -e 'window is empty' -e 'expected one argument' badwin.err && test ! -e badwin"
    done
fi
if [ -x "$PLOT" ]; then
    # Without pandas (a PYTHONPATH whose pandas fails to import).
    mkdir -p nopd && echo 'raise ImportError("no pandas here (test)")' > nopd/pandas.py
    PYTHONPATH=$T/nopd "$PLOT" -o nogp-out d1 > /dev/null 2> nogp.err
    rc=$?
    check "pnrsim-plot without pandas: exit 3, says pandas, writes nothing" \
        sh -c "test $rc -eq 3 && grep -q pandas nogp.err && test ! -e nogp-out"
    "$PLOT" nowhere > /dev/null 2>&1
    check "pnrsim-plot on a missing directory: exit 2" test $? -eq 2
    # pnrsim --plot checks pandas before the run: nothing simulated,
    # nothing written.
    PYTHONPATH=$T/nopd "$P" -t one.swf --set computer.number=2 --plot -q -o nogp-run > /dev/null 2> nogp-run.err
    rc=$?
    check "pnrsim --plot without pandas: exit 2 before the run, says pandas, writes nothing" \
        sh -c "test $rc -eq 2 && grep -q pandas nogp-run.err && test ! -e nogp-run"
fi
finish
