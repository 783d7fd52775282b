#!/bin/sh
# A bot that answers every request after its deadline (ms=200 in the
# tests): a legal move, a second too late.
legal=""
while read -r line; do
    case "$line" in
    protocol*) echo "name late"; echo ready ;;
    legal*) [ -n "$legal" ] || legal="${line#legal }" ;;
    go*) sleep 1; echo "move $legal"; legal="" ;;
    quit*) exit 0 ;;
    esac
done
