#!/bin/sh
# check_large_budget.sh GATEAU RECORD: a search budget far beyond memory
# (300 million iterations, under a 4 GB address-space limit) must search
# with what it can, not crash: the search used to reserve its whole tree up
# front and write to it when that failed (issue 14).  The search would take
# an hour, so it is stopped after 3 seconds: 124 (still searching) passes,
# anything else (139: a segmentation fault) fails.
ulimit -v 4000000
timeout 3 "$1" hint "$2" --iters 300000000 > /dev/null 2>&1
status=$?
[ $status -eq 124 ] && { echo "large budget: still searching after 3 s, no crash"; exit 0; }
echo "large budget: gateau hint exited with $status" >&2
exit 1
