#!/bin/sh
# criterion-summary.sh BUILD_DIR: the Criterion tests behind ctest's
# programs, counted from ctest's full log (ctest's own summary counts each
# program as one test).
log="$1/Testing/Temporary/LastTest.log"
[ -f "$log" ] || { echo "criterion-summary: no $log" >&2; exit 1; }
grep -a 'Synthesis: Tested:' "$log" | awk -F'[:|]' '
    { programs++; tested += $3; passing += $5; failing += $7; crashing += $9 }
    END { printf "Criterion: %d tests in %d programs: %d passing, %d failing, %d crashing\n",
                 tested, programs, passing, failing, crashing }'
