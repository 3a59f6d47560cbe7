#!/bin/sh
# tests/test_sweep_plugins.sh BUILD: plugins loaded by a study file's own
# [plugins] section (issue 34, the review of pnrsim-sweep):
#   - the plugins are built out of tree as a user builds them (make
#     install-dev into T/root, cc -shared -fPIC $(pkg-config --cflags
#     pnrsim)), as tests/test_plugins.sh does;
#   - a study whose base loads nothing, with [plugins] load = ../so/X.so
#     (relative to the study file) and [set]/[vary] naming the plugin's
#     keys (its queue order is a placeholder, not run): checked, run (exit 0), and every run's config.ini
#     and metrics.json record the plugin with the SHA-256 of the file (as
#     sha256sum computes it); the job list gives each run --plugin PATH;
#   - configs/studies/p2c.ini in a reduced form (its own lines, with the
#     paths made absolute, 1 window, 1 seed, 20 jobs; [vary] names the
#     plugin's strategy P2C, [set] its key choices): runs, exit 0, 3 runs
#     each recording p2c.so and its SHA-256; the bundled file itself
#     emits its 45 runs when build/examples/plugins/p2c.so is built;
#   - resuming: the same sweep again runs nothing (skipped = all); after the
#     .so is rebuilt differently (another -O level: same registered names,
#     other bytes), the fingerprint differs and the sweep into the same
#     directory refuses (exit 2, naming plugins) instead of skipping the old
#     runs, and the old runs are untouched; into a new directory it runs
#     them all and the runs record the new SHA-256;
#   - bad input: a missing plugin file (FILE:LINE, exit 2), an unknown key
#     in [plugins], [set] plugins.load (pointing to the study's [plugins]
#     section), [plugins] twice: exit 2 with FILE:LINE.
TEST_NAME=test_sweep_plugins
. "$(dirname "$0")/lib.sh"    # top, build, P, SWEEP, check, skip, skip_all, finish, T
need "$SWEEP"
command -v pkg-config >/dev/null || skip_all "pkg-config is not installed"
command -v sha256sum >/dev/null || skip_all "sha256sum is not installed"
R=$T/root
make -C "$top" --no-print-directory -s install-dev PREFIX=/usr DESTDIR="$R" > install.log 2>&1
check "make install-dev DESTDIR=... PREFIX=/usr: exit 0" test $? -eq 0
export PKG_CONFIG_PATH="$R/usr/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$R" PKG_CONFIG_LIBDIR="$R/usr/lib/pkgconfig"
cflags=$(pkg-config --cflags pnrsim)
san=""
case $(basename "$build") in *asan*) san="-fsanitize=address,undefined -fno-omit-frame-pointer" ;; esac
mkdir -p src so cfg p2c bad
# build SRC.c OUT.so OPT: out of tree, from a copy in T/src.
build_plugin() {
    cp "$1" src/ && cc -std=c11 -Wall -Wextra -Werror -shared -fPIC $san $3 $cflags \
        "src/$(basename "$1")" -o "$2" 2>> build.log
}
build_plugin "$top/tests/plugins/order_key.c" so/order_key-O0.so -O0 &&
    build_plugin "$top/tests/plugins/order_key.c" so/order_key-O2.so -O2 &&
    build_plugin "$top/examples/plugins/p2c.c" so/p2c-O0.so -O0 &&
    build_plugin "$top/examples/plugins/p2c.c" so/p2c-O2.so -O2
check "order_key.c and p2c.c build out of tree at -O0 and -O2 ($(head -3 build.log | tr '\n' ' '))" test $? -eq 0
check "the two builds of each differ (so a copy of one over the other is a rebuilt .so)" \
    sh -c '! cmp -s so/order_key-O0.so so/order_key-O2.so && ! cmp -s so/p2c-O0.so so/p2c-O2.so'
sha() { sha256sum "$1" | cut -d' ' -f1; }
# every_run DIR PATTERN: every run's config.ini under DIR/runs has a line
# matching PATTERN (grep -E), and there is at least one run.
every_run() {
    er_n=0
    for er_f in $(find "$1/runs" -name config.ini); do
        grep -Eq "$2" "$er_f" || return 1
        er_n=$((er_n + 1))
    done
    test "$er_n" -gt 0
}
# runs_in DIR: the number of finished runs (metrics.json) under DIR/runs.
runs_in() { find "$1/runs" -name metrics.json ! -path "*.part/*" | wc -l | tr -d ' '; }

