#!/bin/sh
# tests/check_slurm_predict.sh BUILD: pnrsim predict against a real Slurm
# (issue 36 item 4; make check-slurm-predict, part of make check-long).
#
# Starts a one-node Slurm of its own (tools/slurm-local.sh) whose node has
# 8 CPUs whatever the machine has (SLURM_LOCAL_CPUS=8; the jobs sleep) and
# whose scheduler is sched/backfill (bf_interval=1, bf_resolution=1),
# submits 8 sleeping jobs of 1 to 8 CPUs with time limits of 1 or 2 minutes
# (each sleeps 5-45 s, well under its limit), waits 3 s for the scheduler
# to start what it will, takes a snapshot with tools/slurm-snapshot (squeue
# --json; the --format reading of the same moment is compared with it),
# records Slurm's own estimates (squeue --start), predicts with pnrsim
# (backfill CONSERVATIVE, Slurm's backfill plugin's kind, every job
# reserved: bf_max_job_test is above 8), lets Slurm run everything, reads
# the actual starts (scontrol show job, StartTime) and prints the table:
# per queued job pnrsim's prediction, Slurm's estimate, the actual start,
# and both errors (estimate - actual, s), then the mean absolute errors.
# Both predictors assume the limits, and every job ends well before its
# limit, so both are late; the table says by how much.
#
# Checks the mechanics (every queued job predicted and estimated, no
# prediction before the snapshot, the two importer paths agree, every job
# ran) and, for the table, that no job started later than pnrsim predicted
# (+2 s): with every job ending at or before its limit, a conservative plan
# is an upper bound when the real scheduler never delays a reservation for
# a later job. Skips (exit 0, "check_slurm_predict: SKIPPED: why") where
# Slurm cannot be started. About 70 s. KEEP=1 keeps the directory.

TEST_NAME=check_slurm_predict
. "$(dirname "$0")/lib.sh"
need "$P"
WAIT=${SLURM_WAIT:-180}

[ "$(id -u)" -eq 0 ] || skip_all "a local Slurm needs root (slurmd starts jobs as their user)"
[ -x "$PY" ] || skip_all "no $PY for tools/slurm-snapshot"

