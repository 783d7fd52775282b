#!/bin/sh
# make-corpus.sh GATEAU OUT_DIR: writes the seed corpus of each fuzz target
# (docs/fuzzing.md) into OUT_DIR/<target>/, one file per seed:
#   fuzz_record  records of `gateau random` for every game, player count
#                and seeds 1-3, one on the small deck, one of 3 rounds,
#                and the records of tests/data
#   fuzz_move    some moves of those records (seeds 1-2) with the header
#                that puts fuzz_move in the position where each was made
#   fuzz_setup   options and bot specs of every kind
#   fuzz_deck    the small deck of the tests and a copy of the default deck
#   fuzz_flags   command lines of every subcommand
# GATEAU is a built `gateau` command (build/gateau).
set -e
gateau="$1"
out="$2"
[ -x "$gateau" ] && [ -n "$out" ] || { echo "usage: make-corpus.sh GATEAU OUT_DIR" >&2; exit 2; }
gateau="$(cd "$(dirname "$gateau")" && pwd)/$(basename "$gateau")" # (used from tests/data too)
data="$(cd "$(dirname "$0")/../tests/data" && pwd)"
mkdir -p "$out/fuzz_record" "$out/fuzz_move" "$out/fuzz_setup" "$out/fuzz_deck" "$out/fuzz_flags"

byte() { # one byte of value $1 (0-255) on stdout
    printf "\\$(printf '%03o' "$1")"
}

# ---- records, and the moves in them ----------------------------------------------
# The header of fuzz_move (fuzz/fuzz_move.c): game index, players, seed
# (+ 128: as `gateau random` plays), moves played before (2 bytes), seat
# (0: whoever moves).  Each move also goes with the same header in the
# fast mode (seed below 128), where it is legal only by chance (a deal at
# the start always is) but the position takes microseconds.
move_seeds() { # record index players seed
    record=$1 index=$2 players=$3 seed=$4
    lines=$(sed '1,/^---$/d; /^#/d; /^$/d' "$record" | wc -l)
    step=$((lines / 6 + 1))
    k=0
    sed '1,/^---$/d; /^#/d; /^$/d' "$record" | while IFS= read -r line; do
        if [ $((k % step)) -eq 0 ] || [ $k -eq $((lines - 1)) ]; then
            seat=0 move="$line"
            case "$line" in
                [1-9]:*) seat=${line%%:*} move=${line#*: } ;;
            esac
            for mode in 128 0; do
                { byte "$index"; byte "$players"; byte $((seed + mode)); byte $((k / 256))
                  byte $((k % 256)); byte "$seat"; printf '%s' "$move"; } \
                    > "$out/fuzz_move/$(basename "$record" .txt)-$k-$mode"
            done
        fi
        k=$((k + 1))
    done
}

index=0
"$gateau" games | while read -r game title; do
    low=$(echo "$title" | sed 's/.* \([0-9]\)-\([0-9]\) players.*/\1/')
    high=$(echo "$title" | sed 's/.* \([0-9]\)-\([0-9]\) players.*/\2/')
    players=$low
    while [ "$players" -le "$high" ]; do
        for seed in 1 2 3; do
            record="$out/fuzz_record/$game-$players-$seed.txt"
            "$gateau" random "$game" --players "$players" --seed "$seed" > "$record"
            [ $seed -le 2 ] && move_seeds "$record" "$index" "$players" "$seed"
        done
        players=$((players + 1))
    done
    index=$((index + 1))
done
(cd "$data" && "$gateau" random cake-master --players 2 --seed 4 \
    --options deck=cake-master-small.deck) > "$out/fuzz_record/cake-master-small-deck.txt"
"$gateau" random piece-o-cake --players 3 --seed 4 --options rounds=3 \
    > "$out/fuzz_record/piece-o-cake-rounds.txt"
cp "$data"/*.txt "$out/fuzz_record/"

# ---- options and bot specs: game index, players, options, newline, spec ------------
setup_seed() { # name game-index players options spec
    { byte "$2"; byte "$3"; printf '%s\n%s' "$4" "$5"; } > "$out/fuzz_setup/$1"
}
setup_seed plain 0 3 "" random
setup_seed rounds 0 4 "rounds=3" "ismcts:iters=40:threads=2"
setup_seed rounds-max 0 2 "rounds=20" "ismcts:ms=50:rollout=random:c=0.5"
setup_seed maries 1 5 "" "heuristic"
setup_seed mice 2 2 "" "ismcts:iters=100:margin=0.1:tree=move:exact=0"
setup_seed deck 3 2 "deck=cake-master-small.deck" "solver"
setup_seed cake 3 6 "" "ismcts:tree=game:rollout=heuristic"

# ---- decks: players byte, then the file ------------------------------------------------
{ byte 0; cat "$data/cake-master-small.deck"; } > "$out/fuzz_deck/small"
# The default deck as a file (as src/games/cake_master/deck.c builds it):
# per color, halves 0-3, six fruit sets; a whole rosette on cards with no
# halves and at most one fruit; then the 12 customers.
{
    byte 4
    for color in W P C; do
        for halves in 0 1 2 3; do
            f=0
            for fruit in "" r b rb rr bb; do
                whole=""
                [ $halves -eq 0 ] && [ $f -lt 3 ] && whole="*"
                echo "card $color$halves$whole$fruit"
                f=$((f + 1))
            done
        done
    done
    cat <<'EOF'
customer raspberries=5
customer blueberries=5
customer rosettes=1 fruits=5
customer colors=1 raspberries=0
customer colors=1 blueberries=0
customer colors=3 rosettes=2
customer rosettes=3
customer halves=0 fruits=4
customer colors=2 raspberries=2 blueberries=2
customer fruits=0
customer halves=2 raspberries=3
customer fruits=7
EOF
} > "$out/fuzz_deck/default"

# ---- command lines: one argument a line, the subcommand first -------------------------
flags_seed() { # name arguments...
    name=$1; shift
    { printf '%s' "$1"; shift; for argument in "$@"; do printf '\n%s' "$argument"; done; } \
        > "$out/fuzz_flags/$name"
}
flags_seed random random piece-o-cake --players 3 --seed 1
flags_seed random-options random piece-o-cake --players 2 --options rounds=2 --seed 18446744073709551615
flags_seed play play cake-master --players 4 --seats "human, random ,heuristic,ismcts:ms=50" \
    --deck tests/data/cake-master-small.deck --record game.txt
flags_seed arena arena mice-cake --seats heuristic,random --seed 11 --options a=1 b=2
flags_seed replay replay game.txt --json
flags_seed other hint game.txt --seat 2 --players 007
