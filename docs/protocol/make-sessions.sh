#!/bin/sh
# Writes the example sessions of docs/protocol.md, "> " what the controller
# (or harness) sends, "< " what the program answers:
#   GAME.txt    one whole game per game, as `gateau arena` (seed 1, one
#               game, legal=12 to keep them short) plays gateau engine
#               --bot heuristic at seat 1 against random bots
#   engine.txt  a harness's session with gateau engine: a version refused,
#               options, isready, a views-only go, stop
# usage: sh docs/protocol/make-sessions.sh build/gateau [DIRECTORY]
# (DIRECTORY: docs/protocol by default; tests/test_protocol.c writes them
# elsewhere and checks that they are the ones here.)
set -eu
gateau=$(realpath "$1")
here=$(dirname "$(realpath "$0")")
into=$(realpath "${2:-$here}")
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
    # The answers come after the handshake and after each go: each request
    # has one reply that ends it (ready; move N or error N).
    /usr/bin/python3 - "$work/$game.in" "$work/$game.out" > "$into/$game.txt" <<'MERGE'
import sys
sent = open(sys.argv[1]).read().splitlines()
answers = open(sys.argv[2]).read().splitlines()
for line in sent:
    print("> " + line)
    if line.startswith(("protocol", "go ")):
        while answers:
            answer = answers.pop(0)
            print("< " + answer)
            if answer == "ready" or answer.startswith(("move ", "error ")):
                break
MERGE
done

# A harness's session with gateau engine: each line sent, then what the
# engine answered to it (found by an isready after each line, not shown).
view=$(sed -n 's/^> view //p' "$into/mice-cake.txt" | sed -n 2p)
cat > "$work/engine.in" <<SESSION
protocol 0
protocol 2
setoption name bot value random
setoption name ms value fast
isready 1
newgame game mice-cake players 2 seat 1 options
view $view
go 2 move 7 ms 1000 left -1 rng e9fd6049d65af21e c51e9aa03802868b f51621f8179d6256 484b90fcf1d24019
stop 2
go 3 move 2 ms 1000 left -1 rng zz
newgame game chess players 2 seat 1 options
go 4 move 1 ms 1000 left -1 rng e9fd6049d65af21e c51e9aa03802868b f51621f8179d6256 484b90fcf1d24019
quit
SESSION
/usr/bin/python3 - "$gateau" "$work/engine.in" > "$into/engine.txt" <<'CONVERSE'
import subprocess, sys
engine = subprocess.Popen([sys.argv[1], "engine"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          text=True, bufsize=1)
def ends(answer, line, probe):
    if line.startswith("protocol"):
        return answer == "ready" or answer.startswith("error ")
    return answer == probe
handshaken = False
for number, line in enumerate(open(sys.argv[2]).read().splitlines(), 1000):
    print("> " + line)
    engine.stdin.write(line + "\n")
    if line == "quit":
        break
    probe = "readyok %d" % number
    if handshaken:
        engine.stdin.write("isready %d\n" % number)  # the marker of the answers' end
    engine.stdin.flush()
    for answer in iter(engine.stdout.readline, ""):
        answer = answer.rstrip("\n")
        if ends(answer, line, probe):
            if answer != probe:
                print("< " + answer)
            break
        print("< " + answer)
    handshaken = handshaken or line == "protocol 2"
engine.stdin.close()
sys.exit(engine.wait())
CONVERSE
