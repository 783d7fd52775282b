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
#   fuzz_request requests of every kind to the server's tables: real first
#                moves (from `gateau play --seed 1`, the tables' deal) in
#                notation, and the harness's own legal moves as notation
#                and action lists, tokens in headers and first messages;
#                whole and pipelined requests, bodies it must refuse,
#                WebSocket frames against RFC 6455, the web root's files
#                and what it must not serve, replays of a record
#   fuzz_part    arena part files of every game (`gateau arena --part`),
#                one cut short in its last line
#   fuzz_engine  sessions of `gateau engine` for every game (VIEW: a real
#                position's view), the start of each game's session in
#                docs/protocol/ with its views, and lines it must refuse
# GATEAU is a built `gateau` command (build/gateau).
set -e
gateau="$1"
out="$2"
[ -x "$gateau" ] && [ -n "$out" ] || { echo "usage: make-corpus.sh GATEAU OUT_DIR" >&2; exit 2; }
gateau="$(cd "$(dirname "$gateau")" && pwd)/$(basename "$gateau")" # (used from tests/data too)
data="$(cd "$(dirname "$0")/../tests/data" && pwd)"
sessions="$(cd "$(dirname "$0")/../docs/protocol" && pwd)"
mkdir -p "$out/fuzz_record" "$out/fuzz_move" "$out/fuzz_setup" "$out/fuzz_deck" "$out/fuzz_flags" \
    "$out/fuzz_request" "$out/fuzz_part"

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

# ---- server requests: kind byte, table byte, payload (fuzz/fuzz_request.c) -------------
# Kinds: 0 create, 1 move, 2 join, 3 zombie, 4 get, 5 raw, 6 message, 7 frames,
# 8 replay.
# Tables: 0 piece-o-cake (3), 1 maries-table (3), 2 mice-cake (2),
# 3 cake-master (2), 4 piece-o-cake with open seats 2 and 3.
# Tokens travel in `Authorization: Bearer` (a header line before a POST's
# body and an empty line, or after a GET's target) and in a WebSocket's
# first message (docs/server.md).
request_seed() { # name kind table payload
    { byte "$2"; byte "$3"; printf '%s' "$4"; } > "$out/fuzz_request/$1"
}
crlf() { # the arguments as lines ending in CR LF
    for line in "$@"; do printf '%s\r\n' "$line"; done
}
request_seed create-piece 0 0 '{"game":"piece-o-cake","players":3,"seats":["human","open","random"]}'
request_seed create-options 0 0 '{"game":"piece-o-cake","seats":["human","heuristic"],"options":{"rounds":2},"clock":"10m+20s"}'
request_seed create-maries 0 1 '{"game":"maries-table","seats":["open","open","open","open"]}'
request_seed create-mice 0 2 '{"game":"mice-cake","players":2,"seats":["random","random"],"clock":"1h"}'
request_seed create-deck 0 3 "$(printf '{"game":"cake-master","seats":["human","random"],"deck":"%s"}' \
    "$(sed 's/\\/\\\\/g; s/"/\\"/g' "$data/cake-master-small.deck" | awk '{printf "%s\\n", $0}')")"
request_seed create-names 0 0 '{"game":"piece-o-cake","seats":["human","open","random"],"names":["Ann",null,"Bot"]}'
# Bodies the server must not take: another Content-Type (415), nested
# deeper than 32 (400).
request_seed create-form 0 0 'Content-Type: application/x-www-form-urlencoded

{"game":"piece-o-cake","players":3,"seats":["human","open","random"]}'
request_seed create-text 0 0 'Content-Type: text/plain;charset=utf-8

