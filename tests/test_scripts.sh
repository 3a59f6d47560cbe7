#!/bin/sh
# test_scripts: every variable a shell test expands is set in that script
# or in lib.sh (or has a default, ${X:-...}: an override from the
# environment). Issue 32: test_cli_traces.sh used $SLICE, set only in
# test_cli.sh, so its "short" runs were the whole 59-day demo. A static
# check of the text: single-quoted text (awk programs, sh -c '...'), \$ and
# comments do not expand and are skipped. The checker is first tried on
# two small scripts whose answer is known.
TEST_NAME=test_scripts
. "$(dirname "$0")/lib.sh"

cat > undef.py <<'EOF'
import re, sys
# Variables the shell or the environment provides.
GIVEN = set("HOME PATH PWD TMPDIR KEEP IFS OPTARG OPTIND LINENO USER SHELL LANG LC_ALL".split())

def expanding(text):
    """The text of a script that the shell expands: comments, single-quoted
    strings, backslash-escaped characters and quoted here-documents out; in
    other here-documents quotes and # are plain characters."""
    keep, end, quoted = [], None, False
    for ln in text.split("\n"):
        if end is not None:
            if ln.strip() == end:
                end = None
            elif not quoted:
                keep.append(re.sub(r"['\"#]", " ", ln))
            continue
        keep.append(ln)
        m = re.search(r"<<-?\s*(['\"]?)(\w+)\1", ln)
        if m:
            end, quoted = m.group(2), m.group(1) != ""
    text = "\n".join(keep)
    out, i, n, dq = [], 0, len(text), False
    while i < n:
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if not dq and c == "'":
            j = text.find("'", i + 1)
            i = n if j < 0 else j + 1
            continue
        if c == '"':
            dq = not dq
        elif not dq and c == "#" and (i == 0 or text[i - 1] in " \t\n;(|&"):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        out.append(c)
        i += 1
    return "".join(out)

def defined(text):
    d = set(re.findall(r"(?:^|[\s;&|(`])(?:export\s+|local\s+)?([A-Za-z_]\w*)=", text))
    d |= set(re.findall(r"\bfor\s+([A-Za-z_]\w*)\s+in\b", text))
    for m in re.findall(r"\bread\s+(?:-r\s+)?([A-Za-z_][\w ]*)", text):
        d |= set(m.split())
    d |= set(re.findall(r"\bgetopts\s+\S+\s+([A-Za-z_]\w*)", text))
    d |= set(re.findall(r"\$\{([A-Za-z_]\w*):?[-=]", text))
    return d

def used(text):
    return set(re.findall(r"\$\{?([A-Za-z_]\w*)", text))

lib = expanding(open(sys.argv[1]).read())
base = defined(lib) | GIVEN
bad = 0
for path in sys.argv[2:]:
    t = expanding(open(path).read())
    miss = sorted(used(t) - defined(t) - base)
    if miss:
        print("%s: %s" % (path, " ".join(miss)))
        bad = 1
sys.exit(bad)
EOF

# The checker on scripts whose answer is known: one expands $SLICE without
# setting it (as test_cli_traces.sh did); one sets or defaults everything
# it expands, and has $X only in comments, single quotes, a quoted
# here-document and \$X.
cat > leak.sh <<'EOF'
. lib.sh
"$P" -c "$DEFAULT" $SLICE_OF_ANOTHER_SCRIPT -o x
EOF
cat > clean.sh <<'EOF'
. lib.sh
# $X in a comment
a=1; for b in 1 2; do echo "$a $b \$X"; done
awk '{ print $X }' /dev/null; W=${WAIT:-3}; echo "$W" "${c:-none}"
cat <<'END'
$X in a quoted here-document
END
cat <<END
it's "$a" # in a here-document: a quote and a # are plain characters, so $W counts
END
EOF
"$PY" undef.py "$top/tests/lib.sh" leak.sh > leak.out
check "the checker finds \$SLICE_OF_ANOTHER_SCRIPT expanded but never set" \
    sh -c "test $? -eq 1 && grep -qx 'leak.sh: SLICE_OF_ANOTHER_SCRIPT' leak.out"
"$PY" undef.py "$top/tests/lib.sh" clean.sh > clean.out
check "the checker passes a script that sets or defaults what it expands" \
    sh -c "test $? -eq 0 && test ! -s clean.out"
# Every test script of the project (the fuzz runner, check_slurm and
# check_valgrind too).
"$PY" undef.py "$top/tests/lib.sh" "$top"/tests/test_*.sh "$top"/tests/check_*.sh "$top"/tests/fuzz/*.sh > all.out
check "every tests/*.sh sets what it expands: $(tr '\n' ' ' < all.out | cut -c1-300)" test ! -s all.out
finish
