#!/bin/sh
# criterion-summary.sh BUILD_DIR: the Criterion tests behind ctest's
# entries, counted from ctest's full log (ctest's own summary counts each
# entry as one test; a program's long tests may be entries of their own).
log="$1/Testing/Temporary/LastTest.log"
[ -f "$log" ] || { echo "criterion-summary: no $log" >&2; exit 1; }
grep -a -e '^Command: ' -e 'Synthesis: Tested:' "$log" | awk -F'[:|]' '
    /^Command: / { split($0, words, "\""); program = words[2]; next }
    { entries++; if (!(program in seen)) { seen[program] = 1; programs++ }
      tested += $3; passing += $5; failing += $7; crashing += $9 }
    END { printf "Criterion: %d tests in %d programs (%d ctest entries): %d passing, %d failing, %d crashing\n",
                 tested, programs, entries, passing, failing, crashing }'
