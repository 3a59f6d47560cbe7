#!/bin/sh
# tests/test_study_reader.sh BUILD: study files and scenario files read by
# one reader (app/ini_reader.c, issue 37 item 7), with one comment rule: a
# ';' or '#' at the start of a line or after white space starts a comment;
# a '#' or ';' inside a value (not after white space) is kept.
#
# Nothing runs: pnrsim-sweep --emit-slurm --all writes the runs' commands,
# and pnrsim --print-config the scenario as read. Expected: worked out
# from the files below by hand (2 RAM sizes x 2 seeds = 4 runs; the
# comments gone; x#1, a#b;c kept), and, for errors, the line a problem is
# on (a joined line is named by its first line) with exit 2.
# Prints "N passed, N failed"; KEEP=1 keeps the temporary directory.

TEST_NAME=test_study_reader
. "$(dirname "$0")/lib.sh"    # top, P, SWEEP, check, need, finish, T
need "$SWEEP"

printf '[computer]\nnumber = 64\n' > base.ini
TRACE=$top/traces/lanl-cm5-techreport-sample10.swf

# ---- a study file: every comment form -------------------------------------
cat > rd.ini <<EOF
; a full-line ';' comment
# a full-line '#' comment
[study]   # after a header
name = rd ; after a value
base = base.ini   # after a path
trace = $TRACE
replications = 2	; after a tab
metrics = total_time, ; a list continued
   # a comment between the lines of a list

   jobs_finished
[set]
workload.max_jobs = 3 # three
simulation.system = x#1 ; '#' not after white space: part of the value
[vary]
computer.ram = 16:32:*2 # a range: 16, 32
[slurm]
comment = a#b;c
EOF
"$SWEEP" --emit-slurm job.sh --all -o out rd.ini > rd.log 2>&1
check "study with comments: exit 0 ($(cat rd.log))" test $? -eq 0
check "4 runs (2 RAM sizes x 2 seeds)" test "$(wc -l < job.sh.jobs)" -eq 4
check "the name without its comment: rd" grep -q '^#SBATCH --job-name=rd$' job.sh
check "[set] values without comments, x#1 kept" \
    test "$(grep -c -e '--set workload.max_jobs=3 ' job.sh.jobs)" -eq 4 -a \
         "$(grep -c -F 'simulation.system=x#1' job.sh.jobs)" -eq 4
check "the range without its comment: computer.ram 16 and 32, twice each" \
    test "$(grep -o -e '--set computer.ram=[0-9]*' job.sh.jobs | sort | uniq -c | awk '{ printf "%s %s;", $1, $3 }')" = \
    "2 computer.ram=16;2 computer.ram=32;"
check "[slurm] a#b;c kept whole" grep -qF '#SBATCH --comment="a#b;c"' job.sh
"$SWEEP" collect --no-plots -o out rd.ini > rdc.log 2>&1
check "the continued metrics list: total_time and jobs_finished only" \
    test "$(grep -o '"name": "[a-z_]*", "unit"' out/study.json | tr '\n' ';')" = \
    '"name": "total_time", "unit";"name": "jobs_finished", "unit";'

# '#' inside [vary] values: two points, the values as written.
cat > hv.ini <<EOF
[study]
base = base.ini
trace = $TRACE
[vary]
simulation.system = a#1, b#2 # two names
EOF
"$SWEEP" --list -o hvout hv.ini > hv.log 2>&1
check "[vary] a#1, b#2: two points named by the values" \
    test "$(grep -c -e 'simulation.system=a#1 ' -e 'simulation.system=b#2 ' hv.log)" -eq 2

# ---- errors: FILE:LINE, exit 2 --------------------------------------------
# Lines 4-5 are one value "16, , 32": its empty item is named at line 4.
printf '[study]\nbase = base.ini\n[vary]\ncomputer.ram = 16,\n   , 32\n' > e1.ini
"$SWEEP" --list -o e1out e1.ini > e1.log 2>&1
check "an empty item in a joined list: exit 2 at its first line (e1.ini:4)" \
    sh -c "test $? -eq 2 && grep -q 'e1.ini:4: computer.ram: empty value in the list' e1.log"
# A '#' right after ']' is not a comment: text after the header (line 3).
printf '[study]\nbase = base.ini\n[vary]#x\n' > e2.ini
"$SWEEP" --list -o e2out e2.ini > e2.log 2>&1
check "[vary]#x: exit 2, e2.ini:3: malformed section header" \
    sh -c "test $? -eq 2 && grep -q \"e2.ini:3: malformed section header: text after ']'\" e2.log"
# A value that is only a comment is empty (line 3).
printf '[study]\nbase = base.ini\nname = # none\n' > e3.ini
"$SWEEP" --list -o e3out e3.ini > e3.log 2>&1
check "name = # none: exit 2, e3.ini:3: name: empty value" \
    sh -c "test $? -eq 2 && grep -q 'e3.ini:3: name: empty value' e3.log"

# ---- a scenario file: the same rule ---------------------------------------
printf '[computer]\nram = 48 # MB\nname = a#b ; kept up to the comment\n[simulation]\nsystem = big #1\n' > scen.ini
"$P" -c scen.ini --print-config > scen.out 2> scen.err
check "scenario: exit 0 ($(head -c 200 scen.err))" test $? -eq 0
check "scenario: ram = 48 (the '# MB' comment cut)" grep -q '^ram = 48$' scen.out
check "scenario: name = a#b ('#' inside the value kept)" grep -q '^name = a#b$' scen.out
check "scenario: system = big (' #1' is a comment)" grep -q '^system = big$' scen.out

finish
