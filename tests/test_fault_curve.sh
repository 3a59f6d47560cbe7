#!/bin/sh
# tests/test_fault_curve.sh BUILD: the fault-curve tool (issue 33 item 2):
# pnrsim-fault-curve's LRU stack-distance counts on access strings worked
# by hand, fed as lackey trace lines (the format valgrind 3.19's lackey
# writes, checked on /bin/true: "I  0401ab70,3", " S 1fff000708,8",
# " L 04228e0,8", " M 0422a90,4", and "==PID== ..." lines of its own),
# against an LRU simulation for a random string, its errors,
# tools/fault-curve end to end under valgrind on a small C program, and
# tools/fit-r's arithmetic on a hand-made curve.
#
# misses(m) = references whose stack distance d (distinct pages referenced
# since the page's previous reference, itself included) exceeds m; first
# touches are not misses. With --all-rows the body is every m = 0..F.
TEST_NAME=test_fault_curve
. "$(dirname "$0")/lib.sh"

FC=$build/pnrsim-fault-curve
need "$FC"

# body FILE: the curve's rows, one line "m,misses" each
body() { sed -n '/^columns = pages,misses$/,$p' "$1" | tail -n +2; }
# key FILE NAME: a header value
key() { sed -n "s/^$2 = //p" "$1"; }
# rowv FILE M: misses at exactly m pages (empty when no such row)
rowv() { body "$1" | awk -F, -v m="$2" '$1 == m { print $2 }'; }
# page P [KIND]: a lackey line for an 8-byte access in page P (4096-byte
# pages), at offset 16 + (P mod 7) * 8 so that addresses within a page vary
page() { printf ' %s %x,8\n' "${2:-L}" $(( $1 * 4096 + 16 + ($1 % 7) * 8 )); }

# 1. A loop over k = 5 pages repeated r = 4 times: 20 references, 5 first
# touches. Every later reference finds the other 4 pages used since its
# previous one: d = 5. An LRU memory of m < 5 pages misses all of them,
# (r - 1) * k = 15; m >= 5 holds the whole loop: 0.
for r in 1 2 3 4; do for p in 0 1 2 3 4; do page $p; done; done > loop.txt
$FC --cpu-seconds 2 --all-rows loop.txt > loop.curve
check "loop k=5 r=4: runs" test $? -eq 0
check "loop k=5 r=4: misses 15 below 5 pages, 0 from 5 on" \
    test "$(body loop.curve | tr '\n' ' ')" = "0,15 1,15 2,15 3,15 4,15 5,0 "
check "loop: footprint 5, 20 accesses, cpu 2, page 4096, format 1" \
    test "$(key loop.curve footprint_pages) $(key loop.curve accesses) $(key loop.curve cpu_seconds) $(key loop.curve page_size) $(key loop.curve format)" = "5 20 2 4096 1"

# 2. A fixed string of pages 1 2 3 1 2 4 1 3 (LRU stack, most recent first):
#   1 cold [1]; 2 cold [2 1]; 3 cold [3 2 1]; 1 at depth 3: d=3 [1 3 2];
#   2 at depth 3: d=3 [2 1 3]; 4 cold [4 2 1 3]; 1 at depth 3: d=3
#   [1 4 2 3]; 3 at depth 4: d=4 [3 1 4 2].
# Distances 3 3 3 4, F = 4: misses(0..2) = 4, misses(3) = 1 (the d = 4),
# misses(4) = 0. (An LRU of 3 pages by hand: 1 2 3 fill it, 1 and 2 hit, 4
# evicts 3, 1 hits, 3 misses: one miss.) Kinds mixed: loads, stores and
# modifies all count once.
{ page 1 L; page 2 S; page 3 M; page 1 S; page 2 L; page 4 L; page 1 M; page 3 L; } > str.txt
$FC --cpu-seconds 1 --all-rows str.txt > str.curve
check "string 1 2 3 1 2 4 1 3: misses 4 4 4 1 0" \
    test "$(body str.curve | tr '\n' ' ')" = "0,4 1,4 2,4 3,1 4,0 "

# 3. A random walk by +-1 steps: pages 0 1 2 1 0 1 2 3 2:
#   0 1 2 cold [2 1 0]; 1: d=2 [1 2 0]; 0: d=3 [0 1 2]; 1: d=2 [1 0 2];
#   2: d=3 [2 1 0]; 3 cold [3 2 1 0]; 2: d=2 [2 3 1 0].
# Distances 2 3 2 3 2, F = 4: misses(0) = misses(1) = 5, misses(2) = 2
# (the two d = 3), misses(3) = misses(4) = 0.
for p in 0 1 2 1 0 1 2 3 2; do page $p; done > walk.txt
$FC --cpu-seconds 1 --all-rows walk.txt > walk.curve
check "walk 0 1 2 1 0 1 2 3 2: misses 5 5 2 0 0" \
    test "$(body walk.curve | tr '\n' ' ')" = "0,5 1,5 2,2 3,0 4,0 "

