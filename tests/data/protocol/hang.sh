#!/bin/sh
# A bot that shakes hands, then never answers a request (it keeps reading).
while read -r line; do
    case "$line" in
    protocol*) echo "name hang"; echo ready ;;
    esac
done
