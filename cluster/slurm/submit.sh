#!/usr/bin/env bash
# Submits a sharded dvonn run to Slurm (docs/CLUSTER.md): SHARDS shards of
# `dvonn COMMAND ARGS...` as a job array writing to the directory RECORDS,
# and the merge as a job that runs once every shard has succeeded (and is
# cancelled if one fails). COMMAND is `match` or `tune`; a match's ARGS
# must hold --seed, so that every shard plays the same match.
#
#   cluster/slurm/submit.sh 4 runs/a-vs-b match --a clock=5 --b clock=5,eval=pieces --games 400 --seed 11
#
# Prints the array's and the merge's job ids. The shards' output goes to
# RECORDS.shard-K.log, the merge's (the summary) to RECORDS.summary.txt,
# beside the directory. DVONN names the dvonn binary (default: dvonn on
# the PATH), CPUS_PER_SHARD the CPUs of each shard (default 1: raise it
# with a match's --concurrency or tune's --threads); sbatch's own SBATCH_*
# variables (SBATCH_PARTITION, SBATCH_TIMELIMIT, ...) apply to both jobs.
set -euo pipefail

if [ $# -lt 3 ]; then
    echo "usage: submit.sh SHARDS RECORDS COMMAND [ARGS...]" >&2
    exit 2
fi
shards=$1
records=${2%/}
command=$3
shift 3
case $shards in
    '' | *[!0-9]* | 0*) echo "submit.sh: SHARDS must be a whole number from 1" >&2; exit 2 ;;
esac
here=$(cd "$(dirname "$0")" && pwd)

# Created here, so that a path that cannot be written fails now.
mkdir -p "$records"
array=$(sbatch --parsable --array="0-$((shards - 1))" --cpus-per-task="${CPUS_PER_SHARD:-1}" \
    --job-name="dvonn-$command" --output="$records.shard-%a.log" \
    "$here/shards.sbatch" "$shards" "$records" "$command" "$@")
array=${array%%;*}
merge=$(sbatch --parsable --dependency="afterok:$array" --kill-on-invalid-dep=yes \
    --job-name="dvonn-$command-merge" --output="$records.summary.txt" \
    "$here/shards.sbatch" "$shards" "$records" "$command")
echo "$array ${merge%%;*}"
