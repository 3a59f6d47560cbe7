#!/bin/sh
# tests/test_man.sh BUILD: the manual pages. Each of pnrsim(1),
# pnrsim-sweep(1), pnrsim-plot(1) and pnrsim.ini(5) (generated from
# configs/reference.ini) renders with groff -man -Tutf8 -ww without a
# warning; every SECTION and KEY that `pnrsim --print-config` prints appears
# in pnrsim.ini(5) (so a key added to the program but not to reference.ini
# fails here); every option of `pnrsim --help` is in pnrsim(1); make install
# puts the pages under PREFIX/share/man. Skips rendering (with a message)
# when groff is missing. Prints "N passed, N failed" last.
TEST_NAME=test_man
. "$(dirname "$0")/lib.sh"    # top, build, P, check, skip, finish, T
M=$build/man
for p in pnrsim.1 pnrsim-sweep.1 pnrsim-plot.1 pnrsim.ini.5; do
    if [ ! -s "$M/$p" ]; then bad "$p built in $M"; continue; fi
    if command -v groff >/dev/null 2>&1; then
        groff -man -Tutf8 -ww "$M/$p" > "$T/$p.txt" 2> "$T/$p.err"
        rc=$?   # before the message's $(...), which sets $? under bash
        check "$p renders without warnings$( [ -s "$T/$p.err" ] && printf ': %s' "$(head -2 "$T/$p.err" | tr '\n' ' ')")" \
            test $rc -eq 0 -a ! -s "$T/$p.err" -a -s "$T/$p.txt"
    else
        skip "$p: groff not installed (Debian groff-base)"
    fi
done
# Every section and key of --print-config in pnrsim.ini(5), as ".SS [section]"
# and "\fBkey\fR =" under it.
"$build/pnrsim" --print-config > "$T/cfg.ini"
missing=$(awk '
    FNR == NR { if ($0 ~ /^\.SS \[/) { sec = $2; gsub(/[\[\]]/, "", sec) }
                else if ($0 ~ /^\\fB[A-Za-z_]+\\fR =/) { k = $0; sub(/^\\fB/, "", k); sub(/\\fR.*/, "", k); have[sec "." k] = 1 }
                next }
    /^\[/ { sec = $0; gsub(/[\[\] ]/, "", sec); next }
    /^[A-Za-z_]+ *=/ { k = $0; sub(/ *=.*/, "", k); n++; if (!((sec "." k) in have)) printf "%s.%s ", sec, k }
    END { if (n < 40) printf "(only %d keys read) ", n }
' "$M/pnrsim.ini.5" "$T/cfg.ini")
check "every key of --print-config is in pnrsim.ini(5)${missing:+: missing $missing}" test -z "$missing"
# Every long option of --help in pnrsim(1) (written \-\-name in roff).
"$build/pnrsim" --help > "$T/help"
missing=""
for o in $(grep -o -- '--[a-z][a-z-]*' "$T/help" | sort -u); do
    r=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
    grep -q -- "$r" "$M/pnrsim.1" || missing="$missing $o"
done
check "every option of pnrsim --help is in pnrsim(1)${missing:+: missing$missing}" test -z "$missing"
# make install puts the pages where man finds them (from the plain build
# only: the sanitizer build's objects are not for installing).
if [ "$(basename "$build")" != build ]; then
    skip "make install check for $build (done for the plain build)"
elif make -C "$top" --no-print-directory -s install BUILD="$build" PREFIX=/usr DESTDIR="$T/root" > "$T/install.log" 2>&1; then
    n=0
    for p in man1/pnrsim.1 man1/pnrsim-sweep.1 man1/pnrsim-plot.1 man5/pnrsim.ini.5; do
        [ -s "$T/root/usr/share/man/$p" ] && n=$((n + 1))
    done
    check "make install: the 4 pages under PREFIX/share/man and pnrsim-plot in PREFIX/bin" \
        test $n -eq 4 -a -x "$T/root/usr/bin/pnrsim-plot"
    # The installed wrapper looks for ../share/pnrsim/python beside itself
    # first, then PREFIX/share/pnrsim/python (PREFIX without DESTDIR),
    # where the Python companion is; run from DESTDIR it finds DESTDIR's.
    check "make install: python/pnrsim under PREFIX/share/pnrsim/python, the wrapper points there" \
        sh -c "test -s '$T/root/usr/share/pnrsim/python/pnrsim/__main__.py' && grep -q \"^pydir='/usr/share/pnrsim/python'\" '$T/root/usr/bin/pnrsim-plot' && grep -q \"'../share/pnrsim/python'/pnrsim/__init__.py\" '$T/root/usr/bin/pnrsim-plot'"
else
    bad "make install DESTDIR=...: $(tail -2 "$T/install.log" | tr '\n' ' ')"
fi
finish
