#!/bin/sh
# check_cluster_recipes.sh GATEAU: runs the recipes of docs/cluster.md
# (scripts/cluster/) on this machine with a small arena, and checks that
# each one's merged report is the single run's, byte for byte:
# - the Slurm job array script, once per task with the variables Slurm
#   sets (SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT), as sbatch --array
#   would run it; task 2 again, as submitted alone, which has nothing left
#   to play;
# - the Kubernetes indexed Job's container command, taken from the YAML,
#   once per index with JOB_COMPLETION_INDEX as the Job sets it;
# - GNU parallel over "ssh hosts", here ":" (this machine), when parallel
#   is installed (else that recipe is skipped, and said so).
# Slurm and Kubernetes themselves cannot run here.
set -e
gateau="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
source_dir="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
export GATEAU="$gateau"
ARENA="piece-o-cake --players 3 --seats heuristic,random,ismcts:iters=30 --games 40 --seed 8"
export ARENA
"$gateau" arena $ARENA --threads 2 --json single.json --csv single.csv > /dev/null

same() { # name: the merged report in $1.json is the single run's
    cmp single.json "$1.json" && cmp single.csv "$1.csv" && echo "$1: identical to the single run"
}

# Slurm: 4 tasks; then task 2 again, submitted alone (--array=2, SHARDS=4).
mkdir -p slurm
for task in 1 2 3 4; do
    PARTS=slurm SLURM_ARRAY_TASK_ID=$task SLURM_ARRAY_TASK_COUNT=4 SLURM_CPUS_PER_TASK=1 \
        sh "$source_dir/scripts/cluster/slurm-arena.sh" > /dev/null
done
PARTS=slurm SHARDS=4 SLURM_ARRAY_TASK_ID=2 SLURM_ARRAY_TASK_COUNT=1 \
    sh "$source_dir/scripts/cluster/slurm-arena.sh" | grep -q "from slurm/part-2.txt, 0 now"
"$gateau" arena-merge slurm/part-*.txt --json slurm.json --csv slurm.csv > /dev/null
same slurm

# Kubernetes: the container's script, indexes 0 to 4 of 5.
sed -n '/# shard command/,/--part/p' "$source_dir/scripts/cluster/arena-job.yaml" |
    sed 's/^              //' > shard.sh
grep -q 'JOB_COMPLETION_INDEX' shard.sh
for index in 0 1 2 3 4; do
    PARTS=k8s SHARDS=5 JOB_COMPLETION_INDEX=$index sh shard.sh > /dev/null
done
"$gateau" arena-merge k8s/part-*.txt --json k8s.json --csv k8s.csv > /dev/null
same k8s

# GNU parallel, every shard on this machine (":").
if command -v parallel > /dev/null; then
    echo ":" > hosts
    PARTS=parallel REPORT=parallel HOME="$work" \
        sh "$source_dir/scripts/cluster/parallel-arena.sh" 3 hosts > /dev/null
    same parallel
else
    echo "GNU parallel is not installed: its recipe is not checked"
fi
