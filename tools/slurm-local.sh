#!/bin/sh
# tools/slurm-local.sh start|stop|status DIR : a one-node Slurm cluster on
# this machine, for testing `pnrsim-sweep --emit-slurm` against a real Slurm.
#
# start DIR  needs root and Debian's slurmctld, slurmd, slurm-client and
#            munge (tools/deps.sh slurm installs them). Everything lives in
#            DIR (created; must not hold a running cluster): a generated
#            munge key, a munged running as the munge user on its own
#            socket, a slurm.conf (SlurmctldHost = the short host name,
#            proctrack/linuxproc, task/none, select/cons_tres, one node with
#            CPUs = nproc and RealMemory = 3/4 of MemTotal, one partition
#            "local"), the controller's state and the node's spool. It
#            starts munged, slurmctld, then slurmd, and waits (up to 60 s)
#            until sinfo shows the node idle. Every daemon it started has its
#            pid in DIR/pids; on any failure it stops them again, prints why
#            (with the daemon's log) and exits 1. Exit 3: cannot run here at
#            all (not root, a program missing); nothing was started.
#            Clients reach the cluster with SLURM_CONF=DIR/slurm.conf
#            (written to DIR/env too).
#            SLURM_LOCAL_CPUS=N gives the node N CPUs whatever the machine
#            has (SlurmdParameters=config_overrides: jobs that sleep need
#            no cores of their own); SLURM_LOCAL_SCHEDULER=backfill makes
#            the scheduler sched/backfill (bf_interval=1, bf_resolution=1:
#            a plan every second, to the second; pnrsim predict's test,
#            tests/check_slurm_predict.sh) instead of sched/builtin (FIFO).
# stop DIR   stops every daemon listed in DIR/pids, by pid (SIGTERM, then
#            SIGKILL after 10 s), and removes DIR/pids. Safe to repeat.
# status DIR sinfo of the cluster; exit 0 when the node is idle.
#
# Ports: SlurmctldPort and SlurmdPort are the first pair P, P + 1 from
# SLURM_LOCAL_PORT (default 16817) on, in steps of 2, that nothing listens
# on (/proc/net/tcp*): away from a system Slurm's 6817/6818, and two
# clusters (two test runs at once) get different ports.
set -u

die() { echo "slurm-local: $*" >&2; exit 1; }
usage() { echo "usage: $0 start|stop|status DIR" >&2; exit 2; }

[ $# -eq 2 ] || usage
cmd=$1
dir=$2

# Stop the daemons listed in DIR/pids (newest first), by pid.
stop_all() {
    [ -f "$dir/pids" ] || return 0
    pids=$(tac "$dir/pids")
    for p in $pids; do
        kill -TERM "$p" 2>/dev/null
    done
    i=0
    while [ $i -lt 100 ]; do
        alive=""
        for p in $pids; do
            kill -0 "$p" 2>/dev/null && alive="$alive $p"
        done
        [ -z "$alive" ] && break
        sleep 0.1
        i=$((i + 1))
    done
    for p in $alive; do
        echo "slurm-local: pid $p did not stop on SIGTERM; SIGKILL" >&2
        kill -KILL "$p" 2>/dev/null
    done
    rm -f "$dir/pids"
}

# Record the pid in file $1 (written by a daemon) in DIR/pids.
record_pid() {
    i=0
    while [ ! -s "$1" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    [ -s "$1" ] || return 1
    cat "$1" >>"$dir/pids"
}

# Fail: show the logs, stop what was started.
fail() {
    echo "slurm-local: $*" >&2
    for f in "$dir"/munge/munged.log "$dir"/slurmctld.log "$dir"/slurmd.log; do
        [ -s "$f" ] && { echo "--- last lines of $f:" >&2; tail -n 15 "$f" >&2; }
    done
    stop_all
    exit 1
}

case "$cmd" in
stop)
    stop_all
    exit 0
    ;;
status)
    SLURM_CONF="$dir/slurm.conf" sinfo -h -o '%N %t' 2>&1
    state=$(SLURM_CONF="$dir/slurm.conf" sinfo -h -o '%t' 2>/dev/null)
    [ "$state" = idle ]
    exit $?
    ;;
start) ;;
*) usage ;;
esac

# ---- start ----------------------------------------------------------------
if [ "$(id -u)" -ne 0 ]; then
    echo "slurm-local: needs root (slurmd starts jobs as their user)" >&2
    exit 3
