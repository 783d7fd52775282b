#!/bin/sh
# A bot that answers a request with endless lines that mean nothing.
while read -r line; do
    case "$line" in
    protocol*) echo "name flood"; echo ready ;;
    go*) exec yes "garbage garbage garbage" ;;
    esac
done