{"game":"piece-o-cake","players":3,"seats":["human","open","random"]}'
request_seed create-deep 0 0 "{\"game\":\"piece-o-cake\",\"options\":$(printf '[%.0s' $(seq 40))$(printf ']%.0s' $(seq 40))}"
# Real first moves of each table (the deal of seed 1), in notation.
table=0
for game in "piece-o-cake 3" "maries-table 3" "mice-cake 2" "cake-master 2"; do
    set -- $game
    seats=$(yes random | head -n "$2" | paste -sd, -)
    "$gateau" play "$1" --players "$2" --seats "$seats" --seed 1 --record "$out/record.txt" \
        < /dev/null > /dev/null
    line=$(sed '1,/^---$/d; /^#/d; /^deal /d; /^customers /d; /^roll /d' "$out/record.txt" | head -n 1)
    token='$TOKEN'
    case "$line" in
        [1-9]:*) token="\$TOKEN${line%%:*}" line=${line#*: } ;;
    esac
    [ $table -eq 0 ] && first_move="$line"
    request_seed "move-$1" 1 $table "Authorization: Bearer $token

{\"version\":\$VERSION,\"move\":\"$line\"}"
    request_seed "move-$1-stale" 1 $table "Authorization: Bearer $token

{\"version\":0,\"move\":\"$line\"}"
    request_seed "move-$1-notation" 1 $table 'Authorization: Bearer $TOKEN

{"version":$VERSION,"move":"$MOVE"}'
    request_seed "move-$1-actions" 1 $((table + 5)) 'Authorization: Bearer $TOKEN

{"version":$VERSION,"move":[$ACTIONS]}'
    request_seed "get-$1" 4 $table '/api/tables/$ID?log_from=1
Authorization: Bearer $TOKEN'
    request_seed "legal-$1" 4 $table '/api/tables/$ID/legal?after=$FIRST
Authorization: Bearer $TOKEN'
    request_seed "record-$1" 4 $table '/api/tables/$ID/record
Authorization: Bearer $TOKEN2'
    request_seed "message-$1" 6 $table '/api/tables/$ID/ws
{"token":"$TOKEN"}
ping'
    table=$((table + 1))
done
rm -f "$out/record.txt"
request_seed move-wrong-seat 1 0 'Authorization: Bearer $TOKEN2

{"version":$VERSION,"move":"$MOVE"}'
request_seed move-forged 1 2 'Authorization: Bearer forged

{"version":1,"move":[1,2]}'
request_seed move-no-token 1 0 '{"version":$VERSION,"move":"$MOVE"}'
request_seed move-token-in-body 1 0 '{"token":"$TOKEN","version":$VERSION,"move":"$MOVE"}'
request_seed move-two-tokens 1 1 'Authorization: Bearer $TOKEN
Authorization: Bearer $TOKEN2

{"version":$VERSION,"move":"$MOVE"}'
request_seed join 2 4 '{"seat":2,"name":"Bob"}'
request_seed join-taken 2 4 '{"seat":1}'
request_seed zombie 3 0 'Authorization: Bearer $CREATOR

{"seat":2,"zombie":true,"bot":"random"}'
request_seed zombie-back 3 1 'Authorization: Bearer $CREATOR

{"seat":1,"zombie":false}'
request_seed zombie-seat-token 3 0 'Authorization: Bearer $TOKEN1

{"seat":2,"zombie":true,"bot":"heuristic"}'
request_seed zombie-creator-in-body 3 0 '{"creator":"$CREATOR","seat":2,"zombie":true,"bot":"random"}'
request_seed games 4 0 '/api/games'
request_seed lobby 4 0 '/api/tables'
request_seed spectator 4 3 '/api/tables/$ID'
request_seed record 4 2 '/api/tables/$ID/record'
request_seed legal 4 1 '/api/tables/$ID/legal?after=$ACTIONS
Authorization: Bearer $TOKEN'
request_seed hint 4 2 '/api/tables/$ID/hint?ms=10
Authorization: Bearer $TOKEN'
request_seed get-basic 4 0 '/api/tables/$ID
Authorization: Basic $TOKEN'
request_seed get-lower-bearer 4 1 '/api/tables/$ID
authorization: bearer $TOKEN'
# A token in a query is refused (400), on any route.
request_seed get-token-in-query 4 0 '/api/tables/$ID?token=$TOKEN'
request_seed legal-token-in-query 4 1 '/api/tables/$ID/legal?after=$FIRST&token=$TOKEN'
request_seed get-token-encoded 4 2 '/api/tables/$ID?log_from=0&%74oken=$TOKEN'
# Whole requests: a move (its head's and body's lengths count a token as
# the 32 characters it becomes), pipelined requests, an upgrade with its
# first message, a HEAD.
body="{\"version\":1,\"move\":\"$first_move\"}"
{ byte 5; byte 0; crlf 'POST /api/tables/$ID/moves HTTP/1.1' 'Host: 127.0.0.1' \
      'Authorization: Bearer $TOKEN' 'Content-Type: application/json' "Content-Length: ${#body}" ''
  printf '%s' "$body"; } > "$out/fuzz_request/raw-move"
{ byte 5; byte 1; crlf 'GET /api/tables/$ID HTTP/1.1' 'Host: 127.0.0.1' 'Authorization: Bearer $TOKEN' '' \
      'GET /api/tables/$ID/legal?after=$FIRST HTTP/1.1' 'Host: 127.0.0.1' 'Authorization: Bearer $TOKEN' '' \
      'POST /api/tables/$ID/join HTTP/1.1' 'Host: 127.0.0.1' 'Content-Type: application/json' \
      'Content-Length: 10' '' '{"seat":1}DELETE /api/tables HTTP/1.1' 'Host: 127.0.0.1' \
      'Connection: close' ''; } > "$out/fuzz_request/raw-pipelined"
# (the first message masked with 0 0 0 0: {"token":"<32 characters>"} is 44 bytes)
{ byte 5; byte 2; crlf 'GET /api/tables/$ID/ws HTTP/1.1' 'Host: 127.0.0.1' \
      'Upgrade: websocket' 'Connection: Upgrade' 'Origin: http://127.0.0.1' \
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==' 'Sec-WebSocket-Version: 13' ''
  byte 129; byte 172; printf '\000\000\000\000{"token":"$TOKEN1"}'; } \
    > "$out/fuzz_request/raw-upgrade"
{ byte 5; byte 3; crlf 'HEAD /api/games HTTP/1.0' 'Host: 127.0.0.1' ''; } > "$out/fuzz_request/raw-head"
{ byte 5; byte 0; crlf 'POST /api/tables HTTP/1.1' 'Host: 127.0.0.1' 'Content-Type: text/plain' \
      'Content-Length: 2' '' ; printf '{}'; } > "$out/fuzz_request/raw-text-body"
{ byte 5; byte 0; crlf 'GET /api/games HTTP/2.0' 'Host: 127.0.0.1' ''; } > "$out/fuzz_request/raw-http2"
{ byte 5; byte 0; crlf 'GET /api/games HTTP/1.1' 'Host: elsewhere.example' ''; } \
    > "$out/fuzz_request/raw-other-host"
# WebSockets: a spectator, a seat, a forged token, a query, a hello that is
# neither of the two.
request_seed message-spectator 6 3 '/api/tables/$ID/ws
{}
{"hello":1}'
request_seed message-seat2 6 0 '/api/tables/$ID/ws
{"token":"$TOKEN2"}'
request_seed message-forged 6 1 '/api/tables/$ID/ws
{"token":"forged"}'
request_seed message-extra-field 6 2 '/api/tables/$ID/ws
{"token":"$TOKEN","seat":1}'
request_seed message-token-in-query 6 0 '/api/tables/$ID/ws?token=$TOKEN
{}'
# Frames as a client sends them, masked: the first message, a ping, a
# text, a close.
{ byte 7; byte 0; printf '/api/tables/$ID/ws\n'
  byte 129; byte 172; printf '\000\000\000\000{"token":"$TOKEN"}'
  byte 137; byte 132; printf 'abcd'; printf '\021\021\021\021'
  byte 129; byte 130; printf '\000\000\000\000hi'
  byte 136; byte 130; printf '\000\000\000\000\003\350'; } > "$out/fuzz_request/frames"
# The first message in two fragments, and a spectator's.
{ byte 7; byte 1; printf '/api/tables/$ID/ws\n'
  byte 1; byte 138; printf '\000\000\000\000{"token":"'
  byte 128; byte 162; printf '\000\000\000\000$TOKEN"}'
  byte 136; byte 128; printf '\000\000\000\000'; } > "$out/fuzz_request/frames-fragmented"
{ byte 7; byte 3; printf '/api/tables/$ID/ws\n'
  byte 129; byte 130; printf '\000\000\000\000{}'; } > "$out/fuzz_request/frames-spectator"
# Frames against RFC 6455 (1002, 1007) after the first message: a reserved
# opcode, an RSV bit, a ping over 125 bytes, a continuation out of place,
# a text not in UTF-8; and an unmasked first message.
frames_seed() { # name table: the first message, then the frame bytes of stdin
    { byte 7; byte "$2"; printf '/api/tables/$ID/ws\n'
      byte 129; byte 172; printf '\000\000\000\000{"token":"$TOKEN"}'; cat; } \
        > "$out/fuzz_request/$1"
}
{ byte 131; byte 128; printf '\000\000\000\000'; } | frames_seed frames-reserved-opcode 0
{ byte 193; byte 130; printf '\000\000\000\000{}'; } | frames_seed frames-rsv-bit 1
{ byte 137; byte 254; byte 0; byte 126; printf '\000\000\000\000'; head -c 126 /dev/zero; } |
    frames_seed frames-long-ping 2
{ byte 128; byte 130; printf '\000\000\000\000hi'; } | frames_seed frames-stray-continuation 3
{ byte 129; byte 130; printf '\000\000\000\000\377\376'; } | frames_seed frames-not-utf8 0
{ byte 7; byte 0; printf '/api/tables/$ID/ws\n'
  byte 129; byte 2; printf '{}'; } > "$out/fuzz_request/frames-unmasked"
# A message over 4 KiB in two fragments (1009), a ping before the first
# message, a close with a reason.
{ byte 1; byte 254; byte 8; byte 0; printf '\000\000\000\000'; head -c 2048 /dev/zero | tr '\0' 'a'
  byte 128; byte 254; byte 8; byte 16; printf '\000\000\000\000'; head -c 2064 /dev/zero | tr '\0' 'a'; } |
    frames_seed frames-too-long 1
{ byte 7; byte 2; printf '/api/tables/$ID/ws\n'
  byte 137; byte 128; printf '\000\000\000\000'
  byte 129; byte 130; printf '\000\000\000\000{}'
  byte 136; byte 135; printf '\000\000\000\000\003\350bye'; } > "$out/fuzz_request/frames-ping-first"
# First messages the server must close (1008, 1009, 1007).
request_seed message-too-long 6 0 "/api/tables/\$ID/ws
{\"token\":\"$(head -c 4100 /dev/zero | tr '\0' 'x')\"}"
request_seed message-deep 6 1 "/api/tables/\$ID/ws
$(printf '[%.0s' $(seq 40))$(printf ']%.0s' $(seq 40))"
request_seed message-not-utf8 6 2 "$(printf '/api/tables/$ID/ws\n{"token":"\377"}')"
request_seed message-no-table 6 0 '/api/tables/nosuchtable/ws
{}'
# The web root (the target's own: fuzz/fuzz_request.c): its files, a
# folder, and what it must never serve (a dot file, symbolic links out of
# it, paths out of it); a file's ETag.
request_seed web-root 4 0 '/'
request_seed web-file 4 0 '/app.js'
request_seed web-folder 4 0 '/sub/'
request_seed web-dot-file 4 0 '/.hidden'
request_seed web-link 4 0 '/link.txt'
request_seed web-linked-folder 4 0 '/up/secret.txt'
request_seed web-dot-dot 4 0 '/sub/../../secret.txt'
request_seed web-encoded-dot-dot 4 0 '/%2e%2e/secret.txt'
request_seed web-etag 4 0 '/index.html
If-None-Match: "0-0"'
# What browsers are trusted with: a rebinding Host, a foreign Origin's POST
# and CORS preflight, methods other than GET, HEAD and POST (405, and
# libwebsockets' own 403 for one it does not know).
request_seed get-rebinding 4 0 '/api/games
Host: attacker.example'
request_seed create-foreign-origin 0 0 'Origin: http://attacker.example

{"game":"piece-o-cake","players":3,"seats":["human","open","random"]}'
{ byte 5; byte 0; crlf 'OPTIONS /api/tables HTTP/1.1' 'Host: 127.0.0.1' 'Origin: http://attacker.example' \
      'Access-Control-Request-Method: POST' ''; } > "$out/fuzz_request/raw-preflight"
{ byte 5; byte 0; crlf 'DELETE /api/tables/$ID HTTP/1.1' 'Host: 127.0.0.1' '' \
      'PROPFIND / HTTP/1.1' 'Host: 127.0.0.1' ''; } > "$out/fuzz_request/raw-methods"
# Bodies: empty, chunked (411: a POST says its length), expecting 100.
{ byte 5; byte 0; crlf 'POST /api/tables HTTP/1.1' 'Host: 127.0.0.1' 'Content-Type: application/json' \
      'Content-Length: 0' ''; } > "$out/fuzz_request/raw-empty-body"
{ byte 5; byte 0; crlf 'POST /api/tables HTTP/1.1' 'Host: 127.0.0.1' 'Content-Type: application/json' \
      'Transfer-Encoding: chunked' '' '2' '{}' '0' ''; } > "$out/fuzz_request/raw-chunked"
{ byte 5; byte 4; crlf 'POST /api/tables/$ID/join HTTP/1.1' 'Host: 127.0.0.1' \
      'Content-Type: application/json' 'Expect: 100-continue' 'Content-Length: 10' ''
  printf '{"seat":2}'; } > "$out/fuzz_request/raw-expect"
# Replays: a whole record for every seat, one cut short, a finished
# table's (403 before its end).
record="$(sed 's/\\/\\\\/g; s/"/\\"/g' "$out/fuzz_record/piece-o-cake-3-1.txt" | awk '{printf "%s\\n", $0}')"
request_seed replay-record 8 0 "{\"seat\":\"all\",\"record\":\"$record\"}"
request_seed replay-seat 8 0 "{\"seat\":2,\"record\":\"$(printf '%s' "$record" | head -c 300)\"}"
request_seed replay-table 4 1 '/api/tables/$ID/replay?seat=all'

# ---- arena part files ----------------------------------------------------------------
for game in "piece-o-cake 3" "maries-table 4" "mice-cake 2" "cake-master 2"; do
    set -- $game
    seats=$(printf 'random,%.0s' $(seq "$2")); seats=${seats%,}
    "$gateau" arena "$1" --players "$2" --seats "$seats" --games 12 --seed 3 --threads 1 \
        --shard 2/3 --part "$out/fuzz_part/$1" > /dev/null
done
head -c -5 "$out/fuzz_part/piece-o-cake" > "$out/fuzz_part/cut-short"

# ---- gateau engine's lines (the bot protocol, docs/protocol.md) ------------------------
mkdir -p "$out/fuzz_engine"
for game in "piece-o-cake 3" "maries-table 4" "mice-cake 2" "cake-master 2"; do
    set -- $game
    printf 'protocol 1\nset bot heuristic\nnewgame game %s players %s seat 1\nVIEW\ngo 1 ms 50 left -1 rng 1 2 3 4\nend scores 1 2 winners 1\nquit\n' \
        "$1" "$2" > "$out/fuzz_engine/$1"
    printf 'protocol 2\nsetoption name bot value heuristic\nsetoption name ms value 20\nisready 1\nnewgame game %s players %s seat 1\nVIEW\ngo 2 move 1 ms 50 left 40 rng 1 2 3 4\nstop 2\nend scores 1 2 winners 1\nquit\n' \
        "$1" "$2" > "$out/fuzz_engine/$1-protocol-2"
    # The start of a real session, views and all (the controller's lines of
    # docs/protocol/GAME.txt up to its second go), for the fuzzer to change.
    sed -n 's/^> //p' "$sessions/$1.txt" | awk '{ print } /^go / && ++n == 2 { exit }' \
        > "$out/fuzz_engine/$1-session"
done
printf 'protocol 1\nbogus line\nnewgame game nope players 9 seat 0\ngo\nview zzz\nquit\n' \
    > "$out/fuzz_engine/errors"
printf 'protocol 0\nprotocol 2\nsetoption name\nsetoption name ms value -1\ngo\ngo 1 move\nisready x\nstop\nquit\n' \
    > "$out/fuzz_engine/errors-protocol-2"