# 4. Line kinds and addresses. The walk with valgrind's own lines and
# instruction fetches between its accesses gives the same curve; with
# --instructions each "I" line (all in page 0x401, a page of its own) is a
# reference too: the string becomes I 0 I 1 I 2 I 1 I 0 I 1 I 2 I 3 I 2
# with I = page 0x401, 18 references, F = 5. Each I after the first finds
# one other page since the last I: d = 2. Each data page's reference finds
# the pages of the walk's distance plus the I page: d = walk's d + 1
# (3 4 3 4 3). misses(0) = misses(1) = 8 + 5 = 13, misses(2) = 5 (all data),
# misses(3) = 2 (the d = 4), misses(4) = misses(5) = 0.
{ echo '==7458== Lackey, an example Valgrind tool'; echo '--7458-- a message'
  for p in 0 1 2 1 0 1 2 3 2; do echo 'I  0401ab70,3'; page $p; done; echo '==7458== '; } > mixed.txt
$FC --cpu-seconds 1 --all-rows mixed.txt > mixed.curve
check "valgrind's lines and instruction fetches left out: the walk's curve" \
    test "$(body mixed.curve | tr '\n' ' ')" = "0,5 1,5 2,2 3,0 4,0 "
$FC --cpu-seconds 1 --all-rows --instructions mixed.txt > mixedi.curve
check "--instructions: misses 13 13 5 2 0 0, 18 accesses" \
    test "$(body mixedi.curve | tr '\n' ' ')$(key mixedi.curve accesses)" = "0,13 1,13 2,5 3,2 4,0 5,0 18"
# An 8-byte store at 0x1ffc straddles pages 1 and 2: two references. Then
# 0x1000 (page 1: d = 2, the straddle referenced 1 then 2) and 0x2ff8
# (page 2: d = 2): F = 2, 4 references, misses(0) = misses(1) = 2.
printf ' S 1ffc,8\n L 1000,4\n L 2ff8,8\n' > straddle.txt
$FC --cpu-seconds 1 --all-rows straddle.txt > straddle.curve
check "an access across a page boundary references both pages" \
    test "$(body straddle.curve | tr '\n' ' ')$(key straddle.curve accesses)" = "0,2 1,2 2,0 4"
# --page-size 8192: the loop's pages 0..4 become 0 0 1 1 2 (8 KB pages). A
# round: 0 0 1 1 2; in round 1 the second 0 and second 1 have d = 1; in
# later rounds the first 0 finds 1 and 2 since: d = 3, the first 1 finds
# 2, 0: d = 3, 2 finds 0, 1: d = 3, the repeats d = 1. F = 3; distances
# 2 x d=1 (round 1) + 3 rounds x (3 x d=3 + 2 x d=1): misses(0) = 17,
# misses(1) = misses(2) = 9, misses(3) = 0.
$FC --cpu-seconds 1 --all-rows --page-size 8192 loop.txt > loop8k.curve
check "--page-size 8192: misses 17 9 9 0" \
    test "$(body loop8k.curve | tr '\n' ' ')$(key loop8k.curve page_size)" = "0,17 1,9 2,9 3,0 8192"

# 5. A large loop, k = 40000 pages, r = 3: 120000 references, past the
# first time capacity (65536: the times are renumbered) and the first hash
# table (65536 slots, grown at 32768 pages). misses = 2 * 40000 = 80000
# below 40000 pages, 0 at 40000. Default rows: 0..100, every F/200 = 200
# pages, F: 101 + 200 = 301 rows.
awk 'BEGIN { for (r = 0; r < 3; r++) for (p = 0; p < 40000; p++) printf " L %x,4\n", p * 4096 }' > big.txt
$FC --cpu-seconds 4 big.txt > big.curve
check "loop k=40000 r=3: 80000 misses at 0, 100 and 39800 pages, 0 at 40000" \
    test "$(rowv big.curve 0) $(rowv big.curve 100) $(rowv big.curve 39800) $(rowv big.curve 40000)" = "80000 80000 80000 0"
check "loop k=40000: 301 rows, pages strictly increasing, misses non-increasing" \
    sh -c "[ \$(sed -n '/^columns/,\$p' big.curve | tail -n +2 | awk -F, 'NR > 1 && (\$1 <= p || \$2 > q) { bad = 1 } { p = \$1; q = \$2; n++ } END { print bad ? -1 : n }') = 301 ]"

