#!/bin/sh
# check_includes.sh SOURCE_DIR: every host of the engine uses the public
# headers (include/gateau/) only.  The private headers of src/core and
# src/games are for the library's own code: the core, the games, and the
# bots (which read their game's internal header).  Anything else under src/
# (the CLI, the arena, the store, future servers and bindings) and bench/ may include
# gateau/... and its own folder's headers, nothing from core/, games/ or
# bots/.  Exceptions, each a tool or test of internals:
#   bench/fit_mice_cake_estimate.c  fits constants of the Mice Cake search
#   bench/bench_bots.c              times the bots' rollout policies and solver
#   tests/                          unit tests of internals (card model, bot helpers)
set -e
cd "$1"
status=0
for file in $(find src bench -name '*.[ch]' | sort); do
    case "$file" in
        src/core/* | src/games/* | src/bots/* | src/games.c) continue ;;
        bench/fit_mice_cake_estimate.c | bench/bench_bots.c) continue ;;
    esac
    bad=$(grep -nE '^#include "(core|games|bots)/' "$file" || true)
    if [ -n "$bad" ]; then
        printf '%s includes private headers:\n%s\n' "$file" "$bad" >&2
        status=1
    fi
done
[ $status -eq 0 ] && echo "check_includes: hosts include only public headers"
exit $status
