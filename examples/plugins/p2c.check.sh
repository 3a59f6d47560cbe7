#!/bin/sh
# examples/plugins/p2c.check.sh PNRSIM P2C.so: the p2c example loaded out
# of tree ([plugins] load), against numbers worked by hand.
# Run it in an empty directory of its own: it writes its files there.
#
# 3 PEs of 100 MB, network RAM with P2C, one manager (node 0), global
# knowledge (the manager's view is the truth), servers keep 10 MB. At t = 0
# three 1-thread jobs of 100 s: 40 MB on PE 0 (60 free: 50 lendable), 55 MB
# on PE 1 (45 free: 35 lendable), 140 MB on PE 2 (40 MB overallocated:
# one request of 40 MB; PE 2 has nothing free, so the candidates are PEs 0
# and 1).
#   choices = 2: both candidates drawn (no draw: 2 of 2), the freer, PE 0,
#     is asked and covers the 40 MB: 1 request, 1 ASK, 40 MB granted,
#     satisfied, whatever the seed.
#   choices = 1: one candidate at random: PE 0 covers it at once (1 ASK);
#     PE 1 lends its 35 MB and the manager then asks PE 0 for the other
#     5 (2 ASKs). Every seed gives 1 or 2 ASKs and 40 MB granted; over
#     seeds 1..10 both occur unless all ten draws fell alike (probability
#     2 x 2^-10).
set -u
P=$1 SO=$2
cat > t.swf <<'SWF'
1 0 0 100 1 100 40960 1 -1 -1 1 1 1 1 1 1 -1 -1
2 0 0 100 1 100 56320 1 -1 -1 1 1 1 1 1 1 -1 -1
3 0 0 100 1 100 143360 1 -1 -1 1 1 1 1 1 1 -1 -1
SWF
cat > p2c.ini <<INI
[plugins]
load = $SO
[workload]
trace = t.swf
[computer]
number = 3
ram = 100
[netram]
enabled = yes
strategy = P2C
managers = 1
global_knowledge = yes
server_threshold = 10
INI
get() { sed -n "s/.*\"$1\": *\([0-9.e+-]*\).*/\1/p" "$2/metrics.json"; }
fail=0 ones=0 twos=0
for c in 2 1; do
    for s in 1 2 3 4 5 6 7 8 9 10; do
        o=out-$c-$s
        "$P" -c p2c.ini -q --set plugin.p2c.choices=$c --set simulation.seed=$s -o $o > run.log 2>&1 ||
            { echo "FAIL choices=$c seed=$s: pnrsim failed"; cat run.log; fail=1; continue; }
        req=$(get pnr_requests $o) ask=$(get pnr_msgs_ask $o) gr=$(get pnr_granted_mb $o) sat=$(get pnr_satisfied $o)
        if [ "$req" != 1 ] || [ "$gr" != 40 ] || [ "$sat" != 1 ]; then
            echo "FAIL choices=$c seed=$s: requests $req, granted $gr MB, satisfied $sat; want 1, 40, 1"
            fail=1
        fi
        if [ $c = 2 ]; then
            [ "$ask" = 1 ] || { echo "FAIL choices=2 seed=$s: $ask ASKs, want 1 (the freer, PE 0)"; fail=1; }
        else
            case $ask in 1) ones=$((ones + 1)) ;; 2) twos=$((twos + 1)) ;;
                *) echo "FAIL choices=1 seed=$s: $ask ASKs, want 1 or 2"; fail=1 ;; esac
        fi
    done
done
[ $fail = 0 ] && echo "ok   choices=2: 1 request, 1 ASK (PE 0), 40 MB granted, in all 10 seeds"
if [ $ones -ge 1 ] && [ $twos -ge 1 ]; then
    echo "ok   choices=1: $ones seeds with 1 ASK (PE 0 drawn), $twos with 2 (PE 1 drawn, 35 + 5 MB)"
else
    echo "FAIL choices=1: $ones seeds with 1 ASK, $twos with 2: want both"
    fail=1
fi
exit $fail
