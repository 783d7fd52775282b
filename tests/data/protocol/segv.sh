#!/bin/sh
# A bot that is killed by SIGSEGV when first asked for a move.
while read -r line; do
    case "$line" in
    protocol*) echo "name segv"; echo ready ;;
    go*) kill -SEGV $$ ;;
    esac
done