fi
for p in munged slurmctld slurmd sbatch sinfo squeue; do
    PATH="$PATH:/usr/sbin:/sbin" command -v $p >/dev/null 2>&1 || {
        echo "slurm-local: $p not found (tools/deps.sh slurm installs it)" >&2
        exit 3
    }
done
id munge >/dev/null 2>&1 || { echo "slurm-local: no munge user" >&2; exit 3; }
PATH="$PATH:/usr/sbin:/sbin"
if [ -f "$dir/pids" ]; then
    for p in $(cat "$dir/pids"); do
        kill -0 "$p" 2>/dev/null && die "$dir: a cluster is running (pid $p); stop it first"
    done
    rm -f "$dir/pids"
fi

mkdir -p "$dir" || die "$dir: cannot create"
dir=$(cd "$dir" && pwd -P)
# munged refuses a key or socket in a directory others can write to, and
# runs as munge: DIR readable by all, munge/ its own.
chmod 755 "$dir"
rm -rf "$dir/munge" "$dir/state" "$dir/spool"
mkdir -p "$dir/munge" "$dir/state" "$dir/spool"
: >"$dir/pids"

# munge: a fresh key, its own socket.
dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 2>/dev/null ||
    fail "cannot write a munge key"
chown -R munge:munge "$dir/munge"
chmod 711 "$dir/munge"   # clients need to reach the socket
chmod 400 "$dir/munge/munge.key"
sock="$dir/munge/munge.socket"
runuser -u munge -- munged --socket="$sock" --key-file="$dir/munge/munge.key" \
    --log-file="$dir/munge/munged.log" --pid-file="$dir/munge/munged.pid" \
    --seed-file="$dir/munge/munged.seed" ||
    fail "munged did not start"
record_pid "$dir/munge/munged.pid" || fail "munged wrote no pid file"

host=$(hostname -s)
cpus=${SLURM_LOCAL_CPUS:-$(nproc)}
overrides=""
[ "$cpus" = "$(nproc)" ] || overrides="SlurmdParameters=config_overrides"
schedtype=sched/builtin
schedextra=""
if [ "${SLURM_LOCAL_SCHEDULER:-builtin}" = backfill ]; then
    schedtype=sched/backfill
    schedextra=",bf_interval=1,bf_resolution=1"
fi
memkb=$(sed -n 's/^MemTotal: *\([0-9]*\) kB/\1/p' /proc/meminfo)
mem=$((memkb / 1024 * 3 / 4))
# True when nothing listens on TCP port $1 (IPv4 or IPv6).
port_free() {
    hex=$(printf ':%04X' "$1")
    ! cat /proc/net/tcp /proc/net/tcp6 2>/dev/null |
        awk -v p="$hex" '$4 == "0A" && substr($2, length($2) - 4) == p { f = 1 } END { exit !f }'
}
port=${SLURM_LOCAL_PORT:-16817}
while ! port_free $port || ! port_free $((port + 1)); do
    port=$((port + 2))
    [ $port -lt 65000 ] || fail "no free TCP port pair"
done
cat >"$dir/slurm.conf" <<EOF
# One-node cluster written by tools/slurm-local.sh (pnrsim tests).
ClusterName=pnrsim-local
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=$schedtype
# Schedule at once and every second (defaults: 3 s delays; a test array
# would spend most of its time waiting).
SchedulerParameters=sched_min_interval=0,batch_sched_delay=0,sched_interval=1$schedextra
$overrides
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=300
KillWait=5
Waittime=0
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
# slurmd wants a cgroup.conf only for cgroup plugins; none here.
export SLURM_CONF="$dir/slurm.conf"
echo "SLURM_CONF=$dir/slurm.conf" >"$dir/env"

slurmctld -f "$SLURM_CONF" -i || fail "slurmctld did not start"
record_pid "$dir/slurmctld.pid" || fail "slurmctld wrote no pid file"
slurmd -f "$SLURM_CONF" || fail "slurmd did not start"
record_pid "$dir/slurmd.pid" || fail "slurmd wrote no pid file"

i=0
while [ $i -lt 600 ]; do
    state=$(sinfo -h -o '%t' 2>/dev/null)
    [ "$state" = idle ] && { echo "slurm-local: node $host idle ($cpus CPUs, $mem MB); SLURM_CONF=$SLURM_CONF"; exit 0; }
    sleep 0.1
    i=$((i + 1))
done
fail "the node did not become idle within 60 s (sinfo: ${state:-no answer})"
