#!/bin/sh
# parallel-arena.sh: one arena run spread over ssh hosts with GNU parallel
# (docs/cluster.md), then merged here.
#
#   scripts/cluster/parallel-arena.sh SHARDS HOSTS_FILE
#
# HOSTS_FILE lists the hosts in GNU parallel's --sshloginfile form (as
# "4/alice@node1", ":" for this machine); every host needs gateau on its
# PATH (or GATEAU set) and the same working directory, e.g. a shared file
# system, where parts/ is written.  Each shard I/N writes parts/part-I.txt;
# --retries runs a failed shard again (anywhere), and it goes on from its
# part file.  Run the script again after an interruption: finished shards
# return at once, the others go on.
set -e
shards="$1"
hosts="$2"
[ -n "$shards" ] && [ -n "$hosts" ] || { echo "usage: parallel-arena.sh SHARDS HOSTS_FILE" >&2; exit 2; }
: "${GATEAU:=gateau}"
: "${PARTS:=parts}"
: "${REPORT:=report}"
# The run: everything but --shard and --part (a fixed --seed above all).
: "${ARENA:=piece-o-cake --players 3 --seats ismcts:iters=2000,heuristic,random --games 1000000 --seed 42 --threads 4}"
mkdir -p "$PARTS"
seq 1 "$shards" | parallel --sshloginfile "$hosts" --workdir . --retries 3 --halt now,fail=1 \
    "$GATEAU" arena "$ARENA" --shard "{}/$shards" --part "$PARTS/part-{}.txt" '> /dev/null'
"$GATEAU" arena-merge "$PARTS"/part-*.txt --json "$REPORT.json" --csv "$REPORT.csv"
