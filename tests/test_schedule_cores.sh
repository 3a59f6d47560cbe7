#!/bin/sh
# tests/test_schedule_cores.sh BUILD: schedule.paje with several cores per
# node (computer.cores_per_node = C > 1; docs/METRICS.md "Nodes of several
# cores"): a Node container per node (its memory, network RAM lent and
# paging), holding a Core container per core (its job states); memory
# servers are nodes without cores. With C = 1 the trace is the PE trace of
# before, byte for byte (tests/test_schedule.sh and make identical's runs).
#
#   - the hand-worked gang run of tests/test_schedule.sh on 2 nodes of 2
#     cores: schedule.csv has the same rows (its PE ranges are cores), and
#     pj_dump reads 2 Node and 4 Core containers, each core under its node,
#     job 1 25 s, job 2 12 s and 3 context switches of 1 s on each core, the
#     slot switches at 10, 20, 30, 33; no warning;
#   - two 1-thread jobs of 20 MB on the two cores of one 32 MB node: the
#     node's memory reaches 40 MB (20 + 20) and its paging states cover
#     either job's fault time (the node pages while any of its threads
#     does);
#   - with a memory server (network RAM on, TREE): 3 Node containers, 4
#     Core containers (the server has none), pj_dump accepts it.
TEST_NAME=test_schedule_cores
. "$(dirname "$0")/lib.sh"    # top, build, P, PY, check, skip, finish, T
command -v pj_dump >/dev/null 2>&1 || skip_all "pj_dump not installed (Debian pajeng; tools/deps.sh schedule installs it)"

# ---- hand-worked gang run, 2 nodes x 2 cores -----------------------------------------
# As in tests/test_schedule.sh: jobs 1 (25 s CPU) and 2 (12 s), 4 threads
# each, MPL 2, quantum 10 s, PCS 1 s:
#   0..10 job 1, 10..20 job 2, 20..21 PCS, 21..30 job 1, 30..31 PCS,
#   31..33 job 2 ends, 33..34 PCS, 34..40 job 1 ends.
# Each job's 4 threads run on cores 0-3 (nodes 0 and 1).
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
cores_per_node = 2
ram = 1000
EOF
"$P" -c gang.ini -q -o g --schedule --paje > /dev/null 2> g.err
check "C = 2: exit 0" test $? -eq 0
check "C = 2: no warning about schedule.paje" sh -c '! grep -q "schedule" g.err'
cat > g.expect <<'EOF'
job,slot,start,end,first_pe,pes,pcs
1,0,0,10,0,4,0
2,1,10,20,0,4,0
1,0,21,30,0,4,1
2,1,31,33,0,4,1
1,0,34,40,0,4,1
EOF
check "C = 2: schedule.csv is exactly the worked-out rows (PE ranges are cores)" cmp -s g.expect g/schedule.csv
pj_dump g/schedule.paje > g.dump 2> g.pjerr
check "C = 2: pj_dump accepts schedule.paje" test $? -eq 0 -a ! -s g.pjerr
check "C = 2: Node containers Node0, Node1 under the cluster" \
    test "$(awk -F', ' '$1 == "Container" && $3 == "Node" { print $2 "/" $7 }' g.dump | sort | tr '\n' ' ')" = "cluster/Node0 cluster/Node1 "
check "C = 2: Core containers, two per node, under their node" \
    test "$(awk -F', ' '$1 == "Container" && $3 == "Core" { print $2 "/" $7 }' g.dump | sort | tr '\n' ' ')" = "Node0/Node0.0 Node0/Node0.1 Node1/Node1.0 Node1/Node1.1 "
# Per-core totals of one state value.
pj_sum() { # FILE STATE-TYPE VALUE-REGEX -> "container total" lines
    awk -F', ' -v t="$2" -v v="$3" '$1 == "State" && $3 == t && $8 ~ v { s[$2] += $6 } END { for (c in s) printf "%s %.9f\n", c, s[c] }' "$1" | sort
}
check "C = 2: job 1 ran 25 s on each of the 4 cores" \
    test "$(pj_sum g.dump Job '^job 1$' | awk '$2 == 25 { print $1 }' | tr '\n' ' ')" = "Node0.0 Node0.1 Node1.0 Node1.1 "
