#!/bin/sh
# Writes docs/protocol/GAME.txt: one whole session of the bot protocol per
# game, as `gateau arena` (seed 1, one game) plays gateau engine --bot
# heuristic at seat 1 against random bots, "> " what the controller sends,
# "< " what the program answers.  usage: sh docs/protocol/make-sessions.sh build/gateau
set -eu
gateau=$(realpath "$1")
here=$(dirname "$(realpath "$0")")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/wrap.sh" <<WRAP
#!/bin/sh
tee "$work/\$1.in" | "$gateau" engine --bot heuristic | tee "$work/\$1.out"
WRAP
chmod +x "$work/wrap.sh"
for line in piece-o-cake:2 maries-table:3 mice-cake:2 cake-master:2; do
    game=${line%:*} players=${line#*:}
    seats="ext:legal=12:$work/wrap.sh $game"
    i=1
    while [ $i -lt "$players" ]; do seats="$seats,random"; i=$((i + 1)); done
    "$gateau" arena "$game" --players "$players" --seats "$seats" --games 1 --seed 1 > /dev/null
    # The answers come after the handshake and after each go.
    /usr/bin/python3 - "$work/$game.in" "$work/$game.out" > "$here/$game.txt" <<'MERGE'
import sys
sent = open(sys.argv[1]).read().splitlines()
answers = open(sys.argv[2]).read().splitlines()
for line in sent:
    print("> " + line)
    if line.startswith(("protocol", "go ")):
        while answers:
            answer = answers.pop(0)
            print("< " + answer)
            if answer in ("ready",) or answer.startswith(("move ", "error ")):
                break
MERGE
done
