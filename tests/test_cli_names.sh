#!/bin/sh
# tests/test_cli_names.sh BUILD: names and repeated options on pnrsim's
# command line (issue 32 item 8). Each check is a reproducer of the issue:
#   a) a -c file name with a control character (a newline, a tab) is
#      refused (exit 2, the name shown with '?', nothing written), as -t
#      refuses them: config.ini names each layer in "; from FILE:LINE"
#      comment lines, and a newline there made its replay fail (the tail
#      of the name read as a key);
#   b) a trace given relative (-t t.swf) in a directory whose absolute path
#      is over 1024 characters is recorded absolute in config.ini, and the
#      replay from another directory gives the same jobs.csv (it was stored
#      relative, and the replay opened another file); such a path given
#      absolute is accepted (it was refused above 1023 characters); one
#      that would be longer than PATH_MAX - 1 = 4095 characters is refused
#      saying so; a comment line longer than any line limit (config.ini's
#      "; command:" line with long paths) does not stop a replay;
#   c) the error about a -c file of a long path (700 characters, and the
#      1100-character directory of b) ends with what is wrong ("cannot
#      open: No such file or directory", the bad value) instead of being
#      cut in the path;
#   d) -t "trail.swf " (a trailing blank) is not trimmed into trail.swf:
#      with trail.swf present, the run is refused (exit 2) naming exactly
#      "trail.swf " (config.ini could not keep the blank); a leading blank
#      too;
#   e) --set for the same key twice (in any case spelling), -t twice and -s
#      twice are refused, exit 2, "given twice", as a key twice in one file
#      is; different keys, and -t with --set workload.trace (the documented
#      precedence), still work.
# Prints "N passed, N failed" last; KEEP=1 keeps the temporary directory.
TEST_NAME=test_cli_names
. "$(dirname "$0")/lib.sh"    # top, build, P, check, finish, T
TRACE=$top/traces/lanl-cm5-techreport-sample10.swf

# ---- a) control characters in -c names ------------------------------------
nl='
'
printf '[scheduler]\nmpl = 2\n' > "n${nl}l.ini"
"$P" -q -c "n${nl}l.ini" -t "$TRACE" -o nlout > /dev/null 2> nl.err
rc=$?
check "a) -c with a newline in its name: exit 2, nothing written" \
    sh -c "test $rc -eq 2 && test ! -e nlout"
check "a) the message shows the name with '?' and says why" \
    grep -q "^pnrsim: n?l.ini: the configuration file's name holds a control character" nl.err
check "a) the message is one line (the newline not printed)" test "$(wc -l < nl.err)" -eq 1
tab='	'
printf '[scheduler]\nmpl = 2\n' > "t${tab}b.ini"
"$P" -q -c "t${tab}b.ini" -t "$TRACE" --print-config > /dev/null 2> tab.err
check "a) a tab in a -c name: exit 2, shown as '?'" \
    sh -c "test $? -eq 2 && grep -q '^pnrsim: t?b.ini: ' tab.err"
cp "n${nl}l.ini" plain.ini
"$P" -q -c plain.ini -t "$TRACE" -o plainout > /dev/null 2>&1
check "a) the same file under a plain name runs" test $? -eq 0

# ---- b) trace paths over 1024 characters -----------------------------------
# 12 levels of 90 characters: a directory path of 1096 characters under $T.
d90=$(printf '%90s' '' | tr ' ' d)
d=deep
for _ in 1 2 3 4 5 6 7 8 9 10 11 12; do d=$d/$d90; done
mkdir -p "$d" && cp "$TRACE" "$d/t.swf"
abs=$T/$d/t.swf
(cd "$d" && "$P" -q -t t.swf -o "$T/rel" > /dev/null 2> "$T/rel.err")
check "b) -t t.swf in a directory of over 1024 characters: runs" test $? -eq 0 -a -s rel/jobs.csv
check "b) the absolute path is over 1024 characters (${#abs})" test "${#abs}" -gt 1024
check "b) config.ini records the trace by its absolute path" \
    grep -qxF "trace = $abs" rel/config.ini
