#!/bin/sh
# A bot that dies when first asked for a move.
while read -r line; do
    case "$line" in
    protocol*) echo "name crash"; echo ready ;;
    go*) exit 3 ;;
    esac
done
