#!/bin/sh
# A sweep on a Slurm cluster (docs/sweeps.md "Slurm: a job array"): its N shards as one job array
# (`sbatch --array=0-(N-1)`, each task `sweep-parallel.sh shard`, which resumes from its journal),
# and a merge job that starts once every task has succeeded (`--dependency=afterok`).
# Tested end to end on a one-node cluster: test/integration/slurm.test.ts.
#
#   scripts/sweep-slurm.sh submit SWEEP.json N DIR OUT.json
#       submits the array and the merge; prints "ARRAY_JOB_ID MERGE_JOB_ID"; shards go to
#       DIR/shard-I-of-N.json, logs to DIR/logs/, the merged sweep to OUT.json
#   scripts/sweep-slurm.sh rerun SWEEP.json N DIR OUT.json I[,J,…]
#       after tasks I, J, … failed or were cancelled (preempted, killed, out of time): resubmits
#       them (each continues from its journal: only its missing cells run), cancels the merge
#       that can no longer start, and submits one that waits for them (and for the rest of the
#       first array); prints "ARRAY_JOB_ID MERGE_JOB_ID"
#
# Cluster options come from sbatch's own environment variables (SBATCH_PARTITION,
# SBATCH_TIMELIMIT, SBATCH_ACCOUNT, …). Paths are made absolute; they must not contain a quote.
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "sweep-slurm.sh: $*" >&2; exit 2; }
abs() { case "$1" in /*) printf '%s' "$1" ;; *) printf '%s/%s' "$(pwd)" "$1" ;; esac; }
noquote() { case "$1" in *\'* | *\"*) die "paths must not contain quotes: $1" ;; esac; }
command -v sbatch >/dev/null 2>&1 || die "sbatch not found: run this on a Slurm login node"

mode=${1:-}
[ $# -ge 5 ] || die "usage: sweep-slurm.sh submit SWEEP.json N DIR OUT.json | rerun SWEEP.json N DIR OUT.json I[,J,…]"
sweep=$(abs "$2") n=$3 dir=$(abs "$4") out=$(abs "$5")
for p in "$sweep" "$dir" "$out" "$here"; do noquote "$p"; done
case "$n" in '' | *[!0-9]*) die "N must be a whole number from 1 to 4096, got \"$n\"" ;; esac
[ "$n" -ge 1 ] && [ "$n" -le 4096 ] || die "N must be from 1 to 4096, got $n"
mkdir -p "$dir/logs"
state="$dir/slurm-jobs"

shard_cmd="sh '$here/scripts/sweep-parallel.sh' shard '$sweep' $n '$dir'"
merge_cmd="sh '$here/scripts/sweep-parallel.sh' merge $n '$dir' '$out'"

case "$mode" in
  submit)
    [ $# -eq 5 ] || die "usage: sweep-slurm.sh submit SWEEP.json N DIR OUT.json"
    array=$(sbatch --parsable --job-name=seeupo-sweep --array="0-$((n - 1))" --ntasks=1 --cpus-per-task=1 \
      --chdir="$here" --output="$dir/logs/shard-%a.log" --wrap="$shard_cmd")
    array=${array%%;*}
    merge=$(sbatch --parsable --job-name=seeupo-merge --dependency="afterok:$array" --kill-on-invalid-dep=yes \
      --ntasks=1 --cpus-per-task=1 --chdir="$here" --output="$dir/logs/merge.log" --wrap="$merge_cmd")
    merge=${merge%%;*}
    printf 'array=%s merge=%s\n' "$array" "$merge" > "$state"
    echo "$array $merge"
    ;;
  rerun)
    [ $# -eq 6 ] || die "usage: sweep-slurm.sh rerun SWEEP.json N DIR OUT.json I[,J,…]"
    tasks=$6
    case "$tasks" in '' | *[!0-9,]*) die "tasks must be shard indices such as 3 or 1,5, got \"$tasks\"" ;; esac
    [ -f "$state" ] || die "no $state: submit the sweep first"
    first=$(sed -n 's/^array=\([0-9]*\) merge=\([0-9]*\)$/\1/p' "$state")
    old_merge=$(sed -n 's/^array=\([0-9]*\) merge=\([0-9]*\)$/\2/p' "$state")
    [ -n "$first" ] && [ -n "$old_merge" ] || die "$state is not one this script wrote"
    scancel "$old_merge" 2>/dev/null || true
    again=$(sbatch --parsable --job-name=seeupo-sweep --array="$tasks" --ntasks=1 --cpus-per-task=1 \
      --chdir="$here" --output="$dir/logs/shard-%a-rerun.log" --wrap="$shard_cmd")
    again=${again%%;*}
    # the rerun tasks must succeed; the first array's other tasks must have ended (their shards are on disk, or merge names the missing one)
    merge=$(sbatch --parsable --job-name=seeupo-merge --dependency="afterok:$again,afterany:$first" --kill-on-invalid-dep=yes \
      --ntasks=1 --cpus-per-task=1 --chdir="$here" --output="$dir/logs/merge.log" --wrap="$merge_cmd")
    merge=${merge%%;*}
    printf 'array=%s merge=%s\n' "$first" "$merge" > "$state"
    echo "$again $merge"
    ;;
  *) die "usage: sweep-slurm.sh submit|rerun … (see the comment at the top of the script)" ;;
esac
