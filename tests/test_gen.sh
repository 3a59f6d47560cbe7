#!/bin/sh
# tests/test_gen.sh BUILD: pnrsim-gen, the workload generator (issue 36
# item 1): seeded and byte-identical per seed, the header's parameters
# regenerate the file, constant memory, the model's shares worked out by
# hand from Lublin's parameters, the two-sample Kolmogorov-Smirnov
# distance per field between jobs generated from `--fit` of HPC2N's
# excerpt and that log (bounds justified below and in docs/WORKLOADS.md),
# bad parameter files (exit 2 naming file:line: key), and pnrsim running a
# generated trace.
TEST_NAME=test_gen
. "$(dirname "$0")/lib.sh"

G=$build/pnrsim-gen
need "$G" "$P"
HPC=$top/traces/hpc2n-seth-first3171.swf

# ks A B: the two-sample KS distance sup |F_A - F_B| of two files of
# numbers, both empirical CDFs stepped past every value equal to the
# current smallest (ties advance together).
ks() {
    sort -g "$1" > "$1.s"; sort -g "$2" > "$2.s"
    awk 'NR == FNR { a[++n] = $1; next } { b[++m] = $1 }
      END { i = 1; j = 1; d = 0
        while (i <= n && j <= m) { x = (a[i] < b[j]) ? a[i] : b[j]
          while (i <= n && a[i] == x) i++
          while (j <= m && b[j] == x) j++
          e = (i - 1) / n - (j - 1) / m; if (e < 0) e = -e; if (e > d) d = e }
        printf "%.4f\n", d }' "$1.s" "$2.s"
}
# fields SWF PREFIX: the fields of the usable jobs (procs >= 1 from field
# 5 else 8, runtime >= 0), as the fit reads them: PREFIX.size, .run, .iat
# (inter-arrival, s), .req (requested time > 0), .mem (KB/process > 0).
fields() {
    rm -f "$2".size "$2".run "$2".iat "$2".req "$2".mem
    awk -v p="$2" '/^;/ { next } NF >= 18 { n = ($5 >= 1) ? $5 : $8
        if (n < 1 || $4 < 0 || $2 < 0) next
        print n > (p ".size"); print $4 > (p ".run")
        if (have) print $2 - last > (p ".iat"); last = $2; have = 1
        if ($9 > 0) print $9 > (p ".req"); if ($7 > 0) print $7 > (p ".mem") }' "$1"
}
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && a + 0 <= b + 0) }'; }

# 0. The KS helper on a case worked by hand: {1,2,3} against {2,3,4,5}:
# at 1: 1/3 - 0; at 2: 2/3 - 1/4; at 3: 1 - 2/4 = 1/2 (the largest);
# at 4: 1 - 3/4.
printf '1\n2\n3\n' > k1; printf '2\n3\n4\n5\n' > k2
check "ks helper: {1,2,3} vs {2,3,4,5} = 0.5" test "$(ks k1 k2)" = "0.5000"

# 1. Seeded: the same seed twice is byte-identical, another seed differs.
$G -n 2000 -s 5 -o a.swf && $G -n 2000 -s 5 > b.swf && $G -n 2000 -s 6 -o c.swf
check "same seed: byte-identical" cmp -s a.swf b.swf
check "another seed: different" test "$(cmp -s a.swf c.swf; echo $?)" = 1
check "header says what generated it" grep -q '^; Generator: pnrsim-gen ' a.swf
check "header: model and seed" sh -c "grep -q '^; Model: Lublin and Feitelson 2003' a.swf && grep -q '^; GeneratorSeed: 5$' a.swf"
check "2000 job lines of 18 fields" test "$(awk '!/^;/ && NF == 18' a.swf | wc -l)" -eq 2000
# The parameters in the header are a parameter file: fed back with -p
# they give the same file.
sed -n '/^; GeneratorParameters:$/,/^;$/p' a.swf | sed '1d;$d' | sed 's/^; //' > hdr.ini
$G -p hdr.ini -n 2000 -s 5 -o a2.swf
check "header parameters regenerate the file" cmp -s a.swf a2.swf
# A prefix: the first 500 jobs of -n 2000 are the jobs of -n 500 (a
# stream: nothing depends on the count but MaxJobs/MaxRecords).
$G -n 500 -s 5 -o p.swf
check "streamed: -n 500 is a prefix of -n 2000" test "$(grep -v '^;' p.swf | md5sum)" = "$(grep -v '^;' a.swf | head -n 500 | md5sum)"