chmod 755 "$T"
cleanup() {
    sh "$top/tools/slurm-local.sh" stop "$T/cluster"
    lib_cleanup
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

SLURM_LOCAL_CPUS=8 SLURM_LOCAL_SCHEDULER=backfill \
    sh "$top/tools/slurm-local.sh" start "$T/cluster" > "$T/start.log" 2>&1
rc=$?
if [ $rc -ne 0 ]; then
    cat "$T/start.log"
    skip_all "tools/slurm-local.sh could not start a cluster (exit $rc; see above)"
fi
cat "$T/start.log"
export SLURM_CONF="$T/cluster/slurm.conf"
export SLURM_TIME_FORMAT=%s

# CPUS MINUTES SLEEP, in submit order (= priority order under
# priority/basic). On 8 CPUs: 1, 2 and 4 run at once (4 backfilled: it
# ends by its limit before 3 could start), the rest queue.
cat > mix.txt <<'EOF'
4 1 20
2 2 45
8 1 10
2 1 15
4 1 10
6 2 10
1 1 5
2 1 5
EOF
: > ids.txt
while read -r n m s; do
    id=$(sbatch --parsable -n "$n" -t "$m" -o /dev/null --wrap "sleep $s") || break
    echo "$id $n $m $s" >> ids.txt
done < mix.txt
check "8 jobs submitted" test "$(wc -l < ids.txt)" -eq 8
sleep 3

"$PY" "$top/tools/slurm-snapshot" -o snap.txt 2> snap.err
check "slurm-snapshot (squeue --json): exit 0" test $? -eq 0
SLURM_TIME_FORMAT=%s squeue --start -h -t PD -o '%i %S' > slurm-start.txt
"$PY" "$top/tools/slurm-snapshot" --format -o snapf.txt 2> snapf.err
check "the --format reading gives the same jobs (apart from now)" \
    sh -c 'grep -E "^(running|queued|pes)" snap.txt > a; grep -E "^(running|queued|pes)" snapf.txt > b; cmp a b'
cat snap.txt
now=$(sed -n 's/^now //p' snap.txt)
nq=$(grep -c '^queued' snap.txt)
check "the snapshot holds queued jobs ($nq) and running ones" \
    sh -c "[ $nq -ge 3 ] && grep -q '^running' snap.txt"

"$P" predict -p pred.csv snap.txt --set scheduler.backfill=CONSERVATIVE 2> pred.err
check "pnrsim predict: exit 0" test $? -eq 0
cat pred.err
check "a prediction for every queued job" test "$(tail -n +2 pred.csv | grep -c '^[0-9]*,[0-9]')" -eq "$nq"
check "no prediction before the snapshot" \
    awk -F, -v now="$now" 'NR > 1 && $2 < now { bad = 1 } END { exit bad }' pred.csv

# Let Slurm run them.
i=0
while [ -n "$(squeue -h -o %i)" ] && [ $i -lt "$WAIT" ]; do
    sleep 1
    i=$((i + 1))
done
check "every job ended within $WAIT s" test -z "$(squeue -h -o %i)"
: > actual.txt
while read -r id n m s; do
    st=$(scontrol -o show job "$id" | tr ' ' '\n' | sed -n 's/^StartTime=//p')
    echo "$id $st" >> actual.txt
done < ids.txt

# The table: queued jobs only (the running ones' starts are in the snapshot).
"$PY" - snap.txt pred.csv slurm-start.txt actual.txt ids.txt > table.txt <<'EOF'
import csv, sys
snap, pred, est, act, ids = sys.argv[1:6]
queued = [l.split() for l in open(snap) if l.startswith("queued")]
now = float([l.split()[1] for l in open(snap) if l.startswith("now")][0])
p = {int(r["job"]): float(r["predicted_start"]) for r in csv.DictReader(open(pred))}
e = {}
for l in open(est):
    w = l.split()
    try:
        e[int(w[0])] = float(w[1])
    except (ValueError, IndexError):
        pass
a = {int(l.split()[0]): float(l.split()[1]) for l in open(act) if len(l.split()) == 2}
mix = {int(l.split()[0]): l.split()[1:] for l in open(ids)}
print("job cpus limit_s sleep_s  pnrsim  slurm  actual  pnrsim_err slurm_err   (s after the snapshot)")
ep, es = [], []
late = 0
for q in queued:
    j = int(q[1])
    n, m, s = mix.get(j, ["?", "?", "?"])
    pr, sl, ac = p.get(j), e.get(j), a.get(j)
    f = lambda v: "%7.0f" % (v - now) if v is not None else "      -"
    d = lambda x, y: "%9.0f" % (x - y) if x is not None and y is not None else "        -"
    print("%3d %4s %7d %7s %s %s %s  %s %s" % (j, n, int(m) * 60, s, f(pr), f(sl), f(ac),
                                                d(pr, ac), d(sl, ac)))
    if pr is not None and ac is not None:
        ep.append(abs(pr - ac))
        late += ac > pr + 2
    if sl is not None and ac is not None:
        es.append(abs(sl - ac))
mae = lambda v: "%.1f" % (sum(v) / len(v)) if v else "n/a"
print("mean absolute error: pnrsim %s s (%d jobs), Slurm's squeue --start %s s (%d jobs)"
      % (mae(ep), len(ep), mae(es), len(es)))
print("late_after_pnrsim %d" % late)
EOF
cat table.txt
check "Slurm estimated every queued job" test "$(grep -c . slurm-start.txt)" -eq "$nq"
check "every job has an actual start" test "$(awk 'NF == 2' actual.txt | wc -l)" -eq 8
check "no job started later than pnrsim predicted (+2 s)" grep -qx 'late_after_pnrsim 0' table.txt
finish