# 6. A random string (1500 references over 60 pages, pages drawn with a
# skew so that distances spread) against an independent LRU simulation in
# Python for every memory size 1..60 (row 0: every non-first reference).
$PY - > rand.txt 3> rand.want <<'EOF'
import os, random
r = random.Random(33)
seq = [min(int(r.expovariate(1 / 15.0)), 59) for _ in range(1500)]
for p in seq:
    print(" L %x,8" % (p * 4096 + 8))
F = len(set(seq))
out = os.fdopen(3, "w")
out.write("0,%d\n" % (len(seq) - F))
for m in range(1, F + 1):
    lru, seen, miss = [], set(), 0
    for p in seq:
        if p in lru:
            lru.remove(p)
        else:
            miss += p in seen
            seen.add(p)
            if len(lru) == m:
                lru.pop(0)
        lru.append(p)
    out.write("%d,%d\n" % (m, miss))
EOF
$FC --cpu-seconds 1 --all-rows rand.txt > rand.curve
check "random string: every row equals an LRU simulation's misses" \
    sh -c "sed -n '/^columns/,\$p' rand.curve | tail -n +2 | cmp -s - rand.want"
# The same with --capacity 8: the times are renumbered every few
# references and the hash table grows from 8 slots (at 5 pages) to 128.
$FC --cpu-seconds 1 --all-rows --capacity 8 rand.txt > rand8.curve
check "random string, capacity 8 (renumbering, rehashing): every row the same" \
    sh -c "sed -n '/^columns/,\$p' rand8.curve | tail -n +2 | cmp -s - rand.want"

# 6b. The same past the first renumbering of times and growth of the
# hash table: 150000 references (8-byte loads at 4092 bytes into a page,
# so each straddles two pages) over about 40000 pages, skewed; an
# OrderedDict LRU of m pages for a few m.
$PY - > rand2.txt 3> rand2.want <<'EOF'
import os, random
from collections import OrderedDict
r = random.Random(34)
seq = []
for _ in range(75000):
    p = int(r.random() * r.random() * 40000)
    print(" L %x,8" % (p * 4096 + 4092))
    seq += [p, p + 1]
out = os.fdopen(3, "w")
for m in (1, 3, 500, 8000, 25000):
    lru, seen, miss = OrderedDict(), set(), 0
    for p in seq:
        if p in lru:
            lru.move_to_end(p)
        else:
            miss += p in seen
            seen.add(p)
            lru[p] = 1
            if len(lru) > m:
                lru.popitem(last=False)
    out.write("%d,%d\n" % (m, miss))
EOF
$FC --cpu-seconds 1 --all-rows rand2.txt > rand2.curve
check "150000 references over 40000 pages: rows 1, 3, 500, 8000, 25000 equal an LRU simulation's" \
    sh -c "sed -n '/^columns/,\$p' rand2.curve | grep -E '^(1|3|500|8000|25000),' | cmp -s - rand2.want"

# 7. Bad input: a clear error naming the line, exit 2.
printf ' L 1000,8\n X 12,3\n' > bad.txt
$FC --cpu-seconds 1 bad.txt > /dev/null 2> bad.err
check "a line of unknown kind: exit 2" test $? -eq 2
check "... naming file and line 2" grep -q 'bad.txt: line 2: expected a lackey trace line' bad.err
printf ' L zz,8\n' | $FC --cpu-seconds 1 > /dev/null 2> bad2.err
check "a bad address: exit 2, line 1" sh -c "[ $? -eq 2 ] && grep -q 'stdin: line 1:' bad2.err"
$FC loop.txt > /dev/null 2> nocpu.err
check "no --cpu-seconds: exit 2 with the reason" sh -c "[ $? -eq 2 ] && grep -q 'cpu-seconds X is required' nocpu.err"
$FC --cpu-seconds 1 --page-size 0 loop.txt > /dev/null 2>&1
check "--page-size 0: exit 2" test $? -eq 2
: > empty.txt
$FC --cpu-seconds 1 -o empty.curve empty.txt 2> empty.err
check "an empty trace: exit 2, no curve (pnrsim needs footprint_pages >= 1)" \
    sh -c "[ $? -eq 2 ] && [ ! -e empty.curve ] && grep -q 'no memory access in the trace' empty.err"

