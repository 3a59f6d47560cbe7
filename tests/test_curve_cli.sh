#!/bin/sh
# tests/test_curve_cli.sh BUILD: fault model CURVE through the command line
# (issue 33; docs/MODEL.md "Fault model CURVE"; the reader and the rate
# are tests/test_curve.c).
#
# The machine: 2 PEs of 64 MB, the reference disk (one page access S =
# 0.009 + 30/7200 + 4096/50e6 = 0.0132485866 s), MPL 1. The trace: two
# 1-thread jobs of 131072 KB = 128 MB and 20 CPU s, submitted at 0, on a
# PE each: overallocation 64 MB, L = 64 MB, local fraction f = 1 - 64/128
# = 0.5. Job 1 is application 1 (SWF field 14), mapped to none.curve (no
# misses): no faults, it ends at 20. Job 2 is application 2, mapped to
# kink.curve: misses(50) = 280 over 7 CPU s, 40 faults per CPU s, so over
# 20 CPU s a Poisson count of mean 800, 99.9 % interval 800 +- 3.29 x
# sqrt(800) = [707, 893]; each fault costs S (a PE of its own: no queue),
# so fault_time = faults x S and end = 20 + faults x S.
#
# Checks: that mapping (and the curves' paths taken from the directory of
# the configuration file that names them, then replayed by config.ini from
# elsewhere); a job of an application without a curve, a malformed curve
# (the file and line), another page size, CURVE without curves: exit 2,
# one line, nothing written; the notes on keys without effect (fault_curve
# under REPORT, mem_access_rate and paging = BATCHED under CURVE) and that
# they are truly without effect (jobs.csv byte-identical); a REPORT run
# differs from the CURVE run (the curves matter).
# Prints "N passed, N failed" last.
TEST_NAME=test_curve_cli
. "$(dirname "$0")/lib.sh"    # top, build, P, check, finish, T, jobf, near, lines
DATA=$top/tests/data/curves
S=0.0132485866

mkdir -p cfg
cp "$DATA/kink.curve" "$DATA/none.curve" cfg/
cat > map.swf <<'EOF'
; two jobs: application 1 (field 14) and application 2
1 0 -1 20 1 20 131072 -1 -1 -1 1 -1 -1 1 -1 -1 -1 -1
2 0 -1 20 1 20 131072 -1 -1 -1 1 -1 -1 2 -1 -1 -1 -1
EOF
cat > nocurve.swf <<'EOF'
; application 3 has no curve
1 0 -1 20 1 20 131072 -1 -1 -1 1 -1 -1 1 -1 -1 -1 -1
2 0 -1 20 1 20 131072 -1 -1 -1 1 -1 -1 2 -1 -1 -1 -1
3 5 -1 20 1 20 131072 -1 -1 -1 1 -1 -1 3 -1 -1 -1 -1
EOF
cat > cfg/run.ini <<'EOF'
[computer]
number = 2
ram = 64
[process]
fault_model = CURVE
fault_curves = 1:none.curve, 2:kink.curve
EOF

# ---- the mapping by SWF field 14 --------------------------------------------

"$P" -q -c cfg/run.ini -t map.swf -o out > /dev/null 2> out.err
check "CURVE run: exit 0, no warning" sh -c "test $? -eq 0 && ! test -s out.err"
f1=$(jobf out/jobs.csv 1 page_faults)
f2=$(jobf out/jobs.csv 2 page_faults)
e1=$(jobf out/jobs.csv 1 end)
check "job 1 (application 1, none.curve): no faults, ends at 20" \
    sh -c "test '$f1' = 0 && test '$e1' = 20"
check "job 2 (application 2, kink.curve): $f2 faults in [707, 893] (Poisson 800)" \
    test "${f2:-0}" -ge 707 -a "${f2:-0}" -le 893
check "job 2: fault_time = faults x S, end = 20 + faults x S" \
    awk -v n="$f2" -v s=$S -v ft="$(jobf out/jobs.csv 2 fault_time)" \
        -v e="$(jobf out/jobs.csv 2 end)" \
        'BEGIN { d1 = ft - n * s; d2 = e - 20 - n * s; exit !(n > 0 && d1 < 1e-6 && d1 > -1e-6 && d2 < 1e-6 && d2 > -1e-6) }'
check "config.ini names the curves by absolute paths" \
    grep -qF "fault_curves = 1:$T/cfg/none.curve, 2:$T/cfg/kink.curve" out/config.ini
