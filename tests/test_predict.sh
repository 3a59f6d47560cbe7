#!/bin/sh
# tests/test_predict.sh BUILD: pnrsim predict (issue 36 item 4) and the
# Slurm importer tools/slurm-snapshot, without a Slurm: predicted starts
# worked out by hand under FCFS (backfill NONE), EASY and CONSERVATIVE
# (all reservations, and depth 1), the snapshot's priority as the queue
# order, the importer on saved squeue outputs (22.05's --json, 23.02's
# shape, --format text), and bad snapshots refused with file and line.
# The real Slurm run is tests/check_slurm_predict.sh (make check-slurm-predict).

TEST_NAME=test_predict
. "$(dirname "$0")/lib.sh"
need "$P"
SNAP=$top/tools/slurm-snapshot
D=$top/tests/data/slurm

# A machine of 4 PEs at now = 1000; every job runs to its limit.
#   running 1: 2 PEs, started 900, limit 200 -> ends 1100
#   running 2: 1 PE, started 980, limit 70   -> ends 1050
#   free now: 4 - 3 = 1 PE (PE 3; FIRSTFREE gave 1 PEs 0-1, 2 PE 2)
#   queue (priority 10, 9, 8, 7): 3 = 3 PEs 30 s, 4 = 1 PE 20 s,
#                                 5 = 2 PEs 40 s, 6 = 1 PE 100 s
cat > s.snap <<'S'
pnrsim-snapshot 1
# a hand-made snapshot
now 1000
pes 4
running 1 2 900 200
running 2 1 980 70
queued 3 3 950 30 10
queued 4 1 960 20 9
queued 5 2 970 40 8
queued 6 1 990 100 7
S
# FCFS, strict order (backfill NONE): 3 waits for 3 PEs: 2 free at 1050,
# 4 at 1100: 3 at 1100 (PEs 0-2) and 4 beside it (PE 3) until 1120; 5
# needs 2: 1 free at 1120, 4 at 1130 (3 ends): 5 at 1130 (0-1), 6 with it
# (PE 2).
cat > fcfs.csv <<'S'
job,predicted_start,predicted_end,pes,cores
3,1100,1130,3,0-2
4,1100,1120,1,3
5,1130,1170,2,0-1
6,1130,1230,1,2
S
# EASY: 3's shadow time 1100, 1 extra PE then. 4 (ends 1020 <= 1100) at
# once on PE 3; at 1020 PE 3 is free again: 5 needs 2, 6 (1 PE, ends 1120
# > 1100) fits the extra PE: 6 at 1020 on PE 3. At 1050 PE 2 frees; 5
# needs 2 and 6 took the extra: 5 waits. 3 at 1100 (0-2), 5 when 3 ends
# (1130; 6 still holds PE 3).
cat > easy.csv <<'S'
job,predicted_start,predicted_end,pes,cores
3,1100,1130,3,0-2
4,1000,1020,1,3
5,1130,1170,2,0-1
6,1020,1120,1,3
S
# CONSERVATIVE (a reservation each, in order): 3 at 1100-1130 on 3 PEs; 4
# at 1000 (PE 3, to 1020); 5 (2 PEs 40 s): free 1 in 1020-1050, 2 in
# 1050-1100 -> 1050-1090 (PEs 2-3); 6 (1 PE 100 s): 1020-1050 has 1 free
# but 6 would still hold it at 1050 when 5 needs both: not there; from 1090
# 2 free to 1100, then 1 beside 3 to 1130, then 4: 6 at 1090 (PE 2). 3
# gets PEs 0, 1 and 3 (6 holds 2).
cat > cons.csv <<'S'
job,predicted_start,predicted_end,pes,cores
3,1100,1130,3,0-1 3
4,1000,1020,1,3
5,1050,1090,2,2-3
6,1090,1190,1,2
S
"$P" predict s.snap > out-fcfs.csv 2> err-fcfs.txt
check "FCFS (the default backfill NONE): exit 0" test $? -eq 0
check "FCFS: starts as worked out by hand" cmp fcfs.csv out-fcfs.csv
check "nothing on stderr" test ! -s err-fcfs.txt
"$P" predict s.snap --set scheduler.backfill=EASY > out-easy.csv
check "EASY: starts as worked out by hand" cmp easy.csv out-easy.csv
"$P" predict s.snap --set scheduler.backfill=CONSERVATIVE > out-cons.csv
check "CONSERVATIVE: starts as worked out by hand" cmp cons.csv out-cons.csv
"$P" predict s.snap --set scheduler.backfill=CONSERVATIVE --set scheduler.reservations=1 > out-d1.csv
check "CONSERVATIVE with depth 1 (bf_max_job_test = 1): EASY's" cmp easy.csv out-d1.csv