# 2. Constant memory: a million jobs take no more resident memory than a
# thousand (within 1 MB; measured 3.4 MB both).
if [ -x /usr/bin/time ]; then
    r1=$(/usr/bin/time -f %M "$G" -n 1000 -o /dev/null 2>&1 | tail -1)
    r2=$(/usr/bin/time -f %M "$G" -n 1000000 -o /dev/null 2>&1 | tail -1)
    check "constant memory: 1e6 jobs $r2 KB vs 1e3 jobs $r1 KB" test $((r2 - r1)) -lt 1024
else
    skip "constant memory: no /usr/bin/time"
fi

# 3. The default model's shares from Lublin's typeless parameters (hand):
# serial jobs: serial_prob = 0.244 exactly (par >= ulow = 0.8 gives
# round(2^par) >= 2). Power-of-two sizes > 1: pow2_prob = 0.576 plus the
# "other" branch (0.18) landing on one: round(2^par) = 2^k for par in
# [log2(2^k - 0.5), log2(2^k + 0.5)); with uprob 0.86 on [0.8, 4.5] and
# 0.14 on [4.5, 7]: k=1 [0.8, 1.3219] 0.86 x 0.5219/3.7 = 0.1213;
# k=2 [1.8074, 2.1699] 0.0843; k=3 [2.9069, 3.0875] 0.0420; k=4 [3.9542,
# 4.0444] 0.0210; k=5 [4.9773, 5.0224] 0.14 x 0.0451/2.5 = 0.0025; k=6
# 0.0013; k=7 [6.9944, 7] 0.0003: 0.2727 in all, so 0.576 + 0.18 x
# 0.2727 = 0.6251. Tolerances 4 standard deviations of a share of 20,000
# jobs (sqrt(p(1-p)/20000): 0.0030 and 0.0034).
$G -n 20000 -s 11 -o d.swf
grep -v '^;' d.swf | awk '{ n++; if ($5 == 1) s++; else if (and($5, $5 - 1) == 0) q++
    if ($5 > 128 || $5 < 1) bad++; if ($4 > 162754 || $4 < 1) bad++
    if ($9 < $4 && $9 != $4) bad++ }
    END { printf "%.4f %.4f %d\n", s / n, q / n, bad }' > d.shares 2>/dev/null ||
grep -v '^;' d.swf | awk 'function p2(x) { while (x > 1 && x % 2 == 0) x /= 2; return x == 1 }
    { n++; if ($5 == 1) s++; else if (p2($5)) q++
    if ($5 > 128 || $5 < 1) bad++; if ($4 > 162754 || $4 < 1) bad++; if ($9 < $4) bad++ }
    END { printf "%.4f %.4f %d\n", s / n, q / n, bad }' > d.shares
