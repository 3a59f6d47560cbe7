#!/bin/sh
# tests/test_print_changed.sh BUILD: pnrsim --print-config --changed
# (issue 37 item 8) prints only the keys that differ from the built-in
# defaults, each under its "; from" line, with a section header only
# above such keys.
#
#   - a scenario of its own setting computer.number = 32 and scheduler.mpl
#     = 3 (both off their defaults, 64 and 1 in configs/reference.ini) and
#     scheduler.quantum = 60 (its default: not printed) prints exactly
#     [scheduler] mpl and [computer] number, in the order of
#     --print-config's sections, each under "; from s.ini:LINE" with the
#     line of the file that set it; nothing else but comments and the two
#     section headers;
#   - --set scheduler.quantum=30 adds quantum under "; from --set
#     scheduler.quantum=30";
#   - configs/default.ini: the keys printed are exactly those of the file
#     whose value differs from configs/reference.ini's (the defaults: a
#     test elsewhere checks that that file gives config_defaults), worked
#     out here from the two files with Python's configparser: values
#     compared case-insensitively, as numbers when both are numbers, as
#     booleans when both are yes/no words; trace (a path) differs from
#     the empty default. Each printed key's "; from" names the file's
#     line that sets it;
#   - --changed without --print-config: exit 2, one line.
# Prints "N passed, N failed".
TEST_NAME=test_print_changed
. "$(dirname "$0")/lib.sh"    # top, build, P, check, finish, T
need "$P"

# keys FILE: "section.key" of every key line of an --print-config output.
keys() {
    awk '/^\[/ { s = substr($0, 2, length($0) - 2); next }
         /^[a-z_0-9]+ =/ { print s "." $1 }' "$1"
}

cat > s.ini <<'EOT'
[scheduler]
quantum = 60
mpl = 3
[computer]
number = 32
EOT
"$P" -c s.ini --print-config --changed > two.out 2> two.err
check "two changed keys: exit 0, stderr empty" sh -c "test $? -eq 0 && test ! -s two.err"
check "two changed keys: exactly scheduler.mpl and computer.number ($(keys two.out | tr '\n' ' '))" \
    test "$(keys two.out | tr '\n' ' ')" = "scheduler.mpl computer.number "
check "two changed keys: the only non-comment lines are [scheduler], mpl, [computer], number" \
    test "$(grep -v '^;' two.out | grep -v '^$' | tr '\n' '|')" = "[scheduler]|mpl = 3|[computer]|number = 32|"
check "two changed keys: each under its '; from s.ini:LINE' (mpl line 3, number line 5)" \
    sh -c "grep -B1 '^mpl = 3' two.out | grep -qx '; from s.ini:3' && grep -B1 '^number = 32' two.out | grep -qx '; from s.ini:5'"
"$P" -c s.ini --set scheduler.quantum=30 --print-config --changed > set.out 2>&1
check "--set scheduler.quantum=30: quantum added ($(keys set.out | tr '\n' ' '))" \
    test "$(keys set.out | tr '\n' ' ')" = "scheduler.mpl scheduler.quantum computer.number "
check "--set scheduler.quantum=30: under '; from --set scheduler.quantum=30'" \
    sh -c "grep -B1 '^quantum = 30' set.out | grep -qx '; from --set scheduler.quantum=30'"

# The default scenario: the expected set from the two files.
"$P" -c "$DEFAULT" --print-config --changed > def.out 2> def.err
check "default scenario: exit 0, stderr empty" sh -c "test $? -eq 0 && test ! -s def.err"
$PY - "$DEFAULT" "$top/configs/reference.ini" > def.want <<'PYEOF'
import configparser, sys
def read(path):
    cp = configparser.ConfigParser(interpolation=None, comment_prefixes=(";", "#"),
                                   inline_comment_prefixes=(" ;",))
    cp.read(path)
    return {"%s.%s" % (s, k): v.strip() for s in cp.sections() for k, v in cp.items(s)}
def same(a, b):
    a, b = a.lower(), b.lower()
    if a == b:
        return True
    try:
        return float(a) == float(b)
    except ValueError:
        pass
    words = {"yes": 1, "true": 1, "on": 1, "no": 0, "false": 0, "off": 0}
    return a in words and b in words and words[a] == words[b]
scen, ref = read(sys.argv[1]), read(sys.argv[2])
order = list(ref)
for k in sorted((k for k in scen if not same(scen[k], ref[k])), key=order.index):
    print(k)
PYEOF
check "default scenario: the keys printed are those of default.ini off reference.ini's defaults ($(tr '\n' ' ' < def.want))" \
    test "$(keys def.out)" = "$(cat def.want)"
check "default scenario: 10 keys differ (system metrics_period trace default_memory comm_rate sync_rate packing mpl number ram)" \
    test "$(wc -l < def.want)" -eq 10
bad_from=""
for k in $(cat def.want); do
    key=${k#*.}
    line=$(grep -n "^$key *=" "$DEFAULT" | head -1 | cut -d: -f1)
    grep -B1 "^$key =" def.out | grep -qx "; from configs/default.ini:$line" ||
        grep -B1 "^$key =" def.out | grep -qx "; from $DEFAULT:$line" || bad_from="$bad_from $key"
done
check "default scenario: each key under '; from configs/default.ini:LINE' with its line${bad_from:+: wrong for$bad_from}" \
    test -z "$bad_from"
check "default scenario: a section header only above changed keys (5: simulation workload process scheduler computer)" \
    test "$(grep '^\[' def.out | tr '\n' ' ')" = "[simulation] [workload] [process] [scheduler] [computer] "

"$P" --changed > alone.out 2> alone.err
check "--changed alone: exit 2, one line on stderr" \
    sh -c "test $? -eq 2 && test \$(wc -l < alone.err) -eq 1 && test ! -s alone.out"
finish