# A study of its own: the base loads no plugin, the study file does.
cp so/order_key-O0.so so/order_key.so
printf '[workload]\ntrace = %s\n' "$top/traces/hpc2n-seth-first3171.swf" > cfg/base.ini
cat > cfg/plug.ini <<EOF
[study]
name = plug
base = base.ini
[plugins]
load = ../so/order_key.so
[set]
workload.submit_min = 3900000
workload.max_jobs = 100
simulation.metrics_period = 3600
plugin.testorder.depth = 3
[vary]
plugin.testorder.weight = 1, 2.5
EOF
s1=$(sha so/order_key.so)
"$SWEEP" --emit-joblist jobs.txt -o sw-emit cfg/plug.ini > /dev/null 2> emit.err
rc=$?
check "--emit-joblist of a study with [plugins] load: exit 0, 2 runs, each with --plugin $T/so/order_key.so ($(head -c 300 emit.err))" \
    sh -c "test $rc -eq 0 && test \$(wc -l < jobs.txt) -eq 2 && test \$(grep -c -- '--plugin $T/so/order_key.so ' jobs.txt) -eq 2"
"$SWEEP" -j 2 -q -o sw cfg/plug.ini > sw.out 2> sw.err
rc=$?
check "the sweep of that study: exit 0 ($(head -c 300 sw.err))" test $rc -eq 0
check "2 runs finished" test "$(runs_in sw)" -eq 2
check "every run's config.ini records the plugin with its SHA-256 (from --plugin)" \
    every_run sw "^; $T/so/order_key.so \\(from --plugin $T/so/order_key.so\\): sha256 $s1;"
check "every run's config.ini loads it again ([plugins] load = its path)" \
    every_run sw "^load = $T/so/order_key.so\$"
check "every run's config.ini has the plugin key of the study's [set] (depth = 3)" \
    every_run sw '^depth = 3$'
check "the runs' config.ini have the [vary] plugin key's values (weight = 1 and 2.5)" \
    sh -c "grep -qx 'weight = 1' 'sw/runs/plugin.testorder.weight=1/seed-1/config.ini' && grep -qx 'weight = 2.5' 'sw/runs/plugin.testorder.weight=2.5/seed-1/config.ini'"
check "every run's metrics.json records the plugin's SHA-256" \
    test "$(find sw/runs -name metrics.json | xargs grep -l "\"sha256\": \"$s1\"" | wc -l)" -eq 2
check "OUT/fingerprint records order_key.so and its SHA-256" \
    grep -qx "plugin order_key.so $s1" sw/fingerprint

# Resuming with the same .so: nothing runs.
"$SWEEP" -j 2 -o sw cfg/plug.ini > sw2.out 2> sw2.err
rc=$?
check "the same sweep again: exit 0, ran 0, skipped 2 ($(tail -c 300 sw2.err))" \
    sh -c "test $rc -eq 0 && grep -q 'ran 0, skipped 2' sw2.err"

# The .so rebuilt: same names, other bytes.
find sw/runs -name config.ini -exec cksum {} + > before.txt
cp so/order_key-O2.so so/order_key.so
s2=$(sha so/order_key.so)
check "the rebuilt .so has another SHA-256" test "$s1" != "$s2"
"$SWEEP" -j 2 -o sw cfg/plug.ini > sw3.out 2> sw3.err
rc=$?
check "after the rebuild, the sweep into the same directory refuses the old runs: exit 2, naming plugins ($(head -c 300 sw3.err))" \
    sh -c "test $rc -eq 2 && grep -q 'plugins' sw3.err && ! grep -q 'skipped 2' sw3.err"
find sw/runs -name config.ini -exec cksum {} + > after.txt
check "the old runs are untouched (their config.ini still name the old SHA-256)" \
    sh -c "cmp -s before.txt after.txt && ! grep -rq '$s2' sw/runs"
"$SWEEP" -j 2 -o sw-new cfg/plug.ini > sw4.out 2> sw4.err
rc=$?
check "into a new directory: exit 0, ran 2, skipped 0 ($(tail -c 300 sw4.err))" \
    sh -c "test $rc -eq 0 && grep -q 'ran 2, skipped 0' sw4.err"
check "those runs record the rebuilt .so's SHA-256" \
    every_run sw-new "^; $T/so/order_key.so \\(from --plugin [^)]*\\): sha256 $s2;"
check "the new fingerprint names the new SHA-256" grep -qx "plugin order_key.so $s2" sw-new/fingerprint

