#!/bin/sh
# tests/test_plugins.sh BUILD: plugins the way a user builds and loads them
# (issue 34 item 7):
#   - make install-dev DESTDIR=T/root PREFIX=/usr puts the public headers
#     under PREFIX/include/pnrsim/ (with their folders) and pnrsim.pc;
#   - every plugin is built OUT OF TREE: its source copied to T, compiled
#     with `cc -shared -fPIC $(pkg-config --cflags pnrsim)` against that
#     prefix only (PKG_CONFIG_PATH and PKG_CONFIG_SYSROOT_DIR; no -I of the
#     source tree), -Wall -Wextra -Werror;
#   - tests/plugins/order_key.c (a queue order and two keys) loads with
#     --plugin and with [plugins] load (relative to the INI's directory),
#     its names and keys in --list-components, its keys validated (file:
#     line and range), set by --set, shown by --print-config with their
#     `; from` lines, recorded (path, SHA-256, names) in config.ini and
#     metrics.json of a run, and the run's config.ini replays;
#   - without a plugin metrics.json has no "plugins" and config.ini no
#     [plugins];
#   - the rule-breakers of tests/plugins/ (wrong API version, no version
#     symbol, no entry point, a duplicate name, a failing init, a bad key
#     declaration), a missing file, a bad key value and [plugin.X] of no
#     plugin: exit 2 before the run, with a message naming the file;
#   - the review's rules: an ops table without a required member, a
#     description with a newline, a registration from an ELF constructor,
#     a call of an internal function, a path with ',' or ';' refused (exit
#     2, the file named); a plugin's own util_now its own; pnrsim exports
#     the public API only; long names aligned and recorded whole; a C++
#     plugin (g++) builds against the installed headers and loads;
#   - pnrsim-sweep: a study whose base loads the plugin varies one of its
#     keys (--list shows the runs);
#   - every examples/plugins/NAME.c builds out of tree and loads
#     (--list-components shows components from it), and
#     examples/plugins/NAME.check.sh, when present, passes: it is run as
#     `sh NAME.check.sh PNRSIM NAME.so` in a directory of its own (its
#     convention: exit 0 when the example's hand-worked numbers hold).
# In the sanitizer build (BUILD ending -asan) the plugins are built with
# -fsanitize=address,undefined too and loaded into the sanitized pnrsim.
TEST_NAME=test_plugins
. "$(dirname "$0")/lib.sh"    # top, build, P, check, skip, skip_all, finish, T
command -v pkg-config >/dev/null || skip_all "pkg-config is not installed"
R=$T/root
make -C "$top" --no-print-directory -s install-dev PREFIX=/usr DESTDIR="$R" > install.log 2>&1
check "make install-dev DESTDIR=... PREFIX=/usr: exit 0" test $? -eq 0
check "the public headers under PREFIX/include/pnrsim/, with their folders" \
    test -s "$R/usr/include/pnrsim/core/registry.h" -a -s "$R/usr/include/pnrsim/core/rng.h"
check "pnrsim.pc in PREFIX/lib/pkgconfig" test -s "$R/usr/lib/pkgconfig/pnrsim.pc"
export PKG_CONFIG_PATH="$R/usr/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$R" PKG_CONFIG_LIBDIR="$R/usr/lib/pkgconfig"
cflags=$(pkg-config --cflags pnrsim)
check "pkg-config --cflags pnrsim: -I of the prefix's include/pnrsim ($cflags)" \
    test "$(echo $cflags)" = "-I$R/usr/include/pnrsim"
