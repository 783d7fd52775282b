#!/bin/sh
# The bot protocol's cost (docs/performance.md, "The bot protocol"): games
# per second of `gateau arena` with seat 1 played through
# ext:gateau engine --bot heuristic against the same arena in-process (the
# same games: tests/test_protocol.c checks it), per game, one thread.
# usage: sh bench/bench_protocol.sh build/gateau [GAMES]
set -eu
gateau=$(realpath "$1")
games=${2:-200}
seconds() { date +%s.%N; }
rate() { # label, seats, game, players
    start=$(seconds)
    "$gateau" arena "$3" --players "$4" --seats "$2" --games "$games" --seed 1 --threads 1 > /dev/null
    end=$(seconds)
    echo "$1 $3 $4 $start $end $games" | awk '{ printf "%-12s %-13s %d players  %8.1f games/s  %7.2f ms/game\n", $1, $2, $3, $6 / ($5 - $4), 1000 * ($5 - $4) / $6 }'
}
for line in piece-o-cake:2 maries-table:3 mice-cake:2 cake-master:2; do
    game=${line%:*} players=${line#*:}
    rest=""
    i=1
    while [ $i -lt "$players" ]; do rest="$rest,heuristic"; i=$((i + 1)); done
    rate in-process "heuristic$rest" "$game" "$players"
    rate ext: "ext:$gateau engine --bot heuristic$rest" "$game" "$players"
    rate ext:legal=0 "ext:legal=0:$gateau engine --bot heuristic$rest" "$game" "$players"
done
