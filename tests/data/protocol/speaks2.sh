#!/bin/sh
# A protocol 2 bot that plays the first legal line, misbehaving as $1 says:
#   clean        no fault
#   stray-error  an error line for no request before each move
#   two-moves    each move sent twice
#   early        an unnumbered move when the legal lines begin, before go
#   stale        the previous request's move again before each move
#   unnumbered   its moves without their number
#   warns        a warning line before each move
#   version3     answers the handshake with protocol 3
#   version1     answers the handshake with protocol 1, then speaks it
#   refuses      speaks no version the controller offers: one error line
#   zero-rng     sends back four zero rng words before each move
#   misspelt     misspells its moves' keyword (mvoe)
#   misspelt-handshake  misspells its handshake's first line (protocl 2),
#                so is spoken to in protocol 1, which it then speaks
#   long-line    answers with one move line of 20,000 characters
#   slow         thinks 150 ms before each move
set -f # the lines hold * (Cake Master's notation): no globbing
mode=$1
first=
last=0
while IFS= read -r line; do
    set -- $line
    case "$1" in
    protocol)
        if [ "$mode" = refuses ]; then
            echo "error protocol '$2': speaks2.sh speaks protocol 3"
            continue
        fi
        case "$mode" in
        version3) echo "protocol 3" ;;
        misspelt-handshake) echo "protocl 2" ;;
        version1) echo "protocol 1" ;;
        *) echo "protocol 2" ;;
        esac
        echo "name speaks2 $mode"
        echo ready ;;
    legalcount)
        first=
        [ "$mode" = early ] && echo "move pass" ;;
    legal)
        [ -z "$first" ] && first=${line#legal } ;;
    go)
        n=$2
        case "$mode" in
        stray-error) echo "error I am confused"; echo "move $n $first" ;;
        two-moves) echo "move $n $first"; echo "move $n $first" ;;
        stale) [ "$last" -gt 0 ] && echo "move $last $first"; echo "move $n $first" ;;
        unnumbered) echo "move $first" ;;
        warns) echo "warning thinking hard"; echo "move $n $first" ;;
        version1 | misspelt-handshake) echo "move $first"; first= ;;
        zero-rng) echo "rng $n 0 0 0 0"; echo "move $n $first" ;;
        misspelt) echo "mvoe $n $first" ;;
        long-line) printf 'move %s %s%20000s\n' "$n" "$first" "" ;;
        slow) sleep 0.15; echo "move $n $first" ;;
        *) echo "move $n $first" ;;
        esac
        last=$n ;;
    quit) exit 0 ;;
    esac
done