set -- $(cat d.shares)
check "default: serial share $1 = 0.244 +- 0.0122" awk -v x="$1" 'BEGIN { exit !(x > 0.2318 && x < 0.2562) }'
check "default: power-of-two share $2 = 0.6251 +- 0.0137" awk -v x="$2" 'BEGIN { exit !(x > 0.6114 && x < 0.6388) }'
check "default: sizes in 1..128, runtimes in 1..exp(12), requests >= runtimes" test "$3" = 0
# Memory: ln(KB) = mu + slope ln(size) + N(0, sigma); serial jobs' median
# is exp(mu) = exp(13.7420823) = 928,651 KB (within 1%: sigma 0.09 over
# ~4,900 jobs puts the sample median within 0.3%).
med=$(grep -v '^;' d.swf | awk '$5 == 1 { print $7 }' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
check "default: serial memory median $med ~ 928651 KB" awk -v x="$med" 'BEGIN { exit !(x > 919364 && x < 937937) }'

# 4. The fit to HPC2N and the KS distance per field. 20,000 generated
# jobs against the log's 3,145 usable ones. Two samples of the same
# model (seeds 7 and 8, 20,000 each) must stay under the KS critical value
# at alpha = 0.001, 1.949 x sqrt(2/20000) = 0.0195: the generator and the
# helper are sound. Against the log the model is a parametric summary, and
# at these sizes every field is rejected at 5% (critical value 0.026):
# the bounds are what the fitted model meets with a margin of about three
# standard deviations of D over seeds (measured over seeds 1, 2, 3, 7:
# size 0.089-0.092, runtime 0.059-0.064, inter-arrival 0.107-0.112,
# requested time 0.041-0.048, memory 0.185-0.187), and each fitted
# field but memory at most half the unfitted default model's distance
# (0.33, 0.28, 0.32, 0.39): the fit is what brings them there.
$G --fit "$HPC" -o h.ini
check "--fit HPC2N: runs" test $? -eq 0
check "--fit: machine of 240 PEs" grep -q '^procs = 240$' h.ini
$G -p h.ini -n 20000 -s 7 -o f7.swf && $G -p h.ini -n 20000 -s 8 -o f8.swf &&
    $G --procs 240 -n 20000 -s 7 -o def.swf
fields "$HPC" L; fields f7.swf A; fields f8.swf B; fields def.swf D
for f in size run iat req mem; do
    d=$(ks A.$f B.$f)
    check "KS same model seeds 7/8, $f: $d <= 0.0195" le "$d" 0.0195
done
for fb in size:0.12 run:0.09 iat:0.14 req:0.075 mem:0.22; do
    f=${fb%%:*} b=${fb#*:}
    d=$(ks L.$f A.$f)
    check "KS HPC2N vs fit, $f: $d <= $b" le "$d" "$b"
    if [ "$f" != mem ]; then
        d0=$(ks L.$f D.$f)
        check "KS HPC2N, $f: fit $d <= default $d0 / 2" awk -v a="$d" -v b="$d0" 'BEGIN { exit !(a <= b / 2) }'
    fi
done

# 4b. The fit recovers a model it is given: traces/lublin-256-synthetic.swf
# (10,000 jobs from Lublin's generator, typeless class, 256 PEs) fitted
# gives back the published parameters: serial_prob 0.244 (+- 0.013, 3 sd
# of a share of 10,000), ulow 0.8 and uprob 0.86 (grid steps 0.1, 0.02),
# umed 5.5 (+- 0.1; the trace's own umed for 256 PEs is not recorded: 5.5
# is Lublin's advice uhi - 2.5, the published 4.5 being for 128), a1 4.2, b1 0.94, a2 312, b2 0.03,
# pb 0.78 (+- 8%: the EM on 10,000 draws), aarr = AARR x ARAR = 10.46,
# barr 0.4871 (+- 5%: moments of 10,000 draws).
$G --fit "$top/traces/lublin-256-synthetic.swf" -o lub.ini
pv() { sed -n "s/^$1 = //p" lub.ini | head -1; }
within() { awk -v x="$1" -v c="$2" -v t="$3" 'BEGIN { d = x - c; if (d < 0) d = -d; exit !(x != "" && d <= t) }'; }
for kv in serial_prob:0.244:0.013 ulow:0.8:0.1 umed:5.5:0.1 uprob:0.86:0.04 \
          a1:4.2:0.34 b1:0.94:0.075 a2:312:25 b2:0.03:0.0024 pb:0.78:0.0624 \
          aarr:10.46:0.52 barr:0.4871:0.0244; do
    k=${kv%%:*} r=${kv#*:} c=${r%%:*} t=${r#*:}
    check "fit of Lublin's own trace: $k $(pv $k) = $c +- $t" within "$(pv $k)" "$c" "$t"
done

# 5. Bad parameter files: exit 2, "file:line: section.key: ...".
bad_param() { # NAME LINE KEY FILE-TEXT
    printf '%b' "$4" > bad.ini
    "$G" -p bad.ini -n 1 > /dev/null 2> bad.err; rc=$?
    check "bad params ($1): exit 2" test $rc -eq 2
    check "bad params ($1): names bad.ini:$2: $3" grep -q "bad.ini:$2: $3" bad.err
}
bad_param "unknown key" 3 "size.serial" '[size]\npow2_prob = 0.5\nserial = 0.2\n'
bad_param "not a number" 2 "runtime.a1" '[runtime]\na1 = many\n'
bad_param "out of range" 2 "size.uprob" '[size]\nuprob = 1.5\n'
bad_param "bad mode" 2 "estimate.modes" '[estimate]\nmodes = 600:0.5,300:0.5\n'
bad_param "bad machine" 2 "machine.procs" '[machine]\nprocs = 12.5\n'
bad_param "memory model" 2 "memory.model" '[memory]\nmodel = gaussian\n'
# The first bad line is the one named, whatever follows it.
bad_param "first of two" 2 "size.foo: unknown key" '[size]\nfoo = 1\nuprob = 2\n'
bad_param "syntax, then a bad key" 2 "not a KEY = VALUE line" '[size]\nbogus\nuprob = 2\n'
printf '[arrival]\nweights = 1,2,3\n' > w.ini
"$G" -p w.ini -n 1 > /dev/null 2> w.err; rc=$?
check "3 of 48 weights: exit 2 naming arrival.weights" sh -c "test $rc -eq 2 && grep -q 'w.ini: arrival.weights: 3 weights: expected 48' w.err"
awk 'BEGIN { printf "[size]\nuprob = 0.5"; for (i = 0; i < 300; i++) printf " "; print "" }' > long.ini
"$G" -p long.ini -n 1 > /dev/null 2> long.err; rc=$?
check "over-long line: exit 2 naming long.ini:2" sh -c "test $rc -eq 2 && grep -q 'long.ini:2: line longer than' long.err"
printf '[size]\nserial_prob = 0.6\npow2_prob = 0.6\n' > sum.ini
"$G" -p sum.ini -n 1 > /dev/null 2> sum.err; rc=$?
check "shares above 1: exit 2" sh -c "test $rc -eq 2 && grep -q 'serial_prob + size.pow2_prob' sum.err"
"$G" -p /nonexistent.ini -n 1 > /dev/null 2>&1; check "missing parameter file: exit 2" test $? -eq 2
"$G" -n -3 > /dev/null 2>&1; check "-n -3: exit 2" test $? -eq 2
"$G" -s 0 > /dev/null 2>&1; check "-s 0: exit 2" test $? -eq 2
head -n 30 "$HPC" > few.swf
"$G" --fit few.swf > /dev/null 2> few.err; rc=$?
check "--fit on 5 jobs: exit 2" sh -c "test $rc -eq 2 && grep -q 'at least 10' few.err"

# Parameters inside their ranges whose gamma puts (almost) nothing at or
# below max_log: the redraw would never end; refused (exit 2) instead.
printf '[arrival]\naarr = 60\nbarr = 1\n' > arr.ini
timeout 20 "$G" -p arr.ini -n 1 > /dev/null 2> arr.err; rc=$?
check "aarr x barr far above max_log: exit 2, not a hang" sh -c "test $rc -eq 2 && grep -q 'arrival.aarr, barr = 60, 1' arr.err"
printf '[runtime]\na1 = 100\nb1 = 1\npa = 0\npb = 1\n' > rt.ini
timeout 20 "$G" -p rt.ini -n 1 > /dev/null 2> rt.err; rc=$?
check "a1 x b1 far above max_log: exit 2, not a hang" sh -c "test $rc -eq 2 && grep -q 'runtime.a1, b1 = 100, 1' rt.err"
"$G" --procs 1 -n 1 > /dev/null 2> p1.err; rc=$?
check "--procs 1 with Lublin's sizes: exit 2 saying why" sh -c "test $rc -eq 2 && grep -q 'a machine of 1 PE has only serial jobs' p1.err"
printf '[machine]\nprocs = 1\n[size]\nserial_prob = 1\npow2_prob = 0\n' > ser.ini
"$G" -p ser.ini -n 5 -o ser.swf 2> ser.err
check "1 PE with serial_prob = 1: 5 serial jobs" sh -c "test $? -eq 0 && test \"\$(grep -v '^;' ser.swf | awk '\$5 == 1' | wc -l)\" -eq 5"
printf '[memory]\nmodel = lognormal\nmu = 40\nsigma = 10\nslope = 10\n' > mem.ini
"$G" -p mem.ini -n 5 -o mem.swf 2> mem.err
check "memory beyond SWF's 1e12 KB: written at the bound and counted on stderr" sh -c "grep -q 'warning: 5 jobs' mem.err"

# 6. pnrsim runs a generated trace (HPC2N's fit: 240 PEs, memory).
"$P" -c "$DEFAULT" -q -t f7.swf --set workload.max_jobs=100 -o run > run.out 2>&1
check "pnrsim runs a generated trace" test $? -eq 0
check "pnrsim: 100 jobs finished" test "$(jval run/metrics.json jobs_finished)" = 100

finish
