#!/bin/sh
# A sweep's shards on an engine you already have, merged afterwards (docs/sweeps.md). No scheduler
# of its own: each shard is one `seeupo-explorer sweep SWEEP.json --shard I/N` process.
#
#   scripts/sweep-parallel.sh local SWEEP.json N OUT.json [JOBS]
#       all N shards on this machine, JOBS at a time (xargs -P; default N), merged into OUT.json
#   scripts/sweep-parallel.sh shard SWEEP.json N DIR
#       one shard, inside a batch system: its index I is $JOB_COMPLETION_INDEX (a Kubernetes Indexed
#       Job), $SLURM_ARRAY_TASK_ID (a Slurm array) or $SHARD_INDEX; writes DIR/shard-I-of-N.json,
#       continuing from DIR/shard-I-of-N.json.journal when a killed try left one (sweep --resume)
#   scripts/sweep-parallel.sh merge N DIR OUT.json
#       merges DIR/shard-0-of-N.json … DIR/shard-(N-1)-of-N.json (a missing one is named) into OUT.json
#
# The CLI is `node bin/seeupo-explorer.js` of this checkout, or $SEEUPO_EXPLORER (e.g. "npx seeupo-explorer").
# Each shard runs on $SWEEP_THREADS threads (default 1: the parallelism is the shards').
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
explorer() {
  if [ -n "${SEEUPO_EXPLORER:-}" ]; then $SEEUPO_EXPLORER "$@"; else node "$here/bin/seeupo-explorer.js" "$@"; fi
}
die() { echo "sweep-parallel.sh: $*" >&2; exit 2; }
count() { case "$1" in '' | *[!0-9]*) die "N must be a whole number from 1 to 4096, got \"$1\"" ;; esac; [ "$1" -ge 1 ] && [ "$1" -le 4096 ] || die "N must be from 1 to 4096, got $1"; }

mode=${1:-}
case "$mode" in
  local)
    [ $# -ge 4 ] && [ $# -le 5 ] || die "usage: sweep-parallel.sh local SWEEP.json N OUT.json [JOBS]"
    sweep=$2 n=$3 out=$4 jobs=${5:-$3}
    count "$n"; count "$jobs"
    dir=$(mktemp -d)
    trap 'rm -rf "$dir"' EXIT
    i=0
    while [ "$i" -lt "$n" ]; do echo "$i"; i=$((i + 1)); done |
      xargs -P "$jobs" -I{} env SHARD_INDEX={} JOB_COMPLETION_INDEX= SLURM_ARRAY_TASK_ID= "$0" shard "$sweep" "$n" "$dir"
    "$0" merge "$n" "$dir" "$out"
    ;;
  shard)
    [ $# -eq 4 ] || die "usage: sweep-parallel.sh shard SWEEP.json N DIR (with JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID or SHARD_INDEX set)"
    sweep=$2 n=$3 dir=$4
    count "$n"
    index=${JOB_COMPLETION_INDEX:-${SLURM_ARRAY_TASK_ID:-${SHARD_INDEX:-}}}
    [ -n "$index" ] || die "no shard index: set JOB_COMPLETION_INDEX (Kubernetes), SLURM_ARRAY_TASK_ID (Slurm) or SHARD_INDEX"
    mkdir -p "$dir"
    # --resume: a retried task (a Slurm requeue, a Kubernetes backoff retry) continues from the
    # journal the killed one left beside its output; a fresh one simply starts
    explorer sweep "$sweep" --shard "$index/$n" --threads "${SWEEP_THREADS:-1}" --out "$dir/shard-$index-of-$n.json" --resume
    ;;
  merge)
    [ $# -eq 4 ] || die "usage: sweep-parallel.sh merge N DIR OUT.json"
    n=$2 dir=$3 out=$4
    count "$n"
    set --
    i=0
    while [ "$i" -lt "$n" ]; do set -- "$@" "$dir/shard-$i-of-$n.json"; i=$((i + 1)); done
    explorer merge "$@" --out "$out"
    ;;
  *) die "usage: sweep-parallel.sh local|shard|merge … (see the comment at the top of the script)" ;;
esac