# configs/studies/p2c.ini, reduced: its own lines with the paths made
# absolute (the plugin: the out-of-tree build), 1 window, 1 seed, 20 jobs.
cp so/p2c-O0.so so/p2c.so
sed -e "s|^base .*|base = $top/configs/default.ini|" \
    -e "s|^trace .*|trace = $top/traces/hpc2n-seth-first3171.swf|" \
    -e "s|^load .*|load = ../so/p2c.so|" \
    -e "s|^replications .*|replications = 1|" \
    -e "s|^windows .*|windows = 1|" \
    -e "s|^workload.max_jobs .*|workload.max_jobs = 20|" \
    "$top/configs/studies/p2c.ini" > p2c/p2c.ini
check "the reduced p2c.ini keeps the bundled file's [plugins] load and plugin key" \
    sh -c "grep -qx 'load = ../so/p2c.so' p2c/p2c.ini && grep -q '^plugin.p2c.choices' p2c/p2c.ini && grep -q '^netram.strategy = central, backbone, p2c' p2c/p2c.ini"
"$SWEEP" -j 2 --no-plots -o p2c-out p2c/p2c.ini > p2c.out 2> p2c.err
rc=$?
check "the reduced p2c study runs: exit 0, ran 3 ($(tail -c 300 p2c.err))" \
    sh -c "test $rc -eq 0 && grep -q 'ran 3, skipped 0' p2c.err"
check "its 3 runs' config.ini record p2c.so with its SHA-256" \
    sh -c "test $(runs_in p2c-out) -eq 3" && \
    every_run p2c-out "^; $T/so/p2c.so \\(from --plugin [^)]*\\): sha256 $(sha so/p2c.so);"
check "the p2c run's config.ini has strategy P2C and choices from [set]" \
    sh -c "grep -qi '^strategy = p2c' p2c-out/runs/netram.strategy=p2c/window-0/seed-1/config.ini && grep -q '^choices = 2' p2c-out/runs/netram.strategy=p2c/window-0/seed-1/config.ini"
cp so/p2c-O2.so so/p2c.so
"$SWEEP" -j 2 --no-plots -o p2c-out p2c/p2c.ini > p2c2.out 2> p2c2.err
rc=$?
check "p2c.so rebuilt: the same sweep refuses the old runs (exit 2) ($(head -c 300 p2c2.err))" \
    sh -c "test $rc -eq 2 && grep -q plugins p2c2.err"
if [ -f "$top/build/examples/plugins/p2c.so" ]; then
    "$SWEEP" --emit-joblist bundled.txt -o bundled "$top/configs/studies/p2c.ini" > /dev/null 2> bundled.err
    rc=$?
    check "the bundled configs/studies/p2c.ini emits: exit 0, 45 runs with --plugin ($(head -c 300 bundled.err))" \
        sh -c "test $rc -eq 0 && test \$(wc -l < bundled.txt) -eq 45 && test \$(grep -c -- '--plugin [^ ]*/build/examples/plugins/p2c.so ' bundled.txt) -eq 45"
else
    skip "build/examples/plugins/p2c.so not built (make examples): the bundled p2c.ini not emitted"
fi

# Bad input: FILE:LINE, exit 2.
head="[study]
base = $T/cfg/base.ini"
printf '%s\n[plugins]\nload = nope.so\n' "$head" > bad/missing.ini
printf '%s\n[plugins]\nfiles = ../so/p2c.so\n' "$head" > bad/key.ini
printf '%s\n[set]\nplugins.load = ../so/p2c.so\n' "$head" > bad/set.ini
printf '%s\n[plugins]\nload = ../so/p2c.so\n[plugins]\nload = ../so/p2c.so\n' "$head" > bad/twice.ini
printf '%s\n[plugins]\nload = ../so/p2c.so,\n' "$head" > bad/empty.ini
bad_case() { # bad_case NAME PATTERN: exit 2 and the message matches
    "$SWEEP" --emit-joblist bad.txt -o bad/out "bad/$1.ini" > /dev/null 2> "bad/$1.err"
    bc_rc=$?
    check "$1: exit 2, '$2' ($(head -c 300 "bad/$1.err"))" \
        sh -c "test $bc_rc -eq 2 && grep -q \"$2\" bad/$1.err"
}
bad_case missing "bad/missing.ini:4: load: .*nope.so: cannot open"
bad_case key "bad/key.ini:4: files: unknown key in \[plugins\]"
bad_case set "bad/set.ini:4: plugins.load: .*own \[plugins\] section"
bad_case twice "bad/twice.ini:5: plugins: section given twice"
bad_case empty "bad/empty.ini:4: load: empty item"
check "[set] plugins.load does not point to a --plugin option pnrsim-sweep lacks" \
    sh -c "! grep -q -- '--plugin' bad/set.err"
finish
