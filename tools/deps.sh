#!/bin/sh
# tools/deps.sh: make sure the libraries pnrsim builds with are present.
#
# Checks with pkg-config for gsl, inih, check and zlib. When any is missing it
# installs the Debian packages that provide them: directly when running as
# root, through sudo when that works without a password; otherwise it prints
# the exact command to run and exits 2. With "bench" as first argument it also
# makes sure the SimPy 2 (python3-simpy) comparison is available; with "study",
# gnuplot for the plots; with "slurm", Slurm and munge for a one-node
# cluster (tools/slurm-local.sh, make check-slurm); with "valgrind",
# valgrind (make check-valgrind).
set -e
PKGS="libgsl-dev libinih-dev check libsubunit-dev pkg-config zlib1g-dev parallel"
missing=0
# GNU parallel: the sweep tests run a study through it.
command -v parallel >/dev/null 2>&1 || missing=1
if ! command -v pkg-config >/dev/null 2>&1; then
    missing=1
else
    for m in gsl inih check zlib; do
        pkg-config --exists "$m" || missing=1
    done
fi
if [ "$1" = study ]; then
    if ! command -v gnuplot >/dev/null 2>&1; then
        PKGS="$PKGS gnuplot-nox"
        missing=1
    fi
fi
if [ "$1" = bench ]; then
    if ! /usr/bin/python3 -c 'import SimPy' >/dev/null 2>&1; then
        PKGS="$PKGS python3-simpy"
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
if [ "$1" = valgrind ]; then
    if ! command -v valgrind >/dev/null 2>&1; then
        PKGS="$PKGS valgrind"
        missing=1
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