# 8. tools/fault-curve end to end under valgrind (installed by tools/deps.sh
# valgrind when it can be): a program that adds to one byte of each of
# k = 64 pages, r = 10 times. Each of the (r - 1) k = 576 later touches
# finds at least the 63 other pages since: d >= 64, so they all miss in
# 63 pages whatever else the process touches (ld.so, libc, the stack);
# the footprint has the 64 pages and the header the command and CPU time.
"$top/tools/fault-curve" --help > help.txt 2>&1
check "tools/fault-curve --help" grep -q 'tools/fault-curve' help.txt
if sh "$top/tools/deps.sh" valgrind > /dev/null 2>&1 && command -v valgrind > /dev/null 2>&1 &&
   command -v cc > /dev/null 2>&1; then
    cat > touch.c <<'EOF'
#include <stdlib.h>
int main(void)
{
    volatile unsigned char *a = calloc(64 * 4096 + 4096, 1);
    for (int r = 0; r < 10; r++)
        for (int i = 0; i < 64; i++)
            a[i * 4096] += 1;
    return a[0] == 10 ? 0 : 1;
}
EOF
    cc -O1 -o touch touch.c
    "$top/tools/fault-curve" --native-runs 1 --pass-program "$FC" -o touch.curve -- ./touch 2> touch.err
    check "end to end: tools/fault-curve runs" test $? -eq 0
    check "end to end: >= 576 misses at 63 pages, footprint >= 64, cpu_seconds > 0" \
        awk -v m="$(rowv touch.curve 63)" -v f="$(key touch.curve footprint_pages)" -v c="$(key touch.curve cpu_seconds)" \
            'BEGIN { exit !(m >= 576 && f >= 64 && c > 0) }'
    check "end to end: header names the command and valgrind" \
        sh -c "grep -q '^# command: ./touch$' touch.curve && grep -q '^# valgrind: valgrind-' touch.curve"
    # A program that fails: no curve, exit 2 (its accesses are not the
    # program's); --allow-failure measures it anyway.
    printf 'int main(void) { return 3; }\n' > fails.c && cc -o fails fails.c
    "$top/tools/fault-curve" --native-runs 1 --pass-program "$FC" -o fails.curve -- ./fails 2> fails.err
    check "a failing program: exit 2, no curve, the status named" \
        sh -c "[ $? -eq 2 ] && [ ! -e fails.curve ] && grep -q 'exited 3 natively' fails.err"
    "$top/tools/fault-curve" --allow-failure --native-runs 1 --pass-program "$FC" -o fails.curve -- ./fails 2> fails.err
    check "... with --allow-failure: a curve and a warning" \
        sh -c "[ $? -eq 0 ] && [ -s fails.curve ] && grep -q 'warning: ./fails exited 3' fails.err"
else
    skip "end to end under valgrind (valgrind not installable here)"
fi

# 9. tools/fit-r on a hand-made curve: F = 100 pages, rows 0,1000 and
# 100,0, cpu_seconds 2. Linear between rows: misses(25) = 1000 - 1000 *
# 25/100 = 750, misses(50) = 500, misses(75) = 250; faults per CPU-second
# 375, 250, 125. With one seed, R_f = R0 T / T'_1 where T' is the shortest
# demand (to 0.1 %) whose run at R0 reaches M faults; a run at R_f with
# demand T has exactly that run's faults (gaps scale with R), so the check
# column (its faults / M) is >= 1 and within a few faults of 1.
cat > hand.curve <<'EOF2'
# a hand-made curve
format = 1
page_size = 4096
footprint_pages = 100
accesses = 2000
cpu_seconds = 2
columns = pages,misses
0,1000
100,0
EOF2
"$top/tools/fit-r" --pnrsim "$P" --seeds 1 hand.curve > fit.csv 2> fit.err
check "fit-r: runs" test $? -eq 0
check "fit-r: misses 750 500 250, faults/CPU-s 375 250 125" \
    test "$(awk -F, 'NR > 1 { printf "%s %s ", $5, $6 }' fit.csv)" = "750 375 500 250 250 125 "
check "fit-r: the check run at R_f within 2 % above M" \
    awk -F, 'NR > 1 { if ($13 < 1 || $13 > 1.02) bad = 1 } END { exit bad }' fit.csv
printf 'format = 1\npage_size = 4096\nfootprint_pages = 10\naccesses = 5\ncpu_seconds = 1\ncolumns = pages,misses\n0,5\n5,6\n10,0\n' > badc.curve
"$top/tools/fit-r" --pnrsim "$P" badc.curve > /dev/null 2> badc.err
check "fit-r: misses rising in a curve: exit 2 naming line 8" \
    sh -c "[ $? -eq 2 ] && grep -q 'badc.curve: line 8: pages must increase and misses not increase' badc.err"

finish
