#!/bin/sh
# A one-node Slurm cluster on this machine, for test/integration/slurm.test.ts (docs/sweeps.md,
# "Slurm: a job array"). Run as root on Debian: installs slurm-wlm and munge with apt if missing,
# writes /etc/slurm/slurm.conf for this host (its real name, CPUs and memory, as `slurmd -C`
# reports them), starts munged, slurmctld and slurmd, and returns once the node is idle.
# Idempotent: a cluster already up is left as it is. Waits on state (scontrol ping, sinfo), never
# on fixed sleeps; gives up after SLURM_UP_TIMEOUT seconds (default 120) with exit 1.
#
# Prints timings on stderr: "slurm-up: install Ns, start Ns".
set -eu

die() { echo "slurm-up: $*" >&2; exit 1; }
now() { date +%s; }
timeout_s=${SLURM_UP_TIMEOUT:-120}

[ "$(id -u)" -eq 0 ] || die "must run as root (it installs packages and starts daemons)"

# wait_for DESCRIPTION COMMAND...: polls COMMAND until it succeeds, up to $timeout_s seconds
wait_for() {
  what=$1; shift
  deadline=$(( $(now) + timeout_s ))
  until "$@" >/dev/null 2>&1; do
    [ "$(now)" -lt "$deadline" ] || die "timed out after ${timeout_s}s waiting for $what"
    # a short pause between polls (the condition is the state, not the time)
    sleep 0.2
  done
}

t0=$(now)
if ! command -v slurmctld >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq || die "apt-get update failed (no network?)"
  apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null || die "apt-get install slurm-wlm munge failed"
fi
t1=$(now)

node_up() { sinfo -h -N -o '%T' 2>/dev/null | grep -Eq '^(idle|mixed|allocated)'; }
if scontrol ping 2>/dev/null | grep -q UP && node_up; then
  echo "slurm-up: already up (install $((t1 - t0))s, start 0s)" >&2
  exit 0
fi

# munge: a key, its folders, the daemon as the munge user
if [ ! -s /etc/munge/munge.key ]; then
  mkdir -p /etc/munge
  if command -v mungekey >/dev/null 2>&1; then mungekey --create --keyfile=/etc/munge/munge.key; else dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 2>/dev/null; fi
fi
mkdir -p /run/munge /var/log/munge /var/lib/munge
chown -R munge:munge /etc/munge /run/munge /var/log/munge /var/lib/munge
chmod 0700 /etc/munge /var/log/munge /var/lib/munge
chmod 0755 /run/munge
chmod 0400 /etc/munge/munge.key
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
  runuser -u munge -- /usr/sbin/munged --force || die "munged did not start"
  wait_for "munged" sh -c 'munge -n | unmunge'
fi

# slurm.conf: this host as controller and only node; the node line is what slurmd detects
host=$(hostname -s)
node_line=$(slurmd -C | head -n 1)
case "$node_line" in NodeName=*) ;; *) die "slurmd -C printed no node line: $node_line" ;; esac
# leave the OS some memory: Slurm refuses a node whose RealMemory exceeds what it finds
mkdir -p /etc/slurm /var/lib/slurm/slurmctld /var/lib/slurm/slurmd /var/log/slurm /run/slurm
cat > /etc/slurm/slurm.conf <<EOF
# written by seeupo-explorer scripts/slurm-up.sh: one node on localhost
ClusterName=seeupo
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=/var/lib/slurm/slurmctld
SlurmdSpoolDir=/var/lib/slurm/slurmd
SlurmctldPidFile=/run/slurm/slurmctld.pid
SlurmdPidFile=/run/slurm/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
KillWait=5
MinJobAge=300
$node_line State=UNKNOWN
PartitionName=main Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
EOF

if ! scontrol ping 2>/dev/null | grep -q UP; then
  slurmctld || die "slurmctld did not start (see /var/log/slurm/slurmctld.log)"
  wait_for "slurmctld (scontrol ping)" sh -c 'scontrol ping | grep -q UP'
fi
if ! pgrep -x slurmd >/dev/null 2>&1; then
  slurmd || die "slurmd did not start (see /var/log/slurm/slurmd.log)"
fi
wait_for "node $host to be idle (sinfo)" node_up
t2=$(now)
echo "slurm-up: install $((t1 - t0))s, start $((t2 - t1))s; node: $node_line" >&2