# The snapshot's priority is the queue order: 5 first (priority 20).
# FCFS: 5 needs 2: at 1050 (2 ends) PEs 2-3 -> 5 at 1050-1090; 3 needs 3:
# 2 free at 1090, 4 at 1100: 3 at 1100 (0-2), 4 at 1100 (PE 3); 6 needs 1:
# none until 4 ends at 1120: 6 at 1120 (PE 3).
sed 's/^queued 5 2 970 40 8$/queued 5 2 970 40 20/' s.snap > p.snap
cat > prio.csv <<'S'
job,predicted_start,predicted_end,pes,cores
5,1050,1090,2,2-3
3,1100,1130,3,0-2
4,1100,1120,1,3
6,1120,1220,1,3
S
"$P" predict -p prio-out.csv p.snap
check "priority 20 puts job 5 first: starts by hand, -p FILE" cmp prio.csv prio-out.csv

# Equal priorities: the earlier submit first, then the lower job number.
printf 'pnrsim-snapshot 1\nnow 100\npes 2\nrunning 7 2 50 100\nqueued 9 2 90 10 5\nqueued 8 2 90 10 5\nqueued 10 2 80 10 5\n' > tie.snap
printf 'job,predicted_start,predicted_end,pes,cores\n10,150,160,2,0-1\n8,160,170,2,0-1\n9,170,180,2,0-1\n' > tie.csv
"$P" predict tie.snap > tie-out.csv
check "ties: submit, then job number (10, 8, 9 after 7 ends at 150)" cmp tie.csv tie-out.csv

# -r 60 (Slurm's bf_resolution): the plan on a 60-s grid. Running 1 ends
# at 950 + 100 = 1050, rounded down to 1020; queued 2 (2 PEs, 120 s: on the
# grid already) at 1020 to 1140; queued 3 (90 s, planned as 60) at 1140;
# predicted_end is the start plus the limit as given (1140 + 90). Without
# -r: 2 at 1050 to 1170, 3 at 1170.
printf 'pnrsim-snapshot 1\nnow 1000\npes 2\nrunning 1 2 950 100\nqueued 2 2 960 120 2\nqueued 3 1 970 90 1\n' > r.snap
printf 'job,predicted_start,predicted_end,pes,cores\n2,1020,1140,2,0-1\n3,1140,1230,1,0\n' > r60.csv
printf 'job,predicted_start,predicted_end,pes,cores\n2,1050,1170,2,0-1\n3,1170,1260,1,0\n' > r0.csv
"$P" predict -r 60 r.snap > r60-out.csv
check "-r 60: the plan on Slurm's bf_resolution grid, by hand" cmp r60.csv r60-out.csv
"$P" predict r.snap > r0-out.csv
check "without -r: to the second" cmp r0.csv r0-out.csv
"$P" predict -r 0 r.snap > /dev/null 2> r.err
check "-r 0 refused: exit 2" test $? -eq 2

# A job wider than the machine never starts (the workload drops it); the
# one behind it starts at once (no strict order past a dropped job).
printf 'pnrsim-snapshot 1\nnow 0\npes 2\nqueued 5 3 0 10 1\nqueued 6 1 0 10 0\n' > w.snap
"$P" predict w.snap > w-out.csv 2> w.err
check "a job wider than the machine: empty prediction, and said" \
    sh -c 'grep -qx "5,,,3," w-out.csv && grep -qx "6,0,10,1,0" w-out.csv && grep -q "1 queued job never starts" w.err'

# An idle machine: no rows, exit 0.
printf 'pnrsim-snapshot 1\nnow 5\npes 2\n' > e.snap
"$P" predict e.snap > e-out.csv 2> /dev/null
check "no jobs: exit 0" test $? -eq 0
check "no jobs: the header alone" test "$(cat e-out.csv)" = "job,predicted_start,predicted_end,pes,cores"

# -o DIR keeps the run and the trace it ran.
"$P" predict -o kept s.snap --set scheduler.backfill=EASY > /dev/null
check "-o DIR: jobs.csv and snapshot.swf kept" test -s kept/jobs.csv -a -s kept/snapshot.swf
check "-o DIR: the trace's queued jobs 1 us after the running ones" \
    test "$(awk '!/^;/ { print $2 }' kept/snapshot.swf | tr '\n' ' ')" = "0 0 1e-06 1e-06 1e-06 1e-06 "
check "the temporary directory is removed" sh -c '! ls "${TMPDIR:-/tmp}"/pnrsim-predict.* >/dev/null 2>&1 || true'

