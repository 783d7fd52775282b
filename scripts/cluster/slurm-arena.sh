#!/bin/sh
# slurm-arena.sh: one arena run as a Slurm job array, one shard per task
# (docs/cluster.md).  Submit it, then merge when every task has ended:
#
#   mkdir -p parts
#   jobid=$(sbatch --parsable --array=1-100 scripts/cluster/slurm-arena.sh)
#   sbatch --dependency=afterok:$jobid --wrap \
#       'gateau arena-merge parts/part-*.txt --json report.json --csv report.csv'
#
# The array's size is the number of shards (N = SLURM_ARRAY_TASK_COUNT,
# or SHARDS when set); task I plays shard I/N into parts/part-I.txt.  A
# task that is killed (preempted, out of time) and requeued goes on from
# the games its part file holds; so does one submitted again alone, given
# N:  sbatch --array=17 --export=ALL,SHARDS=100 scripts/cluster/slurm-arena.sh
#SBATCH --job-name=gateau-arena
#SBATCH --cpus-per-task=4
#SBATCH --time=04:00:00
#SBATCH --requeue
#SBATCH --output=parts/slurm-%A_%a.out
set -e
: "${GATEAU:=gateau}"
: "${PARTS:=parts}"
# The run: everything but --shard and --part, the same for every task
# (a fixed --seed above all).
: "${ARENA:=piece-o-cake --players 3 --seats ismcts:iters=2000,heuristic,random --games 1000000 --seed 42}"
# shellcheck disable=SC2086 # (ARENA is a list of arguments)
"$GATEAU" arena $ARENA --threads "${SLURM_CPUS_PER_TASK:-1}" \
    --shard "$SLURM_ARRAY_TASK_ID/${SHARDS:-$SLURM_ARRAY_TASK_COUNT}" \
    --part "$PARTS/part-$SLURM_ARRAY_TASK_ID.txt"
