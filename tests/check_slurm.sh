#!/bin/sh
# tests/check_slurm.sh BUILD: pnrsim-sweep --emit-slurm against a real Slurm.
#
# Starts a one-node Slurm cluster of its own (tools/slurm-local.sh, in a
# temporary directory), emits the job-array script of a small study (2 x 2
# points plus a baseline, 2 seeds: 12 runs on the ten-job LANL CM-5 sample,
# with [slurm] options and array_max), submits it with sbatch, waits for the
# whole array (at most SLURM_WAIT seconds, default 300), collects, and checks
# that every array task succeeded and that results.csv and summary.csv are
# byte-identical to the same study run by pnrsim-sweep itself. The output
# directory's name has a space and a quote, and a [slurm] value quotes and
# a '#', so sbatch reads quoted #SBATCH lines. Stops every
# daemon it started on exit (by pid).
#
# Skips (exit 0, "check_slurm: SKIPPED: why", no counts) when Slurm cannot
# be installed or started here: not root, packages missing, a daemon that
# does not come up. Prints "N passed, N failed" otherwise.
# KEEP=1 keeps the temporary directory (the cluster is stopped all the same).

TEST_NAME=check_slurm
. "$(dirname "$0")/lib.sh"    # top, build, P, SWEEP, check, skip_all, need, finish, T
need "$SWEEP"
TRACE=$top/traces/lanl-cm5-techreport-sample10.swf
WAIT=${SLURM_WAIT:-300}

[ "$(id -u)" -eq 0 ] || skip_all "a local Slurm needs root (slurmd starts jobs as their user)"

chmod 755 "$T"
cleanup() {
    sh "$top/tools/slurm-local.sh" stop "$T/cluster"
    lib_cleanup
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

sh "$top/tools/slurm-local.sh" start "$T/cluster" > "$T/start.log" 2>&1
rc=$?
if [ $rc -ne 0 ]; then
    cat "$T/start.log"
    skip_all "tools/slurm-local.sh could not start a cluster (exit $rc; see above)"
fi
cat "$T/start.log"
export SLURM_CONF="$T/cluster/slurm.conf"

printf '[computer]\nnumber = 64\n' > base.ini
cat > s.ini <<EOF
[study]
name = slurmcheck
base = base.ini
trace = $TRACE
replications = 2
[set]
computer.ram = 64
[vary]
scheduler.mpl = 1, 2
netram.strategy = central, manager
[baseline disk]
netram.enabled = no
lines = netram.strategy
[slurm]
time = 00:10:00
comment = it's "quoted"#1
array_max = 2
EOF
V="via slurm'q"

"$SWEEP" -j 2 --no-plots -o direct s.ini > direct.log 2>&1
check "direct run: exit 0" test $? -eq 0

"$SWEEP" --emit-slurm sweep.sh -o "$V" s.ini > emit.log 2>&1
check "emit-slurm: exit 0" test $? -eq 0
check "emit-slurm: a 12-task array, 2 at once" grep -q '^#SBATCH --array=1-12%2$' sweep.sh
check "emit-slurm: [slurm] time" grep -q '^#SBATCH --time=00:10:00$' sweep.sh
check "emit-slurm: the output directory quoted" grep -qF "#SBATCH --output=\"$T/via slurm'q/slurm/%A_%a.out\"" sweep.sh

# sbatch --wait returns when every task of the array has ended, with the
# highest exit status of its tasks; timeout bounds the wait.
timeout "$WAIT" sbatch --wait --parsable sweep.sh > sbatch.out 2> sbatch.err
rc=$?
jobid=$(head -n 1 sbatch.out | cut -d";" -f1)
if [ $rc -eq 124 ]; then
    bad "the array finished within $WAIT s"
    [ -n "$jobid" ] && scancel "$jobid"
    squeue
fi
check "sbatch --wait: every array task exited 0 (job $jobid)" test $rc -eq 0
[ $rc -eq 0 ] || cat sbatch.err
check "one Slurm log per task, in the quoted directory" test "$(ls "$V/slurm/" | wc -l)" -eq 12
jid=${jobid%%_*}
check "sbatch read the quoted comment" sh -c "scontrol show job $jid 2>/dev/null | grep -qF 'Comment=it'\''s \"quoted\"#1' || sacct -j $jid -n -o comment%40 2>/dev/null | grep -qF 'it'\''s \"quoted\"#1'"
check "12 finished run directories" \
    test "$(ls -d "$V"/runs/*/seed-[0-9]* | grep -vc '\.part$')" -eq 12

"$SWEEP" collect --no-plots -o "$V" s.ini > collect.log 2>&1
check "collect after Slurm: exit 0" test $? -eq 0
check "Slurm + collect: results.csv byte-identical to the direct run (but wall_seconds)" \
    csvsame direct/results.csv "$V/results.csv"
check "Slurm + collect: summary.csv byte-identical to the direct run" \
    cmp direct/summary.csv "$V/summary.csv"
check "results.csv: 12 runs, all ok" \
    test "$(grep -c ',ok,' "$V/results.csv")" -eq 12

# Emitting again after the array: nothing left to run.
"$SWEEP" --emit-slurm again.sh -o "$V" s.ini > again.log 2>&1
check "emit again after the array: nothing to run" grep -q 'nothing to run' again.sh
finish