check "C = 2: job 2 ran 12 s on each of the 4 cores" \
    test "$(pj_sum g.dump Job '^job 2$' | awk '$2 == 12' | wc -l)" -eq 4
check "C = 2: 3 context switches of 1 s per core" \
    test "$(pj_sum g.dump Job '^context switch$' | awk '$2 == 3' | wc -l)" -eq 4
check "C = 2: slot switches at 10, 20, 30, 33" \
    test "$(awk -F', ' '$1 == "Event" { printf "%g ", $4 }' g.dump)" = "10 20 30 33 "
check "C = 2: memory variables on the nodes, none on the cores" \
    test "$(awk -F', ' '$1 == "Variable" { print $2 }' g.dump | sort -u | tr '\n' ' ')" = "Node0 Node1 "

# ---- two jobs sharing a node's RAM: memory and paging per node -------------------------
# One node of 32 MB and 2 cores; jobs 1 and 2, one thread of 20 MB (SWF
# field 7 in KB) and 2 s of CPU each, both at 0, one per core: the node
# holds 20 + 20 = 40 MB (8 MB over) and pages.
cat > two.swf <<'EOF'
1 0 0 2 1 2 20480 1 -1 -1 1 1 1 1 1 1 -1 -1
2 0 0 2 1 2 20480 1 -1 -1 1 1 1 1 1 1 -1 -1
EOF
"$P" -t two.swf -q -o two --schedule --paje --set computer.number=2 --set computer.cores_per_node=2 \
    --set computer.ram=32 --set simulation.metrics_period=0.5 > /dev/null 2>&1
check "shared node: exit 0" test $? -eq 0
pj_dump two/schedule.paje > two.dump 2> two.pjerr
check "shared node: pj_dump accepts schedule.paje" test $? -eq 0 -a ! -s two.pjerr
check "shared node: the node's memory in use reaches 40 MB (20 + 20)" \
    test "$(awk -F', ' '$1 == "Variable" && $2 == "Node0" && $3 ~ /^Memory/ && $7 + 0 == 40' two.dump | wc -l)" -ge 1
ft=$(awk -F, 'NR > 1 { if ($14 > m) m = $14 } END { print m + 0 }' two/jobs.csv)
pg=$(pj_sum two.dump Paging paging | awk '$1 == "Node0" { print $2 }')
check "shared node: Node0's paging states cover either job's fault time ($pg >= $ft > 0)" \
    awk -v a="$pg" -v b="$ft" 'BEGIN { exit !(b > 0 && a != "" && a + 1e-9 >= b) }'
check "shared node: both cores ran a job (2 s of CPU each at least)" \
    test "$(pj_sum two.dump Job '^job [12]$' | awk '$2 >= 2' | wc -l)" -eq 2

# ---- a memory server: a node without cores -----------------------------------------------
"$P" -t gang.swf -q -o ms --schedule --paje --set computer.number=4 --set computer.cores_per_node=2 \
    --set computer.ram=1000 --set netram.enabled=yes --set computer.memory_servers=1 \
    --set network.topology=TREE --set network.rack_size=1 > /dev/null 2>&1
check "memory server: exit 0" test $? -eq 0
pj_dump ms/schedule.paje > ms.dump 2> ms.pjerr
check "memory server: pj_dump accepts schedule.paje" test $? -eq 0 -a ! -s ms.pjerr
check "memory server: 3 Node containers, 4 Core containers" \
    test "$(awk -F', ' '$1 == "Container" && $3 == "Node"' ms.dump | wc -l) $(awk -F', ' '$1 == "Container" && $3 == "Core"' ms.dump | wc -l)" = "3 4"
finish
