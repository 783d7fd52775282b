#!/bin/sh
# A bot that starts a child of its own, writes both process ids into the
# file named by its argument, then never answers: free must leave neither.
sleep 600 &
echo "$$ $!" > "$1"
while read -r line; do
    case "$line" in
    protocol*) echo "name family"; echo ready ;;
    esac
done