check "pkg-config --libs pnrsim: empty (pnrsim provides the symbols)" test -z "$(pkg-config --libs pnrsim)"
san=""
case $(basename "$build") in *asan*) san="-fsanitize=address,undefined -fno-omit-frame-pointer" ;; esac
mkdir -p src so cfg other
# build NAME.c: out of tree, from a copy in T/src, into T/so/NAME.so.
build_plugin() {
    cp "$1" src/ && cc -std=c11 -Wall -Wextra -Werror -shared -fPIC $san $cflags \
        "src/$(basename "$1")" -o "so/$(basename "$1" .c).so" 2>> build.log
}
bad_builds=""
for f in "$top"/tests/plugins/*.c; do build_plugin "$f" || bad_builds="$bad_builds $(basename "$f")"; done
check "the test plugins build out of tree with pkg-config only${bad_builds:+: failed$bad_builds ($(head -3 build.log | tr '\n' ' '))}" \
    test -z "$bad_builds"

# A good plugin: listing.
"$P" --plugin so/order_key.so --list-components > list.txt 2> list.err
check "--plugin order_key.so --list-components: exit 0" test $? -eq 0
check "the listing names TESTORDER as a priority from $T/so/order_key.so" \
    grep -q "^priority  *TESTORDER  *$T/so/order_key.so  *test plugin: a queue order" list.txt
check "the listing has the built-ins, kind by kind (FCFS built in)" grep -q "^priority  *FCFS  *built in" list.txt
check "the listing has the plugin's keys, range and default" \
    grep -q "^key  *plugin.testorder.depth .*integer 1..8; default 2" list.txt
check "a host function called by a plugin (rng_stream_gen, exported by the dynamic list): uses_host.so loads" \
    sh -c "'$P' --plugin so/uses_host.so --list-components | grep -q '^backfill  *USESHOST'"

# [plugins] load, relative to the INI's directory, read before the file's
# other sections (priority = TESTORDER comes first in the file).
cat > cfg/run.ini <<EOF
[scheduler]
priority = TESTORDER
[plugin.testorder]
weight = 3.25
[plugins]
load = ../so/order_key.so
EOF
(cd other && "$P" -c ../cfg/run.ini --set plugin.testorder.depth=4 --print-config > ../print.ini 2> ../print.err)
check "[plugins] load = ../so/order_key.so (from the INI's directory), then --print-config: exit 0 ($(head -c 300 print.err))" \
    test $? -eq 0
check "--print-config: priority = TESTORDER" grep -q "^priority = TESTORDER" print.ini
check "--print-config: [plugin.testorder] weight = 3.25 with '; from ../cfg/run.ini:4'" \
    sh -c "grep -A0 -B1 '^weight = 3.25' print.ini | grep -q '^; from ../cfg/run.ini:4'"
check "--print-config: depth = 4 with '; from --set plugin.testorder.depth=4'" \
    sh -c "grep -B1 '^depth = 4' print.ini | grep -q '^; from --set plugin.testorder.depth=4'"
sha=$(sha256sum so/order_key.so | cut -d' ' -f1)
check "--print-config: [plugins] load = the absolute path, with its SHA-256 and names" \
    sh -c "grep -q '^load = $T/so/order_key.so\$' print.ini && grep -q 'sha256 $sha; registers priority TESTORDER, key plugin.testorder.weight, key plugin.testorder.depth' print.ini"
"$P" -c print.ini --print-config > print2.ini 2>&1
check "the printed configuration reads back to the same (but where each key and plugin came from)" \
    sh -c "grep -v '^; from\|(from ' print.ini > a.txt; grep -v '^; from\|(from ' print2.ini > b.txt; cmp -s a.txt b.txt"

# A run with the plugin loaded (the default priority: the placeholder
# order is not run), recorded; and one without.
"$P" --plugin so/order_key.so -c "$DEFAULT" $SLICE -q -o with > /dev/null 2> with.err
check "a run with --plugin: exit 0 ($(head -c 300 with.err))" test $? -eq 0
check "its metrics.json: plugins[0] with path, sha256 and what it registered" \
    "$PY" -c "
import json,sys
p=json.load(open('with/metrics.json'))['plugins']
sys.exit(not (len(p)==1 and p[0]['path']=='$T/so/order_key.so' and p[0]['sha256']=='$sha'
    and p[0]['registered']==['priority TESTORDER','key plugin.testorder.weight','key plugin.testorder.depth']))"
check "its config.ini: [plugins] load and [plugin.testorder]" \
    sh -c "grep -q '^load = $T/so/order_key.so' with/config.ini && grep -q '^\[plugin.testorder\]' with/config.ini"
"$P" -c with/config.ini -q -o replay > /dev/null 2> replay.err
rc=$?
jsame with/metrics.json replay/metrics.json
check "its config.ini replays (loading the plugin again): exit 0, the same metrics.json ($(head -c 200 replay.err))" \
    test $rc -eq 0 -a $? -eq 0
"$P" -c "$DEFAULT" $SLICE -q -o without > /dev/null 2>&1
check "without a plugin: no \"plugins\" in metrics.json, no [plugins] in config.ini" \
    sh -c "! grep -q plugins without/metrics.json && ! grep -q '^\[plugins\]' without/config.ini"

# Rule-breakers: exit 2, the file named.
refused() { # NAME SO WHY...: --plugin SO and [plugins] load = SO both refused, naming SO
    n=$1 so=$2; shift 2
    "$P" --plugin "$so" --list-components > /dev/null 2> r.err
    rc=$?
    check "$n: --plugin: exit 2, naming the file ($(head -c 300 r.err))" \
        sh -c "test $rc -eq 2 && grep -q -- '--plugin $so: plugin .*$(basename "$so")' r.err && grep -q \"$*\" r.err"
    printf '[simulation]\nsystem = x\n[plugins]\nload = %s\n' "$so" > cfg/r.ini
    "$P" -c cfg/r.ini --print-config > /dev/null 2> r.err
    rc=$?
    check "$n: [plugins] load: exit 2, naming the INI's file:line and the plugin ($(head -c 300 r.err))" \
        sh -c "test $rc -eq 2 && grep -q 'cfg/r.ini:4: plugin .*$(basename "$so")' r.err && grep -q \"$*\" r.err"
}
refused "wrong API version" "$T/so/bad_version.so" "built for pnrsim API version 2, but this pnrsim has API version 1"
refused "no version symbol" "$T/so/no_api.so" "no symbol pnrsim_plugin_api"
refused "no entry point" "$T/so/no_entry.so" "no entry point pnrsim_plugin_init"
refused "a duplicate name" "$T/so/dup_name.so" "priority fcfs: already registered (built in)"
refused "a failing init" "$T/so/init_fails.so" "returned 7"
refused "a bad key declaration" "$T/so/bad_key.so" "key \[plugin.badkey\] alpha: min 0, max 1, default 5"
refused "a missing file" "$T/so/nothing.so" "cannot open: No such file"
echo "not an ELF file" > so/text.so
refused "not a shared object" "$T/so/text.so" "cannot load:"
# Issue 34 review: the ops tables' required members, one-line
# descriptions, registrations outside init, the exported symbols.
refused "an order without .key" "$T/so/miss_order.so" "priority NOKEY: its sched_order_ops has no .key (required)"
refused "an allocation without .choose" "$T/so/miss_alloc.so" "allocation NOCHOOSE: its sched_alloc_ops has no .choose (required)"
refused "a packing without .better or SCHED_PACK_FIRST" "$T/so/miss_pack.so" "packing NOBETTER: its sched_packing_ops has no .better (required unless SCHED_PACK_FIRST)"
refused "a strategy without .manager" "$T/so/miss_strat.so" "strategy NOMANAGER: its pnr_strategy_ops has no .manager (required)"
cc -std=c11 -Wall -Wextra -Werror -shared -fPIC $san $cflags -DMISS_MANAGERS src/miss_strat.c -o so/miss_managers.so 2>> build.log
refused "a strategy broadcasting to its managers without .managers" "$T/so/miss_managers.so" "strategy NOSET: its pnr_strategy_ops has .broadcast PNR_BROADCAST_MANAGERS but no .managers"
refused "a description with a newline" "$T/so/bad_desc.so" "priority TWOLINES: its description has a control character"
refused "a registration from an ELF constructor" "$T/so/ctor.so" "registration refused while it was opened: priority CTORORDER: registered outside the plugin's init"
refused "a call of an internal function (not exported)" "$T/so/calls_internal.so" "cannot load: .*undefined symbol: components_init"
"$P" --plugin so/own_util.so --list-components > list.txt 2> r.err
check "a plugin's own util_now (the name of an internal) is its own, not pnrsim's: own_util.so loads ($(head -c 300 r.err))" \
    grep -q "^priority  *OWNUTIL " list.txt
nm -D --defined-only "$P" 2>/dev/null | awk '{print $NF}' | grep -E '^(util_|cfg_|components_|plugin_|gang_|pnr_strategy_host|run_)' > internal.txt
check "pnrsim exports no internal function (util_, cfg_, components_, plugin_, gang_, run_: $(head -3 internal.txt | tr '\n' ' '))" \
    test ! -s internal.txt
check "pnrsim exports the public API (pnrsim_register, rng_free, sched_alloc_npes, pnr_host_now)" \
    sh -c "nm -D --defined-only '$P' | awk '{print \$NF}' | grep -qx pnrsim_register && nm -D --defined-only '$P' | grep -q ' rng_free\$' && nm -D --defined-only '$P' | grep -q ' sched_alloc_npes\$' && nm -D --defined-only '$P' | grep -q ' pnr_host_now\$'"
check "the host-only registry functions are not installed (core/registry_host.h)" \
    sh -c "test ! -e '$R/usr/include/pnrsim/core/registry_host.h' && ! grep -q 'pnrsim_rollback\|pnrsim_set_origin\|pnrsim_first_error\|pnrsim_mark_get\|pnrsim_registry_get' '$R/usr/include/pnrsim/core/registry.h'"

# Plugin paths config.ini's [plugins] load could not record: refused.
cp so/order_key.so "so/a,b.so" && cp so/order_key.so "so/c ;d.so"
"$P" --plugin "so/a,b.so" --list-components > /dev/null 2> r.err
rc=$?
check "a plugin path with ',': exit 2, said why ($(head -c 300 r.err))" \
    sh -c "test $rc -eq 2 && grep -q \"plugin $T/so/a,b.so: its path has a ','\" r.err"
"$P" --plugin "so/c ;d.so" --list-components > /dev/null 2> r.err
rc=$?
check "a plugin path with ' ;': exit 2, said why ($(head -c 300 r.err))" \
    sh -c "test $rc -eq 2 && grep -q \"its path has a ';'\" r.err"

# Long names: the listing's columns are aligned, nothing recorded is cut.
"$P" --plugin so/long_names.so --plugin so/order_key.so --list-components > list.txt 2> r.err
p=$(head -1 list.txt | awk '{print index($0, "DESCRIPTION")}')
check "--list-components with 31-character names and a long key: every row's description in one column ($(head -c 300 r.err))" \
    awk -v p="$p" 'substr($0, p - 2, 2) != "  " || substr($0, p, 1) == " " { bad = 1 } END { exit bad || NR < 30 }' list.txt
"$P" --plugin so/long_names.so -c "$DEFAULT" $SLICE -q -o long > /dev/null 2> r.err
check "13 long names and a long key: config.ini records all 14 ($(head -c 300 r.err))" \
    sh -c "grep '^; .*long_names.so' long/config.ini | grep -q 'LONG_ORDER_NAME_OF_31_CHARS_012, key plugin.a_section_name_of_31_characters.a_key_name_of_31_characters_xyz\$'"
check "13 long names and a long key: metrics.json records all 14" \
    "$PY" -c "
import json,sys
p=json.load(open('long/metrics.json'))['plugins']
sys.exit(not (len(p[0]['registered'])==14 and p[0]['registered'][12]=='priority LONG_ORDER_NAME_OF_31_CHARS_012'))"

# A C++ plugin against the installed headers (extern "C").
if command -v g++ > /dev/null; then
    cp "$top/tests/plugins/cxx_order.cpp" src/
    g++ -std=c++11 -Wall -Wextra -Werror -shared -fPIC $san $cflags src/cxx_order.cpp -o so/cxx_order.so 2> cxx.log
    check "a C++ plugin builds with g++ against the installed headers ($(head -c 300 cxx.log))" test -s so/cxx_order.so
    "$P" --plugin so/cxx_order.so --list-components > list.txt 2> r.err
    check "the C++ plugin loads: CXXORDER listed ($(head -c 300 r.err))" grep -q "^priority  *CXXORDER " list.txt
else
    skip "g++ is not installed: no C++ plugin test"
fi

"$P" --plugin so/init_fails.so --plugin so/order_key.so --list-components > /dev/null 2>&1
check "a refused plugin stops pnrsim before the next one (exit 2)" test $? -eq 2
printf '[plugin.testorder]\nweight = 11\n' > cfg/bad.ini
"$P" --plugin so/order_key.so -c cfg/bad.ini --print-config > /dev/null 2> r.err
rc=$?
check "a bad key value: exit 2, file:line, key and range ($(head -c 300 r.err))" \
    sh -c "test $rc -eq 2 && grep -q 'cfg/bad.ini:2: \[plugin.testorder\] weight = \"11\": out of range: expected a number >= 0 and <= 10' r.err"
printf '[plugin.testorder]\ndepth = 2.5\n' > cfg/bad.ini
"$P" --plugin so/order_key.so -c cfg/bad.ini --print-config > /dev/null 2> r.err
rc=$?
check "an integer key given 2.5: exit 2, file:line ($(head -c 300 r.err))" \
    sh -c "test $rc -eq 2 && grep -q 'cfg/bad.ini:2: .*depth = \"2.5\": not a whole number' r.err"
printf '[plugin.nope]\nx = 1\n' > cfg/bad.ini
"$P" -c cfg/bad.ini --print-config > /dev/null 2> r.err
rc=$?
check "[plugin.nope] of no loaded plugin: exit 2, said so ($(head -c 300 r.err))" \
    sh -c "test $rc -eq 2 && grep -q 'cfg/bad.ini:1: unknown section \[plugin.nope\]: no plugin loaded declares keys in it' r.err"
"$P" -c "$DEFAULT" --set plugins.load=so/order_key.so --print-config > /dev/null 2> r.err
rc=$?
check "--set plugins.load=...: exit 2, pointing to --plugin" sh -c "test $rc -eq 2 && grep -q 'give --plugin' r.err"

# pnrsim-sweep: the base's [plugins], a plugin key in [vary].
if [ -x "$SWEEP" ]; then
    printf '[plugins]\nload = ../so/order_key.so\n[workload]\ntrace = %s\n' "$top/traces/hpc2n-seth-first3171.swf" > cfg/base.ini
    printf '[study]\nname = plug\nbase = base.ini\n[vary]\nplugin.testorder.weight = 1, 2.5\n' > cfg/plug.ini
    "$SWEEP" --emit-joblist jobs.txt -o sweep cfg/plug.ini > /dev/null 2> sweep.err
    rc=$?
    check "pnrsim-sweep: [vary] plugin.testorder.weight = 1, 2.5 of the base's plugin: checked, 2 runs ($(head -c 300 sweep.err))" \
        sh -c "test $rc -eq 0 && grep -q 'plugin.testorder.weight=2.5' jobs.txt && test \$(wc -l < jobs.txt) -eq 2"
    printf '[study]\nname = plug\nbase = base.ini\n[vary]\nplugin.testorder.weight = 1, 20\n' > cfg/plug.ini
    "$SWEEP" --emit-joblist jobs2.txt -o sweep2 cfg/plug.ini > /dev/null 2> sweep.err
    rc=$?
    check "pnrsim-sweep: a value out of the plugin key's range: exit 2 ($(head -c 300 sweep.err))" \
        sh -c "test $rc -eq 2 && grep -q 'out of range' sweep.err"
else
    skip "pnrsim-sweep not built"
fi

# The examples: out of tree, loaded, their own checks.
base_n=$("$P" --list-components | wc -l)
for f in "$top"/examples/plugins/*.c; do
    [ -f "$f" ] || continue
    n=$(basename "$f" .c)
    build_plugin "$f"
    check "example $n builds out of tree with pkg-config only" test -s "so/$n.so"
    "$P" --plugin "so/$n.so" --list-components > ex.txt 2> ex.err
    check "example $n loads: --list-components shows components from it ($(head -c 300 ex.err))" \
        sh -c "test \$(grep -c ' $T/so/$n.so ' ex.txt) -ge 1"
    if [ -f "$top/examples/plugins/$n.check.sh" ]; then
        mkdir -p "check-$n"
        (cd "check-$n" && sh "$top/examples/plugins/$n.check.sh" "$P" "$T/so/$n.so") > "check-$n.log" 2>&1
        check "examples/plugins/$n.check.sh passes ($(tail -3 "check-$n.log" | tr '\n' ' ' | cut -c1-300))" test $? -eq 0
    fi
done
check "the built-ins' listing ($base_n lines) is there without plugins" test "$base_n" -gt 20
finish
