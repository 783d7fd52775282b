#!/bin/sh
# A bot that plays as gateau engine (second argument) the first times it
# is started, and dies at its first request from the 4th start on (the
# starts are counted in the file named by the first argument): an arena's
# check before the games, then games 1 and 2 are played, and game 3 fails.
count=$(cat "$1" 2>/dev/null || echo 0)
count=$((count + 1))
echo $count > "$1"
[ $count -lt 4 ] && exec "$2" engine --bot heuristic
while read -r line; do
    case "$line" in
    protocol*) echo "name flaky"; echo ready ;;
    go*) exit 3 ;;
    esac
done