(cd / && "$P" -q -c "$T/out/config.ini" -o "$T/replay" > /dev/null 2>&1)
check "config.ini replayed from / gives the same jobs.csv" cmp -s out/jobs.csv replay/jobs.csv

# ---- refusals: exit 2, one line, nothing written ------------------------------

# refused NAME 'MESSAGE' ARGS...
refused() {
    name=$1; msg=$2; shift 2
    "$P" -q -o "new-$name" "$@" > "$name.out" 2> "$name.err"
    rc=$?
    if [ $rc -ne 2 ]; then
        bad "$name: exit status 2 (got $rc)"
    elif ! grep -qF -- "$msg" "$name.err"; then
        bad "$name: message '$msg' (got: $(head -c 400 "$name.err"))"
    elif [ "$(lines "$name.err")" -ne 1 ] || [ -e "new-$name" ]; then
        bad "$name: one line on stderr, nothing written"
    else
        ok "$name: status 2, '$msg'"
    fi
}
refused no-curve "nocurve.swf:4: job 3 has application number 3 and no fault curve" \
    -c cfg/run.ini -t nocurve.swf
# line 16 of bad.curve: misses rise from 400 (line 15) to 950
sed 's/^80,100$/80,950/' cfg/kink.curve > cfg/bad.curve
refused bad-curve "cfg/bad.curve:16: misses 950 above the previous row's 400 (line 15)" \
    -c cfg/run.ini -t map.swf --set process.fault_curves=1:cfg/bad.curve,2:cfg/kink.curve
refused page-size "page_size = 4096, but [process] page_size = 8192" \
    -c cfg/run.ini -t map.swf --set process.page_size=8192
refused no-curves "fault_model = CURVE needs curves" \
    -t map.swf --set process.fault_model=CURVE
refused missing-file "no-such.curve: cannot read the fault curve" \
    -c cfg/run.ini -t map.swf --set process.fault_curve=no-such.curve

# ---- keys without effect: said, and without effect -----------------------------

"$P" -q -c cfg/run.ini -t map.swf -o rate --set process.mem_access_rate=1e-6 > /dev/null 2> rate.err
check "CURVE: mem_access_rate warned about, jobs.csv unchanged" \
    sh -c "grep -qF '[process] mem_access_rate = 1e-06 has no effect: under [process] fault_model = CURVE' rate.err && cmp -s out/jobs.csv rate/jobs.csv"
"$P" -q -c cfg/run.ini -t map.swf -o batched --set process.paging=BATCHED > /dev/null 2> batched.err
# Batches plan CURVE's gaps (sched/batch.c): no warning, the run completes.
check "CURVE: paging = BATCHED not warned about (batched)" \
    sh -c "! grep -qF 'paging = BATCHED has no effect' batched.err && test -s batched/jobs.csv"
"$P" -q -t map.swf -o report --set computer.number=2 --set computer.ram=64 > /dev/null 2>&1
"$P" -q -t map.swf -o report-curve --set computer.number=2 --set computer.ram=64 \
    --set process.fault_curve=cfg/kink.curve > /dev/null 2> report-curve.err
check "REPORT: fault_curve warned about, jobs.csv unchanged" \
    sh -c "grep -qF 'has no effect: the fault model is the report' report-curve.err && cmp -s report/jobs.csv report-curve/jobs.csv"
check "REPORT and CURVE runs differ (job 1 faults under REPORT)" \
    sh -c "! cmp -s report/jobs.csv out/jobs.csv && test '$(jobf report/jobs.csv 1 page_faults)' -gt 0"

# ---- a study: curves relative to the study file ---------------------------------

if [ -x "$SWEEP" ]; then
    mkdir -p st
    cp cfg/kink.curve cfg/none.curve map.swf st/
    printf '[computer]\nnumber = 2\nram = 64\n' > st/base.ini
    cat > st/s.ini <<'EOF'
[study]
name = c
base = base.ini
trace = map.swf
[set]
process.fault_model = CURVE
process.fault_curves = 1:none.curve, 2: kink.curve
[vary]
process.fault_curve = none.curve, kink.curve
EOF
    "$SWEEP" -j 1 -o st-out st/s.ini > st.log 2>&1
    ini=st-out/runs/process.fault_curve=kink.curve/seed-1/config.ini
    check "study: fault_curve and fault_curves' files taken from the study's directory" \
        sh -c "test $? -eq 0 &&
               grep -qxF 'fault_curves = 1:$T/st/none.curve, 2:$T/st/kink.curve' '$ini' &&
               grep -qxF 'fault_curve = $T/st/kink.curve' '$ini'"
else
    skip "study: pnrsim-sweep not built"
fi

finish
