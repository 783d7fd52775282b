#!/bin/sh
# bot_tables.sh: the arena tables of docs/bots.md.
#
# For every game and player count, two arenas with seats rotated:
#   heuristic against N-1 random;  ismcts (default budget) against N-1 heuristic.
# Each result is written as JSON to $OUT/GAME-N-A-B.json, then
# bench/bot_tables.py prints the markdown tables.
#
#   GATEAU=build/gateau GAMES=2000 THREADS=2 OUT=bench/results bench/bot_tables.sh [GAME ...]
set -e
GATEAU=${GATEAU:-build/gateau}
GAMES=${GAMES:-2000}
THREADS=${THREADS:-2}
OUT=${OUT:-bench/results}
SEED=${SEED:-20261122}
mkdir -p "$OUT"
games="${*:-piece-o-cake maries-table mice-cake cake-master}"
range() {
    case "$1" in
    piece-o-cake) echo 2 3 4 5 ;;
    maries-table) echo 3 4 5 ;;
    mice-cake) echo 2 ;;
    cake-master) echo 2 3 4 5 6 ;;
    esac
}
seats() { # hero, other, players
    list="$1"
    i=1
    while [ "$i" -lt "$3" ]; do list="$list,$2"; i=$((i + 1)); done
    echo "$list"
}
for game in $games; do
    for n in $(range "$game"); do
        for pair in heuristic:random ismcts:heuristic; do
            hero=${pair%%:*}
            other=${pair#*:}
            file="$OUT/$game-$n-$hero-$other.json"
            [ -s "$file" ] && continue
            echo "== $game, $n players: $hero against $other" >&2
            "$GATEAU" arena "$game" --players "$n" --seats "$(seats "$hero" "$other" "$n")" \
                --games "$GAMES" --threads "$THREADS" --seed "$SEED" --json "$file.part" >/dev/null
            mv "$file.part" "$file"
        done
    done
done
