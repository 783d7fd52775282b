#!/bin/sh
# generate.sh GATEAU OUT_DIR: writes what `gateau` produces for fixed seeds
# over every game and player count (random records, arena JSON, CSV and
# records between every kind of bot, replays, hints) into OUT_DIR.
#
# tests/golden/expected/ holds this output as the code produced it before
# the library was reshaped (issue 13); tests/golden/check.sh compares a
# build against it byte for byte, so a refactoring that changes a single
# deal, bot decision or statistic fails.  Regenerate expected/ only when a
# change of behaviour is meant, and say so in the commit.  (Since issue 14
# the arena JSON and CSV also hold the pairwise shares and meetings; the
# rest of those files is unchanged.)
set -e
gateau="$1"
out="$2"
data="$(cd "$(dirname "$0")/.." && pwd)/data"
mkdir -p "$out"

seats_for() { # players bots...: a seat list of that length cycling the bots
    players=$1; shift
    list=""; i=0
    while [ $i -lt "$players" ]; do
        eval "bot=\${$((i % $# + 1))}"
        list="${list:+$list,}$bot"; i=$((i + 1))
    done
    echo "$list"
}

for spec in piece-o-cake:2:5 maries-table:3:5 mice-cake:2:2 cake-master:2:6; do
    game=${spec%%:*}; range=${spec#*:}; low=${range%%:*}; high=${range#*:}
    players=$low
    while [ "$players" -le "$high" ]; do
        name="$game-$players"
        for seed in 1 2 3; do
            "$gateau" random "$game" --players "$players" --seed "$seed" > "$out/$name-random-$seed.txt"
        done
        "$gateau" replay "$out/$name-random-1.txt" --json > "$out/$name-replay.json"
        bots="heuristic random ismcts:iters=40"
        [ "$game" = piece-o-cake ] && bots="heuristic random ismcts:iters=40 solver"
        seats=$(seats_for "$players" $bots)
        mkdir -p "$out/$name-arena-records"
        "$gateau" arena "$game" --players "$players" --seats "$seats" --games 4 --threads 2 \
            --seed 11 --json "$out/$name-arena.json" --csv "$out/$name-arena.csv" \
            --records "$out/$name-arena-records" > /dev/null
        # A hint halfway through a game: the record cut after half its lines.
        # (the first cut from half on where a seat, not chance, moves next).
        lines=$(wc -l < "$out/$name-random-2.txt")
        cut=$((lines / 2))
        while :; do
            head -n $cut "$out/$name-random-2.txt" > "$out/$name-half.txt"
            "$gateau" hint "$out/$name-half.txt" --iters 200 --seed 5 --json \
                > "$out/$name-hint.json" 2>/dev/null && break
            cut=$((cut + 1))
            [ $cut -lt "$lines" ] || { echo "generate.sh: no hint point in $name" >&2; exit 1; }
        done
        players=$((players + 1))
    done
done

# Cake Master with a deck file, and piece o' Cake over several rounds.
"$gateau" random cake-master --players 2 --seed 4 --options "deck=$data/cake-master-small.deck" \
    | sed "s|$data/||" > "$out/cake-master-deck-random.txt"
"$gateau" random piece-o-cake --players 3 --seed 4 --options rounds=3 > "$out/piece-o-cake-rounds-random.txt"
"$gateau" arena piece-o-cake --players 3 --seats ismcts:iters=60,heuristic,solver --games 3 \
    --seed 2 --options rounds=2 --json "$out/piece-o-cake-rounds-arena.json" > /dev/null
