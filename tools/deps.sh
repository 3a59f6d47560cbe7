#!/bin/sh
# tools/deps.sh: make sure the libraries pnrsim builds with are present.
#
# Checks with pkg-config for gsl, inih, check, zlib and jansson. When any is missing it
# installs the Debian packages that provide them: directly when running as
# root, through sudo when that works without a password; otherwise it prints
# the exact command to run and exits 2. With "bench" as first argument it also
# makes sure the SimPy 2 (python3-simpy) comparison is available; with "study",
# python3-pandas and python3-matplotlib for the study plots; with "plot",
# the same for pnrsim-plot; with "schedule", those and pajeng (make check);
# with "html", chromium, xmllint and groff (make check);
# with "slurm", Slurm and munge for a one-node cluster (tools/slurm-local.sh,
# make check-slurm); with "valgrind", valgrind (make check-valgrind,
# tools/fault-curve); with "curves", valgrind and the programs of the
# bundled fault curves, hpcc and metis (tools/bundled-curves.sh).
#
# With "fuzz" (make fuzz) it also installs clang with libFuzzer and exits 2
# when it cannot; with "fuzz-smoke" (make check) it installs them when it can
# (root or sudo) and otherwise only says so: the smoke run then skips.
set -e
PKGS="libgsl-dev libinih-dev check libsubunit-dev pkg-config zlib1g-dev libjansson-dev parallel python3"
missing=0
# python3: make check-layers (tools/check-layers.py) and the tests' models.
[ -x /usr/bin/python3 ] || missing=1
# GNU parallel: the sweep tests run a study through it.
command -v parallel >/dev/null 2>&1 || missing=1
if ! command -v pkg-config >/dev/null 2>&1; then
    missing=1
else
    for m in gsl inih check zlib jansson; do
        pkg-config --exists "$m" || missing=1
    done
fi
# study (make study): the study plots are drawn by the Python companion
# (pnrsim-plot study) with the system interpreter's pandas and matplotlib.
if [ "$1" = study ]; then
    if ! /usr/bin/python3 -c 'import pandas, matplotlib' >/dev/null 2>&1; then
        PKGS="$PKGS python3-pandas python3-matplotlib"
        missing=1
    fi
fi
# plot (make check, make demo-plots, pnrsim --plot): pnrsim-plot is the
# Python companion (python/pnrsim), run by the system interpreter
# /usr/bin/python3 with Debian's pandas and matplotlib (a python3 first on
# PATH, e.g. pyenv's, is not used).
if [ "$1" = plot ] || [ "$1" = schedule ]; then
    if ! /usr/bin/python3 -c 'import pandas, matplotlib' >/dev/null 2>&1; then
        PKGS="$PKGS python3-pandas python3-matplotlib"
        missing=1
    fi
fi
# schedule (make check): pj_dump (pajeng) validates the Paje traces, g++
# builds the C++ plugin and compiles the public headers as C++
# (tests/test_plugins.sh, tools/check-public.sh); installed when this runs
# as root or with sudo, otherwise the tests say they skip.
if [ "$1" = schedule ]; then
    opt=""
    command -v pj_dump >/dev/null 2>&1 || opt="$opt pajeng"
    command -v g++ >/dev/null 2>&1 || opt="$opt g++"
    if [ -n "$opt" ]; then
        if [ "$(id -u)" -eq 0 ]; then OSUDO=""
        elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then OSUDO="sudo"
        else OSUDO=none; fi
        if [ "$OSUDO" = none ]; then
            echo "pnrsim: not installing$opt (not root): their tests will skip" >&2
        else
            echo "pnrsim: installing$opt" >&2
            DEBIAN_FRONTEND=noninteractive $OSUDO apt-get install -y -qq $opt >&2 ||
                { $OSUDO apt-get update -qq >&2; DEBIAN_FRONTEND=noninteractive $OSUDO apt-get install -y -qq $opt >&2; } || true
        fi
    fi
