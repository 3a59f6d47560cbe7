#!/bin/sh
# tests/test_install.sh BUILD: make install DESTDIR=T/root PREFIX=/usr puts
# every file the man pages and README name as installed where they say:
#   - the programs (pnrsim, pnrsim-sweep, pnrsim-plot) in PREFIX/bin and
#     the four manual pages;
#   - every docs/NAME.md that a man page or README names, in
#     PREFIX/share/doc/pnrsim, and every picture those docs show (![..](X.png));
#   - every configs/studies/NAME.ini a man page or README names, and all
#     the bundled studies, in PREFIX/share/pnrsim/configs/studies, with
#     their base and trace (relative to the study) resolving there;
#   - configs/reference.ini and default.ini in PREFIX/share/pnrsim/configs
#     (pnrsim.ini(5) says so);
#   - the installed pnrsim-sweep (PATH = T/root/usr/bin first) runs a tiny
#     study written beside the bundled ones (base = ../default.ini, trace =
#     ../../traces/...) with the installed pnrsim, exit 0, nothing on
#     stderr, and draws its plot with the installed pnrsim-plot, which
#     finds the installed companion relative to itself (skipped with the
#     reason when /usr/bin/python3 lacks pandas/matplotlib).
# Only for the plain build (the sanitizer build is not for installing).
TEST_NAME=test_install
. "$(dirname "$0")/lib.sh"    # top, build, P, check, skip, skip_all, finish, T
[ "$(basename "$build")" = build ] || skip_all "make install is checked for the plain build only"
R=$T/root
make -C "$top" --no-print-directory -s install BUILD="$build" PREFIX=/usr DESTDIR="$R" > install.log 2>&1
check "make install DESTDIR=... PREFIX=/usr: exit 0$(tail -2 install.log | tr '\n' ' ' | cut -c1-200)" test $? -eq 0
n=0
for f in bin/pnrsim bin/pnrsim-sweep bin/pnrsim-plot; do [ -x "$R/usr/$f" ] && n=$((n + 1)); done
check "the 3 programs in PREFIX/bin" test $n -eq 3
n=0
for f in man1/pnrsim.1 man1/pnrsim-sweep.1 man1/pnrsim-plot.1 man5/pnrsim.ini.5; do [ -s "$R/usr/share/man/$f" ] && n=$((n + 1)); done
check "the 4 manual pages" test $n -eq 4
# Names the man pages and README give (docs/NAME.md, configs/studies/NAME.ini,
# and STUDIES.md named alone in pnrsim-sweep(1)).
names=$(cat "$top"/man/*.1 "$build"/man/pnrsim.ini.5 "$top/README.md" | sed 's/\\-/-/g')
docs=$(echo "$names" | grep -o 'docs/[A-Za-z0-9_-]*\.md' | sort -u)
missing=""
for d in $docs STUDIES.md; do [ -s "$R/usr/share/doc/pnrsim/$(basename "$d")" ] || missing="$missing $d"; done
check "every doc named ($(echo $docs | wc -w) + STUDIES.md) in PREFIX/share/doc/pnrsim${missing:+: missing$missing}" test -z "$missing"
check "README.md in PREFIX/share/doc/pnrsim" test -s "$R/usr/share/doc/pnrsim/README.md"
pics=$(grep -ho '!\[[^]]*\]([A-Za-z0-9_./-]*\.png)' "$top"/docs/*.md | sed 's/.*(\(.*\))/\1/' | sort -u)
missing=""
for p in $pics; do [ -s "$R/usr/share/doc/pnrsim/$(basename "$p")" ] || missing="$missing $p"; done
check "every picture the docs show ($(echo $pics | wc -w)) installed beside them${missing:+: missing$missing}" \
    test -n "$pics" -a -z "$missing"
studies=$(echo "$names" | grep -o 'configs/studies/[A-Za-z0-9_-]*\.ini' | sort -u)
missing=""
for f in $studies "$top"/configs/studies/*.ini; do
    [ -s "$R/usr/share/pnrsim/configs/studies/$(basename "$f")" ] || missing="$missing $(basename "$f")"
done
check "the bundled studies (and the $(echo $studies | wc -w) named) in PREFIX/share/pnrsim/configs/studies${missing:+: missing$missing}" \
    test -z "$missing"
check "configs/reference.ini and default.ini in PREFIX/share/pnrsim/configs" \
    test -s "$R/usr/share/pnrsim/configs/reference.ini" -a -s "$R/usr/share/pnrsim/configs/default.ini"
# Each installed study's base and trace, relative to the study, exist.
bad_refs=""
for f in "$R"/usr/share/pnrsim/configs/studies/*.ini; do
    for k in base trace; do
        v=$(sed -n "s/^$k *= *\([^ ;]*\).*/\1/p" "$f" | head -1)
        [ -z "$v" ] || [ -e "$(dirname "$f")/$v" ] || bad_refs="$bad_refs $(basename "$f"):$k"
    done
done
check "installed studies: base and trace resolve${bad_refs:+: not:$bad_refs}" test -z "$bad_refs"

# The installed sweep on a tiny study beside the bundled ones.
S=$R/usr/share/pnrsim/configs/studies/tiny-test.ini
cat > "$S" <<EOT
[study]
name = tiny
base = ../default.ini
trace = ../../traces/lanl-cm5-techreport-sample10.swf
replications = 2
metrics = total_time, response_time_mean
[set]
workload.max_jobs = 5
[vary]
netram.strategy = central, client
[plot response]
metric = response_time_mean
x = netram.strategy
EOT
PATH="$R/usr/bin:/usr/bin:/bin" pnrsim-sweep -q -j 2 -o out "$S" > sweep.out 2> sweep.err
rc=$?
check "installed pnrsim-sweep (PATH=DESTDIR/usr/bin): exit 0, 4 runs ok" \
    test $rc -eq 0 -a "$(grep -c ',ok,' out/results.csv 2> /dev/null)" -eq 4
if /usr/bin/python3 -c 'import pandas, matplotlib' 2> /dev/null; then
    # The installed wrapper finds DESTDIR's python/ relative to itself.
    check "installed pnrsim-plot study --help: the installed companion" \
        sh -c "PATH='$R/usr/bin:/usr/bin:/bin' pnrsim-plot study --help 2>&1 | grep -q '^usage: pnrsim-plot study'"
    check "installed: the plot drawn by the installed pnrsim-plot, nothing on stderr$(head -c 200 sweep.err)" \
        test -s out/plots/response.png -a -s out/plots/response.svg -a ! -s sweep.err
else
    skip "/usr/bin/python3 cannot import pandas and matplotlib (tools/deps.sh plot installs them): plots not checked"
fi
finish