# Bad snapshots: exit 2, file:line and the reason.
bad_snap() { # NAME TEXT PATTERN
    printf "$2" > b.snap
    "$P" predict b.snap > /dev/null 2> b.err
    rc=$?
    check "refused ($1): exit 2" test $rc -eq 2
    check "refused ($1): names b.snap:line and why" grep -q "$3" b.err
}
bad_snap "no magic line" 'now 1\npes 2\n' 'b.snap:1: the first line'
bad_snap "more running than PEs" 'pnrsim-snapshot 1\nnow 10\npes 2\nrunning 1 2 0 60\nrunning 2 1 0 60\n' 'hold 3 PEs of 2'
bad_snap "a job twice" 'pnrsim-snapshot 1\nnow 10\npes 2\nrunning 1 1 0 60\nqueued 1 1 0 60 1\n' 'b.snap:5: job 1 given twice (line 4)'
bad_snap "a queued line short" 'pnrsim-snapshot 1\nnow 10\npes 2\nqueued 1 1 0 60\n' 'b.snap:4: expected "queued JOB'
bad_snap "no pes" 'pnrsim-snapshot 1\nnow 10\n' 'both required'
bad_snap "a start after now" 'pnrsim-snapshot 1\nnow 10\npes 2\nrunning 1 1 20 60\n' 'starts after'
bad_snap "a limit above 1e12 s" 'pnrsim-snapshot 1\nnow 10\npes 4\nqueued 1 1 5 1e300 1\n' 'b.snap:4: expected "queued JOB'
"$P" predict s.snap --set workload.trace=x.swf > /dev/null 2> wt.err
check "--set workload.trace refused (predict writes the trace): exit 2" sh -c "test $? -eq 2 && grep -q 'workload.trace=x.swf: set by predict' wt.err"
"$P" predict s.snap -t x.swf > /dev/null 2> t.err
check "-t refused (predict writes the trace): exit 2" test $? -eq 2

# The importer, on saved squeue outputs (Slurm 22.05.8; times epoch s).
# 22.05's --json: running 1 (4 CPUs), 2 (2), 4 (2), started 1796349457,
# limits 1, 2, 1 min; queued 3 (8 CPUs) and 5 (4), limits 1 min.
cat > want.snap <<'S'
now 1796349460
pes 8
running 1 4 1796349457 60
running 2 2 1796349457 120
queued 3 8 1796349456 60 4294901757
running 4 2 1796349457 60
queued 5 4 1796349456 60 4294901755
S
if [ -x "$PY" ]; then
    "$PY" "$SNAP" --from-json "$D/squeue-22.05.json" --now 1796349460 --pes 8 > j.snap
    check "importer, 22.05 --json: exit 0" test $? -eq 0
    check "importer, 22.05 --json: the snapshot by hand" sh -c 'grep -v "^#" j.snap | tail -n +2 | cmp - want.snap'
    "$PY" "$SNAP" --from-format "$D/squeue-format.txt" --now 1796349460 --pes 8 > f.snap
    check "importer, --format text: the same jobs" sh -c 'grep -v "^#" f.snap | tail -n +2 | cmp - want.snap'
    "$PY" "$SNAP" --from-json "$D/squeue-23.json" --now 1796349460 --pes 8 > j23.snap 2> j23.err
    check "importer, 23.02's JSON shape: the same jobs, then 99 without a limit" \
        sh -c 'grep -v "^#" j23.snap | tail -n +2 | head -n 7 | cmp - want.snap && grep -qx "queued 99 1 1796349456 UNLIMITED 5" j23.snap'
    check "importer: the held job 98 left out, and said" \
        sh -c '! grep -q "^queued 98 " j23.snap && grep -q "1 held job (priority 0) left out" j23.err'
    # Limits: 1-02:03:04 = 93784 s, UNLIMITED, 1:00:00 = 3600 s, 45:30 =
    # 2730 s (partition other: left out with -p local), 5:00 held (11),
    # 12 COMPLETED (silently), 13 SUSPENDED (counted).
    "$PY" "$SNAP" --from-format "$D/squeue-format-limits.txt" --now 1796349460 --pes 8 -p local > l.snap 2> l.err
    printf 'queued 7 1 1796349400 93784 100\nqueued 8 2 1796349401 UNLIMITED 99\nqueued 9 3 1796349402 3600 98\n' > lwant.txt
    check "importer: squeue's time limit formats, -p PARTITION" sh -c 'grep "^queued" l.snap | cmp - lwant.txt'
    check "importer: a suspended job counted as left out" grep -q "1 job in other states left out" l.err
    # The whole chain: Slurm 22.05's own plan is in the pending jobs'
    # start_time (3 at 1796349577 = job 2's end by its limit, 5 backfilled
    # at 1796349517 when 1 and 4 reach theirs, ending as 3 starts);
    # CONSERVATIVE gives the same by hand: 8 CPUs busy to 517, 6 free
    # 517-577, all 8 from 577.
    "$P" predict j.snap --set scheduler.backfill=CONSERVATIVE > jp.csv
    printf 'job,predicted_start,predicted_end,pes,cores\n3,1796349577,1796349637,8,0-7\n5,1796349517,1796349577,4,0-3\n' > jwant.csv
    check "importer + predict (CONSERVATIVE): Slurm's own estimates of the saved state" cmp jwant.csv jp.csv
    "$P" predict j.snap > jf.csv
    check "FCFS: 5 after 3 (577 + 60)" grep -qx '5,1796349637,1796349697,4,0-3' jf.csv
else
    skip "importer: no $PY"
fi
finish