(cd / && "$P" -q -c "$T/rel/config.ini" -o "$T/rel2" > /dev/null 2> "$T/rel2.err")
check "b) replay of that config.ini from / : exit 0, the same jobs.csv" \
    sh -c "test $? -eq 0 && cmp -s rel/jobs.csv rel2/jobs.csv"
"$P" -q -t "$abs" -o absrun > /dev/null 2> abs.err
check "b) the same path given absolute (over 1023 characters) is accepted" \
    sh -c "test $? -eq 0 && cmp -s rel/jobs.csv absrun/jobs.csv"
# A relative path of 4085 characters (20 directories of 203 characters
# and t.swf), under $T: its absolute path is over 4095 characters.
c203=$(printf '%203s' '' | tr ' ' v)
vrel=$c203
for _ in 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do vrel=$vrel/$c203; done
mkdir -p "$vrel" && cp "$TRACE" "$vrel/t.swf"
vrel=$vrel/t.swf
"$P" -q -t "$vrel" -o vout > /dev/null 2> v.err
echo $? > v.rc
check "b) the relative path is ${#vrel} characters, its absolute one $((${#T} + 1 + ${#vrel}))" \
    test ${#vrel} -lt 4096 -a $((${#T} + 1 + ${#vrel})) -gt 4095
check "b) a trace whose absolute path would exceed 4095 characters: exit 2, nothing written" \
    sh -c "test \"\$(cat v.rc)\" = 2 && test ! -e vout"
check "b) ... saying the path is longer than 4095 characters (PATH_MAX)" \
    grep -q '^pnrsim: -t "vvv.*vvv/t.swf": the trace.s absolute path .* is longer than 4095 characters, the most a path can have (PATH_MAX)' v.err
# A comment line of 6000 characters (longer than the 4352-byte line limit).
{ printf '; '; head -c 6000 /dev/zero | tr '\0' c; printf '\n[scheduler]\nmpl = 3\n'; } > longc.ini
"$P" -c longc.ini --print-config > longc.out 2> longc.err
check "b) a comment line of 6000 characters is read (replays with long paths work)" \
    sh -c "test $? -eq 0 && grep -qx 'mpl = 3' longc.out"

# ---- c) long -c paths: the explanation is never cut --------------------------
x700=$(printf '%700s' '' | tr ' ' x)
"$P" -c "$T/missing/$x700.ini" --print-config > /dev/null 2> long.err
check "c) -c of a 700-character missing path: exit 2, the message ends with the reason" \
    sh -c "test $? -eq 2 && grep -q 'xxx.ini: cannot open: No such file or directory\$' long.err"
# The same for a trace and an output directory (their messages have room
# for the path's first and last characters, then the reason); nothing is
# left of the output directory's parents that the run made.
"$P" -q -t "$T/missing/$x700.swf" -o tout > /dev/null 2> tlong.err
check "c) -t of a 700-character missing path: the message ends with the reason" \
    sh -c "test $? -eq 2 && grep -q '^pnrsim: $T/missing/xxx*\.\.\.xxx*\.swf: cannot open: No such file or directory\$' tlong.err"
"$P" -q -t "./$x700.swf" -o tout > /dev/null 2> tname.err
check "c) -t with a 700-character name (over NAME_MAX): 'File name too long', not PATH_MAX" \
    sh -c "test $? -eq 2 && grep -q 'xxx\.swf: cannot open: File name too long\$' tname.err"
"$P" -q -t "$TRACE" -o "$T/newparent/$x700/out" > /dev/null 2> olong.err
check "c) -o with a 700-character name: the message ends with the reason" \
    sh -c "test $? -eq 2 && grep -q 'xxx*/out\": cannot create output directory: File name too long\$' olong.err"
check "c) ... and the parent it made is removed again" test ! -e newparent
printf '[computer]\nram = lots\n' > "$d/bad.ini"
"$P" -c "$T/$d/bad.ini" --print-config > /dev/null 2> deepbad.err
check "c) a bad value in a -c file of over 1100 characters: the path, line and reason in full" \
    sh -c "test $? -eq 2 && grep -qF 'pnrsim: $T/$d/bad.ini:2: [computer] ram = \"lots\": ' deepbad.err"

# ---- d) -t is not trimmed ------------------------------------------------
cp "$TRACE" trail.swf
"$P" -q -t "trail.swf " -o trail > /dev/null 2> trail.err
rc=$?
check "d) -t \"trail.swf \" with trail.swf present: exit 2, nothing run or written" \
    sh -c "test $rc -eq 2 && test ! -e trail"
check "d) the message names exactly \"trail.swf \" (the blank kept) and why" \
    grep -q '^pnrsim: -t "trail.swf ": the file name starts or ends with a blank, which config.ini cannot keep' trail.err
"$P" -q -t " trail.swf" -o trail > /dev/null 2> trail2.err
check "d) -t \" trail.swf\": exit 2, named as given" \
    sh -c "test $? -eq 2 && test ! -e trail && grep -q '^pnrsim: -t \" trail.swf\": ' trail2.err"
"$P" -q -t trail.swf -o trail > /dev/null 2>&1
check "d) -t trail.swf runs" test $? -eq 0
"$P" -q --set "workload.trace=trail.swf " -o trail3 > /dev/null 2> trail3.err
check "d) --set \"workload.trace=trail.swf \": exit 2 (not trimmed to trail.swf), nothing written, named as given" \
    sh -c "test $? -eq 2 && test ! -e trail3 && grep -qF '[workload] trace = \"trail.swf \": the file name ends with a blank' trail3.err"
"$P" -q --set "workload.trace = trail.swf" -o trail4 > /dev/null 2>&1
check "d) --set \"workload.trace = trail.swf\" (blanks around '=') runs" test $? -eq 0

# ---- e) options given twice ---------------------------------------------------
"$P" -q -t "$TRACE" --set scheduler.mpl=2 --set Scheduler.MPL=3 -o twice > /dev/null 2> set2.err
check "e) --set for the same key twice: exit 2, nothing written" \
    sh -c "test $? -eq 2 && test ! -e twice"
check "e) ... the message names both and says 'given twice'" \
    grep -qxF 'pnrsim: --set "Scheduler.MPL=3": scheduler.mpl given twice (first --set "scheduler.mpl=2"): give each key once' set2.err
"$P" -t "$TRACE" -t trail.swf --print-config > /dev/null 2> t2.err
check "e) -t twice: exit 2, 'given twice'" \
    sh -c "test $? -eq 2 && grep -qxF 'pnrsim: -t given twice (\"$TRACE\", then \"trail.swf\"): give it once' t2.err"
"$P" -t "$TRACE" -s 1 --seed 2 --print-config > /dev/null 2> s2.err
check "e) -s twice (-s, --seed): exit 2, 'given twice'" \
    sh -c "test $? -eq 2 && grep -qxF 'pnrsim: -s given twice (\"1\", then \"2\"): give it once' s2.err"
"$P" -t "$TRACE" --trace trail.swf --print-config > /dev/null 2> t3.err
check "e) -t and --trace: given twice too" sh -c "test $? -eq 2 && grep -q 'given twice' t3.err"
"$P" -t "$TRACE" --set scheduler.mpl=2 --set scheduler.quantum=30 --set \
    workload.trace=trail.swf --print-config > two.ini 2> two.err
check "e) different keys, and -t with --set workload.trace (precedence): accepted" \
    sh -c "test $? -eq 0 && grep -qx 'mpl = 2' two.ini && grep -qx 'quantum = 30' two.ini &&
           grep -qxF 'trace = $T/trail.swf' two.ini"

finish
