#!/bin/sh
# A bot that answers every request with lines of garbage, control
# characters and bytes that are not UTF-8 included, the last one a move.
while read -r line; do
    case "$line" in
    protocol*) echo "name garbage"; echo ready ;;
    go*) printf '\001\002\377\376 %%$#@!\n}{][\nmove \033[31m\377\001 nonsense\n' ;;
    quit*) exit 0 ;;
    esac
done
