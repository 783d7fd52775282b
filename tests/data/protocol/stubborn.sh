#!/bin/sh
# A bot that ignores SIGTERM, writes its process id into the file named by
# its argument, and never answers a request: only SIGKILL ends it.
trap '' TERM
echo $$ > "$1"
while read -r line; do
    case "$line" in
    protocol*) echo "name stubborn"; echo ready ;;
    esac
done
# The end of its input does not end it either.
while :; do sleep 1; done
