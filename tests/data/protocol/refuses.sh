#!/bin/sh
# A bot that answers every request with an error line.
while read -r line; do
    case "$line" in
    protocol*) echo "name refuses"; echo ready ;;
    go*) echo "error I do not know this game" ;;
    quit*) exit 0 ;;
    esac
done