fi
# html (make check): headless Chromium opens a study's index.html and
# xmllint checks it; installed when possible, otherwise the test skips.
if [ "$1" = html ]; then
    opt=""
    command -v chromium >/dev/null 2>&1 || opt="$opt chromium"
    command -v xmllint >/dev/null 2>&1 || opt="$opt libxml2-utils"
    command -v groff >/dev/null 2>&1 || opt="$opt groff-base"
    if [ -n "$opt" ]; then
        if [ "$(id -u)" -eq 0 ]; then OSUDO=""
        elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then OSUDO="sudo"
        else OSUDO=none; fi
        if [ "$OSUDO" = none ]; then
            echo "pnrsim: not installing$opt (not root): the page and manual tests will skip" >&2
        else
            echo "pnrsim: installing$opt" >&2
            DEBIAN_FRONTEND=noninteractive $OSUDO apt-get install -y -qq $opt >&2 ||
                { $OSUDO apt-get update -qq >&2; DEBIAN_FRONTEND=noninteractive $OSUDO apt-get install -y -qq $opt >&2; } || true
        fi
    fi
fi
if [ "$1" = bench ]; then
    if ! /usr/bin/python3 -c 'import SimPy' >/dev/null 2>&1; then
        PKGS="$PKGS python3-simpy"
        missing=1
    fi
    # bench_trace.sh and bench_pressure.sh time runs with GNU time.
    if [ ! -x /usr/bin/time ]; then
        PKGS="$PKGS time"
        missing=1
    fi
fi
if [ "$1" = slurm ]; then
    for c in slurmctld slurmd sbatch munged; do
        if ! PATH="$PATH:/usr/sbin:/sbin" command -v $c >/dev/null 2>&1; then
            PKGS="$PKGS slurmctld slurmd slurm-client munge"
            missing=1
            break
        fi
    done
fi
if [ "$1" = valgrind ] || [ "$1" = curves ]; then
    if ! command -v valgrind >/dev/null 2>&1; then
        PKGS="$PKGS valgrind"
        missing=1
    fi
fi
if [ "$1" = curves ]; then
    [ -x /usr/bin/hpcc ] || { PKGS="$PKGS hpcc"; missing=1; }
    [ -x /usr/bin/gpmetis ] || { PKGS="$PKGS metis"; missing=1; }
fi
# libFuzzer: clang, and on Debian 12 its runtime libraries (libclang-rt-dev,
# a separate package since LLVM 14). tests/fuzz/run.sh probe builds a tiny
# fuzzer to tell.
fuzz_missing=0
case "$1" in fuzz|fuzz-smoke)
    sh "$(dirname "$0")/../tests/fuzz/run.sh" probe || fuzz_missing=1 ;;
esac
if [ $fuzz_missing -eq 1 ]; then
    if [ "$(id -u)" -eq 0 ]; then FSUDO=""
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then FSUDO="sudo"
    elif [ "$1" = fuzz ]; then
        echo "pnrsim: make fuzz needs clang with libFuzzer; run:" >&2
        echo "  sudo apt-get install -y clang libclang-rt-dev" >&2
        exit 2
    else
        echo "pnrsim: clang with libFuzzer is missing and cannot be installed here (not root); the fuzz smoke run will skip" >&2
        FSUDO=none
    fi
    if [ "$FSUDO" != none ]; then
        echo "pnrsim: installing clang and libFuzzer for the fuzz targets" >&2
        export DEBIAN_FRONTEND=noninteractive
        $FSUDO apt-get update -qq >&2 || true
        $FSUDO apt-get install -y -qq clang >&2 || true
        if ! sh "$(dirname "$0")/../tests/fuzz/run.sh" probe; then
            v=$(clang -dumpversion 2>/dev/null | cut -d. -f1)
            $FSUDO apt-get install -y -qq libclang-rt-dev >&2 ||
                $FSUDO apt-get install -y -qq "libclang-rt-$v-dev" >&2 || true
        fi
        if ! sh "$(dirname "$0")/../tests/fuzz/run.sh" probe; then
            echo "pnrsim: clang cannot build libFuzzer programs even after installing clang" >&2
            [ "$1" = fuzz ] && exit 2
        fi
    fi
fi
[ $missing -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO="sudo"
else
    echo "pnrsim: missing build dependencies; run:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y $PKGS" >&2
    exit 2
fi
echo "pnrsim: installing build dependencies: $PKGS" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >&2
$SUDO apt-get install -y -qq $PKGS >&2
