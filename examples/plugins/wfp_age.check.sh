#!/bin/sh
# examples/plugins/wfp_age.check.sh PNRSIM WFP_AGE.so: the wfp_age example
# loaded out of tree ([plugins] load) decides who starts, by hand.
# Run it in an empty directory of its own: it writes its files there.
#
# 8 PEs, MPL 1, strict order, no paging or messages. Job 1 (8 PEs, 100 s)
# runs [0, 100). At t = 100 three wait, key = -(w/e)^a x n:
#   job 2: submit 0,  n 1, e 10: w/e = 10
#   job 3: submit 40, n 2, e 20: w/e = 3
#   job 4: submit 80, n 8, e 10: w/e = 2
# a = 1: keys -10, -6, -16: job 4 first [100, 110), then jobs 2 [110, 120)
#        and 3 [110, 130) side by side.
# a = 3: keys -1000, -54, -64: job 2 [100, 110) alone (strict order: job 4
#        needs all 8), job 4 [110, 120), job 3 [120, 140).
set -u
P=$1 SO=$2
cat > t.swf <<'SWF'
1 0 -1 100 8 -1 1024 8 100 -1 1 1 1 1 1 1 -1 -1
2 0 -1 10 1 -1 1024 1 10 -1 1 1 1 1 1 1 -1 -1
3 40 -1 20 2 -1 1024 2 20 -1 1 1 1 1 1 1 -1 -1
4 80 -1 10 8 -1 1024 8 10 -1 1 1 1 1 1 1 -1 -1
SWF
fail=0
for a in 1 3; do
    cat > s$a.ini <<INI
[plugins]
load = $SO
[workload]
trace = t.swf
[computer]
number = 8
ram = 4096
[process]
comm_rate = 0
sync_rate = 0
[scheduler]
mpl = 1
pcs = 0
quantum = 1000
strict_order = yes
priority = WFP_AGE
[plugin.wfp_age]
exponent = $a
INI
    "$P" -c s$a.ini -o out$a > run$a.log 2>&1 || { echo "a=$a: pnrsim failed"; cat run$a.log; fail=1; continue; }
    got=$(awk -F, 'NR > 1 { printf "%s:%s-%s ", $1, $3, $4 }' out$a/jobs.csv)
    if [ $a = 1 ]; then want="1:0-100 4:100-110 2:110-120 3:110-130 "; else want="1:0-100 2:100-110 4:110-120 3:120-140 "; fi
    if [ "$got" = "$want" ]; then echo "ok   a=$a: $got"; else echo "FAIL a=$a: got $got, want $want"; fail=1; fi
    grep -q "exponent = $a" out$a/config.ini || { echo "FAIL a=$a: config.ini lacks exponent = $a"; fail=1; }
done
exit $fail
